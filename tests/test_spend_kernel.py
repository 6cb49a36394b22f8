"""The spending fast path (``mathhammer.montecarlo._kernels.spend``) against the general kernel.

A scenario that would be plain but for its attackers' focus or fury (boosts, bought attacks,
by a fixed policy or by best play) takes the spending kernel. Both kernels read the same
dice in the same order, so they must give the same counts, bit for bit, for the same seed:
every decision (a boost bought or not, an attack bought or not, best play's choice of weapon
and its stopping) changes how many dice an attack reads, so one wrong decision shifts every
later roll and shows in the counts.
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from activation_cases import CASES
from mathhammer import Attacker, Scenario, Spend, Target, Weapon
from mathhammer._core.jit import jit
from mathhammer.montecarlo._kernels.driver import run_sequences
from mathhammer.montecarlo._kernels.layout import (A_ATT_DICE, A_DMG_DICE, T_BOXES,
                                                   T_SHIELD_ARM, T_STATE)
from mathhammer.montecarlo._kernels.plain import (N_ROLLS, N_STATES, attack_bits, damage_on_hit,
                                                  state_of)
from mathhammer.montecarlo._kernels.spend_tables import (NEVER, R_DMG_ABOVE, R_NFIELDS, R_TABLE,
                                                         spend_tables)
from mathhammer.montecarlo.encode import encode
from mathhammer.play import needs_play, solve
from test_mc_vs_exact import SCENARIOS

HEAVY = Target(12, 18, boxes=30)
FISTS = Weapon("Fist", "melee", 7, 16, attacks=2)

SPEND = {name: s for name, s in [*CASES, *SCENARIOS.items()] if encode(s).spend}
SPEND.update({
    # the benchmark's activation (benchmarks/bench_kernel.py): boosts and three bought attacks
    "activation": Scenario(HEAVY, [Attacker("Jack", [FISTS], focus=3)]),
    # a critical knockdown: later attacks hit automatically (no attack roll, so no boost),
    # and best play's key has the target's situation
    "critical_knockdown": Scenario(
        Target(13, 17, boxes=28),
        [Attacker("Jack", [Weapon("Hammer", "melee", 6, 17, rules={"critical_knockdown"}),
                           Weapon("Fist", "melee", 6, 14)], focus=3)]),
    # a target knocked down from the start: every melee attack an automatic hit
    "knocked_down_target": Scenario(
        Target(12, 18, boxes=25, state={"knocked_down"}), [Attacker("Jack", [FISTS], focus=3)]),
    # rolls of five and six dice (three entries: read one by one), boosted or not
    "many_dice": Scenario(
        Target(16, 16, boxes=40),
        [Attacker("Beast", [Weapon("Claw", "melee", 6, 14, extra_attack_dice=3,
                                   extra_damage_dice=2)], fury=3)]),
    # a charge: a free damage boost on the first attack
    "charge_boosted_first": Scenario(
        Target(12, 17, boxes=28),
        [Attacker("Jack", [Weapon("Axe", "melee", 7, 17), Weapon("Fist", "melee", 6, 14)],
                  focus=3, charge=True)]),
    # two attackers with focus, the second holding a reserve, boosts always and never
    "two_attackers_policies": Scenario(
        Target(14, 16, boxes=34),
        [Attacker("Jack", [FISTS], focus=2,
                  spend=Spend(boost_attack="always", boost_damage="never")),
         Attacker("Light", [Weapon("Blade", "melee", 6, 12, attacks=2)], focus=3,
                  spend=Spend(reserve=1, boost_attack="never", boost_damage="always"))]),
})


def _with_and_without_best_play():
    """Every scenario above with its fixed policy (encoded with no decision table) and, where
    it has decisions to make, with best play's tables."""
    for name, scenario in sorted(SPEND.items()):
        yield pytest.param(name, False, id=f"{name}-fixed")
        if needs_play(scenario):
            yield pytest.param(name, True, id=f"{name}-best")


def _encoded(name, best):
    scenario = SPEND[name]
    sequence = scenario.attack_sequence()
    enc = encode(scenario, solve(scenario, sequence) if best else None, sequence)
    assert enc.spend and not enc.plain
    return enc


def _assert_same_counts(fast, slow):
    for field in dataclasses.fields(fast):
        np.testing.assert_array_equal(getattr(fast, field.name), getattr(slow, field.name),
                                      err_msg=field.name)


