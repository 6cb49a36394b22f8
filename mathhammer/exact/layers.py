"""The target's power field points as layers of the damage index, on a damage track.

A target with a power field spends its focus (or fury) as the damage rolls come. Kept in the
:class:`~mathhammer.exact.state.State`, each amount left is a state of its own: a target with
3 focus makes four states before every attack, each with its own options to lay out, its own
decisions and its own vectors. On a damage track the amount spent can instead be part of the
index, as the damage marked is: index ``spent * boxes + marked``. The states that differed
only by the points left are then one, whose vectors are ``(points + 1) * boxes`` long, and an
attack's options are built and decided once for every amount left at once, with the same
array operations on longer arrays.

:class:`Layered` is that setup. The state's ``target_points`` holds what the target started
with; :meth:`Layered.layer` says what an index has spent. What leaves the engine is unfolded
again (:func:`unfold`, :class:`Unfolding`): best play's records and the forward pass's
distributions name the target's points left, as they do without layers. Each attack decides
only the amounts a state per amount left would meet there (:func:`met_layers`; the first
attack, nothing spent), so that the records are the same.

Layers are used where the points change only on a damage roll: one target of one model on a
damage track, one round, no continuous effect, hazard or relaxed grid (:func:`layered`).

>>> from mathhammer.rules import Attacker, Scenario, Target, Weapon
>>> from mathhammer.exact.setup import Setup
>>> hammer = Weapon("Hammer", "melee", skill=7, pow=18, attacks=3)
>>> setup = layered(Setup(Scenario(Target(defense=12, arm=13, boxes=30, focus=3), [Attacker("J", [hammer])])))
>>> setup.size, setup.count(np.array([0, 29, 30, 95])).tolist(), setup.layer(np.array([0, 29, 30, 95])).tolist()
(120, [0, 29, 0, 5], [0, 0, 1, 3])
"""

from __future__ import annotations

import numpy as np

from .setup import Setup
from .state import State

__all__ = ["Layered", "layered", "unfold", "Unfolding", "met_layers"]


class Layered(Setup):
    """A one-target damage-track :class:`~mathhammer.exact.setup.Setup` whose index also
    holds the points the target's power field has spent: ``spent * boxes + marked``."""

    def __init__(self, base: Setup):  # not Setup.__init__: the scenario is read once, in base
        # the same setup (every figure read from the scenario once), with a longer index
        self.__dict__.update(base.__dict__)
        #: Amounts the target may have spent: 0 .. its points.
        self.layers = base.target.power_points + 1
        self.marks = np.arange(self.boxes * self.layers)
        self.rolls = {}  # its damage rolls' arrays: indices of its own

    @property
    def size(self) -> int:
        """Indices in use: the damage marked, once per amount spent."""
        return self.boxes * self.layers

    def count(self, idx: np.ndarray) -> np.ndarray:
        """Boxes marked in each index."""
        return idx % self.boxes

    def layer(self, idx: np.ndarray) -> np.ndarray:
        """Points the target has spent at each index."""
        return idx // self.boxes


def layered(setup):
    """``setup`` as a :class:`Layered` where its target's points change only on a damage roll
    (one target of one model on a damage track, its power field in use, one round without
    continuous effects, hazards or a relaxed grid's crippling), else ``setup`` itself."""
    if (type(setup) is not Setup or setup.card is not None or setup.models != 1 or setup.round_end
            or setup.quicksand or setup.track_cripple is not None or setup.track_lost
            or setup.field == "never" or setup.target.power_points <= 0):
        return setup
    return Layered(setup)


def unfold(setup, dist: dict) -> dict:
    """A distribution over states and indices of a :class:`Layered` setup (``State -> vector
    over its index``) as the states without layers give it: the target's points left in
    the state, the vector over the damage marked (``setup`` without layers: ``dist``)."""
    if not isinstance(setup, Layered):
        return dist
    out = {}
    boxes = setup.boxes
    for state, v in dist.items():
        for spent in range(setup.layers):
            part = v[spent * boxes: (spent + 1) * boxes]
            if part.size and part.any():
                out[_left(state, spent)] = part
    return out


