"""``mathhammer warm``: compile every Monte Carlo kernel ahead of a first run."""

from __future__ import annotations

import sys
import time

from ..warming import JOBS, MAX_PROCESSES, warm
from ._common import EXIT_OK, PROG, int_arg

__all__ = ["add_parsers"]


def add_parsers(sub) -> None:
    p = sub.add_parser("warm", help="compile every Monte Carlo kernel now, so that no later "
                       "first run waits",
                       description="Compile every Monte Carlo kernel into Numba's on-disk cache "
                       f"({len(JOBS)} jobs: the general kernel's variants, the plain and "
                       "spending kernels, Song of Blades and Heroes), a few at a time in "
                       "processes of their own: about a minute on two cores, seconds where they "
                       "are cached already. A first run of each kind otherwise compiles its "
                       "kernel then (up to about 35 s).")
    p.add_argument("--processes", type=int_arg("processes", 1, MAX_PROCESSES), default=2,
                   metavar="N",
                   help=f"jobs at once, each on a core (1 to {MAX_PROCESSES}; default 2)")
    p.set_defaults(handler=_warm)


def _warm(args) -> int:
    began = time.perf_counter()

    def say(line: str) -> None:
        sys.stderr.write(f"{PROG}: compiled or loaded {line}\n")
        sys.stderr.flush()

    warm(args.processes, say=say)
    say(f"every kernel ({len(JOBS)} jobs) in {time.perf_counter() - began:.0f} s; first runs "
        "now load them from the cache")
    return EXIT_OK
