"""Scenario files: the TOML contract parses to the right rules objects."""

from __future__ import annotations

import tomllib
from importlib.resources import files
from pathlib import Path

import pytest

from mathhammer import Attacker, Scenario, Target, Weapon, load_scenario, scenario_from_dict
from mathhammer.rules.scenario import DEFAULT_TRIALS
from mathhammer.scenario import ScenarioFileError, loads_scenario, scenario_to_dict

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((REPO / "examples").glob("*.toml"))

CONTRACT = """
[simulation]
trials = 1000000          # default if absent: 1_000_000
seed = 1                  # absent: a random seed is drawn at simulation time and reported
[target]
name = "Heavy warjack"
def = 12
arm = 18
boxes = 30                # damage track; absent = 1 box
base = "large"            # small | medium | large | extra_large | huge; default medium
resist = ["fire"]         # damage types resisted
state = ["knocked_down"]
[[attackers]]
name = "Heavy warjack"
[[attackers.weapons]]
name = "Fist"
type = "melee"            # melee | ranged | arcane
skill = 7                 # MAT for melee, RAT for ranged and arcane
pow = 16                  # integer, or "-"
attacks = 1               # initial attacks (ROF for ranged)
boosted_attack = false
boosted_damage = false
damage_type = []          # e.g. ["fire"]
rules = []                # e.g. ["knockdown", "critical_knockdown"]
"""

MINIMAL = """
[target]
def = 12
arm = 18

[[attackers]]
name = "Jack"

[[attackers.weapons]]
name = "Fist"
type = "melee"
skill = 7
pow = 16
"""


