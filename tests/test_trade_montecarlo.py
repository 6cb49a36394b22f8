"""The Monte Carlo trade (mathhammer.montecarlo.trades) against the exact trade engine, on
chosen dice through the kernel, and the same counts on any number of threads."""

from __future__ import annotations

import math
import random

import numba
import numpy as np
import pytest

from mathhammer._core.pairs import pair_entry
from mathhammer.errors import InputError
from mathhammer.exact.trade import exact_trade
from mathhammer.montecarlo.trades import trade_figures, trade_monte_carlo
from mathhammer.rules import Attacker, Spend, Target, Weapon
from mathhammer.rules.trade import Side, Trade, TradeModel
from trade_cases import figures_agree, random_trade, scripted, within

TRIALS = 20_000


def test_monte_carlo_trades_agree_with_exact_within_5_standard_errors():
    """Every figure after every turn: P(a side out), P(a model destroyed), its expected
    damage (standard error at most boxes / 2 / sqrt(n): the damage lies in [0, boxes]) and
    P(each threshold crippled), on 30 random trades the exact engine solves."""
    rng = random.Random(4848)
    for case in range(30):
        trade = random_trade(rng)
        figures_agree(trade, exact_trade(trade), trade_figures(trade, trade_monte_carlo(trade, TRIALS, seed=case)),
                      TRIALS, case)


# ------------------------------------------------------------------ chosen dice
def _jack(name, enemy, *, skill=6, pow_=14, focus=0, spend=None, cripple_at=None, charge=False):
    fist = Weapon("Fist", "melee", skill, pow_, location="L")
    spend = spend or Spend(boost_attack="never", boost_damage="never", buy_attacks=False)
    return TradeModel(Attacker(name, [fist], focus=focus, spend=spend, charge=charge),
                      Target(10, 10, boxes=20), [enemy], cripple_at or {})


def test_a_crippled_arm_loses_its_die_in_the_next_activation():
    """Crippled weapon system (docs/rules.md 3, docs/trades.md): Blue's fist deals Red 9
    damage, crippling Red's left arm (cripple_at L = 1); Red's left fist then rolls one die to
    hit (4 + MAT 6 = 10 hits DEF 10) and one damage die (5 + POW 14 - ARM 10 = 9), not 5 + 6."""
    red, blue = _jack("Red", "Blue", cripple_at={"L": 1}), _jack("Blue", "Red")
    trade = Trade([Side("Red", [red]), Side("Blue", [blue])], first="Blue")
    script = [pair_entry(3, 4), pair_entry(2, 3),   # Blue: 7 + 6 hits; 5 + 14 - 10 = 9
              pair_entry(4, 1), pair_entry(5, 6)]   # Red, one die each: 4, then 5
    read, c = scripted(trade, script)
    assert read == 4
    assert c.damage[0].tolist() == [9, 0]           # after Blue's turn: 9 on Red
    assert c.crippled[0, 0, 6] == 1                 # Red's L (the grid alphabet's bit 6)
    assert c.damage[1].tolist() == [9, 9]           # Red's one die: 5 + 14 - 10
    whole = Trade([Side("Red", [_jack("Red", "Blue", cripple_at={"L": 20})]), Side("Blue", [blue])],
                  first="Blue")
    read, c = scripted(whole, script)              # not crippled: two dice, 5 + 6 + 4 = 15
    assert read == 4 and c.damage[1].tolist() == [9, 15]


