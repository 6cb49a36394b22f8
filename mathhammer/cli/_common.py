"""What every subcommand shares: the one-line usage error, argument types, exit codes."""

from __future__ import annotations

import argparse
import re
import sys

from .._core.limits import MAX_SEED, MAX_TRIALS
from .._core.numbers import read_int
from ..errors import SHOWN_CHARS, InputError, shown

PROG = "mathhammer"
EXIT_OK = 0
EXIT_INPUT = 2


#: A quoted value longer than an error message shows.
_QUOTED = re.compile("'([^']{%d,})'" % (SHOWN_CHARS + 1))


class UsageError(Exception):
    """A bad command line; its message is printed as one line."""


def _note_given(parser, action, option_string, value) -> None:
    """Refuse a single-valued flag whose destination this command line already gave (the
    last one would otherwise be kept silently: ``--trials 100 --trials 3000``,
    ``--progress --no-progress``)."""
    if not action.option_strings or not isinstance(parser, Parser):
        return  # a positional is taken once
    if action.dest in parser.given:
        first, before = parser.given[action.dest]
        raise UsageError(_twice(first, before, option_string, value, action.nargs != 0))
    parser.given[action.dest] = (option_string, value)


def _twice(first: str, before, flag: str, value, valued: bool) -> str:
    if first != flag:  # two flags of one destination: --progress and --no-progress
        return f"{first} and {flag}: both given; they set the same thing (give one of them)"
    if valued:
        was, now = shown(_as_typed(before)), shown(_as_typed(value))
        return f"{flag}: given twice ({was}, then {now}); give it once"
    return f"{flag}: given twice; give it once"


def _as_typed(value):
    """A flag's value as it was typed, near enough for a message: a list of values (``3,4``)
    as the comma-separated text it was read from."""
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return value


class OnceStore(argparse.Action):
    """``store``, given once (every flag with a value and no ``action``)."""

    def __call__(self, parser, namespace, values, option_string=None):
        _note_given(parser, self, option_string, values)
        setattr(namespace, self.dest, values)


