"""Effects that stay on the target (issue 17; docs/rules.md 1): Ice Cage (``ice_cage``,
``critical_ice_cage``: -2 DEF each time it lands, cumulative; from the second stack the
target is also stationary) and Paralysis (``paralysis``, ``critical_paralysis``: base DEF 5,
melee attacks still roll). Both count from the next attack on and end with the round.

A worked example on chosen dice through the real kernel for each; the exact engine against
the brute-force oracle; Monte Carlo against exact within 5 standard errors, with best play
too (its decision tables keyed by the stacks and Paralysis).
"""

from __future__ import annotations

import dataclasses

import pytest

from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon
from agreement import exact_matches_oracle, monte_carlo_agrees
from scripted import play

FIXED = dict(policy="fixed", spend=Spend(boost_attack="never", boost_damage="never"))


def test_worked_example_ice_cage_stacks_and_makes_stationary():
    """Ice Cage, DEF 16 against RAT 6 (needs 10): the first hit (5 + 5) puts a stack on: DEF
    14, the second attack hits on 8 (4 + 4); two stacks: stationary (and -4 DEF), so the
    melee attack after them hits automatically and Shatter adds its die."""
    gun = Weapon("Frost", "ranged", 6, None, attacks=2, rules={"ice_cage"})
    hammer = Weapon("Hammer", "melee", 6, 12, rules={"shatter"})
    t = Target(defense=16, arm=18, boxes=20)
    scen = Scenario(t, [Attacker("Freezer", [gun], **FIXED), Attacker("Smasher", [hammer], **FIXED)])
    out = play(scen, [(5, 5), (4, 4), (6, 6), (5, 1)])
    assert out.hit[:3] == [1, 1, 1]
    assert out.damage[2] == 6 + 6 + 5 + 12 - 18  # three dice: Shatter, stationary


def test_worked_example_one_stack_is_not_stationary():
    """One Ice Cage stack: -2 DEF, but the target is not stationary: the melee attack rolls."""
    gun = Weapon("Frost", "ranged", 6, None, rules={"ice_cage"})
    fist = Weapon("Fist", "melee", 4, 12)
    t = Target(defense=14, arm=18, boxes=20)
    scen = Scenario(t, [Attacker("F", [gun], **FIXED), Attacker("S", [fist], **FIXED)])
    out = play(scen, [(4, 4), (3, 4), (6, 6)])  # 8 + 6 = 14 hits; then 7 + 4 = 11 < 12: a miss
    assert out.hit[:2] == [1, 0]


def test_worked_example_paralysis_base_def_5_but_melee_rolls():
    """Paralysis: DEF 17 becomes base DEF 5 after the hit; a melee attack still rolls (and a
    roll of 1 + 1 still misses), a ranged one hits on 5 - RAT."""
    net = Weapon("Venom", "ranged", 8, None, rules={"paralysis"})
    fist = Weapon("Fist", "melee", 2, 12, attacks=2)
    t = Target(defense=17, arm=18, boxes=20)
    scen = Scenario(t, [Attacker("N", [net], **FIXED), Attacker("S", [fist], **FIXED)])
    out = play(scen, [(5, 4), (1, 2), (3, 3), (1, 1),  # 9 + 8 = 17 hits; 3 + 2 >= 5 hits; 1-1 misses
                      (1, 1)])  # the miss's damage roll, drawn and dropped
    assert out.hit[:3] == [1, 1, 0]


def test_critical_only_versions_need_a_critical_hit():
    gun = Weapon("Frost", "ranged", 6, None, attacks=2, rules={"critical_ice_cage"})
    t = Target(defense=16, arm=18, boxes=20)
    scen = Scenario(t, [Attacker("F", [gun], **FIXED)])
    # 6 + 5 hits (not critical): no stack, the next needs 10 again: 4 + 5 misses
    assert play(scen, [(6, 5), (4, 5)]).hit[:2] == [1, 0]
    # 5 + 5 hits critically: a stack, the next needs 8: 4 + 5 hits
    assert play(scen, [(5, 5), (4, 5)]).hit[:2] == [1, 1]


def _cases():
    yield "ice_cage", Scenario(Target(defense=15, arm=15, boxes=3), [
        Attacker("F", [Weapon("Frost", "ranged", 6, 10, attacks=3, rules={"ice_cage"})], focus=1)])
    yield "critical_ice_cage_then_melee", Scenario(Target(defense=14, arm=15, boxes=3, rules={"tough"}), [
        Attacker("F", [Weapon("Frost", "ranged", 7, 10, attacks=2, rules={"critical_ice_cage"})]),
        Attacker("S", [Weapon("Axe", "melee", 5, 12, rules={"shatter"})])])
    yield "paralysis", Scenario(Target(defense=16, arm=15, boxes=3), [
        Attacker("N", [Weapon("Venom", "ranged", 7, 10, attacks=2, rules={"paralysis"})], focus=1)])
    yield "critical_paralysis", Scenario(Target(defense=15, arm=14, boxes=3, rules={"tough"}), [
        Attacker("N", [Weapon("Venom", "melee", 7, 11, attacks=2, rules={"critical_paralysis"})], focus=1)])


CASES = dict(_cases())


@pytest.mark.parametrize("name", sorted(CASES))
def test_exact_equals_the_oracle(name):
    scen = CASES[name]
    for s in (scen, Scenario(scen.target, scen.attackers, turns=2)):
        exact_matches_oracle(s, per_attack=("hit",))


@pytest.mark.parametrize("name", sorted(CASES))
def test_monte_carlo_within_five_standard_errors(name):
    scen = CASES[name]
    scen = dataclasses.replace(scen, target=dataclasses.replace(scen.target, boxes=10))
    monte_carlo_agrees(scen, seed=7, per_attack=("hit",))


def test_worked_example_critical_paralysis_needs_a_critical_hit():
    """critical_paralysis: a plain hit (6 + 5) leaves DEF 16 (the next ranged attack, 4 + 5 +
    6 = 15, misses); a critical hit (5 + 5) paralyzes: base DEF 5, so 4 + 5 hits."""
    gun = Weapon("Venom", "ranged", 6, None, attacks=2, rules={"critical_paralysis"})
    scen = Scenario(Target(defense=16, arm=18, boxes=20), [Attacker("V", [gun], **FIXED)])
    assert play(scen, [(6, 5), (4, 5)]).hit[:2] == [1, 0]
    assert play(scen, [(5, 5), (4, 5)]).hit[:2] == [1, 1]
