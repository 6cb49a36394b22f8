"""Worked examples of continuous effects, hazards and several rounds (docs/rules.md 4;
docs/activation.md, "Continuous effects, hazards and several turns"), replayed roll by roll
through the real kernel.

Rolls in the order the kernel reads them, per round: the attack phase (attack roll, damage
roll -- a miss's too, drawn and dropped --, column d6, Tough d6 as needed), a burning
earth's d6 at the end of the attackers' turn, then for fire and corrosion, if on the target,
the expiry d6 and, when it applies, fire's 2d6 (then a column d6 and a Tough d6 as needed);
the burning earth's d6 at the end of the target's turn.
"""

from __future__ import annotations

from mathhammer import Attacker, Scenario, Target, Weapon
from mathhammer.montecarlo._kernels.layout import (CE_CORROSION, CE_FIRE, CE_QUICKSAND, E_AFTER, E_APPLIED, E_DAMAGE,
                                                  E_KILL, E_PRESENT, E_TARGET_SPENT, E_TOUGH)
from scripted import play


def torch(**kw):
    """Hits DEF 0 on anything but double ones; POW 0 against ARM 20: never damages."""
    return Weapon("Torch", "melee", 20, 0, **kw)


def one(target, weapon, turns=1, attack_turns="all"):
    return Scenario(target, [Attacker("A", [weapon])], turns=turns, attack_turns=attack_turns)


def test_rules4_fire_hit_burns_in_the_maintenance_phase():
    """RULES 4: a Fire weapon's hit sets the target on fire; in its controller's maintenance
    phase a d6 of 3+ makes a POW 12 fire damage roll (2d6 + 12 - ARM)."""
    t = Target(0, 14, boxes=20)
    p = play(one(t, torch(rules={"fire"})), [(3, 4), (1, 1), (3,), (2, 3)])
    # attack: hit, damage (1,1) + 0 - 14 = 0; maintenance: fire 3 -> applies: 5 + 12 - 14 = 3
    assert p.effects[0, CE_FIRE, E_PRESENT] == 1 and p.effects[0, CE_FIRE, E_APPLIED] == 1
    assert p.effects[0, CE_FIRE, E_DAMAGE] == 3 and p.marked == 3
    assert p.effects[0, CE_FIRE, E_AFTER] == 1  # still burning at the end of the round


def test_rules4_effect_expires_on_1_or_2():
    """RULES 4: on a 1 or 2 the effect expires with no effect."""
    t = Target(0, 14, boxes=20)
    p = play(one(t, torch(rules={"fire"}), turns=2, attack_turns="first"),
             [(3, 4), (1, 1), (2,)])
    assert p.effects[0, CE_FIRE, E_PRESENT] == 1 and p.effects[0, CE_FIRE, E_APPLIED] == 0
    assert p.effects[0, CE_FIRE, E_AFTER] == 0 and p.effects[1, CE_FIRE, E_PRESENT] == 0
    assert p.marked == 0


def test_rules4_corrosion_deals_one_point_each_round_until_it_expires():
    t = Target(0, 14, boxes=20, effects={"corrosion"})
    p = play(one(t, torch(), turns=3, attack_turns="first"), [
        (1, 1), (1, 1),  # the miss, and its damage roll, drawn and dropped
        (5,), (6,), (1,)])
    # round 1: the torch misses on double ones (its damage dice drawn and dropped);
    # corrosion 5: 1 point; round 2: 6: 1 point; round 3: 1: expires
    assert p.effects[:, CE_CORROSION, E_DAMAGE].tolist() == [1, 1, 0]
    assert p.effects[:, CE_CORROSION, E_AFTER].tolist() == [1, 1, 0]
    assert p.marked == 2


def test_rules4_resistant_target_never_suffers_the_effect():
    """RULES 4: a model resistant to the type never suffers that continuous effect."""
    t = Target(0, 14, boxes=20, resist={"fire"})
    # a hit (the torch's damage is not of the fire type: a full damage roll)
    p = play(one(t, torch(rules={"fire"})), [(3, 4), (1, 1)])
    assert p.hit == [1]
    assert not p.effects[0, CE_FIRE].any()


def test_rules9_one_of_each_type_at_most():
    """RULES 9 (continuous effects): at most one of each type on a model."""
    t = Target(0, 14, boxes=20)
    w = torch(rules={"fire"}, attacks=2)
    p = play(one(t, w), [(3, 4), (1, 1), (3, 4), (1, 1), (4,), (6, 6)])
    # two fire hits, one fire: one expiry roll, one fire damage roll 12 + 12 - 14 = 10
    assert p.effects[0, CE_FIRE, E_PRESENT] == 1 and p.effects[0, CE_FIRE, E_DAMAGE] == 10


def test_rules4_critical_fire_needs_a_critical_hit():
    t = Target(0, 14, boxes=20)
    w = torch(rules={"critical_fire"}, attacks=2)
    p = play(one(t, w), [(3, 4), (1, 1), (4, 4), (1, 1), (3,), (1, 2)])
    # the plain hit sets nothing; the critical (4, 4) does; fire 3: 3 + 12 - 14 = 1
    assert p.crit == [0, 1] and p.effects[0, CE_FIRE, E_DAMAGE] == 1


