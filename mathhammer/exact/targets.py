"""Several targets (docs/units.md): one :class:`~mathhammer.exact.setup.Setup` per target, and
the :class:`Targets` that chains them.

Each attack goes to the first target of its route still standing, or, when none of its
targets stands, is not made. The state follows one target at a time, the *target under
attack* (:attr:`State.target <mathhammer.exact.state.State.target>`), whose damage marked is
the index of the engine's vectors; the others are destroyed (:attr:`State.dead`), untouched,
or set aside with their own damage marked and state (:attr:`State.parked`) when an attack
went to another target while they stood damaged. Before an attack that goes to another
target than the one under attack, :meth:`Targets.switch` sets the one under attack aside at
each of its damage marked and takes up the other (:func:`switched`), so one NumPy operation
still moves every damage marked of the target under attack at once.

When the last model of a target falls, the sequence goes on with the first target still
standing as it was left (the attacker's points carried over, :attr:`Setup.then
<mathhammer.exact.setup.Setup.then>`); the points left over are lost, as from model to model.
Every target's setup shares the slots and the events (the round-end steps possible on any
target: one that cannot happen on the target under attack leaves its states as they are), so
the engine's attacks, values and best play run across targets unchanged; the kill is every
target destroyed. Where every attack's route is every target or the first ones in order
(*in order*), no target is ever set aside. Otherwise each step of a round's end is made for
each target: fire and corrosion on a target set aside take it up as an attack would, and its
activation (the start of the next round: standing up, its focus back) changes its state
where it is set aside (:meth:`Targets.enter_event`).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..errors import ExactNotApplicable
from ..rules import Scenario, Target
from .setup import Setup
from .state import EFFECT_BIT, State
from .vectors import add

__all__ = ["Targets", "check_targets", "in_order", "alone", "switch_all", "target_figures"]


def in_order(slots) -> bool:
    """Whether every attack's route is every target or the first ones in order: then no
    target is ever set aside (:attr:`State.parked <mathhammer.exact.state.State.parked>`)."""
    routes = [tuple(dict.fromkeys(slot.route)) for slot in slots]
    return all(route == tuple(range(len(route))) for route in routes)


def check_targets(scenario: Scenario, slots) -> None:
    """Refuse, in one line, several targets beyond the exact engine: a target after the first
    that starts with continuous effects (they would burn while it waits), a grid or spiral,
    Shield Guard, or a slam's collateral damage (a target damaged while another is under
    attack)."""
    targets = scenario.targets
    for t in targets:
        if t.shield_guard:
            raise ExactNotApplicable(
                f"target {t.name!r} has Shield Guard: the exact engine follows one target under attack "
                "at a time, a guard takes hits meant for another (Monte Carlo handles it)")
        if t.card is not None:
            raise ExactNotApplicable(
                f"target {t.name!r} has a damage {t.capacity}: with several targets the exact engine "
                "takes damage tracks only (Monte Carlo handles it)")
    for t in targets[1:]:
        if t.effects:
            raise ExactNotApplicable(
                f"target {t.name!r} starts with {', '.join(sorted(t.effects))}: with several targets "
                "the exact engine takes continuous effects at the start on the first target only "
                "(they would burn while it waits; Monte Carlo handles it)")
    for slot in slots:
        if slot.collateral:
            raise ExactNotApplicable(
                f"{slot.label}: a slam's collateral damage roll damages a target other than the one "
                "under attack, beyond the exact engine (Monte Carlo handles it)")


def alone(scenario: Scenario, g: int) -> Scenario:
    """``scenario`` with target ``g`` first, as its :class:`Setup` reads it (the others stay
    named, for the routes, and for what is possible on any of them)."""
    t = scenario.targets[g]
    return dataclasses.replace(scenario, target=t,
                               targets=(t,) + tuple(x for k, x in enumerate(scenario.targets) if k != g))


#: What belongs to the attackers, not to the target under attack: kept when the target under
#: attack changes, and not in the state of a target set aside.
ATTACKERS = ("points", "shots", "shred", "shred_alt")


def aside(state: State) -> State:
    """The state of the target under attack in ``state`` as it is set aside: its own fields
    only."""
    return state._replace(**dict.fromkeys(ATTACKERS, 0), dead=0, parked=())


class Targets:
    """The setups of several targets, chained: what the engine reads from the scenario once.

    It exposes what :class:`~mathhammer.exact.induction.Engine` and the forward pass read of
    a :class:`Setup` (the slots, the events, the start, the size of the vectors), and
    :meth:`part` gives the setup of the target under attack in a state. ``unit_boxes`` and
    ``models`` are the scenario's, summed over the targets.
    """

    several = True
    card = None

    def __init__(self, scenario: Scenario, slots=None):
        self.scenario = scenario
        base = tuple(scenario.attack_sequence() if slots is None else slots)
        self.parts: tuple[Setup, ...] = tuple(Setup(alone(scenario, g), base)
                                              for g in range(len(scenario.targets)))
        first = self.parts[0]
        possible = 0
        for part in self.parts:
            possible |= part.possible
        earth = any(part.earth_possible for part in self.parts)
        #: Whether a target may be set aside (:func:`in_order` fails).
        self.crossing = not in_order(base)
        events = first.events_for(possible, earth)
        if self.crossing:  # each step of a round's end for each target, set aside or not
            events = tuple(x for ev in events for x in (
                [ev] if ev.kind == "attack" else [ev._replace(target=g) for g in range(len(self.parts))]))
        self.events = events
        #: Per event, the target whose activation starts its next round where it is set aside
        #: (:meth:`enter_event`), else -1.
        self._resets = tuple(ev.target if ev.kind == "activation" and ev.round + 1 < first.turns else -1
                             for ev in events)
        self.everyone = (1 << len(self.parts)) - 1
        for g, part in enumerate(self.parts):
            part.index = g
            part.events = self.events
            part.start = part.start._replace(target=g)
            part.then = self._then
        self.start = first.start
        self._untouched = tuple(aside(part.start) for part in self.parts)
        self._dead: dict = {}  # boxes and models of the targets destroyed, by State.dead
        self.slots, self.alternatives, self.all_infos = first.slots, first.alternatives, first.all_infos
        self.n0, self.rounds, self.turns, self.round_end = first.n0, first.rounds, first.turns, first.round_end
        self.field = "best" if any(part.field == "best" for part in self.parts) else first.field
        self.blocks = 0  # Shield Guard blocks are modelled for one target
        self.unit_boxes = sum(part.unit_boxes for part in self.parts)
        self.models = sum(part.models for part in self.parts)
        #: Per slot, its route: the targets it may go to, in order.
        every = tuple(range(len(self.parts)))
        self.routes = tuple(tuple(dict.fromkeys(info.slot.route)) or every for info in self.slots)
        self._route_bits = tuple(sum(1 << g for g in route) for route in self.routes)
        #: Per target, the first target alike it (the same profile but its name): where routes
        #: never set a target aside, an attack's options on one serve them all
        #: (:func:`~mathhammer.exact.frames.plan_frame`).
        self.alike = tuple(next(h for h in range(g + 1) if _alike(self.parts[h], part))
                           for g, part in enumerate(self.parts))

    def _then(self, after: State) -> tuple[State | None, int]:
        """Where the destruction of the last model of the target under attack in ``after``
        leaves the sequence: the kill when it was the last target standing, else the first
        target standing, as it was left, with the attackers' points, volley and Shred chain."""
        dead = after.dead | (1 << after.target)
        if dead == self.everyone:
            return None, 0
        g = next(g for g in range(len(self.parts)) if not dead >> g & 1)
        return self._take_up(after._replace(dead=dead), after.parked, g)

    def _take_up(self, state: State, parked: tuple, g: int) -> tuple[State, int]:
        """Target ``g`` under attack, from ``state`` (for the attackers' fields and the targets
        destroyed) and the targets set aside ``parked`` (``g`` among them, or untouched)."""
        keep = {name: getattr(state, name) for name in ATTACKERS}
        for k, (h, marked, own) in enumerate(parked):
            if h == g:
                rest = parked[:k] + parked[k + 1:]
                return own._replace(dead=state.dead, parked=rest, **keep), marked
        return self.parts[g].start._replace(dead=state.dead, parked=parked, **keep), 0

    def target_of(self, i: int, state: State) -> int | None:
        """The target attack ``i`` goes to from ``state``: the first of its route standing
        (None: none stands, it is not made)."""
        for g in self.routes[i]:
            if not state.dead >> g & 1:
                return g
        return None

    def switch(self, e: int, state: State) -> int | None:
        """The target event ``e`` is made against when that is not the target under attack in
        ``state`` (as the event finds it), else None; asked only where routes cross."""
        ev = self.events[e] if e < len(self.events) else None
        if ev is None:
            return None
        if ev.kind != "attack":  # fire or corrosion on a target set aside
            bit = EFFECT_BIT.get(ev.kind, 0)
            hit = any(h == ev.target and own.cont & bit for h, _, own in state.parked)
            return ev.target if hit and ev.target != state.target else None
        g = self.target_of(ev.slot, state)
        return None if g is None or g == state.target else g

    def switched(self, state: State, marked: int, g: int) -> tuple[State, int]:
        """Target ``g`` under attack instead of the one in ``state``, which is set aside at
        ``marked``: the new state and ``g``'s damage marked."""
        own = aside(state)
        parked = state.parked
        if marked or own != self._untouched[state.target]:  # else it is as it started
            parked = tuple(sorted(parked + ((state.target, int(marked), own),)))
        return self._take_up(state, parked, g)

    def part(self, state: State) -> Setup:
        """The setup of the target under attack in ``state``."""
        return self.parts[state.target]

    def skips(self, e: int, state: State) -> bool:
        """Whether event ``e`` leaves ``state`` as it is: an attack none of whose targets
        stands, a round-end step for a target destroyed or untouched."""
        ev = self.events[e]
        if ev.kind == "attack":
            # every target of the route destroyed (its bits all in State.dead)
            return self._route_bits[ev.slot] & ~state.dead == 0
        return ev.target >= 0 and ev.target != state.target

    def before(self, state: State) -> tuple[int, int]:
        """Boxes marked and models destroyed on the targets other than the one under attack
        (every box of a target destroyed)."""
        known = self._dead.get(state.dead)
        if known is None:
            known = (sum(p.unit_boxes for g, p in enumerate(self.parts) if state.dead >> g & 1),
                     sum(p.models for g, p in enumerate(self.parts) if state.dead >> g & 1))
            self._dead[state.dead] = known
        if not state.parked:
            return known
        boxes, models = known
        for g, marked, own in state.parked:
            boxes += self.parts[g].unit_marked(marked, own)
            models += own.destroyed
        return boxes, models

    def enter_event(self, e: int, state: State) -> State:
        """``state`` as event ``e`` finds it (the same on every target). The activation of a
        target set aside is done here (its start of the next round: no hazard reaches
        several targets, so nothing else happens to it)."""
        state = self.parts[0].enter_event(e, state)
        if not state.parked:
            return state
        g = self._resets[e] if e < len(self._resets) else -1
        if g < 0:
            return state
        part = self.parts[g]
        return state._replace(parked=tuple((h, m, part.reset(own) if h == g else own)
                                           for h, m, own in state.parked))

    @property
    def n(self) -> int:
        return len(self.slots)

    @property
    def n_events(self) -> int:
        return len(self.events)

    @property
    def table_rows(self) -> int:
        return len(self.all_infos)

    @property
    def size(self) -> int:
        """Length of the vectors: the largest target's damage track."""
        return max(part.size for part in self.parts)


