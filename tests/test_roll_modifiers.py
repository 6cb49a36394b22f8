"""Roll modifiers and damage rules of issue 17 (docs/rules.md 1 and 2): Jump the Shark,
Sanguine Fate, ``attack_discard = "both"``, Trash, Shatter, ``critical_armor_piercing`` and
``decapitation_on_hit``.

Each rule has a worked example on chosen dice through the real kernel (tests/scripted.py);
then the exact engine against the brute-force oracle (tests/naive.py, every die enumerated
face by face) and Monte Carlo against the exact engine within 5 standard errors.
"""

from __future__ import annotations

import pytest

from mathhammer.errors import InputError
from mathhammer.exact import rolls
from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon
from agreement import exact_matches_oracle, monte_carlo_agrees
from scripted import play


def _one(weapon, target=None, **scenario):
    t = target or Target(defense=14, arm=16, boxes=10)
    return Scenario(t, [Attacker("A", [weapon], policy="fixed", spend=Spend(boost_attack="never",
                                                                          boost_damage="never"))],
                    **scenario)


# ------------------------------------------------------------------ worked examples
def test_worked_example_jump_the_shark_counts_a_one_as_a_six():
    """Jump the Shark: every die showing 1 counts as a 6, on the attack and the damage roll.
    MAT 6 against DEF 14 needs 8: 1 + 2 would miss, but counts 6 + 2 = 8 and hits; the damage
    roll 1 + 1 counts 6 + 6 = 12, and a double: that is a critical hit only for an attack
    roll, so here 12 + 12 - 16 = 8 damage points. The attack roll 1 + 6 is 6 + 6: a double
    of sixes, a critical hit."""
    w = Weapon("Hook", "melee", 6, 12, attacks=2, rules={"jump_the_shark"})
    out = play(_one(w), [(1, 2), (1, 1), (1, 6), (2, 3)])
    assert out.hit[:2] == [1, 1] and out.crit[:2] == [0, 1]
    assert out.damage[:2] == [8, 2 + 3 + 12 - 16]


def test_worked_example_jump_the_shark_all_ones_no_longer_miss():
    """Two ones are not an automatic miss with Jump the Shark: they are two sixes, an
    automatic hit whatever the DEF, and a critical one."""
    w = Weapon("Hook", "melee", 0, 10, rules={"jump_the_shark"})
    out = play(_one(w, Target(defense=25, arm=30, boxes=5)), [(1, 1), (2, 3)])
    assert out.hit[:1] == [1] and out.crit[:1] == [1] and out.damage[0] == 0


def test_worked_example_sanguine_fate_die_makes_a_double():
    """Sanguine Fate: a third die is rolled with the attack roll; it is not in the total, but
    a double with it is a critical hit. 4 + 5 (and the extra 5) against DEF 14 with MAT 6:
    9 + 6 = 15 hits, and 5-5 is a double: critical. The extra 6
    in the next roll does not make 2 + 3 hit (the total is still 5 + 6 = 11)."""
    w = Weapon("Blade", "melee", 6, 10, attacks=2, rules={"sanguine_fate"})
    out = play(_one(w, Target(defense=14, arm=30, boxes=5)), [(4, 5, 5, 1), (1, 1), (2, 3, 6, 1), (1, 1)])
    assert out.hit[:2] == [1, 0] and out.crit[:2] == [1, 0]


def test_worked_example_discard_both_keeps_the_middle_die():
    """``attack_discard = "both"``: of three dice the lowest and the highest are discarded.
    1, 4, 6 keeps the 4: with RAT 8 against DEF 12, 4 + 8 = 12 hits; one kept die is never
    critical. 2, 2, 6 keeps a 2: 10 misses."""
    w = Weapon("Gun", "ranged", 8, 10, attacks=2, extra_attack_dice=1, attack_discard="both")
    out = play(_one(w, Target(defense=12, arm=30, boxes=5)),
               [(1, 4, 6, 1), (1, 1), (2, 2, 6, 1),
                (1, 1)])  # the miss's damage roll, drawn and dropped
    assert out.hit[:2] == [1, 0] and out.crit[:2] == [0, 0]


def test_worked_example_trash_adds_a_die_against_a_knocked_down_target():
    """Trash: one more damage die against a target knocked down at the time. The first
    attack knocks the target down (its own damage roll: two dice, the target was standing);
    the second, an automatic hit in melee, rolls three damage dice."""
    w = Weapon("Maul", "melee", 6, 12, attacks=2, rules={"knockdown", "trash"})
    out = play(_one(w, Target(defense=10, arm=18, boxes=20)), [(4, 4), (3, 3), (6, 6), (5, 1)])
    assert out.hit[:2] == [1, 1]
    assert out.damage[:2] == [0, 6 + 6 + 5 + 12 - 18]  # three dice


def test_worked_example_shatter_adds_a_die_against_a_stationary_target():
    """Shatter: one more damage die against a target stationary at the time (here from the
    start); a knocked-down target is not stationary as such and gets none."""
    w = Weapon("Hammer", "melee", 6, 12, rules={"shatter"})
    still = play(_one(w, Target(defense=10, arm=18, boxes=20, state={"stationary"})), [(6, 6), (5, 1)])
    down = play(_one(w, Target(defense=10, arm=18, boxes=20, state={"knocked_down"})), [(6, 6), (5, 1)])
    assert still.damage[0] == 6 + 6 + 5 + 12 - 18
    assert down.damage[0] == 6 + 6 + 12 - 18


