"""Random small trades, for the exact trade engine's and the Monte Carlo trade's tests."""

from __future__ import annotations

import random

from mathhammer.rules import Attacker, Spend, Target, Weapon
from mathhammer.rules.trade import Side, Trade, TradeModel

__all__ = ["random_trade"]


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
                            charge=not ranged and rng.random() < 0.3)
        return TradeModel(attacker, target, enemies, {x: rng.randint(1, boxes) for x in letters})

    n_a, n_b = (1, 1) if rng.random() < 0.7 else rng.choice([(1, 2), (2, 1)])
    a_names, b_names = [f"A{i}" for i in range(n_a)], [f"B{i}" for i in range(n_b)]
    sides = [Side("Red", [model(n, rng.sample(b_names, len(b_names))) for n in a_names]),
             Side("Blue", [model(n, rng.sample(a_names, len(a_names))) for n in b_names])]
    return Trade(sides, first=rng.choice(["Red", "Blue"]), rounds=rng.randint(1, 2),
                 knockdown_before_tough=rng.random() < 0.2)
