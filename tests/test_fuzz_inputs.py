"""Generated invalid inputs (issue 18: "put the generator in the test suite").

A fixed-seed generator makes several hundred invalid inputs of three kinds:

* scenario files: a valid file mutated one way (a wrong type, a number out of range, an
  unknown key, a required key left out, a bad choice, a bad grid, bad trials, a bad list
  item, broken TOML), run with ``mathhammer run FILE``;
* command-line flags: one bad value of one flag of ``run``, ``sweep``, ``compare``,
  ``matrix``, ``cards`` and ``sbh`` (the rest of the command line valid);
* API calls: ``Target``, ``Weapon``, ``Attacker``, ``Spend``, ``Scenario``, ``simulate``,
  ``sweep``, ``compare`` and ``matrix`` with one bad argument.

Rule checked for every case: no traceback and no silent default. The CLI exits with status
2 and prints one line starting ``mathhammer: error:`` (nothing on stdout); the API raises
:class:`~mathhammer.errors.InputError` with a one-line message; the message names the key
(or flag) and the value; no file the user wrote changed and no file was created.

Every case has an id (``file-017-range-target.arm``) and the generator its seed
(:data:`SEED`): a failure is reproduced by its id alone.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from mathhammer import Attacker, Scenario, Spend, Target, Weapon, cli, compare, simulate, sweep
from mathhammer.errors import InputError, shown
from mathhammer.studies.matrices import matrix
from fuzz_tools import dotted, get_in, one_line_error, set_in, snapshot, toml_value

SEED = 18_2026

#: A valid scenario (every table a mutation can reach), as the dict its TOML file holds.
BASE = {
    "target": {"name": "Jack", "def": 12, "arm": 17, "boxes": 20, "base": "large",
               "resist": ["fire"], "state": [], "rules": []},
    "attackers": [{
        "name": "Brute", "focus": 2, "policy": "fixed", "charge": False,
        "spend": {"boost_attack": "auto", "boost_damage": "auto", "buy_attacks": True,
                  "reserve": 0},
        "weapons": [{"name": "Fist", "type": "melee", "skill": 7, "pow": 16, "attacks": 2,
                     "rules": [], "damage_type": []},
                    {"name": "Axe", "type": "melee", "skill": 6, "pow": 14, "attacks": 1}],
    }],
    "simulation": {"trials": 1000, "seed": 1, "turns": 1, "objective": "kill"},
}
T, A, W, S, SIM = ("target",), ("attackers", 0), ("attackers", 0, "weapons", 0), \
    ("attackers", 0, "spend"), ("simulation",)
#: Integer keys and the values they must lie in (inclusive; None: no bound that side).
INTS = {T + ("def",): (0, 40), T + ("arm",): (0, 50), T + ("boxes",): (1, 500),
        A + ("focus",): (0, 10), A + ("fury",): (0, 10), A + ("combined",): (1, 10),
        W + ("skill",): (0, 30), W + ("pow",): (0, 40), W + ("attacks",): (0, 20),
        W + ("extra_attack_dice",): (-3, 3), W + ("extra_damage_dice",): (-3, 3),
        S + ("reserve",): (0, 10), SIM + ("trials",): (1, 10**9),
        SIM + ("seed",): (0, None), SIM + ("turns",): (1, 20)}
STRINGS = [T + ("name",), A + ("name",), W + ("name",)]
BOOLS = [A + ("charge",), S + ("buy_attacks",), W + ("boosted_attack",),
         W + ("boosted_damage",)]
CHOICES = [T + ("base",), W + ("type",), A + ("policy",), S + ("boost_attack",),
           S + ("boost_damage",), SIM + ("objective",), A + ("model",)]
LISTS = [T + ("resist",), T + ("state",), T + ("rules",), W + ("rules",),
         W + ("damage_type",)]
TABLES = [T, A, W, S, SIM]
REQUIRED = [T + ("def",), T + ("arm",), W + ("skill",), W + ("pow",), W + ("type",),
            A + ("weapons",), ("target",), ("attackers",)]
WORDS = ["lazer", "sometimes", "xx", "Melee ", "KILL", "tiny", "flying", "1", "none?", "é"]


# ---------------------------------------------------------------------------- TOML text
def _table(name: str, table: dict, subtables: tuple[str, ...] = ()) -> list[str]:
    lines = []
    for k, v in table.items():
        if k in subtables and (isinstance(v, dict) or (isinstance(v, list) and v and all(
                isinstance(x, dict) for x in v))):
            continue
        lines.append(f"{json.dumps(k)} = {toml_value(v)}")
    return lines


def to_toml(data: dict) -> str:
    """TOML text of a scenario dict (tables as tables, whatever their values hold)."""
    lines: list[str] = []
    for top, v in data.items():
        if top == "attackers" and isinstance(v, list) and all(isinstance(a, dict) for a in v):
            for att in v:
                lines += ["", "[[attackers]]"] + _table("attackers", att, ("spend", "weapons"))
                if isinstance(att.get("spend"), dict):
                    lines += ["[attackers.spend]"] + _table("spend", att["spend"])
                weapons = att.get("weapons")
                if isinstance(weapons, list) and weapons and all(isinstance(w, dict)
                                                                 for w in weapons):
                    for w in weapons:
                        lines += ["[[attackers.weapons]]"] + _table("weapon", w)
        elif isinstance(v, dict):
            lines += ["", f"[{json.dumps(top)}]"] + _table(top, v)
        else:
            lines.insert(0, f"{json.dumps(top)} = {toml_value(v)}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- generators
FILE_KINDS = ("type", "range", "unknown", "missing", "choice", "grid", "trials", "item",
              "table", "toml", "other")
#: Keys of the rarer rules and their bad values (kind ``other``).
OTHER = {
    T + ("shield",): [5, -1, "x"], T + ("tough_on",): [0, 9, "x"], T + ("models",): [0, 10**5],
    T + ("terrain",): [["lava"]], T + ("effects",): [["plague"], "fire"],
    T + ("power_field",): ["x", -1], T + ("rapid_healing",): [-1, "x"],
    T + ("feat_def",): [-5, "x"], T + ("spell_arm",): [-99, "x"], T + ("upkeep_rules",): ["x"],
    W + ("location",): ["Z", 5], W + ("damage_to",): ["Q", 5], W + ("effect_on",): ["miss?"],
    W + ("reload",): [-1, "x"], W + ("blast_pow",): [-1, "x"], W + ("blast_models",): [0, "x"],
    W + ("def_minus",): [-1, "x"], W + ("power_attack",): ["kick", 1],
    W + ("attack_discard",): ["x"], A + ("buy_weapon",): ["Nope", 5], A + ("crippled",): [["Q"]],
    A + ("models",): [0, "x"], A + ("side",): ["up", 5], A + ("targets",): [["nobody"], "x"],
    A + ("combined",): [0, -1], SIM + ("attack_turns",): [0, "x", [1]],
}


def _file_cases(rng: random.Random, n: int) -> list[dict]:
    """``n`` different mutated scenario files, the kinds of :data:`FILE_KINDS` in turn."""
    cases, seen, i = [], set(), 0
    while len(cases) < n:
        case = _mutated(rng, FILE_KINDS[i % len(FILE_KINDS)])
        i += 1
        if case["text"] not in seen:
            seen.add(case["text"])
            cases.append(case)
    return cases


def _mutated(rng: random.Random, kind: str) -> dict:
    """One mutated file: {kind, text, key, value} (value None: none to name)."""
    data = copy.deepcopy(BASE)

    def made(key, value, text=None):
        return {"kind": kind, "text": text if text is not None else to_toml(data), "key": key,
                "value": value}

    if kind == "type":
        keys = rng.choice(list(INTS) + STRINGS + BOOLS)
        if keys in STRINGS:
            value = rng.choice([5, 2.5, True, ["a"], {"x": 1}])
        elif keys in BOOLS:
            value = rng.choice(["yes", 1, 0.5, ["true"], "true"])
        else:
            value = rng.choice(["12", "abc", 2.5, True, [1, 2], {"x": 1}, ""])
    elif kind == "range":
        keys = rng.choice(list(INTS))
        lo, hi = INTS[keys]
        options = [lo - 1, lo - rng.randint(2, 10**6)]
        if hi is not None:
            options += [hi + 1, hi + rng.randint(2, 10**6)]
        options.append(2**63 - 1 if hi is not None else lo - 2**40)
        value = rng.choice(options)
    elif kind == "unknown":
        keys = rng.choice(TABLES) + ("zz_" + "".join(rng.choice("abcdefgh") for _ in
                                                       range(rng.randint(2, 6))),)
        value = rng.choice([1, "x", True, [1]])
    elif kind == "missing":
        keys = rng.choice(REQUIRED)
        del get_in(data, keys[:-1])[keys[-1]]
        return made(dotted(keys), None)
    elif kind == "choice":
        keys = rng.choice(CHOICES)
        value = rng.choice(WORDS)
    elif kind == "grid":
        del data["target"]["boxes"]
        keys = T + ("grid",)  # a grid in place of the boxes
        good = ["......", "......", "..LL..", "..MM..", "..CC..", "......"]
        bad = copy.copy(good)
        how, column = rng.randrange(5), rng.randrange(6)
        if how in (0, 1):  # too few columns, or too many (not twelve): the list shown cut
            bad = bad[: rng.randint(1, 5)] if how == 0 else bad + ["......"] * rng.choice(
                [1, 2, 3, 4, 5, 7])
            set_in(data, keys, bad)
            return made("target.grid", None)
        if how in (2, 3):  # a letter no grid has, a column not a string
            bad[column] = "..Q..." if how == 2 else 7
            set_in(data, keys, bad)
            return made(f"target.grid[{column}]", bad[column])
        value = "LLMMCC"  # not a list
    elif kind == "trials":
        keys = SIM + ("trials",)
        value = rng.choice([0, -1, -(10**rng.randint(1, 9)), 10**9 + 1, 10**12, 1e6,
                            "1e6", "many", 2**63 - 1])
    elif kind == "item":
        keys = rng.choice(LISTS)
        items = list(get_in(data, keys[:-1]).get(keys[-1], []))
        bad = rng.choice(WORDS + [3, 2.5])
        items.insert(rng.randint(0, len(items)), bad)
        keys_item = keys + (items.index(bad),)
        set_in(data, keys, items)
        return made(dotted(keys_item), bad)
    elif kind == "table":
        keys = rng.choice(TABLES + [("attackers",), A + ("weapons",)])
        value = rng.choice([5, "x", [1, 2], True])
        if keys in (("attackers",), A + ("weapons",)) and value == [1, 2]:
            set_in(data, keys, [1, 2])  # a list of tables: its first item is refused
            return made(dotted(keys + (0,)), 1)
    elif kind == "other":
        keys = rng.choice(list(OTHER))
        value = rng.choice(OTHER[keys])
    else:  # broken TOML
        good = to_toml(data)
        how = rng.randrange(4)
        if how == 0:
            text = good.replace('["target"]', '["target"', 1)  # an unclosed table
        elif how == 1:
            text = good.replace('"arm" = 17', '"arm" = 17\n"arm" = 18')  # a key twice
        elif how == 2:
            text = good.replace('"skill" = 7', '"skill" = ', 1)
        else:
            cut = rng.randint(10, len(good) - 10)
            text = good[:cut] + "\x00" + good[cut:]
        return made("invalid TOML", None, text)
    set_in(data, keys, value)
    return made(dotted(keys), value)


def _flag_cases(rng: random.Random) -> list[dict]:
    """{argv, flag, value}: ``FILE`` / ``FILE2`` stand for two valid scenario files."""
    trials = ["0", "-1", "abc", "1.5", "1e10", "", "1e99"]
    seeds = ["-1", "x", "1e30", "0.5", "9" * 25]
    run = ["run", "FILE", "--trials", "1000"]
    sw = ["sweep", "FILE", "--vary", "target.arm=16:17", "--trials", "1000", "--no-progress"]
    mx = ["matrix", "--attackers", "solo", "--targets", "solo", "--trials", "1000",
          "--no-progress"]
    cases: list[dict] = []

    def add(argv, flag, value, replace=None):
        cases.append({"argv": argv, "flag": flag, "value": value, "replace": replace})

    for command, base in (("run", run), ("sweep", sw), ("compare", ["compare", "FILE", "FILE2"]),
                          ("matrix", mx)):
        for v in trials:
            add(base, "--trials", v)
        for v in seeds:
            add(base, "--seed", v)
        for v in ("bogus", "EXACT", "monte-carlo"):
            add(base, "--method", v)
        for v in ("win", "cripple:Q", "cripple:", "Kill"):
            add(base, "--objective", v)
        for v in ("/no/such/folder", "FILE"):
            add(base, "--cards", v)
    for v in ("nosuch", "heavy_warjack:flying", "solo:", ":melee"):
        add(["run", "--target", "solo", "--trials", "1000"], "--attacker", v)
    for v in ("nosuch", "heavy_warjack:melee"):
        add(["run", "--attacker", "solo", "--trials", "1000"], "--target", v)
    for v in ("x.gif", "x", "/no/such/folder/x.png"):
        add(run, "--plot", v)
    add(["run", "/no/such/file.toml"], "SCENARIO", "/no/such/file.toml")
    for spec in ("target.arm", "target.arm=", "=16", "target.nope=1", "target.arm=18:14",
                 "target.arm=1:4:0", "target.arm=abc", "target.arm=99", "simulation.trials=5",
                 "attackers.9.focus=1", "attackers.Nobody.focus=1", "target.arm=16,,17",
                 "target.arm=16,16", "targett.arm=16", "attackers.0.weapons.7.pow=12",
                 "attackers.0.spend.boost_attack=sometimes", "target.state=sleepy",
                 "attackers.0.fury=1"):
        add(["sweep", "FILE", "--trials", "1000", "--no-progress"], "--vary", spec)
        if rng.random() < 0.5 and not spec.startswith("attackers.0.fury"):  # solo: no points
            add(mx, "--vary", spec)
    for v in ("out.txt", "/no/such/folder/out.csv", "out.parquet", "FILE"):
        add(sw, "--out", v)
    add(sw + ["--label", "a", "--label", "b"], "--label", "b")
    add(["compare", "FILE", "FILE2", "--label", "a", "--label", "a"], "--label", "a")
    add(["compare", "FILE", "FILE2", "--label", "a", "--label", " "], "--label", " ")
    for v in ("", "nosuch", "solo,", ",solo", "heavy_warjack:flying", "solo,solo"):
        add(["matrix", "--targets", "solo", "--trials", "1000", "--no-progress"],
            "--attackers", v)
        add(["matrix", "--attackers", "solo", "--trials", "1000", "--no-progress"],
            "--targets", v)
    for flag, values in (("--scheduler", ("mars", "tcp://", "tcp://:", "")),
                         ("--workers", ("0", "-1", "x", "5000")),
                         ("--batch", ("0", "x", "1e9")),
                         ("--turns", ("0", "21", "x", "1.5")),
                         ("--out", ("m.txt", "/no/such/folder/m.parquet", "FILE")),
                         ("--plot", ("m.gif", "m"))):
        for v in values:
            add(mx, flag, v)
    for v in ("/no/such/folder", "FILE"):
        add(["cards"], "--cards", v)
    sbh = {
        "activation": (["sbh", "activation", "--quality", "3", "--dice", "2"],
                       {"--quality": ("1", "7", "x"), "--dice": ("0", "4", "two"),
                        "--bonus": ("-4", "4", "+")}),
        "shoot": (["sbh", "shoot", "--shooters", "2", "--combat", "3", "--target-combat",
                   "3"], {"--shooters": ("0", "6", "x"), "--combat": ("-1", "13"),
                          "--target-combat": ("13", "a"), "--modifier": ("11", "-11"),
                          "--total-floor": ("11", "x")}),
        "group": (["sbh", "group", "--leader-quality", "3", "--qualities", "3,4",
                   "--dice", "2"], {"--leader-quality": ("1", "7"), "--leader-dice": ("0", "4"),
                                    "--qualities": ("", "7,3", "a,b", "3,,4"),
                                    "--dice": ("0", "9"), "--leader-bonus": ("5",)}),
        "turn": (["sbh", "turn", "3:2"], {"--trials": ("0", "x"), "--seed": ("-1",),
                                          "--method": ("bogus",)}),
        "best-dice": (["sbh", "best-dice", "--qualities", "3,4"],
                      {"--qualities": ("", "9", "3;4", ",".join(["3"] * 41)),
                       "--objective": ("most",)}),
    }
    for base, flags in sbh.values():
        for flag, values in flags.items():
            for v in values:
                add(base, flag, v)
    for step in ("x", "7:1", "3:4", "3:1>", "3:1>7,3:1", "3:1>3,,3:1"):
        add(["sbh", "turn"], "STEP 1", step, replace=step)
    add(["sbh", "shoot", "--shooters", "2", "--combat", "3", "--target-combat", "3",
         "--total-floor", "1", "--raw-totals"], "--raw-totals", None)
    return cases


def _api_cases(rng: random.Random) -> list[dict]:
    """{call, key, value}: one bad argument of an API call."""
    fist = Weapon("Fist", "melee", 7, 16, attacks=2)
    jack = Attacker("Brute", [fist], focus=2)
    target = Target(12, 17, boxes=20)
    scen = Scenario(target, [jack], trials=1000, seed=1)
    bad_int = ["12", 2.5, None, True, [12], -1, 10**9]
    target_args = {"defense": ("def", bad_int), "arm": ("arm", bad_int),
                   "boxes": ("boxes", ["5", 0, -3, 2.5, 10**6]),
                   "name": ("name", ["", "  ", 5]),
                   "base": ("base", ["tiny", 3, "Large "]),
                   "resist": ("resist", ["fire", ["water"], [5]]),
                   "state": ("state", ["stationary", ["sleepy"]]),
                   "focus": ("focus", [-1, 11, "2"]),
                   "models": ("models", [0, -2, "3"])}
    weapon_args = {"skill": ("skill", bad_int), "pow": ("pow", ["16", 2.5, -1, 10**6]),
                   "attacks": ("attacks", [-1, 1.5, "2"]),
                   "type": ("type", ["lazer", 5, "MELEE"]),
                   "name": ("name", ["", 7]),
                   "rules": ("rules", ["knockdown", ["flying"]]),
                   "damage_type": ("damage_type", ["fire", ["plasma"]]),
                   "boosted_attack": ("boosted_attack", ["yes", 1])}
    attacker_args = {"focus": ("focus", [-1, 11, "2", 1.5]),
                     "fury": ("fury", [-1, "x"]),
                     "policy": ("policy", ["greedy", 1]),
                     "charge": ("charge", ["yes", 1]),
                     "combined": ("combined", [0, "2"]),
                     "name": ("name", ["", 3]),
                     "weapons": ("weapons", [[], "Fist", [1]])}
    spend_args = {"boost_attack": ("boost_attack", ["sometimes", 1]),
                  "boost_damage": ("boost_damage", ["maybe"]),
                  "reserve": ("reserve", [-1, "1"]),
                  "buy_attacks": ("buy_attacks", ["no"])}
    scenario_args = {"trials": ("trials", [0, -5, "x", 2.5, 10**10]),
                     "seed": ("seed", [-1, "x", 2**64]),
                     "turns": ("turns", [0, 21, "2"]),
                     "objective": ("objective", ["win", "cripple:Q", 3]),
                     "target": ("target", [5, "Jack", None]),
                     "attackers": ("attackers", [[], [5], "Brute"])}
    simulate_args = {"trials": ("trials", [0, -1, "x", 1.5, 10**10]),
                     "seed": ("seed", [-1, "s", 2.5]),
                     "method": ("method", ["bogus", "EXACT", 1]),
                     "stride": ("stride", [-1, 0, "x"]),
                     "explain": ("explain", ["yes", 2])}
    cases = []

    def each(name, build, args, fixed):
        for arg, (key, values) in args.items():
            for v in values:
                cases.append({"name": f"{name}-{arg}", "call": build,
                              "kwargs": {**fixed, arg: v}, "key": key, "value": v})

    each("Target", Target, target_args, {"defense": 12, "arm": 17, "boxes": 20})
    each("Weapon", Weapon, weapon_args, {"name": "Fist", "type": "melee", "skill": 7,
                                         "pow": 16})
    each("Attacker", Attacker, attacker_args, {"name": "Brute", "weapons": [fist]})
    each("Spend", Spend, spend_args, {})
    each("Scenario", Scenario, scenario_args, {"target": target, "attackers": [jack]})
    each("simulate", simulate, simulate_args, {"scenario": scen})
    for vary, key, value in (({"target.arm": "abc"}, "target.arm", "abc"),
                             ({"target.arm": [99]}, "target.arm", 99),
                             ({"target.nope": [1]}, "vary", "target.nope"),
                             ({"target.arm": []}, "target.arm", "[]"),
                             ({}, "vary", "{}"),
                             ({"attackers.0.fury": [1]}, "vary", "attackers.0.fury")):
        cases.append({"name": "sweep-vary", "call": sweep,
                      "kwargs": {"scenario": scen, "vary": vary, "progress": False},
                      "key": key, "value": value})
    for kw, key, value in (({"out": 5}, "out", 5), ({"out": "x.txt"}, "out", "x.txt"),
                           ({"resume": "yes"}, "resume", "yes"),
                           ({"progress": "loud"}, "progress", "loud"),
                           ({"trials": 0}, "trials", 0), ({"method": "b"}, "method", "b")):
        cases.append({"name": f"sweep-{key}", "call": sweep,
                      "kwargs": {"scenario": scen, "vary": {"target.arm": [16]}, **kw},
                      "key": key, "value": value})
    for kw, key, value in (({"attackers": ["nosuch"]}, "attackers[0]", "nosuch"),
                           ({"targets": "nosuch"}, "targets", "nosuch"),
                           ({"out": "m.txt"}, "out", "m.txt"),
                           ({"scheduler": "mars"}, "scheduler", "mars"),
                           ({"workers": 2}, "workers", 2),
                           ({"batch": 3}, "batch", 3),
                           ({"turns": 0}, "turns", 0),
                           ({"objective": "win"}, "objective", "win"),
                           ({"vary": {"target.arm": ["x"]}}, "target.arm", "x")):
        cases.append({"name": f"matrix-{key}", "call": matrix,
                      "kwargs": {"attackers": ["solo"], "targets": ["solo"], "trials": 1000,
                                 "progress": False, **kw}, "key": key, "value": value})
    other = Scenario(target, [Attacker("Other", [fist])], trials=1000, seed=1)
    for args, kw, key, value in (
            (({"a": scen},), {}, "scenarios", 1),
            (([scen, 5],), {}, "scenarios['loadout 2']", "int"),
            (({"": scen, "b": other},), {}, "scenarios label", ""),
            ((scen,), {}, "scenarios", "Scenario"),
            (({"a": scen, "b": other},), {"trials": 0}, "trials", 0),
            (({"a": scen, "b": other},), {"seed": -3}, "seed", -3),
            (({"a": scen, "b": other},), {"method": "fast"}, "method", "fast")):
        cases.append({"name": f"compare-{key.split('[')[0].split()[0]}",
                      "call": lambda *a, _args=args, **k: compare(*_args, **k),
                      "kwargs": kw, "key": key, "value": value})
    rng.shuffle(cases)
    return cases


_RNG = random.Random(SEED)
FILE_CASES = _file_cases(_RNG, 160)
FLAG_CASES = _flag_cases(_RNG)
API_CASES = _api_cases(_RNG)


def test_the_generator_makes_enough_cases():
    assert len(FILE_CASES) + len(FLAG_CASES) + len(API_CASES) >= 300
    assert len({c["text"] for c in FILE_CASES}) == len(FILE_CASES)  # no repeats
    assert {c["kind"] for c in FILE_CASES} == set(FILE_KINDS)


# ---------------------------------------------------------------------------- checks
def _names(err: str, text: str) -> bool:
    """Whether ``err`` names the value ``text`` (cut, where it is long, as messages cut values)."""
    return text in err or repr(text) in err or shown(text) in err


@pytest.fixture()
def folder(tmp_path, monkeypatch):
    """A working folder holding the user's files (a valid scenario, a copy of it)."""
    monkeypatch.chdir(tmp_path)
    text = to_toml(BASE)
    (tmp_path / "s.toml").write_text(text, encoding="utf-8")
    (tmp_path / "t.toml").write_text(text.replace('"Brute"', '"Other"'), encoding="utf-8")
    return tmp_path


