"""Scenario files (TOML) <-> rules objects.

A scenario file describes one target, the attackers that act against it in order, and the
simulation settings::

    [simulation]
    trials = 1000000          # default 1_000_000
    seed = 1                  # absent: drawn at simulation time and reported

    [target]
    name = "Heavy warjack"
    def = 12
    arm = 18
    boxes = 30                # damage track; absent = 1 box
    base = "large"            # small | medium | large | extra_large | huge
    resist = ["fire"]
    state = ["knocked_down"]

    [[attackers]]
    name = "Heavy warjack"

    [[attackers.weapons]]
    name = "Fist"
    type = "melee"            # melee | ranged | arcane
    skill = 7                 # MAT (melee) or RAT (ranged, arcane)
    pow = 16                  # integer, or "-"
    attacks = 1

Every problem in a file raises :class:`ScenarioFileError`, an
:class:`~mathhammer.errors.InputError` whose message is one line naming the file, the dotted
key and the offending value, e.g.
``x.toml: attackers[0].weapons[1].skill: must be between 0 and 30 (got 45)``.
"""

from __future__ import annotations

import difflib
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path

from .errors import InputError
from .rules import Attacker, Scenario, Target, Weapon
from .rules._validate import check_choice, check_int
from .rules.scenario import DEFAULT_TRIALS, MAX_SEED, MAX_TRIALS
from .rules.vocabulary import DAMAGE_TYPES, TARGET_STATES, WEAPON_RULES

__all__ = [
    "ScenarioFileError",
    "load_scenario",
    "loads_scenario",
    "scenario_from_dict",
    "scenario_to_dict",
    "TOP_KEYS",
    "SIMULATION_KEYS",
    "TARGET_KEYS",
    "ATTACKER_KEYS",
    "WEAPON_KEYS",
]

#: Keys each table of a scenario file may hold.
TOP_KEYS = ("simulation", "target", "attackers")
SIMULATION_KEYS = ("trials", "seed")
TARGET_KEYS = ("name", "def", "arm", "boxes", "base", "resist", "state")
ATTACKER_KEYS = ("name", "weapons")
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
)

