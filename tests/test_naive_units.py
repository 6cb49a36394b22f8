"""Worked examples, computed by hand, that check the brute-force oracle tests/naive_units.py.

The objects are :class:`types.SimpleNamespace` ones: the oracle reads plain attributes only
and these tests import nothing from :mod:`mathhammer`.

Hit chances used below (2d6, all 1s miss, all 6s hit):
- skill 5 vs DEF 12: sum >= 7, 21/36 = 7/12; critical (4-4, 5-5, 6-6) 3/36 = 1/12;
- skill 3 vs DEF 12: sum >= 9, 10/36 = 5/18;  skill 2 vs DEF 12: sum >= 10, 6/36 = 1/6;
- any skill vs DEF 5 with skill 5: every roll but 1-1, 35/36.
Damage: POW 12 vs ARM 10 deals 4 to 14 points, so it always destroys a one-box model.
"""

from __future__ import annotations

from fractions import Fraction as F
from types import SimpleNamespace as NS

import pytest

from naive import NaiveAttack, NaiveTarget, bf_sequence
from naive_units import attack_outcomes, bf_units, damage_points, unit_groups

P = F(7, 12)  # skill 5 vs DEF 12


def target(name="T", defense=12, arm=10, boxes=1, models=1, rules=(), state=(), **kw):
    return NS(name=name, defense=defense, arm=arm, boxes=boxes, models=models,
              rules=frozenset(rules), state=frozenset(state), grid=None, spiral=None,
              terrain=frozenset(), focus=0, fury=0, effects=frozenset(), resist=frozenset(),
              shield=(), buckler=(), upkeep_def=0, upkeep_arm=0, spell_def=0, spell_arm=0,
              rapid_healing=0, **kw)


def weapon(name="W", type="ranged", skill=5, pow=12, attacks=1, rules=(), targets=(),
           blast_pow=None, blast_models=0, blast_on_miss=0, **kw):
    return NS(name=name, type=type, skill=skill, pow=pow, attacks=attacks, rules=frozenset(rules),
              targets=tuple(targets), blast_pow=blast_pow, blast_models=blast_models,
              blast_on_miss=blast_on_miss, boosted_attack=False, boosted_damage=False,
              extra_attack_dice=0, extra_damage_dice=0, cost=0, crippled=False, **kw)


def attacker(*weapons, name="A", models=1, combined=1, targets=(), **kw):
    return NS(name=name, weapons=tuple(weapons), models=models, combined=combined,
              targets=tuple(targets), focus=0, fury=0, force=0, **kw)


def scenario(targets, *attackers, turns=1):
    if not isinstance(targets, (list, tuple)):
        targets = (targets,)
    return NS(targets=tuple(targets), attackers=tuple(attackers), turns=turns)


def _sums_to_one(res):
    for figures in res["targets"].values():
        assert sum(figures["pmf"]) == 1
        assert sum(figures["damage"]) == 1


# ---------------------------------------------------------------------------------- the dice
def test_dice_tables():
    assert attack_outcomes(5, 12) == (F(15, 36), F(18, 36), F(3, 36))
    assert attack_outcomes(20, 5) == (F(1, 36), F(30, 36), F(5, 36))  # 1-1 still misses
    assert attack_outcomes(-20, 30) == (F(35, 36), F(0), F(1, 36))  # 6-6 still hits
    assert damage_points(10, 20) == {0: F(33, 36), 1: F(2, 36), 2: F(1, 36)}
    assert unit_groups(7, 5) == [5, 2]
    assert unit_groups(3, 1) == [1, 1, 1]
    assert unit_groups(3, 2) == [2, 1]
    assert unit_groups(2, 5) == [2]


