"""The columns of a damage grid or life spiral: the masks each reaches, and marking on them.

docs/activation.md "Damage grids and life spirals". A column (a spiral's branch) is a bit
mask of its rows, bit ``r`` for the ``r``-th box from the top. Marking takes the topmost
unmarked box (or, for "damage to X", the topmost unmarked X box), and healing removes the
most recently marked boxes, which brings a column back to a mask it had before: so each
column reaches only a few of its ``2**len`` masks. :class:`Columns` finds them once (the
closure of those two steps from the empty column), numbers them (a column's *digit*) and
lays out, per column and digit, the tables that move between them; a configuration of the
card is the mixed-radix number of its six digits (its *code*, below :attr:`Columns.n_codes`).

Marking works on the six digits of many configurations at once (:meth:`Columns.mark_digits`,
one NumPy step per column visited), so that no code is divided into its digits on the way.
:class:`~mathhammer.exact.card.Card` numbers the configurations the engine meets.
"""

from __future__ import annotations

import numpy as np

__all__ = ["N_COLUMNS", "Columns"]

N_COLUMNS = 6


def _lowest_unset(mask: int, allowed: int) -> int:
    """The lowest bit of ``allowed`` not set in ``mask`` (0 if none)."""
    free = allowed & ~mask
    return free & -free


