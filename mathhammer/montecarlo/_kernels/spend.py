"""Trials of one chunk for plain scenarios whose attackers spend points: the fast path of
:mod:`.sequence` for a warjack's or warbeast's activation against a damage track.

A scenario takes it when it would be plain (:mod:`.plain`) but for its attackers' focus or
fury: boosts of attack and damage rolls and bought attacks, by a fixed spending policy or by
best play's decision tables (``Encoded.spend``). This is the activation players ask about
most, so it gets the plain kernel's build (issue 20; benchmarks/README.md, "The spending
kernel"):

- **Outcome tables per roll.** Before its chunks run, :func:`spend_tables` resolves each
  distinct attack row's attack roll against every roll it can read, boosted or not, once for
  each state the target can be in (:func:`.plain.attack_bits`), and its damage roll, boosted
  or not (:func:`.plain.damage_on_hit`). The decisions stay in the trial (they depend on the
  points left and the damage marked) and pick the table; an attack is then two table reads.
- **The dice buffer** of :mod:`.sequence`, read in the same order with the same refills,
  so that both kernels give identical counts on the same seed (a test checks it on every
  kind of decision). How many entries an attack reads depends on its decisions and on
  whether it hit (a boosted damage roll reads two entries, a miss's one), so a table index
  is read branch-free from a buffer (:func:`_index`): decoding the entries in registers as
  :mod:`.plain` does put a mispredicted branch in most attacks (measured 1.5x slower).

A roll of more than two entries (five or more dice) is resolved from its entries read one by
one.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from ..._core.rng import fill_pairs
from .dice import read_word
from .layout import (
    A_ARM,
    A_ATT_DICE,
    A_ATTACKER,
    A_AUTOHIT_ON,
    A_CHOICE_ROW,
    A_CHOICES,
    A_COST,
    A_DEF,
    A_DEF5,
    A_DMG_DICE,
    A_FLAGS,
    A_ORIGIN,
    A_POW,
    A_SKILL,
    A_SPELL_DEF,
    A_UPKEEP_ARM,
    A_UPKEEP_DEF,
    C_BOOST_ATT,
    C_BOOST_DMG,
    C_CRIT,
    C_DAMAGE,
    C_HIT,
    C_MADE,
    C_SPENT,
    D_BOOST_ATTACK,
    D_BOOST_DAMAGE_CRIT,
    D_BOOST_DAMAGE_HIT,
    D_BUY,
    D_KNOWN_ATTACK,
    D_KNOWN_BUY,
    D_KNOWN_DAMAGE_CRIT,
    D_KNOWN_DAMAGE_HIT,
    F_CRIT_KNOCKDOWN,
    F_CRIT_STATIONARY,
    F_DAMAGE,
    F_FIRST,
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
    ORIGIN_BOUGHT,
    P_BEST,
    P_BOOST_ATT,
    P_BOOST_ATT_AT,
    P_BOOST_DMG,
    P_POINTS,
    P_RESERVE,
    ST_BASE_DEF_5,
    T_BOXES,
    T_SHIELD_ARM,
    T_SLOTS,
    T_STATE,
)
from .plain import N_ROLLS, N_STATES, attack_bits, damage_on_hit, state_of
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
_ROLL_FIELDS = (A_ATTACKER, A_SKILL, A_DEF, A_DEF5, A_SPELL_DEF, A_UPKEEP_DEF, A_AUTOHIT_ON, A_ATT_DICE,
                A_POW, A_ARM, A_UPKEEP_ARM, A_DMG_DICE)
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
def _entries(n_dice):
    """Entries (pairs of dice) a roll of ``n_dice`` dice reads (at least one die)."""
    return (max(1, n_dice) + 1) >> 1


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
        key_base[s] = play_keys[K_SITUATION_INDEX + raw] * play_keys[K_TPOINTS] * play_keys[K_POINTS]
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
        arm = attacks[r, A_ARM] + attacks[r, A_UPKEEP_ARM] + shield * ((flags & F_IGNORE_SHIELD) == 0)
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
                k = 0 if (state & attacks[r, A_AUTOHIT_ON]) != 0 else _entries(attacks[r, A_ATT_DICE] + b)
                att_takes[r, s, b] = k if k <= 2 else -1
                three = max(1, attacks[r, A_ATT_DICE] + b) == 3
                for e in range(36 if k == 0 else 36 ** k if k <= 2 else 0):
                    if three and e % 6 != 0:  # as the roll of the entry's first die (below)
                        att_codes[r, s, b, e] = att_codes[r, s, b, e - e % 6]
                        continue
                    word = (e // 36) | (e % 36) << 6 if k == 2 else e
                    att_codes[r, s, b, e] = attack_bits(attacks, r, state, word if k > 0 else 0, b)
        for b in range(2 if pays and rows[r, R_CAN_DMG] else 1):
            k = _entries(n + b) if damages else 0
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


@jit(helper=True)
def _index(dice, pos, k):
    """The outcome tables' index of the ``k`` (0, 1 or 2) entries at ``dice[pos]``: ``e1 *
    36 + e2`` for two, ``e1`` for one or none (a table of no entry has the same code at its
    first 36). Arithmetic, no branch: how many entries an attack reads depends on its
    decisions and on whether it hit (the buffer has slack after its entries)."""
    e1 = np.int64(dice[pos])
    return e1 + (e1 * 35 + np.int64(dice[pos + 1])) * (k >> 1)


#: Bits of each count in a tally word (hits, critical hits, attack boosts, damage boosts of a
#: slot), and the most trials tallied before the words are added to the counters.
TALLY_BITS = 16
TALLY_TRIALS = (1 << TALLY_BITS) - 1


@jit(helper=True)
def _flush(tally, attack_counts, n_attacks):
    """Add the tally of each slot to its counters and clear it: hits, critical hits, attack
    and damage boosts from the packed word, the damage marked; the points spent are the
    boosts and, for a bought attack, its cost (``C_MADE`` is counted as it goes)."""
    mask = (1 << TALLY_BITS) - 1
    for i in range(n_attacks):
        word = tally[i, 0]
        boosts = ((word >> (2 * TALLY_BITS)) & mask) + ((word >> (3 * TALLY_BITS)) & mask)
        attack_counts[i, C_HIT] += word & mask
        attack_counts[i, C_CRIT] += (word >> TALLY_BITS) & mask
        attack_counts[i, C_BOOST_ATT] += (word >> (2 * TALLY_BITS)) & mask
        attack_counts[i, C_BOOST_DMG] += (word >> (3 * TALLY_BITS)) & mask
        attack_counts[i, C_DAMAGE] += tally[i, 1]
        attack_counts[i, C_SPENT] += boosts
        tally[i, 0] = 0
        tally[i, 1] = 0


@jit()
def run_spend_trials(n_trials, rs, dice, size, max_draws, stride, tables, counters, att_codes,
                     att_takes, dmg_codes, dmg_takes, rows, key_base, tally, best_play):
    """Simulate ``n_trials`` activations of a plain scenario with points on the stream ``rs``
    (a chunk's, unread) through the dice buffer ``dice`` (empty), with the tables of
    :func:`spend_tables`; ``size``, ``max_draws`` and ``stride`` as for
    :func:`.sequence.run_trials`, which reads the same entries in the same order.

    Each attacker's points are reset at its first slot; each attack asks best play's table
    for its decisions where the attacker plays best and has points (``play_attack`` at the
    state key and the boxes marked), else its fixed policy decides: buy a bought attack while
    the points pay for it, boost the attack roll where the DEF needs it, boost the damage
    roll of a hit while it can matter, a boost paid only while more points than the reserve
    are left (docs/activation.md). ``C_MADE`` is counted for bought attacks only (the driver
    derives the initial ones from ``kill_at``). ``tally`` (int64[>= slots, 2], scratch): the
    counts of each slot that every attack adds to, packed, two stores an attack in place of
    six (:func:`_flush` adds them to the counters). ``best_play``: ``None`` when no attacker
    plays best (the decisions' paths are then compiled out: the fixed-policy activation ran
    1.2x faster without them), else ``True``.
    """
    attacks, attackers, target = tables.attacks, tables.attackers, tables.target
    play_attack = tables.play_attack
    damage_hist, attack_counts, kill_at = (counters.damage_hist, counters.attack_counts,
                                           counters.kill_at)
    boxes = target[T_BOXES]
    shield = target[T_SHIELD_ARM]
    start_state = target[T_STATE]
    n_attacks = target[T_SLOTS]
    pos = size  # the buffer starts empty
    start = size
    points = 0
    reserve = 0
    best = 0
    tally[:n_attacks] = 0
    since = 0  # trials in the tally
    for _ in range(n_trials):
        if stride > 0:
            pos = start
        if pos > size - max_draws:
            fill_pairs(rs, dice, size)
            pos = 0
        start = pos + stride
        s = 0
        marked = 0
        for i in range(n_attacks):
            if (attacks[i, A_FLAGS] & F_FIRST) != 0:
                who = attacks[i, A_ATTACKER]
                points = attackers[who, P_POINTS]
                reserve = attackers[who, P_RESERVE]
                best = attackers[who, P_BEST]
            dec = 0
            pkey = 0
            if best_play is not None and best != 0 and points > 0:
                pkey = key_base[s] + points
                dec = np.int64(play_attack[i, pkey, marked])
            w = i  # the row of the weapon it is made with
            if attacks[i, A_ORIGIN] == ORIGIN_BOUGHT:
                if (dec & (D_KNOWN_BUY | D_BUY)) == D_KNOWN_BUY:
                    points = 0  # best play stops buying here
                cost = attacks[i, A_COST]
                if points < cost:
                    continue
                points -= cost
                attack_counts[i, C_MADE] += 1
                attack_counts[i, C_SPENT] += cost
                if (dec & D_BUY) != 0 and attacks[i, A_CHOICES] > 0:
                    # best play's weapon: another one where its row says so
                    for j in range(attacks[i, A_CHOICES]):
                        r = attacks[i, A_CHOICE_ROW] + j
                        alt = np.int64(play_attack[r, pkey, marked])
                        if (alt & D_BUY) != 0:
                            w = r
                            dec = alt
                            break
            t = rows[w, R_TABLE]
            # the entries each roll reads, unboosted or boosted: loaded before the decisions
            # (they wait on the last attack's dice) and picked without a branch
            ka0 = att_takes[t, s, 0]
            ka1 = att_takes[t, s, 1]
            kd0 = dmg_takes[t, 0]
            kd1 = dmg_takes[t, 1]
            # --- attack roll (docs/rules.md 1): boosted when it adds a die, is wanted and paid
            if (dec & D_KNOWN_ATTACK) != 0:
                want = np.int64((dec & D_BOOST_ATTACK) != 0)
            else:
                want = (rows[w, R_WANT_ATT] >> s) & 1
            boost = want & (rows[w, R_CAN_ATT] >> s) & np.int64(points > reserve)
            points -= boost
            att_boost = boost
            k = ka0 + (ka1 - ka0) * boost
            if k >= 0:
                bits = np.int64(att_codes[t, s, boost, _index(dice, pos, k)])
                pos += k
            else:
                k = _entries(attacks[w, A_ATT_DICE] + boost)
                bits = attack_bits(attacks, w, state_of(start_state, s), read_word(dice, pos, 2 * k),
                                   boost)
                pos += k
            hit = bits & 1
            crit = (bits >> 1) & 1
            # --- damage roll (docs/rules.md 2): a miss's is drawn and dropped, unboosted
            boost = 0
            taken = 0
            if (attacks[w, A_FLAGS] & F_DAMAGE) != 0:
                remaining = boxes - marked
                known = D_KNOWN_DAMAGE_CRIT if crit == 1 else D_KNOWN_DAMAGE_HIT
                if (dec & known) != 0:
                    want = np.int64((dec & (D_BOOST_DAMAGE_CRIT if crit == 1
                                            else D_BOOST_DAMAGE_HIT)) != 0)
                else:
                    want = np.int64(remaining > rows[w, R_DMG_ABOVE])
                boost = hit & want & rows[w, R_CAN_DMG] & np.int64(points > reserve)
                points -= boost
                k = kd0 + (kd1 - kd0) * boost
                if k >= 0:
                    dealt = np.int64(dmg_codes[t, boost, _index(dice, pos, k)])
                else:
                    k = _entries(attacks[w, A_DMG_DICE] + boost)
                    dealt = damage_on_hit(attacks, w, read_word(dice, pos, 2 * k), shield, boxes,
                                          boost)
                pos += k
                taken = min(remaining, hit * dealt)
                marked += taken
            tally[i, 0] += hit | crit << TALLY_BITS | att_boost << (2 * TALLY_BITS) | boost << (3 * TALLY_BITS)
            tally[i, 1] += taken
            s |= (bits >> 2) & 3
            if marked >= boxes:
                kill_at[i] += 1
                break
        damage_hist[marked] += 1
        since += 1
        if since == TALLY_TRIALS:
            _flush(tally, attack_counts, n_attacks)
            since = 0
    _flush(tally, attack_counts, n_attacks)
    return pos


__all__ = ["N_ROLLS", "N_STATES", "R_NFIELDS", "run_spend_trials", "spend_tables"]
