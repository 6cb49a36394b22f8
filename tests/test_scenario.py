"""Scenario files: the TOML contract parses to the right rules objects."""

from __future__ import annotations

import json
import tomllib
from importlib.resources import files
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mathhammer.scenario as scenario_module
from mathhammer import (
    Attacker,
    Scenario,
    Spend,
    Target,
    Weapon,
    load_scenario,
    scenario_from_dict,
)
from mathhammer.errors import InputError
from mathhammer.rules.scenario import DEFAULT_TRIALS
from mathhammer.rules.vocabulary import (
    ATTACK_TYPES,
    BASE_SIZES,
    BOOST_MODES,
    BRUTAL_DAMAGE_ON,
    DAMAGE_TYPES,
    DISCARDS,
    EFFECT_TRIGGERS,
    OBJECTIVES,
    POWER_FIELD_POLICIES,
    TARGET_RULES,
    TARGET_STATES,
    TERRAIN,
    WEAPON_LOCATIONS,
    WEAPON_RULES,
)
from mathhammer.scenario import (
    ATTACKER_KEYS,
    SETTINGS_KEYS,
    SIMULATION_KEYS,
    SPEND_KEYS,
    TARGET_KEYS,
    TOP_KEYS,
    WEAPON_KEYS,
    ScenarioFileError,
    loads_scenario,
    scenario_to_dict,
)

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


def test_new_examples_load():
    jack = load_scenario(REPO / "examples" / "heavy_warjack_focus.toml")
    (attacker,) = jack.attackers
    assert attacker.focus == 3
    assert sum(w.attacks for w in attacker.weapons if w.name.endswith("fist")) == 2
    assert attacker.spend.buy_attacks and attacker.max_bought == 3
    assert attacker.bought_weapon.name == attacker.buy_weapon
    assert jack.target.boxes == 30 and jack.target.shield
    caster = load_scenario(REPO / "examples" / "warcaster_power_field.toml")
    assert len(caster.attackers) >= 2
    t = caster.target
    assert t.focus > 0 and t.power_field == "lethal"
    assert "tough" in t.rules and "forest" in t.terrain


# ------------------------------------------------------------------------ the later keys
def _in_table(table: str, line: str, text: str = MINIMAL) -> str:
    """``text`` with ``line`` added to one of its tables (created when absent)."""
    if table == "simulation":
        return "[simulation]\n" + line + "\n" + text
    if table == "settings":
        return "[settings]\n" + line + "\n" + text
    anchor = {"target": "arm = 18", "attacker": 'name = "Jack"', "weapon": "pow = 16",
              "spend": 'name = "Jack"\n[attackers.spend]'}[table]
    old = anchor.split("\n")[0]
    assert text.count(old) == 1
    return text.replace(old, anchor + "\n" + line)


def _target(s):
    return s.target


def _attacker(s):
    return s.attackers[0]


def _weapon(s):
    return s.attackers[0].weapons[0]


