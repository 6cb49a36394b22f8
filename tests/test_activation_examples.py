"""Worked examples, one (at least) per rule and policy of docs/activation.md.

Each test replays dice chosen by hand through one trial of the real Monte Carlo kernel
(tests/scripted.py) and checks the per-slot counters that matter for the rule; the figures are
worked out by hand in the comments. Rolls are listed in the order the kernel reads them: the
attack roll (none for an automatic hit), its reroll, the damage roll (weapons with a POW only;
on a miss it is drawn and dropped), its reroll, then a Tough d6 as a 1-tuple.

Names: ``test_<docs section>_<rule>``. The docs sections are "State carried" (pools),
"Order" (bought attacks, the end at a kill), "One attack, step by step" 1-6, and the
"Spending policy family".
"""

from __future__ import annotations

import pytest
from scripted import play

from mathhammer import Attacker, Scenario, Spend, Target, Weapon


def scen(target, *weapons, brutal_damage="critical", **attacker_kw):
    """One attacker ("A") with ``weapons`` against ``target``."""
    return Scenario(target, [Attacker("A", list(weapons), **attacker_kw)],
                    brutal_damage=brutal_damage)


def spend(attack="never", damage="never", buy=False, reserve=0, at=8):
    return Spend(boost_attack=attack, boost_attack_at=at, boost_damage=damage,
                 buy_attacks=buy, reserve=reserve)


def fist(skill=7, pow=12, **kw):
    return Weapon("Fist", "melee", skill, pow, **kw)


def probe(type_="melee", skill=6, **kw):
    """A weapon with POW "-": it rolls no damage, so only attack rolls are scripted."""
    return Weapon("Probe", type_, skill, None, **kw)


NO_SPEND = spend()
MISS_DMG = (1, 2)  # a damage roll whose figure does not matter for the test


# ============================================================================================
# State carried from attack to attack: the attacker's pool
# ============================================================================================
@pytest.mark.parametrize("kind", ["focus", "fury", "force"])
def test_pool_focus_fury_force_pays_boosts_until_empty(kind):
    """State: focus, fury and forcing are one pool of points per attacker; each paid boost
    costs 1 and the third attack, with the pool empty, is not boosted.
    MAT 7 vs DEF 12 (need 5), POW 12 vs ARM 14, 2 points, boost attacks always."""
    s = scen(Target(defense=12, arm=14, boxes=30), fist(attacks=3),
             spend=spend(attack="always"), **{kind: 2},
             model="warbeast" if kind == "force" else "warjack")  # only a warbeast is forced
    p = play(s, [(1, 2, 3), (2, 3),   # 6 + 7 = 13 hits; damage 5 + 12 - 14 = 3  (pool 2 -> 1)
                 (1, 2, 4), (3, 4),   # 7 + 7 = 14 hits; damage 7 + 12 - 14 = 5  (pool 1 -> 0)
                 (2, 4), (1, 2)])     # two dice: 6 + 7 = 13 hits; damage 3 + 12 - 14 = 1
    assert p.boost_attack == [1, 1, 0]
    assert p.spent == [1, 1, 0]
    assert p.hit == [1, 1, 1] and p.crit == [0, 0, 0]
    assert p.damage == [3, 5, 1] and p.marked == 9 and p.rolls_read == 6


def test_pool_resets_for_each_attacker():
    """State: each attacker starts with all of its own points. A (focus 1) boosts its first
    attack only; B (focus 1) boosts again with its own point."""
    always = spend(attack="always")
    s = Scenario(Target(defense=12, arm=30, boxes=30),
                 [Attacker("A", [fist(attacks=2)], focus=1, spend=always),
                  Attacker("B", [fist()], focus=1, spend=always)])
    p = play(s, [(1, 2, 3), MISS_DMG,  # A #1: boosted, 6 + 7 = 13 hits
                 (2, 4), MISS_DMG,     # A #2: pool empty, two dice
                 (1, 2, 3), MISS_DMG])  # B #1: B's own point, boosted
    assert p.boost_attack == [1, 0, 1] and p.spent == [1, 0, 1]
    assert p.hit == [1, 1, 1] and p.rolls_read == 6


def test_pool_unspent_points_are_lost_when_next_attacker_acts():
    """State: A keeps its 3 focus unspent (never boosts, buys nothing); B (focus 1) still has
    only 1: its second attack rolls two dice."""
    s = Scenario(Target(defense=12, arm=30, boxes=30),
                 [Attacker("A", [fist()], focus=3, spend=NO_SPEND),
                  Attacker("B", [fist(attacks=2)], focus=1, spend=spend(attack="always"))])
    p = play(s, [(2, 4), MISS_DMG,      # A: 2 dice, 13 hits
                 (1, 2, 3), MISS_DMG,   # B #1: boosted
                 (2, 4), MISS_DMG])     # B #2: A's 3 points did not carry over
    assert p.boost_attack == [0, 1, 0] and p.spent == [0, 1, 0] and p.rolls_read == 6


# ============================================================================================
# Step 2: paid attack boost (boost_attack never / always / auto)
# ============================================================================================
def test_boost_attack_never():
    """Step 2: policy never: MAT 7 vs DEF 17 needs 10, yet two dice are rolled, nothing paid."""
    s = scen(Target(defense=17, arm=30, boxes=30), fist(), focus=3, spend=NO_SPEND)
    p = play(s, [(4, 6), MISS_DMG])  # 10 + 7 = 17 hits
    assert p.hit == [1] and p.boost_attack == [0] and p.spent == [0] and p.rolls_read == 2


def test_boost_attack_always_even_when_easy():
    """Step 2: policy always: MAT 7 vs DEF 8 needs 1, it boosts anyway (3 dice, 1 focus)."""
    s = scen(Target(defense=8, arm=30, boxes=30), fist(), focus=3, spend=spend(attack="always"))
    p = play(s, [(1, 2, 3), MISS_DMG])
    assert p.hit == [1] and p.boost_attack == [1] and p.spent == [1] and p.rolls_read == 2


@pytest.mark.parametrize("at, defense, boosts", [
    (8, 15, True),    # need = 15 - 7 = 8 == threshold: boosts
    (8, 14, False),   # need 7 == threshold - 1: does not
    (6, 13, True),    # need 6 == threshold 6
    (6, 12, False),   # need 5
])
def test_boost_attack_auto_at_threshold(at, defense, boosts):
    """Step 2: policy auto boosts when need = DEF - skill >= boost_attack_at."""
    s = scen(Target(defense=defense, arm=30, boxes=30), fist(), focus=3,
             spend=spend(attack="auto", at=at))
    if boosts:
        p = play(s, [(4, 5, 6), MISS_DMG])  # 15 + 7 = 22 hits
    else:
        p = play(s, [(4, 6), MISS_DMG])  # 10 + 7 = 17 hits
    assert p.hit == [1]
    assert p.boost_attack == [int(boosts)] and p.spent == [int(boosts)]


def test_boost_attack_auto_need_counts_terrain_and_spells():
    """Step 2: need uses the full DEF: RAT 5 vs DEF 10 + forest (+2 vs ranged) + spell_def 1
    = 13, need 8 >= 8: boosted. (Against melee, MAT 5: DEF 11, need 6: not boosted.)"""
    t = Target(defense=10, arm=30, boxes=30, terrain={"forest"}, spell_def=1)
    s = scen(t, Weapon("Gun", "ranged", 5, 12), focus=1, spend=spend(attack="auto"))
    p = play(s, [(2, 3, 4), MISS_DMG])  # 9 + 5 = 14 >= 13
    assert p.hit == [1] and p.boost_attack == [1]
    s = scen(t, fist(skill=5), focus=1, spend=spend(attack="auto"))
    p = play(s, [(2, 4), MISS_DMG])  # 6 + 5 = 11 >= 11
    assert p.hit == [1] and p.boost_attack == [0]


