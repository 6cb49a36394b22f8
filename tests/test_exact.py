"""The exact engine against brute-force enumeration (tests/naive.py), and its invariants."""

from __future__ import annotations

import time
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathhammer import ExactNotApplicable, InputError, simulate
from mathhammer.exact import attack_outcome, check_exact_applicable, damage_pmf, exact_result
from mathhammer.rules import Attacker, Scenario, Target, Weapon

from naive import (
    NaiveAttack,
    NaiveTarget,
    bf_attack,
    bf_damage,
    bf_scenario,
    bf_sequence,
    plain_from_scenario,
)

TOL = 1e-12


# ----------------------------------------------------------------------------- attack rolls
@pytest.mark.parametrize("n_dice", [1, 2, 3, 4])
def test_attack_outcome_matches_brute_force(n_dice):
    for skill in (0, 3, 7, 12, 20):
        for defense in range(0, 6 * n_dice + skill + 4):
            got = attack_outcome(n_dice, skill, defense)
            want = bf_attack(n_dice, skill, defense)
            assert got == pytest.approx([float(x) for x in want], abs=TOL), (n_dice, skill, defense)
            assert sum(got) == pytest.approx(1.0, abs=TOL)


@pytest.mark.parametrize("n_dice,skill,defense", [(5, 6, 20), (5, 0, 40), (6, 4, 25), (6, 30, 0)])
def test_attack_outcome_many_dice(n_dice, skill, defense):
    got = attack_outcome(n_dice, skill, defense)
    assert got == pytest.approx([float(x) for x in bf_attack(n_dice, skill, defense)], abs=TOL)


def test_automatic_miss_and_hit():
    # MAT 20 vs DEF 5: only all ones misses.
    miss, plain, crit = attack_outcome(2, 20, 5)
    assert miss == pytest.approx(1 / 36, abs=TOL)
    assert crit == pytest.approx(5 / 36, abs=TOL)  # doubles other than 1-1
    assert attack_outcome(3, 20, 5)[0] == pytest.approx(1 / 216, abs=TOL)
    # DEF 25 with skill 0: only all sixes hits, and it is a double.
    assert attack_outcome(2, 0, 25) == pytest.approx((35 / 36, 0.0, 1 / 36), abs=TOL)
    assert attack_outcome(3, 0, 25) == pytest.approx((215 / 216, 0.0, 1 / 216), abs=TOL)
    # One die: no automatic results, no criticals.
    assert attack_outcome(1, 20, 5) == (0.0, 1.0, 0.0)
    assert attack_outcome(1, 0, 25) == (1.0, 0.0, 0.0)


def test_critical_counts():
    # 2 dice, sure hit apart from 1-1: doubles 2-2..6-6 = 5 of 36.
    assert attack_outcome(2, 10, 0)[2] * 36 == pytest.approx(5)
    # 3 dice: 216 - 6*5*4 = 96 rolls have a pair; all ones (1 roll) misses.
    assert attack_outcome(3, 10, 0)[2] * 216 == pytest.approx(95)


def test_attack_outcome_rejects_bad_dice():
    with pytest.raises(ValueError):
        attack_outcome(0, 5, 10)
    with pytest.raises(ValueError):
        attack_outcome(7, 5, 10)


# ----------------------------------------------------------------------------- damage rolls
@pytest.mark.parametrize("n_dice", [1, 2, 3, 4])
def test_damage_pmf_matches_brute_force(n_dice):
    for pow_ in (0, 5, 10, 14):
        for arm in (0, 8, 14, 18, 25, 40):
            got = damage_pmf(n_dice, pow_, arm)
            want = bf_damage(n_dice, pow_, arm)
            assert got.size == max(want) + 1
            assert got[-1] > 0
            for k in range(got.size):
                assert got[k] == pytest.approx(float(want.get(k, 0)), abs=TOL), (n_dice, pow_, arm, k)
            assert got.sum() == pytest.approx(1.0, abs=TOL)


def test_damage_pmf_zero_dice_and_readonly():
    assert damage_pmf(0, 12, 10).tolist() == [0.0, 0.0, 1.0]
    p = damage_pmf(2, 12, 14)
    with pytest.raises(ValueError):
        p[0] = 1.0


