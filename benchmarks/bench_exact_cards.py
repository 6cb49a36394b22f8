#!/usr/bin/env python
"""Benchmark of the exact engine on damage grids (issue 20, "the exact engine on cards").

Run from the repository root::

    .venv/bin/python benchmarks/bench_exact_cards.py                   # best of 5
    .venv/bin/python benchmarks/bench_exact_cards.py --before ../old   # and an older checkout's
    .venv/bin/python benchmarks/bench_exact_cards.py --best-play       # and the default play once

Two workloads, each timed as ``mh.simulate(scenario, method="exact")`` from the scenario to
the Result (a fresh card every run: nothing is carried from one run to the next), best of
``--repeat`` in one process:

1. **the README tour**: two heavy warjacks (the bundled card, 3 focus each) against a heavy
   warjack's grid, as ``mathhammer run --attacker heavy_warjack --attacker heavy_warjack
   --target heavy_warjack`` builds it. Target: under 2 s.
2. **examples/grid_feedback.toml**: a ram with "damage to L" and a heavy warjack against a
   heavy warjack whose Shield goes with its left arm. Target: under 0.5 s.

Both on their attackers' fixed spending policies (``policy = "fixed"``, the targets' power
field ``"lethal"``): the runs the issue timed (17 s and 3.5 s, 5.6 million registry lookups
for the tour). With the cards' default best play, backward induction needs more than the
engine's 82 million transitions on both, and the run ends in that one-line refusal
(``--best-play`` times how long it takes to say so).

``--before PATH`` runs the same workloads with the ``mathhammer`` of another checkout, in a
child process, round-robin with this one's (one run of each per round, ``--repeat`` rounds),
and compares their figures (every number of ``Result.to_dict()``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGETS = {"tour": 2.0, "grid_feedback": 0.5}


def _scenario(name: str, fixed: bool):
    from mathhammer.io.scenario_files import load_scenario, scenario_from_cards

    if name == "tour":
        sc = scenario_from_cards(["heavy_warjack", "heavy_warjack"], "heavy_warjack", source="command line")
    else:
        sc = load_scenario(os.path.join(ROOT, "examples", "grid_feedback.toml"))
    if not fixed:
        return sc
    attackers = tuple(dataclasses.replace(a, policy="fixed") for a in sc.attackers)
    return dataclasses.replace(sc, attackers=attackers, target=dataclasses.replace(sc.target, power_field="lethal"))


def _time(name: str, fixed: bool = True) -> tuple[tuple[float, float], object]:
    """Seconds of one exact run of workload ``name`` (wall clock, and this process's CPU
    time: on a busy machine the CPU time is about what the run takes alone), and its figures
    (or its refusal)."""
    from mathhammer import simulate
    from mathhammer.errors import ExactNotApplicable

    sc = _scenario(name, fixed)
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        out = simulate(sc, method="exact", progress=False).to_dict()
    except ExactNotApplicable as err:
        out = f"refused: {err}"
    return (time.perf_counter() - t0, time.process_time() - c0), out


def _child(rounds: int) -> None:
    """``--child``: one run of each workload per line read on stdin (the parent waits, so
    the two never run at once), its times as JSON; the figures at the end."""
    figures = {}
    for _ in range(rounds):
        sys.stdin.readline()
        line = {}
        for name in TARGETS:
            line[name], figures[name] = _time(name)
        print(json.dumps(line), flush=True)
    print(json.dumps({"figures": figures}), flush=True)


def _numbers(x, path=""):
    """Every number of a JSON-like tree, by path."""
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _numbers(v, f"{path}.{k}")
    elif isinstance(x, (list, tuple)):
        for i, v in enumerate(x):
            yield from _numbers(v, f"{path}[{i}]")
    elif isinstance(x, (int, float)) and not isinstance(x, bool):
        yield path, float(x)


def _diff(a, b) -> float:
    """Largest absolute difference between two figures' numbers (inf if they differ in shape)."""
    na, nb = dict(_numbers(a)), dict(_numbers(b))
    if na.keys() != nb.keys():
        return float("inf")
    return max((abs(na[k] - nb[k]) for k in na), default=0.0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--repeat", type=int, default=5, help="runs of each workload (best of them)")
    ap.add_argument("--before", metavar="PATH", help="a checkout whose mathhammer to time too")
    ap.add_argument("--best-play", action="store_true", help="also time the default (best play) once")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    import mathhammer
    from mathhammer import simulation

    simulation.EXACT_NOTICE_AFTER = float("inf")  # no notice that a run is slow (where there is one)
    if args.child:
        _child(args.repeat)
        return 0

    print(f"mathhammer from {os.path.dirname(mathhammer.__file__)}; load average "
          f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    child = None
    if args.before:
        env = dict(os.environ, PYTHONPATH=os.path.abspath(args.before))
        child = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--child", "--repeat",
                                  str(args.repeat)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                 env=env, cwd=ROOT)
    now = {name: [] for name in TARGETS}
    then = {name: [] for name in TARGETS}
    figures = {}
    for _ in range(args.repeat):  # round-robin with the child: one run of each per round
        for name in TARGETS:
            seconds, figures[name] = _time(name)
            now[name].append(seconds)
        if child is not None:
            child.stdin.write("go\n")
            child.stdin.flush()
            for name, seconds in json.loads(child.stdout.readline()).items():
                then[name].append(tuple(seconds))
    old = json.loads(child.stdout.readline())["figures"] if child is not None else {}
    if child is not None:
        child.wait()
    print(f"\n{'workload (fixed policies)':26s} {'before':>15s} {'after':>15s} {'ratio':>6s} {'target':>6s}")
    print(f"{'':26s} {'wall / CPU s':>15s} {'wall / CPU s':>15s}")
    for name, target in TARGETS.items():
        wall, cpu = min(w for w, _ in now[name]), min(c for _, c in now[name])
        before = ratio = same = ""
        if then[name]:
            w0, c0 = min(w for w, _ in then[name]), min(c for _, c in then[name])
            before, ratio = f"{w0:7.2f} / {c0:5.2f}", f"{c0 / cpu:5.1f}x"
            same = f", figures: max |diff| {_diff(old[name], figures[name]):.1e}"
        met = "met" if wall < target else "met in CPU time" if cpu < target else "MISSED"
        print(f"{name:26s} {before:>15s} {wall:7.2f} / {cpu:5.2f} {ratio:>6s} {target:5.1f}s  {met}; "
              f"kill {figures[name]['kill']:.6f}{same}")
    print(f"(best of {args.repeat}; ratio of CPU times; load average {os.getloadavg()[0]:.2f} at the end)")
    if args.best_play:
        print("\ndefault play (best play, the cards' policy):")
        for name in TARGETS:
            (wall, cpu), out = _time(name, fixed=False)
            said = out if isinstance(out, str) else f"kill {out['kill']:.6f}"
            print(f"  {name}: {wall:.1f} s ({cpu:.1f} s CPU), {said[:100]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