def test_boost_attack_auto_need_counts_active_def_minus():
    """Step 2: need uses the DEF after active -DEF effects. DEF 16, MAT 7, -2 DEF on a hit,
    auto at 8: #1 needs 9: boosted (9 + 7 = 16 hits); #2 needs 16 - 2 - 7 = 7: not."""
    s = scen(Target(defense=16, arm=30), probe(skill=7, attacks=2, def_minus=2), focus=2,
             spend=spend(attack="auto"))
    p = play(s, [(1, 3, 5), (3, 4)])  # #2: 7 + 7 = 14 >= 14
    assert p.hit == [1, 1] and p.boost_attack == [1, 0] and p.spent == [1, 0]


def test_boost_attack_auto_need_counts_combined_bonus():
    """Step 2: skill includes the combined-attack bonus: MAT 5 + 2 vs DEF 15 needs 8, below
    a threshold of 9: no boost (alone it would need 10 and boost)."""
    w = Weapon("Spear", "melee", 5, None)
    t = Target(defense=15, arm=30)
    p = play(scen(t, w, combined=2, focus=1, spend=spend(attack="auto", at=9)), [(3, 5)])
    assert p.hit == [1] and p.boost_attack == [0]
    p = play(scen(t, w, focus=1, spend=spend(attack="auto", at=9)), [(3, 5, 2)])
    assert p.hit == [1] and p.boost_attack == [1]


def test_boost_attack_none_on_automatic_hit():
    """Step 2: an automatic melee hit (knocked-down target) rolls nothing: no boost, no cost,
    even with policy always; the first roll read is the damage roll."""
    s = scen(Target(defense=20, arm=14, boxes=30, state={"knocked_down"}), fist(), focus=1,
             spend=spend(attack="always"))
    p = play(s, [(3, 4)])  # damage 7 + 12 - 14 = 5
    assert p.hit == [1] and p.crit == [0] and p.boost_attack == [0] and p.spent == [0]
    assert p.damage == [5] and p.rolls_read == 1


# ============================================================================================
# Step 4: paid damage boost (boost_damage never / always / auto)
# ============================================================================================
def test_boost_damage_never():
    """Step 4: policy never: two damage dice, nothing paid."""
    s = scen(Target(defense=10, arm=14, boxes=30), fist(), focus=3, spend=NO_SPEND)
    p = play(s, [(2, 3), (3, 4)])  # 12 hits; 7 + 12 - 14 = 5
    assert p.damage == [5] and p.boost_damage == [0] and p.spent == [0] and p.rolls_read == 2


def test_boost_damage_always_even_when_the_kill_is_sure():
    """Step 4: policy always boosts although 2 + 12 - 10 = 4 already disables 1 box."""
    s = scen(Target(defense=10, arm=10, boxes=1), fist(), focus=3,
             spend=spend(damage="always"))
    p = play(s, [(2, 3), (1, 2, 3)])  # damage 6 + 12 - 10 = 8, 1 box marked
    assert p.boost_damage == [1] and p.spent == [1]
    assert p.damage == [1] and p.killed_by == 0 and p.rolls_read == 2


def test_boost_damage_always_pays_nothing_on_a_miss():
    """Step 4: the damage boost is decided after the attack roll: a miss boosts nothing (its
    damage roll is drawn and dropped with two dice, unboosted)."""
    s = scen(Target(defense=13, arm=10, boxes=30), fist(), focus=3,
             spend=spend(damage="always"))
    p = play(s, [(2, 3),   # 5 + 7 = 12 < 13 misses
                 (1, 1)])  # the miss's damage roll, drawn and dropped
    assert p.hit == [0] and p.boost_damage == [0] and p.spent == [0] and p.rolls_read == 2


@pytest.mark.parametrize("boxes, boosts", [
    (5, False),  # smallest unboosted roll 2 + 13 - 10 = 5 >= 5 boxes: already disables
    (6, True),   # 5 < 6, and the largest boosted roll 18 + 3 > 0: boost
])
def test_boost_damage_auto_not_when_smallest_roll_disables(boxes, boosts):
    """Step 4 auto, condition (a): no boost when kept_unboosted + POW - ARM >= remaining."""
    s = scen(Target(defense=10, arm=10, boxes=boxes), fist(pow=13), focus=1,
             spend=spend(damage="auto"))
    if boosts:
        p = play(s, [(2, 3), (1, 1, 1)])  # 3 + 13 - 10 = 6 >= 6
    else:
        p = play(s, [(2, 3), (1, 1)])  # 2 + 13 - 10 = 5 >= 5
    assert p.boost_damage == [int(boosts)] and p.spent == [int(boosts)]
    assert p.damage == [boxes] and p.killed_by == 0


@pytest.mark.parametrize("arm, boosts", [
    (30, False),  # largest boosted roll 6 * 3 + 12 - 30 = 0: cannot deal damage
    (29, True),   # 18 + 12 - 29 = 1 > 0
])
def test_boost_damage_auto_not_when_largest_boosted_roll_is_harmless(arm, boosts):
    """Step 4 auto, condition (b): no boost unless 6 * kept_boosted + POW - ARM > 0."""
    s = scen(Target(defense=10, arm=arm, boxes=30), fist(), focus=1,
             spend=spend(damage="auto"))
    if boosts:
        p = play(s, [(2, 3), (6, 6, 6)])  # 18 + 12 - 29 = 1
        assert p.damage == [1]
    else:
        p = play(s, [(2, 3), (5, 6)])  # 11 + 12 - 30 < 0
        assert p.damage == [0]
    assert p.boost_damage == [int(boosts)] and p.spent == [int(boosts)]


def test_boost_damage_auto_uses_boxes_remaining_now():
    """Step 4 auto: remaining = boxes not yet marked. 8 boxes, POW 12 vs ARM 10: first hit,
    smallest unboosted 4 < 8: boosts (3 dice: 3 + 2 = 5 marked); second hit, 4 >= 3 left:
    no boost, and 1 + 1 + 2 = 4 kills."""
    s = scen(Target(defense=10, arm=10, boxes=8), fist(attacks=2), focus=2,
             spend=spend(damage="auto"))
    p = play(s, [(2, 3), (1, 1, 1), (2, 3), (1, 1)])
    assert p.boost_damage == [1, 0] and p.spent == [1, 0]
    assert p.damage == [5, 3] and p.killed_by == 1 and p.marked == 8


@pytest.mark.parametrize("attack_roll, boosts", [
    ((3, 3), False),  # critical: Brutal die, 3 dice unboosted: 3 + 10 - 10 = 3 >= 3 boxes
    ((2, 3), True),   # plain hit: 2 dice, 2 < 3: boost
])
def test_boost_damage_auto_counts_the_brutal_die(attack_roll, boosts):
    """Step 4 auto: the decision is made with the attack roll known, so the unboosted dice
    include Brutal Damage's die on a critical hit. Both cases roll 3 dice: 3 + 0 = 3 kills."""
    w = fist(pow=10, rules={"brutal_damage"})
    s = scen(Target(defense=10, arm=10, boxes=3), w, focus=1, spend=spend(damage="auto"))
    p = play(s, [attack_roll, (1, 1, 1)])
    assert p.crit == [int(not boosts)]
    assert p.boost_damage == [int(boosts)] and p.damage == [3] and p.killed_by == 0


def test_boost_damage_auto_counts_kept_dice_after_discard():
    """Step 4 auto: (a) uses the dice kept. Weapon Master + discard lowest: 3 dice, 2 kept:
    2 + 13 - 10 = 5 < 6 boxes: boost (4 dice, 3 kept: 3 + 3 = 6 kills). Counting all 3 dice
    (3 + 3 = 6 >= 6) it would not boost."""
    w = fist(pow=13, rules={"weapon_master"}, damage_discard="lowest")
    s = scen(Target(defense=10, arm=10, boxes=6), w, focus=1, spend=spend(damage="auto"))
    p = play(s, [(2, 3), (1, 1, 1, 1)])
    assert p.boost_damage == [1] and p.damage == [6] and p.killed_by == 0 and p.rolls_read == 2


