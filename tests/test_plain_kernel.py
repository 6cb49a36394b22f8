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
from mathhammer.montecarlo._kernels.plain import N_ROLLS, N_STATES, outcome_tables
from mathhammer.montecarlo.encode import encode
from test_mc_vs_exact import SCENARIOS

@jit()
def build_tables(attacks, target, outcomes, takes):
    """:func:`outcome_tables` called from Python (it is a helper: no wrapper of its own)."""
    outcome_tables(attacks, target, outcomes, takes)


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