# ----------------------------------------------------------------------------- sequences
def check_against_brute_force(scen):
    res = exact_result(scen)
    bf = bf_scenario(scen)
    assert res.method == "exact" and res.total == 1.0 and res.trials is None and res.seed is None
    assert res.boxes == scen.target.boxes
    assert res.slot_labels == tuple(s.label for s in scen.attack_sequence())
    np.testing.assert_allclose(res.damage_pmf, [float(x) for x in bf["damage"]], rtol=0, atol=TOL)
    np.testing.assert_allclose(res.made, [float(x) for x in bf["made"]], rtol=0, atol=TOL)
    np.testing.assert_allclose(res.hit, [float(x) for x in bf["hit"]], rtol=0, atol=TOL)
    np.testing.assert_allclose(res.crit, [float(x) for x in bf["crit"]], rtol=0, atol=TOL)
    np.testing.assert_allclose(res.attack_damage_mean, [float(x) for x in bf["dmg"]], rtol=0, atol=TOL)
    np.testing.assert_allclose(res.kill_weights, [float(x) for x in bf["kill"]], rtol=0, atol=TOL)
    check_invariants(res)
    return res, bf


def check_invariants(res):
    pmf = res.damage_pmf
    # Strict (no tolerance): what reports and the CLI rely on.
    assert np.all(pmf >= 0.0) and pmf.sum() <= 1.0
    assert 0.0 <= res.kill <= 1.0 and np.all(res.kill_after <= 1.0) and np.all(res.kill_weights >= 0.0)
    assert np.all(res.made <= 1.0) and np.all(res.hit <= res.made) and np.all(res.crit <= res.hit)
    assert np.all(res.crit >= 0.0) and np.all(res.attack_damage_mean >= 0.0)
    assert pmf.sum() == pytest.approx(1.0, abs=1e-12)
    assert res.damage_weights[-1] == pytest.approx(res.kill_weights.sum(), abs=1e-12)
    assert res.made[0] == pytest.approx(1.0, abs=1e-15)
    # An attack is made exactly when the target survived the previous ones.
    np.testing.assert_allclose(res.made[1:], res.made[:-1] - res.kill_weights[:-1], atol=1e-12)
    assert np.all(res.hit <= res.made + 1e-12) and np.all(res.crit <= res.hit + 1e-12)
    assert res.attack_damage_mean.sum() == pytest.approx(res.damage_mean, abs=1e-9)
    assert np.all(res.kill_weights <= res.hit + 1e-12)


def W(*args, **kw):
    return Weapon(*args, **kw)


def one(target, *weapons):
    return Scenario(target, [Attacker("A", list(weapons))])


