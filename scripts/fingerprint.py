"""Fingerprints of every figure, to check that a change of code leaves the numbers bit-identical.

Run from the repository root::

    .venv/bin/python scripts/fingerprint.py record before.json
    ... change the code ...
    .venv/bin/python scripts/fingerprint.py record after.json
    .venv/bin/python scripts/fingerprint.py compare before.json after.json

``record`` simulates, through the public API only, every example file (``examples/*.toml`` and
the bundled demo; Monte Carlo packed and with a stride, and exact where the exact engine
applies), every pairing of a bundled attacker card (each of its actions) with a bundled target
card (Monte Carlo), and every named case of ``tests/activation_cases.py``,
``tests/grid_cases.py`` and ``tests/turns_cases.py`` (Monte Carlo and exact). Each result is
kept as a SHA-256 of its weights and labels plus its ``to_dict()`` JSON text, and each example
also as the text report and ``--json`` of ``mathhammer run``. ``compare`` lists every
difference and exits with status 1 when there is one.

The test suite can record too: with ``MATHHAMMER_FINGERPRINT=FILE.jsonl`` set,
``tests/conftest.py`` appends, for every test, the hashes of every :class:`~mathhammer.Result`
it builds; ``compare-suite BEFORE.jsonl AFTER.jsonl`` checks that every test builds the same
results (the same set of figure hashes, names included).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
TRIALS = 40_000
CARD_TRIALS = 20_000
SEED = 20261201

#: Result fields holding figures (hashed); the naming fields are hashed apart.
FIGURE_FIELDS = (
    "method", "trials", "seed", "total", "damage_weights", "slot_weights", "kill_weights",
    "boxes", "letters", "cripple_weights", "box_weights", "turns", "slot_round",
    "maintenance_kill_weights", "effect_weights", "cripple_end_weights",
    "chunk_damage_weights", "stride", "slot_labels",
)
NAME_FIELDS = ("attacker_names", "slot_attacker", "card", "card_kind", "target_name",
               "effect_names")
#: Fields above that live in a Result's views: (view, its field, what a result without the
#: view reads as: a grid or spiral's without a card; no maintenance kills, zeros, and no
#: effects without continuous effects).
VIEW_FIELDS = {
    "letters": ("card", "letters", ()), "cripple_weights": ("card", "cripple_weights", None),
    "box_weights": ("card", "box_weights", ()),
    "cripple_end_weights": ("card", "cripple_end_weights", None),
    "card": ("card", "columns", ()), "card_kind": ("card", "kind", ""),
    "maintenance_kill_weights": ("rounds", "maintenance_kill_weights", "zeros"),
    "effect_weights": ("rounds", "effect_weights", None),
    "effect_names": ("rounds", "effect_names", ()),
}


def _field(result, name: str):
    """The value of a hashed field of ``result``, read from its view where it has one."""
    if name not in VIEW_FIELDS:
        return getattr(result, name, None)
    view, attr, absent = VIEW_FIELDS[name]
    part = getattr(result, view)
    if part is not None:
        return getattr(part, attr)
    return np.zeros(result.turns) if absent == "zeros" else absent


def _feed(h, value) -> None:
    if isinstance(value, np.ndarray):
        h.update(f"a{value.dtype.str}{value.shape}".encode())
        h.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, (tuple, list)):
        h.update(f"t{len(value)}(".encode())
        for v in value:
            _feed(h, v)
        h.update(b")")
    else:
        h.update(repr(value).encode())
    h.update(b"|")


def result_hash(result, fields=FIGURE_FIELDS) -> str:
    """SHA-256 of the named fields of a Result (arrays by dtype, shape and bytes)."""
    h = hashlib.sha256()
    for name in fields:
        h.update(name.encode())
        _feed(h, _field(result, name))
    return h.hexdigest()


def full_hash(result) -> str:
    return result_hash(result, FIGURE_FIELDS + NAME_FIELDS)


def _entry(result) -> dict:
    return {"hash": full_hash(result), "dict": json.dumps(result.to_dict(), sort_keys=True)}


def _cases(module: str):
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        return __import__(module).CASES
    finally:
        sys.path.pop(0)


def record(out: Path) -> None:
    import mathhammer as mh
    from mathhammer.cards import list_cards, scenario_from_cards

    data: dict[str, dict] = {}

    def run(key: str, scenario, exact: bool = True, trials: int = TRIALS) -> None:
        res = mh.simulate(scenario, trials=trials, seed=SEED)
        data[f"{key} | mc"] = _entry(res)
        stride = mh.common_stride([scenario]) if hasattr(mh, "common_stride") else None
        if stride is None:
            from mathhammer.simulate import common_stride

            stride = common_stride([scenario])
        data[f"{key} | mc stride"] = _entry(
            mh.simulate(scenario, trials=trials, seed=SEED, stride=stride + 3))
        if exact:
            try:
                data[f"{key} | exact"] = _entry(mh.simulate(scenario, method="exact"))
            except mh.MathhammerError as exc:
                data[f"{key} | exact"] = {"error": str(exc)}

    examples = sorted((ROOT / "examples").glob("*.toml")) + [ROOT / "mathhammer/data/demo.toml"]
    for path in examples:
        name = path.relative_to(ROOT).as_posix()
        scen = mh.load_scenario(path)
        run(name, scen, exact=name not in {"examples/card_matchup.toml"})
        for flags in ([], ["--json"]):
            proc = subprocess.run(
                [sys.executable, "-m", "mathhammer", "run", str(path), "--trials", str(TRIALS),
                 "--seed", str(SEED), *flags], capture_output=True, text=True, cwd=ROOT)
            data[f"{name} | cli {' '.join(flags)}"] = {"stdout": proc.stdout,
                                                       "stderr": proc.stderr,
                                                       "rc": proc.returncode}
    for module in ("activation_cases", "grid_cases", "turns_cases"):
        for name, scen in _cases(module):
            run(f"{module}.{name}", scen)
    cards = list_cards()
    targets = [c.name for c in cards]
    attackers = [(c.name, a) for c in cards for a in c.actions]
    for a, action in attackers:
        for t in targets:
            try:
                scen = scenario_from_cards([f"{a}:{action}"], t)
            except mh.MathhammerError as exc:  # a pairing the rules refuse (a head-butt
                # by a model too small for its target, ...): recorded as refused
                data[f"cards {a}:{action} vs {t} | mc"] = {"error": type(exc).__name__}
                continue
            res = mh.simulate(scen, trials=CARD_TRIALS, seed=SEED)
            data[f"cards {a}:{action} vs {t} | mc"] = _entry(res)
    out.write_text(json.dumps(data, indent=1, sort_keys=True))
    print(f"{len(data)} fingerprints written to {out}")


def compare(a: Path, b: Path) -> int:
    before, after = json.loads(a.read_text()), json.loads(b.read_text())
    bad = 0
    for key in sorted(set(before) | set(after)):
        if before.get(key) != after.get(key):
            bad += 1
            print(f"DIFFERS: {key}")
    print(f"{len(before)} before, {len(after)} after, {bad} differ")
    return 1 if bad else 0


def compare_suite(a: Path, b: Path) -> int:
    def load(p: Path) -> dict:
        out: dict[str, dict] = {}
        for line in p.read_text().splitlines():
            row = json.loads(line)
            out.setdefault(row["test"], {"figures": set(), "full": set()})
            out[row["test"]]["figures"].add(row["figures"])
            out[row["test"]]["full"].add(row["full"])
        return out

    before, after = load(a), load(b)
    bad = 0
    for test in sorted(set(before) | set(after)):
        x, y = before.get(test), after.get(test)
        if x is None or y is None:
            print(f"ONLY IN {'AFTER' if x is None else 'BEFORE'}: {test}")
            bad += 1
        elif x["figures"] != y["figures"] or not y["full"] <= x["full"]:
            print(f"DIFFERS: {test}")
            bad += 1
    print(f"{len(before)} tests before, {len(after)} after, {bad} differ")
    return 1 if bad else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("record").add_argument("out", type=Path)
    for name in ("compare", "compare-suite"):
        p = sub.add_parser(name)
        p.add_argument("before", type=Path)
        p.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "record":
        record(args.out)
        return 0
    if args.command == "compare":
        return compare(args.before, args.after)
    return compare_suite(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
