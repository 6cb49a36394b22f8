"""The scenario file format's schema: the keys of each table, the names players write for
them, "did you mean" suggestions, and :class:`ScenarioFileError`, the one-line error every
problem in a file (scenario or card) becomes.

The format itself, key by key, is ``docs/scenario-format.md``.
"""

from __future__ import annotations

import difflib

from ..errors import InputError, cut, shown
from ..rules.vocabulary import (
    CONTINUOUS_EFFECTS,
    DAMAGE_TYPES,
    HAZARDS,
    READINGS,
    TARGET_RULES,
    TARGET_SETTINGS,
    TARGET_STATES,
    TERRAIN,
    UPKEEP_RULES,
    WEAPON_LOCATIONS,
)

__all__ = [
    "buy_weapon_reason",
    "ACTION_KEY",
    "ALIASES",
    "ATTACKER_KEYS",
    "ATTACKER_PLAIN",
    "CARD_KEY",
    "ELSEWHERE",
    "MISSING",
    "RUN_SETTINGS_KEYS",
    "SETTINGS_KEYS",
    "SIMULATION_KEYS",
    "SPEND_KEYS",
    "TARGET_KEYS",
    "TARGET_LISTS",
    "TARGET_LIST_HINTS",
    "TARGET_PLAIN",
    "TOP_KEYS",
    "WEAPON_KEYS",
    "ScenarioFileError",
    "normal_name",
    "suggest_choice",
    "unknown_key_reason",
]

#: Keys each table of a scenario file may hold.
TOP_KEYS = ("simulation", "settings", "target", "targets", "attackers")
SIMULATION_KEYS = ("trials", "seed", "objective", "turns", "attack_turns")
#: ``[settings]`` keys a trade takes; a scenario takes the target's settings too.
RUN_SETTINGS_KEYS = ("brutal_damage",) + READINGS
SETTINGS_KEYS = RUN_SETTINGS_KEYS + TARGET_SETTINGS
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
    "models",
    "tough_on",
    "feat_def",
    "feat_arm",
    "upkeep_rules",
    "shield_guard",
    "guard_blocks",
)
ATTACKER_KEYS = ("name", "weapons", "focus", "fury", "force", "policy", "charge", "combined", "buy_weapon",
                 "model", "crippled", "models", "target", "targets", "spend", "base", "side", "keep_points",
                 "controls", "cavalry")
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
    "reload",
    "cost",
    "blast_pow",
    "blast_models",
    "blast_on_miss",
    "target",
    "targets",
    "auto_hit",
    "power_attack",
    "slam_contact",
    "collateral",
)

#: Key of a ``[target]`` table or ``[[attackers]]`` entry naming a library card
#: (:mod:`mathhammer.io.cards`), and the attacker key picking its weapons of one type.
CARD_KEY = "card"
ACTION_KEY = "action"

#: Target keys (other than ``def``, ``arm`` and the lists) passed to Target as they are.
TARGET_PLAIN = (
    "name", "boxes", "base", "upkeep_def", "upkeep_arm", "spell_def", "spell_arm",
    "focus", "fury", "power_field", "rapid_healing", "grid", "spiral", "models", "tough_on",
    "feat_def", "feat_arm", "shield_guard", "guard_blocks",
)
#: Target keys holding lists of names, and the names each may hold.
TARGET_LISTS = {
    "resist": DAMAGE_TYPES,
    "state": TARGET_STATES,
    "terrain": tuple(TERRAIN) + HAZARDS,
    "effects": CONTINUOUS_EFFECTS,
    "rules": TARGET_RULES,
    "upkeep_rules": UPKEEP_RULES,
    "shield": WEAPON_LOCATIONS,
    "buckler": WEAPON_LOCATIONS,
}
#: Names that belong in another list of the target: the hint added to the error.
TARGET_LIST_HINTS: dict[str, dict[str, str]] = {
    "effects": {h: f"{h} is a hazard: it goes in target.terrain" for h in HAZARDS},
    "terrain": {e: f"{e} is a continuous effect: it goes in target.effects" for e in CONTINUOUS_EFFECTS},
    "state": {
        **{t: f"{t} is terrain: it goes in target.terrain" for t in TERRAIN if t not in TARGET_STATES},
        **{h: f"{h} is a hazard: it goes in target.terrain" for h in HAZARDS},
        **{e: f"{e} is a continuous effect: it goes in target.effects" for e in CONTINUOUS_EFFECTS},
    },
}
#: Attacker keys passed to Attacker as they are.
ATTACKER_PLAIN = ("focus", "fury", "force", "policy", "charge", "combined", "buy_weapon", "model",
                   "crippled", "models", "targets", "base", "side", "keep_points", "controls", "cavalry")

