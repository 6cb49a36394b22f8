"""The one jit decorator factory of the package: every kernel is cached on disk."""

from __future__ import annotations

import numba

__all__ = ["jit"]


def jit(parallel: bool = False, inline: bool = False, helper: bool = False, nrt: bool = True):
    """``numba.njit`` with the package's options.

    ``cache=True`` so a warm process loads machine code instead of compiling (a cold compile
    of the parallel driver costs seconds); ``nogil=True`` so callers may use threads (the
    general kernel's driver does); ``error_model="numpy"`` so integer division never raises
    inside the hot loop.

    ``inline=True`` inlines the function into its callers at Numba IR level: the small steps
    of the kernels built from steps (:mod:`~mathhammer.montecarlo._kernels.single_trials`).
    Each inlined copy is typed and analysed again with its caller, so a large step or one
    called from several places is compiled apart instead (``nrt=False``) and called.

    ``nrt=False`` compiles without Numba's reference counting, for a kernel that allocates
    nothing and keeps no array (every array is an argument its caller holds): the counts
    would only cost an atomic increment and decrement for every array a step is handed, at
    every step. The basic kernel ran 10 to 30 times slower with them (2.2-3.8 us a trial
    against 0.07-0.26 us without). ``_nrt`` is Numba's own option for this (not in its
    documentation; an option Numba no longer knows is an error when the function is
    decorated, never a silent change).

    ``helper=True`` (a function only other jitted functions call: the kernels' dice, damage
    and random-stream helpers) builds no Python or C wrapper for it, about 50 ms of each
    helper's cold compile; the machine code of its callers is the same. Never call such a
    helper from Python: without its wrapper, the call crashes the process (a segmentation
    fault, seen with ``fill_words``); tests call it through a jitted function of their own.
    """
    extra = {}
    if not nrt:
        extra["_nrt"] = False
    if helper:
        extra.update(no_cpython_wrapper=True, no_cfunc_wrapper=True)
    return numba.njit(cache=True, nogil=True, error_model="numpy", parallel=parallel,
                      inline="always" if inline else "never", **extra)
