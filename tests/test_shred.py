"""Shred (issue 17; docs/rules.md 5): a critical hit gives one more attack with the same
weapon, made at once, which can shred again; at most ``MAX_SHRED`` in a chain.

Worked examples on chosen dice through the real kernel; the exact engine against the
brute-force oracle (tests/naive.py) and against a closed form; Monte Carlo against exact
within 5 standard errors (best play, a choice of weapons, a grid, a unit, several targets).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from mathhammer import simulate
from mathhammer._core.limits import MAX_SHRED
from mathhammer.errors import InputError
from mathhammer.io.scenario_files import loads_scenario
from mathhammer.result.text import format_report
from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon
from agreement import monte_carlo_agrees, small_file
from naive import bf_activation
from scripted import play

FIXED = dict(policy="fixed", spend=Spend(boost_attack="never", boost_damage="never"))


def _claw(**kw):
    return Weapon("Claw", "melee", kw.pop("skill", 6), kw.pop("pow", 12), rules={"shred"} | kw.pop("rules", set()),
                  **kw)


# ------------------------------------------------------------------ worked examples (rule: Shred)
def test_worked_example_a_critical_hit_shreds_twice():
    """MAT 6 against DEF 12, POW 12 against ARM 14. 3 + 3 hits critically: damage 4 + 5 - 2
    = 7, and a Shred attack: 5 + 5 critical again, damage 6 + 6 - 2 = 10, and another: 2 + 1
    misses (its damage dice are drawn and dropped). One attack slot: made once, hit once,
    two Shred attacks, 17 points."""
    scen = Scenario(Target(defense=12, arm=14, boxes=30), [Attacker("B", [_claw()], **FIXED)])
    out = play(scen, [(3, 3), (4, 5), (5, 5), (6, 6), (2, 1),
                      (1, 1)])  # the miss's damage roll, drawn and dropped
    assert (out.made, out.hit, out.crit, out.shred) == ([1], [1], [1], [2])
    assert out.damage == [17] and out.marked == 17 and out.rolls_read == 6


def test_worked_example_the_fire_s_damage_stays_marked_into_the_next_round():
    """Shred and Fire on one model over two rounds (rules: Shred, continuous effects). MAT 6
    against DEF 13: 6 + 6 hits critically and sets the target on fire, dealing 2 + 12 - 15 =
    0; its Shred attack misses (1 + 2). Maintenance: the fire stays (3) and deals 2 + 2 + 12
    - 15 = 1. Round 2: the attack misses; the fire goes out (1). One box marked at the end:
    the next round's attack goes on against the model as the fire left it (a kernel that took
    the model back as it stood before the maintenance phase would mark none)."""
    claw = _claw(rules={"critical_fire"})
    scen = Scenario(Target(defense=13, arm=15, boxes=6), [Attacker("B", [claw], **FIXED)], turns=2)
    out = play(scen, [(6, 6), (1, 1), (1, 2), (1, 1),  # the attack, its Shred attack
                      (3,), (2, 2),                      # the fire stays and deals 1
                      (1, 2), (1, 1),                    # round 2: a miss
                      (1,)])                             # the fire goes out
    assert out.shred == [1, 0] and out.crit == [1, 0]
    assert out.marked == 1 and out.rolls_read == 9
    assert out.effects[0, 0, 2] == 1  # round 1's fire: 1 point (E_DAMAGE)


def test_worked_example_a_plain_hit_ends_the_chain_and_the_next_attack_follows():
    """MAT 8: the first attack is a plain hit (4 + 5): no Shred; the second slot's critical
    hit (2 + 2) shreds once, and that Shred attack's plain hit ends the chain."""
    claw = _claw(skill=8, attacks=2)
    scen = Scenario(Target(defense=12, arm=14, boxes=30), [Attacker("B", [claw], **FIXED)])
    out = play(scen, [(4, 5), (1, 1), (2, 2), (3, 3), (6, 5), (2, 1)])
    # slot 1: 9 + 8 hits, damage 2 - 2 = 0; slot 2: 4 + 8 = 12 hits critically, 6 + 12 - 14 = 4;
    # its Shred attack: 11 + 8 hits, 3 + 12 - 14 = 1
    assert out.shred == [0, 1] and out.crit == [0, 1] and out.hit == [1, 1]
    assert out.damage == [0, 5] and out.rolls_read == 6


