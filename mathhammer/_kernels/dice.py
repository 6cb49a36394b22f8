"""Reading attack and damage rolls off the dice (RULES.md sections 1 and 2).

Scalar functions only: the per-trial loop reads the dice from its buffer itself and hands
these functions numbers, so no array crosses a call inside the hot loop (an array argument
costs reference-count calls on every call).
"""

from __future__ import annotations

from ._jit import jit
from .layout import CRIT, HIT, MISS


@jit(inline=True)
def two_dice_attack(a, b, skill, defense):
    """Outcome of an attack rolled on exactly two dice ``a`` and ``b``: MISS, HIT or CRIT.

    Branch-free: double ones miss, double sixes hit, otherwise ``a + b + skill >= defense``
    hits; a hit on a double is critical.
    """
    hit = ((a + b + skill >= defense) | ((a & b) == 6)) & ((a | b) != 1)
    return hit * (1 + (a == b))


@jit(inline=True)
def classify_attack_roll(n_dice, total, ones, sixes, double, skill, defense):
    """Outcome of an attack roll of ``n_dice`` dice summing to ``total``.

    ``ones`` / ``sixes``: dice showing 1 / 6; ``double``: two dice show the same number.
    With two or more dice, all ones miss and all sixes hit whatever the total; a hit with a
    double is critical (impossible with one die).
    """
    if n_dice >= 2 and ones == n_dice:
        return MISS
    if (n_dice >= 2 and sixes == n_dice) or total + skill >= defense:
        return CRIT if double else HIT
    return MISS
