"""The benchmark's yardstick, benchmarks/floor.py (issue 20): its outcome table is the
single attack's rules (an attack roll of 2d6 + MAT against DEF, two ones miss, two sixes hit,
a hitting double is critical; damage 2d6 + POW - ARM), and its figures agree with the exact
engine, so the floor it sets is a floor for the same work."""

from __future__ import annotations

import math
import sys
from itertools import product
from pathlib import Path

import numpy as np
import pytest

from mathhammer import Attacker, Scenario, Target, Weapon, simulate

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
floor = pytest.importorskip("floor")


def test_outcome_table_is_the_single_attack_rule():
    # written out die by die: MAT 7 against DEF 12 needs 5+ on 2d6; POW 16 against ARM 18
    table = floor.outcome_table(7, 12, 16, 18, 30)
    for a1, a2, b1, b2 in product(range(1, 7), repeat=4):
        e = int(table[36 * ((a1 - 1) * 6 + a2 - 1) + (b1 - 1) * 6 + b2 - 1])
        hit = a1 + a2 == 12 or (a1 + a2 != 2 and a1 + a2 >= 5)
        assert e & 1 == hit
        assert (e >> 1) & 1 == (hit and a1 == a2)
        assert e >> 2 == (max(0, b1 + b2 - 2) if hit else 0)


def test_floor_figures_agree_with_the_exact_engine():
    trials = 600_000
    exact = simulate(Scenario(Target(defense=12, arm=18, boxes=30),
                              [Attacker("Jack", [Weapon("Fist", "melee", 7, 16)])]), method="exact")
    hist, counts, kill = floor.floor_run(trials, 20261203)
    assert hist.sum() == trials and kill.sum() == 0
    mean = float(np.arange(hist.size) @ hist) / trials
    assert abs(mean - exact.damage_mean) <= 5 * exact.damage_sd / math.sqrt(trials)
    for col, p in ((1, exact.hit[0]), (2, exact.crit[0])):
        assert abs(counts[0, col] / trials - p) <= 5 * math.sqrt(p * (1 - p) / trials)
