"""Backward induction: the value of every state, and the decisions made by looking ahead.

:class:`Engine` holds the edges of each attack (:func:`~mathhammer.exact.attack.attack_edges`)
and the value of each state before each attack, ``V_i(state)[m]``: the kill probability
(or the expected damage marked at the end) from there on. ``V_n`` is 0 (or ``m``) for a
target left standing; a kill is worth 1 (or ``boxes``). Values are computed on demand and
memoised, so only states that a decision can reach are visited.

Two uses:

* ``power_field = "optimal"``: the target spends, after each damage roll, what minimises the
  kill probability given the attackers' fixed policies (:func:`exact_result
  <mathhammer.exact.exact_result>` then propagates forward along those decisions);
* :func:`optimal_value`: the attackers' best adaptive play, the yardstick of the policy
  optimizer.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager

import numpy as np

from ..errors import InputError
from ..rules import Scenario
from ..rules.vocabulary import OBJECTIVES
from .attack import Decisions, Piece, attack_edges, merge
from .state import Setup, State, optimal_slots, prepare

__all__ = ["Engine", "optimal_value", "EDGE_BUDGET"]

#: Most edges kept in memory for reuse by later attacks (about 40 bytes each).
EDGE_BUDGET = 4_000_000


class Engine:
    """Edges and values of the attacks of one :class:`~mathhammer.exact.state.Setup`.

    Parameters
    ----------
    setup : Setup
    attackers_optimal : bool
        Attackers play their best (see :class:`~mathhammer.exact.attack.Decisions`) instead
        of following their ``spend`` policies.
    objective : {"kill", "damage"}
        What values measure: kill probability, or expected damage marked at the end.
    """

    def __init__(self, setup: Setup, attackers_optimal: bool = False, objective: str = "kill"):
        self.setup = setup
        self.attackers_optimal = attackers_optimal
        self.objective = objective
        self.looks_ahead = attackers_optimal or setup.field == "optimal"
        if objective == "kill":
            self.terminal = np.zeros(setup.boxes)
            self.kill_value = 1.0
        else:
            self.terminal = setup.marks.astype(np.float64)
            self.kill_value = float(setup.boxes)
        self._values: dict = {}
        # Edges shared by like attacks (no look-ahead): kept from the first attack of a
        # signature to its last, within EDGE_BUDGET edges.
        self._edges: dict = {}
        self._cached = 0
        signatures = [info.signature for info in setup.slots]
        self._last_use = {sig: i for i, sig in enumerate(signatures)}
        self._reused = [self._last_use[sig] > i for i, sig in enumerate(signatures)]

    def edges(self, i: int, state: State) -> list[Piece]:
        """Edges of attack ``i`` from ``state`` (as the attack finds it), one piece per state
        reached and counts.

        Without look-ahead they depend only on the attack's signature and ``state``, and
        are kept for the later attacks of that signature. With look-ahead the decisions
        read the values of the next attack (memoised), and the edges are rebuilt when asked
        again rather than kept.
        """
        if self.looks_ahead:
            return self._build(i, state)
        sig = self.setup.slots[i].signature
        out = self._edges.get((sig, state))
        if out is None:
            out = self._build(i, state)
            size = sum(pc.p.size for pc in out)
            if self._reused[i] and self._cached + size <= EDGE_BUDGET:
                self._edges[(sig, state)] = out
                self._cached += size
        return out

    def release(self, i: int) -> None:
        """Attack ``i`` is done: drop the kept edges no later attack will use."""
        sig = self.setup.slots[i].signature
        if self._last_use[sig] == i:
            for key in [key for key in self._edges if key[0] == sig]:
                self._cached -= sum(pc.p.size for pc in self._edges.pop(key))

    def _build(self, i: int, state: State) -> list[Piece]:
        dec = Decisions(self.attackers_optimal, kill_value=self.kill_value)
        if self.looks_ahead:
            dec.value = lambda s: self.value(i + 1, s)
        return merge(attack_edges(self.setup, i, state, dec))

    def value(self, i: int, state: State) -> np.ndarray:
        """``V_i``: value of each damage marked in ``state`` before attack ``i`` (read-only)."""
        state = self.setup.enter(i, state)
        if i >= self.setup.n:
            return self.terminal
        key = (i, state)
        out = self._values.get(key)
        if out is None:
            out = np.zeros(self.setup.boxes)
            for pc in self.edges(i, state):
                lead = self.kill_value if pc.state is None else self.value(i + 1, pc.state)[pc.dst]
                out += np.bincount(pc.src, weights=pc.p * lead, minlength=self.setup.boxes)
            out.setflags(write=False)
            self._values[key] = out
        return out


@contextmanager
def deep_recursion(n_slots: int):
    """Values recurse a few frames per attack: make room for ``n_slots`` attacks."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 12 * n_slots + 1000))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def optimal_value(scenario: Scenario, objective: str = "kill") -> float:
    """Kill probability (or expected damage) of the attackers' best adaptive play.

    Exact backward induction over the whole state. At every decision point each attacker
    chooses freely, knowing everything so far: whether to pay for an attack boost (before
    the roll, with a point left and no free boost), a damage boost (after the attack roll,
    likewise) and whether to buy each additional attack (attackers with a melee weapon, up
    to one per point, with ``bought_weapon``, whatever ``spend.buy_attacks`` says). Their
    ``spend`` policies, reserves and thresholds are ignored; points still do not carry over
    to the next attacker. The target spends by its own ``power_field`` policy; with
    ``"optimal"`` it minimises the same value (a zero-sum game).

    No fixed spending policy can do better, so this bounds what the policy optimizer may
    report.

    Parameters
    ----------
    scenario : Scenario
    objective : {"kill", "damage"}
        Maximise the kill probability, or the expected damage marked at the end (a kill
        counts as every box).

    Returns
    -------
    float

    Examples
    --------
    >>> from mathhammer.rules import Attacker, Scenario, Target, Weapon
    >>> gun = Weapon("Gun", "ranged", skill=5, pow=20)
    >>> scen = Scenario(Target(defense=13, arm=10, boxes=1), [Attacker("A", [gun], focus=1)])
    >>> round(optimal_value(scen) * 216)   # boost the attack: 8+ on 3d6 is 181/216
    181
    """
    if objective not in OBJECTIVES:
        raise InputError("objective", objective, "must be one of " + ", ".join(OBJECTIVES))
    setup = prepare(scenario, optimal_slots(scenario), induction=True)
    engine = Engine(setup, attackers_optimal=True, objective=objective)
    with deep_recursion(setup.n):
        return float(engine.value(0, setup.start)[0])
