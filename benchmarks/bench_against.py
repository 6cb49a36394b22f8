#!/usr/bin/env python
"""Issue 20's "faster than today" ratios: this checkout against another, in one run.

Run from the repository root::

    git worktree add /tmp/issue20-start 62afc7d      # the code when issue 20 was taken up
    .venv/bin/python benchmarks/bench_against.py /tmp/issue20-start
    .venv/bin/python benchmarks/bench_against.py /tmp/issue20-start --rounds 5 --trials 4e6

The workloads are :mod:`bench_kernel`'s own (its ``single`` and ``sequence`` scenarios and its
``activation``, the 3-focus warjack on its fixed spending policy, as bench_kernel times it),
each run as ``mh.simulate(scenario, trials=N, seed=1)``
on one Numba thread, best of ``--repeats`` in a fresh process per checkout and round, the two
checkouts taking turns (``this, other, other, this, ...``), so that both see the same load.
Printed: ns per trial of each (the best over the rounds), the ratio, and each round's ratio
(the two processes next to each other), against issue 20's targets for one thread: the
3-attack sequence and the activation with focus at least 1.5x faster than the code of the
issue's time. Each process first runs every workload once (compiling or loading the kernel);
where the two checkouts' kill figures differ at the same seed a note says so (issue 20
changed the dice stream once, so against its start they differ by sampling noise).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent

#: Workload -> issue 20's speed-up target on one thread (None: shown, no target).
TARGETS = {"single": None, "sequence": 1.5, "activation": 1.5}

_CHILD = """
import json, sys, time
import numba
import mathhammer as mh  # first: the checkout on PYTHONPATH, before bench_kernel's own path
sys.path.insert(0, sys.argv[1])
from bench_kernel import activation_workloads, fixed_policies, workloads
numba.set_num_threads(1)
trials, repeats = int(sys.argv[2]), int(sys.argv[3])
scen = {k: v[1] for k, v in workloads().items()}
scen["activation"] = fixed_policies(activation_workloads()["activation"][1])
out = {"mathhammer": mh.__file__, "ns": {}, "kill": {}}
for name in sys.argv[4].split(","):
    s = scen[name]
    out["kill"][name] = mh.simulate(s, trials=trials, seed=1).kill  # compiles or loads
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        mh.simulate(s, trials=trials, seed=1)
        best = min(best, time.perf_counter() - t0)
    out["ns"][name] = best / trials * 1e9
print(json.dumps(out))
"""


def run_child(checkout: Path, names: list[str], trials: int, repeats: int) -> dict:
    """ns per trial of each workload with the mathhammer of ``checkout`` (a fresh process)."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    done = subprocess.run([sys.executable, "-c", _CHILD, str(HERE), str(trials), str(repeats),
                           ",".join(names)], env=env, capture_output=True, text=True,
                          cwd=checkout)
    if done.returncode != 0:
        sys.exit(f"the child for {checkout} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("other", type=Path, help="the other checkout (e.g. the issue's start)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=5, help="runs per process (best kept)")
    ap.add_argument("--trials", type=lambda s: int(float(s)), default=2_000_000)
    args = ap.parse_args()
    names = list(TARGETS)
    checkouts = {"this": ROOT, "other": args.other.resolve()}
    best: dict = {c: {} for c in checkouts}
    rounds: list = []
    where: dict = {}
    for r in range(args.rounds):
        order = ["this", "other"] if r % 2 == 0 else ["other", "this"]
        got = {c: run_child(checkouts[c], names, args.trials, args.repeats) for c in order}
        rounds.append({n: got["other"]["ns"][n] / got["this"]["ns"][n] for n in names})
        for c in checkouts:
            where[c] = got[c]["mathhammer"]
            for n in names:
                best[c][n] = min(best[c].get(n, float("inf")), got[c]["ns"][n])
        for n in names:
            if got["this"]["kill"][n] != got["other"]["kill"][n]:
                print(f"note: {n}: kill {got['this']['kill'][n]} here, "
                      f"{got['other']['kill'][n]} there (the dice stream changed between them)")
    print(f"this: {where['this']}\nother: {where['other']}")
    print(f"one Numba thread, {args.trials:,} trials, best of {args.repeats} in each of "
          f"{args.rounds} fresh processes per checkout, taking turns\n")
    print(f"{'workload':10s} {'other ns':>9s} {'this ns':>8s} {'speed-up':>9s}  per round"
          f"          target")
    for n in names:
        o, t = best["other"][n], best["this"][n]
        per = ", ".join(f"{x[n]:.2f}" for x in rounds)
        goal = TARGETS[n]
        verdict = "-" if goal is None else (f">= {goal}x: {'met' if o / t >= goal else 'MISSED'}")
        print(f"{n:10s} {o:9.1f} {t:8.1f} {o / t:8.2f}x  {per:17s}  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
