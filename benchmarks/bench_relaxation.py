#!/usr/bin/env python
"""What the relaxation of best play costs on grids and spirals (docs/best-play.md).

Where a grid or spiral is too large to solve exactly, Monte Carlo best play follows decision
tables solved on a damage track of as many boxes (``mathhammer/play/relax.py``). On small
cards, which the exact engine solves, this script compares, for each scenario:

* exact best play (the exact engine's backward induction on the card);
* Monte Carlo following the exact card tables (a check: within sampling error of it);
* Monte Carlo following the relaxed tables on the same card: the relaxation's loss is exact
  best play minus this (in percentage points of kill probability), with its standard error.

Run from the repository root (about a minute)::

    .venv/bin/python benchmarks/bench_relaxation.py [--trials 2000000] [--markdown]

``--markdown`` prints the table of docs/best-play.md.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

HEAVY = ("......", ".....L", "....LL", "...MC.", "...MC.", "....RR")
LIGHT = ("..", ".L", "LM", "CR", "MR", "..")
SPIRAL = ("MMM", "MM", "BBB", "BB", "SS", "SS")


def scenarios():
    """``[(name, Scenario)]``: small cards with points on either side."""
    from mathhammer.rules import Attacker, Scenario, Target, Weapon

    fist = Weapon("Fist", "melee", skill=7, pow=16, attacks=2)
    ram = Weapon("Ram", "melee", skill=6, pow=14, attacks=2, damage_to="L")
    claw = Weapon("Claw", "melee", skill=7, pow=13, attacks=2)
    return [
        ("heavy grid, 2 fists, 3 focus", Scenario(Target(12, 17, grid=HEAVY), [Attacker("Jack", [fist], focus=3)])),
        ("heavy grid + Shield L, ARM 13, 2 fists, 2 focus",
         Scenario(Target(12, 13, grid=HEAVY, shield=("L",)), [Attacker("Jack", [fist], focus=2)])),
        ("heavy grid, ram to L then fists, 2 + 2 focus",
         Scenario(Target(12, 16, grid=HEAVY, shield=("L",)),
                  [Attacker("Breaker", [ram], focus=2), Attacker("Jack", [fist], focus=2)])),
        ("light grid, 2 fists, 3 focus",
         Scenario(Target(13, 14, grid=LIGHT), [Attacker("Jack", [fist], focus=3)])),
        ("light grid, 2 fists, 3 focus, target 2 focus",
         Scenario(Target(13, 14, grid=LIGHT, focus=2), [Attacker("Jack", [fist], focus=3)])),
        ("small spiral, 2 claws, 3 fury, Tough",
         Scenario(Target(12, 15, spiral=SPIRAL, rules={"tough"}), [Attacker("Beast", [claw], fury=3)])),
    ]


def mc_kill(scen, table, trials, seed):
    """Kill probability of Monte Carlo following ``table`` on ``scen``."""
    from mathhammer.montecarlo._kernels.driver import run_sequences
    from mathhammer.montecarlo.encode import encode

    enc = encode(scen, table)
    counts = run_sequences(enc, trials, seed)
    return counts.damage_hist[-1] / trials


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trials", type=lambda s: int(float(s)), default=2_000_000)
    p.add_argument("--markdown", action="store_true")
    args = p.parse_args(argv)
    from mathhammer import simulate
    from mathhammer.play import solve

    rows = []
    for k, (name, scen) in enumerate(scenarios()):
        exact = simulate(scen, method="exact").kill
        on_card = solve(scen, reach=False, relax="never")
        relaxed = solve(scen, reach=False, relax="always")
        n = args.trials
        mc_exact = mc_kill(scen, on_card, n, 100 + k)
        mc_relaxed = mc_kill(scen, relaxed, n, 200 + k)
        se = math.sqrt(max(mc_relaxed * (1 - mc_relaxed), 1e-12) / n)
        se_exact = math.sqrt(max(exact * (1 - exact), 1e-12) / n)
        rows.append((name, exact, mc_exact, (mc_exact - exact) / se_exact, mc_relaxed, exact - mc_relaxed, se,
                     relaxed.value))
    if args.markdown:
        print("| scenario | exact best play | MC, card tables (z) | MC, relaxed tables | loss (pp) |")
        print("|---|---|---|---|---|")
        for name, exact, mce, z, mcr, loss, se, _ in rows:
            print(f"| {name} | {exact:.4f} | {mce:.4f} ({z:+.1f}) | {mcr:.4f} | "
                  f"{100 * loss:.2f} ± {100 * se:.2f} |")
        print(f"\n{args.trials:,} trials each; z: (MC - exact) / standard error.")
    else:
        for name, exact, mce, z, mcr, loss, se, value in rows:
            print(f"{name:48s} exact {exact:.4f}  MC card {mce:.4f} (z {z:+.1f})  MC relaxed {mcr:.4f}  "
                  f"loss {100 * loss:.2f} ± {100 * se:.2f} pp  (relaxed track's own value {value:.4f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