class OnceStoreConst(argparse.Action):
    """``store_const`` (and ``store_true`` / ``store_false``), given once."""

    def __init__(self, option_strings, dest, const=None, default=None, required=False, help=None):
        super().__init__(option_strings, dest, nargs=0, const=const, default=default,
                         required=required, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        _note_given(parser, self, option_string, self.const)
        setattr(namespace, self.dest, self.const)


class OnceStoreTrue(OnceStoreConst):
    """``store_true``, given once."""

    def __init__(self, option_strings, dest, default=False, required=False, help=None):
        super().__init__(option_strings, dest, const=True, default=default, required=required,
                         help=help)


class OnceStoreFalse(OnceStoreConst):
    """``store_false``, given once."""

    def __init__(self, option_strings, dest, default=True, required=False, help=None):
        super().__init__(option_strings, dest, const=False, default=default, required=required,
                         help=help)


class OnceBooleanOptional(argparse.BooleanOptionalAction):
    """``--x`` / ``--no-x``, given once (either spelling)."""

    def __call__(self, parser, namespace, values, option_string=None):
        _note_given(parser, self, option_string, None)
        super().__call__(parser, namespace, values, option_string)


#: The single-valued actions, each given once on a command line.
ONCE = (OnceStore, OnceStoreConst, OnceBooleanOptional)
#: What ``action=`` names (argparse's own) become in a :class:`Parser`.
_ONCE_ACTIONS = {None: OnceStore, "store": OnceStore, "store_const": OnceStoreConst,
                 "store_true": OnceStoreTrue, "store_false": OnceStoreFalse,
                 argparse.BooleanOptionalAction: OnceBooleanOptional}


class Parser(argparse.ArgumentParser):
    """argparse without the multi-line usage text on errors: raise instead of exiting.

    Every subcommand's parser is one (``add_subparsers`` makes its parsers of the parent's
    class), so that for all of them:

    - a single-valued flag given twice is refused, naming it and both values, instead of the
      last one silently kept (``append`` flags, ``--vary`` and the like, still repeat);
    - :meth:`needs` refuses a flag given without any of the flags it acts on (``--force``
      without a file to overwrite).
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # argparse's registry of action names (shared with this parser's argument groups)
        for name, cls in _ONCE_ACTIONS.items():
            if not isinstance(name, type):
                self.register("action", name, cls)
        #: destination -> (flag, value) of the flags this parse has taken
        self.given: dict = {}
        self._needs: list[tuple[str, tuple[str, ...], str]] = []

    def add_argument(self, *args, **kwargs):
        """argparse's, with ``--x`` / ``--no-x`` given once too (the named actions are in the
        registry: :data:`ONCE`)."""
        if kwargs.get("action") is argparse.BooleanOptionalAction:
            kwargs["action"] = OnceBooleanOptional
        return super().add_argument(*args, **kwargs)

    def needs(self, flag: str, others: tuple[str, ...], what: str) -> None:
        """Refuse ``flag`` given without any of ``others`` (single-valued flags): ``what``
        it does says what it would apply to (e.g. ``"lets --plot overwrite its file"``)."""
        self._needs.append((flag, tuple(others), what))

    def parse_known_args(self, args=None, namespace=None):
        self.given = {}
        result = super().parse_known_args(args, namespace)
        dest = {o: a.dest for a in self._actions for o in a.option_strings}
        for flag, others, what in self._needs:
            if dest[flag] in self.given and not any(dest[o] in self.given for o in others):
                if len(others) == 1:
                    missing = f"{others[0]} is not given"
                elif len(others) == 2:
                    missing = f"neither {others[0]} nor {others[1]} is given"
                else:
                    missing = f"none of {', '.join(others)} is given"
                raise UsageError(f"{flag}: {what}, and {missing}: it would apply to nothing")
        return result

    def error(self, message: str):  # noqa: D401 - argparse API
        # argparse quotes the value it refuses in full: cut as error messages cut values
        message = _QUOTED.sub(lambda m: shown(m.group(1)), " ".join(str(message).split()))
        raise UsageError(message)


def add_trials_seed(p, trials: str, seed: str) -> None:
    """``--trials N`` and ``--seed S`` of a command that samples (their help ``trials`` and
    ``seed``), in the ranges every command reads them in."""
    p.add_argument("--trials", type=int_arg("trials", 1, MAX_TRIALS), default=None, metavar="N", help=trials)
    p.add_argument("--seed", type=int_arg("seed", 0, MAX_SEED), default=None, metavar="S", help=seed)


def int_arg(name: str, lo: int, hi: int):
    """An argparse ``type`` accepting integers in ``[lo, hi]``, read as every number a user
    types is (:func:`mathhammer._core.numbers.read_int`), with the rules of a scenario file:
    ASCII digits, an optional sign, ``_`` between two digits (``1_000_000``). A decimal
    point or an exponent (``2000.0``, ``1e6``) is refused, as a file refuses ``trials = 1e6``,
    naming the integer to write instead."""

    def parse(text: str) -> int:
        try:
            return read_int(name, text, lo, hi)
        except InputError as exc:
            reason = exc.reason
            if reason == "must be an integer":
                try:  # an integer in a float's spelling: say how to write it
                    value = read_int(name, text, exponent=True)
                except InputError:
                    pass
                else:
                    reason = (f"must be an integer written in digits, as in a scenario file "
                              f"({value:_} rather than {text.strip()})")
            raise argparse.ArgumentTypeError(f"{reason} (got {shown(text)})") from None

    parse.__name__ = name
    parse.lo, parse.hi = lo, hi  # the range, for --help texts and tests
    return parse


def add_progress_flag(p, what: str) -> None:
    """``--progress`` / ``--no-progress`` of a run over points (sweep, matrix), read by
    :func:`points_progress`: by default shown when stderr is a terminal, as ``run`` does."""
    p.add_argument("--progress", action=OnceBooleanOptional, default=None,
                   help=f"a progress bar on stderr once the run has lasted a second{what}; "
                   "default: when stderr is a terminal")


def points_progress(args: argparse.Namespace) -> bool | None:
    """The ``progress`` argument of :func:`~mathhammer.sweep` / :func:`~mathhammer.matrix`
    for ``--progress`` / ``--no-progress``: True or False where one is given, else None,
    which the run itself reads by the rule of ``run`` and of the API
    (:func:`mathhammer._core.ticker.show_progress`: a bar only where stderr is a terminal)."""
    return args.progress


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
