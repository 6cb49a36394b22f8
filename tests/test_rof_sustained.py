"""Random rates of fire and Sustained Attack (issue 17; docs/rules.md 5 and 1).

- ``attacks = "d3"`` / ``"d6"`` / ``"2d3"`` on a ranged weapon: the number of its initial
  attacks is rolled once, before the first of them (a d3 is a d6 halved, rounding up); each
  attack sees what the earlier ones of the volley did.
- ``sustained_attack``: once the weapon has hit the target, its later attacks against it in
  the same activation hit automatically (no roll, never critical).

Worked examples on chosen dice through the real kernel; the exact engine against the
brute-force oracle; Monte Carlo against exact within 5 standard errors (best play too).
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from mathhammer import simulate

from mathhammer.errors import InputError
from mathhammer.io.scenario_files import loads_scenario
from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon
from mathhammer.rules.weapon import rof_odds
from agreement import exact_matches_oracle, monte_carlo_agrees, small_file
from scripted import play

FIXED = dict(policy="fixed", spend=Spend(boost_attack="never", boost_damage="never"))


def test_worked_example_d3_rate_of_fire():
    """A d3 rate of fire: the roll 4 gives 2 attacks (4 halved, rounding up); the third slot
    is not made. Each attack: RAT 6 against DEF 12 (6 + 6 hits); POW 10 against ARM 10."""
    gun = Weapon("Chain gun", "ranged", 6, 10, attacks="d3")
    scen = Scenario(Target(defense=12, arm=10, boxes=30), [Attacker("G", [gun], **FIXED)])
    out = play(scen, [(4, 1), (3, 3), (1, 2), (4, 3), (2, 2)])
    assert out.made[:3] == [1, 1, 0]
    assert out.hit[:2] == [1, 1] and out.damage[:2] == [3, 4]


def test_worked_example_2d3_rate_of_fire():
    """2d3: the two dice of one roll, 6 and 1, give 3 + 1 = 4 attacks."""
    gun = Weapon("Volley", "ranged", 20, None, attacks="2d3")
    scen = Scenario(Target(defense=12, arm=10, boxes=30), [Attacker("G", [gun], **FIXED)])
    out = play(scen, [(6, 1)] + [(3, 3)] * 6)
    assert out.made[:6] == [1, 1, 1, 1, 0, 0]


def test_worked_example_d6_rate_of_fire():
    """d6: the roll 5 gives 5 of its 6 attacks."""
    gun = Weapon("Spray", "ranged", 20, None, attacks="d6")
    scen = Scenario(Target(defense=12, arm=10, boxes=30), [Attacker("G", [gun], **FIXED)])
    out = play(scen, [(5, 1)] + [(3, 3)] * 6)
    assert out.made[:6] == [1, 1, 1, 1, 1, 0]


def test_worked_example_sustained_attack():
    """Sustained Attack: the first attack misses (rolls; its damage dice are drawn and
    dropped), the second hits (4 + 4 + 6 = 14 against DEF 14), and the third hits
    automatically with no attack roll: its damage roll is read right after the second's."""
    claw = Weapon("Claw", "melee", 6, 12, attacks=3, rules={"sustained_attack"})
    scen = Scenario(Target(defense=14, arm=18, boxes=30), [Attacker("B", [claw], **FIXED)])
    out = play(scen, [(1, 2),
                      (1, 1),  # the miss's damage roll, drawn and dropped
                      (4, 4), (3, 3), (6, 6)])
    assert out.hit[:3] == [0, 1, 1] and out.crit[:3] == [0, 1, 0]
    assert out.damage[:3] == [0, 0, 6]


def test_sustained_attack_ends_with_the_activation():
    """A second attacker's Sustained Attack weapon starts its own activation rolling again."""
    claw = Weapon("Claw", "melee", 6, 12, rules={"sustained_attack"})
    scen = Scenario(Target(defense=14, arm=18, boxes=30),
                    [Attacker("A", [claw], **FIXED), Attacker("B", [claw], **FIXED)])
    out = play(scen, [(4, 4), (3, 3), (1, 2),
                      (1, 1)])  # the miss's damage roll, drawn and dropped
    assert out.hit[:2] == [1, 0]


def test_rof_odds():
    assert [k for k, _ in rof_odds("d3")] == [1, 2, 3]
    assert sum(p for _, p in rof_odds("d6")) == pytest.approx(1)
    assert dict(rof_odds("2d3"))[4] == pytest.approx(1 / 3)


