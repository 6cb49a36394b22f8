"""TOML text of a scenario or card file -> a dict, every problem one line.

A UTF-8 byte-order mark (which some editors write) is accepted; invalid TOML, tables nested
too deep for the parser and numbers of more digits than Python converts are a
:class:`~mathhammer.io.schema.ScenarioFileError` naming the file.
"""

from __future__ import annotations

import re
import sys
import tomllib

from .schema import MISSING, ScenarioFileError

__all__ = ["parse_toml"]


def parse_toml(text: str, source: str) -> dict:
    """The tables of ``text`` (the file ``source``).

    >>> parse_toml("\\ufeff[target]\\ndef = 12", "x.toml")
    {'target': {'def': 12}}
    >>> parse_toml("a = " + "[" * 5000, "deep.toml")
    Traceback (most recent call last):
    ...
    mathhammer.io.schema.ScenarioFileError: deep.toml: invalid TOML: nested too deep for the parser
    """
    text = text.removeprefix("\ufeff")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioFileError(source, "", MISSING, f"invalid TOML: {exc}") from None
    except RecursionError:
        raise ScenarioFileError(source, "", MISSING, "invalid TOML: nested too deep for the parser") from None
    except ValueError:  # Python's limit on converting a text of thousands of digits to int
        key, value = _long_number(text)
        raise ScenarioFileError(source, key, value, f"a number of more than {sys.get_int_max_str_digits():,} "
                                "digits: no value here needs as many") from None


def _long_number(text: str) -> tuple[str, object]:
    """The dotted key and the text of the first number too long for Python to read in
    ``text`` (``("", MISSING)`` where it cannot be told, e.g. inside an inline table)."""
    table = ""
    most = sys.get_int_max_str_digits()
    for line in text.splitlines():
        head = _TABLE.match(line)
        if head:
            table = head.group(1).strip().replace('"', "")
            continue
        m = _NUMBER.match(line)
        if m and sum(c.isdigit() for c in m.group(2)) > most:
            key = m.group(1).strip().replace('"', "")
            return (f"{table}.{key}" if table else key), m.group(2)
    return "", MISSING


_TABLE = re.compile(r"^\s*\[\[?([^\]]+)\]\]?")
_NUMBER = re.compile(r"^\s*([A-Za-z0-9_\-\".]+)\s*=\s*([+-]?[0-9][0-9_]*)")
