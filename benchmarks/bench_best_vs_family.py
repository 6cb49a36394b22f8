#!/usr/bin/env python
"""Monte Carlo best play against the best fixed policy of the family (issue 15).

For the heavy-warjack grid workload of ``bench_kernel.py`` (``grid_focus``) and every pairing
of a bundled attacker card with points against a bundled target card, this script runs best
play (the default) and ``mathhammer.optimize`` (every fixed policy of the family, on the same
dice), both at one common-random-numbers stride, and prints the kill probability of each and
their paired difference with its 95% interval (``mathhammer.paired_difference``).

The family's best is picked on the very dice it is scored on, which flatters it a little
(the maximum of many correlated estimates); best play is not fitted to the dice. A pairing
passes when best play is not below the family's best beyond its interval.

Run from the repository root (a few minutes on 2 cores)::

    .venv/bin/python benchmarks/bench_best_vs_family.py [--trials 200000] [--markdown]
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def pairings():
    """``[(name, Scenario)]``: the grid workload, then every card pairing with points."""
    from bench_kernel import activation_workloads

    from mathhammer.cards import list_cards, load_card, scenario_from_cards

    out = [("bench grid_focus (heavy warjack, 3 focus, vs a heavy grid)", activation_workloads()["grid_focus"][1])]
    names = [c.name for c in list_cards() if c.bundled]
    for a in names:
        card = load_card(a)
        if card.to_attacker().points == 0:
            continue
        for t in names:
            out.append((f"{a} vs {t}", scenario_from_cards([a], t)))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trials", type=lambda s: int(float(s)), default=200_000)
    p.add_argument("--seed", type=int, default=15)
    p.add_argument("--markdown", action="store_true")
    args = p.parse_args(argv)
    import mathhammer as mh

    rows, worse = [], 0
    began = time.perf_counter()
    for name, scen in pairings():
        stride = mh.common_stride([scen])
        best = mh.simulate(scen, trials=args.trials, seed=args.seed, stride=stride)
        family = dataclasses.replace(scen, attackers=tuple(
            dataclasses.replace(a, policy="optimize") if a.points else a for a in scen.attackers))
        found = mh.optimize(family, trials=args.trials, seed=args.seed, stride=stride)
        d = mh.paired_difference(best, found.result)
        lo, hi = d["ci95"]
        ok = hi >= 0
        worse += not ok
        solved = best.extra.get("best_play", {}).get("solved_on", "-")
        rows.append((name, best.kill, found.result.kill, d["difference"], lo, hi, ok, solved))
    if args.markdown:
        print("| pairing | best play | best fixed policy | difference (95% CI) | solved |")
        print("|---|---|---|---|---|")
        for name, b, f, diff, lo, hi, ok, solved in rows:
            print(f"| {name} | {b:.4f} | {f:.4f} | {diff:+.4f} ({lo:+.4f}, {hi:+.4f}){'' if ok else ' **worse**'} "
                  f"| {solved} |")
    else:
        for name, b, f, diff, lo, hi, ok, solved in rows:
            print(f"{name:58s} best {b:.4f}  family {f:.4f}  diff {diff:+.4f} ({lo:+.4f}, {hi:+.4f})  "
                  f"{'ok' if ok else 'WORSE'}  [{solved}]")
    print(f"\n{len(rows)} pairings, {args.trials:,} trials each, seed {args.seed}; best play below the "
          f"family's best beyond the interval: {worse}; {time.perf_counter() - began:.0f} s")
    return 0 if worse == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
