"""Units: an attacking unit's models, a unit as the target, spill-over (docs/units.md).

The exact engine against the brute-force oracle tests/naive_units.py (written apart from
both engines), the Monte Carlo kernel against the exact engine at 5 standard errors, worked
examples replaying chosen dice through the kernel (tests/scripted.py), and bad input.
"""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import numpy as np
import pytest

from mathhammer import InputError, simulate
from mathhammer.exact import exact_result, optimal_value
from mathhammer.rules import Attacker, Scenario, Target, Weapon
from naive_units import bf_units
from scripted import play
from test_mc_vs_exact import N, SEED, compare
from unit_cases import CASES, ORACLE_CASES

TOL = 1e-12


def _oracle(scen):
    return bf_units(SimpleNamespace(targets=(scen.target,), attackers=scen.attackers, turns=scen.turns))


def _f(xs):
    return np.array([float(x) for x in xs])


@pytest.mark.parametrize("name,scen", ORACLE_CASES, ids=[c[0] for c in ORACLE_CASES])
def test_exact_equals_brute_force(name, scen):
    """Models destroyed (pmf, after each attack), the unit's damage, per attack made, hit,
    critical and models destroyed: the exact engine equals the oracle to 1e-12."""
    ex = exact_result(scen)
    bf = _oracle(scen)
    tb = bf["targets"][scen.target.name]
    np.testing.assert_allclose(ex.models_destroyed_pmf, _f(tb["pmf"]), atol=TOL, rtol=0)
    np.testing.assert_allclose(ex.damage_pmf, _f(tb["damage"]), atol=TOL, rtol=0)
    assert ex.kill == pytest.approx(float(tb["kill"]), abs=TOL)
    np.testing.assert_allclose(ex.kill_after, _f(bf["kill_after"]), atol=TOL, rtol=0)
    np.testing.assert_allclose(ex.destroyed_mean_after, _f(bf["destroyed_mean_after"]), atol=TOL, rtol=0)
    for got, key in ((ex.made, "made"), (ex.hit, "hit"), (ex.crit, "crit"),
                     (ex.destroyed_by_attack, "destroyed")):
        np.testing.assert_allclose(got, _f(bf[key]), atol=TOL, rtol=0, err_msg=key)


@pytest.mark.parametrize("name,scen", CASES, ids=[c[0] for c in CASES])
def test_monte_carlo_within_five_standard_errors_of_exact(name, scen):
    mc = simulate(scen, trials=N, seed=SEED)
    ex = simulate(scen, method="exact")
    bad = compare(mc, ex, N)
    assert not bad, "\n".join(bad)


# --- worked examples: the dice chosen, the kernel replays them -------------------------------
TWO_BOX_UNIT = Target(defense=10, arm=10, boxes=2, models=2, name="Pair")


def test_spill_over_loses_the_points_left_over():
    """docs/units.md, spill-over: an attack that destroys a model loses its extra points;
    the next attack goes to the next model. POW 12 vs ARM 10 on a 6+6 deals 14 to a 2-box
    model: one model destroyed, the other untouched; the second shot (3+3: 8 points) destroys
    it."""
    gun = Weapon("Gun", "ranged", skill=8, pow=12, attacks=2)
    s = Scenario(TWO_BOX_UNIT, [Attacker("A", [gun])])
    p = play(s, [(4, 3), (6, 6), (4, 3), (3, 3)])
    assert p.destroyed == [1, 1] and p.models_destroyed == 2 and p.killed_by == 1
    assert p.damage == [2, 2]  # boxes marked: the 12 points left over are lost
    p = play(s, [(4, 3), (6, 6), (1, 1),  # the second shot misses (all ones)
                 (1, 1)])  # the miss's damage roll, drawn and dropped
    assert p.destroyed == [1, 0] and p.models_destroyed == 1 and p.killed_by is None
    assert p.marked == 2  # the unit's damage: the destroyed model's two boxes


