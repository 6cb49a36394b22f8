"""The spending-policy optimizer (README "Spending policies", docs/activation.md).

Oracles: the exact engine's value of every fixed policy, and backward induction over every
adaptive decision (``mathhammer.exact.optimal_value``), both written apart from the kernel
and from the optimizer's search.
"""

from __future__ import annotations

import dataclasses
import json
import math

import pytest

from mathhammer import Attacker, InputError, Scenario, Spend, Target, Weapon, optimize, simulate
from mathhammer.cli import main
from mathhammer.exact import exact_result, optimal_value
from mathhammer.policy import policy_family


def jack(focus, attacks=1, pow_=14, skill=6, **kw):
    return Attacker("Jack", [Weapon("Fist", "melee", skill, pow_, attacks=attacks)], focus=focus,
                    policy="optimize", **kw)


def scen(defense, arm, boxes, focus, attacks=1, pow_=14):
    return Scenario(Target(defense, arm, boxes=boxes), [jack(focus, attacks, pow_)])


# Small damage-track cases where the best policy of the family is the best adaptive play:
# (DEF, ARM, boxes, focus, initial attacks, POW, objective). Found by comparing the two over
# a grid of 192 small cases (109 agree; see the note in README "Spending policies").
AGREE = [
    (14, 16, 10, 2, 1, 14, "kill"),
    (14, 14, 10, 2, 1, 12, "kill"),
    (14, 16, 5, 3, 2, 14, "kill"),
    (12, 16, 10, 3, 1, 12, "kill"),
    (12, 16, 10, 2, 2, 12, "kill"),
    (14, 14, 5, 3, 2, 12, "kill"),
    (14, 14, 10, 3, 2, 14, "damage"),
    (12, 16, 10, 2, 1, 12, "damage"),
    (14, 16, 5, 2, 1, 12, "damage"),
    (12, 16, 5, 2, 2, 12, "damage"),
]


def _family_values(s, objective):
    """Exact value of every policy of the family, by the exact engine directly."""
    out = []
    for spend in policy_family(s.attackers[0], s):
        a = dataclasses.replace(s.attackers[0], spend=spend, policy="fixed")
        res = exact_result(dataclasses.replace(s, attackers=(a,)))
        out.append((res.kill if objective == "kill" else res.damage_mean, spend))
    return out


@pytest.mark.parametrize("case", AGREE, ids=[f"{c[-1]}-{i}" for i, c in enumerate(AGREE)])
def test_optimizer_finds_the_backward_induction_optimum(case):
    *figures, objective = case
    s = scen(*figures)
    found = optimize(s, objective=objective, method="exact")
    best = optimal_value(s, objective)
    assert found.best.score == pytest.approx(best, abs=1e-12)
    assert found.adaptive_best == pytest.approx(best, abs=1e-12)
    # and it is the best of the family, evaluated apart from the optimizer
    assert found.best.score == pytest.approx(max(v for v, _ in _family_values(s, objective)),
                                             abs=1e-12)


@pytest.mark.parametrize("figures", [(14, 16, 10, 3, 1, 12), (14, 14, 10, 2, 2, 14), (12, 14, 8, 3, 2, 14)])
@pytest.mark.parametrize("objective", ["kill", "damage"])
def test_no_policy_beats_backward_induction(figures, objective):
    """Backward induction is a ceiling: the family's best never exceeds it."""
    s = scen(*figures)
    found = optimize(s, objective=objective, method="exact")
    assert found.best.score <= optimal_value(s, objective) + 1e-12