def test_a_crippled_arm_on_a_grid_loses_its_die_in_the_next_activation():
    """The same on a damage grid (docs/rules.md 3): Blue's 2 damage go to column 1 (the
    column d6 shows 1), Red's two L boxes there: its left arm is crippled, and its fist rolls
    one die to hit and one to damage (4 + 6 hits; 5 + 14 - 10 = 9). The column d6 showing 3
    marks the hull of column 3 instead, and the fist rolls two dice (5 + 6 + 4 = 15)."""
    grid = ("LL", "RR", "..", "..", "..", "..")
    red = TradeModel(Attacker("Red", [Weapon("Fist", "melee", 6, 14, location="L")],
                              spend=Spend(boost_attack="never", boost_damage="never", buy_attacks=False)),
                     Target(10, 10, grid=grid), ["Blue"])
    blue = _jack("Blue", "Red", pow_=8)
    trade = Trade([Side("Red", [red]), Side("Blue", [blue])], first="Blue")
    hit_for_two = [pair_entry(3, 4), pair_entry(1, 3)]  # 7 + 6 hits; 1 + 3 + 8 - 10 = 2
    read, c = scripted(trade, hit_for_two + [pair_entry(1, 6), pair_entry(4, 1), pair_entry(5, 6)])
    assert read == 5 and c.damage[0, 0] == 2 and c.crippled[0, 0, 6] == 1
    assert c.damage[1, 1] == 9
    read, c = scripted(trade, hit_for_two + [pair_entry(3, 6), pair_entry(4, 1), pair_entry(5, 6)])
    assert read == 5 and c.damage[0, 0] == 2 and c.crippled[0, 0, 6] == 0
    assert c.damage[1, 1] == 15


def test_a_crippled_cortex_spends_nothing():
    """Crippled Cortex (docs/rules.md 3): Red always boosts with its 2 focus, but once Blue's
    hit cripples its Cortex (cripple_at C = 1) it has none: two attack dice (one entry), two
    damage dice (one entry); uncrippled, three of each (two entries each)."""
    always = Spend(boost_attack="always", boost_damage="always", buy_attacks=False)
    blue = _jack("Blue", "Red")
    script = [pair_entry(3, 4), pair_entry(2, 3),                      # Blue: 9 on Red
              pair_entry(4, 5), pair_entry(1, 2), pair_entry(5, 6), pair_entry(1, 2)]
    crippled = Trade([Side("Red", [_jack("Red", "Blue", focus=2, spend=always, cripple_at={"C": 1})]),
                      Side("Blue", [blue])], first="Blue")
    read, c = scripted(crippled, script)
    assert read == 4                                # 2 entries Blue's, 2 Red's: no boost
    assert c.damage[1, 1] == 1 + 2 + 14 - 10        # Red's damage: the second entry's 1 + 2
    whole = Trade([Side("Red", [_jack("Red", "Blue", focus=2, spend=always, cripple_at={"C": 20})]),
                   Side("Blue", [blue])], first="Blue")
    read, c = scripted(whole, script)
    assert read == 6                                # boosted: 3 dice each, two entries each
    assert c.damage[1, 1] == 5 + 6 + 1 + 14 - 10    # 4 + 5 + 1 hit; 5 + 6 + 1 damage


def test_a_knocked_down_model_stands_up_and_makes_no_charge():
    """Knockdown (docs/trades.md): Blue's critical knockdown fells Red; in Red's activation
    it stands up (forfeiting its movement, so no charge: its damage roll is not boosted)."""
    kd = Weapon("Fist", "melee", 6, 14, location="L", rules=frozenset({"critical_knockdown"}))
    never = Spend(boost_attack="never", boost_damage="never", buy_attacks=False)
    blue = TradeModel(Attacker("Blue", [kd], spend=never), Target(10, 10, boxes=20), ["Red"])
    red = _jack("Red", "Blue", charge=True)
    trade = Trade([Side("Red", [red]), Side("Blue", [blue])], first="Blue")
    script = [pair_entry(4, 4), pair_entry(1, 1),   # Blue: a critical hit (a double); 2 + 14 - 10
              pair_entry(3, 4), pair_entry(2, 3)]   # Red: hits; two damage dice, not three
    read, c = scripted(trade, script)
    assert read == 4 and c.damage[0, 0] == 6 and c.damage[1, 1] == 5 + 14 - 10
    standing = Trade([Side("Red", [red]), Side("Blue", [blue])], first="Red")
    read, c = scripted(standing, [pair_entry(3, 4), pair_entry(2, 3), pair_entry(6, 1)])
    assert read == 5 and c.damage[0, 1] == 2 + 3 + 6 + 14 - 10  # charging: three damage dice (Blue then reads 2)


