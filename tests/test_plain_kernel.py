"""The plain fast path (``mathhammer.montecarlo._kernels.plain``) against the general kernel.

On a plain scenario both kernels must read the dice buffer identically and so give the same
counts, bit for bit, for the same seed; a scenario using anything the plain kernel does not
handle must not be sent to it.
"""

from __future__ import annotations

import numpy as np
import pytest

from activation_cases import CASES
from mathhammer import Attacker, Scenario, Target, Weapon
from mathhammer._core.jit import jit
from scripted import play
from mathhammer.montecarlo._kernels.driver import run_sequences
from mathhammer.montecarlo._kernels.layout import T_BOXES, T_SHIELD_ARM, T_STATE
from mathhammer.montecarlo._kernels.plain import (N_ROLLS, N_STATES, outcome_tables, slot_code,
                                                  slot_entries, state_of)
from mathhammer.montecarlo.encode import encode
from test_mc_vs_exact import SCENARIOS

@jit()
def build_tables(attacks, target, outcomes, takes):
    """:func:`outcome_tables` called from Python (it is a helper: no wrapper of its own)."""
    outcome_tables(attacks, target, outcomes, takes)


@jit()
def tables_roll_by_roll(attacks, target, outcomes, takes):
    """The outcome tables as :func:`outcome_tables` documents them, every entry its own call
    of :func:`slot_code` (the kernel builds its common slots from 36 + 36 rolls)."""
    for s in range(N_STATES):
        state = state_of(target[T_STATE], s)
        for i in range(attacks.shape[0]):
            att, dmg = slot_entries(attacks, i, state)
            k = att + dmg
            takes[i, s] = k if k <= 2 else -1
            for e in range(36 ** k if k <= 2 else 0):
                word = (e // 36) | (e % 36) << 6 if k == 2 else e
                outcomes[i, s, e] = slot_code(attacks, i, state, word & ((1 << (6 * att)) - 1),
                                              word >> (6 * att), target[T_SHIELD_ARM],
                                              target[T_BOXES])


PLAIN = {name: s for name, s in SCENARIOS.items()}
PLAIN.update({name: s for name, s in CASES if encode(s).plain})
# a melee attack without POW on a knocked-down target: an automatic hit, no dice read
PLAIN["melee_net_on_a_knocked_down_target"] = Scenario(
    Target(15, 14, boxes=5, state={"knocked_down"}),
    [Attacker("Netter", [Weapon("Net", "melee", 6, None, rules={"stationary"})]),
     Attacker("Axeman", [Weapon("Axe", "melee", 2, 12, attacks=2)])])
# three damage dice (a free boost): a slot of three entries, read one by one
PLAIN["lance_boosted_damage"] = Scenario(
    Target(14, 15, boxes=20),
    [Attacker("Knight", [Weapon("Lance", "melee", 6, 13, attacks=2, boosted_damage=True)])])


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_plain_and_general_kernels_agree_bit_for_bit(name):
    enc = encode(PLAIN[name])
    assert enc.plain
    trials = 3 * 4096 + 77
    fast = run_sequences(enc, trials, 31, chunk=4096)
    slow = run_sequences(enc, trials, 31, chunk=4096, general=True)
    np.testing.assert_array_equal(fast.damage_hist, slow.damage_hist)
    np.testing.assert_array_equal(fast.attack_counts, slow.attack_counts)
    np.testing.assert_array_equal(fast.kill_at, slow.kill_at)


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_aligned_streams_agree_bit_for_bit(name):
    # with a stride (common random numbers) each trial starts at its own place in the stream:
    # the plain kernel skips the entries up to it as the buffer kernel moves its position
    enc = encode(PLAIN[name])
    trials = 2 * 4096 + 31
    stride = enc.max_draws + 3
    fast = run_sequences(enc, trials, 7, chunk=4096, stride=stride)
    slow = run_sequences(enc, trials, 7, chunk=4096, general=True, stride=stride)
    np.testing.assert_array_equal(fast.damage_hist, slow.damage_hist)
    np.testing.assert_array_equal(fast.attack_counts, slow.attack_counts)
    np.testing.assert_array_equal(fast.kill_at, slow.kill_at)


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_outcome_tables_equal_every_roll_resolved_one_by_one(name):
    # the rows the kernel writes (the states its sequence can reach) hold, for every pair of
    # entries, what slot_code gives for those rolls
    enc = encode(PLAIN[name])
    shape = (enc.attacks.shape[0], N_STATES, N_ROLLS)
    fast, slow = np.zeros(shape, dtype=np.uint16), np.zeros(shape, dtype=np.uint16)
    t_fast = np.full(shape[:2], -2, dtype=np.int64)
    t_slow = np.full(shape[:2], -2, dtype=np.int64)
    build_tables(enc.tables.attacks, enc.tables.target, fast, t_fast)
    tables_roll_by_roll(enc.tables.attacks, enc.tables.target, slow, t_slow)
    written = t_fast > -2
    assert written[:, 0].all()
    np.testing.assert_array_equal(t_fast[written], t_slow[written])
    np.testing.assert_array_equal(fast[written], slow[written])


def test_the_outcome_tables_cover_every_path_of_the_plain_kernel():
    # the scenarios above reach each way a slot is read: one attack of two entries (its own
    # loop), two entries from a table, one (an automatic hit's damage roll; an attack without
    # POW), none (an automatic hit without POW), and more than two read one by one
    takes = set()
    for scenario in PLAIN.values():
        enc = encode(scenario)
        out = np.zeros((enc.attacks.shape[0], N_STATES, N_ROLLS), dtype=np.uint16)
        t = np.full((enc.attacks.shape[0], N_STATES), -2, dtype=np.int64)
        build_tables(enc.tables.attacks, enc.tables.target, out, t)
        takes |= set(t[t > -2].tolist())
    assert takes == {-1, 0, 1, 2}


def test_what_makes_a_scenario_plain():
    names = {name for name, s in CASES if encode(s).plain}
    # terrain, shields and spells are static: plain
    assert {"terrain_forest", "shield_and_buckler", "chain_weapon_vs_shield",
            "stationary"} <= names
    # points, rerolls, effects, Tough, power fields, Dispel are not
    assert not names & {"boost_attack_always", "reroll_attack", "def_minus_on_hit_no_stack",
                        "tough", "power_field_focus_lethal", "dispel", "brutal_damage_critical",
                        "rapid_healing", "decapitation", "fury_attacker"}
    assert len(names) >= 5


def test_stream_rule_a_miss_draws_its_damage_roll():
    """The dice stream (mathhammer/_core/rng.py): a damaging attack's damage roll is drawn
    whether it hits or not, as a non-critical hit would roll it without a bought boost. A
    free-boosted Lance (three damage dice) misses DEF 14 on 2 + 2 + 6 = 10: its 6-6-6 is
    drawn and dropped; the second attack then reads 5-5 (a critical hit) and 1-2-3 for
    6 + 13 - 15 = 4 damage. The general kernel reads it so here, the plain kernel as the
    general one on this scenario (its bit-for-bit tests above)."""
    p = play(PLAIN["lance_boosted_damage"], [(2, 2), (6, 6, 6), (5, 5), (1, 2, 3)])
    assert p.hit == [0, 1] and p.crit == [0, 1] and p.damage == [0, 4]
    assert p.rolls_read == 4
