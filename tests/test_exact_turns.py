"""The exact engine over several rounds, with continuous effects and hazards
(docs/activation.md, "Continuous effects, hazards and several turns"; docs/rules.md 4).

Against the brute-force oracle (``naive.bf_activation``: every die enumerated, the expiry d6
of each effect, fire's 2d6, burning earth's d6s, column and Tough d6s) on tiny cases, fixed
and random, to 1e-12; worked examples computed by hand; the invariants of every case of
tests/turns_cases.py; labels, rows per round and the engine's limits.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from naive import BF_EFFECTS, BF_COLUMNS, BF_FIELDS, bf_activation
from turns_cases import CASES, DUD, case

from mathhammer import ExactNotApplicable, simulate
from mathhammer.exact import (
    attack_outcome,
    check_exact_applicable,
    damage_pmf,
    exact_result,
    optimal_value,
    round_label,
    round_labels,
)
from mathhammer.result import (
    EFFECT_AFTER,
    EFFECT_APPLIED,
    EFFECT_DAMAGE,
    EFFECT_DESTROYED,
    EFFECT_FIELDS,
    EFFECT_KILL,
    EFFECT_NAMES,
    EFFECT_PRESENT,
    SLOT_FIELDS,
)
from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon

TOL = 1e-12
FIRE, CORROSION, QUICKSAND = (EFFECT_NAMES.index(e) for e in ("fire", "corrosion", "quicksand"))


def W(name, kind, skill, pow_, **kw):
    return Weapon(name, kind, skill=skill, pow=pow_, **kw)


def one(target, *weapons, turns=1, attack_turns="all", **attacker):
    return Scenario(target, [Attacker("A", list(weapons), **attacker)], turns=turns, attack_turns=attack_turns)


def _f(xs):
    return [float(x) for x in xs]


def maintenance(res):
    """Kills of each round's maintenance phase (none without continuous effects)."""
    return np.zeros(res.turns) if res.rounds is None else res.rounds.maintenance_kill_weights


