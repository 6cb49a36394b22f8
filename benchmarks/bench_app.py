#!/usr/bin/env python
"""Benchmark of the live explorer: from a changed value to the updated figures.

Run from the repository root (needs the ``app`` extra)::

    .venv/bin/python benchmarks/bench_app.py            # 15 changes of each scenario
    .venv/bin/python benchmarks/bench_app.py --changes 5

Measured in one process, on the explorer a notebook gets (:func:`mathhammer.explore`), with
the kernels loaded by a warm-up change first:

1. **an exact damage-track scenario** (a heavy warjack's two fists, 2 focus on best play,
   against DEF 13 / ARM 17 / 28 boxes; the method "auto" answers it exactly): ARM is typed in
   (the ARM field's value set, as the page sets it), and the time runs until the page's pieces
   are swapped in: the document read, the exact figures computed, the main figure drawn to
   PNG, the headline and tables written (the numbers go up first, the figure when drawn;
   both are timed). Target: under 300 ms.
2. **a Monte Carlo grid scenario** (a heavy warjack against a heavy warjack's damage grid,
   best play): the time to the first estimate (20,000 trials, its figure drawn) and to the
   last stage (200,000 trials). Target: the first estimate under 500 ms.

Each change alternates between two values, so every change is a new computation. Medians and
worst cases over ``--changes`` changes; the split of the median into computing and drawing is
printed beside it. The browser adds its own round trip (a websocket message each way and
Bokeh replacing an image), not counted here.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import mathhammer as mh
from mathhammer.app.document import put, to_scenario, new_document

TRACK = {"simulation": {"trials": 200_000, "seed": 1},
         "target": {"name": "Solo", "def": 13, "arm": 17, "boxes": 28},
         "attackers": [{"card": "heavy_warjack", "focus": 2}]}


def _changes(ex, key: str, values, n: int) -> list[list[tuple[str, float]]]:
    """Set ``key`` to each of ``values`` in turn, ``n`` times; the timings of each change."""
    out = []
    for i in range(n):
        before = len(ex.timings)
        ex.form.fields[key].widget.value = values[i % len(values)]
        ex.runner.wait()
        out.append(ex.timings[before:])
    return out


def _stage_split(ex) -> str:
    a = ex.last_answer
    return f"last stage computed in {1e3 * a.seconds:.0f} ms"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--changes", type=int, default=15)
    args = ap.parse_args(argv)
    print(f"mathhammer {mh.__version__}; {os.cpu_count()} CPUs; {args.changes} changes each")

    ex = mh.explore(to_scenario(TRACK))
    ex.runner.wait()
    _changes(ex, "target.arm", ["16", "17"], 2)  # warm-up
    got = _changes(ex, "target.arm", ["16", "17"], args.changes)
    assert all([m for m, _, _ in t] == ["exact", "exact"] for t in got), got
    numbers = [1e3 * t[0][2] for t in got]
    final = [1e3 * t[-1][2] for t in got]
    print(f"1. exact damage track, ARM typed -> numbers: median {statistics.median(numbers):.0f} ms; "
          f"-> figure drawn: median {statistics.median(final):.0f} ms, worst {max(final):.0f} ms "
          f"({_stage_split(ex)}); target < 300 ms")

    ex = mh.explore(to_scenario(put(new_document(), ("target", "arm"), 17)))
    ex.runner.wait()
    _changes(ex, "target.arm", ["16", "17"], 2)  # warm-up
    got = _changes(ex, "target.arm", ["16", "17"], args.changes)
    assert all(len(t) == 4 and t[0][0] == "monte_carlo" for t in got), got
    numbers = [1e3 * t[0][2] for t in got]
    first = [1e3 * t[1][2] for t in got]
    last = [1e3 * t[-1][2] for t in got]
    print(f"2. Monte Carlo grid, ARM typed -> first estimate (20,000 trials): numbers median "
          f"{statistics.median(numbers):.0f} ms; with its figure drawn: median "
          f"{statistics.median(first):.0f} ms, worst {max(first):.0f} ms; target < 500 ms")
    print(f"   -> last stage (200,000 trials): median {statistics.median(last):.0f} ms, "
          f"worst {max(last):.0f} ms ({_stage_split(ex)})")

    # where the time goes: the same scenario computed and drawn by hand
    from mathhammer.app.render import render
    from mathhammer.simulation import simulate

    scen = to_scenario(ex.doc)
    t0 = time.perf_counter()
    res = simulate(scen, trials=20_000, seed=1)
    t1 = time.perf_counter()
    render(res)
    t2 = time.perf_counter()
    print(f"   split of a first estimate: computing {1e3 * (t1 - t0):.0f} ms, drawing the figure "
          f"{1e3 * (t2 - t1):.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
