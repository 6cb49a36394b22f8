"""Dice enumeration: every face of a roll, counted exactly and cached.

A roll of ``n`` d6 is enumerated once as its sorted faces (multisets), each with the number
of ordered rolls that show it, so rolls of up to :data:`MAX_DICE` dice (1,287 multisets for
eight dice) are as cheap as two. Discards (``attack_discard`` / ``damage_discard``) drop
the lowest or highest die of a roll of two or more; the dice left are the *kept* dice
(docs/activation.md, steps 2 and 4).

Counts are exact integers; they become probabilities only at the end, so a cached table is
the same whichever order it was asked for.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache
from math import factorial, prod

import numpy as np

__all__ = [
    "MAX_DICE",
    "kept_count",
    "attack_roll",
    "attack_outcome",
    "kept_sum_counts",
    "damage_table",
    "damage_pmf",
]

#: Most dice one roll may have: 2, +1 boost, +1 Weapon Master, +3 extra dice, +1 Brutal
#: Damage on a damage roll; every roll the rules model can express fits.
MAX_DICE = 8

FACES = (1, 2, 3, 4, 5, 6)


def _check_dice(n_dice: int, lo: int) -> int:
    if isinstance(n_dice, bool) or not isinstance(n_dice, (int, np.integer)):
        raise TypeError(f"n_dice must be an integer (got {n_dice!r})")
    n_dice = int(n_dice)
    if not lo <= n_dice <= MAX_DICE:
        raise ValueError(f"n_dice must be between {lo} and {MAX_DICE} (got {n_dice})")
    return n_dice


@cache
def _multisets(n_dice: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every sorted roll of ``n_dice`` d6 with the number of ordered rolls showing it."""
    out = []
    for faces in itertools.combinations_with_replacement(FACES, n_dice):
        ways = factorial(n_dice) // prod(factorial(c) for c in Counter(faces).values())
        out.append((faces, ways))
    return tuple(out)


def kept_count(n_dice: int, discard: str) -> int:
    """Dice kept from a roll of ``n_dice``: one fewer for each discard made while two or more
    dice are left (``both``: the lowest, then the highest)."""
    if discard == "none" or n_dice < 2:
        return n_dice
    return n_dice - 2 if discard == "both" and n_dice >= 3 else n_dice - 1


def _kept(faces: tuple[int, ...], discard: str) -> tuple[int, ...]:
    """``faces`` (sorted) less the discarded dice."""
    if len(faces) < 2 or discard == "none":
        return faces
    if discard == "both":
        return faces[1:-1] if len(faces) >= 3 else faces[1:]
    return faces[1:] if discard == "lowest" else faces[:-1]


def _shark(faces: tuple[int, ...], shark: bool) -> tuple[int, ...]:
    """Jump the Shark: every die showing 1 counts as a 6 (sorted again)."""
    if not shark or 1 not in faces:
        return faces
    return tuple(sorted(6 if f == 1 else f for f in faces))


def _has_double(faces) -> bool:
    return len(set(faces)) < len(faces)


@cache
def _attack_counts(n_dice: int, discard: str, need: int, shark: bool = False, sanguine: bool = False,
                   crit_all: bool = False, one_misses: bool = False) -> tuple[int, int, int]:
    """Ordered rolls (miss, plain hit, critical hit) of an attack needing ``need`` on the
    kept dice (``need = DEF - skill``), counted over ``6 ** n_dice`` rolls (``6 ** (n_dice
    + 1)`` with Sanguine Fate's die).

    ``shark``: Jump the Shark (a 1 counts as a 6, before the discard); ``sanguine``: Sanguine
    Fate's die, never in the total, makes a double with any die the critical is judged on;
    ``crit_all``: the critical is judged on every die rolled, discarded ones too (setting
    ``crit_counts_discarded``); ``one_misses``: one kept die showing 1 misses too (setting
    ``single_die_one_misses``).
    """
    miss = plain = crit = 0
    extras = FACES if sanguine else (None,)
    for raw, ways in _multisets(n_dice):
        faces = _shark(raw, shark)
        kept = _kept(faces, discard)
        several = len(kept) >= 2
        if (several or one_misses) and kept[-1] == 1:  # all ones (sorted: the largest is a 1)
            hit = False
        elif several and kept[0] == 6:  # all sixes
            hit = True
        else:
            hit = sum(kept) >= need
        if not hit:
            miss += ways * len(extras)
            continue
        judged = faces if crit_all else kept
        for extra in extras:
            dice = judged if extra is None else judged + (6 if shark and extra == 1 else extra,)
            if _has_double(dice):
                crit += ways
            else:
                plain += ways
    return miss, plain, crit


