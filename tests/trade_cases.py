"""Random small trades, and the checks the exact trade engine's and the Monte Carlo trade's
tests share: the figures within 5 standard errors, one trial on chosen dice."""

from __future__ import annotations

import math
import random

import numpy as np

from mathhammer._core.rng import FILL_SLACK
from mathhammer.montecarlo._kernels import layout as L
from mathhammer.montecarlo._kernels.trade_data import TradeCounters, new_state
from mathhammer.montecarlo._kernels.trade_trials import trade_trials
from mathhammer.montecarlo.trades import encode_trade, lasts
from mathhammer.rules import Attacker, Spend, Target, Weapon
from mathhammer.rules.trade import Side, Trade, TradeModel

__all__ = ["random_trade", "se", "within", "figures_agree", "scripted"]


def random_trade(rng: random.Random, best: float = 0.0) -> Trade:
    """A small random trade: one or two models a side on short damage tracks; each model
    plays best (its activation's tables) with chance ``best``, else a random fixed policy."""
    def weapon(k, ranged):
        return Weapon(f"W{k}", "ranged" if ranged else "melee", rng.randint(3, 8), rng.randint(8, 14),
                      attacks=rng.randint(1, 2), boosted_attack=rng.random() < 0.15,
                      boosted_damage=rng.random() < 0.15, location=rng.choice([None, "L", "R"]),
                      rules=frozenset(rng.sample(["knockdown", "critical_knockdown"], rng.randint(0, 1))
                                      + rng.sample(["fire", "corrosion", "critical_fire", "critical_corrosion"],
                                                   int(rng.random() < 0.25))))

    def model(name, enemies):
        boxes = rng.randint(1, 7)
        ranged = rng.random() < 0.2
        weapons = [weapon(k, ranged) for k in range(rng.randint(1, 2))]
        spend = Spend(boost_attack=rng.choice(["never", "always", "auto"]), boost_attack_at=rng.randint(5, 9),
                      boost_damage=rng.choice(["never", "always", "auto"]), buy_attacks=rng.random() < 0.6,
                      reserve=rng.randint(0, 1))
        rules = set(rng.sample(["tough", "unyielding", "carapace"], rng.randint(0, 2)))
        if "tough" in rules and rng.random() < 0.3:
            rules = (rules - {"tough"}) | {"tough_steady"}
        letters = rng.sample(["L", "R", "M", "C"], rng.randint(0, 3))
        target = Target(rng.randint(8, 14), rng.randint(10, 16), boxes=boxes, rules=frozenset(rules),
                        tough_on=rng.randint(4, 6) if rules & {"tough", "tough_steady"} else 5, shield=tuple(rng.sample(["L", "R"], rng.randint(0, 1))),
                        state=frozenset({"knocked_down"}) if rng.random() < 0.1 else frozenset(),
                        effects=frozenset(rng.sample(["fire", "corrosion"], int(rng.random() < 0.15))))
        plays_best = best > 0 and rng.random() < best
        attacker = Attacker(name, weapons, focus=rng.randint(0, 2), spend=None if plays_best else spend,
                            charge=not ranged and rng.random() < 0.3, cavalry=rng.random() < 0.3)
        return TradeModel(attacker, target, enemies, {x: rng.randint(1, boxes) for x in letters})

    n_a, n_b = (1, 1) if rng.random() < 0.7 else rng.choice([(1, 2), (2, 1)])
    a_names, b_names = [f"A{i}" for i in range(n_a)], [f"B{i}" for i in range(n_b)]
    sides = [Side("Red", [model(n, rng.sample(b_names, len(b_names))) for n in a_names]),
             Side("Blue", [model(n, rng.sample(a_names, len(a_names))) for n in b_names])]
    return Trade(sides, first=rng.choice(["Red", "Blue"]), rounds=rng.randint(1, 2),
                 knockdown_before_tough=rng.random() < 0.2)


def se(p, n):
    """The standard error of a proportion ``p`` over ``n`` trials (exact sums can stray past 1
    by an ulp)."""
    return math.sqrt(max(0.0, p * (1 - p)) / n)


def within(mc, exact, bound, what):
    """``mc`` within 5 standard errors of ``exact`` (``bound``: the standard error)."""
    assert abs(mc - exact) <= 5 * bound + 1e-12, f"{what}: {mc} against exact {exact} (5 se {5 * bound:.4g})"


def figures_agree(trade, exact, mc, n, case):
    """Every figure after every turn of the Monte Carlo trade ``mc`` (``n`` trials) within 5
    standard errors of ``exact``: P(a side out), P(a model destroyed), its expected damage
    (standard error at most boxes / 2 / sqrt(n): the damage lies in [0, boxes]) and its
    variance (at most boxes^2 / 2 / sqrt(n)), P(each threshold crippled)."""
    for k in range(len(exact.turns)):
        for s in range(2):
            p = exact.destroyed[k, s]
            within(mc.destroyed[k, s], p, se(p, n), f"{case} turn {k} side {s} out")
        for x, m in enumerate(trade.models):
            p = exact.model_destroyed[k, x]
            within(mc.model_destroyed[k, x], p, se(p, n), f"{case} {m.name} destroyed")
            boxes = m.target.boxes
            within(mc.damage[k, x], exact.damage[k, x], boxes / 2 / math.sqrt(n), f"{case} {m.name} damage")
            within(mc.damage_sd[k, x] ** 2, exact.damage_sd[k, x] ** 2, boxes ** 2 / 2 / math.sqrt(n),
                   f"{case} {m.name} damage variance")
    for key, p in exact.crippled.items():
        for k in range(len(exact.turns)):
            within(mc.crippled[key][k], p[k], se(p[k], n), f"{case} {key} crippled")


def scripted(trade, entries):
    """One trial of ``trade`` on the dice ``entries`` (pair entries, in the order read);
    returns ``(entries read, counters)``."""
    tables, draws = encode_trade(trade)
    size = max(draws, len(entries)) + 8
    dice = np.zeros(size + FILL_SLACK, dtype=np.uint8)
    dice[: len(entries)] = entries
    n, turns = len(trade.models), 2 * trade.rounds
    counters = TradeCounters(np.zeros((turns, 2), np.int64), np.zeros((turns, n), np.int64),
                             np.zeros((turns, n), np.int64), np.zeros((turns, n), np.int64),
                             np.zeros((turns, n), np.int64),
                             np.zeros((turns, n, L.MAX_LETTERS), np.int64),
                             np.zeros((tables.rows.shape[0], L.C_NFIELDS), np.int64))
    pos = trade_trials(np.int64(1), np.zeros(4, np.uint64), dice, np.int64(0), np.int64(size),
                       np.int64(draws), tables, counters, new_state(tables), True if lasts(trade) else None)
    return int(pos), counters