def test_free_boosts_are_never_paid():
    """Steps 2 and 4: a weapon boosted for free (boosted_attack, boosted_damage) pays
    nothing even with policy always; the 2 focus are left for the next weapon, which pays
    both boosts. MAT 7 vs DEF 10, POW 12 vs ARM 14."""
    lance = Weapon("Lance", "melee", 7, 12, boosted_attack=True, boosted_damage=True)
    s = scen(Target(defense=10, arm=14, boxes=30), lance, Weapon("Axe", "melee", 7, 12),
             focus=2, spend=spend(attack="always", damage="always"))
    p = play(s, [(1, 2, 4), (1, 2, 4),   # Lance: 3 dice each, free: 14 hits, 7 + 12 - 14 = 5
                 (1, 2, 4), (1, 2, 4)])  # Axe: 3 dice each, paid
    assert p.boost_attack == [0, 1] and p.boost_damage == [0, 1] and p.spent == [0, 2]
    assert p.damage == [5, 5] and p.rolls_read == 4


# ============================================================================================
# Reserve
# ============================================================================================
def test_reserve_stops_boosts_and_bought_attacks_spend_it():
    """Steps 1, 2, 4: boosts are paid only while points > reserve (3 focus, reserve 2: one
    attack boost, then no damage boost at 2); bought attacks ignore the reserve and spend
    it: two are bought, the third slot is not made."""
    s = scen(Target(defense=10, arm=14, boxes=30), fist(), focus=3,
             spend=spend(attack="always", damage="always", buy=True, reserve=2))
    seq = s.attack_sequence()
    assert [slot.bought for slot in seq] == [False, True, True, True]
    p = play(s, [(1, 2, 4), (1, 2),   # #1: boost (3 -> 2); 14 hits; no damage boost: 3 + 12 - 14 = 1
                 (2, 3), (1, 2),      # bought #1 pays (2 -> 1): 1 > 2 is false, no boosts
                 (2, 3), (1, 2)])     # bought #2 pays (1 -> 0)
    assert p.made == [1, 1, 1, 0]
    assert p.boost_attack == [1, 0, 0, 0] and p.boost_damage == [0, 0, 0, 0]
    assert p.spent == [1, 1, 1, 0] and p.damage == [1, 1, 1, 0] and p.rolls_read == 6


def test_reserve_stops_damage_boosts():
    """Step 4: 2 focus, reserve 1: the first damage roll is boosted (2 > 1), the second
    not (1 > 1 is false); the last point buys one attack."""
    s = scen(Target(defense=10, arm=14, boxes=30), fist(attacks=2), focus=2,
             spend=spend(damage="always", buy=True, reserve=1))
    p = play(s, [(2, 3), (1, 2, 4),  # boosted: 7 + 12 - 14 = 5
                 (2, 3), (3, 4),     # 5
                 (2, 3), (3, 4)])    # bought, pays the reserve
    assert p.made == [1, 1, 1, 0]
    assert p.boost_damage == [1, 0, 0, 0] and p.spent == [1, 0, 1, 0]
    assert p.damage == [5, 5, 5, 0]


# ============================================================================================
# Order / step 1: bought attacks
# ============================================================================================
def test_bought_attacks_one_per_point():
    """Step 1: 2 focus, no boosts: two bought attacks, each paying 1."""
    s = scen(Target(defense=10, arm=14, boxes=30), fist(), focus=2, spend=spend(buy=True))
    p = play(s, [(2, 3), (3, 4)] * 3)  # each: 12 hits, 7 + 12 - 14 = 5
    assert p.made == [1, 1, 1] and p.spent == [0, 1, 1] and p.damage == [5, 5, 5]


def test_bought_attacks_made_only_while_points_remain():
    """Step 1: 2 focus; the initial attack's boost spends 1, the first bought attack the
    other: the second bought attack is not made (and reads no dice)."""
    s = scen(Target(defense=10, arm=14, boxes=30), fist(), focus=2,
             spend=spend(attack="always", buy=True))
    p = play(s, [(1, 2, 4), (3, 4),   # boosted (2 -> 1)
                 (2, 3), (3, 4)])     # bought #1 pays (1 -> 0), no point left to boost
    assert p.made == [1, 1, 0] and p.spent == [1, 1, 0] and p.boost_attack == [1, 0, 0]
    assert p.rolls_read == 4 and p.killed_by is None


def test_bought_attacks_boosted_from_what_is_left():
    """Step 1 then 2: 3 focus (so 3 bought slots): boost (3 -> 2); bought #1 pays (2 -> 1)
    and boosts (1 -> 0); bought #2 and #3 are not made."""
    s = scen(Target(defense=10, arm=14, boxes=30), fist(), focus=3,
             spend=spend(attack="always", buy=True))
    p = play(s, [(1, 2, 4), (3, 4), (1, 2, 4), (3, 4)])
    assert p.made == [1, 1, 0, 0] and p.boost_attack == [1, 1, 0, 0] and p.spent == [1, 2, 0, 0]


def _claw_fist(**kw):
    claw = Weapon("Claw", "melee", 8, 10)
    big = Weapon("Fist", "melee", 6, 14)
    return Attacker("A", [claw, big], focus=1, spend=spend(buy=True), **kw)


def test_bought_weapon_defaults_to_highest_pow():
    """Order: the bought weapon is the melee weapon with the highest POW (Fist POW 14, not
    Claw POW 10 MAT 8). DEF 10, ARM 14: Claw 7 + 10 - 14 = 3, Fist 7 + 14 - 14 = 7."""
    s = Scenario(Target(defense=10, arm=14, boxes=30), [_claw_fist()])
    seq = s.attack_sequence()
    assert seq[2].bought and seq[2].weapon.name == "Fist"
    p = play(s, [(2, 3), (3, 4),   # Claw 5 + 8 = 13 hits: 3
                 (2, 3), (3, 4),   # Fist 5 + 6 = 11 hits: 7
                 (1, 3), (3, 4)])  # bought Fist: 4 + 6 = 10 hits: 7
    assert p.made == [1, 1, 1] and p.damage == [3, 7, 7] and p.spent == [0, 0, 1]


def test_bought_weapon_ties_broken_by_skill_then_order():
    """Order: equal POW: the higher skill; equal POW and skill: the first listed."""
    a = Weapon("A", "melee", 6, 12)
    b = Weapon("B", "melee", 8, 12)
    c = Weapon("C", "melee", 8, 12)
    assert Attacker("X", [a, b, c], focus=1).bought_weapon.name == "B"
    assert Attacker("X", [c, b], focus=1).bought_weapon.name == "C"


def test_bought_weapon_named_by_buy_weapon():
    """Order: buy_weapon names the bought weapon (Claw): the bought attack deals 3, not 7."""
    s = Scenario(Target(defense=10, arm=14, boxes=30), [_claw_fist(buy_weapon="Claw")])
    assert s.attack_sequence()[2].weapon.name == "Claw"
    p = play(s, [(2, 3), (3, 4), (2, 3), (3, 4), (1, 3), (3, 4)])  # Claw 4 + 8 = 12 >= 10
    assert p.damage == [3, 7, 3] and p.spent == [0, 0, 1]


@pytest.mark.parametrize("type_", ["ranged", "arcane"])
def test_bought_attacks_none_for_ranged_attackers(type_):
    """Order: an attacker without a melee weapon buys nothing: one slot, its 3 focus unused."""
    s = scen(Target(defense=12, arm=14, boxes=30), Weapon("Gun", type_, 6, 12), focus=3,
             spend=spend(buy=True))
    assert s.n_attacks == 1 and len(s.attack_sequence()) == 1
    p = play(s, [(3, 4), (1, 2)])  # 13 hits
    assert p.made == [1] and p.spent == [0] and p.rolls_read == 2


