"""Private Numba kernels. Numeric arguments only; the public API lives in mathhammer.simulate.

Pipeline inside: :mod:`.rng` (per-chunk random streams filling a dice buffer) -> :mod:`.dice`
(scalar rules of an attack roll) -> :mod:`.damage` (marking damage on the target's capacity)
-> :mod:`.sequence` (the trials of one chunk: every attack in order, state carried from attack
to attack) -> :mod:`.driver` (chunks over threads, counters merged after the parallel loop).
:mod:`.layout` names the fields of the int64 tables the encoder writes.
"""
