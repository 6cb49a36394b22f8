#!/usr/bin/env python
"""Benchmark of the first run after installing: the cold compile of each kernel (issue 18).

Run from the repository root::

    .venv/bin/python benchmarks/bench_cold.py                    # every workload, 1 round
    .venv/bin/python benchmarks/bench_cold.py --rounds 2 --only basic,units

Each workload is a scenario whose first run compiles one kernel (the general kernel's
variants of :mod:`mathhammer.montecarlo._kernels.variant`, the plain and spending kernels),
run by ``mh.simulate(scenario, trials=2000, seed=1)`` in a fresh process with an empty
``NUMBA_CACHE_DIR``, so that nothing is loaded from a cache; ``demo`` is the whole
``mathhammer demo`` process. Each runs twice per round, the two taking turns: with Numba's
own analyses (``MATHHAMMER_NUMBA_PASSES=0``, the baseline) and with mathhammer's faster
equivalents (:mod:`mathhammer._core.numba_passes`, the default), so the ratio is measured in
one run on one machine. Both runs' figures (the kill probability) must agree. With
``--against CHECKOUT`` the baseline is instead the first run of another checkout (a
``git worktree`` of an earlier commit), each with its own analyses::

    .venv/bin/python benchmarks/bench_cold.py --against /tmp/before --only units,full

Printed: wall seconds of the first run (the ``simulate`` call, or the whole ``demo``
process), the ratio, and issue 18's targets: a first ``mathhammer demo`` under 10 s, a first
general-kernel run under 15 s, on two cores. Effective cores at the start and the end
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
    "plain": ("plain kernel", "file:examples/ranged_cover_infantry.toml", None),
    "spend": ("spending kernel", "file:examples/heavy_warjack_focus.toml", None),
    "basic": ("general kernel, basic variant", "file:mathhammer/data/demo.toml", 15.0),
    "lean": ("general kernel, lean variant", "file:examples/card_matchup.toml", 15.0),
    "units": ("general kernel, units variant", "cards:heavy_warjack:infantry_unit", 15.0),
    "lasting": ("general kernel, lasting variant", "file:examples/fire_and_corrosion.toml", 15.0),
    "full": ("general kernel, full variant (several targets)",
             "file:examples/several_targets.toml", 15.0),
    "demo": ("`mathhammer demo`, the whole process", "demo", 10.0),
}

_CHILD = """
import sys, time
import mathhammer as mh
how = sys.argv[1]
if how.startswith("file:"):
    from mathhammer.io.scenario_files import load_scenario
    scenario = load_scenario(how[5:])
else:
    from mathhammer.io.scenario_files import scenario_from_cards
    _, attacker, target = how.split(":")
    scenario = scenario_from_cards([attacker], target)
began = time.perf_counter()
result = mh.simulate(scenario, trials=2000, seed=1, progress=False)
print(time.perf_counter() - began, result.kill)
"""


def first_run(how: str, faster: bool, root: str = ROOT) -> tuple[float, str]:
    """Seconds of the first run of ``how`` in a fresh process and cache, and its figure,
    with the mathhammer package of the checkout at ``root``."""
    with tempfile.TemporaryDirectory(prefix="mathhammer-cold-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=root,
                   MATHHAMMER_NUMBA_PASSES="1" if faster else "0")
        if how == "demo":
            began = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "mathhammer", "demo"], cwd=root,
                                  env=env, capture_output=True, text=True)
            seconds = time.perf_counter() - began
            figure = next((ln for ln in done.stdout.splitlines() if "kill" in ln.lower()), "")
        else:
            done = subprocess.run([sys.executable, "-c", _CHILD, how], cwd=root, env=env,
                                  capture_output=True, text=True)
            seconds, _, figure = done.stdout.strip().partition(" ")
            seconds = float(seconds) if done.returncode == 0 else float("nan")
    if done.returncode != 0:
        raise SystemExit(f"{how}: the run failed:\n{done.stderr[-2000:]}")
    return seconds, figure.strip()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=1, help="runs of each, taking turns (best kept)")
    p.add_argument("--only", default=",".join(WORKLOADS),
                   help=f"comma-separated workloads (default all: {','.join(WORKLOADS)})")
    p.add_argument("--against", metavar="CHECKOUT",
                   help="compare with another checkout of mathhammer (a git worktree of an "
                        "earlier commit, say) instead of Numba's own analyses: the baseline "
                        "column is its first run, with its own analyses")
    args = p.parse_args(argv)
    other = os.path.abspath(args.against) if args.against else None
    if other and not os.path.isdir(os.path.join(other, "mathhammer")):
        p.error(f"--against: no mathhammer package in {args.against!r}")
    names = [n for n in args.only.split(",") if n]
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown or args.rounds < 1:
        p.error(f"--only: unknown workload {unknown[0]!r}" if unknown else "--rounds: at least 1")
    from cores import effective_cores

    print(f"mathhammer cold-compile benchmark  {time.strftime('%Y-%m-%d')}  "
          f"effective cores {effective_cores():.2f}")
    base = "other s" if other else "Numba s"
    print(f"{'workload':8s}  {'compiles':48s}  {base:>8s}  {'faster s':>8s}  "
          f"{'ratio':>5s}  {'target':>6s}  met")
    for name in names:
        what, how, target = WORKLOADS[name]
        best = {False: float("inf"), True: float("inf")}
        figures = set()
        for _ in range(args.rounds):
            for faster in (False, True):
                if other and not faster:
                    seconds, figure = first_run(how, True, other)
                else:
                    seconds, figure = first_run(how, faster)
                best[faster] = min(best[faster], seconds)
                figures.add(figure)
        if len(figures) != 1:
            raise SystemExit(f"{name}: the two compiles gave different figures: {figures}")
        met = "-" if target is None else ("yes" if best[True] < target else "no")
        print(f"{name:8s}  {what:48s}  {best[False]:8.1f}  {best[True]:8.1f}  "
              f"{best[False] / best[True]:5.2f}  {target or '-':>6}  {met}", flush=True)
    against = f"other: {other}" if other else "Numba: MATHHAMMER_NUMBA_PASSES=0"
    print(f"  wall seconds of the first run in a fresh process and cache, best of {args.rounds}; "
          f"{against}; effective cores at the end {effective_cores():.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
