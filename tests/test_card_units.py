"""A unit of models with a damage grid or life spiral (docs/units.md, "Models with a grid or
spiral"): each model its own card, on the Monte Carlo kernel; the exact engine refuses it.

Checked against exact values computed independently of the kernel's per-model cards: with
no system whose crippling feeds back (DEF, ARM), a grid of N boxes destroys as a damage track
of N boxes, so the unit's models destroyed and damage equal the exact engine's on a unit of
track models; and an attack that can only reach the first model cripples the unit's share
of half the single model's odds. Plus a worked example on chosen dice.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from mathhammer import simulate
from mathhammer.errors import ExactNotApplicable
from mathhammer.rules import Attacker, Scenario, Target, Weapon
from scripted import play

TRIALS = 300_000

#: A grid whose systems feed nothing back on the target (arms, the arc node): it destroys
#: as a damage track of its 7 boxes does.
NO_FEEDBACK = ("", "A", "LL", "LL", "AA", "")


def _tol(p: float, n: int, scale: float = 1.0) -> float:
    return 5 * scale * math.sqrt(max(p * (1 - p), 1e-12) / n) + 1e-9


def test_a_unit_of_grid_models_destroys_as_a_unit_of_track_models():
    """Each model's card kept apart (spill-over, blast on a hit and on a miss, Tough): the
    models destroyed and damage are the exact engine's on the same unit of 7-box tracks."""
    shooters = [Attacker("Gunners", [Weapon("Gun", "ranged", 6, 12, attacks=2, blast_pow=8,
                                            blast_models=2, blast_on_miss=1)], models=3)]
    grid = Target(name="Jacks", defense=12, arm=14, grid=NO_FEEDBACK, models=3, rules={"tough"})
    track = Target(name="Jacks", defense=12, arm=14, boxes=7, models=3, rules={"tough"})
    mc = simulate(Scenario(grid, shooters), method="monte_carlo", trials=TRIALS, seed=5)
    ex = simulate(Scenario(track, shooters), method="exact")
    assert mc.card.models == 3 and mc.card.letters
    assert abs(mc.kill - ex.kill) <= _tol(ex.kill, TRIALS)
    for got, want in zip(mc.models_destroyed_pmf, ex.models_destroyed_pmf):
        assert abs(got - want) <= _tol(want, TRIALS)
    for got, want in zip(mc.damage_pmf, ex.damage_pmf):
        assert abs(got - want) <= _tol(want, TRIALS)


def test_cripple_and_box_figures_are_the_share_of_the_units_models():
    """One attack reaches the first model only: each system's share of crippled models is
    half the single model's exact probability, and so is each box's share marked."""
    grid = ("..L...", "...LL", "AA...", "", "..MM", "")
    gun = [Attacker("Gun", [Weapon("Cannon", "ranged", 7, 16)])]
    one = simulate(Scenario(Target(defense=12, arm=16, grid=grid), gun), method="exact")
    unit = simulate(Scenario(Target(defense=12, arm=16, grid=grid, models=2), gun),
                    method="monte_carlo", trials=TRIALS, seed=2)
    for x, p in one.cripple.items():
        assert abs(unit.cripple[x] - p / 2) <= _tol(p, TRIALS, 0.5), x
    for col_unit, col_one in zip(unit.box_marked, one.box_marked):
        for got, p in zip(col_unit, col_one):
            assert abs(got - p / 2) <= _tol(p, TRIALS, 0.5)


def test_worked_example_each_model_has_its_own_card():
    """A unit of two models with the grid ["L", "."] (two boxes: an L box in column 1, a
    hull box in column 2). Every attack hits (3+4+6 = 13 vs DEF 10) and deals 1+1+10-11 = 1
    point. The first marks column 1 of model 1 (its column d6 is 1): L is crippled. The
    second rolls column 1 again, full, so it marks column 2: model 1 is destroyed. The third
    goes to model 2 (spill-over), column 2: its hull box. At the end model 1 counts as all
    marked and model 2 has its hull box marked, so L is crippled on half the models."""
    scen = Scenario(Target(defense=10, arm=11, grid=("L", ".", "", "", "", ""), models=2),
                    [Attacker("Gunner", [Weapon("Gun", "ranged", 6, 10, attacks=3)])])
    rolls = [(3, 4), (1, 1), (1,), (3, 4), (1, 1), (1,), (3, 4), (1, 1), (2,)]
    out = play(scen, rolls)
    assert out.rolls_read == len(rolls)
    assert out.hit[:3] == [1, 1, 1] and out.damage[:3] == [1, 1, 1]
    assert out.destroyed[:3] == [0, 1, 0] and out.models_destroyed == 1
    assert out.marked == 3  # two boxes of the destroyed model, one of the other
    # column 1 (the L box): marked on the destroyed model only; column 2: on both
    assert out.mask_hist[0, 1] == 1 and out.mask_hist[0, 0] == 1
    assert out.mask_hist[1, 1] == 2
    res = simulate(scen, method="monte_carlo", trials=1000, seed=1)
    assert 0.0 <= res.cripple["L"] <= 1.0


def test_the_exact_engine_refuses_a_unit_of_card_models():
    scen = Scenario(Target(defense=12, arm=16, grid=NO_FEEDBACK, models=2),
                    [Attacker("Gun", [Weapon("Cannon", "ranged", 7, 16)])])
    with pytest.raises(ExactNotApplicable, match="unit of 2 models with a damage grid"):
        simulate(scen, method="exact")
    spiral = Target(defense=12, arm=16, spiral=("BB", "MM", "SS", "BB", "MM", "SS"), models=2)
    res = simulate(Scenario(spiral, scen.attackers), method="monte_carlo", trials=20_000, seed=1)
    assert res.card.models == 2 and set(res.cripple) == {"B", "M", "S"}
    assert np.isclose(res.models_destroyed_pmf.sum(), 1.0)


def test_a_grid_target_behind_a_unit_among_several_targets():
    """Several targets, the second with a grid (no feedback): its card waits while the unit
    in front is attacked; destruction figures equal the exact engine's with a 7-box track."""
    shooters = [Attacker("Gunners", [Weapon("Gun", "ranged", 6, 12, attacks=2)], models=3)]
    squad = Target(name="Squad", defense=12, arm=12, boxes=1, models=2)
    jack = dict(name="Jack", defense=12, arm=14, rules={"tough"})
    mc = simulate(Scenario([squad, Target(grid=NO_FEEDBACK, **jack)], shooters), method="monte_carlo",
                  trials=TRIALS, seed=4)
    ex = simulate(Scenario([squad, Target(boxes=7, **jack)], shooters), method="exact")
    assert mc.card.models == 1 and set(mc.cripple) == {"A", "L"}
    for name in ("Squad", "Jack"):
        p = ex.targets[name]["kill"]
        assert abs(mc.targets[name]["kill"] - p) <= _tol(p, TRIALS), name
        for got, want in zip(mc.targets[name]["damage_pmf"], ex.targets[name]["damage_pmf"]):
            assert abs(got - want) <= _tol(want, TRIALS), name
