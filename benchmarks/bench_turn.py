#!/usr/bin/env python
"""Benchmark of the turn planner: a warcaster with 7 focus and three warjacks on a 34-box track.

Run from the repository root::

    .venv/bin/python benchmarks/bench_turn.py            # every plan (about 10 s)
    .venv/bin/python benchmarks/bench_turn.py --quick    # two warjacks, 4 focus (seconds)

The issue's target (49): under 5 s exact on 2 cores. The static planner
(:func:`mathhammer.play.turn.plan_turn`) solves every allocation in every order exactly, one
solve of the whole sequence each (plans alike but for names once): this prints the plans,
the solves, the time, and the best plan.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET_SECONDS = 5.0


def scenario(jacks: int, pool: int):
    from mathhammer.rules import Attacker, Scenario, Target, Weapon

    fist = [Weapon("Fist", "melee", 6, 16, attacks=2)]
    names = [chr(65 + k) for k in range(jacks)]
    given = [min(2, pool // (jacks + 1))] * jacks
    caster = Attacker("Caster", [Weapon("Staff", "melee", 7, 14)], focus=pool - sum(given), model="other",
                      controls=[f"Jack {n}" for n in names])
    return Scenario(Target(12, 18, boxes=34), [caster] + [Attacker(f"Jack {n}", fist, focus=g)
                                                          for n, g in zip(names, given)])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="two warjacks and 4 focus")
    args = p.parse_args(argv)
    from mathhammer.play.turn import plan_turn

    jacks, pool = (2, 4) if args.quick else (3, 7)
    scen = scenario(jacks, pool)
    began = time.perf_counter()
    plans = plan_turn(scen)
    took = time.perf_counter() - began
    n = len(plans.plans)
    print(f"mathhammer turn planner benchmark  {time.strftime('%Y-%m-%d')}")
    print(f"  a warcaster, {jacks} warjacks, {pool} focus, a 34-box track: {n} plans ({plans.solves} exact "
          f"solves: warjacks alike share theirs) in {took:.1f} s; target {TARGET_SECONDS:.0f} s: "
          f"{'met' if took <= TARGET_SECONDS else 'missed'}")
    print("  " + plans.summary().replace("\n", "\n  "))
    return 0


if __name__ == "__main__":
    sys.exit(main())