def test_the_base_scenario_is_valid(folder, capsys):
    assert cli.main(["run", "s.toml", "--trials", "1000"]) == 0
    assert "Brute" in capsys.readouterr().out


@pytest.mark.parametrize("case", FILE_CASES,
                         ids=[f"file-{i:03d}-{c['kind']}-{c['key']}"
                              for i, c in enumerate(FILE_CASES)])
def test_a_bad_scenario_file_is_one_line(case, folder, capsys):
    path = folder / "bad.toml"
    path.write_text(case["text"], encoding="utf-8")
    before = snapshot(folder)
    err = one_line_error(capsys, ["run", "bad.toml"])
    assert snapshot(folder) == before
    assert "bad.toml" in err
    assert case["key"] in err, err
    value = case["value"]
    if value is not None:  # the value, or the item of a list refused
        shown = [value] + (value if isinstance(value, list) else [])
        assert any(f"(got {v!r})" in err for v in shown), err


#: Flags a command line may repeat: a bad value among good ones is the case.
REPEATED = ("--vary", "--label", "--attacker", "--cards", "--attackers", "--targets")


@pytest.mark.parametrize("case", FLAG_CASES,
                         ids=[f"flag-{i:03d}-{c['argv'][0]}-{c['flag']}"
                              for i, c in enumerate(FLAG_CASES)])
