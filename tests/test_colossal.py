"""Colossals (issue 17; docs/rules.md 3, "Colossals"): a damage grid in two halves.

A colossal's grid is twelve columns, its left grid's 1-6 then its right grid's. A damage roll
goes to the grid of the side the attacker stands on (``side``; ``random``: a d6, 1-3 left),
its column rolled there; a full column passes the damage to the right within that grid
(6 wraps to 1), and a full grid passes the rest to the other grid, at a rolled column.
Systems are crippled when all their boxes, on both grids, are marked.

Worked examples on chosen dice through the real kernel; Monte Carlo against an exact
enumeration written here (the exact engine refuses a colossal: one line).
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from mathhammer import simulate
from mathhammer.errors import ExactNotApplicable, InputError
from mathhammer.io.dump import scenario_to_dict
from mathhammer.io.scenario_files import scenario_from_dict
from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon
from scripted import play

FIXED = dict(policy="fixed", spend=Spend(boost_attack="never", boost_damage="never", buy_attacks=False))
# a small colossal: two boxes a column, the left grid's L and C, the right grid's R and C
SMALL = ("..", ".L", "L.", "..", "C.", "..", "..", ".C", "..", "R.", ".R", "..")


def _scen(side="left", attacks=1, pow_=14, arm=14, grid=SMALL):
    gun = Weapon("Hammer", "melee", 6, pow_, attacks=attacks, auto_hit=True)
    return Scenario(Target(defense=10, arm=arm, grid=list(grid), base="huge", name="Colossal"),
                    [Attacker("Jack", [gun], side=side, **FIXED)])


# ------------------------------------------------------------------ worked examples
def test_worked_example_damage_goes_to_the_attackers_side_and_on_within_it():
    """From the left: the column roll 5 (left column 5), 5 points: its two boxes, then left
    column 6's two, then (6 wraps to 1 within the grid) left column 1's top box."""
    out = play(_scen("left"), [(4, 1), (5, 3)])  # damage 4 + 1 + 14 - 14 = 5; column 5
    assert out.marks[4] == [1, 1] and out.marks[5] == [1, 1] and out.marks[0] == [1, 0]
    assert sum(map(sum, out.marks[6:])) == 0 and out.damage == [5]


def test_worked_example_from_the_right_the_right_grid():
    out = play(_scen("right"), [(1, 1), (2, 6)])  # 2 points at right column 2
    assert out.marks[7] == [1, 1] and sum(map(sum, out.marks)) == 2
    assert out.crippled_after[-1] == set()  # the C of right column 2 marked; the left's not


def test_worked_example_random_side_reads_the_pairs_other_die():
    """side = random: the column roll's pair decides the side, its other die 4-6: right."""
    out = play(_scen("random"), [(1, 1), (3, 5)])  # right column 3
    assert out.marks[8] == [1, 1] and sum(map(sum, out.marks)) == 2
    out = play(_scen("random"), [(1, 1), (3, 2)])  # left column 3
    assert out.marks[2] == [1, 1] and sum(map(sum, out.marks)) == 2


def test_worked_example_a_full_grid_passes_the_rest_to_the_other_at_a_rolled_column():
    """POW 24: 3 + 3 + 24 - 14 = 16 points from the left: 12 fill the left grid, the other
    4 go to the right grid from a rolled column 3 (right 3's two boxes, then right 4's)."""
    out = play(_scen("left", pow_=24), [(3, 3), (1, 1), (3, 1)])
    assert all(m == [1, 1] for m in out.marks[:6])
    assert out.marks[8] == [1, 1] and out.marks[9] == [1, 1] and sum(map(sum, out.marks[6:])) == 4
    # L is crippled (the left grid is full); C and R each have a box left on the right grid
    assert out.crippled_after[-1] == {"L"}
    # the encoder's bound on a trial's reads counts the other grid's column roll
    from mathhammer.montecarlo.encode import encode
    assert encode(_scen("left", pow_=24)).max_draws >= 3 + 1


