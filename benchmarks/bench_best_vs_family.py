#!/usr/bin/env python
"""Best play against every fixed policy of the family, on every bundled card pairing.

For every pairing of a bundled attacker card with points against a bundled target card, and
for the heavy-warjack grid workload of ``bench_kernel.py`` (``grid_focus``), best play (the
default) is set against every fixed spending policy of the family
(:func:`mathhammer.policy.family.policy_family`). Best play compares the kill first, then
the models destroyed (a unit), then the damage (docs/best-play.md), so against each fixed
policy:

* its kill is never lower;
* where the two kills are equal, its expected models destroyed are at least the fixed
  policy's (a unit), and where those are equal too, its expected damage.

Where the exact engine solves the pairing both are exact (equal: within 1e-9). Elsewhere (a
colossal, and the pairings beyond the exact engine) both are Monte Carlo on common random
numbers, and "never lower" and "equal" are read on the paired 95% interval of the
difference (:func:`mathhammer.paired_difference`): a kill is lower when the whole interval
is below 0, equal when it holds 0. Noise can hold a small true difference in the kill
within the interval, where best play may rightly give up damage for it; a fixed policy
flagged so is run again with ten times the trials, and counts only if still flagged.

Run from the repository root (about a quarter of an hour on 2 cores; ``--quick`` checks the
pairings against the warcaster and the light warjack only)::

    .venv/bin/python benchmarks/bench_best_vs_family.py [--trials 200000] [--quick] [--markdown]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

#: Two exact figures this close are equal (the rounding of long sums).
EXACT_TIE = 1e-9


def pairings(targets=None):
    """``[(name, Scenario)]``: the grid workload, then every card pairing with points (against
    ``targets`` only, when given)."""
    from bench_kernel import activation_workloads

    from mathhammer.cards import list_cards, load_card, scenario_from_cards

    out = [] if targets else [("bench grid_focus (heavy warjack, 3 focus, vs a heavy grid)",
                               activation_workloads()["grid_focus"][1])]
    names = [c.name for c in list_cards() if c.bundled]
    for a in names:
        if load_card(a).to_attacker().points == 0:
            continue
        for t in names:
            if targets is None or t in targets:
                out.append((f"{a} vs {t}", scenario_from_cards([a], t)))
    return out


def check_pairing(scen, method: str, trials: int = 200_000, seed: int = 15) -> dict:
    """Best play against every fixed policy of its attackers' family on ``scen``.

    Returns ``{"policies": n, "lower_kill": [...], "less_damage": [...], "ties": k}``: the
    labels of the fixed policies best play loses to on the kill, and on the models destroyed
    or the damage where the figures before them are equal; ``ties``: how many policies had
    an equal kill.
    """
    import itertools

    import mathhammer as mh
    from mathhammer.policy.family import policy_family, with_spends

    stride = mh.common_stride([scen]) if method == "monte_carlo" else None

    def compare(fixed_scen, n):
        """(lower kill, equal kill, less after it) of best play against ``fixed_scen``: less
        models destroyed, or, those equal, less damage."""
        run = {"method": "exact"} if method == "exact" else {"trials": n, "seed": seed, "stride": stride}
        best = mh.simulate(scen, explain=False, **run) if n not in cache else cache[n]
        cache[n] = best
        fixed = mh.simulate(fixed_scen, explain=False, **run)
        metrics = ["kill"] + (["destroyed"] if scen.target.models > 1 else []) + ["damage_mean"]
        lower, equal = [], []
        for metric in metrics:
            if method == "exact":
                d = mh.paired_difference(best, fixed, metric)["difference"]
                tie = EXACT_TIE * (scen.target.boxes if metric == "damage_mean" else scen.target.models)
                lower.append(d < -tie)
                equal.append(abs(d) <= tie)
            else:
                lo, hi = mh.paired_difference(best, fixed, metric)["ci95"]
                lower.append(hi < 0)
                equal.append(lo <= 0 <= hi)
        less = False
        for k in range(1, len(metrics)):  # the first figure after a run of equal ones decides
            if not all(equal[:k]):
                break
            if lower[k]:
                less = True
                break
            if not equal[k]:
                break
        return lower[0], equal[0], less

    cache: dict = {}
    spenders = [i for i, a in enumerate(scen.attackers) if a.points]
    families = [policy_family(scen.attackers[i], scen) for i in spenders]
    out = {"policies": 0, "lower_kill": [], "less_damage": [], "ties": 0}
    for combo in itertools.product(*families):
        fixed_scen = with_spends(scen, dict(zip(spenders, combo)))
        lower, equal, less = compare(fixed_scen, trials)
        if method == "monte_carlo" and (lower or (equal and less)):
            lower, equal, less = compare(fixed_scen, 10 * trials)  # noise, or a real loss?
        label = " + ".join(s.label for s in combo)
        out["policies"] += 1
        out["ties"] += equal
        if lower:
            out["lower_kill"].append(label)
        elif equal and less:
            out["less_damage"].append(label)
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trials", type=lambda s: int(float(s)), default=200_000)
    p.add_argument("--seed", type=int, default=15)
    p.add_argument("--quick", action="store_true", help="the pairings against the warcaster and the light warjack")
    p.add_argument("--markdown", action="store_true")
    args = p.parse_args(argv)
    from mathhammer.errors import ExactNotApplicable

    rows, failed = [], 0
    began = time.perf_counter()
    for name, scen in pairings(("warcaster", "light_warjack") if args.quick else None):
        try:
            method = "exact"
            res = check_pairing(scen, method, args.trials, args.seed)
        except ExactNotApplicable:
            method = "monte_carlo"
            res = check_pairing(scen, method, args.trials, args.seed)
        bad = bool(res["lower_kill"] or res["less_damage"])
        failed += bad
        rows.append((name, method, res, bad))
        if not args.markdown:
            print(f"{name:58s} {method:11s} {res['policies']:4d} policies, {res['ties']:3d} equal kills  "
                  f"{'FAILS ' + str(res['lower_kill'] + res['less_damage']) if bad else 'ok'}", flush=True)
    if args.markdown:
        print("| pairing | method | fixed policies | equal kills | best play lower |")
        print("|---|---|---|---|---|")
        for name, method, res, bad in rows:
            print(f"| {name} | {method} | {res['policies']} | {res['ties']} | "
                  f"{', '.join(res['lower_kill'] + res['less_damage']) or 'none'} |")
    print(f"\n{len(rows)} pairings; best play below a fixed policy (kill, or damage at an equal kill): "
          f"{failed}; {time.perf_counter() - began:.0f} s")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
