"""The one jit decorator factory of the package: every kernel is cached on disk."""

from __future__ import annotations

import numba
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.untyped_passes import DeadBranchPrune, RewriteSemanticConstants, WithLifting

__all__ = ["jit"]


class _PruneFirst(CompilerBase):
    """Numba's nopython pipeline with its dead branch pruning (and the rewrite of ``a.ndim``
    into a constant it relies on) also run before closures are inlined, so that a closure
    called only on a branch the argument types prune is never inlined (the general kernel's
    pruned variants, :mod:`mathhammer.montecarlo._kernels.variant`; with the ``a.ndim`` rewrite a
    single-target variant inlines none of the several-target closures). Pruning only removes
    branches that can never run for those types; the later passes are Numba's own."""

    def define_pipelines(self):
        pm = DefaultPassBuilder.define_nopython_pipeline(self.state)
        pm.add_pass_after(DeadBranchPrune, WithLifting)
        pm.add_pass_after(RewriteSemanticConstants, WithLifting)
        pm.finalize()
        return [pm]


def jit(parallel: bool = False, inline: bool = False, prune_first: bool = False,
        helper: bool = False, nrt: bool = True):
    """``numba.njit`` with the package's options.

    ``cache=True`` so a warm process loads machine code instead of compiling (a cold compile
    of the parallel driver costs seconds); ``nogil=True`` so callers may use threads (the
    general kernel's driver does); ``error_model="numpy"`` so integer division never raises
    inside the hot loop.

    ``inline=True`` inlines the function into its callers at Numba IR level: the steps of a
    kernel built from steps (:mod:`~mathhammer.montecarlo._kernels.single_trials`). An
    inlined step handed an array costs reference-count calls at each call unless its caller
    is compiled with ``nrt=False``. The older general kernel's helpers do without it: LLVM
    inlines small called functions anyway, and the IR copies made every later pass over
    that kernel slower (3 s of its cold compile).

    ``nrt=False`` compiles without Numba's reference counting, for a kernel that allocates
    nothing and keeps no array (every array is an argument its caller holds): the counts
    would only cost an atomic increment and decrement for every array a step is handed, at
    every step. The basic kernel ran 10 to 30 times slower with them (2.2-3.8 us a trial
    against 0.07-0.26 us without). ``_nrt`` is Numba's own option for this (not in its
    documentation; an option Numba no longer knows is an error when the function is
    decorated, never a silent change).

    ``prune_first=True`` (the older general kernel's trial loop) prunes the branches its
    argument types decide before Numba inlines its closures: the cleanup after closure
    inlining grows faster than the function (a dead code pass over every block and
    variable), so a closure call on a pruned branch is cheaper never inlined. That took the
    general kernel's cold compile of the lean variant from 123 s to 21.5 s CPU (the closure
    pass alone from 54 s to 3.5 s).

    ``helper=True`` (a function only other jitted functions call: the kernels' dice, damage
    and random-stream helpers) builds no Python or C wrapper for it, about 50 ms of each
    helper's cold compile; the machine code of its callers is the same. Never call such a
    helper from Python: without its wrapper, the call crashes the process (a segmentation
    fault, seen with ``fill_words``); tests call it through a jitted function of their own.
    """
    extra = {"pipeline_class": _PruneFirst} if prune_first else {}
    if not nrt:
        extra["_nrt"] = False
    if helper:
        extra.update(no_cpython_wrapper=True, no_cfunc_wrapper=True)
    return numba.njit(cache=True, nogil=True, error_model="numpy", parallel=parallel,
                      inline="always" if inline else "never", **extra)
