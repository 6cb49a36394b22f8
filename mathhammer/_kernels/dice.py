"""Attack and damage rolls (RULES.md sections 1 and 2).

Dice come from the chunk's buffer (:func:`..rng.fill_dice`): each roll takes the buffer and
the read position and returns its result with the new position. The two-dice case, by far
the most common, is branch-free.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit
from .layout import CRIT, HIT, MISS


@jit(inline=True)
def roll_attack(dice, pos, n_dice, skill, defense):
    """Roll ``n_dice`` d6 + ``skill`` against ``defense``.

    Returns ``(outcome, pos)`` with outcome MISS (0), HIT (1) or CRIT (2). With two or more
    dice, all ones miss and all sixes hit whatever the total. A hit with at least two dice
    showing the same number is critical.
    """
    if n_dice == 2:
        a = np.int64(dice[pos])
        b = np.int64(dice[pos + 1])
        hit = ((a + b + skill >= defense) | ((a & b) == 6)) & ((a | b) != 1)
        return np.int64(hit) * (1 + np.int64(a == b)), pos + 2
    total = 0
    seen = 0
    double = False
    ones = 0
    sixes = 0
    for _ in range(n_dice):
        d = np.int64(dice[pos])
        pos += 1
        total += d
        bit = 1 << d
        if seen & bit:
            double = True
        seen |= bit
        if d == 1:
            ones += 1
        elif d == 6:
            sixes += 1
    if n_dice >= 2 and ones == n_dice:
        return MISS, pos
    if (n_dice >= 2 and sixes == n_dice) or total + skill >= defense:
        return (CRIT if double else HIT), pos
    return MISS, pos


@jit(inline=True)
def roll_sum(dice, pos, n_dice):
    """Sum of ``n_dice`` d6; returns ``(sum, pos)``."""
    if n_dice == 2:
        return np.int64(dice[pos]) + np.int64(dice[pos + 1]), pos + 2
    total = 0
    for k in range(n_dice):
        total += np.int64(dice[pos + k])
    return total, pos + n_dice