# ============================================================================ invariants
def check_turn_invariants(res, scen):
    """What must hold of any exact result over several rounds."""
    turns, rounds = scen.turns, scen.attack_rounds
    n0 = len(scen.attack_sequence())
    assert res.turns == turns and res.n_attacks == n0 * rounds
    assert res.slot_round == tuple(r for r in range(rounds) for _ in range(n0))
    assert res.slot_labels == round_labels([s.label for s in scen.attack_sequence()], rounds)
    assert res.slot_weights.shape == (n0 * rounds, SLOT_FIELDS) and np.all(res.slot_weights >= 0.0)
    pmf = res.damage_pmf
    assert np.all(pmf >= 0.0) and pmf.sum() == pytest.approx(1.0, abs=TOL)
    mk = maintenance(res)
    assert mk.shape == (turns,) and np.all(mk >= 0.0)
    kbt = res.kill_by_turn
    assert kbt.shape == (turns,)
    assert np.all(np.diff(kbt) >= -TOL)  # non-decreasing
    assert 0.0 <= kbt[0] and kbt[-1] <= 1.0
    assert res.kill == pytest.approx(kbt[-1], abs=TOL)
    assert res.damage_weights[-1] == pytest.approx(res.kill_weights.sum() + mk.sum(), abs=TOL)
    assert res.kill_after[-1] <= res.kill + TOL
    assert np.all(np.diff(res.kill_after) >= -TOL)
    assert [row["turn"] for row in res.turn_rows] == list(range(1, turns + 1))
    assert np.all(res.hit <= res.made + TOL) and np.all(res.crit <= res.hit + TOL)
    # an initial attack is made whenever the target is still standing
    standing = 1.0 - np.concatenate(([0.0], res.kill_after[:-1]))
    for i, slot in enumerate(scen.attack_sequence() * rounds):
        if i % n0 == 0 and i:  # a new round: the last maintenance phase's kills count too
            standing[i] = 1.0 - kbt[i // n0 - 1]
        if not slot.bought:
            assert res.made[i] == pytest.approx(standing[i], abs=1e-12), i
        else:
            assert res.made[i] <= standing[i] + 1e-12, i
    if not scen.continuous:
        assert res.rounds is None and not mk.any()
        return
    ew = res.rounds.effect_weights
    assert ew.shape == (turns, len(EFFECT_NAMES), EFFECT_FIELDS) and np.all(ew >= 0.0)
    assert np.all(ew[:, :, EFFECT_APPLIED] <= ew[:, :, EFFECT_PRESENT] + TOL)
    np.testing.assert_allclose(ew[:, :, EFFECT_APPLIED], ew[:, :, EFFECT_PRESENT] * 2 / 3, atol=TOL)
    np.testing.assert_allclose(mk, ew[:, FIRE, EFFECT_KILL] + ew[:, CORROSION, EFFECT_KILL], atol=TOL)
    # quicksand's kills are kills of attack slots
    per_round = np.zeros(turns)
    np.add.at(per_round, np.asarray(res.slot_round, dtype=int), res.kill_weights)
    assert np.all(ew[:, QUICKSAND, EFFECT_KILL] <= per_round + TOL)
    assert not ew[:, QUICKSAND, [EFFECT_PRESENT, EFFECT_APPLIED, EFFECT_AFTER]].any()
    # on at the end of a round: the target is standing; present at the next maintenance
    # phase: it was on at the end of the round before (nothing puts it on in between but an
    # attack)
    for t in range(turns):
        for k in (FIRE, CORROSION):
            assert ew[t, k, EFFECT_AFTER] <= 1.0 - kbt[t] + TOL
            if t + 1 < turns and t + 1 >= rounds:
                assert ew[t + 1, k, EFFECT_PRESENT] <= ew[t, k, EFFECT_AFTER] + TOL
    # a resisted effect is never on the target
    for k, name in ((FIRE, "fire"), (CORROSION, "corrosion")):
        if not scen.target.suffers(name):
            assert not ew[:, k].any(), name
    # damage marked at the end: what the attacks, the effects and hazards marked, less healing
    heals = scen.target.rapid_healing or scen.target.rules & {"tough", "tough_steady"}
    total = res.attack_damage_mean.sum() + ew[:, :, EFFECT_DAMAGE].sum()
    if heals:
        assert res.damage_mean <= total + 1e-9
    else:
        assert res.damage_mean == pytest.approx(total, abs=1e-9)
    if scen.target.card is not None:
        # after the last round's maintenance phase (with round ends)
        assert res.card.cripple_end_weights.shape == (len(res.card.letters),)
        for j, x in enumerate(res.card.letters):
            assert res.cripple[x] >= res.kill - TOL
            assert res.cripple[x] == pytest.approx(res.card.cripple_end_weights[j], abs=TOL)
    res.to_dict()  # every report figure can be computed


# ============================================================================ brute force
def check_against_bf(scen, **kw):
    """``exact_result`` against ``naive.bf_activation``, every figure, to 1e-12."""
    res = exact_result(scen)
    bf = bf_activation(scen, **kw)
    assert res.n_attacks == len(bf["made"])
    np.testing.assert_allclose(res.damage_pmf, _f(bf["damage"]), rtol=0, atol=TOL)
    np.testing.assert_allclose(res.kill_weights, _f(bf["kill_at"]), rtol=0, atol=TOL)
    np.testing.assert_allclose(maintenance(res), _f(bf["mkill"]), rtol=0, atol=TOL)
    np.testing.assert_allclose(res.kill_by_turn, _f(bf["kill_by_turn"]), rtol=0, atol=TOL)
    assert res.kill == pytest.approx(float(bf["kill"]), abs=TOL)
    for col, name in zip(BF_COLUMNS, BF_FIELDS):
        np.testing.assert_allclose(res.slot_weights[:, col], _f(bf[name]), rtol=TOL, atol=TOL, err_msg=name)
    np.testing.assert_allclose(res.slot_damage_sq, _f(bf["sq"]), rtol=TOL, atol=TOL)
    want = np.array([[_f(row) for row in per_round] for per_round in bf["effects"]])
    if scen.continuous:
        assert tuple(BF_EFFECTS) == EFFECT_NAMES
        ew = res.rounds.effect_weights
        np.testing.assert_allclose(ew[:, :, : want.shape[2]], want, rtol=0, atol=TOL)
        # a single model: the models an effect destroyed are its kills
        np.testing.assert_allclose(ew[:, :, EFFECT_DESTROYED], ew[:, :, EFFECT_KILL], rtol=0, atol=TOL)
    else:
        assert res.rounds is None and not want.any()
    if scen.target.card is not None:
        letters = res.card.letters
        assert tuple(bf["letters"]) == letters
        cr = np.array([_f(row) for row in bf["cripple"]]).reshape(res.n_attacks, len(letters))
        np.testing.assert_allclose(res.cripple_after, cr, rtol=0, atol=TOL)
        np.testing.assert_allclose([res.cripple[x] for x in letters], _f(bf["cripple_end"]), rtol=0, atol=TOL)
        for c in range(6):
            np.testing.assert_allclose(res.box_marked[c], _f(bf["box"][c]), rtol=0, atol=TOL, err_msg=f"column {c}")
    check_turn_invariants(res, scen)
    return res


def grid(*columns, **kw):
    return Target(kw.pop("defense", 12), kw.pop("arm", 14), grid=list(columns), **kw)


def spiral(*branches, **kw):
    return Target(kw.pop("defense", 12), kw.pop("arm", 14), spiral=list(branches), **kw)


#: Tiny cases (1 to 3 boxes, 1 or 2 attacks, up to 3 rounds): every rule of the section,
#: alone and meeting the others and the rest of the contract.
TINY = {
    "fire_three_rounds": one(Target(12, 14, boxes=3), W("Torch", "melee", 6, 10, rules={"fire"}), turns=3),
    "fire_first_round_only": one(Target(12, 14, boxes=3), W("Torch", "melee", 6, 10, rules={"fire"}),
                                 turns=3, attack_turns="first"),
    "corrosion_crit_and_knockdown_tough_focus": one(
        Target(12, 14, boxes=3, rules={"tough"}, focus=1),
        W("Acid", "ranged", 6, 9, rules={"critical_corrosion", "knockdown"}, attacks=2), turns=2),
    "both_effects_two_attackers": Scenario(
        Target(13, 15, boxes=3),
        [Attacker("P", [W("Flamer", "ranged", 6, 8, rules={"fire"})]),
         Attacker("C", [W("Spit", "ranged", 6, 8, rules={"corrosion", "critical_fire"})])], turns=2),
    "resistant_to_both": one(Target(12, 14, boxes=2, resist={"fire", "corrosion"}, terrain={"acid_bath", "burning_earth"}),
                             W("Torch", "melee", 6, 10, rules={"fire", "corrosion"}), turns=2),
    "starting_effects_fury_target": one(Target(14, 15, boxes=2, fury=1, effects={"fire", "corrosion"}),
                                        W("Axe", "melee", 5, 11), turns=3),
    "hazards_all_three_net": one(Target(12, 14, boxes=2, terrain={"quicksand", "burning_earth", "acid_bath"}),
                                 W("Net", "ranged", 6, None, rules={"knockdown"}), turns=3, attack_turns="first"),
    "quicksand_tough_steady_two_attacks": one(Target(13, 14, boxes=2, terrain={"quicksand"}, rules={"tough_steady"}),
                                              W("Hammer", "melee", 6, 10, rules={"critical_knockdown", "knockdown"},
                                                attacks=2), turns=2),
    "quicksand_focus_rapid_healing": one(Target(13, 14, boxes=2, terrain={"quicksand"}, focus=1, rapid_healing=1),
                                         W("Slam", "melee", 6, 11, rules={"knockdown"}), turns=2),
    "quicksand_starts_down_no_point": one(Target(13, 14, boxes=1, terrain={"quicksand"}, state={"knocked_down"}),
                                          W("Slam", "melee", 6, 5, rules={"knockdown"}), turns=2),
    "fire_armor_shield_upkeep_dispel_minus": one(
        Target(13, 11, boxes=3, shield=("L",), buckler=("R",), upkeep_arm=2, spell_arm=1, rules={"unyielding"}),
        W("Hex", "melee", 6, 6, rules={"fire", "dispel"}, arm_minus=2, effect_on="critical"), turns=2),
    "inert_shield_fire": one(Target(13, 13, boxes=2, state={"inert"}, shield=("L",), focus=2, effects={"fire"}),
                             W("Axe", "melee", 2, 9), turns=2),
    "grievous_tough_corrosion": one(Target(13, 14, boxes=2, rules={"tough"}, effects={"corrosion"}),
                                    W("Barb", "melee", 6, 9, rules={"grievous_wounds"}), turns=2),
    "bought_attacks_every_round": one(Target(13, 15, boxes=3, effects={"corrosion"}),
                                      W("Fist", "melee", 6, 11, rules={"fire"}), turns=2, focus=1,
                                      spend=Spend(buy_attacks=True, boost_damage="auto")),
    "no_continuous_three_rounds": one(Target(13, 14, boxes=3, rules={"tough"}, focus=1),
                                      W("Axe", "melee", 6, 10, rules={"knockdown"}, def_minus=1), turns=3),
    "grid_fire_cortex_power_field": one(grid("C", ".", "", "G", "", "", focus=1, arm=16),
                                        W("Torch", "melee", 6, 9, rules={"fire"}), turns=2),
    "grid_quicksand_corrosion_shield": one(grid("L", ".", "", "", "", "", terrain={"quicksand"}, shield=("L",),
                                                effects={"corrosion"}),
                                           W("Slam", "melee", 6, 8, rules={"knockdown"}), turns=2),
    "spiral_quicksand_corrosion": one(spiral("B", "M", "", "S", "", "", effects={"corrosion"}, terrain={"quicksand"}),
                                      W("Torch", "melee", 6, 10, rules={"knockdown"}), turns=3),
    "spiral_acid_first_only": one(spiral("B", "", "S", "", "", "", terrain={"acid_bath"}),
                                  W("Bite", "melee", 6, 9, rules={"critical_knockdown"}), turns=3,
                                  attack_turns="first"),
    "grid_rapid_healing_2_fire": one(grid("L", ".", "", "", "", "", rapid_healing=2, effects={"fire"}, arm=18),
                                     W("Claw", "melee", 6, 12), turns=2),
}


@pytest.mark.parametrize("name", sorted(TINY))
def test_tiny_matches_brute_force(name):
    check_against_bf(TINY[name])


def test_one_round_without_effects_is_unchanged():
    """turns = 1 and nothing continuous: the Result is the one-round one."""
    scen = one(Target(13, 14, boxes=3), W("Axe", "melee", 6, 10, attacks=2))
    res = check_against_bf(scen)
    assert res.turns == 1 and res.rounds is None
    assert res.slot_labels == tuple(s.label for s in scen.attack_sequence()) and res.slot_round == (0, 0)
    assert res.kill == pytest.approx(res.kill_weights.sum(), abs=0)


# ------------------------------------------------------------------ random tiny scenarios
_HAZARDS = ["acid_bath", "burning_earth", "quicksand"]
_EFFECT_RULES = ["fire", "corrosion", "critical_fire", "critical_corrosion", "knockdown", "critical_knockdown",
                 "grievous_wounds", "dispel"]


@st.composite
def tiny_turns(draw, field=None):
    """1 or 2 attacks a round over 1 to 3 rounds, on a track of 1 to 3 boxes (or a card of
    2 or 3), with continuous effects, hazards and the target rules that meet them."""
    kind = draw(st.sampled_from(["melee", "ranged"]))
    n_attacks = draw(st.integers(1, 2))
    pow_ = draw(st.one_of(st.none(), st.integers(6, 12)))
    weapon = W("W", kind, draw(st.integers(4, 8)), pow_, attacks=n_attacks,
               rules=set(draw(st.sets(st.sampled_from(_EFFECT_RULES), max_size=3))),
               arm_minus=draw(st.integers(0, 2)))
    turns = draw(st.integers(1, 3))
    if turns == 3 and n_attacks == 2:
        turns = 2
    power = draw(st.sampled_from(["focus", "fury"]))
    card = draw(st.sampled_from(["track", "track", "grid", "spiral"]))
    kw = dict(
        resist=draw(st.sets(st.sampled_from(["fire", "corrosion"]), max_size=1)),
        terrain=draw(st.sets(st.sampled_from(_HAZARDS), max_size=2)),
        rules=draw(st.sets(st.sampled_from(["tough", "tough_steady"]), max_size=1)),
        state=draw(st.sets(st.sampled_from(["knocked_down", "inert"]), max_size=1)),
        shield=draw(st.sampled_from([(), ("L",)])) if card != "spiral" else (),  # no locations
        upkeep_arm=draw(st.integers(0, 2)),
        rapid_healing=draw(st.integers(0, 1)),
        power_field=field or draw(st.sampled_from(["never", "lethal"])),
        **{power: draw(st.integers(0, 1))},
    )
    kw["effects"] = draw(st.sets(st.sampled_from(["fire", "corrosion"]), max_size=2)) - kw["resist"]
    defense, arm = draw(st.integers(8, 15)), draw(st.integers(11, 17))
    if card == "track":
        target = Target(defense, arm, boxes=draw(st.integers(1, 3)), **kw)
    elif card == "grid":
        target = Target(defense, arm, grid=draw(st.sampled_from([["L", ".", "", "", "", ""],
                                                                  ["C", "", "", "G", "", ""],
                                                                  ["", "M", "", "", ".", "L"]])), **kw)
    else:
        target = Target(defense, arm, spiral=draw(st.sampled_from([["B", "", "M", "", "", ""],
                                                                    ["", "S", "", "", "", "B"]])), **kw)
    return Scenario(target, [Attacker("A", [weapon], **{draw(st.sampled_from(["focus", "fury"])):
                                                        draw(st.integers(0, 1))})],
                    turns=turns, attack_turns=draw(st.sampled_from(["all", "first"])))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_turns())
