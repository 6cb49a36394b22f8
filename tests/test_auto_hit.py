"""``auto_hit = true`` on a weapon (issue 17; docs/rules.md 1, "Automatic hits"): its
attacks hit automatically, with no attack roll, so no attack boost and never a critical hit;
the damage roll is made as usual. Checked on chosen dice, and exact against the brute-force
oracle (tests/naive.py) and Monte Carlo against exact."""

from __future__ import annotations

import math

import pytest

from mathhammer import simulate
from mathhammer.errors import InputError
from mathhammer.io.scenario_files import loads_scenario
from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon
from naive import bf_activation
from scripted import play


def _scenario(**target):
    flame = Weapon("Flame", "ranged", skill=4, pow=12, attacks=2, auto_hit=True,
                   rules={"critical_knockdown"})
    t = dict(defense=16, arm=14, boxes=8)
    t.update(target)
    return Scenario(Target(**t), [Attacker("Burner", [flame], focus=2, policy="fixed",
                                           spend=Spend(boost_attack="always"))])


def test_worked_example_an_automatic_hit_rolls_no_attack_dice():
    """Automatic hits: DEF 16 is out of reach of RAT 4 on two dice, but the attack rolls no
    attack dice and hits; its damage roll, boosted with a point (3 dice: 2+3+5 = 10, +12 -14 =
    8), disables the 8-box target. The attack boost is never bought (there is no attack
    roll), and a double on the damage dice is no critical hit: Critical Knockdown does not
    apply."""
    out = play(_scenario(), [(2, 3, 5)])
    assert out.hit[:1] == [1] and out.crit[:1] == [0]
    assert out.boost_attack[:1] == [0] and out.boost_damage[:1] == [1]
    assert out.killed_by == 0 and out.rolls_read == 1


@pytest.mark.parametrize("target", [{}, {"rules": {"tough"}}, {"state": {"knocked_down"}}])
def test_exact_equals_the_oracle_and_monte_carlo_the_exact(target):
    scen = _scenario(**target)
    want = bf_activation(scen)
    ex = simulate(scen, method="exact")
    assert ex.kill == pytest.approx(float(want["kill"]), abs=1e-12)
    assert list(ex.hit) == pytest.approx([float(x) for x in want["hit"]], abs=1e-12)
    assert list(ex.crit) == pytest.approx([0.0, 0.0], abs=1e-12)
    n = 300_000
    mc = simulate(scen, method="monte_carlo", trials=n, seed=3)
    assert abs(mc.kill - ex.kill) <= 5 * math.sqrt(ex.kill * (1 - ex.kill) / n) + 1e-9
    assert abs(mc.damage_mean - ex.damage_mean) <= 5 * ex.damage_sd / math.sqrt(n) + 1e-9


def test_the_file_key_and_its_error():
    text = '''
[target]
def = 12
arm = 14
[[attackers]]
name = "Burner"
[[attackers.weapons]]
name = "Flame"
type = "ranged"
skill = 4
pow = 12
auto_hit = true
'''
    assert loads_scenario(text).attackers[0].weapons[0].auto_hit is True
    with pytest.raises(InputError, match=r"auto_hit: must be true or false \(got 'yes'\)"):
        loads_scenario(text.replace("auto_hit = true", 'auto_hit = "yes"'))
