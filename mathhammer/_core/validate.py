"""Small validators shared by the rules dataclasses (pure Python, no NumPy)."""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import InputError


def check_int(key: str, value: object, lo: int, hi: int) -> int:
    """Return ``value`` if it is an int (not a bool) in ``[lo, hi]``, else raise InputError."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(key, value, "must be an integer")
    if not lo <= value <= hi:
        raise InputError(key, value, f"must be between {lo} and {hi}")
    return value


def check_bool(key: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InputError(key, value, "must be true or false")
    return value


def check_str(key: str, value: object) -> str:
    if not isinstance(value, str):
        raise InputError(key, value, "must be a string")
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
        if v in seen:
            raise InputError(f"{key}[{i}]", v, "is named twice")
        seen.append(v)
    return tuple(seen)
