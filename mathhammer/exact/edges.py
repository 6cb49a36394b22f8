"""The edges of one step (an attack, a step of the end of a round).

A :class:`Piece` holds, for many damage marked (card configurations) ``m`` at once, the
probability of one outcome, the damage marked after it, the state after it (or ``None``: the
target was killed) and what the step counted (the ``SLOT_*`` columns of
:class:`~mathhammer.result.Result`, built by :func:`slot_counts`); :func:`merge` joins the
pieces that lead to the same place. The same edges serve forward propagation (push
probability along them) and backward induction (pull values back along them): :func:`lead`
is the value of where an edge leads, :func:`sums_by` and :func:`option_totals` sum values
over edges. Choosing among the options of a decision is :mod:`~mathhammer.exact.choices`'.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..result.fields import (
    SLOT_BOOST_ATTACK,
    SLOT_BOOST_DAMAGE,
    SLOT_CRIT,
    SLOT_DAMAGE,
    SLOT_DESTROYED,
    SLOT_FIELDS,
    SLOT_SHRED,
    SLOT_HIT,
    SLOT_MADE,
    SLOT_SPENT,
    SLOT_TARGET_SPENT,
    SLOT_TOUGH,
)
from .chain import Chain
from .state import State

__all__ = ["Piece", "BySource", "groups_by", "subset", "slot_counts", "merge", "sums_by", "flat_index", "option_totals",
           "attack_cost", "attack_costs", "lead"]


@dataclass(slots=True)
class Piece:
    """Edges from damage marked ``src`` (before the attack) to ``dst`` marked after it, in
    state ``state`` (``None``: killed), with probabilities ``p``.

    What the attack counted is the same for every edge of a piece (``counts``, one value
    per ``SLOT_*`` column) except the boxes it marked, ``marked`` (per edge; ``None``: 0).
    """

    state: State | None
    src: np.ndarray
    dst: np.ndarray
    p: np.ndarray
    counts: tuple
    marked: np.ndarray | None = None
    tag: np.ndarray | None = None  #: which damage roll each edge came from (power field choice)
    #: Quicksand: the point a knockdown made the target suffer, per edge (None: none).
    quick: np.ndarray | None = None
    #: That quicksand point destroyed the model (the target, ``state`` None; or one of its
    #: unit's, ``state`` the next model's).
    quick_kill: bool = False
    #: The focus the target's power field spent against that point, and whether a Tough roll
    #: saved the target from it.
    quick_spent: int = 0
    quick_tough: int = 0
    #: The value of where each edge leads, with what was spent along it (``[chain.width,
    #: edges]``), once a decision among the pieces of an event has looked it up (None: not
    #: yet): the decisions around it read it again rather than look it up again. Kept by
    #: the changes that leave the state, the edges and the points spent as they are.
    ahead: np.ndarray | None = None

    def scaled(self, q: float) -> Piece:
        return Piece(self.state, self.src, self.dst, self.p * q, self.counts, self.marked, self.tag,
                     self.quick, self.quick_kill, self.quick_spent, self.quick_tough, self.ahead)

    def as_critical(self, share: float) -> Piece:
        """The piece of a hit counted as a critical hit (the same edges); ``share``: the
        chance that the hit was critical, where one piece stands for a plain hit and the
        critical hit that only counts as one (an expectation: every figure is linear in the
        counts)."""
        counts = list(self.counts)
        counts[SLOT_CRIT] = share
        return Piece(self.state, self.src, self.dst, self.p, tuple(counts), self.marked, self.tag,
                     self.quick, self.quick_kill, self.quick_spent, self.quick_tough, self.ahead)

    def as_shred(self) -> Piece:
        """The piece of a Shred attack: what it counted, its being made, hit and critical hit
        counted as one Shred attack instead (``SLOT_SHRED``)."""
        counts = list(self.counts)
        counts[SLOT_SHRED] += counts[SLOT_MADE]
        counts[SLOT_MADE] = counts[SLOT_HIT] = counts[SLOT_CRIT] = 0.0
        return Piece(self.state, self.src, self.dst, self.p, tuple(counts), self.marked, self.tag,
                     self.quick, self.quick_kill, self.quick_spent, self.quick_tough, self.ahead)

    def at(self, state: State | None) -> Piece:
        """The same edges, leading to ``state``."""
        return Piece(state, self.src, self.dst, self.p, self.counts, self.marked, self.tag, self.quick,
                     self.quick_kill, self.quick_spent, self.quick_tough, self.ahead)

    def with_shots(self, shots: int) -> Piece:
        """The same edges, the state after them carrying ``shots`` as the number a random rate
        of fire allows (:attr:`State.shots <mathhammer.exact.state.State.shots>`; a kill
        carries none)."""
        if self.state is None:
            return self
        return Piece(self.state._replace(shots=shots), self.src, self.dst, self.p, self.counts, self.marked,
                     self.tag, self.quick, self.quick_kill, self.quick_spent, self.quick_tough)

    def where(self, keep: np.ndarray, ahead: np.ndarray | None = None) -> Piece:
        """The edges of ``keep``; ``ahead``: the value of where every edge of this piece
        leads, when known (else :attr:`ahead`, when known)."""
        ahead = self.ahead if ahead is None else ahead
        return Piece(self.state, self.src[keep], self.dst[keep], self.p[keep], self.counts,
                     subset(self.marked, keep), subset(self.tag, keep), subset(self.quick, keep), self.quick_kill,
                     self.quick_spent, self.quick_tough, None if ahead is None else _columns(ahead, keep))


class BySource:
    """The position of each edge's source in ``m``, sorted distinct damage marked (card
    configurations) that edges start from: the decision groups of an attack, one per
    source, and where a value computed for ``m`` goes.

    A table over ``m[0] .. m[-1]`` answers with one gather per edge (a binary search per
    edge cost more than the rest of a decision); ``m`` itself where it is ``0 .. n - 1``.
    """

    def __init__(self, m: np.ndarray):
        self.m = m
        self.identity = m.size == 0 or (m[0] == 0 and m[-1] == m.size - 1)
        self.table = None

    def __call__(self, pc: Piece) -> np.ndarray:
        return self.of(pc.src)

    def of(self, src: np.ndarray) -> np.ndarray:
        """The position in ``m`` of each of ``src`` (every one in ``m``)."""
        if self.identity:
            return src
        if self.table is None:
            lo = int(self.m[0])
            self.table = np.zeros(int(self.m[-1]) - lo + 1, dtype=np.int64)
            self.table[self.m - lo] = np.arange(self.m.size)
        return self.table[src - self.m[0]]


def groups_by(key: np.ndarray) -> list[tuple[int, object]]:
    """The entries of each distinct value of ``key`` (small non-negative integers), in
    ascending order of the value, each group in the order of the entries: pairs ``(value,
    sel)``, ``a[sel]`` the group's entries of any array ``a`` like ``key``.

    One value selects everything (no copy), two a mask each (the positions, for the one of
    a few entries); more are read off one stable sort of the keys (a radix sort of small
    integers), as one gather per array.
    """
    counts = np.bincount(key)
    values = np.flatnonzero(counts)
    if values.size == 1:
        return [(int(values[0]), slice(None))]
    if values.size == 2:
        second = key == values[1]
        one, two = ~second, second
        if 8 * counts[values[1]] < key.size:
            two = np.flatnonzero(second)
        elif 8 * counts[values[0]] < key.size:
            one = np.flatnonzero(one)
        return [(int(values[0]), one), (int(values[1]), two)]
    small = np.uint8 if values[-1] < 256 else np.uint16 if values[-1] < 65536 else key.dtype
    order = np.argsort(key.astype(small), kind="stable")
    ends = np.cumsum(counts[values])
    return [(int(v), order[lo:hi]) for v, lo, hi in zip(values.tolist(), [0, *ends[:-1].tolist()], ends.tolist())]


def _columns(a: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """The columns ``keep`` (a mask or positions) of ``a``, laid out row by row (an index
    on the second axis lays its result out column by column, and every later operation on
    the rows pays for it)."""
    return a.compress(keep, axis=1) if keep.dtype == bool else a.take(keep, axis=1)


def subset(a, keep):
    """``a[keep]``, or None where ``a`` is None (the optional per-edge arrays of a piece)."""
    return None if a is None else a[keep]


def lead(chain: Chain, value: Callable, state: State | None, dst: np.ndarray, spent: float = 0.0,
         target_spent: float = 0.0) -> np.ndarray:
    """The value (``[chain.width, dst.size]``) of reaching ``state`` (None: the kill) at the
    damage marked ``dst``, ``value(state, dst)`` once there, with the points spent on the way."""
    if state is None:
        out = np.repeat(chain.kill_value, dst.size, axis=1)
    else:
        out = value(state, dst)  # a fresh array (a gather of the memoised values)
    return chain.add_spent(out, spent, target_spent)


_COL = {"made": SLOT_MADE, "hit": SLOT_HIT, "crit": SLOT_CRIT, "dmg": SLOT_DAMAGE,
        "boost_attack": SLOT_BOOST_ATTACK, "boost_damage": SLOT_BOOST_DAMAGE, "spent": SLOT_SPENT,
        "target_spent": SLOT_TARGET_SPENT, "tough": SLOT_TOUGH, "destroyed": SLOT_DESTROYED,
        "shred": SLOT_SHRED}


def slot_counts(named: dict, base: tuple | None = None) -> tuple:
    """``SLOT_*`` counts of a piece: ``named`` maps fields of :data:`_COL` (not ``dmg``) to
    numbers; those of ``base`` (counts made so) where ``named`` does not name them."""
    out = [0.0] * SLOT_FIELDS if base is None else list(base)
    for name, value in named.items():
        out[_COL[name]] = float(value)
    return tuple(out)


def attack_cost(pc: Piece) -> tuple[float, float]:
    """Points the attackers and the target spent along an attack's piece (a knockdown in
    quicksand's power field included)."""
    return pc.counts[SLOT_SPENT], pc.counts[SLOT_TARGET_SPENT] + pc.quick_spent


