"""Scenario files: the TOML contract parses to the right rules objects."""

from __future__ import annotations

import dataclasses

import json
import unicodedata
import tomllib
from importlib.resources import files
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathhammer import (
    Attacker,
    Scenario,
    Side,
    Spend,
    Target,
    Trade,
    TradeModel,
    Weapon,
    load_scenario,
    scenario_from_dict,
)
from mathhammer.errors import InputError
from mathhammer._core.limits import DEFAULT_TRIALS
from mathhammer.rules.scenario import MAX_TURNS
from mathhammer.rules.trade import TRADE_PLAY
from mathhammer.rules.vocabulary import (
    ATTACK_TURNS,
    ATTACK_TYPES,
    ATTACKER_MODELS,
    BASE_SIZES,
    BOOST_MODES,
    BRUTAL_DAMAGE_ON,
    CONTINUOUS_EFFECTS,
    DAMAGE_TYPES,
    DISCARDS,
    EFFECT_TRIGGERS,
    GRID_LETTERS,
    HAZARDS,
    MAX_COLUMN_BOXES,
    POWER_FIELD_POLICIES,
    SPIRAL_LETTERS,
    TARGET_RULES,
    TARGET_STATES,
    TERRAIN,
    WEAPON_LOCATIONS,
    DAMAGE_ROLL_RULES,
    EXCLUSIVE_RULES,
    READINGS,
    WEAPON_RULES,
)
from mathhammer.io.trade_files import loads_trade, trade_from_dict, trade_to_dict
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
# Every scenario file bundled under examples/, the cards of examples/cards/ included.
EXAMPLES = sorted(p for p in (REPO / "examples").rglob("*.toml") if p.parent.name != "trades")  # trades: test_trade_files.py
CARDS = REPO / "examples" / "cards"

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
    assert len(scen.attackers) == 2 and [a.focus for a in scen.attackers] == [3, 1]
    # the bundled heavy warjack card: its damage grid, best play by default
    assert scen.target.defense == 12 and scen.target.arm == 18 and scen.target.boxes == 34
    assert scen.target.card is not None and all(a.plays_best for a in scen.attackers)
    assert _round_trip(scen) == scen


def test_examples_exist():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("path", EXAMPLES, ids=[str(p.relative_to(REPO / "examples")) for p in EXAMPLES])
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
    assert t.focus > 0 and t.power_field == "best"
    assert "tough" in t.rules and "forest" in t.terrain


# (file, card, least boxes, most boxes, letters the card must have)
CARD_FILES = [
    ("light_warjack.toml", "grid", 20, 30, set("LRHCM")),
    ("heavy_warjack.toml", "grid", 30, 40, set("LRHCM")),
    ("light_warbeast.toml", "spiral", 18, 28, set("BMS")),
    ("heavy_warbeast.toml", "spiral", 30, 36, set("BMS")),
]


def test_cards_are_all_bundled():
    assert sorted(p.name for p in CARDS.glob("*.toml")) == sorted(c[0] for c in CARD_FILES)
    assert {p for p in EXAMPLES if p.parent == CARDS} == set(CARDS.glob("*.toml"))


@pytest.mark.parametrize("name, card, least, most, letters", CARD_FILES, ids=[c[0] for c in CARD_FILES])
def test_card_file(name, card, least, most, letters):
    scen = load_scenario(CARDS / name)
    t = scen.target
    assert t.capacity == card
    assert least <= t.boxes <= most
    assert letters <= set(t.letters)
    assert "illustrative" in t.name  # generic names, not real models
    data = tomllib.loads((CARDS / name).read_text(encoding="utf-8"))
    assert "boxes" not in data["target"]  # the card's total
    assert scen.n_attacks >= 1
    if card == "grid":
        cols = t.grid
        assert all(c[0] == "." for c in cols)  # hull boxes at the top
        assert all(4 <= len(c) <= 6 for c in cols)
        left = {i for i, c in enumerate(cols) if "L" in c}
        right = {i for i, c in enumerate(cols) if "R" in c}
        middle = {i for i, c in enumerate(cols) if "H" in c or "C" in c}
        assert max(left) < min(middle) <= max(middle) < min(right)
    else:
        assert set("".join(t.spiral)) <= set("BMS")
        assert all(3 <= len(b) <= 6 for b in t.spiral)
    expected_model = "warbeast" if "warbeast" in name else "warjack"
    assert {a.model for a in scen.attackers} == {expected_model}


def test_heavy_warjack_card_shape():
    """The Mk4-like heavy grid the task describes: six columns of 5 or 6 boxes."""
    t = load_scenario(CARDS / "heavy_warjack.toml").target
    assert all(len(c) in (5, 6) for c in t.grid)
    assert "L" in t.grid[0] and "R" in t.grid[5]


def _readme_cards(text: str) -> dict[str, tuple[str, dict]]:
    """``file name -> (card key, {card key: cells})`` from the ``grid = [...]`` / ``spiral = [...]``
    line under each ``### `file` `` heading of the README, and the table that follows it."""
    out = {}
    for section in text.split("\n### `")[1:]:
        name = section.split("`", 1)[0]
        line = next(ln for ln in section.splitlines() if ln.startswith(("`grid = ", "`spiral = ")))
        data = tomllib.loads(line.strip("`"))
        (key,) = data
        rows = [ln for ln in section.splitlines() if ln.startswith("| ") and not ln.startswith("| row")
                and not ln.startswith("| branch")]
        cells = [[c.strip() for c in ln.strip("|").split("|")][1:] for ln in rows]
        if key == "grid":
            drawn = ["".join(row[j] for row in cells if row[j]) for j in range(6)]
        else:
            drawn = [row[0].replace(" ", "") for row in cells]
        out[name] = (key, data[key], drawn)
    return out


def test_cards_readme():
    text = (CARDS / "README.md").read_text(encoding="utf-8")
    assert "illustrative" in text.lower()
    assert "colossal" in text.lower() and "not" in text.lower()
    drawn = _readme_cards(text)
    assert set(drawn) == {c[0] for c in CARD_FILES}
    for name, (key, cells, table) in drawn.items():
        t = load_scenario(CARDS / name).target
        assert key == t.capacity, name
        assert tuple(cells) == t.card, name  # the README's card line is the file's card
        assert tuple(table) == t.card, name  # and so is its drawing
        assert f"`{name}` ({t.boxes} boxes)" in text


