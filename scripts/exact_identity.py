"""The exact engine's figures before and after a change, compared to 1e-12 (issue 20).

Run from the repository root, once with each checkout's ``mathhammer`` on ``PYTHONPATH``::

    PYTHONPATH=../old .venv/bin/python scripts/exact_identity.py run before.pkl --timeout 60
    PYTHONPATH=. .venv/bin/python scripts/exact_identity.py run after.pkl --timeout 60
    .venv/bin/python scripts/exact_identity.py compare before.pkl after.pkl

``run`` computes ``simulate(method="exact")`` of the README tour, every file of ``examples/``
(``compare/`` and ``cards/`` too), every pairing of one bundled attacker card with a bundled
target card, and a few pairs of attackers against the grids and spirals, each as written and
on fixed policies (every attacker ``policy = "fixed"``, every target's power field
``"lethal"``), each within ``--timeout`` seconds; it keeps every field of the Result and its
``to_dict()``, or the refusal. ``compare`` prints the outcomes side by side, how many were
compared and the largest absolute difference of any number (and every one over 1e-12).
``scripts/fingerprint.py`` checks bit-identity of Monte Carlo and exact figures instead.
"""
import dataclasses
import glob
import os
import pickle
import signal
import sys
import time

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout()


def scenarios():
    from mathhammer.io.scenario_files import load_scenario, scenario_from_cards

    out = []
    out.append(("tour", lambda: scenario_from_cards(["heavy_warjack", "heavy_warjack"], "heavy_warjack",
                                                    source="command line")))
    files = sorted(glob.glob(f"{REPO}/examples/*.toml") + glob.glob(f"{REPO}/examples/compare/*.toml")
                   + glob.glob(f"{REPO}/examples/cards/*.toml"))
    for f in files:
        out.append((os.path.relpath(f, REPO), lambda f=f: load_scenario(f)))
    cards = sorted(os.path.basename(p)[:-5] for p in glob.glob(f"{REPO}/mathhammer/data/cards/*.toml"))
    for a in cards:
        for t in cards:
            out.append((f"card {a} -> {t}", lambda a=a, t=t: scenario_from_cards([a], t, source="x")))
    for a, b in (("heavy_warjack", "light_warjack"), ("light_warjack", "light_warjack"),
                 ("heavy_warbeast", "light_warbeast")):
        for t in ("heavy_warjack", "light_warjack", "heavy_warbeast", "light_warbeast"):
            out.append((f"cards {a}+{b} -> {t}", lambda a=a, b=b, t=t: scenario_from_cards([a, b], t, source="x")))
    full = []
    for name, make in out:
        full.append((name, make))
        full.append((name + " [fixed]", lambda make=make: _fixed(make())))
    return full


def _fixed(sc):
    """Every attacker on its fixed spend policy, every target's power field "lethal": no
    backward induction (the forward pass alone)."""
    targets = [dataclasses.replace(t, power_field="lethal") for t in sc.targets]
    attackers = tuple(dataclasses.replace(a, policy="fixed") for a in sc.attackers)
    return dataclasses.replace(sc, attackers=attackers, target=targets if sc.several else targets[0])


def figures(res):
    out = {"to_dict": res.to_dict()}
    for f in dataclasses.fields(res):
        out[f.name] = getattr(res, f.name)
    return out


def run(path, timeout, only):
    import mathhammer
    from mathhammer.simulation import simulate

    print("mathhammer from", mathhammer.__file__, flush=True)
    signal.signal(signal.SIGALRM, _alarm)
    results = {}
    for name, make in scenarios():
        if only and only not in name:
            continue
        t0 = time.perf_counter()
        try:
            sc = make()
        except Exception as err:  # noqa: BLE001
            results[name] = ("bad scenario", type(err).__name__, str(err))
            continue
        signal.alarm(timeout)
        try:
            res = simulate(sc, method="exact")
            results[name] = ("ok", figures(res))
        except Timeout:
            results[name] = ("timeout",)
        except Exception as err:  # noqa: BLE001
            results[name] = ("error", type(err).__name__, str(err))
        finally:
            signal.alarm(0)
        print(f"{time.perf_counter() - t0:8.2f} s  {results[name][0]:8s} {name}", flush=True)
        with open(path, "wb") as fh:
            pickle.dump(results, fh)


def diff(a, b, where, out):
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            out.append((where, "keys", sorted(set(a) ^ set(b))))
            return 0.0
        return max([diff(a[k], b[k], f"{where}.{k}", out) for k in a] + [0.0])
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) != len(b):
            out.append((where, "len", len(a), len(b)))
            return 0.0
        return max([diff(x, y, f"{where}[{i}]", out) for i, (x, y) in enumerate(zip(a, b))] + [0.0])
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape:
            out.append((where, "shape", a.shape, b.shape))
            return 0.0
        if a.dtype.kind in "fiub" and b.dtype.kind in "fiub":
            if a.size == 0:
                return 0.0
            d = float(np.max(np.abs(a.astype(float) - b.astype(float))))
            if d > 1e-12:
                out.append((where, "diff", d))
            return d
        if not np.array_equal(a, b):
            out.append((where, "neq"))
        return 0.0
    if isinstance(a, float) and isinstance(b, float):
        if np.isnan(a) and np.isnan(b):
            return 0.0
        d = abs(a - b)
        if d > 1e-12:
            out.append((where, "diff", d))
        return d
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        d = abs(a - b)
        if d > 1e-12:
            out.append((where, "diff", d))
        return float(d)
    if a != b:
        out.append((where, "neq", repr(a)[:80], repr(b)[:80]))
    return 0.0


def compare(pa, pb):
    with open(pa, "rb") as fh:
        a = pickle.load(fh)
    with open(pb, "rb") as fh:
        b = pickle.load(fh)
    compared = worst = 0
    kinds = {}
    bad = []
    for name in a:
        if name not in b:
            continue
        ra, rb = a[name], b[name]
        kinds[(ra[0], rb[0])] = kinds.get((ra[0], rb[0]), 0) + 1
        if ra[0] == "ok" and rb[0] == "ok":
            out = []
            d = diff(ra[1], rb[1], name, out)
            compared += 1
            worst = max(worst, d)
            bad += out
        elif ra[0] in ("error", "bad scenario") and ra != rb:
            bad.append((name, "outcome", ra, rb[:3] if rb[0] != "ok" else "ok"))
    print("outcomes (before, after):", kinds)
    print(f"compared {compared} scenarios, max abs difference {worst:.3g}")
    for line in bad[:40]:
        print("  ", line)
    print("problems:", len(bad))


if __name__ == "__main__":
    if sys.argv[1] == "run":
        timeout = int(sys.argv[sys.argv.index("--timeout") + 1]) if "--timeout" in sys.argv else 60
        only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
        run(sys.argv[2], timeout, only)
    else:
        compare(sys.argv[2], sys.argv[3])