#: Names players often write for a key, mapped to the key the file format uses (or to the
#: keys it may mean, the first one the table allows being suggested).
ALIASES: dict[str, str | tuple[str, ...]] = {
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
    "aoe_pow": "blast_pow",
    "blast": "blast_pow",
    "aoe": "blast_pow",
    "unit_size": "models",
    "size_of_unit": "models",
    "count": "models",
    "number": "models",
    "bought_weapon": "buy_weapon",
    "keep_focus": "keep_points",
    "keep_fury": "keep_points",
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

#: Where a key that is unknown in one table belongs instead, for each table.
ELSEWHERE: dict[str, dict[str, str]] = {
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


class _Missing:
    """Marker for 'no value': a required key that is absent, or an unreadable file."""

    def __repr__(self) -> str:  # pragma: no cover - never shown
        return "<missing>"


MISSING = _Missing()


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
        # the file's name as given, but one too long for any file system (cut, its end kept)
        parts = [cut(self.source, 300)]
        if self.key:
            parts.append(self.key)
        text = ": ".join(parts) + ": " + " ".join(str(self.reason).split())
        if self.value is not MISSING:
            text += f" (got {shown(self.value)})"
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
        return cls(source, err.key, err.value, suggest_choice(err))


# ---------------------------------------------------------------------------- helpers
def normal_name(name: str) -> str:
    """``name`` folded as keys and card names are compared: lower case, ``_`` for ``-`` and
    spaces.

    >>> normal_name("Heavy Warjack"), normal_name("power-field")
    ('heavy_warjack', 'power_field')
    """
    return name.lower().replace("-", "_").replace(" ", "_")


def suggest_choice(err: InputError) -> str:
    """Add 'did you mean ...?' to a 'must be one of' reason when a close name exists."""
    reason = err.reason
    prefix = "must be one of "
    if isinstance(err.value, str) and reason.startswith(prefix):
        choices = [c.strip() for c in reason[len(prefix):].split(",")]
        folded = [c for c in choices if c.casefold() == err.value.strip().casefold()]
        close = folded or difflib.get_close_matches(normal_name(err.value), choices, n=1, cutoff=0.6)
        if close:
            return f"{reason}; did you mean {close[0]!r}?"
    return reason


def unknown_key_reason(key: str, allowed: tuple[str, ...], table: str = "") -> str:
    """Why ``key`` is refused in ``table``: a close allowed key, else the table it belongs
    in, else the allowed keys."""
    lowered = normal_name(key)
    elsewhere = ELSEWHERE.get(table, {})
    aliases = ALIASES.get(lowered, ())
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


def buy_weapon_reason(value: str, weapons) -> str:
    """Why ``buy_weapon = value`` names no melee weapon of the attacker, with a close name."""
    melee = [w.name for w in weapons if w.type == "melee" and w.power_attack is None]
    if not melee:
        return "names a weapon to buy attacks with, but the attacker has no melee weapon"
    if value in (w.name for w in weapons if w.power_attack is not None):
        return "is a power attack, the combat action itself: buy attacks with " + ", ".join(melee)
    reason = "must name one of its melee weapons: " + ", ".join(melee)
    folded = {name.casefold(): name for name in melee}
    close = difflib.get_close_matches(value.casefold(), list(folded), n=1, cutoff=0.6)
    if close:
        reason += f"; did you mean {folded[close[0]]!r}?"
    return reason