def attack_costs(counts: np.ndarray, quick_spent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`attack_cost` of many pieces at once: their counts (one row each) and the focus
    their quicksand points made the target spend."""
    return counts[:, SLOT_SPENT], counts[:, SLOT_TARGET_SPENT] + quick_spent


def sums_by(index: np.ndarray, weights: np.ndarray, values: np.ndarray, n: int,
            out: np.ndarray | None = None, flat: np.ndarray | None = None) -> np.ndarray:
    """``out[:, g] += sum of weights[e] * values[:, e]`` over the edges ``e`` of each group
    ``g = index[e]``: ``[columns, n]`` (each figure summed apart, the edges in order).
    ``flat``: :func:`flat_index` of ``index``, when already made."""
    if flat is None:
        flat = flat_index(index, values.shape[0], n)
    sums = np.bincount(flat, weights=np.multiply(weights, values, order="C").ravel(), minlength=values.shape[0] * n)
    sums = sums.reshape(values.shape[0], n)
    if out is None:
        return sums
    out += sums
    return out


def flat_index(index: np.ndarray, width: int, n: int) -> np.ndarray:
    """Groups ``index`` (of ``0 .. n - 1``) of each of ``width`` figures, numbered apart
    (figure ``k``'s groups are ``k * n + index``), raveled: one histogram sums every figure."""
    return (index + n * np.arange(width)[:, None]).ravel()


def option_totals(width: int, n_groups: int, parts) -> np.ndarray:
    """One option's value per group (``[width, n_groups]``): the sum over ``parts``, triples
    ``(groups, p, values)`` of edges, as :func:`sums_by` sums them; NaN in a group no edge
    reaches (the option is not offered there, and :meth:`Preference.choose
    <mathhammer.exact.chain.Preference.choose>` never picks it)."""
    tot = np.zeros((width, n_groups))
    seen = np.zeros(n_groups, dtype=bool)
    for g, p, v in parts:
        sums_by(g, p, v, n_groups, tot)
        seen[g] = True
    tot[:, ~seen] = np.nan
    return tot


def merge(pieces: list[Piece]) -> list[Piece]:
    """Join the pieces that lead to the same state with the same counts (fewer, larger
    array operations); drop the decision tags. The values ahead are joined where every
    piece joined holds them."""
    groups: dict = {}
    for pc in pieces:
        groups.setdefault((pc.state, pc.counts, pc.quick_kill, pc.quick_spent, pc.quick_tough), []).append(pc)
    out = []

    def joined(group, field):
        if all(getattr(pc, field) is None for pc in group):
            return None
        return np.concatenate([np.zeros(pc.p.size, dtype=np.int64) if getattr(pc, field) is None
                               else getattr(pc, field) for pc in group])

    for (state, counts, quick_kill, quick_spent, quick_tough), group in groups.items():
        if len(group) == 1:  # alone: as it is (no copy)
            pc = group[0]
            out.append(pc if pc.tag is None else Piece(state, pc.src, pc.dst, pc.p, counts, pc.marked, None,
                                                       pc.quick, quick_kill, quick_spent, quick_tough, pc.ahead))
            continue
        src, dst, p = (np.concatenate([getattr(pc, f) for pc in group]) for f in ("src", "dst", "p"))
        ahead = None
        if all(pc.ahead is not None for pc in group):
            ahead = np.concatenate([pc.ahead for pc in group], axis=1)
        out.append(Piece(state, src, dst, p, counts, joined(group, "marked"), None,
                         joined(group, "quick"), quick_kill, quick_spent, quick_tough, ahead))
    return out
