"""Several targets (docs/units.md, "Several targets"): routing, spill-over from target to
target, per-target figures; the Monte Carlo kernel against the brute-force oracle
(tests/naive_units.py) within 5 standard errors, and worked examples on chosen dice."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from mathhammer import simulate
from mathhammer.errors import InputError
from mathhammer.io.scenario_files import loads_scenario
from mathhammer.rules import Attacker, Scenario, Target, Weapon
from naive_units import bf_units
from scripted import play

TRIALS = 200_000


def rifle(**kw):
    return Weapon("Rifle", "ranged", kw.pop("skill", 6), kw.pop("pow", 10), **kw)


#: name -> scenario: every case within what the oracle reads (one round, damage tracks,
#: Tough, knockdown, blast, combined attacks, routes)
CASES = {
    # a unit of three one-box models, then a solo; the last attacker only shoots the solo
    "unit_then_solo": Scenario(
        [Target(name="Squad", defense=12, arm=12, boxes=1, models=3),
         Target(name="Solo", defense=13, arm=14, boxes=4)],
        [Attacker("Riflemen", [rifle()], models=4),
         Attacker("Sniper", [rifle(skill=7, pow=12)], targets=("Solo",))]),
    # a weapon whose attacks go to the second target first, Tough models on both
    "weapon_routes": Scenario(
        [Target(name="A", defense=12, arm=13, boxes=2, models=2, rules={"tough"}),
         Target(name="B", defense=13, arm=13, boxes=3, rules={"tough"})],
        [Attacker("Gunner", [rifle(attacks=2, targets=("B", "A")),
                             Weapon("Carbine", "ranged", 5, 12)])]),
    # an AOE on a unit, then the solo behind it; a miss still catches one model
    "blast_then_solo": Scenario(
        [Target(name="Squad", defense=13, arm=13, boxes=2, models=3),
         Target(name="Solo", defense=14, arm=14, boxes=3)],
        [Attacker("Grenadier", [Weapon("Grenade", "ranged", 6, 12, attacks=2, blast_pow=6,
                                       blast_models=2, blast_on_miss=1)]),
         Attacker("Rifles", [rifle()], models=2)]),
    # combined attacks of a unit with knockdown, on a solo then a unit
    "combined_knockdown": Scenario(
        [Target(name="Solo", defense=14, arm=15, boxes=3),
         Target(name="Pair", defense=12, arm=13, boxes=2, models=2, state={"knocked_down"})],
        [Attacker("Unit", [rifle(rules={"knockdown"})], models=5, combined=2)]),
}


def _tol(p: float, n: int) -> float:
    return 5 * math.sqrt(max(p * (1 - p), 1e-12) / n) + 1e-9


@pytest.fixture(scope="module")
def runs():
    out = {}
    for name, scen in CASES.items():
        out[name] = (bf_units(scen), simulate(scen, method="monte_carlo", trials=TRIALS, seed=7))
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_monte_carlo_matches_the_oracle(runs, name):
    want, res = runs[name]
    assert res.several and res.method == "monte_carlo"
    assert abs(res.kill - float(want["all_destroyed"])) <= _tol(float(want["all_destroyed"]), TRIALS)
    assert res.all_destroyed == res.kill
    figures = res.targets
    for tname, exact in want["targets"].items():
        got = figures[tname]
        assert abs(got["kill"] - float(exact["kill"])) <= _tol(float(exact["kill"]), TRIALS), tname
        assert len(got["models_destroyed_pmf"]) == len(exact["pmf"])
        for p_got, p in zip(got["models_destroyed_pmf"], exact["pmf"]):
            assert abs(p_got - float(p)) <= _tol(float(p), TRIALS), (tname, got["models_destroyed_pmf"])
        assert len(got["damage_pmf"]) == len(exact["damage"])
        for p_got, p in zip(got["damage_pmf"], exact["damage"]):
            assert abs(p_got - float(p)) <= _tol(float(p), TRIALS), (tname, got["damage_pmf"])
    for i, p in enumerate(want["made"]):
        assert abs(res.made[i] - float(p)) <= _tol(float(p), TRIALS), (i, res.made)
    for i, p in enumerate(want["kill_after"]):
        assert abs(res.kill_after[i] - float(p)) <= _tol(float(p), TRIALS), (i, res.kill_after)
    for i, shares in enumerate(want["target_of"]):  # which target each attack was made against
        got = res.attacks[i]["made_against"]
        for tname, p in shares.items():
            assert abs(got[tname] - float(p)) <= _tol(float(p), TRIALS), (i, tname, got)
    # the scenario-wide figures are the sums over the targets
    total_models = sum(t.models for t in CASES[name].targets)
    assert res.models == total_models and len(res.models_destroyed_pmf) == total_models + 1
    mean = sum(f["models_destroyed_mean"] for f in figures.values())
    assert res.models_destroyed_mean == pytest.approx(mean, abs=1e-12)
    assert res.damage_mean == pytest.approx(sum(f["damage_mean"] for f in figures.values()), abs=1e-12)


@pytest.mark.parametrize("name", sorted(CASES))
def test_exact_made_against_each_target_equals_the_oracle(name):
    """Which target each attack is made against, exactly (where the exact engine applies)."""
    from mathhammer.errors import ExactNotApplicable

    want = bf_units(CASES[name])
    try:
        res = simulate(CASES[name], method="exact")
    except ExactNotApplicable:
        pytest.skip("routes not down the list: Monte Carlo only")
    for i, shares in enumerate(want["target_of"]):
        for tname, p in shares.items():
            assert res.attacks[i]["made_against"][tname] == pytest.approx(float(p), abs=1e-12)


def test_same_seed_same_figures_on_any_thread_count():
    from numba import get_num_threads, set_num_threads

    scen = CASES["blast_then_solo"]
    before = get_num_threads()
    try:
        set_num_threads(1)
        one = simulate(scen, method="monte_carlo", trials=300_000, seed=11)
        set_num_threads(max(2, before))
        many = simulate(scen, method="monte_carlo", trials=300_000, seed=11)
    finally:
        set_num_threads(before)
    assert one.targets == many.targets
    assert np.array_equal(one.slot_weights, many.slot_weights)


# ----------------------------------------------------------------- worked examples
def _two_solos(**attacker):
    return Scenario([Target(name="A", defense=10, arm=10, boxes=1),
                     Target(name="B", defense=12, arm=12, boxes=5)],
                    [Attacker("Gunner", [Weapon("Gun", "ranged", 5, 10, attacks=2)], **attacker)])


def test_worked_example_spill_over_from_target_to_target():
    """Several targets, default route (docs/units.md): the first attack (3+4+5 = 12 vs DEF 10)
    hits A and deals 2+3+10-10 = 5 >= its one box: A is destroyed. The second attack goes to
    the first target still standing, B: 4+5+5 = 14 vs DEF 12 hits, 3+5+10-12 = 6 >= 5 boxes:
    B is destroyed too, every target is, by the second attack."""
    out = play(_two_solos(), [(3, 4), (2, 3), (4, 5), (3, 5)])
    assert out.made[:2] == [1, 1]
    assert out.hit[:2] == [1, 1]
    assert out.target_destroyed == [1, 1]
    assert out.killed_by == 1
    assert out.rolls_read == 4


def test_worked_example_an_attack_aimed_at_a_destroyed_target_is_not_made():
    """target = "A" (docs/units.md): the first attack destroys A (as above); the second may go
    to A only, which is gone, so it is not made and B is untouched."""
    out = play(_two_solos(targets=("A",)), [(3, 4), (2, 3)])
    assert out.made[:2] == [1, 0]
    assert out.target_destroyed == [1, 0]
    assert out.target_marked == [1, 0]
    assert out.killed_by is None
    assert out.rolls_read == 2


def test_worked_example_a_weapon_route_picks_the_second_target_first():
    """targets = ["B", "A"] on a weapon: its attack goes to B while B stands. 4+5+5 = 14 vs
    DEF 12 hits B; 1+2+10-12 = 1 point marked. The next weapon (no route) goes to A: 3+4+5
    = 12 vs DEF 10 hits, 2+3+10-10 = 5: A is destroyed; B keeps its one point."""
    scen = Scenario([Target(name="A", defense=10, arm=10, boxes=1),
                     Target(name="B", defense=12, arm=12, boxes=5)],
                    [Attacker("Gunner", [Weapon("Gun", "ranged", 5, 10, targets=("B", "A")),
                                         Weapon("Pistol", "ranged", 5, 10)])])
    out = play(scen, [(4, 5), (1, 2), (3, 4), (2, 3)])
    assert out.made[:2] == [1, 1]
    assert out.target_marked == [1, 1]
    assert out.target_destroyed == [1, 0]
    assert out.killed_by is None


# ----------------------------------------------------------------- files, errors, results
FILE = """
[simulation]
trials = 20000
seed = 3

