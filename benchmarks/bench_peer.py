#!/usr/bin/env python
"""The exact engine, warm, per evaluation, on six scenarios timed beside the best public MK4
web calculator (the ChanceMachine calculator's exact engine).

Run from the repository root::

    .venv/bin/python benchmarks/bench_peer.py                    # this checkout
    .venv/bin/python benchmarks/bench_peer.py --before ../old    # and an older checkout, round robin
    .venv/bin/python benchmarks/bench_peer.py --only target_focus,rof_2d3 --seconds 2

Each scenario is evaluated as ``mh.simulate(scenario, method="exact")`` (from the scenario to
the Result, best play's "how to play it" included), once to warm up, then as many times as fit
in ``--seconds``; the time per evaluation is the best of ``--rounds`` such rounds. The figures
alone, as the peer computes them (``explain=False``: no decision tables, no "how to play it"),
are timed the same way beside them. Printed per scenario: the milliseconds of both, the peer's figure (its engine rebuilt from its published TypeScript
source and run under Node.js 20 beside this benchmark, 2026-12-06, on a 2-core machine), the
ratio ours / peer's and the target (at most a third of the peer's), and the kill and expected
damage, which must equal :data:`EXPECTED`, so that anyone who times both knows what game was
timed. Five of them equal the brute-force oracle of tests/naive.py to 1e-15 (2026-12-05);
``two_targets`` is this engine's, whose several-target path tests/ checks against
tests/naive_units.py on other cases. The peer gives the same figures on ``two_targets`` and
``rof_2d3``; on the others it reads a rule otherwise: its power field spends one point per
attack (our setting ``power_field_per_attack = 1`` gives its figures on ``target_focus`` and
its kill on ``ten_vs_focus``), a critical knockdown stops its own hit's Tough roll
(``knockdown_before_tough = true`` gives its ``crit_knockdown``), and its attacker plays for
the kill alone (the same kill on ``focus_attacker``, less damage). A figure that differs exits
with status 1; a missed target is printed ``MISS``.

``--before PATH`` times the same scenarios with the ``mathhammer`` of another checkout in a
child process, the two taking turns round by round, and prints the ratio this / before: no
scenario may be slower than before.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The peer's warm time per evaluation, ms: the best of four runs of 3 rounds, each beside a run
#: of this script on the same machine (2026-12-06, two runs in each of two sessions).
PEER_MS = {"target_focus": 3.31, "ten_vs_focus": 43.3, "focus_attacker": 49.3, "two_targets": 22.1,
           "rof_2d3": 4.75, "crit_knockdown": 9.14}
#: Kill and expected damage of each scenario.
EXPECTED = {"target_focus": (0.011387, 15.3892), "ten_vs_focus": (0.150961, 11.0165),
            "focus_attacker": (0.155229, 20.4052), "two_targets": (0.910444, 15.4769),
            "rof_2d3": (0.584506, 7.9950), "crit_knockdown": (0.295853, 14.4841)}
#: Ours at most this share of the peer's time.
TARGET = 1 / 3


def scenarios() -> dict:
    """The six scenarios (``mathhammer`` imported here: a child process imports the other
    checkout's)."""
    import mathhammer as mh

    hammer = mh.Weapon("Hammer", "melee", skill=7, pow=18, attacks=3)
    gun = mh.Weapon("Gun", "ranged", skill=6, pow=12, attacks=10)
    fist = mh.Weapon("Fist", "melee", skill=7, pow=16, attacks=2)
    rifle = mh.Weapon("Rifle", "ranged", skill=6, pow=12, attacks="2d3")
    axe = mh.Weapon("Axe", "melee", skill=6, pow=12, attacks=6, rules={"critical_knockdown"})
    return {
        # a target with 3 focus (its power field spent by best play) against 3 attacks, 30 boxes
        "target_focus": mh.Scenario(mh.Target(defense=12, arm=13, boxes=30, focus=3),
                                    [mh.Attacker("Jack", [hammer])]),
        # 10 attacks against a target with 3 focus
        "ten_vs_focus": mh.Scenario(mh.Target(defense=13, arm=15, boxes=18, focus=3),
                                    [mh.Attacker("Unit", [gun])]),
        # a 3-focus attacker (best play) against a 28-box track
        "focus_attacker": mh.Scenario(mh.Target(defense=12, arm=18, boxes=28),
                                      [mh.Attacker("Jack", [fist], focus=3)]),
        # two targets, a 3-focus attacker
        "two_targets": mh.Scenario([mh.Target(name="A", defense=13, arm=14, boxes=8),
                                    mh.Target(name="B", defense=13, arm=14, boxes=8)],
                                   [mh.Attacker("Jack", [fist], focus=3)]),
        # a rate of fire of 2d3
        "rof_2d3": mh.Scenario(mh.Target(defense=13, arm=14, boxes=10), [mh.Attacker("A", [rifle])]),
        # 6 attacks with Critical Knockdown against a Tough target
        "crit_knockdown": mh.Scenario(mh.Target(defense=13, arm=15, boxes=20, rules={"tough"}),
                                      [mh.Attacker("A", [axe])]),
    }


def time_them(names: list[str], seconds: float) -> dict:
    """``{name: (ms per evaluation, ms for the figures alone, kill, damage_mean)}`` in this
    process."""
    import mathhammer as mh

    scen = scenarios()
    out = {}
    for name in names:
        res = mh.simulate(scen[name], method="exact")  # warm: imports, caches of roll tables
        ms = []
        for explain in (True, False):
            n, began = 0, time.perf_counter()
            while time.perf_counter() - began < seconds:
                mh.simulate(scen[name], method="exact", explain=explain)
                n += 1
            ms.append((time.perf_counter() - began) / n * 1e3)
        out[name] = (*ms, res.kill, res.damage_mean)
    return out


_CHILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
from bench_peer import time_them
print(json.dumps(time_them(sys.argv[2].split(","), float(sys.argv[3]))))
"""


def time_before(path: Path, names: list[str], seconds: float) -> dict:
    """:func:`time_them` with the ``mathhammer`` of the checkout at ``path``."""
    env = dict(os.environ, PYTHONPATH=str(path))
    out = subprocess.run([sys.executable, "-c", _CHILD, str(Path(__file__).parent), ",".join(names), str(seconds)],
                         env=env, capture_output=True, text=True, check=True, cwd=path)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", help="comma-separated scenario names")
    p.add_argument("--seconds", type=float, default=1.0, help="evaluations timed per round (default 1 s)")
    p.add_argument("--rounds", type=int, default=3, help="rounds, the best kept (default 3)")
    p.add_argument("--before", type=Path, help="another checkout, timed round robin with this one")
    args = p.parse_args(argv)
    names = args.only.split(",") if args.only else list(PEER_MS)
    unknown = [n for n in names if n not in PEER_MS]
    if unknown:
        p.error(f"--only: no scenario {unknown[0]!r} (there are {', '.join(PEER_MS)})")
    best: dict = {}
    before: dict = {}
    for _ in range(args.rounds):
        for name, (ms, figures, kill, damage) in time_them(names, args.seconds).items():
            old = best.get(name, (float("inf"), float("inf"), kill, damage))
            best[name] = (min(old[0], ms), min(old[1], figures), kill, damage)
        if args.before:
            for name, (ms, *_) in time_before(args.before, names, args.seconds).items():
                before[name] = min(before.get(name, float("inf")), ms)
    print(f"mathhammer exact engine against the web calculator's  {time.strftime('%Y-%m-%d')}  "
          f"(warm, per evaluation, best of {args.rounds})")
    head = (f"  {'scenario':<16}{'ours ms':>9}{'peer ms':>9}{'ratio':>7}  target    "
            f"{'figures ms':>11}{'ratio':>7}      kill   damage")
    print(head + ("  before ms  this/before" if args.before else ""))
    wrong = 0
    for name in names:
        ms, figures, kill, damage = best[name]
        ratio = ms / PEER_MS[name]
        met = "met " if ratio <= TARGET else "MISS"
        line = (f"  {name:<16}{ms:9.2f}{PEER_MS[name]:9.1f}{ratio:7.2f}  {met} 1/3 {figures:11.2f}"
                f"{figures / PEER_MS[name]:7.2f}  {kill:9.6f} {damage:8.4f}")
        want_kill, want_damage = EXPECTED[name]
        if abs(kill - want_kill) > 5e-7 or abs(damage - want_damage) > 5e-5:
            line += f"  FIGURES DIFFER (expected {want_kill:.6f} {want_damage:.4f})"
            wrong += 1
        if args.before:
            line += f"  {before[name]:9.2f}  {ms / before[name]:10.2f}"
        print(line)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
