#!/usr/bin/env python
"""This checkout's time per trial against another checkout's, every kernel workload, in one
run: a change of the kernels is measured side by side with the code it started from.

Run from the repository root::

    git worktree add /tmp/before 7bb28f1                 # the code the change started from
    .venv/bin/python benchmarks/bench_against.py /tmp/before
    .venv/bin/python benchmarks/bench_against.py /tmp/before --threads 1,2 --rounds 3
    .venv/bin/python benchmarks/bench_against.py /tmp/before --only grid,riflemen --trials 4e6

The workloads are :mod:`bench_kernel`'s (``single`` and ``sequence`` on the plain kernel;
``activation`` on the spending kernel, its fixed policy; ``defended``, ``grid``,
``grid_track``, ``grid_focus``, ``turns`` and ``turns_one``) and :mod:`bench_units`'s
(``riflemen``, ``jack_vs_unit``, ``jack_best``, ``two_targets``), each run as
``mh.simulate(scenario, trials=N, seed=1)`` through the kernel the package picks, best of
``--repeats`` in a fresh process per checkout, thread count and round, the two checkouts
taking turns (``this, other, other, this, ...``) so that both see the same load. Each
process first runs every workload once (compiling or loading its kernel).

Printed per thread count: ns per trial of each (the best over the rounds), the ratio
this / other, each round's ratio, which kernel serves the workload here, and the target of
the kernel rebuild: the plain and spending kernels at most 1.05x, every other workload at
most 1.25x. Where the two checkouts' kill figures differ at the same seed a note says so
(the same dice stream gives the same kill bit for bit).
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

#: Workloads, in the order printed.
WORKLOADS = ("single", "sequence", "activation", "defended", "grid", "grid_track", "grid_focus",
             "turns", "turns_one", "riflemen", "jack_vs_unit", "jack_best", "two_targets")
#: Most this / other a workload may take, by the kernel serving it here.
LIMITS = {"plain": 1.05, "spend": 1.05}
LIMIT = 1.25

_CHILD = """
import json, sys, time
import numba
import mathhammer as mh  # first: the checkout on PYTHONPATH, before the benchmarks' own path
sys.path.insert(0, sys.argv[1])
from bench_kernel import activation_workloads, fixed_policies, workloads
from bench_units import unit_workloads
threads, trials, repeats = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
numba.set_num_threads(threads)
scen = {k: v[1] for k, v in workloads().items()}
scen.update({k: v[1] for k, v in activation_workloads().items()})
scen["activation"] = fixed_policies(scen["activation"])
scen.update({k: v[1] for k, v in unit_workloads().items()})
out = {"mathhammer": mh.__file__, "ns": {}, "kill": {}, "kernel": {}}
for name in sys.argv[5].split(","):
    s = scen[name]
    out["kill"][name] = mh.simulate(s, trials=trials, seed=1).kill  # compiles or loads
    try:  # which kernel serves it (this checkout's names; an older one may lack them)
        from mathhammer.montecarlo._kernels.variant import variant_of
        from mathhammer.montecarlo.encode import encode
        enc = encode(s)
        out["kernel"][name] = ("plain" if enc.plain else "spend" if enc.spend
                               else variant_of(enc.tables)[0])
    except Exception:
        out["kernel"][name] = "?"
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        mh.simulate(s, trials=trials, seed=1)
        best = min(best, time.perf_counter() - t0)
    out["ns"][name] = best / trials * 1e9
print(json.dumps(out))
"""


def run_child(checkout: Path, names: list[str], threads: int, trials: int, repeats: int) -> dict:
    """ns per trial of each workload with the mathhammer of ``checkout`` (a fresh process)."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    done = subprocess.run([sys.executable, "-c", _CHILD, str(HERE), str(threads), str(trials),
                           str(repeats), ",".join(names)], env=env, capture_output=True,
                          text=True, cwd=checkout)
    if done.returncode != 0:
        sys.exit(f"the child for {checkout} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def compare(checkouts: dict, names: list[str], threads: int, args) -> bool:
    """Time both checkouts on ``threads`` threads and print the table; True when every
    workload is within its limit."""
    best: dict = {c: {} for c in checkouts}
    rounds: list = []
    kernel: dict = {}
    for r in range(args.rounds):
        order = ["this", "other"] if r % 2 == 0 else ["other", "this"]
        got = {c: run_child(checkouts[c], names, threads, args.trials, args.repeats) for c in order}
        rounds.append({n: got["this"]["ns"][n] / got["other"]["ns"][n] for n in names})
        kernel = got["this"]["kernel"]
        for c in checkouts:
            for n in names:
                best[c][n] = min(best[c].get(n, float("inf")), got[c]["ns"][n])
        for n in names:
            if got["this"]["kill"][n] != got["other"]["kill"][n]:
                print(f"note: {n}: kill {got['this']['kill'][n]} here, "
                      f"{got['other']['kill'][n]} there (the dice stream differs)")
    print(f"\n{threads} Numba thread(s), {args.trials:,} trials, best of {args.repeats} in each "
          f"of {args.rounds} fresh processes per checkout, taking turns")
    print(f"{'workload':13s} {'kernel':8s} {'other ns':>9s} {'this ns':>8s} {'this/other':>10s}"
          f"  per round          limit")
    ok = True
    for n in names:
        o, t = best["other"][n], best["this"][n]
        limit = LIMITS.get(kernel.get(n), LIMIT)
        met = t / o <= limit
        ok &= met
        per = ", ".join(f"{x[n]:.2f}" for x in rounds)
        print(f"{n:13s} {kernel.get(n, '?'):8s} {o:9.1f} {t:8.1f} {t / o:10.2f}  {per:17s}  "
              f"<= {limit}: {'met' if met else 'MISSED'}")
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("other", type=Path, help="the other checkout (e.g. a worktree of the start)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3, help="runs per process (best kept)")
    ap.add_argument("--trials", type=lambda s: int(float(s)), default=1_000_000)
    ap.add_argument("--threads", default="1,2", help="thread counts, comma-separated")
    ap.add_argument("--only", default=",".join(WORKLOADS), help="workloads, comma-separated")
    args = ap.parse_args()
    names = [n for n in args.only.split(",") if n]
    unknown = sorted(set(names) - set(WORKLOADS))
    if unknown:
        sys.exit(f"unknown workloads: {', '.join(unknown)} (known: {', '.join(WORKLOADS)})")
    checkouts = {"this": ROOT, "other": args.other.resolve()}
    print(f"this: {ROOT}\nother: {checkouts['other']}")
    ok = True
    for threads in (int(t) for t in args.threads.split(",")):
        ok &= compare(checkouts, names, threads, args)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
