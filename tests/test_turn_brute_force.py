"""The turn planner against the independent brute force on 200 random battlegroups: every
allocation in every fixed order and in the adaptive order (tests/naive.py walks every
outcome; no code shared with the exact engine)."""

from __future__ import annotations

import random

import pytest

from mathhammer.play.turn import plan_turn
from test_turn_plan import TOL, brute_force, planned, random_battlegroup

CASES = 200
BATCHES = 10


@pytest.mark.parametrize("batch", range(BATCHES))
def test_every_plan_equals_the_brute_force(batch):
    rng = random.Random(49_000 + batch)
    for case in range(CASES // BATCHES):
        scen = random_battlegroup(rng)
        plans = plan_turn(scen)
        truth = brute_force(scen)
        got = planned(plans)
        assert got.keys() == truth.keys(), (batch, case)
        for key, value in truth.items():
            assert got[key] == pytest.approx(value, abs=TOL), (batch, case, key)
        assert plans.best.value == pytest.approx(max(truth.values()), abs=TOL), (batch, case)
