"""Damage grids and life spirals: which boxes are marked, as an index the engine can vectorise.

docs/activation.md "Damage grids and life spirals". A *configuration* of the card is which
boxes are marked: per column (a spiral's branch) a bit mask of its rows, bit ``r`` for the
``r``-th box from the top (outermost). The engine numbers the configurations it reaches in
a registry (:class:`Card`), so that, as on a damage track, one NumPy operation moves the
probability of every configuration at once.

A configuration is the mixed-radix number (its *code*) of its six column digits, the index
of each column's mask among those it can reach (:mod:`~mathhammer.exact.columns`). The
registry keeps, per configuration, its code and its digits, and numbers codes without a
Python call per code (:class:`~mathhammer.exact.registry.KeyIndex`).

Moves are kept
--------------
Marking ``t`` boxes from a configuration, starting at a column (or at the topmost unmarked
X box of "damage to X"), always lands on the same configuration, whatever the attack, its
dice or its state. The card remembers each such move once it is made (a table over
configuration, start and ``t``), so that the attacks after the first read their column
rolls off it instead of marking the boxes again; the configurations are numbered in the
order they are first met all the same.

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
from .columns import N_COLUMNS, Columns
from .registry import KeyIndex, RowTable

__all__ = ["N_COLUMNS", "Card"]


class Card(Columns):
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
    digits : ndarray of int64, shape (capacity, 6)
        Per configuration, its column digits (the mask index of each column).
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
        self.dx = tuple(x for x in dict.fromkeys(damage_to) if x is not None and x in self.letters)
        self.stack = bool(stack)
        self.width = int(stack)
        super().__init__(card, self.letters, self.dx)
        # registry: codes (or, with a stack, codes and stacks) -> indices
        self._codes = KeyIndex(self.n_codes) if not self.stack else None
        self._stacks: dict = {}
        self.size = 0
        self._cap = 0
        self.code = np.zeros(0, dtype=np.int64)
        self.count = np.zeros(0, dtype=np.int64)
        self.crip = np.zeros(0, dtype=np.int64)
        self.digits = np.zeros((0, N_COLUMNS), dtype=np.int64)
        self.xcol = np.zeros((0, len(self.dx)), dtype=np.int64)
        self.stk = np.zeros((0, self.width), dtype=np.int64)  # the stack of each, -1 padded
        self.stlen = np.zeros(0, dtype=np.int64)
        # the moves made so far (no stack): in the row of configuration i, [t, s] is the
        # configuration after marking t boxes from start s (a column, or 6 + k: the X box of
        # dx[k]), -1 where not made yet; the six columns side by side, as a roll reads them
        self._moves = RowTable(N_COLUMNS + len(self.dx))
        if self.stack:
            start = self._register_stacks(np.zeros(1, dtype=np.int64), np.full((1, self.width), -1),
                                          np.zeros(1, dtype=np.int64))
        else:
            start = self.register_codes(np.zeros(1, dtype=np.int64))
        assert start[0] == 0

    def masks_of(self, idx: int) -> list[int]:
        """The six column masks (bit ``r``: row ``r`` marked) of configuration ``idx``."""
        return [self.col_masks[c][int(self.digits[idx, c])] for c in range(N_COLUMNS)]

    # ------------------------------------------------------------------ registry
    def _reserve(self, n: int):
        """Room for ``n`` configurations in the per-configuration arrays (at least doubled,
        the stacks -1 padded)."""
        if n <= self._cap:
            return
        cap = max(n, 2 * self._cap, 64)
        for name in ("code", "count", "crip", "digits", "xcol", "stk", "stlen"):
            old = getattr(self, name)
            new = np.full((cap, *old.shape[1:]), -1 if name == "stk" else 0, dtype=old.dtype)
            new[: self.size] = old[: self.size]
            setattr(self, name, new)
        self._cap = cap

    def _append(self, codes: np.ndarray, digits: np.ndarray, stk=None, stlen=None) -> np.ndarray:
        """Register new configurations (their codes and digits) and their properties."""
        n = codes.size
        first = self.size
        self._reserve(first + n)
        sl = slice(first, first + n)
        self.code[sl] = codes
        self.digits[sl] = digits
        count = np.zeros(n, dtype=np.int64)
        for c in range(N_COLUMNS):
            count += self.marked[c, digits[:, c]]
        self.count[sl] = count
        self.crip[sl] = self.crippled_digits(digits)
        for k in range(len(self.dx)):
            col = np.full(n, -1, dtype=np.int64)
            for c in reversed(range(N_COLUMNS)):
                col = np.where(self.hasx[c, digits[:, c], k], c, col)
            self.xcol[sl, k] = col
        if stk is not None:
            self.stk[sl] = stk
            self.stlen[sl] = stlen
        self.size = first + n
        return np.arange(first, first + n)

    def register_codes(self, codes: np.ndarray, digits: np.ndarray | None = None) -> np.ndarray:
        """Indices of configurations given by code (without a stack), registering new ones
        (in the order of their codes); ``digits``: the codes' digits, when known."""
        codes = np.asarray(codes, dtype=np.int64).reshape(-1)
        idx = self._codes.find(codes)
        new = np.flatnonzero(idx < 0)
        if new.size:
            fresh, at = np.unique(codes[new], return_index=True)
            fresh_digits = self.digits_of(fresh) if digits is None else digits[new[at]]
            numbers = self._append(fresh, fresh_digits)
            self._codes.add(fresh, numbers)
            idx[new] = numbers[np.searchsorted(fresh, codes[new])]
        return idx

    def _register_stacks(self, codes: np.ndarray, stk: np.ndarray, stlen: np.ndarray) -> np.ndarray:
        """Indices of configurations given by code and stack (rows of ``stk``, -1 padded)."""
        rows = np.column_stack([codes, stk])
        uniq, first, inv = np.unique(rows, axis=0, return_index=True, return_inverse=True)
        get = self._stacks.get
        keys = [tuple(r) for r in uniq.tolist()]
        idx = np.fromiter((get(k, -1) for k in keys), dtype=np.int64, count=len(keys))
        new = np.flatnonzero(idx < 0)
        if new.size:
            at = first[new]
            idx[new] = self._append(codes[at], self.digits_of(codes[at]), stk[at], stlen[at])
            for j, i in zip(new.tolist(), idx[new].tolist()):
                self._stacks[keys[j]] = i
        return idx[inv.reshape(-1)]

    # ------------------------------------------------------------------ moves
    def land(self, src: np.ndarray, t: np.ndarray, heal: np.ndarray, x: str | None, window: int):
        """Where ``t`` boxes marked on each configuration of ``src`` land, the ``heal`` most
        recent marks then removed: ``(direct, rolled, dst)``.

        With ``x`` (the weapon's ``damage_to``) on the card and an unmarked X box, no
        column is rolled: the damage starts at the lowest-numbered column holding one, at
        that box, with probability 1 (``direct``, indices into ``src``: one edge each).
        Otherwise (``rolled``) each of the six columns is rolled with probability 1/6: six
        edges each, columns 1 to 6. ``dst`` lists the direct edges, then the rolled ones
        (:meth:`spread` lays any per-entry array out the same way); ``window``: marks the
        stack keeps.
        """
        src = np.asarray(src, dtype=np.int64)
        xi = self.dx.index(x) if x in self.dx else None
        if xi is None:
            direct, rolled = np.zeros(0, dtype=np.int64), np.arange(src.size)
        else:
            has = self.xcol[src, xi] >= 0
            direct, rolled = np.flatnonzero(has), np.flatnonzero(~has)
        if self.stack:
            sel = self.spread(np.arange(src.size), direct, rolled)
            start = np.concatenate([self.xcol[src[direct], xi] if direct.size else direct,
                                    np.tile(np.arange(N_COLUMNS), rolled.size)])
            first_x = None if direct.size == 0 else np.arange(sel.size) < direct.size
            return direct, rolled, self._move_stack(src[sel], start, first_x, xi, t[sel], heal[sel], window)
        if np.any(heal > t):
            raise AssertionError("healing beyond this attack's marks needs the mark order")
        return direct, rolled, self.moves(src, t - heal, direct, rolled, xi)

    @staticmethod
    def spread(a: np.ndarray, direct: np.ndarray, rolled: np.ndarray) -> np.ndarray:
        """Per-entry ``a`` laid out as the edges of :meth:`land`: the direct entries once,
        then each rolled entry six times."""
        if direct.size == 0:
            return np.repeat(a if rolled.size == a.size else a[rolled], N_COLUMNS)
        return np.concatenate([a[direct], np.repeat(a[rolled], N_COLUMNS)])

    def moves(self, src: np.ndarray, t: np.ndarray, direct: np.ndarray, rolled: np.ndarray, xi) -> np.ndarray:
        """The configurations :meth:`land` reaches without a stack, ``t`` boxes marked: read
        off the moves made before; the others made (:meth:`mark_digits`), numbered in the
        order of their codes, as if all were met now, and kept."""
        t = np.asarray(t, dtype=np.int64)
        if src.size == 0:
            return np.zeros(0, dtype=np.int64)
        memo = self._moves
        memo.widen(int(t.max()) + 1)
        width, kinds = memo.table.shape[1:]
        row = memo.rows(src) * width + t  # of the table's (configuration, t) rows
        table = memo.table.reshape(-1, kinds)
        dst = table[row[rolled] if direct.size else row, :N_COLUMNS].reshape(-1)
        if direct.size:
            dst = np.concatenate([table[row[direct], N_COLUMNS + xi], dst])
        dst = dst.astype(np.int64)
        miss = np.flatnonzero(dst < 0)
        if miss.size:
            at, start, kind = np.empty((3, miss.size), dtype=np.int64)
            on_x = miss < direct.size
            at[on_x] = direct[miss[on_x]]
            off = miss[~on_x] - direct.size
            at[~on_x] = rolled[off // N_COLUMNS]
            start[~on_x] = kind[~on_x] = off % N_COLUMNS
            if direct.size:
                start[on_x] = self.xcol[src[at[on_x]], xi]
                kind[on_x] = N_COLUMNS + xi
            dst[miss] = self.register_codes(self._marked(src[at], start, on_x, xi, t[at]))
            table.reshape(-1)[row[at] * kinds + kind] = dst[miss]
        return dst

    def _marked(self, src, start, on_x, xi, t) -> np.ndarray:
        """Codes after marking ``t`` boxes of configurations ``src`` from column ``start``
        (``on_x``: from its topmost unmarked ``dx[xi]`` box): where they fit in that column,
        by its digit alone; the others box by box on all six digits (:meth:`mark_digits`)."""
        code = self.code[src]
        d = self.digits.reshape(-1)[src * N_COLUMNS + start]
        fits = ~on_x & (t <= self.unmarked[start, d])
        at = np.flatnonzero(fits)
        c, dc = start[at], d[at]
        code[at] += (self.fill[c, dc, t[at]] - dc) * self.radix[c]
        rest = np.flatnonzero(~fits)
        if rest.size:
            digits = self.digits[src[rest]]
            self.mark_digits(digits, start[rest], on_x[rest], xi, t[rest])
            code[rest] = self.codes_of(digits)
        return code

    def _move_stack(self, src, start, first_x, xi, t, heal, window: int) -> np.ndarray:
        """:meth:`land` with a mark stack, for the edges ``src`` (start columns ``start``;
        ``first_x``: at the X box ``dx[xi]``): box by box, each mark pushed, each heal popped."""
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
        out = []
        for c in range(N_COLUMNS):
            mask = self.mask_of[c, self.digits[: v.size, c]]
            rows = np.arange(self.lengths[c])
            out.append(((mask[:, None] >> rows) & 1).astype(np.float64).T @ v)
        return out
