"""Marking damage points on the target's damage capacity (docs/rules.md section 3).

A damage track marks boxes left to right; the number of marked boxes is the whole state.
Grids and spirals keep, per column, a bit mask of the marked rows (bit r = row r, top or
outermost first); the kernel marks a column's boxes in one step with the tables below.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from .layout import MAX_ROWS

_V = np.arange(1 << MAX_ROWS)
#: ``POPCOUNT[m]``: boxes set in a column mask ``m``.
POPCOUNT = np.array([bin(int(v)).count("1") for v in _V], dtype=np.int64)
#: ``LOWEST[m]``: row of the lowest set bit of ``m`` (the topmost box), -1 for 0.
LOWEST = np.array([(int(v) & -int(v)).bit_length() - 1 for v in _V], dtype=np.int64)


@jit(helper=True)
def mark_track(marked, boxes, points):
    """Mark ``points`` damage on a track with ``marked`` of ``boxes`` already marked.

    Returns the points actually marked: a model never takes more damage than its unmarked
    boxes.
    """
    room = boxes - marked
    return points if points < room else room


@jit(helper=True)
def lowest_bits(free, k):
    """The ``k`` lowest set bits of ``free``: the topmost ``k`` unmarked boxes of a column."""
    take = 0
    for _ in range(k):
        low = free & -free
        take |= low
        free ^= low
    return take
