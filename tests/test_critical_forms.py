"""Dispel, Grievous Wounds and Sustained Attack on a critical hit only (``critical_dispel``,
``critical_grievous_wounds``, ``critical_sustained_attack``; docs/rules.md 1 and 5).

Worked examples on chosen dice through the real kernel, each beside the same dice with the
rule's any-hit form; the exact engine against the brute-force oracle to 1e-12 and Monte Carlo
within 5 standard errors of exact are in the shared cases (tests/activation_cases.py,
tests/unit_cases.py).
"""

from __future__ import annotations

import pytest

from mathhammer.errors import InputError
from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon
from scripted import play

FIXED = dict(policy="fixed", spend=Spend(boost_attack="never", boost_damage="never", buy_attacks=False))


def _scen(target, *weapons, **settings):
    return Scenario(target, [Attacker("A", list(weapons), **FIXED)], **settings)


def test_worked_example_critical_dispel():
    """critical_dispel: DEF 12 + 2 upkeep = 14, ARM 14 + 3 upkeep = 17. The first hit (4 + 5
    + 6 = 15) is no critical: the upkeep stays (5 + 5 + 10 - 17 = 3). The second, 4-4, is a
    critical hit: the upkeep ends at once (5 + 5 + 10 - 14 = 6), and the third, 3 + 4 + 6 =
    13, hits DEF 12 (4 + 4 + 10 - 14 = 4). With Dispel on any hit the first hit already ends
    it; with the setting dispel_from_next_attack the critical hit's own roll still meets 17."""
    target = Target(defense=12, arm=14, boxes=30, upkeep_def=2, upkeep_arm=3)
    dice = [(4, 5), (5, 5), (4, 4), (5, 5), (3, 4), (4, 4)]
    rune = Weapon("Rune", "melee", 6, 10, attacks=3, rules={"critical_dispel"})
    out = play(_scen(target, rune), dice)
    assert out.hit == [1, 1, 1] and out.crit == [0, 1, 0]
    assert out.damage == [3, 6, 4]
    late = play(_scen(target, rune, dispel_from_next_attack=True), dice)
    assert late.damage == [3, 3, 4]
    anyhit = play(_scen(target, Weapon("Rune", "melee", 6, 10, attacks=3, rules={"dispel"})), dice)
    assert anyhit.damage == [6, 6, 4]


def test_worked_example_critical_grievous_wounds():
    """critical_grievous_wounds on a Knife (MAT 7 POW 5) before a Fist (MAT 7 POW 12) against
    a Tough target of 5 boxes: a plain Knife hit (2-3) leaves Tough, so the Fist's lethal roll
    (5 + 6 + 12 - 10 = 13) gets its Tough roll (a 6: saved, 4 boxes marked); a critical Knife
    hit (3-3) stops Tough: the same Fist roll destroys the target, no Tough die read."""
    target = Target(defense=10, arm=10, boxes=5, rules={"tough"})
    knife = Weapon("Knife", "melee", 7, 5, rules={"critical_grievous_wounds"})
    fist = Weapon("Fist", "melee", 7, 12)
    plain = play(_scen(target, knife, fist), [(2, 3), (1, 2), (2, 3), (5, 6), (6,)])
    assert plain.hit == [1, 1] and plain.crit == [0, 0]
    assert plain.killed_by is None and plain.tough == [0, 1] and plain.marked == 4
    critical = play(_scen(target, knife, fist), [(3, 3), (1, 2), (2, 3), (5, 6), (6,)])
    assert critical.crit == [1, 0] and critical.killed_by == 1 and critical.tough == [0, 0]
    assert critical.rolls_read == 4


def test_worked_example_critical_sustained_attack():
    """critical_sustained_attack (MAT 6 against DEF 14): the first attack hits, 3 + 5 + 6 =
    14, no critical: the next attack still rolls; 4-4 is a critical hit, so the third hits
    automatically, its damage roll read right after the second's. Sustained Attack on any
    hit reads the same dice as two automatic hits after the first."""
    target = Target(defense=14, arm=18, boxes=30)
    dice = [(3, 5), (3, 3), (4, 4), (6, 6), (5, 5)]
    claw = Weapon("Claw", "melee", 6, 12, attacks=3, rules={"critical_sustained_attack"})
    out = play(_scen(target, claw), dice)
    assert out.hit == [1, 1, 1] and out.crit == [0, 1, 0]
    assert out.damage == [0, 6, 4] and out.rolls_read == 5
    anyhit = play(_scen(target, Weapon("Claw", "melee", 6, 12, attacks=3, rules={"sustained_attack"})), dice)
    assert anyhit.hit == [1, 1, 1] and anyhit.crit == [0, 0, 0]
    assert anyhit.damage == [0, 8 + 12 - 18, 12 + 12 - 18] and anyhit.rolls_read == 4


@pytest.mark.parametrize("rule", ["dispel", "grievous_wounds", "sustained_attack"])
def test_one_weapon_takes_one_form(rule):
    with pytest.raises(InputError, match=rf"rules: cannot be given with '{rule}'.*\(got 'critical_{rule}'\)"):
        Weapon("W", "melee", 6, 12, rules={rule, f"critical_{rule}"})


def test_two_sustained_weapons_of_either_form_are_refused():
    a = Weapon("A", "melee", 6, 12, rules={"sustained_attack"})
    b = Weapon("B", "melee", 6, 12, rules={"critical_sustained_attack"})
    with pytest.raises(InputError, match=r"weapons: at most one weapon of an attacker has sustained_attack"):
        Attacker("X", [a, b])
