"""Every attacker's best adaptive play: the ceiling no fixed spending policy can pass, the
yardstick of the policy optimizer (:mod:`mathhammer.policy`)."""

from __future__ import annotations

import dataclasses

import numpy as np

from ..errors import InputError
from ..rules import Scenario
from ..rules.scenario import check_objective
from .bounds import MAX_CARD_INDUCTION_EDGES, prepare
from .induction import Engine, deep_recursion

__all__ = ["optimal_value"]


def optimal_value(scenario: Scenario, objective: str = "kill") -> float:
    """Kill probability (or expected damage) of the attackers' best adaptive play.

    Exact backward induction over the whole state, every attacker playing ``policy =
    "best"`` whatever its policy says. At every decision point each attacker
    chooses freely, knowing everything so far: whether to pay for an attack boost (before
    the roll, with a point left and no free boost), a damage boost (after the attack roll,
    likewise) and whether to buy each additional attack, and with which melee weapon
    (attackers with a melee weapon, up to one per point, whatever ``spend.buy_attacks``
    says; with ``buy_weapon`` only, when it is given). Their
    ``spend`` policies, reserves and thresholds are ignored; points still do not carry over
    to the next attacker. The target spends by its own ``power_field`` policy; with
    ``"best"`` it minimises the same value (a zero-sum game).

    No fixed spending policy can do better, so this bounds what the policy optimizer may
    report.

    Parameters
    ----------
    scenario : Scenario
    objective : {"kill", "damage", "cripple:X"}
        Maximise the kill probability, the expected damage marked at the end (a kill
        counts as every box), or the probability that system / aspect X of the target's
        grid or spiral ends crippled (a kill cripples every one). Several targets: the
        kill is every target destroyed, the damage summed over them (``destroyed``: the
        expected models destroyed).

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
    if not isinstance(scenario, Scenario):
        raise InputError("scenario", type(scenario).__name__, "must be a mathhammer.Scenario")
    check_objective("objective", objective, scenario.target)
    everyone = tuple(dataclasses.replace(a, policy="best", spend=None) for a in scenario.attackers)
    setup = prepare(dataclasses.replace(scenario, attackers=everyone), induction=True, forward=False)
    engine = Engine(setup, best=frozenset(range(len(everyone))), objective=objective,
                    edge_budget=MAX_CARD_INDUCTION_EDGES)
    with deep_recursion(setup.n_events):
        return float(engine.value(0, setup.start, np.zeros(1, dtype=np.int64))[0, 0])
