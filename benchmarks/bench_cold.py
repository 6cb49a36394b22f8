#!/usr/bin/env python
"""Benchmark of the first run after installing: the cold compile of each kernel.

Run from the repository root::

    .venv/bin/python benchmarks/bench_cold.py                    # every workload, 2 rounds
    .venv/bin/python benchmarks/bench_cold.py --rounds 1 --only basic,units
    .venv/bin/python benchmarks/bench_cold.py --python /tmp/venv67/bin/python   # and Numba 0.67

Each workload is a scenario whose first run compiles one kernel (the general kernel's
variants of :mod:`mathhammer.montecarlo._kernels.variant`, the plain and spending kernels),
run by ``mh.simulate(scenario, trials=2000, seed=1)`` (``trade``: ``mh.simulate_trade`` of a
trade file, the trade kernel) in a fresh process with an empty
``NUMBA_CACHE_DIR``, so that nothing is loaded from a cache; ``demo`` is the whole
``mathhammer demo`` process. Each interpreter given (this one first, then every
``--python``: another virtual environment with another Numba, mathhammer taken from this
checkout) runs each workload ``--rounds`` times, taking turns; the best is kept. All runs of
a workload must give the same figure (the kill probability). With ``--against CHECKOUT`` a
first column is the first run of another checkout (a ``git worktree`` of an earlier commit)
on this interpreter, and the ratio is against it::

    .venv/bin/python benchmarks/bench_cold.py --against /tmp/before --only units,full

Printed: wall seconds of the first run per interpreter (its Numba version heads the column)
and the targets: the demo, plain and spending kernels at most 8 s, every variant of the
general kernel at most 15 s, on two cores. Effective cores at the start and the end
(:mod:`cores`): a compile runs on one core, so a job holding the other one changes little.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

#: Workload -> (what it compiles, how the scenario is made, the issue's target in seconds).
WORKLOADS = {
    "plain": ("plain kernel", "file:examples/ranged_cover_infantry.toml", 8.0),
    "spend": ("spending kernel", "file:examples/heavy_warjack_focus.toml", 8.0),
    "basic": ("general kernel, basic variant", "file:mathhammer/data/demo.toml", 15.0),
    "lean": ("general kernel, lean variant", "file:examples/card_matchup.toml", 15.0),
    "units_basic": ("general kernel, units_basic variant", "cards:heavy_warjack:infantry_unit", 15.0),
    "units": ("general kernel, units variant (Tough)", "cards:heavy_warjack:heavy_infantry_unit", 15.0),
    "lasting": ("general kernel, lasting variant", "file:examples/fire_and_corrosion.toml", 15.0),
    "several": ("general kernel, units variant (several targets)",
                "file:examples/several_targets.toml", 15.0),
    "full": ("general kernel, full variant (several targets, fire)", "fire:examples/several_targets.toml",
             15.0),
    "trade": ("the trade kernel (docs/trades.md)", "trade:examples/trades/heavy_duel.toml", 15.0),
    "trade_fire": ("the trade kernel with continuous effects", "tradefire:examples/trades/heavy_duel.toml",
                   15.0),
    "demo": ("`mathhammer demo`, the whole process", "demo", 8.0),
}

_CHILD = """
import sys, time
import mathhammer as mh
how = sys.argv[1]
if how.startswith(("trade:", "tradefire:")):
    trade = mh.load_trade(how.partition(":")[2])
    if how.startswith("tradefire:"):  # the first model starts on fire: the maintenance phase too
        import dataclasses
        red = trade.sides[0].models[0]
        red = dataclasses.replace(red, target=dataclasses.replace(red.target, effects=frozenset({"fire"})))
        trade = dataclasses.replace(trade, sides=(mh.Side(trade.sides[0].name, [red]), trade.sides[1]))
    began = time.perf_counter()
    result = mh.simulate_trade(trade, trials=2000, seed=1)
    print(time.perf_counter() - began, result.wins)
    sys.exit(0)
if how.startswith(("file:", "fire:")):
    import dataclasses
    from mathhammer.io.scenario_files import load_scenario
    scenario = load_scenario(how.partition(":")[2])
    if how.startswith("fire:"):  # its first target on fire: the maintenance phase too
        first = dataclasses.replace(scenario.targets[0], effects=frozenset({"fire"}))
        scenario = dataclasses.replace(scenario, target=first, targets=(first,) + scenario.targets[1:])