# ============================================================================================
# Step 4: charge, combined attack, Weapon Master, Brutal Damage
# ============================================================================================
def test_charge_free_damage_boost_on_first_attack_only():
    """Step 4: the charge attack's damage roll is boosted for free (3 dice, no focus); the
    second attack's is not (2 dice). MAT 7 vs DEF 10, POW 12 vs ARM 14, no focus."""
    s = scen(Target(defense=10, arm=14, boxes=30), fist(attacks=2), charge=True)
    assert [slot.charge for slot in s.attack_sequence()] == [True, False]
    p = play(s, [(2, 3), (1, 2, 4),   # charge: 7 + 12 - 14 = 5
                 (2, 3), (3, 4)])     # second: 2 dice, 5
    assert p.damage == [5, 5] and p.boost_damage == [0, 0] and p.spent == [0, 0]
    assert p.rolls_read == 4


def test_charge_free_boost_not_paid_but_second_attack_pays():
    """Step 4: with focus 1 and damage boosts always, the charge attack pays nothing (free
    boost) and the second attack pays its boost."""
    s = scen(Target(defense=10, arm=14, boxes=30), fist(attacks=2), charge=True, focus=1,
             spend=spend(damage="always"))
    p = play(s, [(2, 3), (1, 2, 4), (2, 3), (1, 2, 4)])
    assert p.boost_damage == [0, 1] and p.spent == [0, 1] and p.damage == [5, 5]


def test_charge_attack_that_misses_passes_nothing_on():
    """Step 4: the boost belongs to the charge attack if it hits; when it misses the second
    attack still rolls two damage dice. MAT 7 vs DEF 12."""
    s = scen(Target(defense=12, arm=14, boxes=30), fist(attacks=2), charge=True)
    p = play(s, [(1, 2),            # 3 + 7 = 10 < 12 misses
                 (1, 1, 1),         # the miss's damage roll (charge: 3 dice), drawn and dropped
                 (2, 3), (3, 4)])   # 12 hits: 2 dice, 7 + 12 - 14 = 5
    assert p.hit == [0, 1] and p.damage == [0, 5] and p.rolls_read == 4


def test_combined_attack_adds_to_attack_and_damage():
    """Steps 2 and 4: a combined attack of 3 adds +3 to skill and POW. MAT 5 + 3 vs DEF 15:
    7 + 8 = 15 hits; POW 10 + 3 vs ARM 14: 5 + 13 - 14 = 4."""
    w = Weapon("Spear", "melee", 5, 10)
    t = Target(defense=15, arm=14, boxes=30)
    p = play(scen(t, w, combined=3), [(3, 4), (2, 3)])
    assert p.hit == [1] and p.damage == [4]
    # each miss's damage roll (1, 1) is drawn and dropped
    assert play(scen(t, w, combined=3), [(2, 4), (1, 1)]).hit == [0]  # 6 + 8 = 14
    assert play(scen(t, w), [(3, 4), (1, 1)]).hit == [0]  # alone: 7 + 5 = 12


def test_weapon_master_adds_a_damage_die():
    """Step 4: Weapon Master: 3 damage dice: 6 + 12 - 14 = 4."""
    s = scen(Target(defense=10, arm=14, boxes=30), fist(rules={"weapon_master"}))
    p = play(s, [(2, 3), (1, 2, 3)])
    assert p.damage == [4] and p.rolls_read == 2


def test_brutal_damage_on_critical_by_default():
    """Step 4: Brutal Damage adds a die on a critical hit (3 dice: 6 + 12 - 14 = 4), not on
    a plain hit (2 dice: 3 + 12 - 14 = 1)."""
    s = scen(Target(defense=10, arm=14, boxes=30), fist(rules={"brutal_damage"}))
    p = play(s, [(3, 3), (1, 2, 3)])
    assert p.crit == [1] and p.damage == [4]
    p = play(s, [(2, 3), (1, 2)])
    assert p.crit == [0] and p.damage == [1]


def test_brutal_damage_on_any_hit_setting():
    """Step 4: Scenario(brutal_damage="hit"): the die is added on any hit, once."""
    s = scen(Target(defense=10, arm=14, boxes=30), fist(rules={"brutal_damage"}),
             brutal_damage="hit")
    p = play(s, [(2, 3), (1, 2, 3)])  # plain hit: 3 dice, 4
    assert p.crit == [0] and p.damage == [4]
    p = play(s, [(3, 3), (1, 2, 3)])  # critical: still 3 dice
    assert p.crit == [1] and p.damage == [4] and p.rolls_read == 2


# ============================================================================================
# Step 4: ARM (Armor-Piercing, Shield / Buckler, Chain Weapon, Unyielding, Carapace, spells)
# ============================================================================================
@pytest.mark.parametrize("arm, halved", [(15, 8), (14, 7), (1, 1)])
def test_armor_piercing_halves_base_arm_rounding_up_then_adds_modifiers(arm, halved):
    """Step 4: ARM = ceil(base / 2) + Shield 2 + spell_arm 1 (modifiers after halving).
    ARM 15: 8 + 3 = 11 (not ceil(18 / 2) = 9). Damage 11 + POW 10 - ARM."""
    t = Target(defense=10, arm=arm, boxes=30, shield=["L"], spell_arm=1)
    p = play(scen(t, fist(pow=10, rules={"armor_piercing"})), [(2, 3), (5, 6)])
    assert p.damage == [max(0, 11 + 10 - (halved + 3))]


def test_armor_piercing_against_odd_arm_by_number():
    """Step 4: ARM 15 with a Shield and spell_arm 1 is 11 against Armor-Piercing, 18
    without: the same 5 + 6 + 10 deals 10 and 3."""
    t = Target(defense=10, arm=15, boxes=30, shield=["L"], spell_arm=1)
    assert play(scen(t, fist(pow=10, rules={"armor_piercing"})), [(2, 3), (5, 6)]).damage == [10]
    assert play(scen(t, fist(pow=10)), [(2, 3), (5, 6)]).damage == [3]


@pytest.mark.parametrize("shield, buckler, bonus", [
    (["L"], [], 2),
    ([], ["L"], 1),
    (["L", "R"], ["H"], 5),  # +2 +2 +1: cumulative
])
def test_shield_and_buckler_add_arm(shield, buckler, bonus):
    """Step 4: Shield +2, Buckler +1, each. ARM 10 + bonus; 9 + 12 - ARM."""
    t = Target(defense=10, arm=10, boxes=30, shield=shield, buckler=buckler)
    p = play(scen(t, fist()), [(2, 3), (4, 5)])
    assert p.damage == [9 + 12 - 10 - bonus]


def test_chain_weapon_ignores_shield_and_buckler():
    """Step 4: Chain Weapon: ARM 12 (not 12 + 2 + 1 = 15): 7 + 12 - 12 = 7 against 4."""
    t = Target(defense=10, arm=12, boxes=30, shield=["L"], buckler=["R"])
    assert play(scen(t, fist(rules={"chain_weapon"})), [(2, 3), (3, 4)]).damage == [7]
    assert play(scen(t, fist()), [(2, 3), (3, 4)]).damage == [4]


def test_arm_is_not_floored_at_zero():
    """Step 4 (choice): ARM 2 - 5 = -3 after a -5 ARM effect: POW 0 deals 1 + 1 + 0 + 3 = 5."""
    w = Weapon("Pick", "melee", 7, 0, attacks=2, arm_minus=5)
    p = play(scen(Target(defense=10, arm=2, boxes=30), w), [(2, 3), (1, 1), (2, 3), (1, 1)])
    assert p.damage == [0, 5]


def test_unyielding_adds_arm_against_melee_only():
    """Step 4: Unyielding +2 ARM vs melee: 7 + 12 - 12 = 7; a ranged attack faces ARM 10: 9."""
    t = Target(defense=10, arm=10, boxes=30, rules={"unyielding"})
    assert play(scen(t, fist()), [(2, 3), (3, 4)]).damage == [7]
    assert play(scen(t, Weapon("Gun", "ranged", 7, 12)), [(2, 3), (3, 4)]).damage == [9]


@pytest.mark.parametrize("type_, arm", [("ranged", 14), ("arcane", 10), ("melee", 10)])
def test_carapace_adds_arm_against_ranged_only_not_arcane(type_, arm):
    """Step 4: Carapace +4 ARM vs ranged attacks; not arcane, not melee. 11 + 12 - ARM."""
    t = Target(defense=10, arm=10, boxes=30, rules={"carapace"})
    p = play(scen(t, Weapon("W", type_, 7, 12)), [(2, 3), (5, 6)])
    assert p.damage == [11 + 12 - arm]


