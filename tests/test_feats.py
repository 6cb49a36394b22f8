"""``feat_def`` / ``feat_arm`` on a target (issue 17): DEF and ARM from a bonus that is no spell
(a feat), so neither Dispel nor a Blessed weapon removes it, and feat ARM counts against fire's
damage roll too. Checked on chosen dice, exact against the brute-force oracle
(tests/naive.py) and Monte Carlo against exact."""

from __future__ import annotations


import pytest

from mathhammer.errors import InputError
from mathhammer.rules import Attacker, Scenario, Target, Weapon
from agreement import exact_matches_oracle, monte_carlo_agrees
from scripted import play

HOLY = Weapon("Holy blade", "melee", skill=6, pow=12, attacks=2, rules={"blessed", "dispel"})


def test_worked_example_a_feat_is_no_spell():
    """DEF 12 + 2 (feat) = 14 and ARM 12 + 3 (feat) = 15 against a Blessed weapon, which
    ignores spells (upkeep +2 DEF / +2 ARM and spell +1 ARM here) but not a feat: 4+4+6 = 14
    hits; then 5+5+12-15 = 7 points (with the spells it would need 19, so 3 points). The
    Dispel of that hit ends the upkeep spells, not the feat: the second attack, 3+4+6 = 13,
    misses DEF 14."""
    scen = Scenario(Target(defense=12, arm=12, boxes=20, upkeep_def=2, upkeep_arm=2, spell_arm=1,
                           feat_def=2, feat_arm=3), [Attacker("Knight", [HOLY])])
    out = play(scen, [(4, 4), (5, 5), (3, 4),
                      (1, 1)])  # the miss's damage roll, drawn and dropped
    assert out.hit[:2] == [1, 0]
    assert out.damage[:2] == [7, 0] and out.marked == 7


@pytest.mark.parametrize("extra", [{}, {"effects": {"fire"}}, {"rules": {"tough"}}])
def test_exact_equals_the_oracle_and_monte_carlo_the_exact(extra):
    target = dict(defense=12, arm=13, boxes=8, upkeep_def=1, feat_def=1, feat_arm=2)
    target.update(extra)
    scen = Scenario(Target(**target), [Attacker("Knight", [HOLY])], turns=2)
    exact_matches_oracle(scen, per_attack=("hit",))
    monte_carlo_agrees(scen, seed=4, n=300_000)


def test_feat_bonuses_are_checked():
    with pytest.raises(InputError, match=r"feat_arm: must be between 0 and \d+ \(got -1\)"):
        Target(defense=12, arm=12, feat_arm=-1)
