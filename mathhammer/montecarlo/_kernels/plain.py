"""Trials of one chunk for *plain* scenarios: the fast path of the general kernel
(:mod:`.single_trials`).

A scenario is plain when nothing in it spends points or changes ARM, DEF or the dice during
the sequence except a knockdown or a stationary effect: no attacker has focus, fury or
forcing; no reroll, discard, Brutal Damage, Decapitation, Dispel, Grievous Wounds or -DEF/-ARM
effect; the target has no power field, Tough or Rapid Healing (the encoder decides:
``Encoded.plain``). Such sequences are most of what users ask, so they get this loop, built
for speed (issue 20: a single attack in 3.8 ns a trial on one thread, 3.3x faster than a
loop over a dice buffer, 1.4x the time of a loop written by hand for that attack alone):

- **Outcome tables.** Before its chunks run, :func:`outcome_tables` resolves every attack
  slot against every roll it can read, once for each state the target can be in (knocked
  down or not, stationary or not): hit, critical hit, the knockdown or stationary effect it
  puts on and the damage it deals, packed in 16 bits (:func:`slot_code`). A trial then makes
  an attack with one table read.
- **Dice in registers.** It reads no dice buffer: it decodes the very entries
  :func:`~mathhammer._core.rng.fill_pairs` would write from the two xoshiro words the buffer
  interleaves (an entry from ``a``, then ``(a, b) = (b, rest)``), draws and drops the words a
  buffer kernel's refill would discard, and so reads the stream exactly as
  :func:`.single_trials.single_trials` does on the same scenario (same rolls, same order, same
  refills): both kernels give identical counts, and a test checks it. What makes this pay is
  the stream's rule that a damaging attack's damage roll is drawn whether it hits or not
  (:mod:`mathhammer._core.rng`): the places of a trial's rolls depend on its state, never on
  its dice.

A slot that reads more than two entries (three or four dice: a free boost) is resolved the
same way from its entries read one by one. A one-attack scenario keeps its counters in
locals (a counter in memory bumped by every trial costs a store a trial).
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from ..._core.pairs import PAIR_SUM
from ..._core.rng import draw_words, fill_words, next64, take_entry, take_pair
from .dice import attack_from_stats, entries_of, roll_stats, two_dice_attack
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
    HIT,
    MISS,
    ST_BASE_DEF_5,
    ST_KNOCKED_DOWN,
    ST_STATIONARY,
    T_BOXES,
    T_SHIELD_ARM,
    T_STATE,
)

#: States of the target a plain sequence can reach from its start: bit 0 knocked down by an
#: attack of the sequence, bit 1 made stationary (the rows of :func:`outcome_tables`).
N_STATES = 4
#: Entries of a slot's outcome table: one per pair of entries read (36 x 36).
N_ROLLS = 1296
#: A code's fields: hit (bit 0), critical (bit 1), the state bits it adds (bits 2-3), the
#: damage it deals, capped at the target's boxes (from bit 4).
CODE_DAMAGE = 4


@jit(helper=True)
def attack_bits(attacks, i, state, att_word, more=0):
    """Slot ``i``'s attack roll against a target in ``state``, its entries packed six bits
    each in ``att_word`` (none read on an automatic hit): ``hit | crit << 1 | new_state <<
    2``, the low bits of :func:`slot_code`. ``more``: dice added to the slot's (a paid boost,
    :mod:`.spend`).

    docs/rules.md 1 for a plain attack: 2d6 (or its dice) + skill against DEF, an automatic
    hit never critical; ``new_state``: bit 0 if it knocks down, bit 1 if it makes stationary.
    """
    flags = attacks[i, A_FLAGS]
    if (state & attacks[i, A_AUTOHIT_ON]) != 0:
        outcome = HIT  # automatic hit: no roll, so never critical
    else:
        n = max(1, attacks[i, A_ATT_DICE] + more)
        skill = attacks[i, A_SKILL]
        defense = attacks[i, A_DEF5] if (state & ST_BASE_DEF_5) != 0 else attacks[i, A_DEF]
        defense += attacks[i, A_SPELL_DEF] + attacks[i, A_UPKEEP_DEF]
        if n == 2:
            outcome = two_dice_attack(att_word & 63, skill, defense)
        else:
            total, kept, counts, judged = roll_stats(att_word, n, 0)
            outcome = attack_from_stats(total, kept, counts, judged, skill, defense, 0)
    hit = np.int64(outcome != MISS)
    crit = np.int64(outcome == CRIT)
    knocks = (hit & np.int64((flags & F_KNOCKDOWN) != 0)) | (
        crit & np.int64((flags & F_CRIT_KNOCKDOWN) != 0))
    still = (hit & np.int64((flags & F_STATIONARY) != 0)) | (
        crit & np.int64((flags & F_CRIT_STATIONARY) != 0))
    return hit | crit << 1 | knocks << 2 | still << 3


@jit(helper=True)
def damage_on_hit(attacks, i, dmg_word, shield, boxes, more=0):
    """The damage slot ``i`` deals when it hits, its damage roll's entries packed six bits
    each in ``dmg_word``: docs/rules.md 2, its dice (``more`` added: a paid boost) + POW -
    ARM, at least 0, capped at the target's boxes (0 for an attack without POW). A plain
    attack's damage does not depend on whether the hit was critical."""
    flags = attacks[i, A_FLAGS]
    if (flags & F_DAMAGE) == 0:
        return 0
    n = max(1, attacks[i, A_DMG_DICE] + more)
    total = PAIR_SUM[dmg_word & 63] if n == 2 else roll_stats(dmg_word, n, 0)[0]
    arm = attacks[i, A_ARM] + attacks[i, A_UPKEEP_ARM] + shield * ((flags & F_IGNORE_SHIELD) == 0)
    return min(boxes, max(0, total + attacks[i, A_POW] - arm))