def test_grid_feedback_example():
    scen = load_scenario(REPO / "examples" / "grid_feedback.toml")
    t = scen.target
    assert t.capacity == "grid" and "L" in t.letters and t.shield == ("L",)
    assert t.grid == load_scenario(CARDS / "heavy_warjack.toml").target.grid
    assert len(scen.attackers) == 2
    assert all(a.model == "warjack" and not a.crippled for a in scen.attackers)
    aimed = [a for a in scen.attackers if any(w.damage_to == "L" for w in a.weapons)]
    assert aimed == [scen.attackers[0]]  # the first attacker goes for the shield arm


def test_fire_and_corrosion_example():
    """Two attackers put fire and corrosion on a 20-box target in the first of three rounds;
    the effects keep working in the rounds after."""
    path = REPO / "examples" / "fire_and_corrosion.toml"
    scen = load_scenario(path)
    assert (scen.turns, scen.attack_turns, scen.attack_rounds) == (3, "first", 1)
    t = scen.target
    assert t.capacity == "track" and t.boxes == 20
    assert not t.effects and not t.hazards and not t.resist & set(CONTINUOUS_EFFECTS)
    assert len(scen.attackers) == 2
    sets = [frozenset().union(*(w.sets_effects(False) for w in a.weapons)) for a in scen.attackers]
    assert sets == [frozenset({"fire"}), frozenset({"corrosion"})]
    assert scen.continuous
    text = path.read_text(encoding="utf-8")
    assert "maintenance phase" in text and "expires" in text  # the comments explain the rounds
    data = tomllib.loads(text)
    assert data["simulation"]["attack_turns"] == "first" and data["simulation"]["turns"] == 3


def test_hazards_example():
    """A target in an acid bath on burning earth, attacked in each of three rounds."""
    path = REPO / "examples" / "hazards.toml"
    scen = load_scenario(path)
    assert (scen.turns, scen.attack_turns, scen.attack_rounds) == (3, "all", 3)
    t = scen.target
    assert t.hazards == {"acid_bath", "burning_earth"}
    assert t.situations == frozenset()  # hazards give no cover or concealment
    assert not t.effects and not t.resist & set(CONTINUOUS_EFFECTS)  # both hazards can hurt it
    assert not any(w.sets_effects(True) for a in scen.attackers for w in a.weapons)  # only the hazards
    assert scen.continuous
    text = path.read_text(encoding="utf-8")
    assert "quicksand" in text and "goes out" in text


# ------------------------------------------------------------------------ the later keys
def _in_table(table: str, line: str, text: str = MINIMAL) -> str:
    """``text`` with ``line`` added to one of its tables (created when absent)."""
    if table == "simulation":
        return "[simulation]\n" + line + "\n" + text
    if table == "settings":
        return "[settings]\n" + line + "\n" + text
    if table == "ranged_weapon":  # the weapon made a ranged one (area-of-effect keys)
        text, table = text.replace('type = "melee"', 'type = "ranged"'), "weapon"
    if table in ("grid_weapon", "spiral_weapon"):  # the target given a grid or a spiral
        card = GRID_34 if table == "grid_weapon" else SPIRAL_34
        text = text.replace("arm = 18", f"arm = 18\n{table.split('_')[0]} = {json.dumps(list(card))}")
        table = "weapon"
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