SEQUENCES = {
    "melee_2_attacks_track": one(Target(12, 16, boxes=8), W("Sword", "melee", 6, 12, attacks=2)),
    "ranged_cover_1box": one(Target(13, 13, state={"cover"}), W("Gun", "ranged", 6, 10, attacks=3)),
    "arcane_magical_resist": one(
        Target(14, 14, boxes=5, resist={"magical"}), W("Bolt", "arcane", 7, 12, attacks=2)
    ),
    "fire_resist_boosted": one(
        Target(12, 15, boxes=6, resist={"fire", "cold"}),
        W("Flame", "ranged", 5, 13, boosted_damage=True, damage_type={"fire", "corrosion"}, attacks=2),
    ),
    "knockdown_then_auto_hit": one(
        Target(16, 14, boxes=6),
        W("Slam", "melee", 5, 10, rules={"knockdown"}),
        W("Claw", "melee", 4, 11, attacks=2),
    ),
    "critical_knockdown_then_ranged_def5": Scenario(
        Target(15, 12, boxes=4, state={"concealment"}),
        [
            Attacker("Jack", [W("Hammer", "melee", 6, 12, rules={"critical_knockdown"})]),
            Attacker("Gunner", [W("Rifle", "ranged", 4, 10, attacks=2)]),
        ],
    ),
    "pow_dash_knockdown_then_damage": Scenario(
        Target(14, 12, boxes=3),
        [
            Attacker("Netter", [W("Net", "ranged", 6, None, rules={"knockdown"})]),
            Attacker("Axe", [W("Axe", "melee", 3, 10, attacks=2)]),
        ],
    ),
    "boosted_extra_fewer_dice": one(
        Target(15, 17, boxes=7, state={"obstacle"}),
        W("Big", "melee", 6, 14, boosted_attack=True, extra_damage_dice=1),
        W("Weak", "melee", 7, 12, extra_attack_dice=-1, extra_damage_dice=-1),
    ),
    "crippled_weapon": one(Target(13, 16, boxes=10), W("Arm", "melee", 6, 16, crippled=True, attacks=2)),
    "crippled_boosted_single_die": one(
        Target(12, 14, boxes=4), W("Stub", "melee", 6, 12, crippled=True, extra_attack_dice=-1, attacks=2)
    ),
    "starts_knocked_down_mixed": Scenario(
        Target(16, 15, boxes=5, state={"knocked_down", "in_melee"}),
        [
            Attacker("Shooter", [W("Gun", "ranged", 5, 11)]),
            Attacker("Brawler", [W("Fist", "melee", 3, 12, rules={"critical_knockdown"}, attacks=2)]),
        ],
    ),
    "building": one(Target(5, 18, boxes=12, state={"building"}), W("Ram", "melee", 2, 15, attacks=3)),
    "stationary_ranged_elevated": one(
        Target(14, 13, boxes=3, state={"stationary", "elevated"}), W("Bow", "ranged", 4, 10, attacks=3)
    ),
    "huge_base_ignores_cover": one(
        Target(10, 18, boxes=9, base="huge", state={"cover", "in_melee", "elevated"}),
        W("Cannon", "ranged", 5, 15, attacks=2),
    ),
    "extra_large_elevated_in_melee": one(
        Target(11, 16, boxes=4, base="extra_large", state={"elevated", "in_melee", "concealment"}),
        W("Cannon", "ranged", 7, 14, attacks=2),
    ),
    "no_damage_possible": one(Target(10, 30, boxes=2), W("Pea", "ranged", 5, 6, attacks=2)),
    "sure_kill": one(Target(0, 0, boxes=1), W("Huge", "melee", 20, 20, attacks=2)),
    "wild_inert_auto_hits": one(
        Target(16, 17, boxes=5, state={"wild", "inert"}), W("Horn", "melee", 0, 14, rules={"knockdown"}, attacks=2)
    ),
    "three_attackers": Scenario(
        Target(13, 14, boxes=4, resist={"cold"}),
        [
            Attacker("A", [W("Ice", "ranged", 5, 12, damage_type={"cold"})]),
            Attacker("B", [W("Blade", "melee", 6, 11, rules={"critical_knockdown"})]),
            Attacker("C", [W("Spear", "melee", 5, 10)]),
        ],
    ),
}


@pytest.mark.parametrize("name", sorted(SEQUENCES))
def test_sequence_matches_brute_force(name):
    check_against_brute_force(SEQUENCES[name])


def test_known_values():
    # Single sword: P(hit) = 26/36 (need 6 on 2d6), then 2d6 + 10 > 15 on 6+: 26/36.
    res = exact_result(one(Target(12, 15), W("Sword", "melee", 6, 10)))
    assert res.kill == pytest.approx((26 / 36) ** 2, abs=TOL)
    # The package docstring example: MAT 7 vs DEF 12 hits 30/36; 2d6 + 16 - 18 = 2d6 - 2 >= 0
    # always, mean 5; two attacks never fill 30 boxes.
    jack = Attacker("Heavy warjack", [W("Fist", "melee", skill=7, pow=16, attacks=2)])
    res = simulate(Scenario(Target(defense=12, arm=18, boxes=30), [jack]), method="exact")
    assert res.damage_mean == pytest.approx(2 * 30 / 36 * 5, abs=TOL)
    assert res.kill == 0.0


def test_knockdown_effects_by_hand():
    # Net (POW "-", knockdown) then a melee attack that can only hit automatically or on 6-6.
    net = W("Net", "ranged", 6, None, rules={"knockdown"})  # needs 8 on 2d6 vs DEF 14: 15/36
    axe = W("Axe", "melee", 0, 20)  # vs DEF 14 needs 14: only 6-6
    res = exact_result(Scenario(Target(14, 10, boxes=5), [Attacker("N", [net]), Attacker("X", [axe])]))
    p_net = 15 / 36
    assert res.hit[0] == pytest.approx(p_net, abs=TOL)
    assert res.attack_damage_mean[0] == 0.0
    assert res.hit[1] == pytest.approx(p_net + (1 - p_net) / 36, abs=TOL)
    assert res.crit[1] == pytest.approx((1 - p_net) / 36, abs=TOL)
    # Knocked down: a later ranged attack is against base DEF 5 plus its modifiers.
    t = Target(15, 10, boxes=5, state={"cover"})
    kd = W("Slam", "melee", 20, None, rules={"knockdown"})  # hits unless 1-1
    gun = W("Gun", "ranged", 0, 10)
    res = exact_result(Scenario(t, [Attacker("S", [kd]), Attacker("G", [gun])]))
    p_kd = 35 / 36
    # vs DEF 5 + 4 = 9 with RAT 0: 10/36; vs 15 + 4 = 19: only 6-6.
    assert res.hit[1] == pytest.approx(p_kd * 10 / 36 + (1 - p_kd) / 36, abs=TOL)


