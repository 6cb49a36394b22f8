#!/usr/bin/env python
"""Benchmark of the Monte Carlo kernel against NumPy and pure-Python baselines.

Run from the repository root::

    .venv/bin/python benchmarks/bench_kernel.py            # full run (a few minutes)
    .venv/bin/python benchmarks/bench_kernel.py --quick    # smoke run (< 60 s)

Measured in one run:

1. throughput, ns per sequence, of two plain workloads (one melee attack; three attacks, the
   first with Critical Knockdown) for the Numba kernel on all cores and on one thread, a
   vectorised NumPy baseline and a pure-Python baseline, all computing the same counters
   (damage histogram, per-attack made / hit / critical / damage, kill per attack); every
   method's kill probability and mean damage are checked against the exact engine;
2. the ratios and the issues' targets (PASS / MISS); then two activations with focus
   (bought attacks, boosts; and the same against defences), ns per activation and their
   ratio to the plain 3-attack sequence of the same run; a workload a fast path serves (the
   spending kernel) also through the general kernel on one thread;
3. cold compile and warm cache load of the kernel in fresh processes (a temporary
   NUMBA_CACHE_DIR, so the repository's own cache is never touched), and a whole warm
   ``mathhammer run`` process;
4. peak resident memory of ``simulate`` at growing trial counts;
5. best play: the activations following their decision tables against the fixed-policy
   kernel on the same scenarios, per trial; the time and bytes of the tables, and of the
   README tour scenario's.

The exit status is 1 when a correctness check or a child process fails; a missed
performance target is reported but does not fail the run.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import math
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cores import Burner, effective_cores  # same folder
from floor import floor_run

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without an installed package
    sys.path.insert(0, str(ROOT))

DEMO = ROOT / "mathhammer" / "data" / "demo.toml"

# Columns of the per-attack counters (same as the kernel's C_* and Result's SLOT_*).
MADE, HIT, CRIT, DAMAGE = 0, 1, 2, 3

# Targets of the issue.
TARGET_NS_SINGLE = 10.0      # single attack, ns per sequence on all (2) cores
TARGET_VS_NUMPY = 4.0        # Numba (all cores) vs the NumPy baseline
TARGET_VS_PYTHON = 100.0     # Numba (all cores) vs pure Python
TARGET_CLI_S = 2.0           # whole warm `mathhammer run demo.toml --trials 1000000`
TARGET_NS_ACTIVATION = 30.0  # 3-focus warjack activation vs a 30-box track, all (2) cores
TARGET_NS_GRID = 40.0        # 3-attack heavy warjack activation vs a heavy grid, all (2) cores
TARGET_DEMO_COLD_S = 10.0     # issue 18: the first `mathhammer demo` after installing
TARGET_VS_FLOOR = 2.0        # issue 20: single attack at most 2x the floor kernel (floor.py)
TARGET_VS_NUMPY_20 = 3.0     # issue 20: single attack at least 3x NumPy, on 1 thread too
TARGET_ACTIVATION_SPEEDUP = 1.5  # issue 20: the 3-focus activation vs the general kernel, 1 thread

#: The illustrative heavy warjack grid of the grid workloads (examples/cards/heavy_warjack.toml
#: style): columns 1..6, top box first.
HEAVY_GRID = ("......", ".....L", "....LL", "...MC.", "...MC.", "....RR")

Z_LIMIT = 5.0                # agreement with the exact engine, in standard errors


# ------------------------------------------------------------------------ workloads
def workloads():
    """The two benchmark scenarios: ``{key: (title, Scenario)}``."""
    from mathhammer.rules import Attacker, Scenario, Target, Weapon

    target = Target(defense=12, arm=18, boxes=30)
    fist = Weapon("Fist", "melee", skill=7, pow=16)
    single = Scenario(target, [Attacker("Jack", [fist])])
    hammer = Weapon("Hammer", "melee", skill=7, pow=16, rules={"critical_knockdown"})
    fists = Weapon("Fist", "melee", skill=7, pow=16, attacks=2)
    sequence = Scenario(target, [Attacker("Jack", [hammer, fists])])
    return {
        "single": ("single attack (MAT 7 POW 16 vs DEF 12 ARM 18, 30 boxes)", single),
        "sequence": ("3 attacks (1st crit. knockdown) vs the same target", sequence),
    }


@dataclass(frozen=True)
class Plain:
    """One attack of a workload as the baselines read it (2d6 attack and damage rolls)."""

    melee: bool
    need: int            # 2d6 total needed to hit: DEF - skill (normal base DEF)
    need5: int           # the same when the target's base DEF is 5 (knocked down)
    damage: tuple | None  # damage points for each 2d6 total 0..12 (POW - ARM applied, >= 0)
    knockdown: bool
    crit_knockdown: bool


def plain_attacks(scenario):
    """The baselines' view of ``scenario``; only 2-dice rolls are supported (both workloads)."""
    target = scenario.target
    out = []
    for slot in scenario.attack_sequence():
        w = slot.weapon
        if w.attack_dice != 2 or (w.deals_damage and w.damage_dice_against(target.resist) != 2):
            raise SystemExit("the baselines only handle 2d6 attack and damage rolls")
        dmg = None
        if w.deals_damage:
            dmg = tuple(max(0, s + w.pow - target.arm) for s in range(13))
        need = target.defense_against(w.type, base_def_5=target.starts_base_def_5) - w.skill
        need5 = target.defense_against(w.type, base_def_5=True) - w.skill
        out.append(Plain(
            melee=w.type == "melee",
            need=min(13, max(0, need)),
            need5=min(13, max(0, need5)),
            damage=dmg,
            knockdown=w.knocks_down(False),
            crit_knockdown=w.knocks_down(True) and not w.knocks_down(False),
        ))
    return out, target.boxes, target.starts_base_def_5, target.starts_melee_auto_hit


