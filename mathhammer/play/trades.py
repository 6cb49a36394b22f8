"""Best play in a trade: each activation's decisions, solved for that activation.

A trade model that plays best (``policy = "best"`` with points to spend) decides each
boost and each bought attack of its combat action by the decision table of that action:
the activation alone, against the model it attacks, solved by backward induction with the
objective the trade names (:attr:`Trade.play <mathhammer.rules.trade.Trade.play>`): by
default the most damage marked on that model, then its destruction, then the fewest points
spent; or its destruction first. The table is solved once per *program* (the model with a set of crippled
letters, charging or not, against one enemy model) and read by both trade engines: the exact
one (:mod:`mathhammer.exact.trade`) and the Monte Carlo kernel.

Solved on a damage track (a grid or spiral: on the relaxation of
:func:`~mathhammer.play.relax.relaxed`, keyed by the boxes marked), from every damage marked
and from every situation the key tells apart (knocked down, on fire ...), because an
activation of a trade finds its target as the ones before left it. What this leaves out,
and what it costs against play that looks ahead over the whole trade, is measured in
docs/trades.md (:func:`mathhammer.exact.trade_optimal.optimal_trade`).
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

import numpy as np

from ..errors import ExactNotApplicable
from ..rules import Attacker, Scenario
from ..rules.trade import TradeModel
from . import codes as K
from .solve import DecisionTable, solve

__all__ = ["ActivationPlay", "CACHED_TABLES", "MAX_PLANNED", "planned", "table_decision", "boosts_attack", "boosts_damage", "stops_buying"]


class ActivationPlay:
    """The decision tables of a trade's activations, each solved once.

    Parameters
    ----------
    settings : dict
        The trade's scenario settings (:attr:`Trade.settings
        <mathhammer.rules.trade.Trade.settings>`): the rules readings the tables are solved
        under.
    objective : {"damage", "kill"}
        What each activation's decisions aim at (:attr:`Trade.play
        <mathhammer.rules.trade.Trade.play>`): the damage marked on the model attacked, then
        its destruction; or its destruction first.

    Examples
    --------
    >>> from mathhammer.rules import Spend, Target, Weapon
    >>> play = ActivationPlay({})
    >>> fist = Weapon("Fist", "melee", 6, 16)
    >>> jack = Attacker("J", [fist], focus=2)
    >>> enemy = TradeModel(Attacker("E", [fist]), Target(12, 18, boxes=10), ["J"], {"M": 6})
    >>> table = play.table(jack, enemy)
    >>> table.solved_on, table.objective, table.attack.shape[2]
    ('exact, M crippled from their thresholds', 'damage', 10)
    >>> fixed = Attacker("J", [fist], focus=2, spend=Spend())
    >>> play.table(fixed, enemy) is None   # a fixed policy
    True
    """

    def __init__(self, settings: dict, objective: str = "damage"):
        self.settings = tuple(sorted(settings.items()))
        self.objective = objective

    def table(self, attacker: Attacker, enemies) -> DecisionTable | None:
        """The decision table of ``attacker``'s combat action against ``enemies`` (a
        :class:`TradeModel`, or those of its ``attacks`` still standing, in order: the table
        plans for :func:`planned` of them), each standing as it starts (the table also holds
        every other starting situation of the first, and on a damage track with ``cripple_at``
        what its thresholds cripple); None where it does not play best or the activation is
        beyond the exact engine (it then spends by the default fixed policy). Solved once a
        process (:data:`CACHED_TABLES` kept): a trade run again, or the same pairing in both
        orders, solves nothing new."""
        if not attacker.plays_best:
            return None
        plan = planned(enemies)
        targets = tuple(m.one_model if i == 0 else dataclasses.replace(m.one_model, effects=frozenset())
                        for i, m in enumerate(plan))
        return _solved(attacker, targets, tuple(m.cripple_at for m in plan), self.settings, self.objective)


#: Most enemies a table plans its activation against (each one after the first multiplies
#: the tables a trade solves, one per set of them standing).
MAX_PLANNED = 3


def planned(enemies) -> tuple[TradeModel, ...]:
    """The enemies an activation's table plans for: the first (the one under attack) and,
    where every one is a single model on a damage track (the exact engine's several targets),
    the next ones standing, up to :data:`MAX_PLANNED`; else the first alone (its attacks on a
    unit's models, or past a grid, are each decided as if that model were the last).

    >>> from mathhammer.rules import Target, Weapon
    >>> fist = Weapon("Fist", "melee", 6, 16)
    >>> a, b, c, d = (TradeModel(Attacker(n, [fist]), Target(12, 18, boxes=8), ["X"]) for n in "ABCD")
    >>> [m.name for m in planned([a, b, c, d])], [m.name for m in planned(b)]
    (['A', 'B', 'C'], ['B'])
    """
    enemies = (enemies,) if isinstance(enemies, TradeModel) else tuple(enemies)
    alone = any(m.target.models != 1 or m.target.capacity != "track" for m in enemies[:MAX_PLANNED])
    return enemies[:1] if alone else enemies[:MAX_PLANNED]


#: Most decision tables of trade activations kept (each is a few kilobytes: a 12 x 12 trade
#: matrix of the bundled cards solves 208).
CACHED_TABLES = 8192


@lru_cache(maxsize=CACHED_TABLES)
def _solved(attacker: Attacker, targets: tuple, cripple_at: tuple, settings: tuple,
            objective: str) -> DecisionTable | None:
    scenario = Scenario(targets[0] if len(targets) == 1 else list(targets), [attacker], trials=1, seed=0,
                        objective=objective, **dict(settings))
    cripple = tuple({x: (np.arange(t.boxes + 1) >= at).astype(np.float64) for x, at in thresholds}
                    for t, thresholds in zip(targets, cripple_at))
    try:
        return solve(scenario, reach=False, relax="always", every_start=True, cripple=cripple)
    except ExactNotApplicable:
        return None


def table_decision(table: DecisionTable, row: int, points: int, marked: int, down: bool, cont: int) -> int:
    """The decision bits of ``table`` (:mod:`.codes`) for attack ``row`` of an activation made
    with ``points`` left, its target with ``marked`` damage, knocked down or not, with the
    continuous effects ``cont`` (bits of :mod:`mathhammer.exact.state`); 0 where the table
    does not hold the state (the fixed policy decides there)."""
    if points <= 0 or marked >= table.attack.shape[2]:
        return 0
    key = table.keys.key(points, 0, down, False, False, False, 0, cont, False, False)
    return int(table.attack[row, key, marked])


def boosts_attack(dec: int) -> bool | None:
    """Best play's attack boost in ``dec``: True or False, None where it has no decision."""
    return bool(dec & K.BOOST_ATTACK) if dec & K.KNOWN_ATTACK else None


def boosts_damage(dec: int, critical: bool) -> bool | None:
    """Best play's damage boost of a hit (a critical one) in ``dec``, None where none."""
    known, bit = ((K.KNOWN_DAMAGE_CRIT, K.BOOST_DAMAGE_CRIT) if critical
                  else (K.KNOWN_DAMAGE_HIT, K.BOOST_DAMAGE_HIT))
    return bool(dec & bit) if dec & known else None


def stops_buying(dec: int) -> bool:
    """Whether best play declines the bought attack of ``dec`` (and every one after it)."""
    return (dec & (K.KNOWN_BUY | K.BUY)) == K.KNOWN_BUY
