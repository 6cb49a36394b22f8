"""The steps of the Monte Carlo kernel built from steps, each on chosen dice outside a whole
trial (docs/activation.md, "One attack, step by step"): the attack roll, the damage roll,
marking a damage grid, suffering on a grid with a Shield (a crippled arm takes its ARM
away, a kill is counted), and with Tough and a power field (a save heals the box marked
last; focus spent, then lost with the Cortex). The trial loop that composes them is checked against the older
general kernel, counter for counter, in tests/test_kernel_variant.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from mathhammer._core.pairs import pair_entry
from mathhammer.montecarlo._kernels.attack_steps import (V_BOOST_ATT, V_BOOST_DMG, V_FIELDS, V_POINTS,
                                                         attack_roll, damage_roll)
from mathhammer.montecarlo._kernels.layout import (C_BOOST_ATT, C_BOOST_DMG, C_DAMAGE, C_NFIELDS,
                                                   C_TARGET_SPENT, CRIT,
                                                   GL_L, HIT, MISS, MODE_ALWAYS, MODE_NEVER,
                                                   ST_KNOCKED_DOWN, T_SHIELD_ARM, T_SHIELD_LOC)
from mathhammer.montecarlo._kernels.marking import crippled_set, mark_columns
from mathhammer.montecarlo._kernels.model_state import (G_CORTEX_LOST, G_FIELDS, M_CRIPPLED, M_FIELDS,
                                                        M_MARKED, M_SHIELD, M_STATE)
from mathhammer.montecarlo._kernels.suffering import letters_present, suffer_points
from mathhammer.montecarlo.encode import encode
from mathhammer.rules import Attacker, Scenario, Target, Weapon

#: A heavy warjack's grid (columns top to bottom; L the left arm, M Movement, C Cortex, R the
#: right arm), with a Shield on the left arm.
GRID = ("......", ".....L", "....LL", "...MC.", "...MC.", "....RR")


def _tables(weapon: Weapon, target: Target):
    return encode(Scenario(target, [Attacker("Jack", [weapon])])).tables


def _dice(*pairs) -> np.ndarray:
    """A dice buffer holding the pair entries given, then padding."""
    return np.array([pair_entry(a, b) for a, b in pairs] + [0] * 16, dtype=np.uint8)


FIST = Weapon("Fist", "melee", 6, 14)
TABLES = _tables(FIST, Target(defense=12, arm=16, boxes=20))


def _state(points=0, boost_attack=MODE_NEVER, boost_damage=MODE_NEVER):
    act = np.zeros(V_FIELDS, dtype=np.int64)
    act[V_POINTS], act[V_BOOST_ATT], act[V_BOOST_DMG] = points, boost_attack, boost_damage
    return act, np.zeros(M_FIELDS, dtype=np.int64), np.zeros((1, C_NFIELDS), dtype=np.int64)


# ---------------------------------------------------------------- the attack roll
@pytest.mark.parametrize("pair, outcome", [((2, 3), MISS), ((3, 4), HIT), ((3, 3), CRIT),
                                           ((1, 1), MISS), ((6, 6), CRIT)])
def test_attack_roll_two_dice_against_def_12_with_mat_6(pair, outcome):
    """docs/rules.md 1: a hit needs 2d6 + MAT >= DEF (6 + 6 >= 12), two ones miss, a double
    that hits is critical."""
    act, ms, counts = _state()
    got, pos, paid = attack_roll(TABLES.attacks, act, ms, _dice(pair), 0, 0, 0, 0, counts)
    assert (got, pos, paid) == (outcome, 1, 0)


def test_attack_roll_boosted_reads_three_dice_and_pays_a_point():
    """A paid boost (docs/activation.md, step 2): one more die, one point, counted; 3 + 2 + 1
    = 6 with MAT 6 hits DEF 12 where two of the dice would not."""
    act, ms, counts = _state(points=2, boost_attack=MODE_ALWAYS)
    got, pos, paid = attack_roll(TABLES.attacks, act, ms, _dice((3, 2), (1, 6)), 0, 0, 0, 0, counts)
    assert (got, pos, paid) == (HIT, 2, 1)
    assert act[V_POINTS] == 1 and counts[0, C_BOOST_ATT] == 1


def test_attack_roll_on_a_knocked_down_target_hits_without_dice():
    """A melee attack against a knocked-down target hits automatically: no roll, never
    critical, no boost paid (docs/rules.md 1)."""
    act, ms, counts = _state(points=2, boost_attack=MODE_ALWAYS)
    ms[M_STATE] = ST_KNOCKED_DOWN
    got, pos, paid = attack_roll(TABLES.attacks, act, ms, _dice((1, 1)), 0, 0, 0, 0, counts)
    assert (got, pos, paid) == (HIT, 0, 0) and act[V_POINTS] == 2


# ---------------------------------------------------------------- the damage roll
def test_damage_roll_pow_14_against_arm_16():
    """docs/rules.md 2: 2d6 + POW - ARM, never below 0: 5 + 6 + 14 - 16 = 9."""
    act, ms, counts = _state()
    points, pos, boost = damage_roll(TABLES.attacks, act, ms, _dice((5, 6)), 0, 0, 0, 0, 1, 0, 20, counts)
    assert (points, pos, boost) == (9, 1, 0)


def test_a_miss_reads_its_damage_dice_and_deals_nothing():
    """The stream's rule: a miss's damage dice are drawn and dropped, and no boost is paid."""
    act, ms, counts = _state(points=3, boost_damage=MODE_ALWAYS)
    points, pos, boost = damage_roll(TABLES.attacks, act, ms, _dice((6, 6)), 0, 0, 0, 0, 0, 0, 20, counts)
    assert (points, pos, boost) == (0, 1, 0) and act[V_POINTS] == 3


def test_a_boosted_damage_roll_adds_a_die():
    """Three dice read from two pair entries: 2 + 3 + 4 + 14 - 16 = 7, one point paid."""
    act, ms, counts = _state(points=1, boost_damage=MODE_ALWAYS)
    points, pos, boost = damage_roll(TABLES.attacks, act, ms, _dice((2, 3), (4, 1)), 0, 0, 0, 0, 1, 0,
                                     20, counts)
    assert (points, pos, boost) == (7, 2, 1) and counts[0, C_BOOST_DMG] == 1


# ---------------------------------------------------------------- marking a grid
CARD = _tables(FIST, Target(defense=12, arm=16, grid=GRID, shield=("L",)))


def test_marking_starts_at_the_column_rolled_and_passes_a_full_column_on():
    """docs/rules.md 3: damage starts at the column a d6 picks, topmost box first; a full
    column passes the rest to the next, 6 wrapping to 1."""
    colmask = np.zeros(6, dtype=np.int64)
    colmask[5] = 0b111111  # column 6 full
    mark_columns(colmask, CARD.col_full, CARD.letters_done, 5, 3)
    assert colmask.tolist() == [0b111, 0, 0, 0, 0, 0b111111]


def test_a_letter_is_crippled_once_its_last_box_is_marked():
    colmask = np.zeros(6, dtype=np.int64)
    present = letters_present(CARD.letter_mask, 8)
    assert mark_columns(colmask, CARD.col_full, CARD.letters_done, 1, 6)  # L's box of column 2
    assert crippled_set(colmask, CARD.letters_done, present) == 0  # two more in column 3
    assert mark_columns(colmask, CARD.col_full, CARD.letters_done, 2, 6)
    assert crippled_set(colmask, CARD.letters_done, present) == 1 << GL_L


def test_suffering_on_a_grid_cripples_the_shield_arm_and_counts_the_kill():
    """Suffering (docs/activation.md, step 4): 6 points from column 2, then 6 from column 3,
    cripple L; the Shield on it loses its ARM from the next attack on, the change is counted
    at the attack's row; then 99 points mark every box left and destroy the model."""
    target = CARD.target
    ms, ts = np.zeros(M_FIELDS, dtype=np.int64), np.zeros(G_FIELDS, dtype=np.int64)
    shield = target[T_SHIELD_ARM]
    ms[M_SHIELD] = shield
    assert shield > 0 and target[T_SHIELD_LOC] == shield  # the L location holds it
    colmask = np.zeros(6, dtype=np.int64)
    counts = (np.zeros((3, C_NFIELDS), dtype=np.int64), np.zeros(3, dtype=np.int64),
              np.zeros((4, 256), dtype=np.int64))
    present = letters_present(CARD.letter_mask, 8)
    boxes = sum(bin(c).count("1") for c in CARD.col_full.tolist())
    card = (CARD.col_full, CARD.letters_done)
    pos, dead = suffer_points(card, counts, target, ms, ts, colmask, _dice((2, 1)), 0, 6, 0, boxes, True,
                              present, True, shield)
    assert (pos, dead, ms[M_MARKED], ms[M_CRIPPLED], ms[M_SHIELD]) == (1, False, 6, 0, shield)
    pos, dead = suffer_points(card, counts, target, ms, ts, colmask, _dice((3, 1)), 0, 6, 1, boxes, True,
                              present, True, shield)
    assert (pos, dead, ms[M_CRIPPLED], ms[M_SHIELD]) == (1, False, 1 << GL_L, 0)
    assert counts[2][1, 0] == -1 and counts[2][1, 1 << GL_L] == 1
    pos, dead = suffer_points(card, counts, target, ms, ts, colmask, _dice((1, 1)), 0, 99, 2, boxes, True,
                              present, True, shield)
    assert dead and ms[M_MARKED] == boxes and counts[1][2] == 1
    assert counts[0][:, C_DAMAGE].tolist() == [6, 6, boxes - 12]