# ------------------------------------------------------------------ Monte Carlo against an enumeration
def _enumerate(grid, side, attacks, shift):
    """Exact probability of each box marked and each letter crippled at the end, by
    enumeration: each attack deals 2d6 + shift points (auto hit), at a rolled column of the
    side's grid (``random``: either grid, one half each)."""
    cols = [len(c) for c in grid]

    def mark(marked, lo, c, d):
        """Marks from column c of the grid starting at lo; returns [(prob, marked)]."""
        marked = list(marked)
        tried = 0
        while d > 0:
            free = cols[c] - marked[c]
            if free > 0:
                k = min(d, free)
                marked[c] += k
                d -= k
                tried = 0
                continue
            tried += 1
            if tried < 6:
                c = lo + (c - lo + 1) % 6
                continue
            lo = 6 - lo  # the grid is full: the other grid, at a rolled column
            out = []
            for col in range(6):
                out += [(p / 6, m) for p, m in mark(marked, lo, lo + col, d)]
            return out
        return [(Fraction(1), tuple(marked))]

    states = {tuple([0] * 12): Fraction(1)}
    for _ in range(attacks):
        nxt: dict = {}
        for marked, p in states.items():
            if sum(marked) == sum(cols):
                nxt[marked] = nxt.get(marked, 0) + p
                continue
            for a in range(1, 7):
                for b in range(1, 7):
                    d = min(max(0, a + b + shift), sum(cols) - sum(marked))
                    if d == 0:
                        nxt[marked] = nxt.get(marked, 0) + p / 36
                        continue
                    sides = (0, 6) if side == "random" else ((0,) if side == "left" else (6,))
                    for lo in sides:
                        for col in range(6):
                            q = p / 36 / len(sides) / 6
                            for r, m in mark(marked, lo, lo + col, d):
                                nxt[m] = nxt.get(m, 0) + q * r
        states = nxt
    boxes = [[sum(p for m, p in states.items() if m[c] > r) for r in range(cols[c])] for c in range(12)]
    letters = sorted({x for col in grid for x in col if x != "."})
    crippled = {x: sum(p for m, p in states.items()
                       if all(m[c] > r for c, col in enumerate(grid) for r, ch in enumerate(col) if ch == x))
                for x in letters}
    return boxes, crippled


@pytest.mark.parametrize("side, attacks, pow_", [("left", 2, 14), ("random", 2, 16), ("right", 3, 12)])
def test_monte_carlo_agrees_with_the_enumeration(side, attacks, pow_):
    boxes, crippled = _enumerate(SMALL, side, attacks, pow_ - 14)
    n = 200_000
    res = simulate(_scen(side, attacks, pow_), trials=n, seed=1800 + attacks)
    for c in range(12):
        for r in range(len(SMALL[c])):
            p = float(boxes[c][r])
            assert abs(res.box_marked[c][r] - p) <= 5 * math.sqrt(p * (1 - p) / n) + 1e-9, (c, r)
    for x, p in crippled.items():
        p = float(p)
        assert abs(res.cripple[x] - p) <= 5 * math.sqrt(p * (1 - p) / n) + 1e-9, x


# ------------------------------------------------------------------ what is refused, files
def test_the_exact_engine_refuses_a_colossal_in_one_line():
    with pytest.raises(ExactNotApplicable, match="is a colossal: its two grids are beyond the exact engine"):
        simulate(_scen(), method="exact")


def test_best_play_is_solved_on_a_track_of_its_boxes():
    scen = Scenario(Target(defense=10, arm=18, grid=list(SMALL), base="huge"),
                    [Attacker("Jack", [Weapon("Fist", "melee", 7, 19)], focus=2, side="left")])
    res = simulate(scen, trials=20_000, seed=1)
    assert res.play.solved_on == "relaxed: the colossal's two grids as a damage track of 24 boxes"


@pytest.mark.parametrize("build, key", [
    (lambda: Target(10, 18, grid=list(SMALL[:11])), "grid"),
    (lambda: Target(10, 18, spiral=["B"] * 12), "spiral"),
    (lambda: Attacker("Jack", [Weapon("Fist", "melee", 7, 19)], side="behind"), "side"),
])
def test_bad_colossal_input_is_one_line(build, key):
    with pytest.raises(InputError) as err:
        build()
    assert err.value.key == key and "\n" not in str(err.value)


def test_round_trip_through_a_scenario_file():
    scen = _scen("right")
    assert scenario_from_dict(scenario_to_dict(scen)) == scen
    assert scen.target.colossal and scen.target.boxes == 24
