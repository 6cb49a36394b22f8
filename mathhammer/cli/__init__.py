"""Command line: ``mathhammer COMMAND ...``.

A thin layer over the API. Every problem with the user's input (flags, a scenario file, an
exact run the exact engine cannot do) is printed as one line, ``mathhammer: error: ...``, on
stderr, with exit status 2.

Each command lives in its own module with ``add_parsers(sub)`` registering it and a handler
set as the parser default. Kept import-light: nothing here imports pandas or matplotlib at
start-up, and the Numba kernels are imported only when a simulation runs.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys

from .. import __version__
from ..errors import MathhammerError
from . import app as _app
from . import cards as _cards
from . import matrix as _matrix
from . import plan as _plan
from . import run as _run
from . import sbh as _sbh
from . import sweep as _sweep
from . import trade as _trade
from . import warm as _warm
from ._common import EXIT_OK, PROG, Parser, UsageError, fail

__all__ = ["main"]

#: Modules registering commands, in the order ``--help`` lists them.
_COMMANDS = (_run, _trade, _plan, _cards, _sbh, _sweep, _matrix, _app, _warm)


def _build_parser() -> Parser:
    parser = Parser(
        prog=PROG,
        description="Probability analyzer for Warmachine attack sequences "
        "(Monte Carlo and exact).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    # every command's parser a Parser: a single-valued flag given twice is refused, and
    # Parser.needs() refuses a flag without the flags it acts on (see Parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands",
                                parser_class=Parser)
    sub.required = True
    for module in _COMMANDS:
        module.add_parsers(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``mathhammer`` console script; returns the exit status.

    0 on success, 2 for any bad input (one line on stderr), 130 when interrupted. As the
    console script (``argv`` None), the first Ctrl-C interrupts the command, which keeps what
    it finished and says so in one line; a second one while it does so, or a Ctrl-C once the
    command is done (while the interpreter closes: a Dask cluster, Numba's threads), ends the
    process at once with one line, never a traceback or a death by the signal.
    """
    state = {"finished": False, "closing": False, "interrupted": False}
    if argv is None:
        _on_interrupt(state)
    try:
        status = _main(argv)
        state["finished"] = True
        return status
    finally:
        state["closing"] = True


def _on_interrupt(state: dict) -> None:
    """Ctrl-C from now on: the first one (while the command runs) interrupts it as Python
    does, with :class:`KeyboardInterrupt`; any later one, and one after the command is
    done, writes one line and exits with status 130 at once (what the command finished is
    already on disk: each point is written as it finishes)."""

    def handler(signum, frame):  # noqa: ARG001 - signal API
        if not state["closing"] and not state["interrupted"]:
            state["interrupted"] = True
            raise KeyboardInterrupt
        if not state["closing"]:
            why = ("again; stopped at once (the points a sweep or matrix finished stay in its "
                   "file: --resume continues it)")
        else:
            why = "while closing" + ("; the command itself had finished" if state["finished"] else "")
        try:
            sys.stderr.write(f"{PROG}: interrupted {why}\n")
            sys.stderr.flush()
        finally:
            os._exit(130)

    signal.signal(signal.SIGINT, handler)
    # the interpreter's last steps put Python's handlers back to the signal's default (a
    # death by the signal) but leave an ignored signal ignored: registered first, this runs
    # after every other exit handler (a Dask cluster's), where only those steps are left
    atexit.register(signal.signal, signal.SIGINT, signal.SIG_IGN)


def _main(argv: list[str] | None) -> int:
    parser = _build_parser()
    if not (sys.argv[1:] if argv is None else argv):  # no command: the commands, and how to ask
        parser.print_help()
        return EXIT_OK
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:
        return fail(str(exc))
    except SystemExit as exc:  # --help, --version
        return exc.code if isinstance(exc.code, int) else EXIT_OK
    try:
        return args.handler(args)
    except UsageError as exc:
        return fail(str(exc))
    except MathhammerError as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: interrupted\n")
        return 130
    except BrokenPipeError:
        # Output piped into a command that stopped reading (e.g. `| head`): point stdout at
        # /dev/null so the interpreter's final flush does not complain.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