@cache
def attack_roll(n_dice: int, discard: str, need: int, reroll: bool, shark: bool = False,
                sanguine: bool = False, crit_all: bool = False,
                one_misses: bool = False) -> tuple[float, float, float]:
    """(miss, plain hit, critical hit) of one attack roll (docs/activation.md step 2).

    Parameters
    ----------
    n_dice : int
        Dice rolled, boosts included.
    discard : {"none", "lowest", "highest", "both"}
    need : int
        ``DEF - skill``: the kept dice must sum to at least this.
    reroll : bool
        A miss is rolled again once with the same dice (``reroll_attack``):
        ``miss' = miss**2``, ``hit' = hit * (1 + miss)``.
    shark, sanguine, crit_all, one_misses : bool
        Jump the Shark, Sanguine Fate and the settings ``crit_counts_discarded`` and
        ``single_die_one_misses`` (docs/rules.md 1).

    Examples
    --------
    >>> m, h, c = attack_roll(2, "none", 7, True)     # 7+ on 2d6 is 21/36, rerolled
    >>> round(h + c, 12) == round(1 - (15 / 36) ** 2, 12)
    True
    >>> round(attack_roll(3, "highest", 13, False)[0] * 216)  # 13 on two kept dice: only 6-6-6
    215
    >>> # Sanguine Fate: a double among three dice (216 - 6*5*4 = 96), but for 1-1-x, a miss
    >>> round(attack_roll(2, "none", 2, False, sanguine=True)[2] * 216)
    90
    """
    n_dice = _check_dice(n_dice, 1)
    kept = kept_count(n_dice, discard)
    need = max(0, min(6 * kept + 1, int(need)))  # beyond these bounds nothing changes
    miss, plain, crit = _attack_counts(n_dice, discard, need, bool(shark), bool(sanguine), bool(crit_all),
                                       bool(one_misses))
    total = 6 ** (n_dice + int(bool(sanguine)))
    if not reroll:
        return miss / total, plain / total, crit / total
    again = total + miss  # a first hit, or a first miss and then this result
    return miss * miss / total**2, plain * again / total**2, crit * again / total**2


@cache
def attack_outcome(n_dice: int, skill: int, defense: int) -> tuple[float, float, float]:
    """Probabilities of one attack roll of ``n_dice`` d6 + ``skill`` against ``defense``.

    The roll hits when the sum of the dice plus the skill reaches the DEF. With two or more
    dice, all ones is an automatic miss and all sixes an automatic hit, and a hit is
    critical when at least two dice show the same number (docs/rules.md 1). A single die can be
    neither an automatic result nor a critical hit. No discard, no reroll: see
    :func:`attack_roll` for those.

    Parameters
    ----------
    n_dice : int
        Dice rolled, 1 to :data:`MAX_DICE`.
    skill : int
        MAT or RAT.
    defense : int
        DEF the roll must reach (modifiers included).

    Returns
    -------
    (miss, hit, critical) : tuple of float
        ``hit`` is a hit that is not critical; the three sum to 1.

    Examples
    --------
    >>> attack_outcome(2, 6, 12)        # 6+ on 2d6: 26/36, of which 4/36 doubles
    (0.2777777777777778, 0.6111111111111112, 0.1111111111111111)
    >>> attack_outcome(2, 20, 5)[0] * 36  # all ones still misses
    1.0
    >>> attack_outcome(2, 0, 25)[2] * 36  # all sixes still hits (and is a double)
    1.0
    >>> attack_outcome(1, 3, 6)
    (0.3333333333333333, 0.6666666666666666, 0.0)
    """
    n_dice = _check_dice(n_dice, 1)
    return attack_roll(n_dice, "none", int(defense) - int(skill), False)


