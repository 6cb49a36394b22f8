"""Best play in trades (docs/trades.md, "Best play"): each activation's decision tables read by
the Monte Carlo kernel and the exact engine alike, and trade-optimal play solved exactly to
measure what the activation's view costs."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from mathhammer._core.pairs import pair_entry
from mathhammer.errors import InputError
from mathhammer.exact.trade import exact_trade
from mathhammer.exact.trade_optimal import optimal_trade
from mathhammer.montecarlo._kernels import layout as L
from mathhammer.montecarlo.trades import trade_figures, trade_monte_carlo
from mathhammer.play import codes as K
from mathhammer.play.trades import ActivationPlay, table_decision
from mathhammer.rules import Attacker, Spend, Target, Weapon
from mathhammer.rules.trade import Side, Trade, TradeModel
from trade_cases import figures_agree, random_trade, scripted

TRIALS = 20_000


def test_monte_carlo_trades_with_best_play_agree_with_exact_within_5_standard_errors():
    """Models that play best (most of them) read their activation's table in the kernel as
    in the exact engine: every figure after every turn on 20 random trades."""
    rng = random.Random(4949)
    for case in range(20):
        trade = random_trade(rng, best=0.8)
        figures_agree(trade, exact_trade(trade), trade_figures(trade, trade_monte_carlo(trade, TRIALS, seed=100 + case)),
                      TRIALS, case)


def test_best_play_changes_what_a_trade_spends():
    """The tables decide: on random trades best play's figures differ from the
    default fixed policy's (the same models, ``spend`` given as its defaults) somewhere."""
    rng = random.Random(5050)
    differ = 0
    for _ in range(10):
        trade = random_trade(rng, best=1.0)
        fixed = Trade([Side(s.name, [TradeModel(_fixed(m.attacker), m.target, m.attacks, m.cripple_at)
                                     for m in s.models]) for s in trade.sides],
                      first=trade.first, rounds=trade.rounds, knockdown_before_tough=trade.knockdown_before_tough)
        differ += not np.allclose(exact_trade(trade).damage, exact_trade(fixed).damage, atol=1e-9)
    assert differ >= 3


def _fixed(a: Attacker) -> Attacker:
    return Attacker(a.name, list(a.weapons), focus=a.focus, spend=Spend(), charge=a.charge)


def test_the_optimal_solver_playing_the_tables_is_the_exact_engine():
    """Trade-optimal backward induction with neither side optimising plays each activation's
    tables: its win, loss and damage margin equal the exact engine's forward pass to 1e-12
    (two independent walks of the same game)."""
    rng = random.Random(5151)
    for case in range(25):
        trade = random_trade(rng, best=0.8)
        forward = exact_trade(trade)
        v = optimal_trade(trade, (False, False))
        assert v.win == pytest.approx(forward.destroyed[-1, 1], abs=1e-12), case
        assert v.lose == pytest.approx(forward.destroyed[-1, 0], abs=1e-12), case
        side = np.array([trade.side_of(m.name) for m in trade.models])
        margin = forward.damage[-1, side == 1].sum() - forward.damage[-1, side == 0].sum()
        assert v.margin == pytest.approx(margin, abs=1e-9), case


def test_a_side_playing_trade_optimally_does_no_worse():
    """The side that looks ahead over the whole trade chooses among the tables' options too:
    its objective (win minus loss, then the damage margin) is never below the tables' play,
    and with both optimising each side does no better than its best answer to the tables."""
    rng = random.Random(5252)
    for case in range(15):
        trade = random_trade(rng, best=1.0)
        tables = optimal_trade(trade, (False, False))
        first = optimal_trade(trade, (True, False))
        second = optimal_trade(trade, (False, True))
        assert first.win - first.lose >= tables.win - tables.lose - 1e-12, case
        assert second.win - second.lose <= tables.win - tables.lose + 1e-12, case


def _at_least(dice: int, need: int) -> float:
    """P(the sum of ``dice`` d6 is at least ``need``), every face enumerated."""
    rolls = list(itertools.product(range(1, 7), repeat=dice))
    return sum(sum(r) >= need for r in rolls) / len(rolls)


def test_trade_optimal_play_on_a_worked_example():
    """One round, Red first: Red's fist (MAT 7) needs 5 on the dice to hit Blue's DEF 12, and
    any hit destroys Blue (one box, POW 12 against ARM 10). With its focus point Red may boost
    the attack roll (a hit on three dice: 1 - 4/216) or buy a second attack (1 - (6/36)^2);
    playing for the trade it takes the better. Blue, if it stands, cannot destroy Red (its
    claw deals no damage), so Red wins exactly with that chance, and never loses."""
    fist = Weapon("Fist", "melee", 7, 12)
    red = TradeModel(Attacker("Red", [fist], focus=1), Target(12, 18, boxes=10), ["Blue"])
    blue = TradeModel(Attacker("Blue", [Weapon("Claw", "melee", 5, 1)]), Target(12, 10, boxes=1), ["Red"])
    trade = Trade([Side("Red", [red]), Side("Blue", [blue])])
    boost, buy = _at_least(3, 5), 1 - (1 - _at_least(2, 5)) ** 2
    v = optimal_trade(trade)
    assert v.win == pytest.approx(max(boost, buy), abs=1e-12) and boost > buy
    assert v.lose == 0.0
    # the activation's tables (aiming at damage: here the kill) make the same choice
    assert optimal_trade(trade, (False, False)).win == pytest.approx(boost, abs=1e-12)