#: Every weapon rule but the second of each exclusive pair (one weapon may have them all).
_COMPATIBLE_RULES = [r for r in WEAPON_RULES if r not in {other for _, other in EXCLUSIVE_RULES}]

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
    ("target-power-field-never", "target", 'power_field = "never"', lambda s: s.target.power_field,
     "never"),
    ("target-rapid-healing", "target", "rapid_healing = 2", lambda s: s.target.rapid_healing, 2),
    ("target-rapid-healing-d3", "target", 'rapid_healing = "d3"', lambda s: s.target.rapid_healing, "d3"),
    ("target-upkeep-rules", "target", 'upkeep_rules = ["tough", "unyielding"]', lambda s: s.target.upkeep_rules,
     frozenset({"tough", "unyielding"})),
    # Shield Guard names other targets (tests/test_shield_guard.py): none, with one target
    ("target-shield-guard", "target", "shield_guard = []", lambda s: s.target.shield_guard, ()),
    ("attacker-focus", "attacker", "focus = 3", lambda s: s.attackers[0].focus, 3),
    ("attacker-fury", "attacker", "fury = 5", lambda s: s.attackers[0].fury, 5),
    ("attacker-force", "attacker", 'model = "warbeast"\nforce = 2', lambda s: s.attackers[0].force, 2),
    ("attacker-policy", "attacker", 'policy = "optimize"', lambda s: s.attackers[0].policy, "optimize"),
    ("attacker-charge", "attacker", "charge = true", lambda s: s.attackers[0].charge, True),
    ("attacker-combined", "attacker", "combined = 3", lambda s: s.attackers[0].combined, 3),
    ("attacker-models", "attacker", "models = 6", lambda s: (s.attackers[0].models, s.n_attacks), (6, 6)),
    ("attacker-models-combined", "attacker", "models = 6\ncombined = 3",
     lambda s: (s.attackers[0].groups, s.n_attacks), ((3, 3), 2)),
    ("weapon-blast-pow", "ranged_weapon", "blast_pow = 8",
     lambda s: (s.attackers[0].weapons[0].blast_pow, s.attackers[0].weapons[0].blast_models), (8, 1)),
    ("weapon-blast-models", "ranged_weapon", "blast_pow = 8\nblast_models = 3\nblast_on_miss = 1",
     lambda s: (s.attackers[0].weapons[0].blast_models, s.attackers[0].weapons[0].blast_on_miss), (3, 1)),
    ("target-models", "target", "models = 10", lambda s: (s.target.models, s.target.unit), (10, True)),
    ("target-feat", "target", "feat_def = 2\nfeat_arm = 3", lambda s: (s.target.feat_def, s.target.feat_arm),
     (2, 3)),
    ("target-tough-on", "target", 'rules = ["tough"]\ntough_on = 4', lambda s: s.target.tough_on, 4),
    ("target-guard-blocks", "target", "guard_blocks = 1", lambda s: s.target.guard_blocks, 1),
    ("weapon-auto-hit", "weapon", "auto_hit = true", lambda s: s.attackers[0].weapons[0].auto_hit, True),
    # power attacks (tests/test_power_attacks.py reads and writes power_attack, which needs
    # an attacker with a base and a point to pay)
    ("attacker-base", "attacker", 'base = "large"', lambda s: s.attackers[0].base, "large"),
    ("attacker-side", "attacker", 'side = "random"', lambda s: s.attackers[0].side, "random"),
    ("weapon-slam-contact", "weapon", "slam_contact = false", lambda s: s.attackers[0].weapons[0].slam_contact,
     False),
    # routes (several targets, docs/units.md): with one target they name it
    ("attacker-target", "attacker", 'target = "Target"', lambda s: s.attackers[0].targets, ("Target",)),
    ("attacker-targets", "attacker", 'targets = ["Target"]',
     lambda s: (s.attackers[0].targets, s.attack_sequence()[0].route), (("Target",), ())),
    ("weapon-target", "weapon", 'target = "Target"', lambda s: s.attackers[0].weapons[0].targets, ("Target",)),
    ("weapon-targets", "weapon", 'targets = ["Target"]', lambda s: s.attackers[0].weapons[0].targets,
     ("Target",)),
    ("attacker-buy-weapon", "attacker", 'buy_weapon = "Fist"', lambda s: s.attackers[0].buy_weapon, "Fist"),
    ("attacker-keep-points", "attacker", "keep_points = true", lambda s: s.attackers[0].keep_points, True),
    ("attacker-cavalry", "attacker", "cavalry = true", lambda s: s.attackers[0].cavalry, True),
    # a battlegroup needs its warjacks: tests/test_battlegroup.py (here, no warjack named)
    ("attacker-controls", "attacker", "controls = []", lambda s: s.attackers[0].controls, ()),
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
    ("weapon-every-rule", "weapon", "rules = " + json.dumps(list(_COMPATIBLE_RULES)),
     lambda s: s.attackers[0].weapons[0].rules, frozenset(_COMPATIBLE_RULES)),
    ("weapon-rules-on-hit-or-critical", "weapon", 'rules = ["critical_armor_piercing", "decapitation_on_hit"]',
     lambda s: s.attackers[0].weapons[0].rules, frozenset({"critical_armor_piercing", "decapitation_on_hit"})),
    ("weapon-discard-both", "weapon", 'attack_discard = "both"', lambda s: s.attackers[0].weapons[0].attack_discard,
     "both"),
    ("target-grid", "target", 'grid = ["..LLM", "...LLM", "...HCC", "...HCC", "...RRM", "..RRM"]',
     lambda s: (s.target.grid, s.target.spiral, s.target.boxes, s.target.capacity, s.target.letters),
     (("..LLM", "...LLM", "...HCC", "...HCC", "...RRM", "..RRM"), None, 34, "grid", ("C", "H", "M", "L", "R"))),
    ("target-grid-short-columns", "target", 'grid = ["", "A", "", "GG", "", "F.F"]',
     lambda s: (s.target.grid, s.target.boxes, s.target.letters), (("", "A", "", "GG", "", "F.F"), 6,
                                                                   ("A", "G", "F"))),
    ("target-spiral", "target", 'spiral = ["MMMMMM", "MMMMM", "BBBBBB", "BBBBBB", "SSSSS", "SSSSSS"]',
     lambda s: (s.target.spiral, s.target.grid, s.target.boxes, s.target.capacity, s.target.letters),
     (("MMMMMM", "MMMMM", "BBBBBB", "BBBBBB", "SSSSS", "SSSSSS"), None, 34, "spiral", ("B", "M", "S"))),
    ("attacker-model", "attacker", 'model = "warbeast"', lambda s: s.attackers[0].model, "warbeast"),
    ("attacker-model-other", "attacker", 'model = "other"', lambda s: s.attackers[0].model, "other"),
    ("attacker-crippled", "attacker", 'crippled = ["L", "C", "L"]',
     lambda s: (s.attackers[0].model, s.attackers[0].crippled), ("warjack", frozenset({"L", "C"}))),
    ("attacker-crippled-warbeast", "attacker", 'model = "warbeast"\ncrippled = ["S", "B"]',
     lambda s: (s.attackers[0].crippled, s.attackers[0].points), (frozenset({"S", "B"}), 0)),
    ("attacker-crippled-empty", "attacker", "crippled = []", lambda s: s.attackers[0].crippled, frozenset()),
    # damage_to needs its letter on the target's card (a grid; a spiral for an aspect)
    ("weapon-damage-to", "grid_weapon", 'damage_to = "M"', lambda s: s.attackers[0].weapons[0].damage_to, "M"),
    # the weapon of MINIMAL is a melee one: Reload [N] is for ranged weapons, 0 reads back
    ("weapon-reload", "weapon", "reload = 0", lambda s: s.attackers[0].weapons[0].reload, 0),
    ("weapon-cost", "weapon", "cost = 0", lambda s: s.attackers[0].weapons[0].cost, 0),
    ("weapon-damage-to-aspect", "spiral_weapon", 'damage_to = "S"', lambda s: s.attackers[0].weapons[0].damage_to,
     "S"),
    ("simulation-objective", "simulation", 'objective = "damage"', lambda s: s.objective, "damage"),
    # --- continuous effects, hazards and several turns (docs/activation.md, last section)
    ("simulation-turns", "simulation", "turns = 3", lambda s: (s.turns, s.attack_turns, s.attack_rounds),
     (3, "all", 3)),
    ("simulation-turns-most", "simulation", f"turns = {MAX_TURNS}", lambda s: s.turns, 20),
    ("simulation-attack-turns", "simulation", 'turns = 3\nattack_turns = "first"',
     lambda s: (s.turns, s.attack_turns, s.attack_rounds), (3, "first", 1)),
    ("simulation-attack-turns-all", "simulation", 'turns = 2\nattack_turns = "all"',
     lambda s: (s.turns, s.attack_turns, s.attack_rounds), (2, "all", 2)),
    ("simulation-attack-turns-one-turn", "simulation", 'attack_turns = "first"',
     lambda s: (s.turns, s.attack_turns, s.attack_rounds), (1, "first", 1)),
    ("target-effects", "target", 'effects = ["fire"]', lambda s: (s.target.effects, s.continuous),
     (frozenset({"fire"}), True)),
    ("target-effects-both", "target", 'effects = ["corrosion", "fire", "corrosion"]',
     lambda s: s.target.effects, frozenset(CONTINUOUS_EFFECTS)),
    ("target-effects-other-resisted", "target", 'resist = ["fire"]\neffects = ["corrosion"]',
     lambda s: (s.target.resist, s.target.effects), (frozenset({"fire"}), frozenset({"corrosion"}))),
    ("target-terrain-hazards", "target", 'terrain = ["acid_bath", "burning_earth", "quicksand"]',
     lambda s: (s.target.terrain, s.target.hazards, s.target.situations, s.continuous),
     (frozenset(HAZARDS), frozenset(HAZARDS), frozenset(), True)),
    ("target-terrain-hazard-and-cover", "target", 'terrain = ["trench", "quicksand"]',
     lambda s: (s.target.hazards, s.target.situations), (frozenset({"quicksand"}), frozenset({"cover"}))),
    ("weapon-rule-fire", "weapon", 'rules = ["fire"]',
     lambda s: (s.attackers[0].weapons[0].sets_effects(False), s.continuous), (frozenset({"fire"}), True)),
    ("weapon-rule-corrosion", "weapon", 'rules = ["corrosion"]',
     lambda s: s.attackers[0].weapons[0].sets_effects(False), frozenset({"corrosion"})),
    ("weapon-rule-critical-fire", "weapon", 'rules = ["critical_fire"]',
     lambda s: (s.attackers[0].weapons[0].sets_effects(False), s.attackers[0].weapons[0].sets_effects(True)),
     (frozenset(), frozenset({"fire"}))),
    ("weapon-rule-critical-corrosion", "weapon", 'rules = ["critical_corrosion", "knockdown"]',
     lambda s: (s.attackers[0].weapons[0].sets_effects(False), s.attackers[0].weapons[0].sets_effects(True)),
     (frozenset(), frozenset({"corrosion"}))),
    ("weapon-rule-fire-with-fire-damage", "weapon", 'rules = ["fire"]\ndamage_type = ["fire"]',
     lambda s: s.attackers[0].weapons[0].rules, frozenset({"fire"})),
    ("settings-brutal-damage", "settings", 'brutal_damage = "hit"', lambda s: s.brutal_damage, "hit"),
    ("settings-power-field-per-attack", "settings", "power_field_per_attack = 1",
     lambda s: s.power_field_per_attack, 1),
    ("settings-rapid-healing-when-hit", "settings", "rapid_healing_when_hit = true",
     lambda s: s.rapid_healing_when_hit, True),
]