def test_property_matches_brute_force(scen):
    check_against_bf(scen)


# ------------------------------------------------------------------ decisions by induction
OPTIMAL = {
    "field_optimal_fire": one(Target(14, 14, boxes=3, focus=2, power_field="optimal", effects={"fire"}),
                              W("Axe", "melee", 6, 11), turns=2),
    "field_optimal_quicksand": one(Target(12, 14, boxes=2, focus=1, power_field="optimal", terrain={"quicksand"}),
                                   W("Slam", "melee", 6, 11, rules={"knockdown", "corrosion"}), turns=2),
    "field_optimal_grid_corrosion": one(grid("G", ".", "", "", "", "", focus=1, power_field="optimal",
                                             effects={"corrosion"}),
                                        W("Fist", "melee", 6, 11), turns=2),
}


@pytest.mark.parametrize("name", sorted(OPTIMAL))
def test_optimal_power_field_over_rounds_matches_brute_force(name):
    res = check_against_bf(OPTIMAL[name])
    # no fixed policy does better for the target
    for field in ("never", "lethal"):
        scen = OPTIMAL[name]
        other = dataclasses.replace(scen, target=dataclasses.replace(scen.target, power_field=field))
        assert res.kill <= exact_result(other).kill + TOL, field


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_turns(field="optimal"))
def test_property_optimal_field_matches_brute_force(scen):
    check_against_bf(scen)


