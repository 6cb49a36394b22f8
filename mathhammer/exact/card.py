"""Damage grids and life spirals: which boxes are marked, as an index the engine can vectorise.

docs/activation.md "Damage grids and life spirals". A *configuration* of the card is which
boxes are marked: per column (a spiral's branch) a bit mask of its rows, bit ``r`` for the
``r``-th box from the top (outermost). The engine numbers the configurations it reaches in
a registry (:class:`Card`), so that, as on a damage track, one NumPy operation moves the
probability of every configuration at once.

Each column can only reach a few of its ``2**len`` masks: marking takes the topmost
unmarked box (or, for "damage to X", the topmost unmarked X box), and healing removes the
most recently marked boxes, which brings a column back to a mask it had before. The masks a
column reaches are found once (the closure of those two steps from the empty column), and a
configuration is the mixed-radix number of its six column-mask indices (its *code*).

Healing order
-------------
Healing removes the most recently marked boxes first (a documented choice). The engine
keeps the order of the marks only where it matters:

* a Tough save removes one box, the last one the disabling attack marked: the same as that
  attack marking one point fewer (no history needed);
* Rapid Healing of 1 removes the last box the attack marked (it marked at least one): the
  same as marking one point fewer;
* Rapid Healing of ``r >= 2`` may also remove boxes marked by earlier attacks: the
  configuration then carries a *stack* of the last marks (box ids, most recent last),
  trimmed to the most marks the attacks left can still remove (``r - 1`` per attack that
  deals damage), so that states that can no longer differ are merged. Box ids are
  ``16 * column + row``.
"""

from __future__ import annotations

import numpy as np

from ..rules import Target
from ..rules.vocabulary import GRID_LETTERS, SPIRAL_LETTERS

__all__ = ["N_COLUMNS", "Card"]

N_COLUMNS = 6


def _lowest_unset(mask: int, allowed: int) -> int:
    """The lowest bit of ``allowed`` not set in ``mask`` (0 if none)."""
    free = allowed & ~mask
    return free & -free


