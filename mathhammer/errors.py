"""Errors raised for bad input.

Every error a user can cause by what they wrote (scenario file, CLI flag, API argument) is an
:class:`InputError`: it names the field (a dotted key such as ``attackers[0].weapons[1].skill``)
and the offending value, so that the CLI can print it as one line and exit with status 2.
"""

from __future__ import annotations

__all__ = ["MathhammerError", "InputError", "ExactNotApplicable", "shown", "cut", "SHOWN_CHARS", "NO_VALUE"]

#: The most characters of a value an error message shows (a 5,000-digit number is cut).
SHOWN_CHARS = 80


def shown(value: object) -> str:
    """``repr(value)`` on one line, cut to :data:`SHOWN_CHARS` characters: a value pasted in
    full, thousands of digits say, never floods the message. A long value is cut after its
    start; a long path keeps its start and its end (the file's name), cut in its middle.

    >>> print(shown("9" * 100))
    '999999999999999999999999999999999999999999999999999999999999999999999999999...
    >>> print(shown("/home/player/" + "deep/" * 20 + "sweep.csv"))
    '/home/player/deep/deep/deep/deep/deep/...ep/deep/deep/deep/deep/deep/sweep.csv'
    """
    text = repr(value).replace("\n", "\\n").replace("\r", "\\r")  # one line: objects' reprs too
    return _cut(text, SHOWN_CHARS, keep_end=isinstance(value, str) and "/" in value)


def cut(text: str, most: int = SHOWN_CHARS) -> str:
    """``text`` as :func:`shown` would show it, without the quotes (a typed step named in a
    key), cut past ``most`` characters (a path keeps its end)."""
    text = str(text)
    return _cut(text, most, keep_end="/" in text)


def _cut(text: str, most: int, keep_end: bool) -> str:
    """``text`` cut to ``most`` characters with "..." where it was cut: after its start, or in
    its middle when ``keep_end`` (a path's end names the file)."""
    if len(text) <= most:
        return text
    if keep_end:
        half = (most - 3) // 2
        return text[: most - 3 - half] + "..." + text[-half:]
    return text[: most - 3] + "..."


class _NoValue:
    """Marker for an InputError about a whole argument, with no single value to show."""

    def __repr__(self) -> str:  # pragma: no cover - never shown
        return "<no value>"


#: Pass as an InputError's ``value`` when the message names no value ("(got ...)" left out).
NO_VALUE = _NoValue()


class MathhammerError(Exception):
    """Base class of every error mathhammer raises on purpose."""


class InputError(MathhammerError, ValueError):
    """A field of the user's input has a bad value.

    Parameters
    ----------
    key : str
        Dotted path of the field, e.g. ``"target.def"``.
    value : object
        The value the user gave.
    reason : str
        What is wrong with it, e.g. ``"must be between 0 and 40"``.

    Examples
    --------
    >>> str(InputError("target.def", -1, "must be between 0 and 40"))
    'target.def: must be between 0 and 40 (got -1)'
    """

    def __init__(self, key: str, value: object, reason: str):
        self.key = key
        self.value = value
        self.reason = reason
        super().__init__(self._format())

    def _format(self) -> str:
        if self.value is NO_VALUE:
            return f"{self.key}: {self.reason}"
        return f"{self.key}: {self.reason} (got {shown(self.value)})"

    def under(self, prefix: str) -> "InputError":
        """Return the same error with ``prefix`` put in front of its key."""
        key = f"{prefix}.{self.key}" if self.key and not self.key.startswith("[") else f"{prefix}{self.key}"
        return InputError(key, self.value, self.reason)


class ExactNotApplicable(MathhammerError, ValueError):
    """``method="exact"`` was asked for a scenario the exact engine cannot compute."""
