"""TOML text of a scenario or card file -> a dict, every problem one line.

A UTF-8 byte-order mark (which some editors write) is accepted; invalid TOML, tables nested
too deep for the parser and numbers of more digits than Python converts are a
:class:`~mathhammer.io.schema.ScenarioFileError` naming the file.
"""

from __future__ import annotations

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
        raise ScenarioFileError(source, "", MISSING, "invalid TOML: a number has more digits than Python "
                                f"reads ({sys.get_int_max_str_digits():,}); no value here needs as many") from None