@jit(helper=True)
def slot_code(attacks, i, state, att_word, dmg_word, shield, boxes):
    """Slot ``i``'s attack against a target in ``state``, its attack roll's entries packed
    six bits each in ``att_word`` (none read on an automatic hit) and its damage roll's in
    ``dmg_word``: ``hit | crit << 1 | new_state << 2 | damage << CODE_DAMAGE``
    (:func:`attack_bits`; the damage of :func:`damage_on_hit` on a hit, nothing on a miss).
    """
    bits = attack_bits(attacks, i, state, att_word)
    return bits | ((bits & 1) * damage_on_hit(attacks, i, dmg_word, shield, boxes)) << CODE_DAMAGE


@jit(helper=True)
def state_of(start_state, s):
    """The target's state bits in row ``s`` of the outcome tables."""
    return start_state | ST_KNOCKED_DOWN * (s & 1) | ST_STATIONARY * ((s >> 1) & 1)


@jit(helper=True)
def slot_entries(attacks, i, state):
    """Entries slot ``i`` reads in ``state``: ``(attack roll's, damage roll's)``."""
    auto = (state & attacks[i, A_AUTOHIT_ON]) != 0
    att = 0 if auto else entries_of(attacks[i, A_ATT_DICE])
    dmg = entries_of(attacks[i, A_DMG_DICE]) if (attacks[i, A_FLAGS] & F_DAMAGE) else 0
    return att, dmg