@pytest.mark.parametrize("case", AGREE[:4] + AGREE[6:8])
def test_monte_carlo_search_picks_an_exactly_best_policy(case):
    """With common random numbers, the Monte Carlo search picks a policy whose exact value is
    within 5 standard errors of a difference of the exact best (and ranks like the exact)."""
    *figures, objective = case
    s = scen(*figures)
    n = 200_000
    found = optimize(s, objective=objective, trials=n, seed=11)
    values = dict((sp, v) for v, sp in _family_values(s, objective))
    best = max(values.values())
    picked = values[found.best.spends[0]]
    res = exact_result(found.scenario)
    if objective == "kill":
        se = math.sqrt(2 * best * (1 - best) / n)
    else:
        se = math.sqrt(2) * res.damage_sd / math.sqrt(n)
    assert picked >= best - 5 * se
    assert found.scenario.attackers[0].policy == "fixed"
    assert found.scenario.attackers[0].spend == found.best.spends[0]


def test_runner_up_behaves_differently_and_is_reported():
    s = scen(14, 16, 10, 2)
    found = optimize(s, method="exact")
    assert found.runner_up is not None
    assert found.runner_up.score <= found.best.score
    assert not (found.runner_up.result.damage_weights == found.best.result.damage_weights).all()
    assert found.policies_tried == len(policy_family(s.attackers[0], s)) > len(found.ranking)
    d = found.to_dict()
    assert d["chosen"]["label"] == found.best.label and d["runner_up"]["score"] <= d["chosen"]["score"]
    assert set(d["chosen"]["policy"]["Jack"]) == {"boost_attack", "boost_attack_at", "boost_damage",
                                                  "buy_attacks", "reserve"}


def test_simulate_with_optimize_returns_the_best_policy_result():
    s = scen(14, 16, 10, 2)
    res = simulate(s, trials=50_000, seed=5)
    info = res.optimizer
    assert res.kill == pytest.approx(info.chosen.kill)
    lo, hi = info.chosen.kill_ci95
    assert lo <= info.chosen.kill <= hi
    assert res.to_dict()["optimizer"] == info.to_dict()
    # the same seed gives the same choice
    assert simulate(s, trials=50_000, seed=5).optimizer == info


def test_family_is_small_and_deduplicated():
    s = scen(13, 18, 10, 1)
    fam = policy_family(s.attackers[0], s)
    assert len(fam) == len(set(fam))
    assert Spend(boost_attack="never", boost_damage="never", buy_attacks=False) in fam
    # no points, one policy: its own
    a = dataclasses.replace(s.attackers[0], focus=0)
    assert policy_family(a, dataclasses.replace(s, attackers=(a,))) == [a.spend]
    # a ranged attacker never buys
    gunner = Attacker("G", [Weapon("Gun", "ranged", 6, 12)], focus=2, policy="optimize")
    g = Scenario(Target(13, 14, boxes=5), [gunner])
    assert not any(sp.buy_attacks for sp in policy_family(gunner, g))


def test_two_optimised_attackers_are_searched_in_order():
    """Coordinate-wise search: the first attacker's policy is the best given the second's
    starting policy; the second's is the best given the first's choice (exactly checked)."""
    t = Target(14, 16, boxes=10)
    a = jack(1)
    b = dataclasses.replace(jack(2), name="Second")
    s = Scenario(t, [a, b])
    found = optimize(s, method="exact")
    assert found.attackers == ("Jack", "Second")
    chosen_a, chosen_b = found.best.spends

    def value(sa, sb):
        pair = dataclasses.replace(s, attackers=(dataclasses.replace(a, spend=sa, policy="fixed"),
                                                 dataclasses.replace(b, spend=sb, policy="fixed")))
        return exact_result(pair).kill

    first = max(value(sa, b.spend) for sa in policy_family(a, s))
    assert value(chosen_a, b.spend) == pytest.approx(first, abs=1e-12)
    second = max(value(chosen_a, sb) for sb in policy_family(b, s))
    assert found.best.score == pytest.approx(second, abs=1e-12)
    assert value(chosen_a, chosen_b) == pytest.approx(found.best.score, abs=1e-12)


def test_optimizer_errors():
    s = Scenario(Target(12, 16, boxes=5), [Attacker("A", [Weapon("F", "melee", 6, 12)], focus=1)])
    with pytest.raises(InputError, match="no attacker has policy"):
        optimize(s)
    with pytest.raises(InputError, match="objective: must be one of kill, damage"):
        optimize(scen(12, 16, 5, 1), objective="glory")