class Columns:
    """The six columns of one card: the masks each reaches and the tables between them.

    Parameters
    ----------
    card : sequence of str
        The columns, top first (``Target.card``).
    letters : tuple of str
        The card's systems or aspects; bit ``j`` of a crippled set stands for ``letters[j]``.
    dx : tuple of str
        The ``damage_to`` letters on the card: marking may start at a column's topmost
        unmarked box of one of them.

    Attributes
    ----------
    col_masks, col_index : list
        Per column, the masks it reaches (its digits, in order) and the digit of each mask.
    n_masks, radix : ndarray of int64
        Per column, its digits, and its place value in a code.
    n_codes : int
        Configurations the reachable column masks can form (the codes run below it).
    fill : ndarray, shape (6, top, rows + 1)
        Digit after marking ``k`` boxes of the column, top down (the column stops full).
    unmarked, marked, colcrip, mask_of, toprow : ndarray, shape (6, top)
        Per digit: boxes unmarked, boxes marked, letters it cripples (bits), its mask, the
        row of its topmost unmarked box (-1: full).
    xmark, hasx, xrow : ndarray, shape (6, top, len(dx))
        Per digit and ``dx`` letter: digit after marking its topmost unmarked X box, whether
        there is one, and its row.
    unmark : ndarray, shape (6, top, rows)
        Digit after unmarking row ``r`` (-1 where the marking rules cannot reach that mask).
    """

    def __init__(self, card, letters, dx):
        self.lengths = [len(c) for c in card]
        self.full = [(1 << n) - 1 for n in self.lengths]
        # letter_bits[c][j]: the rows of column c holding letters[j]
        self.letter_bits = [[sum(1 << r for r, ch in enumerate(col) if ch == x) for x in letters]
                            for col in card]
        self.all_letters = (1 << len(letters)) - 1
        self._closure(letters, dx)
        self._tables(letters, dx)
        self.radix = np.ones(N_COLUMNS, dtype=np.int64)
        for c in range(1, N_COLUMNS):
            self.radix[c] = self.radix[c - 1] * self.n_masks[c - 1]
        self.n_codes = int(self.radix[-1] * self.n_masks[-1])

    def _closure(self, letters, dx):
        """Masks each column reaches: from the empty one, by marking its topmost unmarked
        box or its topmost unmarked box of a ``dx`` letter."""
        self.col_masks: list[list[int]] = []
        self.col_index: list[dict] = []
        for c in range(N_COLUMNS):
            xbits = [self.letter_bits[c][letters.index(x)] for x in dx]
            masks, index = [0], {0: 0}
            k = 0
            while k < len(masks):
                m = masks[k]
                k += 1
                steps = [_lowest_unset(m, self.full[c])] + [_lowest_unset(m, b) for b in xbits]
                for bit in steps:
                    if bit and (m | bit) not in index:
                        index[m | bit] = len(masks)
                        masks.append(m | bit)
            self.col_masks.append(masks)
            self.col_index.append(index)
        self.n_masks = np.array([len(m) for m in self.col_masks], dtype=np.int64)

    def _tables(self, letters, dx):
        """The per-column tables of the class docstring."""
        top, rows = int(self.n_masks.max()), max(self.lengths)
        nx = max(1, len(dx))
        self.fill = np.zeros((N_COLUMNS, top, rows + 1), dtype=np.int64)
        self.unmarked = np.zeros((N_COLUMNS, top), dtype=np.int64)
        self.marked = np.zeros((N_COLUMNS, top), dtype=np.int64)
        self.xmark = np.zeros((N_COLUMNS, top, nx), dtype=np.int64)
        self.hasx = np.zeros((N_COLUMNS, top, nx), dtype=bool)
        self.colcrip = np.zeros((N_COLUMNS, top), dtype=np.int64)
        self.mask_of = np.zeros((N_COLUMNS, top), dtype=np.int64)
        self.toprow = np.full((N_COLUMNS, top), -1, dtype=np.int64)
        self.xrow = np.full((N_COLUMNS, top, nx), -1, dtype=np.int64)
        self.unmark = np.full((N_COLUMNS, top, rows), -1, dtype=np.int64)
        for c, (masks, index) in enumerate(zip(self.col_masks, self.col_index)):
            for d, m in enumerate(masks):
                self.mask_of[c, d] = m
                self.marked[c, d] = m.bit_count()
                self.unmarked[c, d] = self.lengths[c] - self.marked[c, d]
                self.toprow[c, d] = _lowest_unset(m, self.full[c]).bit_length() - 1
                for r in range(self.lengths[c]):
                    if m >> r & 1:
                        self.unmark[c, d, r] = index.get(m & ~(1 << r), -1)
                cur = m
                for k in range(rows + 1):
                    self.fill[c, d, k] = index[cur]
                    cur |= _lowest_unset(cur, self.full[c])
                for k, x in enumerate(dx):
                    bits = self.letter_bits[c][letters.index(x)]
                    bit = _lowest_unset(m, bits)
                    self.hasx[c, d, k] = bool(bit)
                    self.xmark[c, d, k] = index[m | bit] if bit else d
                    self.xrow[c, d, k] = bit.bit_length() - 1
                self.colcrip[c, d] = sum(1 << j for j, b in enumerate(self.letter_bits[c]) if b & ~m == 0)

    # ------------------------------------------------------------------ codes and digits
    def digit(self, code: np.ndarray, c) -> np.ndarray:
        """Mask index of column ``c`` (an int or an array like ``code``) in each code."""
        return (code // self.radix[c]) % self.n_masks[c]

    def digits_of(self, code: np.ndarray) -> np.ndarray:
        """``(n, 6)`` digits of the codes ``code``."""
        return (np.asarray(code, dtype=np.int64)[:, None] // self.radix) % self.n_masks

    def codes_of(self, digits: np.ndarray) -> np.ndarray:
        """Codes of the ``(n, 6)`` digits ``digits``."""
        return digits @ self.radix

    def crippled_digits(self, digits: np.ndarray) -> np.ndarray:
        """Bits of the letters crippled in each row of ``(n, 6)`` digits."""
        out = np.full(digits.shape[0], self.all_letters, dtype=np.int64)
        for c in range(N_COLUMNS):
            out &= self.colcrip[c, digits[:, c]]
        return out

    def mark_digits(self, digits: np.ndarray, start: np.ndarray, first_x: np.ndarray | None, xi,
                    t: np.ndarray) -> None:
        """Mark ``t`` boxes from column ``start`` on the ``(n, 6)`` digits ``digits`` (in
        place): the topmost unmarked box of the column, then down, then the next column to
        the right with an unmarked box (6 wraps to 1), a column's share in one step.

        ``first_x``: where true, the first box is the topmost unmarked ``dx[xi]`` box of
        column ``start`` (the caller made sure it has one), and the rest start again from
        that column's topmost unmarked box.
        """
        left = np.asarray(t, dtype=np.int64).copy()
        start = np.asarray(start, dtype=np.int64)
        if not digits.flags.c_contiguous:
            raise ValueError("mark_digits marks its digits in place: they must be C-contiguous")
        flat = digits.reshape(-1)  # a view
        if first_x is not None:
            at = np.flatnonzero(first_x & (left > 0))
            if at.size:
                pos = at * N_COLUMNS + start[at]
                flat[pos] = self.xmark[start[at], flat[pos], xi]
                left[at] -= 1
        at = np.flatnonzero(left)
        top, depth = self.unmarked.shape[1], self.fill.shape[2]
        fill, unmarked = self.fill.reshape(-1), self.unmarked.reshape(-1)
        for j in range(N_COLUMNS):
            if at.size == 0:
                break
            c = start[at] + j
            c[c >= N_COLUMNS] -= N_COLUMNS
            pos = at * N_COLUMNS + c
            cd = c * top + flat[pos]  # (column, digit)
            need = left[at]
            take = np.minimum(need, unmarked[cd])
            flat[pos] = fill[cd * depth + take]
            need -= take
            left[at] = need
            at = at[need > 0]
