"""Decisions of one height and one preference in a :class:`~mathhammer.exact.plan.Plan`,
decided as one: none lies within another, so their edges are disjoint, and one histogram of
the options' totals and one choice decide them all."""

from __future__ import annotations

from itertools import accumulate

import numpy as np

from .edges import flat_index

__all__ = ["Batch", "batches"]


class Batch:
    """Decisions of one height and one preference, decided as one: their spans of edges are
    disjoint (none lies within another), their groups laid end to end (``n`` in all), each
    edge keyed ``option * n + group`` over the most options any of them has (an option a
    decision lacks: no edge, not offered)."""

    __slots__ = ("height", "by", "members", "at", "pos", "key", "option", "group", "weight", "absent",
                 "first_offered", "n_options", "n", "flat")

    def __init__(self, height: int, laid: list):
        self.height, self.by = height, laid[0][0].by
        self.n_options = max(len(d.options) for d, *_ in laid)
        offs = [0, *accumulate(d.n_groups for d, *_ in laid)]
        self.n = offs[-1]
        #: per decision: it, its first group, its edges in the batch's arrays and in the plan's
        self.members, e0 = [], 0
        for (d, (lo, hi), *_), off in zip(laid, offs):
            self.members.append((d, off, e0, e0 + hi - lo, lo))
            e0 += hi - lo
        spans = [span for _, span, *_ in laid]
        joined = all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
        #: the plan's edges of the batch: a slice where they lie together, else their positions
        self.at = slice(spans[0][0], spans[-1][1]) if joined else None
        self.pos = None if joined else np.concatenate([np.arange(lo, hi) for lo, hi in spans])
        if len(laid) == 1:  # one decision: its arrays as they are
            _, _, self.option, self.group, self.weight = laid[0]
        else:
            self.option = np.concatenate([option for _, _, option, _, _ in laid])
            self.group = np.concatenate([group + off for (_, _, _, group, _), off in zip(laid, offs)])
            self.weight = np.concatenate([weight for *_, weight in laid])
        self.key = self.option * self.n + self.group
        cells = self.n_options * self.n
        self.absent = (np.bincount(self.key, minlength=cells) == 0).reshape(self.n_options, self.n)
        self.first_offered = not self.absent[0].any()
        self.flat: dict = {}  # the flat_index of its cells, per width

    def decide(self, values: np.ndarray, kept: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Decide every decision of the batch from ``values`` (per edge of the plan, ``[width,
        edges]``), dropping from ``kept`` (per edge of the plan, changed in place) the edges
        of the options not chosen; the totals of each option per group (``[width,
        options, n]``, NaN: not offered) and the option chosen per group."""
        width = values.shape[0]
        cells = self.n_options * self.n
        flat = self.flat.get(width)
        if flat is None:  # the same at every event the plan is decided at
            flat = self.flat[width] = flat_index(self.key, width, cells)
        near = values[:, self.at] if self.at is not None else values.take(self.pos, axis=1)
        if self.height == 0:  # no edge dropped yet: every edge counts
            weighed, absent, first = near * self.weight, self.absent, self.first_offered
        else:  # an edge dropped weighs nothing (and adds 0 to its sum: the same sums)
            live = kept[self.at] if self.at is not None else kept[self.pos]
            weighed = near * (self.weight * live)
            absent = (np.bincount(self.key, weights=live, minlength=cells) == 0).reshape(self.n_options, self.n)
            first = not absent[0].any()
        tot = np.bincount(flat, weights=weighed.ravel(), minlength=cells * width)
        tot = tot.reshape(width, self.n_options, self.n)
        np.copyto(tot, np.nan, where=absent)  # an option not offered in a group
        best = self.by.choose_stacked(tot, first)
        keep = best[self.group] == self.option
        if self.at is not None:
            kept[self.at] &= keep
        else:
            kept[self.pos] &= keep
        return tot, best


def batches(laid: list, height: dict) -> list[Batch]:
    """The decisions ``laid`` out (per decision: it, the span of its edges, and per edge its
    option, group and weight), in batches of one height and one preference, lowest first."""
    by_kind: dict = {}
    for row in laid:
        d = row[0]
        by_kind.setdefault((height[id(d)], id(d.by)), []).append(row)
    return [Batch(h, rows) for (h, _), rows in sorted(by_kind.items(), key=lambda kv: kv[0][0])]