# (id, table, line, what to read from the scenario, expected value)
NEW_KEYS = [
    ("target-terrain", "target", 'terrain = ["forest", "hill"]', lambda s: s.target.terrain,
     frozenset({"forest", "hill"})),
    ("target-rules", "target", 'rules = ["unyielding", "carapace", "tough", "tough_steady"]',
     lambda s: s.target.rules, frozenset(TARGET_RULES)),
    ("target-shield", "target", 'shield = ["R", "L"]', lambda s: s.target.shield, ("R", "L")),
    ("target-buckler", "target", 'buckler = ["H"]', lambda s: s.target.buckler, ("H",)),
    ("target-upkeep-def", "target", "upkeep_def = 2", lambda s: s.target.upkeep_def, 2),
    ("target-upkeep-arm", "target", "upkeep_arm = 3", lambda s: s.target.upkeep_arm, 3),
    ("target-spell-def", "target", "spell_def = 1", lambda s: s.target.spell_def, 1),
    ("target-spell-arm", "target", "spell_arm = 4", lambda s: s.target.spell_arm, 4),
    ("target-focus", "target", "focus = 6", lambda s: s.target.focus, 6),
    ("target-fury", "target", "fury = 4", lambda s: s.target.fury, 4),
    ("target-power-field-never", "target", 'power_field = "never"', lambda s: s.target.power_field, "never"),
    ("target-power-field-optimal", "target", 'power_field = "optimal"', lambda s: s.target.power_field,
     "optimal"),
    ("target-rapid-healing", "target", "rapid_healing = 2", lambda s: s.target.rapid_healing, 2),
    ("attacker-focus", "attacker", "focus = 3", lambda s: s.attackers[0].focus, 3),
    ("attacker-fury", "attacker", "fury = 5", lambda s: s.attackers[0].fury, 5),
    ("attacker-force", "attacker", "force = 2", lambda s: s.attackers[0].force, 2),
    ("attacker-policy", "attacker", 'policy = "optimize"', lambda s: s.attackers[0].policy, "optimize"),
    ("attacker-charge", "attacker", "charge = true", lambda s: s.attackers[0].charge, True),
    ("attacker-combined", "attacker", "combined = 3", lambda s: s.attackers[0].combined, 3),
    ("attacker-buy-weapon", "attacker", 'buy_weapon = "Fist"', lambda s: s.attackers[0].buy_weapon, "Fist"),
    ("spend-boost-attack", "spend", 'boost_attack = "always"', lambda s: s.attackers[0].spend,
     Spend(boost_attack="always")),
    ("spend-boost-attack-at", "spend", "boost_attack_at = 10", lambda s: s.attackers[0].spend,
     Spend(boost_attack_at=10)),
    ("spend-boost-damage", "spend", 'boost_damage = "never"', lambda s: s.attackers[0].spend,
     Spend(boost_damage="never")),
    ("spend-buy-attacks", "spend", "buy_attacks = false", lambda s: s.attackers[0].spend,
     Spend(buy_attacks=False)),
    ("spend-reserve", "spend", "reserve = 2", lambda s: s.attackers[0].spend, Spend(reserve=2)),
    ("spend-empty", "spend", "", lambda s: s.attackers[0].spend, Spend()),
    ("weapon-attack-discard", "weapon", 'attack_discard = "lowest"', lambda s: s.attackers[0].weapons[0].attack_discard,
     "lowest"),
    ("weapon-damage-discard", "weapon", 'damage_discard = "highest"',
     lambda s: s.attackers[0].weapons[0].damage_discard, "highest"),
    ("weapon-def-minus", "weapon", "def_minus = 2", lambda s: s.attackers[0].weapons[0].def_minus, 2),
    ("weapon-arm-minus", "weapon", "arm_minus = 3", lambda s: s.attackers[0].weapons[0].arm_minus, 3),
    ("weapon-effect-on", "weapon", 'effect_on = "critical"', lambda s: s.attackers[0].weapons[0].effect_on,
     "critical"),
    ("weapon-every-rule", "weapon", "rules = " + json.dumps(list(WEAPON_RULES)),
     lambda s: s.attackers[0].weapons[0].rules, frozenset(WEAPON_RULES)),
    ("simulation-objective", "simulation", 'objective = "damage"', lambda s: s.objective, "damage"),
    ("settings-brutal-damage", "settings", 'brutal_damage = "hit"', lambda s: s.brutal_damage, "hit"),
]


@pytest.mark.parametrize("table, line, read, expected", [c[1:] for c in NEW_KEYS], ids=[c[0] for c in NEW_KEYS])
def test_later_key_parses(tmp_path, table, line, read, expected):
    scen = load_scenario(write(tmp_path, _in_table(table, line)))
    assert read(scen) == expected
    assert _round_trip(scen) == scen
    # everything else keeps its default
    base = load_scenario(write(tmp_path, MINIMAL))
    assert scen != base or line == ""


def test_every_later_key_has_a_case():
    covered = {(c[1], c[2].split(" =")[0]) for c in NEW_KEYS if c[2]}
    expected = {("target", k) for k in TARGET_KEYS[TARGET_KEYS.index("terrain"):]}
    expected |= {("attacker", k) for k in ATTACKER_KEYS if k not in ("name", "weapons", "spend")}
    expected |= {("spend", k) for k in SPEND_KEYS}
    expected |= {("weapon", k) for k in WEAPON_KEYS[WEAPON_KEYS.index("attack_discard"):]}
    expected |= {("simulation", "objective"), ("settings", "brutal_damage")}
    assert expected <= covered