else:
    from mathhammer.io.scenario_files import scenario_from_cards
    _, attacker, target = how.split(":")
    scenario = scenario_from_cards([attacker], target)
began = time.perf_counter()
result = mh.simulate(scenario, trials=2000, seed=1, progress=False)
print(time.perf_counter() - began, result.kill)
"""


def first_run(how: str, python: str = sys.executable, root: str = ROOT) -> tuple[float, str]:
    """Seconds of the first run of ``how`` in a fresh process and cache of the interpreter
    ``python``, and its figure, with the mathhammer package of the checkout at ``root``."""
    with tempfile.TemporaryDirectory(prefix="mathhammer-cold-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=root)
        if how == "demo":
            began = time.perf_counter()
            done = subprocess.run([python, "-m", "mathhammer", "demo"], cwd=root,
                                  env=env, capture_output=True, text=True)
            seconds = time.perf_counter() - began
            figure = next((ln for ln in done.stdout.splitlines() if "kill" in ln.lower()), "")
        else:
            done = subprocess.run([python, "-c", _CHILD, how], cwd=root, env=env,
                                  capture_output=True, text=True)
            seconds, _, figure = done.stdout.strip().partition(" ")
            seconds = float(seconds) if done.returncode == 0 else float("nan")
    if done.returncode != 0:
        raise SystemExit(f"{how}: the run failed:\n{done.stderr[-2000:]}")
    return seconds, figure.strip()


def numba_version(python: str) -> str:
    """The Numba version of the interpreter ``python``."""
    done = subprocess.run([python, "-c", "import numba; print(numba.__version__)"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"--python {python}: no Numba there:\n{done.stderr[-500:]}")
    return done.stdout.strip()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=2, help="runs of each, taking turns (best kept)")
    p.add_argument("--only", default=",".join(WORKLOADS),
                   help=f"comma-separated workloads (default all: {','.join(WORKLOADS)})")
    p.add_argument("--python", action="append", default=[], metavar="PYTHON",
                   help="another interpreter to run the first runs on (a virtual environment "
                        "with another Numba); may be given more than once")
    p.add_argument("--against", metavar="CHECKOUT",
                   help="another checkout of mathhammer (a git worktree of an earlier commit, "
                        "say) whose first runs, on this interpreter, are the baseline column")
    args = p.parse_args(argv)
    other = os.path.abspath(args.against) if args.against else None
    if other and not os.path.isdir(os.path.join(other, "mathhammer")):
        p.error(f"--against: no mathhammer package in {args.against!r}")
    names = [n for n in args.only.split(",") if n]
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown or args.rounds < 1:
        p.error(f"--only: unknown workload {unknown[0]!r}" if unknown else "--rounds: at least 1")
    from cores import effective_cores

    pythons = [sys.executable] + args.python
    versions = [numba_version(py) for py in pythons]
    columns = ([("other", sys.executable, other)] if other else []) + [
        (f"Numba {v}", py, ROOT) for v, py in zip(versions, pythons)]
    print(f"mathhammer cold-compile benchmark  {time.strftime('%Y-%m-%d')}  "
          f"effective cores {effective_cores():.2f}")
    print(f"{'workload':8s}  {'compiles':48s}  " + "  ".join(f"{c[0]:>11s}" for c in columns)
          + ("  ratio" if other else "") + f"  {'target':>6s}  met")
    for name in names:
        what, how, target = WORKLOADS[name]
        best = [float("inf")] * len(columns)
        figures = set()
        for _ in range(args.rounds):
            for k, (_, python, root) in enumerate(columns):
                seconds, figure = first_run(how, python, root)
                best[k] = min(best[k], seconds)
                figures.add(figure)
        if len(figures) != 1:
            raise SystemExit(f"{name}: the first runs gave different figures: {figures}")
        ours = best[1:] if other else best
        met = "yes" if all(b <= target for b in ours) else "no"
        ratio = f"  {best[0] / best[1]:5.2f}" if other else ""
        print(f"{name:8s}  {what:48s}  " + "  ".join(f"{b:11.1f}" for b in best) + ratio
              + f"  {target:6.0f}  {met}", flush=True)
    print(f"  wall seconds of the first run in a fresh process and cache, best of {args.rounds}; "
          f"effective cores at the end {effective_cores():.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
