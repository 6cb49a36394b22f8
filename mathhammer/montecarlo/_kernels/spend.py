"""Trials of one chunk for plain scenarios whose attackers spend points: the fast path of
:mod:`.single_trials` for a warjack's or warbeast's activation against a damage track.

A scenario takes it when it would be plain (:mod:`.plain`) but for its attackers' focus or
fury: boosts of attack and damage rolls and bought attacks, by a fixed spending policy or by
best play's decision tables (``Encoded.spend``). This is the activation players ask about
most, so it gets the plain kernel's build (issue 20: the 3-focus activation in 47-50 ns a
trial on one thread, 1.7x faster than through the general kernel):

- **Outcome tables per roll.** Before its chunks run, :func:`.spend_tables.spend_tables` resolves each
  distinct attack row's attack roll against every roll it can read, boosted or not, once for
  each state the target can be in (:func:`.plain.attack_bits`), and its damage roll, boosted
  or not (:func:`.plain.damage_on_hit`). The decisions stay in the trial (they depend on the
  points left and the damage marked) and pick the table; an attack is then two table reads.
- **The dice buffer** of :mod:`.single_trials`, read in the same order with the same refills,
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
from .dice import entries_of, read_word
from .layout import (
    A_ATT_DICE,
    A_ATTACKER,
    A_CHOICE_ROW,
    A_CHOICES,
    A_COST,
    A_DMG_DICE,
    A_FLAGS,
    A_ORIGIN,
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
    F_DAMAGE,
    F_FIRST,
    ORIGIN_BOUGHT,
    P_BEST,
    P_POINTS,
    P_RESERVE,
    T_BOXES,
    T_SHIELD_ARM,
    T_SLOTS,
    T_STATE,
)
from .plain import attack_bits, damage_on_hit, state_of
from .spend_tables import R_CAN_ATT, R_CAN_DMG, R_DMG_ABOVE, R_TABLE, R_WANT_ATT

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
        att_boosts = (word >> (2 * TALLY_BITS)) & mask
        dmg_boosts = (word >> (3 * TALLY_BITS)) & mask
        attack_counts[i, C_HIT] += word & mask
        attack_counts[i, C_CRIT] += (word >> TALLY_BITS) & mask
        attack_counts[i, C_BOOST_ATT] += att_boosts
        attack_counts[i, C_BOOST_DMG] += dmg_boosts
        attack_counts[i, C_DAMAGE] += tally[i, 1]
        attack_counts[i, C_SPENT] += att_boosts + dmg_boosts
        tally[i, 0] = 0
        tally[i, 1] = 0


@jit()
def run_spend_trials(n_trials, rs, dice, size, max_draws, stride, tables, counters, att_codes,
                     att_takes, dmg_codes, dmg_takes, rows, key_base, tally, best_play):
    """Simulate ``n_trials`` activations of a plain scenario with points on the stream ``rs``
    (a chunk's, unread) through the dice buffer ``dice`` (empty), with the tables of
    :func:`.spend_tables.spend_tables`; ``size``, ``max_draws`` and ``stride`` as for
    :func:`.single_trials.single_trials`, which reads the same entries in the same order.

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
                k = entries_of(attacks[w, A_ATT_DICE] + boost)
                word = read_word(dice, pos, 2 * k)
                bits = attack_bits(attacks, w, state_of(start_state, s), word, boost)
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
                    k = entries_of(attacks[w, A_DMG_DICE] + boost)
                    dealt = damage_on_hit(attacks, w, read_word(dice, pos, 2 * k), shield, boxes,
                                          boost)
                pos += k
                taken = min(remaining, hit * dealt)
                marked += taken
            tally[i, 0] += (hit | crit << TALLY_BITS | att_boost << (2 * TALLY_BITS)
                            | boost << (3 * TALLY_BITS))
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


__all__ = ["TALLY_BITS", "TALLY_TRIALS", "run_spend_trials"]
