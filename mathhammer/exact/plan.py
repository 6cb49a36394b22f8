"""An attack's options from one state, flattened once and decided at each event that makes it.

Built with ``Decisions.planning`` (:mod:`~mathhammer.exact.choices`), an attack's edges are a
tree: lists of pieces and :class:`~mathhammer.exact.choices.Choice` s, each choice holding
its options, which may hold choices of their own (whether to buy, to boost the attack roll,
to boost the damage roll, how much of the power field to spend). A :class:`Plan` lays every
edge of the tree (every option of every choice) end to end once, each with the option it
lies under in each choice above it. Deciding at an event is then a few array operations:
the value of where every edge leads (one look-up per state reached), and, innermost first,
the choices of each height together (:mod:`~mathhammer.exact.batches`): each option's total
over the edges still kept, the preferred option per group, and the edges of the others
dropped. The choices and the records are those
:func:`~mathhammer.exact.choices.choose` would have made while building the edges. Each
choice lies once in the tree (a critical hit that only counts as one is the plain hit's edges,
not a copy of them).
"""

from __future__ import annotations

import copy
from itertools import accumulate

import numpy as np

from .batches import batches
from .choices import Choice, Decisions
from .edges import BySource, Piece, attack_costs, flat_index, lead, sums_by

__all__ = ["Plan", "Decided"]