def test_spell_and_upkeep_def_and_arm_add_up():
    """Steps 2 and 4: DEF 12 + spell 1 + upkeep 1 = 14; ARM 12 + spell 1 + upkeep 2 = 15.
    MAT 6: 8 + 6 = 14 hits, 7 + 6 = 13 misses; damage 7 + 12 - 15 = 4."""
    t = Target(defense=12, arm=12, boxes=30, spell_def=1, upkeep_def=1, spell_arm=1,
               upkeep_arm=2)
    s = scen(t, fist(skill=6))
    p = play(s, [(3, 5), (3, 4)])
    assert p.hit == [1] and p.damage == [4]
    assert play(s, [(2, 5), (1, 1)]).hit == [0]  # the miss's damage roll, drawn and dropped


# ============================================================================================
# Step 2: attack reroll and discards
# ============================================================================================
def test_reroll_attack_rerolls_a_miss_once():
    """Step 2: MAT 6 vs DEF 14: a miss (5 + 6) is rolled again: 8 + 6 = 14 hits."""
    s = scen(Target(defense=14, arm=14, boxes=30), fist(skill=6, rules={"reroll_attack"}))
    p = play(s, [(2, 3), (3, 5), (1, 2)])  # damage 3 + 12 - 14 = 1
    assert p.hit == [1] and p.damage == [1] and p.rolls_read == 3
    p = play(s, [(2, 3), (2, 3),  # missed twice: no third attack roll
                 (1, 1)])         # the miss's damage roll, drawn and dropped
    assert p.hit == [0] and p.rolls_read == 3
    p = play(s, [(1, 2), (4, 4), (1, 2)])  # a reroll may be critical
    assert p.hit == [1] and p.crit == [1]


def test_reroll_attack_keeps_a_hit():
    """Step 2: a hit is not rerolled: the second roll read is the damage roll."""
    s = scen(Target(defense=14, arm=14, boxes=30), fist(skill=6, rules={"reroll_attack"}))
    p = play(s, [(3, 5), (3, 4)])  # 14 hits; 7 + 12 - 14 = 5
    assert p.hit == [1] and p.damage == [5] and p.rolls_read == 2


def test_reroll_attack_same_dice_no_new_boost_or_cost():
    """Step 2: the reroll of a boosted miss rolls 3 dice again and costs nothing more."""
    s = scen(Target(defense=14, arm=30, boxes=30), fist(skill=6, rules={"reroll_attack"}),
             focus=2, spend=spend(attack="always"))
    p = play(s, [(1, 2, 3), (2, 3, 4), MISS_DMG])  # 6 + 6 = 12 misses; 9 + 6 = 15 hits
    assert p.hit == [1] and p.boost_attack == [1] and p.spent == [1] and p.rolls_read == 3


def test_attack_discard_lowest_critical_judged_on_kept_dice():
    """Step 2: boosted (3 dice), discard lowest. (1, 1, 5) keeps 1 + 5: 6 + 6 = 12 hits, no
    double kept: not critical. (2, 5, 5) keeps 5 + 5: critical."""
    s = scen(Target(defense=12, arm=30), probe(boosted_attack=True, attack_discard="lowest"))
    p = play(s, [(1, 1, 5)])
    assert p.hit == [1] and p.crit == [0] and p.rolls_read == 1
    p = play(s, [(2, 5, 5)])
    assert p.hit == [1] and p.crit == [1]


def test_attack_discard_highest_drops_the_high_die():
    """Step 2: discard highest: (2, 3, 6) keeps 2 + 3: 5 + 6 = 11 < 12 misses."""
    s = scen(Target(defense=12, arm=30), probe(boosted_attack=True, attack_discard="highest"))
    assert play(s, [(2, 3, 6)]).hit == [0]
    assert play(s, [(3, 3, 6)]).crit == [1]  # keeps 3 + 3 = 6: 12 hits, double


def test_attack_discard_automatic_miss_on_kept_dice():
    """Step 2: MAT 20 vs DEF 5, discard highest: (1, 1, 6) keeps 1, 1: automatic miss."""
    s = scen(Target(defense=5, arm=30), probe(skill=20, boosted_attack=True,
                                               attack_discard="highest"))
    assert play(s, [(1, 1, 6)]).hit == [0]
    assert play(s, [(1, 2, 6)]).hit == [1]


def test_attack_discard_automatic_hit_on_kept_dice():
    """Step 2: MAT 5 vs DEF 30, discard lowest: (1, 6, 6) keeps 6, 6: automatic hit,
    critical."""
    s = scen(Target(defense=30, arm=30), probe(skill=5, boosted_attack=True,
                                               attack_discard="lowest"))
    p = play(s, [(1, 6, 6)])
    assert p.hit == [1] and p.crit == [1]
    assert play(s, [(1, 5, 6)]).hit == [0]


def test_attack_discard_of_two_dice_keeps_one_die():
    """Step 2: two dice with a discard keep one: one kept 1 is no automatic miss (1 + 20
    >= 5 hits) and one die is never critical."""
    s = scen(Target(defense=5, arm=30), probe(skill=20, attack_discard="highest"))
    p = play(s, [(1, 1)])
    assert p.hit == [1] and p.crit == [0]


@pytest.mark.parametrize("discard, kept", [("lowest", 11), ("highest", 6), ("none", 12)])
def test_damage_discard(discard, kept):
    """Step 4: Weapon Master (3 dice) (1, 5, 6): discard lowest keeps 11, highest 6.
    POW 10 vs ARM 10."""
    w = fist(pow=10, rules={"weapon_master"}, damage_discard=discard)
    p = play(scen(Target(defense=10, arm=10, boxes=30), w), [(2, 3), (1, 5, 6)])
    assert p.damage == [kept]


# ============================================================================================
# Step 4: damage reroll, Decapitation
# ============================================================================================
def test_reroll_damage_low_roll_rerolled_and_new_roll_kept():
    """Step 4: POW 10 vs ARM 10, 30 boxes: (1, 2) = 3 does not disable and 2 * 3 < 14: it is
    rolled again (5, 6): 11. A reroll is kept even when lower: (2, 4) -> (1, 1) = 2."""
    s = scen(Target(defense=10, arm=10, boxes=30), fist(pow=10, rules={"reroll_damage"}))
    p = play(s, [(2, 3), (1, 2), (5, 6)])
    assert p.damage == [11] and p.rolls_read == 3
    p = play(s, [(2, 3), (2, 4), (1, 1)])
    assert p.damage == [2] and p.rolls_read == 3


def test_reroll_damage_average_or_better_kept():
    """Step 4: (3, 4) = 7 is not below average (2 * 7 = 14): kept; (3, 3) = 6 is rerolled."""
    s = scen(Target(defense=10, arm=10, boxes=30), fist(pow=10, rules={"reroll_damage"}))
    p = play(s, [(2, 3), (3, 4)])
    assert p.damage == [7] and p.rolls_read == 2
    p = play(s, [(2, 3), (3, 3), (4, 5)])
    assert p.damage == [9] and p.rolls_read == 3


def test_reroll_damage_disabling_roll_kept():
    """Step 4: 3 boxes: (1, 2) + 10 - 10 = 3 disables: low, but kept."""
    s = scen(Target(defense=10, arm=10, boxes=3), fist(pow=10, rules={"reroll_damage"}))
    p = play(s, [(2, 3), (1, 2)])
    assert p.damage == [3] and p.killed_by == 0 and p.rolls_read == 2


def test_decapitation_doubles_on_critical_only():
    """Step 4: Decapitation: critical (3, 3): 7 + 12 - 12 = 7 doubled to 14; plain hit: 7."""
    s = scen(Target(defense=10, arm=12, boxes=30), fist(rules={"decapitation"}))
    p = play(s, [(3, 3), (3, 4)])
    assert p.crit == [1] and p.damage == [14]
    p = play(s, [(2, 3), (3, 4)])
    assert p.crit == [0] and p.damage == [7]


