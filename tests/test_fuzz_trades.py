"""Generated invalid trade inputs: trade files, the trade commands' flags and the trade API.

The trades' part of the generator of ``tests/test_fuzz_inputs.py`` (its rule, its checks): a
fixed-seed generator mutates a valid trade file one way (a wrong type, a number out of range,
an unknown key, a required key left out, a bad choice, a bad list item, a trade-only refusal:
a model attacking its own side, a side with no models, two models with one name ...), gives
one bad value to one flag of ``trade``, ``trade-matrix`` and ``worth``, and one bad argument
to ``Trade``, ``Side``, ``TradeModel``, ``simulate_trade``, ``trade_matrix`` and
``stat_worth``. Every case: no traceback and no silent default; the CLI exits with status 2
and one line ``mathhammer: error: ...`` naming the key (or flag) and the value, nothing on
stdout, no file changed or created; the API raises :class:`~mathhammer.errors.InputError`
with one line naming the key.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from mathhammer import Attacker, Side, Target, Trade, TradeModel, Weapon, cli, simulate_trade
from mathhammer.errors import InputError
from mathhammer.studies.stat_worth import stat_worth
from mathhammer.studies.trade_matrices import trade_matrix
from fuzz_tools import dotted, get_in, one_line_error, set_in, snapshot, toml_value

SEED = 48_2026

#: A valid trade (every table a mutation reaches), as the dict its TOML file holds.
BASE = {
    "trade": {"rounds": 2, "first": "Red", "play": "damage"},
    "simulation": {"trials": 1000, "seed": 1},
    "settings": {"knockdown_before_tough": False},
    "sides": [
        {"name": "Red", "models": [{
            "name": "Jack", "attacks": ["Beast"], "cripple_at": {"L": 10},
            "attacker": {"focus": 2, "model": "warjack", "charge": True,
                         "weapons": [{"name": "Fist", "type": "melee", "skill": 6, "pow": 16,
                                      "location": "L", "rules": ["knockdown"]}]},
            "target": {"def": 12, "arm": 18, "boxes": 20, "rules": ["tough"]}}]},
        {"name": "Blue", "models": [{"name": "Beast", "card": "heavy_warbeast", "attacks": "Jack"}]},
    ],
}
M0 = ("sides", 0, "models", 0)
A, T, W = M0 + ("attacker",), M0 + ("target",), M0 + ("attacker", "weapons", 0)
INTS = {("trade", "rounds"): (1, 20), ("simulation", "trials"): (1, 10**9), ("simulation", "seed"): (0, None),
        A + ("focus",): (0, 10), T + ("def",): (0, 40), T + ("arm",): (0, 50), T + ("boxes",): (1, 500),
        W + ("skill",): (0, 30), W + ("pow",): (0, 40), M0 + ("cripple_at", "L"): (1, 20)}
STRINGS = [("sides", 0, "name"), M0 + ("name",), W + ("name",), ("trade", "first"), ("trade", "play")]
BOOLS = [A + ("charge",), ("settings", "knockdown_before_tough")]
CHOICES = [("trade", "first"), ("trade", "play"), A + ("model",), A + ("policy",), W + ("type",),
           ("sides", 1, "models", 0, "card"), ("sides", 1, "models", 0, "action")]
LISTS = [T + ("rules",), W + ("rules",)]
TABLES = [("trade",), ("simulation",), ("settings",), ("sides", 0), M0, A, T, W]
REQUIRED = [("sides",), ("sides", 0, "models"), M0 + ("attacks",), ("sides", 1, "name"), A + ("weapons",),
            T + ("def",)]
WORDS = ["lazer", "Green", "win", "xx", "KILL ", "é", "none?"]
#: Refusals only a trade has: (mutation, the key the message names, the value it shows).
TRADE_ONLY = {
    "own side": (lambda d: set_in(d, ("sides", 1, "models", 0, "attacks"), "Beast"),
                 "sides[1].models[0].attacks[0]", "Beast"),
    "nobody": (lambda d: set_in(d, M0 + ("attacks",), ["Nobody"]), "sides[0].models[0].attacks[0]", "Nobody"),
    "no models": (lambda d: set_in(d, ("sides", 1, "models"), []), "sides[1].models", None),
    "one side": (lambda d: d["sides"].pop(), "sides", None),
    "same name": (lambda d: set_in(d, ("sides", 1, "models", 0, "name"), "Jack"), "sides[1].models[0].name", "Jack"),
    "same side name": (lambda d: set_in(d, ("sides", 1, "name"), "Red"), "sides[1].name", "Red"),
    "turns": (lambda d: set_in(d, ("simulation", "turns"), 3), "simulation.turns", 3),
    "crippled": (lambda d: set_in(d, A + ("crippled",), ["L"]), "sides[0].models[0].attacker.crippled", None),
    "targets": (lambda d: set_in(d, A + ("targets",), ["Beast"]), "sides[0].models[0].attacker.targets", None),
    "power field": (lambda d: set_in(d, T + ("focus",), 2), "sides[0].models[0].target.focus", 2),
    "cripple on a card": (lambda d: set_in(d, ("sides", 1, "models", 0, "cripple_at"), {"B": 3}),
                          "sides[1].models[0].cripple_at", None),
    "cripple letter": (lambda d: set_in(d, M0 + ("cripple_at",), {"Q": 3}), "sides[0].models[0].cripple_at", "Q"),
    "models differ": (lambda d: set_in(d, T + ("models",), 3), "sides[0].models[0].target.models", 3),
    "optimize": (lambda d: set_in(d, A + ("policy",), "optimize"), "sides[0].models[0].attacker.policy", "optimize"),
}
KINDS = ("type", "range", "unknown", "missing", "choice", "item", "table", "trade", "toml")


def to_toml(data: dict) -> str:
    """TOML text of a trade dict: its top tables as tables, ``sides`` inline (any value)."""
    lines = []
    for top, v in data.items():
        if isinstance(v, dict):
            lines += ["", f"[{json.dumps(top)}]"] + [f"{json.dumps(k)} = {toml_value(x)}" for k, x in v.items()]
        else:
            lines.insert(0, f"{json.dumps(top)} = {toml_value(v)}")
    return "\n".join(lines) + "\n"


def _mutated(rng: random.Random, kind: str) -> dict:
    """One mutated trade file: {kind, text, key, value} (value None: none to name)."""
    data = copy.deepcopy(BASE)

    def made(key, value, text=None):
        return {"kind": kind, "text": text if text is not None else to_toml(data), "key": key, "value": value}

    if kind == "type":
        keys = rng.choice(list(INTS) + STRINGS + BOOLS)
        if keys in STRINGS:
            value = rng.choice([5, 2.5, True, ["a"]])
        elif keys in BOOLS:
            value = rng.choice(["yes", 1, 0.5, "true"])
        else:
            value = rng.choice(["12", "abc", 2.5, True, [1, 2]])
    elif kind == "range":
        keys = rng.choice(list(INTS))
        lo, hi = INTS[keys]
        options = [lo - 1, lo - rng.randint(2, 10**6)] + ([hi + 1, hi + rng.randint(2, 10**6)] if hi else [])
        value = rng.choice(options)
    elif kind == "unknown":
        keys = rng.choice(TABLES) + ("zz_" + "".join(rng.choice("abcdefgh") for _ in range(rng.randint(2, 6))),)
        value = rng.choice([1, "x", True])
    elif kind == "missing":
        keys = rng.choice(REQUIRED)
        del get_in(data, keys[:-1])[keys[-1]]
        return made(dotted(keys), None)
    elif kind == "choice":
        keys = rng.choice(CHOICES)
        value = rng.choice(WORDS)
    elif kind == "item":
        keys = rng.choice(LISTS)
        items = list(get_in(data, keys[:-1]).get(keys[-1], []))
        bad = rng.choice(WORDS)
        items.insert(rng.randint(0, len(items)), bad)
        set_in(data, keys, items)
        return made(dotted(keys + (items.index(bad),)), bad)
    elif kind == "table":
        keys = rng.choice([("trade",), ("simulation",), A, T])
        value = rng.choice([5, "x", [1, 2], True])
    elif kind == "trade":
        name = rng.choice(sorted(TRADE_ONLY))
        mutate, key, value = TRADE_ONLY[name]
        mutate(data)
        return made(key, value)
    else:  # broken TOML
        good = to_toml(data)
        how = rng.randrange(3)
        if how == 0:
            text = good.replace('["trade"]', '["trade"', 1)
        elif how == 1:
            text = good.replace('"rounds" = 2', '"rounds" = 2\n"rounds" = 3')
        else:
            cut = rng.randint(10, len(good) - 10)
            text = good[:cut] + "\x00" + good[cut:]
        return made("invalid TOML", None, text)
    set_in(data, keys, value)
    return made(dotted(keys), value)


def _file_cases(rng: random.Random, n: int) -> list[dict]:
    cases, seen, i = [], set(), 0
    while len(cases) < n:
        case = _mutated(rng, KINDS[i % len(KINDS)])
        i += 1
        if case["text"] not in seen:
            seen.add(case["text"])
            cases.append(case)
    return cases


def _flag_cases() -> list[dict]:
    """{argv, flag, value}: ``FILE`` stands for the valid trade file."""
    trade = ["trade", "FILE", "--trials", "1000"]
    mx = ["trade-matrix", "--rows", "solo", "--columns", "infantry", "--trials", "1000", "--no-progress"]
    worth = ["worth", "solo", "--against", "infantry", "--trials", "1000"]
    cases = []
    for base in (trade, mx, worth):
        for v in ("0", "-1", "abc", "1e10"):
            cases.append({"argv": base, "flag": "--trials", "value": v})
        for v in ("-1", "x"):
            cases.append({"argv": base, "flag": "--seed", "value": v})
        cases.append({"argv": base, "flag": "--method", "value": "bogus"})
    for v in ("0", "21", "x"):
        cases += [{"argv": mx, "flag": "--rounds", "value": v}, {"argv": worth, "flag": "--rounds", "value": v}]
    for v in ("middle", "ROW"):
        cases += [{"argv": mx, "flag": "--first", "value": v}, {"argv": worth, "flag": "--first", "value": v}]
    for v in ("nosuch", "solo,", "heavy_warjack:flying"):
        cases += [{"argv": mx, "flag": "--rows", "value": v}, {"argv": mx, "flag": "--columns", "value": v},
                  {"argv": worth, "flag": "--against", "value": v}]
    for v in ("x.gif", "/no/such/folder/x.png"):
        cases.append({"argv": trade, "flag": "--plot", "value": v})
    cases.append({"argv": ["trade", "/no/such/trade.toml"], "flag": "TRADE", "value": "/no/such/trade.toml"})
    return cases


def _api_cases() -> list[dict]:
    """{call, kwargs, key, value}: one bad argument of a trade API call."""
    fist = Weapon("Fist", "melee", 6, 12)
    a = TradeModel(Attacker("A", [fist]), Target(12, 15, boxes=4), ["B"])
    b = TradeModel(Attacker("B", [fist]), Target(12, 15, boxes=4), ["A"])
    red, blue = Side("Red", [a]), Side("Blue", [b])
    good = Trade([red, blue])
    cases = []
    for kw, key in (({"rounds": 0}, "trade.rounds"), ({"rounds": "2"}, "trade.rounds"),
                    ({"first": "Green"}, "trade.first"), ({"play": "win"}, "trade.play"),
                    ({"trials": 0}, "simulation.trials"), ({"seed": -1}, "simulation.seed"), ({"sides": [red]}, "sides"),
                    ({"sides": [red, red]}, "sides[1].name")):
        cases.append({"call": Trade, "kwargs": {"sides": [red, blue], **kw}, "key": key})
    for kw, key in (({"models": []}, "models"), ({"name": ""}, "name"), ({"models": [5]}, "models[0]")):
        cases.append({"call": Side, "kwargs": {"name": "Red", "models": [a], **kw}, "key": key})
    for kw, key in (({"attacks": []}, "attacks"), ({"attacks": ["B", "B"]}, "attacks"),
                    ({"cripple_at": {"L": 9}}, "cripple_at"), ({"attacker": 5}, "attacker"),
                    ({"target": "t"}, "target")):
        cases.append({"call": TradeModel, "kwargs": {"attacker": a.attacker, "target": a.target,
                                                     "attacks": ["B"], **kw}, "key": key})
    for kw, key in (({"trials": 0}, "trials"), ({"seed": -1}, "seed"), ({"method": "bogus"}, "method"),
                    ({"trade": 5}, "trade")):
        cases.append({"call": simulate_trade, "kwargs": {"trade": good, **kw}, "key": key})
    for kw, key in (({"rounds": 0}, "rounds"), ({"first": "middle"}, "first"), ({"rows": ["nosuch"]}, "rows"),
                    ({"out": "m.txt"}, "out"), ({"resume": True}, "resume")):
        cases.append({"call": trade_matrix, "kwargs": {"rows": ["solo"], "columns": ["infantry"], "trials": 1000,
                                                       "progress": False, **kw}, "key": key})
    for kw, key in (({"stats": ["LUCK"]}, "stat"), ({"rounds": 0}, "rounds"),
                    ({"opponents": ["nosuch"]}, "opponents")):
        cases.append({"call": stat_worth, "kwargs": {"card": "solo", "opponents": ["infantry"], "trials": 1000, **kw},
                      "key": key})
    return cases


FILE_CASES = _file_cases(random.Random(SEED), 90)
FLAG_CASES = _flag_cases()
API_CASES = _api_cases()


def test_the_generator_covers_every_kind_and_every_trade_refusal():
    assert {c["kind"] for c in FILE_CASES} == set(KINDS)
    keys = {c["key"] for c in FILE_CASES}
    assert "trade.play" in keys or any(c["key"] == "trade.play" for c in FILE_CASES + API_CASES)
    assert len(FILE_CASES) + len(FLAG_CASES) + len(API_CASES) >= 150


@pytest.fixture()
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.toml").write_text(to_toml(BASE), encoding="utf-8")
    return tmp_path


def test_the_base_trade_is_valid(folder, capsys):
    assert cli.main(["trade", "t.toml", "--trials", "1000"]) == 0
    assert "wins the trade" in capsys.readouterr().out


@pytest.mark.parametrize("case", FILE_CASES, ids=[f"trade-file-{i:03d}-{c['kind']}-{c['key']}"
                                                  for i, c in enumerate(FILE_CASES)])
def test_a_bad_trade_file_is_one_line(case, folder, capsys):
    path = folder / "bad.toml"
    path.write_text(case["text"], encoding="utf-8")
    before = snapshot(folder)
    err = one_line_error(capsys, ["trade", "bad.toml"])
    assert snapshot(folder) == before
    assert "bad.toml" in err
    assert case["key"] in err, err
    value = case["value"]
    if value is not None:
        shown = [value] + (value if isinstance(value, list) else [])
        assert any(f"(got {v!r})" in err for v in shown), err


@pytest.mark.parametrize("case", FLAG_CASES, ids=[f"trade-flag-{i:03d}-{c['argv'][0]}-{c['flag']}"
                                                  for i, c in enumerate(FLAG_CASES)])
def test_a_bad_trade_flag_is_one_line(case, folder, capsys):
    argv = [("t.toml" if a == "FILE" else a) for a in case["argv"]]
    if case["flag"] != "TRADE":
        if case["flag"] in argv:  # replace the flag's value
            argv[argv.index(case["flag"]) + 1] = case["value"]
        else:
            argv += [case["flag"], case["value"]]
    before = snapshot(folder)
    err = one_line_error(capsys, argv)
    assert snapshot(folder) == before
    assert case["flag"] in err or case["flag"] == "TRADE", err  # a missing file: named by its path
    assert case["value"] in err, err


@pytest.mark.parametrize("case", API_CASES, ids=[f"trade-api-{i:03d}-{c['call'].__name__}-{c['key']}"
                                                 for i, c in enumerate(API_CASES)])
def test_a_bad_trade_argument_is_one_line(case, folder):
    with pytest.raises(InputError) as info:
        case["call"](**case["kwargs"])
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(case["key"]), message