# ------------------------------------------------------------------------ one model, one box
def test_single_model_auto_hit():
    """Melee on a knocked-down one-box model: no roll, never critical, always destroyed."""
    res = bf_units(scenario(target(state={"knocked_down"}), attacker(weapon(type="melee"))))
    assert res["made"] == [1] and res["hit"] == [1] and res["crit"] == [0]
    assert res["destroyed"] == [1] and res["kill_after"] == [1]
    assert res["destroyed_mean_after"] == [1]
    assert res["target_of"] == [{"T": 1}]
    assert res["targets"]["T"] == {"pmf": [0, 1], "kill": 1, "damage": [0, 1]}
    assert res["all_destroyed"] == 1


def test_knocked_down_base_def_5_for_ranged():
    res = bf_units(scenario(target(defense=20, state={"knocked_down"}), attacker(weapon())))
    assert res["hit"] == [F(35, 36)] and res["crit"] == [F(5, 36)]  # 2-2 .. 6-6 (1-1 misses)
    assert res["targets"]["T"]["kill"] == F(35, 36)


def test_damage_distribution_on_a_track():
    """POW 10 vs ARM 20 on an auto-hit: 1 point on 11, 2 on 12."""
    res = bf_units(scenario(target(arm=20, boxes=3, state={"knocked_down"}),
                            attacker(weapon(type="melee", pow=10))))
    assert res["targets"]["T"]["damage"] == [F(33, 36), F(2, 36), F(1, 36), 0]
    assert res["targets"]["T"]["pmf"] == [1, 0]
    assert res["destroyed"] == [0]


def test_pow_none_deals_no_damage():
    res = bf_units(scenario(target(state={"knocked_down"}), attacker(weapon(type="melee", pow=None))))
    assert res["hit"] == [1] and res["targets"]["T"]["pmf"] == [1, 0]


# ----------------------------------------------------------------------- units of one-box models
def test_two_models_two_attacks():
    res = bf_units(scenario(target(models=2), attacker(weapon(attacks=2))))
    q = 1 - P
    assert res["targets"]["T"]["pmf"] == [q * q, 2 * P * q, P * P]
    assert res["targets"]["T"]["damage"] == [q * q, 2 * P * q, P * P]
    assert res["made"] == [1, 1]
    assert res["hit"] == [P, P] and res["crit"] == [F(1, 12), F(1, 12)]
    assert res["destroyed"] == [P, P]
    assert res["kill_after"] == [0, P * P]
    assert res["destroyed_mean_after"] == [P, 2 * P]
    assert res["all_destroyed"] == P * P
    _sums_to_one(res)


def test_spill_over_never_passes_excess_damage():
    """POW 20 vs ARM 10 (12 to 22 points) on five-box models: one model per hit, no more."""
    t = target(boxes=5, models=2, state={"knocked_down"})
    one = bf_units(scenario(t, attacker(weapon(type="melee", pow=20))))
    assert one["targets"]["T"]["pmf"] == [0, 1, 0]
    assert one["targets"]["T"]["damage"] == [0] * 5 + [1] + [0] * 5
    three = bf_units(scenario(t, attacker(weapon(type="melee", pow=20, attacks=3))))
    assert three["made"] == [1, 1, 0]
    assert three["target_of"][2] == {"T": 0}
    assert three["destroyed"] == [1, 1, 0]
    assert three["kill_after"] == [0, 1, 1]
    assert three["targets"]["T"]["damage"][10] == 1


def test_units_of_models_act_one_after_another():
    """Three one-model groups (combined 1), one attack each, on three one-box models."""
    res = bf_units(scenario(target(models=3), attacker(weapon(), models=3)))
    q = 1 - P
    assert res["targets"]["T"]["pmf"] == [q**3, 3 * P * q**2, 3 * P**2 * q, P**3]
    assert [label[:3] for label in res["slots"]] == [("A", 0, 1), ("A", 1, 1), ("A", 2, 1)]


# ------------------------------------------------------------------------------------ Tough
def test_tough_one_box():
    res = bf_units(scenario(target(rules={"tough"}), attacker(weapon())))
    kill = P * F(2, 3)
    assert res["targets"]["T"]["pmf"] == [1 - kill, kill]
    assert res["targets"]["T"]["damage"] == [1 - kill, kill]  # saved: boxes - 1 = 0 marked


