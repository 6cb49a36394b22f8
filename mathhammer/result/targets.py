"""Figures of each of several targets: destroyed, damage, models destroyed, by round.

A mixin of :class:`~mathhammer.result.Result`. With several targets (docs/units.md) the
result's headline figures are the whole scenario's: ``kill`` is every target destroyed
(``all_destroyed``), the damage and models destroyed are summed over the targets; the figures
of each target are kept apart in the ``target_*`` fields and read here. A single target is
the one entry of :attr:`TargetFigures.targets`, read from the headline figures, so every
reader handles one or several the same way.
"""

from __future__ import annotations

import numpy as np

from .._core.intervals import normal_interval, pmf_sd, wilson_interval
from ..errors import InputError

__all__ = ["TargetFigures"]


class TargetFigures:
    """Per-target figures of a result (one entry for a single target)."""

    @property
    def several(self) -> bool:
        """Whether the scenario had several targets."""
        return len(self.target_names) > 1

    @property
    def all_destroyed(self) -> float:
        """Probability every target is destroyed at the end (the kill)."""
        return self.kill

    @property
    def names(self) -> tuple[str, ...]:
        """The targets' names, in order."""
        return self.target_names if self.several else (self.target_name,)

    def _target_rows(self, g: int):
        """Damage weights, destroyed weights and kill weights by round of target ``g``."""
        if not self.several:
            rounds = np.diff(np.concatenate([[0.0], self.kill_by_turn])) * self.total
            destroyed = (self.destroyed_weights if self.destroyed_weights is not None
                         else np.array([self.total - self._kill_weight(), self._kill_weight()]))
            return self.damage_weights, np.asarray(destroyed, dtype=np.float64), rounds
        return (np.asarray(self.target_damage_weights[g], dtype=np.float64),
                np.asarray(self.target_destroyed_weights[g], dtype=np.float64),
                np.asarray(self.target_kill_weights[g], dtype=np.float64))

    def target_figures(self, name: str) -> dict:
        """The figures of the target ``name``: ``kill`` (it ends destroyed) and its interval,
        ``damage_mean`` / ``damage_pmf`` (its boxes marked, a destroyed model counting all of
        its boxes), ``models``, ``models_destroyed_pmf`` / ``_mean`` / ``_ci95`` and
        ``kill_by_turn`` (destroyed by the end of each round).

        >>> import numpy as np
        >>> from mathhammer.result import Result
        >>> r = Result("exact", None, None, ("A #1",), 1.0, np.array([0.25, 0.75]),
        ...            np.zeros((1, 10)), np.array([0.75]), 1, target_name="Solo")
        >>> r.target_figures("Solo")["kill"]
        0.75
        """
        if name not in self.names:
            raise InputError("target", name, "names no target: the targets are "
                             + ", ".join(repr(x) for x in self.names))
        g = self.names.index(name)
        damage, destroyed, rounds = self._target_rows(g)
        total = self.total
        killed = float(destroyed[-1])
        kill = killed / total
        dpmf = damage / total
        mpmf = destroyed / total
        k = np.arange(dpmf.size)
        m = np.arange(mpmf.size)
        damage_mean = float(k @ dpmf)
        models_mean = float(m @ mpmf)
        n = None if self.exact else self.trials
        kill_ci = (kill, kill) if self.exact else wilson_interval(round(killed), int(self.trials))
        by_turn = np.cumsum(rounds) / total
        return {
            "name": name,
            "kill": kill,
            "kill_ci95": [float(kill_ci[0]), float(kill_ci[1])],
            "damage_mean": damage_mean,
            "damage_mean_ci95": list(normal_interval(damage_mean, pmf_sd(dpmf), n)),
            "damage_pmf": [float(p) for p in dpmf],
            "models": int(mpmf.size - 1),
            "models_destroyed_pmf": [float(p) for p in mpmf],
            "models_destroyed_mean": models_mean,
            "models_destroyed_ci95": list(normal_interval(models_mean, pmf_sd(mpmf), n)),
            "kill_by_turn": [float(p) for p in by_turn],
        }

    @property
    def targets(self) -> dict[str, dict]:
        """:meth:`target_figures` of every target, by name (the ``--json`` key ``targets``)."""
        return {name: self.target_figures(name) for name in self.names}
