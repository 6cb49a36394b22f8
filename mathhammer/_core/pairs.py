"""What an entry of the dice buffer means: a pair of d6 (a base-36 digit).

:func:`mathhammer._core.rng.fill_pairs` writes entries ``p`` in 0..35 standing for the two
dice ``FIRST[p] = p // 6 + 1`` and ``SECOND[p] = p % 6 + 1``. A roll of n dice reads
``(n + 1) // 2`` entries, die k being the first die of entry ``k // 2`` for even k and the
second for odd k; an odd roll leaves the second die of its last entry unused. The tables are
module constants, frozen into the machine code by Numba.
"""

from __future__ import annotations

import numpy as np

from .jit import jit

__all__ = ["FIRST", "SECOND", "PAIR_SUM", "PAIR_DOUBLE", "DOUBLE_ONES", "DOUBLE_SIXES",
           "pair_entry", "die_of"]

_P = np.arange(36)
#: First and second die of a pair entry, their sum, and whether they are equal.
FIRST = (_P // 6 + 1).astype(np.int64)
SECOND = (_P % 6 + 1).astype(np.int64)
PAIR_SUM = FIRST + SECOND
PAIR_DOUBLE = (FIRST == SECOND).astype(np.int64)
#: Pair entries of double ones and double sixes.
DOUBLE_ONES = 0
DOUBLE_SIXES = 35


def pair_entry(first: int, second: int = 1) -> int:
    """The buffer entry standing for dice ``first`` and ``second`` (for tests and tools).

    >>> pair_entry(3, 4), int(PAIR_SUM[pair_entry(3, 4)])
    (15, 7)
    """
    return (first - 1) * 6 + (second - 1)


@jit(helper=True)
def die_of(entry, k):
    """Die ``k`` of a roll whose pair entry holding it is ``entry``."""
    return FIRST[entry] if k % 2 == 0 else SECOND[entry]
