"""Backward induction: the value of every state, and the decisions made by looking ahead.

:class:`Engine` holds the edges of each event (an attack:
:func:`~mathhammer.exact.attack.attack_edges`; a step of the end of a round:
:func:`~mathhammer.exact.rounds.round_edges`) and the value of each state before each
event, ``V_e(state)[m]``: the expected figures of the end of the sequence from there on, a
vector of the columns of the objective's :class:`~mathhammer.exact.chain.Chain` (the kill
probability, the models destroyed, the damage marked, whether a system or aspect ends
crippled, in the objective's order, then the points each side spends). After the last event
a target left standing is worth what it ends with (0 for the kill, ``m`` boxes, ...); a kill
is worth every figure at its most (every box is marked, every system crippled). Values are
computed on demand and memoised, so only states that a decision can reach are visited; on
a grid or spiral, only the configurations asked for.

Two uses:

* best play (docs/best-play.md): attackers with ``policy = "best"`` do, at each decision,
  what their chain prefers (the objective at its greatest, then its secondary figures, then
  fewer points spent), a target with ``power_field = "best"`` what its chain prefers (every
  figure at its least, then fewer points of its own), the others follow their fixed policies (:func:`exact_result
  <mathhammer.exact.exact_result>` then propagates forward along those decisions, and
  :mod:`mathhammer.play` reads the decisions into tables the Monte Carlo kernel follows);
* :func:`~mathhammer.exact.optimal.optimal_value`: every attacker's best play, the yardstick
  of the policy optimizer.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from dataclasses import replace

import numpy as np

from .._core.ticker import tick
from ..errors import ExactNotApplicable
from .attack import attack_edges, shared_volley
from .bounds import best_play_refusal
from .chain import Chain
from .choices import Decisions
from .edges import BySource, Piece, attack_cost, lead, merge, slot_counts, sums_by
from .frames import plan_frame, reframe
from .layers import Layered, met_layers
from .plan import Decided, Plan
from .rounds import round_edges, suffered_spent
from .setup import Setup
from .state import State
from .targets import Targets

__all__ = ["Engine", "EDGE_BUDGET", "CONFIG_BATCH", "deep_recursion"]

#: Most edges kept in memory for reuse by later attacks (about 40 bytes each).
EDGE_BUDGET = 4_000_000

#: Grids and spirals: configurations whose edges are built at once (bounds the memory).
CONFIG_BATCH = 1024


class Engine:
    """Edges and values of the events (attacks, round-end steps) of one
    :class:`~mathhammer.exact.setup.Setup`.

    Parameters
    ----------
    setup : Setup or Targets
        One target's, or several targets' (:class:`~mathhammer.exact.targets.Targets`:
        each state's target is the one under attack; values run across targets, and the
        kill is every target destroyed).
    best : frozenset of int, optional
        Attackers that play their best (see :class:`~mathhammer.exact.choices.Decisions`);
        by default those whose policy is ``"best"`` (with points to spend).
    objective : {"kill", "damage", "destroyed", "cripple:X"}
        What values measure first (:class:`~mathhammer.exact.chain.Chain`): kill
        probability, expected damage marked at the end, expected models of a unit destroyed,
        or the probability system / aspect X ends crippled (grids and spirals); then the
        objective's secondary figures and the points spent.
    record : callable, optional
        Told every decision made by looking ahead (:class:`~mathhammer.exact.choices.Decisions`).
    record_values : bool
        ``record`` reads the values of the options (else it may be told None for them).
    edge_budget : int, optional
        On a grid or spiral with look-ahead: most edges built before giving up with
        :class:`~mathhammer.errors.ExactNotApplicable` (the bounds of
        :mod:`~mathhammer.exact.bounds` are loose there).

    Events are numbered as :attr:`Setup.events`: one per attack of every round with an
    attack phase, and the steps of the end of each round (with several rounds or continuous
    effects); the value after the last is the terminal one.
    """

    def __init__(self, setup: Setup | Targets, best: frozenset | None = None, objective: str = "kill",
                 record=None, edge_budget: int | None = None, record_values: bool = True):
        self.setup = setup
        self.edge_budget = edge_budget
        self.built = 0  # edges built by look-ahead on a card (bounded by edge_budget)
        self.events = setup.events
        if best is None:
            best = frozenset(i for i, a in enumerate(setup.scenario.attackers) if a.plays_best)
        self.best = frozenset(best)
        self.objective = objective
        self.record, self.record_values = record, record_values
        self.looks_ahead = bool(self.best) or setup.field == "best" or bool(setup.blocks)
        self.on_card = setup.card is not None
        sc = setup.scenario
        points = (sum(a.points * max(1, a.models) for a in sc.attackers)
                  + sum(t.power_points for t in sc.targets)) * max(1, setup.turns)
        fields = [t.power_field == "best" and t.power_points > 0 for t in sc.targets]
        self.chain = Chain.of(objective, setup.models, setup.unit_boxes, points,
                              attackers_spend=bool(self.best), target_spends=any(fields))
        self.keep_points = frozenset(i for i, a in enumerate(sc.attackers) if a.keep_points)
        self._cripple_bit = 0
        if objective.startswith("cripple:"):
            self._cripple_bit = 1 << setup.card.letters.index(objective.split(":", 1)[1])
        self._values: dict = {}
        #: Several targets whose routes may set one aside (:meth:`Targets.switch`).
        self._crossing = getattr(setup, "crossing", False)
        # Edges shared by like attacks (no look-ahead, damage tracks): kept from the first
        # attack of a signature to its last, within EDGE_BUDGET edges.
        self._edges: dict = {}
        self._cached = 0
        self._sig = [setup.slots[ev.slot].signature if ev.kind == "attack" else None for ev in self.events]
        self._last_use = {sig: e for e, sig in enumerate(self._sig) if sig is not None}
        self._reused = [sig is not None and self._last_use[sig] > e and not self.on_card
                        for e, sig in enumerate(self._sig)]
        # Best play on a track: an attack's options are built once per signature and state
        # (a plan, :mod:`.plan`) and decided at each event that makes it; not where a
        # decision is made outside its options (a knockdown in quicksand, a blast).
        self._plans: dict = {}
        self._met_layers = None  # layers: where each attack is met (:meth:`_met`)
        self._decided: dict = {}  # the values a plan left, until _track_value takes them
        self._plan_sig = [None] * len(self.events)
        if self.looks_ahead and not self.on_card and not _decides_outside_plans(setup):
            self._plan_sig = [None if sig is None else (sig, tuple(a.signature for a in setup.alternatives[ev.slot]))
                              for ev, sig in zip(self.events, self._sig)]
        self._plan_last = {sig: e for e, sig in enumerate(self._plan_sig) if sig is not None}

    def terminal(self, idx: np.ndarray, state: State) -> np.ndarray:
        """Value after the last event at the damage marked (configurations) ``idx`` of a
        target left standing in ``state``, ``[chain.width, idx.size]`` (a unit: damage on
        the whole unit, a destroyed model counting all its boxes; several targets: and the
        boxes and models of the other targets, destroyed or set aside)."""
        setup = self.setup
        part = setup.part(state)
        boxes_before, models_before = setup.before(state)
        marked = part.unit_marked(idx, state) + boxes_before
        destroyed = state.destroyed + models_before
        out = np.zeros((self.chain.width, idx.size))
        for k, name in enumerate(self.chain.columns):
            if name == "destroyed":
                out[k] = destroyed
            elif name == "damage":
                out[k] = marked
            elif name == "cripple":
                out[k] = (self.setup.card.crip[idx] & self._cripple_bit) > 0
        return out

    def edges(self, e: int, state: State, src: np.ndarray | None = None) -> list[Piece] | Decided:
        """Edges of event ``e`` from ``state`` (as the event finds it), one piece per state
        reached and counts (an attack decided by a plan: a :class:`~.plan.Decided`, iterated
        as those pieces).

        ``src``: sorted distinct damage marked (configurations) to start from; on a damage
        track every damage marked (``src`` is ignored), where, without look-ahead, the
        edges of an attack depend only on its signature and ``state`` and are kept for the
        later attacks of that signature. With look-ahead the decisions read the values of
        the next event (memoised), and the edges are rebuilt when asked again rather than
        kept. An attack none of whose targets stands (several targets) is not made, and a
        round-end step for a target destroyed or untouched does nothing: one piece, nothing
        counted.
        """
        ev = self.events[e]
        if self.setup.several and self.setup.skips(e, state):
            marks = self.setup.part(state).marks
            return [Piece(state, marks, marks, np.ones(marks.size), slot_counts({}) if ev.kind == "attack" else ())]
        if self.on_card:
            return self._build(e, state, src)
        sig = self._sig[e]
        if self.looks_ahead:  # the decisions depend on the event: kept for the forward pass
            key, keep = (e, state), True
        elif sig is None:
            return self._build(e, state)
        else:
            volley = shared_volley(self.setup.part(state), ev.slot, state)
            if volley is not None and volley != state:  # the shared edges, with its own shots
                return [pc.with_shots(state.shots) for pc in self.edges(e, volley)]
            key, keep = (sig, state), self._reused[e] or volley is not None
        out = self._edges.get(key)
        if out is None:
            out = self._build(e, state)
            size = _edge_count(out)
            if keep and self._cached + size <= EDGE_BUDGET:
                out = self._edges[key] = _stored(out) if self.looks_ahead else out
                self._cached += size
        return out

    def release(self, e: int) -> None:
        """Event ``e`` is done: drop the kept edges (and plans) no later attack will use."""
        if self.looks_ahead:
            for key in [key for key in self._edges if key[0] == e]:
                self._cached -= _edge_count(self._edges.pop(key))
            for key in [key for key in self._decided if key[0] == e]:
                del self._decided[key]
            sig = self._plan_sig[e]
            if sig is not None and self._plan_last[sig] == e:
                for key in [key for key in self._plans if key[0] == sig]:
                    self._cached -= self._plans.pop(key).size
            return
        sig = self._sig[e]
        if sig is not None and self._last_use[sig] == e:
            for key in [key for key in self._edges if key[0] == sig]:
                self._cached -= _edge_count(self._edges.pop(key))

    def _build(self, e: int, state: State, src: np.ndarray | None = None) -> list[Piece] | Decided:
        ev = self.events[e]
        setup = self.setup.part(state)  # the target under attack's
        dec = Decisions(self.best, chain=self.chain, keep_points=self.keep_points, event=e, record=self.record,
                        record_values=self.record_values,
                        row=ev.slot if ev.kind == "attack" else -1)
        if self.looks_ahead:
            dec.value = lambda s, idx: self.after(e, s, idx)
            if not self.on_card and not self._crossing:
                dec.tables = lambda s, n: self.after_table(e, s, n)
        if ev.kind == "attack" and self._plan_sig[e] is not None:
            out, value = self._plan(e, state).decide(dec, _rows(setup, ev.slot), setup.size, self._met(e, state))
            self._decided[(e, state)] = value  # read by _track_value: no second sum over the edges
        elif ev.kind == "attack":
            out = merge(attack_edges(setup, ev.slot, state, dec, src))
        else:
            out = merge(round_edges(setup, ev, state, setup.marks if src is None else src, dec))
        size = _edge_count(out)
        tick(size)  # the progress shown, if any (mathhammer._core.ticker)
        if self.edge_budget is not None and self.looks_ahead and self.on_card:
            self.built += size
            if self.built > self.edge_budget:
                raise ExactNotApplicable(best_play_refusal(
                    self.setup, f"needs more than {self.edge_budget:,} transitions of backward induction"))
        return out

    def _met(self, e: int, state: State) -> np.ndarray | None:
        """With layers (:mod:`.layers`) and decisions recorded, the indices where the sequence
        may meet attack event ``e`` from ``state`` (its decisions there are recorded), found
        once from the plans; None: every index (every amount spent is met, no layers, or
        nothing recorded)."""
        if not isinstance(self.setup, Layered) or self.record is None:
            return None
        if self._met_layers is None:
            self._met_layers = met_layers(self.setup, self._plan)
        return self._met_layers[(e, state)]

    def _plan(self, e: int, state: State) -> Plan:
        """The options of attack event ``e`` from ``state``, built once for every attack of
        its signature (kept within EDGE_BUDGET edges, with the edges kept for the forward
        pass)."""
        key = (self._plan_sig[e], state)
        out = self._plans.get(key)
        if out is None:
            frame = plan_frame(self.setup, state)
            if frame is None:
                out = self._planned(e, state)
            else:  # a unit's later model, a target alike another: the options built there, moved
                out = self._plan(e, frame).reframed(reframe(self.setup, frame, state))
            if self._cached + out.size <= EDGE_BUDGET:  # else built again where it is met again
                self._plans[key] = out
                self._cached += out.size
        return out

    def _planned(self, e: int, state: State) -> Plan:
        """The options of attack event ``e`` from ``state``, built."""
        slot = self.events[e].slot
        setup = self.setup.part(state)
        dec = Decisions(self.best, chain=self.chain, keep_points=self.keep_points, event=e, row=slot,
                        planning=True)
        return Plan(attack_edges(setup, slot, state, dec), _rows(setup, slot))

    def after(self, e: int, state: State, idx: np.ndarray) -> np.ndarray:
        """Value of ``state`` as event ``e`` leaves it: before the next event, or, owing a
        Shred attack (:attr:`State.shred`), before event ``e`` again (a chain is finite: each
        pass counts one more Shred attack, up to MAX_SHRED)."""
        return self.value(e if state.shred else e + 1, state, idx)

    def after_table(self, e: int, state: State, n: int) -> np.ndarray:
        """:meth:`after` at the damage marked ``0 .. n - 1`` of a track, as a view of the
        memoised table where there is one (read-only)."""
        e = e if state.shred else e + 1
        state = self.setup.enter_event(e, state)
        if e >= len(self.events):
            return self.terminal(np.arange(n), state)
        return self._track_value(e, state)[:, :n]

    def value(self, e: int, state: State, idx: np.ndarray) -> np.ndarray:
        """Value of ``state`` before event ``e`` at each damage marked (configuration) of
        ``idx``."""
        state = self.setup.enter_event(e, state)
        if e >= len(self.events):
            return self.terminal(idx, state)
        g = self.setup.switch(e, state) if self._crossing else None
        if g is not None:  # the attack goes to another target: this one is set aside
            out = np.zeros((self.chain.width, idx.size))
            for d in np.unique(idx):
                there, marked = self.setup.switched(state, d, g)
                out[:, idx == d] = self.value(e, there, np.array([marked]))
            return out
        if not self.on_card:
            # take: laid out row by row, as the figures are read (an index [:, idx] lays it out by column)
            return self._track_value(e, state).take(idx, axis=1)
        key = (e, state)
        vals, known = self._values.get(key, (None, None))
        size = self.setup.size
        if vals is None or vals.shape[1] < size:
            # the card's configurations are numbered as they are met: room for more at once
            size = size if vals is None else max(size, vals.shape[1] + vals.shape[1] // 2)
            grown, seen = np.zeros((self.chain.width, size)), np.zeros(size, dtype=bool)
            if vals is not None:
                grown[:, : vals.shape[1]], seen[: vals.shape[1]] = vals, known
            vals, known = grown, seen
            self._values[key] = (vals, known)
        missing = np.unique(idx[~known[idx]])
        for lo in range(0, missing.size, CONFIG_BATCH):
            part = missing[lo: lo + CONFIG_BATCH]
            out = np.zeros((self.chain.width, part.size))
            at = BySource(part)
            for pc in self.edges(e, state, part):
                sums_by(at(pc), pc.p, self._lead(e, pc), part.size, out)
            vals[:, part] = out
            known[part] = True
        return vals.take(idx, axis=1)

    def _lead(self, e: int, pc: Piece) -> np.ndarray:
        """The value of where each edge of ``pc`` (of event ``e``) leads, with what was spent
        along it."""
        if self.events[e].kind == "attack":
            if pc.ahead is not None:  # looked up by a decision of this attack
                return pc.ahead
            spent, target_spent = attack_cost(pc)
        else:  # a round's end: the target may have spent focus against fire or corrosion
            spent, target_spent = 0.0, suffered_spent(pc.counts)
        return lead(self.chain, lambda s, idx: self.after(e, s, idx), pc.state, pc.dst, spent, target_spent)

    def _track_value(self, e: int, state: State) -> np.ndarray:
        """Value of ``state`` before event ``e`` at every index of a track (the damage
        marked; with layers, and the target's points spent), ``[chain.width, size]``
        (read-only)."""
        key = (e, state)
        out = self._values.get(key)
        if out is None:
            size = self.setup.part(state).size
            pieces = self.edges(e, state)
            out = self._decided.pop(key, None)
            if out is None:
                out = np.zeros((self.chain.width, size))
                for pc in pieces:
                    sums_by(pc.src, pc.p, self._lead(e, pc), size, out)
            out.setflags(write=False)
            self._values[key] = out
        return out


def _stored(edges: list[Piece] | Decided) -> list[Piece] | Decided:
    """Edges kept for the forward pass: a plan's as they are, pieces without the values
    ahead their decisions looked up (the forward pass reads none; they would double the
    memory an edge takes)."""
    if isinstance(edges, Decided):
        return edges
    return [pc if pc.ahead is None else replace(pc, ahead=None) for pc in edges]


def _edge_count(edges: list[Piece] | Decided) -> int:
    """The edges of an event's pieces (or of a plan's decided attack, those kept)."""
    return edges.size if isinstance(edges, Decided) else sum(pc.p.size for pc in edges)


def _rows(setup: Setup, slot: int) -> tuple:
    """The decision-table rows of attack ``slot``: its own, then its alternatives'."""
    return (setup.slots[slot].row, *(a.row for a in setup.alternatives[slot]))


def _decides_outside_plans(setup) -> bool:
    """Whether an attack may decide outside the options :func:`choose` is given (the power
    field against a knockdown in quicksand; the models a blast catches are decided with
    their own edges), so that its options cannot be planned."""
    parts = setup.parts if setup.several else (setup,)
    return any(part.quicksand for part in parts) or any(info.weapon.blasts for info in setup.all_infos)


@contextmanager
def deep_recursion(n_slots: int):
    """Values recurse a few frames per attack: make room for ``n_slots`` attacks."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 12 * n_slots + 1000))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)