def test_worked_example_critical_armor_piercing_and_decapitation_on_hit():
    """``critical_armor_piercing``: the base ARM is halved (rounding up) on a critical hit
    only; ``decapitation_on_hit``: any hit doubles the damage points."""
    ap = Weapon("Pick", "melee", 6, 12, attacks=2, rules={"critical_armor_piercing"})
    out = play(_one(ap, Target(defense=10, arm=17, boxes=30)), [(4, 4), (5, 5), (4, 5), (5, 5)])
    assert out.crit[:2] == [1, 0]
    assert out.damage[:2] == [10 + 12 - 9, 10 + 12 - 17]
    decap = Weapon("Axe", "melee", 6, 12, rules={"decapitation_on_hit"})
    out = play(_one(decap, Target(defense=10, arm=17, boxes=30)), [(4, 5), (5, 5)])
    assert out.crit[:1] == [0] and out.damage[0] == 2 * (10 + 12 - 17)


# ------------------------------------------------------------------ exact = oracle, MC = exact
CASES = {
    "jump_the_shark": dict(weapon=dict(rules={"jump_the_shark"}, attack_discard="lowest", extra_attack_dice=1)),
    "jump_the_shark_reroll": dict(weapon=dict(rules={"jump_the_shark", "reroll_damage", "reroll_attack"})),
    "sanguine_fate": dict(weapon=dict(rules={"sanguine_fate", "critical_knockdown"}, attack_discard="highest",
                                      extra_attack_dice=1)),
    "discard_both": dict(weapon=dict(attack_discard="both", damage_discard="both", extra_attack_dice=1,
                                     extra_damage_dice=2)),
    "trash": dict(weapon=dict(rules={"trash", "critical_knockdown"})),
    "shatter": dict(weapon=dict(rules={"shatter", "stationary"})),
    "critical_armor_piercing": dict(weapon=dict(rules={"critical_armor_piercing", "brutal_damage"})),
    "decapitation_on_hit": dict(weapon=dict(rules={"decapitation_on_hit"})),
}


def _case(name, boxes=3, points=1, **extra):
    kw = dict(CASES[name]["weapon"])
    w = Weapon("W", "melee", 6, 11, attacks=2, **kw)
    t = Target(defense=13, arm=15, boxes=boxes, rules={"tough"} if extra.get("tough") else set())
    return Scenario(t, [Attacker("A", [w], focus=points, policy="fixed",
                                 spend=Spend(boost_attack="auto", boost_damage="auto"))])


@pytest.mark.parametrize("name", sorted(CASES))
def test_exact_equals_the_oracle(name):
    for scen in (_case(name), _case(name, boxes=2, points=0, tough=True)):
        exact_matches_oracle(scen)


@pytest.mark.parametrize("name", sorted(CASES))
def test_monte_carlo_within_five_standard_errors_of_exact(name):
    w = Weapon("W", "melee", 6, 13, attacks=3, **CASES[name]["weapon"])
    scen = Scenario(Target(defense=14, arm=16, boxes=14, rules={"tough"}),
                    [Attacker("A", [w], focus=2, policy="fixed", spend=Spend(boost_attack="auto"))])
    monte_carlo_agrees(scen, seed=11, per_attack=("crit",))


def test_rolls_of_the_exact_engine_by_hand():
    """A few counts checked by hand: Jump the Shark's 2d6 never sums below 4 (2 + 2), and
    sums 12 in 4 of 36 rolls (1-1, 1-6, 6-1, 6-6); Sanguine Fate makes 2 dice critical on a
    hit in 16 of 36 (doubles 6, plus 30 * 1/3 where the third die matches one of two)."""
    kept, counts = rolls.kept_sum_counts(2, "none", True)
    assert kept == 2 and sum(counts[:4]) == 0 and counts[12] == 4
    miss, plain, crit = rolls.attack_roll(2, "none", 0, False, sanguine=True)
    # need 0: every roll hits but 1-1 (an automatic miss)
    assert miss == pytest.approx(1 / 36)
    assert crit == pytest.approx((5 + 30 / 3) / 36)


@pytest.mark.parametrize("kw, match", [
    (dict(rules={"armor_piercing", "critical_armor_piercing"}), r"rules: cannot be given with 'armor_piercing'.*\(got 'critical_armor_piercing'\)"),
    (dict(rules={"decapitation", "decapitation_on_hit"}), r"rules: cannot be given with 'decapitation'.*\(got 'decapitation_on_hit'\)"),
    (dict(rules={"sanguine_fate"}, auto_hit=True), r"rules: needs an attack roll: the weapon has auto_hit \(got 'sanguine_fate'\)"),
    (dict(rules={"trash"}, pow=None), r"rules: needs a damage roll.*\(got 'trash'\)"),
    (dict(attack_discard="middle"), r"attack_discard: .*\(got 'middle'\)"),
])
def test_errors_name_the_key(kw, match):
    args = dict(name="W", type="melee", skill=6, pow=12)
    args.update(kw)
    with pytest.raises(InputError, match=match):
        Weapon(**args)
