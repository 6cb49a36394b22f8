"""Small validators shared by the rules dataclasses (pure Python, no NumPy)."""

from __future__ import annotations

import dataclasses
import operator
import unicodedata
from collections.abc import Iterable

from ..errors import InputError


def _integer(value: object) -> int | None:
    """``value`` as a Python int when it is an integer (an int, or an integer of another
    library such as NumPy's ``int64``: it has ``__index__``), not a bool; else None."""
    if isinstance(value, bool) or type(value).__name__ in ("bool_", "bool"):
        return None
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float) or not hasattr(type(value), "__index__"):
        return None
    try:
        return operator.index(value)
    except TypeError:  # an array of several numbers, say
        return None


def check_int(key: str, value: object, lo: int, hi: int) -> int:
    """Return ``value`` as an int if it is an integer (not a bool; NumPy's integers too) in
    ``[lo, hi]``, else raise InputError.

    >>> import numpy as np
    >>> check_int("arm", np.int64(18), 0, 30), type(check_int("arm", np.int64(18), 0, 30))
    (18, <class 'int'>)
    """
    number = _integer(value)
    if number is None:
        raise InputError(key, value, "must be an integer")
    if not lo <= number <= hi:
        raise InputError(key, value, f"must be between {lo} and {hi}")
    return number


def plain_ints(obj) -> None:
    """Replace the integers of another library (NumPy's) in the fields of the frozen
    dataclass ``obj`` by Python ints, so that it reads, compares and writes to TOML and JSON
    as one built with ints."""
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if not isinstance(value, int) and _integer(value) is not None:
            object.__setattr__(obj, f.name, _integer(value))


def check_bool(key: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InputError(key, value, "must be true or false")
    return value


def check_str(key: str, value: object) -> str:
    if not isinstance(value, str):
        raise InputError(key, value, "must be a string")
    return value


#: Unicode categories that draw nothing: spaces, controls, formatting (zero-width) characters,
#: combining marks, unassigned code points.
_UNSEEN = {"Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me"}


def check_name(key: str, value: object) -> str:
    """A name: a string with something a reader can see (reports show it); a name made only
    of spaces or of invisible characters (zero-width spaces, joiners), or with spaces around
    it (a route naming it without them would miss it), is refused.

    >>> check_name("name", "\u200b\u200d")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: name: must hold a visible character: reports name it (got '\u200b\u200d')
    """
    check_str(key, value)
    if not value.strip():
        raise InputError(key, value, "must not be empty: reports name it")
    if all(unicodedata.category(ch) in _UNSEEN for ch in value):
        raise InputError(key, value, "must hold a visible character: reports name it")
    if value != value.strip():
        raise InputError(key, value, "must not start or end with a space: routes and reports name it "
                         "exactly")
    return value


def check_choice(key: str, value: object, choices: Iterable[str]) -> str:
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        raise InputError(key, value, "must be one of " + ", ".join(choices))
    return value


def check_choices(key: str, values: object, choices: Iterable[str]) -> frozenset[str]:
    """A list (or set) of names, each from ``choices``; duplicates are allowed and merged."""
    choices = tuple(choices)
    if isinstance(values, str) or not isinstance(values, (list, tuple, set, frozenset)):
        raise InputError(key, values, "must be a list of strings")
    out = []
    for i, v in enumerate(values):
        out.append(check_choice(f"{key}[{i}]", v, choices))
    return frozenset(out)


def check_names(key: str, values: object) -> tuple[str, ...]:
    """An ordered list of distinct non-empty names (e.g. the targets an attack goes to)."""
    if isinstance(values, str) or not isinstance(values, (list, tuple)):
        raise InputError(key, values, "must be a list of names")
    seen: list[str] = []
    for i, v in enumerate(values):
        if not isinstance(v, str) or not v:
            raise InputError(f"{key}[{i}]", v, "must be a name (a non-empty string)")
        check_name(f"{key}[{i}]", v)
        if v in seen:
            raise InputError(f"{key}[{i}]", v, "is named twice")
        seen.append(v)
    return tuple(seen)


def check_instance(key: str, value: object, kind: type | tuple, what: str):
    """``value`` if it is a ``kind`` (an instance), else an InputError saying it must be
    ``what`` (e.g. ``"a mathhammer Result (what simulate returns)"``)."""
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise InputError(key, value, f"must be {what}")
    return value


def check_sequence(key: str, values: object, kind: type | tuple, what: str, *, empty: bool = False) -> list:
    """``values`` as a list: a list or tuple (not a string) whose every item is a ``kind``
    (each named ``key[i]``); not empty unless ``empty``."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (list, tuple)):
        raise InputError(key, values, f"must be a list of {what}")
    if not values and not empty:
        raise InputError(key, values, f"must hold at least one of {what}")
    for i, v in enumerate(values):
        check_instance(f"{key}[{i}]", v, kind, f"one of {what}")
    return list(values)


def check_frame(key: str, value: object, what: str):
    """``value`` if it is a pandas DataFrame with the summary columns of the package's frames
    (``metric``, ``value`` ...), else an InputError saying it must be ``what``."""
    columns = getattr(value, "columns", None)
    if columns is None or not hasattr(value, "loc") or "metric" not in columns or "value" not in columns:
        raise InputError(key, value, f"must be {what}")
    return value
