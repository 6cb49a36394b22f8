"""Trade-optimal play, exactly: backward induction over a whole trade on damage tracks.

Best play in a trade (:mod:`mathhammer.play.trades`) decides each activation by its own
table: destroy the model it attacks, then the most damage. A player looking ahead over the
whole trade might boost or buy otherwise (keep a focus point for the damage roll that
cripples an arm before the enemy's turn ...). This module finds that play exactly, to
measure what the activation's view costs: a two-player game in which every boost and every
bought attack of a side's model is chosen to maximise that side's objective over the whole
trade, the other side's to minimise it. The objective is the trade's, lexicographic: the
chance that the first side wins (the other side is out by the end) minus the chance that it
loses, then the expected damage it deals minus the damage it takes (a destroyed model counts
as every box). A side not optimised plays its activation tables (or its fixed policy), as
:func:`mathhammer.exact.trade.exact_trade` plays it.

The state between two attacks is every model's ``(damage marked, knocked down, continuous
effects)`` (or destroyed), the acting model's points left and whether its charge is still to
come; its value is memoised, and each decision compares the values of the states its
options lead to (:func:`mathhammer.exact.trade.attack_from` builds them). Single models on
damage tracks, as the exact trade engine; small trades only (its work grows with every
model's boxes).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..play.trades import ActivationPlay
from ..rules.trade import Trade
from .trade import (DEAD, attack_from, check_trade_exact, decider, maintenance, over, slots_of, stand_up,
                    standing, start_state, target_of)

__all__ = ["TradeValue", "optimal_trade", "TIE"]

#: Two objective values closer than this are equal (then the next figure of the chain decides,
#: and on a full tie the first option listed: buying, or no boost).
TIE = 1e-12


@dataclass(frozen=True)
class TradeValue:
    """A trade's outcome under some play, from the first side's view.

    Attributes
    ----------
    win, lose : float
        P(the first side wins the trade: the other side is out by its end), P(it loses).
    margin : float
        Expected damage the first side deals minus the damage it takes (every box of a
        destroyed model).
    """

    win: float
    lose: float
    margin: float


def optimal_trade(trade: Trade, optimise: tuple[bool, bool] = (True, True)) -> TradeValue:
    """``trade``'s outcome when each side marked in ``optimise`` plays to the trade's
    objective over the whole trade (the other plays its activation tables or fixed policy).

    Parameters
    ----------
    trade : Trade
        Single models on damage tracks (:func:`~mathhammer.exact.trade.check_trade_exact`).
    optimise : (bool, bool)
        Per side, in the order of ``trade.sides``: whether it plays trade-optimally.

    Examples
    --------
    >>> from mathhammer.rules import Attacker, Target, Weapon
    >>> from mathhammer.rules.trade import Side, TradeModel
    >>> fist = Weapon("Fist", "melee", 6, 12)
    >>> a = TradeModel(Attacker("A", [fist], focus=1), Target(12, 15, boxes=4), ["B"])
    >>> b = TradeModel(Attacker("B", [fist], focus=1), Target(12, 15, boxes=4), ["A"])
    >>> trade = Trade([Side("Red", [a]), Side("Blue", [b])], rounds=2)
    >>> tables = optimal_trade(trade, (False, False))   # both sides play their tables
    >>> bool(optimal_trade(trade, (True, False)).win >= tables.win - 1e-12)
    True
    """
    check_trade_exact(trade)
    return _Solver(trade, tuple(bool(o) for o in optimise)).value(0, start_state(trade))


class _Solver:
    """The memoised values of a trade's states (vectors ``[objective, margin, win, lose]``)."""

    def __init__(self, trade: Trade, optimise: tuple[bool, bool]):
        self.trade = trade
        self.models = trade.models
        self.index = {m.name: i for i, m in enumerate(self.models)}
        self.side_of = [trade.side_of(m.name) for m in self.models]
        self.play = ActivationPlay(trade.settings, trade.play)
        self.optimise = optimise
        # the trade's steps: each side's maintenance phase, then each of its models' activations
        self.plan = []
        for r in range(1, trade.rounds + 1):
            for side in trade.order:
                own = [self.index[m.name] for m in side.models]
                self.plan.append(("maintenance", own, r))
                self.plan += [("activation", x, r) for x in own]
        self._values: dict = {}
        self._attacks: dict = {}

    def value(self, k: int, state) -> TradeValue:
        v = self._value(k, state)
        return TradeValue(win=float(v[2]), lose=float(v[3]), margin=float(v[1]))

    def _end(self, state) -> np.ndarray:
        win = all(state[i] is DEAD for i, s in enumerate(self.side_of) if s == 1)
        lose = all(state[i] is DEAD for i, s in enumerate(self.side_of) if s == 0)
        damage = [m.target.boxes if state[i] is DEAD else state[i][0] for i, m in enumerate(self.models)]
        margin = sum(d for d, s in zip(damage, self.side_of) if s == 1) - sum(
            d for d, s in zip(damage, self.side_of) if s == 0)
        return np.array([float(win) - float(lose), margin, float(win), float(lose)])

    def _value(self, k: int, state) -> np.ndarray:
        """The value of ``state`` before step ``k`` of the plan."""
        if k == len(self.plan) or over(state, self.side_of):
            return self._end(state)
        key = (k, state)
        out = self._values.get(key)
        if out is None:
            kind, who, r = self.plan[k]
            if kind == "maintenance":
                out = sum(p * self._value(k + 1, st) for st, p in maintenance(self.models, who, self.side_of,
                                                                                {state: 1.0}).items())
            elif state[who] is DEAD:
                out = self._value(k + 1, state)
            else:
                state, attacker = stand_up(self.models[who], who, r, state)
                out = self._attack(k, state, attacker, 0, attacker.points, attacker.charge)
            self._values[key] = out
        return out

    def _attack(self, k: int, state, attacker, row: int, points: int, charge_left: bool) -> np.ndarray:
        """The value of ``state`` before attack ``row`` of the activation of step ``k``."""
        x = self.plan[k][1]
        m = self.models[x]
        slots = slots_of(attacker)
        y = target_of(self.models, self.index, m, state)
        if row == len(slots) or y is None or (slots[row][1] and points < 1):
            return self._value(k + 1, state)
        key = (k, state, attacker, row, points, charge_left)
        out = self._attacks.get(key)
        if out is None:
            w, bought = slots[row]
            charge = charge_left and w.type == "melee"
            left = charge_left and not charge

            def after(dist):
                return sum(p * self._attack(k, st, attacker, row + 1, pts, left) for (st, pts), p in dist.items())

            if self.optimise[self.side_of[x]]:
                choose = _Best(after, 1.0 if self.side_of[x] == 0 else -1.0)
            else:
                choose = decider(self.play, attacker, standing(self.models, self.index, m, state), state[y],
                                 points, row)
            out = after(attack_from(self.trade, attacker, w, self.models[y], y, state, points, charge, bought,
                                    choose))
            self._attacks[key] = out
        return out


class _Best:
    """A ``choose`` (:class:`~mathhammer.exact.trade.Decider`) that picks the option whose
    continuation is best for the side deciding (``sign`` 1: the first side, maximising; -1:
    the other, minimising), lexicographically on ``[objective, margin]``."""

    def __init__(self, after, sign: float):
        self.after, self.sign = after, sign

    def __call__(self, kind, allowed: bool, default: bool, make):
        options = [True, False] if kind == "buy" else [False, True] if allowed else [False]
        best, best_v = None, None
        for choice in options:
            dist = make(choice)
            v = self.sign * self.after(dist)[:2]
            if best_v is None or _better(v, best_v):
                best, best_v = dist, v
        return best


def _better(v: np.ndarray, than: np.ndarray) -> bool:
    """``v`` lexicographically above ``than`` (differences within :data:`TIE` are ties)."""
    for a, b in zip(v, than):
        if a > b + TIE:
            return True
        if a < b - TIE:
            return False
    return False