@pytest.mark.parametrize("table, line, read, expected", [c[1:] for c in NEW_KEYS], ids=[c[0] for c in NEW_KEYS])
def test_later_key_parses(tmp_path, table, line, read, expected):
    scen = load_scenario(write(tmp_path, _in_table(table, line)))
    assert read(scen) == expected
    assert _round_trip(scen) == scen
    # everything else keeps its default
    base = load_scenario(write(tmp_path, MINIMAL))
    assert scen != base or line in ("", "crippled = []", "reload = 0", "cost = 0", "shield_guard = []",
                                    "slam_contact = false", 'side = "random"', "controls = []")  # left / right: a colossal's


GRID_34 = ("..LLM", "...LLM", "...HCC", "...HCC", "...RRM", "..RRM")
SPIRAL_34 = ("MMMMMM", "MMMMM", "BBBBBB", "BBBBBB", "SSSSS", "SSSSSS")


def _grid_text(card: str = "grid", cells: tuple[str, ...] = GRID_34, text: str = MINIMAL) -> str:
    return _in_table("target", f"{card} = {json.dumps(list(cells))}", text)


@pytest.mark.parametrize("letter", ["C", "H", "M", "L", "R"])
def test_objective_cripple_a_grid_system(tmp_path, letter):
    text = _in_table("simulation", f'objective = "cripple:{letter}"', _grid_text())
    scen = load_scenario(write(tmp_path, text))
    assert scen.objective == f"cripple:{letter}"
    assert _round_trip(scen) == scen
    assert scenario_to_dict(scen)["simulation"]["objective"] == f"cripple:{letter}"
    assert loads_scenario(_dump_toml(scenario_to_dict(scen))) == scen


@pytest.mark.parametrize("letter", ["B", "M", "S"])
def test_objective_cripple_a_spiral_aspect(tmp_path, letter):
    text = _in_table("simulation", f'objective = "cripple:{letter}"', _grid_text("spiral", SPIRAL_34))
    scen = load_scenario(write(tmp_path, text))
    assert scen.objective == f"cripple:{letter}" and scen.target.capacity == "spiral"
    assert _round_trip(scen) == scen


@pytest.mark.parametrize("card, cells", [("grid", GRID_34), ("spiral", SPIRAL_34)])
def test_boxes_may_be_given_as_the_card_total(tmp_path, card, cells):
    plain = load_scenario(write(tmp_path, _grid_text(card, cells)))
    given = load_scenario(write(tmp_path, _grid_text(card, cells, MINIMAL.replace("arm = 18", "arm = 18\nboxes = 34"))))
    assert given == plain and given.target.boxes == 34
    d = scenario_to_dict(given)
    assert "boxes" not in d["target"]  # the card's total: written by leaving it out
    assert d["target"][card] == list(cells)
    assert ("spiral" if card == "grid" else "grid") not in d["target"]
    assert scenario_from_dict(d) == given


def test_card_keys_order_free(tmp_path):
    """``boxes`` may come before or after the card, as any TOML key."""
    a = load_scenario(write(tmp_path, _grid_text(text=MINIMAL.replace("arm = 18", "arm = 18\nboxes = 34"))))
    b = load_scenario(write(tmp_path, MINIMAL.replace("arm = 18", "boxes = 34\narm = 18\ngrid = "
                                                      + json.dumps(list(GRID_34)))))
    assert a == b


