"""Parameter values: the values a command-line spec lists, how the frames write them, and
the grid of scenarios a sweep or matrix varies the parameters over.

A value is set on the scenario's dict form (:func:`~mathhammer.io.dump.scenario_to_dict`) and
the scenario rebuilt with :func:`~mathhammer.io.scenario_files.scenario_from_dict`, so every
value is validated exactly as in a scenario file. Keys holding lists of names
(``target.state``, ``target.rules``, a weapon's ``rules``, ...) take a list, or a string of
names joined by ``+`` (``"none"`` or ``""``: the empty list).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable, Mapping

import numpy as np

from .._core.limits import MAX_POINTS
from .._core.numbers import INTEGER_TEXT, read_int
from ..errors import InputError
from ..io.dump import scenario_to_dict
from ..io.scenario_files import scenario_from_dict
from ..io.schema import ScenarioFileError
from ..rules import Scenario
from .params import VARY_KEY, Param, resolve_all

__all__ = ["parse_values", "parse_spec", "value_label", "apply", "grid"]

_RANGE = re.compile(rf"^\s*({INTEGER_TEXT})\s*:\s*({INTEGER_TEXT})\s*(?::\s*({INTEGER_TEXT})\s*)?$", re.ASCII)


def _scalar(text: str, key: str):
    t = text.strip()
    if re.fullmatch(INTEGER_TEXT, t, re.ASCII):
        return read_int(key, t)
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
            lo, hi = read_int(key, m[1]), read_int(key, m[2])
            step = read_int(key, m[3]) if m[3] is not None else 1
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
            out.append(_scalar(item, key))
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
    total = math.prod(len(values) for values in lists)
    if total > MAX_POINTS:
        raise InputError(VARY_KEY, {p.path: len(v) for p, v in zip(params, lists)},
                         f"makes {total:,} points: at most {MAX_POINTS:,} (vary fewer values)")
    points = []
    for combo in itertools.product(*lists):
        scen = _build(data, list(zip(params, combo)))
        points.append((tuple(_frame_value(p, v) for p, v in zip(params, combo)), scen))
    return params, points
