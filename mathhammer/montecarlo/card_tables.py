"""A target's damage grid or life spiral as the kernels and the assembler read it, worked out
once per card.

The encoder hands the kernel three tables of the card (:func:`card_tables`: which boxes each
column has, which boxes each letter has, and which letters are done for every set of marked
rows), and the assembler turns the kernel's histograms of crippled sets and of marked rows
into per-letter and per-box counts (:func:`letter_counts`, :func:`box_counts`). All of them
depend on the card alone, and a balance matrix meets the same few target cards at every one
of its points: the tables are built once per card and alphabet (a least-recently-used cache
of :data:`CARD_CACHE_SIZE` cards, keyed by the card's columns and its alphabet, a pure
function of both) and every caller gets its own writable copy, so no caller can change
what another one reads.
"""

from __future__ import annotations

import functools

import numpy as np

from ..rules import Target
from ..rules.vocabulary import GRID_LETTERS, SPIRAL_LETTERS
from ._kernels import layout as L

__all__ = ["CARD_CACHE_SIZE", "alphabet", "box_counts", "card_tables", "letter_counts"]

#: Cards (and bit tables) kept built. A card's tables are 48 KB (a colossal's 96 KB: its
#: ``letters_done`` has 1,024 entries a column), so the cache holds at most 12 MB (24 MB of
#: colossals); past 256 distinct cards a matrix builds them again (about 0.1 ms each), never wrong.
CARD_CACHE_SIZE = 256


def alphabet(target: Target) -> str:
    """Letters of the target's card in kernel index order ("" for a damage track)."""
    return {"grid": GRID_LETTERS, "spiral": SPIRAL_LETTERS, "track": ""}[target.capacity]


def card_tables(target: Target) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``col_full``, ``letter_mask`` and ``letters_done`` of :mod:`._kernels.layout` for the
    target's grid or spiral (empty tables for a damage track), fresh writable arrays.

    ``letters_done[c, m]`` is the set of letters (a bit each) none of whose boxes in column
    ``c`` is left unmarked when the column's marked rows are ``m``: a letter is crippled when
    it is done in every column, so the kernel ANDs six lookups (a colossal's two grids:
    twelve, their letters crippled over both). The tables have a row per column: six, or a
    colossal's twelve (the kernel reads its column count off ``col_full``).

    Examples
    --------
    >>> from mathhammer.rules import Target
    >>> t = Target(defense=12, arm=18, grid=("LL....", "LLM...", "MM....", "CC....",
    ...                                      "RRC...", "RR...."))
    >>> col_full, letter_mask, letters_done = card_tables(t)
    >>> int(col_full[0]), int(letter_mask[GRID_LETTERS.index("L"), 1])
    (63, 3)
    """
    if target.card is None:
        return (np.zeros(L.N_COLUMNS, dtype=np.int64),
                np.zeros((L.MAX_LETTERS, L.N_COLUMNS), dtype=np.int64),
                np.zeros((L.N_COLUMNS, 1), dtype=np.int64))
    return tuple(a.copy() for a in _built_tables(alphabet(target), tuple(target.card)))


@functools.lru_cache(maxsize=CARD_CACHE_SIZE)
def _built_tables(letters: str, card: tuple[str, ...]) -> tuple[np.ndarray, ...]:
    """The tables of :func:`card_tables` for ``card`` (its columns) in the alphabet
    ``letters``, read-only (callers copy them)."""
    n_cols = len(card)
    col_full = np.zeros(n_cols, dtype=np.int64)
    letter_mask = np.zeros((L.MAX_LETTERS, n_cols), dtype=np.int64)
    for c, column in enumerate(card):
        col_full[c] = (1 << len(column)) - 1
        for r, ch in enumerate(column):
            if ch in letters:
                letter_mask[letters.index(ch), c] |= 1 << r
    masks = np.arange(1 << L.MAX_ROWS, dtype=np.int64)
    # done[x, c, m]: no box of letter x in column c is outside the marked rows m; the letters'
    # bits are distinct, so their sum is their union
    done = (letter_mask[: len(letters), :, None] & ~masks) == 0
    shifts = np.arange(len(letters), dtype=np.int64)[:, None, None]
    letters_done = (done.astype(np.int64) << shifts).sum(axis=0, dtype=np.int64)
    for a in (col_full, letter_mask, letters_done):
        a.setflags(write=False)
    return col_full, letter_mask, letters_done


@functools.lru_cache(maxsize=CARD_CACHE_SIZE)
def _bits(n_sets: int, positions: tuple[int, ...]) -> np.ndarray:
    """``bits[s, j]``: bit ``positions[j]`` of the set ``s`` (0 or 1), for s < ``n_sets``,
    read-only."""
    sets = np.arange(n_sets, dtype=np.int64)[:, None]
    bits = (sets >> np.asarray(positions, dtype=np.int64).reshape(1, -1)) & 1
    bits.setflags(write=False)
    return bits


def letter_counts(cripple_hist: np.ndarray, letters_in_order: str,
                  letters: tuple[str, ...]) -> np.ndarray:
    """From the kernel's histogram of crippled sets (``cripple_hist[i, s]``: how often the
    set ``s`` of letters, a bit each in the order ``letters_in_order``, was crippled at row
    ``i``), how often each of ``letters`` was crippled at each row: an integer array of
    shape (rows, len(letters)), the exact sums over the sets holding the letter.

    >>> hist = np.array([[5, 2, 3, 1]])  # sets {}, {B}, {M}, {B, M}
    >>> letter_counts(hist, "BMS", ("B", "M")).tolist()
    [[3, 4]]
    """
    positions = tuple(letters_in_order.index(x) for x in letters)
    return cripple_hist @ _bits(cripple_hist.shape[1], positions)


def box_counts(mask_hist: np.ndarray, card: tuple[str, ...]) -> np.ndarray:
    """From the kernel's histogram of marked rows per column (``mask_hist[c, m]``: how often
    column ``c`` ended with the rows ``m`` marked), how often each box of ``card`` was
    marked: an integer array of shape (columns, longest column), ``[c, r]`` the exact sum
    over the sets of rows holding row ``r`` (past the end of a shorter column: no box, 0 in
    a kernel's histogram).

    >>> box_counts(np.array([[4, 1, 2, 3], [1, 0, 0, 0]]), ("AB", "C")).tolist()
    [[4, 5], [0, 0]]
    """
    rows = max((len(col) for col in card), default=0)
    sets = 1 << rows
    # a column's marked rows are some of its boxes: the histogram is empty past its longest
    # column's sets, so the sums over those sets alone are the whole sums (checked)
    if mask_hist[:, sets:].any():
        sets = mask_hist.shape[1]
    return mask_hist[:, :sets] @ _bits(sets, tuple(range(rows)))