# Names players often write for a key, mapped to the key the file format uses.
_ALIASES = {
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
    "weapon": "weapons",
    "attacker": "attackers",
    "iterations": "trials",
    "samples": "trials",
    "n": "trials",
    "random_seed": "seed",
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

    def under(self, prefix: str) -> "ScenarioFileError":
        err = InputError.under(self, prefix)
        return ScenarioFileError(self.source, err.key, self.value, self.reason)

    def __reduce__(self):
        return (type(self), (self.source, self.key, self.value, self.reason))

    @classmethod
    def wrap(cls, source: str, err: InputError, prefix: str = "") -> "ScenarioFileError":
        """Turn an :class:`InputError` of the rules model into a file error under ``prefix``."""
        if prefix:
            err = InputError.under(err, prefix)
        return cls(source, err.key, err.value, _suggest_choice(err))


# ---------------------------------------------------------------------------- helpers
def _suggest_choice(err: InputError) -> str:
    """Add 'did you mean ...?' to a 'must be one of' reason when a close name exists."""
    reason = err.reason
    prefix = "must be one of "
    if isinstance(err.value, str) and reason.startswith(prefix):
        choices = [c.strip() for c in reason[len(prefix):].split(",")]
        close = difflib.get_close_matches(err.value.lower().replace("-", "_").replace(" ", "_"),
                                          choices, n=1, cutoff=0.6)
        if close:
            return f"{reason}; did you mean {close[0]!r}?"
    return reason


def _unknown_key_reason(key: str, allowed: tuple[str, ...]) -> str:
    lowered = key.lower().replace("-", "_").replace(" ", "_")
    guess = None
    if lowered in allowed:
        guess = lowered
    elif lowered in _ALIASES and _ALIASES[lowered] in allowed:
        guess = _ALIASES[lowered]
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
    """Reads one scenario document, remembering the source name for its errors."""

    def __init__(self, source: str):
        self.source = source

    def error(self, key: str, value: object, reason: str) -> ScenarioFileError:
        return ScenarioFileError(self.source, key, value, reason)

    def table(self, value: object, key: str, hint: str) -> Mapping:
        if not isinstance(value, Mapping):
            raise self.error(key, value, f"must be a table ({hint})")
        return value

    def check_keys(self, table: Mapping, prefix: str, allowed: tuple[str, ...]) -> None:
        for k, v in table.items():
            if k not in allowed:
                raise self.error(_join(prefix, str(k)), v, _unknown_key_reason(str(k), allowed))

    def require(self, table: Mapping, prefix: str, key: str) -> object:
        if key not in table:
            raise self.error(_join(prefix, key), MISSING, "required key is missing")
        return table[key]

    def name_list(self, table: Mapping, prefix: str, key: str, choices: tuple[str, ...]) -> list:
        """A list of names from ``choices``, checked here in file order (the dataclasses
        turn it into a set first, so their error would name an arbitrary index)."""
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
                raise ScenarioFileError.wrap(self.source, err) from None
        return value

    # ------------------------------------------------------------------ sections
    def simulation(self, data: Mapping) -> tuple[int, int | None]:
        if "simulation" not in data:
            return DEFAULT_TRIALS, None
        sim = self.table(data["simulation"], "simulation", "[simulation]")
        self.check_keys(sim, "simulation", SIMULATION_KEYS)
        try:
            trials = check_int("simulation.trials", sim.get("trials", DEFAULT_TRIALS), 1, MAX_TRIALS)
            seed = sim.get("seed")
            if seed is not None:
                seed = check_int("simulation.seed", seed, 0, MAX_SEED)
        except InputError as err:
            raise ScenarioFileError.wrap(self.source, err) from None
        return trials, seed

    def target(self, data: Mapping) -> Target:
        raw = self.require(data, "", "target")
        if isinstance(raw, list):
            raise self.error("target", raw, "must be a table ([target]), not an array ([[target]])")
        tgt = self.table(raw, "target", "[target]")
        self.check_keys(tgt, "target", TARGET_KEYS)
        kwargs = {
            "defense": self.require(tgt, "target", "def"),
            "arm": self.require(tgt, "target", "arm"),
            "resist": self.name_list(tgt, "target", "resist", DAMAGE_TYPES),
            "state": self.name_list(tgt, "target", "state", TARGET_STATES),
        }
        for key in ("name", "boxes", "base"):
            if key in tgt:
                kwargs[key] = tgt[key]
        try:
            return Target(**kwargs)
        except InputError as err:
            raise ScenarioFileError.wrap(self.source, err, "target") from None

    def weapon(self, raw: object, prefix: str) -> Weapon:
        wpn = self.table(raw, prefix, "[[attackers.weapons]]")
        self.check_keys(wpn, prefix, WEAPON_KEYS)
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
            raise ScenarioFileError.wrap(self.source, err, prefix) from None

    def attacker(self, raw: object, index: int) -> Attacker:
        prefix = f"attackers[{index}]"
        att = self.table(raw, prefix, "[[attackers]]")
        self.check_keys(att, prefix, ATTACKER_KEYS)
        name = att.get("name", f"Attacker {index + 1}")
        raw_weapons = self.require(att, prefix, "weapons")
        if isinstance(raw_weapons, Mapping):
            raise self.error(f"{prefix}.weapons", raw_weapons,
                             "must be an array of tables ([[attackers.weapons]]), not a table")
        if not isinstance(raw_weapons, list):
            raise self.error(f"{prefix}.weapons", raw_weapons,
                             "must be an array of tables ([[attackers.weapons]])")
        weapons = [self.weapon(w, f"{prefix}.weapons[{j}]") for j, w in enumerate(raw_weapons)]
        try:
            return Attacker(name, weapons)
        except InputError as err:
            raise ScenarioFileError.wrap(self.source, err, prefix) from None

    def attackers(self, data: Mapping) -> list[Attacker]:
        raw = self.require(data, "", "attackers")
        if isinstance(raw, Mapping):
            raise self.error("attackers", raw, "must be an array of tables ([[attackers]]), not a table")
        if not isinstance(raw, list):
            raise self.error("attackers", raw, "must be an array of tables ([[attackers]])")
        if not raw:
            raise self.error("attackers", raw, "at least one attacker is needed")
        return [self.attacker(a, i) for i, a in enumerate(raw)]

    def scenario(self, data: object) -> Scenario:
        if not isinstance(data, Mapping):
            raise self.error("", data, "a scenario must be a table of keys")
        self.check_keys(data, "", TOP_KEYS)
        trials, seed = self.simulation(data)
        target = self.target(data)
        attackers = self.attackers(data)
        try:
            return Scenario(target, attackers, trials=trials, seed=seed)
        except InputError as err:
            raise ScenarioFileError.wrap(self.source, err) from None


# ---------------------------------------------------------------------------- public API
def scenario_from_dict(data: dict, source: str = "<dict>") -> Scenario:
    """Build a :class:`~mathhammer.rules.Scenario` from the tables of a scenario file.

    Parameters
    ----------
    data : dict
        What :func:`tomllib.load` returns for a scenario file (keys ``simulation``,
        ``target``, ``attackers``).
    source : str
        Name used in error messages.

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
    """
    return _Reader(source).scenario(data)


def loads_scenario(text: str, source: str = "<string>") -> Scenario:
    """Parse scenario TOML text; ``source`` names it in error messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioFileError(source, "", MISSING, f"invalid TOML: {exc}") from None
    return scenario_from_dict(data, source)


def load_scenario(path: str | os.PathLike) -> Scenario:
    """Read a scenario TOML file.

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
    return loads_scenario(text, source)


def scenario_to_dict(scenario: Scenario) -> dict:
    """The tables of a scenario file for ``scenario`` (inverse of :func:`scenario_from_dict`).

    Examples
    --------
    >>> s = scenario_from_dict({
    ...     "simulation": {"trials": 1000, "seed": 3},
    ...     "target": {"def": 12, "arm": 18, "resist": ["fire"]},
    ...     "attackers": [{"name": "Jack", "weapons": [
    ...         {"name": "Fist", "type": "melee", "skill": 7, "pow": "-"}]}],
    ... })
    >>> scenario_from_dict(scenario_to_dict(s)) == s
    True
    """
    sim: dict = {"trials": scenario.trials}
    if scenario.seed is not None:
        sim["seed"] = scenario.seed
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
            if w.location is not None:
                wd["location"] = w.location
            weapons.append(wd)
        attackers.append({"name": a.name, "weapons": weapons})
    return {"simulation": sim, "target": target, "attackers": attackers}
