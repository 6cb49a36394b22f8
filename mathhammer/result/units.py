"""Figures of a unit as the target: how many of its models are destroyed.

A mixin of :class:`~mathhammer.result.Result`. A single model is a unit of one: its
``models_destroyed_pmf`` is ``[1 - kill, kill]``, so every figure here reads the same for
both (docs/units.md).
"""

from __future__ import annotations

import numpy as np

from .._core.intervals import normal_interval, pmf_moments, pmf_sd, wilson_interval
from .fields import EFFECT_DESTROYED, SLOT_DESTROYED

__all__ = ["UnitFigures"]


class UnitFigures:
    """Models destroyed: at the end, and once each attack is resolved."""

    @property
    def models_destroyed_pmf(self) -> np.ndarray:
        """``pmf[k]``: probability exactly k models of the target are destroyed at the end,
        k = 0..models.

        >>> import numpy as np
        >>> from mathhammer.result import Result
        >>> r = Result("exact", None, None, ("A #1",), 1.0, np.array([0.25, 0.75]),
        ...            np.zeros((1, 10)), np.array([0.75]), 1)
        >>> r.models_destroyed_pmf.tolist(), r.models_destroyed_mean
        ([0.25, 0.75], 0.75)
        """
        if self.destroyed_weights is None:
            killed = self._kill_weight()
            return np.array([self.total - killed, killed]) / self.total
        return np.asarray(self.destroyed_weights, dtype=np.float64) / self.total

    @property
    def models_destroyed_mean(self) -> float:
        """Expected models of the target destroyed at the end."""
        pmf = self.models_destroyed_pmf
        return float(np.arange(pmf.size) @ pmf)

    @property
    def models_destroyed_sd(self) -> float:
        return pmf_sd(self.models_destroyed_pmf)

    @property
    def models_destroyed_ci95(self) -> tuple[float, float]:
        """95% interval of :attr:`models_destroyed_mean` (normal, from the sample's standard
        deviation; a point for exact results)."""
        return self.destroyed_summary()[1]

    @property
    def models_destroyed_at_least(self) -> np.ndarray:
        """``p[k]``: probability at least k models are destroyed, k = 0..models."""
        return np.cumsum(self.models_destroyed_pmf[::-1])[::-1]

    @property
    def models_destroyed_at_least_ci95(self) -> list[tuple[float, float]]:
        """95% Wilson interval of each :attr:`models_destroyed_at_least` entry (points for
        exact results)."""
        return self.destroyed_summary()[3]

    def destroyed_summary(self) -> tuple[float, tuple[float, float], list[float],
                                         list[tuple[float, float]]]:
        """``(models_destroyed_mean, models_destroyed_ci95, models_destroyed_at_least,
        models_destroyed_at_least_ci95)`` from one pmf (the at-least figures as Python floats):
        what a summary of many points asks for, worked out once.

        Examples
        --------
        >>> import numpy as np
        >>> from mathhammer.result import Result
        >>> r = Result("monte_carlo", 4, 1, ("A #1",), 4.0, np.array([1.0, 0, 1, 2]),
        ...            np.zeros((1, 10)), np.array([2.0]), 3, models=3,
        ...            destroyed_weights=np.array([1.0, 1, 0, 2]))
        >>> mean, ci, at_least, cis = r.destroyed_summary()
        >>> (mean, ci, at_least, cis) == (r.models_destroyed_mean, r.models_destroyed_ci95,
        ...                               r.models_destroyed_at_least.tolist(),
        ...                               r.models_destroyed_at_least_ci95)
        True
        >>> at_least
        [1.0, 0.75, 0.5, 0.5]
        """
        pmf = self.models_destroyed_pmf
        mean, sd = pmf_moments(pmf)
        ci = normal_interval(mean, sd, None if self.exact else self.trials)
        at_least = np.cumsum(pmf[::-1])[::-1].tolist()  # Python floats, the same values
        if self.exact:
            return mean, ci, at_least, [(p, p) for p in at_least]
        trials = int(self.trials)
        cis = [wilson_interval(round(p * self.total), trials) for p in at_least]
        return mean, ci, at_least, cis

    @property
    def destroyed_by_attack(self) -> np.ndarray:
        """Expected models each attack destroys (0 when not made)."""
        return self.slot_weights[:, SLOT_DESTROYED] / self.total

    @property
    def destroyed_mean_after(self) -> np.ndarray:
        """Expected models destroyed once each attack slot is resolved (those the maintenance
        phases of earlier rounds destroyed included)."""
        out = np.cumsum(self.slot_weights[:, SLOT_DESTROYED])
        if self.effect_weights is not None and self.slot_round:
            # fire and corrosion; quicksand's models are counted by the attack that knocked down
            per_round = self.effect_weights[:, :2, EFFECT_DESTROYED].sum(axis=1)
            before = np.concatenate([[0.0], np.cumsum(per_round)])
            out = out + before[np.asarray(self.slot_round)]
        return out / self.total

    def unit_dict(self) -> dict:
        """The ``--json`` keys of models destroyed (every result has them: one model is a
        unit of one)."""
        lo, hi = self.models_destroyed_ci95
        return {
            "models": self.models,
            "models_destroyed_pmf": [float(p) for p in self.models_destroyed_pmf],
            "models_destroyed_mean": self.models_destroyed_mean,
            "models_destroyed_ci95": [lo, hi],
        }
