"""The steps of the Monte Carlo kernel built from steps, each on chosen dice outside a whole
trial (docs/activation.md, "One attack, step by step"): the attack roll, the damage roll,
marking a damage grid, and suffering on a grid with a Shield (a crippled arm takes its ARM
away, a kill is counted). The trial loop that composes them is checked against the older
general kernel, counter for counter, in tests/test_kernel_variant.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from mathhammer._core.pairs import pair_entry
from mathhammer.montecarlo._kernels.attack_steps import (V_BOOST_ATT, V_BOOST_DMG, V_FIELDS, V_POINTS,
                                                         attack_roll, damage_roll)
from mathhammer.montecarlo._kernels.layout import (C_BOOST_ATT, C_BOOST_DMG, C_DAMAGE, C_NFIELDS, CRIT,
                                                   GL_L, HIT, MISS, MODE_ALWAYS, MODE_NEVER,
                                                   ST_KNOCKED_DOWN, T_SHIELD_ARM, T_SHIELD_LOC)
from mathhammer.montecarlo._kernels.marking import crippled_set, mark_columns
from mathhammer.montecarlo._kernels.model_state import (G_FIELDS, M_CRIPPLED, M_FIELDS, M_MARKED,
                                                        M_SHIELD, M_STATE)
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