# ------------------------------------------------------------------------ baselines
def numpy_run(scenario, trials, seed, block=1 << 16):
    """Vectorised NumPy baseline: every trial of a block advanced one attack at a time.

    All dice of a block are drawn at once (``Generator.integers``, uint8, four dice per
    attack per trial); hits, critical hits, the knocked-down state, the damage and its cap
    are array operations across the block's trials. Returns the kernel's counters
    ``(damage_hist, attack_counts, kill_at)``.
    """
    attacks, boxes, start_kd, start_auto = plain_attacks(scenario)
    if start_kd != start_auto:  # pragma: no cover - every such state sets both today
        raise SystemExit("baseline assumes base DEF 5 and melee auto-hit go together")
    k = len(attacks)
    tables = [None if a.damage is None else np.array(a.damage, dtype=np.int16) for a in attacks]
    rng = np.random.default_rng(seed)
    hist = np.zeros(boxes + 1, dtype=np.int64)
    counts = np.zeros((k, 4), dtype=np.int64)
    kill = np.zeros(k, dtype=np.int64)
    for start in range(0, trials, block):
        n = min(block, trials - start)
        dice = rng.integers(1, 7, size=(4 * k, n), dtype=np.uint8)
        marked = np.zeros(n, dtype=np.int16)
        alive = None                                   # None: every trial still standing
        kd = np.ones(n, dtype=bool) if start_kd else None  # None: nobody knocked down
        for i, a in enumerate(attacks):
            d1, d2, d3, d4 = dice[4 * i], dice[4 * i + 1], dice[4 * i + 2], dice[4 * i + 3]
            counts[i, MADE] += n if alive is None else np.count_nonzero(alive)
            s = d1 + d2
            if kd is None or a.melee:
                hit = s >= a.need
            else:                                      # ranged: base DEF 5 once knocked down
                hit = np.where(kd, s >= a.need5, s >= a.need)
            hit |= s == 12                             # all sixes hit
            hit &= s != 2                              # all ones miss
            crit = hit & (d1 == d2)
            if kd is not None and a.melee:             # automatic hit, never critical
                hit |= kd
                crit &= ~kd
            if alive is not None:
                hit &= alive
                crit &= alive
            counts[i, HIT] += np.count_nonzero(hit)
            counts[i, CRIT] += np.count_nonzero(crit)
            if a.knockdown:
                kd = hit.copy() if kd is None else kd | hit
            elif a.crit_knockdown:
                kd = crit.copy() if kd is None else kd | crit
            if tables[i] is None:
                continue
            pts = tables[i][d3 + d4]
            pts *= hit
            np.minimum(pts, boxes - marked, out=pts)
            marked += pts
            counts[i, DAMAGE] += int(pts.sum(dtype=np.int64))
            killed = hit & (marked >= boxes)
            kill[i] += np.count_nonzero(killed)
            if i < k - 1:
                alive = ~killed if alive is None else alive & ~killed
        hist += np.bincount(marked, minlength=boxes + 1)
    return hist, counts, kill


# The pure-Python loop, written once; ``{d6}`` is the expression of one die.
_PY_LOOP = """
def _loop(rows, boxes, start_kd, trials, rnd):
    hist = [0] * (boxes + 1)
    k = len(rows)
    made, hits, crits, dmg, kill = [0] * k, [0] * k, [0] * k, [0] * k, [0] * k
    for _ in range(trials):
        marked = 0
        kd = start_kd
        for i, (melee, need, need5, table, knockdown, crit_knockdown) in enumerate(rows):
            made[i] += 1
            if melee and kd:
                critical = False                       # automatic hit, no roll
            else:
                a = {d6}
                b = {d6}
                s = a + b
                if s == 2 or (s != 12 and s < (need5 if kd else need)):
                    continue                           # all ones miss, all sixes hit
                critical = a == b
            hits[i] += 1
            if critical:
                crits[i] += 1
                if crit_knockdown:
                    kd = True
            if knockdown:
                kd = True
            if table is None:
                continue
            pts = table[{d6} + {d6}]
            if pts > boxes - marked:
                pts = boxes - marked
            marked += pts
            dmg[i] += pts
            if marked >= boxes:
                kill[i] += 1
                break
        hist[marked] += 1
    return hist, made, hits, crits, dmg, kill
"""
_PY_DICE = {
    "random": ("rnd.random", "int(rnd() * 6.0) + 1"),
    "randint": ("rnd.randint", "rnd(1, 6)"),
}
_PY_LOOPS = {}
for _name, (_, _expr) in _PY_DICE.items():
    _ns = {}
    exec(_PY_LOOP.format(d6=_expr), _ns)
    _PY_LOOPS[_name] = _ns["_loop"]


def python_run(scenario, trials, seed, dice="random"):
    """Pure-Python baseline: plain nested loops over trials and attacks.

    ``dice="random"``: one ``random.random()`` per die (``int(random() * 6) + 1``), the
    faster of the two and the one the targets use; ``"randint"``: ``random.randint(1, 6)``.
    """
    attacks, boxes, start_kd, _ = plain_attacks(scenario)
    rows = [(a.melee, a.need, a.need5, a.damage, a.knockdown, a.crit_knockdown) for a in attacks]
    gen = random.Random(seed)
    rnd = getattr(gen, _PY_DICE[dice][0].split(".")[1])
    hist, made, hits, crits, dmg, kill = _PY_LOOPS[dice](rows, boxes, start_kd, trials, rnd)
    counts = np.array([made, hits, crits, dmg], dtype=np.int64).T.copy()
    return np.array(hist, dtype=np.int64), counts, np.array(kill, dtype=np.int64)


def numba_run(enc, trials, seed, general=False):
    """The counts of ``trials`` sequences of ``enc``: through the kernel the package picks (a
    fast path where one serves the scenario), or the general kernel (``general``)."""
    from mathhammer.montecarlo._kernels.driver import run_sequences

    c = run_sequences(enc, trials, seed, general=general)
    return c.damage_hist, c.attack_counts, c.kill_at


# ------------------------------------------------------------------------ helpers
def best_of(fn, repeats):
    """Minimum wall time of ``repeats`` calls of ``fn(r)``; returns (seconds, last value)."""
    best = math.inf
    value = None
    for r in range(repeats):
        t = time.perf_counter()
        value = fn(r)
        best = min(best, time.perf_counter() - t)
    return best, value


