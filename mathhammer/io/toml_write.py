"""A scenario document (the tables of a scenario file) -> TOML text that reads back the same.

The explorer's "download" and anything else that writes a scenario for ``mathhammer run``
goes through :func:`dumps`; :func:`toml_value` writes one value (the card sheet uses it to
show a card's keys as written). Only what scenario and card files hold is written: strings,
booleans, integers, floats, lists of them and tables, with the tables of tables
(``[simulation]``, ``[target]``) and arrays of tables (``[[attackers]]``,
``[[attackers.weapons]]``) spelt as the bundled examples spell them.

>>> doc = {"simulation": {"trials": 1000, "seed": 1},
...        "target": {"card": "heavy_warjack", "arm": 17},
...        "attackers": [{"name": "Jack", "focus": 2, "spend": {"reserve": 1},
...                       "weapons": [{"name": "Fist", "type": "melee", "skill": 7, "pow": 16}]}]}
>>> print(dumps(doc))
[simulation]
trials = 1000
seed = 1
<BLANKLINE>
[target]
card = "heavy_warjack"
arm = 17
<BLANKLINE>
[[attackers]]
name = "Jack"
focus = 2
<BLANKLINE>
[attackers.spend]
reserve = 1
<BLANKLINE>
[[attackers.weapons]]
name = "Fist"
type = "melee"
skill = 7
pow = 16
<BLANKLINE>
>>> import tomllib
>>> tomllib.loads(dumps(doc)) == doc
True
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence

__all__ = ["dumps", "toml_value"]

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(name: str) -> str:
    """A key, bare when TOML allows it, quoted otherwise."""
    return name if _BARE_KEY.match(name) else json.dumps(name, ensure_ascii=False)


def toml_value(value) -> str:
    """One value as TOML writes it (strings quoted, booleans lower case, inline tables).

    >>> toml_value(["fire", True, 2.5, {"a": 1}])
    '["fire", true, 2.5, { a = 1 }]'
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, Sequence):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {type(value).__name__} {value!r}")


def _is_table_array(value) -> bool:
    return (isinstance(value, Sequence) and not isinstance(value, str) and bool(value)
            and all(isinstance(v, Mapping) for v in value))


def _table(lines: list[str], path: str, table: Mapping, array: bool) -> None:
    """``table`` at ``path``: its plain keys, then its tables, then its arrays of tables."""
    lines.append(f"[[{path}]]" if array else f"[{path}]")
    plain = {k: v for k, v in table.items() if not isinstance(v, Mapping) and not _is_table_array(v)}
    lines += [f"{_key(k)} = {toml_value(v)}" for k, v in plain.items()]
    lines.append("")
    _children(lines, path, table)


def _children(lines: list[str], prefix: str, table: Mapping) -> None:
    for k, v in table.items():
        path = f"{prefix}.{_key(k)}" if prefix else _key(k)
        if isinstance(v, Mapping):
            _table(lines, path, v, array=False)
    for k, v in table.items():
        path = f"{prefix}.{_key(k)}" if prefix else _key(k)
        if _is_table_array(v):
            for item in v:
                _table(lines, path, item, array=True)


def dumps(doc: Mapping, header: str = "") -> str:
    """TOML text of ``doc``, with ``header`` (lines of text) as comments first.

    Parameters
    ----------
    doc : mapping
        Tables as :func:`tomllib.loads` returns them.
    header : str
        Written first, each line as a ``#`` comment.
    """
    lines = [f"# {line}".rstrip() for line in header.splitlines()]
    if lines:
        lines.append("")
    top = {k: v for k, v in doc.items() if not isinstance(v, Mapping) and not _is_table_array(v)}
    lines += [f"{_key(k)} = {toml_value(v)}" for k, v in top.items()]
    if top:
        lines.append("")
    _children(lines, "", doc)
    return "\n".join(lines).rstrip("\n") + "\n"