@jit(helper=True)
def outcome_tables(attacks, target, outcomes, takes):
    """Fill ``outcomes`` (uint16[slots, N_STATES, N_ROLLS]) and ``takes`` (int64[slots,
    N_STATES]) for the states the sequence can reach.

    ``takes[i, s]``: the entries slot ``i`` reads in state row ``s`` when at most two (its
    code then ``outcomes[i, s, e1 * 36 + e2]``, ``e1`` alone for one entry, ``0`` for none),
    else ``-1`` (read one by one, resolved by :func:`slot_code`). Rows no attack can lead to
    are left unwritten.
    """
    start_state = target[T_STATE]
    shield = target[T_SHIELD_ARM]
    boxes = target[T_BOXES]
    knocks = 0
    stills = 0
    rolled = np.empty(36, dtype=np.int64)  # a slot's attack bits, by its attack roll's entry
    dealt = np.empty(36, dtype=np.int64)  # ... its damage on a hit, by its damage roll's entry
    for i in range(attacks.shape[0]):
        knocks |= attacks[i, A_FLAGS] & (F_KNOCKDOWN | F_CRIT_KNOCKDOWN)
        stills |= attacks[i, A_FLAGS] & (F_STATIONARY | F_CRIT_STATIONARY)
    for s in range(N_STATES):
        if ((s & 1) != 0 and knocks == 0) or ((s & 2) != 0 and stills == 0):
            continue
        state = state_of(start_state, s)
        for i in range(attacks.shape[0]):
            att, dmg = slot_entries(attacks, i, state)
            k = att + dmg
            takes[i, s] = k if k <= 2 else -1
            if k > 2:
                continue
            if att == 1 and dmg == 1:
                # one entry each: the attack roll's bits from the first, the damage from the
                # second (36 + 36 rolls resolved, not 1,296: a balance matrix builds these
                # tables for every point, an attacking unit's for each of its slots)
                for e in range(36):
                    rolled[e] = attack_bits(attacks, i, state, e)
                    dealt[e] = damage_on_hit(attacks, i, e, shield, boxes) << CODE_DAMAGE
                for e1 in range(36):
                    bits = rolled[e1]
                    for e2 in range(36):
                        outcomes[i, s, e1 * 36 + e2] = bits | (bits & 1) * dealt[e2]
                continue
            for e in range(36 ** k):
                # the entries in reading order (the attack roll's first), packed six bits
                # each as roll_stats reads them
                word = (e // 36) | (e % 36) << 6 if k == 2 else e
                outcomes[i, s, e] = slot_code(attacks, i, state, word & ((1 << (6 * att)) - 1),
                                              word >> (6 * att), shield, boxes)


@jit()
def run_plain_trials(n_trials, rs, size, max_draws, stride, tables, counters, outcomes, takes):
    """Simulate ``n_trials`` sequences of a plain scenario on the stream ``rs`` (a chunk's,
    unread), with the outcome tables of :func:`outcome_tables`; ``size``, ``max_draws`` and
    ``stride`` as for :func:`.single_trials.single_trials` (the dice buffer it would read: its refills
    are replayed here). The attackers table, the card tables and the counters of cards and
    rounds are unread: nobody spends points, the target is a track, one round.

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
    words = fill_words(size)
    # the reader: entries left in (a, b), words drawn since the buffer's last fill, entries
    # read since it (the buffer kernel's position); the buffer starts empty
    a = np.uint64(0)
    b = np.uint64(0)
    left = 0
    drawn = words
    pos = size
    start = size
    if n_attacks == 1 and takes[0, 0] == 2 and stride == 0:
        # one attack of two entries, trials packed: left stays even, the counters in locals
        hits = 0
        crits = 0
        dealt = 0
        kills = 0
        for _ in range(n_trials):
            if pos > size - max_draws:  # the buffer kernel's refill, replayed (as below)
                for _w in range(words - drawn):
                    next64(rs)
                drawn = 0
                left = 0
                pos = 0
            if left == 0:
                a, b, left, drawn = draw_words(rs, drawn)
            e1, a, b, left = take_pair(a, b, left)
            e2, a, b, left = take_pair(a, b, left)
            pos += 2
            code = np.int64(outcomes[0, 0, e1 * 36 + e2])
            hits += code & 1
            crits += (code >> 1) & 1
            points = code >> CODE_DAMAGE
            dealt += points
            kills += points >= boxes
            damage_hist[points] += 1
        attack_counts[0, C_HIT] += hits
        attack_counts[0, C_CRIT] += crits
        attack_counts[0, C_DAMAGE] += dealt
        kill_at[0] += kills
        return pos
    for _ in range(n_trials):
        # --- where the trial's dice start: the buffer kernel's refill, replayed
        goal = start if stride > 0 else pos
        if goal > size - max_draws:
            for _w in range(words - drawn):
                next64(rs)  # the rest of the fill, dropped with the unread entries
            drawn = 0
            left = 0
            pos = 0
        else:
            while pos < goal:  # a stride's alignment: the entries up to its start, dropped
                _, a, b, left, drawn = take_entry(rs, a, b, left, drawn)
                pos += 1
        start = pos + stride
        s = 0
        marked = 0
        for i in range(n_attacks):
            k = takes[i, s]
            if k == 2 and left == 0:
                a, b, left, drawn = draw_words(rs, drawn)
            if k == 2 and left >= 2:
                e1, a, b, left = take_pair(a, b, left)
                e2, a, b, left = take_pair(a, b, left)
                pos += 2
                code = np.int64(outcomes[i, s, e1 * 36 + e2])
            elif k >= 0:
                e = 0
                for _k in range(k):
                    ek, a, b, left, drawn = take_entry(rs, a, b, left, drawn)
                    e = e * 36 + ek
                pos += k
                code = np.int64(outcomes[i, s, e])
            else:  # more than two entries (a roll of three or four dice): packed as
                # roll_stats reads them
                state = state_of(start_state, s)
                att, dmg = slot_entries(attacks, i, state)
                word = 0
                for j in range(att + dmg):
                    ek, a, b, left, drawn = take_entry(rs, a, b, left, drawn)
                    word |= ek << (6 * j)
                pos += att + dmg
                code = slot_code(attacks, i, state, word & ((1 << (6 * att)) - 1),
                                 word >> (6 * att), shield, boxes)
            attack_counts[i, C_HIT] += code & 1
            attack_counts[i, C_CRIT] += (code >> 1) & 1
            s |= (code >> 2) & 3
            points = min(boxes - marked, code >> CODE_DAMAGE)
            marked += points
            attack_counts[i, C_DAMAGE] += points
            if marked >= boxes:
                kill_at[i] += 1
                break
        damage_hist[marked] += 1
    return pos