def test_tough_save_knocks_down_and_a_knocked_down_model_rolls_no_tough():
    """Ranged then melee (both skill 5 vs DEF 12). A saved model is knocked down: the melee
    attack hits it automatically and it cannot roll Tough again."""
    res = bf_units(scenario(target(rules={"tough"}), attacker(weapon(), weapon(type="melee"))))
    miss, saved = 1 - P, P / 3
    assert res["made"] == [1, 1 - P * F(2, 3)]
    assert res["hit"] == [P, miss * P + saved]
    assert res["crit"] == [F(1, 12), miss * F(1, 12)]
    kill = P * F(2, 3) + miss * P * F(2, 3) + saved
    assert kill == F(161, 216)
    assert res["targets"]["T"]["kill"] == kill
    assert res["destroyed"] == [P * F(2, 3), miss * P * F(2, 3) + saved]


def test_knocked_down_start_stops_tough():
    res = bf_units(scenario(target(rules={"tough"}, state={"knocked_down"}), attacker(weapon())))
    assert res["targets"]["T"]["kill"] == F(35, 36)


def test_tough_keeps_boxes_minus_one():
    """Three-box Tough model hit on 7+, POW 12 vs ARM 10 (4+ points): saved, 2 stay marked."""
    res = bf_units(scenario(target(boxes=3, rules={"tough"}), attacker(weapon())))
    assert res["targets"]["T"]["damage"] == [1 - P, 0, P / 3, P * F(2, 3)]


# -------------------------------------------------------------------------------- Knockdown
def test_knockdown_makes_the_next_melee_attack_automatic():
    t = target(boxes=13, arm=10)  # POW 10 vs ARM 10: 2 to 12 points, never 13
    res = bf_units(scenario(t, attacker(weapon(type="melee", pow=10, attacks=2, rules={"knockdown"}))))
    assert res["hit"] == [P, P + (1 - P) * P]
    crit = bf_units(scenario(t, attacker(weapon(type="melee", pow=10, attacks=2,
                                                 rules={"critical_knockdown"}))))
    assert crit["hit"] == [P, F(1, 12) + F(11, 12) * P]
    assert crit["crit"] == [F(1, 12), F(11, 12) * F(1, 12)]


def test_knockdown_is_per_model():
    """The first hit destroys model 0 (knocked down or not): model 1 still stands."""
    res = bf_units(scenario(target(models=2), attacker(weapon(type="melee", attacks=2,
                                                              rules={"knockdown"}))))
    assert res["hit"] == [P, P]


# ------------------------------------------------------------------------------------ Blast
def test_blast_on_a_hit():
    """POW 12 kills the model hit; blast POW 8 vs ARM 10 kills on 3+ (35/36), one model."""
    b = F(35, 36)
    res = bf_units(scenario(target(models=3), attacker(weapon(blast_pow=8, blast_models=1))))
    assert res["targets"]["T"]["pmf"] == [1 - P, P * (1 - b), P * b, 0]
    assert res["destroyed"] == [P * (1 + b)]
    assert res["hit"] == [P]


def test_blast_on_a_miss_and_several_models():
    b = F(35, 36)
    res = bf_units(scenario(target(models=3),
                            attacker(weapon(blast_pow=8, blast_models=2, blast_on_miss=1))))
    m = 1 - P
    assert res["targets"]["T"]["pmf"] == [m * (1 - b), m * b + P * (1 - b) ** 2,
                                          P * 2 * b * (1 - b), P * b * b]
    _sums_to_one(res)


def test_blast_only_reaches_other_living_models_of_the_same_target():
    """Two targets; the blast of the hit on A has no other model of A to reach."""
    res = bf_units(scenario((target("A"), target("B")),
                            attacker(weapon(blast_pow=8, blast_models=3))))
    assert res["targets"]["A"]["kill"] == P
    assert res["targets"]["B"]["kill"] == 0