class Plan:
    """The edges of ``items`` (pieces and choices, as an attack's builders return them),
    every option of every choice, with what deciding them needs.

    ``rows``: the decision-table rows of the attack the plan was built for (its own, then
    its alternatives'); :meth:`decide` is told the rows of the attack it decides for.
    """

    def __init__(self, items: list, rows: tuple):
        self.rows = rows
        # every edge's piece as the attack ends with it, but for the scales (:attr:`p` has them)
        self.leaves: list[Piece] = []
        self._raw: list[Piece] = []  # each leaf as built, before the changes of the lists around it
        self._scales: list[float] = []  # each leaf's scale, the product of those changes'
        self._spans: dict = {}  # per decision: its leaves (a span)
        self._under: dict = {}  # per decision: the option and the scale of each leaf under it, in order
        self.order: list = []  # the decisions, innermost first
        self._height: dict = {}  # per decision: 0 with no decision within it, else 1 + the most within
        self._walk(items, (), ())
        sizes = np.array([pc.p.size for pc in self.leaves], dtype=np.int64)
        self.offsets = np.concatenate([[0], np.cumsum(sizes)])
        self.size = int(self.offsets[-1])
        self._reached(sizes)
        self._batches = batches([self._lay(d, sizes) for d in self.order], self._height)
        self._flat: dict = {}  # the flat_index of the sources, per width
        self._contexts: dict = {}  # per decision moved by reframed: its context (else the decision's)

    def reframed(self, moved) -> Plan:
        """The same options, each edge leading to ``moved(state)`` instead of ``state``, and
        each decision's context moved so (the attack on a unit's later model, or on a target
        alike the one it was built for: :func:`~mathhammer.exact.frames.reframe`): the layout,
        the decisions and their batches are shared, what the edges reach is found again."""
        out = copy.copy(self)
        out._joined = None
        states = {None: None}
        for pc in self.leaves:
            if pc.state not in states:
                states[pc.state] = moved(pc.state)
        out.leaves = [pc.at(states[pc.state]) for pc in self.leaves]
        out._contexts = {id(d): (moved(d.context[0]), *d.context[1:]) for d in self.order if d.context}
        out._reach(self._sizes)
        return out

    def _walk(self, items: list, stack: tuple, changes: tuple) -> int:
        """Lay out ``items``: ``stack`` holds, for each choice above, outermost first, the
        option and its decision's lists of the options and scales of its leaves; ``changes``
        the changes of those choices. Returns the height of the highest choice among
        ``items`` (-1: none)."""
        top = -1
        for it in items:
            if isinstance(it, Choice):
                d = it.decision
                if id(d) in self._spans:
                    raise AssertionError("a choice lies twice in an attack's edges")
                lo = len(self.leaves)
                under = self._under[id(d)] = ([], [])
                below = [self._walk(option, stack + ((j, *under),), changes + (it.changes,))
                         for j, option in enumerate(d.options)]
                self._spans[id(d)] = (lo, len(self.leaves))  # a choice's edges lie together
                self.order.append(d)  # after every choice within it: innermost first
                self._height[id(d)] = 1 + max(below)
                top = max(top, self._height[id(d)])
                continue
            # each choice above weighs the edges as the choices below it scaled them: the
            # product of their scales (the other changes count, not weigh)
            leaf, scale, depth = it, 1.0, len(stack)
            for i in range(depth - 1, -1, -1):
                j, options, scales = stack[i]
                options.append(j)
                scales.append(scale)
                for change in changes[i]:
                    if change[0] == "scaled":
                        scale *= change[1]
                    else:
                        leaf = getattr(leaf, change[0])(*change[1:])
            self._raw.append(it)
            self.leaves.append(leaf)  # its probabilities scaled by _reached, all at once
            self._scales.append(scale)
        return top

    def _lay(self, d, sizes: np.ndarray) -> tuple:
        """One decision, laid out: the span of its edges, and per edge its option, its group
        and its probability as the decision weighs it."""
        lo, hi = self._spans[id(d)]
        span = (int(self.offsets[lo]), int(self.offsets[hi]))
        if lo == hi:
            empty = np.zeros(0, dtype=np.int64)
            return d, span, empty, empty, np.zeros(0)
        options, scales = self._under[id(d)]  # of every leaf of the span, in order
        option = np.repeat(np.array(options, dtype=np.int64), sizes[lo:hi])
        weight = self._raw_p[span[0]: span[1]]
        if any(s != 1.0 for s in scales):  # scaled by a choice within it
            weight = weight * np.repeat(np.array(scales), sizes[lo:hi])
        if isinstance(d.group, BySource):  # the position of each edge's source
            group = d.group.of(self.src[span[0]: span[1]])
        else:
            group = np.concatenate([d.group(pc) for pc in self._raw[lo:hi]])
        return d, span, option, group, weight

    def _reached(self, sizes: np.ndarray) -> None:
        """Every edge end to end (:attr:`src`, :attr:`dst`, :attr:`p`, what was spent along
        each); per state an edge leads to (None: the kill), the positions of its edges
        (:attr:`targets`); and the edges that lead to the same state with the same counts,
        joined as :func:`merge` joins them (:attr:`joined_id`, :attr:`joined_counts`,
        :attr:`joined_states`): what the decisions keep of each is one subset."""
        leaves = self.leaves
        empty = np.zeros(0, dtype=np.int64)
        self.src = np.concatenate([pc.src for pc in leaves]) if leaves else empty
        self._raw_p = np.concatenate([pc.p for pc in leaves]) if leaves else np.zeros(0)
        self.p = self._raw_p * np.repeat(np.array(self._scales), sizes)
        self.dst = np.concatenate([pc.dst for pc in leaves]) if leaves else empty
        #: Boxes each edge marked (None: none), and the quicksand point along it (None: none).
        self.marked = _joined_field(leaves, "marked")
        self.quick = _joined_field(leaves, "quick")
        self._reach(sizes)
        # what was spent along each edge (the same where the states are moved)
        spent, target_spent = attack_costs(self.joined_counts,
                                           np.array([k[3] for k in self._joined_keys], dtype=np.float64))
        self._spent = spent[self.joined_id] if spent.any() else None
        self._target_spent = target_spent[self.joined_id] if target_spent.any() else None

    def _reach(self, sizes: np.ndarray) -> None:
        """What the edges reach (:meth:`_reached`'s :attr:`targets` and joined pieces), from
        the states of :attr:`leaves`."""
        leaves = self.leaves
        states: dict = {}  # (a State's hash is not kept: each is hashed once here)
        joined: dict = {}
        leaf_state, leaf_joined = [], []
        for pc in leaves:
            leaf_state.append(states.setdefault(pc.state, len(states)))
            leaf_joined.append(joined.setdefault((leaf_state[-1], pc.counts, pc.quick_kill, pc.quick_spent,
                                                  pc.quick_tough), len(joined)))
        order, bounds = _grouped(leaf_state, sizes, len(states))
        #: Per state reached (None: the kill), the positions of its edges and where they lead.
        self.targets = [(state, order[lo:hi], self.dst[order[lo:hi]]) for state, (lo, hi) in zip(states, bounds)]
        self.target_id = np.repeat(np.array(leaf_state, dtype=np.int64), sizes)
        # where each edge leads in the tables of every state reached end to end (each from 0
        # to the most its edges reach; one entry for the kill)
        spans = [1 if state is None else int(dst.max(initial=-1)) + 1 for state, _, dst in self.targets]
        self._starts = [0, *accumulate(spans)]
        self._widths = spans  # per state reached, the table read: 0 .. the most its edges reach
        kill = np.array([state is None for state, _, _ in self.targets], dtype=bool)
        starts = np.array(self._starts, dtype=np.int64)
        self._ends = starts[self.target_id] + np.where(kill[self.target_id], 0, self.dst)
        #: Per edge, the joined piece it lies in; per joined piece, its state and counts.
        self.joined_id = np.repeat(np.array(leaf_joined, dtype=np.int64), sizes)
        by_id = list(states)
        self._joined_keys = list(joined)
        self.joined_states = [by_id[k[0]] for k in joined]
        self.joined_counts = np.array([k[1] for k in joined], dtype=np.float64).reshape(len(joined), -1)
        #: Whether an edge counts only what :attr:`joined_counts` and :attr:`marked` say (no
        #: quicksand point along it).
        self.plain = self.quick is None and not any(k[2] or k[3] or k[4] for k in joined)
        self._leaf_joined, self._sizes = leaf_joined, sizes
        self._joined = None

    @property
    def joined(self) -> list:
        """Per joined piece, the positions of its edges and the piece (built when first
        asked: the forward pass reads the arrays)."""
        if self._joined is None:
            order, bounds = _grouped(self._leaf_joined, self._sizes, len(self._joined_keys))
            src, dst, p = self.src[order], self.dst[order], self.p[order]
            marked = None if self.marked is None else self.marked[order]
            quick = None if self.quick is None else self.quick[order]
            self._joined = []
            for (_, counts, quick_kill, quick_spent, quick_tough), state, (lo, hi) in zip(
                    self._joined_keys, self.joined_states, bounds):
                self._joined.append((order[lo:hi], Piece(state, src[lo:hi], dst[lo:hi], p[lo:hi], counts,
                                                         None if marked is None else marked[lo:hi], None,
                                                         None if quick is None else quick[lo:hi], quick_kill,
                                                         quick_spent, quick_tough)))
        return self._joined

    def values(self, dec: Decisions) -> np.ndarray:
        """The value of where each edge leads, with what was spent along it (``[chain.width,
        edges]``)."""
        chain = dec.chain
        if dec.tables is not None:  # from whole tables: one per state reached, end to end, read once
            tables = [chain.kill_value if state is None else dec.tables(state, n)
                      for (state, _, _), n in zip(self.targets, self._widths)]
            whole = tables[0] if len(tables) == 1 else np.concatenate(tables, axis=1)
            return self._with_spent(chain, whole.take(self._ends, axis=1))
        out = np.empty((chain.width, self.size))
        for state, at, dst in self.targets:
            out[:, at] = chain.kill_value if state is None else lead(chain, dec.value, state, dst)
        return self._with_spent(chain, out)

    def _with_spent(self, chain, out: np.ndarray) -> np.ndarray:
        """``out`` (values per edge) with what was spent along each edge added."""
        if self._spent is not None and "spent" in chain.columns:
            out[chain.columns.index("spent")] += self._spent
        if self._target_spent is not None and "target_spent" in chain.columns:
            out[chain.columns.index("target_spent")] += self._target_spent
        return out

    def decide(self, dec: Decisions, rows: tuple, n: int, met: np.ndarray | None = None) -> tuple[Decided, np.ndarray]:
        """The edges kept once every decision is made by ``dec`` (which looks ahead at its
        event's values), innermost first, and the value of the attack from each damage
        marked ``0 .. n - 1`` (``[chain.width, n]``); ``rows``: the decision-table rows of
        the attack decided, in the order of :attr:`rows`. ``met``: where the sequence may
        meet the attack (a mask over ``0 .. n - 1``; None: everywhere): every edge is decided
        (a group's choice reads its own edges only), and only the decisions of the groups met
        are recorded."""
        values = self.values(dec)
        kept = self._kept(dec, rows, values, None if met is None else met[self.src])
        out = Decided(self, kept)
        width = values.shape[0]
        flat = self._flat.get((width, n))
        if flat is None:  # the same at every event this plan is decided at
            flat = self._flat[(width, n)] = flat_index(self.src, width, n)
        return out, sums_by(self.src, out.p, values, n, flat=flat)

    def _kept(self, dec: Decisions, rows: tuple, values: np.ndarray, met: np.ndarray | None) -> np.ndarray | None:
        """Which edges the decisions keep (None: every one, there is no decision to make);
        ``met``: the edges from where the sequence may meet the attack (a mask; None: every
        one), whose groups' decisions are recorded.

        The decisions of a height (none within another) are decided at once, lowest first;
        their records are told in :attr:`order`, as they would have been one by one."""
        if not self._batches:
            return None
        kept = np.ones(self.size, dtype=bool)
        made = {b: b.decide(values, kept) for b in self._batches}
        if dec.record is not None:
            self._records(dec, dict(zip(self.rows, rows)), made, met)
        return kept

    def _records(self, dec: Decisions, rename: dict, made: dict, met: np.ndarray | None) -> None:
        """Tell ``dec.record`` each decision made (``made``: per batch, the totals and the
        choices; ``met``: of the groups met only), in :attr:`order`."""
        told = {}
        for b, (tot, best) in made.items():
            for d, off, e0, e1, lo in b.members:
                if d.what is None:
                    continue
                n = d.n_groups
                seen = None
                if met is not None:  # (its edges: e0 .. e1 of the batch's, lo .. of the plan's)
                    seen = np.bincount(b.group[e0:e1][met[lo: lo + e1 - e0]] - off, minlength=n) > 0
                told[id(d)] = (tot[:, : len(d.options), off: off + n], best[off: off + n], seen)
        for d in self.order:
            if id(d) in told:
                self._record(dec, d, self._contexts.get(id(d), d.context), rename.get(d.row, d.row), *told[id(d)])

    @staticmethod
    def _record(dec: Decisions, d, context: tuple, row: int, tot: np.ndarray, best: np.ndarray,
                met: np.ndarray | None) -> None:
        """Tell ``dec.record`` the decision ``d`` made in ``context`` (``met``: of the groups
        met only)."""
        groups = d.groups
        totals = [tot[:, j] for j in range(tot.shape[1])] if dec.record_values else None
        if met is not None:
            groups = tuple(g[met] for g in groups) if isinstance(groups, tuple) else groups[met]
            best = best[met]
            totals = None if totals is None else [t[:, met] for t in totals]
        dec.record(d.what, dec.event, row, context, groups, best, totals, d.by)


