"""What a trial of an encoded scenario needs from the kernels: the most entries of the dice
buffer it may read (the refill threshold, :attr:`Encoded.max_draws
<mathhammer.montecarlo.encode.Encoded.max_draws>`) and whether a fast kernel
(:mod:`mathhammer.montecarlo._kernels.plain`, :mod:`mathhammer.montecarlo._kernels.spend`)
serves it."""

from __future__ import annotations

import numpy as np

from .._core.limits import MAX_SHRED
from ..errors import MathhammerError
from ._kernels import layout as L

__all__ = ["is_plain", "max_draws", "most_made"]


#: Row flags the plain kernel handles.
_PLAIN_FLAGS = (L.F_DAMAGE | L.F_KNOCKDOWN | L.F_CRIT_KNOCKDOWN | L.F_STATIONARY
                | L.F_CRIT_STATIONARY | L.F_FREE_ATT_BOOST | L.F_FREE_DMG_BOOST
                | L.F_IGNORE_SHIELD | L.F_FIRST)


def _rows(attacks) -> list:
    """The attack rows as lists of Python ints: ``attacks`` (an array) read once, or the
    rows the encoder built the array from, as they are."""
    return attacks.tolist() if isinstance(attacks, np.ndarray) else attacks


def is_plain(attacks: np.ndarray, attackers: np.ndarray, tvec: np.ndarray,
             spending: bool = False) -> bool:
    """Whether nothing but knockdowns and stationary effects changes during a sequence, and
    every roll is plain dice (see :mod:`mathhammer.montecarlo._kernels.plain`); with
    ``spending``, but for the attackers' points (focus, fury: boosts and bought attacks, the
    kernel of :mod:`mathhammer.montecarlo._kernels.spend`).

    Read row by row in Python: the tables of a scenario are a few rows, on which NumPy's
    per-call cost is most of the work (every point of a sweep or matrix is encoded).
    ``attacks`` may be the array or its rows as lists (the encoder's, before the array)."""
    t = tvec.tolist()
    return bool(
        not any(r[L.A_FLAGS] & ~_PLAIN_FLAGS or r[L.A_ATT_MODE] or r[L.A_DMG_MODE]
                or r[L.A_EFFECT_BIT] for r in _rows(attacks))
        and (spending or not any(a[L.P_POINTS] for a in attackers.tolist()))
        and t[L.T_POINTS] == 0
        and t[L.T_TOUGH] == L.TOUGH_NONE
        and t[L.T_RAPID_HEAL] == 0
        and t[L.T_CAPACITY] == L.CAP_TRACK
        and t[L.T_TURNS] == 1
        and t[L.T_EFFECTS] == 0
        and t[L.T_HAZARDS] == 0
        and t[L.T_MODELS] == 1
        and t[L.T_TARGETS] == 1
    )


def _pairs(n_dice: int) -> int:
    """Buffer entries (pairs of dice) a roll of ``n_dice`` dice reads."""
    return (max(1, n_dice) + 1) // 2


def most_made(attacks: np.ndarray, n_slots: int) -> int:
    """Most attacks a round's ``n_slots`` slots make, Shred attacks included (a slot whose row
    or any row may have Shred counts ``1 + MAX_SHRED``)."""
    if not len(attacks):
        return 0
    shred = any(r[L.A_FLAGS] & L.F_SHRED for r in _rows(attacks))
    return n_slots * (1 + MAX_SHRED) if shred else n_slots


def _row_draws(flags: int, att_dice: int, att_mode: int, dmg_dice: int, blast_models: int,
               blast_miss: int) -> int:
    """Most buffer entries the attack of one row can read (:func:`max_draws`)."""
    # most dice: a paid boost, Sanguine Fate's die; a boost, Brutal Damage, Trash / Shatter
    attack_dice = att_dice + 1 + (1 if att_mode & L.R_SANGUINE else 0)
    damage_dice = dmg_dice + 2 + (1 if flags & (L.F_TRASH | L.F_SHATTER) else 0)
    # a roll is read through one packed word of at most 10 dice (dice.roll_stats)
    if max(attack_dice, damage_dice) > 10:
        raise MathhammerError("a roll of more than 10 dice: outside what the kernel reads")
    attack = (2 if flags & L.F_REROLL_ATT else 1) * _pairs(attack_dice)
    damage = (2 if flags & L.F_REROLL_DMG else 1) * _pairs(damage_dice)
    # an AOE against a unit: a blast damage roll (two dice at most) and a Tough d6 per model
    caught = max(blast_models, blast_miss) if flags & L.F_BLAST else 0
    rof = 1 if flags & L.F_ROF else 0  # a random rate of fire's roll: one pair entry
    repeats = 1 + MAX_SHRED if flags & L.F_SHRED else 1  # Shred: once and MAX_SHRED more
    return (attack + damage + 1 + 2 * caught + rof) * repeats


def max_draws(attacks: np.ndarray, n_slots: int, n_targets: int = 1) -> int:
    """Most buffer entries one trial can read: every attack rolled with a paid boost and
    rerolled, every damage roll made with Brutal Damage, a paid boost and a reroll, and a
    Tough roll after each attack (and each blast damage roll on a unit's other models); a
    roll of n dice reads ``(n + 1) // 2`` pairs. A bought
    attack with a choice of weapons (rows after the first ``n_slots``) reads as many as
    the hungriest of them. With several targets (a block of rows per target) each slot
    reads as many as its hungriest block. A weapon with Shred makes its attack up to
    ``1 + MAX_SHRED`` times.

    The kernel refills its dice buffer between trials whenever fewer than this are left.
    Read row by row in Python, as :func:`is_plain`.
    """
    rows = _rows(attacks)
    known: dict = {}  # a unit's models' rows alike: each distinct one worked out once
    per_row = []
    for r in rows:
        what = (r[L.A_FLAGS], r[L.A_ATT_DICE], r[L.A_ATT_MODE], r[L.A_DMG_DICE],
                r[L.A_BLAST_MODELS], r[L.A_BLAST_MISS])
        need = known.get(what)
        if need is None:
            need = known[what] = _row_draws(*what)
        per_row.append(need)
    block = len(rows) // n_targets
    per_slot = [0] * n_slots
    for g in range(n_targets):
        for i in range(n_slots):
            r = g * block + i
            need = per_row[r]
            first, k = rows[r][L.A_CHOICE_ROW], rows[r][L.A_CHOICES]
            if k:
                need = max(need, max(per_row[first: first + k]))
            per_slot[i] = max(per_slot[i], need)
    return int(sum(per_slot))