def figures(counts, trials):
    hist, _, kill_at = counts
    kill = float(kill_at.sum()) / trials
    mean = float(np.arange(hist.size) @ hist) / trials
    return kill, mean


def check(exact, counts, trials):
    """Kill probability and mean damage against the exact engine, in standard errors."""
    kill, mean = figures(counts, trials)
    p = exact.kill
    se_kill = math.sqrt(max(p * (1 - p), 0.0) / trials)
    se_mean = exact.damage_sd / math.sqrt(trials)
    out = {"kill": kill, "kill_exact": p, "mean": mean, "mean_exact": exact.damage_mean}
    ok = True
    for key, est, ref, se in (("kill", kill, p, se_kill), ("mean", mean, exact.damage_mean, se_mean)):
        if se > 0:
            z = (est - ref) / se
            good = abs(z) <= Z_LIMIT
        else:  # a certain outcome (here: no kill possible): must match exactly
            z = 0.0 if abs(est - ref) < 1e-12 else math.inf
            good = z == 0.0
        out[f"z_{key}"] = z
        ok &= good
    # per attack: probability it hits and is critical (checks the knockdown logic too)
    _, attack_counts, _ = counts
    zs = []
    for col, ref in ((HIT, exact.hit), (CRIT, exact.crit)):
        for i, q in enumerate(ref):
            se = math.sqrt(max(q * (1 - q), 0.0) / trials)
            est = attack_counts[i, col] / trials
            zs.append(abs(est - q) / se if se > 0 else (0.0 if est == q else math.inf))
    out["z_attacks_max"] = float(max(zs))
    ok &= out["z_attacks_max"] <= Z_LIMIT
    out["ok"] = bool(ok)
    return out


def fmt_int(n):
    return f"{n:,}"


def table(headers, rows, align=None):
    """A plain text table: first column left-aligned, the others right-aligned."""
    cols = list(zip(*([headers] + rows)))
    widths = [max(len(str(x)) for x in col) for col in cols]
    align = align or ["<"] + [">"] * (len(headers) - 1)
    line = lambda r: "  ".join(f"{str(x):{a}{w}}" for x, a, w in zip(r, align, widths)).rstrip()
    out = [line(headers), "  ".join("-" * w for w in widths)]
    out += [line(r) for r in rows]
    return "\n".join(out)


def cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def child_env(cache_dir):
    env = dict(os.environ)
    env["NUMBA_CACHE_DIR"] = str(cache_dir)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def run_child(args, cache_dir):
    """Run this script in a child mode in a fresh process; returns its JSON line."""
    cmd = [sys.executable, str(Path(__file__).resolve())] + args
    t = time.perf_counter()
    proc = subprocess.run(cmd, env=child_env(cache_dir), capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        raise RuntimeError(f"child {args} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    data["process_s"] = wall
    return data


# ------------------------------------------------------------------------ child modes
def child_compile():
    """First and second calls of simulate in this (fresh) process; prints one JSON line."""
    t0 = time.perf_counter()
    import numba  # noqa: F401  (the kernel's import cost, kept out of the first call)

    from mathhammer import simulate
    t1 = time.perf_counter()
    scen = workloads()["sequence"][1]
    simulate(scen, trials=1_000_000, seed=1)        # 31 chunks: the parallel driver
    t2 = time.perf_counter()
    simulate(scen, trials=1_000_000, seed=2)
    t3 = time.perf_counter()
    simulate(scen, trials=1_000, seed=1)            # one chunk: the serial driver
    t4 = time.perf_counter()
    simulate(scen, trials=1_000, seed=2)
    t5 = time.perf_counter()
    print(json.dumps({"import_s": t1 - t0, "first_s": t2 - t1, "steady_s": t3 - t2,
                      "serial_first_s": t4 - t3, "serial_steady_s": t5 - t4}))


def child_rss(trials):
    """Peak RSS of one simulate call of ``trials`` trials; prints one JSON line."""
    from mathhammer import simulate

    scen = workloads()["sequence"][1]
    simulate(scen, trials=100_000, seed=0)           # load the kernels first
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = time.perf_counter()
    res = simulate(scen, trials=trials, seed=1)
    wall = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"trials": trials, "base_kib": base, "peak_kib": peak, "run_s": wall,
                      "kill": res.kill}))


