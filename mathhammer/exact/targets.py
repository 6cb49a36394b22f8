"""Several targets (docs/units.md): one :class:`~mathhammer.exact.setup.Setup` per target, and
the :class:`Targets` that chains them.

The exact engine takes several targets when every attack goes down the list in order: its
targets are every target, or the first ones in order (:func:`check_targets`). Each attack
then goes to the first target standing, or, when none of its targets stands, is not made;
so only the target under attack ever has a state (:attr:`State.target
<mathhammer.exact.state.State.target>`), the ones before it are destroyed and the ones
after it fresh. When the last model of a target falls, the sequence goes on with the next
one as it starts, the attacker's points carried over (:attr:`Setup.then
<mathhammer.exact.setup.Setup.then>`); the points left over are lost, as from model to
model. Every target's setup shares the slots and the events (the round-end steps possible
on any target: one that cannot happen on the target under attack leaves its states as they
are), so the engine's attacks, values and best play run across targets unchanged; the kill
is every target destroyed.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..errors import ExactNotApplicable
from ..rules import Scenario
from .setup import Setup
from .state import State

__all__ = ["Targets", "check_targets", "alone", "target_figures"]


def check_targets(scenario: Scenario, slots) -> None:
    """Refuse, in one line, several targets beyond the exact engine: an attack whose targets
    are not the first targets in order, a target after the first that starts with
    continuous effects (they would burn while it waits), a grid or spiral, Shield Guard or a
    slam's collateral damage (a target damaged while another is under attack)."""
    targets = scenario.targets
    names = [t.name for t in targets]
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
        route = tuple(dict.fromkeys(slot.route))
        for j, g in enumerate(route):
            if g != j:
                raise ExactNotApplicable(
                    f"{slot.label} goes to {names[g]!r} before {names[j]!r}: with several targets the "
                    "exact engine takes an attack's targets as every target or the first ones in "
                    "order (Monte Carlo handles it)")


def alone(scenario: Scenario, g: int) -> Scenario:
    """``scenario`` with target ``g`` first, as its :class:`Setup` reads it (the others stay
    named, for the routes, and for what is possible on any of them)."""
    t = scenario.targets[g]
    return dataclasses.replace(scenario, target=t,
                               targets=(t,) + tuple(x for k, x in enumerate(scenario.targets) if k != g))


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
        self.events = first.events_for(possible, earth)
        last = len(self.parts) - 1
        for g, part in enumerate(self.parts):
            part.index = g
            part.events = self.events
            part.start = part.start._replace(target=g)
            if g < last:
                part.then = self._next(g)
        self.start = first.start
        self.slots, self.alternatives, self.all_infos = first.slots, first.alternatives, first.all_infos
        self.n0, self.rounds, self.turns, self.round_end = first.n0, first.rounds, first.turns, first.round_end
        self.field = "best" if any(part.field == "best" for part in self.parts) else first.field
        self.blocks = 0  # Shield Guard blocks are modelled for one target
        self.unit_boxes = sum(part.unit_boxes for part in self.parts)
        self.models = sum(part.models for part in self.parts)
        boxes = np.cumsum([0] + [part.unit_boxes for part in self.parts]).tolist()
        models = np.cumsum([0] + [part.models for part in self.parts]).tolist()
        self._before = tuple(zip(boxes, models))
        #: Per slot, the last target it may go to (its targets are the first ones in order).
        self.reach = tuple(max(info.slot.route, default=last) for info in self.slots)

    def _next(self, g: int):
        following = self.parts[g + 1]

        def then(after: State) -> tuple[State, int]:
            # the attacker's points, a volley and a Shred attack owed go on to the next target
            return following.start._replace(points=after.points, shots=after.shots, shred=after.shred,
                                            shred_alt=after.shred_alt), 0

        return then

    def part(self, state: State) -> Setup:
        """The setup of the target under attack in ``state``."""
        return self.parts[state.target]

    def skips(self, i: int, state: State) -> bool:
        """Whether attack ``i`` is not made from ``state``: none of its targets stands."""
        return self.reach[i] < state.target

    def before(self, state: State) -> tuple[int, int]:
        """Boxes and models of the targets destroyed before the one under attack."""
        return self._before[state.target]

    def enter_event(self, e: int, state: State) -> State:
        """``state`` as event ``e`` finds it (the same on every target)."""
        return self.parts[0].enter_event(e, state)

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


def target_figures(setup: Targets, dist: dict, killed: float) -> tuple[tuple, tuple]:
    """Per target, the weights of the damage marked on it at the end and of its models
    destroyed, from the distribution ``dist`` left standing at the end (``State -> vector over
    the damage marked``) and the probability ``killed`` of every target destroyed: a target
    before the one under attack is destroyed (all its boxes), one after it untouched."""
    damage = [np.zeros(p.unit_boxes + 1) for p in setup.parts]
    destroyed = [np.zeros(p.models + 1) for p in setup.parts]
    for state, v in dist.items():
        g = state.target
        part = setup.parts[g]
        v = v[: part.size]
        mass = v.sum()
        marked = part.count(np.arange(v.size)) + state.destroyed * part.boxes + sum(m for m, _ in state.others)
        damage[g] += np.bincount(marked, weights=v, minlength=part.unit_boxes + 1)
        destroyed[g][state.destroyed] += mass
        for h in range(g):
            damage[h][-1] += mass
            destroyed[h][-1] += mass
        for h in range(g + 1, len(setup.parts)):
            damage[h][0] += mass
            destroyed[h][0] += mass
    for w in damage + destroyed:
        w[-1] += killed
    return tuple(damage), tuple(destroyed)
