"""Command line: ``mathhammer run SCENARIO.toml`` and ``mathhammer demo``.

A thin layer over :func:`mathhammer.load_scenario` and :func:`mathhammer.simulate`. Every
problem with the user's input (flags, the scenario file, an exact run the exact engine cannot
do) is printed as one line, ``mathhammer: error: ...``, on stderr, with exit status 2.

Kept import-light: nothing here imports pandas or matplotlib, and the Numba kernels are
imported by :func:`mathhammer.simulate` only when a simulation runs.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys

from . import __version__
from .errors import MathhammerError
from .rules.scenario import MAX_SEED, MAX_TRIALS

__all__ = ["main"]

PROG = "mathhammer"
EXIT_OK = 0
EXIT_INPUT = 2


class UsageError(Exception):
    """A bad command line; its message is printed as one line."""


class _Parser(argparse.ArgumentParser):
    """argparse without the multi-line usage text on errors: raise instead of exiting."""

    def error(self, message: str):  # noqa: D401 - argparse API
        raise UsageError(" ".join(str(message).split()))


def _int_arg(name: str, lo: int, hi: int):
    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            # Accept integral scientific notation such as 1e6.
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


def _build_parser() -> _Parser:
    parser = _Parser(
        prog=PROG,
        description="Probability analyzer for Warmachine attack sequences "
        "(Monte Carlo and exact).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    sub.required = True

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--trials", type=_int_arg("trials", 1, MAX_TRIALS), default=None,
                       metavar="N", help="Monte Carlo sample size (overrides the file)")
        p.add_argument("--seed", type=_int_arg("seed", 0, MAX_SEED), default=None,
                       metavar="S", help="random seed (overrides the file)")
        p.add_argument("--json", action="store_true",
                       help="print the result as one JSON object instead of a report")
        p.add_argument("--method", choices=("monte_carlo", "mc", "exact"), default="monte_carlo",
                       help="monte_carlo (default) or exact (exact engine, where it applies)")
        p.add_argument("--objective", choices=("kill", "damage"), default=None,
                       help='what policy = "optimize" maximises (overrides the file)')

    run = sub.add_parser("run", help="simulate a scenario TOML file",
                         description="Simulate the scenario described by a TOML file.")
    run.add_argument("scenario", metavar="SCENARIO.toml", help="scenario file")
    common(run)

    demo = sub.add_parser("demo", help="simulate the bundled demo scenario",
                          description="Simulate the bundled demo scenario (demo.toml).")
    common(demo)
    return parser


def _demo_scenario():
    from importlib.resources import files

    from .scenario import loads_scenario

    text = files("mathhammer").joinpath("data").joinpath("demo.toml").read_text(encoding="utf-8")
    return loads_scenario(text, source="demo.toml")


def _run(args: argparse.Namespace) -> int:
    from .scenario import load_scenario
    from .simulate import simulate

    scenario = _demo_scenario() if args.command == "demo" else load_scenario(args.scenario)
    if args.objective is not None:
        scenario = dataclasses.replace(scenario, objective=args.objective)
    result = simulate(scenario, trials=args.trials, seed=args.seed, method=args.method)
    if args.json:
        text = json.dumps(result.to_dict())
    else:
        from .report_text import format_report

        text = format_report(scenario, result).rstrip("\n")
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
    return EXIT_OK


def _fail(message: str) -> int:
    one_line = " ".join(str(message).split())
    sys.stderr.write(f"{PROG}: error: {one_line}\n")
    sys.stderr.flush()
    return EXIT_INPUT


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``mathhammer`` console script; returns the exit status.

    0 on success, 2 for any bad input (one line on stderr), 130 when interrupted.
    """
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:
        return _fail(str(exc))
    except SystemExit as exc:  # --help, --version
        return exc.code if isinstance(exc.code, int) else EXIT_OK
    try:
        return _run(args)
    except MathhammerError as exc:
        return _fail(str(exc))
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
