"""Several targets in the exact engine (docs/units.md, "Several targets: the exact engine").

The exact engine against the brute-force oracle tests/naive_units.py (written apart from it,
with routing and spill-over from target to target) on one round; over several rounds, with
fire and with best play, against the same scenario with the targets joined into one unit
(spill-over from model to model, checked on its own by tests/test_units.py); a worked
example by hand; the scope's refusals.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from mathhammer import ExactNotApplicable, simulate
from mathhammer.exact import check_exact_applicable, exact_result, optimal_value
from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon
from naive_units import bf_units
from test_mc_vs_exact import N, SEED, compare, prob_ok

TOL = 1e-12

RIFLE = Weapon("Rifle", "ranged", skill=5, pow=10)
AXE = Weapon("Axe", "melee", skill=6, pow=12, attacks=2, rules={"critical_knockdown"})
HAMMER = Weapon("Hammer", "melee", skill=5, pow=12, attacks=2)
NET = Weapon("Net", "ranged", skill=6, pow=None, rules={"knockdown"})
MORTAR = Weapon("Mortar", "ranged", skill=5, pow=12, blast_pow=6, blast_models=2)
BOMB = Weapon("Bomb", "ranged", skill=6, pow=14, blast_pow=7, blast_on_miss=1)

ORACLE_CASES = [
    ("unit_then_solo",
     Scenario([Target(defense=13, arm=13, boxes=1, models=3, name="A"),
               Target(defense=12, arm=13, boxes=3, name="B")],
              [Attacker("Riflemen", [RIFLE], models=5)])),
    ("extra_attacks_wasted_once_A_is_gone",
     Scenario([Target(defense=12, arm=12, boxes=2, models=2, name="A"),
               Target(defense=12, arm=12, boxes=3, name="B")],
              [Attacker("Riflemen", [RIFLE], models=3),
               Attacker("Snipers", [RIFLE], models=2, targets=("A",))])),
    ("tough_on_each",
     Scenario([Target(defense=12, arm=13, boxes=2, models=2, rules={"tough"}, name="A"),
               Target(defense=13, arm=12, boxes=3, rules={"tough"}, name="B")],
              [Attacker("Riflemen", [RIFLE], models=3, combined=1),
               Attacker("Brutes", [AXE])])),
    ("blast_on_a_unit_then_a_solo",
     Scenario([Target(defense=13, arm=13, boxes=1, models=3, rules={"tough"}, name="A"),
               Target(defense=12, arm=12, boxes=2, name="B")],
              [Attacker("Gunners", [MORTAR], models=3)])),
    ("blast_on_a_miss_then_melee",
     Scenario([Target(defense=12, arm=12, boxes=2, models=2, name="A"),
               Target(defense=12, arm=13, boxes=3, rules={"tough"}, name="B")],
              [Attacker("Bombers", [BOMB], models=2), Attacker("Brutes", [AXE])])),
    ("knockdown_stays_on_its_target",
     Scenario([Target(defense=13, arm=12, boxes=2, name="A"),
               Target(defense=13, arm=13, boxes=3, name="B")],
              [Attacker("Netter", [NET]), Attacker("Smasher", [HAMMER]),
               Attacker("Brutes", [AXE], models=2)])),
    ("knocked_down_second_target_and_combined_attacks",
     Scenario([Target(defense=14, arm=12, boxes=1, models=2, name="A"),
               Target(defense=13, arm=14, boxes=4, state={"knocked_down"}, name="B")],
              [Attacker("Squad", [RIFLE], models=4, combined=2), Attacker("Smasher", [HAMMER])])),
    ("three_targets_routes_by_weapon",
     Scenario([Target(defense=12, arm=12, boxes=1, models=2, name="A"),
               Target(defense=12, arm=12, boxes=2, name="B"),
               Target(defense=13, arm=13, boxes=2, rules={"tough"}, name="C")],
              [Attacker("Riflemen", [RIFLE], models=3),
               Attacker("Jack", [Weapon("Cannon", "ranged", 6, 14, targets=("A", "B")),
                                 Weapon("Gun", "ranged", 5, 12)])])),
]


def _f(xs):
    return np.array([float(x) for x in xs])


@pytest.mark.parametrize("name,scen", ORACLE_CASES, ids=[c[0] for c in ORACLE_CASES])
def test_exact_equals_brute_force(name, scen):
    """Per target: models destroyed, damage marked and destroyed (its kill); every target
    destroyed (``Result.kill``); per attack: made (not when none of its targets stands), hit,
    critical, models destroyed, everything destroyed and models destroyed in all after it."""
    ex = exact_result(scen)
    bf = bf_units(scen)
    per = ex.per_target
    assert per.names == tuple(t.name for t in scen.targets)
    assert ex.kill == pytest.approx(float(bf["all_destroyed"]), abs=TOL)
    assert ex.all_destroyed == ex.kill
    for g, t in enumerate(scen.targets):
        tb = bf["targets"][t.name]
        np.testing.assert_allclose(per.destroyed_weights[g], _f(tb["pmf"]), atol=TOL, rtol=0)
        np.testing.assert_allclose(per.damage_weights[g], _f(tb["damage"]), atol=TOL, rtol=0)
        assert per.kill_weights[g].sum() == pytest.approx(float(tb["kill"]), abs=TOL)
        fig = ex.targets[t.name]
        assert fig["kill"] == pytest.approx(float(tb["kill"]), abs=TOL)
        np.testing.assert_allclose(fig["models_destroyed_pmf"], _f(tb["pmf"]), atol=TOL, rtol=0)
    for got, key in ((ex.made, "made"), (ex.hit, "hit"), (ex.crit, "crit"),
                     (ex.destroyed_by_attack, "destroyed"), (ex.kill_after, "kill_after"),
                     (ex.destroyed_mean_after, "destroyed_mean_after")):
        np.testing.assert_allclose(got, _f(bf[key]), atol=TOL, rtol=0, err_msg=key)
    # the headline figures are the scenario's: totals over the targets
    assert ex.models == sum(t.models for t in scen.targets)
    assert ex.boxes == sum(t.models * t.boxes for t in scen.targets)
    means = [float(np.arange(len(tb["pmf"])) @ _f(tb["pmf"])) for tb in bf["targets"].values()]
    assert ex.models_destroyed_mean == pytest.approx(sum(means), abs=1e-11)
    damage = [float(np.arange(len(tb["damage"])) @ _f(tb["damage"])) for tb in bf["targets"].values()]
    assert ex.damage_mean == pytest.approx(sum(damage), abs=1e-11)
    assert ex.models_destroyed_pmf.sum() == pytest.approx(1.0, abs=TOL)
    assert ex.models_destroyed_pmf[-1] == pytest.approx(ex.kill, abs=TOL)


def test_an_attack_with_no_target_standing_is_not_made():
    """docs/units.md, spill-over from target to target, worked by hand. A Gunner (RAT 7, POW
    12, two shots at every target) then a Sniper (one shot, ``targets = ["A"]``) against two
    one-box solos, DEF 12 and ARM 10. A shot hits on 2d6 >= 5: 30/36 = 5/6; any hit deals
    2d6 + 12 - 10 >= 4 points, so it destroys its target, and the points left over are lost.

    - Shot 1 goes to A: A destroyed with 5/6.
    - Shot 2 goes to B if A is gone (5/6), else to A again: B destroyed with (5/6)^2 = 25/36,
      the kill (every target destroyed), all of it by shot 2.
    - The Sniper's shot is made only if A still stands, (1/6)^2 = 1/36, and then destroys it
      with 5/6: A destroyed with 1 - (1/6)^3 = 215/216.

    Models destroyed: none (1/6)^3 = 1/216; both 25/36 = 150/216; one the rest, 65/216.
    """
    gun = Weapon("Gun", "ranged", skill=7, pow=12)
    s = Scenario([Target(defense=12, arm=10, boxes=1, name="A"), Target(defense=12, arm=10, boxes=1, name="B")],
                 [Attacker("Gunner", [dataclasses.replace(gun, attacks=2)]),
                  Attacker("Sniper", [gun], targets=("A",))])
    res = exact_result(s)
    np.testing.assert_allclose(res.made, [1, 1, 1 / 36], atol=TOL, rtol=0)
    np.testing.assert_allclose(res.kill_weights, [0, 25 / 36, 0], atol=TOL, rtol=0)
    np.testing.assert_allclose(res.destroyed_by_attack, [5 / 6, 5 / 6, 5 / 216], atol=TOL, rtol=0)
    np.testing.assert_allclose(res.per_target.kill_weights, [[215 / 216], [25 / 36]], atol=TOL, rtol=0)
    np.testing.assert_allclose(res.models_destroyed_pmf, [1 / 216, 65 / 216, 150 / 216], atol=TOL, rtol=0)
    np.testing.assert_allclose(res.per_target.damage_weights[1], [11 / 36, 25 / 36], atol=TOL, rtol=0)
    assert res.kill == pytest.approx(25 / 36, abs=TOL)
    assert res.targets["A"]["kill"] == pytest.approx(215 / 216, abs=TOL)
    assert simulate(s, method="exact").kill == pytest.approx(25 / 36, abs=TOL)


# --- over rounds and with best play: the targets as one unit --------------------------------
def _as_targets(unit: Target, sizes) -> list[Target]:
    """``unit`` split into targets of ``sizes`` models, in order (named A, B, ...)."""
    return [dataclasses.replace(unit, models=k, name="ABC"[j]) for j, k in enumerate(sizes)]


FLAMER = Weapon("Flamer", "ranged", skill=6, pow=10, rules={"fire"})
FIST = Weapon("Fist", "melee", skill=5, pow=12, attacks=2)

SPLIT_CASES = [
    ("fire_over_two_rounds", Target(defense=12, arm=12, boxes=2, models=3),
     [Attacker("Burners", [FLAMER], models=2)], {"turns": 2}, (2, 1)),
    ("knockdown_and_tough_over_three_rounds",
     Target(defense=13, arm=12, boxes=2, models=3, rules={"tough"}),
     [Attacker("Brutes", [AXE])], {"turns": 3}, (1, 1, 1)),
    ("best_play_with_focus", Target(defense=13, arm=12, boxes=1, models=2, rules={"tough"}),
     [Attacker("Jack", [FIST], focus=2)], {}, (1, 1)),
    ("best_play_for_models_destroyed", Target(defense=13, arm=12, boxes=1, models=2, rules={"tough"}),
     [Attacker("Jack", [FIST], focus=2)], {"objective": "destroyed"}, (1, 1)),
    ("best_play_buying_attacks_over_two_rounds", Target(defense=12, arm=14, boxes=3, models=3),
     [Attacker("Jack", [Weapon("Fist", "melee", 6, 13)], focus=2)], {"turns": 2}, (2, 1)),
]


@pytest.mark.parametrize("name,unit,attackers,kw,sizes", SPLIT_CASES, ids=[c[0] for c in SPLIT_CASES])
def test_targets_in_a_row_are_a_unit_split(name, unit, attackers, kw, sizes):
    """Targets that are the models of one unit, in order, with no blast, no upkeep spell and
    no effect at the start: spill-over from target to target is then spill-over from model
    to model, so every figure of the whole scenario is the unit's, over several rounds with
    fire, and under best play (the unit tie-break counts the models of every target)."""
    one = Scenario(unit, attackers, **kw)
    split = Scenario(_as_targets(unit, sizes), attackers, **kw)
    a, b = exact_result(one), exact_result(split)
    assert b.kill == pytest.approx(a.kill, abs=TOL)
    # every SLOT_* column of every attack, the kill by attack, damage and models destroyed
    for f in ("slot_weights", "kill_weights", "damage_weights", "models_destroyed_pmf"):
        np.testing.assert_allclose(getattr(b, f), getattr(a, f), atol=TOL, rtol=0, err_msg=f)
    assert (b.rounds is None) == (a.rounds is None)
    if a.rounds is not None:
        np.testing.assert_allclose(b.rounds.maintenance_kill_weights, a.rounds.maintenance_kill_weights,
                                   atol=TOL, rtol=0)
        np.testing.assert_allclose(b.rounds.effect_weights, a.rounds.effect_weights, atol=TOL, rtol=0)
    objective = kw.get("objective", "kill")
    assert optimal_value(split, objective) == pytest.approx(optimal_value(one, objective), abs=TOL)
    # each target's figures add up: destroyed in some round iff all its models are
    for g in range(len(sizes)):
        assert b.per_target.kill_weights[g].sum() == pytest.approx(b.per_target.destroyed_weights[g][-1], abs=TOL)
    np.testing.assert_allclose(np.cumsum(b.per_target.kill_weights[-1]), b.kill_by_turn, atol=TOL, rtol=0)


def test_best_play_across_targets():
    """Best play looks past the first target: against a Tough one-box model then a 5-box
    solo, a jack with 3 focus that plays its best clears both more often than one with the
    fixed policy, and its kill is backward induction's optimal value."""
    targets = [Target(defense=14, arm=13, boxes=1, rules={"tough"}, name="A"),
               Target(defense=12, arm=14, boxes=5, name="B")]
    jack = Attacker("Jack", [Weapon("Fist", "melee", 6, 12, attacks=2)], focus=3)
    best = exact_result(Scenario(targets, [jack]))
    fixed = exact_result(Scenario(targets, [dataclasses.replace(jack, policy="fixed")]))
    assert best.kill >= fixed.kill - TOL
    assert best.kill > fixed.kill + 0.01
    # the value includes the unit tie-break (1e-10 x the share of models destroyed)
    assert optimal_value(Scenario(targets, [jack])) == pytest.approx(best.kill, abs=1e-9)
    # the second target's power field plays its best too (a zero-sum game across targets)
    guarded = [targets[0], dataclasses.replace(targets[1], focus=3)]
    assert optimal_value(Scenario(guarded, [jack])) == pytest.approx(exact_result(Scenario(guarded, [jack])).kill,
                                                                     abs=1e-9)
    most = exact_result(Scenario(targets, [jack], objective="destroyed"))
    assert optimal_value(Scenario(targets, [jack]), "destroyed") == pytest.approx(most.models_destroyed_mean, abs=TOL)
    assert most.models_destroyed_mean >= best.models_destroyed_mean - TOL