def write(tmp_path: Path, text: str, name: str = "scenario.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_contract_example_parses(tmp_path):
    scen = load_scenario(write(tmp_path, CONTRACT))
    expected = Scenario(
        Target(
            defense=12,
            arm=18,
            boxes=30,
            name="Heavy warjack",
            base="large",
            resist=frozenset({"fire"}),
            state=frozenset({"knocked_down"}),
        ),
        (Attacker("Heavy warjack", (Weapon("Fist", "melee", skill=7, pow=16, attacks=1),)),),
        trials=1_000_000,
        seed=1,
    )
    assert scen == expected
    assert isinstance(scen.target.resist, frozenset)
    assert isinstance(scen.attackers, tuple)
    assert isinstance(scen.attackers[0].weapons, tuple)


def test_load_scenario_accepts_str_path(tmp_path):
    path = write(tmp_path, CONTRACT)
    assert load_scenario(str(path)) == load_scenario(path)


def test_defaults(tmp_path):
    scen = load_scenario(write(tmp_path, MINIMAL))
    assert scen.trials == DEFAULT_TRIALS == 1_000_000
    assert scen.seed is None
    t = scen.target
    assert (t.defense, t.arm, t.boxes, t.base, t.name) == (12, 18, 1, "medium", "Target")
    assert t.resist == frozenset() and t.state == frozenset()
    w = scen.attackers[0].weapons[0]
    assert w == Weapon("Fist", "melee", 7, 16)
    assert (w.attacks, w.boosted_attack, w.boosted_damage, w.crippled, w.location) == (1, False, False, False, None)
    assert (w.extra_attack_dice, w.extra_damage_dice) == (0, 0)


def test_simulation_table_partial(tmp_path):
    scen = load_scenario(write(tmp_path, "[simulation]\nseed = 5\n" + MINIMAL))
    assert (scen.trials, scen.seed) == (DEFAULT_TRIALS, 5)
    scen = load_scenario(write(tmp_path, "[simulation]\ntrials = 1_000\n" + MINIMAL))
    assert (scen.trials, scen.seed) == (1000, None)


def test_attacker_name_defaults_to_its_position(tmp_path):
    text = MINIMAL.replace('name = "Jack"\n', "")
    scen = load_scenario(write(tmp_path, text))
    assert scen.attackers[0].name == "Attacker 1"


@pytest.mark.parametrize("pow_text", ['"-"', '" - "'])
def test_pow_dash_is_none(tmp_path, pow_text):
    scen = load_scenario(write(tmp_path, MINIMAL.replace("pow = 16", f"pow = {pow_text}")))
    w = scen.attackers[0].weapons[0]
    assert w.pow is None
    assert not w.deals_damage


def test_every_weapon_key(tmp_path):
    text = MINIMAL.replace(
        "pow = 16",
        """pow = 16
attacks = 3
boosted_attack = true
boosted_damage = true
damage_type = ["fire", "corrosion"]
rules = ["knockdown", "critical_knockdown"]
extra_attack_dice = -1
extra_damage_dice = 2
crippled = true
location = "R"
""",
    )
    w = load_scenario(write(tmp_path, text)).attackers[0].weapons[0]
    assert w == Weapon(
        "Fist", "melee", 7, 16, attacks=3, boosted_attack=True, boosted_damage=True,
        damage_type=frozenset({"fire", "corrosion"}),
        rules=frozenset({"knockdown", "critical_knockdown"}),
        extra_attack_dice=-1, extra_damage_dice=2, crippled=True, location="R",
    )


def test_several_attackers_and_weapons_keep_their_order(tmp_path):
    text = """
[target]
def = 14
arm = 13
boxes = 5
base = "small"
state = ["cover", "elevated"]

[[attackers]]
name = "Gunner"
[[attackers.weapons]]
name = "Chain gun"
type = "ranged"
skill = 5
pow = 12
attacks = 3
[[attackers.weapons]]
name = "Pistol"
type = "ranged"
skill = 5
pow = 10

[[attackers]]
name = "Caster"
[[attackers.weapons]]
name = "Bolt"
type = "arcane"
skill = 7
pow = 12
damage_type = ["electrical"]
"""
    scen = load_scenario(write(tmp_path, text))
    assert [a.name for a in scen.attackers] == ["Gunner", "Caster"]
    assert [w.name for w in scen.attackers[0].weapons] == ["Chain gun", "Pistol"]
    assert [s.label for s in scen.attack_sequence()] == [
        "Gunner / Chain gun #1", "Gunner / Chain gun #2", "Gunner / Chain gun #3",
        "Gunner / Pistol #1", "Caster / Bolt #1",
    ]
    assert scen.target.state == {"cover", "elevated"}
    assert scen.attackers[1].weapons[0].damage_types == {"electrical", "magical"}


def test_duplicate_names_in_lists_are_merged(tmp_path):
    text = MINIMAL.replace("arm = 18", 'arm = 18\nresist = ["fire", "fire"]')
    assert load_scenario(write(tmp_path, text)).target.resist == {"fire"}


def test_scenario_from_dict_matches_file(tmp_path):
    path = write(tmp_path, CONTRACT)
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    assert scenario_from_dict(data) == load_scenario(path)
    assert loads_scenario(CONTRACT) == load_scenario(path)


def test_scenario_from_dict_names_its_source():
    with pytest.raises(ScenarioFileError) as info:
        scenario_from_dict({"target": {"def": 12, "arm": 18}}, source="mine")
    assert str(info.value) == "mine: attackers: required key is missing"
    with pytest.raises(ScenarioFileError) as info:
        scenario_from_dict({"target": {"def": 12, "arm": 18}})
    assert str(info.value).startswith("<dict>: attackers:")


def test_scenario_file_error_is_an_input_error():
    from mathhammer.errors import InputError, MathhammerError

    err = ScenarioFileError("x.toml", "target.def", 45, "must be between 0 and 40")
    assert isinstance(err, InputError) and isinstance(err, MathhammerError)
    assert isinstance(err, ValueError)
    assert (err.source, err.key, err.value, err.reason) == ("x.toml", "target.def", 45, "must be between 0 and 40")
    assert str(err) == "x.toml: target.def: must be between 0 and 40 (got 45)"
    assert str(err.under("outer")) == "x.toml: outer.target.def: must be between 0 and 40 (got 45)"


# ------------------------------------------------------------------------ round trip
def _round_trip(scen: Scenario) -> Scenario:
    return scenario_from_dict(scenario_to_dict(scen))


@pytest.mark.parametrize("text", [CONTRACT, MINIMAL], ids=["contract", "minimal"])
def test_round_trip_text(tmp_path, text):
    scen = load_scenario(write(tmp_path, text))
    assert _round_trip(scen) == scen


def test_round_trip_every_field():
    scen = Scenario(
        Target(13, 15, 20, name="T", base="huge", resist={"cold", "magical"}, state={"stationary", "obstacle"}),
        [
            Attacker("A", [Weapon("W1", "melee", 6, None, attacks=0), Weapon("W2", "melee", 8, 20, attacks=2,
                                                                             boosted_attack=True, crippled=True,
                                                                             location="H", rules={"knockdown"})]),
            Attacker("B", [Weapon("Spell", "arcane", 7, 13, damage_type={"fire"}, boosted_damage=True,
                                  extra_attack_dice=1, extra_damage_dice=-2)]),
        ],
        trials=12345,
        seed=2**62,
    )
    assert _round_trip(scen) == scen
    d = scenario_to_dict(scen)
    assert d["attackers"][0]["weapons"][0]["pow"] == "-"
    assert d["target"]["def"] == 13
    assert "location" not in d["attackers"][1]["weapons"][0]


def test_round_trip_without_seed_omits_it():
    scen = load_scenario_from_text(MINIMAL)
    d = scenario_to_dict(scen)
    assert "seed" not in d["simulation"]
    assert _round_trip(scen) == scen


def load_scenario_from_text(text: str) -> Scenario:
    return loads_scenario(text, "inline.toml")


# ------------------------------------------------------------------------ bundled files
def test_bundled_demo_loads():
    text = files("mathhammer").joinpath("data").joinpath("demo.toml").read_text(encoding="utf-8")
    scen = loads_scenario(text, "demo.toml")
    assert scen.trials == 1_000_000 and scen.seed == 1
    assert len(scen.attackers) == 2
    assert scen.target.defense == 12 and scen.target.arm == 18 and scen.target.boxes == 30
    assert _round_trip(scen) == scen


def test_examples_exist():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_examples_load(path):
    scen = load_scenario(path)
    assert scen.n_attacks >= 1
    assert _round_trip(scen) == scen
