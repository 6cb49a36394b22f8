"""The two target readings of the web calculator as settings (docs/rules.md, "Readings"):
``power_field_per_attack`` (the most points a power field spends on one damage roll) and
``rapid_healing_when_hit`` (Rapid Healing after every damaging hit the target survives, judged
on the damage roll: after a Tough save and after damage its power field prevented, too).

Worked examples on chosen dice through the real kernel, the exact engine on the same
examples, the exact engine against the brute-force oracle (tests/naive.py) to 1e-12 and
Monte Carlo within 5 standard errors of exact.
"""

from __future__ import annotations

import dataclasses

import pytest

from mathhammer import simulate
from mathhammer.errors import InputError
from mathhammer.io.scenario_files import loads_scenario
from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon
from agreement import every_figure_matches_oracle, monte_carlo_agrees
from scripted import play

FIXED = dict(policy="fixed", spend=Spend(boost_attack="never", boost_damage="never", buy_attacks=False))
CLUB = Weapon("Club", "melee", 10, 10)


def _scen(target, *weapons, **settings):
    return Scenario(target, [Attacker("A", list(weapons), **FIXED)], **settings)


def test_worked_example_power_field_per_attack():
    """A warcaster with 3 focus and 5 boxes left, its power field "lethal": 6 + 5 + 10 - 10 =
    11 points would destroy it; 2 focus take 10 off (1 box marked). With one focus an attack
    (the calculator's reading: "at most one per attack") 5 points off still destroy it: it
    spends none and is destroyed."""
    target = Target(defense=5, arm=10, boxes=5, focus=3, power_field="lethal")
    dice = [(3, 4), (6, 5)]
    free = play(_scen(target, CLUB), dice)
    assert free.target_spent == [2] and free.marked == 1 and free.killed_by is None
    one = play(_scen(target, CLUB, power_field_per_attack=1), dice)
    assert one.target_spent == [0] and one.killed_by == 0
    assert simulate(_scen(target, dataclasses.replace(CLUB, skill=20)), method="exact").kill < simulate(
        _scen(target, dataclasses.replace(CLUB, skill=20), power_field_per_attack=1), method="exact").kill


def test_worked_example_rapid_healing_after_fury():
    """Rapid Healing 2, a fury to spend ("lethal"): the first hit marks 5 (2 healed: 3 marked);
    the second rolls 9 against 7 boxes left, and the fury takes all of it. By default nothing
    was marked, so nothing heals (3 marked); with rapid_healing_when_hit the hit still
    damaged it ("a model that spends a resource point to ... fully negate a hit was still
    hit"): 2 more healed, 1 marked."""
    target = Target(defense=5, arm=10, boxes=10, fury=1, power_field="lethal", rapid_healing=2)
    club = dataclasses.replace(CLUB, attacks=2)
    dice = [(3, 4), (2, 3), (3, 4), (4, 5)]
    assert play(_scen(target, club), dice).marked == 3
    when_hit = play(_scen(target, club, rapid_healing_when_hit=True), dice)
    assert when_hit.marked == 1 and when_hit.target_spent == [0, 1]


def test_worked_example_rapid_healing_after_a_tough_save():
    """A Tough target with Rapid Healing 1 and 5 boxes: 3 + 4 + 10 - 10 = 7 disables it, the
    Tough roll (a 6) saves it with one box left (4 marked); with rapid_healing_when_hit it
    heals 1 then too (3 marked)."""
    target = Target(defense=5, arm=10, boxes=5, rules={"tough"}, rapid_healing=1)
    dice = [(3, 4), (3, 4), (6,)]
    assert play(_scen(target, CLUB), dice).marked == 4
    assert play(_scen(target, CLUB, rapid_healing_when_hit=True), dice).marked == 3


def _cases():
    jack = Weapon("Fist", "melee", 7, 14, attacks=3)
    yield "field_per_attack_best", Scenario(Target(13, 14, boxes=10, focus=3),
                                            [Attacker("J", [jack], focus=1)], power_field_per_attack=1)
    yield "field_per_attack_lethal", Scenario(Target(12, 13, boxes=8, focus=2, power_field="lethal"),
                                              [Attacker("J", [jack])], power_field_per_attack=1)
    yield "heal_when_hit_fury", Scenario(Target(12, 13, boxes=8, fury=2, rapid_healing=2),
                                         [Attacker("J", [jack])], rapid_healing_when_hit=True)
    yield "heal_when_hit_tough_d3", Scenario(Target(12, 14, boxes=5, rules={"tough"}, rapid_healing="d3"),
                                             [Attacker("J", [jack], focus=1)], rapid_healing_when_hit=True)
    yield "heal_when_hit_focus_limited", Scenario(
        Target(12, 13, boxes=8, focus=2, rapid_healing=1, rules={"tough"}),
        [Attacker("J", [jack])], rapid_healing_when_hit=True, power_field_per_attack=1)


CASES = dict(_cases())


@pytest.mark.parametrize("name", sorted(CASES))
def test_exact_equals_the_oracle(name):
    """Every per-attack figure (the target's points spent and Tough saves included) and the
    damage distribution, to 1e-12."""
    every_figure_matches_oracle(CASES[name])


@pytest.mark.parametrize("name", sorted(CASES))
def test_monte_carlo_within_five_standard_errors(name):
    monte_carlo_agrees(CASES[name], seed=11, per_attack=("hit",))


def test_settings_change_the_figures():
    """Each setting moves the figures of its cases (the cases test the setting)."""
    for name, scen in CASES.items():
        default = dataclasses.replace(scen, power_field_per_attack=0, rapid_healing_when_hit=False)
        assert simulate(scen, method="exact").damage_mean != pytest.approx(
            simulate(default, method="exact").damage_mean, abs=1e-9), name


def test_settings_from_a_file_and_their_errors():
    text = """
[settings]
power_field_per_attack = 1
rapid_healing_when_hit = true
[target]
def = 12
arm = 13
boxes = 8
focus = 2
[[attackers]]
name = "J"
[[attackers.weapons]]
name = "Fist"
type = "melee"
skill = 7
pow = 14
"""
    scen = loads_scenario(text)
    assert (scen.power_field_per_attack, scen.rapid_healing_when_hit) == (1, True)
    with pytest.raises(InputError, match=r"settings\.power_field_per_attack: must be between 0 and 10 \(got 11\)"):
        loads_scenario(text.replace("power_field_per_attack = 1", "power_field_per_attack = 11"))
    grid = Target(12, 13, grid=[".", ".", ".", ".", ".", "."], rapid_healing=1)
    with pytest.raises(InputError, match=r"settings\.rapid_healing_when_hit: is modelled on damage tracks"):
        Scenario(grid, [Attacker("J", [Weapon("Fist", "melee", 7, 14)])], rapid_healing_when_hit=True)