def test_only_the_first_target_may_start_with_effects():
    """The first target's continuous effects at the start burn as on one target; with the
    second target out of reach of every attack, its figures are the first one's alone."""
    burning = Target(defense=12, arm=12, boxes=3, effects={"fire"}, name="A")
    gun = Weapon("Gun", "ranged", skill=5, pow=11, targets=("A",))
    alone = exact_result(Scenario(burning, [Attacker("G", [gun])], turns=2))
    both = exact_result(Scenario([burning, Target(defense=12, arm=12, boxes=2, name="B")],
                                 [Attacker("G", [gun])], turns=2))
    assert both.kill == 0.0
    assert both.targets["A"]["kill"] == pytest.approx(alone.kill, abs=TOL)
    np.testing.assert_allclose(both.per_target.damage_weights[0], alone.damage_weights, atol=TOL, rtol=0)
    np.testing.assert_allclose(both.per_target.damage_weights[1], [1, 0, 0], atol=TOL, rtol=0)
    np.testing.assert_allclose(both.per_target.kill_weights[0], np.diff(np.concatenate([[0], alone.kill_by_turn])),
                               atol=TOL, rtol=0)


MC_CASES = [
    ("fire_over_two_rounds_and_a_route",
     Scenario([Target(defense=12, arm=12, boxes=2, models=2, name="A"),
               Target(defense=12, arm=13, boxes=4, name="B")],
              [Attacker("Burners", [FLAMER], models=2), Attacker("Rifleman", [RIFLE], targets=("A",))],
              turns=2)),
    ("burning_first_target_fixed_boosts",
     Scenario([Target(defense=12, arm=12, boxes=3, effects={"fire"}, name="A"),
               Target(defense=13, arm=12, boxes=3, rules={"tough"}, name="B")],
              [Attacker("Jack", [Weapon("Fist", "melee", 6, 12, attacks=2)], focus=2, policy="fixed",
                        spend=Spend(boost_attack="always"))], turns=2)),
    ("power_field_of_the_second_target",
     Scenario([Target(defense=12, arm=12, boxes=2, models=2, name="A"),
               Target(defense=13, arm=13, boxes=5, focus=3, power_field="lethal", name="B")],
              [Attacker("Riflemen", [Weapon("Rifle", "ranged", 6, 12)], models=5),
               Attacker("Jack", [FIST], focus=2, policy="fixed")], turns=2)),
]


