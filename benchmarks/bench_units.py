#!/usr/bin/env python
"""Benchmark of units in the Monte Carlo kernel: unit targets against single targets, and the
single-target workloads against the code before units.

Run from the repository root::

    .venv/bin/python benchmarks/bench_units.py            # full run (a few minutes)
    .venv/bin/python benchmarks/bench_units.py --quick    # smoke run

Measured in one run:

1. ``riflemen``: ten riflemen (``models = 10``), one RAT 5 POW 10 shot each, against a
   ten-model unit of one-box DEF 13 ARM 13 infantry; its baseline is the same ten shots
   against a single DEF 13 ARM 13 model of 100 boxes (the single-target kernel, the same
   number of attacks: none can be cut short by a kill).
2. ``jack_vs_unit``: a heavy warjack's activation with 3 focus, two fists and three bought
   attacks (a fixed policy that buys with every point, so that both runs make the same five
   attacks: best play would stop buying against a model it cannot kill), against a
   five-model unit of 5-box DEF 12 ARM 16 models; its baseline is the same activation against
   a single model of 100 boxes (more than five attacks can deal). ``jack_best``: the same
   against the unit with best play (no baseline: its decisions differ). ``two_targets``
   (several targets): the ten riflemen down a list of two, a five-model unit of one-box
   infantry then a 5-box officer; its baseline is the riflemen's.
   Each in ns per trial on every core (2 here), with its ratio to the baseline and its
   agreement with the exact engine (kill and models destroyed, in standard errors).
3. The single-target workloads of bench_kernel.py (one attack; three attacks; the 3-focus
   activation; three attacks against a heavy grid), timed with this checkout and with the
   commit before units (``--base``, a temporary git worktree, its own Numba cache) in fresh
   processes, alternately, best of several: the ratio says whether units slowed them.

The exit status is 1 when a check fails; a slower figure is reported, not failed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent

#: The commit before units (issue 16): the single-target kernel they must not slow down.
BASE = "0df0967"
Z_LIMIT = 5.0


def unit_workloads():
    """``{key: (title, unit scenario, baseline scenario)}``."""
    from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon

    rifle = Weapon("Rifle", "ranged", skill=5, pow=10)
    riflemen = Attacker("Riflemen", [rifle], models=10)
    infantry = Target(defense=13, arm=13, boxes=1, models=10, name="Infantry")
    # baselines: one model with more boxes than the attacks can mark (no attack cut short)
    one_model = Target(defense=13, arm=13, boxes=100, name="One model")
    fists = [Weapon("Fist", "melee", 7, 16, attacks=2)]
    buyer = Attacker("Jack", fists, focus=3, policy="fixed",
                     spend=Spend(boost_attack="never", boost_damage="never", buy_attacks=True))
    jack = Attacker("Jack", fists, focus=3)
    heavies = Target(defense=12, arm=16, boxes=5, models=5, name="Heavy infantry")
    big = Target(defense=12, arm=16, boxes=100, name="One model")
    squad = Target(defense=13, arm=13, boxes=1, models=5, name="Squad")
    officer = Target(defense=13, arm=14, boxes=5, name="Officer")
    return {
        "riflemen": ("10 riflemen, 1 shot each, vs 10 one-box infantry",
                     Scenario(infantry, [riflemen]), Scenario(one_model, [riflemen])),
        "jack_vs_unit": ("3-focus heavy warjack, 5 attacks, vs 5 models of 5 boxes",
                         Scenario(heavies, [buyer]), Scenario(big, [buyer])),
        "jack_best": ("the same with best play (the unit only)", Scenario(heavies, [jack]), None),
        "two_targets": ("10 riflemen down the list: 5 one-box infantry, then a 5-box officer",
                        Scenario([squad, officer], [riflemen]), Scenario(one_model, [riflemen])),
    }


def timed(scen, trials, repeats):
    """Best wall time (s) of ``repeats`` runs of ``trials`` trials, after a warm-up."""
    from mathhammer.montecarlo.run import monte_carlo

    monte_carlo(scen, 10_000, 1)
    best = math.inf
    for r in range(repeats):
        t = time.perf_counter()
        res = monte_carlo(scen, trials, 1 + r)
        best = min(best, time.perf_counter() - t)
    return best, res


def timed_general(scen, trials, repeats):
    """Best wall time (s) of the general kernel (not the plain fast path) on ``scen``, a
    scenario without best play (its fixed policies: no decision tables to solve)."""
    from mathhammer.montecarlo._kernels.driver import run_sequences
    from mathhammer.montecarlo.encode import encode

    enc = encode(scen)
    run_sequences(enc, 10_000, 1, general=True)
    best = math.inf
    for r in range(repeats):
        t = time.perf_counter()
        run_sequences(enc, trials, 1 + r, general=True)
        best = min(best, time.perf_counter() - t)
    return best


def z_scores(mc, ex):
    """Agreement of a Monte Carlo result with the exact one: kill and mean models destroyed."""
    n = mc.trials
    p = ex.kill
    z_kill = 0.0 if p in (0.0, 1.0) else abs(mc.kill - p) / math.sqrt(p * (1 - p) / n)
    sd = ex.models_destroyed_sd
    z_mean = 0.0 if sd == 0 else abs(mc.models_destroyed_mean - ex.models_destroyed_mean) / (sd / math.sqrt(n))
    return z_kill, z_mean


def bench_units(trials, repeats):
    import numba

    from mathhammer import simulate

    print(f"1-2. unit targets, {trials:,} trials, {numba.config.NUMBA_NUM_THREADS} threads, best of {repeats}")
    ok = True
    rows = []
    for key, (title, unit, base) in unit_workloads().items():
        t_unit, res = timed(unit, trials, repeats)
        if base is None:
            t_base = t_general = math.nan
        else:
            t_base, _ = timed(base, trials, repeats)
            plays = any(a.plays_best for a in base.attackers)
            t_general = t_base if plays else timed_general(base, trials, repeats)
        ex = simulate(unit, method="exact")
        z_kill, z_mean = z_scores(res, ex)
        good = max(z_kill, z_mean) <= Z_LIMIT
        ok &= good
        ns_u, ns_b, ns_g = (1e9 * t / trials for t in (t_unit, t_base, t_general))
        rows.append((key, title, ns_u, ns_b, ns_g, res.models_destroyed_mean, z_kill, z_mean, good))
    print("  baseline: the same attacks against one model (what simulate runs: the plain fast")
    print("  path where it applies); general: that baseline through the general kernel")
    print(f"  {'workload':<14} {'ns/trial':>9} {'baseline':>9} {'ratio':>6} {'general':>8} {'ratio':>6} "
          f"{'destroyed':>9} {'z kill':>7} {'z mean':>7}  check")
    for key, title, ns_u, ns_b, ns_g, mean, zk, zm, good in rows:
        print(f"  {key:<14} {ns_u:9.1f} {ns_b:9.1f} {ns_u / ns_b:6.2f} {ns_g:8.1f} {ns_u / ns_g:6.2f} "
              f"{mean:9.3f} {zk:7.2f} {zm:7.2f}  {'ok' if good else 'FAIL'}   {title}")
    return ok


# ------------------------------------------------------------ single-target workloads, before and after
def child_single(trials, repeats):
    """Time the single-target workloads with whatever mathhammer is first on sys.path (this
    process was started with PYTHONPATH naming the checkout); print one JSON line."""
    sys.path.insert(0, str(HERE))
    import bench_kernel  # noqa: E402  (its scenarios; it puts this checkout on sys.path)

    sys.path[:] = [p for p in sys.path if p != str(ROOT)]
    sys.path.insert(0, os.environ["BENCH_UNITS_CODE"])
    import mathhammer

    assert Path(mathhammer.__file__).resolve().is_relative_to(Path(os.environ["BENCH_UNITS_CODE"]).resolve())
    scenarios = {k: s for k, (_, s) in bench_kernel.workloads().items()}
    act = bench_kernel.activation_workloads()
    scenarios["activation"] = act["activation"][1]
    scenarios["grid"] = act["grid"][1]
    out = {}
    for key, scen in scenarios.items():
        t, _ = timed(scen, trials, repeats)
        out[key] = 1e9 * t / trials
    print(json.dumps(out))


def run_single(code: Path, trials, repeats):
    env = dict(os.environ, PYTHONPATH=str(code), BENCH_UNITS_CODE=str(code))
    proc = subprocess.run([sys.executable, __file__, "--child-single", "--trials", str(trials),
                           "--repeats", str(repeats)], env=env, capture_output=True, text=True,
                          cwd=str(code))
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr else "child failed")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def bench_single(trials, repeats, rounds, base):
    print(f"\n3. single-target workloads, this checkout against {base} (the kernel before units), "
          f"{trials:,} trials, best of {repeats} x {rounds} alternating fresh processes")
    with tempfile.TemporaryDirectory(prefix="bench-units-") as tmp:
        wt = Path(tmp) / "base"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-f", str(wt), base],
                       check=True, capture_output=True)
        try:
            now, before = {}, {}
            for _ in range(rounds):
                for code, best in ((ROOT, now), (wt, before)):
                    for k, v in run_single(code, trials, repeats).items():
                        best[k] = min(best.get(k, math.inf), v)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(wt)],
                           capture_output=True)
    print(f"  {'workload':<12} {'now ns':>8} {'before ns':>9} {'ratio':>6}")
    for k in now:
        print(f"  {k:<12} {now[k]:8.1f} {before[k]:9.1f} {now[k] / before[k]:6.2f}")
    return True


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smoke run: fewer trials and repeats")
    ap.add_argument("--trials", type=int, default=None)
    ap.add_argument("--repeats", type=int, default=None)
    ap.add_argument("--base", default=BASE, help=f"commit of the baseline kernel (default {BASE})")
    ap.add_argument("--no-base", action="store_true", help="skip the comparison with the base commit")
    ap.add_argument("--child-single", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    trials = args.trials or (200_000 if args.quick else 4_000_000)
    repeats = args.repeats or (2 if args.quick else 5)
    if args.child_single:
        child_single(trials, repeats)
        return 0
    sys.path.insert(0, str(ROOT))
    ok = bench_units(trials, repeats)
    if not args.no_base:
        ok &= bench_single(trials, repeats, 1 if args.quick else 3, args.base)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
