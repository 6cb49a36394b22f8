"""Worked examples, one per rule of docs/rules.md the engine implements (sections 1, 2, 3, 5).

Each test replays dice we choose through the real kernel (tests/scripted.py), or checks the
rules model / exact engine against a figure worked out by hand in the test.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from mathhammer import Attacker, InputError, Scenario, Target, Weapon, simulate
from scripted import play


def scen(target, *weapons, attackers=None):
    if attackers is None:
        attackers = [Attacker("A", list(weapons))]
    return Scenario(target, attackers)


FIST = dict(name="Fist", type="melee", skill=7, pow=16)
GUN = dict(name="Gun", type="ranged", skill=6, pow=12)


# --- 1. attack rolls ------------------------------------------------------------------------
def test_rule_attack_roll_hits_on_reaching_def():
    """RULES 1: 2d6 + MAT >= DEF hits. MAT 7 vs DEF 12 needs 5: 2+2 misses, 2+3 hits."""
    s = scen(Target(defense=12, arm=18, boxes=30), Weapon(**FIST))
    assert play(s, [2, 2, 1, 1]).hit == [0]  # the miss's damage roll, drawn and dropped
    p = play(s, [2, 3, 1, 1])  # hit; damage 1+1+16-18 = 0
    assert p.hit == [1] and p.crit == [0] and p.damage == [0]


def test_rule_automatic_miss_all_ones_with_mat_20():
    """RULES 1: all dice 1 miss automatically, even MAT 20 against DEF 5."""
    s = scen(Target(defense=5, arm=10), Weapon("Big", "melee", 20, 10))
    assert play(s, [1, 1, 1, 1]).hit == [0]  # the miss's damage roll, drawn and dropped
    assert play(s, [1, 2, 1, 1]).hit == [1]
    # three dice (boosted): only 1-1-1 misses
    sb = scen(Target(defense=5, arm=30), Weapon("Big", "melee", 20, 10, boosted_attack=True))
    assert play(sb, [(1, 1, 1), (1, 1)]).hit == [0]  # the miss's damage roll, drawn and dropped (two dice)
    assert play(sb, [(1, 1, 2), (1, 1)]).hit == [1]
    assert simulate(s, method="exact").hit[0] == pytest.approx(35 / 36, abs=1e-12)


def test_rule_automatic_hit_all_sixes_against_def_25():
    """RULES 1: all dice 6 hit automatically, even MAT 5 against DEF 25; and it is a crit."""
    s = scen(Target(defense=25, arm=30), Weapon("Claw", "melee", 5, 10))
    p = play(s, [6, 6, 1, 1])
    assert p.hit == [1] and p.crit == [1]
    assert play(s, [6, 5, 1, 1]).hit == [0]  # the miss's damage roll, drawn and dropped
    assert simulate(s, method="exact").hit[0] == pytest.approx(1 / 36, abs=1e-12)


def test_rule_automatic_miss_and_hit_need_two_dice():
    """RULES 1: with one die (a crippled, unboosted weapon... at its floor), a 1 is a normal roll."""
    w = Weapon("Stub", "melee", 10, 10, extra_attack_dice=-1)  # one die
    s = scen(Target(defense=11, arm=30), w)
    assert play(s, [(1,), (1, 1)]).hit == [1]  # 1 + 10 >= 11: hits, and one die can't be critical
    assert play(s, [(1,), (1, 1)]).crit == [0]
    s2 = scen(Target(defense=17, arm=30), w)
    # 6 + 10 < 17: one six is no automatic hit; the miss's damage roll (two dice), drawn and dropped
    assert play(s2, [(6,), (1, 1)]).hit == [0]


def test_rule_critical_hit_needs_two_equal_dice_and_a_hit():
    """RULES 1: a critical hit is a hit with at least two dice showing the same number."""
    s = scen(Target(defense=12, arm=30), Weapon(**FIST))
    assert play(s, [3, 3, 1, 1]).crit == [1]
    assert play(s, [2, 2, 1, 1]).crit == [0]  # doubles that miss are not critical (then the dropped damage roll)
    assert play(s, [3, 4, 1, 1]).crit == [0]
    sb = scen(Target(defense=12, arm=30), Weapon(**FIST, boosted_attack=True))
    assert play(sb, [(1, 5, 5), (1, 1)]).crit == [1]  # any two of three dice
    # exact: P(crit) for MAT 7 vs DEF 12 = doubles summing to 5+ = 4/36
    assert simulate(s, method="exact").crit[0] == pytest.approx(4 / 36, abs=1e-12)


@pytest.mark.parametrize("state", ["knocked_down", "stationary", "inert", "wild", "building"])
def test_rule_melee_hits_automatically_without_dice(state):
    """RULES 1: melee attacks against knocked down, stationary, inert, wild models and
    buildings hit with no roll, so never critically; the first roll read is the damage roll."""
    s = scen(Target(defense=20, arm=14, boxes=30, state={state}), Weapon(**FIST))
    p = play(s, [6, 6])
    assert p.hit == [1] and p.crit == [0] and p.damage == [6 + 6 + 16 - 14]
    assert p.rolls_read == 1


@pytest.mark.parametrize("state", ["knocked_down", "stationary", "inert", "wild", "building"])
def test_rule_base_def_5_states_ranged(state):
    """RULES 1: those states make base DEF 5 for ranged attacks, modifiers still applying."""
    t = Target(defense=16, arm=14, state={state, "cover"})
    assert t.defense_against("ranged") == 5 + 4
    s = scen(Target(defense=16, arm=30, state={state}), Weapon("Gun", "ranged", 1, 12))
    assert play(s, [1, 3, 1, 1]).hit == [1]  # 4 + 1 = 5 reaches base DEF 5 (DEF 16 ignored)
    assert play(s, [1, 2, 1, 1]).hit == [0]  # the miss's damage roll, drawn and dropped


def test_rule_def_modifiers_table():
    """RULES 1, DEF modifiers table."""
    base = dict(defense=12, arm=10)
    T = lambda **kw: Target(**{**base, **kw})  # noqa: E731
    # concealment +2 / cover +4 vs ranged and arcane, not melee
    assert T(state={"concealment"}).defense_against("ranged") == 14
    assert T(state={"concealment"}).defense_against("arcane") == 14
    assert T(state={"concealment"}).defense_against("melee") == 12
    assert T(state={"cover"}).defense_against("ranged") == 16
    # cover and concealment do not stack: cover wins
    assert T(state={"cover", "concealment"}).defense_against("ranged") == 16
    # huge bases gain neither cover, concealment nor the in-melee bonus
    assert T(base="huge", state={"cover"}).defense_against("ranged") == 12
    assert T(base="huge", state={"concealment"}).defense_against("ranged") == 12
    assert T(base="huge", state={"in_melee"}).defense_against("ranged") == 12
    # in melee +4 vs ranged for everything smaller, extra-large included
    assert T(base="extra_large", state={"in_melee"}).defense_against("ranged") == 16
    # elevation +2 for large bases and smaller, not extra-large or huge
    assert T(base="large", state={"elevated"}).defense_against("ranged") == 14
    assert T(base="extra_large", state={"elevated"}).defense_against("ranged") == 12
    assert T(base="huge", state={"elevated"}).defense_against("ranged") == 12
    # obstacle +2 vs melee only
    assert T(state={"obstacle"}).defense_against("melee") == 14
    assert T(state={"obstacle"}).defense_against("ranged") == 12
    # everything together against a ranged attack on a knocked-down model: 5 + 4 + 4 + 2
    t = T(state={"knocked_down", "cover", "concealment", "in_melee", "elevated"})
    assert t.defense_against("ranged") == 15


def test_rule_cover_and_concealment_do_not_stack_in_the_kernel():
    """RULES 1: cover + concealment = +4 (not +6). RAT 6 vs DEF 12 + 4 = 16 needs a 10."""
    s = scen(Target(defense=12, arm=30, state={"cover", "concealment"}), Weapon(**GUN))
    assert play(s, [4, 6, 1, 1]).hit == [1]
    assert play(s, [4, 5, 1, 1]).hit == [0]  # the miss's damage roll, drawn and dropped


def test_rule_huge_base_ignores_cover_in_the_kernel():
    """RULES 1: a huge base gains no cover: RAT 6 vs DEF 12 needs a 6."""
    s = scen(Target(defense=12, arm=30, base="huge", state={"cover"}), Weapon(**GUN))
    assert play(s, [2, 4, 1, 1]).hit == [1]
    assert play(s, [1, 4, 1, 1]).hit == [0]  # the miss's damage roll, drawn and dropped


def test_rule_arcane_uses_rat_and_ranged_modifiers():
    """RULES 1: arcane attack = 2d6 + RAT and follows the ranged DEF modifiers."""
    spell = Weapon("Bolt", "arcane", skill=6, pow=12)
    s = scen(Target(defense=12, arm=30, state={"concealment"}), spell)
    assert play(s, [4, 4, 1, 1]).hit == [1]  # 8 + 6 = 14 = 12 + 2
    assert play(s, [3, 4, 1, 1]).hit == [0]  # the miss's damage roll, drawn and dropped


# --- dice counts ----------------------------------------------------------------------------
def test_rule_boosted_attack_rolls_three_dice():
    """RULES 1: a boosted attack roll adds a die (here free, from the weapon)."""
    s = scen(Target(defense=16, arm=30), Weapon(**FIST, boosted_attack=True))
    assert play(s, [(1, 4, 4), (1, 1)]).hit == [1]  # 9 + 7 = 16
    assert Weapon(**FIST, boosted_attack=True).attack_dice == 3


def test_rule_extra_and_fewer_dice_never_below_one():
    """RULES 1: extra dice add up, "one fewer die" effects remove dice, never below one."""
    assert Weapon(**FIST, boosted_attack=True, extra_attack_dice=1).attack_dice == 4
    assert Weapon(**FIST, crippled=True).attack_dice == 1
    assert Weapon(**FIST, crippled=True, extra_attack_dice=-2).attack_dice == 1
    assert Weapon(**FIST, crippled=True).damage_dice_against(frozenset()) == 1
    s = scen(Target(defense=8, arm=10, boxes=30), Weapon(**FIST, crippled=True))
    p = play(s, [(1,), (3,)])  # one attack die (1 + 7 = 8 hits), one damage die (3 + 16 - 10)
    assert p.hit == [1] and p.damage == [9] and p.rolls_read == 2


# --- 2. damage rolls ------------------------------------------------------------------------
def test_rule_damage_roll_exceeding_arm():
    """RULES 2: damage = 2d6 + POW - ARM, never below 0."""
    s = scen(Target(defense=5, arm=20, boxes=30), Weapon(**FIST))
    assert play(s, [3, 4, 5, 6]).damage == [5 + 6 + 16 - 20]
    assert play(s, [3, 4, 1, 2]).damage == [0]


def test_rule_damage_capped_by_boxes_left():
    """RULES 2: a model never takes more damage than its unmarked boxes."""
    s = scen(Target(defense=5, arm=10, boxes=8), Weapon(**FIST, attacks=2))
    p = play(s, [3, 4, 6, 6])  # 6 + 6 + 16 - 10 = 18 > 8
    assert p.damage == [8, 0] and p.marked == 8 and p.killed_by == 0


def test_rule_no_boxes_one_damage_disables():
    """RULES 3: a model without damage boxes is disabled by one damage point."""
    s = scen(Target(defense=5, arm=18), Weapon(**FIST, attacks=2))
    p = play(s, [3, 4, 1, 1, 3, 4, 1, 1])  # 1 + 1 + 16 - 18 = 0 twice: no damage
    assert p.made == [1, 1] and p.marked == 0 and p.killed_by is None
    p = play(s, [3, 4, 1, 1, 3, 4, 1, 2])  # second attack: 1 point
    assert p.killed_by == 1 and p.marked == 1


def test_rule_pow_dash_deals_no_damage_and_rolls_none():
    """RULES 2: POW "-" deals no damage and so rolls no damage dice."""
    shove = Weapon("Shove", "melee", 7, None, rules={"knockdown"})
    s = scen(Target(defense=12, arm=10), shove)
    p = play(s, [6, 6])
    assert p.hit == [1] and p.damage == [0] and p.rolls_read == 1 and p.killed_by is None


def test_rule_resistance_removes_one_die_from_boosted_damage():
    """RULES 2: a resisted type removes one die: a boosted fire damage roll rolls 2 dice."""
    w = Weapon("Flame", "ranged", 6, 12, boosted_damage=True, damage_type={"fire"})
    t = Target(defense=5, arm=10, boxes=30, resist={"fire"})
    assert w.damage_dice_against(t.resist) == 2
    p = play(scen(t, w), [3, 4, 5, 5])
    assert p.damage == [5 + 5 + 12 - 10] and p.rolls_read == 2
    # unresisted: three dice
    p = play(scen(Target(defense=5, arm=10, boxes=30), w), [(3, 4), (5, 5, 1)])
    assert p.damage == [5 + 5 + 1 + 12 - 10] and p.rolls_read == 2


def test_rule_several_resisted_types_lose_only_one_die():
    """RULES 2: a roll of several types, more than one resisted, loses only one die."""
    w = Weapon("Storm", "ranged", 6, 12, damage_type={"fire", "electrical"})
    assert w.damage_dice_against(frozenset({"fire", "electrical"})) == 1
    assert w.damage_dice_against(frozenset({"cold"})) == 2


def test_rule_arcane_damage_is_magical():
    """RULES 2: arcane attacks deal magical damage, so a magic-resistant target loses a die."""
    spell = Weapon("Bolt", "arcane", 6, 12)
    assert "magical" in spell.damage_types
    t = Target(defense=5, arm=10, boxes=30, resist={"magical"})
    p = play(scen(t, spell), [(3, 4), (6,)])
    assert p.damage == [6 + 12 - 10] and p.rolls_read == 2


# --- 5. combat actions ----------------------------------------------------------------------
def test_rule_mixed_melee_and_ranged_rejected():
    """RULES 5: melee and ranged attacks never mix in one combat action."""
    with pytest.raises(InputError, match="never mixes melee and ranged"):
        Attacker("A", [Weapon(**FIST), Weapon(**GUN)])
    with pytest.raises(InputError, match="never mixes"):
        Attacker("A", [Weapon(**FIST), Weapon("Bolt", "arcane", 6, 12)])
    Attacker("A", [Weapon(**GUN), Weapon("Bolt", "arcane", 6, 12)])  # ranged + arcane is fine


def test_rule_attack_order_weapons_then_attackers():
    """RULES 5: each weapon makes its attacks in the order listed, attackers in order."""
    a = Attacker("First", [Weapon("Left", "melee", 7, 12, attacks=2), Weapon("Right", "melee", 7, 14)])
    b = Attacker("Second", [Weapon("Bite", "melee", 6, 10)])
    s = Scenario(Target(defense=12, arm=10, boxes=30), [a, b])
    labels = [slot.label for slot in s.attack_sequence()]
    assert labels == ["First / Left #1", "First / Left #2", "First / Right #1", "Second / Bite #1"]
    # damage lands from each in that order: Left 12, Left 12, Right 14, Bite 10 (+ 2d6 - 10)
    p = play(s, [3, 3, 1, 1, 3, 4, 1, 2, 3, 4, 2, 2, 3, 4, 6, 6])
    assert p.damage == [2 + 12 - 10, 3 + 12 - 10, 4 + 14 - 10, 12 + 10 - 10]


def test_rule_sequence_stops_once_target_disabled():
    """RULES 5 / 3: a disabled target takes no further attacks (the sequence ends)."""
    s = scen(Target(defense=5, arm=10, boxes=5), Weapon(**FIST, attacks=3))
    p = play(s, [3, 4, 3, 3])
    assert p.made == [1, 0, 0] and p.killed_by == 0 and p.rolls_read == 2


def test_rule_knockdown_makes_next_melee_attack_automatic():
    """RULES 5 + 1: a knockdown hit leaves the target knocked down for the rest of the
    activation; the next melee attack hits with no roll (and so is no critical)."""
    s = scen(Target(defense=14, arm=18, boxes=30),
             Weapon("Shove", "melee", 7, None, rules={"knockdown"}), Weapon(**FIST))
    p = play(s, [3, 4, 6, 6])  # shove hits (7 + 7 = 14); fist: no attack dice, damage 6+6
    assert p.hit == [1, 1] and p.crit == [0, 0] and p.damage == [0, 12 + 16 - 18]
    assert p.rolls_read == 2
    p = play(s, [3, 3, 6, 6, 1, 1])  # shove misses: the fist rolls to hit (6,6 auto-hit, crit)
    assert p.hit == [0, 1] and p.crit == [0, 1]


def test_rule_critical_knockdown_only_on_critical():
    """RULES 5: critical_knockdown knocks down only on a critical hit."""
    s = scen(Target(defense=12, arm=30, boxes=30),
             Weapon("Hammer", "melee", 7, 10, rules={"critical_knockdown"}, attacks=2))
    # hit, no crit; second attack rolls (and auto-misses), then its damage roll, drawn and dropped
    p = play(s, [3, 4, 1, 1, 1, 1, 1, 1])
    assert p.hit == [1, 0]
    p = play(s, [3, 3, 1, 1, 1, 1])  # crit: knocked down; second hits with no roll
    assert p.hit == [1, 1] and p.rolls_read == 3


def test_rule_knockdown_then_ranged_faces_base_def_5():
    """RULES 5 + 1: after a knockdown, ranged and arcane attacks face base DEF 5 + modifiers."""
    a = Attacker("Gunner", [Weapon("Net", "ranged", 6, None, rules={"knockdown"}),
                            Weapon("Gun", "ranged", 1, 12)])
    s = Scenario(Target(defense=15, arm=30, boxes=30, state={"concealment"}), [a])
    p = play(s, [5, 6, 2, 4, 1, 1])  # net 11 + 6 = 17 >= 17 hits; gun 6 + 1 = 7 >= 5 + 2
    assert p.hit == [1, 1]
    p = play(s, [5, 6, 2, 3, 1, 1])  # gun 5 + 1 = 6 < 7; the miss's damage roll, drawn and dropped
    assert p.hit == [1, 0]


def test_exact_figure_for_two_fist_attacks_by_hand():
    """RULES 1-3 together, by hand: MAT 7 vs DEF 12 hits on 5+ (30/36); damage 2d6 + 16 - 18
    averages E[max(0, 2d6 - 2)] = 5 per hit, so two attacks against 30 boxes mark 2 * 30/36 * 5."""
    s = scen(Target(defense=12, arm=18, boxes=30), Weapon(**FIST, attacks=2))
    r = simulate(s, method="exact")
    assert r.damage_mean == pytest.approx(float(2 * Fraction(30, 36) * 5), abs=1e-12)
