"""Several targets: each one's figures (:class:`TargetsPart`, ``Result.per_target``), and the
figures of each target of any result (functions of a result).

With several targets (docs/units.md) the result's headline figures are the whole scenario's:
``kill`` is every target destroyed (``all_destroyed``), the damage and models destroyed are
summed over the targets; the weights of each target are kept apart in the view. A single
target has no such view (``Result.per_target`` is None): it is the one entry of
:func:`targets`, read from the headline figures, so every reader handles one or several the
same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .._core.intervals import normal_interval, pmf_sd, wilson_interval
from ..errors import InputError

if TYPE_CHECKING:  # pragma: no cover
    from .core import Result

__all__ = ["TargetsPart", "several", "all_destroyed", "names", "target_figures", "targets"]


@dataclass(frozen=True, eq=False)
class TargetsPart:
    """The weights of each of several targets.

    Parameters
    ----------
    names : tuple of str
        The targets' names, in order.
    damage_weights : tuple of ndarray
        Per target, the weight of exactly k damage points marked on it at the end (k = 0 ..
        its models x boxes; a destroyed model counts all its boxes).
    destroyed_weights : tuple of ndarray
        Per target, the weight of exactly k of its models destroyed at the end.
    kill_weights : ndarray, shape (n_targets, turns)
        The weight of each target being destroyed in each round.
    made_weights : ndarray, shape (n_attacks, n_targets)
        The weight of each attack being made against each target.
    """

    names: tuple[str, ...]
    damage_weights: tuple[np.ndarray, ...]
    destroyed_weights: tuple[np.ndarray, ...]
    kill_weights: np.ndarray
    made_weights: np.ndarray


def several(result: Result) -> bool:
    """Whether the scenario had several targets."""
    return result.per_target is not None and len(result.per_target.names) > 1


def all_destroyed(result: Result) -> float:
    """Probability every target is destroyed at the end (the kill)."""
    return result.kill


def names(result: Result) -> tuple[str, ...]:
    """The targets' names, in order."""
    return result.per_target.names if several(result) else (result.target_name,)


def _target_rows(result: Result, g: int):
    """Damage weights, destroyed weights and kill weights by round of target ``g``."""
    if not several(result):
        rounds = np.diff(np.concatenate([[0.0], result.kill_by_turn])) * result.total
        killed = result.kill_weight()
        destroyed = (result.units.destroyed_weights if result.units is not None
                     else np.array([result.total - killed, killed]))
        return result.damage_weights, np.asarray(destroyed, dtype=np.float64), rounds
    part = result.per_target
    return (np.asarray(part.damage_weights[g], dtype=np.float64),
            np.asarray(part.destroyed_weights[g], dtype=np.float64),
            np.asarray(part.kill_weights[g], dtype=np.float64))


def target_figures(result: Result, name: str) -> dict:
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
    every = names(result)
    if name not in every:
        raise InputError("target", name, "names no target: the targets are "
                         + ", ".join(repr(x) for x in every))
    damage, destroyed, rounds = _target_rows(result, every.index(name))
    total = result.total
    killed = float(destroyed[-1])
    kill = killed / total
    dpmf = damage / total
    mpmf = destroyed / total
    damage_mean = float(np.arange(dpmf.size) @ dpmf)
    models_mean = float(np.arange(mpmf.size) @ mpmf)
    n = None if result.exact else result.trials
    kill_ci = (kill, kill) if result.exact else wilson_interval(round(killed), int(result.trials))
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


def targets(result: Result) -> dict[str, dict]:
    """:meth:`~Result.target_figures` of every target, by name (the ``--json`` key
    ``targets``)."""
    return {name: target_figures(result, name) for name in names(result)}