class Unfolding:
    """Best play's ``record`` callback (:class:`~mathhammer.exact.choices.Decisions`) of a
    :class:`Layered` setup: each decision is passed on once per amount spent among its
    groups, with the target's points left in its state and the damage marked as groups, as
    a state per amount left makes it. The power field's decision with no points left is
    not: a state with no points has nothing to decide."""

    def __init__(self, setup: Layered, record):
        self.setup, self.record = setup, record

    def __call__(self, what, event, row, context, groups, best, values, preference):
        src = groups[0] if isinstance(groups, tuple) else groups
        boxes = self.setup.boxes
        # the groups come in the order of their index (an attack's edges are built so): each
        # amount spent is a run of them
        ends = np.searchsorted(src, boxes * np.arange(1, self.setup.layers + 1)).tolist()
        points = context[0].target_points
        lo = 0
        for k, hi in enumerate(ends):
            if hi > lo and (what != "field" or k < points):
                mine = src[lo:hi] - k * boxes
                at = (mine, *(g[lo:hi] for g in groups[1:])) if isinstance(groups, tuple) else mine
                self.record(what, event, row, (_left(context[0], k), *context[1:]), at, best[lo:hi],
                            None if values is None else [v[:, lo:hi] for v in values], preference)
            lo = hi


def met_layers(setup: Layered, plan_of) -> dict:
    """Per attack event and state the sequence meets, where it may meet it: a mask over the
    index, every damage marked of the amounts spent a state per amount left meets there
    (None: every amount; ``plan_of(e, state)``: the attack's :class:`~mathhammer.exact.plan.Plan`).

    From the start (nothing spent), an attack meets the amounts any of its options leads
    to from the amounts met before it, from any damage marked: a state per amount left
    values (and decides) every damage marked of each state it meets. Recording the decisions
    of those amounts only records what it records, and no more: the first attack has spent
    nothing. (Every amount is decided all the same: a group's choice reads its own edges.)"""
    n = len(setup.events)
    met = {(0, setup.enter_event(0, setup.start)): {0}}
    out = {}
    moves: dict = {}  # per plan: per state reached, the amounts reached from each amount
    for e in range(n):
        todo = [state for (at, state) in met if at == e]
        while todo:
            state = todo.pop()
            mine = out[(e, state)] = frozenset(met[(e, state)])
            plan = plan_of(e, state)
            if id(plan) not in moves:
                moves[id(plan)] = (plan, _moves(setup, plan))
            for after, move in moves[id(plan)][1]:
                nxt = e if after.shred else e + 1
                if nxt >= n:
                    continue
                reached = set().union(*(move[k] for k in mine))
                key = (nxt, setup.enter_event(nxt, after))
                if not reached <= met.setdefault(key, set()):
                    met[key] |= reached
                    if nxt == e:  # a Shred attack owed: this event again
                        todo.append(key[1])
    return {key: None if len(mine) == setup.layers else _indices(setup, mine) for key, mine in out.items()}


def _indices(setup: Layered, amounts) -> np.ndarray:
    """A mask over the index: every damage marked of the amounts spent ``amounts``."""
    mask = np.zeros(setup.layers, dtype=bool)
    mask[list(amounts)] = True
    return np.repeat(mask, setup.boxes)


def _moves(setup: Layered, plan) -> list[tuple]:
    """Per state ``plan`` reaches but the kill: the state, and per amount spent the amounts
    its edges reach from there."""
    out = []
    for after, at, dst in plan.targets:
        if after is None:
            continue
        n = setup.layers
        pairs = np.zeros(n * n, dtype=bool)
        pairs[setup.layer(plan.src[at]) * n + setup.layer(dst)] = True
        move = [set() for _ in range(n)]
        for k in np.flatnonzero(pairs).tolist():
            move[k // n].add(k % n)
        out.append((after, move))
    return out


def _left(state: State, spent: int) -> State:
    """``state`` (holding what the target started with) with ``spent`` points spent."""
    return state._replace(target_points=state.target_points - spent) if spent else state
