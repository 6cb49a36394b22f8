"""A turn's activations chained one by one: the value of any order, and of the adaptive order.

The turn planner (:mod:`mathhammer.play.turn`) asks for the value of many orders of many
attackers: every allocation of a battlegroup's focus in every order, and the adaptive order,
in which the player chooses who activates next after seeing how the last activation went.
:class:`Activations` solves each activation once per what follows it: one backward-induction
:class:`~mathhammer.exact.induction.Engine` per attacker and *continuation* (the attackers
after it in a fixed order, or the set of attackers left to choose from), on a
:class:`~mathhammer.exact.setup.Setup` holding every attacker that may appear (each
allocation's focus a distinct attacker), restricted to that attacker's attacks
(:meth:`Setup.only <mathhammer.exact.setup.Setup.only>`). What an activation leaves (the
damage marked, knocked down, the target's points left, -DEF / -ARM effects) is the state the
next one finds, so a continuation is the value of the next activation's engine; orders and
sets that share their end share its engines.

The adaptive order's value, with ``A(left)`` the value of a state with the attackers
``left`` to activate::

    A({}) = the end of the turn;  A(left) = best over a in left of  activation of a, then A(left - a)

"best" by the attackers' preference over the objective's chain
(:class:`~mathhammer.exact.chain.Chain`: the objective, its secondary figures, then fewer
points spent), at every damage marked and state apart.
"""

from __future__ import annotations

import dataclasses
import numpy as np

from ..errors import ExactNotApplicable
from ..rules import Scenario
from .induction import Engine, deep_recursion
from .setup import Setup
from .state import State
from .vectors import add, push

__all__ = ["Activations"]


class _Activation(Engine):
    """One attacker's activation (its attacks only); after its last attack, ``then(state,
    idx)`` is the value of what follows (None: the end of the turn)."""

    def __init__(self, setup: Setup, objective: str, then):
        super().__init__(setup, objective=objective)
        self._then = then

    def terminal(self, idx: np.ndarray, state: State) -> np.ndarray:
        if self._then is None:
            return super().terminal(idx, state)
        return self._then(state, idx)