def test_to_dict_writes_cards_and_crippled_attackers():
    scen = Scenario(
        Target(12, 18, grid=GRID_34, shield=("L",), name="Jack"),
        [Attacker("Breaker", [Weapon("Ram", "melee", 6, 16, attacks=2, damage_to="L")], focus=2),
         Attacker("Beast", [Weapon("Claw", "melee", 6, 16)], fury=3, model="warbeast", crippled={"B", "M"}),
         Attacker("Hurt jack", [Weapon("Fist", "melee", 6, 14, location="L")], focus=3,
                  crippled=("L", "C"), charge=True)],
        objective="cripple:L",
    )
    d = scenario_to_dict(scen)
    assert d["simulation"]["objective"] == "cripple:L"
    assert d["target"]["grid"] == list(GRID_34) and "boxes" not in d["target"] and "spiral" not in d["target"]
    assert d["attackers"][0]["weapons"][0]["damage_to"] == "L"
    assert "model" not in d["attackers"][0] and "crippled" not in d["attackers"][0]  # defaults left out
    assert (d["attackers"][1]["model"], d["attackers"][1]["crippled"]) == ("warbeast", ["B", "M"])
    assert d["attackers"][2]["crippled"] == ["C", "L"] and "model" not in d["attackers"][2]
    assert "damage_to" not in d["attackers"][1]["weapons"][0]
    assert _round_trip(scen) == scen
    assert loads_scenario(_dump_toml(d)) == scen


def test_to_dict_of_a_track_keeps_boxes():
    d = scenario_to_dict(loads_scenario(CONTRACT))
    assert d["target"]["boxes"] == 30 and "grid" not in d["target"] and "spiral" not in d["target"]


def test_every_later_key_has_a_case():
    covered = {(c[1].replace("ranged_weapon", "weapon").replace("grid_weapon", "weapon")
                .replace("spiral_weapon", "weapon"), line.split(" =")[0])
               for c in NEW_KEYS if c[2] for line in c[2].split("\n")}
    expected = {("target", k) for k in TARGET_KEYS[TARGET_KEYS.index("terrain"):]}
    expected |= {("attacker", k) for k in ATTACKER_KEYS if k not in ("name", "weapons", "spend")}
    expected |= {("spend", k) for k in SPEND_KEYS}
    expected |= {("weapon", k) for k in WEAPON_KEYS[WEAPON_KEYS.index("attack_discard"):]
                 if k not in ("power_attack", "collateral")}  # tests/test_power_attacks.py (round trips)
    expected |= {("simulation", "objective"), ("simulation", "turns"), ("simulation", "attack_turns"),
                 ("settings", "brutal_damage"), ("settings", "power_field_per_attack"),
                 ("settings", "rapid_healing_when_hit")}
    assert expected <= covered
    assert {"fire", "corrosion", "critical_fire", "critical_corrosion"} <= {
        c[2].split('"')[1] for c in NEW_KEYS if c[0].startswith("weapon-rule-")}


def test_later_keys_default(tmp_path):
    scen = load_scenario(write(tmp_path, MINIMAL))
    assert (scen.brutal_damage, scen.objective) == ("critical", "kill")
    assert (scen.turns, scen.attack_turns, scen.attack_rounds, scen.continuous) == (1, "all", 1, False)
    t = scen.target
    assert (t.effects, t.hazards) == (frozenset(), frozenset())
    assert (t.terrain, t.rules, t.shield, t.buckler) == (frozenset(), frozenset(), (), ())
    assert (t.upkeep_def, t.upkeep_arm, t.spell_def, t.spell_arm, t.focus, t.fury, t.rapid_healing) == (0,) * 7
    assert t.power_field == "best"
    assert (t.grid, t.spiral, t.capacity, t.letters) == (None, None, "track", ())
    a = scen.attackers[0]
    assert (a.focus, a.fury, a.force, a.policy, a.charge, a.combined, a.buy_weapon) == (
        0, 0, 0, "best", False, 1, None)
    assert (a.model, a.crippled) == ("warjack", frozenset())
    assert a.spend == Spend()
    w = a.weapons[0]
    assert (w.attack_discard, w.damage_discard, w.def_minus, w.arm_minus, w.effect_on, w.damage_to) == (
        "none", "none", 0, 0, "hit", None)


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


def test_to_dict_writes_continuous_keys():
    scen = Scenario(
        Target(12, 16, 20, terrain={"quicksand", "forest", "acid_bath"}, effects={"corrosion", "fire"}),
        [Attacker("Beast", [Weapon("Breath", "ranged", 5, 13, damage_type={"fire"}, rules={"fire"}),
                            Weapon("Spit", "ranged", 5, 10, rules={"critical_corrosion", "critical_fire"})])],
        turns=3,
        attack_turns="first",
    )
    d = scenario_to_dict(scen)
    assert d["simulation"] == {"trials": DEFAULT_TRIALS, "turns": 3, "attack_turns": "first"}
    assert d["target"]["terrain"] == ["acid_bath", "forest", "quicksand"]  # sorted, hazards among them
    assert d["target"]["effects"] == ["corrosion", "fire"]
    assert [w["rules"] for w in d["attackers"][0]["weapons"]] == [["fire"], ["critical_corrosion", "critical_fire"]]
    assert _round_trip(scen) == scen
    assert loads_scenario(_dump_toml(d)) == scen
    # each key is written only when it differs from its default
    for kwargs, written in [({"turns": 2}, {"turns": 2}), ({"attack_turns": "first"}, {"attack_turns": "first"}),
                            ({"turns": 1, "attack_turns": "all"}, {})]:
        one = Scenario(scen.target, scen.attackers, **kwargs)
        sim = scenario_to_dict(one)["simulation"]
        assert {k: v for k, v in sim.items() if k != "trials"} == written
        assert _round_trip(one) == one
    assert "effects" not in scenario_to_dict(loads_scenario(MINIMAL))["target"]


