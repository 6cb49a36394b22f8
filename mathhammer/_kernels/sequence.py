"""Trials of one chunk: every attack of the sequence in order against one target (RULES.md 5).

Each attack is fully resolved before the next and sees the state the earlier attacks left:
the damage marked (the sequence stops once the target is disabled) and the target's
situation bits (a knockdown makes later melee attacks hit automatically and later ranged or
arcane attacks face base DEF 5).

The trial loop, the attack loop and the dice reading live in this one function on purpose:
passing arrays into helpers on every trial costs reference-count calls that keep table reads
from being hoisted and double the time of a trial.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit
from .damage import mark_track
from .dice import PAIR_SUM, classify_attack_roll, die_of, two_dice_attack
from .layout import (
    A_ATT_DICE,
    A_AUTOHIT_ON,
    A_DEF,
    A_DEF5,
    A_DMG_DICE,
    A_FLAGS,
    A_POW,
    A_SKILL,
    C_CRIT,
    C_DAMAGE,
    C_HIT,
    CRIT,
    F_CRIT_KNOCKDOWN,
    F_DAMAGE,
    F_KNOCKDOWN,
    MISS,
    ST_BASE_DEF_5,
    ST_KNOCKED_DOWN,
    T_ARM,
    T_BOXES,
    T_STATE,
)
from .rng import fill_pairs


@jit()
def run_trials(n_trials, rs, dice, pos, size, max_draws, attacks, target, damage_hist,
               attack_counts, kill_at):
    """Simulate ``n_trials`` attack sequences and add their outcomes to the counters.

    Parameters
    ----------
    n_trials : int
    rs : uint64[RNG_WORDS]
        The chunk's random stream, used to refill ``dice``.
    dice : uint8[size + FILL_SLACK]
        Buffer of pairs of dice (:mod:`.dice`); ``pos`` is the next entry to read. Before
        each trial, if fewer than ``max_draws`` entries are left it is refilled (so a buffer
        scripted by a test, with ``pos + max_draws <= size``, is read as written).
    attacks, target : int64 tables of :mod:`.layout`.
    damage_hist : int64[>= boxes + 1]
        Incremented at the final damage marked.
    attack_counts : int64[>= n_attacks, C_NFIELDS]
        Per attack: hit, critical, damage marked (``C_MADE`` is left to the driver: an
        attack is made unless an earlier one disabled the target).
    kill_at : int64[>= n_attacks]
        Incremented at the attack that disabled the target.

    Returns
    -------
    pos : int
        Read position after the last trial.
    """
    boxes = target[T_BOXES]
    arm = target[T_ARM]
    start_state = target[T_STATE]
    n_attacks = attacks.shape[0]
    for _ in range(n_trials):
        if pos > size - max_draws:
            fill_pairs(rs, dice, size)
            pos = 0
        state = start_state
        marked = 0
        for i in range(n_attacks):
            flags = attacks[i, A_FLAGS]

            # --- attack roll (RULES.md 1)
            if (state & attacks[i, A_AUTOHIT_ON]) != 0:
                outcome = 1  # automatic hit: no roll, so never critical
            else:
                n = attacks[i, A_ATT_DICE]
                skill = attacks[i, A_SKILL]
                defense = attacks[i, A_DEF5] if (state & ST_BASE_DEF_5) != 0 else attacks[i, A_DEF]
                if n == 2:
                    outcome = two_dice_attack(np.int64(dice[pos]), skill, defense)
                else:
                    total = 0
                    seen = 0
                    ones = 0
                    sixes = 0
                    double = False
                    for k in range(n):
                        d = die_of(np.int64(dice[pos + (k >> 1)]), k)
                        total += d
                        double |= (seen >> d) & 1 == 1
                        seen |= 1 << d
                        ones += d == 1
                        sixes += d == 6
                    outcome = classify_attack_roll(n, total, ones, sixes, double, skill, defense)
                pos += (n + 1) >> 1
            # branch-free from here: a miss is as likely as not to be mispredicted, and the
            # damage roll below is read either way but only consumed (and counted) on a hit
            hit = np.int64(outcome != MISS)
            crit = np.int64(outcome == CRIT)
            attack_counts[i, C_HIT] += hit
            attack_counts[i, C_CRIT] += crit
            knocks = (hit & np.int64((flags & F_KNOCKDOWN) != 0)) | (
                crit & np.int64((flags & F_CRIT_KNOCKDOWN) != 0))
            state |= ST_KNOCKED_DOWN * knocks

            # --- damage roll (RULES.md 2) and marking (RULES.md 3)
            if flags & F_DAMAGE:
                n = attacks[i, A_DMG_DICE]
                if n == 2:
                    total = PAIR_SUM[np.int64(dice[pos])]
                else:
                    total = 0
                    for k in range(0, n - 1, 2):
                        total += PAIR_SUM[np.int64(dice[pos + (k >> 1)])]
                    if n & 1:
                        total += die_of(np.int64(dice[pos + (n >> 1)]), 0)
                pos += hit * ((n + 1) >> 1)
                points = mark_track(marked, boxes, hit * max(0, total + attacks[i, A_POW] - arm))
                marked += points
                attack_counts[i, C_DAMAGE] += points
                if marked >= boxes:
                    kill_at[i] += 1
                    break
        damage_hist[marked] += 1
    return pos