def test_worked_example_the_chain_stops_after_max_shred():
    """Always a critical hit (2 + 2, MAT 20) dealing nothing (POW 0 against ARM 30): the
    attack and MAX_SHRED Shred attacks, the last of which shreds no more; then the second
    slot's attack."""
    gun = Weapon("Rake", "melee", 20, 0, attacks=2, rules={"shred"})
    scen = Scenario(Target(defense=12, arm=30, boxes=5), [Attacker("B", [gun], **FIXED)])
    rolls = [(2, 2), (1, 1)] * (MAX_SHRED + 1) + [(3, 4), (1, 1)]
    out = play(scen, rolls)
    assert out.shred == [MAX_SHRED, 0] and out.made == [1, 1] and out.crit == [1, 0]
    assert out.rolls_read == len(rolls)


def test_worked_example_a_shred_attack_is_boosted_but_not_paid_for():
    """Focus 2, attack boosts always: the attack (3 + 3 + 1, MAT 6: 13 against DEF 12,
    critical) and its Shred attack (4 + 4 + 2) are boosted, one focus each; the next Shred
    attack has no focus left and rolls two dice (1 + 2 misses; its damage dice are drawn and
    dropped). No attack is bought."""
    claw = _claw(pow=10)
    spend = Spend(boost_attack="always", boost_damage="never", buy_attacks=False)
    scen = Scenario(Target(defense=12, arm=20, boxes=30),
                    [Attacker("B", [claw], focus=2, policy="fixed", spend=spend)])
    out = play(scen, [(3, 3, 1), (1, 1), (4, 4, 2), (1, 1), (1, 2),
                      (1, 1)])  # the miss's damage roll, drawn and dropped
    assert out.boost_attack == [2] and out.spent == [2] and out.shred == [2]
    assert out.made == [1] and out.rolls_read == 6


def test_worked_example_a_shred_attack_spills_onto_the_next_model():
    """Against a unit of one-box models: the critical hit destroys the first, and its Shred
    attack goes to the next one (4 + 3 + 6 hits), which it destroys too."""
    claw = _claw()
    scen = Scenario(Target(defense=12, arm=12, boxes=1, models=3), [Attacker("B", [claw], **FIXED)])
    out = play(scen, [(3, 3), (1, 2), (4, 3), (2, 1)])
    assert out.shred == [1] and out.destroyed == [2] and out.models_destroyed == 2


# ------------------------------------------------------------------ exact engine
def _oracle_agrees(scen):
    want = bf_activation(scen)
    ex = simulate(scen, method="exact")
    assert ex.kill == pytest.approx(float(want["kill"]), abs=1e-12)
    for got, key in ((ex.made, "made"), (ex.hit, "hit"), (ex.crit, "crit"), (ex.shred_mean, "shred"),
                     (ex.attack_damage_mean, "dmg"), (ex.spent_mean, "spent")):
        assert list(got) == pytest.approx([float(x) for x in want[key]], abs=1e-12), key
    assert list(ex.damage_pmf) == pytest.approx([float(p) for p in want["damage"]], abs=1e-12)
    return ex


