"""The edges of one step (an attack, a step of the end of a round), and choosing among them.

A :class:`Piece` holds, for many damage marked (card configurations) ``m`` at once, the
probability of one outcome, the damage marked after it, the state after it (or ``None``: the
target was killed) and what the step counted (the ``SLOT_*`` columns of
:class:`~mathhammer.result.Result`, built by :func:`slot_counts`); :func:`merge` joins the
pieces that lead to the same place. The same edges serve forward propagation (push
probability along them) and backward induction (pull values back along them).

:class:`Decisions` says who decides what during an attack; a decision made by looking ahead
(:func:`choose`) compares the value of each option's edges (:func:`piece_values`: a vector of
expected figures, compared figure by figure as :mod:`~mathhammer.exact.chain` says) and keeps,
per group of edges, the preferred option's; on a tie the first option listed (the cheaper
one) is kept.
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
from .chain import Chain, Preference
from .state import State

__all__ = ["Piece", "Decisions", "BySource", "groups_by", "subset", "slot_counts", "piece_values",
           "choose", "merge", "sums_by", "option_totals", "attack_cost", "lead"]


@dataclass
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

    def scaled(self, q: float) -> Piece:
        return Piece(self.state, self.src, self.dst, self.p * q, self.counts, self.marked, self.tag,
                     self.quick, self.quick_kill, self.quick_spent, self.quick_tough)

    def as_critical(self) -> Piece:
        """The piece of a hit counted as a critical hit (the same edges)."""
        counts = list(self.counts)
        counts[SLOT_CRIT] = 1.0
        return Piece(self.state, self.src, self.dst, self.p, tuple(counts), self.marked, self.tag,
                     self.quick, self.quick_kill, self.quick_spent, self.quick_tough)

    def as_shred(self) -> Piece:
        """The piece of a Shred attack: what it counted, its being made, hit and critical hit
        counted as one Shred attack instead (``SLOT_SHRED``)."""
        counts = list(self.counts)
        counts[SLOT_SHRED] += counts[SLOT_MADE]
        counts[SLOT_MADE] = counts[SLOT_HIT] = counts[SLOT_CRIT] = 0.0
        return Piece(self.state, self.src, self.dst, self.p, tuple(counts), self.marked, self.tag,
                     self.quick, self.quick_kill, self.quick_spent, self.quick_tough)

    def where(self, keep: np.ndarray) -> Piece:
        return Piece(self.state, self.src[keep], self.dst[keep], self.p[keep], self.counts,
                     subset(self.marked, keep), subset(self.tag, keep), subset(self.quick, keep), self.quick_kill,
                     self.quick_spent, self.quick_tough)


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


def subset(a, keep):
    """``a[keep]``, or None where ``a`` is None (the optional per-edge arrays of a piece)."""
    return None if a is None else a[keep]


@dataclass
class Decisions:
    """Who decides what during an attack (the target's power field policy is the setup's).

    Parameters
    ----------
    best : frozenset of int
        Indices of the attackers that play their best: at every decision point they do what
        maximises ``value`` (buying, attack boost, damage boost; reserves and thresholds are
        ignored). The others follow their ``spend`` policies.
    value : callable, optional
        ``value(state, idx)``: the value of the state after this attack at each damage
        marked (configuration) of ``idx``, ``[chain.width, idx.size]``. Needed by best-play
        decisions: the attackers' and, with ``power_field = "best"``, the target's.
    chain : Chain, optional
        The columns of values, the value of a kill and each side's preference.
    keep_points : frozenset of int
        Attackers whose chain puts the points they keep ahead of the damage marked.
    event : int
        The event (:attr:`Setup.events <mathhammer.exact.setup.Setup.events>`) decided.
    record : callable, optional
        ``record(what, event, row, context, groups, best, values, preference)``: told every
        decision made by looking ahead (what, the event, the decision-table row, a tuple
        saying where it is made, the groups it was made for, the option chosen in each, per
        option its value in each group, ``[chain.width, groups]``, NaN where not offered,
        and the :class:`~mathhammer.exact.chain.Preference` it was chosen by); the decision
        tables of best play (:mod:`mathhammer.play`) are read off these calls.
    row : int
        The decision-table row of the attack decided (:attr:`SlotInfo.row
        <mathhammer.exact.state.SlotInfo.row>`: the slot, or the weapon a bought attack is
        made with instead); -1 outside attacks.
    """

    best: frozenset = frozenset()
    value: Callable[[State, np.ndarray], np.ndarray] | None = None
    chain: Chain | None = None
    keep_points: frozenset = frozenset()
    event: int = -1
    record: Callable | None = None
    row: int = -1

    def plays_best(self, attacker_index: int) -> bool:
        """Whether attacker ``attacker_index`` decides by best play."""
        return attacker_index in self.best

    def attacker(self, attacker_index: int) -> Preference:
        """The preference attacker ``attacker_index`` decides by."""
        return self.chain.attackers(attacker_index in self.keep_points)

    @property
    def target(self) -> Preference:
        """The preference the target's power field decides by."""
        return self.chain.target

    def lead(self, state: State | None, dst: np.ndarray, spent: float = 0.0, target_spent: float = 0.0) -> np.ndarray:
        """The value (``[chain.width, dst.size]``) of reaching ``state`` at ``dst`` after
        spending ``spent`` attacker points and ``target_spent`` target points on the way."""
        return lead(self.chain, self.value, state, dst, spent, target_spent)


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


