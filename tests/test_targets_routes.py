"""Several targets with any route per weapon in the exact engine (docs/units.md, "Several
targets"): an attack goes to the first target of its route still standing, so a target may
be left damaged while another is attacked, and attacked again later.

The exact engine against the brute-force oracle tests/naive_units.py (written apart from it:
the full state of every model of every target carried attack by attack) on a worked example
and on 200 random small scenarios; best play against the same scenario with its targets
listed in the order its routes take them, on one round and over rounds with fire; Monte
Carlo within 5 standard errors of exact, fire burning on a target set aside included.
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from mathhammer import simulate
from mathhammer.exact import exact_result, optimal_value
from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon
from naive_units import bf_units
from test_mc_vs_exact import N, SEED, compare, prob_ok

TOL = 1e-12


def _f(xs):
    return np.array([float(x) for x in xs])


def test_worked_example_each_attack_goes_to_the_first_of_its_route_standing():
    """Rule: an attack goes to the first target of its route still standing (docs/units.md).
    Two one-box solos A and B (DEF 12, ARM 10); three guns (RAT 7, POW 12): a shot hits on
    2d6 >= 5, 30/36 = 5/6, and any hit destroys its target (2d6 + 12 - 10 >= 4 points).

    - G shoots at B only (route ``["B"]``): B destroyed with 5/6; A untouched meanwhile.
    - H shoots at A only: A destroyed with 5/6.
    - K shoots at every target, A first: at A if it stands (1/6), else at B if it stands
      (5/6 x 1/6), else it is not made (5/6 x 5/6 = 25/36).

    A destroyed: 5/6 + 1/6 x 5/6 = 35/36. B destroyed: 5/6 + 5/6 x 1/6 x 5/6 = 205/216.
    Both: A by H (5/6), then B by G or by K (5/6 + 1/6 x 5/6 = 35/36): 175/216; or A by K
    (1/6 x 5/6) and B by G (5/6): 25/216; in all 200/216.
    """
    gun = Weapon("Gun", "ranged", skill=7, pow=12)
    s = Scenario([Target(defense=12, arm=10, boxes=1, name="A"), Target(defense=12, arm=10, boxes=1, name="B")],
                 [Attacker("G", [gun], targets=("B",)), Attacker("H", [gun], targets=("A",)),
                  Attacker("K", [gun])])
    res = exact_result(s)
    assert res.kill == pytest.approx(200 / 216, abs=TOL)
    assert res.targets["A"]["kill"] == pytest.approx(35 / 36, abs=TOL)
    assert res.targets["B"]["kill"] == pytest.approx(205 / 216, abs=TOL)
    np.testing.assert_allclose(res.made, [1, 1, 11 / 36], atol=TOL, rtol=0)
    # K's shot: at A with 1/6, at B with 5/6 x 1/6
    np.testing.assert_allclose(res.per_target.made_weights[2], [1 / 6, 5 / 36], atol=TOL, rtol=0)
    np.testing.assert_allclose(res.per_target.made_weights[0], [0, 1], atol=TOL, rtol=0)
    # A is destroyed by H with 5/6 and by K with 1/6 x 5/6
    np.testing.assert_allclose(res.destroyed_by_attack, [5 / 6, 5 / 6, 5 / 36 + 5 / 6 * 5 / 36], atol=TOL, rtol=0)
    # none: H and K miss A (1/36) and G misses B (1/6); both: 200/216; one: the rest
    np.testing.assert_allclose(res.models_destroyed_pmf, [1 / 216, 15 / 216, 200 / 216], atol=TOL, rtol=0)


def test_the_hand_figures_are_the_oracles():
    """The worked example's scenario through the oracle, so that the test above checks the
    engine, not a misreading of the rule shared by the example and the engine."""
    gun = Weapon("Gun", "ranged", skill=7, pow=12)
    s = Scenario([Target(defense=12, arm=10, boxes=1, name="A"), Target(defense=12, arm=10, boxes=1, name="B")],
                 [Attacker("G", [gun], targets=("B",)), Attacker("H", [gun], targets=("A",)),
                  Attacker("K", [gun])])
    bf = bf_units(s)
    assert float(bf["all_destroyed"]) == pytest.approx(200 / 216, abs=TOL)
    assert float(bf["targets"]["A"]["kill"]) == pytest.approx(35 / 36, abs=TOL)
    assert float(bf["targets"]["B"]["kill"]) == pytest.approx(205 / 216, abs=TOL)


# --- 200 random small scenarios against the oracle ---------------------------------------
def _random_scenario(rng: random.Random) -> Scenario:
    n_targets = rng.choice((2, 2, 3))
    names = "ABC"[:n_targets]
    targets = []
    for x in names:
        targets.append(Target(defense=rng.randint(10, 14), arm=rng.randint(10, 14), boxes=rng.randint(1, 3),
                              models=rng.choice((1, 1, 2)), name=x,
                              rules={"tough"} if rng.random() < 0.3 else frozenset(),
                              state={"knocked_down"} if rng.random() < 0.15 else frozenset()))
    attackers, slots = [], 0
    for k in range(rng.randint(1, 3)):
        if slots >= 5:
            break
        melee = rng.random() < 0.5
        rules = set()
        if rng.random() < 0.3:
            rules.add(rng.choice(("knockdown", "critical_knockdown")))
        attacks = rng.randint(1, 2)
        route = rng.sample(names, rng.randint(1, n_targets)) if rng.random() < 0.8 else []
        weapon = Weapon("Axe" if melee else "Gun", "melee" if melee else "ranged", skill=rng.randint(4, 7),
                        pow=rng.randint(10, 14), attacks=attacks, rules=rules, targets=tuple(route))
        models = rng.choice((1, 1, 2))
        combined = 2 if models == 2 and not melee and rng.random() < 0.5 else 1
        attackers.append(Attacker(f"X{k}", [weapon], models=models, combined=combined))
        slots += attacks * models
    return Scenario(targets, attackers)


CASES = [_random_scenario(random.Random(seed)) for seed in range(200)]


@pytest.mark.parametrize("k", range(0, 200, 20), ids=lambda k: f"cases_{k}_to_{k + 19}")
def test_random_routes_equal_the_oracle(k):
    """Per target: models destroyed, damage marked, destroyed; every target destroyed; per
    attack: made, made against each target, hit, critical, models destroyed, everything
    destroyed after it."""
    for scen in CASES[k: k + 20]:
        ex = exact_result(scen)
        bf = bf_units(scen)
        per = ex.per_target
        assert ex.kill == pytest.approx(float(bf["all_destroyed"]), abs=TOL), scen
        for g, t in enumerate(scen.targets):
            tb = bf["targets"][t.name]
            np.testing.assert_allclose(per.destroyed_weights[g], _f(tb["pmf"]), atol=TOL, rtol=0)
            np.testing.assert_allclose(per.damage_weights[g], _f(tb["damage"]), atol=TOL, rtol=0)
            assert ex.targets[t.name]["kill"] == pytest.approx(float(tb["kill"]), abs=TOL)
        for got, key in ((ex.made, "made"), (ex.hit, "hit"), (ex.crit, "crit"),
                         (ex.destroyed_by_attack, "destroyed"), (ex.kill_after, "kill_after"),
                         (ex.destroyed_mean_after, "destroyed_mean_after")):
            np.testing.assert_allclose(got, _f(bf[key]), atol=TOL, rtol=0, err_msg=key)
        made = np.array([[float(row[t.name]) for t in scen.targets] for row in bf["target_of"]])
        np.testing.assert_allclose(per.made_weights, made, atol=TOL, rtol=0)


def test_the_random_cases_leave_targets_aside():
    """The random cases are not all in order: most send some attack past a target standing."""
    from mathhammer.exact.targets import in_order
    crossing = sum(not in_order(s.attack_sequence()) for s in CASES)
    assert crossing >= 100


# --- best play ------------------------------------------------------------------------------
FIST = Weapon("Fist", "melee", skill=6, pow=12, attacks=2)
A = Target(defense=12, arm=13, boxes=3, name="A")
B = Target(defense=13, arm=12, boxes=4, name="B", focus=1, rules={"tough"})


def test_best_play_with_every_route_reversed_is_the_reversed_list():
    """Every attack going to B first, then A, is the scenario with its targets listed B, A:
    the same kill, damage, models destroyed and optimal value under best play (attackers
    with focus, the second target's power field), although the engine starts with A under
    attack and must set it aside at once."""
    jack = Attacker("J", [FIST], focus=2, targets=("B", "A"))
    brute = Attacker("K", [dataclasses.replace(FIST, attacks=1)], focus=1, targets=("B", "A"))
    routed = Scenario([A, B], [jack, brute])
    listed = Scenario([B, A], [dataclasses.replace(jack, targets=()), dataclasses.replace(brute, targets=())])
    a, b = exact_result(routed), exact_result(listed)
    assert a.kill == pytest.approx(b.kill, abs=TOL)
    for f in ("slot_weights", "kill_weights", "damage_weights", "models_destroyed_pmf"):
        np.testing.assert_allclose(getattr(a, f), getattr(b, f), atol=TOL, rtol=0, err_msg=f)
    np.testing.assert_allclose(a.per_target.damage_weights[0], b.per_target.damage_weights[1], atol=TOL, rtol=0)
    np.testing.assert_allclose(a.per_target.made_weights, b.per_target.made_weights[:, ::-1], atol=TOL, rtol=0)
    assert optimal_value(routed) == pytest.approx(optimal_value(listed), abs=TOL)
    assert optimal_value(routed, "damage") == pytest.approx(optimal_value(listed, "damage"), abs=1e-9)


def test_every_route_reversed_over_rounds_with_fire():
    """The same over two rounds with fire and a power field: the round-end steps of each
    target (one per target with routes that set a target aside) leave the untouched one as
    it is and burn the one attacked."""
    burner = Attacker("Burner", [Weapon("Flamer", "ranged", 6, 10, rules={"fire"})], targets=("B", "A"))
    jack = Attacker("J", [FIST], focus=1, targets=("B", "A"))
    routed = Scenario([A, B], [burner, jack], turns=2)
    listed = Scenario([B, A], [dataclasses.replace(burner, targets=()), dataclasses.replace(jack, targets=())],
                      turns=2)
    a, b = exact_result(routed), exact_result(listed)
    assert a.kill == pytest.approx(b.kill, abs=TOL)
    for f in ("slot_weights", "kill_weights", "damage_weights", "models_destroyed_pmf"):
        np.testing.assert_allclose(getattr(a, f), getattr(b, f), atol=TOL, rtol=0, err_msg=f)
    np.testing.assert_allclose(a.rounds.effect_weights, b.rounds.effect_weights, atol=TOL, rtol=0)
    np.testing.assert_allclose(a.rounds.maintenance_kill_weights, b.rounds.maintenance_kill_weights,
                               atol=TOL, rtol=0)


def test_best_play_with_crossing_routes():
    """Routes that cross (one weapon at B then A, another at A only, a third at B only): best
    play's kill is backward induction's optimal value and beats the fixed policy's."""
    jack = Attacker("J", [dataclasses.replace(FIST, name="Claw", attacks=1, targets=("B", "A")), FIST], focus=2)
    brute = Attacker("K", [FIST], focus=1, targets=("B",))
    best = exact_result(Scenario([A, B], [jack, brute]))
    assert optimal_value(Scenario([A, B], [jack, brute])) == pytest.approx(best.kill, abs=1e-9)
    fixed = exact_result(Scenario([A, B], [dataclasses.replace(jack, policy="fixed"),
                                           dataclasses.replace(brute, policy="fixed")]))
    assert best.kill > fixed.kill + 0.005


# --- Monte Carlo ----------------------------------------------------------------------------
FLAMER = Weapon("Flamer", "ranged", skill=6, pow=10, rules={"fire"})
MC_CASES = [
    ("crossing_routes_fixed_boosts",
     Scenario([Target(defense=12, arm=12, boxes=2, models=2, name="A"),
               Target(defense=13, arm=12, boxes=4, rules={"tough"}, name="B")],
              [Attacker("Jack", [FIST], focus=2, policy="fixed", spend=Spend(boost_attack="always"),
                        targets=("B", "A")),
               Attacker("Rifles", [Weapon("Rifle", "ranged", 5, 11, targets=("A",))], models=3),
               Attacker("Brute", [dataclasses.replace(FIST, name="Axe", rules={"critical_knockdown"})])])),
    ("fire_on_a_target_set_aside_over_two_rounds",
     # B burns at the maintenance phase while the jack attacks A; its focus comes back
     Scenario([Target(defense=12, arm=12, boxes=5, name="A"),
               Target(defense=12, arm=13, boxes=4, focus=1, power_field="lethal", name="B")],
              [Attacker("Burner", [dataclasses.replace(FLAMER, targets=("B", "A"))]),
               Attacker("Jack", [FIST], focus=1, policy="fixed", targets=("A",))], turns=2)),
    ("knockdown_and_fire_crossing_over_three_rounds",
     Scenario([Target(defense=12, arm=12, boxes=3, models=3, name="A"),
               Target(defense=13, arm=13, boxes=10, rules={"tough"}, name="B")],
              [Attacker("Netter", [Weapon("Net", "ranged", 6, None, rules={"knockdown"}, targets=("B",))]),
               Attacker("Burners", [FLAMER], models=2),
               Attacker("Smasher", [dataclasses.replace(FIST, targets=("B", "A"))])], turns=3)),
    ("crossing_routes_with_a_power_field_and_knockdown",
     Scenario([Target(defense=13, arm=13, boxes=5, focus=2, power_field="lethal", name="A"),
               Target(defense=12, arm=12, boxes=1, models=3, rules={"tough"}, name="B")],
              [Attacker("Netter", [Weapon("Net", "ranged", 6, None, rules={"knockdown"}, targets=("A",))]),
               Attacker("Rifles", [Weapon("Rifle", "ranged", 5, 12, targets=("B", "A"))], models=4),
               Attacker("Smasher", [dataclasses.replace(FIST, targets=("A", "B"))])])),
]


@pytest.mark.parametrize("name,scen", MC_CASES, ids=[c[0] for c in MC_CASES])
def test_monte_carlo_within_five_standard_errors_of_exact(name, scen):
    """The kernel (which keeps every model of every target) against the exact engine's
    targets set aside, with fixed policies (Monte Carlo does not play these routes best):
    every figure of the scenario, per attack and per round (fire on each target at the
    maintenance phase), and each target's models destroyed."""
    mc = simulate(scen, trials=N, seed=SEED)
    ex = simulate(scen, method="exact")
    bad = compare(mc, ex, N)
    for t in ex.names:
        a, b = mc.targets[t], ex.targets[t]
        for k, (x, y) in enumerate(zip(a["models_destroyed_pmf"], b["models_destroyed_pmf"], strict=True)):
            ok, why = prob_ok(x, y, N)
            if not ok:
                bad.append(f"{t} models_destroyed_pmf[{k}]: mc={x:.6g} exact={y:.6g} ({why})")
    assert not bad, "\n".join(bad)
