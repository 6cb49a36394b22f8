"""Models destroyed: a unit as the target (:class:`UnitPart`, ``Result.units``), and the
figures of models destroyed of any result (functions of a result).

A single model is a unit of one: it has no unit view (``Result.units`` is None) and its
``models_destroyed_pmf`` is ``[1 - kill, kill]``, so every figure here reads the same for
both (docs/units.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .._core.intervals import normal_interval, pmf_moments, pmf_sd, wilson_interval
from .fields import EFFECT_DESTROYED, SLOT_DESTROYED

if TYPE_CHECKING:  # pragma: no cover
    from .core import Result

__all__ = ["UnitPart", "models_destroyed_pmf", "models_destroyed_mean", "models_destroyed_sd",
           "models_destroyed_ci95", "models_destroyed_at_least", "models_destroyed_at_least_ci95",
           "destroyed_summary", "destroyed_by_attack", "destroyed_mean_after", "unit_dict"]


@dataclass(frozen=True, eq=False)
class UnitPart:
    """The models of a target of several (a unit, or several targets together).

    Parameters
    ----------
    models : int
        Models of the target (over 1). The result's ``boxes`` is then the whole unit's (models
        x each model's boxes) and its ``damage_weights`` are over the damage marked on the
        unit (a destroyed model counts all its boxes); a kill is every model destroyed.
    destroyed_weights : ndarray, shape (models + 1,)
        Weight of exactly k models destroyed at the end.
    """

    models: int
    destroyed_weights: np.ndarray


def models_destroyed_pmf(result: Result) -> np.ndarray:
    """``pmf[k]``: probability exactly k models of the target are destroyed at the end,
    k = 0..models.

    >>> import numpy as np
    >>> from mathhammer.result import Result
    >>> r = Result("exact", None, None, ("A #1",), 1.0, np.array([0.25, 0.75]),
    ...            np.zeros((1, 10)), np.array([0.75]), 1)
    >>> r.models_destroyed_pmf.tolist(), r.models_destroyed_mean
    ([0.25, 0.75], 0.75)
    """
    if result.units is None:
        killed = result.kill_weight()
        return np.array([result.total - killed, killed]) / result.total
    return np.asarray(result.units.destroyed_weights, dtype=np.float64) / result.total


def models_destroyed_mean(result: Result) -> float:
    """Expected models of the target destroyed at the end."""
    pmf = models_destroyed_pmf(result)
    return float(np.arange(pmf.size) @ pmf)


def models_destroyed_sd(result: Result) -> float:
    """Standard deviation of the models of the target destroyed at the end."""
    return pmf_sd(models_destroyed_pmf(result))


def models_destroyed_ci95(result: Result) -> tuple[float, float]:
    """95% interval of :attr:`~Result.models_destroyed_mean` (normal, from the sample's
    standard deviation; a point for exact results)."""
    return destroyed_summary(result)[1]


def models_destroyed_at_least(result: Result) -> np.ndarray:
    """``p[k]``: probability at least k models are destroyed, k = 0..models."""
    return np.cumsum(models_destroyed_pmf(result)[::-1])[::-1]


def models_destroyed_at_least_ci95(result: Result) -> list[tuple[float, float]]:
    """95% Wilson interval of each :attr:`~Result.models_destroyed_at_least` entry (points
    for exact results)."""
    return destroyed_summary(result)[3]


def destroyed_summary(result: Result) -> tuple[float, tuple[float, float], list[float],
                                               list[tuple[float, float]]]:
    """``(models_destroyed_mean, models_destroyed_ci95, models_destroyed_at_least,
    models_destroyed_at_least_ci95)`` from one pmf (the at-least figures as Python floats):
    what a summary of many points asks for, worked out once.

    Examples
    --------
    >>> import numpy as np
    >>> from mathhammer.result import Result, UnitPart
    >>> r = Result("monte_carlo", 4, 1, ("A #1",), 4.0, np.array([1.0, 0, 1, 2]),
    ...            np.zeros((1, 10)), np.array([2.0]), 3,
    ...            units=UnitPart(models=3, destroyed_weights=np.array([1.0, 1, 0, 2])))
    >>> mean, ci, at_least, cis = r.destroyed_summary()
    >>> (mean, ci, at_least, cis) == (r.models_destroyed_mean, r.models_destroyed_ci95,
    ...                               r.models_destroyed_at_least.tolist(),
    ...                               r.models_destroyed_at_least_ci95)
    True
    >>> at_least
    [1.0, 0.75, 0.5, 0.5]
    """
    pmf = models_destroyed_pmf(result)
    mean, sd = pmf_moments(pmf)
    ci = normal_interval(mean, sd, None if result.exact else result.trials)
    at_least = np.cumsum(pmf[::-1])[::-1].tolist()  # Python floats, the same values
    if result.exact:
        return mean, ci, at_least, [(p, p) for p in at_least]
    trials = int(result.trials)
    cis = [wilson_interval(round(p * result.total), trials) for p in at_least]
    return mean, ci, at_least, cis


def destroyed_by_attack(result: Result) -> np.ndarray:
    """Expected models each attack destroys (0 when not made)."""
    return result.slot_weights[:, SLOT_DESTROYED] / result.total


def destroyed_mean_after(result: Result) -> np.ndarray:
    """Expected models destroyed once each attack slot is resolved (those the maintenance
    phases of earlier rounds destroyed included)."""
    out = np.cumsum(result.slot_weights[:, SLOT_DESTROYED])
    if result.rounds is not None and result.slot_round:
        # fire and corrosion; quicksand's models are counted by the attack that knocked down
        per_round = result.rounds.effect_weights[:, :2, EFFECT_DESTROYED].sum(axis=1)
        before = np.concatenate([[0.0], np.cumsum(per_round)])
        out = out + before[np.asarray(result.slot_round)]
    return out / result.total


def unit_dict(result: Result) -> dict:
    """The ``--json`` keys of models destroyed (every result has them: one model is a unit
    of one)."""
    lo, hi = models_destroyed_ci95(result)
    return {
        "models": result.models,
        "models_destroyed_pmf": [float(p) for p in models_destroyed_pmf(result)],
        "models_destroyed_mean": models_destroyed_mean(result),
        "models_destroyed_ci95": [lo, hi],
    }