# ------------------------------------------------------------------------ sections
def bench_throughput(cfg, report):
    import numba

    from mathhammer import simulate
    from mathhammer.montecarlo.encode import encode

    n_threads = numba.config.NUMBA_NUM_THREADS
    rows, checks, ok = [], [], True
    per = {}
    for key, (title, scen) in workloads().items():
        exact = simulate(scen, method="exact")
        enc = encode(scen)
        numba_run(enc, 1 << 17, 0)                    # compile or load, both drivers
        numba_run(enc, 1000, 0)
        res = {}

        def timed(label, fn, trials, repeats):
            sec, counts = best_of(fn, repeats)
            ns = sec / trials * 1e9
            res[label] = {"trials": trials, "best_s": sec, "ns": ns, "repeats": repeats}
            rows.append([key, label, fmt_int(trials), f"{sec:.3f}", f"{ns:,.1f}",
                         f"{trials / sec / 1e6:,.2f}"])
            c = check(exact, counts, trials)
            res[label]["check"] = c
            checks.append([key, label, f"{c['kill']:.3g}", f"{c['kill_exact']:.3g}",
                           f"{c['z_kill']:+.2f}", f"{c['mean']:.4f}", f"{c['mean_exact']:.4f}",
                           f"{c['z_mean']:+.2f}", f"{c['z_attacks_max']:.2f}",
                           "ok" if c["ok"] else "FAIL"])
            return c["ok"]

        nt = cfg.numba_trials
        numba.set_num_threads(n_threads)
        ok &= timed(f"Numba, {n_threads} threads", lambda r: numba_run(enc, nt, 1000 + r),
                    nt, cfg.repeats)
        numba.set_num_threads(1)
        try:
            ok &= timed("Numba, 1 thread", lambda r: numba_run(enc, nt, 2000 + r), nt,
                        cfg.repeats)
        finally:
            numba.set_num_threads(n_threads)
        if key == "single":  # the floor: a kernel written for this workload alone (floor.py)
            floor_run(1 << 17, 0)
            numba.set_num_threads(n_threads)
            ok &= timed(f"floor kernel, {n_threads} threads", lambda r: floor_run(nt, 6000 + r),
                        nt, cfg.repeats)
            numba.set_num_threads(1)
            try:
                ok &= timed("floor kernel, 1 thread", lambda r: floor_run(nt, 7000 + r), nt,
                            cfg.repeats)
            finally:
                numba.set_num_threads(n_threads)
        ok &= timed("NumPy (vectorised)", lambda r: numpy_run(scen, cfg.numpy_trials, 3000 + r),
                    cfg.numpy_trials, cfg.numpy_repeats)
        ok &= timed("pure Python", lambda r: python_run(scen, cfg.python_trials, 4000 + r),
                    cfg.python_trials, cfg.python_repeats)
        ok &= timed("pure Python, randint (info)",
                    lambda r: python_run(scen, cfg.python_trials, 5000 + r, dice="randint"),
                    cfg.python_trials, cfg.python_repeats)
        per[key] = {"title": title, "methods": res}

    print(f"\n== Throughput (best of repeats; Numba all cores = {n_threads} threads) ==")
    for key, (title, _) in workloads().items():
        print(f"  {key:9s}{title}")
    print(table(["workload", "method", "trials", "best s", "ns/seq", "Mseq/s"], rows))
    print("  ns/seq = best wall time / trials; Mseq/s = millions of sequences per second")
    print(f"\n== Agreement with the exact engine (|z| <= {Z_LIMIT:g} standard errors) ==")
    print(table(["workload", "method", "kill", "exact", "z", "mean dmg", "exact", "z",
                 "hit/crit |z|", ""], checks))
    print("  z = (estimate - exact) / standard error; hit/crit |z| = the largest over every"
          " attack's\n  hit and critical-hit probabilities")

    print("\n== Ratios (time per sequence of the baseline / of Numba) ==")
    ratio_rows = []
    for key, d in per.items():
        m = d["methods"]
        par = m[f"Numba, {n_threads} threads"]["ns"]
        one = m["Numba, 1 thread"]["ns"]
        npy = m["NumPy (vectorised)"]["ns"]
        py = m["pure Python"]["ns"]
        pyr = m["pure Python, randint (info)"]["ns"]
        d["ratios"] = {"numpy": npy / par, "python": py / par, "python_randint": pyr / par,
                       "numpy_1thread": npy / one, "python_1thread": py / one,
                       "thread_scaling": one / par}
        ratio_rows.append([key, f"{npy / par:,.1f}x", f"{py / par:,.0f}x", f"{pyr / par:,.0f}x",
                           f"{npy / one:,.1f}x", f"{py / one:,.0f}x", f"{one / par:.2f}x"])
    print(table(["workload", "vs NumPy", "vs Python", "vs randint", "1 thr vs NumPy",
                 "1 thr vs Python", "2+ thr / 1 thr"], ratio_rows))
    print(f"  Numba on {n_threads} threads unless marked 1 thr; the baselines run on one core")

    s = per["single"]
    ns_single = s["methods"][f"Numba, {n_threads} threads"]["ns"]
    ns_single_one = s["methods"]["Numba, 1 thread"]["ns"]
    floor_all = s["methods"][f"floor kernel, {n_threads} threads"]["ns"]
    floor_one = s["methods"]["floor kernel, 1 thread"]["ns"]
    s["ratios"]["floor"] = ns_single / floor_all
    s["ratios"]["floor_1thread"] = ns_single_one / floor_one
    print(f"  single attack against the floor kernel (floor.py): {ns_single / floor_all:.2f}x on "
          f"{n_threads} threads ({ns_single:.2f} vs {floor_all:.2f} ns), "
          f"{ns_single_one / floor_one:.2f}x on 1 thread ({ns_single_one:.2f} vs {floor_one:.2f} ns)")
    targets = [
        (f"single attack <= {TARGET_VS_FLOOR:g}x the floor kernel, 1 thread",
         ns_single_one <= TARGET_VS_FLOOR * floor_one, f"{ns_single_one / floor_one:.2f}x"),
        (f"single attack <= {TARGET_VS_FLOOR:g}x the floor kernel, {n_threads} threads",
         ns_single <= TARGET_VS_FLOOR * floor_all, f"{ns_single / floor_all:.2f}x"),
        (f"single attack >= {TARGET_VS_NUMPY_20:g}x the NumPy baseline, 1 thread",
         s["ratios"]["numpy_1thread"] >= TARGET_VS_NUMPY_20, f"{s['ratios']['numpy_1thread']:.1f}x"),
        (f"single attack <= {TARGET_NS_SINGLE:g} ns/sequence on {n_threads} cores",
         ns_single <= TARGET_NS_SINGLE, f"{ns_single:.1f} ns"),
        (f"single attack >= {TARGET_VS_NUMPY:g}x the NumPy baseline",
         s["ratios"]["numpy"] >= TARGET_VS_NUMPY, f"{s['ratios']['numpy']:.1f}x"),
        (f"single attack >= {TARGET_VS_PYTHON:g}x pure Python",
         s["ratios"]["python"] >= TARGET_VS_PYTHON, f"{s['ratios']['python']:.0f}x"),
    ]
    for key, d in per.items():  # issue 20: threads never lose to one thread
        one = d["methods"]["Numba, 1 thread"]["ns"]
        par = d["methods"][f"Numba, {n_threads} threads"]["ns"]
        targets.append((f"{key}: {n_threads} threads no slower than 1 (5 % noise allowed)",
                        par <= 1.05 * one, f"{par:.2f} vs {one:.2f} ns"))
    q = per["sequence"]
    ns_seq = q["methods"][f"Numba, {n_threads} threads"]["ns"]
    targets.append(("3-attack sequence: ns/sequence, vs NumPy, vs pure Python", None,
                    f"{ns_seq:.1f} ns, {q['ratios']['numpy']:.1f}x, "
                    f"{q['ratios']['python']:.0f}x"))
    report["throughput"] = per
    report["numba_threads"] = n_threads
    return ok, targets


