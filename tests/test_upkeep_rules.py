"""Tough and Unyielding granted by an upkeep spell (``upkeep_rules``), and Rapid Healing of a
d3 (``rapid_healing = "d3"``), issue 17 (docs/rules.md 9).

An upkeep spell's Tough and Unyielding are the rules of the same names until a Dispel ends
them (at once, as upkeep DEF and ARM: the dispelling hit's Tough roll is already gone; with
``dispel_from_next_attack`` its damage roll still faces the Unyielding ARM). Blessed does not
ignore them (they are rules, not spell bonuses to DEF or ARM). Rapid Healing d3 removes a d3
of damage points (a d6 halved, rounding up) after an attack that damaged the target without
disabling it.

Worked examples on chosen dice through the real kernel; exact against the brute-force oracle;
Monte Carlo against exact within 5 standard errors.
"""

from __future__ import annotations

import dataclasses

import pytest

from mathhammer import ExactNotApplicable, simulate
from mathhammer.errors import InputError
from mathhammer.io.scenario_files import loads_scenario
from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon
from agreement import exact_matches_oracle, monte_carlo_agrees, small_file
from scripted import play

FIXED = dict(policy="fixed", spend=Spend(boost_attack="never", boost_damage="never"))


def _scen(target, *weapons, **settings):
    return Scenario(target, [Attacker("A", list(weapons), **FIXED)], **settings)


def test_worked_example_upkeep_tough_ends_with_dispel():
    """Tough from an upkeep spell saves on a 5 (the first disabling hit); a Dispel hit then
    ends it: the next disabling hit gets no Tough roll."""
    t = Target(defense=10, arm=12, boxes=3, upkeep_rules={"tough"})
    axe = Weapon("Axe", "melee", 6, 12)
    out = play(_scen(t, axe), [(4, 4), (3, 3), (5, 5)])  # 6 + 12 - 12 = 6: disabled; Tough 5
    assert out.tough[:1] == [1] and out.killed_by is None
    null = Weapon("Null", "melee", 6, 12, rules={"dispel"})
    out = play(_scen(t, null), [(4, 4), (3, 3), (5, 5)])
    assert out.tough[:1] == [0] and out.killed_by == 0


def test_worked_example_upkeep_unyielding_and_blessed():
    """Unyielding from an upkeep spell: +2 ARM against melee, which Blessed does not ignore
    (a rule), and a Dispel ends (at once: the dispelling hit's own damage roll goes without)."""
    t = Target(defense=10, arm=12, boxes=30, upkeep_rules={"unyielding"})
    dice = [(4, 4), (5, 5)]
    assert play(_scen(t, Weapon("Axe", "melee", 6, 12)), dice).damage[0] == 10 + 12 - 14
    assert play(_scen(t, Weapon("Holy", "melee", 6, 12, rules={"blessed"})), dice).damage[0] == 10 + 12 - 14
    assert play(_scen(t, Weapon("Null", "melee", 6, 12, rules={"dispel"})), dice).damage[0] == 10 + 12 - 12
    late = _scen(t, Weapon("Null", "melee", 6, 12, rules={"dispel"}), dispel_from_next_attack=True)
    assert play(late, dice).damage[0] == 10 + 12 - 14
    assert play(_scen(t, Weapon("Gun", "ranged", 6, 12)), dice).damage[0] == 10 + 12 - 12  # melee only


def test_worked_example_rapid_healing_d3():
    """Rapid Healing d3: 5 damage points, then the d3 die shows 5 (a 3): 2 boxes stay marked,
    so the second attack's 9 points on the 10 boxes disable it only with the first's 2."""
    t = Target(defense=10, arm=12, boxes=10, rapid_healing="d3")
    axe = Weapon("Axe", "melee", 6, 12, attacks=2)
    out = play(_scen(t, axe), [(4, 4), (2, 3), (5, 5), (4, 4), (4, 5)])
    assert out.damage[:2] == [5, 8]  # 2 marked after the heal: 8 of the 9 points fit
    assert out.killed_by == 1


def _cases():
    yield "upkeep_tough_dispel", _scen_best(Target(defense=12, arm=13, boxes=3, upkeep_rules={"tough"}),
                                            Weapon("Null", "melee", 6, 12, attacks=2, rules={"critical_knockdown"}),
                                            Weapon("Null2", "melee", 6, 11, rules={"dispel"}))
    yield "upkeep_unyielding", _scen_best(Target(defense=12, arm=12, boxes=3, upkeep_rules={"unyielding", "tough"},
                                                 upkeep_arm=1),
                                          Weapon("Null", "melee", 6, 12, attacks=2, rules={"dispel"}))
    yield "rapid_d3", _scen_best(Target(defense=12, arm=14, boxes=4, rapid_healing="d3"),
                                 Weapon("Axe", "melee", 6, 12, attacks=2))
    yield "rapid_d3_tough", _scen_best(Target(defense=12, arm=14, boxes=4, rapid_healing="d3", rules={"tough"}),
                                       Weapon("Axe", "melee", 6, 12, attacks=2, rules={"grievous_wounds"}))


def _scen_best(target, *weapons):
    return Scenario(target, [Attacker("A", list(weapons), focus=1)])


CASES = dict(_cases())


@pytest.mark.parametrize("name", sorted(CASES))
def test_exact_equals_the_oracle(name):
    exact_matches_oracle(CASES[name], per_attack=("hit",), damage=True)


@pytest.mark.parametrize("name", sorted(CASES))
def test_monte_carlo_within_five_standard_errors(name):
    scen = CASES[name]
    monte_carlo_agrees(dataclasses.replace(scen, target=dataclasses.replace(scen.target, boxes=10)), seed=13)


def test_errors_and_refusals():
    with pytest.raises(InputError, match=r"upkeep_rules\[0\]: must be one of tough, unyielding \(got 'carapace'\)"):
        Target(defense=12, arm=14, upkeep_rules={"carapace"})
    with pytest.raises(InputError, match=r"upkeep_rules: the target has it already \(rules\) \(got 'tough'\)"):
        Target(defense=12, arm=14, rules={"tough"}, upkeep_rules={"tough"})
    with pytest.raises(InputError, match=r"rapid_healing: must be an integer or \"d3\" \(got 'd6'\)"):
        Target(defense=12, arm=14, rapid_healing="d6")
    grid = ("..LLM", "...LLM", "...HCC", "...HCC", "...RRM", "..RRM")
    scen = _scen(Target(defense=12, arm=14, grid=grid, rapid_healing="d3"), Weapon("Axe", "melee", 6, 12))
    with pytest.raises(ExactNotApplicable, match="Rapid Healing d3 on a damage grid"):
        simulate(scen, method="exact")
    assert simulate(scen, method="monte_carlo", trials=2_000, seed=1).trials == 2_000


def test_the_file_keys():
    text = small_file(target='upkeep_rules = ["tough", "unyielding"]\nrapid_healing = "d3"')
    t = loads_scenario(text).target
    assert t.upkeep_rules == {"tough", "unyielding"} and t.rapid_healing == "d3"