class Activations:
    """Exact values of a turn's activations in any order, and in the adaptive order.

    Parameters
    ----------
    scenario : Scenario
        The target, settings and objective (its attackers are not read).
    attackers : sequence of Attacker
        Every distinct attacker a plan may activate (one per focus it may be allocated);
        orders and sets name them by their index here. Two alike attackers may be given
        once: their values are the same.

    Raises
    ------
    ExactNotApplicable
        Several targets, or more than one round of attacks, or a grid or spiral whose Rapid
        Healing keeps the order of its last marks (the marks still to come depend on the
        order).

    Examples
    --------
    >>> from mathhammer.rules import Attacker, Scenario, Target, Weapon
    >>> a = Attacker("A", [Weapon("Fist", "melee", 6, 14)])
    >>> b = Attacker("B", [Weapon("Axe", "melee", 5, 16)])
    >>> acts = Activations(Scenario(Target(12, 16, boxes=5), [a]), [a, b])
    >>> round(float(acts.sequence((0, 1))[0]), 12) == round(float(acts.sequence((1, 0))[0]), 12)
    True
    """

    def __init__(self, scenario: Scenario, attackers):
        if scenario.several:
            raise ExactNotApplicable("the turn planner solves one target (several targets: plan each)")
        if scenario.attack_rounds > 1 or scenario.turns > 1:
            raise ExactNotApplicable("the turn planner solves one turn (turns = 1)")
        names = [f"attacker {k}" for k in range(len(attackers))]
        everyone = tuple(dataclasses.replace(a, name=n, controls=()) for a, n in zip(attackers, names))
        setup = Setup(dataclasses.replace(scenario, attackers=everyone))
        if setup.windows[0]:
            raise ExactNotApplicable("Rapid Healing of 2 or more on a damage grid or life spiral keeps the "
                                     "order of the last marks: the turn planner cannot chain activations there")
        self.setup = setup
        self.objective = scenario.objective
        #: Each attacker's events: its attacks (the end of the turn follows the last one).
        self._attacks = [[] for _ in everyone]
        for ev in setup.events:
            if ev.kind == "attack":
                self._attacks[setup.slots[ev.slot].slot.attacker_index].append(ev)
        self._end = [ev for ev in setup.events if ev.kind != "attack"]
        self._engines: dict = {}
        self._choices: dict = {}  # (left, state) -> (values, index of the attacker chosen) on a track
        self.chain = Engine(setup, objective=self.objective).chain
        self.preference = self.chain.attackers()
        self.depth = sum(len(x) for x in self._attacks) + len(self._end)

    # ------------------------------------------------------------------ the two questions
    def sequence(self, order: tuple) -> np.ndarray:
        """The figures (``[chain.width]``, the columns of :attr:`chain`) of the attackers
        ``order`` (indices) activating in that order, from the scenario's start."""
        return self._start(lambda state, idx: self._in_order(tuple(order), state, idx))

    def adaptive(self, left) -> np.ndarray:
        """The figures of the attackers ``left`` (indices; an attacker given twice
        activates twice) in the adaptive order, from the scenario's start."""
        return self._start(lambda state, idx: self._best_next(_group(left), state, idx))

    def choice(self, left, state: State, idx: np.ndarray) -> np.ndarray:
        """Per damage marked (configuration) ``idx`` in ``state``, which of ``left`` the
        adaptive order activates next (its index among the attackers)."""
        return self._choose(_group(left), state, idx)[1]

    def leaves(self, first: int, left) -> dict:
        """Where attacker ``first``'s activation leaves the target standing, the adaptive
        order over ``left`` to follow (its decisions weigh that): ``State -> vector`` of the
        probability of each damage marked (configuration), as the next activation finds it."""
        engine = self._engine(first, ("any", _group(left)))
        setup = engine.setup
        start = np.zeros(setup.size)
        start[0] = 1.0
        dist = {setup.start: start}
        with deep_recursion(self.depth):
            for e in range(len(engine.events)):
                todo: dict = {}
                for state, v in dist.items():
                    add(todo, setup.enter_event(e, state), v)
                dist = {}
                while todo:  # a Shred attack owed goes through the attack again
                    again: dict = {}
                    for state, v in todo.items():
                        src = np.flatnonzero(v)
                        for pc in engine.edges(e, state, src if setup.card is not None else None):
                            if pc.state is None:
                                continue  # destroyed
                            size = max(setup.size, int(pc.dst.max(initial=0)) + 1)
                            push(again if pc.state.shred else dist, pc.state, pc.dst, v[pc.src] * pc.p, size)
                    todo = again
        out: dict = {}
        for state, v in dist.items():
            add(out, setup.enter_event(len(engine.events), state), v)
        return out

    def figure(self, values: np.ndarray, name: str) -> float:
        """Column ``name`` (``"kill"``, ``"damage"``, ``"destroyed"``) of figures from
        :meth:`sequence` or :meth:`adaptive` (``"destroyed"`` is the kill on one model)."""
        k = self.chain.index(name)
        if k is None:
            k = self.chain.index("kill")
        return float(values[k])

    @property
    def solved(self) -> int:
        """Activations solved so far (one per attacker and what follows it)."""
        return len(self._engines)

    # ------------------------------------------------------------------ the chain
    def _start(self, value) -> np.ndarray:
        with deep_recursion(self.depth):
            return value(self.setup.start, np.zeros(1, dtype=np.int64))[:, 0]

    def _engine(self, a: int, then) -> _Activation:
        """Attacker ``a``'s activation followed by ``then``: ``("seq", order)``, the
        attackers after it in that order, or ``("any", left)``, the adaptive order over
        ``left``; the end of the turn follows the last attacker's attacks."""
        if then[0] == "any" and len(then[1]) <= 1:
            then = ("seq", then[1])  # one attacker left: the adaptive order is the fixed one
        key = (a, then)
        engine = self._engines.get(key)
        if engine is None:
            kind, rest = then
            last = not rest
            events = self._attacks[a] + (self._end if last else [])
            if last:
                follow = None
            elif kind == "seq":
                follow = lambda state, idx: self._in_order(rest, state, idx)  # noqa: E731
            else:
                follow = lambda state, idx: self._best_next(rest, state, idx)  # noqa: E731
            engine = _Activation(self.setup.only(events), self.objective, follow)
            self._engines[key] = engine
        return engine

    def _in_order(self, order: tuple, state: State, idx: np.ndarray) -> np.ndarray:
        return self._engine(order[0], ("seq", order[1:])).value(0, state, idx)

    def _best_next(self, group: tuple, state: State, idx: np.ndarray) -> np.ndarray:
        if len(group) == 1:
            return self._in_order(group, state, idx)
        if self.setup.card is not None:
            return self._choose(group, state, idx)[0]
        key = (group, state)
        known = self._choices.get(key)
        if known is None:
            known = self._choose(group, state, np.arange(self.setup.size))
            self._choices[key] = known
        return known[0].take(idx, axis=1)

    def _choose(self, group: tuple, state: State, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        options = sorted(set(group))
        values = [self._engine(a, ("any", _without(group, a))).value(0, state, idx) for a in options]
        pick = self.preference.choose(values)
        out = values[0].copy()
        for j in range(1, len(values)):
            out[:, pick == j] = values[j][:, pick == j]
        return out, np.array(options)[pick]


def _group(left) -> tuple:
    """A set of attackers to activate (a multiset: sorted indices)."""
    return tuple(sorted(left))


def _without(group: tuple, a: int) -> tuple:
    out = list(group)
    out.remove(a)
    return tuple(out)