def activation_workloads():
    """Activations with focus (issue 3) and against a damage grid (issue 4):
    ``{key: (title, Scenario)}``.

    ``activation``: a heavy warjack with 3 focus, two initial fist attacks, the default
    spending policy (boost attacks needing 8+, boost damage when it can matter, buy attacks
    with what is left: up to 3 bought attack slots) against a 30-box track.
    ``defended``: the same against a Tough target with a Shield, 3 focus for a lethal power
    field and an upkeep ARM spell, the attacker's fists with Armor-Piercing and Dispel.
    ``grid``: a heavy warjack's three initial attacks (two fists, a head weapon) against a
    heavy warjack grid with a Shield on its left arm (crippling L drops the Shield's ARM,
    crippling M drops the base DEF to 5); ``grid_track``: the same against a damage track of
    as many boxes (the baseline of the ratio); ``grid_focus``: the grid workload with 3 focus.
    ``turns``: a ranged attacker with a Fire weapon and a two-shot Corrosion weapon against the
    heavy grid over 3 rounds, attacking every round (issue 5); ``turns_one``: one such round.
    """
    from mathhammer.rules import Attacker, Scenario, Target, Weapon

    target = Target(defense=12, arm=18, boxes=30)
    jack = Attacker("Jack", [Weapon("Fist", "melee", 7, 16, attacks=2)], focus=3)
    defended_target = Target(defense=12, arm=16, boxes=30, shield=("L",), upkeep_arm=2,
                             focus=3, rules={"tough"})
    jack2 = Attacker("Jack", [Weapon("Fist", "melee", 7, 16, attacks=2,
                                     rules={"armor_piercing", "dispel"})], focus=3)
    grid_target = Target(defense=12, arm=18, grid=HEAVY_GRID, shield=("L",))
    track_target = Target(defense=12, arm=18, boxes=len("".join(HEAVY_GRID)), shield=("L",))
    three = [Weapon("Fist", "melee", 7, 16, attacks=2), Weapon("Head", "melee", 6, 14)]
    burners = [Weapon("Flamer", "ranged", 6, 12, rules={"fire"}),
               Weapon("Acid", "ranged", 6, 12, attacks=2, rules={"corrosion"})]
    return {
        "activation": ("3-focus warjack: 2 attacks, boosts, bought attacks, 30 boxes",
                       Scenario(target, [jack])),
        "defended": ("the same with AP + Dispel vs Shield, upkeep ARM, power field, Tough",
                     Scenario(defended_target, [jack2])),
        "grid": ("heavy warjack, 3 attacks, vs a heavy grid with a Shield on L (feedback)",
                 Scenario(grid_target, [Attacker("Jack", three)])),
        "grid_track": ("the same 3 attacks vs a 28-box track with the Shield (plain kernel)",
                       Scenario(track_target, [Attacker("Jack", three)])),
        "grid_focus": ("the grid workload with 3 focus (boosts, bought attacks)",
                       Scenario(grid_target, [Attacker("Jack", three, focus=3)])),
        "turns": ("fire + corrosion attacks vs the heavy grid, 3 rounds (attacks every round)",
                  Scenario(grid_target, [Attacker("Burner", burners)], turns=3)),
        "turns_one": ("the same, 1 round (maintenance phase included)",
                      Scenario(grid_target, [Attacker("Burner", burners)], turns=1)),
    }


def fixed_policies(scen):
    """``scen`` with every attacker on its fixed ``spend`` policy and the target's power
    field "lethal" (the activation workloads time the fixed-policy kernel)."""
    import dataclasses

    attackers = tuple(dataclasses.replace(a, policy="fixed") for a in scen.attackers)
    return dataclasses.replace(scen, attackers=attackers,
                               target=dataclasses.replace(scen.target, power_field="lethal"))