SCENARIOS = {
    "fixed, no points": Scenario(Target(defense=13, arm=15, boxes=10),
                                 [Attacker("B", [_claw(attacks=2, rules={"critical_knockdown"})], **FIXED)]),
    "best play, Tough": Scenario(Target(defense=12, arm=14, boxes=3, rules={"tough"}),
                                 [Attacker("B", [_claw(attacks=2)], focus=1)]),
    "a choice of weapons": Scenario(Target(defense=13, arm=15, boxes=6), [Attacker("B", [
        _claw(skill=6, pow=11), Weapon("Bite", "melee", 6, 14)], focus=1)]),
    "Sustained Attack ends it": Scenario(Target(defense=14, arm=15, boxes=10), [Attacker("B", [
        _claw(attacks=3, rules={"sustained_attack"})], focus=1)]),
    "a random rate of fire": Scenario(Target(defense=13, arm=14, boxes=5), [Attacker("G", [
        Weapon("Spikes", "ranged", 6, 11, attacks="d3", rules={"shred"})], **FIXED)]),
    "a small grid": Scenario(Target(defense=12, arm=14, grid=["L", ".", "M", ".", "C", "."]),
                             [Attacker("B", [_claw(pow=14)], **FIXED)]),
    "two rounds, fire": Scenario(Target(defense=13, arm=15, boxes=6), [Attacker("B", [
        _claw(rules={"critical_fire"})], **FIXED)], turns=2),
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_exact_equals_brute_force(name):
    ex = _oracle_agrees(SCENARIOS[name])
    assert ex.shred_mean.sum() > 0


def test_exact_expected_shred_attacks_is_the_geometric_sum():
    """Always hitting (MAT 20; two 1s miss), never damaging: each attack is a critical hit
    with chance 5/36 (a double but two 1s), so one attack leads to sum over k = 1..20 of
    (5/36)^k Shred attacks."""
    rake = Weapon("Rake", "melee", 20, 0, rules={"shred"})
    scen = Scenario(Target(defense=12, arm=30, boxes=5), [Attacker("B", [rake], **FIXED)])
    ex = simulate(scen, method="exact")
    q = 5 / 36
    assert ex.shred_mean[0] == pytest.approx(sum(q ** k for k in range(1, MAX_SHRED + 1)), rel=1e-13)
    assert ex.hit[0] == pytest.approx(35 / 36) and ex.crit[0] == pytest.approx(q)


# ------------------------------------------------------------------ Monte Carlo against exact
MC_SCENARIOS = dict(SCENARIOS, **{
    "a unit": Scenario(Target(defense=12, arm=13, boxes=1, models=5),
                       [Attacker("B", [_claw(attacks=3)], focus=1)]),
    "several targets": Scenario([Target(defense=12, arm=14, boxes=3, name="Small"),
                                 Target(defense=13, arm=15, boxes=8, name="Big")],
                                [Attacker("B", [_claw(attacks=3)], focus=1)]),
})


@pytest.mark.parametrize("name", ["best play, Tough", "a choice of weapons", "a small grid", "two rounds, fire",
                                  "a unit", "several targets"])
def test_monte_carlo_agrees_with_exact(name):
    scen = MC_SCENARIOS[name]
    monte_carlo_agrees(scen, seed=17, n=200_000, per_attack=("hit", "crit"))
    ex = simulate(scen, method="exact")
    mc = simulate(scen, method="monte_carlo", trials=200_000, seed=17)
    # a Shred count per attack is a count of at most MAX_SHRED: its variance is at most its
    # mean times the largest count
    tol = 5 * np.sqrt(ex.shred_mean * MAX_SHRED / 200_000) + 1e-9
    assert np.all(np.abs(mc.shred_mean - ex.shred_mean) <= tol)


def test_same_seed_same_figures_whatever_the_threads():
    from numba import get_num_threads, set_num_threads

    scen = MC_SCENARIOS["a unit"]
    old = get_num_threads()
    try:
        set_num_threads(1)
        one = simulate(scen, trials=70_000, seed=3)
        set_num_threads(old)
        every = simulate(scen, trials=70_000, seed=3)
    finally:
        set_num_threads(old)
    assert np.array_equal(one.slot_weights, every.slot_weights)
    assert np.array_equal(one.damage_weights, every.damage_weights)


# ------------------------------------------------------------------ files, reports, errors
def test_scenario_file_and_report():
    scen = loads_scenario(small_file(weapon='rules = ["shred"]\nattacks = 2'))
    assert "shred" in scen.attackers[0].weapons[0].rules
    res = simulate(scen, method="exact")
    assert "shred attacks" in format_report(scen, res)
    assert res.attack_table()["shred_mean"].tolist() == pytest.approx(list(res.shred_mean))


def test_shred_needs_an_attack_roll():
    with pytest.raises(InputError, match=r"rules: needs an attack roll: the weapon has auto_hit \(got 'shred'\)"):
        Weapon("Claw", "melee", 6, 12, auto_hit=True, rules={"shred"})


def test_shred_changes_the_figures():
    """The same weapon without Shred kills less often (a worked comparison, exact)."""
    with_it = simulate(SCENARIOS["fixed, no points"], method="exact")
    plain = Scenario(Target(defense=13, arm=15, boxes=10),
                     [Attacker("B", [Weapon("Claw", "melee", 6, 12, attacks=2, rules={"critical_knockdown"})],
                               **FIXED)])
    without = simulate(plain, method="exact")
    assert with_it.kill > without.kill and with_it.damage_mean > without.damage_mean
    assert math.isclose(with_it.made[0], 1.0) and with_it.hit[0] == pytest.approx(without.hit[0])


def test_a_shred_scenario_takes_the_kernel_variant_that_repeats_attacks():
    """Only the several-target variant of the kernel has Shred's loop: the encoder sends a
    one-target Shred scenario there (a routes matrix), and keeps the other one-target
    scenarios on the single-target variant."""
    from mathhammer.montecarlo.encode import encode

    assert encode(SCENARIOS["fixed, no points"]).tables.routes.ndim == 2
    plain = Scenario(Target(defense=13, arm=15, boxes=10), [Attacker("B", [Weapon("Claw", "melee", 6, 12)])])
    assert encode(plain).tables.routes.ndim == 1