def test_later_keys_default(tmp_path):
    scen = load_scenario(write(tmp_path, MINIMAL))
    assert (scen.brutal_damage, scen.objective) == ("critical", "kill")
    t = scen.target
    assert (t.terrain, t.rules, t.shield, t.buckler) == (frozenset(), frozenset(), (), ())
    assert (t.upkeep_def, t.upkeep_arm, t.spell_def, t.spell_arm, t.focus, t.fury, t.rapid_healing) == (0,) * 7
    assert t.power_field == "lethal"
    a = scen.attackers[0]
    assert (a.focus, a.fury, a.force, a.policy, a.charge, a.combined, a.buy_weapon) == (
        0, 0, 0, "fixed", False, 1, None)
    assert a.spend == Spend()
    w = a.weapons[0]
    assert (w.attack_discard, w.damage_discard, w.def_minus, w.arm_minus, w.effect_on) == (
        "none", "none", 0, 0, "hit")


def test_spend_table_after_weapons(tmp_path):
    """TOML lets ``[attackers.spend]`` come after the weapons of its attacker."""
    text = MINIMAL.replace('name = "Jack"', 'name = "Jack"\nfocus = 2') + "\n[attackers.spend]\nreserve = 1\n"
    a = load_scenario(write(tmp_path, text)).attackers[0]
    assert a.spend == Spend(reserve=1) and a.focus == 2


def test_spend_of_each_attacker(tmp_path):
    text = """
[target]
def = 12
arm = 18
boxes = 30

[[attackers]]
name = "A"
focus = 3
buy_weapon = "Axe"
[attackers.spend]
boost_attack = "never"
buy_attacks = true
[[attackers.weapons]]
name = "Axe"
type = "melee"
skill = 6
pow = 12
[[attackers.weapons]]
name = "Hammer"
type = "melee"
skill = 6
pow = 16

[[attackers]]
name = "B"
fury = 2
[[attackers.weapons]]
name = "Claw"
type = "melee"
skill = 5
pow = 14
"""
    scen = load_scenario(write(tmp_path, text))
    a, b = scen.attackers
    assert a.spend == Spend(boost_attack="never") and b.spend == Spend()
    assert a.bought_weapon.name == "Axe"  # not the highest POW: buy_weapon chose it
    assert (a.focus, b.fury) == (3, 2)
    assert [s.label for s in scen.attack_sequence()][-1] == "B / Claw bought #2"
    assert _round_trip(scen) == scen


def test_to_dict_omits_later_keys_at_their_defaults():
    d = scenario_to_dict(loads_scenario(MINIMAL))
    assert set(d) == {"simulation", "target", "attackers"}
    assert set(d["simulation"]) == {"trials"}
    assert set(d["target"]) == {"name", "def", "arm", "boxes", "base", "resist", "state"}
    assert set(d["attackers"][0]) == {"name", "weapons"}
    assert "attack_discard" not in d["attackers"][0]["weapons"][0]


def test_to_dict_writes_later_keys():
    scen = Scenario(
        Target(12, 18, 30, terrain={"forest"}, shield=("L",), focus=3, power_field="never"),
        [Attacker("A", [Weapon("Fist", "melee", 7, 16, effect_on="critical", def_minus=1)],
                  focus=3, charge=True, spend=Spend(reserve=1))],
        brutal_damage="hit",
        objective="damage",
    )
    d = scenario_to_dict(scen)
    assert d["settings"] == {"brutal_damage": "hit"}
    assert d["simulation"]["objective"] == "damage"
    assert {k: d["target"][k] for k in ("terrain", "shield", "focus", "power_field")} == {
        "terrain": ["forest"], "shield": ["L"], "focus": 3, "power_field": "never"}
    assert "fury" not in d["target"]
    a = d["attackers"][0]
    assert (a["focus"], a["charge"], a["spend"]) == (3, True, {"reserve": 1})
    assert (a["weapons"][0]["effect_on"], a["weapons"][0]["def_minus"]) == ("critical", 1)
    assert _round_trip(scen) == scen
    assert loads_scenario(_dump_toml(d)) == scen