def slot_counts(named: dict) -> tuple:
    """``SLOT_*`` counts of a piece: ``named`` maps fields of :data:`_COL` (not ``dmg``) to
    numbers."""
    out = [0.0] * SLOT_FIELDS
    for name, value in named.items():
        out[_COL[name]] = float(value)
    return tuple(out)


def attack_cost(pc: Piece) -> tuple[float, float]:
    """Points the attackers and the target spent along an attack's piece (a knockdown in
    quicksand's power field included)."""
    return pc.counts[SLOT_SPENT], pc.counts[SLOT_TARGET_SPENT] + pc.quick_spent


def sums_by(index: np.ndarray, weights: np.ndarray, values: np.ndarray, n: int,
            out: np.ndarray | None = None) -> np.ndarray:
    """``out[:, g] += sum of weights[e] * values[:, e]`` over the edges ``e`` of each group
    ``g = index[e]``: ``[columns, n]`` (each figure summed apart)."""
    if out is None:
        out = np.zeros((values.shape[0], n))
    for k in range(values.shape[0]):
        out[k] += np.bincount(index, weights=weights * values[k], minlength=n)
    return out


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


def piece_values(pieces: list[Piece], dec: Decisions) -> list[np.ndarray]:
    """Per edge, the value of where it leads, with what was spent along it
    (``[chain.width, edges]``; the probability not applied)."""
    return [dec.lead(pc.state, pc.dst, *attack_cost(pc)) for pc in pieces]


def choose(options: list[list[Piece]], group: Callable[[Piece], np.ndarray], n_groups: int,
           dec: Decisions, by: Preference, what: str | None = None, context: tuple = (),
           groups: object = None) -> list[Piece]:
    """Keep, per group, the edges of the option ``by`` prefers (the first on a tie); an
    option with no edge in a group is not available there.

    ``what``, ``context`` and ``groups`` (what the groups are: the damage marked, or cells
    of damage marked and damage rolled) are handed to ``dec.record`` with the choice."""
    if len(options) == 1:
        return options[0]
    grouped = [[group(pc) for pc in pieces] for pieces in options]  # the group of each edge
    totals = [option_totals(dec.chain.width, n_groups,
                            zip(gs, (pc.p for pc in pieces), piece_values(pieces, dec)))
              for gs, pieces in zip(grouped, options)]
    best = by.choose(totals)
    if what is not None and dec.record is not None:
        dec.record(what, dec.event, dec.row, context, groups, best, totals, by)
    out = []
    for j, (gs, pieces) in enumerate(zip(grouped, options)):
        for g, pc in zip(gs, pieces):
            keep = best[g] == j
            if keep.all():
                out.append(pc)
            elif keep.any():
                out.append(pc.where(keep))
    return out


def merge(pieces: list[Piece]) -> list[Piece]:
    """Join the pieces that lead to the same state with the same counts (fewer, larger
    array operations); drop the decision tags."""
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
                                                       pc.quick, quick_kill, quick_spent, quick_tough))
            continue
        src, dst, p = (np.concatenate([getattr(pc, f) for pc in group]) for f in ("src", "dst", "p"))
        out.append(Piece(state, src, dst, p, counts, joined(group, "marked"), None,
                         joined(group, "quick"), quick_kill, quick_spent, quick_tough))
    return out