def bench_activation(cfg, report, plain_ns):
    """Time the activation workloads on all cores and on one thread; their cost relative to
    the plain 3-attack sequence measured in the same run; agreement with the exact engine."""
    import numba

    from mathhammer import simulate
    from mathhammer.montecarlo.encode import encode

    n_threads = numba.config.NUMBA_NUM_THREADS
    rows, targets, ok, per = [], [], True, {}
    for key, (title, scen) in activation_workloads().items():
        scen = fixed_policies(scen)
        enc = encode(scen)
        numba_run(enc, 1 << 17, 0)
        numba_run(enc, 1000, 0)
        nt = cfg.numba_trials
        numba.set_num_threads(n_threads)
        sec, counts = best_of(lambda r: numba_run(enc, nt, 6000 + r), cfg.repeats)
        numba.set_num_threads(1)
        try:
            sec1, _ = best_of(lambda r: numba_run(enc, nt, 7000 + r), cfg.repeats)
        finally:
            numba.set_num_threads(n_threads)
        ns, ns1 = sec / nt * 1e9, sec1 / nt * 1e9
        # a workload a fast path serves (the spending kernel: focus against a track): the
        # general kernel on one thread too, what ran it before (issue 20's "today")
        gen1 = None
        if enc.plain or enc.spend:
            numba.set_num_threads(1)
            try:
                numba_run(enc, 1 << 17, 0, general=True)
                secg, _ = best_of(lambda r: numba_run(enc, nt, 7000 + r, general=True), cfg.repeats)
            finally:
                numba.set_num_threads(n_threads)
            gen1 = secg / nt * 1e9
        try:
            exact = simulate(scen, method="exact")
            c = check(exact, counts, nt)
            verdict = "ok" if c["ok"] else "FAIL"
            ok &= c["ok"]
            zk = f"{c['z_kill']:+.2f}"
        except Exception as exc:  # the exact engine may not cover a workload
            verdict, zk = f"no exact ({type(exc).__name__})", "-"
        per[key] = {"title": title, "ns": ns, "ns_1thread": ns1, "vs_plain": ns / plain_ns,
                    "kernel": "spend" if enc.spend else "plain" if enc.plain else "general",
                    "general_1thread": gen1}
        rows.append([key, per[key]["kernel"], f"{ns:.1f}", f"{ns1:.1f}",
                     "-" if gen1 is None else f"{gen1:.1f} ({gen1 / ns1:.2f}x)",
                     f"{ns / plain_ns:.2f}x", zk, verdict])
    print("\n== Activations with focus, grids (Numba) ==")
    for key, (title, _) in activation_workloads().items():
        print(f"  {key:11s}{title}")
    print(table(["workload", "kernel", f"ns/act {n_threads} thr", "ns/act 1 thr",
                 "general 1 thr (speed-up)", "vs plain 3-attack", "z kill", "exact check"], rows))
    print(f"  vs plain 3-attack = time per activation / time per plain 3-attack sequence "
          f"({plain_ns:.1f} ns) in this run; general 1 thr: the same workload through the "
          f"general kernel (what ran it before a fast path served it) on one thread")
    a1, g1 = per["activation"]["ns_1thread"], per["activation"]["general_1thread"]
    if g1 is not None:
        targets.append((f"3-focus warjack activation >= {TARGET_ACTIVATION_SPEEDUP:g}x faster than "
                        f"the general kernel on 1 thread (issue 20)",
                        g1 / a1 >= TARGET_ACTIVATION_SPEEDUP,
                        f"{a1:.1f} vs {g1:.1f} ns: {g1 / a1:.2f}x ({per['activation']['kernel']} kernel)"))
    act = per["activation"]["ns"]
    targets.append((f"3-focus warjack activation <= {TARGET_NS_ACTIVATION:g} ns on {n_threads} cores",
                    act <= TARGET_NS_ACTIVATION, f"{act:.1f} ns"))
    grid, track = per["grid"]["ns"], per["grid_track"]["ns"]
    targets.append((f"3-attack heavy warjack vs a heavy grid <= {TARGET_NS_GRID:g} ns on "
                    f"{n_threads} cores", grid <= TARGET_NS_GRID,
                    f"{grid:.1f} ns, {grid / track:.2f}x the same attacks on a damage track"))
    turn = per["turns"]["ns"] / 3
    targets.append(("3 rounds of fire and corrosion vs a heavy grid: ns per simulated round "
                    "(vs one round)", None,
                    f"{turn:.1f} ns per round; one round alone {per['turns_one']['ns']:.1f} ns"))
    report["activation"] = per
    return ok, targets


TARGET_BEST_VS_FIXED = 1.3   # best-play activation vs the fixed-policy kernel, per trial
TARGET_TABLE_S = 1.0         # building the decision table of the README's tour scenario


def bench_best_play(cfg, report):
    """Best play (issue 15): the activation workloads following their decision tables
    against the fixed-policy kernel on the same scenario, per trial, in this run; the
    agreement of Monte Carlo best play with exact best play; the time and memory of building
    the decision tables, for the workloads and the README's tour scenario."""
    import numba

    from mathhammer import simulate
    from mathhammer.cards import scenario_from_cards
    from mathhammer.montecarlo.encode import encode
    from mathhammer.play import solve

    n_threads = numba.config.NUMBA_NUM_THREADS
    work = activation_workloads()
    rows, per, ok = [], {}, True
    for key in ("activation", "defended", "grid_focus"):
        title, scen = work[key]
        t0 = time.perf_counter()
        tb = solve(scen, scen.attack_sequence(), reach=False)
        build = time.perf_counter() - t0
        best, fixed = encode(scen, tb), encode(fixed_policies(scen))
        # the same work as the fixed policy through the tables: every entry unsolved, so each
        # decision is looked up and falls back to the fixed rule (the lookups' own cost)
        blank = dataclasses.replace(tb, attack=np.zeros_like(tb.attack), field=np.full_like(tb.field, -1))
        lookup = encode(scen, blank)
        for enc in (best, fixed, lookup):
            numba_run(enc, 1 << 17, 0)
        nt = cfg.numba_trials
        sec_b, counts = best_of(lambda r: numba_run(best, nt, 8000 + r), cfg.repeats)
        sec_f, _ = best_of(lambda r: numba_run(fixed, nt, 8000 + r), cfg.repeats)
        sec_l, _ = best_of(lambda r: numba_run(lookup, nt, 8000 + r), cfg.repeats)
        ns_b, ns_f, ns_l = sec_b / nt * 1e9, sec_f / nt * 1e9, sec_l / nt * 1e9
        made_b = float(simulate(scen, method="exact").made.sum()) if tb.solved_on == "exact" else None
        made_f = float(simulate(fixed_policies(scen), method="exact").made.sum()) if made_b else None
        verdict, zk = "relaxed", "-"
        if tb.solved_on == "exact":
            c = check(simulate(scen, method="exact"), counts, nt)
            verdict = "ok" if c["ok"] else "FAIL"
            ok &= c["ok"]
            zk = f"{c['z_kill']:+.2f}"
        per[key] = {"title": title, "ns_best": ns_b, "ns_fixed": ns_f, "ns_lookup": ns_l,
                    "ratio": ns_b / ns_f, "lookup_ratio": ns_l / ns_f, "attacks_best": made_b,
                    "attacks_fixed": made_f, "table_s": build, "table_bytes": tb.nbytes,
                    "solved_on": tb.solved_on}
        per_attack = f"{(ns_b / made_b) / (ns_f / made_f):.2f}x" if made_b else "-"
        attacks = f"{made_b:.2f} / {made_f:.2f}" if made_b else "-"
        rows.append([key, f"{ns_b:.1f}", f"{ns_f:.1f}", f"{ns_b / ns_f:.2f}x", attacks, per_attack,
                     f"{ns_l:.1f}", f"{ns_l / ns_f:.2f}x", f"{build * 1e3:.1f}", fmt_int(tb.nbytes), zk,
                     verdict])
    print(f"\n== Best play (decision tables), {n_threads} threads ==")
    print(table(["workload", "ns best", "ns fixed", "best / fixed", "attacks best / fixed",
                 "per attack", "ns lookup", "lookup / fixed", "table ms", "table bytes", "z kill",
                 "exact check"], rows))
    print("  ns: per trial; attacks: made per trial (exact); per attack: the ratio per attack made;")
    print("  lookup: the fixed policy's decisions taken through the tables (every entry unsolved)")
    tour = scenario_from_cards(["heavy_warjack", "heavy_warjack"], "heavy_warjack")
    builds = []
    for _ in range(cfg.repeats):
        t0 = time.perf_counter()
        tab = solve(tour, tour.attack_sequence())
        builds.append(time.perf_counter() - t0)
    tour_s = min(builds)
    print(f"  README tour (two heavy warjacks vs a heavy warjack grid): table built in "
          f"{tour_s * 1e3:.1f} ms ({tab.solved_on}), {fmt_int(tab.nbytes)} bytes "
          f"(with the reach of the \"how to play it\" report)")
    per["tour"] = {"table_s": tour_s, "table_bytes": tab.nbytes, "solved_on": tab.solved_on}
    report["best_play"] = per
    a = per["activation"]
    act = a["ratio"]
    targets = [(f"best-play activation <= {TARGET_BEST_VS_FIXED:g}x the fixed-policy kernel per trial",
                act <= TARGET_BEST_VS_FIXED, f"{act:.2f}x ({a['ns_best']:.1f} vs {a['ns_fixed']:.1f} ns; "
                f"best play makes {a['attacks_best']:.2f} attacks a trial, the fixed policy "
                f"{a['attacks_fixed']:.2f}; the same decisions through the tables: "
                f"{a['lookup_ratio']:.2f}x)"),
               (f"decision table of the README tour <= {TARGET_TABLE_S:g} s", tour_s <= TARGET_TABLE_S,
                f"{tour_s * 1e3:.1f} ms, {fmt_int(tab.nbytes)} bytes")]
    return ok, targets


