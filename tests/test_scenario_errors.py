"""Invalid scenario files: every error is one line naming the file, the dotted key and the value."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mathhammer import InputError, load_scenario
from mathhammer.scenario import ScenarioFileError

BASE = """\
[simulation]
trials = 1000
seed = 1

[target]
name = "Heavy warjack"
def = 12
arm = 18
boxes = 30

[[attackers]]
name = "Jack"

[[attackers.weapons]]
name = "Fist"
type = "melee"
skill = 7
pow = 16

[[attackers.weapons]]
name = "Hammer"
type = "melee"
skill = 7
pow = 18
"""

SECOND_ATTACKER = """
[[attackers]]
name = "Gunner"

[[attackers.weapons]]
name = "Gun"
type = "ranged"
skill = 5
pow = 12
"""

MISSING = object()  # the message has no "(got ...)": a required key is absent


def sub(old: str, new: str, text: str = BASE) -> str:
    assert text.count(old) == 1, f"{old!r} is not unique in the template"
    return text.replace(old, new)


def drop(line: str, text: str = BASE) -> str:
    return sub(line + "\n", "", text)


W0 = "attackers[0].weapons[0]"
W1 = "attackers[0].weapons[1]"

# (id, file text, dotted key, offending value (or MISSING), text the reason must contain)
CASES = [
    # --- unknown keys, with suggestions where one is close
    ("unknown-top-level", "foo = 1\n" + BASE, "foo", 1, "unknown key"),
    ("unknown-top-level-close", "[simulations]\ntrials = 5\n" + BASE, "simulations", {"trials": 5},
     "did you mean 'simulation'?"),
    ("unknown-simulation-key", sub("trials = 1000", "trails = 1000"), "simulation.trails", 1000,
     "did you mean 'trials'?"),
    ("unknown-simulation-method", sub("seed = 1", "seed = 1\nmethod = \"exact\""), "simulation.method",
     "exact", "unknown key"),
    ("unknown-target-key-alias", sub("def = 12", "defense = 12"), "target.defense", 12,
     "did you mean 'def'?"),
    ("unknown-target-key-typo", sub("boxes = 30", "boxs = 30"), "target.boxs", 30, "did you mean 'boxes'?"),
    ("unknown-attacker-key", sub('name = "Jack"', 'nme = "Jack"'), "attackers[0].nme", "Jack",
     "did you mean 'name'?"),
    ("unknown-weapon-key-alias", sub("skill = 7\npow = 18", "mat = 7\npow = 18"), f"{W1}.mat", 7,
     "did you mean 'skill'?"),
    ("unknown-weapon-key-far", sub("pow = 18", 'pow = 18\ncolour = "red"'), f"{W1}.colour", "red",
     "allowed: name, type, skill"),
    # --- simulation settings
    ("trials-string", sub("trials = 1000", 'trials = "1000"'), "simulation.trials", "1000", "must be an integer"),
    ("trials-float", sub("trials = 1000", "trials = 1e6"), "simulation.trials", 1e6, "must be an integer"),
    ("trials-zero", sub("trials = 1000", "trials = 0"), "simulation.trials", 0, "between 1 and 1000000000"),
    ("trials-too-many", sub("trials = 1000", "trials = 2_000_000_000"), "simulation.trials", 2_000_000_000,
     "between 1 and 1000000000"),
    ("seed-negative", sub("seed = 1", "seed = -1"), "simulation.seed", -1, "between 0 and"),
    ("seed-bool", sub("seed = 1", "seed = true"), "simulation.seed", True, "must be an integer"),
    ("simulation-not-table", sub("[simulation]\ntrials = 1000\nseed = 1\n", "simulation = 5\n"),
     "simulation", 5, "must be a table"),
    # --- target
    ("target-missing", sub('[target]\nname = "Heavy warjack"\ndef = 12\narm = 18\nboxes = 30\n', ""),
     "target", MISSING, "required key is missing"),
    ("target-def-missing", drop("def = 12"), "target.def", MISSING, "required key is missing"),
    ("target-arm-missing", drop("arm = 18"), "target.arm", MISSING, "required key is missing"),
    ("target-array-of-tables", sub("[target]", "[[target]]"), "target",
     [{"name": "Heavy warjack", "def": 12, "arm": 18, "boxes": 30}], "must be a table ([target])"),
    ("target-def-string", sub("def = 12", 'def = "12"'), "target.def", "12", "must be an integer"),
    ("target-def-negative", sub("def = 12", "def = -3"), "target.def", -3, "between 0 and 40"),
    ("target-arm-float", sub("arm = 18", "arm = 18.5"), "target.arm", 18.5, "must be an integer"),
    ("target-boxes-zero", sub("boxes = 30", "boxes = 0"), "target.boxes", 0, "between 1 and"),
    ("target-boxes-absurd", sub("boxes = 30", "boxes = 100000"), "target.boxes", 100000, "between 1 and"),
    ("target-name-int", sub('name = "Heavy warjack"', "name = 5"), "target.name", 5, "must be a string"),
    ("target-base-unknown", sub("boxes = 30", 'boxes = 30\nbase = "gigantic"'), "target.base", "gigantic",
     "must be one of small, medium"),
    ("target-base-close", sub("boxes = 30", 'boxes = 30\nbase = "extra-large"'), "target.base", "extra-large",
     "did you mean 'extra_large'?"),
    ("target-resist-string", sub("boxes = 30", 'boxes = 30\nresist = "fire"'), "target.resist", "fire",
     "must be a list of strings"),
    ("target-resist-unknown", sub("boxes = 30", 'boxes = 30\nresist = ["lava"]'), "target.resist[0]", "lava",
     "must be one of fire, cold"),
    ("target-resist-not-string", sub("boxes = 30", 'boxes = 30\nresist = ["fire", 1]'), "target.resist[1]", 1,
     "must be a string"),
    ("target-state-unknown", sub("boxes = 30", 'boxes = 30\nstate = ["knockdown"]'), "target.state[0]",
     "knockdown", "did you mean 'knocked_down'?"),
    ("target-state-second-unknown", sub("boxes = 30", 'boxes = 30\nstate = ["cover", "in_meele", "elevated"]'),
     "target.state[1]", "in_meele", "did you mean 'in_melee'?"),
    ("target-state-table", sub("boxes = 30", "boxes = 30\nstate = {cover = true}"), "target.state",
     {"cover": True}, "must be a list of strings"),
    # --- attackers
    ("attackers-missing", BASE.split("[[attackers]]")[0], "attackers", MISSING, "required key is missing"),
    ("attackers-empty", "attackers = []\n" + BASE.split("[[attackers]]")[0], "attackers", [],
     "at least one attacker"),
    ("attackers-table-not-array", sub("[[attackers]]", "[attackers]").replace(
        "[[attackers.weapons]]", "[[attackers.weapons]]"), "attackers",
     {"name": "Jack", "weapons": [{"name": "Fist", "type": "melee", "skill": 7, "pow": 16},
                                  {"name": "Hammer", "type": "melee", "skill": 7, "pow": 18}]},
     "must be an array of tables ([[attackers]])"),
    ("attackers-not-list", "attackers = 3\n" + BASE.split("[[attackers]]")[0], "attackers", 3,
     "must be an array of tables"),
    ("attacker-not-table", "attackers = [1]\n" + BASE.split("[[attackers]]")[0], "attackers[0]", 1,
     "must be a table"),
    ("attacker-name-list", sub('name = "Jack"', 'name = ["Jack"]'), "attackers[0].name", ["Jack"],
     "must be a string"),
    ("attacker-no-weapons-key", BASE.split("[[attackers.weapons]]")[0], "attackers[0].weapons", MISSING,
     "required key is missing"),
    ("attacker-weapons-empty", BASE.split("[[attackers.weapons]]")[0] + "weapons = []\n",
     "attackers[0].weapons", [], "at least one weapon"),
    ("attacker-weapons-table", BASE.split("[[attackers.weapons]]")[0]
     + '[attackers.weapons]\nname = "Fist"\n', "attackers[0].weapons", {"name": "Fist"},
     "must be an array of tables ([[attackers.weapons]])"),
    ("attacker-weapon-not-table", BASE.split("[[attackers.weapons]]")[0] + "weapons = [1, 2]\n",
     f"{W0}", 1, "must be a table"),
    ("attacker-mixes-melee-and-ranged", sub('type = "melee"\nskill = 7\npow = 18', 'type = "ranged"\nskill = 7\npow = 18'),
     "attackers[0].weapons", ["melee", "ranged"], "never mixes melee and ranged"),
    ("attackers-make-no-attacks", sub("pow = 16", "pow = 16\nattacks = 0").replace("pow = 18", "pow = 18\nattacks = 0"),
     "attackers", 0, "make no attacks"),
    # --- weapons: required keys
    ("weapon-name-missing", drop('name = "Hammer"'), f"{W1}.name", MISSING, "required key is missing"),
    ("weapon-type-missing", sub('name = "Fist"\ntype = "melee"\n', 'name = "Fist"\n'), f"{W0}.type", MISSING,
     "required key is missing"),
    ("weapon-skill-missing", sub("skill = 7\npow = 16\n", "pow = 16\n"), f"{W0}.skill", MISSING,
     "required key is missing"),
    ("weapon-pow-missing", drop("pow = 18"), f"{W1}.pow", MISSING, "required key is missing"),
    # --- weapons: values
    ("weapon-type-unknown", sub('name = "Fist"\ntype = "melee"', 'name = "Fist"\ntype = "shooting"'),
     f"{W0}.type", "shooting", "must be one of melee, ranged, arcane"),
    ("weapon-skill-too-high", sub("skill = 7\npow = 18", "skill = 45\npow = 18"), f"{W1}.skill", 45,
     "must be between 0 and 30"),
    ("weapon-skill-bool", sub("skill = 7\npow = 16", "skill = true\npow = 16"), f"{W0}.skill", True,
     "must be an integer"),
    ("weapon-skill-string", sub("skill = 7\npow = 16", 'skill = "7"\npow = 16'), f"{W0}.skill", "7",
     "must be an integer"),
    ("weapon-pow-string", sub("pow = 18", 'pow = "x"'), f"{W1}.pow", "x", 'must be an integer or "-"'),
    ("weapon-pow-numeric-string", sub("pow = 18", 'pow = "18"'), f"{W1}.pow", "18", 'must be an integer or "-"'),
    ("weapon-pow-negative", sub("pow = 18", "pow = -2"), f"{W1}.pow", -2, "must be between 0 and 40"),
    ("weapon-pow-float", sub("pow = 18", "pow = 18.0"), f"{W1}.pow", 18.0, "must be an integer"),
    ("weapon-pow-list", sub("pow = 18", "pow = [18]"), f"{W1}.pow", [18], "must be an integer"),
    ("weapon-attacks-negative", sub("pow = 16", "pow = 16\nattacks = -1"), f"{W0}.attacks", -1, "between 0 and 20"),
    ("weapon-attacks-absurd", sub("pow = 16", "pow = 16\nattacks = 100"), f"{W0}.attacks", 100, "between 0 and 20"),
    ("weapon-boost-string", sub("pow = 16", 'pow = 16\nboosted_attack = "yes"'), f"{W0}.boosted_attack", "yes",
     "must be true or false"),
    ("weapon-boost-damage-without-pow", sub("pow = 18", 'pow = "-"\nboosted_damage = true'),
     f"{W1}.boosted_damage", True, 'POW "-"'),
    ("weapon-crippled-int", sub("pow = 18", "pow = 18\ncrippled = 1"), f"{W1}.crippled", 1, "must be true or false"),
    ("weapon-damage-type-string", sub("pow = 18", 'pow = 18\ndamage_type = "fire"'), f"{W1}.damage_type", "fire",
     "must be a list of strings"),
    ("weapon-damage-type-unknown", sub("pow = 18", 'pow = 18\ndamage_type = ["plasma"]'), f"{W1}.damage_type[0]",
     "plasma", "must be one of fire"),
    ("weapon-rules-unknown", sub("pow = 18", 'pow = 18\nrules = ["knockdown", "critical_knock_down"]'),
     f"{W1}.rules[1]", "critical_knock_down", "did you mean 'critical_knockdown'?"),
    ("weapon-extra-dice-absurd", sub("pow = 18", "pow = 18\nextra_damage_dice = 5"), f"{W1}.extra_damage_dice", 5,
     "between -3 and 3"),
    ("weapon-location-unknown", sub("pow = 18", 'pow = 18\nlocation = "X"'), f"{W1}.location", "X",
     "must be one of L, R, H, F"),
    ("second-attacker-index", BASE + SECOND_ATTACKER.replace("skill = 5", "skill = 31"),
     "attackers[1].weapons[0].skill", 31, "must be between 0 and 30"),
]

assert len({c[0] for c in CASES}) == len(CASES)


def write(tmp_path: Path, text: str, name: str = "bad.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load_error(path) -> str:
    with pytest.raises(ScenarioFileError) as info:
        load_scenario(path)
    assert isinstance(info.value, InputError)
    msg = str(info.value)
    assert "\n" not in msg and "\r" not in msg, msg
    return msg


def test_at_least_thirty_kinds():
    assert len(CASES) >= 30


@pytest.mark.parametrize("text, key, value, reason", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_invalid_file(tmp_path, text, key, value, reason):
    path = write(tmp_path, text)
    msg = load_error(path)
    assert msg.startswith(f"{path}: {key}: "), msg
    assert reason in msg, msg
    if value is MISSING:
        assert "(got" not in msg, msg
    else:
        shown = repr(value)
        if len(shown) > 80:  # long values are shortened
            shown = shown[:77] + "..."
        assert msg.endswith(f"(got {shown})"), msg
    err = pytest.raises(ScenarioFileError, load_scenario, path).value
    assert err.source == str(path)
    assert err.key == key
    if value is not MISSING:
        assert err.value == value


def test_contract_message_example(tmp_path, monkeypatch):
    path = write(tmp_path, sub("skill = 7\npow = 18", "skill = 45\npow = 18"), "x.toml")
    monkeypatch.chdir(tmp_path)
    assert load_error("x.toml") == "x.toml: attackers[0].weapons[1].skill: must be between 0 and 30 (got 45)"
    assert path.exists()


def test_relative_path_is_named_as_given(tmp_path, monkeypatch):
    (tmp_path / "scenarios").mkdir()
    write(tmp_path / "scenarios", drop("arm = 18"), "x.toml")
    monkeypatch.chdir(tmp_path)
    assert load_error(Path("scenarios/x.toml")) == "scenarios/x.toml: target.arm: required key is missing"


def test_long_values_are_shortened(tmp_path):
    path = write(tmp_path, sub('name = "Heavy warjack"', f"name = {['x' * 20] * 20!r}"))
    msg = load_error(path)
    assert msg.startswith(f"{path}: target.name: must be a string (got [")
    assert msg.endswith("...)") and len(msg) < len(str(path)) + 150


def test_newline_in_value_stays_on_one_line(tmp_path):
    path = write(tmp_path, sub('type = "melee"\nskill = 7\npow = 16', 'type = """mel\nee"""\nskill = 7\npow = 16'))
    msg = load_error(path)
    assert msg.startswith(f"{path}: {W0}.type: must be one of")
    assert "'mel\\nee'" in msg


# ------------------------------------------------------------------------ whole-file problems
@pytest.mark.parametrize(
    "text, line",
    [
        (sub("def = 12", "def = "), 7),
        (sub("arm = 18", "arm = 18\narm = 19"), 9),
        (sub("[target]", "[target"), 5),
        (sub('name = "Jack"', 'name = "Jack'), 12),
    ],
    ids=["missing-value", "duplicate-key", "unclosed-header", "unclosed-string"],
)
def test_toml_syntax_error(tmp_path, text, line):
    path = write(tmp_path, text)
    msg = load_error(path)
    assert msg.startswith(f"{path}: invalid TOML: "), msg
    assert f"line {line}" in msg and "column" in msg, msg


def test_file_not_found(tmp_path):
    path = tmp_path / "nope.toml"
    assert load_error(path) == f"{path}: no such file"


def test_directory(tmp_path):
    msg = load_error(tmp_path)
    assert msg == f"{tmp_path}: is a directory, not a scenario file"


def test_not_utf8(tmp_path):
    path = tmp_path / "binary.toml"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff")
    msg = load_error(path)
    assert msg.startswith(f"{path}: not UTF-8 text"), msg


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root can read any file")
def test_unreadable(tmp_path):
    path = write(tmp_path, BASE)
    path.chmod(0)
    try:
        assert load_error(path) == f"{path}: permission denied"
    finally:
        path.chmod(0o644)


def test_empty_file(tmp_path):
    path = write(tmp_path, "")
    assert load_error(path) == f"{path}: target: required key is missing"


def test_comments_only(tmp_path):
    path = write(tmp_path, "# nothing here\n")
    assert load_error(path) == f"{path}: target: required key is missing"


def test_base_file_is_valid(tmp_path):
    """The template every case above breaks is itself a valid scenario."""
    scen = load_scenario(write(tmp_path, BASE))
    assert scen.n_attacks == 2
    scen = load_scenario(write(tmp_path, BASE.replace('type = "melee"', 'type = "ranged"') + SECOND_ATTACKER))
    assert scen.n_attacks == 3
