"""Numba's own environment variables, checked before Numba is imported or a kernel runs.

Numba reads some ``NUMBA_*`` variables when it is imported or when a parallel kernel first
runs, and refuses some values with a traceback: ``NUMBA_NUM_THREADS`` of 0 or less, a
``NUMBA_THREADING_LAYER`` it does not know. ``NUMBA_DISABLE_JIT`` makes the kernels plain
Python functions, which the package's compiled kernels cannot be. Each of these is one
:class:`~mathhammer.errors.InputError` naming the variable and its value, raised by
:func:`check_environment` wherever the package is about to use Numba.

Examples
--------
>>> check_environment({"NUMBA_NUM_THREADS": "0"})
Traceback (most recent call last):
...
mathhammer.errors.InputError: NUMBA_NUM_THREADS: Numba needs at least one thread (got '0')
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from ..errors import InputError

__all__ = ["check_environment", "THREADING_LAYERS"]

#: The values of ``NUMBA_THREADING_LAYER`` Numba knows.
THREADING_LAYERS = ("default", "safe", "forksafe", "threadsafe", "tbb", "omp", "workqueue")


def check_environment(environ: Mapping[str, str] | None = None) -> None:
    """Refuse, in one line, a ``NUMBA_*`` variable Numba would fail on (``environ``: the
    process's environment by default)."""
    env = os.environ if environ is None else environ
    threads = env.get("NUMBA_NUM_THREADS", "").strip()
    if threads:
        try:
            n = int(threads)
        except ValueError:
            n = None  # Numba warns and takes its default
        if n is not None and n < 1:
            raise InputError("NUMBA_NUM_THREADS", env["NUMBA_NUM_THREADS"], "Numba needs at least one thread")
    layer = env.get("NUMBA_THREADING_LAYER", "").strip()
    if layer and layer not in THREADING_LAYERS:
        raise InputError("NUMBA_THREADING_LAYER", env["NUMBA_THREADING_LAYER"],
                         "must be one of " + ", ".join(THREADING_LAYERS) + " (or unset)")
    disabled = env.get("NUMBA_DISABLE_JIT", "").strip()
    if disabled and disabled != "0":
        raise InputError("NUMBA_DISABLE_JIT", env["NUMBA_DISABLE_JIT"],
                         "the kernels are compiled with Numba: unset it (or set it to 0)")