# ============================================================================================
# Step 6: -DEF / -ARM effects, Stationary
# ============================================================================================
def test_def_minus_on_hit_applies_from_next_attack():
    """Step 6: -2 DEF on a hit, from the next attack: DEF 14, MAT 6. #1 (3, 5) = 14 hits;
    #2 faces DEF 12: 6 + 6 = 12 hits."""
    s = scen(Target(defense=14, arm=30), probe(attacks=2, def_minus=2))
    assert play(s, [(3, 5), (2, 4)]).hit == [1, 1]
    assert play(s, [(2, 5), (2, 4)]).hit == [0, 0]  # no hit, no effect: 12 < 14
    # the triggering attack itself is not helped: 12 < 14 misses
    assert play(s, [(2, 4), (2, 4)]).hit == [0, 0]


def test_arm_minus_on_hit_applies_from_next_attack():
    """Step 6: -3 ARM: #1 7 + 10 - 14 = 3, #2 7 + 10 - 11 = 6."""
    s = scen(Target(defense=10, arm=14, boxes=30), fist(pow=10, attacks=2, arm_minus=3))
    p = play(s, [(2, 3), (3, 4), (2, 3), (3, 4)])
    assert p.damage == [3, 6]


def test_def_minus_on_critical_only():
    """Step 6: effect_on critical: a plain hit leaves DEF 14 (12 misses); a critical lowers
    it to 12."""
    s = scen(Target(defense=14, arm=30), probe(attacks=2, def_minus=2, effect_on="critical"))
    assert play(s, [(3, 5), (2, 4)]).hit == [1, 0]
    assert play(s, [(4, 4), (2, 4)]).hit == [1, 1]


def test_arm_minus_on_critical_only():
    """Step 6: effect_on critical with -3 ARM: after a plain hit the second damage roll
    still faces ARM 14 (3), after a critical ARM 11 (6)."""
    w = fist(pow=10, attacks=2, arm_minus=3, effect_on="critical")
    s = scen(Target(defense=10, arm=14, boxes=30), w)
    assert play(s, [(2, 3), (3, 4), (2, 3), (3, 4)]).damage == [3, 3]
    assert play(s, [(3, 3), (3, 4), (2, 3), (3, 4)]).damage == [3, 6]


def test_effect_of_same_weapon_does_not_stack():
    """Step 6: the same weapon hitting twice lowers DEF once: #3 still faces 12, so 5 + 6 =
    11 misses (it would hit at DEF 10)."""
    s = scen(Target(defense=14, arm=30), probe(attacks=3, def_minus=2))
    assert play(s, [(3, 5), (2, 4), (1, 4)]).hit == [1, 1, 0]
    assert play(s, [(3, 5), (2, 4), (2, 4)]).hit == [1, 1, 1]


def test_effects_of_two_weapons_stack():
    """Step 6: two weapons with -2 DEF each: 16, then 14, then 12 for the third weapon."""
    s = scen(Target(defense=16, arm=30),
             Weapon("Hex1", "melee", 6, None, def_minus=2),
             Weapon("Hex2", "melee", 6, None, def_minus=2),
             Weapon("Club", "melee", 6, None))
    assert play(s, [(4, 6), (3, 5), (2, 4)]).hit == [1, 1, 1]  # 16, 14, 12
    assert play(s, [(4, 6), (3, 5), (1, 4)]).hit == [1, 1, 0]  # 11 < 12: not lower


def test_stationary_makes_later_melee_automatic_and_ranged_face_def_5():
    """Step 6: a Stationary hit: the next melee attack hits with no roll (never critical), and
    a later ranged attacker faces base DEF 5 (RAT 1: 1 + 3 + 1 = 5 hits)."""
    net = Weapon("Net", "melee", 6, None, rules={"stationary"})
    s = Scenario(Target(defense=14, arm=14, boxes=30),
                 [Attacker("A", [net, fist(skill=6)]),
                  Attacker("B", [Weapon("Gun", "ranged", 1, None)])])
    p = play(s, [(3, 5),    # Net: 14 hits
                 (3, 4),    # Fist: no attack roll; damage 7 + 12 - 14 = 5
                 (1, 3)])   # Gun: 4 + 1 = 5 >= 5
    assert p.hit == [1, 1, 1] and p.crit == [0, 0, 0] and p.damage == [0, 5, 0]
    assert p.rolls_read == 3


def test_critical_stationary_only_on_critical():
    """Step 6: Critical Stationary: a plain hit leaves the Fist to roll (5 + 6 = 11 < 14
    misses); a critical makes the Fist hit automatically."""
    hammer = Weapon("Hammer", "melee", 6, None, rules={"critical_stationary"})
    s = scen(Target(defense=14, arm=14, boxes=30), hammer, fist(skill=6))
    p = play(s, [(3, 5), (2, 3), (1, 1)])  # (1, 1): the miss's damage roll, drawn and dropped
    assert p.hit == [1, 0] and p.rolls_read == 3
    p = play(s, [(4, 4), (3, 4)])
    assert p.hit == [1, 1] and p.damage == [0, 5] and p.rolls_read == 2


def test_stationary_target_may_still_roll_tough():
    """Step 4 / 6: stationary is not knocked down: a Tough target made stationary still rolls
    its Tough d6 (5: saved, knocked down)."""
    net = Weapon("Net", "melee", 6, None, rules={"stationary"})
    s = scen(Target(defense=14, arm=10, boxes=5, rules={"tough"}), net, fist(skill=6))
    p = play(s, [(3, 5), (4, 5), (5,)])  # Fist auto-hits: 9 + 12 - 10 = 11 >= 5; Tough 5
    assert p.tough == [0, 1] and p.killed_by is None and p.marked == 4 and p.rolls_read == 3


# ============================================================================================
# Step 3: Dispel, Grievous Wounds; Blessed
# ============================================================================================
def _dispel_target():
    return Target(defense=12, arm=14, boxes=30, upkeep_def=2, spell_def=1, upkeep_arm=3,
                  spell_arm=1)


def test_dispel_ends_upkeep_at_once_spells_stay():
    """Step 3: DEF 12 + 2 + 1 = 15: 9 + 6 hits; upkeep gone at once: this damage roll faces
    ARM 14 + 1 = 15 (7 + 10 - 15 = 2, not 0 against 18); the next attack faces DEF 13
    (7 + 6 = 13 hits) and ARM 15 (8 + 10 - 15 = 3)."""
    s = scen(_dispel_target(), Weapon("Rune", "melee", 6, 10, rules={"dispel"}, attacks=2))
    p = play(s, [(4, 5), (3, 4), (3, 4), (4, 4)])
    assert p.hit == [1, 1] and p.damage == [2, 3]


def test_dispel_miss_leaves_upkeep():
    """Step 3: a Dispel miss ends nothing: the next attack still faces DEF 15."""
    s = scen(_dispel_target(), Weapon("Rune", "melee", 6, 10, rules={"dispel"}, attacks=2))
    p = play(s, [(1, 2), (1, 1),   # 9 < 15; the miss's damage roll, drawn and dropped
                 (3, 4), (1, 1)])  # 13 < 15; the same
    assert p.hit == [0, 0] and p.rolls_read == 4


def test_dispel_helps_later_weapons():
    """Step 3: a Dispel hit by the first weapon removes upkeep DEF/ARM for the second."""
    s = scen(_dispel_target(), Weapon("Rune", "melee", 6, None, rules={"dispel"}),
             fist(skill=6, pow=10))
    p = play(s, [(4, 5), (3, 4), (4, 4)])  # Fist: 13 >= 13 hits; 8 + 10 - 15 = 3
    assert p.hit == [1, 1] and p.damage == [0, 3]


def test_grievous_wounds_stops_tough_on_this_attack():
    """Step 3: the Grievous Wounds hit itself disables a Tough target: no Tough roll."""
    s = scen(Target(defense=10, arm=10, boxes=5, rules={"tough"}),
             fist(rules={"grievous_wounds"}))
    p = play(s, [(2, 3), (3, 4)])  # 7 + 12 - 10 = 9 >= 5
    assert p.killed_by == 0 and p.tough == [0] and p.rolls_read == 2


