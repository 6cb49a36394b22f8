"""Worked examples of damage grids and life spirals (docs/rules.md 3; docs/activation.md, "Damage
grids and life spirals"), replayed roll by roll through the real kernel.

Rolls, in the order the kernel reads them: each attack roll, then on a hit its damage roll,
then — when at least one damage point is dealt and no "damage to X" box takes the first
point — the column (branch) d6 as a 1-tuple, then a Tough d6 if the target is disabled.
"""

from __future__ import annotations

import pytest

from mathhammer import Attacker, Scenario, Target, Weapon
from scripted import play

#: An illustrative heavy warjack grid (columns 1..6, top box first).
HEAVY = ("......", ".....L", "....LL", "...MC.", "...MC.", "....RR")


def jack(*weapons, **kw):
    return Attacker("Jack", list(weapons), **kw)


def fist(skill=20, pow_=12, **kw):
    """A weapon that hits DEF 0 on anything but double ones: damage = 2d6 + pow - ARM."""
    return Weapon("Fist", "melee", skill, pow_, **kw)


def test_rules3_marks_the_rolled_column_top_down():
    """RULES 3, damage grid: d6 picks the column, marking from its topmost unmarked box down."""
    t = Target(0, 12, grid=HEAVY)
    # hit (3,4); damage (2,2) + 12 - 12 = 4 points; column 5 "...MC." takes 4: rows 0-3
    p = play(Scenario(t, [jack(fist())]), [(3, 4), (2, 2), (5,)])
    assert p.damage == [4] and p.marked == 4
    assert p.marks[4] == [1, 1, 1, 1, 0, 0]
    assert sum(map(sum, p.marks)) == 4
    assert p.crippled == set()  # one of M's boxes (col 4 row 3 and col 5 row 3) still unmarked


def test_rules3_overflow_from_column_6_to_column_1():
    """RULES 3: a full column continues in the next one to the right; after 6 comes 1."""
    t = Target(0, 12, grid=HEAVY)
    # damage (6,4) + 12 - 12 = 10 points from column 6 (6 boxes), then 4 in column 1
    p = play(Scenario(t, [jack(fist())]), [(3, 4), (6, 4), (6,)])
    assert p.marks[5] == [1] * 6 and p.marks[0] == [1, 1, 1, 1, 0, 0]
    assert p.crippled == {"R"}  # both R boxes are in column 6


def test_rules3_a_full_column_sends_damage_on():
    """RULES 3: a column already full takes nothing; the points go to the next one."""
    t = Target(0, 12, grid=HEAVY)
    fists = fist(attacks=2)
    # 1st: 6 points in column 2 (fills it: ".....L" -> L's first box);
    # 2nd: 3 points rolled on column 2 again -> column 3 rows 0-2
    p = play(Scenario(t, [jack(fists)]), [(3, 4), (3, 3), (2,), (3, 4), (1, 2), (2,)])
    assert p.damage == [6, 3]
    assert p.marks[1] == [1] * 6 and p.marks[2] == [1, 1, 1, 0, 0, 0]


def test_rules3_damage_exactly_filling_a_system_cripples_it():
    """RULES 3: a system is crippled once all of its boxes are marked, and not before."""
    t = Target(0, 12, grid=("LL", "", "", "", "", ""), boxes=1)
    w = fist(attacks=2, extra_damage_dice=-1)  # one damage die: 1d6 + 12 - 12
    # 1st: 1 point -> first L box (column 1 row 0): not crippled;
    # 2nd: hits (3, 4)? one die: the attack roll still has 2 dice; damage (1) -> second L box
    p = play(Scenario(t, [jack(w)]), [(3, 4), (1,), (1,), (3, 4), (1,), (4,)])
    assert p.crippled_after == [set(), {"L"}]
    assert p.killed_by == 1  # both boxes marked: disabled


def test_damage_to_system_takes_the_topmost_box_of_the_lowest_column():
    """RULES 3, "damage to system X": the first point marks the topmost unmarked X box of the
    lowest-numbered column that has one; the rest continues from that column (no roll)."""
    t = Target(0, 12, grid=HEAVY)
    w = fist(damage_to="M")
    # 3 points: the first to column 4 row 3 (M), then column 4 rows 0, 1 (topmost unmarked)
    p = play(Scenario(t, [jack(w)]), [(3, 4), (1, 2)])
    assert p.rolls_read == 2  # no column roll
    assert p.marks[3] == [1, 1, 0, 1, 0, 0]