def test_each_model_rolls_its_own_tough():
    """docs/units.md, Tough per model: a Tough save keeps that model (1 box left, knocked
    down); the next model rolls its own. Three disabling hits: model 1 saves (a 5), is hit
    again at base DEF 5 and, knocked down, has no Tough roll; model 2, fresh (DEF 13 again),
    rolls its own and fails (a 1)."""
    gun = Weapon("Gun", "ranged", skill=5, pow=14, attacks=3)
    s = Scenario(Target(defense=13, arm=10, boxes=1, models=2, rules={"tough"}), [Attacker("A", [gun])])
    p = play(s, [(4, 4), (3, 3), (5,), (1, 2), (3, 3), (4, 5), (3, 3), (1,)])
    assert p.hit == [1, 1, 1]
    assert p.tough == [1, 0, 0] and p.destroyed == [0, 1, 1] and p.models_destroyed == 2
    # the knocked-down model is hit on a 3 (RAT 5 vs DEF 5); the fresh one needs 8
    assert play(s, [(4, 4), (3, 3), (5,), (1, 2), (3, 3), (3, 4),
                    (1, 1)]).hit == [1, 1, 0]  # the miss's damage roll, drawn and dropped


def test_blast_damage_catches_the_next_models_of_the_unit():
    """docs/units.md, area-of-effect attacks (docs/rules.md 9, "101 - AOE Attacks"): a hit
    deals the attack's damage to the model hit, then a blast damage roll, 2d6 + blast POW
    with no attack roll, to the next living model. POW 12 and blast POW 6 against ARM 10 and
    one-box models: a 4+3 hits (RAT 8 vs DEF 10), 1+1 deals 4 to the model hit; a blast roll
    of 2+2 deals 0 (the next model stands), one of 3+3 deals 2 (it is destroyed too)."""
    mortar = Weapon("Mortar", "ranged", skill=8, pow=12, blast_pow=6, blast_models=1)
    s = Scenario(Target(defense=10, arm=10, boxes=1, models=3), [Attacker("A", [mortar])])
    p = play(s, [(4, 3), (1, 1), (2, 2)])
    assert p.hit == [1] and p.destroyed == [1] and p.models_destroyed == 1
    p = play(s, [(4, 3), (1, 1), (3, 3)])
    assert p.destroyed == [2] and p.models_destroyed == 2 and p.damage == [2]  # a box each


def test_a_missed_blast_catches_the_model_aimed_at():
    """docs/units.md, ``blast_on_miss`` (the setting for where a missed AOE deviates): a miss
    (1+1) deals no damage to the model aimed at (its damage dice are drawn and dropped), but
    its blast roll, 3+3 + 6 vs ARM 10, destroys it; with the default ``blast_on_miss = 0`` a
    miss does nothing (beyond the dropped damage roll)."""
    wide = Weapon("Mortar", "ranged", skill=8, pow=12, blast_pow=6, blast_on_miss=1)
    s = Scenario(Target(defense=10, arm=10, boxes=1, models=3), [Attacker("A", [wide])])
    p = play(s, [(1, 1),
                 (1, 1),  # the miss's damage roll, drawn and dropped
                 (3, 3)])
    assert p.hit == [0] and p.destroyed == [1] and p.models_destroyed == 1
    narrow = Weapon("Mortar", "ranged", skill=8, pow=12, blast_pow=6)
    p = play(Scenario(s.target, [Attacker("A", [narrow])]),
             [(1, 1), (1, 1)])  # the miss, and its damage roll, drawn and dropped
    assert p.destroyed == [0] and p.rolls_read == 2


def test_combined_attacks_of_a_unit_add_their_models():
    """docs/rules.md 9, combined attacks, and docs/units.md: ``models = 3, combined = 2``
    makes a combined attack of two (+2 to the attack and damage rolls) and one of one (+0).
    RAT 5 against DEF 13: a 3+3 (6) hits with the +2 (13), not without it (11)."""
    gun = Weapon("Gun", "ranged", skill=5, pow=10)
    s = Scenario(Target(defense=13, arm=30, boxes=5, models=2), [Attacker("Squad", [gun], models=3, combined=2)])
    p = play(s, [(3, 3), (1, 1), (3, 3),
                 (1, 1)])  # the miss's damage roll, drawn and dropped
    assert p.hit == [1, 0]