@pytest.mark.parametrize(("name", "best"), list(_with_and_without_best_play()))
def test_spend_and_general_kernels_agree_bit_for_bit(name, best):
    enc = _encoded(name, best)
    trials = 3 * 4096 + 77
    fast = run_sequences(enc, trials, 31, chunk=4096)
    slow = run_sequences(enc, trials, 31, chunk=4096, general=True)
    _assert_same_counts(fast, slow)


@pytest.mark.parametrize(("name", "best"), list(_with_and_without_best_play()))
def test_aligned_streams_agree_bit_for_bit(name, best):
    enc = _encoded(name, best)
    trials = 2 * 4096 + 31
    stride = enc.max_draws + 3
    fast = run_sequences(enc, trials, 7, chunk=4096, stride=stride)
    slow = run_sequences(enc, trials, 7, chunk=4096, general=True, stride=stride)
    _assert_same_counts(fast, slow)


def test_a_chunk_longer_than_the_tally_adds_up():
    # the kernel packs each slot's counts in 16-bit fields and adds them to the counters every
    # 65,535 trials: a chunk of 100,000 trials crosses that
    enc = _encoded("activation", False)
    fast = run_sequences(enc, 100_000, 3, chunk=100_000)
    slow = run_sequences(enc, 100_000, 3, chunk=100_000, general=True)
    _assert_same_counts(fast, slow)


@jit()
def _build(attacks, attackers, target, play_keys, att_codes, att_takes, dmg_codes, dmg_takes,
           rows, key_base):
    """:func:`spend_tables` called from Python (a helper: no wrapper of its own)."""
    spend_tables(attacks, attackers, target, play_keys, att_codes, att_takes, dmg_codes,
                 dmg_takes, rows, key_base)


@jit()
def _attack_bits(attacks, i, state, word):
    return attack_bits(attacks, i, state, word)


@jit()
def _state_of(start_state, s):
    return state_of(start_state, s)


@jit()
def _damage_on_hit(attacks, i, word, shield, boxes):
    return damage_on_hit(attacks, i, word, shield, boxes)


@pytest.mark.parametrize("name", ["activation", "critical_knockdown", "knocked_down_target",
                                  "many_dice", "charge_boosted_first",
                                  "two_attackers_policies"])
