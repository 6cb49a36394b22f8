"""Scenario files (TOML) <-> rules objects.

A scenario file describes one target, the attackers that act against it in order, and the
simulation settings; every key but ``target.def``, ``target.arm``, ``attackers`` and a
weapon's ``name``, ``type``, ``skill`` and ``pow`` may be left out::

    [simulation]
    trials = 1000000          # default 1_000_000
    seed = 1                  # absent: drawn at simulation time and reported
    objective = "kill"        # kill | damage | cripple:X: what policy = "optimize" maximises
                              # (cripple:M: the chance system / aspect M ends crippled)
    turns = 1                 # rounds simulated, 1..20: attacks, then the target's
                              # maintenance phase (fire, corrosion) and activation (hazards)
    attack_turns = "all"      # all | first: the attackers attack every round or only in
                              # the first (later rounds: continuous effects and hazards only)

    [settings]
    brutal_damage = "critical"  # critical | hit: when Brutal Damage adds its die

    [target]
    name = "Heavy warjack"
    def = 12
    arm = 18
    boxes = 30                # damage track (absent = 1 box); with a grid or spiral:
                              # absent or its number of boxes
    grid = ["...L.", "..LLM", "..HCM", "..HCM", "..RRM", "...R."]
                              # warjack damage grid: six columns, boxes top to bottom,
                              # "." hull, A C G H M F L R systems (a letter per box)
    # spiral = ["BBBBB", "BBMMM", "MMMMM", "MSSSS", "SSSSS", "BBBBB"]
                              # or a warbeast life spiral: six branches, outermost box
                              # first, B M S aspects (a target has a grid or a spiral)
    base = "large"            # small | medium | large | extra_large | huge
    resist = ["fire"]
    state = ["knocked_down"]
    terrain = ["forest"]      # forest, rubble, hill, ... (vocabulary.TERRAIN), and the
                              # hazards acid_bath | burning_earth | quicksand
    effects = ["corrosion"]   # continuous effects it starts with: fire | corrosion
                              # (never one it resists)
    rules = ["tough"]         # unyielding | carapace | tough | tough_steady
    shield = ["L"]            # locations carrying a Shield (+2 ARM each): L, R, H, F
    buckler = []              # locations carrying a Buckler (+1 ARM each)
    upkeep_def = 0            # DEF / ARM from upkeep spells (Dispel ends them)
    upkeep_arm = 0
    spell_def = 0             # DEF / ARM from other spells
    spell_arm = 0
    focus = 3                 # focus for its power field (or fury; not both)
    fury = 0
    power_field = "lethal"    # never | lethal | optimal
    rapid_healing = 0         # damage points removed after an attack that did not disable it

    [[attackers]]
    name = "Heavy warjack"
    focus = 3                 # or fury, or force: one of them
    policy = "fixed"          # fixed: use [attackers.spend] | optimize: search the best
    charge = false            # the first melee attack is a charge attack
    combined = 1              # models taking part in a combined attack
    buy_weapon = "Fist"       # melee weapon of bought attacks (default: highest POW)
    model = "warjack"         # warjack | warbeast | other: what its crippled letters mean
    crippled = []             # its crippled systems (warjack: A C G H M F L R) or aspects
                              # (warbeast: B M S), e.g. ["L"]

    [attackers.spend]
    boost_attack = "auto"     # never | always | auto
    boost_attack_at = 8       # auto: boost when the roll needed on two dice is 8+
    boost_damage = "auto"     # never | always | auto
    buy_attacks = true
    reserve = 0               # points kept back from boosting for bought attacks

    [[attackers.weapons]]
    name = "Fist"
    type = "melee"            # melee | ranged | arcane
    skill = 7                 # MAT (melee) or RAT (ranged, arcane)
    pow = 16                  # integer, or "-"
    attacks = 2
    rules = ["critical_knockdown"]  # also fire | corrosion (a hit puts that continuous
                              # effect on the target), critical_fire | critical_corrosion
    attack_discard = "none"   # none | lowest | highest
    damage_discard = "none"
    def_minus = 0             # -DEF / -ARM on the target once it is hit
    arm_minus = 0
    effect_on = "hit"         # hit | critical
    damage_to = "M"           # damage to system / aspect M: starts at an unmarked M box

Every problem in a file raises :class:`ScenarioFileError`, an
:class:`~mathhammer.errors.InputError` whose message is one line naming the file, the dotted
key and the offending value, e.g.
``x.toml: attackers[0].weapons[1].skill: must be between 0 and 30 (got 45)``.

A library card (:mod:`mathhammer.cards`; ``mathhammer cards`` lists them) stands in for the
target or an attacker: the keys given beside ``card`` override the card's::

    target = { card = "heavy_warjack", arm = 20 }   # or card = "my_cards/jack.toml"
                              # boxes, grid or spiral replace the card's damage capacity
                              # (all three); focus or fury both; lists are replaced

    [[attackers]]
    card = "infantry"         # a name (MATHHAMMER_CARDS, then the bundled cards) or a path,
                              # relative to the scenario file's folder
    action = "melee"          # melee | ranged | arcane: the card's weapons of that type
                              # (default: its first weapon's type)
    name = "Squad leader"     # default: the card's name, numbered apart from earlier ones
    spend = { reserve = 1 }   # merged key by key with the card's; weapons = [...] replaces

Damage grids and life spirals are described in ``docs/activation.md``; illustrative cards are
bundled in ``mathhammer/data/cards/`` and described in ``examples/cards/README.md``.
Colossals and gargantuans (two grids or spirals) are not supported: the bundled colossal
card is a damage track. Several turns, continuous effects (fire, corrosion) and hazards
are described in the last section of ``docs/activation.md``; ``examples/fire_and_corrosion.toml`` and
``examples/hazards.toml`` use them.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path

from .errors import InputError
from .rules import Attacker, Scenario, Spend, Target, Weapon
from .rules._validate import check_choice, check_int
from .rules.scenario import DEFAULT_TRIALS, MAX_SEED, MAX_TRIALS, MAX_TURNS, check_objective
from .rules.target import MAX_BOXES
from .rules.vocabulary import (
    ATTACK_TURNS,
    BRUTAL_DAMAGE_ON,
    CONTINUOUS_EFFECTS,
    DAMAGE_TYPES,
    HAZARDS,
    TARGET_RULES,
    TARGET_STATES,
    TERRAIN,
    WEAPON_LOCATIONS,
    WEAPON_RULES,
)

__all__ = [
    "ACTION_KEY",
    "ATTACKER_KEYS",
    "CARD_KEY",
    "SETTINGS_KEYS",
    "SIMULATION_KEYS",
    "SPEND_KEYS",
    "TARGET_KEYS",
    "TOP_KEYS",
    "WEAPON_KEYS",
    "ScenarioFileError",
    "load_scenario",
    "loads_scenario",
    "scenario_from_dict",
    "scenario_to_dict",
]

#: Keys each table of a scenario file may hold.
TOP_KEYS = ("simulation", "settings", "target", "attackers")
SIMULATION_KEYS = ("trials", "seed", "objective", "turns", "attack_turns")
SETTINGS_KEYS = ("brutal_damage",)
TARGET_KEYS = (
    "name",
    "def",
    "arm",
    "boxes",
    "base",
    "resist",
    "state",
    "terrain",
    "effects",
    "rules",
    "shield",
    "buckler",
    "upkeep_def",
    "upkeep_arm",
    "spell_def",
    "spell_arm",
    "focus",
    "fury",
    "power_field",
    "rapid_healing",
    "grid",
    "spiral",
)
ATTACKER_KEYS = (
    "name",
    "weapons",
    "focus",
    "fury",
    "force",
    "policy",
    "charge",
    "combined",
    "buy_weapon",
    "model",
    "crippled",
    "spend",
)
SPEND_KEYS = ("boost_attack", "boost_attack_at", "boost_damage", "buy_attacks", "reserve")
WEAPON_KEYS = (
    "name",
    "type",
    "skill",
    "pow",
    "attacks",
    "boosted_attack",
    "boosted_damage",
    "damage_type",
    "rules",
    "extra_attack_dice",
    "extra_damage_dice",
    "crippled",
    "location",
    "attack_discard",
    "damage_discard",
    "def_minus",
    "arm_minus",
    "effect_on",
    "damage_to",
)

#: Key of a ``[target]`` table or ``[[attackers]]`` entry naming a library card
#: (:mod:`mathhammer.cards`), and the attacker key picking its weapons of one type.
CARD_KEY = "card"
ACTION_KEY = "action"

# Target keys (other than ``def``, ``arm`` and the lists) passed to Target as they are.
_TARGET_PLAIN = (
    "name", "boxes", "base", "upkeep_def", "upkeep_arm", "spell_def", "spell_arm",
    "focus", "fury", "power_field", "rapid_healing", "grid", "spiral",
)
# Target keys holding lists of names, and the names each may hold.
_TARGET_LISTS = {
    "resist": DAMAGE_TYPES,
    "state": TARGET_STATES,
    "terrain": tuple(TERRAIN) + HAZARDS,
    "effects": CONTINUOUS_EFFECTS,
    "rules": TARGET_RULES,
    "shield": WEAPON_LOCATIONS,
    "buckler": WEAPON_LOCATIONS,
}
# Names that belong in another list of the target: the hint added to the error.
_TARGET_LIST_HINTS: dict[str, dict[str, str]] = {
    "effects": {h: f"{h} is a hazard: it goes in target.terrain" for h in HAZARDS},
    "terrain": {e: f"{e} is a continuous effect: it goes in target.effects" for e in CONTINUOUS_EFFECTS},
    "state": {
        **{t: f"{t} is terrain: it goes in target.terrain" for t in TERRAIN if t not in TARGET_STATES},
        **{h: f"{h} is a hazard: it goes in target.terrain" for h in HAZARDS},
        **{e: f"{e} is a continuous effect: it goes in target.effects" for e in CONTINUOUS_EFFECTS},
    },
}
# Attacker keys passed to Attacker as they are.
_ATTACKER_PLAIN = ("focus", "fury", "force", "policy", "charge", "combined", "buy_weapon", "model",
                   "crippled")

# Names players often write for a key, mapped to the key the file format uses (or to the
# keys it may mean, the first one the table allows being suggested).
_ALIASES: dict[str, str | tuple[str, ...]] = {
    "defense": "def",
    "defence": "def",
    "armor": "arm",
    "armour": "arm",
    "damage_boxes": "boxes",
    "damage": "boxes",
    "hp": "boxes",
    "size": "base",
    "base_size": "base",
    "resists": "resist",
    "resistance": "resist",
    "states": "state",
    "mat": "skill",
    "rat": "skill",
    "rof": "attacks",
    "power": "pow",
    "p+s": "pow",
    "ps": "pow",
    "boost_attack": "boosted_attack",
    "boost_damage": "boosted_damage",
    "damage_types": "damage_type",
    "special_rules": "rules",
    "rule": "rules",
    "abilities": "rules",
    "weapon": "weapons",
    "attacker": "attackers",
    "iterations": "trials",
    "samples": "trials",
    "n": "trials",
    "random_seed": "seed",
    "fp": "focus",
    "focus_points": "focus",
    "fury_points": "fury",
    "forcing": "force",
    "shields": "shield",
    "bucklers": "buckler",
    "powerfield": "power_field",
    "healing": "rapid_healing",
    "regeneration": "rapid_healing",
    "minus_def": "def_minus",
    "minus_arm": "arm_minus",
    "spending": "spend",
    "combined_attack": "combined",
    "bought_weapon": "buy_weapon",
    "buy": "buy_attacks",
    "boosted_attack_at": "boost_attack_at",
    "boost_at": "boost_attack_at",
    "brutal": "brutal_damage",
    "goal": "objective",
    "damage_grid": "grid",
    "life_spiral": "spiral",
    "columns": "grid",
    "branches": "spiral",
    "damage_to_system": "damage_to",
    "damage_system": "damage_to",
    "target_system": "damage_to",
    "kind": "model",
    "model_type": "model",
    "crippled_systems": "crippled",
    "crippled_aspects": "crippled",
    "optimize": ("policy", "objective"),
    "optimise": ("policy", "objective"),
    "rounds": "turns",
    "turn": "turns",
    "attack_rounds": "attack_turns",
    "hazard": "terrain",
    "hazards": "terrain",
    "effect": ("effects", "effect_on"),
    "continuous_effects": "effects",
    "continuous": "effects",
    "conditions": "effects",
    "effects": "rules",  # in a weapon: rules = ["fire"] puts the effect on a hit
}

# Where a key that is unknown in one table belongs instead, for each table.
_ELSEWHERE: dict[str, dict[str, str]] = {
    "": {
        **{k: "[simulation]" for k in SIMULATION_KEYS},
        **{k: "[settings]" for k in SETTINGS_KEYS},
        "def": "[target]",
        "arm": "[target]",
    },
    "simulation": {k: "[settings]" for k in SETTINGS_KEYS},
    "settings": {k: "[simulation]" for k in SIMULATION_KEYS},
    "attacker": {
        **{k: "[[attackers.weapons]]" for k in WEAPON_KEYS if k not in ATTACKER_KEYS},
        **{k: "[attackers.spend]" for k in SPEND_KEYS},
        "turns": "[simulation]",
        "attack_turns": "[simulation]",
    },
    "spend": {k: "[[attackers]]" for k in ATTACKER_KEYS if k not in SPEND_KEYS},
    "weapon": {k: "[[attackers]]" for k in ATTACKER_KEYS if k not in WEAPON_KEYS},
    "target": {"turns": "[simulation]", "attack_turns": "[simulation]"},
}

_MAX_REPR = 80


class _Missing:
    """Marker for 'no value': a required key that is absent, or an unreadable file."""

    def __repr__(self) -> str:  # pragma: no cover - never shown
        return "<missing>"


MISSING = _Missing()


def _short_repr(value: object) -> str:
    text = repr(value).replace("\n", "\\n").replace("\r", "\\r")
    if len(text) > _MAX_REPR:
        text = text[: _MAX_REPR - 3] + "..."
    return text


class ScenarioFileError(InputError):
    """A problem in a scenario file (or dict): one line naming the source, key and value.

    Parameters
    ----------
    source : str
        File name as the user gave it (``"<dict>"`` for :func:`scenario_from_dict`).
    key : str
        Dotted key, e.g. ``"attackers[0].weapons[1].skill"``; empty for problems with the
        file as a whole (unreadable, not TOML).
    value : object
        The offending value; :data:`MISSING` when there is none (a missing key).
    reason : str

    Examples
    --------
    >>> str(ScenarioFileError("x.toml", "target.def", 45, "must be between 0 and 40"))
    'x.toml: target.def: must be between 0 and 40 (got 45)'
    >>> str(ScenarioFileError("x.toml", "target.arm", MISSING, "required key is missing"))
    'x.toml: target.arm: required key is missing'
    """

    def __init__(self, source: str, key: str, value: object, reason: str):
        self.source = source
        super().__init__(key, value, reason)

    def _format(self) -> str:
        parts = [self.source]
        if self.key:
            parts.append(self.key)
        text = ": ".join(parts) + ": " + " ".join(str(self.reason).split())
        if self.value is not MISSING:
            text += f" (got {_short_repr(self.value)})"
        return text

    def under(self, prefix: str) -> ScenarioFileError:
        err = InputError.under(self, prefix)
        return ScenarioFileError(self.source, err.key, self.value, self.reason)

    def __reduce__(self):
        return (type(self), (self.source, self.key, self.value, self.reason))

    @classmethod
    def wrap(cls, source: str, err: InputError, prefix: str = "") -> ScenarioFileError:
        """Turn an :class:`InputError` of the rules model into a file error under ``prefix``."""
        if prefix:
            err = InputError.under(err, prefix)
        return cls(source, err.key, err.value, _suggest_choice(err))


# ---------------------------------------------------------------------------- helpers
def _normal(name: str) -> str:
    return name.lower().replace("-", "_").replace(" ", "_")


def _suggest_choice(err: InputError) -> str:
    """Add 'did you mean ...?' to a 'must be one of' reason when a close name exists."""
    reason = err.reason
    prefix = "must be one of "
    if isinstance(err.value, str) and reason.startswith(prefix):
        choices = [c.strip() for c in reason[len(prefix):].split(",")]
        folded = [c for c in choices if c.casefold() == err.value.strip().casefold()]
        close = folded or difflib.get_close_matches(_normal(err.value), choices, n=1, cutoff=0.6)
        if close:
            return f"{reason}; did you mean {close[0]!r}?"
    return reason


def _unknown_key_reason(key: str, allowed: tuple[str, ...], table: str = "") -> str:
    """Why ``key`` is refused in ``table``: a close allowed key, else the table it belongs
    in, else the allowed keys."""
    lowered = _normal(key)
    elsewhere = _ELSEWHERE.get(table, {})
    aliases = _ALIASES.get(lowered, ())
    aliases = [a for a in ((aliases,) if isinstance(aliases, str) else aliases) if a in allowed]
    guess = None
    if table and lowered in TOP_KEYS and lowered not in allowed:
        return (f"unknown key here: TOML puts the keys after a [table] header into that table; "
                f"write {lowered} = ... before the first header, or as its own [{lowered}] table")
    if lowered in allowed:
        guess = lowered
    elif aliases:
        guess = aliases[0]
    elif lowered in elsewhere:
        return f"unknown key here; it belongs in the {elsewhere[lowered]} table"
    else:
        close = difflib.get_close_matches(lowered, allowed, n=1, cutoff=0.6)
        if close:
            guess = close[0]
    reason = "unknown key"
    if guess is not None:
        reason += f"; did you mean {guess!r}?"
    else:
        reason += " (allowed: " + ", ".join(allowed) + ")"
    return reason


def _join(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


class _Reader:
    """Reads one scenario document, remembering the source name for its errors.

    ``cards``: card directories searched first; ``base``: the folder relative card paths are
    resolved against (the scenario file's; None: the working directory).
    """

    def __init__(self, source: str, cards=None, base: str | os.PathLike | None = None):
        self.source = source
        self.cards = cards
        self.base = base

    def error(self, key: str, value: object, reason: str) -> ScenarioFileError:
        return ScenarioFileError(self.source, key, value, reason)

    def wrap(self, err: InputError, prefix: str = "") -> ScenarioFileError:
        return ScenarioFileError.wrap(self.source, err, prefix)

    def table(self, value: object, key: str, hint: str) -> Mapping:
        if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            raise self.error(key, value, f"must be a table ({hint}), not an array of tables")
        if not isinstance(value, Mapping):
            raise self.error(key, value, f"must be a table ({hint})")
        return value

    def check_keys(self, table: Mapping, prefix: str, allowed: tuple[str, ...], kind: str = "") -> None:
        for k, v in table.items():
            if k not in allowed:
                raise self.error(_join(prefix, str(k)), v, _unknown_key_reason(str(k), allowed, kind))

    def require(self, table: Mapping, prefix: str, key: str) -> object:
        if key not in table:
            raise self.error(_join(prefix, key), MISSING, "required key is missing")
        return table[key]

    def name_list(self, table: Mapping, prefix: str, key: str, choices: tuple[str, ...],
                  hints: Mapping[str, str] | None = None) -> list:
        """A list of names from ``choices``, checked here in file order (the dataclasses
        turn it into a set first, so their error would name an arbitrary index). ``hints``:
        for a name that belongs in another list, what to say instead of a close name."""
        value = table.get(key, [])
        full = _join(prefix, key)
        if isinstance(value, str):
            raise self.error(full, value, f"must be a list of strings, e.g. [{value!r}]")
        if not isinstance(value, list):
            raise self.error(full, value, "must be a list of strings")
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise self.error(f"{full}[{i}]", item, "must be a string")
            try:
                check_choice(f"{full}[{i}]", item, choices)
            except InputError as err:
                if hints and item in hints:
                    raise self.error(err.key, item, f"{err.reason}; {hints[item]}") from None
                raise self.wrap(err) from None
        return value

    # ------------------------------------------------------------------ sections
    def simulation(self, data: Mapping) -> dict:
        """Keyword arguments of :class:`Scenario` from ``[simulation]``."""
        if "simulation" not in data:
            return {"trials": DEFAULT_TRIALS}
        sim = self.table(data["simulation"], "simulation", "[simulation]")
        self.check_keys(sim, "simulation", SIMULATION_KEYS, "simulation")
        out = {}
        try:
            out["trials"] = check_int("simulation.trials", sim.get("trials", DEFAULT_TRIALS), 1, MAX_TRIALS)
            if sim.get("seed") is not None:
                out["seed"] = check_int("simulation.seed", sim["seed"], 0, MAX_SEED)
            if "objective" in sim:
                objective = sim["objective"]
                if not _is_cripple(objective):
                    # kill | damage: checked now; cripple:X once the target's card is known
                    check_objective("simulation.objective", objective, _NO_CARD)
                out["objective"] = objective
            if "turns" in sim:
                out["turns"] = check_int("simulation.turns", sim["turns"], 1, MAX_TURNS)
            if "attack_turns" in sim:
                out["attack_turns"] = check_choice("simulation.attack_turns", sim["attack_turns"],
                                                   ATTACK_TURNS)
        except InputError as err:
            raise self.wrap(err) from None
        return out

    def objective(self, objective: object, target: Target) -> None:
        """Check ``cripple:X`` against the target's grid or spiral."""
        try:
            check_objective("simulation.objective", objective, target)
        except InputError as err:
            reason = err.reason
            letter = str(objective).split(":", 1)[1].strip()
            if not letter and target.letters:
                reason = ("names no system or aspect: write cripple:X with X one of "
                          + ", ".join(target.letters))
            for x in target.letters:
                if x.casefold() == letter.casefold() and f"cripple:{x}" != objective:
                    reason += f"; did you mean 'cripple:{x}'?"
            raise self.error(err.key, err.value, reason) from None

    def settings(self, data: Mapping) -> dict:
        """Keyword arguments of :class:`Scenario` from ``[settings]``."""
        if "settings" not in data:
            return {}
        settings = self.table(data["settings"], "settings", "[settings]")
        self.check_keys(settings, "settings", SETTINGS_KEYS, "settings")
        out = {}
        try:
            if "brutal_damage" in settings:
                out["brutal_damage"] = check_choice("settings.brutal_damage", settings["brutal_damage"],
                                                    BRUTAL_DAMAGE_ON)
        except InputError as err:
            raise self.wrap(err) from None
        return out

    # ------------------------------------------------------------------ card references
    def card(self, ref: object, key: str):
        """The library card ``ref`` names (:func:`mathhammer.cards.load_card`)."""
        from .cards import load_card

        try:
            return load_card(ref, self.cards, self.base)
        except ScenarioFileError:
            raise  # a problem inside the card file: named by its file and key
        except InputError as err:
            if err.key != "card":
                raise  # a missing card directory (--cards, MATHHAMMER_CARDS)
            raise self.error(key, err.value, err.reason) from None

    def card_target(self, tgt: Mapping) -> Mapping:
        """``[target]`` with ``card = ...``: the card's table with the other keys over it."""
        from .cards import merge_target

        self.check_keys(tgt, "target", TARGET_KEYS + (CARD_KEY,), "target")
        return merge_target(self.card(tgt[CARD_KEY], f"target.{CARD_KEY}"), tgt)

    def card_attacker(self, att: Mapping, prefix: str, taken: set[str]) -> Mapping:
        """``[[attackers]]`` with ``card = ...``: the card's table with the other keys over
        it, named apart from the attackers before it when no name is given."""
        from .cards import merge_attacker

        self.check_keys(att, prefix, ATTACKER_KEYS + (CARD_KEY, ACTION_KEY), "attacker")
        card = self.card(att[CARD_KEY], f"{prefix}.{CARD_KEY}")
        try:
            table = merge_attacker(card, att, att.get(ACTION_KEY))
        except InputError as err:
            raise self.wrap(err, prefix) from None
        if "name" not in att and isinstance(table.get("name"), str) and table["name"] in taken:
            n = 2
            while f"{table['name']} {n}" in taken:
                n += 1
            table["name"] = f"{table['name']} {n}"
        return table

    def target(self, data: Mapping) -> Target:
        raw = self.require(data, "", "target")
        if isinstance(raw, list):
            raise self.error("target", raw, "must be a table ([target]), not an array ([[target]])")
        tgt = self.table(raw, "target", "[target]")
        if CARD_KEY in tgt:
            tgt = self.card_target(tgt)
        self.check_keys(tgt, "target", TARGET_KEYS, "target")
        kwargs = {
            "defense": self.require(tgt, "target", "def"),
            "arm": self.require(tgt, "target", "arm"),
        }
        for key, choices in _TARGET_LISTS.items():
            kwargs[key] = self.name_list(tgt, "target", key, choices, _TARGET_LIST_HINTS.get(key))
        for key in _TARGET_PLAIN:
            if key in tgt:
                kwargs[key] = tgt[key]
        card = tgt.get("grid") is not None or tgt.get("spiral") is not None
        if card:
            # With a card, boxes is its total: the file leaves it out or gives that number
            # (checked below; Target would also take 1, its default).
            kwargs.pop("boxes", None)
        try:
            target = Target(**kwargs)
            if card and "boxes" in tgt:
                check_int("boxes", tgt["boxes"], 1, MAX_BOXES)
        except InputError as err:
            raise self.wrap(err, "target") from None
        if card and "boxes" in tgt and tgt["boxes"] != target.boxes:
            raise self.error("target.boxes", tgt["boxes"],
                             f"with a {target.capacity}, boxes is its number of boxes "
                             f"({target.boxes}): leave it out or give {target.boxes}")
        return target

    def weapon(self, raw: object, prefix: str) -> Weapon:
        wpn = self.table(raw, prefix, "[[attackers.weapons]]")
        self.check_keys(wpn, prefix, WEAPON_KEYS, "weapon")
        kwargs = {key: self.require(wpn, prefix, key) for key in ("name", "type", "skill", "pow")}
        pow_ = kwargs["pow"]
        if isinstance(pow_, str):
            if pow_.strip() != "-":
                raise self.error(f"{prefix}.pow", pow_, 'must be an integer or "-"')
            kwargs["pow"] = None
        kwargs["damage_type"] = self.name_list(wpn, prefix, "damage_type", DAMAGE_TYPES)
        kwargs["rules"] = self.name_list(wpn, prefix, "rules", WEAPON_RULES)
        for key in WEAPON_KEYS:
            if key in wpn and key not in kwargs:
                kwargs[key] = wpn[key]
        try:
            return Weapon(**kwargs)
        except InputError as err:
            if err.key == "crippled" and isinstance(err.value, list):
                raise self.error(f"{prefix}.crippled", err.value,
                                 "must be true or false (a crippled weapon system); the attacker's "
                                 "crippled systems or aspects go in [[attackers]] as crippled = [...]"
                                 ) from None
            raise self.wrap(err, prefix) from None

    def spend(self, att: Mapping, prefix: str) -> Spend:
        """The ``[attackers.spend]`` table; absent: the default policy."""
        if "spend" not in att:
            return Spend()
        key = f"{prefix}.spend"
        table = self.table(att["spend"], key, "[attackers.spend]")
        self.check_keys(table, key, SPEND_KEYS, "spend")
        try:
            return Spend(**{k: table[k] for k in SPEND_KEYS if k in table})
        except InputError as err:
            # Spend names its keys "spend.x"; put the attacker in front.
            raise self.wrap(err, prefix if err.key.startswith("spend.") else key) from None

    def weapon_list(self, att: Mapping, prefix: str) -> list:
        """The (required) ``weapons`` array of an attacker table, unchecked items."""
        raw_weapons = self.require(att, prefix, "weapons")
        if isinstance(raw_weapons, Mapping):
            raise self.error(f"{prefix}.weapons", raw_weapons,
                             "must be an array of tables ([[attackers.weapons]]), not a table")
        if not isinstance(raw_weapons, list):
            raise self.error(f"{prefix}.weapons", raw_weapons,
                             "must be an array of tables ([[attackers.weapons]])")
        return raw_weapons

    def attacker(self, raw: object, index: int, prefix: str | None = None,
                 taken: set[str] | None = None) -> Attacker:
        """One ``[[attackers]]`` entry; ``prefix`` names it in errors (default
        ``attackers[index]``); ``taken``: names of the attackers before it."""
        prefix = prefix or f"attackers[{index}]"
        att = self.table(raw, prefix, "[[attackers]]")
        if CARD_KEY in att:
            att = self.card_attacker(att, prefix, taken or set())
        elif ACTION_KEY in att:
            raise self.error(f"{prefix}.{ACTION_KEY}", att[ACTION_KEY],
                             "picks the weapons of a library card: only beside card = \"...\"")
        self.check_keys(att, prefix, ATTACKER_KEYS, "attacker")
        name = att.get("name", f"Attacker {index + 1}")
        raw_weapons = self.weapon_list(att, prefix)
        weapons = [self.weapon(w, f"{prefix}.weapons[{j}]") for j, w in enumerate(raw_weapons)]
        kwargs = {key: att[key] for key in _ATTACKER_PLAIN if key in att}
        if "crippled" in att:
            crippled = att["crippled"]
            key = f"{prefix}.crippled"
            if isinstance(crippled, bool):
                raise self.error(key, crippled, "must be a list of system or aspect letters, e.g. "
                                 "['L']; a crippled weapon is crippled = true in [[attackers.weapons]]")
            if isinstance(crippled, str):
                example = list(crippled) if 0 < len(crippled) <= 3 and crippled.isupper() else ["L"]
                raise self.error(key, crippled, "must be a list of system or aspect letters, "
                                 f"e.g. {example!r}")
            if not isinstance(crippled, list):
                raise self.error(key, crippled, "must be a list of system or aspect letters")
        kwargs["spend"] = self.spend(att, prefix)
        try:
            return Attacker(name, weapons, **kwargs)
        except InputError as err:
            if err.key == "buy_weapon" and isinstance(err.value, str):
                raise self.error(f"{prefix}.buy_weapon", err.value,
                                 _buy_weapon_reason(err.value, weapons)) from None
            raise self.wrap(err, prefix) from None

    def attackers(self, data: Mapping) -> list[Attacker]:
        raw = self.require(data, "", "attackers")
        if isinstance(raw, Mapping):
            raise self.error("attackers", raw, "must be an array of tables ([[attackers]]), not a table")
        if not isinstance(raw, list):
            raise self.error("attackers", raw, "must be an array of tables ([[attackers]])")
        if not raw:
            raise self.error("attackers", raw, "at least one attacker is needed")
        out: list[Attacker] = []
        for i, a in enumerate(raw):
            out.append(self.attacker(a, i, taken={x.name for x in out}))
        return out

    def scenario(self, data: object) -> Scenario:
        if not isinstance(data, Mapping):
            raise self.error("", data, "a scenario must be a table of keys")
        self.check_keys(data, "", TOP_KEYS, "")
        kwargs = self.simulation(data)
        kwargs.update(self.settings(data))
        target = self.target(data)
        if "objective" in kwargs:
            self.objective(kwargs["objective"], target)
        attackers = self.attackers(data)
        try:
            return Scenario(target, attackers, **kwargs)
        except InputError as err:
            raise self.wrap(err) from None


_NO_CARD = Target(defense=0, arm=0)


def _is_cripple(objective: object) -> bool:
    """``cripple:X`` in any case: checked against the target's card, not the fixed list."""
    return isinstance(objective, str) and objective.strip().casefold().startswith("cripple:")


def _buy_weapon_reason(value: str, weapons: list[Weapon]) -> str:
    """Why ``buy_weapon = value`` names no melee weapon of the attacker, with a close name."""
    melee = [w.name for w in weapons if w.type == "melee"]
    if not melee:
        return "names a weapon to buy attacks with, but the attacker has no melee weapon"
    reason = "must name one of its melee weapons: " + ", ".join(melee)
    folded = {name.casefold(): name for name in melee}
    close = difflib.get_close_matches(value.casefold(), list(folded), n=1, cutoff=0.6)
    if close:
        reason += f"; did you mean {folded[close[0]]!r}?"
    return reason


def _changed(obj: object, names: tuple[str, ...]) -> dict:
    """The fields ``names`` of dataclass ``obj`` that differ from their defaults, as TOML
    values (sets sorted into lists, tuples as lists)."""
    out = {}
    fields = {f.name: f for f in dataclasses.fields(obj)}
    for name in names:
        f = fields[name]
        default = f.default if f.default_factory is dataclasses.MISSING else f.default_factory()
        value = getattr(obj, name)
        if value == default:
            continue
        if isinstance(value, (set, frozenset)):
            value = sorted(value)
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = value
    return out


# ---------------------------------------------------------------------------- public API
def scenario_from_dict(data: dict, source: str = "<dict>", cards=None,
                       base: str | os.PathLike | None = None) -> Scenario:
    """Build a :class:`~mathhammer.rules.Scenario` from the tables of a scenario file.

    Parameters
    ----------
    data : dict
        What :func:`tomllib.load` returns for a scenario file (keys ``simulation``,
        ``settings``, ``target``, ``attackers``).
    source : str
        Name used in error messages.
    cards : iterable of path-like, optional
        Card directories searched before ``MATHHAMMER_CARDS`` and the bundled cards, for
        ``card = "name"`` references (:mod:`mathhammer.cards`).
    base : path-like, optional
        Folder that relative card paths are resolved against (default: working directory).

    Returns
    -------
    Scenario

    Raises
    ------
    ScenarioFileError
        One-line message ``"{source}: {key}: {reason} (got {value!r})"``.

    Examples
    --------
    >>> s = scenario_from_dict({
    ...     "target": {"def": 12, "arm": 18, "boxes": 30},
    ...     "attackers": [{"name": "Jack", "weapons": [
    ...         {"name": "Fist", "type": "melee", "skill": 7, "pow": 16, "attacks": 2}]}],
    ... })
    >>> s.trials, s.seed, s.n_attacks
    (1000000, None, 2)
    >>> scenario_from_dict({"target": {"def": 12, "arm": 18}, "attackers": []})
    Traceback (most recent call last):
    ...
    mathhammer.scenario.ScenarioFileError: <dict>: attackers: at least one attacker is needed (got [])
    >>> scenario_from_dict({
    ...     "target": {"def": 12, "arm": 18, "focus": 11},
    ...     "attackers": [{"weapons": [{"name": "Fist", "type": "melee", "skill": 7, "pow": 16}]}],
    ... }, source="x.toml")
    Traceback (most recent call last):
    ...
    mathhammer.scenario.ScenarioFileError: x.toml: target.focus: must be between 0 and 10 (got 11)
    """
    return _Reader(source, cards, base).scenario(data)


def loads_scenario(text: str, source: str = "<string>", cards=None,
                   base: str | os.PathLike | None = None) -> Scenario:
    """Parse scenario TOML text.

    Parameters
    ----------
    text : str
        The TOML text of a scenario file.
    source : str
        Name used in error messages.
    cards, base
        As for :func:`scenario_from_dict`.

    Returns
    -------
    Scenario

    Raises
    ------
    ScenarioFileError
        When the text is not TOML or describes an invalid scenario.

    Examples
    --------
    >>> s = loads_scenario('''
    ... [target]
    ... def = 12
    ... arm = 18
    ... [[attackers]]
    ... focus = 3
    ... [attackers.spend]
    ... boost_attack = "always"
    ... [[attackers.weapons]]
    ... name = "Fist"
    ... type = "melee"
    ... skill = 7
    ... pow = 16
    ... ''')
    >>> s.attackers[0].focus, s.attackers[0].spend.boost_attack
    (3, 'always')
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioFileError(source, "", MISSING, f"invalid TOML: {exc}") from None
    return scenario_from_dict(data, source, cards, base)


def load_scenario(path: str | os.PathLike, cards=None) -> Scenario:
    """Read a scenario TOML file.

    Parameters
    ----------
    path : str or os.PathLike
        The file; error messages name it as given.
    cards : iterable of path-like, optional
        Card directories searched first (see :func:`scenario_from_dict`); relative card
        paths are resolved against the file's folder.

    Returns
    -------
    Scenario

    Raises
    ------
    ScenarioFileError
        When the file cannot be read, is not valid UTF-8 TOML, or describes an invalid
        scenario; the message is one line starting with the file name as given.
    """
    source = os.fspath(path)
    if isinstance(source, bytes):
        source = os.fsdecode(source)
    p = Path(source)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise ScenarioFileError(source, "", MISSING, "no such file") from None
    except IsADirectoryError:
        raise ScenarioFileError(source, "", MISSING, "is a directory, not a scenario file") from None
    except PermissionError:
        raise ScenarioFileError(source, "", MISSING, "permission denied") from None
    except OSError as exc:
        raise ScenarioFileError(source, "", MISSING, f"cannot read file: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioFileError(
            source, "", MISSING, f"not UTF-8 text (bad byte at offset {exc.start}); is it a TOML file?"
        ) from None
    return loads_scenario(text, source, cards, p.parent)


def scenario_to_dict(scenario: Scenario) -> dict:
    """The tables of a scenario file for ``scenario`` (inverse of :func:`scenario_from_dict`).

    The keys of the original format are always written (``seed`` and ``location`` only when
    set, ``boxes`` only for a damage track: with a grid or spiral it is the card's total); the
    later keys only when they differ from their defaults, and ``[settings]`` and
    ``[attackers.spend]`` only when one of their keys does.

    Parameters
    ----------
    scenario : Scenario

    Returns
    -------
    dict
        Plain ``dict`` / ``list`` / ``str`` / ``int`` / ``bool`` values, as
        :func:`tomllib.load` would return them.

    Examples
    --------
    >>> s = scenario_from_dict({
    ...     "simulation": {"trials": 1000, "seed": 3, "turns": 3, "attack_turns": "all"},
    ...     "target": {"def": 12, "arm": 18, "resist": ["fire"], "focus": 2, "effects": ["corrosion"]},
    ...     "attackers": [{"name": "Jack", "focus": 3, "spend": {"reserve": 1}, "weapons": [
    ...         {"name": "Fist", "type": "melee", "skill": 7, "pow": "-"}]}],
    ... })
    >>> scenario_from_dict(scenario_to_dict(s)) == s
    True
    >>> d = scenario_to_dict(s)
    >>> d["target"]["focus"], d["attackers"][0]["spend"], "settings" in d
    (2, {'reserve': 1}, False)
    >>> d["simulation"], d["target"]["effects"]
    ({'trials': 1000, 'seed': 3, 'turns': 3}, ['corrosion'])
    """
    sim: dict = {"trials": scenario.trials}
    if scenario.seed is not None:
        sim["seed"] = scenario.seed
    sim.update(_changed(scenario, SIMULATION_KEYS[SIMULATION_KEYS.index("objective"):]))
    out: dict = {"simulation": sim}
    settings = _changed(scenario, SETTINGS_KEYS)
    if settings:
        out["settings"] = settings
    t = scenario.target
    target = {
        "name": t.name,
        "def": t.defense,
        "arm": t.arm,
        "boxes": t.boxes,
        "base": t.base,
        "resist": sorted(t.resist),
        "state": sorted(t.state),
    }
    if t.card is not None:
        del target["boxes"]  # the card's total: a file leaves it out
    target.update(_changed(t, TARGET_KEYS[TARGET_KEYS.index("terrain"):]))
    out["target"] = target
    attackers = []
    for a in scenario.attackers:
        weapons = []
        for w in a.weapons:
            wd = {
                "name": w.name,
                "type": w.type,
                "skill": w.skill,
                "pow": "-" if w.pow is None else w.pow,
                "attacks": w.attacks,
                "boosted_attack": w.boosted_attack,
                "boosted_damage": w.boosted_damage,
                "damage_type": sorted(w.damage_type),
                "rules": sorted(w.rules),
                "extra_attack_dice": w.extra_attack_dice,
                "extra_damage_dice": w.extra_damage_dice,
                "crippled": w.crippled,
            }
            wd.update(_changed(w, WEAPON_KEYS[WEAPON_KEYS.index("location"):]))
            weapons.append(wd)
        ad: dict = {"name": a.name}
        ad.update(_changed(a, _ATTACKER_PLAIN))
        spend = _changed(a.spend, SPEND_KEYS)
        if spend:
            ad["spend"] = spend
        ad["weapons"] = weapons
        attackers.append(ad)
    out["attackers"] = attackers
    return out
