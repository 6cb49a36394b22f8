"""The exact engine against brute-force enumeration (tests/naive.py), and its invariants.

First the original oracles (dice tables, sequences with knockdown), then the whole contract
of docs/activation.md: every named case of tests/activation_cases.py and random tiny
scenarios against ``naive.bf_activation`` (exact to 1e-12), worked examples computed by
hand, the target's optimal power field and the attackers' optimal play.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest
from activation_cases import CASES, case
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from naive import (
    BF_COLUMNS, BF_FIELDS,
    NaiveAttack,
    NaiveTarget,
    bf_activation,
    bf_attack,
    bf_damage,
    bf_scenario,
    bf_sequence,
    plain_from_scenario,
)

from mathhammer import ExactNotApplicable, InputError, simulate
from mathhammer.exact import (
    MAX_DICE,
    attack_outcome,
    check_exact_applicable,
    damage_pmf,
    exact_result,
    optimal_value,
)
from mathhammer.result import SLOT_FIELDS
from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon
from mathhammer.rules.vocabulary import (
    TARGET_RULES,
    TARGET_STATES,
    TERRAIN,
    DAMAGE_ROLL_RULES,
    EXCLUSIVE_RULES,
    WEAPON_RULES,
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


def test_a_critical_hit_that_counts_only_as_a_hit_is_counted_by_its_share():
    """Critical hits (rules: a double that hits): skill 7 against DEF 12 hits on 5 or more,
    30 of 36 rolls, and 3-3 to 6-6 are critical, 4 of 36. With no critical rule a critical
    hit is a hit like the others: the engine builds one set of edges for both (the target's
    power field decided once), each counting 4/30 of a critical hit. Every attack made
    counts 30/36 hits and 4/36 critical hits, exactly, whatever best play spends."""
    hammer = Weapon("Hammer", "melee", skill=7, pow=18, attacks=3)
    res = exact_result(Scenario(Target(defense=12, arm=13, boxes=30, focus=3), [Attacker("Jack", [hammer])]))
    assert res.made[0] == pytest.approx(1.0, rel=0, abs=1e-15) and res.made[2] < 1.0  # two hits may destroy it
    np.testing.assert_allclose(res.hit, np.asarray(res.made) * 30 / 36, rtol=0, atol=1e-15)
    np.testing.assert_allclose(res.crit, np.asarray(res.made) * 4 / 36, rtol=0, atol=1e-15)


def test_attack_outcome_rejects_bad_dice():
    with pytest.raises(ValueError):
        attack_outcome(0, 5, 10)
    with pytest.raises(ValueError):
        attack_outcome(MAX_DICE + 1, 5, 10)


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
    kills = res.kill_weights.sum() + (0.0 if res.rounds is None
                                      else res.rounds.maintenance_kill_weights.sum())
    assert res.damage_weights[-1] == pytest.approx(kills, abs=1e-12)
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
    res = exact_result(scen)  # timing: benchmarks only (tests never assert wall time)
    assert res.n_attacks == 300
    check_invariants(res)
    assert 0.5 < res.kill < 0.75


def test_second_moment_per_attack():
    scen = SEQUENCES["knockdown_then_auto_hit"]
    res = exact_result(scen)
    # Recompute E[marked^2] per attack by brute force over the naive tree (small).
    attacks, target = plain_from_scenario(scen)
    sq = _bf_second_moment(attacks, target)
    np.testing.assert_allclose(res.slot_damage_sq, [float(x) for x in sq], atol=TOL)


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
    from mathhammer.exact import rolls

    monkeypatch.setattr(rolls, "MAX_DICE", 2)  # pretend 3-dice rolls were out of reach
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
            damage_type=(draw(st.sets(st.sampled_from(["fire", "cold"]), max_size=2))
                         if pow_ is not None else set()),  # a damage type needs a damage roll
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
            extra_attack_dice=draw(st.integers(-3, 3)),
            extra_damage_dice=draw(st.integers(-3, 3)) if pow_ is not None else 0,
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


# ============================================================================ docs/activation.md
def _f(xs):
    return [float(x) for x in xs]


def check_activation_invariants(res, scen):
    """What must hold of any exact result (bought attacks, Tough and healing included)."""
    pmf = res.damage_pmf
    assert np.all(pmf >= 0.0) and pmf.sum() <= 1.0 and pmf.sum() == pytest.approx(1.0, abs=1e-12)
    kills = res.kill_weights.sum() + (0.0 if res.rounds is None
                                      else res.rounds.maintenance_kill_weights.sum())
    assert res.damage_weights[-1] == pytest.approx(kills, abs=1e-12)
    assert res.slot_weights.shape == (res.n_attacks, SLOT_FIELDS)
    assert np.all(res.slot_weights >= 0.0)
    assert np.all(res.hit <= res.made) and np.all(res.crit <= res.hit)
    tol = 1e-12
    # an attack's Shred attacks (docs/rules.md 5) count their boosts and Tough saves in its
    # row but not their rolls in its made / hit: each is at most one more of each
    shred = res.shred_mean
    assert np.all(res.kill_weights <= res.made + tol)
    assert np.all(res.tough_saves <= res.hit + shred + tol)
    assert np.all(res.boost_attack_rate <= res.made + shred + tol)
    assert np.all(res.boost_damage_rate <= res.hit + shred + tol)
    standing = 1.0 - np.concatenate(([0.0], np.cumsum(res.kill_weights)[:-1]))
    for i, slot in enumerate(scen.attack_sequence()):
        buy = res.made[i] if slot.bought else 0.0
        assert res.spent_mean[i] == pytest.approx(buy + res.boost_attack_rate[i] + res.boost_damage_rate[i], abs=tol)
        if slot.bought or (slot.weapon.random_rof and slot.number > 0):  # may not be made
            assert res.made[i] <= standing[i] + tol
        else:
            assert res.made[i] == pytest.approx(standing[i], abs=tol)
    # Tough saves and Rapid Healing only take damage off.
    effect_damage = 0.0 if res.rounds is None else res.rounds.effect_weights[:, :, 2].sum()
    assert res.damage_mean <= res.attack_damage_mean.sum() + effect_damage + 1e-9


def check_against_activation(scen):
    """``exact_result`` against ``naive.bf_activation``, every figure, to 1e-12."""
    res = exact_result(scen)
    bf = bf_activation(scen)
    assert res.n_attacks == len(bf["made"]) == len(scen.attack_sequence())
    np.testing.assert_allclose(res.damage_pmf, _f(bf["damage"]), rtol=0, atol=TOL)
    np.testing.assert_allclose(res.kill_weights, _f(bf["kill_at"]), rtol=0, atol=TOL)
    for col, name in zip(BF_COLUMNS, BF_FIELDS):
        np.testing.assert_allclose(res.slot_weights[:, col], _f(bf[name]), rtol=TOL, atol=TOL, err_msg=name)
    np.testing.assert_allclose(res.slot_damage_sq, _f(bf["sq"]), rtol=TOL, atol=TOL)
    check_activation_invariants(res, scen)
    return res


@pytest.mark.parametrize("name", [name for name, _ in CASES])
def test_case_matches_brute_force(name):
    check_against_activation(case(name))


def test_cases_are_small_exact_and_fast():
    assert len(CASES) >= 34 and len({name for name, _ in CASES}) == len(CASES)
    for name, scen in CASES:
        assert 1 <= scen.target.boxes <= 30 and 1 <= scen.n_attacks <= 6, name
        assert scen.target.power_field != "optimal", name  # the kernel cannot do it
        check_exact_applicable(scen)
        exact_result(scen)


def test_cases_cover_the_contract():
    """Every rule, policy and setting of docs/activation.md appears in some case."""
    seen = set()
    for _, scen in CASES:
        t = scen.target
        seen |= {f"target:{r}" for r in t.rules} | {f"terrain:{x}" for x in t.terrain}
        seen.add(f"brutal:{scen.brutal_damage}")
        for key in ("shield", "buckler", "upkeep_def", "upkeep_arm", "spell_def", "spell_arm",
                    "rapid_healing", "resist"):
            if getattr(t, key):
                seen.add(f"target:{key}")
        if t.power_points:
            seen.add(f"field:{t.power_kind}:{t.power_field}")
        seen |= {f"state:{s}" for s in t.state}
        for a in scen.attackers:
            seen.add(f"resource:{a.resource}")
            if a.charge:
                seen.add("charge")
            if a.combined > 1:
                seen.add("combined")
            if a.buy_weapon:
                seen.add("buy_weapon")
            if a.points:
                s = a.spend
                seen |= {f"boost_attack:{s.boost_attack}", f"boost_damage:{s.boost_damage}",
                         f"buy:{s.buy_attacks}:{a.bought_weapon is not None}"}
                if s.reserve:
                    seen.add("reserve")
                if s.boost_attack == "auto":
                    seen.add(f"auto_at:{s.boost_attack_at}")
            for w in a.weapons:
                seen |= {f"rule:{r}" for r in w.rules}
                seen |= {f"attack_discard:{w.attack_discard}", f"damage_discard:{w.damage_discard}"}
                if w.def_minus:
                    seen.add(f"def_minus:{w.effect_on}")
                if w.arm_minus:
                    seen.add(f"arm_minus:{w.effect_on}")
                seen.add(f"type:{w.type}")
    # the continuous-effect rules are covered by tests/turns_cases.py (several rounds)
    continuous = {"fire", "corrosion", "critical_fire", "critical_corrosion"}
    want = {f"rule:{r}" for r in WEAPON_RULES if r not in continuous}
    want |= {f"target:{r}" for r in TARGET_RULES}
    want |= {"terrain:forest", "terrain:rubble", "terrain:hill", "terrain:obstacle", "terrain:tall_grass"}
    want |= {"brutal:critical", "brutal:hit", "charge", "combined", "buy_weapon", "reserve"}
    want |= {f"boost_attack:{m}" for m in ("never", "always", "auto")} | {"auto_at:8", "auto_at:6"}
    want |= {f"boost_damage:{m}" for m in ("never", "always", "auto")}
    want |= {"buy:True:True", "buy:True:False", "buy:False:True"}
    want |= {"resource:focus", "resource:fury", "resource:force", "resource:None"}
    want |= {"field:focus:lethal", "field:focus:never", "field:fury:lethal", "state:inert", "state:knocked_down"}
    want |= {f"attack_discard:{d}" for d in ("lowest", "highest", "both")}
    want |= {f"damage_discard:{d}" for d in ("lowest", "highest", "both")}
    want |= {"def_minus:hit", "arm_minus:critical", "type:melee", "type:ranged", "type:arcane"}
    want |= {f"target:{k}" for k in ("shield", "buckler", "upkeep_def", "upkeep_arm", "spell_def", "spell_arm",
                                      "rapid_healing", "resist")}
    assert set(TERRAIN) >= {w.split(":")[1] for w in want if w.startswith("terrain:")}
    assert want <= seen, sorted(want - seen)


def _tiny(target, *attackers, **kw):
    return Scenario(target, list(attackers), **kw)


#: Tiny scenarios for what the named cases do not combine: the optimal power field, and
#: rules meeting each other on 1 to 3 boxes.
TINY = {
    "field_optimal_focus": one(Target(10, 12, boxes=3, focus=2, power_field="optimal"),
                               W("Fist", "melee", 7, 14, attacks=3)),
    "field_optimal_fury": one(Target(12, 12, boxes=2, fury=1, power_field="optimal"),
                              W("Axe", "melee", 6, 12, attacks=3)),
    "field_optimal_tough_decapitation": one(
        Target(11, 13, boxes=3, focus=2, power_field="optimal", rules={"tough"}),
        W("Vorpal", "melee", 7, 10, rules={"decapitation", "critical_knockdown"}, attacks=2)),
    "field_optimal_vs_buyer": _tiny(Target(13, 14, boxes=3, focus=1, power_field="optimal"),
                                    Attacker("Jack", [W("Fist", "melee", 6, 12)], focus=2)),
    "field_lethal_two_focus_decapitation": one(Target(11, 13, boxes=3, focus=2),
                                               W("Vorpal", "melee", 7, 12, rules={"decapitation"}, attacks=2)),
    "tough_steady_rapid_healing_grievous_late": _tiny(
        Target(12, 13, boxes=3, rules={"tough_steady"}, rapid_healing=1),
        Attacker("A", [W("Club", "melee", 6, 11, attacks=2)]),
        Attacker("B", [W("Blade", "melee", 6, 11, rules={"grievous_wounds"})])),
    "dispel_blessed_chain": _tiny(
        Target(12, 12, boxes=3, upkeep_arm=2, upkeep_def=1, spell_arm=1, shield=("L",)),
        Attacker("A", [W("Null", "melee", 6, 10, rules={"dispel", "chain_weapon"}),
                       W("Holy", "melee", 6, 10, rules={"blessed"})])),
    "effects_same_weapon_two_attackers_stack": _tiny(
        Target(14, 14, boxes=3),
        Attacker("A", [W("Hex", "ranged", 6, 8, def_minus=2, arm_minus=2)]),
        Attacker("B", [W("Hex", "ranged", 6, 8, def_minus=2, arm_minus=2, attacks=2)])),
    "reroll_both_with_discards": one(Target(14, 15, boxes=3),
                                     W("Odd", "melee", 6, 12, rules={"reroll_attack", "reroll_damage"},
                                       attack_discard="lowest", damage_discard="highest", extra_attack_dice=1,
                                       extra_damage_dice=1, attacks=2)),
    "crippled_one_die_no_crit": one(Target(9, 12, boxes=2),
                                    W("Stub", "melee", 6, 12, crippled=True, extra_attack_dice=-1,
                                      rules={"critical_knockdown", "brutal_damage"}, attacks=2)),
    "auto_damage_boost_reserve_buy": _tiny(
        Target(12, 15, boxes=3),
        Attacker("A", [W("Fist", "melee", 6, 12)], fury=2,
                 spend=Spend(boost_attack="auto", boost_attack_at=6, reserve=1))),
    "charge_then_bought_and_knocked_down_tough": _tiny(
        Target(13, 14, boxes=3, rules={"tough"}),
        Attacker("A", [W("Axe", "melee", 6, 12, rules={"knockdown"})], force=2, model="warbeast",
                 charge=True)),
    "stationary_target_not_knocked_down_tough": one(Target(14, 12, boxes=2, rules={"tough"}, state={"stationary"}),
                                                    W("Axe", "melee", 4, 12, attacks=3)),
    "wild_target_no_fury_no_buckler": one(Target(14, 12, boxes=3, state={"wild"}, fury=2, buckler=("L",)),
                                          W("Axe", "melee", 4, 10, attacks=2)),
    "combined_ranged_carapace_cover": _tiny(Target(13, 11, boxes=3, rules={"carapace"}, terrain={"crater"}),
                                            Attacker("Unit", [W("Rifle", "ranged", 5, 12, attacks=2)], combined=2)),
    "huge_base_ignores_cloud_building_pow_dash": _tiny(
        Target(12, 12, boxes=2, base="huge", terrain={"cloud"}, state={"building"}),
        Attacker("A", [W("Net", "ranged", 6, None, rules={"stationary"})]),
        Attacker("B", [W("Gun", "ranged", 4, 11)])),
}


@pytest.mark.parametrize("name", sorted(TINY))
def test_tiny_matches_brute_force(name):
    check_against_activation(TINY[name])


# ------------------------------------------------------------------ random tiny scenarios
_DAMAGE_RULES = DAMAGE_ROLL_RULES


@st.composite
def tiny_weapons(draw, kind, k, attacks):
    pow_ = draw(st.one_of(st.none(), st.integers(6, 16), st.integers(6, 16)))
    rules = set(draw(st.sets(st.sampled_from(WEAPON_RULES), max_size=3)))
    if pow_ is None:
        rules -= _DAMAGE_RULES
    if "reroll_damage" in rules:  # keep pairs of damage rolls enumerable
        rules -= {"weapon_master", "brutal_damage", "trash", "shatter"}
    if "sanguine_fate" in rules:  # and pairs of attack rolls
        rules -= {"reroll_attack"}
    for one, other in EXCLUSIVE_RULES:
        if one in rules:
            rules.discard(other)
    reroll_attack = "reroll_attack" in rules
    minus = draw(st.integers(0, 2))
    return Weapon(
        f"W{k}", kind, skill=draw(st.integers(3, 9)), pow=pow_, attacks=attacks,
        boosted_attack=draw(st.booleans()) and not reroll_attack,
        boosted_damage=pow_ is not None and draw(st.booleans()),
        damage_type=draw(st.sets(st.sampled_from(["fire", "cold"]), max_size=1)) if pow_ is not None else set(),
        rules=rules,
        extra_attack_dice=draw(st.integers(-1, 0)),
        extra_damage_dice=draw(st.integers(-1, 0)) if pow_ is not None else 0,
        crippled=draw(st.booleans()),
        attack_discard=draw(st.sampled_from(["none", "none", "lowest", "highest", "both"])),
        damage_discard=draw(st.sampled_from(["none", "none", "lowest", "highest", "both"])) if pow_ is not None else "none",
        def_minus=minus, arm_minus=draw(st.integers(0, 2)) if minus else 0,
        effect_on=draw(st.sampled_from(["hit", "critical"])),
    )


@st.composite
def tiny_activations(draw, every_bought=False, field=None):
    """1 to 3 attacks (bought ones included) on a track of 1 to 3 boxes, any rule."""
    budget = 3
    attackers = []
    while budget > 0 and len(attackers) < 2 and (not attackers or draw(st.booleans())):
        kind = draw(st.sampled_from(["melee", "melee", "ranged", "arcane"]))
        weapons = []
        for k in range(draw(st.integers(1, 2))):
            if budget == 0:
                break
            n = draw(st.integers(1, min(2, budget)))
            budget -= n
            w = draw(tiny_weapons(kind, k, n))
            sustained = {"sustained_attack", "critical_sustained_attack"}
            if any(v.rules & sustained for v in weapons):  # one such weapon an attacker
                w = dataclasses.replace(w, rules=w.rules - sustained)
            weapons.append(w)
        resource = draw(st.sampled_from(["focus", "fury", "force"]))
        points = draw(st.integers(0, min(2, budget) if kind == "melee" else 2))
        spend = Spend(boost_attack=draw(st.sampled_from(["never", "always", "auto"])),
                      boost_attack_at=draw(st.integers(4, 10)),
                      boost_damage=draw(st.sampled_from(["never", "always", "auto"])),
                      buy_attacks=every_bought or draw(st.booleans()),
                      reserve=draw(st.integers(0, 1)))
        if kind == "melee" and spend.buy_attacks:
            budget -= points
        attackers.append(Attacker(f"A{len(attackers)}", weapons, spend=spend,
                                  charge=kind == "melee" and draw(st.booleans()),
                                  combined=draw(st.sampled_from([1, 1, 2])), **{resource: points},
                                  model="warbeast" if resource == "force" else "warjack"))
    power = draw(st.sampled_from(["focus", "fury"]))
    target = Target(
        defense=draw(st.integers(6, 16)), arm=draw(st.integers(6, 16)), boxes=draw(st.integers(1, 3)),
        base=draw(st.sampled_from(["small", "medium", "large", "huge"])),
        resist=draw(st.sets(st.sampled_from(["fire", "magical"]), max_size=1)),
        state=draw(st.sets(st.sampled_from(TARGET_STATES), max_size=2)),
        terrain=draw(st.sets(st.sampled_from(sorted(TERRAIN)), max_size=2)),
        rules=draw(st.sets(st.sampled_from(TARGET_RULES), max_size=2)),
        shield=draw(st.sampled_from([(), ("L",)])), buckler=draw(st.sampled_from([(), ("R",)])),
        upkeep_def=draw(st.integers(0, 2)), upkeep_arm=draw(st.integers(0, 2)),
        spell_def=draw(st.integers(0, 1)), spell_arm=draw(st.integers(0, 1)),
        power_field=field or draw(st.sampled_from(["never", "lethal", "optimal"])),
        rapid_healing=draw(st.integers(0, 1)),
        **{power: draw(st.integers(0, 2))},
    )
    return Scenario(target, attackers, brutal_damage=draw(st.sampled_from(["critical", "hit"])))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_activations())
def test_property_activation_matches_brute_force(scen):
    check_against_activation(scen)


def test_shred_attacks_boosts_count_in_the_row_of_the_attack_that_led_to_them():
    """Shred (docs/rules.md 5): a Shred attack's damage boost counts in the row of the attack
    that led to it, its roll does not count in that row's hits: the boosts may outnumber the
    hits, by at most the Shred attacks (the example the property test above found)."""
    target = Target(defense=6, arm=6, boxes=1, upkeep_arm=1, spell_arm=1, tough_on=5,
                    power_field="never")
    fixed = dict(policy="fixed", spend=Spend(boost_attack="never", boost_damage="always"))
    shredder = Weapon("W0", "ranged", skill=3, pow=6, rules=frozenset({"knockdown", "shred"}),
                      extra_damage_dice=-1)
    scen = Scenario(target, [Attacker("A0", [Weapon("W0", "ranged", skill=3, pow=None)], **fixed),
                             Attacker("A1", [shredder], focus=2, **fixed)])
    res = check_against_activation(scen)  # the brute force agrees, every figure
    assert res.shred_mean[1] > 0 and res.boost_damage_rate[1] > res.hit[1]


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_activations(every_bought=True, field="lethal"), st.sampled_from(["kill", "damage"]))
def test_property_optimal_value_matches_brute_force(scen, objective):
    want = bf_activation(scen, attackers="optimal", objective=objective)["value"]
    assert optimal_value(scen, objective) == pytest.approx(float(want), abs=TOL * scen.target.boxes)


# ------------------------------------------------------------------ worked examples
def test_boosted_attack_needing_8_on_3_dice():
    # RAT 5 against DEF 13 needs 8; boosted, 3d6 >= 8 is 1 - 35/216 (sums 3..7: 1+3+6+10+15).
    gun = W("Gun", "ranged", 5, 20)
    target = Target(13, 10, boxes=1)
    res = exact_result(Scenario(target, [Attacker("A", [gun], focus=1, spend=Spend(boost_attack="always"))]))
    assert res.hit[0] == pytest.approx(181 / 216, abs=TOL)
    assert res.kill == pytest.approx(181 / 216, abs=TOL)  # 2d6 + 20 > 10 always
    assert res.boost_attack_rate[0] == pytest.approx(1.0) and res.spent_mean[0] == pytest.approx(1.0)
    # auto: boosts at boost_attack_at = 8 (need 8 >= 8), not at 9 (15/36 on two dice).
    for at, hit in ((8, 181 / 216), (9, 15 / 36)):
        res = exact_result(Scenario(target, [Attacker("A", [gun], focus=1,
                                                      spend=Spend(boost_attack="auto", boost_attack_at=at))]))
        assert res.hit[0] == pytest.approx(hit, abs=TOL)
    # more than `reserve` points: 1 point with reserve 1 boosts nothing.
    res = exact_result(Scenario(target, [Attacker("A", [gun], focus=1,
                                                  spend=Spend(boost_attack="always", reserve=1))]))
    assert res.hit[0] == pytest.approx(15 / 36, abs=TOL) and res.spent_mean[0] == 0.0


def test_auto_damage_boost_conditions():
    # A knocked-down target: automatic hit, so the damage boost is the only decision.
    def rate(arm, boxes):
        scen = one_with(Target(14, arm, boxes=boxes, state={"knocked_down"}), W("Fist", "melee", 5, 10), focus=1,
                        spend=Spend())  # the fixed "auto" rule
        return float(exact_result(scen).boost_damage_rate[0])

    assert rate(10, 1) == 0.0  # smallest roll 2 + 10 - 10 = 2 >= 1 box left: cannot fail
    assert rate(12, 1) == pytest.approx(1.0, abs=TOL)  # 2 - 2 = 0 < 1, and 18 - 2 > 0
    assert rate(30, 1) == 0.0  # even 18 + 10 - 30 < 0 deals nothing
    assert rate(10, 3) == pytest.approx(1.0, abs=TOL)


def one_with(target, *weapons, **attacker):
    return Scenario(target, [Attacker("A", list(weapons), **attacker)])


def test_lethal_power_field_thresholds():
    # Automatic hit (knocked down), 2d6 + 10 - 10 = 2d6 points against 5 boxes and 1 focus:
    # 2d6 in 5..9 is lethal and 1 focus (-5) saves it; 10..12 would need 2.
    t = Target(14, 10, boxes=5, focus=1, state={"knocked_down"}, power_field="lethal")
    res = exact_result(one_with(t, W("Fist", "melee", 5, 10)))
    assert res.kill == pytest.approx(6 / 36, abs=TOL)
    assert res.target_spent_mean[0] == pytest.approx(24 / 36, abs=TOL)
    want = np.array([4, 5, 1 + 6, 2 + 5, 3 + 4, 6]) / 36  # x - 5 if spent, else x (2..4)
    np.testing.assert_allclose(res.damage_pmf, want, atol=TOL)
    res = exact_result(one_with(dataclasses.replace(t, focus=2), W("Fist", "melee", 5, 10)))
    assert res.kill == 0.0
    assert res.target_spent_mean[0] == pytest.approx((24 + 2 * 6) / 36, abs=TOL)
    never = exact_result(one_with(dataclasses.replace(t, power_field="never"), W("Fist", "melee", 5, 10)))
    assert never.kill == pytest.approx(30 / 36, abs=TOL) and never.target_spent_mean[0] == 0.0


def test_best_power_field_spends_for_boxes_once_the_kill_is_settled():
    """docs/best-play.md, "Objectives": the target's power field prefers fewer kills, then
    fewer boxes marked, then keeping its points. Automatic hit of 2d6 points against 5 boxes
    and 1 focus: on 5..9 the focus saves it; on 2..4 the kill is not at stake, and the focus
    (worth nothing once the sequence ends) takes 5 points off, so nothing is marked; on 10..12
    the target is destroyed whatever it spends, and it keeps its focus."""
    t = Target(14, 10, boxes=5, focus=1, state={"knocked_down"})
    res = exact_result(one_with(t, W("Fist", "melee", 5, 10)))
    assert res.kill == pytest.approx(6 / 36, abs=TOL)
    assert res.target_spent_mean[0] == pytest.approx(30 / 36, abs=TOL)
    want = np.array([1 + 2 + 3 + 4, 5, 6, 5, 4, 6]) / 36  # x - 5 on 2..9 (0 at least), killed on 10..12
    np.testing.assert_allclose(res.damage_pmf, want, atol=TOL)


def test_fury_target_prevents_one_lethal_attack():
    t = Target(5, 0, boxes=1, fury=1, state={"knocked_down"}, power_field="lethal")
    res = exact_result(one_with(t, W("Axe", "melee", 5, 10, attacks=2)))
    np.testing.assert_allclose(res.kill_weights, [0.0, 1.0], atol=TOL)
    np.testing.assert_allclose(res.target_spent_mean, [1.0, 0.0], atol=TOL)
    np.testing.assert_allclose(res.attack_damage_mean, [0.0, 1.0], atol=TOL)


def test_tough_saves():
    # Sure kills (automatic hit on a stationary target, 2d6 + 20 >= 22 > 3 boxes).
    axe = W("Axe", "melee", 5, 20, attacks=3)
    res = exact_result(one_with(Target(14, 0, boxes=3, rules={"tough"}, state={"stationary"}), axe))
    # Saved on 5-6 (1/3), then knocked down: no second roll.
    np.testing.assert_allclose(res.kill_weights, [2 / 3, 1 / 3, 0.0], atol=TOL)
    np.testing.assert_allclose(res.tough_saves, [1 / 3, 0.0, 0.0], atol=TOL)
    assert res.hit[1] == pytest.approx(1 / 3, abs=TOL)
    res = exact_result(one_with(Target(14, 0, boxes=3, rules={"tough_steady"}, state={"stationary"}), axe))
    np.testing.assert_allclose(res.kill_weights, [2 / 3, 2 / 9, 2 / 27], atol=TOL)
    assert res.damage_pmf[2] == pytest.approx(1 / 27, abs=TOL)  # saved three times: boxes - 1
    # Grievous Wounds stops Tough from the hit that carries it.
    grievous = W("Axe", "melee", 5, 20, rules={"grievous_wounds"})
    res = exact_result(one_with(Target(14, 0, boxes=3, rules={"tough"}, state={"stationary"}), grievous))
    assert res.kill == 1.0 and res.tough_saves[0] == 0.0


def test_rerolls_by_formula():
    # reroll_attack: need 8 on 2d6 (p = 15/36), a miss is rolled again: 1 - (1 - p)^2.
    t = Target(14, 30, boxes=5)
    res = exact_result(one_with(t, W("Bow", "ranged", 6, 10, rules={"reroll_attack"})))
    p, crit = 15 / 36, 3 / 36  # doubles reaching 8: 4-4, 5-5, 6-6
    assert res.hit[0] == pytest.approx(1 - (1 - p) ** 2, abs=TOL)
    assert res.crit[0] == pytest.approx(crit * (1 + (1 - p)), abs=TOL)
    # reroll_damage: an automatic hit, 2d6 + 10 - 10 on 30 boxes; a sum below 7 is rolled
    # again: E = sum_{s >= 7} s P(s) + P(s < 7) * 7 = 182/36 + (15/36) 7.
    res = exact_result(one_with(Target(14, 10, boxes=30, state={"knocked_down"}),
                                W("Hammer", "melee", 5, 10, rules={"reroll_damage"})))
    assert res.damage_mean == pytest.approx((182 + 15 * 7) / 36, abs=TOL)
    # ... but not a roll that already disables: on 5 boxes, 2d6 >= 5 is never rerolled.
    res = exact_result(one_with(Target(14, 10, boxes=5, state={"knocked_down"}),
                                W("Hammer", "melee", 5, 10, rules={"reroll_damage"})))
    low = 6 / 36  # sums 2..4: rerolled, then kill on 2d6 >= 5 (30/36)
    assert res.kill == pytest.approx(30 / 36 + low * 30 / 36, abs=TOL)


def test_decapitation_doubles_critical_damage():
    # MAT 20 vs DEF 5: hits unless 1-1; doubles 2-2..6-6 (5/36) are critical. 2d6 points.
    res = exact_result(one_with(Target(5, 10, boxes=30), W("Vorpal", "melee", 20, 10, rules={"decapitation"})))
    assert res.damage_mean == pytest.approx((30 * 7 + 5 * 14) / 36, abs=TOL)


def test_rapid_healing_after_damage():
    res = exact_result(one_with(Target(14, 10, boxes=30, state={"knocked_down"}, rapid_healing=2),
                                W("Club", "melee", 5, 10)))
    assert res.attack_damage_mean[0] == pytest.approx(7.0, abs=TOL)  # marked: 2d6
    assert res.damage_mean == pytest.approx(5.0, abs=TOL)  # then 2 removed (2d6 >= 2)


def test_charge_brutal_combined_armor_piercing_equivalents():
    t = Target(14, 10, boxes=40, state={"knocked_down"})  # automatic hits, never critical
    base = exact_result(one_with(t, W("Axe", "melee", 5, 10))).damage_mean
    assert base == pytest.approx(7.0, abs=TOL)
    # charge: the first melee attack has a free damage boost (3d6), the next one does not.
    res = exact_result(one_with(t, W("Axe", "melee", 5, 10, attacks=2), charge=True, focus=1,
                                spend=Spend(boost_damage="never", buy_attacks=False)))
    np.testing.assert_allclose(res.attack_damage_mean, [10.5, 7.0], atol=TOL)
    assert res.boost_damage_rate.sum() == 0.0
    # brutal damage: no die on automatic (never critical) hits, unless the setting says "hit".
    brutal = W("Maul", "melee", 5, 10, rules={"brutal_damage"})
    assert exact_result(one_with(t, brutal)).damage_mean == pytest.approx(7.0, abs=TOL)
    assert exact_result(Scenario(t, [Attacker("A", [brutal])], brutal_damage="hit")).damage_mean == \
        pytest.approx(10.5, abs=TOL)
    # combined attack of 3: +3 to attack and damage rolls.
    t2 = Target(15, 14, boxes=8)
    a = exact_result(Scenario(t2, [Attacker("U", [W("Spear", "melee", 5, 10)], combined=3)]))
    b = exact_result(Scenario(t2, [Attacker("U", [W("Spear", "melee", 8, 13)])]))
    np.testing.assert_allclose(a.damage_pmf, b.damage_pmf, atol=TOL)
    # armor piercing: ARM 19 counts as 10, then modifiers (+2 unyielding vs melee).
    a = exact_result(one_with(Target(12, 19, boxes=8, rules={"unyielding"}), W("Pick", "melee", 6, 10,
                                                                               rules={"armor_piercing"})))
    b = exact_result(one_with(Target(12, 12, boxes=8), W("Pick", "melee", 6, 10)))
    np.testing.assert_allclose(a.damage_pmf, b.damage_pmf, atol=TOL)


def test_points_are_not_carried_over():
    # The first attacker spends nothing; the second has 1 point and boosts every roll.
    scen = case("multi_attacker_points_not_carried")
    res = exact_result(scen)
    assert res.spent_mean[0] == 0.0
    assert res.spent_mean[1] <= res.made[1] + TOL
    assert res.boost_attack_rate[1] + res.boost_damage_rate[1] == pytest.approx(res.spent_mean[1], abs=TOL)


def test_bought_attacks_need_points():
    # 2 focus, always boost the attack, buy with the rest: the first attack spends 1, so
    # one bought attack is made and the second never is.
    scen = one_with(Target(14, 14, boxes=30), W("Fist", "melee", 6, 12), focus=2,
                    spend=Spend(boost_attack="always", boost_damage="never"))
    res = exact_result(scen)
    assert res.n_attacks == 3
    np.testing.assert_allclose(res.made, [1.0, 1.0, 0.0], atol=TOL)
    np.testing.assert_allclose(res.spent_mean, [1.0, 1.0, 0.0], atol=TOL)
    # Reserve 1: 2 points > 1, the first attack still boosts, and the bought one does not.
    # Reserve 2: nothing is ever boosted and both points buy attacks.
    for reserve, made, boosts in ((1, [1, 1, 0], [1, 0, 0]), (2, [1, 1, 1], [0, 0, 0])):
        res = exact_result(dataclasses.replace(scen, attackers=(dataclasses.replace(
            scen.attackers[0], spend=Spend(boost_attack="always", boost_damage="never", reserve=reserve)),)))
        np.testing.assert_allclose(res.made, made, atol=TOL)
        np.testing.assert_allclose(res.boost_attack_rate, boosts, atol=TOL)


# ------------------------------------------------------------------ the target's best play
FIELD_CASES = [name for name, scen in CASES if scen.target.power_points] + ["tough", "grievous_wounds_vs_tough"]


def _with_field(scen, field, **target):
    return dataclasses.replace(scen, target=dataclasses.replace(scen.target, power_field=field, **target))


@pytest.mark.parametrize("name", FIELD_CASES)
def test_optimal_power_field_is_best_for_the_target(name):
    scen = case(name)
    if not scen.target.power_points and "inert" not in scen.target.state:
        scen = _with_field(scen, "lethal", focus=1)
    kill = {field: exact_result(_with_field(scen, field)).kill for field in ("never", "lethal", "optimal")}
    assert kill["optimal"] <= kill["lethal"] + 1e-12
    assert kill["optimal"] <= kill["never"] + 1e-12
    check_activation_invariants(exact_result(_with_field(scen, "optimal")), scen)


def test_optimal_power_field_beats_lethal_somewhere():
    scen = case("everything_at_once")
    fixed = tuple(dataclasses.replace(a, policy="fixed") for a in scen.attackers)
    scen = dataclasses.replace(scen, attackers=fixed)  # against the attackers' fixed policies
    lethal, best = (exact_result(_with_field(scen, f)).kill for f in ("lethal", "optimal"))
    assert best < lethal - 1e-4
    # One focus, three automatic hits of 2d6 - 2 on 6 boxes: lethal 0.8812, optimal 0.8702
    # (found by search; the brute force agrees on every figure).
    scen = one_with(Target(14, 10, boxes=6, focus=1, state={"knocked_down"}, power_field="optimal"),
                    W("Fist", "melee", 5, 8, attacks=3))
    res = check_against_activation(scen)
    assert res.kill < exact_result(_with_field(scen, "lethal")).kill - 0.01


# ------------------------------------------------------------------ the attackers' best play
def spend_family(points):
    """The optimizer's family of fixed policies (docs/activation.md)."""
    attack = [("never", 8), ("always", 8)] + [("auto", at) for at in range(3, 13)]
    for boost_attack, at in attack:
        for boost_damage in ("never", "always", "auto"):
            for buy in (False, True):
                for reserve in (range(points + 1) if buy else [0]):
                    yield Spend(boost_attack, at, boost_damage, buy, reserve)