def test_damage_to_a_crippled_system_rolls_the_column():
    """docs/activation.md: with no unmarked X box, the column is rolled as usual."""
    t = Target(0, 12, grid=("L", ".", ".", ".", ".", "."), boxes=1)
    w = fist(damage_to="L", attacks=2, extra_damage_dice=-1)
    # 1st: 1 point straight to the L box (no roll); 2nd: L is full -> column roll 4
    p = play(Scenario(t, [jack(w)]), [(3, 4), (1,), (3, 4), (1,), (4,)])
    assert p.marks == [[1], [0], [0], [1], [0], [0]]
    assert p.crippled == {"L"}


def test_seed000_example1_shield_arm_crippled_loses_its_arm_bonus():
    """Seed 000, example 1 (docs/rules.md 3 crippling table): a shield on a crippled arm loses its
    ARM bonus, from the next attack on."""
    t = Target(0, 10, grid=("L", "..", "..", "..", "..", ".."), shield=("L",), boxes=1)
    w = fist(pow_=10, attacks=2, damage_to="L", extra_damage_dice=-1)
    # ARM 10 + 2 (Shield) = 12: 1st: damage (3) + 10 - 12 = 1 -> the L box: crippled;
    # 2nd: ARM 10 now: damage (3) + 10 - 10 = 3 points (column roll 2: rows 0-1, then col 3)
    p = play(Scenario(t, [jack(w)]), [(3, 4), (3,), (3, 4), (3,), (2,)])
    assert p.damage == [1, 3]
    assert p.crippled_after[0] == {"L"}


def test_seed000_example2_crippled_head_cripples_head_weapons():
    """Seed 000, example 2: with its Head crippled, an attacking warjack's head weapon rolls
    one fewer attack and damage die."""
    t = Target(0, 10, boxes=30)
    head = Weapon("Gore", "melee", 20, 12, location="H")
    p = play(Scenario(t, [jack(head, crippled={"H"})]), [(5,), (4,)])  # 1 attack die, 1 damage die
    assert p.hit == [1] and p.damage == [4 + 12 - 10]
    whole = play(Scenario(t, [jack(head)]), [(5, 1), (4, 1)])
    assert whole.damage == [5 + 12 - 10]


def test_seed000_example3_cannon_and_shield_on_one_crippled_arm():
    """Seed 000, example 3: a cannon and a shield on the same crippled left arm: the shield
    loses its ARM bonus and the cannon rolls one fewer die (the attacker's crippled L)."""
    cannon = Weapon("Cannon", "ranged", 20, 14, location="L")
    shield_bash = Weapon("Shield", "melee", 20, 10, location="L")
    # as an attacker: both weapons of the crippled arm roll one die fewer
    t = Target(0, 10, boxes=30)
    p = play(Scenario(t, [jack(cannon, crippled={"L"})]), [(6,), (2,)])
    assert p.damage == [2 + 14 - 10]
    p = play(Scenario(t, [jack(shield_bash, crippled={"L"})]), [(6,), (2,)])
    assert p.damage == [2 + 10 - 10]
    # as a target: its crippled left arm no longer gives the shield's +2 ARM
    grid = ("L", "....", "....", "....", "....", "....")
    target = Target(0, 12, grid=grid, shield=("L",), boxes=1)
    w = fist(pow_=12, attacks=2, damage_to="L", extra_damage_dice=-1)
    # ARM 14: (3) + 12 - 14 = 1 -> L crippled; then ARM 12: (3) + 12 - 12 = 3
    p = play(Scenario(target, [jack(w)]), [(3, 4), (3,), (3, 4), (3,), (2,)])
    assert p.damage == [1, 3]


def test_crippled_movement_makes_base_def_5_but_melee_still_rolls():
    """RULES 3 crippling table, Movement: base DEF 5 for the next attacks; melee attacks still
    roll (not an automatic hit)."""
    t = Target(15, 10, grid=("M", "....", "....", "....", "....", "...."), boxes=1)
    w = Weapon("Fist", "melee", 6, 10, attacks=2, damage_to="M", extra_damage_dice=-1)
    # 1st: needs 9: (4, 5) hits; (1) + 10 - 10 = 1 -> M crippled;
    # 2nd: DEF 5 now: (1, 2) = 3 + 6 = 9 >= 5 hits, a roll is still made
    p = play(Scenario(t, [jack(w)]), [(4, 5), (1,), (1, 2), (1,), (3,)])
    assert p.hit == [1, 1] and p.rolls_read == 5