def test_grievous_wounds_stops_tough_for_later_attacks():
    """Step 3: a Grievous Wounds hit dealing nothing still stops Tough for the Fist after it;
    when the knife misses, the Tough d6 is rolled (6: saved)."""
    knife = Weapon("Knife", "melee", 7, 5, rules={"grievous_wounds"})
    s = scen(Target(defense=10, arm=10, boxes=5, rules={"tough"}), knife, fist())
    p = play(s, [(2, 3), (1, 2), (2, 3), (5, 6)])  # knife 3 + 5 - 10: 0; fist 13 >= 5
    assert p.hit == [1, 1] and p.killed_by == 1 and p.tough == [0, 0] and p.rolls_read == 4
    s = scen(Target(defense=12, arm=10, boxes=5, rules={"tough"}), knife, fist())
    p = play(s, [(1, 2), (1, 1),   # knife 10 < 12 misses; its damage roll, drawn and dropped
                 (2, 3), (5, 6), (6,)])  # fist 12 hits
    assert p.hit == [0, 1] and p.killed_by is None and p.tough == [0, 1] and p.marked == 4


def test_grievous_wounds_stops_rapid_healing():
    """Step 3: rapid_healing 2: with Grievous Wounds marks stay 5 then 9; without, 5 - 2 =
    3, then 3 + 4 - 2 = 5."""
    t = Target(defense=10, arm=10, boxes=30, rapid_healing=2)
    rolls = [(2, 3), (1, 2), (2, 3), (1, 1)]  # damage 3 + 2 = 5, then 2 + 2 = 4
    assert play(scen(t, fist(attacks=2, rules={"grievous_wounds"})), rolls).marked == 9
    assert play(scen(t, fist(attacks=2)), rolls).marked == 5


def test_blessed_ignores_spell_and_upkeep_def_and_arm():
    """Steps 2 and 4: DEF 12 (+2 spell +1 upkeep), ARM 12 (+2 +1). Blessed: 6 + 6 = 12 hits
    and 7 + 10 - 12 = 5. Not blessed: 12 < 15 misses; 15 hits and deals 7 + 10 - 15 = 2."""
    t = Target(defense=12, arm=12, boxes=30, spell_def=2, upkeep_def=1, spell_arm=2,
               upkeep_arm=1)
    p = play(scen(t, fist(skill=6, pow=10, rules={"blessed"})), [(2, 4), (3, 4)])
    assert p.hit == [1] and p.damage == [5]
    plain = scen(t, fist(skill=6, pow=10))
    assert play(plain, [(2, 4), (1, 1)]).hit == [0]  # the miss's damage roll, drawn and dropped
    assert play(plain, [(4, 5), (3, 4)]).damage == [2]


# ============================================================================================
# Inert / wild (RULES 6)
# ============================================================================================
@pytest.mark.parametrize("state, points", [("inert", "focus"), ("wild", "fury")])
def test_inert_or_wild_no_shield_no_power_field(state, points):
    """Steps 2 and 4: inert or wild: melee hits with no roll, no Shield ARM (7 + 12 - 12 = 7,
    not 5), and no focus or fury spent against a lethal hit."""
    t = Target(defense=14, arm=12, boxes=30, shield=["L"], state={state}, **{points: 3})
    p = play(scen(t, fist(skill=1)), [(3, 4)])
    assert p.hit == [1] and p.damage == [7] and p.rolls_read == 1
    t = Target(defense=14, arm=12, boxes=5, shield=["L"], state={state}, **{points: 3})
    p = play(scen(t, fist(skill=1)), [(3, 4)])
    assert p.killed_by == 0 and p.target_spent == [0]


# ============================================================================================
# Step 2: terrain (RULES 1, 7)
# ============================================================================================
# bonus b: a skill-5 attack against DEF 10 + b needs 5 + b
_HIT = {0: (2, 3), 2: (3, 4), 4: (4, 5)}
_MISS = {0: (1, 3), 2: (2, 4), 4: (3, 5)}


@pytest.mark.parametrize("terrain, base, type_, bonus", [
    ("forest", "medium", "ranged", 2),
    ("dense_fog", "medium", "ranged", 2),
    ("cloud", "medium", "ranged", 2),
    ("forest", "medium", "arcane", 2),
    ("forest", "medium", "melee", 0),
    ("forest", "huge", "ranged", 0),
    ("tall_grass", "small", "ranged", 2),
    ("tall_grass", "medium", "ranged", 2),
    ("tall_grass", "large", "ranged", 0),
    ("rubble", "medium", "ranged", 4),
    ("trench", "medium", "ranged", 4),
    ("crater", "medium", "ranged", 4),
    ("building", "medium", "ranged", 4),
    ("building", "medium", "arcane", 4),
    ("rubble", "medium", "melee", 0),
    ("rubble", "huge", "ranged", 0),
    ("hill", "large", "ranged", 2),
    ("hill", "extra_large", "ranged", 0),
    ("hill", "huge", "ranged", 0),
    ("hill", "medium", "melee", 0),
    ("obstacle", "medium", "melee", 2),
    ("obstruction", "medium", "melee", 2),
    ("obstacle", "medium", "ranged", 0),
])
def test_terrain_def_bonus(terrain, base, type_, bonus):
    """Step 2 (RULES 1, 7): concealment terrain +2, cover terrain +4 vs ranged and arcane (not
    huge), tall grass for small/medium only, hill +2 up to large, obstacle/obstruction +2 vs
    melee only. Reaching 10 + bonus hits, one less misses."""
    s = scen(Target(defense=10, arm=30, base=base, terrain={terrain}), probe(type_, skill=5))
    assert play(s, [_HIT[bonus]]).hit == [1]
    assert play(s, [_MISS[bonus]]).hit == [0]


# ============================================================================================
# Step 4: power field (focus) and fury of the target
# ============================================================================================
def _field(boxes=10, pow=12, attacks=1, policy="lethal", **points):
    t = Target(defense=10, arm=10, boxes=boxes, power_field=policy, **points)
    return scen(t, fist(pow=pow, attacks=attacks))


@pytest.mark.parametrize("pow, roll, spent, dealt", [
    (12, (5, 6), 1, 8),   # 11 + 12 - 10 = 13 >= 10: k = ceil(4 / 5) = 1: 13 - 5 = 8
    (12, (4, 4), 1, 5),   # 10 == 10 boxes: k = ceil(1 / 5) = 1: 5
    (16, (5, 6), 2, 7),   # 17: k = ceil(8 / 5) = 2: 7
    (12, (2, 3), 0, 7),   # 7 < 10: not lethal, nothing spent
])
def test_power_field_focus_spends_minimum_when_lethal(pow, roll, spent, dealt):
    """Step 4: focus lethal: only when points >= remaining, spend k = ceil((points -
    remaining + 1) / 5) and take 5k fewer. 10 boxes, 3 focus."""
    p = play(_field(pow=pow, focus=3), [(2, 3), roll])
    assert p.target_spent == [spent] and p.damage == [dealt] and p.killed_by is None


def test_power_field_focus_counts_boxes_remaining():
    """Step 4: 5 of 10 boxes marked, then 13 points: k = ceil((13 - 5 + 1) / 5) = 2: 3."""
    p = play(_field(attacks=2, focus=3), [(2, 3), (1, 2), (2, 3), (5, 6)])
    assert p.target_spent == [0, 2] and p.damage == [5, 3] and p.marked == 8
    assert p.killed_by is None


def test_power_field_focus_not_affordable_spends_nothing():
    """Step 4: 17 points against 10 boxes needs k = 2, the target has 1: it spends nothing
    and is killed."""
    p = play(_field(pow=16, focus=1), [(2, 3), (5, 6)])
    assert p.target_spent == [0] and p.damage == [10] and p.killed_by == 0