#: What makes a target's profile: every field of a Target but its name.
_PROFILE = tuple(f.name for f in dataclasses.fields(Target) if f.name != "name")


def _alike(a: Setup, b: Setup) -> bool:
    """Whether targets ``a`` and ``b`` differ by their names alone (an attack does the same to
    each)."""
    return all(getattr(a.target, name) == getattr(b.target, name) for name in _PROFILE)


def target_figures(setup: Targets, dist: dict, killed: float) -> tuple[tuple, tuple]:
    """Per target, the weights of the damage marked on it at the end and of its models
    destroyed, from the distribution ``dist`` left standing at the end (``State -> vector over
    the damage marked``) and the probability ``killed`` of every target destroyed: a target
    destroyed counts all its boxes, one set aside its own damage, one untouched none."""
    damage = [np.zeros(p.unit_boxes + 1) for p in setup.parts]
    destroyed = [np.zeros(p.models + 1) for p in setup.parts]
    for state, v in dist.items():
        g = state.target
        part = setup.parts[g]
        v = v[: part.size]
        mass = v.sum()
        damage[g] += np.bincount(part.unit_marked(np.arange(v.size), state), weights=v,
                                 minlength=part.unit_boxes + 1)
        destroyed[g][state.destroyed] += mass
        parked = {h: (marked, own) for h, marked, own in state.parked}
        for h, other in enumerate(setup.parts):
            if h == g:
                continue
            if state.dead >> h & 1:
                damage[h][-1] += mass
                destroyed[h][-1] += mass
            elif h in parked:
                marked, own = parked[h]
                damage[h][other.unit_marked(marked, own)] += mass
                destroyed[h][own.destroyed] += mass
            else:
                damage[h][0] += mass
                destroyed[h][0] += mass
    for w in damage + destroyed:
        w[-1] += killed
    return tuple(damage), tuple(destroyed)


def switch_all(setup: Targets, e: int, dist: dict) -> dict:
    """``dist`` (``State -> vector over the damage marked``, as event ``e`` finds it) with
    every state whose target under attack is not the one event ``e`` goes to switched to
    it (:meth:`Targets.switched`), damage marked by damage marked."""
    if not setup.crossing:
        return dist
    out: dict = {}
    for state, v in dist.items():
        g = setup.switch(e, state)
        if g is None:
            add(out, state, v)
            continue
        for d in np.flatnonzero(v):
            there, marked = setup.switched(state, d, g)
            w = np.zeros(setup.size)
            w[marked] = v[d]
            add(out, there, w)
    return out