def test_round_trip_every_later_field():
    scen = Scenario(
        Target(14, 17, 18, name="Caster", base="small", resist={"fire"}, state={"in_melee"},
               terrain={"forest", "trench"}, rules={"tough", "unyielding"}, shield=("L", "R"),
               buckler=("H",), upkeep_def=2, upkeep_arm=1, spell_def=1, spell_arm=3, focus=6,
               power_field="optimal", rapid_healing=1),
        [
            Attacker("Jack", [Weapon("Axe", "melee", 6, 14, rules={"decapitation", "dispel"},
                                     attack_discard="lowest", damage_discard="highest",
                                     def_minus=2, arm_minus=1, effect_on="critical"),
                              Weapon("Bash", "melee", 6, None, rules={"knockdown"})],
                     focus=3, policy="optimize", charge=True, combined=2, buy_weapon="Axe",
                     spend=Spend("always", 9, "never", False, 2)),
            Attacker("Beast", [Weapon("Breath", "ranged", 5, 13, damage_type={"fire"})], fury=4),
            Attacker("Knight", [Weapon("Lance", "melee", 7, 12)], force=1),
        ],
        trials=777,
        seed=0,
        brutal_damage="hit",
        objective="damage",
    )
    assert _round_trip(scen) == scen
    assert loads_scenario(_dump_toml(scenario_to_dict(scen))) == scen


# ------------------------------------------------------------------------ hypothesis round trip
def _dump_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(_dump_value(x) for x in v) + "]"
    raise TypeError(v)


def _dump_toml(d: dict, path: tuple[str, ...] = ()) -> str:
    """A minimal TOML writer for what :func:`scenario_to_dict` returns (the standard library
    reads TOML but does not write it)."""
    lines = []
    nested = []
    for k, v in d.items():
        if isinstance(v, dict):
            nested.append((k, v, False))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            nested.append((k, v, True))
        else:
            lines.append(f"{k} = {_dump_value(v)}")
    for k, v, is_array in nested:
        name = ".".join(path + (k,))
        for item in (v if is_array else [v]):
            lines.append(f"[[{name}]]" if is_array else f"[{name}]")
            lines.append(_dump_toml(item, path + (k,)))
    return "\n".join(lines)


_NAMES = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF, exclude_characters="\x7f"), max_size=8)
_DAMAGE_RULES = {"weapon_master", "brutal_damage", "armor_piercing", "reroll_damage", "decapitation"}


@st.composite
def _weapons(draw, kind: str, name: str) -> Weapon:
    pow_ = draw(st.none() | st.integers(0, 40))
    rules = draw(st.frozensets(st.sampled_from(WEAPON_RULES)))
    return Weapon(
        name,
        kind,
        draw(st.integers(0, 30)),
        pow_,
        attacks=draw(st.integers(0, 3)),
        boosted_attack=draw(st.booleans()),
        boosted_damage=pow_ is not None and draw(st.booleans()),
        damage_type=draw(st.frozensets(st.sampled_from(DAMAGE_TYPES))),
        rules=rules - _DAMAGE_RULES if pow_ is None else rules,
        extra_attack_dice=draw(st.integers(-3, 3)),
        extra_damage_dice=draw(st.integers(-3, 3)),
        crippled=draw(st.booleans()),
        location=draw(st.none() | st.sampled_from(WEAPON_LOCATIONS)),
        attack_discard=draw(st.sampled_from(DISCARDS)),
        damage_discard="none" if pow_ is None else draw(st.sampled_from(DISCARDS)),
        def_minus=draw(st.integers(0, 10)),
        arm_minus=draw(st.integers(0, 10)),
        effect_on=draw(st.sampled_from(EFFECT_TRIGGERS)),
    )


_SPENDS = st.builds(Spend, st.sampled_from(BOOST_MODES), st.integers(2, 13), st.sampled_from(BOOST_MODES),
                    st.booleans(), st.integers(0, 10))


