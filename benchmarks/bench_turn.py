#!/usr/bin/env python
"""Benchmark of the turn planner: a warcaster with 7 focus and three warjacks on a 34-box track.

Run from the repository root::

    .venv/bin/python benchmarks/bench_turn.py            # every plan (about 20 s with the baseline)
    .venv/bin/python benchmarks/bench_turn.py --quick    # two warjacks, 4 focus (seconds)

Targets: the whole plan (every allocation in every fixed order and in the adaptive order)
under 5 s exact on 2 cores; on a grid (examples/turns/caster_and_two_heavies.toml: planned
on the track relaxation), the Monte Carlo confirmation of the best 5 allocations (with the
file's plan and an even allocation, 200,000 trials each, common random numbers) under 10 s. :func:`mathhammer.play.turn.plan_turn` chains the activations
(:class:`mathhammer.exact.activations.Activations`: each attacker's activation solved once
per what follows it). The baseline, measured in the same run, solves each fixed plan as one
whole sequence with the exact engine (plans alike but for names once), as the planner did
before the activations were chained; the ratio is its time over the planner's fixed orders.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET_SECONDS = 5.0
GRID_TARGET_SECONDS = 10.0


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
    fixed = plan_turn(scen, adaptive=False)
    fixed_s = time.perf_counter() - began
    began = time.perf_counter()
    plans = plan_turn(scen)
    took = time.perf_counter() - began
    began = time.perf_counter()
    solves = baseline(scen, fixed)
    base_s = time.perf_counter() - began
    n = len(plans.plans)
    print(f"mathhammer turn planner benchmark  {time.strftime('%Y-%m-%d')}")
    print(f"  a warcaster, {jacks} warjacks, {pool} focus, a 34-box track: {n} plans "
          f"({len(fixed.plans)} fixed orders, {n - len(fixed.plans)} adaptive), {plans.activations} activations "
          f"solved, in {took:.1f} s; target {TARGET_SECONDS:.0f} s: {'met' if took <= TARGET_SECONDS else 'missed'}")
    print(f"  fixed orders alone {fixed_s:.1f} s; baseline (each plan one whole-sequence solve, {solves} solves) "
          f"{base_s:.1f} s: {base_s / fixed_s:.1f}x")
    print("  " + plans.summary().replace("\n", "\n  "))
    if not args.quick:
        grid()
    return 0


def grid() -> None:
    """Plan the grid example on its relaxation, then confirm the best 5 allocations."""
    from mathhammer.io.scenario_files import load_scenario
    from mathhammer.play.turn import plan_turn
    from mathhammer.studies.plan_checks import check_plans

    scen = load_scenario(ROOT / "examples" / "turns" / "caster_and_two_heavies.toml")
    check_plans(plan_turn(scen), top=1, trials=40_000)  # compiles the kernel: not timed
    began = time.perf_counter()
    plans = plan_turn(scen)
    planned = time.perf_counter() - began
    checked = check_plans(plans, top=5)
    took = time.perf_counter() - began
    print(f"  grid (a warcaster and two heavy warjacks against a heavy warjack's grid): {len(plans.plans)} plans "
          f"on the relaxation in {planned:.1f} s, then {len(checked.checked)} plans x {checked.trials:,} trials by "
          f"Monte Carlo: {took:.1f} s in all; target {GRID_TARGET_SECONDS:.0f} s: "
          f"{'met' if took <= GRID_TARGET_SECONDS else 'missed'}")


def baseline(scen, fixed) -> int:
    """Each fixed plan solved as one sequence by the exact engine (plans alike but for names
    once); checks the planner's figures against them. Returns the solves made."""
    import dataclasses

    from mathhammer.exact import exact_result

    figures: dict = {}
    by_name = {a.name: a for a in scen.attackers}
    for p in fixed.plans:
        focus = dict(p.focus)
        attackers = tuple(dataclasses.replace(by_name[n], focus=focus[n]) for n in p.order)
        key = tuple(dataclasses.replace(a, name="_", controls=()) for a in attackers)
        if key not in figures:
            figures[key] = exact_result(dataclasses.replace(scen, attackers=attackers)).kill
        if abs(figures[key] - p.kill) > 1e-9:
            raise SystemExit(f"the planner's kill {p.kill} differs from the whole sequence's {figures[key]}")
    return len(figures)


if __name__ == "__main__":
    sys.exit(main())