def test_outcome_tables_hold_each_roll_of_the_boosted_dice(name):
    # each entry of a table the kernel reads holds the plain kernel's resolution of those
    # entries (attack_bits, damage_on_hit) for a slot with one die more where it is boosted
    t = _encoded(name, False).tables
    n = t.attacks.shape[0]
    att = np.zeros((n, N_STATES, 2, N_ROLLS), dtype=np.uint8)
    att_takes = np.full((n, N_STATES, 2), -2, dtype=np.int64)
    dmg = np.zeros((n, 2, N_ROLLS), dtype=np.uint16)
    dmg_takes = np.full((n, 2), -2, dtype=np.int64)
    rows = np.zeros((n, R_NFIELDS), dtype=np.int64)
    _build(t.attacks, t.attackers, t.target, t.play_keys, att, att_takes, dmg, dmg_takes, rows,
           np.zeros(N_STATES, dtype=np.int64))
    shield, boxes = t.target[T_SHIELD_ARM], t.target[T_BOXES]
    checked = 0
    for r in sorted(set(rows[:, R_TABLE].tolist())):
        for s, b in zip(*np.nonzero(att_takes[r] >= 0)):
            k = att_takes[r, s, b]
            attacks = t.attacks.copy()
            attacks[r, A_ATT_DICE] += b
            state = _state_of(t.target[T_STATE], s)
            for e in range(36 ** k):
                word = (e // 36) | (e % 36) << 6 if k == 2 else e
                assert att[r, s, b, e] == _attack_bits(attacks, r, state, word)
                checked += 1
        for b in np.nonzero(dmg_takes[r] >= 0)[0]:
            k = dmg_takes[r, b]
            attacks = t.attacks.copy()
            attacks[r, A_DMG_DICE] += b
            for e in range(36 ** k):
                word = (e // 36) | (e % 36) << 6 if k == 2 else e
                assert dmg[r, b, e] == _damage_on_hit(attacks, r, word, shield, boxes)
                checked += 1
    assert checked > 0


def test_fixed_policy_boosts_damage_while_it_can_matter():
    # docs/activation.md, the fixed policy's damage boost ("auto"): wanted when the unboosted
    # roll could leave the target standing (its least damage below the boxes left) and the
    # boosted roll can deal damage at all. POW 16 on two dice against ARM 18 deals at least
    # 1 + 1 + 16 - 18 = 0: boosted while more than 0 boxes are left; against ARM 30, at
    # least -12 (nothing), a boosted roll up to 18 + 16 - 30 = 4; against ARM 35 a boosted
    # roll deals at most 18 + 16 - 35 = -1: never boosted
    def above(arm):
        t = encode(Scenario(Target(12, arm, boxes=30), [Attacker("Jack", [FISTS], focus=3)])).tables
        rows = np.zeros((t.attacks.shape[0], R_NFIELDS), dtype=np.int64)
        n = t.attacks.shape[0]
        _build(t.attacks, t.attackers, t.target, t.play_keys,
               np.zeros((n, N_STATES, 2, N_ROLLS), dtype=np.uint8),
               np.zeros((n, N_STATES, 2), dtype=np.int64),
               np.zeros((n, 2, N_ROLLS), dtype=np.uint16),
               np.zeros((n, 2), dtype=np.int64), rows, np.zeros(N_STATES, dtype=np.int64))
        return rows[0, R_DMG_ABOVE]
    assert above(18) == 2 + 16 - 18
    assert above(30) == 2 + 16 - 30
    assert above(35) == NEVER


def test_what_takes_the_spending_kernel():
    names = set(SPEND)
    assert {"boost_attack_always", "fury_attacker", "buy_attacks_bought_weapon", "charge"} <= names
    # a scenario without points is plain; one with Tough, a power field, rerolls or effects
    # takes the general kernel
    for name, scenario in CASES:
        enc = encode(scenario)
        assert not (enc.plain and enc.spend)
        if name in {"tough", "power_field_focus_lethal", "reroll_attack", "dispel",
                    "def_minus_on_hit_no_stack", "brutal_damage_critical"}:
            assert not enc.spend and not enc.plain


def _random_scenario(rng):
    """A random activation with focus or fury against a damage track: one or two weapons of
    random figures, extra dice, knockdowns, a fixed spending policy or none (best play where
    solved), a charge, a second attacker, a target knocked down from the start."""
    weapons = []
    for k in range(rng.randint(1, 2)):
        rules = set()
        if rng.random() < 0.3:
            rules.add(rng.choice(["critical_knockdown", "knockdown", "critical_stationary"]))
        weapons.append(Weapon(f"W{k}", "melee", rng.randint(4, 8), rng.randint(8, 18),
                              attacks=rng.randint(1, 2), rules=rules,
                              extra_attack_dice=rng.choice([0, 0, 0, 1, 3]),
                              extra_damage_dice=rng.choice([0, 0, 0, 1, 2])))
    spend = None
    if rng.random() < 0.5:
        spend = Spend(boost_attack=rng.choice(["never", "always", "auto"]),
                      boost_damage=rng.choice(["never", "always", "auto"]),
                      reserve=rng.randint(0, 1))
    points = {"focus": rng.randint(0, 5)} if rng.random() < 0.7 else {"fury": rng.randint(1, 4)}
    attackers = [Attacker("A", weapons, spend=spend, charge=rng.random() < 0.2, **points)]
    if rng.random() < 0.3:
        other = Weapon("X", "melee", rng.randint(4, 8), rng.randint(8, 16))
        attackers.append(Attacker("B", [other], focus=rng.randint(0, 3)))
    state = {"knocked_down"} if rng.random() < 0.1 else set()
    return Scenario(Target(rng.randint(10, 16), rng.randint(12, 20), boxes=rng.randint(5, 40),
                           state=state), attackers)


def test_random_activations_agree_bit_for_bit():
    # 257 random scenarios agreed when the kernel was written; these 30 stay in the suite
    rng = random.Random(20261204)
    served = 0
    for i in range(30):
        scenario = _random_scenario(rng)
        sequence = scenario.attack_sequence()
        best = needs_play(scenario) and rng.random() < 0.5
        enc = encode(scenario, solve(scenario, sequence) if best else None, sequence)
        if not enc.spend:  # no points at all: the plain kernel's
            continue
        served += 1
        stride = enc.max_draws + 1 if rng.random() < 0.3 else 0
        fast = run_sequences(enc, 3000, i, chunk=1024, stride=stride)
        slow = run_sequences(enc, 3000, i, chunk=1024, stride=stride, general=True)
        _assert_same_counts(fast, slow)
    assert served >= 25