# ---------------------------------------------------------------- the lean variant's steps
TOUGH_CARD = _tables(FIST, Target(defense=12, arm=16, grid=GRID, shield=("L",), rules={"tough"}, focus=2,
                                  power_field="lethal"))


def _suffer_all(tables, ms, ts, colmask, order, dice, points, row=0, felled=False):
    from mathhammer.montecarlo._kernels.suffering import SRC_ATTACK, suffer

    counts = (np.zeros((2, C_NFIELDS), dtype=np.int64), np.zeros(2, dtype=np.int64),
              np.zeros((3, 256), dtype=np.int64), np.zeros((2, 3, 8), dtype=np.int64))
    card = (tables.col_full, tables.letters_done, tables.letter_mask)
    play = (tables.play_keys, tables.play_columns, tables.play_index, tables.play_field)
    present = letters_present(tables.letter_mask, 8)
    pos, dead = suffer(tables.target, card, counts, play, ms, ts, colmask, order, dice, 0,
                       tables.attacks, 0, points, row, 0, SRC_ATTACK, 0, 0, felled, present)
    return pos, dead, counts


def _card_state(tables, marked_columns):
    """A model of ``tables``' card with the columns given full, and its rows."""
    from mathhammer.montecarlo._kernels.model_state import G_POINTS, M_MARKS

    colmask, order = np.zeros(6, dtype=np.int64), np.zeros(64, dtype=np.int64)
    ms, ts = np.zeros(M_FIELDS, dtype=np.int64), np.zeros(G_FIELDS, dtype=np.int64)
    ms[M_SHIELD] = tables.target[T_SHIELD_ARM]
    for c in marked_columns:
        for r in range(6):
            if (tables.col_full[c] >> r) & 1:
                colmask[c] |= 1 << r
                order[ms[M_MARKS]] = c * 16 + r
                ms[M_MARKS] += 1
                ms[M_MARKED] += 1
    return ms, ts, colmask, order, G_POINTS


