#!/usr/bin/env python
"""Benchmark of the balance matrix: the local backend against a Dask LocalCluster.

Run from the repository root::

    .venv/bin/python benchmarks/bench_matrix.py            # 20 x 20 cards, 200,000 trials
    .venv/bin/python benchmarks/bench_matrix.py --quick    # smoke run: 4 x 4, 20,000 trials
    .venv/bin/python benchmarks/bench_matrix.py --batches 1,4,16,64   # points per Dask task
    .venv/bin/python benchmarks/bench_matrix.py --fixed-only --base /tmp/before  # issue 20

Measured in one run:

1. a deck of attacker cards and a deck of target cards, written into a temporary directory
   as variants of the bundled cards (damage tracks, warjack grids, warbeast spirals);
2. the fixed cost per point on damage tracks, grids and spirals apart, against issue 20's
   targets (0.3 ms on a track, 0.6 ms on a grid): a point as a backend computes it
   (``compute_point``) on one Numba thread at two small trial counts, the intercept of the
   fit, CPU and wall time, in fresh processes; with ``--base DIR`` the same for another
   checkout, the two taking turns (before and after, measured in one run);
3. the local backend (``mathhammer.matrix(..., scheduler=None)``: points one after
   another in this process, each on every core through Numba's threads), after a warm-up
   matrix that loads the kernels;
4. the single-core cost of a point: ``compute_point`` (``simulate`` without the how-to-play
   report, then the point's summary rows) on one Numba thread over a sample of the pairs, at
   the run's trials and at a quarter of them (a fixed cost per point plus a cost per trial);
5. a Dask LocalCluster of ``--workers`` processes of one thread: its start-up time, a
   warm-up matrix, the matrix on the warm cluster (passed as a ``distributed.Client``) at
   each of ``--batches`` points per task (``matrix(..., batch=k)``; default 1, 4, 16, 64),
   with the CPU time of the client and scheduler per task and per point (and, for scale, that
   process's CPU while the cluster sits idle), then
   ``scheduler="local-cluster"`` end to end (start-up included, one point per task), as a
   user calls it;
6. the frames of every backend and batch size compared (``pandas.testing.assert_frame_equal``),
   the overhead per point of each, and an estimate of the wall time of a 500 x 500 matrix on
   N workers from the measured per-point cost, at one point per task and at a batch size
   large enough that Dask's per-task cost no longer sets the pace (``--est-batch``).

The exit status is 1 when the backends' frames differ or a sampled point does not reproduce
its matrix figures, 0 otherwise.
"""

from __future__ import annotations

import argparse
import datetime
import json
import logging
import math
import os
import platform
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

from bench_kernel import cpu_model, table  # same folder: the shared text helpers

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without an installed package
    sys.path.insert(0, str(ROOT))

BUNDLED = ROOT / "mathhammer" / "data" / "cards"
SEED = 20_261_130            # the run's seed (every point's is derived from it)

#: The faction-wide matrix of the estimate: 500 attackers x 500 targets.
EST_SIZE = 500
EST_TRIALS = (200_000, 1_000_000)
EST_WORKERS = (2, 16, 64, 256)

#: Issue 20's fixed cost per point, seconds, by what the target marks damage on.
FIXED_TARGETS = {"track": 0.3e-3, "grid": 0.6e-3, "spiral": 0.6e-3}
#: The trial counts the fixed cost is fitted over (one chunk each: no per-chunk cost in it).
FIXED_TRIALS = (100, 1_600)


# ------------------------------------------------------------------------ the cards
def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)  # a JSON string is a valid TOML basic string
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def toml_dump(data: dict) -> str:
    """A card as TOML: top-level tables, their plain keys, then arrays of tables."""
    out = []

    def table(prefix: str, body: dict, header: str) -> None:
        out.append(header)
        nested = []
        for key, value in body.items():
            if isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
                nested.append((key, value))
            elif isinstance(value, dict):
                nested.append((key, [value]))
            else:
                out.append(f"{key} = {toml_value(value)}")
        out.append("")
        for key, items in nested:
            for item in items:
                table(f"{prefix}.{key}", item, f"[[{prefix}.{key}]]")

    for name, body in data.items():
        table(name, body, f"[{name}]")
    return "\n".join(out)


def _retitle(card: dict, stem: str, note: str) -> dict:
    card = json.loads(json.dumps(card))  # a deep copy
    info = card.setdefault("card", {})
    info["name"] = f"{info.get('name', stem)} ({note})"
    info["description"] = f"Benchmark variant of the bundled card {stem}: {note}."
    return card


def attacker_variants(stem: str, card: dict) -> list[tuple[str, dict]]:
    """Two attackers per bundled card.

    ``buffed``: every weapon +1 skill (MAT/RAT) and +1 POW.
    ``focus``: +1 focus or fury where the card has some; otherwise +1 attack on its first
    weapon (infantry, solo).
    """
    buffed = _retitle(card, stem, "+1 skill, +1 POW")
    for w in buffed["attacker"]["weapons"]:
        w["skill"] += 1
        w["pow"] += 1
    att = card["attacker"]
    points = next((k for k in ("focus", "fury") if att.get(k)), None)
    if points:
        focus = _retitle(card, stem, f"+1 {points}")
        focus["attacker"][points] += 1
    else:
        focus = _retitle(card, stem, "+1 attack on its first weapon")
        w = focus["attacker"]["weapons"][0]
        w["attacks"] = w.get("attacks", 1) + 1
    return [(f"{stem}_buffed", buffed), (f"{stem}_focus", focus)]