# ------------------------------------------------------------------ the tables
def test_the_tables_know_a_trade_s_cripple_thresholds():
    """Crippled Movement (docs/rules.md 3) at the trade's threshold: below it the target's
    DEF 14 needs 10 on two dice, and best play spends its focus point boosting the attack roll
    (3 dice hit 62.5 % of the time against 16.7 %); from it the target's base DEF is 5, every
    roll but double ones hits, and best play keeps the point to buy a second attack."""
    fist = Weapon("Fist", "melee", 4, 12)
    jack = Attacker("J", [fist], focus=1, model="warjack")
    enemy = TradeModel(Attacker("E", [fist], model="warjack"), Target(14, 12, boxes=30), ["J"], {"M": 10})
    table = ActivationPlay({}).table(jack, enemy)
    below = table_decision(table, 0, 1, 9, False, 0)
    above = table_decision(table, 0, 1, 10, False, 0)
    assert below & K.KNOWN_ATTACK and below & K.BOOST_ATTACK
    assert above & K.KNOWN_ATTACK and not above & (K.BOOST_ATTACK | K.BOOST_DAMAGE_HIT | K.BOOST_DAMAGE_CRIT)
    assert table_decision(table, 1, 1, 10, False, 0) & K.BUY


def test_a_knocked_down_target_is_in_the_tables():
    """An activation that finds its target knocked down (by the one before) reads a decision
    solved for it: the melee attack hits automatically, so no attack boost (standing, DEF 14
    against MAT 4, the boost)."""
    fist = Weapon("Fist", "melee", 4, 12, rules=frozenset({"knockdown"}))
    jack = Attacker("J", [fist], focus=1)
    enemy = TradeModel(Attacker("E", [fist]), Target(14, 12, boxes=30), ["J"])
    table = ActivationPlay({}).table(jack, enemy)
    standing = table_decision(table, 0, 1, 0, False, 0)
    down = table_decision(table, 0, 1, 0, True, 0)
    assert standing & K.KNOWN_ATTACK and standing & K.BOOST_ATTACK
    assert down != 0 and not down & K.BOOST_ATTACK


def test_best_play_boosts_the_attack_roll_that_only_needs_to_hit():
    """Best play on chosen dice through the kernel: Red1's hit leaves Blue one box (4 + 12 -
    12 = 4 of 5); Red2 (1 focus, best play) needs only a hit, any damage roll kills, so it
    boosts the attack roll (a hit on three dice, 98.1 %, beats two tries on two, 97.2 %): 1 +
    2 + 6 + MAT 7 = 16 hits DEF 12 where two dice (1 + 2 + 7 = 10) miss, and Blue is
    destroyed. The default fixed policy without buying boosts an attack roll from a need of
    8 (here 5): it misses."""
    fist = Weapon("Fist", "melee", 7, 12)
    never = Spend(boost_attack="never", boost_damage="never", buy_attacks=False)
    blue = TradeModel(Attacker("Blue", [Weapon("Claw", "melee", 0, 1)], spend=never),
                      Target(12, 12, boxes=5), ["Red1"])
    script = [pair_entry(3, 4), pair_entry(1, 3),   # Red1: 7 + 7 hits; 1 + 3 + 12 - 12 = 4
              pair_entry(1, 2), pair_entry(6, 1),   # Red2: 1 + 2 (+ 6 boosted)
              pair_entry(3, 3)]                     # Red2's damage: 6 + 12 - 12
    for spend, destroyed, boosts in ((None, 1, 1), (Spend(buy_attacks=False), 0, 0)):
        red1 = TradeModel(Attacker("Red1", [fist], spend=never), Target(12, 12, boxes=5), ["Blue"])
        red2 = TradeModel(Attacker("Red2", [fist], focus=1, spend=spend), Target(12, 12, boxes=5), ["Blue"])
        trade = Trade([Side("Red", [red1, red2]), Side("Blue", [blue])])
        _, c = scripted(trade, script)
        assert c.damage[0, 2] == (5 if destroyed else 4)
        assert c.destroyed[0, 2] == destroyed
        assert c.attack_counts[:, L.C_BOOST_ATT].sum() == boosts


# ------------------------------------------------------------------ the setting
def test_the_play_setting_is_checked_and_named():
    fist = Weapon("Fist", "melee", 6, 12)
    a = TradeModel(Attacker("A", [fist]), Target(12, 15, boxes=4), ["B"])
    b = TradeModel(Attacker("B", [fist]), Target(12, 15, boxes=4), ["A"])
    with pytest.raises(InputError, match=r"^trade\.play: must be one of .*\(got 'win'\)$"):
        Trade([Side("Red", [a]), Side("Blue", [b])], play="win")
