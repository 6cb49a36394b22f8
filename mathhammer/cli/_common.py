"""What every subcommand shares: the one-line usage error, argument types, exit codes."""

from __future__ import annotations

import argparse
import re
import sys

from .._core.numbers import read_int
from ..errors import SHOWN_CHARS, InputError, shown

PROG = "mathhammer"
EXIT_OK = 0
EXIT_INPUT = 2


#: A quoted value longer than an error message shows.
_QUOTED = re.compile("'([^']{%d,})'" % (SHOWN_CHARS + 1))


class UsageError(Exception):
    """A bad command line; its message is printed as one line."""


class Parser(argparse.ArgumentParser):
    """argparse without the multi-line usage text on errors: raise instead of exiting."""

    def error(self, message: str):  # noqa: D401 - argparse API
        # argparse quotes the value it refuses in full: cut as error messages cut values
        message = _QUOTED.sub(lambda m: shown(m.group(1)), " ".join(str(message).split()))
        raise UsageError(message)


def int_arg(name: str, lo: int, hi: int):
    """An argparse ``type`` accepting integers in ``[lo, hi]`` (also written ``1e6``), read
    as every number a user types is (:func:`mathhammer._core.numbers.read_int`)."""

    def parse(text: str) -> int:
        try:
            return read_int(name, text, lo, hi, exponent=True)
        except InputError as exc:
            raise argparse.ArgumentTypeError(f"{exc.reason} (got {shown(text)})") from None

    parse.__name__ = name
    return parse


def fail(message: str) -> int:
    """Print ``mathhammer: error: MESSAGE`` as one line on stderr; return exit status 2."""
    one_line = " ".join(str(message).split())
    sys.stderr.write(f"{PROG}: error: {one_line}\n")
    sys.stderr.flush()
    return EXIT_INPUT


def write(text: str) -> None:
    """Write ``text`` (one trailing newline) to stdout."""
    sys.stdout.write(text.rstrip("\n") + "\n")
    sys.stdout.flush()