@st.composite
def _attackers(draw) -> Attacker:
    kind = draw(st.sampled_from(ATTACK_TYPES))
    kinds = ["melee"] if kind == "melee" else ["ranged", "arcane"]
    names = draw(st.lists(_NAMES, min_size=1, max_size=3, unique=True))
    weapons = [draw(_weapons(draw(st.sampled_from(kinds)), n)) for n in names]
    resource = draw(st.sampled_from(["focus", "fury", "force"]))
    return Attacker(
        draw(_NAMES),
        weapons,
        spend=draw(_SPENDS),
        policy=draw(st.sampled_from(["fixed", "optimize"])),
        charge=kind == "melee" and draw(st.booleans()),
        combined=draw(st.integers(1, 10)),
        buy_weapon=draw(st.none() | st.sampled_from(names)) if kind == "melee" else None,
        **{resource: draw(st.integers(0, 10))},
    )


@st.composite
def _targets(draw) -> Target:
    resource = draw(st.sampled_from(["focus", "fury"]))
    locations = st.lists(st.sampled_from(WEAPON_LOCATIONS), max_size=3, unique=True).map(tuple)
    return Target(
        draw(st.integers(0, 40)),
        draw(st.integers(0, 50)),
        draw(st.integers(1, 500)),
        name=draw(_NAMES),
        base=draw(st.sampled_from(BASE_SIZES)),
        resist=draw(st.frozensets(st.sampled_from(DAMAGE_TYPES))),
        state=draw(st.frozensets(st.sampled_from(TARGET_STATES))),
        terrain=draw(st.frozensets(st.sampled_from(tuple(TERRAIN)))),
        rules=draw(st.frozensets(st.sampled_from(TARGET_RULES))),
        shield=draw(locations),
        buckler=draw(locations),
        upkeep_def=draw(st.integers(0, 10)),
        upkeep_arm=draw(st.integers(0, 10)),
        spell_def=draw(st.integers(0, 10)),
        spell_arm=draw(st.integers(0, 10)),
        power_field=draw(st.sampled_from(POWER_FIELD_POLICIES)),
        rapid_healing=draw(st.integers(0, 10)),
        **{resource: draw(st.integers(0, 10))},
    )


@st.composite
def _scenarios(draw) -> Scenario:
    attackers = draw(st.lists(_attackers(), min_size=1, max_size=3))
    if sum(a.attack_count for a in attackers) == 0:
        first = attackers[0]
        w = first.weapons[0]
        attackers[0] = Attacker(first.name, (Weapon(w.name, w.type, w.skill, w.pow, attacks=1),)
                                + first.weapons[1:])
    return Scenario(
        draw(_targets()),
        attackers,
        trials=draw(st.integers(1, 10**9)),
        seed=draw(st.none() | st.integers(0, 2**63 - 1)),
        brutal_damage=draw(st.sampled_from(BRUTAL_DAMAGE_ON)),
        objective=draw(st.sampled_from(OBJECTIVES)),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_scenarios())
def test_round_trip_hypothesis(scen):
    d = scenario_to_dict(scen)
    assert scenario_from_dict(d) == scen
    assert loads_scenario(_dump_toml(d), "generated.toml") == scen


# ------------------------------------------------------------------------ the format's own example
def test_module_docstring_example_parses():
    doc = scenario_module.__doc__
    text = doc.split("::\n", 1)[1].split("\nEvery problem", 1)[0]
    text = "\n".join(line[4:] for line in text.splitlines())
    scen = loads_scenario(text, "docstring.toml")
    data = tomllib.loads(text)
    assert set(data) == set(TOP_KEYS)
    assert set(data["simulation"]) == set(SIMULATION_KEYS)
    assert set(data["settings"]) == set(SETTINGS_KEYS)
    assert set(data["target"]) == set(TARGET_KEYS)
    assert set(data["attackers"][0]) == set(ATTACKER_KEYS) - {"fury", "force"}  # one of the three
    assert set(data["attackers"][0]["spend"]) == set(SPEND_KEYS)
    assert set(WEAPON_KEYS) - set(data["attackers"][0]["weapons"][0]) <= {
        "boosted_attack", "boosted_damage", "damage_type", "extra_attack_dice", "extra_damage_dice",
        "crippled", "location"}
    assert scen.target.focus == 3 and scen.attackers[0].focus == 3
    assert _round_trip(scen) == scen


def test_input_error_is_the_base_of_file_errors():
    with pytest.raises(InputError):
        loads_scenario(_in_table("target", "focus = 11"))
