"""The tables of the spending kernel (:mod:`.spend`), built before its chunks run: each
distinct attack row's attack roll resolved against every roll it can read, unboosted and
boosted, in each state the target can reach, and its damage roll unboosted and boosted
(:func:`.plain.attack_bits`, :func:`.plain.damage_on_hit`); what each row's fixed policy
wants; best play's state key in each state."""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from .layout import (
    A_ARM,
    A_ATT_DICE,
    A_ATTACKER,
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
    F_CRIT_KNOCKDOWN,
    F_CRIT_STATIONARY,
    F_DAMAGE,
    F_FREE_ATT_BOOST,
    F_FREE_DMG_BOOST,
    F_IGNORE_SHIELD,
    F_KNOCKDOWN,
    F_STATIONARY,
    K_POINTS,
    K_SITUATION_INDEX,
    K_TPOINTS,
    MODE_ALWAYS,
    MODE_AUTO,
    P_BOOST_ATT,
    P_BOOST_ATT_AT,
    P_BOOST_DMG,
    P_POINTS,
    P_RESERVE,
    ST_BASE_DEF_5,
    T_BOXES,
    T_SHIELD_ARM,
    T_STATE,
)
from .dice import entries_of
from .plain import N_STATES, attack_bits, damage_on_hit, state_of
from .situation import situation_bits

#: Columns of ``rows`` (:func:`spend_tables`), per attack row: the row whose tables it reads
#: (rows that roll alike share them), the states (a bit each) in which a paid attack boost
#: adds a die, those in which the fixed policy wants one, whether a paid damage boost adds a
#: die, and the fixed policy's damage boost: wanted while more than this many boxes are left.
R_TABLE = 0
R_CAN_ATT = 1
R_WANT_ATT = 2
R_CAN_DMG = 3
R_DMG_ABOVE = 4
R_NFIELDS = 5
#: ``R_DMG_ABOVE`` of a row whose damage roll the fixed policy never boosts.
NEVER = 1 << 40

#: Fields of a row that decide its rolls: rows equal in them share their outcome tables
#: (a bought attack's row is its weapon's initial one but for its origin and cost); the
#: attacker's too, whose points decide which boosted tables are built.
_ROLL_FIELDS = (A_ATTACKER, A_SKILL, A_DEF, A_DEF5, A_SPELL_DEF, A_UPKEEP_DEF, A_AUTOHIT_ON,
                A_ATT_DICE, A_POW, A_ARM, A_UPKEEP_ARM, A_DMG_DICE)
_ROLL_FLAGS = (F_DAMAGE | F_KNOCKDOWN | F_CRIT_KNOCKDOWN | F_STATIONARY | F_CRIT_STATIONARY
               | F_IGNORE_SHIELD)


@jit(helper=True)
def _same_rolls(attacks, i, j):
    """Whether rows ``i`` and ``j`` roll alike (their outcome tables are equal)."""
    if (attacks[i, A_FLAGS] & _ROLL_FLAGS) != (attacks[j, A_FLAGS] & _ROLL_FLAGS):
        return False
    for f in _ROLL_FIELDS:
        if attacks[i, f] != attacks[j, f]:
            return False
    return True


