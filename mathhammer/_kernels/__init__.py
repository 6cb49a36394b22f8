"""Private Numba kernels. Numeric arguments only; the public API lives in mathhammer.simulate.

Pipeline inside: :mod:`.rng` (per-chunk random streams) -> :mod:`.dice` (attack and damage
rolls) -> :mod:`.damage` (marking damage on the target's capacity) -> :mod:`.sequence`
(one trial: every attack in order, state carried from attack to attack) -> :mod:`.driver`
(chunks over threads, counters merged after the parallel loop).
"""