class Card:
    """The configurations of one target's grid or spiral that the engine meets.

    Parameters
    ----------
    target : Target
        A target with a ``grid`` or a ``spiral``.
    damage_to : iterable of str
        The ``damage_to`` letters of the weapons of the sequence (those not on the card are
        ignored: their damage is rolled as usual).
    stack : int
        Marks of the order kept at most (0: none; Rapid Healing of 2 or more needs some).

    Attributes
    ----------
    letters : tuple of str
        The card's systems or aspects (``Target.letters``); bit ``j`` of :attr:`crip`
        stands for ``letters[j]``.
    dx : tuple of str
        ``damage_to`` letters that are on the card; ``xcol[:, k]`` is for ``dx[k]``.
    size : int
        Configurations registered so far; index 0 is the empty card.
    code, count, crip : ndarray of int64
        Per configuration (the first :attr:`size` entries): its code, the boxes marked and
        the bits of the letters crippled.
    xcol : ndarray, shape (capacity, len(dx))
        Per configuration, the lowest-numbered column with an unmarked ``dx[k]`` box, or -1.
    stk, stlen : ndarray
        With a stack: the last marks of each configuration (box ids, most recent last, -1
        padded) and how many.
    n_codes : int
        Configurations the reachable column masks can form (the codes run below it).
    """

    def __init__(self, target: Target, damage_to=(), stack: int = 0):
        card = target.card
        if card is None:
            raise ValueError("a Card needs a target with a grid or a spiral")
        self.kind = target.capacity
        self.columns = tuple(card)
        self.letters = target.letters
        self.alphabet = GRID_LETTERS if self.kind == "grid" else SPIRAL_LETTERS
        self.boxes = sum(len(c) for c in card)
        self.lengths = [len(c) for c in card]
        self.full = [(1 << n) - 1 for n in self.lengths]
        self.dx = tuple(x for x in dict.fromkeys(damage_to) if x is not None and x in self.letters)
        self.stack = bool(stack)
        self.width = int(stack)
        # letter_bits[c][j]: the rows of column c holding letters[j]
        self.letter_bits = [[sum(1 << r for r, ch in enumerate(col) if ch == x) for x in self.letters]
                            for col in card]
        self._build_columns()
        self.radix = np.ones(N_COLUMNS, dtype=np.int64)
        for c in range(1, N_COLUMNS):
            self.radix[c] = self.radix[c - 1] * self.n_masks[c - 1]
        self.n_codes = int(self.radix[-1] * self.n_masks[-1])
        self.all_letters = (1 << len(self.letters)) - 1
        # registry
        self.index: dict = {}
        self.size = 0
        self._cap = 0
        self.code = np.zeros(0, dtype=np.int64)
        self.count = np.zeros(0, dtype=np.int64)
        self.crip = np.zeros(0, dtype=np.int64)
        self.xcol = np.zeros((0, len(self.dx)), dtype=np.int64)
        self.stk = np.zeros((0, self.width), dtype=np.int64)  # the stack of each, -1 padded
        self.stlen = np.zeros(0, dtype=np.int64)
        if self.stack:
            start = self._register_stacks(np.zeros(1, dtype=np.int64), np.full((1, self.width), -1),
                                          np.zeros(1, dtype=np.int64))
        else:
            start = self.register_codes(np.zeros(1, dtype=np.int64))
        assert start[0] == 0

    # ------------------------------------------------------------------ per-column tables
    def _build_columns(self):
        """Masks each column reaches, and the tables that move between them."""
        self.col_masks: list[list[int]] = []
        self.col_index: list[dict] = []
        for c in range(N_COLUMNS):
            xbits = [self.letter_bits[c][self.letters.index(x)] for x in self.dx]
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
        top, rows = int(self.n_masks.max()), max(self.lengths)
        nx = max(1, len(self.dx))
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
                for k, x in enumerate(self.dx):
                    bits = self.letter_bits[c][self.letters.index(x)]
                    bit = _lowest_unset(m, bits)
                    self.hasx[c, d, k] = bool(bit)
                    self.xmark[c, d, k] = index[m | bit] if bit else d
                    self.xrow[c, d, k] = bit.bit_length() - 1
                self.colcrip[c, d] = sum(1 << j for j, b in enumerate(self.letter_bits[c]) if b & ~m == 0)

    # ------------------------------------------------------------------ codes
    def digit(self, code: np.ndarray, c) -> np.ndarray:
        """Mask index of column ``c`` (an int or an array like ``code``) in each code."""
        return (code // self.radix[c]) % self.n_masks[c]

    def masks_of(self, idx: int) -> list[int]:
        """The six column masks (bit ``r``: row ``r`` marked) of configuration ``idx``."""
        code = int(self.code[idx])
        return [self.col_masks[c][code // int(self.radix[c]) % int(self.n_masks[c])] for c in range(N_COLUMNS)]

    def crippled_of(self, code: np.ndarray) -> np.ndarray:
        """Bits (over :attr:`letters`) of the letters crippled in each code."""
        out = np.full(code.shape, self.all_letters, dtype=np.int64)
        for c in range(N_COLUMNS):
            out &= self.colcrip[c, self.digit(code, c)]
        return out

    def mark_codes(self, code: np.ndarray, start: np.ndarray, first_x: np.ndarray | None, xi: int,
                   t: np.ndarray) -> np.ndarray:
        """Codes after marking ``t`` boxes from column ``start``: the topmost unmarked box of
        the column, then down, then the next column to the right with an unmarked box (6
        wraps to 1), a column's share in one step.

        ``first_x``: where true, the first box is the topmost unmarked ``dx[xi]`` box of
        column ``start`` (the caller made sure it has one), and the rest start again from
        that column's topmost unmarked box.
        """
        code = code.astype(np.int64, copy=True)
        left = t.astype(np.int64, copy=True)
        if first_x is not None:
            sel = first_x & (left > 0)
            if sel.any():
                c = start[sel]
                d = self.digit(code[sel], c)
                code[sel] += (self.xmark[c, d, xi] - d) * self.radix[c]
                left[sel] -= 1
        for j in range(N_COLUMNS):
            if not left.any():
                break
            c = (start + j) % N_COLUMNS
            d = self.digit(code, c)
            take = np.minimum(left, self.unmarked[c, d])
            code += (self.fill[c, d, take] - d) * self.radix[c]
            left -= take
        return code

    # ------------------------------------------------------------------ registry
    def _reserve(self, n: int):
        """Room for ``n`` configurations in the per-configuration arrays (at least doubled,
        the stacks -1 padded)."""
        if n <= self._cap:
            return
        cap = max(n, 2 * self._cap, 64)
        for name in ("code", "count", "crip", "xcol", "stk", "stlen"):
            old = getattr(self, name)
            new = np.full((cap, *old.shape[1:]), -1 if name == "stk" else 0, dtype=np.int64)
            new[: self.size] = old[: self.size]
            setattr(self, name, new)
        self._cap = cap

    def _append(self, keys: list, codes: np.ndarray, stk=None, stlen=None) -> np.ndarray:
        """Register new keys (codes, or code and stack rows) and their properties."""
        n = len(keys)
        first = self.size
        self._reserve(first + n)
        sl = slice(first, first + n)
        self.code[sl] = codes
        count = np.zeros(n, dtype=np.int64)
        for c in range(N_COLUMNS):
            count += self.marked[c, self.digit(codes, c)]
        self.count[sl] = count
        self.crip[sl] = self.crippled_of(codes)
        for k in range(len(self.dx)):
            col = np.full(n, -1, dtype=np.int64)
            for c in reversed(range(N_COLUMNS)):
                col = np.where(self.hasx[c, self.digit(codes, c), k], c, col)
            self.xcol[sl, k] = col
        for j, key in enumerate(keys):
            self.index[key] = first + j
        if stk is not None:
            self.stk[sl] = stk
            self.stlen[sl] = stlen
        self.size = first + n
        return np.arange(first, first + n)

    def register_codes(self, codes: np.ndarray) -> np.ndarray:
        """Indices of configurations given by code (without a stack), registering new ones."""
        uniq, inv = np.unique(codes, return_inverse=True)
        get = self.index.get
        idx = np.fromiter((get(int(k), -1) for k in uniq), dtype=np.int64, count=uniq.size)
        new = idx < 0
        if new.any():
            fresh = uniq[new]
            idx[new] = self._append([int(k) for k in fresh], fresh)
        return idx[inv.reshape(-1)]

    def _register_stacks(self, codes: np.ndarray, stk: np.ndarray, stlen: np.ndarray) -> np.ndarray:
        """Indices of configurations given by code and stack (rows of ``stk``, -1 padded)."""
        rows = np.column_stack([codes, stk])
        uniq, first, inv = np.unique(rows, axis=0, return_index=True, return_inverse=True)
        get = self.index.get
        keys = [tuple(r) for r in uniq.tolist()]
        idx = np.fromiter((get(k, -1) for k in keys), dtype=np.int64, count=len(keys))
        new = np.flatnonzero(idx < 0)
        if new.size:
            at = first[new]
            idx[new] = self._append([keys[j] for j in new.tolist()], codes[at], stk[at], stlen[at])
        return idx[inv.reshape(-1)]

    # ------------------------------------------------------------------ moves
    def landing(self, src: np.ndarray, x: str | None):
        """Where the damage of each ``src`` starts: ``(sel, start, first_x, q, xi)``.

        With ``x`` (the weapon's ``damage_to``) on the card and an unmarked X box, no
        column is rolled: the damage starts at the lowest-numbered column holding one, at
        that box (``first_x``), with probability 1. Otherwise each of the six columns is
        rolled with probability 1/6. ``sel`` indexes ``src`` (an entry appears once or six
        times); ``first_x`` is None when no entry starts at an X box; ``xi`` indexes
        :attr:`dx`.
        """
        n = src.size
        direct = np.zeros(n, dtype=bool)
        xi = self.dx.index(x) if x in self.dx else None
        if xi is not None:
            xc = self.xcol[src, xi]
            direct = xc >= 0
        rolled = np.flatnonzero(~direct)
        sel_r = np.repeat(rolled, N_COLUMNS)
        start_r = np.tile(np.arange(N_COLUMNS, dtype=np.int64), rolled.size)
        if xi is None or not direct.any():
            return sel_r, start_r, None, np.full(sel_r.size, 1.0 / N_COLUMNS), None
        sel_d = np.flatnonzero(direct)
        sel = np.concatenate([sel_d, sel_r])
        start = np.concatenate([xc[sel_d], start_r])
        first_x = np.concatenate([np.ones(sel_d.size, dtype=bool), np.zeros(sel_r.size, dtype=bool)])
        q = np.concatenate([np.ones(sel_d.size), np.full(sel_r.size, 1.0 / N_COLUMNS)])
        return sel, start, first_x, q, xi

    def move(self, src: np.ndarray, start: np.ndarray, first_x, xi, t: np.ndarray, heal: np.ndarray,
             window: int) -> np.ndarray:
        """Configurations after marking ``t`` boxes (as :meth:`landing` says) and then
        removing the ``heal`` most recent marks; ``window``: marks the stack keeps."""
        if not self.stack:
            if np.any(heal > t):
                raise AssertionError("healing beyond this attack's marks needs the mark order")
            return self.register_codes(self.mark_codes(self.code[src], start, first_x, xi, t - heal))
        return self._move_stack(src, start, first_x, xi, t, heal, window)

    def _move_stack(self, src, start, first_x, xi, t, heal, window: int) -> np.ndarray:
        """:meth:`move` with a mark stack: box by box, each mark pushed, each heal popped."""
        n = src.size
        if n == 0:
            return np.zeros(0, dtype=np.int64)
        top = int(t.max())
        stk = np.full((n, self.width + top), -1, dtype=np.int64)
        stk[:, : self.width] = self.stk[src]
        size = self.stlen[src].copy()
        code = self.code[src].copy()
        left = t.astype(np.int64, copy=True)
        col = start.astype(np.int64, copy=True)
        radix, unmarked = self.radix, self.unmarked

        def push(at, c, row):
            stk[at, size[at]] = 16 * c + row
            size[at] += 1
            left[at] -= 1

        if first_x is not None:
            at = np.flatnonzero(first_x & (left > 0))
            c = col[at]
            d = self.digit(code[at], c)
            code[at] += (self.xmark[c, d, xi] - d) * radix[c]
            push(at, c, self.xrow[c, d, xi])
        for _ in range(top):
            at = np.flatnonzero(left > 0)
            if at.size == 0:
                break
            c, cd = col[at], code[at]
            d = self.digit(cd, c)
            for _ in range(N_COLUMNS):  # a full column: on to the right
                full = unmarked[c, d] == 0
                if not full.any():
                    break
                c = np.where(full, (c + 1) % N_COLUMNS, c)
                d = self.digit(cd, c)
            code[at] = cd + (self.fill[c, d, 1] - d) * radix[c]
            col[at] = c
            push(at, c, self.toprow[c, d])
        for step in range(int(heal.max())):
            at = np.flatnonzero(heal > step)
            if np.any(size[at] == 0):
                raise AssertionError("the mark stack is shorter than the healing it must undo")
            box = stk[at, size[at] - 1]
            c, row = box >> 4, box & 15
            d = self.digit(code[at], c)
            back = self.unmark[c, d, row]
            if np.any(back < 0):
                raise AssertionError("healing left a column mask the marking rules cannot reach")
            code[at] += (back - d) * radix[c]
            stk[at, size[at] - 1] = -1
            size[at] -= 1
        keep = np.minimum(size, window)
        pos = np.arange(self.width)
        take = np.minimum((size - keep)[:, None] + pos, stk.shape[1] - 1)
        new = np.where(pos < keep[:, None], np.take_along_axis(stk, take, axis=1), -1)
        return self._register_stacks(code, new, keep)

    # ------------------------------------------------------------------ reports
    def crippled_matrix(self, n: int) -> np.ndarray:
        """``(n, len(letters))`` 0/1 matrix: letter j crippled in configuration i."""
        bits = self.crip[:n]
        return ((bits[:, None] >> np.arange(len(self.letters))) & 1).astype(np.float64)

    def box_marked(self, v: np.ndarray) -> list[np.ndarray]:
        """Per column, the weight ``v`` (over configurations) puts on each box being marked."""
        codes = self.code[: v.size]
        out = []
        for c in range(N_COLUMNS):
            mask = self.mask_of[c, self.digit(codes, c)]
            rows = np.arange(self.lengths[c])
            out.append(((mask[:, None] >> rows) & 1).astype(np.float64).T @ v)
        return out