[[targets]]
name = "Bodyguard"
def = 12
arm = 16
boxes = 8

[[targets]]
name = "Caster"
def = 15
arm = 15
boxes = 5

[[attackers]]
name = "Gunners"
models = 3
[[attackers.weapons]]
name = "Rifle"
type = "ranged"
skill = 6
pow = 12

[[attackers]]
name = "Sniper"
target = "Caster"
[[attackers.weapons]]
name = "Long rifle"
type = "ranged"
skill = 7
pow = 12
"""


def test_a_file_with_several_targets_reads_and_reports_each():
    scen = loads_scenario(FILE)
    assert [t.name for t in scen.targets] == ["Bodyguard", "Caster"]
    assert [s.route for s in scen.attack_sequence()] == [(), (), (), (1,)]
    res = simulate(scen, method="monte_carlo")
    d = json.loads(json.dumps(res.to_dict()))
    assert set(d["targets"]) == {"Bodyguard", "Caster"}
    assert d["all_destroyed"] == d["kill"]
    caster = d["targets"]["Caster"]
    assert caster["models"] == 1 and len(caster["kill_by_turn"]) == 1
    assert caster["kill"] == pytest.approx(caster["models_destroyed_pmf"][1])
    # the kill is every target destroyed: never more likely than either one alone
    assert d["kill"] <= min(t["kill"] for t in d["targets"].values())


def test_bad_routes_name_the_key():
    with pytest.raises(InputError, match=r"attackers\[0\]\.weapons\[0\]\.targets\[0\]: names no target"):
        Scenario([Target(name="A", defense=10, arm=10), Target(name="B", defense=10, arm=10)],
                 [Attacker("X", [Weapon("Gun", "ranged", 5, 10, targets=("C",))])])
    with pytest.raises(InputError, match=r"targets\[1\]\.name: two targets have this name"):
        Scenario([Target(name="A", defense=10, arm=10), Target(name="A", defense=11, arm=10)],
                 [Attacker("X", [Weapon("Gun", "ranged", 5, 10)])])
    with pytest.raises(InputError, match="cripple:X is for one target"):
        Scenario([Target(name="A", defense=10, arm=10), Target(name="B", defense=10, arm=10)],
                 [Attacker("X", [Weapon("Gun", "ranged", 5, 10)])], objective="cripple:A")


def test_the_format_docs_several_targets_example_runs_as_written():
    """The "Several targets" block of docs/scenario-format.md reads as it says and runs."""
    from pathlib import Path

    fmt = (Path(__file__).resolve().parents[1] / "docs" / "scenario-format.md").read_text()
    text = fmt.split("### Several targets", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    scen = loads_scenario(text, "targets.toml")
    assert [t.name for t in scen.targets] == ["Bodyguard", "Warcaster"]
    assert scen.attackers[1].targets == ("Warcaster",)
    assert [s.route for s in scen.attack_sequence()][-2:] == [(1,), (1,)]
    res = simulate(scen, method="monte_carlo", trials=20_000, seed=1)
    assert set(res.targets) == {"Bodyguard", "Warcaster"}


def test_monte_carlo_best_play_across_targets_follows_the_exact_solve():
    """Best play with several targets (attacks down the list): the kernel reads the decision
    tables the exact engine solved across the targets (keyed by the models destroyed over
    all of them), so its kill is the exact one within 5 standard errors, and best play beats
    the fixed policy; the caster's power field is best play's too."""
    jack = Attacker("Jack", [Weapon("Fist", "melee", 7, 14, attacks=2)], focus=3)
    targets = [Target(name="Guard", defense=12, arm=15, boxes=5, models=2),
               Target(name="Caster", defense=14, arm=15, boxes=8, focus=2)]
    scen = Scenario(targets, [jack])
    exact = simulate(scen, method="exact")
    mc = simulate(scen, method="monte_carlo", trials=TRIALS, seed=3)
    assert mc.play.solved_on == "exact"
    assert abs(mc.kill - exact.kill) <= 5 * math.sqrt(exact.kill * (1 - exact.kill) / TRIALS)
    for name, f in exact.targets.items():
        p = f["kill"]
        assert abs(mc.targets[name]["kill"] - p) <= _tol(p, TRIALS), name
    fixed = simulate(Scenario(targets, [Attacker("Jack", jack.weapons, focus=3, policy="fixed")]),
                     method="exact")
    assert exact.kill > fixed.kill and exact.models_destroyed_mean >= fixed.models_destroyed_mean


def test_best_play_beyond_the_exact_engine_says_it_fell_back():
    """A route that is not down the list (the sniper aims at the second target first) is
    beyond the exact engine: best play is not solved, and the result says the default fixed
    policy spent the points."""
    scen = Scenario([Target(name="A", defense=12, arm=13, boxes=3), Target(name="B", defense=13, arm=13, boxes=3)],
                    [Attacker("Sniper", [Weapon("Rifle", "ranged", 6, 12, attacks=2)], focus=2,
                              targets=("B", "A"))])
    res = simulate(scen, method="monte_carlo", trials=20_000, seed=1)
    assert res.play.solved_on.startswith("not solved")
    assert "default fixed policy" in res.play.fallback


def test_command_line_several_targets():
    """``run --json`` of the bundled example has a ``targets`` object; ``--target CARD`` on a
    file with several targets is refused in one line (exit status 2)."""
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[1]
    cmd = [sys.executable, "-m", "mathhammer", "run", "examples/several_targets.toml"]
    proc = subprocess.run(cmd + ["--json", "--trials", "5000"], cwd=repo, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert list(data["targets"]) == ["Infantry", "Officer"] and data["all_destroyed"] == data["kill"]
    proc = subprocess.run(cmd + ["--target", "solo"], cwd=repo, capture_output=True, text=True)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "--target solo" in proc.stderr and "several targets" in proc.stderr