@pytest.mark.parametrize("objective", ["kill", "damage"])
def test_optimal_value_over_rounds_matches_brute_force(objective):
    scen = Scenario(Target(13, 14, boxes=3, effects={"corrosion"}, terrain={"quicksand"}),
                    [Attacker("A", [W("Slam", "melee", 6, 10, rules={"knockdown", "fire"})], focus=1)],
                    turns=2)
    want = bf_activation(scen, attackers="optimal", objective=objective)["value"]
    assert optimal_value(scen, objective) == pytest.approx(float(want), abs=TOL * 3)
    scen = one(grid("L", ".", "", "", "", "", effects={"fire"}), W("Fist", "melee", 6, 10), turns=2, focus=1)
    for obj in (objective, "cripple:L"):
        want = bf_activation(scen, attackers="optimal", objective=obj)["value"]
        assert optimal_value(scen, obj) == pytest.approx(float(want), abs=TOL * 3)


# ============================================================================ worked examples
def geometric(a, r, t):
    """``a + a r + ... + a r**(t - 1)``."""
    return a * (1 - r**t) / (1 - r)


def test_fire_alone_kill_by_round():
    """Fire on a 1-box target from the start, no attack that does anything: each
    maintenance phase it expires (1/3, for good) or applies (2/3), and its 2d6 + 12 against
    ARM 22 deals a point on 11+ (q = 3/36). Killed by round t:
    ``sum_k (2/3 q) r**(k-1)`` with ``r = 2/3 (1 - q)`` (it applied without killing)."""
    q = 3 / 36
    assert damage_pmf(2, 12, 22)[1:].sum() == pytest.approx(q)
    res = exact_result(one(Target(10, 22, boxes=1, effects={"fire"}), DUD, turns=5, attack_turns="first"))
    want = [geometric(2 / 3 * q, 2 / 3 * (1 - q), t) for t in range(1, 6)]
    np.testing.assert_allclose(res.kill_by_turn, want, atol=TOL)
    np.testing.assert_allclose(maintenance(res), np.diff([0] + want), atol=TOL)
    present = [(2 / 3 * (1 - q)) ** k for k in range(5)]
    np.testing.assert_allclose(res.effect_figure("fire", EFFECT_PRESENT), present, atol=TOL)
    np.testing.assert_allclose(res.effect_figure("fire", EFFECT_APPLIED), np.array(present) * 2 / 3, atol=TOL)
    np.testing.assert_allclose(res.effect_figure("fire", EFFECT_AFTER), np.array(present) * 2 / 3 * (1 - q),
                               atol=TOL)
    assert not res.effect_figure("corrosion", EFFECT_PRESENT).any()