def _cases():
    yield "d3", Scenario(Target(defense=13, arm=14, boxes=3), [
        Attacker("G", [Weapon("Gun", "ranged", 6, 12, attacks="d3")], focus=1)])
    yield "2d3_knockdown", Scenario(Target(defense=14, arm=14, boxes=2, rules={"tough"}), [
        Attacker("G", [Weapon("Gun", "ranged", 6, 11, attacks="2d3", rules={"critical_knockdown"})])])
    yield "sustained", Scenario(Target(defense=15, arm=14, boxes=3), [
        Attacker("B", [Weapon("Claw", "melee", 6, 11, attacks=3, rules={"sustained_attack"})], focus=1)])
    yield "sustained_two_attackers", Scenario(Target(defense=15, arm=14, boxes=3, rules={"tough"}), [
        Attacker("A", [Weapon("Claw", "melee", 6, 11, attacks=2, rules={"sustained_attack"})]),
        Attacker("B", [Weapon("Claw", "melee", 6, 11, attacks=2, rules={"sustained_attack"})])])


CASES = dict(_cases())


@pytest.mark.parametrize("name", sorted(CASES))
def test_exact_equals_the_oracle(name):
    exact_matches_oracle(CASES[name], per_attack=("made", "hit"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_monte_carlo_within_five_standard_errors(name):
    scen = CASES[name]
    scen = dataclasses.replace(scen, target=dataclasses.replace(scen.target, boxes=9))
    monte_carlo_agrees(scen, seed=9, per_attack=("made",))


@pytest.mark.parametrize("kw, match", [
    (dict(type="melee", attacks="d3"), r"attacks: a random rate of fire is for ranged weapons \(type is 'melee'\) \(got 'd3'\)"),
    (dict(attacks="d4"), r"attacks: must be one of d3, d6, 2d3.*\(got 'd4'\)"),
])
def test_errors(kw, match):
    args = dict(name="W", type="ranged", skill=6, pow=12)
    args.update(kw)
    with pytest.raises(InputError, match=match):
        Weapon(**args)


def test_two_sustained_weapons_and_several_targets_are_refused():
    a = Weapon("A", "melee", 6, 12, rules={"sustained_attack"})
    b = Weapon("B", "melee", 6, 12, rules={"sustained_attack"})
    with pytest.raises(InputError, match=r"weapons: at most one weapon of an attacker has sustained_attack"):
        Attacker("X", [a, b])
    with pytest.raises(InputError, match=r"attackers\[0\]\.weapons\[0\]\.rules: is modelled against one target"):
        Scenario([Target(12, 14, name="P"), Target(12, 14, name="Q")], [Attacker("X", [a])])


def test_the_file_keys():
    text = small_file(weapon='attacks = "2d3"\nrules = ["sustained_attack"]', kind="ranged")
    w = loads_scenario(text).attackers[0].weapons[0]
    assert (w.attacks, w.initial_attacks, w.random_rof) == ("2d3", 6, "2d3")
    assert "sustained_attack" in w.rules


def test_a_volley_goes_on_to_the_next_model_of_a_unit():
    """A d6 volley at a unit of four one-box models: each hit (RAT 8 against DEF 12: 2d6 of 4
    or more, 33/36) destroys a model (2d6 + 12 against ARM 12), and the volley goes on to the
    next model, so the models destroyed are min(4, hits among the shots rolled): the exact
    engine once lost the volley at the first model's destruction."""
    from math import comb

    gun = Weapon("Spray", "ranged", 8, 12, attacks="d6")
    scen = Scenario(Target(defense=12, arm=12, boxes=1, models=4), [Attacker("G", [gun], **FIXED)])
    p = 33 / 36
    want = sum(min(4, k) * comb(n, k) * p**k * (1 - p) ** (n - k) for n in range(1, 7) for k in range(n + 1)) / 6
    ex = simulate(scen, method="exact")
    assert ex.models_destroyed_mean == pytest.approx(want, abs=1e-12)
    mc = simulate(scen, trials=200_000, seed=8)
    assert abs(mc.models_destroyed_mean - want) <= 5 * 4 / math.sqrt(200_000)


def test_a_volley_goes_on_to_the_next_target():
    """The same d6 volley at two one-box targets: both are destroyed when two or more of the
    shots rolled hit (the exact engine once started the second target without the volley)."""
    gun = Weapon("Spray", "ranged", 8, 12, attacks="d6")
    scen = Scenario([Target(defense=12, arm=12, boxes=1, name="A"), Target(defense=12, arm=12, boxes=1, name="B")],
                    [Attacker("G", [gun], **FIXED)])
    p = 33 / 36
    want = sum(1 - (1 - p) ** n - n * p * (1 - p) ** (n - 1) for n in range(1, 7)) / 6
    assert simulate(scen, method="exact").kill == pytest.approx(want, abs=1e-12)
    mc = simulate(scen, trials=200_000, seed=9)
    assert abs(mc.kill - want) <= 5 * math.sqrt(want * (1 - want) / 200_000)