def test_models_of_an_attacking_unit_each_make_their_combat_action():
    """docs/units.md, attacking units: ``models = 3`` makes three combat actions in turn, each
    model with its own focus: the same figures as three attackers of one model each;
    ``combined = 2`` joins them in a combined attack of two (+2) and one of one."""
    gun = Weapon("Gun", "ranged", skill=5, pow=10)
    target = Target(defense=13, arm=13, boxes=2, models=3)
    unit = Scenario(target, [Attacker("Squad", [gun], models=3, focus=1)])
    assert [slot.label for slot in unit.attack_sequence()] == [
        "Squad 1 / Gun #1", "Squad 2 / Gun #1", "Squad 3 / Gun #1"]
    apart = Scenario(target, [Attacker(f"Squad {k}", [gun], focus=1) for k in (1, 2, 3)])
    a, b = exact_result(unit), exact_result(apart)
    np.testing.assert_allclose(a.models_destroyed_pmf, b.models_destroyed_pmf, atol=TOL, rtol=0)
    np.testing.assert_allclose(a.spent_mean, b.spent_mean, atol=TOL, rtol=0)
    assert a.spent_mean.min() > 0  # each model spent a point of its own
    combined = Scenario(target, [Attacker("Squad", [gun], models=3, combined=2)])
    assert [(s.group, s.combined_bonus) for s in combined.attack_sequence()] == [(2, 2), (1, 0)]


def test_objective_destroyed_trades_clearing_the_unit_for_models_destroyed():
    """docs/units.md, objectives: against two Tough one-box models a jack with 2 focus,
    MAT 5 against DEF 13, either boosts to clear the unit (kill: every model destroyed) or
    spends for models destroyed on average (objective = "destroyed"). Each objective's best
    play is best at its own figure; with "kill", decisions it leaves tied go to more models
    destroyed."""
    t = Target(defense=13, arm=12, boxes=1, models=2, rules={"tough"})
    s = Scenario(t, [Attacker("Jack", [Weapon("Fist", "melee", 5, 12, attacks=2)], focus=2)])
    kill = exact_result(s)
    most = exact_result(dataclasses.replace(s, objective="destroyed"))
    assert kill.kill > most.kill + 0.01
    assert most.models_destroyed_mean > kill.models_destroyed_mean + 0.01
    # the optimal values of backward induction are the figures of the play it chose
    assert optimal_value(s) == pytest.approx(kill.kill, abs=1e-9)
    assert optimal_value(s, "destroyed") == pytest.approx(most.models_destroyed_mean, abs=1e-12)


# --- bad input ---------------------------------------------------------------------------
@pytest.mark.parametrize("make,key,value", [
    (lambda: Target(defense=12, arm=12, models=0), "models", 0),
    (lambda: Target(defense=12, arm=12, models=21), "models", 21),
    (lambda: Attacker("A", [Weapon("G", "ranged", 5, 10)], models=0), "models", 0),
    (lambda: Attacker("A", [Weapon("G", "ranged", 5, 10)], models=3, combined=4), "combined", 4),
    (lambda: Target(defense=12, arm=12, models=3, focus=2), "focus", 2),
    (lambda: Target(defense=12, arm=12, models=2, fury=3, spiral=["BB", "MM", "SS", "BB", "MM", "SS"]),
     "fury", 3),  # a unit of models with a spiral: each its own, but no fury to spend
])
def test_bad_unit_input_names_the_key_and_value(make, key, value):
    with pytest.raises(InputError) as err:
        make()
    assert err.value.key == key and err.value.value == value
    assert "\n" not in str(err.value)


# --- unit cards, the balance matrix and sweeps ------------------------------------------
def test_unit_cards_are_units_on_both_sides():
    """docs/units.md, unit cards: ``models`` in ``[card]`` makes the target a unit of that
    many and the attacker a unit of as many combat actions."""
    from mathhammer.cards import load_card, scenario_from_cards

    card = load_card("infantry_unit")
    assert card.info.models == 10
    assert card.to_target().models == 10 and card.to_attacker().models == 10
    scen = scenario_from_cards(["infantry_unit"], "heavy_infantry_unit")
    assert scen.target.models == 5 and scen.target.rules == {"tough"}
    assert scen.n_attacks == 10  # ten riflemen, one shot each
    single = scenario_from_cards(["infantry"], "infantry")
    assert single.target.models == 1 and single.attackers[0].models == 1


def test_bad_models_on_a_card_names_the_file_and_key(tmp_path):
    from mathhammer.cards import load_card

    path = tmp_path / "squad.toml"
    path.write_text('[card]\nmodels = 0\n\n[target]\ndef = 12\narm = 12\n')
    with pytest.raises(InputError) as err:
        load_card(str(path))
    assert str(err.value) == f"{path}: card.models: must be between 1 and 20 (got 0)"


