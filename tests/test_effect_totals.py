"""The target's focus spent and its Tough saves against points that are not an attack's
(fire, corrosion, quicksand: docs/activation.md, "Suffering points"): counted in the
``EFFECT_TARGET_SPENT`` / ``EFFECT_TOUGH`` columns and in the totals, by both engines.

The expected values are closed forms over the 2d6 of a fire damage roll, enumerated here,
independently of the engines: fire stays on with probability 2/3 (it expires on a d6 of
1-2) and then rolls 2d6 + 12 - ARM (docs/rules.md 4); the power field spends the fewest
focus that keep the target standing, 5 points each (rules 000 Power Fields, ``lethal``);
Tough saves on a d6 of 5+ (a knocked-down model rolls no Tough, but with ``tough_steady``).
"""

from __future__ import annotations

import math

import pytest

from mathhammer import simulate
from mathhammer.result.text import format_report
from mathhammer.rules import Attacker, Scenario, Target, Weapon

TWO_D6 = [(a + b, 1 / 36) for a in range(1, 7) for b in range(1, 7)]
STAYS = 2 / 3  # fire (or corrosion) does not expire: a d6 of 3+


def torch(**kw) -> Weapon:
    """Hits DEF 0 on anything but double ones; POW 0 against ARM 14: never damages."""
    return Weapon("Torch", "melee", 20, 0, **kw)


def scenario(target: Target, weapon: Weapon | None = None) -> Scenario:
    return Scenario(target, [Attacker("A", [weapon or torch()])], turns=1)


def fire_spent(boxes: int, arm: int, focus: int) -> float:
    """Expected focus a lethal power field spends against one maintenance phase's fire."""
    out = 0.0
    for s, p in TWO_D6:
        x = max(0, s + 12 - arm)
        need = -(-(x - boxes + 1) // 5)
        if x >= boxes and need <= focus:
            out += STAYS * p * need
    return out


def fire_saves(boxes: int, arm: int) -> float:
    """Expected Tough saves from one maintenance phase's fire (Tough 5+: 1/3)."""
    return STAYS * sum(p for s, p in TWO_D6 if s + 12 - arm >= boxes) / 3


@pytest.mark.parametrize("focus", [1, 2])
def test_power_field_spends_against_fire_in_both_engines(focus):
    """Rules 000 Power Fields: focus reduces non-attack damage too; it counts as spent."""
    scen = scenario(Target(0, 14, boxes=4, effects={"fire"}, power_field="lethal", focus=focus))
    want = fire_spent(4, 14, focus)
    assert want > 0.3
    ex = simulate(scen, method="exact")
    assert ex.target_spent_mean.sum() == 0.0  # the torch never damages: nothing against it
    assert ex.effects_target_spent == pytest.approx(want, abs=1e-12)
    assert ex.target_spent_total == pytest.approx(want, abs=1e-12)
    assert ex.effects["fire"]["target_spent_mean"] == pytest.approx(want, abs=1e-12)
    n = 200_000
    mc = simulate(scen, trials=n, seed=5)
    # the spending is 0, 1 or 2 per trial: its standard error is at most sqrt(E[k^2] / n)
    se = math.sqrt(focus * want / n)
    assert abs(mc.target_spent_total - want) < 5 * se


def test_tough_saves_from_fire_in_both_engines():
    """Tough: a disabled target rolls a d6, saved on 5+; a save from fire counts."""
    scen = scenario(Target(0, 14, boxes=4, effects={"fire"}, rules={"tough"}))
    want = fire_saves(4, 14)
    ex = simulate(scen, method="exact")
    assert ex.tough_saves.sum() == 0.0
    assert ex.tough_saves_total == pytest.approx(want, abs=1e-12)
    assert ex.effects["fire"]["tough_saves"] == pytest.approx(want, abs=1e-12)
    n = 200_000
    mc = simulate(scen, trials=n, seed=6)
    assert abs(mc.tough_saves_total - want) < 5 * math.sqrt(want * (1 - want) / n)


def test_corrosion_tough_saves():
    """Corrosion deals 1 point when it stays on (2/3); on a 1-box target Tough then saves
    on 5+: 2/3 x 1/3."""
    scen = scenario(Target(0, 14, boxes=1, effects={"corrosion"}, rules={"tough"}))
    ex = simulate(scen, method="exact")
    assert ex.effects["corrosion"]["tough_saves"] == pytest.approx(2 / 9, abs=1e-12)
    assert ex.tough_saves_total == pytest.approx(2 / 9, abs=1e-12)


def test_quicksand_point_spent_and_saved():
    """Hazards, quicksand: a model knocked down there suffers 1 damage point. The torch's
    knockdown hits on anything but double ones (35/36); on a 1-box target the point is
    lethal: a power field with 1 focus spends it; a Steady Tough target saves on 5+."""
    hit = 35 / 36
    field = Target(0, 14, boxes=1, terrain={"quicksand"}, power_field="lethal", focus=1)
    ex = simulate(scenario(field, torch(rules={"knockdown"})), method="exact")
    assert ex.effects["quicksand"]["target_spent_mean"] == pytest.approx(hit, abs=1e-12)
    assert ex.target_spent_total == pytest.approx(hit, abs=1e-12)
    steady = Target(0, 14, boxes=1, terrain={"quicksand"}, rules={"tough_steady"})
    scen = scenario(steady, torch(rules={"knockdown"}))
    ex = simulate(scen, method="exact")
    assert ex.effects["quicksand"]["tough_saves"] == pytest.approx(hit / 3, abs=1e-12)
    n = 200_000
    mc = simulate(scen, trials=n, seed=7)
    want = hit / 3
    assert abs(mc.tough_saves_total - want) < 5 * math.sqrt(want * (1 - want) / n)


def test_the_report_says_what_was_spent_against_the_effects():
    scen = scenario(Target(0, 14, boxes=4, effects={"fire"}, power_field="lethal", focus=2))
    res = simulate(scen, method="exact")
    text = format_report(scen, res)
    want = fire_spent(4, 14, 2)
    assert (f"Target focus spent on average: {want:.3f} "
            f"({want:.3f} of it against fire, corrosion or quicksand)") in text
    frame = res.tables()["effects"]
    fire = frame[frame["effect"] == "fire"]
    assert fire["target_spent_mean"].sum() == pytest.approx(want, abs=1e-12)
