"""Song of Blades and Heroes, Monte Carlo kernel: against the exact Markov chain at 5 sigma,
and the same seed giving the same counts on 1 or 2 threads and any batch size."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from mathhammer.errors import InputError
from mathhammer.sbh import (
    Group,
    Model,
    Settings,
    Solo,
    Turn,
    Warband,
    simulate_turn,
    step_outcomes,
    turn_odds,
)
from mathhammer.sbh.simulate import encode_turn

TRIALS = 200_000  # several chunks: the parallel driver runs
SEED = 20240611
LEADER = Model(3, 3, "Chief", leader=True)

PLANS = {
    "one-at-a-time": Warband([Model(3), Model(4), Model(4), Model(5), Model(2)]).one_at_a_time([2, 3, 2, 1, 3]),
    "group-last": Turn([Solo(Model(4), 2), Solo(Model(3), 3, bonus=1),
                        Group(LEADER, [Model(4), Model(5), Model(3)], 3, 2)]),
    "groups": Turn([Group(LEADER, [Model(4)] * 5, 2, 3), Solo(Model(6), 3, bonus=-1),
                    Group(Model(4, leader=True), [Model(5)] * 8, 3, 1)],
                   Settings(leader_bonus=0, large_groups=True, natural_six_succeeds=False)),
    "regroup": Turn([Solo(Model(2), 3, bonus=1), Group(LEADER, [Model(4)] * 7, 1, 1, regroup=True),
                     Solo(Model(5), 2)], Settings(natural_one_fails=False)),
}


def within(estimate, p, n=TRIALS):
    """|estimate - p| <= 5 sqrt(p (1 - p) / n); an impossible event must never be seen."""
    estimate, p = np.asarray(estimate, dtype=float), np.asarray(p, dtype=float)
    tol = 5 * np.sqrt(p * (1 - p) / n)
    return np.all(np.abs(estimate - p) <= tol + 1e-15)


def model_action_sd(turn, exact):
    """Exact standard deviation of each model's actions (for the 5-sigma test of the mean)."""
    second = []
    for s, step in enumerate(turn.steps):
        m2 = np.zeros(len(step.models))
        for p, actions, _, _ in step_outcomes(step, turn.settings):
            m2 += float(p) * np.array(actions, dtype=float) ** 2
        second.extend(exact.reached[s] * m2)
    return np.sqrt(np.maximum(0.0, np.array(second) - exact.model_actions ** 2))


@pytest.mark.parametrize("name", list(PLANS))
def test_monte_carlo_matches_exact_at_five_sigma(name):
    turn = PLANS[name]
    exact = turn_odds(turn)
    mc = simulate_turn(turn, trials=TRIALS, seed=SEED)
    assert mc.method == "monte_carlo" and mc.trials == TRIALS and mc.seed == SEED
    assert math.isclose(mc.actions_pmf.sum(), 1) and math.isclose(mc.end_pmf.sum(), 1)
    assert within(mc.actions_pmf, exact.actions_pmf), "actions"
    assert within(mc.acted_pmf, exact.acted_pmf), "models acting"
    assert within(mc.end_pmf, exact.end_pmf), "turnover step"
    assert within(mc.model_acted, exact.model_acted), "acted per model"
    groups = ~np.isnan(exact.order)
    assert np.array_equal(np.isnan(mc.order), ~groups)
    assert within(mc.order[groups], exact.order[groups]), "orders"
    assert within(mc.turnover, exact.turnover) and within(mc.all_act, exact.all_act)
    sd = exact.actions_sd
    assert abs(mc.expected_actions - exact.expected_actions) <= 5 * sd / math.sqrt(TRIALS)
    msd = model_action_sd(turn, exact)
    assert np.all(np.abs(mc.model_actions - exact.model_actions) <= 5 * msd / math.sqrt(TRIALS) + 1e-15)
    lo, hi = mc.turnover_ci95
    assert lo <= mc.turnover <= hi


def test_exact_method_and_bad_input():
    turn = PLANS["group-last"]
    res = simulate_turn(turn, method="exact")
    assert res.exact and res.trials is None
    np.testing.assert_array_equal(res.actions_pmf, turn_odds(turn).actions_pmf)
    with pytest.raises(InputError, match="trials"):
        simulate_turn(turn, trials=0)
    with pytest.raises(InputError, match="seed"):
        simulate_turn(turn, seed=-1)
    with pytest.raises(InputError, match="method"):
        simulate_turn(turn, method="guess")


def test_encoded_thresholds():
    from mathhammer.sbh import layout as k

    steps = encode_turn(PLANS["groups"])
    # Q6+ with -1 and no natural six: no face succeeds
    assert steps[1, k.S_THR] == 7
    # models: Leader 0, members 1-5, the solo model 6, then the second Leader 7, members 8-15
    assert steps[2, k.S_LEADER_MODEL] == 7 and steps[2, k.S_FIRST] == 8 and steps[2, k.S_COUNT] == 8
    assert steps[2, k.S_THR] == 5  # lowest Quality 5+, no leader bonus in this plan


def test_batch_size_and_chunking_never_change_counts():
    from mathhammer.sbh._kernels import run_turns

    turn = PLANS["group-last"]
    steps = encode_turn(turn)
    n, width = len(turn.models), turn.max_actions
    trials = 5 * 4096 + 77
    ref = run_turns(steps, n, width, trials, 5, chunk=4096, batch=64)
    for batch in (1, 2, 4):
        np.testing.assert_array_equal(run_turns(steps, n, width, trials, 5, chunk=4096, batch=batch), ref)
    other = run_turns(steps, n, width, trials, 6, chunk=4096)
    assert not np.array_equal(other, ref)


_CHILD = """
import json, sys
sys.path.insert(0, {tests!r})
from test_sbh_mc import PLANS
from mathhammer.sbh import simulate_turn
import numba
out = {{name: simulate_turn(t, trials=150_000, seed=99).to_dict() for name, t in PLANS.items()}}
print(json.dumps({{"threads": numba.get_num_threads(), "results": out}}))
"""


def _child(threads: int) -> dict:
    env = dict(os.environ, NUMBA_NUM_THREADS=str(threads))
    code = _CHILD.format(tests=os.path.dirname(__file__))
    proc = subprocess.run([sys.executable, "-c", code], check=False, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_same_seed_same_result_on_one_and_two_threads():
    one, two = _child(1), _child(2)
    assert one["threads"] == 1 and two["threads"] == 2
    assert one["results"] == two["results"]
    here = simulate_turn(PLANS["groups"], trials=150_000, seed=99).to_dict()
    assert json.loads(json.dumps(here)) == one["results"]["groups"]