@cache
def kept_sum_counts(n_dice: int, discard: str, shark: bool = False) -> tuple[int, tuple[int, ...]]:
    """(kept dice, ``counts``) of a roll: ``counts[s]`` ordered rolls whose kept dice sum to
    ``s`` (exact integers, ``s = 0 .. 6 * kept``); ``shark``: Jump the Shark."""
    kept = kept_count(n_dice, discard)
    counts = [0] * (6 * kept + 1)
    for faces, ways in _multisets(n_dice):
        counts[sum(_kept(_shark(faces, shark), discard))] += ways
    return kept, tuple(counts)


@cache
def damage_table(n_dice: int, discard: str, shift: int, reroll: bool, double: bool,
                 shark: bool = False) -> np.ndarray:
    """Damage points of one damage roll, by how many boxes are left (step 4).

    ``points = max(0, sum(kept) + shift)`` with ``shift = POW - ARM``. With ``reroll``
    (``reroll_damage``) a roll that would not disable the target (``points < remaining``)
    and whose kept dice sum below their average (``2 * sum < 7 * kept``) is rolled once
    more and the new roll kept; the reroll test uses the points before Decapitation.
    ``double``: Decapitation, the points are doubled. ``shark``: Jump the Shark, a die
    showing 1 counts as a 6.

    Returns
    -------
    ndarray, shape (top + 2, X)
        Row ``r`` is the distribution of the (doubled) points when ``r`` boxes are left;
        the last row (``r = top + 1``, ``top`` the largest undoubled points) holds for
        every ``r`` beyond ``top``, where the reroll test no longer depends on ``r``.
        Read-only (it is cached).

    Examples
    --------
    >>> t = damage_table(2, "none", -5, False, False)   # 2d6 - 5
    >>> t.shape, round(t[-1, 0] * 36), round(t[-1, 7] * 36)
    ((9, 8), 10, 1)
    """
    n_dice = _check_dice(n_dice, 1)
    kept, counts = kept_sum_counts(n_dice, discard, bool(shark))
    total = 6**n_dice
    sums = np.arange(len(counts))
    prob = np.array(counts, dtype=np.float64) / total
    points = np.maximum(0, sums + shift)
    top = int(points.max())
    factor = 2 if double else 1
    table = np.zeros((top + 2, top * factor + 1), dtype=np.float64)
    low = 2 * sums < 7 * kept
    for r in range(top + 2):
        final = prob
        if reroll:
            again = (points < r) & low
            final = prob * ~again + prob[again].sum() * prob
        np.add.at(table[r], points * factor, final)
    table.setflags(write=False)
    return table


@cache
def _damage_pmf_cached(n_dice: int, pow: int, arm: int) -> np.ndarray:
    if n_dice == 0:
        counts, total = (1,), 1
    else:
        counts, total = kept_sum_counts(n_dice, "none")[1], 6**n_dice
    shift = pow - arm
    top = max(0, len(counts) - 1 + shift)
    out = np.zeros(top + 1, dtype=np.float64)
    for s, c in enumerate(counts):
        if c:
            out[max(0, s + shift)] += c
    out /= total
    out.setflags(write=False)
    return out


def damage_pmf(n_dice: int, pow: int, arm: int) -> np.ndarray:
    """Distribution of the damage points of one damage roll, before the damage-track cap.

    A damage roll is ``n_dice`` d6 + POW; every point above ARM is one damage point
    (docs/rules.md 2): ``max(0, sum + pow - arm)``. No discard, no reroll: see
    :func:`damage_table` for those.

    Parameters
    ----------
    n_dice : int
        Dice rolled, 0 to :data:`MAX_DICE`.
    pow, arm : int

    Returns
    -------
    ndarray of float64
        ``pmf[k]`` is the probability of exactly ``k`` damage points; its last entry is the
        largest possible damage and is never zero. Read-only (it is cached).

    Examples
    --------
    >>> p = damage_pmf(2, 10, 15)           # 2d6 - 5
    >>> p.size, round(p[0] * 36), round(p[7] * 36)
    (8, 10, 1)
    >>> damage_pmf(2, 0, 20)                # can never reach ARM
    array([1.])
    >>> p = damage_pmf(3, 12, 14)           # 3d6 - 2, never below 1
    >>> round(float(p @ np.arange(p.size)), 12), float(p[0])
    (8.5, 0.0)
    """
    n_dice = _check_dice(n_dice, 0)
    return _damage_pmf_cached(n_dice, int(pow), int(arm))