def test_rules4_fire_can_kill_in_the_maintenance_phase():
    t = Target(0, 14, boxes=3)
    p = play(one(t, torch(rules={"fire"})), [(3, 4), (1, 1), (6,), (2, 3)])
    assert p.effects[0, CE_FIRE, E_KILL] == 1 and p.killed_by is None and p.marked == 3


def test_attack_turns_all_repeats_the_attack_phase_each_round():
    """docs/activation.md: with attack_turns = "all" every round has an attack phase, with
    the target's starting state again (it stood up)."""
    t = Target(15, 14, boxes=20)
    w = Weapon("Hammer", "melee", 8, 14, rules={"knockdown"})
    p = play(one(t, w, turns=2), [(3, 4), (2, 2), (3, 4), (2, 2)])
    # round 1: 7 + 8 = 15 hits, knocks down; round 2: the target stood up, so the attack
    # rolls again (no automatic hit): 15 hits
    assert p.hit == [1, 1] and p.rolls_read == 4
    assert p.damage == [4 + 14 - 14, 4 + 14 - 14]


def test_acid_bath_gives_corrosion_at_the_end_of_the_targets_activation():
    """RULES 4 hazards: ending an activation in an acid bath gives Corrosion."""
    t = Target(0, 14, boxes=20, terrain={"acid_bath"})
    p = play(one(t, torch(), turns=2, attack_turns="first"), [
        (1, 1), (1, 1),  # the miss, and its damage roll, drawn and dropped
        (4,)])
    # round 1: the torch misses (its damage dice drawn and dropped); no effect at
    # maintenance; the activation in the bath: corrosion; round 2: corrosion 4: 1 point
    assert p.effects[:, CE_CORROSION, E_PRESENT].tolist() == [0, 1]
    assert p.marked == 1


def test_burning_earth_goes_out_on_1_or_2():
    """RULES 4 hazards: burning earth gives Fire and goes out on a d6 of 1-2 at each player's
    turn end."""
    t = Target(0, 14, boxes=20, terrain={"burning_earth"})
    # round 1: the torch misses (its damage dice drawn and dropped); the end of the
    # attackers' turn: 4 (still burns); activation: Fire; end of the target's turn: 1 (goes
    # out). Round 2: fire 5 -> 2d6 (1, 2) + 12 - 14 = 1
    p = play(one(t, torch(), turns=2, attack_turns="first"), [
        (1, 1), (1, 1),  # the miss, and its damage roll, drawn and dropped
        (4,), (1,), (5,), (1, 2)])
    assert p.effects[:, CE_FIRE, E_DAMAGE].tolist() == [0, 1]
    assert p.effects[1, CE_FIRE, E_AFTER] == 1  # fire itself burns on; the earth is out


def test_quicksand_knockdown_deals_one_point():
    """RULES 4 hazards: a model knocked down while touching quicksand takes 1 damage point."""
    t = Target(0, 30, boxes=20, terrain={"quicksand"})
    w = Weapon("Slam", "melee", 20, 0, rules={"knockdown"}, attacks=2)
    p = play(one(t, w), [(3, 4), (1, 1), (1, 1)])
    # 1st hit knocks down: 1 point; the 2nd hits automatically (no attack roll, a damage
    # roll of 0 points), already down: no point
    assert p.effects[0, CE_QUICKSAND, E_DAMAGE] == 1 and p.marked == 1
    assert p.hit == [1, 1]


def test_power_field_focus_against_fire_but_not_fury():
    """docs/activation.md: focus may be spent against non-attack damage; fury may not."""
    for kind, spent in (("focus", True), ("fury", False)):
        t = Target(0, 14, boxes=2, effects={"fire"}, power_field="lethal", **{kind: 1})
        p = play(one(t, torch()), [(1, 1),
                                   (1, 1),  # the miss's damage roll, drawn and dropped
                                   (3,), (3, 3)])  # fire: 6 + 12 - 14 = 4 >= 2 boxes
        assert (p.marked == 0) == spent
        assert (p.effects[0, CE_FIRE, E_KILL] == 1) == (not spent)
        assert p.effects[0, CE_FIRE, E_TARGET_SPENT] == (1 if spent else 0)  # counted: issue 18


def test_tough_saves_from_corrosion():
    t = Target(0, 14, boxes=1, effects={"corrosion"}, rules={"tough"})
    p = play(one(t, torch()), [(1, 1),
                               (1, 1),  # the miss's damage roll, drawn and dropped
                               (4,), (5,)])  # corrosion applies; Tough 5: saved
    assert p.marked == 0 and p.effects[0, CE_CORROSION, E_KILL] == 0
    assert p.effects[0, CE_CORROSION, E_TOUGH] == 1


def test_corrosion_on_a_grid_rolls_the_column():
    t = Target(0, 14, grid=("L", ".", ".", ".", ".", "."), effects={"corrosion"})
    p = play(one(t, torch()), [(1, 1),
                               (1, 1),  # the miss's damage roll, drawn and dropped
                               (3,), (1,)])  # applies; column 1: the L box
    assert p.crippled == {"L"} and p.marks[0] == [1]
