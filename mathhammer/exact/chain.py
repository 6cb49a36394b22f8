"""What best play compares, in order: the objective, then its secondary figures, then points.

A decision compares its options by the *value* of each: a vector of expected figures at the
end of the sequence, one per :class:`Chain` column (values of many states at once are arrays
``[columns, states]``: each figure contiguous, as the sums over edges read them). The attackers prefer the option
whose value is greater on the first column that differs by more than float noise (and, on
the points they spend, smaller); the target prefers the smaller on every figure and the
fewer points of its own. Comparing figure by figure, rather than adding a small weight of
each secondary figure to the primary, keeps the primary exact: no weight is small enough
never to trade a real difference in the kill for damage, nor large enough to survive the
rounding of a long sequence.

The chains (docs/best-play.md):

========== ==========================================================
objective  columns, in order
========== ==========================================================
kill       kill, models destroyed, damage marked
damage     damage marked, kill, models destroyed
destroyed  models destroyed, kill, damage marked
cripple:X  X crippled, kill, models destroyed, damage marked
========== ==========================================================

then the points the attackers spend and the points the target spends. "Models destroyed"
is there only where it can differ from the kill (a unit, several targets). An attacker with
``keep_points`` moves its points ahead of the damage marked (right after the objective where
the objective is the damage).

Examples
--------
>>> import numpy as np
>>> chain = Chain.of("kill", models=1, boxes=10, points=3)
>>> chain.columns
('kill', 'damage', 'spent', 'target_spent')
>>> a = np.array([[0.0], [4.0], [1.0], [0.0]])   # no kill, 4 boxes, 1 point spent
>>> b = np.array([[0.0], [2.0], [0.0], [0.0]])   # no kill, 2 boxes, nothing spent
>>> bool(chain.attackers().better(a, b)[0])   # the damage decides before the points
True
>>> bool(chain.target.better(a, b)[0])        # the target prefers fewer boxes marked
False
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

__all__ = ["Chain", "Preference", "TIE"]

#: Two values closer than this (times the column's scale) are the same figure: float noise
#: must not decide a decision.
TIE = 1e-13

#: An option not offered, as :meth:`Preference.choose_stacked` keys it: below any figure.
NOT_OFFERED = -1e300


@dataclass(frozen=True, eq=False)
class Preference:
    """One side's order over values: compare ``columns`` in turn, each multiplied by its
    ``sign`` (+1: more is better), and the first that differs by more than ``tol`` decides."""

    columns: np.ndarray
    sign: np.ndarray
    tol: np.ndarray

    def better(self, cand: np.ndarray, best: np.ndarray) -> np.ndarray:
        """Where ``cand`` is strictly preferred to ``best`` (both ``[columns, n]``; a column
        of NaN is an option not offered: never preferred, and anything offered beats it)."""
        return self.choose_stacked(np.stack([best, cand], axis=1)) == 1

    def choose(self, values: list[np.ndarray]) -> np.ndarray:
        """Per state, the index of the preferred option of ``values`` (one ``[columns, n]``
        array per option); on a tie the first listed."""
        return self.choose_stacked(np.stack(values, axis=1))

    def choose_stacked(self, values: np.ndarray, first_offered: bool = False) -> np.ndarray:
        """:meth:`choose` for the options' values stacked, ``[columns, options, n]``: each
        option in turn against the best before it, by the first of this side's figures that
        differs by more than its tolerance. ``first_offered``: the caller knows the first
        option is offered everywhere (else it is looked for)."""
        key = values if values.shape[0] == self._in_order else values.take(self.columns, axis=0)
        gain = self._gain
        if not first_offered and np.isnan(key[0, 0]).any():
            # the first option not offered somewhere: each value keyed by its sign, an option
            # not offered (NaN) below any figure, like another not offered: it never replaces
            # the best before it, and anything offered does
            key = key * self._sign
            np.fmax(key, NOT_OFFERED, out=key)  # (NaN: the other)
            gain = np.subtract
        # else an option not offered (NaN) compares false against the best before it, which is
        # always offered, and never replaces it
        if key.shape[1] == 2:  # most decisions: whether to pay, the second option or not
            return self._prefers(gain(key[:, 1], key[:, 0])).astype(np.int64)
        best = np.zeros(key.shape[2], dtype=np.int64)
        held = key[:, 0].copy()
        for j in range(1, key.shape[1]):
            better = self._prefers(gain(key[:, j], held))
            np.copyto(best, j, where=better)
            np.copyto(held, key[:, j], where=better)
        return best

    def _gain(self, cand: np.ndarray, held: np.ndarray) -> np.ndarray:
        """How much ``cand`` is preferred to ``held`` on each of this side's figures
        (``[columns, n]``): the difference times the figure's sign (exactly: a sign is
        1 or -1)."""
        if self._signs == -1:
            return held - cand
        d = cand - held
        if self._signs == 0:
            d *= self._row_sign
        return d

    def _prefers(self, d: np.ndarray) -> np.ndarray:
        """Where an option whose keyed figures exceed another's by ``d`` (``[columns, n]``)
        is preferred: the first figure that differs by more than its tolerance decides, read
        from the last back (better where more, else, where not less, as the figures after it
        say)."""
        more = d > self._tol
        better = more[-1]
        if d.shape[0] > 1:
            fewer = d[:-1] >= self._neg_tol
            for k in range(d.shape[0] - 2, -1, -1):
                better &= fewer[k]
                better |= more[k]
        return better

    @cached_property
    def _sign(self) -> np.ndarray:
        return self.sign[:, None, None]

    @cached_property
    def _row_sign(self) -> np.ndarray:
        return self.sign[:, None]

    @cached_property
    def _tol(self) -> np.ndarray:
        return self.tol[:, None]

    @cached_property
    def _neg_tol(self) -> np.ndarray:
        return -self.tol[:-1, None]

    @cached_property
    def _signs(self) -> int:
        """1: every sign +1, -1: every sign -1, 0: both."""
        return 1 if (self.sign > 0).all() else -1 if (self.sign < 0).all() else 0

    @cached_property
    def _in_order(self) -> int:
        """The width of values whose columns are this side's, in order (-1: none)."""
        return self.columns.size if np.array_equal(self.columns, np.arange(self.columns.size)) else -1