def test_a_lethal_power_field_spends_focus_only_when_the_points_would_disable():
    """docs/activation.md, step 4: with focus, ``ceil((points - remaining + 1) / 5)`` focus
    takes 5 points each; 8 points against 20 boxes left spend nothing."""
    ms, ts, colmask, order, G_POINTS = _card_state(TOUGH_CARD, [])
    ts[G_POINTS] = 2
    pos, dead, counts = _suffer_all(TOUGH_CARD, ms, ts, colmask, order, _dice((1, 1)), 8)
    assert (ts[G_POINTS], ms[M_MARKED], dead) == (2, 8, False)
    boxes = sum(bin(c).count("1") for c in TOUGH_CARD.col_full.tolist())
    ms, ts, colmask, order, G_POINTS = _card_state(TOUGH_CARD, [0, 1, 2, 3])  # 2 + 6 + ... marked
    ts[G_POINTS] = 2
    left = boxes - ms[M_MARKED]
    pos, dead, counts = _suffer_all(TOUGH_CARD, ms, ts, colmask, order, _dice((5, 1)), left + 3)
    # one focus spent, 5 points off: 2 boxes stay unmarked; the Cortex's boxes (column 5)
    # are marked, so the focus left is lost with it
    assert counts[0][0, C_TARGET_SPENT] == 1 and ms[M_MARKED] == boxes - 2 and not dead
    assert (ts[G_POINTS], ts[G_CORTEX_LOST]) == (0, 1)