def bench_startup(cfg, report, cache_dir):
    print("\n== Kernel compile and cache load (fresh processes, temporary NUMBA_CACHE_DIR) ==")
    print("  first call = simulate(3-attack workload, 1,000,000 trials) in a fresh process;")
    print("  overhead = first call - the same call repeated (compile or cache load)")
    cold = run_child(["--child", "compile"], cache_dir)
    warm = run_child(["--child", "compile"], cache_dir)
    rows = []
    for label, d in (("cold (empty cache)", cold), ("warm (cache filled)", warm)):
        rows.append([label, f"{d['import_s']:.2f}", f"{d['first_s']:.2f}", f"{d['steady_s']:.3f}",
                     f"{d['first_s'] - d['steady_s']:.2f}",
                     f"{d['serial_first_s'] - d['serial_steady_s']:.2f}",
                     f"{d['process_s']:.2f}"])
    print(table(["process", "import s", "first call s", "repeat s", "overhead s",
                 "serial driver s", "process s"], rows))
    print("  import = mathhammer + numba; serial driver = the same overhead for the one-chunk"
          " (serial) driver,\n  paid on the first run of <= 32,768 trials; process = whole child"
          " process wall time")
    report["compile"] = {"cold": cold, "warm": warm}

    exe = Path(sys.executable).with_name("mathhammer")
    cmd = ([str(exe)] if exe.exists() else [sys.executable, "-m", "mathhammer"]) + [
        "run", str(DEMO), "--trials", "1000000", "--json"]
    env = child_env(cache_dir)
    times = []
    for r in range(cfg.cli_repeats + 1):           # the first run only makes sure it is warm
        t = time.perf_counter()
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=ROOT)
        dt = time.perf_counter() - t
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr[-3000:]}")
        json.loads(proc.stdout)
        if r:
            times.append(dt)
    best = min(times)
    print("\n== Whole warm CLI process: mathhammer run demo.toml --trials 1000000 --json ==")
    print(f"  best of {len(times)}: {best:.2f} s  (all: {', '.join(f'{t:.2f}' for t in times)})")
    report["cli"] = {"best_s": best, "all_s": times, "command": cmd[1:]}
    cold_s = cold["first_s"] - cold["steady_s"]
    warm_s = warm["first_s"] - warm["steady_s"]
    demo = demo_first_run(cmd[: cmd.index("run")] + ["demo"])
    print("\n== mathhammer demo: the first run after installing (its own empty NUMBA_CACHE_DIR), "
          "then warm ==")
    print(table(["run", "wall s", "CPU s"],
                [[label, f"{demo[key]['wall_s']:.2f}", f"{demo[key]['cpu_s']:.2f}"]
                 for key, label in (("cold", "cold (compiles its kernels)"), ("warm", "warm"))]))
    print("  CPU = user + system time of the process; the demo runs the general kernel's basic "
          "variant\n  (best play, focus, a warjack's grid)")
    report["demo"] = demo
    return [(f"warm `mathhammer run` 1e6 trials < {TARGET_CLI_S:g} s", best < TARGET_CLI_S,
             f"{best:.2f} s"),
            ("cold compile / warm cache load of the kernel", None,
             f"{cold_s:.2f} s / {warm_s:.2f} s"),
            (f"first `mathhammer demo` after installing < {TARGET_DEMO_COLD_S:g} s",
             demo["cold"]["wall_s"] < TARGET_DEMO_COLD_S,
             f"{demo['cold']['wall_s']:.1f} s wall, {demo['cold']['cpu_s']:.1f} s CPU")]


def demo_first_run(cmd):
    """Wall and CPU time of ``mathhammer demo`` in a fresh process with an empty Numba cache
    (the first run after installing), then again with that cache filled."""
    out = {}
    with tempfile.TemporaryDirectory(prefix="mathhammer-bench-demo-") as cache_dir:
        for key in ("cold", "warm"):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            proc = subprocess.run(cmd, env=child_env(cache_dir), capture_output=True, text=True,
                                  cwd=ROOT)
            wall = time.perf_counter() - t
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if proc.returncode != 0:
                raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr[-3000:]}")
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            out[key] = {"wall_s": wall, "cpu_s": cpu}
    return out