def test_one_box_target_and_capping():
    res = exact_result(one(Target(5, 5, boxes=1), W("Big", "melee", 10, 20, attacks=3)))
    # Hits on anything but 1-1; any hit deals >= 17 damage, capped at the 1 box.
    assert res.damage_pmf.tolist() == pytest.approx([1 / 36**3, 1 - 1 / 36**3], abs=TOL)
    assert res.attack_damage_mean.sum() == pytest.approx(1 - 1 / 36**3, abs=TOL)
    assert res.made[1] == pytest.approx(1 / 36, abs=TOL)


def test_large_track_is_fast_and_consistent():
    t = Target(13, 20, boxes=500, state={"concealment"})
    attackers = [
        Attacker(
            f"A{i}",
            [
                W("Gun", "ranged", 6, 12, attacks=3, boosted_damage=True),
                W("Sword", "ranged", 7, 10, attacks=2, extra_damage_dice=3),
            ],
        )
        for i in range(60)
    ]
    scen = Scenario(t, attackers)
    start = time.perf_counter()
    res = exact_result(scen)
    elapsed = time.perf_counter() - start
    assert elapsed < 2.0
    assert res.n_attacks == 300
    check_invariants(res)
    assert 0.5 < res.kill < 0.75


def test_second_moment_in_extra():
    scen = SEQUENCES["knockdown_then_auto_hit"]
    res = exact_result(scen)
    # Recompute E[marked^2] per attack by brute force over the naive tree (small).
    attacks, target = plain_from_scenario(scen)
    sq = _bf_second_moment(attacks, target)
    np.testing.assert_allclose(res.extra["slot_damage_sq"], [float(x) for x in sq], atol=TOL)


def _bf_second_moment(attacks, target):
    """E[(points marked by attack i)^2] by a forward walk over every outcome."""
    out = [Fraction(0)] * len(attacks)

    def walk(i, prob, marked, down):
        if marked >= target.boxes or i == len(attacks):
            return
        a = attacks[i]
        if a.kind == "melee" and down:
            table = (Fraction(0), Fraction(1), Fraction(0))
        else:
            mod = target.melee_mod if a.kind == "melee" else target.ranged_mod
            table = bf_attack(a.attack_dice, a.skill, (5 if down else target.defense) + mod)
        walk(i + 1, prob * table[0], marked, down)
        for p, crit in ((table[1], False), (table[2], True)):
            if not p:
                continue
            d2 = down or a.knockdown or (crit and a.critical_knockdown)
            if a.pow is None:
                walk(i + 1, prob * p, marked, d2)
                continue
            for pts, q in bf_damage(a.damage_dice, a.pow, target.arm).items():
                took = min(pts, target.boxes - marked)
                out[i] += prob * p * q * took * took
                walk(i + 1, prob * p * q, marked + took, d2)

    walk(0, Fraction(1), 0, target.starts_down)
    return out


# ----------------------------------------------------------------------------- applicability
def test_check_exact_applicable():
    for scen in SEQUENCES.values():
        check_exact_applicable(scen)  # everything the model expresses today is accepted
    with pytest.raises(InputError):
        check_exact_applicable("nope")
    assert issubclass(ExactNotApplicable, ValueError)


def test_exact_not_applicable_path(monkeypatch):
    import mathhammer.exact as ex

    monkeypatch.setattr(ex, "MAX_DICE", 2)  # pretend 3-dice rolls were out of reach
    scen = one(Target(12, 14), W("Big", "melee", 6, 12, boosted_attack=True))
    with pytest.raises(ExactNotApplicable, match="Big #1"):
        simulate(scen, method="exact")


def test_simulate_exact_dispatches_here():
    res = simulate(SEQUENCES["building"], method="exact")
    assert res.exact and res.kill_ci95 == (res.kill, res.kill) and res.kill_se == 0.0