@pytest.mark.parametrize("die, saved", [(5, True), (6, True), (4, False)])
def test_tough_on_a_grid_heals_the_box_marked_last_and_knocks_down(die, saved):
    """docs/rules.md 6: a Tough model with every box marked rolls a d6; on 5 or 6 it removes
    one damage point (the box marked last: a crippled system may be whole again) and is
    knocked down; else it is destroyed and the kill counted."""
    boxes = sum(bin(c).count("1") for c in TOUGH_CARD.col_full.tolist())
    ms, ts, colmask, order, _ = _card_state(TOUGH_CARD, [0, 1, 2, 3, 4])
    left = boxes - ms[M_MARKED]  # column 6: R's two boxes and its hull
    pos, dead, counts = _suffer_all(TOUGH_CARD, ms, ts, colmask, order, _dice((6, 1), (die, 1)), left)
    assert pos == 2 and dead is (not saved)
    assert counts[1][0] == (0 if saved else 1) and counts[0][0, C_DAMAGE] == left
    if saved:
        assert ms[M_MARKED] == boxes - 1 and ms[M_STATE] & ST_KNOCKED_DOWN == ST_KNOCKED_DOWN
        assert colmask[5] == TOUGH_CARD.col_full[5] & ~(1 << 5)  # the last box of column 6


# ---------------------------------------------------------------- a unit's models: only marks
INFANTRY = _tables(Weapon("Rifle", "ranged", 5, 10), Target(defense=13, arm=13, boxes=5, models=3))


@pytest.mark.parametrize("marked, points, last, taken, dead", [
    (0, 3, False, 3, False),   # 3 of 5 boxes
    (3, 0, False, 0, False),   # a hit that dealt nothing marks nothing
    (3, 4, False, 2, True),    # only the 2 boxes left are marked: the model is destroyed
    (4, 1, True, 1, True),     # the last model standing: its destruction is the kill
])
def test_a_unit_model_only_marks_its_track_as_suffer_does(marked, points, last, taken, dead):
    """A model of a unit on a damage track with no power field, Tough or Rapid Healing
    (``only_marks``) marks as many points as it has boxes left and is destroyed with every
    box marked (docs/units.md): one model destroyed counts C_DESTROYED, the last of the
    unit the kill. ``suffer_marks``, the few lines the units loop inlines, does what the
    whole ``suffer`` does there, counter for counter."""
    from mathhammer.montecarlo._kernels.layout import C_DESTROYED, T_BOXES
    from mathhammer.montecarlo._kernels.suffering import only_marks, suffer_marks

    target = INFANTRY.target
    ms, ts = np.zeros(M_FIELDS, dtype=np.int64), np.zeros(G_FIELDS, dtype=np.int64)
    assert only_marks(target, ts) and target[T_BOXES] == 5
    ms[M_MARKED] = marked
    counts = np.zeros((2, C_NFIELDS), dtype=np.int64), np.zeros(2, dtype=np.int64)
    got = suffer_marks(counts[0], counts[1], target[T_BOXES], ms, points, 1, last)
    assert (bool(got), ms[M_MARKED], counts[0][1, C_DAMAGE]) == (dead, marked + taken, taken)
    assert (counts[1][1], counts[0][1, C_DESTROYED]) == ((1, 0) if dead and last else (0, int(dead)))

    from mathhammer.montecarlo._kernels.suffering import SRC_ATTACK, suffer

    whole = np.zeros(M_FIELDS, dtype=np.int64)
    whole[M_MARKED] = marked
    full = (np.zeros((2, C_NFIELDS), dtype=np.int64), np.zeros(2, dtype=np.int64),
            np.zeros((3, 1), dtype=np.int64), np.zeros((2, 3, 8), dtype=np.int64))
    card = (INFANTRY.col_full, INFANTRY.letters_done, INFANTRY.letter_mask)
    play = (INFANTRY.play_keys, INFANTRY.play_columns, INFANTRY.play_index, INFANTRY.play_field)
    pos, dead_too = suffer(target, card, full, play, whole, ts.copy(), np.zeros(6, dtype=np.int64),
                           np.zeros(64, dtype=np.int64), _dice((1, 1)), 0, INFANTRY.attacks, 0, points, 1, 0,
                           SRC_ATTACK, 0, 0, False, 0, last)
    assert pos == 0 and dead_too == got and (whole == ms).all()
    assert (full[0] == counts[0]).all() and (full[1] == counts[1]).all()


def test_a_unit_with_tough_or_focus_is_not_only_marked():
    """Tough, Rapid Healing, focus left for a power field or a damage grid each need the whole
    of suffering: ``only_marks`` is false for them."""
    from mathhammer.montecarlo._kernels.model_state import G_POINTS
    from mathhammer.montecarlo._kernels.suffering import only_marks

    ts = np.zeros(G_FIELDS, dtype=np.int64)
    tough = _tables(FIST, Target(defense=12, arm=13, boxes=5, models=3, rules={"tough"})).target
    assert not only_marks(tough, ts)
    assert not only_marks(TOUGH_CARD.target, ts)
    ts[G_POINTS] = 1
    assert not only_marks(INFANTRY.target, ts)
