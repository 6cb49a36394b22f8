"""``tough_on = N`` on a target (issue 17; docs/rules.md 3, Tough): the d6 its Tough roll
needs to save, 5 (5 or 6) unless a setting changes it. Checked on chosen dice, exact against
the brute-force oracles (tests/naive.py, tests/naive_units.py) and Monte Carlo against exact."""

from __future__ import annotations


import pytest

from mathhammer import simulate
from mathhammer.errors import InputError
from mathhammer.rules import Attacker, Scenario, Target, Weapon
from agreement import monte_carlo_agrees
from naive import bf_activation
from naive_units import bf_units
from scripted import play

GUN = Weapon("Gun", "ranged", skill=7, pow=14, attacks=3)


def test_worked_example_tough_on_four_saves_on_a_four():
    """Tough (docs/rules.md 3) with tough_on = 4: the disabling hit (3+4+7 = 14 vs DEF 12,
    then 4+4+14-12 = 10 points on 5 boxes) asks a d6; a 4 saves (with 5+ it would not): one
    box left unmarked, and it is knocked down. The next, a ranged attack, rolls against its
    base DEF 5 (2+3+7 = 12 hits); a knocked-down model cannot roll Tough, so 2+3+14-12 = 7
    points disable it."""
    scen = Scenario(Target(defense=12, arm=12, boxes=5, rules={"tough"}, tough_on=4),
                    [Attacker("Gunner", [GUN])])
    out = play(scen, [(3, 4), (4, 4), (4,), (2, 3), (2, 3)])
    assert out.tough[:2] == [1, 0]
    assert out.killed_by == 1 and out.rolls_read == 5
    five = Scenario(Target(defense=12, arm=12, boxes=5, rules={"tough"}), [Attacker("Gunner", [GUN])])
    assert play(five, [(3, 4), (4, 4), (4,)]).killed_by == 0  # 5+: the 4 fails


@pytest.mark.parametrize("tough_on", [2, 4, 6])
def test_exact_equals_the_oracle_and_monte_carlo_the_exact(tough_on):
    scen = Scenario(Target(defense=12, arm=14, boxes=6, rules={"tough"}, tough_on=tough_on),
                    [Attacker("Gunner", [GUN])])
    want = bf_activation(scen)
    ex = simulate(scen, method="exact")
    assert ex.kill == pytest.approx(float(want["kill"]), abs=1e-12)
    assert list(ex.tough_saves) == pytest.approx([float(x) for x in want["tough"]], abs=1e-12)
    monte_carlo_agrees(scen, seed=9, n=300_000)


def test_a_unit_rolls_tough_on_its_own_number():
    scen = Scenario(Target(name="Squad", defense=12, arm=12, boxes=1, models=3, rules={"tough"},
                           tough_on=3), [Attacker("Rifles", [Weapon("Rifle", "ranged", 6, 10)], models=4)])
    want = bf_units(scen)
    ex = simulate(scen, method="exact")
    for got, p in zip(ex.models_destroyed_pmf, want["targets"]["Squad"]["pmf"]):
        assert got == pytest.approx(float(p), abs=1e-12)


def test_tough_on_needs_tough():
    with pytest.raises(InputError, match=r"tough_on: is the roll Tough needs"):
        Target(defense=12, arm=12, tough_on=4)
    with pytest.raises(InputError, match=r"tough_on: must be between 2 and 6 \(got 7\)"):
        Target(defense=12, arm=12, rules={"tough"}, tough_on=7)
