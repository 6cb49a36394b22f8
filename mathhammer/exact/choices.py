"""Decisions made by looking ahead: who decides, and choosing among the options of an attack.

:class:`Decisions` says who decides what during an attack. A decision made by looking ahead
(:func:`choose`) compares the value of each option's edges (:func:`piece_values`: a vector of
expected figures, compared figure by figure as :mod:`~mathhammer.exact.chain` says) and keeps,
per group of edges, the preferred option's; on a tie the first option listed (the cheaper
one) is kept.

An attack's options do not depend on the values they are compared by: only the choice does.
Like attacks from the same state (three identical hammer blows, ten shots of a gun) are made
at several events, each looking ahead at its own values. With ``Decisions.planning`` the
options are built once, each decision kept as a :class:`Choice` among the edges, and a
:class:`~mathhammer.exact.plan.Plan` decides them at each event, innermost first, as
:func:`choose` would have while building: the same choices, the same records.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from .chain import Chain, Preference
from .edges import Piece, attack_cost, lead, option_totals
from .state import State

__all__ = ["Decisions", "Pending", "Choice", "piece_values", "choose"]


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
    planning : bool
        Build the options of each decision without deciding (:class:`Choice`), to be
        decided by a :class:`~mathhammer.exact.plan.Plan` with the values of each event that
        makes the attack.
    record_values : bool
        ``record`` reads the options' values (the relaxation's averaging does); where False
        it may be told None for them (a :class:`~mathhammer.exact.plan.Plan` does not lay
        them out per option).
    tables : callable, optional
        ``tables(state, n)``: ``value(state, idx)`` at every damage marked ``0 .. n - 1``
        at once, where that is a view of a table (a damage track, no target set aside on the
        way; None elsewhere): a :class:`~mathhammer.exact.plan.Plan` then reads where each
        edge leads from those tables, in one gather.
    """

    best: frozenset = frozenset()
    value: Callable[[State, np.ndarray], np.ndarray] | None = None
    chain: Chain | None = None
    keep_points: frozenset = frozenset()
    event: int = -1
    record: Callable | None = None
    row: int = -1
    planning: bool = False
    record_values: bool = True
    tables: Callable[[State, int], np.ndarray] | None = None

    @property
    def looks_ahead(self) -> bool:
        """Whether decisions are made (or planned) by looking ahead at values."""
        return self.value is not None or self.planning

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


def piece_values(pieces: list[Piece], dec: Decisions) -> list[np.ndarray]:
    """Per edge, the value of where it leads, with what was spent along it
    (``[chain.width, edges]``; the probability not applied)."""
    return [dec.lead(pc.state, pc.dst, *attack_cost(pc)) if pc.ahead is None else pc.ahead for pc in pieces]


@dataclass(eq=False)
class Pending:
    """A decision not made yet: its options and what :func:`choose` was told about it (the
    groups, who decides and by which preference, what to record), kept for a
    :class:`~mathhammer.exact.plan.Plan` to make."""

    options: list
    group: Callable[[Piece], np.ndarray]
    n_groups: int
    by: Preference
    what: str | None
    context: tuple
    groups: object
    row: int


class Choice:
    """A decision not made yet, in a list of edges: once made (:class:`~mathhammer.exact.plan.Plan`), the edges of
    the option chosen in each group, then changed as the edges of the list around it were
    (scaled by the chance of the roll that led there, counted as a critical or a Shred hit).

    It answers the piece methods that change edges (:meth:`scaled`, :meth:`as_critical`,
    :meth:`as_shred`) by remembering them."""

    __slots__ = ("decision", "changes")

    def __init__(self, decision: Pending, changes: tuple = ()):
        self.decision = decision
        self.changes = changes

    def scaled(self, q: float) -> Choice:
        return Choice(self.decision, self.changes + (("scaled", q),))

    def as_critical(self, share: float) -> Choice:
        return Choice(self.decision, self.changes + (("as_critical", share),))

    def as_shred(self) -> Choice:
        return Choice(self.decision, self.changes + (("as_shred",),))


def choose(options: list[list[Piece]], group: Callable[[Piece], np.ndarray], n_groups: int,
           dec: Decisions, by: Preference, what: str | None = None, context: tuple = (),
           groups: object = None) -> list[Piece]:
    """Keep, per group, the edges of the option ``by`` prefers (the first on a tie); an
    option with no edge in a group is not available there. Planning (``dec.planning``): a
    :class:`Choice` among the options, made later by a :class:`~mathhammer.exact.plan.Plan`.

    ``what``, ``context`` and ``groups`` (what the groups are: the damage marked, or cells
    of damage marked and damage rolled) are handed to ``dec.record`` with the choice."""
    if len(options) == 1:
        return options[0]
    if dec.planning:
        return [Choice(Pending(options, group, n_groups, by, what, context, groups, dec.row))]
    return _decide(options, group, n_groups, dec, by, what, context, groups, dec.row)


def _decide(options: list[list[Piece]], group, n_groups: int, dec: Decisions, by: Preference, what, context,
            groups, row: int) -> list[Piece]:
    grouped = [[group(pc) for pc in pieces] for pieces in options]  # the group of each edge
    ahead = [piece_values(pieces, dec) for pieces in options]
    totals = [option_totals(dec.chain.width, n_groups, zip(gs, (pc.p for pc in pieces), values))
              for gs, pieces, values in zip(grouped, options, ahead)]
    best = by.choose(totals)
    if what is not None and dec.record is not None:
        dec.record(what, dec.event, row, context, groups, best, totals, by)
    # the edges kept hold their values: a decision around this one reads them again
    out = []
    for j, (gs, pieces, values) in enumerate(zip(grouped, options, ahead)):
        for g, pc, v in zip(gs, pieces, values):
            keep = best[g] == j
            if keep.all():
                out.append(pc if pc.ahead is not None else replace(pc, ahead=v))
            elif keep.any():
                out.append(pc.where(keep, v))
    return out