def test_weapon_effect_against_a_resistant_target_loads(tmp_path):
    """A fire weapon may attack a fire-resistant target: its hits just never set it on fire
    (only a target's starting ``effects`` may not name a type it resists)."""
    text = _in_table("weapon", 'rules = ["fire", "critical_fire"]', _in_table("target", 'resist = ["fire"]'))
    scen = load_scenario(write(tmp_path, text))
    assert scen.attackers[0].weapons[0].sets_effects(True) == {"fire"}
    assert not scen.target.suffers("fire") and not scen.continuous
    assert _round_trip(scen) == scen


def test_continuous_keys_together(tmp_path):
    """Several turns, starting effects, hazards and the new weapon rules in one file."""
    text = """
[simulation]
seed = 2
turns = 4
attack_turns = "first"

[target]
def = 13
arm = 15
boxes = 20
resist = ["corrosion"]
effects = ["fire"]
terrain = ["hill", "burning_earth", "quicksand"]

[[attackers]]
name = "Jack"

[[attackers.weapons]]
name = "Flail"
type = "melee"
skill = 6
pow = 14
rules = ["knockdown", "critical_fire", "corrosion"]
"""
    scen = load_scenario(write(tmp_path, text))
    assert (scen.turns, scen.attack_turns, scen.attack_rounds, scen.seed) == (4, "first", 1, 2)
    t = scen.target
    assert (t.effects, t.hazards, t.situations) == (
        frozenset({"fire"}), frozenset({"burning_earth", "quicksand"}), frozenset({"elevated"}))
    w = scen.attackers[0].weapons[0]
    assert (w.sets_effects(False), w.sets_effects(True)) == (frozenset({"corrosion"}), frozenset({"fire", "corrosion"}))
    assert scen.continuous
    assert _round_trip(scen) == scen
    assert loads_scenario(_dump_toml(scenario_to_dict(scen))) == scen


def test_round_trip_every_later_field():
    scen = Scenario(
        Target(14, 17, 18, name="Caster", base="small", resist={"fire"}, state={"in_melee"},
               terrain={"forest", "trench", "acid_bath"}, rules={"tough", "unyielding"}, shield=("L", "R"),
               buckler=("H",), upkeep_def=2, upkeep_arm=1, spell_def=1, spell_arm=3, focus=6,
               power_field="optimal", rapid_healing=1, effects={"corrosion"}),
        [
            Attacker("Jack", [Weapon("Axe", "melee", 6, 14, rules={"decapitation", "dispel"},
                                     attack_discard="lowest", damage_discard="highest",
                                     def_minus=2, arm_minus=1, effect_on="critical"),
                              Weapon("Bash", "melee", 6, None, rules={"knockdown"})],
                     focus=3, policy="optimize", charge=True, combined=2, buy_weapon="Axe",
                     spend=Spend("always", 9, "never", False, 2)),
            Attacker("Beast", [Weapon("Breath", "ranged", 5, 13, damage_type={"fire"},
                                      rules={"fire", "critical_corrosion"})], fury=4),
            Attacker("Knight", [Weapon("Lance", "melee", 7, 12)], force=1, model="warbeast"),
        ],
        trials=777,
        seed=0,
        brutal_damage="hit",
        objective="damage",
        turns=5,
        attack_turns="first",
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


_NAMES = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF, exclude_characters="\x7f"), min_size=1,
                 max_size=8).filter(  # a name is not blank (a character a reader sees), no space around it
    lambda s: s.strip() == s and s and any(unicodedata.category(c) not in ("Zs", "Cc", "Cf", "Mn", "Me", "Cn")
                                           for c in s))
_DAMAGE_RULES = DAMAGE_ROLL_RULES


_CARD_LETTERS = tuple(sorted(set(GRID_LETTERS + SPIRAL_LETTERS)))
_CRIPPLE_LETTERS = {"warjack": GRID_LETTERS, "warbeast": SPIRAL_LETTERS, "other": ""}


@st.composite
def _weapons(draw, kind: str, name: str) -> Weapon:
    pow_ = draw(st.none() | st.integers(0, 40))
    rules = draw(st.frozensets(st.sampled_from(WEAPON_RULES)))  # fire, corrosion, critical_* included
    rules -= {other for one, other in EXCLUSIVE_RULES if one in rules}
    return Weapon(
        name,
        kind,
        draw(st.integers(0, 30)),
        pow_,
        attacks=(draw(st.sampled_from(["d3", "d6", "2d3"])) if kind == "ranged" and draw(st.booleans())
                 else draw(st.integers(0, 3))),
        boosted_attack=draw(st.booleans()),
        boosted_damage=pow_ is not None and draw(st.booleans()),
        # a damage type and damage dice need a damage roll
        damage_type=draw(st.frozensets(st.sampled_from(DAMAGE_TYPES))) if pow_ is not None else frozenset(),
        rules=rules - _DAMAGE_RULES if pow_ is None else rules,
        extra_attack_dice=draw(st.integers(-3, 3)),
        extra_damage_dice=draw(st.integers(-3, 3)) if pow_ is not None else 0,
        crippled=draw(st.booleans()),
        location=draw(st.none() | st.sampled_from(WEAPON_LOCATIONS)),
        attack_discard=draw(st.sampled_from(DISCARDS)),
        damage_discard="none" if pow_ is None else draw(st.sampled_from(DISCARDS)),
        def_minus=draw(st.integers(0, 10)),
        arm_minus=draw(st.integers(0, 10)),
        effect_on=draw(st.sampled_from(EFFECT_TRIGGERS)),
        damage_to=None if pow_ is None else draw(st.none() | st.sampled_from(_CARD_LETTERS)),
    )


_SPENDS = st.builds(Spend, st.sampled_from(BOOST_MODES), st.integers(2, 13), st.sampled_from(BOOST_MODES),
                    st.booleans(), st.integers(0, 10))