@pytest.mark.parametrize("name,scen", MC_CASES, ids=[c[0] for c in MC_CASES])
def test_monte_carlo_within_five_standard_errors_of_exact(name, scen):
    """Over rounds, with fire (beyond the oracle): the kernel's figures, the scenario's and
    each target's (destroyed, models destroyed, destroyed by the end of each round)."""
    mc = simulate(scen, trials=N, seed=SEED)
    ex = simulate(scen, method="exact")
    bad = compare(mc, ex, N)
    for t in ex.names:
        a, b = mc.targets[t], ex.targets[t]
        for key in ("models_destroyed_pmf", "kill_by_turn"):
            for k, (x, y) in enumerate(zip(a[key], b[key], strict=True)):
                ok, why = prob_ok(x, y, N)
                if not ok:
                    bad.append(f"{t} {key}[{k}]: mc={x:.6g} exact={y:.6g} ({why})")
    assert not bad, "\n".join(bad)


# --- the scope --------------------------------------------------------------------------
A = Target(defense=12, arm=12, boxes=2, name="A")
B = Target(defense=12, arm=12, boxes=2, name="B")


@pytest.mark.parametrize("scen,words", [
    (Scenario([A, dataclasses.replace(B, effects={"fire"})], [Attacker("G", [RIFLE])]),
     ["'B' starts with fire", "Monte Carlo handles it"]),
    (Scenario([A, Target(defense=12, arm=12, grid=["..", "..", "..", "..", "..", ".."], name="B")],
              [Attacker("G", [RIFLE])]), ["'B' has a damage grid", "Monte Carlo handles it"]),
], ids=["effects_on_B", "grid"])
def test_beyond_the_exact_engine_is_refused_in_one_line(scen, words):
    for call in (exact_result, check_exact_applicable):
        with pytest.raises(ExactNotApplicable) as err:
            call(scen)
        msg = str(err.value)
        assert "\n" not in msg and all(w in msg for w in words), msg


