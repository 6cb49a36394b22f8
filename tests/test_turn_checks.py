"""The turn planner's plans run by Monte Carlo with common random numbers
(mathhammer.studies.plan_checks), the plans figure, and the bundled battlegroup examples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mathhammer.io.scenario_files import load_scenario
from mathhammer.play.turn import plan_turn
from mathhammer.rules import Attacker, Scenario, Target, Weapon
from mathhammer.studies.plan_checks import check_plans

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "turns"
TRIALS = 8 * 32_768  # eight chunks: the paired intervals' batches


@pytest.fixture(scope="module")
def track_plans():
    """The plans of a warcaster and two warjacks against a 16-box track (exact)."""
    return plan_turn(_track_battlegroup())


def _track_battlegroup() -> Scenario:
    fist = [Weapon("Fist", "melee", 6, 16, attacks=2, rules=frozenset({"critical_knockdown"}))]
    caster = Attacker("Caster", [Weapon("Staff", "melee", 7, 14)], focus=2, model="other",
                      controls=["Jack A", "Jack B"])
    return Scenario(Target(13, 17, boxes=16, focus=1),
                    [caster, Attacker("Jack A", fist, focus=1), Attacker("Jack B", fist, focus=1)], seed=7)


def test_monte_carlo_of_each_plan_and_each_paired_difference_agree_with_exact(track_plans):
    """On a track the planner's figures are exact: every plan run by Monte Carlo lies within 5
    standard errors of its exact figure, and every paired difference within 5 of the exact
    difference."""
    plans = track_plans
    checked = check_plans(plans, top=4, trials=TRIALS, seed=49)
    assert len(checked.checked) >= 4 and checked.metric == "kill"
    for label, plan, result in checked.checked:
        value, lo, hi = checked.value(result)
        se = (plan.value * (1 - plan.value) / TRIALS) ** 0.5
        assert abs(value - plan.value) <= 5 * se, label
        assert lo <= value <= hi
    best = checked.best[1]
    by_label = {label: plan for label, plan, _ in checked.checked}
    for label, d in checked.versus:
        exact = best.value - by_label[label].value
        assert abs(d["difference"] - exact) <= 5 * d["se"] + 1e-12, label
        assert d["ci95"][0] <= d["difference"] <= d["ci95"][1]
    frame = checked.frame()
    assert list(frame.columns[:2]) == ["label", "order"] and {"planned", "ci_low", "diff_high"} <= set(frame.columns)
    data = checked.to_dict()
    assert data["best"] == checked.best[0] and data["plans"][0]["versus_best"] is None


def test_check_plans_refuses_a_bad_count(track_plans):
    plans = track_plans
    with pytest.raises(Exception, match=r"^top: must be a whole number of plans, at least 1 \(got 0\)"):
        check_plans(plans, top=0)


def test_the_grid_example_best_plan_beats_the_file_s_and_an_even_allocation():
    """examples/turns/caster_and_two_heavies.toml: planned on the grid's track relaxation, the
    best plan beats the file's own plan and an even allocation on the grid by Monte Carlo,
    paired intervals excluding zero."""
    plans = plan_turn(load_scenario(EXAMPLES / "caster_and_two_heavies.toml"))
    assert plans.solved_on.startswith("relaxed")
    checked = check_plans(plans, top=5, trials=TRIALS // 2, seed=2026)  # four chunks: the gains are large
    versus = dict(checked.versus)
    file_label = next(label for label in versus if "the file's plan" in label)
    even_label = next(label for label in versus if "an even allocation" in label)
    for label in (file_label, even_label):
        assert versus[label]["ci95"][0] > 0, label
    assert "better by" in checked.summary() and "Monte Carlo on the grid (131,072 trials" in checked.summary()


@pytest.mark.parametrize("name", ["caster_and_three_lights", "warlock_battlegroup"])
def test_the_exact_examples_best_plan_beats_the_file_s_plan(name):
    """The other two bundled battlegroups are planned exactly: the best plan's figure is above
    the file's plan's (and an even allocation's where focus is allocated), and the summary
    says by how much; the adaptive order's gain over the best fixed order is reported."""
    plans = plan_turn(load_scenario(EXAMPLES / f"{name}.toml"))
    assert plans.solved_on == "exact"
    assert plans.best.value > plans.as_written.value + 1e-9
    text = plans.summary()
    assert "against the file's plan" in text and "the best plan +" in text
    if plans.allocates:
        assert plans.best.value > plans.even.value + 1e-9
    else:
        assert "an even allocation" not in text
    assert plans.to_dict()["adaptive_gain"] >= 0


def test_the_command_confirms_on_a_grid_and_draws_the_plans(tmp_path, capsys):
    from mathhammer.cli import main

    out = tmp_path / "plans.png"
    path = str(EXAMPLES / "caster_and_two_heavies.toml")
    assert main(["plan", path, "--confirm", "2", "--trials", "65536", "--plot", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["monte_carlo"]["trials"] == 65536 and len(data["monte_carlo"]["plans"]) >= 3
    assert data["solved_on"].startswith("relaxed") and out.stat().st_size > 10_000
    assert main(["plan", path, "--confirm", "2", "--trials", "65536", "--plot", str(out)]) == 2
    err = capsys.readouterr().err  # refused before anything is planned
    assert err.count("\n") == 1 and "--plot" in err and "already exists" in err


def test_the_plans_figure_draws_every_plan_and_the_gains(track_plans):
    from mathhammer.plots.plans import plans_figure

    plans = track_plans
    fig = plans_figure(plans)
    ax, gain = fig.axes[:2]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[0].startswith("plan 1: ") and any("the file's plan" in x for x in labels)
    assert "Plan the turn: Caster, Jack A, Jack B" in fig.get_suptitle()
    assert "gain" in gain.get_xlabel()
    checked = check_plans(plans, top=2, trials=65_536, seed=3)
    fig = plans_figure(plans, checked)
    assert len(fig.axes[0].get_yticklabels()) == len(checked.checked)


def test_a_warlock_s_plans_checked_are_its_orders():
    """Nothing is allocated in a warlock's battlegroup: the plans run are its best orders and
    the file's, with no "even allocation"; each within 5 standard errors of its exact figure."""
    claw = [Weapon("Claw", "melee", 6, 12)]
    lock = Attacker("Warlock", [Weapon("Staff", "melee", 6, 11)], fury=1, model="other",
                    controls=["Beast A", "Beast B"])
    scen = Scenario(Target(12, 14, boxes=4), [lock, Attacker("Beast A", claw, fury=1, model="warbeast"),
                                              Attacker("Beast B", [Weapon("Bite", "melee", 5, 14)], model="warbeast")])
    plans = plan_turn(scen)
    checked = check_plans(plans, top=3, trials=TRIALS, seed=5)
    labels = [label for label, _, _ in checked.checked]
    assert len({p.order for _, p, _ in checked.checked}) == len(labels) >= 3
    assert not any("even" in label for label in labels)
    for label, plan, result in checked.checked:
        se = (plan.value * (1 - plan.value) / TRIALS) ** 0.5
        assert abs(checked.value(result)[0] - plan.value) <= 5 * se, label
