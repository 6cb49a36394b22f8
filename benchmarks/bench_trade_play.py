#!/usr/bin/env python
"""What best play's activation view costs in a trade, against trade-optimal play, exactly.

Run from the repository root::

    .venv/bin/python benchmarks/bench_trade_play.py            # the duels and 100 random trades
    .venv/bin/python benchmarks/bench_trade_play.py --quick    # the small duel and 20 random trades

Best play in a trade decides each activation by its own tables (docs/trades.md, "Best
play"); trade-optimal play (:func:`mathhammer.exact.trade_optimal.optimal_trade`) chooses
every boost and bought attack for the whole trade, each side for its own objective (win minus
loss, then the damage margin). On trades the exact engine solves (damage tracks with
``cripple_at`` thresholds), this prints the first side's win probability when both sides
play the tables aiming at damage (the default) and at the kill, and when both play
trade-optimally; then what each side gains by playing trade-optimally against the other's
tables (its best answer). Exact figures: no seed, no interval.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


def heavy(name: str, enemy: str, boxes: int, charge: bool = False, skill: int = 6, pow_: int = 17,
          defense: int = 12, arm: int = 18):
    """A heavy warjack on a damage track: two fists, 3 focus, its systems crippled at
    thresholds of its boxes."""
    from mathhammer.rules import Attacker, Target, Weapon
    from mathhammer.rules.trade import TradeModel

    fists = [Weapon("Left", "melee", skill, pow_, location="L"), Weapon("Right", "melee", skill, pow_, location="R")]
    return TradeModel(Attacker(name, fists, focus=3, charge=charge, model="warjack"),
                      Target(defense, arm, boxes=boxes), [enemy],
                      {"L": boxes * 2 // 3, "R": boxes * 3 // 4, "C": boxes * 5 // 6, "M": boxes // 2})


def duels(quick: bool) -> dict:
    from mathhammer.rules.trade import Side, Trade

    out = {"heavy duel, 14 boxes, 3 rounds": Trade(
        [Side("Red", [heavy("R", "B", 14, charge=True)]), Side("Blue", [heavy("B", "R", 14)])], rounds=3)}
    if not quick:
        out["heavy duel, 20 boxes, 2 rounds"] = Trade(
            [Side("Red", [heavy("R", "B", 20, charge=True)]), Side("Blue", [heavy("B", "R", 20)])], rounds=2)
        out["skilled light against heavy, 2 rounds"] = Trade(
            [Side("Red", [heavy("L", "H", 12, charge=True, skill=7, pow_=14, defense=13, arm=16)]),
             Side("Blue", [heavy("H", "L", 18)])], rounds=2)
    return out


def figures(trade):
    from mathhammer.exact.trade_optimal import optimal_trade

    damage = optimal_trade(trade, (False, False))
    kill = optimal_trade(dataclasses.replace(trade, play="kill"), (False, False))
    both = optimal_trade(trade)
    first = optimal_trade(trade, (True, False))
    second = optimal_trade(trade, (False, True))
    return damage, kill, both, first, second


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="the small duel and 20 random trades")
    args = p.parse_args(argv)
    from trade_cases import random_trade

    print(f"mathhammer best play in trades against trade-optimal play  {time.strftime('%Y-%m-%d')}  (exact)")
    print(f"  {'trade':<40} {'damage':>7} {'kill':>7} {'optimal':>8} {'gain 1st':>8} {'gain 2nd':>8}")
    for title, trade in duels(args.quick).items():
        began = time.perf_counter()
        damage, kill, both, first, second = figures(trade)
        print(f"  {title:<40} {damage.win:7.2%} {kill.win:7.2%} {both.win:8.2%} "
              f"{first.win - damage.win:+8.2%} {damage.win - second.win:+8.2%}  ({time.perf_counter() - began:.0f} s)")
    rng = random.Random(48)
    n = 20 if args.quick else 100
    gaps, gains = [], []
    for _ in range(n):
        trade = random_trade(rng, best=1.0)
        damage, _, both, first, second = figures(trade)
        gaps.append(abs(both.win - damage.win))
        gains.append(max(first.win - first.lose - (damage.win - damage.lose),
                         (damage.win - damage.lose) - (second.win - second.lose)))
    print(f"  {n} random small trades: |optimal - tables| win at most {max(gaps):.2%} (mean {sum(gaps) / n:.3%}); "
          f"a side's gain from trade-optimal play against the tables at most {max(gains):.2%} "
          f"(mean {sum(gains) / n:.3%}) of win minus loss")
    return 0


if __name__ == "__main__":
    sys.exit(main())