def test_blast_skips_the_saved_model_hit_and_rolls_tough_per_model():
    """Tough one-box models; main hit on model 0 (saved 1/3, still living, skipped), blast
    POW 20 (always enough) on model 1, which rolls its own Tough."""
    res = bf_units(scenario(target(models=2, rules={"tough"}),
                            attacker(weapon(blast_pow=20, blast_models=1))))
    d = F(2, 3)
    assert res["targets"]["T"]["pmf"] == [1 - P + P * (1 - d) ** 2, P * 2 * d * (1 - d), P * d * d]


def test_blast_does_not_knock_down():
    """Knockdown weapon, POW 20 (12+ points: destroys a 12-box model), blast POW 9 (1 to 11
    points: never destroys). The follow-up melee attack goes to model 1, which the blast did
    not knock down: it must roll (7/12) after a hit as after a miss (then on model 0)."""
    t = target(boxes=12, models=2)
    shot = weapon(pow=20, blast_pow=9, blast_models=1, rules={"knockdown"})
    res = bf_units(scenario(t, attacker(shot), attacker(weapon(type="melee", pow=10), name="B")))
    assert res["hit"] == [P, P]
    assert res["target_of"] == [{"T": 1}, {"T": 1}]


# ------------------------------------------------------------------------------ two targets
def test_spill_over_to_the_second_target():
    res = bf_units(scenario((target("A"), target("B")),
                            attacker(weapon(attacks=2, targets=("A", "B")))))
    assert res["target_of"] == [{"A": 1, "B": 0}, {"A": 1 - P, "B": P}]
    assert res["targets"]["A"]["kill"] == 1 - (1 - P) ** 2 == F(119, 144)
    assert res["targets"]["B"]["kill"] == P * P
    assert res["all_destroyed"] == P * P
    assert res["kill_after"] == [0, P * P]
    assert res["destroyed_mean_after"] == [P, 2 * P]


def test_target_lists_of_weapon_and_attacker():
    two = (target("A", state={"knocked_down"}), target("B", state={"knocked_down"}))
    melee = weapon(type="melee", attacks=3)
    # The attacker's list, weapon list empty: B only; the third attack finds nothing.
    res = bf_units(scenario(two, attacker(melee, targets=("B",))))
    assert res["target_of"] == [{"A": 0, "B": 1}, {"A": 0, "B": 0}, {"A": 0, "B": 0}]
    assert res["made"] == [1, 0, 0]
    assert res["targets"]["A"]["kill"] == 0 and res["targets"]["B"]["kill"] == 1
    # The weapon's list wins over the attacker's.
    res = bf_units(scenario(two, attacker(weapon(type="melee", targets=("A",)), targets=("B",))))
    assert res["target_of"] == [{"A": 1, "B": 0}]
    # No list: every target in scenario order.
    res = bf_units(scenario(two, attacker(melee)))
    assert res["made"] == [1, 1, 0] and res["all_destroyed"] == 1
    assert res["target_of"][:2] == [{"A": 1, "B": 0}, {"A": 0, "B": 1}]


# ------------------------------------------------------------------------- combined attacks
def test_combined_bonus_to_skill():
    """Skill 2, POW 9 (always destroys at ARM 10): alone 1/6 each; three combined +3: 7/12."""
    t = target()
    one_each = bf_units(scenario(t, attacker(weapon(skill=2, pow=9), models=3)))
    assert one_each["targets"]["T"]["kill"] == 1 - F(5, 6) ** 3 == F(91, 216)
    together = bf_units(scenario(t, attacker(weapon(skill=2, pow=9), models=3, combined=3)))
    assert together["targets"]["T"]["kill"] == P
    assert len(together["made"]) == 1 and together["slots"][0][:3] == ("A", 0, 3)


def test_combined_groups_and_leftover_group_of_one():
    """Three models combining 2: a +2 group (skill 5: 7/12) then a lone model (+0: 5/18)."""
    res = bf_units(scenario(target(), attacker(weapon(skill=3, pow=9), models=3, combined=2)))
    assert res["made"] == [1, 1 - P]
    assert res["hit"] == [P, (1 - P) * F(5, 18)]
    assert res["targets"]["T"]["kill"] == F(151, 216)


