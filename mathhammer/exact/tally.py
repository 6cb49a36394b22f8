"""What forward propagation counts on the way (:class:`Tally`): each attack's figures and
kills, the effects of each round's end, and with several targets which target each attack
went to and when each was destroyed.

Every edge adds its probability times what it counts, so every figure is an exact
expectation (:func:`~mathhammer.exact.forward.propagate_rounds` pushes the probability).
"""

from __future__ import annotations

import numpy as np

from ..result.fields import (
    EFFECT_APPLIED,
    EFFECT_DAMAGE,
    EFFECT_DESTROYED,
    EFFECT_FIELDS,
    EFFECT_KILL,
    EFFECT_NAMES,
    EFFECT_PRESENT,
    EFFECT_TARGET_SPENT,
    EFFECT_TOUGH,
    SLOT_DAMAGE,
    SLOT_FIELDS,
    SLOT_MADE,
)
from .edges import Piece
from .plan import Decided
from .state import State
from .vectors import add_into, moments, push

__all__ = ["Tally"]

_QUICK = EFFECT_NAMES.index("quicksand")


class Tally:
    """The figures counted while pushing the probability of ``setup``'s states along the
    edges of its events: arrays as :class:`~mathhammer.result.Result` names them."""

    def __init__(self, setup):
        n, turns = setup.n, setup.turns
        self.setup = setup  # its size grows as a card's configurations are met
        self.several = setup.several
        parts = len(setup.parts) if setup.several else 1
        self.slot_weights = np.zeros((n, SLOT_FIELDS))
        self.kill_weights = np.zeros(n)
        self.slot_damage_sq = np.zeros(n)  # per attack, E[(damage points it marked)**2]
        self.maintenance = np.zeros(turns)  # per round, the kills of its end
        self.effects = np.zeros((turns, len(EFFECT_NAMES), EFFECT_FIELDS))
        # several targets: per target and round, the probability it is destroyed then (the
        # state moves on to the first target standing, or to the kill for the last one)
        self.target_kill = np.zeros((parts, turns))
        self.slot_target = np.zeros((n, parts))

    def attack(self, ev, state: State, v: np.ndarray, pieces: list[Piece], dist: dict, again: dict) -> None:
        """Push ``v`` (``state``'s vector) along the pieces of attack event ``ev`` into
        ``dist`` (``again``: owing a Shred attack), counting each."""
        i, t = ev.slot, ev.round
        if isinstance(pieces, Decided) and pieces.plan.plain:
            self._decided(i, t, state, v, pieces, dist, again)
            return
        effects = self.effects[t, _QUICK]
        pieces = list(pieces)
        if not pieces:
            return
        masses = [v[pc.src] * pc.p for pc in pieces]
        totals = [float(mass.sum()) for mass in masses]
        # what the pieces counted, piece after piece; the boxes marked, over their edges at once
        counted = np.array(totals)[:, None] * np.array([pc.counts for pc in pieces]).reshape(len(pieces), -1)
        self.slot_weights[i] += counted.sum(axis=0)  # piece after piece, as they are listed
        marking = [k for k, pc in enumerate(pieces) if pc.marked is not None]
        if marking:
            first, second = moments(np.concatenate([masses[k] for k in marking]),
                                    np.concatenate([pieces[k].marked for k in marking]))
            self.slot_weights[i, SLOT_DAMAGE] += first
            self.slot_damage_sq[i] += second
        landing: dict = {}  # per state reached, its pieces
        for pc, mass, total in zip(pieces, masses, totals):
            self._left(state, pc, t, total)
            if self.several:  # which target the attack was made against
                self.slot_target[i, state.target] += total * pc.counts[SLOT_MADE]
            if pc.quick is not None:
                effects[EFFECT_DAMAGE] += moments(mass, pc.quick)[0]
            if pc.quick_kill:
                effects[EFFECT_DESTROYED] += total
            if pc.quick_spent or pc.quick_tough:
                effects[EFFECT_TARGET_SPENT] += total * pc.quick_spent
                effects[EFFECT_TOUGH] += total * pc.quick_tough
            if pc.state is None:
                self.kill_weights[i] += total
                if pc.quick_kill:
                    effects[EFFECT_KILL] += total
                continue
            landing.setdefault(pc.state, []).append((pc.dst, mass))
        for after, parts in landing.items():
            dst = parts[0][0] if len(parts) == 1 else np.concatenate([d for d, _ in parts])
            mass = parts[0][1] if len(parts) == 1 else np.concatenate([m for _, m in parts])
            push(again if after.shred else dist, after, dst, mass, self.setup.size)

    def _decided(self, i: int, t: int, state: State, v: np.ndarray, decided: Decided, dist: dict,
                 again: dict) -> None:
        """:meth:`attack` for a plan's decided attack with no quicksand point: every edge at
        once, each joined piece counted by its total."""
        plan = decided.plan
        mass, totals = decided.flow(v)
        self.slot_weights[i] += totals @ plan.joined_counts
        if self.several:
            self.slot_target[i, state.target] += totals @ plan.joined_counts[:, SLOT_MADE]
            left = [s is None or s.target != state.target for s in plan.joined_states]
            self.target_kill[state.target, t] += totals[left].sum()
        if plan.marked is not None:
            first, second = moments(mass, plan.marked)
            self.slot_weights[i, SLOT_DAMAGE] += first
            self.slot_damage_sq[i] += second
        for after, landed in decided.arrivals(mass):
            if after is None:
                self.kill_weights[i] += landed[0]
            else:
                add_into(again if after.shred else dist, after, landed, self.setup.size)

    def step(self, ev, state: State, v: np.ndarray, pieces: list[Piece], dist: dict, again: dict) -> None:
        """Push ``v`` along the pieces of a step of the end of round ``ev.round`` (burning
        earth, fire, corrosion, the activation) into ``dist``, counting each."""
        t = ev.round
        effects = self.effects[t, EFFECT_NAMES.index(ev.kind)] if ev.kind in ("fire", "corrosion") else None
        for pc in pieces:
            mass = v[pc.src] * pc.p
            total = mass.sum()
            self._left(state, pc, t, total)
            if effects is not None and pc.counts:
                effects[EFFECT_PRESENT] += total * pc.counts[0]
                effects[EFFECT_APPLIED] += total * pc.counts[1]
                if pc.counts[1]:  # applied: points suffered (rounds.suffered)
                    _, _, destroyed, spent, tough = pc.counts
                    effects[EFFECT_DESTROYED] += total * destroyed
                    effects[EFFECT_TARGET_SPENT] += total * spent
                    effects[EFFECT_TOUGH] += total * tough
                if pc.marked is not None:
                    effects[EFFECT_DAMAGE] += moments(mass, pc.marked)[0]
                if pc.state is None:
                    effects[EFFECT_KILL] += total
                    self.maintenance[t] += total
                    continue
            if pc.state is None:
                raise AssertionError(f"a {ev.kind} step cannot kill")
            push(again if pc.state.shred else dist, pc.state, pc.dst, mass, self.setup.size)

    def _left(self, state: State, pc: Piece, t: int, total: float) -> None:
        """Several targets: the target under attack in ``state`` destroyed along ``pc``."""
        if self.several and (pc.state is None or pc.state.target != state.target):
            self.target_kill[state.target, t] += total
