"""Parameter paths of a scenario, and the grid of scenarios a sweep varies them over.

A *parameter path* names one key of a scenario file, its tables joined by dots:

==========================================  ================================================
path                                        key
==========================================  ================================================
``target.arm``, ``target.def``, ...          a key of ``[target]``
``simulation.turns``                         a key of ``[simulation]``
``settings.brutal_damage``                   a key of ``[settings]``
``attackers.0.focus``                        a key of the first ``[[attackers]]``
``attackers.Jack.focus``                     ... of the attacker named ``Jack``
``attackers.0.spend.boost_attack``           a key of its ``[attackers.spend]``
``attackers.0.weapons.1.pow``                a key of its second weapon
``attackers.Jack.weapons.Fist.pow``          ... of its weapon named ``Fist``
==========================================  ================================================

Indices are 0-based; ``attackers[0].weapons[1].pow`` (the spelling of error messages) is
accepted too. A value is set on the scenario's dict form
(:func:`~mathhammer.scenario.scenario_to_dict`) and the scenario rebuilt with
:func:`~mathhammer.scenario.scenario_from_dict`, so every value is validated exactly as in a
scenario file. Keys holding lists of names (``target.state``, ``target.rules``, a weapon's
``rules``, ...) take a list, or a string of names joined by ``+`` (``"none"`` or ``""``: the
empty list).

``simulation.trials`` and ``simulation.seed`` cannot be varied: a sweep runs every point
with the same trials and seed (common random numbers).
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from .errors import InputError
from .rules import Scenario
from .scenario import (
    _ALIASES,
    ATTACKER_KEYS,
    SETTINGS_KEYS,
    SIMULATION_KEYS,
    SPEND_KEYS,
    TARGET_KEYS,
    WEAPON_KEYS,
    ScenarioFileError,
    scenario_from_dict,
    scenario_to_dict,
)

__all__ = [
    "Param",
    "resolve",
    "resolve_all",
    "parse_values",
    "parse_spec",
    "apply",
    "grid",
    "value_label",
]

#: The key a bad path is reported under by the API (the CLI reports it as ``--vary``).
VARY_KEY = "vary"

_FIXED = {"trials": "pass trials= to the sweep (--trials)",
          "seed": "a sweep runs every point with one seed (seed=, --seed)"}
# Keys of each table holding lists (of names, or the strings of a grid or spiral).
_LIST_KEYS = {
    "target": ("resist", "state", "terrain", "effects", "rules", "shield", "buckler", "grid",
               "spiral"),
    "attacker": ("crippled",),
    "weapon": ("damage_type", "rules"),
}
_ATTACKER_LEAVES = tuple(k for k in ATTACKER_KEYS if k not in ("weapons", "spend"))
_TABLES = {
    "simulation": SIMULATION_KEYS,
    "settings": SETTINGS_KEYS,
    "target": TARGET_KEYS,
}


@dataclass(frozen=True)
class Param:
    """A resolved parameter path.

    Attributes
    ----------
    path : str
        The path as written (the sweep frame's column name).
    keys : tuple
        Where it lives in the scenario dict, e.g. ``("attackers", 0, "weapons", 1, "pow")``.
    is_list : bool
        Whether the key holds a list (values given as strings are split on ``+``).
    """

    path: str
    keys: tuple
    is_list: bool = False

    @property
    def file_key(self) -> str:
        """The key as scenario-file errors spell it: ``attackers[0].weapons[1].pow``."""
        out = ""
        for k in self.keys:
            out += f"[{k}]" if isinstance(k, int) else (f".{k}" if out else k)
        return out


# ---------------------------------------------------------------------------- paths
def _guess(segment: str, allowed: tuple[str, ...]) -> str | None:
    """A key of ``allowed`` the user probably meant by ``segment``."""
    low = segment.strip().lower().replace("-", "_").replace(" ", "_")
    if low in allowed:
        return low
    alias = _ALIASES.get(low, ())
    for a in (alias,) if isinstance(alias, str) else alias:
        if a in allowed:
            return a
    close = difflib.get_close_matches(low, allowed, n=1, cutoff=0.6)
    return close[0] if close else None


def _leaf_paths(data: dict) -> list[str]:
    """Every leaf path of a scenario dict (indices for attackers and weapons)."""
    out = [f"target.{k}" for k in TARGET_KEYS]
    for i, a in enumerate(data["attackers"]):
        out += [f"attackers.{i}.{k}" for k in _ATTACKER_LEAVES]
        out += [f"attackers.{i}.spend.{k}" for k in SPEND_KEYS]
        for j, _w in enumerate(a["weapons"]):
            out += [f"attackers.{i}.weapons.{j}.{k}" for k in WEAPON_KEYS]
    out += [f"simulation.{k}" for k in SIMULATION_KEYS if k not in _FIXED]
    out += [f"settings.{k}" for k in SETTINGS_KEYS]
    return out


def _elsewhere(segment: str, data: dict) -> str | None:
    """A full path ending with the key ``segment`` means (``arm`` -> ``target.arm``)."""
    low = segment.strip().lower().replace("-", "_").replace(" ", "_")
    alias = _ALIASES.get(low, ())
    for key in (low, *((alias,) if isinstance(alias, str) else alias)):
        for path in _leaf_paths(data):
            if path.rsplit(".", 1)[1] == key:
                return path
    return None


def _bad(path: str, reason: str) -> InputError:
    return InputError(VARY_KEY, path, reason)


def _pick(items: list[dict], segs: list[str], pos: int, what: str, path: str,
          done: str, keys: tuple[str, ...] = ()) -> tuple[int, int]:
    """Find the attacker / weapon ``segs[pos:]`` starts with: an index or a name (a name
    may hold dots: the longest one matching wins). Returns (index, segments used)."""
    if pos >= len(segs):
        raise _bad(path, f"{done} needs an index (0..{len(items) - 1}) or a name after it")
    seg = segs[pos]
    names = [str(it.get("name", "")) for it in items]
    for n in range(len(segs) - pos, 0, -1):
        name = ".".join(segs[pos:pos + n])
        hits = [i for i, x in enumerate(names) if x == name]
        if len(hits) > 1:
            raise _bad(path, f"{len(hits)} {what}s are named {name!r}: use an index "
                       f"({', '.join(map(str, hits))})")
        if hits:
            return hits[0], n
    if re.fullmatch(r"-?\d+", seg):
        i = int(seg)
        if not 0 <= i < len(items):
            raise _bad(path, f"{done} has {len(items)} {what}(s): index {i} is out of range "
                       f"(0..{len(items) - 1}, or a name: {', '.join(map(repr, names))})")
        return i, 1
    reason = f"{done} has no {what} named {seg!r} (names: {', '.join(map(repr, names))})"
    if seg in keys:
        fixed = ".".join([*segs[:pos], "0", *segs[pos:]])
        raise _bad(path, f"{reason}; did you mean {fixed!r}?")
    folded = {x.casefold(): x for x in names}
    close = difflib.get_close_matches(seg.casefold(), list(folded), n=1, cutoff=0.6)
    if close:
        fixed = ".".join([*segs[:pos], folded[close[0]], *segs[pos + 1:]])
        reason += f"; did you mean {fixed!r}?"
    raise _bad(path, reason)


def resolve(scenario: Scenario | dict, path: str) -> Param:
    """Resolve a parameter path against a scenario (or its dict form).

    Raises
    ------
    InputError
        Keyed ``vary``, naming the path, with a *did you mean* where one is close.

    Examples
    --------
    >>> from mathhammer import Attacker, Scenario, Target, Weapon
    >>> jack = Attacker("Jack", [Weapon("Fist", "melee", skill=7, pow=16, attacks=2)])
    >>> s = Scenario(Target(defense=12, arm=18, boxes=30), [jack])
    >>> resolve(s, "attackers.Jack.weapons.Fist.pow").keys
    ('attackers', 0, 'weapons', 0, 'pow')
    >>> resolve(s, "target.armor")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: vary: target has no key 'armor'; did you mean 'target.arm'? (got 'target.armor')
    """
    data = scenario_to_dict(scenario) if isinstance(scenario, Scenario) else scenario
    if not isinstance(path, str):
        raise _bad(path, "a parameter path must be a string such as 'target.arm'")
    text = re.sub(r"\[(\d+)\]", r".\1", path.strip())
    segs = text.split(".")
    if not text or any(s == "" for s in segs):
        raise _bad(path, "must be a dotted parameter path such as 'target.arm' or "
                   "'attackers.0.weapons.1.pow'")

    def leaf(keys: list, table: str, allowed: tuple[str, ...], pos: int, kind: str) -> Param:
        prefix = ".".join(segs[:pos])
        if pos >= len(segs):
            raise _bad(path, f"{prefix} is a table: name one of its keys, e.g. "
                       f"{prefix}.{allowed[0]}")
        seg = segs[pos]
        if kind == "simulation" and seg in _FIXED:
            raise _bad(path, f"simulation.{seg} cannot be varied: {_FIXED[seg]}")
        if seg not in allowed:
            guess = _guess(seg, allowed)
            reason = f"{prefix} has no key {seg!r}"
            if guess is not None and not (kind == "simulation" and guess in _FIXED):
                fixed = ".".join([*segs[:pos], guess, *segs[pos + 1:]])
                reason += f"; did you mean {fixed!r}?"
            else:
                reason += " (keys: " + ", ".join(k for k in allowed if k not in _FIXED
                                                  or kind != "simulation") + ")"
            raise _bad(path, reason)
        if pos + 1 < len(segs):
            raise _bad(path, f"{prefix}.{seg} is a value, not a table: the path must end there")
        return Param(path, tuple(keys) + (seg,), seg in _LIST_KEYS.get(kind, ()))

    top = segs[0]
    if top in _TABLES:
        return leaf([top], top, _TABLES[top], 1, top)
    if top == "attackers":
        i, n = _pick(data["attackers"], segs, 1, "attacker", path, "attackers",
                     ATTACKER_KEYS + SPEND_KEYS)
        pos = 1 + n
        att = data["attackers"][i]
        where = ".".join(segs[:pos])
        if pos < len(segs) and segs[pos] == "spend":
            return leaf(["attackers", i, "spend"], "spend", SPEND_KEYS, pos + 1, "spend")
        if pos < len(segs) and segs[pos] == "weapons":
            j, m = _pick(att["weapons"], segs, pos + 1, "weapon", path, f"{where}.weapons",
                         WEAPON_KEYS)
            return leaf(["attackers", i, "weapons", j], "weapon", WEAPON_KEYS, pos + 1 + m,
                        "weapon")
        if pos < len(segs) and segs[pos] in SPEND_KEYS and segs[pos] not in ATTACKER_KEYS:
            fixed = ".".join([*segs[:pos], "spend", *segs[pos:]])
            raise _bad(path, f"{segs[pos]} is a key of the attacker's spend table; "
                       f"did you mean {fixed!r}?")
        if pos < len(segs) and segs[pos] in WEAPON_KEYS and segs[pos] not in ATTACKER_KEYS:
            fixed = ".".join([*segs[:pos], "weapons", "0", *segs[pos:]])
            raise _bad(path, f"{segs[pos]} is a key of a weapon; did you mean {fixed!r}?")
        return leaf(["attackers", i], "attacker", _ATTACKER_LEAVES + ("spend", "weapons"),
                    pos, "attacker")
    guess = _guess(top, ("target", "attackers", "simulation", "settings"))
    if guess is not None:
        fixed = ".".join([guess, *segs[1:]])
        raise _bad(path, f"unknown table {top!r}; did you mean {fixed!r}?")
    elsewhere = _elsewhere(top, data) if len(segs) == 1 else None
    if elsewhere is not None:
        raise _bad(path, f"a path starts with its table; did you mean {elsewhere!r}?")
    raise _bad(path, "a path starts with target, attackers, simulation or settings, "
               "e.g. 'target.arm' or 'attackers.0.weapons.0.pow'")


def resolve_all(scenario: Scenario | dict, paths: Iterable[str]) -> list[Param]:
    """:func:`resolve` every path; two paths naming the same key are refused."""
    data = scenario_to_dict(scenario) if isinstance(scenario, Scenario) else scenario
    params: list[Param] = []
    for path in paths:
        p = resolve(data, path)
        for q in params:
            if q.keys == p.keys:
                raise _bad(path, f"names the same key as {q.path!r}: vary it once")
        params.append(p)
    return params


# ---------------------------------------------------------------------------- values
_RANGE = re.compile(r"^\s*(-?\d+)\s*:\s*(-?\d+)\s*(?::\s*(-?\d+)\s*)?$")


def _scalar(text: str):
    t = text.strip()
    if re.fullmatch(r"[+-]?\d+", t):
        return int(t)
    if t.lower() in ("true", "false"):
        return t.lower() == "true"
    return t


def parse_values(text: str, key: str = "--vary") -> list:
    """The values a command-line spec lists.

    ``LO:HI`` is the inclusive integer range, ``LO:HI:STEP`` with a step; ``a,b,c`` a list
    (each item an integer where it parses, ``true``/``false``, else a string; an item may be
    a range); anything else a single value.

    Examples
    --------
    >>> parse_values("14:18"), parse_values("14:22:4"), parse_values("10,12:13")
    ([14, 15, 16, 17, 18], [14, 18, 22], [10, 12, 13])
    >>> parse_values("never,always,auto"), parse_values("cripple:L"), parse_values("true")
    (['never', 'always', 'auto'], ['cripple:L'], [True])
    >>> parse_values("18:14")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: --vary: the range 18:14 is empty: write LO:HI with LO <= HI (got '18:14')
    """
    out: list = []
    for item in text.split(","):
        m = _RANGE.match(item)
        if m:
            lo, hi = int(m[1]), int(m[2])
            step = int(m[3]) if m[3] is not None else 1
            if step <= 0:
                raise InputError(key, text, f"the step of {item.strip()} must be positive")
            if hi < lo:
                raise InputError(key, text, f"the range {item.strip()} is empty: write LO:HI "
                                 "with LO <= HI")
            if (hi - lo) // step >= 100_000:
                raise InputError(key, text, f"the range {item.strip()} has too many values")
            out.extend(range(lo, hi + 1, step))
        elif item.strip() == "" and len(text.split(",")) > 1:
            raise InputError(key, text, "has an empty item between commas")
        else:
            out.append(_scalar(item))
    return out


def parse_spec(spec: str, key: str = "--vary") -> tuple[str, list]:
    """``PATH=VALUES`` of the command line: the path and :func:`parse_values` of the rest.

    >>> parse_spec("target.arm=14:16")
    ('target.arm', [14, 15, 16])
    """
    if not isinstance(spec, str) or "=" not in spec:
        raise InputError(key, spec, "must be PATH=VALUES, e.g. target.arm=14:22 or "
                         "attackers.0.spend.boost_attack=never,always")
    path, _, values = spec.partition("=")
    if not path.strip():
        raise InputError(key, spec, "names no parameter path before '='")
    if not values.strip():
        raise InputError(key, spec, "lists no value after '='")
    return path.strip(), parse_values(values, key)


def value_label(value) -> str:
    """How a value is written in a sweep file (and matched when resuming).

    >>> value_label(True), value_label(["knocked_down", "stationary"]), value_label([])
    ('true', 'knocked_down+stationary', 'none')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "+".join(map(str, value)) or "none"
    return str(value)


def _coerce(param: Param, value):
    """The value as the scenario dict holds it (a ``+``-joined string for a list key)."""
    if param.is_list:
        if isinstance(value, str):
            v = value.strip()
            return [] if v.lower() in ("", "none") else [x.strip() for x in v.split("+")]
        if isinstance(value, (tuple, set, frozenset)):
            return list(value)
    return value


def _frame_value(param: Param, value):
    """The value as the sweep frame holds it (hashable, readable)."""
    if param.is_list or isinstance(value, (list, tuple, set, frozenset)):
        return value_label(sorted(value) if isinstance(value, (set, frozenset)) else value)
    return value


# ---------------------------------------------------------------------------- apply
def _set(data: dict, keys: tuple, value) -> None:
    node = data
    for k in keys[:-1]:
        if isinstance(k, str) and k not in node:
            node[k] = {}
        node = node[k]
    node[keys[-1]] = value


def _copy(data):
    if isinstance(data, dict):
        return {k: _copy(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_copy(v) for v in data]
    return data


def apply(scenario: Scenario, values: Mapping[str, object]) -> Scenario:
    """``scenario`` with the parameters ``values`` names set, validated as a scenario file.

    Raises
    ------
    InputError
        A bad path (keyed ``vary``); a bad value: the validator's reason, keyed by the path
        and naming the value.

    Examples
    --------
    >>> from mathhammer import Attacker, Scenario, Target, Weapon
    >>> jack = Attacker("Jack", [Weapon("Fist", "melee", skill=7, pow=16, attacks=2)])
    >>> s = Scenario(Target(defense=12, arm=18, boxes=30), [jack])
    >>> apply(s, {"target.arm": 20, "attackers.0.spend.boost_attack": "always"}).target.arm
    20
    >>> apply(s, {"target.arm": 99})
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: target.arm: must be between 0 and 50 (got 99)
    """
    data = scenario_to_dict(scenario)
    params = resolve_all(data, values)
    return _build(data, [(p, values[p.path]) for p in params])


def _build(data: dict, settings: list[tuple[Param, object]]) -> Scenario:
    d = _copy(data)
    for p, v in settings:
        _set(d, p.keys, _coerce(p, v))
    try:
        return scenario_from_dict(d, source="vary")
    except ScenarioFileError as err:
        for p, v in settings:
            if err.key == p.file_key or err.key.startswith(p.file_key + "["):
                raise InputError(p.path, v, err.reason) from None
        at = ", ".join(f"{p.path}={value_label(v)}" for p, v in settings)
        raise InputError(err.key, err.value, f"{err.reason} (at {at})") from None


def grid(scenario: Scenario, vary: Mapping[str, Iterable]) -> tuple[list[Param], list[tuple]]:
    """The parameters of ``vary`` and their values: the cartesian product, the last
    parameter varying fastest.

    Returns
    -------
    params : list of Param
    points : list of (values, Scenario)
        ``values`` is a tuple (one per parameter, as the sweep frame holds them).

    Raises
    ------
    InputError
        A bad path, no values or a repeated value for a path, or a point whose scenario is
        invalid (naming the path and value).

    Examples
    --------
    >>> from mathhammer import Attacker, Scenario, Target, Weapon
    >>> jack = Attacker("Jack", [Weapon("Fist", "melee", skill=7, pow=16, attacks=2)])
    >>> s = Scenario(Target(defense=12, arm=18, boxes=30), [jack])
    >>> params, points = grid(s, {"target.arm": range(16, 18), "target.def": [12, 13]})
    >>> [v for v, _ in points]
    [(16, 12), (16, 13), (17, 12), (17, 13)]
    """
    if not isinstance(vary, Mapping) or not vary:
        raise InputError(VARY_KEY, vary, "must map at least one parameter path to its values, "
                         "e.g. {'target.arm': range(14, 23)}")
    data = scenario_to_dict(scenario)
    params = resolve_all(data, vary)
    lists = []
    for p in params:
        raw = vary[p.path]
        if isinstance(raw, (str, bytes, int)) or not isinstance(raw, Iterable):
            raw = [raw]
        values = [v.item() if isinstance(v, np.generic) else v for v in raw]
        if not values:
            raise InputError(p.path, values, "lists no value to vary over")
        seen: dict[str, object] = {}
        for v in values:
            lab = value_label(_frame_value(p, v))
            if lab in seen:
                raise InputError(p.path, v, "is listed twice")
            seen[lab] = v
        # each value alone first: its error then names it whatever the other parameters
        for v in values:
            _build(data, [(p, v)])
        lists.append(values)
    points = []
    for combo in itertools.product(*lists):
        scen = _build(data, list(zip(params, combo)))
        points.append((tuple(_frame_value(p, v) for p, v in zip(params, combo)), scen))
    return params, points