def test_cli_reports_the_optimizer(tmp_path, capsys):
    p = tmp_path / "opt.toml"
    p.write_text('[simulation]\nobjective = "damage"\n[target]\ndef = 14\narm = 16\nboxes = 10\n'
                 '[[attackers]]\nname = "Jack"\nfocus = 2\npolicy = "optimize"\n'
                 '[[attackers.weapons]]\nname = "Fist"\ntype = "melee"\nskill = 6\npow = 14\n')
    assert main(["run", str(p), "--method", "exact", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["optimizer"]["objective"] == "damage"
    assert d["optimizer"]["adaptive_best"] >= d["optimizer"]["chosen"]["score"] - 1e-12
    assert main(["run", str(p), "--trials", "20000", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "Spending policy optimized for expected damage" in out and "runner-up:" in out
    assert main(["run", str(p), "--method", "exact", "--objective", "kill", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["optimizer"]["objective"] == "kill"
    assert main(["run", str(p), "--objective", "glory"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--objective" in err and "glory" in err


def test_power_field_best_runs_by_both_methods(tmp_path, capsys):
    # "optimal", the older name, reads as "best": the Monte Carlo kernel follows the decision
    # table of best play, and both methods agree within 5 standard errors.
    t = Target(12, 14, boxes=5, focus=2, power_field="optimal")
    assert t.power_field == "best"
    s = Scenario(t, [Attacker("A", [Weapon("F", "melee", 6, 14, attacks=2)])])
    exact = simulate(s, method="exact").kill
    mc = simulate(s, trials=200_000, seed=1)
    assert abs(mc.kill - exact) < 5 * (exact * (1 - exact) / 200_000) ** 0.5
    assert mc.play.solved_on == "exact"
    # best play's kill is at most lethal's (here the same, to float noise)
    assert exact <= simulate(
        dataclasses.replace(s, target=dataclasses.replace(t, power_field="lethal")), method="exact").kill + 1e-12
    p = tmp_path / "pf.toml"
    p.write_text('[target]\ndef = 12\narm = 14\nboxes = 5\nfocus = 2\npower_field = "optimal"\n'
                 '[[attackers]]\n[[attackers.weapons]]\nname = "F"\ntype = "melee"\nskill = 6\npow = 14\n')
    assert main(["run", str(p), "--trials", "1000"]) == 0
    assert main(["run", str(p), "--method", "exact"]) == 0
    capsys.readouterr()


def test_optimizer_maximises_a_system_crippled():
    """Objective ``cripple:X``: the family's best for crippling L, exactly and by Monte Carlo
    (the pick within 5 standard errors of a difference of the exact best)."""
    grid = ("......", ".....L", "....LL", "...MC.", "...MC.", "....RR")
    t = Target(12, 17, grid=grid)
    a = Attacker("Jack", [Weapon("Fist", "melee", 7, 16, attacks=2, damage_to="L")], focus=2,
                 policy="optimize")
    s = Scenario(t, [a], objective="cripple:L")
    found = optimize(s, method="exact")
    values = {}
    for spend in policy_family(a, s):
        fixed = dataclasses.replace(a, spend=spend, policy="fixed")
        values[spend] = exact_result(dataclasses.replace(s, attackers=(fixed,))).cripple["L"]
    best = max(values.values())
    assert found.best.score == pytest.approx(best, abs=1e-12)
    assert found.adaptive_best >= best - 1e-12
    n = 100_000
    mc = optimize(s, trials=n, seed=3)
    assert values[mc.best.spends[0]] >= best - 5 * math.sqrt(2 * best * (1 - best) / n)
    assert mc.to_dict()["objective"] == "cripple:L"
    with pytest.raises(InputError, match="objective: the target's card has no system"):
        optimize(s, objective="cripple:G")