@st.composite
def _attackers(draw, name: str) -> Attacker:
    kind = draw(st.sampled_from(ATTACK_TYPES))
    kinds = ["melee"] if kind == "melee" else ["ranged", "arcane"]
    names = draw(st.lists(_NAMES, min_size=1, max_size=3, unique=True))
    weapons = [draw(_weapons(draw(st.sampled_from(kinds)), n)) for n in names]
    # one weapon of an attacker may have Sustained Attack
    weapons = weapons[:1] + [dataclasses.replace(w, rules=w.rules - {"sustained_attack", "critical_sustained_attack"})
                             for w in weapons[1:]]
    model = draw(st.sampled_from(ATTACKER_MODELS))
    # only a warbeast is forced, and it has no focus; a warjack with a crippled Cortex no fury
    resource = draw(st.sampled_from({"warbeast": ["fury", "force"]}.get(model, ["focus", "fury"])))
    crippled = draw(st.frozensets(st.sampled_from(_CRIPPLE_LETTERS[model]))) if model != "other" else frozenset()
    if model == "warjack" and resource == "fury":
        crippled -= {"C"}
    charge = kind == "melee" and draw(st.booleans())
    if charge and model == "warjack":
        crippled -= {"M"}  # a warjack with crippled Movement cannot charge
    return Attacker(
        name,
        weapons,
        spend=draw(_SPENDS),
        policy=draw(st.sampled_from(["fixed", "optimize"])),
        charge=charge,
        combined=draw(st.integers(1, 10)),
        buy_weapon=draw(st.none() | st.sampled_from(names)) if kind == "melee" else None,
        model=model,
        crippled=crippled,
        **{resource: draw(st.integers(0, 10))},
    )


@st.composite
def _cards(draw) -> dict:
    """No card, a damage grid or a life spiral, as Target keyword arguments (with boxes)."""
    kind = draw(st.sampled_from(["track", "grid", "spiral"]))
    if kind == "track":
        return {"boxes": draw(st.integers(1, 500))}
    alphabet = GRID_LETTERS + "." if kind == "grid" else SPIRAL_LETTERS
    cells = draw(st.lists(st.text(st.sampled_from(alphabet), max_size=MAX_COLUMN_BOXES), min_size=6, max_size=6)
                 .filter(lambda c: any(c)))
    total = sum(map(len, cells))
    return {kind: tuple(cells), "boxes": draw(st.sampled_from([1, total]))}


@st.composite
def _targets(draw) -> Target:
    resource = draw(st.sampled_from(["focus", "fury"]))
    locations = st.lists(st.sampled_from(WEAPON_LOCATIONS), max_size=3, unique=True).map(tuple)
    resist = draw(st.frozensets(st.sampled_from(DAMAGE_TYPES)))
    card = draw(_cards())
    if "spiral" in card:  # a life spiral has no locations for a Shield or Buckler
        locations = st.just(())
    return Target(
        draw(st.integers(0, 40)),
        draw(st.integers(0, 50)),
        name=draw(_NAMES),
        base=draw(st.sampled_from(BASE_SIZES)),
        resist=resist,
        state=draw(st.frozensets(st.sampled_from(TARGET_STATES))),
        terrain=draw(st.frozensets(st.sampled_from(tuple(TERRAIN) + HAZARDS))),
        effects=draw(st.frozensets(st.sampled_from(CONTINUOUS_EFFECTS))) - resist,  # never one it resists
        rules=draw(st.frozensets(st.sampled_from(TARGET_RULES))),
        shield=draw(locations),
        buckler=draw(locations),
        upkeep_def=draw(st.integers(0, 10)),
        upkeep_arm=draw(st.integers(0, 10)),
        spell_def=draw(st.integers(0, 10)),
        spell_arm=draw(st.integers(0, 10)),
        power_field=draw(st.sampled_from(POWER_FIELD_POLICIES)),
        rapid_healing=draw(st.integers(0, 10)),
        **card,
        **{resource: draw(st.integers(0, 10))},
    )


@st.composite
def _scenarios(draw) -> Scenario:
    names = draw(st.lists(_NAMES, min_size=1, max_size=3, unique=True))  # figures are reported by name
    attackers = [draw(_attackers(name)) for name in names]
    if sum(a.attack_count for a in attackers) == 0:
        first = attackers[0]
        w = first.weapons[0]
        attackers[0] = Attacker(first.name, (Weapon(w.name, w.type, w.skill, w.pow, attacks=1),)
                                + first.weapons[1:])
    target = draw(_targets())
    # "damage to system X" needs X on the target's card
    attackers = [dataclasses.replace(a, weapons=tuple(
        w if w.damage_to in target.letters else dataclasses.replace(w, damage_to=None) for w in a.weapons))
        for a in attackers]
    return Scenario(
        target,
        attackers,
        trials=draw(st.integers(1, 10**9)),
        seed=draw(st.none() | st.integers(0, 2**63 - 1)),
        brutal_damage=draw(st.sampled_from(BRUTAL_DAMAGE_ON)),
        objective=draw(st.sampled_from(["kill", "damage"] + [f"cripple:{x}" for x in target.letters])),
        turns=draw(st.integers(1, MAX_TURNS)),
        attack_turns=draw(st.sampled_from(ATTACK_TURNS)),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_scenarios())
def test_round_trip_hypothesis(scen):
    d = scenario_to_dict(scen)
    assert ("boxes" in d["target"]) == (scen.target.card is None)
    assert ("turns" in d["simulation"]) == (scen.turns != 1)
    assert ("attack_turns" in d["simulation"]) == (scen.attack_turns != "all")
    assert ("effects" in d["target"]) == bool(scen.target.effects)
    assert scenario_from_dict(d) == scen
    assert loads_scenario(_dump_toml(d), "generated.toml") == scen


