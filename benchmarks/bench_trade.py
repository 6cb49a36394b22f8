#!/usr/bin/env python
"""Benchmark of trades: a trade's time per trial against a single activation sequence of the
same attacks.

Run from the repository root::

    .venv/bin/python benchmarks/bench_trade.py            # 400,000 trials, best of 5
    .venv/bin/python benchmarks/bench_trade.py --quick    # smoke run

``duel``: two heavy warjack cards (grids, two fists, 3 focus, ``examples/trades/heavy_duel.toml``
with the default fixed policy: the kernels compared, not the decisions) trading over 3
rounds, Red charging first; its baseline is a single activation sequence of the same
attacks: Red's heavy warjack attacking Blue's over 3 rounds (``turns = 3``, a scenario, the
general kernel). ``duel_best``: the same duel as the file plays it (best play), its baseline
Red's attacks with best play too: both runs with their tables solved already (a trade's
first run in a process solves them, timed and printed apart; the baseline's are solved once
before it is timed), so the trials alone are compared. ``units``: the unit clash of
``examples/trades/unit_clash.toml`` over 3 rounds; its baseline is the riflemen shooting the
heavy infantry over 3 rounds. Both runs of a pair in this process, alternately, best of
``--repeats``, after a warm-up (the compile is not timed); on 1 thread and on every core.
The issue's target: a trade at most 3x its baseline per trial.

``--matrix``: a 12 x 12 trade matrix of the bundled cards a trade models (:data:`MATRIX_CARDS`,
actions included) at 3 rounds and 200,000 trials a pairing, on the local backend (all cores):
its wall time and time per point.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET = 3.0
#: The 12 cards of ``--matrix``: every bundled card a trade models, and their other actions.
MATRIX_CARDS = ["heavy_warjack", "light_warjack", "light_warjack:ranged", "heavy_warbeast",
                "light_warbeast", "heavy_infantry", "infantry", "infantry:melee", "solo",
                "solo:ranged", "infantry_unit", "heavy_infantry_unit"]


def workloads():
    """``{key: (title, trade, baseline scenario)}``."""
    import mathhammer as mh

    out = {}
    for key, file, title in (("duel", "heavy_duel.toml", "two heavy warjacks (grids), 3 rounds, fixed policy"),
                             ("duel_best", "heavy_duel.toml", "the same, best play (tables solved)"),
                             ("units", "unit_clash.toml", "10 riflemen and 5 heavy infantry, 3 rounds")):
        trade = mh.load_trade(ROOT / "examples" / "trades" / file)
        if key == "duel":
            trade = dataclasses.replace(trade, sides=tuple(
                mh.Side(s.name, [dataclasses.replace(m, attacker=dataclasses.replace(m.attacker, spend=mh.Spend(),
                                                                                     policy="fixed"))
                                 for m in s.models]) for s in trade.sides))
        first, second = trade.order
        attacker, target = first.models[0], second.models[0]
        one = attacker.attacker if key == "duel_best" else dataclasses.replace(attacker.attacker, spend=mh.Spend(),
                                                                               policy="fixed")
        out[key] = (title, trade, mh.Scenario(target.target, [one], turns=trade.rounds))
    return out


def baseline(base):
    """``run(trials)`` of the baseline scenario's trials, its best play solved beforehand."""
    from mathhammer.montecarlo.run import monte_carlo
    from mathhammer.play import needs_play, solve

    table = solve(base, reach=False) if needs_play(base) else None
    return lambda n, seed=1: monte_carlo(base, n, seed, explain=False, table=table)


def best_of(run, repeats):
    run(10_000)  # warm: compiled or loaded
    best = math.inf
    for _ in range(repeats):
        began = time.perf_counter()
        run(None)
        best = min(best, time.perf_counter() - began)
    return best


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--trials", type=int, default=400_000)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--quick", action="store_true", help="40,000 trials, best of 2")
    p.add_argument("--matrix", action="store_true", help="also time the 12 x 12 trade matrix")
    args = p.parse_args(argv)
    trials, repeats = (40_000, 2) if args.quick else (args.trials, args.repeats)
    import numba

    import mathhammer as mh

    cores = numba.config.NUMBA_NUM_THREADS
    print(f"mathhammer trade benchmark  {time.strftime('%Y-%m-%d')}  {trials:,} trials, best of {repeats}")
    print(f"  {'workload':<8} {'threads':>7} {'trade ns':>9} {'base ns':>8} {'ratio':>6}  target {TARGET:.0f}x")
    worst = 0.0
    for key, (title, trade, base) in workloads().items():
        if key == "duel_best":
            began = time.perf_counter()
            mh.simulate_trade(trade, trials=1_000, seed=1)
            print(f"  {key}: its first run, solving best play's tables, {time.perf_counter() - began:.2f} s")
        for threads in sorted({1, cores}):
            numba.set_num_threads(threads)
            t_trade = best_of(lambda n: mh.simulate_trade(trade, trials=n or trials, seed=1), repeats)
            run_base = baseline(base)
            t_base = best_of(lambda n: run_base(n or trials), repeats)
            ratio = t_trade / t_base
            worst = max(worst, ratio)
            print(f"  {key:<8} {threads:7d} {1e9 * t_trade / trials:9.0f} {1e9 * t_base / trials:8.0f} "
                  f"{ratio:6.2f}  {title}")
    numba.set_num_threads(cores)
    print(f"  worst ratio {worst:.2f}: {'met' if worst <= TARGET else 'missed'} (at most {TARGET:.0f}x)")
    if args.matrix:
        from mathhammer.studies.trade_matrices import trade_matrix

        n = 20_000 if args.quick else 200_000
        began = time.perf_counter()
        frame = trade_matrix(MATRIX_CARDS, MATRIX_CARDS, rounds=3, trials=n, seed=1, progress=False)
        took = time.perf_counter() - began
        points = frame.attrs["points"]
        print(f"  trade matrix 12 x 12, 3 rounds, {n:,} trials a pairing, local backend on {cores} "
              f"threads: {took:.1f} s ({1000 * took / points:.0f} ms a point, {points} points)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