def _fixed_value(scen, spend, objective):
    attackers = [dataclasses.replace(a, spend=spend, policy="fixed") for a in scen.attackers]
    res = exact_result(dataclasses.replace(scen, attackers=tuple(attackers)))
    return res.kill if objective == "kill" else res.damage_mean


OPTIMAL_CASES = {
    # one point, any hit kills: boosting the attack (181/216) is best.
    "ranged_boost_attack": (one_with(Target(13, 10, boxes=1), W("Gun", "ranged", 5, 20), focus=1),
                            "kill", Fraction(181, 216)),
    # one point, automatic hit on 1 box, 2d6 must reach 10: boosting damage (3d6 >= 10:
    # 135/216) beats buying a second attack (1 - (5/6)^2 = 11/36).
    "melee_boost_damage": (one_with(Target(14, 10, boxes=1, state={"knocked_down"}), W("Fist", "melee", 5, 1),
                                    focus=1), "kill", Fraction(135, 216)),
    # one point, automatic hits of 2d6 + 2 on 30 boxes: buying (2 x 9) beats boosting (12.5).
    "melee_buy_for_damage": (one_with(Target(14, 10, boxes=30, state={"knocked_down"}), W("Fist", "melee", 5, 12),
                                      focus=1), "damage", Fraction(18)),
    # one point, RAT 6 vs DEF 14, 2d6 points: boost the attack (181/216 x 7) rather than
    # the damage (15/36 x 10.5).
    "ranged_attack_or_damage": (one_with(Target(14, 14, boxes=30), W("Gun", "ranged", 6, 14), focus=1),
                                "damage", Fraction(181 * 7, 216)),
}