def test_a_bad_flag_is_one_line(case, folder, capsys):
    def real(x):
        return {"FILE": "s.toml", "FILE2": "t.toml"}.get(x, x)

    argv = [real(x) for x in case["argv"]]
    if case["replace"] is not None:
        argv.append(case["replace"])
    elif case["value"] is not None:
        if case["flag"] in argv and case["flag"] not in REPEATED:  # a flag given once: this value
            at = argv.index(case["flag"])
            del argv[at: at + 2]
        argv += [case["flag"], real(case["value"])] if case["flag"] != "SCENARIO" else []
    before = snapshot(folder)
    err = one_line_error(capsys, argv)
    assert snapshot(folder) == before  # nothing the user wrote changed, nothing written
    flag, value = case["flag"], case["value"]
    assert flag in err or (flag == "SCENARIO" and "file.toml" in err), err
    if value is None or not value.strip():
        return
    if flag == "--vary":  # the path, or the values after "=" (one error names one of them)
        path, _, values = value.partition("=")
        assert (path.strip() and path in err) or (values.strip() and _names(err, values)), err
    elif flag in ("--attackers", "--targets"):  # the list, or the card name refused in it
        assert any(_names(err, part) for part in [value, *value.split(",")] if part), err
    else:
        assert _names(err, real(value)), err


@pytest.mark.parametrize("case", API_CASES,
                         ids=[f"api-{i:03d}-{c['name']}" for i, c in enumerate(API_CASES)])
def test_a_bad_api_argument_is_an_input_error(case, folder):
    before = snapshot(folder)
    with pytest.raises(InputError) as info:
        case["call"](**case["kwargs"])
    message = str(info.value)
    assert "\n" not in message
    assert case["key"] in message, message
    value = case["value"]
    shown = [value if isinstance(value, str) else repr(value), f"'{type(value).__name__}'"]
    if isinstance(value, list):  # the list, as a tuple, or the item refused in it
        shown += [repr(tuple(value))] + [repr(x) for x in value]
    assert any(x in message for x in shown), message
    assert snapshot(folder) == before