class Decided:
    """The edges of an attack as a :class:`Plan`'s decisions left them: the plan's edges,
    each kept or not (``kept``; None: every one).

    Iterated, it gives the pieces kept, joined as :func:`~mathhammer.exact.edges.merge` joins
    them; the forward pass reads the plan's arrays instead (:meth:`flow`).
    """

    __slots__ = ("plan", "kept", "p", "size", "_pieces")

    def __init__(self, plan: Plan, kept: np.ndarray | None):
        self.plan = plan
        self.kept = kept
        self.p = plan.p if kept is None else plan.p * kept  #: each edge's probability, 0 where dropped
        self.size = plan.size if kept is None else int(np.count_nonzero(kept))  #: the edges kept
        self._pieces = None

    def __iter__(self):
        return iter(self.pieces())

    def pieces(self) -> list[Piece]:
        """The pieces kept (a joined piece whose edges were all dropped is left out)."""
        if self._pieces is None:
            joined, kept = self.plan.joined, self.kept
            if kept is None:
                self._pieces = [pc for _, pc in joined]
            else:
                n_kept = np.bincount(self.plan.joined_id, weights=kept, minlength=len(joined))
                self._pieces = [pc if k == pc.p.size else pc.where(kept[at])
                                for (at, pc), k in zip(joined, n_kept.tolist()) if k]
        return self._pieces

    def flow(self, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The probability each edge carries from ``v`` (over the damage marked before the
        attack), and its total per joined piece."""
        mass = v[self.plan.src] * self.p
        return mass, np.bincount(self.plan.joined_id, weights=mass, minlength=len(self.plan.joined_states))

    def arrivals(self, mass: np.ndarray) -> list[tuple]:
        """Per state reached by an edge kept (None: the kill), the probability ``mass`` (per
        edge, :meth:`flow`'s) brings to each damage marked there, from 0 to the most any
        edge reaches (the kill: one entry); each sum in the order the edges lie."""
        plan = self.plan
        starts = plan._starts
        landed = np.bincount(plan._ends, weights=mass, minlength=starts[-1])
        if self.kept is None:
            live = range(len(plan.targets))
        else:
            n_kept = np.bincount(plan.target_id, weights=self.kept, minlength=len(plan.targets))
            live = np.flatnonzero(n_kept).tolist()
        return [(plan.targets[k][0], landed[starts[k]: starts[k + 1]]) for k in live]


def _joined_field(pieces: list[Piece], field: str) -> np.ndarray | None:
    """An optional per-edge field of ``pieces`` end to end (0 where a piece has none), or
    None where none has it."""
    if all(getattr(pc, field) is None for pc in pieces):
        return None
    return np.concatenate([np.zeros(pc.p.size, dtype=np.int64) if getattr(pc, field) is None
                           else getattr(pc, field) for pc in pieces])


def _grouped(leaf_group: list[int], sizes: np.ndarray, n: int) -> tuple[np.ndarray, list]:
    """The edges ordered by group, each group's in the order they lie (the leaves, of
    ``sizes`` edges each, being in groups ``leaf_group`` of ``0 .. n - 1``), and where each
    group's run begins and ends in that order."""
    edge_group = np.repeat(np.array(leaf_group, dtype=np.int64), sizes)
    order = np.argsort(edge_group, kind="stable") if n > 1 else np.arange(edge_group.size)
    ends = np.cumsum(np.bincount(edge_group, minlength=n)).tolist()
    return order, list(zip([0] + ends[:-1], ends))