@dataclass(frozen=True, eq=False)
class Chain:
    """The columns of best play's values for one objective, and each side's preference.

    Build one with :meth:`of`.

    Attributes
    ----------
    objective : str
    columns : tuple of str
        The objective's figures in the chain's order (``kill``, ``destroyed``, ``damage``,
        ``cripple`` standing for the system or aspect of ``cripple:X``), then ``"spent"`` (points the attackers
        spend) and ``"target_spent"`` (points the target spends).
    scale : ndarray
        The largest each column can be (its tolerance is :data:`TIE` times that).
    kill_value : ndarray
        The value of a kill, once reached (``[columns, 1]``): every figure at its most,
        nothing spent after.
    """

    objective: str
    columns: tuple
    scale: np.ndarray
    kill_value: np.ndarray

    @classmethod
    def of(cls, objective: str, models: int, boxes: int, points: int, attackers_spend: bool = True,
           target_spends: bool = True) -> Chain:
        """The chain of ``objective`` against ``models`` models (over every target) of
        ``boxes`` boxes in all, with at most ``points`` points spent in the sequence.
        ``attackers_spend`` / ``target_spends``: whether the attackers' (the target's) points
        are spent by decisions at all (when not, the column is left out: it would be 0)."""
        primary = objective.split(":", 1)[0]
        order = {"kill": ("kill", "destroyed", "damage"),
                 "damage": ("damage", "kill", "destroyed"),
                 "destroyed": ("destroyed", "kill", "damage"),
                 "cripple": ("cripple", "kill", "destroyed", "damage")}[primary]
        if models <= 1:  # the models destroyed are the kill
            order = tuple(c for c in order if c != ("kill" if primary == "destroyed" else "destroyed"))
        columns = order + ("spent",) * attackers_spend + ("target_spent",) * target_spends
        most = {"kill": 1.0, "destroyed": float(models), "damage": float(boxes), "cripple": 1.0,
                "spent": float(max(points, 1)), "target_spent": float(max(points, 1))}
        kill = {"kill": 1.0, "destroyed": float(models), "damage": float(boxes), "cripple": 1.0,
                "spent": 0.0, "target_spent": 0.0}
        return cls(objective, columns, np.array([most[c] for c in columns]),
                   np.array([[kill[c]] for c in columns]))

    @property
    def width(self) -> int:
        return len(self.columns)

    def index(self, name: str) -> int | None:
        """The row of column ``name`` in values (None: not kept)."""
        return self.columns.index(name) if name in self.columns else None

    def attackers(self, keep_points: bool = False) -> Preference:
        """The attackers' order: the objective's figures, more is better, then fewer of
        their points spent; with ``keep_points``, the points ahead of the damage marked
        (right after it where it is the objective)."""
        return self._attackers[bool(keep_points)]

    @cached_property
    def _attackers(self) -> tuple[Preference, Preference]:
        # Built once per chain: every decision of the induction reads one of them.
        return self._attackers_preference(False), self._attackers_preference(True)

    def _attackers_preference(self, keep_points: bool) -> Preference:
        figures = [j for j, c in enumerate(self.columns) if c not in ("spent", "target_spent")]
        spent = self.index("spent")
        if spent is None:
            order = figures
        elif keep_points:
            damage = self.index("damage")
            at = figures.index(damage) + (1 if damage == 0 else 0)
            order = figures[:at] + [spent] + figures[at:]
        else:
            order = figures + [spent]
        sign = [-1.0 if j == spent else 1.0 for j in order]
        return self._preference(order, sign)

    @cached_property
    def target(self) -> Preference:
        """The target's order: every figure of the objective, less is better, then fewer of
        its own points spent."""
        order = [j for j, c in enumerate(self.columns) if c != "spent"]
        return self._preference(order, [-1.0] * len(order))

    def add_spent(self, values: np.ndarray, spent: float, target_spent: float) -> np.ndarray:
        """``values`` (``[columns, n]``, changed in place) with the points spent on the way
        to them added."""
        if spent and "spent" in self.columns:
            values[self.columns.index("spent")] += spent
        if target_spent and "target_spent" in self.columns:
            values[self.columns.index("target_spent")] += target_spent
        return values

    def _preference(self, order, sign) -> Preference:
        order = np.array(order, dtype=np.int64)
        return Preference(order, np.array(sign), TIE * self.scale[order])
