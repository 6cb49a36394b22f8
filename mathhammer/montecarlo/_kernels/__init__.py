"""Private Numba kernels of the Warmachine engine. Numeric arguments only (NamedTuples of
arrays); :mod:`mathhammer.montecarlo` is their only caller.

Pipeline inside, on the shared pieces of :mod:`mathhammer._core` (the jit factory, the
per-chunk random streams filling a buffer of pairs of dice, the chunk scheme):
:mod:`.dice` (scalar rules of an attack roll) -> :mod:`.damage` (marking damage on the
target's capacity) -> :mod:`.sequence` (the trials of one chunk: every attack in order, state
carried from attack to attack; :mod:`.plain` and, with focus or fury, :mod:`.spend` are its
fast paths) -> :mod:`.driver` (chunks over threads, counters merged after the parallel
loop). :mod:`.layout` names the fields of the
int64 tables the encoder writes and the counters the kernels increment.
"""