@pytest.mark.parametrize("name", sorted(OPTIMAL_CASES))
def test_optimal_value_equals_best_fixed_policy_by_hand(name):
    scen, objective, want = OPTIMAL_CASES[name]
    got = optimal_value(scen, objective)
    assert got == pytest.approx(float(want), abs=1e-12)
    best = max(_fixed_value(scen, sp, objective) for sp in spend_family(scen.attackers[0].points))
    assert best == pytest.approx(float(want), abs=1e-12)


@pytest.mark.parametrize("name", ["boost_attack_never", "boost_damage_auto", "reserve_for_buying", "charge",
                                  "force_attacker", "multi_attacker_points_not_carried",
                                  "power_field_focus_lethal"])
@pytest.mark.parametrize("objective", ["kill", "damage"])
def test_optimal_value_bounds_every_fixed_policy(name, objective):
    scen = case(name)
    points = max(a.points for a in scen.attackers)
    best = max(_fixed_value(scen, sp, objective) for sp in spend_family(points))
    got = optimal_value(scen, objective)
    assert got >= best - 1e-12
    if objective == "kill":
        assert got <= 1.0 + 1e-12


def test_optimal_value_matches_brute_force_on_tiny_cases():
    for name in ("field_optimal_vs_buyer", "auto_damage_boost_reserve_buy", "charge_then_bought_and_knocked_down_tough"):
        scen = TINY[name]
        for objective in ("kill", "damage"):
            want = bf_activation(scen, attackers="optimal", objective=objective)["value"]
            assert optimal_value(scen, objective) == pytest.approx(float(want), abs=1e-12), (name, objective)


def test_optimal_value_rejects_bad_objective():
    with pytest.raises(InputError, match="objective"):
        optimal_value(case("charge"), "glory")


# ------------------------------------------------------------------ refusals
def test_too_many_states_is_refused():
    hexes = [W(f"Hex{k}", "ranged", 5, None, def_minus=1) for k in range(12)]  # 4096 sets of effects
    scen = one_with(Target(12, 14, boxes=500, focus=3), *hexes)
    with pytest.raises(ExactNotApplicable, match="states"):
        check_exact_applicable(scen)
    with pytest.raises(ExactNotApplicable, match="states"):
        simulate(scen, method="exact")


def test_long_induction_is_refused():
    gunners = [Attacker(f"G{k}", [W("Gun", "ranged", 6, 10, attacks=20)]) for k in range(11)]
    scen = Scenario(Target(12, 14, boxes=5, focus=1, power_field="optimal"), gunners)
    with pytest.raises(ExactNotApplicable, match="backward induction"):
        exact_result(scen)
    exact_result(_with_field(scen, "lethal"))  # forward propagation alone is fine