@pytest.mark.parametrize("letter", ["G", "C"])
def test_crippled_power_field_generator_or_cortex_stops_the_power_field(letter):
    """RULES 3 crippling table: a crippled G stops the power field; a crippled Cortex loses
    the target's focus. Two boxes: the 1st attack marks the letter's box, the 2nd would be
    lethal (1 point on 1 box left)."""
    t = Target(0, 10, grid=(letter, ".", "", "", "", ""), focus=3, power_field="lethal", boxes=1)
    aimed = Weapon("Fist", "melee", 20, 10, attacks=2, extra_damage_dice=-1, damage_to=letter)
    p = play(Scenario(t, [jack(aimed)]), [(3, 4), (1,), (3, 4), (1,), (2,)])
    assert p.crippled_after[0] == {letter}
    assert p.target_spent == [0, 0] and p.killed_by == 1
    # control: the same hits on a hull box leave the power field working: 1 focus spent
    t = Target(0, 10, grid=(".", letter, "", "", "", ""), focus=3, power_field="lethal", boxes=1)
    plain = Weapon("Fist", "melee", 20, 10, attacks=2, extra_damage_dice=-1)
    p = play(Scenario(t, [jack(plain)]), [(3, 4), (1,), (1,), (3, 4), (1,)])
    assert p.target_spent == [0, 1] and p.killed_by is None and p.marked == 1


def test_life_spiral_branches_and_aspects():
    """RULES 3, life spiral: d6 picks the branch, outermost box first, clockwise overflow."""
    spiral = ("BB", "BM", "MM", "MS", "SS", "SB")
    t = Target(0, 12, spiral=spiral)
    p = play(Scenario(t, [jack(fist())]), [(3, 4), (2, 1), (2,)])  # 3 points from branch 2
    assert p.marks[1] == [1, 1] and p.marks[2] == [1, 0]
    assert p.crippled == set()
    p = play(Scenario(t, [jack(fist(damage_to="S"))]), [(3, 4), (1, 1)])  # 2 points
    # the first point to branch 4's S box (row 1), the second to its topmost unmarked box
    assert p.marks[3] == [1, 1] and p.marks[4] == [0, 0]


def test_warbeast_attacker_aspects():
    """RULES 3 crippling table: Body one fewer damage die, Mind one fewer attack die, Spirit
    cannot be forced."""
    t = Target(0, 10, boxes=30)
    claw = Weapon("Claw", "melee", 20, 12)
    body = play(Scenario(t, [Attacker("Beast", [claw], model="warbeast", crippled={"B"})]),
                [(3, 4), (5,)])
    assert body.damage == [5 + 12 - 10]
    mind = play(Scenario(t, [Attacker("Beast", [claw], model="warbeast", crippled={"M"})]),
                [(6,), (5, 5)])
    assert mind.hit == [1] and mind.damage == [10 + 12 - 10]
    spirit = Attacker("Beast", [claw], model="warbeast", force=2, crippled={"S"})
    assert spirit.points == 0


def test_tough_on_a_grid_heals_the_last_marked_box():
    """docs/activation.md: healing on a card removes the most recently marked box first."""
    t = Target(0, 12, grid=("L", "", "", "", "", ""), rules={"tough"}, boxes=1)
    w = fist(damage_to="L", extra_damage_dice=-1)
    p = play(Scenario(t, [jack(w)]), [(3, 4), (1,), (5,)])  # disabled, Tough 5: saved
    assert p.tough == [1] and p.marked == 0 and p.crippled == set()


@pytest.mark.parametrize("letter", ["A", "C", "G", "H", "M", "F", "L", "R"])
def test_every_system_letter_can_be_crippled(letter):
    t = Target(0, 12, grid=(letter, "", "", "", "", ""), boxes=1)
    p = play(Scenario(t, [jack(fist(extra_damage_dice=-1))]), [(3, 4), (1,), (4,)])
    assert p.crippled == {letter} and p.killed_by == 0
