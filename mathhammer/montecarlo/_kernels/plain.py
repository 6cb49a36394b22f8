"""Trials of one chunk for *plain* scenarios: the fast path of :mod:`.sequence`.

A scenario is plain when nothing in it spends points or changes ARM, DEF or the dice during
the sequence except a knockdown or a stationary effect: no attacker has focus, fury or
forcing; no reroll, discard, Brutal Damage, Decapitation, Dispel, Grievous Wounds or -DEF/-ARM
effect; the target has no power field, Tough or Rapid Healing (the encoder decides:
``Encoded.plain``). Such sequences need a fraction of the general kernel's bookkeeping, and
they are most of what users ask, so they get this loop: branch-free hit bookkeeping, the
damage roll read on every attack and consumed only on a hit.

It reads the dice buffer exactly as :func:`.sequence.run_trials` does on the same scenario
(same rolls, same order, same refills), so both kernels give identical counts; a test checks
it.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from ..._core.pairs import PAIR_SUM, die_of
from ..._core.rng import fill_pairs
from .damage import mark_track
from .dice import attack_from_stats, read_word, roll_stats, two_dice_attack
from .layout import (
    A_ARM,
    A_ATT_DICE,
    A_AUTOHIT_ON,
    A_DEF,
    A_DEF5,
    A_DMG_DICE,
    A_FLAGS,
    A_POW,
    A_SKILL,
    A_SPELL_DEF,
    A_UPKEEP_ARM,
    A_UPKEEP_DEF,
    C_CRIT,
    C_DAMAGE,
    C_HIT,
    CRIT,
    F_CRIT_KNOCKDOWN,
    F_CRIT_STATIONARY,
    F_DAMAGE,
    F_IGNORE_SHIELD,
    F_KNOCKDOWN,
    F_STATIONARY,
    MISS,
    ST_BASE_DEF_5,
    ST_KNOCKED_DOWN,
    ST_STATIONARY,
    T_BOXES,
    T_SHIELD_ARM,
    T_STATE,
)


@jit()
def run_plain_trials(n_trials, rs, dice, pos, size, max_draws, stride, tables, counters):
    """Simulate ``n_trials`` sequences of a plain scenario; arguments and counters as for
    :func:`.sequence.run_trials` (the attackers table, the card tables and the counters of
    cards and rounds are unread: nobody spends points, the target is a track, one round).

    ``C_MADE`` is not counted here: every attack is made until the kill, so the driver
    derives it from ``kill_at`` (a store per attack saved costs a quarter of the time of a
    one-attack trial).
    """
    attacks, target = tables.attacks, tables.target
    damage_hist, attack_counts, kill_at = (counters.damage_hist, counters.attack_counts,
                                           counters.kill_at)
    boxes = target[T_BOXES]
    shield = target[T_SHIELD_ARM]
    start_state = target[T_STATE]
    n_attacks = attacks.shape[0]
    start = pos
    for _ in range(n_trials):
        # the same six lines open sequence.run_trials' loop; an inline helper returning
        # (pos, start) was measured 3x slower on this loop (4 -> 13 ns per single attack)
        if stride > 0:
            pos = start
        if pos > size - max_draws:
            fill_pairs(rs, dice, size)
            pos = 0
        start = pos + stride
        state = start_state
        marked = 0
        for i in range(n_attacks):
            flags = attacks[i, A_FLAGS]

            # --- attack roll (docs/rules.md 1)
            if (state & attacks[i, A_AUTOHIT_ON]) != 0:
                outcome = 1  # automatic hit: no roll, so never critical
            else:
                n = max(1, attacks[i, A_ATT_DICE])
                skill = attacks[i, A_SKILL]
                defense = attacks[i, A_DEF5] if (state & ST_BASE_DEF_5) != 0 else attacks[i, A_DEF]
                defense += attacks[i, A_SPELL_DEF] + attacks[i, A_UPKEEP_DEF]
                if n == 2:
                    outcome = two_dice_attack(np.int64(dice[pos]), skill, defense)
                else:
                    word = read_word(dice, pos, n)
                    total, kept, counts, judged = roll_stats(word, n, 0)
                    outcome = attack_from_stats(total, kept, counts, judged, skill, defense, 0)
                pos += (n + 1) >> 1
            # branch-free from here: a miss is as likely as not to be mispredicted, and the
            # damage roll below is read either way but only consumed (and counted) on a hit
            hit = np.int64(outcome != MISS)
            crit = np.int64(outcome == CRIT)
            attack_counts[i, C_HIT] += hit
            attack_counts[i, C_CRIT] += crit
            knocks = (hit & np.int64((flags & F_KNOCKDOWN) != 0)) | (
                crit & np.int64((flags & F_CRIT_KNOCKDOWN) != 0))
            still = (hit & np.int64((flags & F_STATIONARY) != 0)) | (
                crit & np.int64((flags & F_CRIT_STATIONARY) != 0))
            state |= ST_KNOCKED_DOWN * knocks | ST_STATIONARY * still

            # --- damage roll (docs/rules.md 2) and marking (docs/rules.md 3)
            if flags & F_DAMAGE:
                n = max(1, attacks[i, A_DMG_DICE])
                if n == 2:
                    total = PAIR_SUM[np.int64(dice[pos])]
                else:
                    total = 0
                    for k in range(0, n - 1, 2):
                        total += PAIR_SUM[np.int64(dice[pos + (k >> 1)])]
                    if n & 1:
                        total += die_of(np.int64(dice[pos + (n >> 1)]), 0)
                pos += hit * ((n + 1) >> 1)
                arm = attacks[i, A_ARM] + attacks[i, A_UPKEEP_ARM] + shield * (
                    (flags & F_IGNORE_SHIELD) == 0)
                points = mark_track(marked, boxes, hit * max(0, total + attacks[i, A_POW] - arm))
                marked += points
                attack_counts[i, C_DAMAGE] += points
                if marked >= boxes:
                    kill_at[i] += 1
                    break
        damage_hist[marked] += 1
    return pos
