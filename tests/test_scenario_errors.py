"""Invalid scenario files: every error is one line naming the file, the dotted key and the value."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from mathhammer import InputError, load_scenario
from mathhammer.rules.vocabulary import HAZARDS, TERRAIN, WEAPON_RULES
from mathhammer.scenario import (
    ATTACKER_KEYS,
    SETTINGS_KEYS,
    SPEND_KEYS,
    TARGET_KEYS,
    WEAPON_KEYS,
    ScenarioFileError,
)

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


# ------------------------------------------------------------------------ the later keys, exact messages
def in_target(line: str) -> str:
    return sub("boxes = 30", "boxes = 30\n" + line)


def in_attacker(line: str, text: str = BASE) -> str:
    return sub('name = "Jack"', 'name = "Jack"\n' + line, text)


def in_spend(line: str) -> str:
    return sub('name = "Jack"\n', 'name = "Jack"\n\n[attackers.spend]\n' + line + "\n")


def in_weapon(line: str) -> str:
    return sub("pow = 18", "pow = 18\n" + line)


def in_simulation(line: str, text: str = BASE) -> str:
    return sub("seed = 1", "seed = 1\n" + line, text)


def in_settings(line: str) -> str:
    return "[settings]\n" + line + "\n" + BASE


# A 30-box grid (BASE's boxes = 30 is its total) and a 30-box spiral.
GRID = 'grid = ["...L.", "..LLM", "..HCM", "..HCM", "..RRM", "...R."]'
SPIRAL = 'spiral = ["MMMMM", "MMMMM", "BBBBB", "BBBBB", "SSSSS", "SSSSS"]'
GRID_LETTERS_ON_CARD = "C, H, M, L, R"


def with_grid(text: str = BASE) -> str:
    return sub("boxes = 30", "boxes = 30\n" + GRID, text)


MELEE_SECOND_ATTACKER = SECOND_ATTACKER.replace('name = "Gun"\ntype = "ranged"', 'name = "Fist"\ntype = "melee"')
RANGED_ONLY = BASE.replace('type = "melee"', 'type = "ranged"')

# Terrain names, hazards last, as the messages list them.
TERRAIN_NAMES = ("forest, dense_fog, tall_grass, cloud, rubble, trench, crater, building, hill, obstacle, "
                 "obstruction, acid_bath, burning_earth, quicksand")
assert TERRAIN_NAMES == ", ".join(tuple(TERRAIN) + HAZARDS)
STATE_NAMES = ("knocked_down, stationary, inert, wild, building, in_melee, cover, concealment, elevated, "
               "obstacle")

# (id, file text, the message after "{path}: ")
EXACT_CASES = [
    # --- [target]
    ("target-guard-blocks-negative", in_target("guard_blocks = -1"),
     "target.guard_blocks: must be between 0 and 10 (got -1)"),
    ("target-terrain-string", in_target('terrain = "forest"'),
     "target.terrain: must be a list of strings, e.g. ['forest'] (got 'forest')"),
    ("target-terrain-unknown", in_target('terrain = ["forest", "swamp"]'),
     f"target.terrain[1]: must be one of {TERRAIN_NAMES} (got 'swamp')"),
    ("target-terrain-close", in_target('terrain = ["dense fog"]'),
     f"target.terrain[0]: must be one of {TERRAIN_NAMES}; did you mean 'dense_fog'? (got 'dense fog')"),
    ("target-rules-unknown", in_target('rules = ["tough", "toughsteady"]'),
     ("target.rules[1]: must be one of unyielding, carapace, tough, tough_steady; "
     "did you mean 'tough_steady'? (got 'toughsteady')")),
    ("target-rules-table", in_target("rules = {tough = true}"),
     "target.rules: must be a list of strings (got {'tough': True})"),
    ("target-shield-unknown", in_target('shield = ["left"]'),
     "target.shield[0]: must be one of L, R, H, F (got 'left')"),
    ("target-shield-not-string", in_target("shield = [1]"), "target.shield[0]: must be a string (got 1)"),
    ("target-buckler-string", in_target('buckler = "L"'),
     "target.buckler: must be a list of strings, e.g. ['L'] (got 'L')"),
    ("target-upkeep-def-high", in_target("upkeep_def = 11"),
     "target.upkeep_def: must be between 0 and 10 (got 11)"),
    ("target-upkeep-arm-string", in_target('upkeep_arm = "2"'),
     "target.upkeep_arm: must be an integer (got '2')"),
    ("target-spell-def-negative", in_target("spell_def = -1"),
     "target.spell_def: must be between 0 and 10 (got -1)"),
    ("target-spell-arm-float", in_target("spell_arm = 2.0"), "target.spell_arm: must be an integer (got 2.0)"),
    ("target-focus-high", in_target("focus = 11"), "target.focus: must be between 0 and 10 (got 11)"),
    ("target-fury-bool", in_target("fury = true"), "target.fury: must be an integer (got True)"),
    ("target-focus-and-fury", in_target("focus = 3\nfury = 2"),
     "target.fury: a target spends focus or fury, not both (got 2)"),
    ("target-power-field-unknown", in_target('power_field = "always"'),
     "target.power_field: must be one of best, never, lethal (got 'always')"),
    ("target-power-field-close", in_target('power_field = "optimum"'),
     "target.power_field: must be one of best, never, lethal (got 'optimum')"),
    ("target-power-field-bool", in_target("power_field = true"),
     "target.power_field: must be one of best, never, lethal (got True)"),
    ("target-rapid-healing-high", in_target("rapid_healing = 12"),
     "target.rapid_healing: must be between 0 and 10 (got 12)"),
    ("target-rapid-healing-d6", in_target('rapid_healing = "d6"'), "target.rapid_healing: must be an integer or \"d3\" (got 'd6')"),
    ("target-upkeep-rules-unknown", in_target('upkeep_rules = ["carapace"]'),
     "target.upkeep_rules[0]: must be one of tough, unyielding (got 'carapace')"),
    ("target-upkeep-rules-twice", in_target('rules = ["tough"]\nupkeep_rules = ["tough"]'),
     "target.upkeep_rules: the target has it already (rules) (got 'tough')"),
    ("target-shield-guard-alone", in_target('shield_guard = ["Boss"]'),
     "target.shield_guard[0]: Shield Guard guards another target: give several [[targets]] (got 'Boss')"),
    ("target-shield-guard-string", in_target('shield_guard = "Boss"'),
     "target.shield_guard: must be a list of target names (got 'Boss')"),
    ("weapon-random-rof-melee", in_weapon('attacks = "d3"'),
     f"{W1}.attacks: a random rate of fire is for ranged weapons (type is 'melee') (got 'd3')"),
    ("target-key-alias", in_target('shields = ["L"]'), "target.shields: unknown key; did you mean 'shield'? (got ['L'])"),
    # --- [target] grid and spiral
    ("target-grid-unknown-letter", in_target('grid = ["...L.", "..LLM", "..HCM", "..HQM", "..RRM", "...R."]'),
     "target.grid[3]: unknown system letter 'Q' (letters: ACGHMFLR.) (got '..HQM')"),
    ("target-grid-lowercase-letter", in_target('grid = ["...l.", "..LLM", "..HCM", "..HCM", "..RRM", "...R."]'),
     "target.grid[0]: unknown system letter 'l' (letters: ACGHMFLR.) (got '...l.')"),
    ("target-grid-aspect-letter", in_target('grid = ["...L.", "..LLM", "..HCM", "..HCM", "..RRM", "...S."]'),
     "target.grid[5]: unknown system letter 'S' (letters: ACGHMFLR.) (got '...S.')"),
    ("target-grid-five-columns", in_target('grid = ["...L.", "..LLM", "..HCM", "..HCM", "..RRM"]'),
     ("target.grid: must be a list of six strings, one per column (a colossal: twelve, its left "
      "grid's then its right grid's) (got ['...L.', '..LLM', '..HCM', '..HCM', '..RRM'])")),
    ("target-grid-seven-columns", in_target('grid = ["", "", "", "", "", "", "."]'),
     "target.grid: must be a list of six strings, one per column (a colossal: twelve, its left grid's then its "
     "right grid's) (got ['', '', '', '', '', '', '.'])"),
    ("target-grid-string", in_target('grid = "...L."'),
     "target.grid: must be a list of six strings, one per column (a colossal: twelve, its left grid's then its "
     "right grid's) (got '...L.')"),
    ("target-grid-column-too-long", in_target('grid = ["...L.", "..LLM", "..HCM", "..HCM", "..RRM", "..........R"]'),
     "target.grid[5]: at most 10 boxes (got '..........R')"),
    ("target-grid-column-not-string", in_target('grid = ["...L.", ["."], "..HCM", "..HCM", "..RRM", "...R."]'),
     "target.grid[1]: must be a string (got ['.'])"),
    ("target-grid-no-box", in_target('grid = ["", "", "", "", "", ""]'),
     "target.grid: needs at least one box (got ['', '', '', '', '', ''])"),
    ("target-grid-boxes-differ", sub("boxes = 30", "boxes = 32\n" + GRID),
     "target.boxes: with a grid, boxes is its number of boxes (30): leave it out or give 30 (got 32)"),
    ("target-grid-boxes-one", sub("boxes = 30", "boxes = 1\n" + GRID),
     "target.boxes: with a grid, boxes is its number of boxes (30): leave it out or give 30 (got 1)"),
    ("target-grid-boxes-string", sub("boxes = 30", 'boxes = "30"\n' + GRID),
     "target.boxes: must be an integer (got '30')"),
    ("target-grid-and-spiral", in_target(GRID + "\n" + SPIRAL),
     ("target.spiral: a target has a grid or a spiral, not both "
      "(got ['MMMMM', 'MMMMM', 'BBBBB', 'BBBBB', 'SSSSS', 'SSSSS'])")),
    ("target-grid-key-alias", in_target('damage_grid = ["."]'),
     "target.damage_grid: unknown key; did you mean 'grid'? (got ['.'])"),
    ("target-spiral-unknown-letter", in_target('spiral = ["MMMMM", "MMMMM", "BBBBB", "BB.BB", "SSSSS", "SSSSS"]'),
     "target.spiral[3]: unknown aspect letter '.' (letters: BMS) (got 'BB.BB')"),
    ("target-spiral-four-branches", in_target('spiral = ["MMMMMMMM", "BBBBBBB", "BBBBBBB", "SSSSSSSS"]'),
     "target.spiral: must be a list of six strings, one per branch (a gargantuan's two spirals are not "
     "modelled) (got ['MMMMMMMM', 'BBBBBBB', 'BBBBBBB', 'SSSSSSSS'])"),
    ("target-spiral-branch-too-long", in_target('spiral = ["MMMMMMMMMMM", "M", "BBBBB", "BBBBB", "SSSS", "SSSS"]'),
     "target.spiral[0]: at most 10 boxes (got 'MMMMMMMMMMM')"),
    ("target-spiral-boxes-differ", sub("boxes = 30", "boxes = 29\n" + SPIRAL),
     "target.boxes: with a spiral, boxes is its number of boxes (30): leave it out or give 30 (got 29)"),
    ("target-spiral-table", in_target('spiral = {mind = "MMMMM"}'),
     "target.spiral: must be a list of six strings, one per branch (a gargantuan's two spirals are not "
     "modelled) (got {'mind': 'MMMMM'})"),
    # --- [[attackers]]
    ("attacker-focus-string", in_attacker('focus = "3"'), "attackers[0].focus: must be an integer (got '3')"),
    ("attacker-fury-high", in_attacker("fury = 11"), "attackers[0].fury: must be between 0 and 10 (got 11)"),
    ("attacker-force-negative", in_attacker("force = -1"), "attackers[0].force: must be between 0 and 10 (got -1)"),
    ("attacker-focus-and-force", in_attacker("focus = 3\nforce = 2"),
     "attackers[0].force: an attacker has one of focus, fury or force (also has focus) (got 2)"),
    ("attacker-policy-unknown", in_attacker('policy = "greedy"'),
     "attackers[0].policy: must be one of best, fixed, optimize (got 'greedy')"),
    ("attacker-policy-close", in_attacker('policy = "optimise"'),
     "attackers[0].policy: must be one of best, fixed, optimize; did you mean 'optimize'? (got 'optimise')"),
    ("attacker-charge-string", in_attacker('charge = "yes"'), "attackers[0].charge: must be true or false (got 'yes')"),
    ("attacker-charge-ranged", in_attacker("charge = true", RANGED_ONLY),
     "attackers[0].charge: a charge needs a melee weapon (got True)"),
    ("attacker-combined-zero", in_attacker("combined = 0"), "attackers[0].combined: must be between 1 and 10 (got 0)"),
    ("attacker-combined-list", in_attacker("combined = [2]"), "attackers[0].combined: must be an integer (got [2])"),
    ("attacker-models-zero", in_attacker("models = 0"), "attackers[0].models: must be between 1 and 20 (got 0)"),
    ("attacker-models-combined-more", in_attacker("models = 3\ncombined = 4"),
     "attackers[0].combined: a combined attack of the unit's models needs at most its 3 models (got 4)"),
    ("target-models-zero", in_target("models = 0"), "target.models: must be between 1 and 20 (got 0)"),
    ("target-models-string", in_target('models = "10"'), "target.models: must be an integer (got '10')"),
    ("target-models-power-field", in_target('models = 5\npower_field = "lethal"'),
     "target.power_field: a unit target (5 models) has no focus or fury to spend: power_field is for a "
     "single model (got 'lethal')"),
    ("target-models-focus", in_target("models = 5\nfocus = 2"),
     "target.focus: a unit target has no focus or fury to spend against damage (power_field is for a "
     "single model) (got 2)"),
    ("target-models-grid-fury", in_target('models = 2\nfury = 2\ngrid = ["..", "..", "..", "..", "..", ".."]'),
     "target.fury: a unit target has no focus or fury to spend against damage (power_field is for a "
     "single model) (got 2)"),
    ("attacker-buy-weapon-unknown", BASE + MELEE_SECOND_ATTACKER.replace('name = "Gunner"',
                                                                         'name = "Gunner"\nbuy_weapon = "Gun"'),
     "attackers[1].buy_weapon: must name one of its melee weapons: Fist (got 'Gun')"),
    ("attacker-buy-weapon-close", in_attacker('buy_weapon = "hammer"'),
     ("attackers[0].buy_weapon: must name one of its melee weapons: Fist, Hammer; did you mean 'Hammer'? "
     "(got 'hammer')")),
    ("attacker-name-twice", BASE + MELEE_SECOND_ATTACKER.replace('name = "Gunner"', 'name = "Jack"'),
     "attackers[1].name: two attackers have this name: figures are reported by name (got 'Jack')"),
    ("attacker-buy-weapon-int", in_attacker("buy_weapon = 1"), "attackers[0].buy_weapon: must be a string (got 1)"),
    ("attacker-side-no-colossal", in_attacker('side = "left"'),
     "attackers[0].side: says which grid of a colossal its damage goes to, and no target is a colossal "
     "(got 'left')"),
    ("attacker-controls-nobody", in_attacker('controls = ["Nobody"]\nmodel = "other"'),
     "attackers[0].controls[0]: names no attacker of the scenario: 'Jack' (got 'Nobody')"),
    ("attacker-keep-points-string", in_attacker('keep_points = "yes"'),
     "attackers[0].keep_points: must be true or false (got 'yes')"),
    ("attacker-cavalry-string", in_attacker('cavalry = "yes"'),
     "attackers[0].cavalry: must be true or false (got 'yes')"),
    ("attacker-keep-points-fixed", in_attacker('keep_points = true\npolicy = "fixed"'),
     'attackers[0].keep_points: orders the choices of best play: it needs policy = "best" '
     "(policy = 'fixed') (got True)"),
    ("attacker-buy-weapon-ranged", in_attacker('buy_weapon = "Fist"', RANGED_ONLY),
     ("attackers[0].buy_weapon: names a weapon to buy attacks with, but the attacker has no melee weapon "
     "(got 'Fist')")),
    ("attacker-spend-key-misplaced", in_attacker('boost_attack = "auto"'),
     "attackers[0].boost_attack: unknown key here; it belongs in the [attackers.spend] table (got 'auto')"),
    ("attacker-weapon-key-misplaced", in_attacker("skill = 7"),
     "attackers[0].skill: unknown key here; it belongs in the [[attackers.weapons]] table (got 7)"),
    ("attacker-damage-to-misplaced", in_attacker('damage_to = "L"'),
     "attackers[0].damage_to: unknown key here; it belongs in the [[attackers.weapons]] table (got 'L')"),
    # --- [[attackers]] model and crippled
    ("attacker-model-unknown", in_attacker('model = "solo"'),
     "attackers[0].model: must be one of warjack, warbeast, other (got 'solo')"),
    ("attacker-model-close", in_attacker('model = "Warbeast"'),
     "attackers[0].model: must be one of warjack, warbeast, other; did you mean 'warbeast'? (got 'Warbeast')"),
    ("attacker-model-bool", in_attacker("model = true"),
     "attackers[0].model: must be one of warjack, warbeast, other (got True)"),
    ("attacker-crippled-string", in_attacker('crippled = "L"'),
     "attackers[0].crippled: must be a list of system or aspect letters, e.g. ['L'] (got 'L')"),
    ("attacker-crippled-letters-string", in_attacker('crippled = "LR"'),
     "attackers[0].crippled: must be a list of system or aspect letters, e.g. ['L', 'R'] (got 'LR')"),
    ("attacker-crippled-bool", in_attacker("crippled = true"),
     ("attackers[0].crippled: must be a list of system or aspect letters, e.g. ['L']; a crippled weapon is "
      "crippled = true in [[attackers.weapons]] (got True)")),
    ("attacker-crippled-int", in_attacker("crippled = 2"),
     "attackers[0].crippled: must be a list of system or aspect letters (got 2)"),
    ("attacker-crippled-warjack-aspect", in_attacker('crippled = ["L", "B"]'),
     "attackers[0].crippled[1]: must be a system letter of ACGHMFLR (model = 'warjack') (got 'B')"),
    ("attacker-crippled-warjack-word", in_attacker('crippled = ["Left"]'),
     "attackers[0].crippled[0]: must be a system letter of ACGHMFLR (model = 'warjack') (got 'Left')"),
    ("attacker-crippled-warbeast-system", in_attacker('model = "warbeast"\ncrippled = ["L"]'),
     "attackers[0].crippled[0]: must be an aspect letter of BMS (model = 'warbeast') (got 'L')"),
    ("attacker-crippled-other", in_attacker('model = "other"\ncrippled = ["M"]'),
     ("attackers[0].crippled[0]: must be nothing: only warjacks and warbeasts have systems or aspects "
      "(model = 'other') (got 'M')")),
    ("attacker-crippled-not-string", in_attacker("crippled = [1]"),
     "attackers[0].crippled[0]: must be a system letter of ACGHMFLR (model = 'warjack') (got 1)"),
    ("attacker-charge-crippled-movement", in_attacker('charge = true\ncrippled = ["M"]'),
     "attackers[0].charge: a warjack with crippled Movement cannot charge (got True)"),
    ("attacker-charge-crippled-movement-second", BASE + MELEE_SECOND_ATTACKER.replace(
        'name = "Gunner"', 'name = "Gunner"\ncrippled = ["L", "M"]\ncharge = true'),
     "attackers[1].charge: a warjack with crippled Movement cannot charge (got True)"),
    # --- [attackers.spend]
    ("spend-not-table", in_attacker('spend = "auto"'),
     "attackers[0].spend: must be a table ([attackers.spend]) (got 'auto')"),
    ("spend-array-of-tables", sub('name = "Jack"\n', 'name = "Jack"\n\n[[attackers.spend]]\nreserve = 1\n'),
     "attackers[0].spend: must be a table ([attackers.spend]), not an array of tables (got [{'reserve': 1}])"),
    ("spend-unknown-key", in_spend('boosted_damage = "auto"'),
     "attackers[0].spend.boosted_damage: unknown key; did you mean 'boost_damage'? (got 'auto')"),
    ("spend-attacker-key-misplaced", in_spend("focus = 3"),
     "attackers[0].spend.focus: unknown key here; it belongs in the [[attackers]] table (got 3)"),
    ("spend-boost-attack-unknown", in_spend('boost_attack = "sometimes"'),
     "attackers[0].spend.boost_attack: must be one of never, always, auto (got 'sometimes')"),
    ("spend-boost-attack-bool", in_spend("boost_attack = true"),
     "attackers[0].spend.boost_attack: must be one of never, always, auto (got True)"),
    ("spend-boost-attack-at-high", in_spend("boost_attack_at = 14"),
     "attackers[0].spend.boost_attack_at: must be between 2 and 13 (got 14)"),
    ("spend-boost-attack-at-string", in_spend('boost_attack_at = "8+"'),
     "attackers[0].spend.boost_attack_at: must be an integer (got '8+')"),
    ("spend-boost-damage-close", in_spend('boost_damage = "Always"'),
     "attackers[0].spend.boost_damage: must be one of never, always, auto; did you mean 'always'? (got 'Always')"),
    ("spend-buy-attacks-int", in_spend("buy_attacks = 1"),
     "attackers[0].spend.buy_attacks: must be true or false (got 1)"),
    ("spend-reserve-high", in_spend("reserve = 11"), "attackers[0].spend.reserve: must be between 0 and 10 (got 11)"),
    ("spend-second-attacker", BASE + SECOND_ATTACKER.replace('name = "Gunner"\n',
                                                             'name = "Gunner"\n[attackers.spend]\nreserve = -1\n'),
     "attackers[1].spend.reserve: must be between 0 and 10 (got -1)"),
    # --- [[attackers.weapons]]
    ("weapon-attack-discard-unknown", in_weapon('attack_discard = "low"'),
     f"{W1}.attack_discard: must be one of none, lowest, highest, both; did you mean 'lowest'? (got 'low')"),
    ("weapon-damage-discard-list", in_weapon('damage_discard = ["lowest"]'),
     f"{W1}.damage_discard: must be one of none, lowest, highest, both (got ['lowest'])"),
    ("weapon-damage-discard-no-pow", sub("pow = 18", 'pow = "-"\ndamage_discard = "lowest"'),
     f'{W1}.damage_discard: needs a damage roll: the weapon has POW "-" (got \'lowest\')'),
    ("weapon-def-minus-high", in_weapon("def_minus = 11"), f"{W1}.def_minus: must be between 0 and 10 (got 11)"),
    ("weapon-arm-minus-string", in_weapon('arm_minus = "2"'), f"{W1}.arm_minus: must be an integer (got '2')"),
    ("weapon-effect-on-unknown", in_weapon('effect_on = "crit"'),
     f"{W1}.effect_on: must be one of hit, critical; did you mean 'critical'? (got 'crit')"),
    ("weapon-new-rule-close", in_weapon('rules = ["chain weapon"]'),
     f"{W1}.rules[0]: must be one of " + ", ".join(WEAPON_RULES) + "; did you mean 'chain_weapon'? "
     "(got 'chain weapon')"),
    ("weapon-new-rule-no-pow", sub("pow = 18", 'pow = "-"\nrules = ["decapitation"]'),
     f'{W1}.rules: needs a damage roll: the weapon has POW "-" (got \'decapitation\')'),
    ("weapon-attacker-key-misplaced", in_weapon("charge = true"),
     f"{W1}.charge: unknown key here; it belongs in the [[attackers]] table (got True)"),
    ("weapon-model-misplaced", in_weapon('model = "warjack"'),
     f"{W1}.model: unknown key here; it belongs in the [[attackers]] table (got 'warjack')"),
    ("weapon-crippled-letters", in_weapon('crippled = ["L"]'),
     (f"{W1}.crippled: must be true or false (a crippled weapon system); the attacker's crippled systems "
      "or aspects go in [[attackers]] as crippled = [...] (got ['L'])")),
    ("weapon-blast-on-melee", in_weapon("blast_pow = 6"),
     f"{W1}.blast_pow: is for area-of-effect ranged and arcane attacks (type is 'melee') (got 6)"),
    ("weapon-blast-models-alone", in_weapon("blast_models = 2"),
     f"{W1}.blast_models: needs blast_pow (an area-of-effect attack) (got 2)"),
    ("weapon-blast-on-miss-alone", in_weapon("blast_on_miss = 1"),
     f"{W1}.blast_on_miss: needs blast_pow (an area-of-effect attack) (got 1)"),
    ("weapon-blast-pow-high", in_attacker("", RANGED_ONLY).replace("pow = 18", "pow = 18\nblast_pow = 41"),
     f"{W1}.blast_pow: must be between 0 and 40 (got 41)"),
    ("weapon-cost-on-melee", in_weapon("cost = 2"),
     f"{W1}.cost: is for spells, arcane weapons (type is 'melee') (got 2)"),
    ("weapon-reload-on-melee", in_weapon("reload = 1"),
     f"{W1}.reload: is for ranged weapons (type is 'melee') (got 1)"),
    ("weapon-reload-negative", in_weapon("reload = -1"),
     f"{W1}.reload: must be between 0 and 20 (got -1)"),
    ("weapon-reload-word", in_weapon('reload = "lots"'),
     f'{W1}.reload: must be an integer 0 .. 20 or "unlimited" (got \'lots\')'),
    ("weapon-damage-to-unknown", in_weapon('damage_to = "Q"'),
     f"{W1}.damage_to: must be one of A, B, C, F, G, H, L, M, R, S (got 'Q')"),
    ("weapon-damage-to-lowercase", in_weapon('damage_to = "m"'),
     f"{W1}.damage_to: must be one of A, B, C, F, G, H, L, M, R, S; did you mean 'M'? (got 'm')"),
    ("weapon-damage-to-list", in_weapon('damage_to = ["L"]'),
     f"{W1}.damage_to: must be one of A, B, C, F, G, H, L, M, R, S (got ['L'])"),
    ("weapon-damage-to-no-pow", sub("pow = 18", 'pow = "-"\ndamage_to = "L"'),
     f'{W1}.damage_to: needs a damage roll: the weapon has POW "-" (got \'L\')'),
    ("weapon-damage-to-alias", in_weapon('target_system = "L"'),
     f"{W1}.target_system: unknown key; did you mean 'damage_to'? (got 'L')"),
    # --- [simulation] and [settings]
    ("simulation-objective-unknown", in_simulation('objective = "win"'),
     "simulation.objective: must be one of kill, damage, destroyed, cripple:X (got 'win')"),
    ("simulation-objective-int", in_simulation("objective = 1"),
     "simulation.objective: must be one of kill, damage, destroyed, cripple:X (got 1)"),
    ("simulation-objective-cripple-no-colon", in_simulation('objective = "cripple"'),
     "simulation.objective: must be one of kill, damage, destroyed, cripple:X; did you mean 'cripple:X'? (got 'cripple')"),
    ("simulation-objective-cripple-track", in_simulation('objective = "cripple:M"'),
     ("simulation.objective: the target's card has no system or aspect 'M' "
      "(it has none: the target has no grid or spiral) (got 'cripple:M')")),
    ("simulation-objective-cripple-not-on-grid", in_simulation('objective = "cripple:G"', with_grid()),
     ("simulation.objective: the target's card has no system or aspect 'G' "
      f"(it has {GRID_LETTERS_ON_CARD}) (got 'cripple:G')")),
    ("simulation-objective-cripple-aspect-on-grid", in_simulation('objective = "cripple:B"', with_grid()),
     ("simulation.objective: the target's card has no system or aspect 'B' "
      f"(it has {GRID_LETTERS_ON_CARD}) (got 'cripple:B')")),
    ("simulation-objective-cripple-system-on-spiral",
     in_simulation('objective = "cripple:L"', sub("boxes = 30", SPIRAL)),
     "simulation.objective: the target's card has no system or aspect 'L' (it has B, M, S) (got 'cripple:L')"),
    ("simulation-objective-cripple-lowercase", in_simulation('objective = "cripple:m"', with_grid()),
     ("simulation.objective: the target's card has no system or aspect 'm' "
      f"(it has {GRID_LETTERS_ON_CARD}); did you mean 'cripple:M'? (got 'cripple:m')")),
    ("simulation-objective-cripple-capital", in_simulation('objective = "Cripple:L"', with_grid()),
     ("simulation.objective: must be one of kill, damage, destroyed, cripple:X; did you mean 'cripple:L'? "
      "(got 'Cripple:L')")),
    ("simulation-objective-cripple-empty", in_simulation('objective = "cripple:"', with_grid()),
     ("simulation.objective: names no system or aspect: write cripple:X with X one of "
      f"{GRID_LETTERS_ON_CARD} (got 'cripple:')")),
    ("simulation-settings-key-misplaced", in_simulation('brutal_damage = "hit"'),
     "simulation.brutal_damage: unknown key here; it belongs in the [settings] table (got 'hit')"),
    ("settings-brutal-damage-unknown", in_settings('brutal_damage = "always"'),
     "settings.brutal_damage: must be one of critical, hit (got 'always')"),
    ("settings-brutal-damage-close", in_settings('brutal_damage = "crit"'),
     "settings.brutal_damage: must be one of critical, hit; did you mean 'critical'? (got 'crit')"),
    ("settings-not-table", "settings = 3\n" + BASE, "settings: must be a table ([settings]) (got 3)"),
    ("settings-unknown-key", in_settings("dice = 3"),
     "settings.dice: unknown key (allowed: " + ", ".join(SETTINGS_KEYS) + ") (got 3)"),
    ("settings-simulation-key-misplaced", in_settings('objective = "damage"'),
     "settings.objective: unknown key here; it belongs in the [simulation] table (got 'damage')"),
    ("top-level-settings-key", 'brutal_damage = "hit"\n' + BASE,
     "brutal_damage: unknown key here; it belongs in the [settings] table (got 'hit')"),
    ("top-level-settings-typo", "[setting]\nbrutal_damage = 'hit'\n" + BASE,
     "setting: unknown key; did you mean 'settings'? (got {'brutal_damage': 'hit'})"),
    # --- several turns: [simulation] turns and attack_turns
    ("simulation-turns-zero", in_simulation("turns = 0"), "simulation.turns: must be between 1 and 20 (got 0)"),
    ("simulation-turns-high", in_simulation("turns = 21"), "simulation.turns: must be between 1 and 20 (got 21)"),
    ("simulation-turns-string", in_simulation('turns = "3"'), "simulation.turns: must be an integer (got '3')"),
    ("simulation-turns-float", in_simulation("turns = 3.0"), "simulation.turns: must be an integer (got 3.0)"),
    ("simulation-turns-bool", in_simulation("turns = true"), "simulation.turns: must be an integer (got True)"),
    ("simulation-attack-turns-unknown", in_simulation('attack_turns = "once"'),
     "simulation.attack_turns: must be one of all, first (got 'once')"),
    ("simulation-attack-turns-close", in_simulation('attack_turns = "frist"'),
     "simulation.attack_turns: must be one of all, first; did you mean 'first'? (got 'frist')"),
    ("simulation-attack-turns-capital", in_simulation('turns = 3\nattack_turns = "First"'),
     "simulation.attack_turns: must be one of all, first; did you mean 'first'? (got 'First')"),
    ("simulation-attack-turns-int", in_simulation("attack_turns = 1"),
     "simulation.attack_turns: must be one of all, first (got 1)"),
    ("simulation-attack-turns-list", in_simulation('attack_turns = ["first"]'),
     "simulation.attack_turns: must be one of all, first (got ['first'])"),
    ("simulation-turns-alias", in_simulation("rounds = 3"),
     "simulation.rounds: unknown key; did you mean 'turns'? (got 3)"),
    ("simulation-attack-turns-typo", in_simulation('attack_turn = "first"'),
     "simulation.attack_turn: unknown key; did you mean 'attack_turns'? (got 'first')"),
    ("top-level-turns", "turns = 3\n" + BASE,
     "turns: unknown key here; it belongs in the [simulation] table (got 3)"),
    ("settings-turns-misplaced", in_settings("turns = 3"),
     "settings.turns: unknown key here; it belongs in the [simulation] table (got 3)"),
    ("target-turns-misplaced", in_target("turns = 3"),
     "target.turns: unknown key here; it belongs in the [simulation] table (got 3)"),
    ("attacker-attack-turns-misplaced", in_attacker('attack_turns = "first"'),
     "attackers[0].attack_turns: unknown key here; it belongs in the [simulation] table (got 'first')"),
    # --- continuous effects: [target] effects
    ("target-effects-unknown", in_target('effects = ["acid"]'),
     "target.effects[0]: must be one of fire, corrosion (got 'acid')"),
    ("target-effects-second-unknown", in_target('effects = ["fire", "burning"]'),
     "target.effects[1]: must be one of fire, corrosion (got 'burning')"),
    ("target-effects-close", in_target('effects = ["corrosive"]'),
     "target.effects[0]: must be one of fire, corrosion; did you mean 'corrosion'? (got 'corrosive')"),
    ("target-effects-capital", in_target('effects = ["Fire"]'),
     "target.effects[0]: must be one of fire, corrosion; did you mean 'fire'? (got 'Fire')"),
    ("target-effects-string", in_target('effects = "fire"'),
     "target.effects: must be a list of strings, e.g. ['fire'] (got 'fire')"),
    ("target-effects-table", in_target("effects = {fire = true}"),
     "target.effects: must be a list of strings (got {'fire': True})"),
    ("target-effects-not-string", in_target("effects = [1]"), "target.effects[0]: must be a string (got 1)"),
    ("target-effects-hazard", in_target('effects = ["acid_bath"]'),
     "target.effects[0]: must be one of fire, corrosion; acid_bath is a hazard: it goes in target.terrain "
     "(got 'acid_bath')"),
    ("target-effects-resisted", in_target('resist = ["fire"]\neffects = ["fire"]'),
     "target.effects: a fire-resistant target never suffers it (got 'fire')"),
    ("target-effects-resisted-corrosion", in_target('resist = ["corrosion", "cold"]\neffects = ["fire", "corrosion"]'),
     "target.effects: a corrosion-resistant target never suffers it (got 'corrosion')"),
    ("target-effects-alias", in_target('effect = ["fire"]'),
     "target.effect: unknown key; did you mean 'effects'? (got ['fire'])"),
    ("target-effects-long-alias", in_target('continuous_effects = ["fire"]'),
     "target.continuous_effects: unknown key; did you mean 'effects'? (got ['fire'])"),
    # --- hazards: [target] terrain
    ("target-terrain-hazard-close", in_target('terrain = ["acid bath"]'),
     f"target.terrain[0]: must be one of {TERRAIN_NAMES}; did you mean 'acid_bath'? (got 'acid bath')"),
    ("target-terrain-quicksand-typo", in_target('terrain = ["forest", "quick_sand"]'),
     f"target.terrain[1]: must be one of {TERRAIN_NAMES}; did you mean 'quicksand'? (got 'quick_sand')"),
    ("target-terrain-burning-ground", in_target('terrain = ["burning_ground"]'),
     f"target.terrain[0]: must be one of {TERRAIN_NAMES}; did you mean 'burning_earth'? (got 'burning_ground')"),
    ("target-terrain-effect", in_target('terrain = ["fire"]'),
     f"target.terrain[0]: must be one of {TERRAIN_NAMES}; fire is a continuous effect: it goes in "
     "target.effects (got 'fire')"),
    ("target-state-hazard", in_target('state = ["quicksand"]'),
     f"target.state[0]: must be one of {STATE_NAMES}; quicksand is a hazard: it goes in target.terrain "
     "(got 'quicksand')"),
    ("target-state-terrain", in_target('state = ["forest"]'),
     f"target.state[0]: must be one of {STATE_NAMES}; forest is terrain: it goes in target.terrain (got 'forest')"),
    ("target-state-effect", in_target('state = ["cover", "corrosion"]'),
     f"target.state[1]: must be one of {STATE_NAMES}; corrosion is a continuous effect: it goes in "
     "target.effects (got 'corrosion')"),
    ("target-hazards-key", in_target('hazards = ["acid_bath"]'),
     "target.hazards: unknown key; did you mean 'terrain'? (got ['acid_bath'])"),
    # --- weapon rules fire, corrosion, critical_fire, critical_corrosion
    ("weapon-rule-critical-fire-close", in_weapon('rules = ["critical fire"]'),
     f"{W1}.rules[0]: must be one of " + ", ".join(WEAPON_RULES) + "; did you mean 'critical_fire'? "
     "(got 'critical fire')"),
    ("weapon-rule-crit-corrosion", in_weapon('rules = ["knockdown", "crit_corrosion"]'),
     f"{W1}.rules[1]: must be one of " + ", ".join(WEAPON_RULES) + "; did you mean 'critical_corrosion'? "
     "(got 'crit_corrosion')"),
    ("weapon-rule-corrosive", in_weapon('rules = ["corrosive"]'),
     f"{W1}.rules[0]: must be one of " + ", ".join(WEAPON_RULES) + "; did you mean 'corrosion'? "
     "(got 'corrosive')"),
    ("weapon-effects-key", in_weapon('effects = ["fire"]'),
     f"{W1}.effects: unknown key; did you mean 'rules'? (got ['fire'])"),
    ("target-feat-def-string", in_target('feat_def = "2"'), "target.feat_def: must be an integer (got '2')"),
    ("target-feat-arm-negative", in_target("feat_arm = -1"),
     "target.feat_arm: must be between 0 and 10 (got -1)"),
    ("target-tough-on-without-tough", in_target("tough_on = 4"),
     "target.tough_on: is the roll Tough needs: give rules = [\"tough\"] (or \"tough_steady\") (got 4)"),
    ("weapon-auto-hit-string", in_weapon('auto_hit = "yes"'),
     f"{W1}.auto_hit: must be true or false (got 'yes')"),
    ("settings-reading-not-bool", in_settings('crit_counts_discarded = "yes"'),
     "settings.crit_counts_discarded: must be true or false (got 'yes')"),
    ("settings-reading-number", in_settings("knockdown_before_tough = 1"),
     "settings.knockdown_before_tough: must be true or false (got 1)"),
    ("weapon-exclusive-rules", in_weapon('rules = ["decapitation", "decapitation_on_hit"]'),
     f"{W1}.rules: cannot be given with 'decapitation' (the same rule on a critical hit only and on any "
     "hit) (got 'decapitation_on_hit')"),
    ("weapon-sanguine-fate-auto-hit", in_weapon('rules = ["sanguine_fate"]\nauto_hit = true'),
     f"{W1}.rules: needs an attack roll: the weapon has auto_hit (got 'sanguine_fate')"),
    # --- power attacks (docs/rules.md 5)
    ("weapon-power-attack-unknown", in_weapon('power_attack = "throw"'),
     f"{W1}.power_attack: must be one of headbutt, slam (got 'throw')"),
    ("weapon-slam-contact-alone", in_weapon("slam_contact = true"),
     f'{W1}.slam_contact: is for a slam (power_attack = "slam") (got True)'),
    ("weapon-collateral-alone", in_weapon('collateral = "Heavy warjack"'),
     f'{W1}.collateral: is for a slam (power_attack = "slam") (got \'Heavy warjack\')'),
    ("attacker-side-unknown", in_attacker('side = "back"'),
     "attackers[0].side: must be one of random, left, right (got 'back')"),
    ("attacker-base-unknown", in_attacker('base = "giant"'),
     "attackers[0].base: must be one of small, medium, large, extra_large, huge (got 'giant')"),
    ("weapon-power-attack-without-base", in_weapon('power_attack = "headbutt"'),
     "attackers[0].base: a power attack ('Hammer') needs the attacker's base size: small, medium, large, "
     "extra_large, huge (got None)"),
    ("weapon-power-attack-unpaid", in_attacker('base = "large"', in_weapon('power_attack = "slam"')),
     "attackers[0].weapons: a warjack spends 1 focus to make a power attack: it has no point to pay with "
     "(got 'Hammer')"),
    ("weapon-discard-both-typo", in_weapon('attack_discard = "bothh"'),
     f"{W1}.attack_discard: must be one of none, lowest, highest, both; did you mean 'both'? (got 'bothh')"),
    # --- several targets: target / targets on attackers and weapons (docs/units.md)
    ("attacker-target-unknown", in_attacker('target = "Caster"'),
     "attackers[0].target: names no target: the targets are 'Heavy warjack' (got 'Caster')"),
    ("attacker-targets-string", in_attacker('targets = "Caster"'),
     "attackers[0].targets: must be a list of names (got 'Caster')"),
    ("attacker-targets-twice", in_attacker('targets = ["Heavy warjack", "Heavy warjack"]'),
     "attackers[0].targets[1]: is named twice (got 'Heavy warjack')"),
    ("weapon-target-number", in_weapon("target = 3"),
     f"{W1}.target: must be the name of a target; several in order are targets = [...] (got 3)"),
    ("weapon-targets-unknown", in_weapon('targets = ["Heavy warjack", "Caster"]'),
     f"{W1}.targets[1]: names no target: the targets are 'Heavy warjack' (got 'Caster')"),
    ("weapon-target-and-targets", in_weapon('target = "Heavy warjack"\ntargets = ["Heavy warjack"]'),
     f"{W1}.target: give target (one) or targets (the first still standing), not both "
     "(got 'Heavy warjack')"),
    ("targets-and-target", BASE + '\n[[targets]]\nname = "Solo"\ndef = 14\narm = 14\n',
     "targets: give [target] (one target) or [[targets]] (several), not both (got '[[targets]]')"),
    ("targets-no-name", BASE.replace("[target]", "[[targets]]").replace('name = "Heavy warjack"\n', ""),
     "targets[0].name: each of several targets needs a name (attacks and figures name them)"),
    ("targets-same-name", BASE.replace("[target]", "[[targets]]")
     + '\n[[targets]]\nname = "Heavy warjack"\ndef = 14\narm = 14\n',
     "targets[1].name: two targets have this name: attacks and figures name them (got 'Heavy warjack')"),
    ("targets-two-cards", BASE.replace("[target]", '[[targets]]\ncard = "heavy_warjack"')
     .replace("def = 12\narm = 18\nboxes = 30\n", "")
     + '\n[[targets]]\nname = "Other"\ncard = "heavy_warjack"\n',
     "targets[1]: at most one of several targets has a damage grid or life spiral (also 'Heavy warjack') "
     "(got 'Other')"),
    ("targets-hazards", BASE.replace("[target]", "[[targets]]")
     + '\n[[targets]]\nname = "Solo"\ndef = 14\narm = 14\nterrain = ["acid_bath"]\n',
     "targets[1].terrain: hazards are modelled for a single target (not yet with several) (got ['acid_bath'])"),
    ("targets-unit-power-field", BASE.replace("[target]", "[[targets]]")
     + '\n[[targets]]\nname = "Unit"\ndef = 14\narm = 14\nmodels = 3\npower_field = "never"\n',
     "targets[1].power_field: a unit target (3 models) has no focus or fury to spend: power_field is "
     "for a single model (got 'never')"),
]

assert len({c[0] for c in EXACT_CASES}) == len(EXACT_CASES)


@pytest.mark.parametrize("text, message", [c[1:] for c in EXACT_CASES], ids=[c[0] for c in EXACT_CASES])
def test_invalid_later_key(tmp_path, text, message):
    path = write(tmp_path, text)
    assert load_error(path) == f"{path}: {message}"


def test_every_later_key_has_an_error_case():
    keys = set()
    for _, _, message in EXACT_CASES:
        key = message.split(": ", 1)[0]
        keys.add(re.sub(r"\[\d+\]", "", key))
    expected = {f"target.{k}" for k in TARGET_KEYS[TARGET_KEYS.index("terrain"):]}
    expected |= {f"attackers.{k}" for k in ATTACKER_KEYS if k not in ("name", "weapons")}
    expected |= {f"attackers.spend.{k}" for k in SPEND_KEYS}
    expected |= {f"attackers.weapons.{k}" for k in WEAPON_KEYS[WEAPON_KEYS.index("attack_discard"):]}
    expected |= {"simulation.objective", "simulation.turns", "simulation.attack_turns", "settings.brutal_damage",
                 "settings", "targets", "targets.name"}
    assert expected <= keys, expected - keys


def test_task_message_examples(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, in_target("focus = 11"), "x.toml")
    assert load_error("x.toml") == "x.toml: target.focus: must be between 0 and 10 (got 11)"
    write(tmp_path, BASE + MELEE_SECOND_ATTACKER.replace('name = "Gunner"', 'name = "Gunner"\nbuy_weapon = "Gun"'),
          "x.toml")
    assert load_error("x.toml") == "x.toml: attackers[1].buy_weapon: must name one of its melee weapons: Fist (got 'Gun')"
    write(tmp_path, in_spend('boost_attack = "maybe"'), "x.toml")
    assert load_error("x.toml") == (
        "x.toml: attackers[0].spend.boost_attack: must be one of never, always, auto (got 'maybe')")


def test_continuous_message_examples(tmp_path, monkeypatch):
    """The messages the format promises for the keys of several turns, effects and hazards."""
    monkeypatch.chdir(tmp_path)
    for text, message in [
        (in_simulation("turns = 0"), "x.toml: simulation.turns: must be between 1 and 20 (got 0)"),
        (in_simulation('attack_turns = "frist"'),
         "x.toml: simulation.attack_turns: must be one of all, first; did you mean 'first'? (got 'frist')"),
        (in_target('effects = ["acid"]'), "x.toml: target.effects[0]: must be one of fire, corrosion (got 'acid')"),
        (in_target('resist = ["fire"]\neffects = ["fire"]'),
         "x.toml: target.effects: a fire-resistant target never suffers it (got 'fire')"),
    ]:
        write(tmp_path, text, "x.toml")
        assert load_error("x.toml") == message


def test_continuous_keys_valid_in_base(tmp_path):
    """The keys the continuous cases above break, with valid values, load."""
    text = in_simulation('turns = 3\nattack_turns = "first"')
    text = sub("boxes = 30", 'boxes = 30\nresist = ["cold"]\neffects = ["fire", "corrosion"]\n'
                             'terrain = ["forest", "acid_bath", "burning_earth", "quicksand"]\nstate = ["cover"]', text)
    text = sub("pow = 18", 'pow = 18\nrules = ["fire", "corrosion", "critical_fire", "critical_corrosion"]', text)
    scen = load_scenario(write(tmp_path, text))
    assert (scen.turns, scen.attack_turns) == (3, "first")
    assert scen.target.effects == {"fire", "corrosion"} and scen.target.hazards == set(HAZARDS)
    assert scen.attackers[0].weapons[1].sets_effects(False) == {"fire", "corrosion"}


def test_continuous_error_order(tmp_path):
    """[simulation] is checked first; within [target], the lists in key order (terrain before
    effects), and a resisted starting effect once every list is valid."""
    broken_target = in_target('resist = ["fire"]\neffects = ["fire"]\nterrain = ["swamp"]')
    path = write(tmp_path, in_simulation("turns = 0", broken_target))
    assert load_error(path) == f"{path}: simulation.turns: must be between 1 and 20 (got 0)"
    path = write(tmp_path, broken_target)
    assert load_error(path).startswith(f"{path}: target.terrain[0]: must be one of")
    path = write(tmp_path, in_target('resist = ["fire"]\neffects = ["fire", "acid"]'))
    assert load_error(path) == f"{path}: target.effects[1]: must be one of fire, corrosion (got 'acid')"
    path = write(tmp_path, in_simulation('attack_turns = "never"', sub("skill = 7\npow = 16", "skill = 99\npow = 16")))
    assert load_error(path) == f"{path}: simulation.attack_turns: must be one of all, first (got 'never')"


def test_later_keys_valid_in_base(tmp_path):
    """Every table the cases above break, filled with valid values, loads."""
    text = in_settings('brutal_damage = "hit"')
    text = sub("seed = 1", 'seed = 1\nobjective = "damage"', text)
    text = sub("boxes = 30", 'boxes = 30\nterrain = ["rubble"]\nrules = ["tough"]\nshield = ["L"]\n'
                             'buckler = ["R"]\nupkeep_def = 1\nupkeep_arm = 1\nspell_def = 1\nspell_arm = 1\n'
                             'focus = 2\npower_field = "never"\nrapid_healing = 1', text)
    text = sub('name = "Jack"\n', 'name = "Jack"\nfocus = 3\npolicy = "fixed"\ncharge = true\ncombined = 2\n'
                                  'buy_weapon = "Hammer"\n[attackers.spend]\nboost_attack = "never"\n'
                                  'boost_attack_at = 9\nboost_damage = "always"\nbuy_attacks = true\nreserve = 1\n',
               text)
    text = sub("pow = 18", 'pow = 18\nattack_discard = "highest"\ndamage_discard = "lowest"\ndef_minus = 1\n'
                           'arm_minus = 2\neffect_on = "critical"\nrules = ["blessed", "chain_weapon"]', text)
    scen = load_scenario(write(tmp_path, text))
    assert scen.brutal_damage == "hit" and scen.objective == "damage"
    assert scen.attackers[0].bought_weapon.name == "Hammer"
    assert scen.attackers[0].weapons[1].rules == {"blessed", "chain_weapon"}


def test_shield_location_twice_is_rejected(tmp_path):
    """A location carries one Shield at most: listing it twice is an error, not +4 ARM."""
    import pytest

    from mathhammer.scenario import ScenarioFileError, load_scenario

    p = tmp_path / "x.toml"
    p.write_text('[target]\ndef = 12\narm = 18\nshield = ["L", "L"]\n'
                 '[[attackers]]\n[[attackers.weapons]]\nname = "Fist"\ntype = "melee"\n'
                 'skill = 7\npow = 12\n')
    with pytest.raises(ScenarioFileError) as err:
        load_scenario(p)
    assert str(err.value) == (f"{p}: target.shield: a location carries one of them at most "
                              "(got ['L', 'L'])")


def test_card_keys_valid_in_base(tmp_path):
    """The grid, spiral, model, crippled, damage_to and cripple:X keys the cases above break,
    with valid values, load."""
    text = in_simulation('objective = "cripple:L"', with_grid())
    text = sub('name = "Jack"\n', 'name = "Jack"\nmodel = "warjack"\ncrippled = ["R", "C"]\ncharge = true\n', text)
    text = sub("pow = 18", 'pow = 18\ndamage_to = "L"', text)
    scen = load_scenario(write(tmp_path, text))
    assert scen.objective == "cripple:L"
    assert scen.target.grid == ("...L.", "..LLM", "..HCM", "..HCM", "..RRM", "...R.") and scen.target.boxes == 30
    a = scen.attackers[0]
    assert (a.model, a.crippled, a.charge) == ("warjack", frozenset({"R", "C"}), True)
    assert a.weapons[1].damage_to == "L"
    spiral = in_simulation('objective = "cripple:S"', sub("boxes = 30", SPIRAL))
    spiral = sub('name = "Jack"\n', 'name = "Jack"\nmodel = "warbeast"\ncrippled = ["M"]\ncharge = true\n',
                 spiral)
    scen = load_scenario(write(tmp_path, spiral))
    assert scen.target.capacity == "spiral" and scen.attackers[0].crippled == {"M"}  # Mind: it may charge


def test_objective_error_order(tmp_path):
    """kill | damage is checked with [simulation], before the target; cripple:X needs the
    target's card, so a broken target is reported first, and the objective before the attackers."""
    broken_target = sub("def = 12", "def = -1")
    path = write(tmp_path, in_simulation('objective = "win"', broken_target))
    assert load_error(path) == f"{path}: simulation.objective: must be one of kill, damage, destroyed, cripple:X (got 'win')"
    path = write(tmp_path, in_simulation('objective = "cripple:Q"', broken_target))
    assert load_error(path) == f"{path}: target.def: must be between 0 and 40 (got -1)"
    broken_attacker = with_grid(sub("skill = 7\npow = 16", "skill = 99\npow = 16"))
    path = write(tmp_path, in_simulation('objective = "cripple:Q"', broken_attacker))
    assert load_error(path).startswith(f"{path}: simulation.objective: the target's card has no system or aspect 'Q'")
