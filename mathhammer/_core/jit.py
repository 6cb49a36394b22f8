"""The one jit decorator factory of the package: every kernel is cached on disk."""

from __future__ import annotations

import numba

__all__ = ["jit"]


def jit(parallel: bool = False, inline: bool = False):
    """``numba.njit`` with the package's options.

    ``cache=True`` so a warm process loads machine code instead of compiling (a cold compile
    of the parallel driver costs seconds); ``nogil=True`` so callers may use threads;
    ``error_model="numpy"`` so integer division never raises inside the hot loop.
    ``inline=True`` inlines the function into its callers at Numba IR level: used for the
    small scalar helpers of the per-trial loop (never give an inlined helper an array: each
    call would then cost reference-count calls).
    """
    return numba.njit(cache=True, nogil=True, error_model="numpy", parallel=parallel,
                      inline="always" if inline else "never")
