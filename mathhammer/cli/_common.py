"""What every subcommand shares: the one-line usage error, argument types, exit codes."""

from __future__ import annotations

import argparse
import sys

PROG = "mathhammer"
EXIT_OK = 0
EXIT_INPUT = 2


class UsageError(Exception):
    """A bad command line; its message is printed as one line."""


class Parser(argparse.ArgumentParser):
    """argparse without the multi-line usage text on errors: raise instead of exiting."""

    def error(self, message: str):  # noqa: D401 - argparse API
        raise UsageError(" ".join(str(message).split()))


def int_arg(name: str, lo: int, hi: int):
    """An argparse ``type`` accepting integers in ``[lo, hi]`` (also written ``1e6``)."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            try:
                f = float(text)
            except ValueError:
                f = None
            if f is None or not f.is_integer():
                raise argparse.ArgumentTypeError(f"must be an integer (got {text!r})") from None
            value = int(f)
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"must be between {lo} and {hi} (got {text!r})")
        return value

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
