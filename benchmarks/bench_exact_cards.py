#!/usr/bin/env python
"""Benchmark of the exact engine on damage grids (issue 20, "the exact engine on cards"; issue 50, "say no at once").

Run from the repository root::

    .venv/bin/python benchmarks/bench_exact_cards.py                   # best of 5
    .venv/bin/python benchmarks/bench_exact_cards.py --before ../old   # and an older checkout's
    .venv/bin/python benchmarks/bench_exact_cards.py --best-play       # and the default play once
    .venv/bin/python benchmarks/bench_exact_cards.py --estimates       # best play's edges, estimated and built
    .venv/bin/python benchmarks/bench_exact_cards.py --estimates --beyond   # and those refused (minutes)

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
for the tour).

``--best-play`` runs the cards' default play once (best play, backward induction): the tour,
whose best play would need some 160 million transitions against the engine's limit of 82
million, must be refused at once (target: under 1 s, the one-line refusal printed);
``grid_feedback`` ("damage to L" is beyond the estimate: it runs); and the pairings nearest
the limit, which must solve (a heavy warbeast against a heavy warbeast and a heavy warjack, a
warcaster against a heavy warbeast) or be refused at once (two warcasters against a light
warjack, estimated at 89 million).

``--estimates`` measures, for every bundled card whose attacker spends points by best play
against every card with a grid or spiral, and the tour: the edges
:func:`mathhammer.exact.induction_work.induction_work` estimates (backward induction's, and in
all with the forward pass), the edges the engine builds (``Engine.built``: backward
induction, then the forward pass along its decisions, as ``mh.simulate`` runs them) and the
seconds; with ``--beyond`` the pairings refused are run too, past the limit, to count theirs.
It checks that every pairing the estimate lets through was built within the limit and that
every pairing it refused was beyond it (where counted).

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
    ap.add_argument("--estimates", action="store_true", help="best play's edges, estimated and built, per pairing")
    ap.add_argument("--beyond", action="store_true", help="with --estimates: run the pairings refused too")
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
    failed = False
    if args.best_play:
        failed |= _best_play()
    if args.estimates:
        failed |= _estimates(args.beyond)
    return int(failed)


#: The heavy pairings nearest the limit, and whether the exact engine solves best play on them.
NEAR_LIMIT = ((("heavy_warbeast",), "heavy_warbeast", True), (("heavy_warbeast",), "heavy_warjack", True),
              (("warcaster",), "heavy_warbeast", True), (("warcaster", "warcaster"), "light_warjack", False))
#: Seconds within which the tour's best play must be refused.
REFUSE_WITHIN = 1.0


def _best_play() -> bool:
    """The default play once: the tour refused within :data:`REFUSE_WITHIN`, grid_feedback,
    and :data:`NEAR_LIMIT` solved or refused as they should be. True if a check failed."""
    from mathhammer import simulate
    from mathhammer.cards import scenario_from_cards
    from mathhammer.errors import ExactNotApplicable

    print("\ndefault play (best play, the cards' policy):")
    failed = False
    for name in TARGETS:
        (wall, cpu), out = _time(name, fixed=False)
        said = out if isinstance(out, str) else f"kill {out['kill']:.6f}"
        check = ""
        if name == "tour":
            ok = said.startswith("refused: ") and wall < REFUSE_WITHIN
            check = f" [refused within {REFUSE_WITHIN:.0f} s: {'met' if ok else 'MISS'}]"
            failed |= not ok
        print(f"  {name}: {wall:.2f} s ({cpu:.2f} s CPU){check}, {said}")
    for attackers, target, solves in NEAR_LIMIT:
        t0 = time.perf_counter()
        try:
            said = f"solved, kill {simulate(scenario_from_cards(list(attackers), target), method='exact').kill:.6f}"
            ok = solves
        except ExactNotApplicable as err:
            said = f"refused: {str(err)[:76]}..."
            ok = not solves and time.perf_counter() - t0 < REFUSE_WITHIN
        failed |= not ok
        print(f"  {' + '.join(attackers)} vs {target}: {time.perf_counter() - t0:.2f} s, {said}"
              f"{'' if ok else '  MISS'}")
    return failed


def _pairings() -> list[tuple[tuple[str, ...], str]]:
    """Every bundled card whose attacker spends points by best play against every card with
    a grid or spiral (the colossal's two grids are refused before any estimate), and the tour."""
    from mathhammer.cards import list_cards, scenario_from_cards

    cards = [c.name for c in list_cards() if c.bundled]
    players = [c for c in cards if scenario_from_cards([c], "heavy_warjack").attackers[0].plays_best]
    boards = [c for c in cards if (t := scenario_from_cards(["solo"], c).target).card is not None and not t.colossal]
    return [((a,), t) for a in players for t in boards] + [(("heavy_warjack", "heavy_warjack"), "heavy_warjack")]


def _estimates(beyond: bool) -> bool:
    """The table of ``--estimates``; True if a pairing fell on the wrong side of the limit."""
    import numpy as np

    from mathhammer.cards import scenario_from_cards
    from mathhammer.errors import ExactNotApplicable
    from mathhammer.exact.bounds import MAX_CARD_INDUCTION_EDGES, prepare
    from mathhammer.exact.forward import result_of
    from mathhammer.exact.induction import Engine
    from mathhammer.exact.induction_work import induction_work
    from mathhammer.exact.setup import Setup

    print(f"\nbest play's edges (millions), estimated and built; the limit is {MAX_CARD_INDUCTION_EDGES / 1e6:.0f}")
    print(f"{'attackers vs target':48s} {'estimate':>9s} {'ms':>4s} {'built':>7s} {'est/built':>9s} "
          f"{'induction':>10s} {'s':>6s}  verdict")
    print(f"{'':48s} {'':>9s} {'':>4s} {'':>7s} {'':>9s} {'est/built':>10s}")
    failed = False
    for attackers, target in _pairings():
        scen = scenario_from_cards(list(attackers), target)
        t0 = time.perf_counter()
        try:
            setup, verdict = prepare(scen, induction=True), "solved"
        except ExactNotApplicable:
            setup, verdict = None, "refused"
        ms = 1000 * (time.perf_counter() - t0)
        work = induction_work(setup if setup is not None else Setup(scen))
        line = f"{' + '.join(attackers) + ' vs ' + target:48s} {work.total / 1e6:9.1f} {ms:4.0f}"
        if setup is None and not beyond:
            print(f"{line} {'':>7s} {'':>9s} {'':>10s} {'':>6s}  refused at once")
            continue
        engine = Engine(setup or Setup(scen), objective=scen.objective, edge_budget=10**15)
        t0 = time.perf_counter()
        engine.value(0, engine.setup.start, np.zeros(1, dtype=np.int64))  # backward induction
        induction = engine.built
        result_of(scen, engine)  # the forward pass along its decisions
        seconds = time.perf_counter() - t0
        within = engine.built <= MAX_CARD_INDUCTION_EDGES
        ok = within == (verdict == "solved")
        failed |= not ok
        verdict = (("solved" if within else "let through, BEYOND the limit") if verdict == "solved"
                   else ("refused at once (built past the limit)" if not within else "refused, WITHIN the limit"))
        print(f"{line} {engine.built / 1e6:7.1f} {work.total / engine.built:9.2f} "
              f"{work.induction / induction:10.2f} {seconds:6.1f}  {verdict}")
    print("(estimate: backward induction's edges and a share of them for the forward pass; built: "
          "Engine.built, both passes; induction est/built: backward induction's alone)")
    return failed


if __name__ == "__main__":
    raise SystemExit(main())