def test_fire_weapon_every_round_or_first_only():
    """An automatic hit (melee against a knocked-down target) with a Fire weapon sets it on
    fire every round: killed by round t: ``1 - (1 - 2/3 q)**t``. Attacking in the first
    round only, the fire goes on only while it does not expire (as above)."""
    q = 3 / 36
    target = Target(10, 22, boxes=1, state={"knocked_down"})
    torch = W("Torch", "melee", 0, None, rules={"fire"})
    every = exact_result(one(target, torch, turns=4))
    first = exact_result(one(target, torch, turns=4, attack_turns="first"))
    np.testing.assert_allclose(every.kill_by_turn, [1 - (1 - 2 / 3 * q) ** t for t in range(1, 5)], atol=TOL)
    np.testing.assert_allclose(first.kill_by_turn, [geometric(2 / 3 * q, 2 / 3 * (1 - q), t) for t in range(1, 5)],
                               atol=TOL)
    assert every.kill_by_turn[0] == pytest.approx(first.kill_by_turn[0], abs=TOL)
    assert every.n_attacks == 4 and first.n_attacks == 1
    assert every.slot_labels[1] == "R2 · A / Torch #1" and first.slot_labels == ("A / Torch #1",)
    assert every.slot_round == (0, 1, 2, 3)
    np.testing.assert_allclose(every.effect_figure("fire", EFFECT_PRESENT), [1, 1 - 2 / 3 * q, (1 - 2 / 3 * q) ** 2,
                                                                             (1 - 2 / 3 * q) ** 3], atol=TOL)
    # the attack slot of round t is made when the target survived the rounds before
    np.testing.assert_allclose(every.made, [(1 - 2 / 3 * q) ** t for t in range(4)], atol=TOL)


def test_corrosion_one_point_each_round():
    """Corrosion deals exactly 1 point with probability 2/3 each round while on: a 3-box
    target dies in round 3 if it applied three times in a row."""
    res = exact_result(one(Target(10, 20, boxes=3, effects={"corrosion"}), DUD, turns=5, attack_turns="first"))
    np.testing.assert_allclose(res.kill_by_turn, [0, 0, 8 / 27, 8 / 27, 8 / 27], atol=TOL)
    np.testing.assert_allclose(res.effect_figure("corrosion", EFFECT_DAMAGE),
                               [2 / 3, 4 / 9, 8 / 27, 0, 0], atol=TOL)
    np.testing.assert_allclose(res.effect_figure("corrosion", EFFECT_KILL), [0, 0, 8 / 27, 0, 0], atol=TOL)
    np.testing.assert_allclose(res.damage_pmf, [1 / 3, 2 / 9, 4 / 27, 8 / 27], atol=TOL)


