"""Numbers a user types: command-line flags, ``--vary`` values, Song of Blades and Heroes steps,
the explorer's number fields. One reading and one set of messages for all of them.

A number is written as TOML writes one, so that a flag, a ``--vary`` value, a typed field and
a scenario file read the same text alike: ASCII digits with an optional sign, an underscore
allowed between two digits (``1_000_000``), and, where a flag allows it, a decimal point or
an exponent (``1e6``). Python's own readers are looser: a typed ``1_0_`` read as 10, digits of
other scripts (``١٢``) were accepted where a file refuses them, and a 5,000-digit value ran
into Python's limit on converting text to integers with a traceback. Here those are refused
by name, and a number longer than :data:`MAX_CHARS` characters is refused before any
conversion (no value any scenario accepts needs as many).

Examples
--------
>>> read_int("--trials", " 2e5 ", 1, 10**9, exponent=True)
200000
>>> read_int("--trials", "1_000", 1, 10**9)
1000
>>> read_int("--seed", "1_0_", 0, 10)
Traceback (most recent call last):
...
mathhammer.errors.InputError: --seed: must be an integer (got '1_0_')
>>> read_number("x", "٣")
Traceback (most recent call last):
...
mathhammer.errors.InputError: x: must be a number (got '٣')
"""

from __future__ import annotations

import math
import re

from ..errors import InputError

__all__ = ["MAX_CHARS", "INTEGER_TEXT", "is_integer_text", "read_int", "read_number"]

#: The longest number text read (sign, digits, point and exponent): the largest value any
#: field accepts (a seed, 2**63) has 19 digits.
MAX_CHARS = 40

_DIGITS = r"[0-9]+(?:_[0-9]+)*"  # an underscore only between two digits, as in TOML
#: An integer's text, for patterns that hold integers (``LO:HI`` ranges): compile with re.ASCII.
INTEGER_TEXT = rf"[+-]?{_DIGITS}"
_INTEGER = re.compile(INTEGER_TEXT, re.ASCII)
_DECIMAL = re.compile(rf"[+-]?(?:{_DIGITS}(?:\.(?:{_DIGITS})?)?|\.{_DIGITS})(?:[eE][+-]?{_DIGITS})?", re.ASCII)


def is_integer_text(text: str) -> bool:
    """Whether ``text`` (stripped) is an integer as :func:`read_int` reads one (no exponent).

    >>> is_integer_text(" -3 "), is_integer_text("3.0"), is_integer_text("1_0"), is_integer_text("1__0")
    (True, False, True, False)
    """
    s = text.strip()
    return len(s) <= MAX_CHARS and _INTEGER.fullmatch(s) is not None


def _too_long(key: str, text: str, s: str) -> None:
    if len(s) > MAX_CHARS:
        raise InputError(key, text, f"has {len(s):,} characters: a number here has at most {MAX_CHARS}")


def read_int(key: str, text: str, lo: int | None = None, hi: int | None = None, *,
             exponent: bool = False) -> int:
    """The integer ``text`` says, in ``[lo, hi]`` where given; ``exponent``: also a decimal or
    exponent form of an integer (``2.5e5``), as some flags allow."""
    if not isinstance(text, str):
        raise InputError(key, text, "must be an integer")
    s = text.strip()
    _too_long(key, text, s)
    if _INTEGER.fullmatch(s):
        value = int(s)
    elif exponent and _DECIMAL.fullmatch(s):
        f = float(s.replace("_", ""))
        if not (math.isfinite(f) and f.is_integer()):
            raise InputError(key, text, "must be an integer")
        value = int(f)
    else:
        raise InputError(key, text, "must be an integer")
    if lo is not None and hi is not None and not lo <= value <= hi:
        raise InputError(key, text, f"must be between {lo} and {hi}")
    return value


def read_number(key: str, text: str) -> int | float:
    """The number ``text`` says: an int where it is one (``1e6`` too), else a float."""
    if not isinstance(text, str):
        raise InputError(key, text, "must be a number")
    s = text.strip()
    _too_long(key, text, s)
    if _INTEGER.fullmatch(s):
        return int(s)
    if _DECIMAL.fullmatch(s):
        f = float(s.replace("_", ""))
        if not math.isfinite(f):
            raise InputError(key, text, "must be a finite number")
        return int(f) if f.is_integer() and abs(f) < 2**63 else f
    raise InputError(key, text, "must be a number")