def test_power_field_focus_runs_out():
    """Step 4: 1 focus: the first lethal hit costs it (13 -> 8); the next lethal hit (5 >= 2
    left) finds none and kills."""
    p = play(_field(attacks=2, focus=1), [(2, 3), (5, 6), (2, 3), (1, 2)])
    assert p.target_spent == [1, 0] and p.damage == [8, 2] and p.killed_by == 1


def test_power_field_sees_decapitation_doubled_points():
    """Step 4: Decapitation doubles first, then the power field judges: critical, 7 + 12 -
    12 = 7, doubled 14 >= 10 boxes: k = ceil(5 / 5) = 1: 9 marked."""
    t = Target(defense=10, arm=12, boxes=10, focus=3)
    p = play(scen(t, fist(rules={"decapitation"})), [(3, 3), (3, 4)])
    assert p.crit == [1] and p.target_spent == [1] and p.damage == [9]


def test_power_field_never_policy():
    """Step 4: policy never: 13 points kill 10 boxes, 3 focus unspent."""
    p = play(_field(policy="never", focus=3), [(2, 3), (5, 6)])
    assert p.target_spent == [0] and p.killed_by == 0


def test_fury_prevents_one_lethal_attack():
    """Step 4: fury 1: the lethal 13 is prevented (1 fury, 0 damage); a non-lethal 7 is
    taken without spending; the next lethal hit kills (3 boxes left)."""
    p = play(_field(attacks=3, fury=1), [(2, 3), (5, 6), (2, 3), (2, 3), (2, 3), (5, 6)])
    assert p.target_spent == [1, 0, 0] and p.damage == [0, 7, 3] and p.killed_by == 2


def test_fury_never_policy():
    """Step 4: policy never: fury is not spent."""
    p = play(_field(policy="never", fury=2), [(2, 3), (5, 6)])
    assert p.target_spent == [0] and p.killed_by == 0


# ============================================================================================
# Step 4: Tough, Rapid Healing
# ============================================================================================
def _tough(rule="tough", state=()):
    t = Target(defense=14, arm=10, boxes=5, rules={rule}, state=set(state))
    return scen(t, fist(skill=6, attacks=2))


@pytest.mark.parametrize("d6", [5, 6])
def test_tough_saves_on_5_or_6_then_knocked_down(d6):
    """Step 4: disabled (9 + 12 - 10 = 11 >= 5), Tough d6 5 or 6: 1 point removed (4 marked),
    knocked down; the second attack hits with no roll (1 + 1 + 2 = 4 >= 1 left) and, the
    target knocked down, it cannot roll Tough again: killed."""
    p = play(_tough(), [(3, 5), (4, 5), (d6,), (1, 1)])
    assert p.tough == [1, 0] and p.damage == [5, 1] and p.hit == [1, 1] and p.crit == [0, 0]
    assert p.killed_by == 1 and p.marked == 5 and p.rolls_read == 4


def test_tough_fails_on_4():
    """Step 4: Tough d6 4: killed; the second attack is not made."""
    p = play(_tough(), [(3, 5), (4, 5), (4,)])
    assert p.tough == [0, 0] and p.made == [1, 0] and p.killed_by == 0 and p.rolls_read == 3


def test_tough_not_rolled_when_knocked_down():
    """Step 4: a target knocked down from the start cannot roll Tough: the auto hit kills."""
    p = play(_tough(state={"knocked_down"}), [(4, 5)])
    assert p.killed_by == 0 and p.tough == [0, 0] and p.rolls_read == 1


def test_tough_steady_rolls_while_knocked_down():
    """Step 4: Tough Steady rolls although knocked down: saved twice (5, then 6), 4 marked."""
    p = play(_tough(rule="tough_steady", state={"knocked_down"}), [(4, 5), (5,), (1, 1), (6,)])
    assert p.tough == [1, 1] and p.made == [1, 1] and p.damage == [5, 1]
    assert p.killed_by is None and p.marked == 4 and p.rolls_read == 4


def test_rapid_healing_after_damage_that_does_not_disable():
    """Step 4: rapid_healing 2: 5 marked -> 3; a miss heals nothing; 4 more -> 7 -> 5."""
    t = Target(defense=10, arm=10, boxes=30, rapid_healing=2)
    p = play(scen(t, fist(attacks=3)), [(2, 3), (1, 2),
                                        (1, 1), (1, 1),  # miss; its damage roll, drawn and dropped
                                        (2, 3), (1, 1)])
    assert p.hit == [1, 0, 1] and p.damage == [5, 0, 4] and p.marked == 5


def test_rapid_healing_never_below_zero():
    """Step 4: rapid_healing 3 after 1 point marked leaves 0 marked, not -2."""
    t = Target(defense=10, arm=13, boxes=30, rapid_healing=3)
    p = play(scen(t, fist(attacks=2)), [(2, 3), (1, 1), (2, 3), (1, 2)])
    assert p.damage == [1, 2] and p.marked == 0


def test_rapid_healing_not_after_a_hit_dealing_nothing():
    """Step 4: only an attack that dealt damage heals. POW 12 vs ARM 15: 11 - 3 = 8 marked,
    healed to 6; then 2 - 3 deals 0: no healing, 6 stay."""
    t = Target(defense=10, arm=15, boxes=30, rapid_healing=2)
    p = play(scen(t, fist(attacks=2)), [(2, 3), (5, 6), (2, 3), (1, 1)])
    assert p.hit == [1, 1] and p.damage == [8, 0] and p.marked == 6


# ============================================================================================
# Order: the sequence ends at a kill
# ============================================================================================
def test_sequence_ends_at_the_kill():
    """Order: the first attack kills (9 + 12 - 10 >= 5): later slots, bought attacks and the
    next attacker's, are not made and nothing is paid for them."""
    s = Scenario(Target(defense=10, arm=10, boxes=5),
                 [Attacker("A", [fist(attacks=2)], focus=2, spend=spend(buy=True)),
                  Attacker("B", [fist()])])
    p = play(s, [(2, 3), (4, 5)])
    assert p.made == [1, 0, 0, 0, 0] and p.spent == [0] * 5
    assert p.killed_by == 0 and p.marked == 5 and p.rolls_read == 2


def test_sequence_ends_at_a_kill_by_a_bought_attack():
    """Order / step 5: a bought attack that kills still counts its point paid."""
    s = Scenario(Target(defense=10, arm=10, boxes=8),
                 [Attacker("A", [fist()], focus=1, spend=spend(buy=True)),
                  Attacker("B", [fist()])])
    p = play(s, [(2, 3), (1, 2), (2, 3), (1, 2)])  # 3 + 2 = 5 marked, then 5 >= 3 kills
    assert p.made == [1, 1, 0] and p.spent == [0, 1, 0] and p.damage == [5, 3, 0]
    assert p.killed_by == 1


def test_no_point_is_paid_for_a_boost_the_floor_would_swallow():
    """docs/activation.md steps 2 and 4: a paid boost must add a die. With three dice taken
    off (raw count -1), the roll has one die boosted or not, so no point is spent on it."""
    t = Target(0, 10, boxes=30)
    w = Weapon("Weak", "melee", 20, 12, extra_attack_dice=-3, extra_damage_dice=-3)
    jack = Attacker("Jack", [w], focus=3, spend=Spend(boost_attack="always", boost_damage="always",
                                                      buy_attacks=False))
    p = play(Scenario(t, [jack]), [(4,), (5,)])
    assert p.boost_attack == [0] and p.boost_damage == [0] and p.spent == [0]
    assert p.damage == [5 + 12 - 10]
    # one die fewer only (raw 1): the boost adds a die and is paid
    w = Weapon("Weak", "melee", 20, 12, extra_attack_dice=-1, extra_damage_dice=-1)
    jack = Attacker("Jack", [w], focus=3, spend=Spend(boost_attack="always", boost_damage="always",
                                                      buy_attacks=False))
    p = play(Scenario(t, [jack]), [(4, 1), (5, 1)])
    assert p.boost_attack == [1] and p.boost_damage == [1] and p.spent == [2]