def test_one_effect_of_each_type():
    """Two Fire weapons hitting: one fire (a second one changes nothing): present 1,
    applied 2/3 and one fire roll, not two."""
    q = damage_pmf(2, 12, 20)[1:].sum()
    scen = Scenario(Target(10, 20, boxes=1, state={"knocked_down"}),
                    [Attacker("A", [W("Torch", "melee", 0, None, rules={"fire"})]),
                     Attacker("B", [W("Brand", "melee", 0, None, rules={"fire", "critical_fire"})])])
    res = check_against_bf(scen)
    assert res.effect_figure("fire", EFFECT_PRESENT)[0] == pytest.approx(1.0, abs=TOL)
    assert res.kill == pytest.approx(2 / 3 * q, abs=TOL)


def test_resistant_target_never_gets_the_effect():
    for rules in ({"fire"}, {"critical_fire"}):
        res = exact_result(one(Target(5, 16, boxes=2, resist={"fire"}, terrain={"burning_earth"}),
                               W("Torch", "melee", 20, None, rules=rules, attacks=2), turns=3))
        assert res.kill == 0.0
        assert not res.rounds.effect_weights[:, FIRE].any()


def test_critical_fire_only_on_critical_hits():
    """Critical Fire sets the target on fire only on a critical hit."""
    _, _, crit = attack_outcome(2, 6, 12)
    res = check_against_bf(one(Target(12, 30, boxes=2), W("Brand", "melee", 6, 5, rules={"critical_fire"})))
    assert res.effect_figure("fire", EFFECT_PRESENT)[0] == pytest.approx(crit, abs=TOL)
    assert res.effect_figure("fire", EFFECT_APPLIED)[0] == pytest.approx(crit * 2 / 3, abs=TOL)
    assert res.effect_figure("fire", EFFECT_AFTER)[0] == pytest.approx(crit * 2 / 3, abs=TOL)


def test_acid_bath_gives_corrosion_each_activation():
    """In an acid bath the target gains Corrosion in its activation, every round: on a
    1-box target from round 2 on it deals its point with 2/3 each round."""
    res = exact_result(one(Target(10, 20, boxes=1, terrain={"acid_bath"}), DUD, turns=4, attack_turns="first"))
    np.testing.assert_allclose(res.kill_by_turn, [0, 2 / 3, 8 / 9, 26 / 27], atol=TOL)
    np.testing.assert_allclose(res.effect_figure("corrosion", EFFECT_PRESENT), [0, 1, 1 / 3, 1 / 9], atol=TOL)
    np.testing.assert_allclose(res.effect_figure("corrosion", EFFECT_AFTER), [1, 1 / 3, 1 / 9, 1 / 27], atol=TOL)


def test_burning_earth_goes_out():
    """A burning earth goes out on a d6 of 1-2 at the end of each player's turn; in the
    target's activation, while it burns, the target gains Fire. ARM 40: fire never
    damages. Fire on at the end of round 1: the earth burned after one roll (2/3); of
    round 2: it was gained in round 1 and did not expire, or expired and the earth
    still burned after two more rolls: ``2/3 (2/3 + 1/3 (2/3)**2)``."""
    res = exact_result(one(Target(10, 40, boxes=1, terrain={"burning_earth"}), DUD, turns=3, attack_turns="first"))
    after = res.effect_figure("fire", EFFECT_AFTER)
    assert after[0] == pytest.approx(2 / 3, abs=TOL)
    assert after[1] == pytest.approx(2 / 3 * (2 / 3 + 1 / 3 * (2 / 3) ** 2), abs=TOL)
    np.testing.assert_allclose(res.effect_figure("fire", EFFECT_PRESENT)[:2], [0, 2 / 3], atol=TOL)
    assert res.kill == 0.0


def test_quicksand_point_on_knockdown():
    """In quicksand a hit that knocks the target down deals it 1 point at once: a 1-box
    target dies at the first net that hits (35/36); the second net finds it knocked down
    (no more point) unless the first one missed. Tough cannot save a knocked-down target;
    Tough Steady can (then no further point: it is already down)."""
    net = W("Net", "ranged", 20, None, rules={"knockdown"}, attacks=2)
    h = 35 / 36
    res = check_against_bf(one(Target(10, 10, boxes=1, terrain={"quicksand"}), net))
    np.testing.assert_allclose(res.kill_weights, [h, (1 - h) * h], atol=TOL)
    np.testing.assert_allclose(res.effect_figure("quicksand", EFFECT_KILL), [h + (1 - h) * h], atol=TOL)
    np.testing.assert_allclose(res.effect_figure("quicksand", EFFECT_DAMAGE), [h + (1 - h) * h], atol=TOL)
    assert not res.attack_damage_mean.any() and not res.tough_saves.any()
    tough = exact_result(one(Target(10, 10, boxes=1, terrain={"quicksand"}, rules={"tough"}), net))
    assert tough.kill == pytest.approx(res.kill, abs=TOL)
    steady = check_against_bf(one(Target(10, 10, boxes=1, terrain={"quicksand"}, rules={"tough_steady"}), net))
    np.testing.assert_allclose(steady.kill_weights, [h * 2 / 3, (1 - h) * h * 2 / 3], atol=TOL)
    # not in quicksand: nothing
    assert exact_result(one(Target(10, 10, boxes=1), net)).kill == 0.0


