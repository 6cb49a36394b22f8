"""Cavalry charge (``cavalry = true`` with ``charge = true``; docs/rules.md 9): a charging
cavalry model's charge attack has its attack roll boosted too, free, besides the damage roll
every charge attack boosts. Worked examples on chosen dice through the real kernel; the
exact engine against the oracle and Monte Carlo against exact are in the shared cases
(tests/activation_cases.py ``cavalry_charge``, tests/trade_cases.py).
"""

from __future__ import annotations

from mathhammer import simulate
from mathhammer.io.scenario_files import loads_scenario
from mathhammer.result.text import format_report
from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon
from scripted import play

FIXED = dict(policy="fixed", spend=Spend(boost_attack="never", boost_damage="never", buy_attacks=False))
LANCE = Weapon("Lance", "melee", 6, 12, attacks=2)
TARGET = Target(defense=15, arm=16, boxes=30)


def test_worked_example_cavalry_charge_attack():
    """The charge attack rolls three dice, free: 4 + 5 + 1 + 6 = 16 hits DEF 15 (no double: no
    critical); its damage roll, boosted as any charge attack's, 3 + 3 + 3 + 12 - 16 = 5. The
    second attack is no charge attack: two dice, 3 + 5 + 6 = 14 misses. No point is spent."""
    rider = Attacker("Rider", [LANCE], charge=True, cavalry=True, focus=1, **FIXED)
    out = play(Scenario(TARGET, [rider]), [(4, 5, 1), (3, 3, 3), (3, 5), (2, 2)])
    assert out.hit == [1, 0] and out.crit == [0, 0]
    assert out.damage == [5, 0]
    assert out.boost_attack == [0, 0] and out.spent == [0, 0]


def test_worked_example_cavalry_without_a_charge():
    """A cavalry model that does not charge rolls two dice: 4 + 5 + 6 = 15 hits, and its damage
    roll is not boosted: 3 + 3 + 12 - 16 = 2."""
    rider = Attacker("Rider", [LANCE], cavalry=True, **FIXED)
    out = play(Scenario(TARGET, [rider]), [(4, 5), (3, 3), (3, 5), (2, 2)])
    assert out.hit == [1, 0] and out.damage == [2, 0]


def test_cavalry_charge_hits_more_often_exactly():
    """Exact: the charge attack's hit chance on three dice against needing 9 (DEF 15 - MAT 6)
    is 160/216 (at least 9 on 3d6; two dice would hit 10/36), the second attack's on two."""
    rider = Attacker("Rider", [LANCE], charge=True, cavalry=True)
    res = simulate(Scenario(TARGET, [rider]), method="exact")
    assert abs(res.hit[0] - 160 / 216) < 1e-12
    assert abs(res.hit[1] - 10 / 36) < 1e-12
    plain = simulate(Scenario(TARGET, [Attacker("Rider", [LANCE], charge=True)]), method="exact")
    assert abs(plain.hit[0] - 10 / 36) < 1e-12


def test_cavalry_is_read_from_a_file_and_said_in_the_summary():
    scen = loads_scenario("""
[target]
def = 15
arm = 16
boxes = 30
[[attackers]]
name = "Rider"
charge = true
cavalry = true
[[attackers.weapons]]
name = "Lance"
type = "melee"
skill = 6
pow = 12
""")
    assert scen.attackers[0].cavalry
    report = format_report(scen, simulate(scen, method="exact"))
    assert "charging (cavalry: its charge attack roll boosted too)" in report