def test_the_states_of_every_target_count_in_the_bound():
    """Only the target under attack has a state, so the bound is the sum of the targets':
    one target within the limit, and several of them beyond it together."""
    big = Target(defense=12, arm=12, boxes=500, name="A", rules={"tough"}, focus=5)
    axe = Weapon("Axe", "melee", 6, 12, rules={"knockdown", "stationary", "grievous_wounds"},
                 def_minus=1, arm_minus=1)
    jack = Attacker("J", [axe, dataclasses.replace(axe, name="Axe2", def_minus=2)], focus=5)
    check_exact_applicable(Scenario(big, [jack]))
    many = [dataclasses.replace(big, name=x) for x in "ABCD"]  # 4 x 576,000 > 2,000,000
    with pytest.raises(ExactNotApplicable, match="states"):
        check_exact_applicable(Scenario(many, [jack]))


def test_docs_several_targets_example_runs_as_written(capsys):
    """The Python block of docs/units.md, "Several targets: the exact engine", runs and
    prints the figures its comments work out."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "units.md").read_text()
    part = text.split("## Several targets: the exact engine", 1)[1]
    code = part.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs/units.md", "exec"), {})
    assert capsys.readouterr().out.split("\n")[:3] == [
        "25 in 36: both destroyed", "215 in 216: A destroyed", "1 in 36: the sniper shoots"]