def test_quicksand_no_point_after_a_tough_save():
    """A Tough save knocks the target down first: the hit's knockdown then changes nothing,
    no quicksand point (docs/activation.md: only knockdowns by attacks)."""
    slam = W("Slam", "melee", 20, 20, rules={"knockdown"})  # any hit disables a 2-box target
    res = check_against_bf(one(Target(5, 10, boxes=2, terrain={"quicksand"}, rules={"tough"}), slam))
    h = 35 / 36
    assert res.tough_saves[0] == pytest.approx(h / 3, abs=TOL)
    assert res.kill == pytest.approx(h * 2 / 3, abs=TOL)
    assert not res.rounds.effect_weights[0, QUICKSAND].any()


def test_tough_against_corrosion():
    """A 1-box Tough target with Corrosion: each round it expires (1/3) or applies and
    kills unless the Tough roll saves it (2/3 * 2/3 = 4/9); saved, it stands up again in
    its activation. Killed by round t: ``sum 4/9 (2/9)**(k-1)``."""
    res = exact_result(one(Target(10, 20, boxes=1, rules={"tough"}, effects={"corrosion"}), DUD, turns=4,
                           attack_turns="first"))
    np.testing.assert_allclose(res.kill_by_turn, [geometric(4 / 9, 2 / 9, t) for t in range(1, 5)], atol=TOL)


def test_knocked_down_target_cannot_roll_tough_in_maintenance():
    """Knocked down by an attack, the target is still down in the maintenance phase (it
    stands up in its activation): no Tough roll."""
    net = W("Net", "ranged", 20, None, rules={"knockdown"})
    res = exact_result(one(Target(10, 20, boxes=1, rules={"tough"}, effects={"corrosion"}), net))
    h = 35 / 36
    assert res.kill == pytest.approx(h * 2 / 3 + (1 - h) * 2 / 3 * 2 / 3, abs=TOL)


def test_power_field_against_fire():
    """A 1-box target with 1 focus (lethal) against fire 2d6 + 12 - 18: it spends its focus
    on 1 to 5 points (5 fewer: none), and dies only to a 12 (6 points); its focus is back
    each round. Killed by round t: ``sum (2/3 /36) (2/3 35/36)**(k-1)``."""
    res = exact_result(one(Target(10, 18, boxes=1, focus=1, effects={"fire"}), DUD, turns=3, attack_turns="first"))
    np.testing.assert_allclose(res.kill_by_turn, [geometric(2 / 3 / 36, 2 / 3 * 35 / 36, t) for t in range(1, 4)],
                               atol=TOL)
    # fury does not stop continuous effects
    fury = exact_result(one(Target(10, 20, boxes=1, fury=3, effects={"corrosion"}), DUD))
    assert fury.kill == pytest.approx(2 / 3, abs=TOL)
    # nor does a never-spending power field
    never = exact_result(one(Target(10, 18, boxes=1, focus=1, power_field="never", effects={"fire"}), DUD))
    assert never.kill == pytest.approx(2 / 3 * damage_pmf(2, 12, 18)[1:].sum(), abs=TOL)


def test_fire_armor_is_not_an_attacks():
    """Fire's ARM: base, spells and upkeep (not once dispelled this round), Shield and
    Buckler, less -ARM effects; no Unyielding or Carapace."""
    t = Target(10, 14, boxes=1, rules={"unyielding", "carapace"}, shield=("L",), spell_arm=1, upkeep_arm=2,
               effects={"fire"})
    res = exact_result(one(t, DUD))
    assert res.kill == pytest.approx(2 / 3 * damage_pmf(2, 12, 14 + 2 + 1 + 2)[1:].sum(), abs=TOL)
    # a dispelling hit with a -ARM effect: upkeep gone and 2 less, this round only
    hex_ = W("Hex", "melee", 0, None, rules={"dispel"}, arm_minus=2)
    res = exact_result(one(dataclasses.replace(t, state={"knocked_down"}), hex_, turns=2))
    per_round = 2 / 3 * damage_pmf(2, 12, 14 + 2 + 1 - 2)[1:].sum()
    np.testing.assert_allclose(res.effect_figure("fire", EFFECT_KILL)[0], per_round, atol=TOL)


