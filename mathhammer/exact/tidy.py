"""Tidying exact weights: floating-point noise of a few ulps removed, so that the invariants
reports rely on hold (probabilities in [0, 1], sums at most 1, critical <= hit <= made,
counts >= 0)."""

from __future__ import annotations

import numpy as np

from ..result.fields import SLOT_CRIT, SLOT_HIT, SLOT_MADE

__all__ = ["at_most_one", "tidy_rounds", "tidy", "tidy_targets"]


def at_most_one(w: np.ndarray) -> np.ndarray:
    """Clip ``w`` at 0 and take any excess of its sum over 1 (rounding) off its largest entry.

    Both summation orders used downstream are checked: ``sum`` (pairwise) and ``cumsum``
    (sequential, for running totals such as ``kill_after``).
    """
    w = np.clip(w, 0.0, None)
    for _ in range(8):
        excess = max(float(w.sum()), float(np.cumsum(w)[-1])) - 1.0
        if excess <= 0.0:
            break
        i = int(np.argmax(w))
        w[i] = max(0.0, w[i] - max(excess, np.spacing(w[i])))
    return w


def tidy_rounds(kill_weights: np.ndarray, maintenance: np.ndarray, slot_round) -> tuple:
    """Kills in attacks and in maintenance phases together: at least 0, and every total
    reports make of them (:attr:`Result.kill`, :attr:`Result.kill_by_turn`) at most 1."""
    maintenance = np.clip(maintenance, 0.0, None)
    if not maintenance.any():
        return kill_weights, maintenance
    kill_weights = kill_weights.copy()
    rounds = np.asarray(slot_round, dtype=np.int64)
    for _ in range(16):
        per = np.zeros(maintenance.size)
        np.add.at(per, rounds, kill_weights)
        per += maintenance
        excess = max(float(kill_weights.sum() + maintenance.sum()), float(np.cumsum(per)[-1]),
                     float(np.cumsum(kill_weights)[-1] + np.cumsum(maintenance)[-1])) - 1.0
        if excess <= 0.0:
            break
        both = np.concatenate([kill_weights, maintenance])
        j = int(np.argmax(both))
        both[j] = max(0.0, both[j] - max(excess, np.spacing(both[j])))
        kill_weights, maintenance = both[: kill_weights.size], both[kill_weights.size:]
    return kill_weights, maintenance


def tidy(damage_weights, slot_weights, kill_weights):
    """Remove floating-point noise (a few ulps) that would break the invariants reports rely
    on: probabilities in [0, 1], sums at most 1, critical <= hit <= made, counts >= 0."""
    damage_weights = at_most_one(damage_weights)
    kill_weights = at_most_one(kill_weights)
    sw = np.clip(slot_weights, 0.0, None)
    sw[:, SLOT_MADE] = np.minimum(sw[:, SLOT_MADE], 1.0)
    sw[:, SLOT_HIT] = np.minimum(sw[:, SLOT_HIT], sw[:, SLOT_MADE])
    sw[:, SLOT_CRIT] = np.minimum(sw[:, SLOT_CRIT], sw[:, SLOT_HIT])
    return damage_weights, sw, kill_weights


def tidy_targets(damage: tuple, destroyed: tuple, kills: np.ndarray) -> tuple:
    """The per-target weights of several targets: each target's damage and models
    destroyed at most one in all (:func:`at_most_one`), its kills by round at least 0 and
    at most one in all."""
    kills = np.clip(kills, 0.0, None)
    for g in range(kills.shape[0]):
        kills[g] = at_most_one(kills[g])
    return (tuple(at_most_one(w) for w in damage), tuple(at_most_one(w) for w in destroyed), kills)
