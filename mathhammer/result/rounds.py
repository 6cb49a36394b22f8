"""Figures over rounds: kills by attack and by round, continuous effects and hazards.

A mixin of :class:`~mathhammer.result.Result`, reading its ``kill_weights``,
``maintenance_kill_weights``, ``slot_round``, ``turns`` and ``effect_weights``.
"""

from __future__ import annotations

import numpy as np

from .._core.intervals import wilson_interval
from .fields import (
    EFFECT_AFTER,
    EFFECT_APPLIED,
    EFFECT_DAMAGE,
    EFFECT_KILL,
    EFFECT_NAMES,
    EFFECT_PRESENT,
    EFFECT_TARGET_SPENT,
    EFFECT_TOUGH,
)

__all__ = ["RoundFigures"]


class RoundFigures:
    """Per-round and per-effect figures of a :class:`~mathhammer.result.Result`."""

    @property
    def kill_after(self) -> np.ndarray:
        """Probability the target is disabled once each attack slot is resolved (kills in
        the maintenance phases of earlier rounds included)."""
        out = np.cumsum(self.kill_weights)
        if self.maintenance_kill_weights is not None and self.slot_round:
            before = np.concatenate([[0.0], np.cumsum(self.maintenance_kill_weights)])
            out = out + before[np.asarray(self.slot_round)]
        return out / self.total

    @property
    def kill_by_turn(self) -> np.ndarray:
        """``p[t]``: probability the target is killed by the end of round t + 1."""
        per = np.zeros(self.turns)
        rounds = np.asarray(self.slot_round) if self.slot_round else np.zeros(self.n_attacks, int)
        np.add.at(per, rounds, self.kill_weights)
        if self.maintenance_kill_weights is not None:
            per += self.maintenance_kill_weights
        return np.cumsum(per) / self.total

    @property
    def turn_rows(self) -> list[dict]:
        """Per round: ``turn`` (1-based), ``kill`` by its end and ``kill_ci95`` (the ``by_turn``
        entry of :meth:`to_dict`; :meth:`by_turn` gives the same as a frame)."""
        out = []
        for t, p in enumerate(self.kill_by_turn):
            if self.exact:
                ci = (float(p), float(p))
            else:
                ci = wilson_interval(float(p) * self.trials, int(self.trials))
            out.append({"turn": t + 1, "kill": float(p), "kill_ci95": [ci[0], ci[1]]})
        return out

    def effect_figure(self, effect: str, column: int) -> np.ndarray:
        """Per round, an ``EFFECT_*`` figure of ``effect`` divided by the total (zeros when no
        continuous effect can happen)."""
        if self.effect_weights is None:
            return np.zeros(self.turns)
        return self.effect_weights[:, EFFECT_NAMES.index(effect), column] / self.total

    def effect_total(self, column: int) -> float:
        """An ``EFFECT_*`` figure summed over effects and rounds, divided by the total (0.0
        when no continuous effect can happen)."""
        if self.effect_weights is None:
            return 0.0
        return float(self.effect_weights[:, :, column].sum() / self.total)

    @property
    def effects_target_spent(self) -> float:
        """Expected focus the target's power field spent against fire, corrosion and
        quicksand (not against an attack: ``target_spent_mean``)."""
        return self.effect_total(EFFECT_TARGET_SPENT)

    @property
    def effects_tough_saves(self) -> float:
        """Expected Tough saves caused by fire, corrosion and quicksand (not by an attack:
        ``tough_saves``)."""
        return self.effect_total(EFFECT_TOUGH)

    @property
    def effects(self) -> dict:
        """Per continuous effect and hazard: expected damage points it marked over all
        rounds, and per round the probability it is on the target at the end of the round
        (``burning_after``), was applied, and killed; over all rounds, the focus the
        target's power field spent against it (``target_spent_mean``) and the Tough saves it
        caused (``tough_saves``)."""
        if self.effect_weights is None:
            return {}
        out = {}
        for e in (EFFECT_NAMES if self.effect_names is None else self.effect_names):
            out[e] = {
                "damage_mean": float(self.effect_figure(e, EFFECT_DAMAGE).sum()),
                "damage_by_turn": self.effect_figure(e, EFFECT_DAMAGE).tolist(),
                "present_by_turn": self.effect_figure(e, EFFECT_PRESENT).tolist(),
                "applied_by_turn": self.effect_figure(e, EFFECT_APPLIED).tolist(),
                "kill_by_turn": self.effect_figure(e, EFFECT_KILL).tolist(),
                "burning_after": self.effect_figure(e, EFFECT_AFTER).tolist(),
                "target_spent_mean": float(self.effect_figure(e, EFFECT_TARGET_SPENT).sum()),
                "tough_saves": float(self.effect_figure(e, EFFECT_TOUGH).sum()),
            }
        return out
