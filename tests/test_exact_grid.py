"""The exact engine on damage grids and life spirals (docs/activation.md, last section).

Against the brute-force oracle (``naive.bf_activation``, every box marked one by one and every
column d6 enumerated) to 1e-12 on tiny named and random grids and spirals; worked examples
computed by hand (the column roll, overflow and wrap, full columns, "damage to X", the
feedback examples of docs/rules.md 3 / seed 000, LIFO healing); invariants; and every named case
of tests/grid_cases.py (which the Monte Carlo kernel is checked against).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from grid_cases import CASES, HEAVY_GRID
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from naive import BF_COLUMNS, BF_FIELDS, bf_activation

from mathhammer import ExactNotApplicable, InputError, simulate
from mathhammer.exact import check_exact_applicable, exact_result, optimal_value
from mathhammer.exact.bounds import prepare
from mathhammer.exact.forward import propagate
from mathhammer.exact.induction import Engine
from mathhammer.result import SLOT_FIELDS
from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon

TOL = 1e-12
W = Weapon


def _f(xs):
    return [float(x) for x in xs]


def grid(*columns, **kw) -> Target:
    kw.setdefault("defense", 12)
    kw.setdefault("arm", 12)
    return Target(grid=list(columns), **kw)


def spiral(*branches, **kw) -> Target:
    kw.setdefault("defense", 12)
    kw.setdefault("arm", 12)
    return Target(spiral=list(branches), **kw)


def one(target, *weapons, **attacker) -> Scenario:
    return Scenario(target, [Attacker("A", list(weapons), **attacker)])


def check_card_invariants(res, scen):
    """What must hold of any exact result on a grid or spiral."""
    t = scen.target
    n = scen.n_attacks
    pmf = res.damage_pmf
    assert pmf.shape == (t.boxes + 1,)
    assert np.all(pmf >= 0.0) and pmf.sum() == pytest.approx(1.0, abs=TOL)
    assert res.damage_weights[-1] == pytest.approx(res.kill_weights.sum(), abs=TOL)
    assert res.slot_weights.shape == (n, SLOT_FIELDS) and np.all(res.slot_weights >= 0.0)
    assert np.all(res.hit <= res.made) and np.all(res.crit <= res.hit)
    assert res.card.letters == t.letters
    cr = res.cripple_after
    assert cr.shape == (n, len(t.letters))
    assert np.all(cr >= 0.0) and np.all(cr <= 1.0)
    kill_after = res.kill_after
    for j, x in enumerate(t.letters):
        # a kill marks every box: every letter is crippled from then on
        assert np.all(cr[:, j] >= kill_after - TOL), x
        assert res.cripple[x] == cr[-1, j]
    assert len(res.card.box_weights) == 6
    boxes_of = {x: [] for x in t.letters}
    for c, col in enumerate(t.card):
        marked = res.box_marked[c]
        assert marked.shape == (len(col),)
        assert np.all(marked >= res.kill - TOL) and np.all(marked <= 1.0)
        for r, ch in enumerate(col):
            if ch != ".":
                boxes_of[ch].append(marked[r])
    # the boxes marked, summed, are the damage marked
    total = sum(float(m.sum()) for m in res.box_marked)
    assert total == pytest.approx(res.damage_mean, abs=1e-9)
    for x, probs in boxes_of.items():
        # crippled: every box marked
        assert res.cripple[x] <= min(probs) + TOL, x
        if len(probs) == 1:
            assert res.cripple[x] == pytest.approx(probs[0], abs=TOL), x
    weapons = [w for a in scen.attackers for w in a.weapons]
    plain = not any(w.damage_to in t.letters for w in weapons)
    heals = t.rapid_healing or t.rules & {"tough", "tough_steady"}
    if plain and not heals:
        for c, col in enumerate(t.card):
            # marked top down, never healed: a box is marked only below marked boxes
            assert np.all(np.diff(res.box_marked[c]) <= TOL), c
            # crippled systems stay crippled
        assert np.all(np.diff(cr, axis=0) >= -TOL)
        for x in t.letters:
            cols = {c for c, col in enumerate(t.card) if x in col}
            if len(cols) == 1:  # all its boxes in one column: crippled when its lowest is marked
                c = cols.pop()
                low = t.card[c].rindex(x)
                assert res.cripple[x] == pytest.approx(res.box_marked[c][low], abs=TOL), x


def check_against_bf(scen, **kw):
    """``exact_result`` against ``naive.bf_activation``, every figure, to 1e-12."""
    res = exact_result(scen)
    bf = bf_activation(scen, **kw)
    np.testing.assert_allclose(res.damage_pmf, _f(bf["damage"]), rtol=0, atol=TOL)
    np.testing.assert_allclose(res.kill_weights, _f(bf["kill_at"]), rtol=0, atol=TOL)
    for col, name in zip(BF_COLUMNS, BF_FIELDS):
        np.testing.assert_allclose(res.slot_weights[:, col], _f(bf[name]), rtol=TOL, atol=TOL, err_msg=name)
    np.testing.assert_allclose(res.slot_damage_sq, _f(bf["sq"]), rtol=TOL, atol=TOL)
    assert tuple(bf["letters"]) == res.card.letters
    want = np.array([_f(row) for row in bf["cripple"]]).reshape(res.n_attacks, len(res.card.letters))
    np.testing.assert_allclose(res.cripple_after, want, rtol=0, atol=TOL)
    for c in range(6):
        np.testing.assert_allclose(res.box_marked[c], _f(bf["box"][c]), rtol=0, atol=TOL, err_msg=f"column {c}")
    check_card_invariants(res, scen)
    return res


# ============================================================================ brute force
#: Tiny grids and spirals (2 to 6 boxes, 2 or 3 attacks): every rule of the last section of
#: docs/activation.md, alone and meeting the others.
TINY = {
    "overflow_wrap": one(grid("L", "", ".", "", "M", "."), W("Fist", "melee", 6, 11, attacks=2)),
    "empty_columns_one_system": one(grid("", "", "L.", "", "", "."), W("Gun", "ranged", 6, 9, attacks=2)),
    "damage_to_grid": one(grid(".L", "", "", "M", "", "."), W("Hook", "melee", 6, 9, damage_to="L", attacks=2)),
    "damage_to_full_then_rolled": one(grid("C", ".", "", "", ".", ""),
                                      W("Probe", "melee", 6, 7, damage_to="C", extra_damage_dice=-1, attacks=3)),
    "damage_to_spiral": one(spiral("B", "MS", "", "S", "", "M"),
                            W("Spike", "arcane", 6, 9, damage_to="S", attacks=2)),
    "shield_and_buckler_lost": one(grid("L", "R", "", ".", "", ".", shield=("L",), buckler=("R",)),
                                   W("Fist", "melee", 6, 10, attacks=3)),
    "movement_base_def_5": Scenario(grid("M", ".", "", ".", "", ".", defense=15, arm=10),
                                    [Attacker("A", [W("Lash", "ranged", 8, 10, damage_to="M")]),
                                     Attacker("B", [W("Claw", "melee", 4, 10, attacks=2)])]),
    "power_field_generator": one(grid("G", "", ".", "", "G", ".", focus=1), W("Axe", "melee", 6, 12, attacks=3)),
    "cortex_focus_lost": one(grid("C", ".", "", "", ".", "", focus=2),
                             W("Lance", "melee", 6, 13, damage_to="C"), W("Fist", "melee", 6, 14)),
    "tough_lifo": one(grid("L", "", "M", "", "", ".", rules={"tough"}), W("Blade", "melee", 6, 11, attacks=3)),
    "rapid_healing_1": one(grid("L.", "", "", "M", "", "", rapid_healing=1), W("Blade", "melee", 6, 10, attacks=3)),
    "rapid_healing_2_order": one(grid("L", "", "M", "", ".", ".", rapid_healing=2),
                                 W("Claw", "melee", 6, 10, attacks=3)),
    "tough_and_rapid_healing_2": one(grid("L", "C", "", ".", "", "", rules={"tough"}, rapid_healing=2, focus=1),
                                     W("Claw", "melee", 6, 11, attacks=3)),
    "spiral_fury_tough": one(spiral("B", "M", "", "S", "", "B", rules={"tough"}, fury=1),
                             W("Claws", "melee", 6, 12, attacks=2)),
    "warjack_left_arm_weapon": one(grid("L", "", ".", "", "", "R"),
                                   W("Shield", "melee", 6, 11, location="L", extra_damage_dice=1),
                                   W("Axe", "melee", 6, 11, location="R"), crippled={"L"}, focus=1),
    "warjack_head_weapon_cortex": one(grid("", "H", ".", "", "C", ""),
                                      W("Horn", "melee", 6, 11, location="H", boosted_attack=True),
                                      W("Fist", "melee", 6, 10), crippled={"H", "C"}, focus=2),
    "warbeast_body_mind_spirit": Scenario(spiral("", "BM", "", "S", "", "B"),
                                          [Attacker("A", [W("Bite", "melee", 6, 12)], model="warbeast",
                                                    crippled={"B", "M"}, force=1),
                                           Attacker("B", [W("Gore", "melee", 6, 12)], model="warbeast",
                                                    crippled={"S"}, force=2)]),
    "knockdown_multi_attacker": Scenario(grid("L", ".", "", "M", "", "", defense=15),
                                         [Attacker("N", [W("Net", "ranged", 8, None, rules={"knockdown"})]),
                                          Attacker("J", [W("Fist", "melee", 4, 11, attacks=2)])]),
    "inert_with_shield_and_focus": one(grid("L", "G", "", ".", "", "", state={"inert"}, shield=("L",), focus=1),
                                       W("Mace", "melee", 3, 11, attacks=2)),
    "arm_minus_and_dispel": one(grid("L", ".", "", "R", "", "", upkeep_arm=2, shield=("R",)),
                                W("Hex", "melee", 6, 9, arm_minus=2, rules={"dispel"}), W("Fist", "melee", 6, 10)),
}


@pytest.mark.parametrize("name", sorted(TINY))
def test_tiny_matches_brute_force(name):
    check_against_bf(TINY[name])


def test_optimal_power_field_on_a_grid_matches_brute_force():
    scen = one(grid("G", "", ".", "C", "", ".", focus=2, power_field="optimal"),
               W("Axe", "melee", 6, 12, attacks=2))
    res = check_against_bf(scen)
    lethal = exact_result(one(grid("G", "", ".", "C", "", ".", focus=2), W("Axe", "melee", 6, 12, attacks=2)))
    assert res.kill <= lethal.kill + TOL


@pytest.mark.parametrize("objective", ["kill", "damage", "cripple:L", "cripple:M"])
def test_optimal_value_on_a_grid_matches_brute_force(objective):
    scen = one(grid("L", "", ".", "M", "", "", shield=("L",)), W("Fist", "melee", 6, 11), focus=1)
    want = bf_activation(scen, attackers="optimal", objective=objective)["value"]
    got = optimal_value(scen, objective)
    assert got == pytest.approx(float(want), abs=TOL)
    # no fixed policy does better
    for spend in (Spend(), Spend(boost_attack="always", buy_attacks=False), Spend(boost_damage="always")):
        fixed = exact_result(one(scen.target, W("Fist", "melee", 6, 11), focus=1, spend=spend))
        assert fixed.objective_value(objective)[0] <= got + TOL


# ------------------------------------------------------------------ random tiny cards
@st.composite
def tiny_cards(draw):
    kind = draw(st.sampled_from(["grid", "spiral"]))
    alphabet = ".LRMGCH" if kind == "grid" else "BMS"
    cols = [draw(st.text(alphabet, min_size=0, max_size=2)) for _ in range(6)]
    while sum(map(len, cols)) > 4:  # at most 4 boxes: shorten the longest column
        longest = max(range(6), key=lambda c: len(cols[c]))
        cols[longest] = cols[longest][:-1]
    if not any(cols):
        cols[draw(st.integers(0, 5))] = draw(st.sampled_from(alphabet))
    letters = sorted({ch for col in cols for ch in col if ch != "."}) or ["L" if kind == "grid" else "B"]
    on_card = any(ch != "." for col in cols for ch in col)  # damage_to needs its letter there
    target = Target(
        defense=draw(st.integers(8, 15)), arm=draw(st.integers(9, 14)),
        grid=cols if kind == "grid" else None, spiral=cols if kind == "spiral" else None,
        rules=draw(st.sets(st.sampled_from(["tough", "tough_steady"]), max_size=1)),
        rapid_healing=draw(st.sampled_from([0, 0, 1, 2])),
        shield=tuple(draw(st.sets(st.sampled_from("LRH"), max_size=1))) if kind == "grid" else (),
        focus=draw(st.sampled_from([0, 0, 1])),
        state=draw(st.sets(st.sampled_from(["knocked_down", "concealment"]), max_size=1)),
    )
    attackers = []
    total = draw(st.integers(2, 3))
    n_attackers = draw(st.integers(1, 2))
    n = total - n_attackers + 1
    for k in range(n_attackers):
        model = draw(st.sampled_from(["warjack", "warbeast", "other"]))
        pool = {"warjack": "LRHMC", "warbeast": "BMS", "other": ""}[model]
        crippled = draw(st.sets(st.sampled_from(pool), max_size=2)) if pool else set()
        kind_w = draw(st.sampled_from(["melee", "ranged"]))
        w = W(f"W{k}", kind_w, skill=draw(st.integers(4, 8)), pow=draw(st.integers(6, 13)),
              attacks=n if k == 0 else 1,
              damage_to=draw(st.one_of(st.none(), st.sampled_from(letters)) if on_card else st.none()),
              location=draw(st.one_of(st.none(), st.sampled_from("LRH"))) if model == "warjack" else None,
              rules=draw(st.sets(st.sampled_from(["knockdown", "grievous_wounds"]), max_size=1)),
              extra_damage_dice=draw(st.integers(-1, 0)))
        points = draw(st.integers(0, 1))
        attackers.append(Attacker(f"A{k}", [w], model=model, crippled=crippled,
                                  focus=points if model == "warjack" else 0,
                                  force=points if model == "warbeast" else 0,
                                  spend=Spend(buy_attacks=False)))
        n = 1
    return Scenario(target, attackers)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_cards())
def test_property_tiny_cards_match_brute_force(scen):
    check_against_bf(scen)


# ============================================================================ worked examples
#: A target melee attacks hit automatically (knocked down, ARM 12), and a one-die weapon
#: whose damage is the die minus ``6 - k``: 0 to ``k`` points, each point value 1/6 but 0.
def one_die(k, **kw):
    return W("Poke", "melee", 0, 6 + k, extra_damage_dice=-1, **kw)


def down_grid(*columns, **kw):
    return grid(*columns, state={"knocked_down"}, **kw)


def test_one_point_and_the_column_roll():
    # One point on a grid whose only system box is in column 3: crippled on a 3, 1/6.
    res = exact_result(one(down_grid("..", "..", "L", "..", "..", ".."), one_die(1)))
    p1 = 1 / 6  # a 6 on the damage die
    assert res.damage_pmf[:2] == pytest.approx([1 - p1, p1], abs=TOL)
    assert res.cripple["L"] / p1 == pytest.approx(1 / 6, abs=TOL)
    for c in range(6):
        assert res.box_marked[c][0] == pytest.approx(p1 / 6, abs=TOL)
        assert res.box_marked[c][1:].sum() == 0.0
    # No point dealt, no column roll: nothing else happens.
    assert res.attack_damage_mean[0] == pytest.approx(p1, abs=TOL)


def test_overflow_from_column_6_wraps_to_column_1():
    # L. in column 1, one box in column 6, columns 2-5 empty; 0, 1 or 2 points.
    res = exact_result(one(down_grid("L.", "", "", "", "", "."), one_die(2)))
    p = 1 / 6
    # 1 point: on a 1, L; otherwise column 6 (2-5 are empty, so on to the right).
    # 2 points: on a 1, L and the box below; otherwise column 6, then 6 -> 1: L.
    assert res.cripple["L"] == pytest.approx(p / 6 + p, abs=TOL)
    assert res.box_marked[0][1] == pytest.approx(p / 6, abs=TOL)
    assert res.box_marked[5][0] == pytest.approx(2 * p * 5 / 6, abs=TOL)
    assert res.damage_pmf.tolist() == pytest.approx([4 / 6, p, p, 0.0], abs=TOL)


def test_a_full_column_passes_the_damage_right():
    # Attack 1 puts its point on L ("damage to L"), attack 2 rolls: a full column 1 (or an
    # empty 3-6, wrapping to 1) sends its point on to M.
    scen = Scenario(down_grid("L", "M", "", "", "", ""),
                    [Attacker("A", [one_die(1, damage_to="L")]), Attacker("B", [one_die(1)])])
    res = exact_result(scen)
    p = Fraction(1, 6)
    want_m = p * p + (1 - p) * p * p              # L full: M on any roll; else M on a 2
    want_l = p + (1 - p) * p * Fraction(5, 6)     # L on 1, 3, 4, 5, 6
    assert res.cripple["M"] == pytest.approx(float(want_m), abs=TOL)
    assert res.cripple["L"] == pytest.approx(float(want_l), abs=TOL)
    assert res.kill == pytest.approx(float(p * p), abs=TOL)
    assert res.cripple_after[0].tolist() == pytest.approx([0.0, 1 / 6], abs=TOL)  # letters M, L
    assert res.card.letters == ("M", "L")


def test_damage_exactly_filling_a_system():
    # LL in column 1, one box in column 6; 0 to 3 points. Crippled: a 1 and 2+ points, or
    # 2-6 and 3 points (column 6, then 6 -> 1); 3 points mark all three boxes (a kill).
    res = exact_result(one(down_grid("LL", "", "", "", "", "."), one_die(3)))
    p = 1 / 6
    assert res.cripple["L"] == pytest.approx(p * 2 * p + 5 / 6 * p, abs=TOL)
    assert res.kill == pytest.approx(p, abs=TOL)
    assert res.cripple["L"] - res.kill == pytest.approx(p * p, abs=TOL)  # crippled, standing


def test_damage_to_starts_at_the_lowest_column_then_continues_there():
    # S on branch 3 under an M: the first point marks that S, the next the M above it.
    spi = spiral("B", "B", "MS", "S", "", "B", state={"knocked_down"})
    res = exact_result(one(spi, one_die(2, damage_to="S")))
    p = 1 / 6
    assert res.box_marked[2].tolist() == pytest.approx([p, 2 * p], abs=TOL)  # M with 2 points, S with 1+
    for c in (0, 1, 3, 5):
        assert res.box_marked[c].tolist() == [0.0]  # no column roll
    assert res.cripple["M"] == pytest.approx(p, abs=TOL)
    # Once S has no unmarked box (its two boxes marked), "damage to S" is rolled as usual.
    scen = Scenario(spi, [Attacker("A", [W("Big", "melee", 0, 30, damage_to="S")]),
                          Attacker("B", [one_die(1, damage_to="S")])])
    res = exact_result(scen)
    assert res.cripple["S"] == 1.0


# ------------------------------------------------------------------ the feedback examples
def _fist(name, pow_, **kw):
    return W(name, "melee", 6, pow_, **kw)


FIVE = "....."


def test_shield_arm_crippled_loses_its_arm_bonus():
    # Seed 000 example 1, the target side: a Shield on the left arm; attack 1 ("damage to
    # L", 2d6 + 13 vs ARM 14: at least 1 point) cripples L, so attack 2 faces ARM 12.
    scen = Scenario(down_grid("L", FIVE, FIVE, FIVE, FIVE, FIVE, shield=("L",)),
                    [Attacker("A", [_fist("Claw", 13, damage_to="L")]), Attacker("B", [_fist("Fist", 10)])])
    res = exact_result(scen)
    assert res.cripple_after[0].tolist() == [1.0]
    assert res.attack_damage_mean.tolist() == pytest.approx([6.0, 5.0], abs=TOL)  # 2d6 - 1, 2d6 - 2
    # The Shield on a system that is not crippled keeps its +2: E[max(0, 2d6 - 4)].
    kept = exact_result(Scenario(down_grid("R", FIVE, FIVE, FIVE, FIVE, FIVE, shield=("L",)),
                                 [Attacker("A", [_fist("Claw", 13)]), Attacker("B", [_fist("Fist", 10)])]))
    assert kept.attack_damage_mean[1] == pytest.approx(3 + 4 / 36, abs=TOL)


def _same(a, b):
    np.testing.assert_allclose(a.damage_pmf, b.damage_pmf, rtol=0, atol=TOL)
    np.testing.assert_allclose(a.slot_weights, b.slot_weights, rtol=0, atol=TOL)
    np.testing.assert_allclose(a.cripple_after, b.cripple_after, rtol=0, atol=TOL)


def test_crippled_weapon_systems_of_the_attacker():
    """Seed 000 examples 1-3, the attacker side: weapons in a crippled location roll one
    fewer attack and damage die, exactly like a ``crippled`` weapon; the others do not."""
    target = grid("L.", "..", "M.", "..", "C.", "R.", defense=13, arm=14)

    def scen(weapons, **kw):
        return exact_result(Scenario(target, [Attacker("Jack", weapons, **kw)]))

    # Example 1: a Shield weapon on the crippled left arm.
    _same(scen([_fist("Shield", 12, location="L"), _fist("Axe", 13, location="R")], crippled={"L"}),
          scen([_fist("Shield", 12, location="L", crippled=True), _fist("Axe", 13, location="R")]))
    # Example 2: a head weapon of a warjack whose Head is crippled.
    _same(scen([_fist("Gore", 12, location="H"), _fist("Fist", 13, location="L")], crippled={"H"}),
          scen([_fist("Gore", 12, location="H", crippled=True), _fist("Fist", 13, location="L")]))
    # Example 3: a cannon and a shield on one crippled arm, both one die fewer.
    cannon = [W("Cannon", "ranged", 6, 14, location="L"), W("Gun", "ranged", 6, 12, location="R")]
    _same(scen(cannon, crippled={"L"}),
          scen([W("Cannon", "ranged", 6, 14, location="L", crippled=True), cannon[1]]))
    _same(scen([_fist("Shield", 11, location="L")], crippled={"L"}),
          scen([_fist("Shield", 11, location="L", crippled=True)]))
    # Crippled Cortex: no focus; a warbeast's Body, Mind, Spirit.
    _same(scen([_fist("Fist", 12)], crippled={"C"}, focus=3), scen([_fist("Fist", 12)]))
    beast = {"model": "warbeast", "force": 2, "spend": Spend(buy_attacks=False)}
    _same(scen([_fist("Claw", 12)], crippled={"B"}, **beast), scen([_fist("Claw", 12, extra_damage_dice=-1)], **beast))
    _same(scen([_fist("Claw", 12)], crippled={"M"}, **beast), scen([_fist("Claw", 12, extra_attack_dice=-1)], **beast))
    _same(scen([_fist("Claw", 12)], crippled={"S"}, **beast), scen([_fist("Claw", 12)], model="warbeast"))


def test_crippled_movement_makes_base_def_5_but_melee_still_rolls():
    # Attack 1 (RAT 9 vs DEF 16: 7+ on 2d6) cripples M when it hits; the Claw (MAT 4) then
    # needs 2+ (all but 1-1) instead of 12+ (6-6).
    target = grid("M", FIVE, FIVE, FIVE, FIVE, FIVE, defense=16, arm=11)
    claw = W("Claw", "melee", 4, 11)
    scen = Scenario(target, [Attacker("A", [W("Lash", "ranged", 9, 12, damage_to="M")]), Attacker("B", [claw])])
    res = exact_result(scen)
    p1 = 21 / 36
    assert res.cripple_after[0, 0] == pytest.approx(p1, abs=TOL)
    assert res.hit[1] == pytest.approx(p1 * 35 / 36 + (1 - p1) / 36, abs=TOL)
    assert res.crit[1] == pytest.approx(p1 * 5 / 36 + (1 - p1) / 36, abs=TOL)  # it still rolls
    # Mind on a life spiral is not Movement: no change to DEF.
    spi = spiral("M", "BBB", "SSS", "BBB", "SSS", "BBB", defense=16, arm=11)
    res = exact_result(Scenario(spi, [Attacker("A", [W("Lash", "ranged", 9, 12, damage_to="M")]),
                                      Attacker("B", [claw])]))
    assert res.cripple_after[0, res.card.letters.index("M")] == pytest.approx(p1, abs=TOL)
    assert res.hit[1] == pytest.approx(1 / 36, abs=TOL)


def test_crippled_power_field_generator_blocks_the_power_field():
    # Attack 1 (2d6 + 11 vs ARM 12: at least 1 point, at most 11 of 21 boxes) cripples G;
    # the target then cannot spend its focus against attack 2.
    def run(col):
        scen = Scenario(down_grid(col, "....", "....", "....", "....", "....", focus=1, power_field="lethal"),
                        [Attacker("A", [_fist("Spike", 11, damage_to="G" if col == "G" else None)]),
                         Attacker("B", [_fist("Maul", 17)])])
        return exact_result(scen)

    blocked, free = run("G"), run(".")
    assert blocked.cripple["G"] == 1.0
    assert blocked.target_spent_mean.tolist() == [0.0, 0.0]
    assert free.target_spent_mean[1] > 0.05
    assert blocked.kill > free.kill + 0.05


def test_crippled_cortex_loses_focus_for_good():
    # Attack 1 ("damage to C", 3 to 8 points) marks C and 2+ boxes after it; Rapid Healing 2
    # takes off the last two: C stays crippled and the focus is gone. If attack 1 dealt 3
    # (1/6), C is again the last mark; a single point from attack 2 (1/6) and its healing
    # remove it: C is no longer crippled, but the focus does not come back.
    target = down_grid("C", FIVE, FIVE, "", "", "", rapid_healing=2, focus=1, power_field="lethal")
    scen = Scenario(target, [Attacker("A", [one_die(8, damage_to="C")]),
                             Attacker("B", [one_die(1)]),
                             Attacker("C", [_fist("Maul", 20, attacks=2)])])
    res = exact_result(scen)
    assert res.cripple_after[:2, 0].tolist() == pytest.approx([1.0, 1 - 1 / 36], abs=TOL)
    assert res.target_spent_mean.tolist() == [0.0, 0.0, 0.0, 0.0]
    # Without a Cortex to cripple, the same target spends its focus.
    other = exact_result(Scenario(down_grid(".", FIVE, FIVE, "", "", "", rapid_healing=2, focus=1,
                                            power_field="lethal"),
                                  (Attacker("A", [one_die(8)]),) + scen.attackers[1:]))  # no C to aim at
    assert other.target_spent_mean[2:].sum() > 0.1


def test_healing_removes_the_last_marked_box_first():
    # Rapid Healing 1. One point: marked, then healed. Two points: on a 1, L then column 6
    # (the column-6 box is healed: L stays crippled); on 2-6, column 6 twice (the lower one
    # is healed).
    res = exact_result(one(down_grid("L", "", "", "", "", "..", rapid_healing=1), one_die(2)))
    p = 1 / 6
    assert res.cripple["L"] == pytest.approx(p / 6, abs=TOL)
    assert res.box_marked[5].tolist() == pytest.approx([p * 5 / 6, 0.0], abs=TOL)
    assert res.damage_pmf.tolist() == pytest.approx([1 - p, p, 0.0, 0.0], abs=TOL)
    assert res.attack_damage_mean[0] == pytest.approx(p + 2 * p, abs=TOL)  # before healing
    # Tough: two points disable (two boxes); the save removes the last one. On a 1 that is
    # the column-6 box (L stays crippled); on 2-6 it is L (6 -> 1 marked L last).
    res = exact_result(one(down_grid("L", "", "", "", "", ".", rules={"tough_steady"}), one_die(2)))
    saved = p / 3
    assert res.tough_saves[0] == pytest.approx(saved, abs=TOL)
    assert res.kill == pytest.approx(p * 2 / 3, abs=TOL)
    assert res.cripple["L"] == pytest.approx(p / 6 + p * 2 / 3 + saved / 6, abs=TOL)
    assert res.box_marked[5][0] == pytest.approx(p * 5 / 6 + p * 2 / 3 + saved * 5 / 6, abs=TOL)


# ============================================================================ the named cases
def check_final_distribution(scen, res):
    """Crippled at the end = every box of the letter marked, read from the engine's final
    distribution over configurations and the card's strings (a kill marks every box)."""
    t = scen.target
    setup = prepare(scen)
    _, _, kill_weights, _, cards = propagate(Engine(setup))
    card = setup.card
    want = {x: float(kill_weights.sum()) for x in t.letters}
    boxes = [np.zeros(len(col)) + kill_weights.sum() for col in t.card]
    for v in cards["final"].values():
        for idx in np.flatnonzero(v):
            masks = card.masks_of(idx)
            for x in t.letters:
                if all(masks[c] >> r & 1 for c, col in enumerate(t.card) for r, ch in enumerate(col) if ch == x):
                    want[x] += v[idx]
            for c, col in enumerate(t.card):
                for r in range(len(col)):
                    boxes[c][r] += v[idx] * (masks[c] >> r & 1)
    for x in t.letters:
        assert res.cripple[x] == pytest.approx(want[x], abs=1e-12), x
    for c in range(6):
        np.testing.assert_allclose(res.box_marked[c], boxes[c], rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", [name for name, _ in CASES])
def test_grid_case_is_consistent(name):
    scen = dict(CASES)[name]
    res = exact_result(scen)
    check_card_invariants(res, scen)
    if not name.startswith("heavy"):
        check_final_distribution(scen, res)


def test_grid_cases_are_small_exact_fast_and_cover_the_section():
    assert len(CASES) >= 18 and len({name for name, _ in CASES}) == len(CASES)
    seen = set()
    for name, scen in CASES:
        t = scen.target
        assert t.capacity in ("grid", "spiral") and scen.n_attacks <= 6, name
        assert t.power_field != "optimal", name  # the kernel cannot do it
        assert all(len(col) <= 4 for col in t.card) or scen.n_attacks <= 3, name
        check_exact_applicable(scen)
        exact_result(scen)
        seen.add(t.capacity)
        if any(len(col) != len(t.card[0]) for col in t.card):
            seen.add("uneven")
        if any(col == "" for col in t.card):
            seen.add("empty column")
        seen |= {f"target:{r}" for r in t.rules} | ({"rapid_healing"} if t.rapid_healing else set())
        if t.grid is not None and set(t.shield) & set(t.letters):
            seen.add("shield feedback")
        if t.grid is not None and "M" in t.letters and not t.starts_base_def_5:
            seen.add("movement feedback")
        if t.grid is not None and t.power_points and "G" in t.letters:
            seen.add("G feedback")
        if t.grid is not None and t.power_points and "C" in t.letters:
            seen.add("C feedback")
        if len(scen.attackers) > 1:
            seen.add("multi-attacker")
        for a in scen.attackers:
            seen |= {f"{a.model} crippled {x}" for x in a.crippled}
            for w in a.weapons:
                if w.damage_to:
                    seen.add(f"damage_to {t.capacity}")
                if "knockdown" in w.rules:
                    seen.add("knockdown")
                if a.model == "warjack" and w.location in a.crippled:
                    seen.add(f"crippled weapon {w.location}")
        if t.boxes >= 30:
            seen.add("heavy")
    want = {"grid", "spiral", "uneven", "empty column", "target:tough", "rapid_healing", "shield feedback",
            "movement feedback", "G feedback", "C feedback", "multi-attacker", "damage_to grid",
            "damage_to spiral", "knockdown", "crippled weapon L", "crippled weapon H", "warbeast crippled B",
            "warbeast crippled M", "warbeast crippled S", "heavy"}
    assert want <= seen, sorted(want - seen)


def test_grid_cases_through_simulate():
    scen = CASES[0][1]
    res = simulate(scen, method="exact")
    assert res.card.letters == scen.target.letters and res.attacker_names == ("A",)
    d = res.to_dict()
    assert set(d["cripple"]) == set(scen.target.letters) and len(d["box_marked"]) == 6


# ============================================================================ limits
def test_heavy_grids_are_accepted_or_refused_in_one_line():
    heavy = Target(12, 18, grid=list(HEAVY_GRID), shield=("L",), focus=3, rules={"tough"}, power_field="lethal")
    ok = Scenario(heavy, [Attacker("Jack", [_fist("Fist", 18, attacks=2)], focus=3, policy="fixed")])
    check_exact_applicable(ok)  # forward propagation of fixed policies
    many = Scenario(heavy, [Attacker(f"J{k}", [_fist(f"Fist{k}", 18, attacks=3, arm_minus=1)], focus=3)
                            for k in range(4)])
    with pytest.raises(ExactNotApplicable) as err:
        check_exact_applicable(many)
    assert "\n" not in str(err.value) and "grid" in str(err.value)


def test_tracks_report_no_card():
    scen = one(Target(12, 12, boxes=5), _fist("Fist", 12), focus=1)
    res = exact_result(scen)
    assert res.card is None and res.cripple == {} and res.box_marked == []
    with pytest.raises(InputError, match="cripple:L"):
        optimal_value(scen, "cripple:L")
