"""Marking damage points on a damage grid or life spiral, and the systems it cripples
(docs/activation.md, "Damage grids and life spirals"; docs/rules.md 3).

A card is a few columns (six; a colossal's twelve), each a bit mask of its marked boxes
(``colmask``, a bit a row, top or outermost first). Damage starts at a column a d6 picks and
marks its topmost unmarked boxes; a full column passes the rest to the next (6 wraps to 1).
A letter (a system or aspect) is crippled once every one of its boxes is marked: the
crippled set is the AND over the columns of ``letters_done[c, colmask[c]]``.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from ..._core.pairs import die_of
from .damage import LOWEST, POPCOUNT, lowest_bits
from .layout import N_COLUMNS

__all__ = ["topmost", "first_column", "mark_columns", "crippled_set", "first_box", "mark_card", "heal_card"]


@jit(inline=True)
def topmost(free, k):
    """The ``k`` topmost of a column's free boxes (bits, the top one lowest): one span when
    they are contiguous, as they are but after "damage to" or healing."""
    low = free & -free
    take = (low << k) - low
    if (take & ~free) != 0:
        take = lowest_bits(free, k)
    return take


@jit(inline=True)
def first_column(dice, pos):
    """The column (0-5) damage starts at: a d6, the first die of the next pair entry;
    ``(column, pos)``."""
    return die_of(dice[pos], 0) - 1, pos + 1


@jit(inline=True)
def mark_columns(colmask, col_full, letters_done, c, want):
    """Mark ``want`` boxes from column ``c`` on (``want`` no more than the card's unmarked
    boxes): each column's topmost unmarked boxes in one step, a full column passing the
    rest to the next. Returns whether a letter's last box was marked (else the crippled set
    cannot have changed).

    >>> import numpy as np
    >>> colmask, full = np.zeros(6, dtype=np.int64), np.full(6, 0b111, dtype=np.int64)
    >>> done = np.zeros((6, 8), dtype=np.int64)
    >>> bool(mark_columns(colmask, full, done, 5, 4)), colmask.tolist()
    (False, [1, 0, 0, 0, 0, 7])
    """
    taken = 0
    newly_done = False
    while taken < want:
        was = colmask[c]
        free = col_full[c] & ~was
        if free == 0:
            c = c + 1 if c < N_COLUMNS - 1 else 0
            continue
        k = min(want - taken, POPCOUNT[free])
        take = topmost(free, k)
        colmask[c] = was | take
        taken += k
        newly_done |= letters_done[c, was | take] != letters_done[c, was]
    return newly_done


@jit(inline=True)
def crippled_set(colmask, letters_done, present):
    """The letters (a bit each) every box of which is marked, of those on the card
    (``present``): six columns a constant trip count, a colossal's other six after."""
    crippled = present
    for c in range(N_COLUMNS):
        crippled &= letters_done[c, colmask[c]]
    for c in range(N_COLUMNS, colmask.shape[0]):
        crippled &= letters_done[c, colmask[c]]
    return crippled


@jit(nrt=False, helper=True)
def first_box(letter_mask, colmask, x):
    """Damage to letter ``x`` ("damage to X"): the column and box of its first unmarked box,
    which is marked before the others (``(-1, 0)`` when every one is marked)."""
    for c in range(colmask.shape[0]):
        free = letter_mask[x, c] & ~colmask[c]
        if free != 0:
            return np.int64(c), free & -free
    return np.int64(-1), np.int64(0)


@jit(nrt=False, helper=True)
def mark_card(colmask, order, marks, col_full, letters_done, dice, pos, c, first, side_lo,
              colossal, heals, want):
    """Mark ``want`` boxes from column ``c`` on, a card of any kind: ``first``, a box
    "damage to" marks before the others (0: none); a colossal's full columns pass the rest
    to the right within its side (6 wraps to 1), a full side to the other side's grid at a
    rolled column (``side_lo``: the first column of the side); with ``heals``, each box
    marked is kept in ``order`` (healing removes the last first). Returns ``(newly_done,
    marks, pos)``: whether a letter's last box was marked, the boxes in ``order``."""
    taken = 0
    tried = 0  # a colossal: full columns of its side passed since the last marked
    newly_done = False
    while taken < want:
        was = colmask[c]
        free = col_full[c] & ~was
        if free == 0:
            if not colossal:
                c = c + 1 if c < N_COLUMNS - 1 else 0
                continue
            tried += 1
            if tried < N_COLUMNS:
                c = c + 1 if c < side_lo + N_COLUMNS - 1 else side_lo
            else:
                side_lo = N_COLUMNS - side_lo
                c = side_lo + die_of(np.int64(dice[pos]), 0) - 1
                pos += 1
                tried = 0
            continue
        tried = 0
        if first != 0:
            take = first
            first = 0
            k = 1
        else:
            k = min(want - taken, POPCOUNT[free])
            take = topmost(free, k)
        colmask[c] = was | take
        taken += k
        newly_done |= letters_done[c, was | take] != letters_done[c, was]
        if heals:
            rest = take
            while rest != 0:
                order[marks] = c * 16 + LOWEST[rest]
                marks += 1
                rest &= rest - 1
    return newly_done, marks, pos


@jit(nrt=False, helper=True)
def heal_card(colmask, order, marks, heal):
    """Remove the ``heal`` boxes marked last (healing); returns the boxes left in ``order``."""
    for _ in range(heal):
        marks -= 1
        colmask[order[marks] >> 4] &= ~(1 << (order[marks] & 15))
    return marks