# ------------------------------------------------------------------------ the format's own example
def test_format_doc_example_parses():
    """The first TOML block of docs/scenario-format.md is a whole scenario file."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "scenario-format.md").read_text()
    text = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    scen = loads_scenario(text, "docstring.toml")
    data = tomllib.loads(text)
    assert set(data) == set(TOP_KEYS) - {"targets"}  # several targets: [[targets]] ("Several
    # targets" below)
    assert set(data["simulation"]) == set(SIMULATION_KEYS)
    assert set(data["settings"]) == set(SETTINGS_KEYS)
    assert set(data["target"]) == set(TARGET_KEYS) - {"spiral", "models"}  # a grid or a spiral; a
    # unit's models have damage tracks (docs/scenario-format.md, "Units")
    assert set(data["attackers"][0]) == set(ATTACKER_KEYS) - {"fury", "force", "target", "targets", "keep_points",
                                                              "controls"}
    # one of the three points; routes are for several targets; keep_points is best play's
    # (this attacker's policy is fixed: "Best play" below); controls: "Battlegroups" below
    assert set(data["attackers"][0]["spend"]) == set(SPEND_KEYS)
    assert set(WEAPON_KEYS) - set(data["attackers"][0]["weapons"][0]) <= {
        "boosted_attack", "boosted_damage", "damage_type", "extra_attack_dice", "extra_damage_dice",
        "crippled", "location", "blast_pow", "blast_models", "blast_on_miss", "target", "targets",
        "power_attack", "slam_contact", "collateral"}  # a power attack: its own section and example
    assert scen.target.focus == 3 and scen.attackers[0].focus == 3
    assert scen.target.capacity == "grid" and scen.target.boxes == 30
    assert scen.attackers[0].weapons[0].damage_to == "M"
    assert (scen.turns, scen.attack_turns) == (1, "all")  # the defaults, written out
    assert scen.target.effects == {"corrosion"} and not scen.target.effects & scen.target.resist
    for word in ("acid_bath", "burning_earth", "quicksand", "fire", "corrosion", "critical_fire",
                 "critical_corrosion"):
        assert word in doc, word  # the new names are listed
    assert _round_trip(scen) == scen
    # its commented-out spiral is a valid card too
    lines = [ln for ln in text.splitlines() if not ln.startswith("grid = ")]
    spiral = "\n".join(ln[2:] if ln.startswith("# spiral = ") else ln for ln in lines
                       if not ln.startswith("shield = "))  # a spiral has no Shield locations
    assert "\nspiral = [" in spiral
    other = loads_scenario(spiral, "docstring-spiral.toml")
    assert other.target.capacity == "spiral" and other.target.boxes == 30


def test_input_error_is_the_base_of_file_errors():
    with pytest.raises(InputError):
        loads_scenario(_in_table("target", "focus = 11"))


def test_reload_reads_on_a_ranged_weapon(tmp_path):
    text = MINIMAL.replace('type = "melee"', 'type = "ranged"').replace("pow = 16", "pow = 16\nreload = 2")
    scen = load_scenario(write(tmp_path, text))
    assert scen.attackers[0].weapons[0].reload == 2
    unlimited = load_scenario(write(tmp_path, text.replace("reload = 2", 'reload = "unlimited"')))
    assert unlimited.attackers[0].weapons[0].reload_limit == 20
    assert scenario_from_dict(scenario_to_dict(unlimited)) == unlimited
    assert _round_trip(scen) == scen


def test_cost_reads_on_a_spell(tmp_path):
    text = (MINIMAL.replace('type = "melee"', 'type = "arcane"').replace("pow = 16", "pow = 16\ncost = 2\nattacks = 2")
            .replace('name = "Jack"', 'name = "Jack"\nfocus = 4'))
    scen = load_scenario(write(tmp_path, text))
    assert scen.attackers[0].weapons[0].cost == 2 and scen.attackers[0].casts == ((0, 2),)
    assert _round_trip(scen) == scen


def test_equal_attackers_share_their_attack_slots():
    """A balance matrix builds an equal Attacker for each pairing of a card: the second's
    slots are the first's (kept by value), and any change of the attacker is a new key."""
    def jack(focus):
        return Attacker("Jack", [Weapon("Fist", "melee", 7, 16, attacks=2)], focus=focus)

    first = Scenario(Target(defense=12, arm=18, boxes=30), [jack(3)]).attack_sequence()
    again = Scenario(Target(defense=14, arm=20, boxes=28), [jack(3)]).attack_sequence()
    assert again == first and all(a is b for a, b in zip(again, first))
    other = Scenario(Target(defense=12, arm=18, boxes=30), [jack(1)]).attack_sequence()
    # two initial attacks, then one bought attack per point of focus
    assert [s.bought for s in first] == [False, False, True, True, True]
    assert [s.bought for s in other] == [False, False, True]
    assert other[0].attacker.focus == 1


# ------------------------------------------------------------------------ trade files, generated
@st.composite
def _trade_models(draw, name: str, enemies: list) -> TradeModel:
    """A model of a trade: a generated attacker and target (what a trade gives the model
    itself, crippling and routes, and a power field, left out), the enemies it attacks."""
    attacker = dataclasses.replace(draw(_attackers(name)), crippled=frozenset())
    if attacker.model == "warjack" and attacker.fury:
        attacker = dataclasses.replace(attacker, fury=0, focus=attacker.fury)
    target = dataclasses.replace(draw(_targets()), focus=0, fury=0, shield_guard=())
    cripple_at = {}
    if target.capacity == "track" and attacker.model != "other":
        letters = GRID_LETTERS if attacker.model == "warjack" else SPIRAL_LETTERS
        for letter in draw(st.frozensets(st.sampled_from(letters), max_size=3)):
            cripple_at[letter] = draw(st.integers(1, target.boxes))
    attacks = draw(st.permutations(enemies).flatmap(lambda p: st.integers(1, len(p)).map(lambda n: p[:n])))
    return TradeModel(attacker, target, attacks, cripple_at)


@st.composite
def _trades(draw) -> Trade:
    names = draw(st.lists(_NAMES, min_size=2, max_size=5, unique=True))
    split = draw(st.integers(1, len(names) - 1))
    red, blue = names[:split], names[split:]
    sides = [Side(side, [draw(_trade_models(n, enemies)) for n in own])
             for side, own, enemies in (("Red", red, blue), ("Blue", blue, red))]
    return Trade(sides, first=draw(st.sampled_from(["Red", "Blue"])), rounds=draw(st.integers(1, MAX_TURNS)),
                 trials=draw(st.integers(1, 10**9)), seed=draw(st.none() | st.integers(0, 2**63 - 1)),
                 play=draw(st.sampled_from(TRADE_PLAY)),
                 brutal_damage=draw(st.sampled_from(BRUTAL_DAMAGE_ON)),
                 **{key: draw(st.booleans()) for key in READINGS})


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_trades())
def test_trade_round_trip_hypothesis(trade):
    """Every key of a trade file (docs/trades.md), generated: written and read back, the
    same trade, from tables and from TOML text."""
    d = trade_to_dict(trade)
    assert trade_from_dict(d) == trade
    assert loads_trade(_dump_toml(d), "generated.toml") == trade