def test_combined_bonus_to_pow():
    """Auto-hit, POW 10 vs ARM 20: a point on 11+ (1/12); combined 2 adds 2 POW: 9+ (5/18)."""
    t = target(arm=20, state={"knocked_down"})
    together = bf_units(scenario(t, attacker(weapon(type="melee", pow=10), models=2, combined=2)))
    assert together["targets"]["T"]["kill"] == F(5, 18)
    apart = bf_units(scenario(t, attacker(weapon(type="melee", pow=10), models=2)))
    assert apart["targets"]["T"]["kill"] == 1 - F(11, 12) ** 2


def test_combined_blast_setting():
    """Blast POW 7 vs ARM 10: 4+ (33/36); with the +2 bonus of combined_blast: 2+ (always)."""
    t = target(models=2, state={"knocked_down"})
    s = scenario(t, attacker(weapon(type="melee", blast_pow=7, blast_models=1), models=2, combined=2))
    assert bf_units(s)["targets"]["T"]["kill"] == F(33, 36)
    assert bf_units(s, combined_blast=True)["targets"]["T"]["kill"] == 1


def test_attack_order_attackers_groups_weapons():
    a = attacker(weapon("X", attacks=2), weapon("Y"), name="A", models=2)
    b = attacker(weapon("Z"), name="B")
    res = bf_units(scenario(target(models=9), a, b))
    assert [(s[0], s[1], s[3], s[4]) for s in res["slots"]] == [
        ("A", 0, "X", 0), ("A", 0, "X", 1), ("A", 0, "Y", 0),
        ("A", 1, "X", 0), ("A", 1, "X", 1), ("A", 1, "Y", 0), ("B", 0, "Z", 0)]


# -------------------------------------------------------- against the single-target oracle
def test_single_model_matches_bf_sequence():
    """One model with a track: the same figures as tests/naive.py's sequence oracle."""
    ws = [weapon("Gun", skill=5, pow=12), weapon("Claw", type="melee", skill=6, pow=10,
                                                 rules={"knockdown"}),
          weapon("Bite", type="melee", skill=4, pow=11, rules={"critical_knockdown"})]
    res = bf_units(scenario(target(defense=13, arm=14, boxes=4), attacker(*ws)))
    ref = bf_sequence(
        [NaiveAttack("ranged", 5, 2, 12, 2), NaiveAttack("melee", 6, 2, 10, 2, knockdown=True),
         NaiveAttack("melee", 4, 2, 11, 2, critical_knockdown=True)],
        NaiveTarget(defense=13, arm=14, boxes=4))
    assert res["targets"]["T"]["damage"] == ref["damage"]
    for key in ("made", "hit", "crit"):
        assert res[key] == ref[key]
    assert res["destroyed"] == ref["kill"]


# --------------------------------------------------------------------------- what it refuses
@pytest.mark.parametrize("change", [
    lambda s: setattr(s, "turns", 2),
    lambda s: setattr(s.targets[0], "grid", ("..",) * 6),
    lambda s: setattr(s.targets[0], "rules", frozenset({"tough_steady"})),
    lambda s: setattr(s.targets[0], "state", frozenset({"stationary"})),
    lambda s: setattr(s.targets[0], "terrain", frozenset({"forest"})),
    lambda s: setattr(s.attackers[0], "focus", 1),
    lambda s: setattr(s.attackers[0].weapons[0], "rules", frozenset({"fire"})),
    lambda s: setattr(s.attackers[0].weapons[0], "boosted_damage", True),
])
def test_unsupported_features_raise(change):
    s = scenario(target(), attacker(weapon()))
    change(s)
    with pytest.raises(NotImplementedError):
        bf_units(s)


def test_unknown_target_name_is_an_error():
    with pytest.raises(ValueError):
        bf_units(scenario(target("A"), attacker(weapon(targets=("B",)))))
