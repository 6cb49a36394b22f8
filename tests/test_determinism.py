"""Same seed, same results: across thread counts, batch sizes and repeated calls."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

from mathhammer import Attacker, Scenario, Target, Weapon, simulate
from mathhammer.montecarlo._kernels.driver import run_sequences
from mathhammer.montecarlo.encode import encode

SCEN = Scenario(
    Target(defense=13, arm=17, boxes=28, state={"concealment"}),
    [
        Attacker("Jack", [Weapon("Axe", "melee", 7, 17, attacks=2, rules={"critical_knockdown"}),
                          Weapon("Fist", "melee", 7, 14)]),
        Attacker("Beast", [Weapon("Claw", "melee", 6, 15, attacks=2, boosted_damage=True)]),
    ],
)

#: An activation with focus, bought attacks, rerolls, a power field and Tough (issue 3).
ACTIVATION = Scenario(
    Target(defense=13, arm=16, boxes=12, focus=2, rules={"tough"}, shield=("L",), upkeep_arm=1),
    [
        Attacker("Jack", [Weapon("Axe", "melee", 7, 15, attacks=2,
                                 rules={"reroll_attack", "dispel", "brutal_damage"})],
                 focus=3, charge=True),
        Attacker("Caster", [Weapon("Bolt", "arcane", 7, 12, attacks=2, rules={"reroll_damage"},
                                   arm_minus=2)], focus=2),
    ],
)

#: A damage grid with crippling feedback and healing (issue 4).
GRID = Scenario(
    Target(defense=12, arm=16, grid=("......", ".....L", "....LL", "...MC.", "...MC.", "....RR"),
           shield=("L",), focus=2, rules={"tough"}),
    [Attacker("Jack", [Weapon("Fist", "melee", 7, 16, attacks=2, damage_to="L")], focus=2)],
)

_CHILD = """
import json, sys
sys.path.insert(0, {tests!r})
from test_determinism import ACTIVATION, GRID, SCEN
from mathhammer import simulate
from mathhammer import common_stride
import numba
r = simulate(SCEN, trials=300_000, seed=42)
crn = simulate(ACTIVATION, trials=300_000, seed=45, stride=common_stride([ACTIVATION]) + 3)
a = simulate(ACTIVATION, trials=300_000, seed=43)
g = simulate(GRID, trials=300_000, seed=44)
print(json.dumps({{"threads": numba.get_num_threads(), "figures": r.to_dict(),
                  "activation": a.to_dict(), "grid": g.to_dict(), "crn": crn.to_dict(),
                  "crn_chunks": crn.chunk_damage_weights.tolist()}}))
"""


def _run_child(threads: int) -> dict:
    env = dict(os.environ, NUMBA_NUM_THREADS=str(threads))
    code = _CHILD.format(tests=os.path.dirname(__file__))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, timeout=300)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_same_seed_same_result_on_one_and_two_threads():
    one = _run_child(1)
    two = _run_child(2)
    assert one["threads"] == 1 and two["threads"] == 2
    assert one["figures"] == two["figures"]
    assert one["activation"] == two["activation"]
    assert one["grid"] == two["grid"] and one["grid"]["cripple"]
    assert one["crn"] == two["crn"] and one["crn_chunks"] == two["crn_chunks"]


def test_same_seed_same_result_in_process_and_different_seed_differs():
    a = simulate(SCEN, trials=100_000, seed=7).to_dict()
    b = simulate(SCEN, trials=100_000, seed=7).to_dict()
    c = simulate(SCEN, trials=100_000, seed=8).to_dict()
    assert a == b
    assert a["damage_pmf"] != c["damage_pmf"]


def test_batch_size_never_changes_counts():
    enc = encode(SCEN)
    trials = 5 * 4096 + 123  # several chunks and a partial last chunk
    ref = run_sequences(enc, trials, 99, chunk=4096, batch=64)
    for batch in (1, 2, 5):
        got = run_sequences(enc, trials, 99, chunk=4096, batch=batch)
        np.testing.assert_array_equal(got.damage_hist, ref.damage_hist)
        np.testing.assert_array_equal(got.attack_counts, ref.attack_counts)
        np.testing.assert_array_equal(got.kill_at, ref.kill_at)
    assert ref.damage_hist.sum() == trials


def test_prefix_of_trials_is_a_prefix_of_streams():
    """A run of N trials is the first N trials of a longer run: chunk streams depend only on
    (seed, chunk index), so neighbouring trial counts agree on their shared chunks."""
    enc = encode(SCEN)
    a = run_sequences(enc, 3 * 4096, 5, chunk=4096)
    b = run_sequences(enc, 2 * 4096, 5, chunk=4096)
    c = run_sequences(enc, 4096, 5, chunk=4096)
    # chunk 2 alone = a - b; chunk 0 = c; all three are valid disjoint samples
    assert (a.damage_hist - b.damage_hist).min() >= 0
    assert (b.damage_hist - c.damage_hist).min() >= 0


def test_progress_reporting_changes_nothing():
    # the driver reports each batch of chunks; a progress bar never changes the figures
    seen = []
    counts = run_sequences(encode(GRID), 5 * 4096 + 7, 3, chunk=4096, batch=2,
                           on_batch=seen.append)
    assert seen == [8192, 8192, 4103]
    plain = run_sequences(encode(GRID), 5 * 4096 + 7, 3, chunk=4096, batch=2)
    assert np.array_equal(counts.damage_hist, plain.damage_hist)
    a = simulate(ACTIVATION, trials=100_000, seed=4, progress=True).to_dict()
    assert a == simulate(ACTIVATION, trials=100_000, seed=4).to_dict()