def test_fire_from_a_hit_burns_in_the_next_maintenance_phase():
    """Continuous effects (docs/rules.md 4, docs/trades.md): Red's fire fist hits Blue (7 + 6
    against DEF 10; 5 + 14 - 10 = 9) and sets it on fire; at the start of Blue's turn the fire
    stays on a d6 of 3+ (a 4) and deals a POW 12 roll (1 + 2 + 12 - ARM 10 = 5): 14 on Blue
    before it attacks (double ones: a miss). On a d6 of 1-2 (a 2) it goes out: 9."""
    never = Spend(boost_attack="never", boost_damage="never", buy_attacks=False)
    fire = Weapon("Fist", "melee", 6, 14, rules=frozenset({"fire"}))
    red = TradeModel(Attacker("Red", [fire], spend=never), Target(10, 10, boxes=20), ["Blue"])
    blue = _jack("Blue", "Red")
    trade = Trade([Side("Red", [red]), Side("Blue", [blue])], first="Red")
    hit = [pair_entry(3, 4), pair_entry(2, 3)]
    miss = [pair_entry(1, 1), pair_entry(1, 1)]
    read, c = scripted(trade, hit + [pair_entry(4, 6), pair_entry(1, 2)] + miss)
    assert read == 6 and c.damage[0, 1] == 9 and c.damage[1, 1] == 14
    read, c = scripted(trade, hit + [pair_entry(2, 6)] + miss)
    assert read == 5 and c.damage[1, 1] == 9


def test_crippled_movement_gives_base_def_5_and_stops_the_charge():
    """Crippled Movement (docs/rules.md 3): Blue's 9 damage cripples Red's Movement (cripple_at
    M = 1): Red cannot charge (two damage dice: 2 + 3 + 14 - 10 = 9), and next round Blue's
    roll of 3 + MAT 6 = 9 hits Red's base DEF 5 (DEF 10 otherwise): 9 + (1 + 1 + 14 - 10)."""
    red = _jack("Red", "Blue", cripple_at={"M": 1}, charge=True)
    trade = Trade([Side("Red", [red]), Side("Blue", [_jack("Blue", "Red")])], first="Blue", rounds=2)
    ones = [pair_entry(1, 1), pair_entry(1, 1)]
    script = [pair_entry(3, 4), pair_entry(2, 3),          # round 1, Blue: 9 on Red
              pair_entry(3, 4), pair_entry(2, 3),          # Red, no charge: 9 on Blue
              pair_entry(1, 2), pair_entry(1, 1)] + ones   # round 2: Blue hits DEF 5; Red misses
    read, c = scripted(trade, script)
    assert read == 8 and c.crippled[0, 0, 4] == 1          # M: the grid alphabet's bit 4
    assert c.damage[1].tolist() == [9, 9] and c.damage[2, 0] == 9 + 6


def test_a_charge_boosts_only_the_first_activation():
    """Charge (docs/rules.md 9, docs/trades.md): Red's first attack of round 1 rolls three
    damage dice (2 + 3 + 1 + 14 - 10 = 10), its attack of round 2 two (5 + 14 - 10 = 9)."""
    red = _jack("Red", "Blue", charge=True)
    trade = Trade([Side("Red", [red]), Side("Blue", [_jack("Blue", "Red")])], first="Red", rounds=2)
    ones = [pair_entry(1, 1), pair_entry(1, 1)]
    script = ([pair_entry(3, 4), pair_entry(2, 3), pair_entry(1, 6)] + ones
              + [pair_entry(3, 4), pair_entry(2, 3)] + ones)
    read, c = scripted(trade, script)
    assert read == 9 and c.damage[0, 1] == 10 and c.damage[2, 1] == 10 + 9


def test_corrosion_deals_one_point_in_the_maintenance_phase():
    """Corrosion (docs/rules.md 4): Red's corrosive fist leaves Blue corroded; at the start of
    Blue's turn a d6 of 3+ (a 5) deals 1 damage point: 9 + 1."""
    never = Spend(boost_attack="never", boost_damage="never", buy_attacks=False)
    acid = Weapon("Fist", "melee", 6, 14, rules=frozenset({"corrosion"}))
    red = TradeModel(Attacker("Red", [acid], spend=never), Target(10, 10, boxes=20), ["Blue"])
    trade = Trade([Side("Red", [red]), Side("Blue", [_jack("Blue", "Red")])], first="Red")
    read, c = scripted(trade, [pair_entry(3, 4), pair_entry(2, 3), pair_entry(5, 6),
                                pair_entry(1, 1), pair_entry(1, 1)])
    assert read == 5 and c.damage[0, 1] == 9 and c.damage[1, 1] == 10