@jit(helper=True)
def spend_tables(attacks, attackers, target, play_keys, att_codes, att_takes, dmg_codes,
                 dmg_takes, rows, key_base):
    """Fill the tables of :func:`run_spend_trials` for the states the sequence can reach.

    ``att_codes`` (uint8[rows, N_STATES, 2, N_ROLLS]): row ``r``'s attack bits
    (:func:`.plain.attack_bits`) in state row ``s``, unboosted (0) or boosted (1), by the
    entries read (``e1 * 36 + e2`` for two, ``e1`` for one); ``att_takes`` (int64[rows,
    N_STATES, 2]): the entries read, -1 for more than two (read one by one).
    ``dmg_codes`` (uint16[rows, 2, N_ROLLS]) and ``dmg_takes`` (int64[rows, 2]): the same of
    its damage on a hit (:func:`.plain.damage_on_hit`). Only the rows named in ``rows[:,
    R_TABLE]`` are written. ``rows`` (int64[rows, R_NFIELDS]): see ``R_*``. ``key_base``
    (int64[N_STATES]): best play's state key in each state row, less the points (the
    kernel's ``play_key`` with nothing but the target's situation bits set).
    """
    start_state = target[T_STATE]
    shield = target[T_SHIELD_ARM]
    boxes = target[T_BOXES]
    knocks = 0
    stills = 0
    for i in range(attacks.shape[0]):
        knocks |= attacks[i, A_FLAGS] & (F_KNOCKDOWN | F_CRIT_KNOCKDOWN)
        stills |= attacks[i, A_FLAGS] & (F_STATIONARY | F_CRIT_STATIONARY)
    for s in range(N_STATES):
        # the key's other digits are 0 in a plain scenario (no effects, no target points...)
        raw = situation_bits(state_of(start_state, s), False)
        key_base[s] = (play_keys[K_SITUATION_INDEX + raw] * play_keys[K_TPOINTS]
                       * play_keys[K_POINTS])
    for r in range(attacks.shape[0]):
        table = r
        for j in range(r):
            if _same_rolls(attacks, r, j):
                table = j
                break
        rows[r, R_TABLE] = table
        flags = attacks[r, A_FLAGS]
        a = attacks[r, A_ATTACKER]
        # a boost can be paid at all (points are never gained)
        pays = attackers[a, P_POINTS] > attackers[a, P_RESERVE]
        mode = attackers[a, P_BOOST_ATT]
        can_att = 0
        want_att = 0
        for s in range(N_STATES):
            state = state_of(start_state, s)
            rolls = (state & attacks[r, A_AUTOHIT_ON]) == 0
            if rolls and (flags & F_FREE_ATT_BOOST) == 0 and attacks[r, A_ATT_DICE] >= 1:
                can_att |= 1 << s
            defense = attacks[r, A_DEF5] if (state & ST_BASE_DEF_5) != 0 else attacks[r, A_DEF]
            defense += attacks[r, A_SPELL_DEF] + attacks[r, A_UPKEEP_DEF]
            if mode == MODE_ALWAYS or (mode == MODE_AUTO and defense - attacks[r, A_SKILL]
                                       >= attackers[a, P_BOOST_ATT_AT]):
                want_att |= 1 << s
        rows[r, R_CAN_ATT] = can_att
        rows[r, R_WANT_ATT] = want_att
        n = attacks[r, A_DMG_DICE]
        damages = (flags & F_DAMAGE) != 0
        rows[r, R_CAN_DMG] = np.int64(damages and (flags & F_FREE_DMG_BOOST) == 0 and n >= 1)
        arm = (attacks[r, A_ARM] + attacks[r, A_UPKEEP_ARM]
               + shield * ((flags & F_IGNORE_SHIELD) == 0))
        low = max(1, n) + attacks[r, A_POW] - arm  # the least damage unboosted
        mode = attackers[a, P_BOOST_DMG]
        if mode == MODE_ALWAYS:
            rows[r, R_DMG_ABOVE] = -1
        elif mode == MODE_AUTO and 6 * max(1, n + 1) + attacks[r, A_POW] - arm > 0:
            rows[r, R_DMG_ABOVE] = low
        else:
            rows[r, R_DMG_ABOVE] = NEVER
        if table != r:
            continue
        for s in range(N_STATES):
            if ((s & 1) != 0 and knocks == 0) or ((s & 2) != 0 and stills == 0):
                continue
            state = state_of(start_state, s)
            for b in range(2 if pays and (can_att >> s) & 1 else 1):
                auto = (state & attacks[r, A_AUTOHIT_ON]) != 0
                k = 0 if auto else entries_of(attacks[r, A_ATT_DICE] + b)
                att_takes[r, s, b] = k if k <= 2 else -1
                three = max(1, attacks[r, A_ATT_DICE] + b) == 3
                for e in range(36 if k == 0 else 36 ** k if k <= 2 else 0):
                    if three and e % 6 != 0:  # as the roll of the entry's first die (below)
                        att_codes[r, s, b, e] = att_codes[r, s, b, e - e % 6]
                        continue
                    word = (e // 36) | (e % 36) << 6 if k == 2 else e
                    att_codes[r, s, b, e] = attack_bits(attacks, r, state, word if k > 0 else 0, b)
        for b in range(2 if pays and rows[r, R_CAN_DMG] else 1):
            k = entries_of(n + b) if damages else 0
            dmg_takes[r, b] = k if k <= 2 else -1
            three = max(1, n + b) == 3
            for e in range(36 ** k if k <= 2 else 0):
                # three dice (a boosted roll, the usual case) read the first die of their
                # second entry only: 216 rolls resolved, each copied to the entries that differ
                # in the unread die (a balance matrix builds these tables for every point)
                if three and e % 6 != 0:
                    dmg_codes[r, b, e] = dmg_codes[r, b, e - e % 6]
                    continue
                word = (e // 36) | (e % 36) << 6 if k == 2 else e
                dmg_codes[r, b, e] = damage_on_hit(attacks, r, word, shield, boxes, b)


__all__ = ["NEVER", "R_CAN_ATT", "R_CAN_DMG", "R_DMG_ABOVE", "R_NFIELDS", "R_TABLE", "R_WANT_ATT",
           "spend_tables"]
