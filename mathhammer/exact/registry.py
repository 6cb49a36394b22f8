"""Numbering keys in the order they are met: int64 keys -> indices, many at once.

The exact engine numbers the configurations of a grid or spiral as it meets them
(:class:`~mathhammer.exact.card.Card`): each attack asks for the indices of hundreds of
thousands of configuration codes, most already numbered. :class:`KeyIndex` answers such a
question in a few NumPy operations, with no Python call per key: a table indexed by the
key where the keys are few enough (a configuration code is below ``Card.n_codes``, a few
hundred thousand for a heavy warjack's grid), else a sorted array of the keys numbered and
a binary search.
"""

from __future__ import annotations

import numpy as np

__all__ = ["DENSE_KEYS", "KeyIndex", "RowTable"]

#: Most keys a dense table holds (4 bytes each): beyond it, a sorted array and binary search.
DENSE_KEYS = 1 << 22


class KeyIndex:
    """Indices of int64 keys in ``[0, n_keys)``, -1 for keys not added.

    Parameters
    ----------
    n_keys : int
        The keys run below it.
    dense : bool, optional
        Force the dense table (True) or the sorted array (False); by default dense up to
        :data:`DENSE_KEYS` keys.
    """

    def __init__(self, n_keys: int, dense: bool | None = None):
        self.n_keys = int(n_keys)
        self.dense = self.n_keys <= DENSE_KEYS if dense is None else bool(dense)
        if self.dense:
            self.table = np.full(self.n_keys, -1, dtype=np.int32 if self.n_keys < 2**31 else np.int64)
        else:
            self.keys = np.zeros(0, dtype=np.int64)  # sorted
            self.values = np.zeros(0, dtype=np.int64)  # the index of each

    def find(self, keys: np.ndarray) -> np.ndarray:
        """The index of each key (int64), -1 where it was never added."""
        keys = np.asarray(keys, dtype=np.int64)
        if self.dense:
            return self.table[keys].astype(np.int64)
        if self.keys.size == 0:
            return np.full(keys.shape, -1, dtype=np.int64)
        pos = np.minimum(np.searchsorted(self.keys, keys), self.keys.size - 1)
        return np.where(self.keys[pos] == keys, self.values[pos], -1)

    def add(self, keys: np.ndarray, values: np.ndarray) -> None:
        """Number ``keys`` (sorted, distinct, none added before) as ``values``."""
        keys = np.asarray(keys, dtype=np.int64)
        if self.dense:
            self.table[keys] = values
            return
        at = np.searchsorted(self.keys, keys)
        self.keys = np.insert(self.keys, at, keys)
        self.values = np.insert(self.values, at, np.asarray(values, dtype=np.int64))


class RowTable:
    """Rows of an int32 table (-1 where not yet filled), one per key, handed out the first
    time a key is asked for: a memo over many keys of which few are ever asked for.

    Parameters
    ----------
    kinds : int
        The last dimension of a row, ``(width, kinds)``; :meth:`widen` sets the width.

    Attributes
    ----------
    table : ndarray of int32, shape (rows, width, kinds)
        The rows handed out (and room for more).
    """

    def __init__(self, kinds: int):
        self.row = np.full(0, -1, dtype=np.int64)  # per key, its row of the table
        self.table = np.full((0, 0, kinds), -1, dtype=np.int32)
        self.used = 0

    @property
    def width(self) -> int:
        return self.table.shape[1]

    def widen(self, width: int) -> None:
        """Rows of ``width`` (at least) by ``kinds``."""
        if width <= self.width:
            return
        old = self.table
        self.table = np.full((old.shape[0], width, old.shape[2]), -1, dtype=np.int32)
        self.table[:, : old.shape[1]] = old

    def rows(self, keys: np.ndarray) -> np.ndarray:
        """The row of each key (non-negative ints), handing rows to those without one."""
        top = int(keys.max()) + 1 if keys.size else 0
        if top > self.row.size:
            self.row = np.concatenate([self.row, np.full(max(top, 2 * self.row.size) - self.row.size, -1)])
        out = self.row[keys]
        new = out < 0
        if new.any():
            fresh = np.unique(keys[new])
            need = self.used + fresh.size
            if need > self.table.shape[0]:
                old = self.table
                self.table = np.full((max(need, 2 * old.shape[0], 64), *old.shape[1:]), -1, dtype=np.int32)
                self.table[: self.used] = old[: self.used]
            self.row[fresh] = np.arange(self.used, need)
            self.used = need
            out = self.row[keys]
        return out