# ----------------------------------------------------------------------------- helpers vs raw
def test_rules_helpers_agree_with_naive_translation():
    for scen in SEQUENCES.values():
        attacks, target = plain_from_scenario(scen)
        for slot, a in zip(scen.attack_sequence(), attacks):
            w, t = slot.weapon, scen.target
            assert w.attack_dice == a.attack_dice
            if w.deals_damage:
                assert w.damage_dice_against(t.resist) == a.damage_dice
            mod = target.melee_mod if a.kind == "melee" else target.ranged_mod
            assert t.defense_against(w.type) == (5 if target.starts_down else t.defense) + mod
            assert t.defense_against(w.type, base_def_5=True) == 5 + mod
        assert scen.target.starts_melee_auto_hit == target.starts_down


# ----------------------------------------------------------------------------- properties
STATES = ["knocked_down", "stationary", "building", "in_melee", "cover", "concealment", "elevated", "obstacle"]


@st.composite
def small_scenarios(draw):
    n_weapons = draw(st.integers(1, 3))
    attackers = []
    total = 0
    for k in range(n_weapons):
        kind = draw(st.sampled_from(["melee", "ranged", "arcane"]))
        pow_ = draw(st.one_of(st.none(), st.integers(0, 16)))
        rules = draw(st.sets(st.sampled_from(["knockdown", "critical_knockdown"]), max_size=1))
        attacks = draw(st.integers(1, max(1, 3 - total)))
        total += attacks
        w = Weapon(
            f"W{k}",
            kind,
            skill=draw(st.integers(0, 9)),
            pow=pow_,
            attacks=attacks,
            boosted_attack=draw(st.booleans()) if k == 0 else False,
            boosted_damage=(draw(st.booleans()) if pow_ is not None else False),
            damage_type=draw(st.sets(st.sampled_from(["fire", "cold"]), max_size=2)),
            rules=rules,
            extra_attack_dice=draw(st.integers(-1, 0)),
            crippled=draw(st.booleans()),
        )
        attackers.append(Attacker(f"A{k}", [w]))
        if total >= 3:
            break
    target = Target(
        defense=draw(st.integers(5, 18)),
        arm=draw(st.integers(8, 20)),
        boxes=draw(st.integers(1, 8)),
        base=draw(st.sampled_from(["small", "large", "extra_large", "huge"])),
        resist=draw(st.sets(st.sampled_from(["fire", "magical"]), max_size=2)),
        state=draw(st.sets(st.sampled_from(STATES), max_size=3)),
    )
    return Scenario(target, attackers)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_scenarios())
def test_property_matches_brute_force(scen):
    check_against_brute_force(scen)


@st.composite
def big_scenarios(draw):
    attackers = []
    for k in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["melee", "ranged", "arcane"]))
        pow_ = draw(st.one_of(st.none(), st.integers(0, 25)))
        attackers.append(Attacker(f"A{k}", [Weapon(
            f"W{k}", kind, skill=draw(st.integers(0, 12)), pow=pow_, attacks=draw(st.integers(1, 10)),
            boosted_attack=draw(st.booleans()),
            boosted_damage=(draw(st.booleans()) if pow_ is not None else False),
            rules=draw(st.sets(st.sampled_from(["knockdown", "critical_knockdown"]), max_size=1)),
            extra_attack_dice=draw(st.integers(-3, 3)), extra_damage_dice=draw(st.integers(-3, 3)),
        )]))
    target = Target(defense=draw(st.integers(0, 25)), arm=draw(st.integers(0, 30)),
                    boxes=draw(st.integers(1, 60)), state=draw(st.sets(st.sampled_from(STATES), max_size=3)))
    return Scenario(target, attackers)


@settings(max_examples=100, deadline=None)
@given(big_scenarios())
def test_property_invariants(scen):
    check_invariants(exact_result(scen))


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 4),
    st.integers(0, 30),
    st.integers(0, 45),
)
def test_property_attack_outcome(n_dice, skill, defense):
    got = attack_outcome(n_dice, skill, defense)
    assert got == pytest.approx([float(x) for x in bf_attack(n_dice, skill, defense)], abs=TOL)
    # More skill never hurts.
    assert attack_outcome(n_dice, skill + 1, defense)[0] <= got[0] + TOL


def test_bf_sequence_direct_plain_numbers():
    # The oracle on plain numbers alone: two attacks, one box, DEF 12, MAT 6, POW 10 vs ARM 15.
    a = NaiveAttack("melee", 6, 2, 10, 2)
    bf = bf_sequence([a, a], NaiveTarget(defense=12, arm=15, boxes=1))
    p = Fraction(26, 36) ** 2
    assert bf["kill"][0] == p
    assert bf["kill"][1] == (1 - p) * p
    assert sum(bf["damage"]) == 1
