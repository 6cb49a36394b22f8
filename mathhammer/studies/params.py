"""Parameter paths of a scenario: which key of a scenario file a sweep or matrix varies.

A *parameter path* names one key of a scenario file, its tables joined by dots:

==========================================  ================================================
path                                        key
==========================================  ================================================
``target.arm``, ``target.def``, ...          a key of ``[target]``
``targets.0.arm``, ``targets.Officer.arm``   a key of one of several ``[[targets]]``
``simulation.turns``                         a key of ``[simulation]``
``settings.brutal_damage``                   a key of ``[settings]``
``attackers.0.focus``                        a key of the first ``[[attackers]]``
``attackers.Jack.focus``                     ... of the attacker named ``Jack``
``attackers.0.spend.boost_attack``           a key of its ``[attackers.spend]``
``attackers.0.weapons.1.pow``                a key of its second weapon
``attackers.Jack.weapons.Fist.pow``          ... of its weapon named ``Fist``
==========================================  ================================================

Indices are 0-based; ``attackers[0].weapons[1].pow`` (the spelling of error messages) is
accepted too. Values are set and the points built by :mod:`.grids`.

``simulation.trials`` and ``simulation.seed`` cannot be varied: a sweep runs every point
with the same trials and seed (common random numbers).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import InputError
from ..io.dump import scenario_to_dict
from ..io.overrides import ATTACKER_POINTS, TARGET_POINTS
from ..io.schema import (
    ALIASES,
    ATTACKER_KEYS,
    SETTINGS_KEYS,
    SIMULATION_KEYS,
    SPEND_KEYS,
    TARGET_KEYS,
    WEAPON_KEYS,
)
from ..rules import Scenario

__all__ = ["Param", "VARY_KEY", "bad_path", "resolve", "resolve_all", "param_label"]

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
    alias = ALIASES.get(low, ())
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
    alias = ALIASES.get(low, ())
    for key in (low, *((alias,) if isinstance(alias, str) else alias)):
        for path in _leaf_paths(data):
            if path.rsplit(".", 1)[1] == key:
                return path
    return None


def bad_path(path: str, reason: str) -> InputError:
    return InputError(VARY_KEY, path, reason)


def _pick(items: list[dict], segs: list[str], pos: int, what: str, path: str,
          done: str, keys: tuple[str, ...] = ()) -> tuple[int, int]:
    """Find the attacker / weapon ``segs[pos:]`` starts with: an index or a name (a name
    may hold dots: the longest one matching wins). Returns (index, segments used)."""
    if pos >= len(segs):
        raise bad_path(path, f"{done} needs an index (0..{len(items) - 1}) or a name after it")
    seg = segs[pos]
    names = [str(it.get("name", "")) for it in items]
    for n in range(len(segs) - pos, 0, -1):
        name = ".".join(segs[pos:pos + n])
        hits = [i for i, x in enumerate(names) if x == name]
        if len(hits) > 1:
            raise bad_path(path, f"{len(hits)} {what}s are named {name!r}: use an index "
                       f"({', '.join(map(str, hits))})")
        if hits:
            return hits[0], n
    if re.fullmatch(r"-?\d+", seg):
        i = int(seg)
        if not 0 <= i < len(items):
            raise bad_path(path, f"{done} has {len(items)} {what}(s): index {i} is out of range "
                       f"(0..{len(items) - 1}, or a name: {', '.join(map(repr, names))})")
        return i, 1
    reason = f"{done} has no {what} named {seg!r} (names: {', '.join(map(repr, names))})"
    if seg in keys:
        fixed = ".".join([*segs[:pos], "0", *segs[pos:]])
        raise bad_path(path, f"{reason}; did you mean {fixed!r}?")
    folded = {x.casefold(): x for x in names}
    close = difflib.get_close_matches(seg.casefold(), list(folded), n=1, cutoff=0.6)
    if close:
        fixed = ".".join([*segs[:pos], folded[close[0]], *segs[pos + 1:]])
        reason += f"; did you mean {fixed!r}?"
    raise bad_path(path, reason)


#: Keys of which a table holds at most one (an attacker's points, a target's): varying one
#: where the table holds another would leave the other in place.
_POWER = {"attacker": ATTACKER_POINTS, "target": TARGET_POINTS}


def _check_power(param: Param, table: dict, kind: str) -> Param:
    """Refuse varying ``focus`` of a table whose points are ``fury`` (or ``force``): the
    card's points would stay and be counted (a fury card varied over focus 0 reported its
    fury), or every other value be refused. The error names the key to vary instead."""
    group = _POWER.get(kind, ())
    key = param.keys[-1]
    if key in group:
        other = [k for k in group if k != key and table.get(k)]
        if other:
            where = param.path[: -len(key)] if param.path.endswith(key) else ""
            name = table.get("name")
            whose = f"{name}'s" if name else "its"
            raise bad_path(param.path, f"{whose} points are {other[0]} ({table[other[0]]}), "
                           f"not {key}: vary {where}{other[0]}")
    return param


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
        raise bad_path(path, "a parameter path must be a string such as 'target.arm'")
    text = re.sub(r"\[(\d+)\]", r".\1", path.strip())
    segs = text.split(".")
    if not text or any(s == "" for s in segs):
        raise bad_path(path, "must be a dotted parameter path such as 'target.arm' or "
                   "'attackers.0.weapons.1.pow'")

    def leaf(keys: list, table: str, allowed: tuple[str, ...], pos: int, kind: str) -> Param:
        prefix = ".".join(segs[:pos])
        if pos >= len(segs):
            raise bad_path(path, f"{prefix} is a table: name one of its keys, e.g. "
                       f"{prefix}.{allowed[0]}")
        seg = segs[pos]
        if kind == "simulation" and seg in _FIXED:
            raise bad_path(path, f"simulation.{seg} cannot be varied: {_FIXED[seg]}")
        if seg not in allowed:
            guess = _guess(seg, allowed)
            reason = f"{prefix} has no key {seg!r}"
            if guess is not None and not (kind == "simulation" and guess in _FIXED):
                fixed = ".".join([*segs[:pos], guess, *segs[pos + 1:]])
                reason += f"; did you mean {fixed!r}?"
            else:
                reason += " (keys: " + ", ".join(k for k in allowed if k not in _FIXED
                                                  or kind != "simulation") + ")"
            raise bad_path(path, reason)
        if pos + 1 < len(segs):
            raise bad_path(path, f"{prefix}.{seg} is a value, not a table: the path must end there")
        return Param(path, tuple(keys) + (seg,), seg in _LIST_KEYS.get(kind, ()))

    top = segs[0]
    if top == "target" and "targets" in data:
        names = ", ".join(repr(t.get("name", "")) for t in data["targets"])
        raise bad_path(path, f"the scenario has several targets ({names}): name one, e.g. "
                       f"'targets.0.{segs[1] if len(segs) > 1 else 'arm'}'")
    if top == "targets" and "targets" in data:
        g, n = _pick(data["targets"], segs, 1, "target", path, "targets", TARGET_KEYS)
        return _check_power(leaf(["targets", g], "target", TARGET_KEYS, 1 + n, "target"),
                            data["targets"][g], "target")
    if top in _TABLES:
        return _check_power(leaf([top], top, _TABLES[top], 1, top), data.get(top, {}), top)
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
            raise bad_path(path, f"{segs[pos]} is a key of the attacker's spend table; "
                       f"did you mean {fixed!r}?")
        if pos < len(segs) and segs[pos] in WEAPON_KEYS and segs[pos] not in ATTACKER_KEYS:
            fixed = ".".join([*segs[:pos], "weapons", "0", *segs[pos:]])
            raise bad_path(path, f"{segs[pos]} is a key of a weapon; did you mean {fixed!r}?")
        return _check_power(leaf(["attackers", i], "attacker",
                                 _ATTACKER_LEAVES + ("spend", "weapons"), pos, "attacker"),
                            att, "attacker")
    guess = _guess(top, ("target", "attackers", "simulation", "settings"))
    if guess is not None:
        fixed = ".".join([guess, *segs[1:]])
        raise bad_path(path, f"unknown table {top!r}; did you mean {fixed!r}?")
    elsewhere = _elsewhere(top, data) if len(segs) == 1 else None
    if elsewhere is not None:
        raise bad_path(path, f"a path starts with its table; did you mean {elsewhere!r}?")
    raise bad_path(path, "a path starts with target, attackers, simulation or settings, "
               "e.g. 'target.arm' or 'attackers.0.weapons.0.pow'")


def resolve_all(scenario: Scenario | dict, paths: Iterable[str]) -> list[Param]:
    """:func:`resolve` every path; two paths naming the same key are refused."""
    data = scenario_to_dict(scenario) if isinstance(scenario, Scenario) else scenario
    params: list[Param] = []
    for path in paths:
        p = resolve(data, path)
        for q in params:
            if q.keys == p.keys:
                raise bad_path(path, f"names the same key as {q.path!r}: vary it once")
        params.append(p)
    return params


#: Keys written as a player reads them on a card (the rest: their words, underscores as spaces).
_STAT_WORDS = {"def": "DEF", "arm": "ARM", "pow": "POW", "skill": "MAT/RAT", "boxes": "boxes"}


def param_label(path: str) -> str:
    """A parameter path in a player's words, for axes and titles: whose key, then the key.

    >>> param_label("target.arm"), param_label("attackers.0.focus")
    ('target ARM', 'attacker 1 focus')
    >>> param_label("attackers.Jack.weapons.Fist.pow"), param_label("targets.Officer.def")
    ('Jack Fist POW', 'Officer DEF')
    >>> param_label("settings.brutal_damage"), param_label("simulation.turns")
    ('brutal damage', 'turns')
    """
    segs = [s for s in re.split(r"[.\[\]]+", path) if s]
    words = []
    for k, seg in enumerate(segs):
        if seg in ("simulation", "settings", "spend") or (seg in ("attackers", "targets", "weapons")
                                                              and k + 1 < len(segs)):
            continue
        if seg.isdigit() and k > 0:
            what = {"attackers": "attacker", "targets": "target", "weapons": "weapon"}.get(segs[k - 1], "")
            words.append(f"{what} {int(seg) + 1}".strip())
        elif k == len(segs) - 1:
            words.append(_STAT_WORDS.get(seg, seg.replace("_", " ")))
        else:
            words.append(seg)
    return " ".join(words)