def bench_memory(cfg, report, cache_dir):
    print("\n== Peak memory of simulate (3-attack workload, fresh process each) ==")
    rows, data = [], []
    for n in cfg.rss_trials:
        d = run_child(["--child", "rss", str(n)], cache_dir)
        data.append(d)
        rows.append([fmt_int(n), f"{d['base_kib'] / 1024:.1f}", f"{d['peak_kib'] / 1024:.1f}",
                     f"{(d['peak_kib'] - d['base_kib']) / 1024:.1f}", f"{d['run_s']:.2f}"])
    print(table(["trials", "peak RSS before MiB", "peak RSS after MiB", "growth MiB", "run s"],
                rows))
    print("  before = after importing and a 100,000-trial warm-up call; after = after the run"
          " (ru_maxrss)")
    growth = data[-1]["peak_kib"] / data[0]["peak_kib"]
    print(f"  peak RSS {fmt_int(cfg.rss_trials[-1])} trials / {fmt_int(cfg.rss_trials[0])} "
          f"trials = {growth:.3f}")
    report["memory"] = {"runs": data, "growth_ratio": growth}
    return [("peak RSS flat in trials (largest/smallest <= 1.10)", growth <= 1.10,
             f"{growth:.3f}")]


# ------------------------------------------------------------------------ main
@dataclass
class Config:
    numba_trials: int
    repeats: int
    numpy_trials: int
    numpy_repeats: int
    python_trials: int
    python_repeats: int
    cli_repeats: int
    rss_trials: tuple


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--trials", type=lambda s: int(float(s)), default=None,
                   help="trials of each Numba timing (default 20,000,000; --quick 2,000,000)")
    p.add_argument("--numpy-trials", type=lambda s: int(float(s)), default=None,
                   help="trials of each NumPy timing (default 5,000,000; --quick 500,000)")
    p.add_argument("--python-trials", type=lambda s: int(float(s)), default=None,
                   help="trials of each pure-Python timing (default 200,000; --quick 20,000)")
    p.add_argument("--repeats", type=int, default=None, help="repeats of each Numba timing "
                   "(best is kept; default 5, --quick 3)")
    p.add_argument("--quick", action="store_true",
                   help="smoke run: everything smaller, whole run under a minute")
    p.add_argument("--skip", action="append", default=[], choices=("startup", "memory"),
                   help="skip a section (repeatable)")
    p.add_argument("--json", metavar="PATH", help="also write every figure to PATH as JSON")
    p.add_argument("--burner", action="store_true",
                   help="keep one core busy in another process for the whole run (the 'one "
                        "core taken' case: threads must not lose to one thread)")
    p.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = p.parse_args(argv)

    if args.child:
        if args.child[0] == "compile":
            child_compile()
        else:
            child_rss(int(args.child[1]))
        return 0

    q = args.quick
    cfg = Config(
        numba_trials=args.trials or (2_000_000 if q else 20_000_000),
        repeats=args.repeats or (3 if q else 5),
        numpy_trials=args.numpy_trials or (500_000 if q else 5_000_000),
        numpy_repeats=3 if q else 5,
        python_trials=args.python_trials or (20_000 if q else 200_000),
        python_repeats=2 if q else 3,
        cli_repeats=2 if q else 3,
        rss_trials=(100_000, 1_000_000, 10_000_000) + (() if q else (30_000_000,)),
    )
    burner = Burner().start() if args.burner else None
    try:
        return _bench(args, cfg, burner)
    finally:
        if burner is not None:
            burner.stop()


def _bench(args, cfg, burner):
    """The benchmark's sections, in one run (``main`` parses the flags)."""
    import numba

    q = args.quick
    started = time.perf_counter()
    cores0 = effective_cores()
    load0 = os.getloadavg()
    report = {
        "date": datetime.date.today().isoformat(),
        "machine": {"cpu": cpu_model(), "cores": os.cpu_count(), "python": platform.python_version(),
                    "numpy": np.__version__, "numba": numba.__version__,
                    "numba_threads": numba.config.NUMBA_NUM_THREADS},
        "config": cfg.__dict__,
        "quick": q,
    }
    m = report["machine"]
    print(f"mathhammer kernel benchmark  {report['date']}  {'(quick)' if q else ''}")
    print(f"  {m['cpu']}, {m['cores']} cores; Python {m['python']}, NumPy {m['numpy']}, "
          f"Numba {m['numba']}; load average {load0[0]:.2f}")
    print(f"  effective cores at the start: {cores0:.2f} (two threads' fixed work against one's)"
          + ("; a burner process holds one core" if burner is not None else ""))
    report["effective_cores"] = {"start": cores0}
    report["burner"] = burner is not None

    ok, targets = bench_throughput(cfg, report)
    plain = report["throughput"]["sequence"]["methods"]
    plain_ns = plain[f"Numba, {numba.config.NUMBA_NUM_THREADS} threads"]["ns"]
    ok_act, more = bench_activation(cfg, report, plain_ns)
    ok &= ok_act
    targets += more
    ok_best, more = bench_best_play(cfg, report)
    ok &= ok_best
    targets += more
    with tempfile.TemporaryDirectory(prefix="mathhammer-bench-cache-") as cache_dir:
        try:
            if "startup" not in args.skip:
                targets += bench_startup(cfg, report, cache_dir)
            if "memory" not in args.skip:
                targets += bench_memory(cfg, report, cache_dir)
        except RuntimeError as exc:
            print(f"\nERROR: {exc}")
            ok = False

    print("\n== Targets ==")
    for label, good, value in targets:
        tag = "info" if good is None else ("PASS" if good else "MISS")
        print(f"  [{tag}] {label}: {value}")
    report["targets"] = [{"target": t, "pass": g, "value": v} for t, g, v in targets]
    load1 = os.getloadavg()
    report["effective_cores"]["end"] = cores1 = effective_cores()
    print(f"\neffective cores: {cores0:.2f} at the start, {cores1:.2f} at the end")
    print(f"correctness checks: {'all ok' if ok else 'FAILED'}; "
          f"benchmark took {time.perf_counter() - started:.0f} s; "
          f"load average {load0[0]:.2f} -> {load1[0]:.2f}")
    report["checks_ok"] = bool(ok)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2, default=float) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
