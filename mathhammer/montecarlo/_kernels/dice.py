"""Reading attack and damage rolls off pairs of dice (docs/rules.md sections 1 and 2).

The dice buffer holds pairs (:mod:`mathhammer._core.pairs`): a roll of n dice reads
``(n + 1) // 2`` entries, die k being the first die of entry ``k // 2`` for even k and the
second for odd k.

Scalar functions mostly: the per-trial loop reads the buffer itself and hands these functions
numbers (an array argument of a function inlined at Numba IR level costs reference-count
calls on every call). They are called, not inlined at Numba IR level: LLVM inlines them where
it pays, and the IR-level copies cost the general kernel's cold compile 3 s CPU (16.8 -> 13.5
s CPU for its first lean run) at no measured runtime gain. :func:`at_least` and
:func:`at_most`, three lines each, are inlined: a call to Numba's own ``max`` stayed a call.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from ..._core.pairs import DOUBLE_ONES, DOUBLE_SIXES, PAIR_DOUBLE, PAIR_SUM, SECOND, die_of
from ..._core.rng import fill_pairs
from .layout import CRIT, HIT, MISS, R_CRIT_ALL, R_DROP_HIGH, R_DROP_LOW, R_ONE_MISSES, R_SANGUINE, R_SHARK


@jit(inline=True)
def at_least(value, low):
    """``max(value, low)`` for two integers, in the caller's own code: Numba compiles the
    built-in ``max`` and ``min`` as functions of their own, and in the units loop LLVM left
    them calls (3 % of a unit model's attack).

    >>> from numba import njit
    >>> njit(lambda v: at_least(v, 1))(0), njit(lambda v: at_least(v, 1))(3)
    (1, 3)
    """
    return value if value > low else low


@jit(inline=True)
def at_most(value, high):
    """``min(value, high)`` for two integers, in the caller's own code (see :func:`at_least`).

    >>> from numba import njit
    >>> njit(lambda v: at_most(v, 4))(9), njit(lambda v: at_most(v, 4))(2)
    (4, 2)
    """
    return value if value < high else high


#: Bits of a packed face count (4 bits a face, faces 1..6) set when a face shows twice or more.
_TWICE_MASK = 0xEEEEEE0


@jit(helper=True)
def two_dice_attack(p, skill, defense):
    """Outcome of an attack rolled on exactly two dice, pair entry ``p``: MISS, HIT or CRIT.

    Branch-free: double ones miss, double sixes hit, otherwise ``sum + skill >= defense``
    hits; a hit on a double is critical.
    """
    hit = ((PAIR_SUM[p] + skill >= defense) | (p == DOUBLE_SIXES)) & (p != DOUBLE_ONES)
    return np.int64(hit) * (1 + PAIR_DOUBLE[p])


@jit(helper=True)
def classify_attack_roll(n_dice, total, ones, sixes, double, skill, defense, one_misses=False):
    """Outcome of an attack roll of ``n_dice`` dice summing to ``total``.

    ``ones`` / ``sixes``: dice showing 1 / 6; ``double``: two dice show the same number.
    With two or more dice, all ones miss and all sixes hit whatever the total (``one_misses``,
    the setting single_die_one_misses: one die showing 1 misses too); a hit with a double is
    critical (impossible with one die, but for Sanguine Fate's die).
    """
    if (n_dice >= 2 or one_misses) and ones == n_dice:
        return MISS
    if (n_dice >= 2 and sixes == n_dice) or total + skill >= defense:
        return CRIT if double else HIT
    return MISS


@jit(helper=True)
def roll_stats(word, n_dice, mode):
    """Sum, dice kept and face counts of a roll of ``n_dice`` dice.

    ``word`` packs the roll's pair entries six bits each (entry ``k`` at bits ``6k``), as the
    kernel reads them off the buffer. ``mode`` holds the roll's ``R_*`` bits (layout): the
    discards (lowest, then highest, each only while two or more dice are left), Jump the
    Shark (a 1 counts as a 6), Sanguine Fate (die ``n_dice`` of the word, one more, counts
    for the double only) and whether the double is judged on every die rolled.

    Returns ``(total, kept, counts, judged)``: ``counts`` holds, four bits a face, how many
    kept dice show each face (face f at bits ``4f``), ``judged`` the same of the dice the
    critical is judged on.
    """
    total = 0
    counts = 0
    lo = 7
    hi = 0
    shark = (mode & R_SHARK) != 0
    for k in range(n_dice):
        entry = (word >> (6 * (k >> 1))) & 63
        d = die_of(entry, k)
        if shark and d == 1:
            d = 6
        total += d
        counts += 1 << (4 * d)
        lo = at_most(d, lo)
        hi = at_least(d, hi)
    every = counts
    kept = n_dice
    if (mode & R_DROP_LOW) != 0 and kept >= 2:
        total -= lo
        counts -= 1 << (4 * lo)
        kept -= 1
    if (mode & R_DROP_HIGH) != 0 and kept >= 2:
        total -= hi
        counts -= 1 << (4 * hi)
        kept -= 1
    judged = every if (mode & R_CRIT_ALL) != 0 else counts
    if (mode & R_SANGUINE) != 0:
        d = die_of((word >> (6 * (n_dice >> 1))) & 63, n_dice)
        if shark and d == 1:
            d = 6
        judged += 1 << (4 * d)
    return total, kept, counts, judged


@jit(helper=True)
def attack_from_stats(total, kept, counts, judged, skill, defense, mode):
    """Outcome (MISS, HIT, CRIT) of an attack roll described by :func:`roll_stats`."""
    ones = (counts >> 4) & 15
    sixes = (counts >> 24) & 15
    double = (judged & _TWICE_MASK) != 0
    return classify_attack_roll(kept, total, ones, sixes, double, skill, defense, (mode & R_ONE_MISSES) != 0)


@jit(helper=True)
def kept_of(n_dice, mode):
    """Dice kept from a roll of ``n_dice`` with the discards of ``mode``."""
    kept = n_dice
    if (mode & R_DROP_LOW) != 0 and kept >= 2:
        kept -= 1
    if (mode & R_DROP_HIGH) != 0 and kept >= 2:
        kept -= 1
    return kept


@jit(helper=True)
def entries_of(n_dice):
    """Entries (pairs of dice) a roll of ``n_dice`` dice reads (at least one die)."""
    return (max(1, n_dice) + 1) >> 1


@jit(helper=True)
def read_word(dice, pos, n_dice):
    """The pair entries of a roll of ``n_dice`` dice starting at ``dice[pos]``, packed six bits
    each for :func:`roll_stats` (the roll reads ``(n_dice + 1) // 2`` entries; with Sanguine
    Fate's die, ``n_dice`` counts it)."""
    word = 0
    for k in range((n_dice + 1) >> 1):
        word |= np.int64(dice[pos + k]) << (6 * k)
    return word


@jit(helper=True)
def sum_of_three_or_four(dice, pos, n_dice):
    """Sum of a roll of ``n_dice`` = 3 or 4 dice starting at ``dice[pos]``, every die kept
    (what :func:`roll_stats` gives as ``total`` with ``mode = 0``): two pair sums, less the
    second die of the second entry for three dice. Branch-free and without a loop."""
    second = np.int64(dice[pos + 1])
    return PAIR_SUM[np.int64(dice[pos])] + PAIR_SUM[second] - (4 - n_dice) * SECOND[second]


@jit(inline=True)
def trial_dice(rs, dice, pos, start, size, max_draws, stride):
    """Where the next trial reads the dice buffer from: ``stride`` > 0 starts it ``stride``
    entries after the last trial started (common random numbers), and a buffer with fewer
    than ``max_draws`` entries left is refilled from the stream ``rs`` first (so a buffer a
    test writes is read as written). Returns ``(pos, start)``, ``start`` the next trial's."""
    if stride > 0:
        pos = start
    if pos > size - max_draws:
        fill_pairs(rs, dice, size)
        pos = 0
    return pos, pos + stride