# ------------------------------------------------------------------ threads
def test_the_same_seed_gives_the_same_counts_on_one_thread_and_on_two():
    rng = random.Random(7)
    trade = random_trade(rng)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = trade_monte_carlo(trade, 9_000, seed=3, chunk=1_000)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = trade_monte_carlo(trade, 9_000, seed=3, chunk=1_000)
    finally:
        numba.set_num_threads(before)
    for a, b in zip((one.side_out, one.destroyed, one.damage, one.crippled),
                    (two.side_out, two.destroyed, two.damage, two.crippled)):
        assert np.array_equal(a, b)


def test_what_the_monte_carlo_trade_does_not_cover_is_one_line():
    fist = Weapon("Fist", "melee", 6, 14)
    a = TradeModel(Attacker("A", [fist], focus=1, policy="optimize"), Target(10, 10, boxes=5), ["B"])
    b = TradeModel(Attacker("B", [fist], spend=Spend()), Target(10, 10, boxes=5), ["A"])
    with pytest.raises(InputError, match=r"^sides\[0\]\.models\[0\]\.attacker\.policy: .*best or a fixed"):
        trade_monte_carlo(Trade([Side("Red", [a]), Side("Blue", [b])]), 100, seed=1)


# ------------------------------------------------------------------ units
def _first_turn_agrees(trade, target_name, scenario):
    """After the first side's turn, the figures on ``target_name`` equal (within 5 standard
    errors) those of the exact engine on ``scenario``: the same attacks against the same unit
    or model, worked out independently (mathhammer.exact)."""
    import mathhammer as mh

    exact = mh.simulate(scenario, method="exact")
    n = 40_000
    res = mh.simulate_trade(trade, trials=n, seed=11)
    f, x = res.figures, res.models.index(target_name)
    size, boxes = scenario.target.models, scenario.target.boxes
    within(f.model_destroyed[0, x], exact.kill, math.sqrt(exact.kill * (1 - exact.kill) / n), "all destroyed")
    within(f.damage[0, x], exact.damage_mean, size * boxes / 2 / math.sqrt(n), "damage")
    within(f.lost[0, x], exact.models_destroyed_mean, size / 2 / math.sqrt(n), "models lost")


def test_a_unit_as_the_target_agrees_with_the_exact_engine():
    """Units (docs/units.md): a heavy warjack's fists and bought attacks spill over three
    Tough three-box troopers, each with its own damage, Tough roll and knockdown."""
    import mathhammer as mh

    fist = Weapon("Fist", "melee", 7, 14, attacks=2, rules=frozenset({"critical_knockdown"}))
    jack = Attacker("Jack", [fist], focus=2, spend=Spend(boost_attack="auto", boost_damage="auto"))
    troop = Target(12, 13, boxes=3, models=3, rules=frozenset({"tough"}))
    spear = Weapon("Spear", "melee", 6, 10)
    unit = TradeModel(Attacker("Troop", [spear], models=3), dataclasses_replace(troop, name="Troop"), ["Jack"])
    trade = Trade([Side("Red", [TradeModel(jack, Target(12, 18, boxes=20), ["Troop"])]), Side("Blue", [unit])])
    _first_turn_agrees(trade, "Troop", mh.Scenario(dataclasses_replace(troop, name="Troop"), [jack]))


def test_a_unit_attacking_agrees_with_the_exact_engine():
    """A unit attacks with each of its models in turn, each with its own attacks."""
    import mathhammer as mh

    spear = Weapon("Spear", "melee", 6, 12)
    target = Target(12, 14, boxes=10, rules=frozenset({"tough"}), name="Jack")
    troop = Attacker("Troop", [spear], models=6)
    trade = Trade([Side("Red", [TradeModel(troop, Target(12, 13, boxes=1, models=6), ["Jack"])]),
                   Side("Blue", [TradeModel(Attacker("Jack", [spear]), target, ["Troop"])])])
    _first_turn_agrees(trade, "Jack", mh.Scenario(target, [troop]))


def dataclasses_replace(obj, **kw):
    import dataclasses

    return dataclasses.replace(obj, **kw)
