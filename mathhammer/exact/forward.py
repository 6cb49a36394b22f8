"""Forward propagation: the probability of every state, attack after attack, into a Result.

The distribution before attack ``i`` is a dict ``State -> vector over damage marked``.
Each attack pushes every vector along its edges (:meth:`Engine.edges
<mathhammer.exact.induction.Engine.edges>`): probability that reaches a kill leaves the
distribution and is counted in ``kill_weights[i]``; the rest lands in the state after the
attack. On the way, each edge adds its probability times its counts to the ``SLOT_*``
columns of attack ``i``, so every per-attack figure is an exact expectation.
"""

from __future__ import annotations

import numpy as np

from ..result import SLOT_CRIT, SLOT_DAMAGE, SLOT_FIELDS, SLOT_HIT, SLOT_MADE, Result
from ..rules import Scenario
from .induction import Engine, deep_recursion
from .state import check_exact_applicable, needs_induction, prepare

__all__ = ["exact_result", "propagate"]


def propagate(engine: Engine):
    """Push the starting state through every attack.

    Returns
    -------
    damage_weights, slot_weights, kill_weights, slot_damage_sq : ndarray
        As in :class:`~mathhammer.result.Result` (probabilities), and per attack
        ``E[(damage points it marked)**2]``.
    """
    setup = engine.setup
    boxes, n = setup.boxes, setup.n
    start = np.zeros(boxes)
    start[0] = 1.0
    dist = {setup.start: start}
    slot_weights = np.zeros((n, SLOT_FIELDS))
    kill_weights = np.zeros(n)
    slot_damage_sq = np.zeros(n)
    for i in range(n):
        entered: dict = {}
        for state, v in dist.items():
            state = setup.enter(i, state)
            entered[state] = entered[state] + v if state in entered else v
        dist = {}
        for state, v in entered.items():
            if not v.any():
                continue
            for pc in engine.edges(i, state):
                mass = v[pc.src] * pc.p
                total = mass.sum()
                slot_weights[i] += total * np.asarray(pc.counts)
                if pc.marked is not None:
                    slot_weights[i, SLOT_DAMAGE] += mass @ pc.marked
                    slot_damage_sq[i] += mass @ np.square(pc.marked)
                if pc.state is None:
                    kill_weights[i] += total
                    continue
                add = np.bincount(pc.dst, weights=mass, minlength=boxes)
                dist[pc.state] = dist[pc.state] + add if pc.state in dist else add
        engine.release(i)
    damage_weights = np.zeros(boxes + 1)
    for v in dist.values():
        damage_weights[:boxes] += v
    damage_weights[boxes] = kill_weights.sum()
    return damage_weights, slot_weights, kill_weights, slot_damage_sq


def exact_result(scenario: Scenario) -> Result:
    """Exact distributions of one scenario, as a :class:`~mathhammer.result.Result`.

    Follows docs/activation.md for damage tracks: forward propagation of the probability
    of every state (damage marked, knocked down, stationary, dispelled, Grievous Wounds,
    active -DEF / -ARM effects, target's points left, current attacker's points left)
    along :meth:`Scenario.attack_sequence <mathhammer.rules.Scenario.attack_sequence>`,
    each attacker spending by its ``spend`` policy. A target with ``power_field =
    "optimal"`` spends what minimises its kill probability, found first by backward
    induction (:class:`~mathhammer.exact.induction.Engine`).

    Weights are probabilities (``total == 1.0``). ``slot_weights`` holds, per attack, the
    expected value of each ``SLOT_*`` column (``SLOT_DAMAGE``: boxes it marked, before any
    Tough roll or Rapid Healing); ``damage_weights`` the distribution of the damage marked
    at the end (a kill is ``boxes``); ``extra["slot_damage_sq"]`` per attack
    ``E[(boxes it marked)**2]`` (to size Monte Carlo tolerances).

    Raises
    ------
    ExactNotApplicable
        See :func:`~mathhammer.exact.check_exact_applicable`.

    Examples
    --------
    >>> from mathhammer.rules import Attacker, Scenario, Target, Weapon
    >>> net = Weapon("Net", "ranged", skill=20, pow=None, rules={"knockdown"})
    >>> axe = Weapon("Axe", "melee", skill=0, pow=20)
    >>> scen = Scenario(Target(defense=15, arm=10, boxes=5),
    ...                 [Attacker("Netter", [net]), Attacker("Axeman", [axe])])
    >>> res = exact_result(scen)
    >>> res.hit.round(4).tolist()    # net: 35/36; axe: 35/36 + (1/36) * (1/36)
    [0.9722, 0.973]
    >>> # Automatic hits are never critical: the axe crits only on its own all-sixes roll,
    >>> # after the net missed.
    >>> round(float(res.crit[1]) * 36 * 36)
    1
    >>> round(res.kill, 4)           # any axe hit deals at least 12 damage
    0.973
    """
    check_exact_applicable(scenario)
    setup = prepare(scenario, induction=needs_induction(scenario))
    engine = Engine(setup)
    with deep_recursion(setup.n):
        damage_weights, slot_weights, kill_weights, slot_damage_sq = propagate(engine)
    damage_weights, slot_weights, kill_weights = _tidy(damage_weights, slot_weights, kill_weights)
    return Result(
        method="exact",
        trials=None,
        seed=None,
        slot_labels=tuple(info.slot.label for info in setup.slots),
        total=1.0,
        damage_weights=damage_weights,
        slot_weights=slot_weights,
        kill_weights=kill_weights,
        boxes=setup.boxes,
        extra={"slot_damage_sq": slot_damage_sq},
    )


def _at_most_one(w: np.ndarray) -> np.ndarray:
    """Clip ``w`` at 0 and take any excess of its sum over 1 (rounding) off its largest entry.

    Both summation orders used downstream are checked: ``sum`` (pairwise) and ``cumsum``
    (sequential, for running totals such as ``kill_after``).
    """
    w = np.clip(w, 0.0, None)
    for _ in range(8):
        excess = max(float(w.sum()), float(np.cumsum(w)[-1])) - 1.0
        if excess <= 0.0:
            break
        i = int(np.argmax(w))
        w[i] = max(0.0, w[i] - max(excess, np.spacing(w[i])))
    return w


def _tidy(damage_weights, slot_weights, kill_weights):
    """Remove floating-point noise (a few ulps) that would break the invariants reports rely
    on: probabilities in [0, 1], sums at most 1, critical <= hit <= made, counts >= 0."""
    damage_weights = _at_most_one(damage_weights)
    kill_weights = _at_most_one(kill_weights)
    sw = np.clip(slot_weights, 0.0, None)
    sw[:, SLOT_MADE] = np.minimum(sw[:, SLOT_MADE], 1.0)
    sw[:, SLOT_HIT] = np.minimum(sw[:, SLOT_HIT], sw[:, SLOT_MADE])
    sw[:, SLOT_CRIT] = np.minimum(sw[:, SLOT_CRIT], sw[:, SLOT_HIT])
    return damage_weights, sw, kill_weights