def target_variants(stem: str, card: dict) -> list[tuple[str, dict]]:
    """Two targets per bundled card.

    ``worn``: ARM -1; a damage track loses a quarter of its boxes (at least one box left);
    a warcaster or warlock has 1 focus or fury left (spent on spells).
    ``guarded``: DEF +1, ARM +1 (a defensive spell or animus).
    """
    worn = _retitle(card, stem, "ARM -1, boxes or focus spent")
    t = worn["target"]
    t["arm"] -= 1
    if "boxes" in t:
        t["boxes"] = max(1, t["boxes"] - t["boxes"] // 4)
    for k in ("focus", "fury"):
        if t.get(k):
            t[k] = 1
    guarded = _retitle(card, stem, "DEF +1, ARM +1")
    guarded["target"]["def"] += 1
    guarded["target"]["arm"] += 1
    return [(f"{stem}_worn", worn), (f"{stem}_guarded", guarded)]


def make_decks(root: Path, n_attackers: int, n_targets: int) -> tuple[Path, Path, dict]:
    """Write ``n_attackers`` attacker cards and ``n_targets`` target cards under ``root``
    (``attackers/``, ``targets/``); return the two directories and the mix of targets.

    Deterministic: the variants of the bundled cards, in the order kind by kind (the first
    variant of every card, then the second), so a smaller deck still mixes tracks, grids and
    spirals.
    """
    bundled = [(p.stem, tomllib.loads(p.read_text())) for p in sorted(BUNDLED.glob("*.toml"))]
    pools = {"attackers": [[], []], "targets": [[], []]}
    for stem, card in bundled:
        if "attacker" in card:
            for i, v in enumerate(attacker_variants(stem, card)):
                pools["attackers"][i].append(v)
        if "target" in card:
            for i, v in enumerate(target_variants(stem, card)):
                pools["targets"][i].append(v)
    mix = {}
    dirs = []
    for role, n in (("attackers", n_attackers), ("targets", n_targets)):
        deck = pools[role][0] + pools[role][1]
        if n > len(deck):
            raise SystemExit(f"--size {n}: at most {len(deck)} {role} can be generated")
        d = root / role
        d.mkdir()
        for stem, card in deck[:n]:
            (d / f"{stem}.toml").write_text(toml_dump(card))
            if role == "targets":
                t = card["target"]
                kind = "grid" if "grid" in t else "spiral" if "spiral" in t else "track"
                mix[kind] = mix.get(kind, 0) + 1
        dirs.append(d)
    return dirs[0], dirs[1], mix


# ------------------------------------------------------------------------ helpers
def fmt_int(n):
    return f"{n:,}"


def fmt_dur(s: float) -> str:
    """Seconds as s / min / h."""
    if s < 120:
        return f"{s:.0f} s" if s >= 10 else f"{s:.1f} s"
    if s < 600:
        return f"{s / 60:.1f} min"
    if s < 2 * 3600:
        return f"{s / 60:.0f} min"
    return f"{s / 3600:.1f} h"


def sample_pairs(n_att: int, n_tgt: int, n: int) -> list[tuple[int, int]]:
    """``n`` distinct (attacker, target) indices spread over both decks (every attacker in
    turn; targets stepped by a stride coprime with the deck); all pairs when ``n`` is 0 or
    at least the number of pairs."""
    total = n_att * n_tgt
    if n <= 0 or n >= total:
        return [(a, t) for a in range(n_att) for t in range(n_tgt)]
    stride = next(s for s in range(7, 7 + n_tgt + 1) if math.gcd(s, n_tgt) == 1)
    out, seen, i = [], set(), 0
    while len(out) < n:
        pair = (i % n_att, (stride * i + i // n_att) % n_tgt)
        if pair not in seen:
            seen.add(pair)
            out.append(pair)
        i += 1
    return out


def thread_cpu() -> dict[int, float]:
    """CPU seconds of each thread of this process, by native thread id (empty without
    psutil, which ``distributed`` requires)."""
    try:
        import psutil
    except ImportError:
        return {}
    return {t.id: t.user_time + t.system_time for t in psutil.Process().threads()}


def timed_matrix(attackers, targets, **kw):
    """``matrix(...)``, its wall time and this process's CPU time over the call: the whole
    process, and its main thread (for a LocalCluster: the whole process is the client and the
    scheduler; the main thread builds the points and the frame, Dask's IO loop thread runs
    the scheduler and the client's communication)."""
    import threading

    from mathhammer import matrix

    main_id = threading.main_thread().native_id
    th0 = thread_cpu()
    cpu0, t0 = time.process_time(), time.perf_counter()
    frame = matrix(attackers, targets, progress=False, **kw)
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    th1 = thread_cpu()
    main = th1.get(main_id, math.nan) - th0.get(main_id, 0.0) if th1 else math.nan
    return frame, wall, {"process": cpu, "main_thread": main}


def start_cluster(workers: int):
    """A LocalCluster as ``scheduler="local-cluster"`` starts it (``workers`` processes of
    one thread) and its client."""
    import distributed

    cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", silence_logs=logging.ERROR)
    return cluster, distributed.Client(cluster)


# ------------------------------------------------------------------------ measurements
def single_core_cost(att_dir: Path, tgt_dir: Path, pairs, trials: int, repeats: int,
                     local_frame):
    """Per-point cost of a point as the matrix computes it (``compute_point``: ``simulate``
    without the how-to-play report, then the point's summary rows) on one Numba thread over
    ``pairs``, at ``trials`` and ``trials // 4``: mean seconds at each and the linear fit
    ``fixed + per_trial * trials``; checks each point's rows against ``local_frame``."""
    import numba

    from mathhammer.cards import scenario_from_cards
    from mathhammer.studies.execution import Point, compute_point
    from mathhammer.studies.matrices import point_seed

    atts = sorted(att_dir.glob("*.toml"))
    tgts = sorted(tgt_dir.glob("*.toml"))
    small = max(1, trials // 4)
    n_threads = numba.config.NUMBA_NUM_THREADS
    build, cost, cost_small, mismatches = [], [], [], []
    by_pair = {k: g for k, g in local_frame.groupby(["attacker", "target"], sort=False)}
    numba.set_num_threads(1)
    try:
        for ai, ti in pairs:
            a, t = atts[ai], tgts[ti]
            t0 = time.perf_counter()
            scen = scenario_from_cards([{"card": str(a)}], {"card": str(t)})
            build.append(time.perf_counter() - t0)
            key = (a.stem, t.stem)
            seed = point_seed(SEED, key)
            best, best_small = math.inf, math.inf
            for _ in range(repeats):
                t0 = time.perf_counter()
                done = compute_point(Point(key, scen, trials, seed, "monte_carlo"))
                best = min(best, time.perf_counter() - t0)
                t0 = time.perf_counter()
                compute_point(Point(key, scen, small, seed, "monte_carlo"))
                best_small = min(best_small, time.perf_counter() - t0)
            cost.append(best)
            cost_small.append(best_small)
            want = by_pair[key][["metric", "value", "ci_low", "ci_high"]]
            got = [["spent" if m.startswith("spent:") else m, v, lo, hi]
                   for m, v, lo, hi in getattr(done, "rows", [])]
            if not _same_rows(got, want):
                mismatches.append(f"{a.stem} / {t.stem}")
    finally:
        numba.set_num_threads(n_threads)
    mean, mean_small = sum(cost) / len(cost), sum(cost_small) / len(cost_small)
    per_trial = (mean - mean_small) / (trials - small) if trials > small else 0.0
    per_trial = max(per_trial, 0.0)
    fixed = max(0.0, mean - per_trial * trials)
    return {"points": len(pairs), "trials": trials, "small_trials": small, "repeats": repeats,
            "mean_s": mean, "mean_small_s": mean_small, "min_s": min(cost), "max_s": max(cost),
            "fixed_s": fixed, "per_trial_s": per_trial,
            "build_s": sum(build) / len(build), "mismatches": mismatches}


def _same_rows(got: list, want) -> bool:
    """A point's rows equal the frame's, NaN equal to NaN (an interval that does not apply)."""
    rows = [list(r) for r in want.itertuples(index=False)]
    if len(got) != len(rows):
        return False
    return all(x == y or (isinstance(x, float) and isinstance(y, float) and math.isnan(x)
                          and math.isnan(y)) for g, w in zip(got, rows) for x, y in zip(g, w))


# ------------------------------------------------------------------------ the fixed cost
def target_kind(card: Path) -> str:
    """``track``, ``grid`` or ``spiral``: what the target card of ``card`` marks damage on."""
    t = tomllib.loads(card.read_text())["target"]
    return "grid" if "grid" in t else "spiral" if "spiral" in t else "track"


def fixed_cost_pairs(att_dir: Path, tgt_dir: Path, per_kind: int) -> tuple[list, int, int]:
    """Up to ``per_kind`` (attacker, target, kind) index pairs of each kind of target, spread
    over the decks, among the pairs whose scenario needs no solve of best play (a solve, tens
    to hundreds of milliseconds, is the scenario's own work, the same whatever the matrix
    around it); with the number of such pairs and of all pairs."""
    from mathhammer.cards import scenario_from_cards
    from mathhammer.play import needs_play

    atts = sorted(att_dir.glob("*.toml"))
    tgts = sorted(tgt_dir.glob("*.toml"))
    kinds = [target_kind(t) for t in tgts]
    eligible: dict[str, list] = {}
    for ai, a in enumerate(atts):
        for ti, t in enumerate(tgts):
            if not needs_play(scenario_from_cards([{"card": str(a)}], {"card": str(t)})):
                eligible.setdefault(kinds[ti], []).append((ai, ti, kinds[ti]))
    picked = []
    for kind in ("track", "grid", "spiral"):
        pool = eligible.get(kind, [])
        step = max(1, len(pool) / per_kind) if pool else 1
        picked += [pool[int(i * step)] for i in range(min(per_kind, len(pool)))]
    return picked, sum(len(v) for v in eligible.values()), len(atts) * len(tgts)


def fixed_cost_worker(spec_path: str) -> None:
    """A fresh process's timings of the fixed cost (``--fixed-worker SPEC``): each pair of
    the spec as the matrix computes it (``compute_point``) on one Numba thread, at each trial
    count, wall and CPU time, best of ``repeats`` runs of ``calls`` calls, the trial counts
    taking turns; mathhammer imported from the spec's checkout. Writes JSON to the spec's
    ``out``."""
    spec = json.loads(Path(spec_path).read_text())
    sys.path.insert(0, spec["import_from"])  # before mathhammer is first imported
    import numba

    import mathhammer
    from mathhammer.cards import scenario_from_cards
    from mathhammer.studies.execution import Point, compute_point
    from mathhammer.studies.matrices import point_seed

    numba.set_num_threads(1)
    atts = sorted(Path(spec["attackers"]).glob("*.toml"))
    tgts = sorted(Path(spec["targets"]).glob("*.toml"))
    out = []
    for ai, ti, kind in spec["pairs"]:
        a, t = atts[ai], tgts[ti]
        scen = scenario_from_cards([{"card": str(a)}], {"card": str(t)})
        key = (a.stem, t.stem)
        points = {n: Point(key, scen, n, point_seed(SEED, key), "monte_carlo")
                  for n in spec["trials"]}
        for pt in points.values():  # loads the kernels, fills the caches
            compute_point(pt)
        wall = {n: math.inf for n in points}
        cpu = dict(wall)
        for _ in range(spec["repeats"]):
            for n, pt in points.items():
                c0, t0 = time.process_time(), time.perf_counter()
                for _ in range(spec["calls"]):
                    compute_point(pt)
                wall[n] = min(wall[n], (time.perf_counter() - t0) / spec["calls"])
                cpu[n] = min(cpu[n], (time.process_time() - c0) / spec["calls"])
        out.append({"pair": key, "kind": kind, "wall": list(wall.values()),
                    "cpu": list(cpu.values())})
    Path(spec["out"]).write_text(json.dumps({"mathhammer": mathhammer.__file__, "pairs": out}))


def fixed_cost(att_dir: Path, tgt_dir: Path, pairs, checkouts: dict, trials, repeats: int,
               calls: int, rounds: int, tmp: Path) -> dict:
    """The fixed cost per point of each checkout (``{name: path}``) over ``pairs``: fresh
    processes (:func:`fixed_cost_worker`), the checkouts taking turns for ``rounds`` rounds,
    the best time of each pair and trial count kept; per pair the linear fit over the two
    trial counts, ``fixed + per_trial * trials``, and per kind of target the means."""
    best: dict = {name: {} for name in checkouts}
    where: dict = {}
    t1, t2 = trials
    # each process's own mean fixed cost per kind (CPU), to show the spread between rounds
    # and, with two checkouts, their ratio round by round (the processes next to each other)
    per_round: dict = {name: {} for name in checkouts}
    for r in range(rounds):
        order = list(checkouts) if r % 2 == 0 else list(checkouts)[::-1]
        for name in order:
            spec = tmp / f"fixed-{name}-{r}.json"
            result = tmp / f"fixed-{name}-{r}.out.json"
            spec.write_text(json.dumps({
                "import_from": str(checkouts[name]), "attackers": str(att_dir),
                "targets": str(tgt_dir), "pairs": pairs, "trials": list(trials),
                "repeats": repeats, "calls": calls, "out": str(result)}))
            subprocess.run([sys.executable, str(Path(__file__).resolve()), "--fixed-worker",
                            str(spec)], check=True)
            got = json.loads(result.read_text())
            where[name] = got["mathhammer"]
            kinds: dict = {}
            for row in got["pairs"]:
                slope = (row["cpu"][1] - row["cpu"][0]) / (t2 - t1)
                kinds.setdefault(row["kind"], []).append(row["cpu"][0] - slope * t1)
            for kind, fits in kinds.items():
                per_round[name].setdefault(kind, []).append(sum(fits) / len(fits))
            for row in got["pairs"]:
                k = tuple(row["pair"])
                old = best[name].get(k)
                if old is None:
                    best[name][k] = row
                else:
                    for m in ("wall", "cpu"):
                        old[m] = [min(x, y) for x, y in zip(old[m], row[m])]
    out = {"trials": list(trials), "repeats": repeats, "calls": calls, "rounds": rounds,
           "imported": where, "kinds": {}, "per_round_cpu": per_round}
    for name in checkouts:
        per_kind: dict = {}
        for row in best[name].values():
            fit = {}
            for m in ("wall", "cpu"):
                slope = (row[m][1] - row[m][0]) / (t2 - t1)
                fit[m] = row[m][0] - slope * t1
                fit[m + "_per_trial"] = slope
            per_kind.setdefault(row["kind"], []).append(fit)
        out["kinds"][name] = {
            kind: {"pairs": len(fits),
                   **{m: sum(f[m] for f in fits) / len(fits)
                      for m in ("wall", "cpu", "wall_per_trial", "cpu_per_trial")},
                   "cpu_max": max(f["cpu"] for f in fits)}
            for kind, fits in per_kind.items()}
    return out


def print_fixed_cost(fc: dict, n_eligible: int, n_pairs: int, load: tuple) -> None:
    """The fixed-cost table against the issue's targets (:data:`FIXED_TARGETS`)."""
    names = list(fc["kinds"])
    t1, t2 = fc["trials"]
    rows = []
    for kind in ("track", "grid", "spiral"):
        if kind not in fc["kinds"][names[-1]]:
            continue
        head = fc["kinds"][names[-1]][kind]
        row = [kind, head["pairs"], f"{FIXED_TARGETS[kind] * 1e3:.2f}"]
        for name in names:
            k = fc["kinds"][name][kind]
            row += [f"{k['cpu'] * 1e3:.3f}", f"{k['wall'] * 1e3:.3f}"]
        row += [f"{head['cpu_per_trial'] * 1e9:.0f}",
                "yes" if head["cpu"] <= FIXED_TARGETS[kind] else "no"]
        rows.append(row)
    headers = ["target", "pairs", "goal ms"]
    for name in names:
        headers += [f"{name} CPU ms", f"{name} wall ms"]
    headers += ["ns/trial", "CPU met"]
    print(table(headers, rows))
    print(f"  a point as a backend computes it (compute_point: simulate without the how-to-play "
          f"report, then its\n  summary rows), 1 Numba thread, at {t1:,} and {t2:,} trials (one "
          f"chunk), best of {fc['repeats']} x {fc['calls']} calls in\n  each of {fc['rounds']} "
          f"fresh processes per checkout, the checkouts taking turns; fixed = the fit's "
          f"intercept,\n  mean over the pairs; CPU = process time (what load does not "
          f"inflate), wall = elapsed")
    print(f"  pairs: those needing no solve of best play ({n_eligible} of {n_pairs}; a solve is "
          "the scenario's own work), spread\n  over each kind; goal: issue 20 (tracks 0.3 ms, "
          "grids 0.6 ms; a spiral, a card too, as a grid)")
    for name in names:
        print(f"  {name}: {fc['imported'][name]}")
    print_round_spread(fc)
    print(f"  load average {load[0]:.2f} -> {os.getloadavg()[0]:.2f}")


def print_round_spread(fc: dict) -> None:
    """Each process's mean fixed cost (CPU) per kind, lowest to highest over the rounds,
    and with two checkouts the ratio of the last to the first round by round (processes run
    next to each other): the table above keeps each pair's best over every round, which hides
    how much one run of the same code differs from the next on a shared machine."""
    rounds = fc.get("per_round_cpu") or {}
    names = list(rounds)
    for kind in ("track", "grid", "spiral"):
        spans = [f"{n} {min(v) * 1e3:.3f}-{max(v) * 1e3:.3f}"
                 for n in names if (v := rounds[n].get(kind))]
        if not spans:
            continue
        line = f"  {kind}: per round, ms: " + ", ".join(spans)
        if len(names) == 2 and kind in rounds[names[0]] and kind in rounds[names[1]]:
            ratios = sorted(b / a for a, b in zip(rounds[names[0]][kind], rounds[names[1]][kind])
                            if a > 0)
            if ratios:
                line += (f"; {names[1]} / {names[0]} round by round: median "
                         f"{ratios[len(ratios) // 2]:.2f} ({ratios[0]:.2f}-{ratios[-1]:.2f})")
        print(line)


def parse_batches(text: str) -> list[int]:
    """``--batches``: distinct whole numbers of at least 1, in order, 1 first."""
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: comma-separated whole numbers") from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: whole numbers of at least 1")
    return sorted(set(values) | {1})


def fit_per_task(batches, cpu_per_point):
    """Least-squares fit ``cpu per point = per_point + per_task / batch`` over the warm runs:
    the client's and scheduler's CPU split into a part paid once per point (building the
    point, moving its scenario and its rows, the frame) and a part paid once per task."""
    xs = [1 / b for b in batches]
    if len(set(xs)) < 2:
        return cpu_per_point[0], 0.0  # one batch size: all of it counted per point
    mx, my = sum(xs) / len(xs), sum(cpu_per_point) / len(cpu_per_point)
    slope = (sum((x - mx) * (y - my) for x, y in zip(xs, cpu_per_point))
             / sum((x - mx) ** 2 for x in xs))
    return my - slope * mx, slope


def overhead(wall: float, cores: int, points: int, compute: float) -> float:
    """Core-seconds per point beyond the single-core compute cost."""
    return (wall * cores - compute * points) / points


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", type=int, default=None,
                   help="attackers and targets of the matrix (default 20; --quick 4)")
    p.add_argument("--trials", type=lambda s: int(float(s)), default=None,
                   help="trials per point (default 200,000; --quick 20,000)")
    p.add_argument("--workers", type=int, default=2,
                   help="processes of the LocalCluster (one thread each; default 2)")
    p.add_argument("--batches", type=parse_batches, default=[1, 4, 16, 64], metavar="K,K,...",
                   help="points per Dask task of the warm-cluster runs, comma-separated "
                        "(default 1,4,16,64; 1 is always run: the estimate's baseline)")
    p.add_argument("--est-batch", type=int, default=64, metavar="K",
                   help="points per task of the second 500 x 500 estimate (default 64)")
    p.add_argument("--sample", type=int, default=None,
                   help="pairs timed on one thread (default 80; --quick 8; 0 = every pair)")
    p.add_argument("--repeats", type=int, default=2,
                   help="repeats of each single-thread timing, the best is kept (default 2)")
    p.add_argument("--quick", action="store_true", help="smoke run: 4 x 4 at 20,000 trials")
    p.add_argument("--keep-cards", metavar="DIR",
                   help="write the generated decks into DIR (kept) instead of a temporary "
                        "directory")
    p.add_argument("--json", metavar="PATH", help="also write every figure to PATH as JSON")
    p.add_argument("--fixed-only", action="store_true",
                   help="the fixed cost per point only (no backends, no Dask)")
    p.add_argument("--base", metavar="DIR",
                   help="a checkout to measure the fixed cost of too, taking turns with this "
                        "one (e.g. git worktree add /tmp/before <commit>)")
    p.add_argument("--fixed-pairs", type=int, default=None, metavar="N",
                   help="pairs of each kind of target timed for the fixed cost (default 12; "
                        "--quick 3)")
    p.add_argument("--fixed-rounds", type=int, default=None, metavar="R",
                   help="fresh processes per checkout for the fixed cost, taking turns "
                        "(default 3; --quick 1)")
    p.add_argument("--fixed-worker", metavar="SPEC", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.fixed_worker:
        fixed_cost_worker(args.fixed_worker)
        return 0

    q = args.quick
    size = args.size or (4 if q else 20)
    trials = args.trials or (20_000 if q else 200_000)
    sample = args.sample if args.sample is not None else (8 if q else 80)
    n_workers = args.workers
    batches = args.batches
    if args.est_batch < 2:
        p.error("--est-batch: at least 2 (the estimate at 1 point per task is always shown)")

    import numba
    import numpy as np
    import pandas as pd

    try:
        import distributed
    except ImportError:
        if not args.fixed_only:
            raise SystemExit("bench_matrix.py needs Dask: pip install 'mathhammer[dask]'") from None
        distributed = None

    from mathhammer import pivot_matrix

    started = time.perf_counter()
    load0 = os.getloadavg()
    cores = numba.config.NUMBA_NUM_THREADS
    report = {
        "date": datetime.date.today().isoformat(),
        "machine": {"cpu": cpu_model(), "cores": os.cpu_count(), "numba_threads": cores,
                    "python": platform.python_version(), "numpy": np.__version__,
                    "numba": numba.__version__, "pandas": pd.__version__,
                    "distributed": getattr(distributed, "__version__", "-")},
        "config": {"size": size, "trials": trials, "workers": n_workers, "sample": sample,
                   "repeats": args.repeats, "seed": SEED, "batches": batches,
                   "est_batch": args.est_batch},
        "quick": q,
    }
    m = report["machine"]
    print(f"mathhammer balance-matrix benchmark  {report['date']}  {'(quick)' if q else ''}")
    print(f"  {m['cpu']}, {m['cores']} cores; Python {m['python']}, NumPy {m['numpy']}, "
          f"Numba {m['numba']}, pandas {m['pandas']}, distributed {m['distributed']}; "
          f"load average {load0[0]:.2f}")

    ok = True
    with tempfile.TemporaryDirectory(prefix="mathhammer-bench-matrix-") as tmp:
        root = Path(args.keep_cards) if args.keep_cards else Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        att_dir, tgt_dir, mix = make_decks(root, size, size)
        points = size * size
        atts = sorted(att_dir.glob("*.toml"))
        tgts = sorted(tgt_dir.glob("*.toml"))
        warm_a = [str(atts[0]), str(atts[-1])][: min(2, size)]
        warm_t = [str(tgts[0]), str(tgts[-1])][: min(2, size)]
        print(f"\n  matrix: {size} attackers x {size} targets = {fmt_int(points)} points, "
              f"{fmt_int(trials)} trials per point, seed {SEED}")
        print(f"  targets: {', '.join(f'{v} {k}' for k, v in sorted(mix.items()))}; cards "
              f"written to {root if args.keep_cards else 'a temporary directory'}")
        common = {"trials": trials, "seed": SEED}
        runs = {}

        # -- the fixed cost per point (issue 20), in fresh processes
        per_kind = args.fixed_pairs or (3 if q else 12)
        rounds = args.fixed_rounds or (1 if q else 3)
        fpairs, n_eligible, n_pairs = fixed_cost_pairs(att_dir, tgt_dir, per_kind)
        checkouts = {"before": Path(args.base).resolve()} if args.base else {}
        checkouts["this"] = ROOT
        print("\n== Fixed cost per point (issue 20) ==")
        fload = os.getloadavg()
        fc = fixed_cost(att_dir, tgt_dir, fpairs, checkouts, FIXED_TRIALS, 5, 10 if q else 20,
                        rounds, Path(tmp))
        print_fixed_cost(fc, n_eligible, n_pairs, fload)
        report["fixed_cost"] = {**fc, "eligible_pairs": n_eligible, "all_pairs": n_pairs,
                                "targets_s": FIXED_TARGETS, "load_before": fload[0]}
        if args.fixed_only:
            if args.json:
                Path(args.json).write_text(json.dumps(report, indent=2, default=float) + "\n")
            return 0

        # -- (a) local backend
        print("\n== Local backend (this process, Numba threads on all cores) ==")
        _, warm_local, _ = timed_matrix(warm_a, warm_t, **common)
        print(f"  warm-up: {len(warm_a)} x {len(warm_t)} matrix {warm_local:.2f} s "
              "(kernels loaded from Numba's cache or compiled)")
        local, wall, cpu = timed_matrix(att_dir, tgt_dir, **common)
        runs["local"] = {"wall_s": wall, "cpu_s": cpu["process"], "cores": cores,
                         "compute_s": local.attrs["compute_seconds"], "label": "local",
                         "processes": len(local.attrs["processes"])}
        print(f"  {fmt_int(points)} points: {wall:.2f} s wall, {points / wall:.1f} points/s")

        kill = pivot_matrix(local, "kill")
        vals = kill.to_numpy().ravel()
        mix_kill = {"zero": int((vals == 0).sum()), "below_1pct": int((vals < 0.01).sum()),
                    "middle": int(((vals >= 0.01) & (vals <= 0.99)).sum()),
                    "above_99pct": int((vals > 0.99).sum()), "one": int((vals == 1).sum())}
        dmg = pivot_matrix(local, "damage_mean").to_numpy().ravel()
        print(f"  kill probability of the {points} pairs: {mix_kill['middle']} between 1% and "
              f"99%, {mix_kill['below_1pct']} below 1% ({mix_kill['zero']} exactly 0), "
              f"{mix_kill['above_99pct']} above 99% ({mix_kill['one']} exactly 1); mean damage "
              f"{dmg.min():.1f} to {dmg.max():.1f}")
        report["kill_mix"] = mix_kill

        # -- single-core cost per point
        pairs = sample_pairs(size, size, sample)
        print(f"\n== Single-core cost per point (compute_point, 1 Numba thread, "
              f"{len(pairs)} pairs, best of {args.repeats}) ==")
        sc = single_core_cost(att_dir, tgt_dir, pairs, trials, args.repeats, local)
        report["single_core"] = sc
        c1 = sc["mean_s"]
        print(table(["trials", "mean ms/point", "min ms", "max ms"], [
            [fmt_int(trials), f"{c1 * 1e3:.2f}", f"{sc['min_s'] * 1e3:.2f}",
             f"{sc['max_s'] * 1e3:.2f}"],
            [fmt_int(sc["small_trials"]), f"{sc['mean_small_s'] * 1e3:.2f}", "", ""]]))
        print(f"  fit: {sc['fixed_s'] * 1e3:.2f} ms per point + {sc['per_trial_s'] * 1e9:.1f} ns "
              f"per trial (from the two trial counts); building a scenario from the cards "
              f"(not in the figure above) {sc['build_s'] * 1e3:.2f} ms")
        if sc["mismatches"]:
            ok = False
            print(f"  FAIL: {len(sc['mismatches'])} sampled points differ from the matrix: "
                  f"{', '.join(sc['mismatches'][:5])}")
        else:
            print(f"  the {len(pairs)} sampled points reproduce the local matrix's figures "
                  "exactly (same per-point seeds, on 1 thread instead of "
                  f"{cores})")

        # -- (b) Dask LocalCluster
        print(f"\n== Dask LocalCluster ({n_workers} processes x 1 thread) ==")
        t0 = time.perf_counter()
        cluster, client = start_cluster(n_workers)
        startup = time.perf_counter() - t0
        warm_frames = {}
        try:
            _, warm_dask, _ = timed_matrix(warm_a, warm_t, scheduler=client, **common)
            # the process's CPU with the cluster idle: heartbeats, monitors (per second)
            cpu0, t0 = time.process_time(), time.perf_counter()
            time.sleep(1.0 if q else 2.0)
            idle_rate = (time.process_time() - cpu0) / (time.perf_counter() - t0)
            for b in batches:
                warm_frames[b] = timed_matrix(att_dir, tgt_dir, scheduler=client, batch=b,
                                              **common)
        finally:
            t0 = time.perf_counter()
            client.close()
            cluster.close()
            shutdown = time.perf_counter() - t0
        print(f"  start-up: LocalCluster + Client {startup:.2f} s; warm-up: {len(warm_a)} x "
              f"{len(warm_t)} matrix {warm_dask:.2f} s (each worker loads the kernels on its "
              f"first point); shut-down {shutdown:.2f} s")
        print(f"  idle warm cluster: this process (client + scheduler) uses {idle_rate * 1e3:.0f} "
              "ms of CPU per second (heartbeats, monitors), work or no work")
        for b in batches:
            frame, wall, cpu = warm_frames[b]
            tasks = math.ceil(points / b)
            if frame.attrs.get("batch") != b:
                ok = False
                print(f"  FAIL: batch={b} run reports frame.attrs['batch'] = "
                      f"{frame.attrs.get('batch')!r}")
            runs[f"dask_warm_b{b}"] = {
                "wall_s": wall, "cpu_s": cpu["process"], "main_thread_cpu_s": cpu["main_thread"],
                "cores": n_workers, "compute_s": frame.attrs["compute_seconds"],
                "label": f"dask, warm, batch {b}", "batch": b, "tasks": tasks,
                "processes": len(frame.attrs["processes"])}
            print(f"  warm cluster (scheduler=Client), batch={b} ({fmt_int(tasks)} tasks): "
                  f"{fmt_int(points)} points {wall:.2f} s wall, {points / wall:.1f} points/s; "
                  f"points per worker process: {sorted(frame.attrs['processes'].values())}")
            print(f"    CPU of this process (client + scheduler) {cpu['process'] / tasks * 1e3:.2f} "
                  f"ms per task, {cpu['process'] / points * 1e3:.2f} ms per point: main thread "
                  f"(points, frame) {cpu['main_thread'] / points * 1e3:.2f} ms, other threads "
                  f"(Dask's IO loop: scheduler, client communication) "
                  f"{(cpu['process'] - cpu['main_thread']) / points * 1e3:.2f} ms per point; "
                  f"the idle rate over this wall: {idle_rate * wall / points * 1e3:.2f} ms per "
                  "point")
        e2e, wall, cpu = timed_matrix(att_dir, tgt_dir, scheduler="local-cluster",
                                      workers=n_workers, **common)
        runs["dask_e2e"] = {"wall_s": wall, "cpu_s": cpu["process"],
                            "main_thread_cpu_s": cpu["main_thread"], "cores": n_workers,
                            "compute_s": e2e.attrs["compute_seconds"],
                            "label": "dask, local-cluster e2e", "batch": 1, "tasks": points,
                            "processes": len(e2e.attrs["processes"])}
        print(f"  scheduler=\"local-cluster\", workers={n_workers} (cluster started and closed "
              f"by the call, kernels loaded in fresh workers): {wall:.2f} s wall")
        report["dask"] = {"startup_s": startup, "warmup_s": warm_dask, "shutdown_s": shutdown,
                          "idle_cpu_s_per_s": idle_rate}
        report["warmup_local_s"] = warm_local

        # -- agreement
        print("\n== Agreement ==")
        for key, frame in ([(f"dask, warm cluster, batch {b}", warm_frames[b][0])
                            for b in batches] + [("dask, local-cluster", e2e)]):
            try:
                pd.testing.assert_frame_equal(local, frame)
                print(f"  local and {key}: identical frames ({len(local):,} rows, "
                      "assert_frame_equal)")
            except AssertionError as exc:
                ok = False
                print(f"  FAIL: local and {key} differ: {str(exc).splitlines()[0]}")

    # -- summary table
    print(f"\n== Backends: {size} x {size} matrix, {fmt_int(trials)} trials per point ==")
    rows = []
    for key, r in runs.items():
        r["points_per_s"] = points / r["wall_s"]
        r["wall_per_point_s"] = r["wall_s"] / points
        r["overhead_s"] = overhead(r["wall_s"], r["cores"], points, c1)
        r["client_cpu_per_point_s"] = r["cpu_s"] / points
        if key != "local":
            r["client_cpu_per_task_s"] = r["cpu_s"] / r["tasks"]
        r["vs_local"] = r["wall_s"] / runs["local"]["wall_s"]
        rows.append([r["label"], r["cores"], fmt_int(r.get("tasks", points)),
                     f"{r['wall_s']:.2f}", f"{r['points_per_s']:.1f}",
                     f"{r['wall_per_point_s'] * 1e3:.2f}", f"{r['compute_s'] / points * 1e3:.2f}",
                     f"{r['overhead_s'] * 1e3:+.2f}",
                     f"{r['overhead_s'] / c1 * 100:+.0f}%",
                     "-" if key == "local" else f"{r['client_cpu_per_task_s'] * 1e3:.2f}",
                     "-" if key == "local" else f"{r['client_cpu_per_point_s'] * 1e3:.2f}",
                     f"{r['vs_local']:.2f}"])
    print(table(["backend", "cores", "tasks", "wall s", "points/s", "wall ms/pt",
                 "in task ms/pt", "overhead ms/pt", "of compute", "client CPU ms/task",
                 "ms/pt", "/ local"], rows))
    print(f"  single-core compute per point c1 = {c1 * 1e3:.2f} ms (compute_point, 1 thread,"
          f" mean over the sample)")
    print("  overhead ms/pt = (wall s x cores - c1 x points) / points: core time per point "
          "beyond the\n  single-core compute (client, scheduler, transfers, idle cores, "
          "thread or process start-up)")
    print("  in task ms/pt = time inside the point tasks (frame.attrs['compute_seconds']) / "
          "points;\n  client CPU ms/task, ms/pt = CPU time of this process (the client, and "
          "the LocalCluster's scheduler)\n  / tasks, / points (not shown for local: there the "
          "process's CPU time is the computation itself)")
    report["runs"] = runs

    # -- the client's CPU: a part per point and a part per task
    warm = {b: runs[f"dask_warm_b{b}"] for b in batches}
    per_point, per_task = fit_per_task(batches, [warm[b]["client_cpu_per_point_s"]
                                                 for b in batches])
    kmax = warm[batches[-1]]
    main_pt = kmax["main_thread_cpu_s"] / points
    io_pt = (kmax["cpu_s"] - kmax["main_thread_cpu_s"]) / points
    idle_pt = report["dask"]["idle_cpu_s_per_s"] * kmax["wall_s"] / points
    if len(batches) > 1:
        print(f"  client CPU per point over the batch sizes {', '.join(map(str, batches))}, "
              f"least squares: {per_point * 1e3:.2f} ms per point + {per_task * 1e3:.2f} ms per "
              f"task\n  (per task: the scheduler's and the client's bookkeeping of a task; per "
              f"point, what is left at batch {batches[-1]}:\n  main thread {main_pt * 1e3:.2f} ms "
              f"(building each point's scenario, the frame), IO loop {io_pt * 1e3:.2f} ms, of "
              f"which\n  about {idle_pt * 1e3:.2f} ms is the idle background over that run's "
              "wall)")

    # -- estimate
    big = EST_SIZE * EST_SIZE
    B = args.est_batch

    def client_cpu(b):
        """Client + scheduler CPU per point at ``b`` points per task: measured when ``b`` was
        run, else the fit above."""
        if b in warm:
            return warm[b]["client_cpu_per_point_s"], "measured"
        return max(per_point + per_task / b, 0.0), "fit"

    def overhead_at(b):
        """Overhead per point at ``b`` points per task: measured when ``b`` was run; else the
        one measured at the largest batch below (it falls as batches grow, then levels)."""
        k = max(x for x in batches if x <= b)
        return warm[k]["overhead_s"], "measured" if k == b else f"as measured at batch {k}"

    est = {"points": big, "startup_s": startup, "per_point_s": per_point, "per_task_s": per_task,
           "main_thread_s_per_point": main_pt, "batches": {}}
    print(f"\n== Estimate: {EST_SIZE} x {EST_SIZE} matrix ({fmt_int(big)} points) on N Dask "
          "workers of one core ==")
    for b in (1, B):
        o, o_how = overhead_at(b)
        floor, f_how = client_cpu(b)
        tasks = math.ceil(big / b)
        fl = big * floor
        header = ["trials/point", "core ms/point"] + [f"N = {n}" for n in EST_WORKERS] + [
            "client floor"]
        rows, erows = [], []
        for tr in EST_TRIALS:
            core = sc["fixed_s"] + sc["per_trial_s"] * tr + o
            walls = [big * core / n for n in EST_WORKERS]
            rows.append([fmt_int(tr), f"{core * 1e3:.1f}"]
                        + [fmt_dur(w) if w >= fl else f"{fmt_dur(fl)}*" for w in walls]
                        + [fmt_dur(fl)])
            erows.append({"trials": tr, "core_s_per_point": core,
                          "wall_s": {n: max(w, fl) for n, w in zip(EST_WORKERS, walls)},
                          "perfect_scaling_s": {n: w for n, w in zip(EST_WORKERS, walls)},
                          "client_floor_s": fl})
        est["batches"][b] = {"tasks": tasks, "overhead_s": o, "overhead_from": o_how,
                             "client_cpu_per_point_s": floor,
                             "client_cpu_per_task_s": floor * b, "client_cpu_from": f_how,
                             "rows": erows}
        print(f"\n  batch = {b} ({fmt_int(tasks)} tasks)")
        print(table(header, rows))
        print(f"  overhead per point {o * 1e3:.2f} ms ({o_how}); client floor = {fmt_int(tasks)} "
              f"tasks x {floor * b * 1e3:.2f} ms per task = {fmt_int(big)} points x "
              f"{floor * 1e3:.2f} ms ({f_how})")
    n_max, tr_min = max(EST_WORKERS), min(EST_TRIALS)
    perfect = est["batches"][B]["rows"][0]["perfect_scaling_s"][n_max]
    task_part = math.ceil(big / B) * per_task
    task_part_4 = math.ceil(big / max(1, B // 4)) * per_task
    est.update({"est_batch": B, "per_task_part_s": task_part, "per_point_part_s": big * per_point})
    print(f"""
  core ms/point = the single-core fit, {sc['fixed_s'] * 1e3:.2f} ms + {sc['per_trial_s'] * 1e9:.1f} ns x trials, + the warm cluster's
  overhead per point at that batch size (measured at {fmt_int(trials)} trials, kept constant)
  wall = points x core ms/point / N: perfect scaling over N workers of one core each, the Dask
  overhead as measured here on {cores} shared cores (conservative: there the client and the
  scheduler took CPU from the workers); plus the cluster's start-up ({startup:.1f} s here)
  * = held at the client floor = tasks x the CPU per task of the process running the client and
  the scheduler (its main thread and Dask's IO loop, background included: {idle_rate * 1e3:.0f} ms per
  second idle): serial work that more workers do not shorten
  batch {B}: the fit's per-task part of the floor, {fmt_int(math.ceil(big / B))} tasks x {per_task * 1e3:.2f} ms = {fmt_dur(task_part)}, is {'below' if task_part < perfect else 'not below'}
  the wall of perfect scaling on {n_max} workers at {fmt_int(tr_min)} trials ({fmt_dur(perfect)}); batch {max(1, B // 4)} would leave
  {fmt_dur(task_part_4)}. The per-point part, {per_point * 1e3:.2f} ms x {fmt_int(big)} points = {fmt_dur(big * per_point)}, no batch size removes""")
    report["estimate"] = est

    load1 = os.getloadavg()
    print(f"\nchecks: {'all ok' if ok else 'FAILED'}; benchmark took "
          f"{time.perf_counter() - started:.0f} s; load average {load0[0]:.2f} -> {load1[0]:.2f}")
    report["checks_ok"] = ok
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2, default=float) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