def test_matrix_puts_units_on_both_sides():
    """The balance matrix with unit cards as attackers and as targets: the metrics of units
    (``destroyed``, ``destroyed_at_least:K``) are in its frame, as every summary metric."""
    from mathhammer import matrix

    f = matrix(["infantry_unit", "heavy_warjack"], ["infantry_unit", "heavy_infantry_unit", "solo"],
               trials=4000, seed=3, progress=False)
    rows = f[(f.attacker == "infantry_unit") & (f.target == "heavy_infantry_unit")]
    metrics = set(rows.metric)
    assert {"kill", "destroyed", "destroyed_at_least:1", "destroyed_at_least:5"} <= metrics
    destroyed = rows[rows.metric == "destroyed"].value.item()
    assert 0.0 < destroyed < 5.0
    # a single model as the target has no "destroyed" rows: its kill says it all
    assert "destroyed" not in set(f[f.target == "solo"].metric)


def test_sweep_over_the_size_of_a_unit():
    """More models in the target unit: fewer of them cleared, as many destroyed or more."""
    from mathhammer import sweep

    scen = dict(CASES)["riflemen_vs_infantry"]
    frame = sweep(scen, {"target.models": [2, 3, 4]}, method="exact", progress=False)
    kill = frame[frame.metric == "kill"].set_index("target.models").value
    destroyed = frame[frame.metric == "destroyed"].set_index("target.models").value
    assert kill.is_monotonic_decreasing and destroyed.is_monotonic_increasing


def test_destroyed_table_and_csv(tmp_path):
    """A unit's models-destroyed table: one row per k, probabilities that sum to 1, P(k or
    more) falling from 1; written as destroyed.csv with the other tables."""
    res = simulate(dict(CASES)["tough_two_box_models"], trials=20_000, seed=4)
    t = res.destroyed_table()
    assert list(t.destroyed) == [0, 1, 2, 3]
    assert t.probability.sum() == pytest.approx(1.0) and t.at_least.iloc[0] == pytest.approx(1.0)
    assert (t.ci_low <= t.at_least).all() and (t.at_least <= t.ci_high).all()
    paths = res.to_csv(tmp_path)
    assert tmp_path / "destroyed.csv" in paths
    single = simulate(Scenario(Target(defense=13, arm=13), [Attacker("A", [Weapon("G", "ranged", 5, 10)])]),
                      method="exact")
    assert single.destroyed_table().empty and "destroyed" not in single.tables()


def test_compare_says_which_loadout_destroys_more_models():
    """``compare`` against a unit: the paired difference of models destroyed, chunk by chunk
    on common random numbers (its figures those of each loadout), with a verdict."""
    from mathhammer import compare

    rifle = Weapon("Rifle", "ranged", skill=5, pow=10)
    target = Target(defense=13, arm=13, models=10)
    one_by_one = Scenario(target, [Attacker("Riflemen", [rifle], models=10)])
    combined = Scenario(target, [Attacker("Riflemen", [rifle], models=10, combined=5)])
    c = compare({"one by one": one_by_one, "combined": combined}, trials=100_000, seed=2)
    b = c.best["destroyed"]
    assert b["best"] == "one by one" and b["clear"]
    a = c.results["one by one"].models_destroyed_mean - c.results["combined"].models_destroyed_mean
    assert b["difference"] == pytest.approx(a, abs=1e-12)
    lo, hi = b["ci95"]
    assert lo < a < hi and "destroys more models on average" in b["verdict"]
    # exact: the exact difference
    e = compare({"one by one": one_by_one, "combined": combined}, method="exact")
    assert e.best["destroyed"]["ci95"][0] == e.best["destroyed"]["difference"]


def test_docs_units_examples_run_as_written():
    """The "Units" scenario block of docs/scenario-format.md parses to what it says, and the
    Python block of docs/units.md runs."""
    from pathlib import Path

    from mathhammer.scenario import loads_scenario

    docs = Path(__file__).resolve().parents[1] / "docs"
    fmt = (docs / "scenario-format.md").read_text()
    text = fmt.split("### Units", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    scen = loads_scenario(text, "units.toml")
    assert scen.target.models == 10 and scen.target.rules == {"tough"}
    assert scen.attackers[0].groups == (5, 5) and scen.attackers[0].weapons[0].blast_pow == 6
    code = (docs / "units.md").read_text().split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs/units.md", "exec"), {})