def test_attacks_reset_each_round():
    """Each round the target stands up, -DEF effects end and the attacker has its points
    again: the same attack in every round has the same odds if the target survives."""
    scen = one(Target(14, 30, boxes=5, effects={"corrosion"}), W("Slam", "melee", 6, 5, rules={"knockdown"},
                                                                   def_minus=2), W("Fist", "melee", 6, 5),
               turns=3, focus=1, spend=Spend(boost_attack="always", buy_attacks=False))
    res = exact_result(scen)
    made = res.made
    for t in range(3):
        assert res.hit[2 * t] / made[2 * t] == pytest.approx(res.hit[0], abs=1e-12)
        assert res.hit[2 * t + 1] / made[2 * t + 1] == pytest.approx(res.hit[1], abs=1e-12)
        assert res.boost_attack_rate[2 * t] == pytest.approx(made[2 * t], abs=1e-12)


def test_kill_after_counts_earlier_maintenance_kills():
    res = exact_result(case("fire_alone"))
    n0 = 1
    for i, r in enumerate(res.slot_round):
        before = maintenance(res)[:r].sum()
        assert res.kill_after[i] == pytest.approx(res.kill_weights[: i + 1].sum() + before, abs=TOL)
    assert n0 == len(case("fire_alone").attack_sequence())


# ============================================================================ labels
def test_round_labels():
    assert round_label("A / Gun #1", 0, 1) == "A / Gun #1"
    assert round_label("A / Gun #1", 2, 3) == "R3 · A / Gun #1"
    assert round_labels(["x", "y"], 2) == ("R1 · x", "R1 · y", "R2 · x", "R2 · y")
    assert round_labels(["x"], 1) == ("x",)


def test_simulate_exact_names_the_slots_of_every_round():
    scen = Scenario(Target(12, 14, boxes=4, effects={"fire"}),
                    [Attacker("A", [W("Gun", "ranged", 6, 10)]), Attacker("B", [W("Axe", "melee", 6, 10)])],
                    turns=2)
    res = simulate(scen, method="exact")
    assert res.slot_labels == ("R1 · A / Gun #1", "R1 · B / Axe #1", "R2 · A / Gun #1", "R2 · B / Axe #1")
    assert res.slot_attacker == (0, 1, 0, 1)


# ============================================================================ the named cases
@pytest.mark.parametrize("name", [name for name, _ in CASES])
def test_case_invariants(name):
    check_turn_invariants(exact_result(case(name)), case(name))


def test_cases_are_small_exact_fast_and_cover_the_section():
    assert len(CASES) >= 14 and len({name for name, _ in CASES}) == len(CASES)
    seen = set()
    for name, scen in CASES:
        t = scen.target
        assert t.power_field != "optimal", name  # the kernel cannot do it
        check_exact_applicable(scen)
        exact_result(scen)
        seen.add(f"turns:{scen.turns}")
        seen.add(f"attack_turns:{scen.attack_turns}")
        seen |= {f"hazard:{h}" for h in t.hazards} | {f"start:{e}" for e in t.effects}
        seen |= {f"resist:{r}" for r in t.resist} | {f"target:{r}" for r in t.rules}
        seen.add(t.capacity)
        if t.power_points:
            seen.add(f"field:{t.power_kind}")
        for a in scen.attackers:
            for w in a.weapons:
                seen |= {f"rule:{r}" for r in w.rules}
    want = {f"turns:{k}" for k in range(1, 6)} | {"attack_turns:all", "attack_turns:first"}
    want |= {"hazard:acid_bath", "hazard:burning_earth", "hazard:quicksand", "start:fire", "start:corrosion"}
    want |= {"resist:fire", "resist:corrosion", "target:tough", "target:tough_steady", "grid", "spiral", "track"}
    want |= {"field:focus", "field:fury"}
    want |= {f"rule:{r}" for r in ("fire", "corrosion", "critical_fire", "critical_corrosion", "knockdown",
                                   "critical_knockdown", "grievous_wounds", "dispel")}
    assert want <= seen, sorted(want - seen)


# ============================================================================ limits
def test_limits_over_rounds():
    # a big grid, Rapid Healing 3 (a mark stack) and many rounds: the configurations explode
    heavy = Target(13, 16, grid=["..L...", "..LL..", "..MC..", "..GM..", "..RR..", "..R..."], rapid_healing=3,
                   effects={"fire"})
    scen = one(heavy, W("Fist", "melee", 6, 14, attacks=3), turns=20)
    with pytest.raises(ExactNotApplicable, match="states|transitions"):
        check_exact_applicable(scen)
    # the optimal power field looks ahead through every step of every round
    many = one(Target(12, 14, boxes=5, focus=1, power_field="optimal", effects={"fire"}),
               W("Gun", "ranged", 6, 10, attacks=10), turns=20)
    with pytest.raises(ExactNotApplicable, match="backward induction"):
        exact_result(many)
    # forward propagation alone is fine
    fine = one(Target(12, 14, boxes=5, focus=1, effects={"fire"}, power_field="lethal"),
               W("Gun", "ranged", 6, 10, attacks=10), turns=20)
    assert exact_result(fine).kill_by_turn.shape == (20,)
