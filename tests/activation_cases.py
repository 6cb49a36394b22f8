"""Small named scenarios covering every rule of docs/activation.md on a damage track.

``CASES`` is a list of ``(name, Scenario)``. Each is small (1 to 30 boxes, at most 6
attacks) so that the exact engine computes it in well under a second, and uses only what
the Monte Carlo kernel implements too (no ``power_field = "optimal"``): the kernel is
checked against ``exact_result`` on every one of them. Each case is built so that the rule
it names changes the figures (a target that can be disabled where Tough or a power field is
tested, points to spend where a policy is tested, and so on).
"""

from __future__ import annotations

from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon

__all__ = ["CASES", "case"]


def W(*args, **kw) -> Weapon:
    return Weapon(*args, **kw)


def one(target: Target, *weapons: Weapon, **attacker) -> Scenario:
    """One attacker (keyword arguments go to :class:`Attacker`) against ``target``."""
    return Scenario(target, [Attacker("A", list(weapons), **attacker)])


SWORD = W("Sword", "melee", 6, 12)
FIST = W("Fist", "melee", 6, 14, attacks=2)
GUN = W("Gun", "ranged", 6, 12)


def _spend(**kw) -> Spend:
    return Spend(**kw)


CASES: list[tuple[str, Scenario]] = [
    # ------------------------------------------------------------------ spending policies
    ("boost_attack_never", one(Target(14, 15, boxes=8), FIST, focus=2,
                               spend=_spend(boost_attack="never", boost_damage="never", buy_attacks=False))),
    ("boost_attack_always", one(Target(14, 15, boxes=8), FIST, focus=2,
                                spend=_spend(boost_attack="always", boost_damage="never", buy_attacks=False))),
    ("boost_attack_auto_8", one(Target(13, 15, boxes=8, state={"concealment"}), GUN,
                                W("Gun2", "ranged", 8, 12), focus=2,
                                spend=_spend(boost_attack="auto", boost_damage="never", buy_attacks=False))),
    ("boost_attack_auto_6", one(Target(12, 15, boxes=8), FIST, focus=1,
                                spend=_spend(boost_attack="auto", boost_attack_at=6, boost_damage="never",
                                             buy_attacks=False))),
    ("boost_damage_always", one(Target(12, 16, boxes=10), FIST, focus=2,
                                spend=_spend(boost_attack="never", boost_damage="always", buy_attacks=False))),
    ("boost_damage_auto", one(Target(12, 16, boxes=6), FIST, W("Stab", "melee", 7, 8), focus=3,
                              spend=_spend(boost_attack="never", boost_damage="auto", buy_attacks=False))),
    ("boost_damage_never_buy", one(Target(12, 16, boxes=8), FIST, focus=2,
                                   spend=_spend(boost_attack="never", boost_damage="never", buy_attacks=True))),
    ("reserve_for_buying", one(Target(14, 16, boxes=10), FIST, focus=3,
                               spend=_spend(boost_attack="always", boost_damage="always", buy_attacks=True,
                                            reserve=2))),
    ("buy_attacks_bought_weapon", one(Target(13, 14, boxes=12),
                                      W("Claw", "melee", 6, 12), W("Bite", "melee", 7, 10), focus=3,
                                      buy_weapon="Bite")),
    ("buy_attacks_default_weapon", one(Target(13, 14, boxes=12),
                                       W("Claw", "melee", 6, 12), W("Bite", "melee", 7, 10), focus=2)),
    ("ranged_focus_cannot_buy", one(Target(14, 13, boxes=6), W("Rifle", "ranged", 7, 12, attacks=2), focus=3)),
    ("fury_attacker", one(Target(13, 15, boxes=10), FIST, fury=3)),
    ("force_attacker", one(Target(13, 15, boxes=10), W("Jaws", "melee", 6, 13), force=2, model="warbeast")),
    ("charge", one(Target(13, 16, boxes=10), W("Axe", "melee", 6, 13), W("Claw", "melee", 5, 10),
                   charge=True, focus=1)),
    ("combined_melee", Scenario(Target(15, 15, boxes=5),
                                [Attacker("Unit", [W("Spear", "melee", 5, 10)], combined=3)])),
    # ------------------------------------------------------------------ weapon rules
    ("weapon_master", one(Target(13, 16, boxes=8), W("Blade", "melee", 7, 10, rules={"weapon_master"},
                                                     attacks=2))),
    ("brutal_damage_critical", one(Target(12, 17, boxes=6), W("Maul", "melee", 8, 12, rules={"brutal_damage"},
                                                              attacks=2))),
    ("brutal_damage_hit", Scenario(Target(12, 17, boxes=6),
                                   [Attacker("A", [W("Maul", "melee", 8, 12, rules={"brutal_damage"},
                                                     attacks=2)])], brutal_damage="hit")),
    ("armor_piercing", one(Target(12, 19, boxes=8), W("Pick", "melee", 6, 10, rules={"armor_piercing"},
                                                      attacks=2))),
    ("reroll_attack", one(Target(15, 13, boxes=3), W("Bow", "ranged", 5, 10, rules={"reroll_attack"},
                                                     attacks=2))),
    ("reroll_damage", one(Target(10, 16, boxes=8), W("Hammer", "melee", 8, 12, rules={"reroll_damage"},
                                                     attacks=2))),
    ("discard_lowest_attack_highest_damage", one(
        Target(14, 14, boxes=6),
        W("Lucky", "melee", 6, 12, attack_discard="lowest", damage_discard="highest", extra_attack_dice=1,
          extra_damage_dice=1, attacks=2))),
    ("discard_highest_attack_lowest_damage", one(
        Target(11, 14, boxes=6),
        W("Unlucky", "ranged", 7, 12, attack_discard="highest", damage_discard="lowest", attacks=2),
        focus=2, spend=_spend(boost_attack="always", boost_damage="always"))),
    ("def_minus_on_hit_no_stack", one(Target(15, 14, boxes=10),
                                      W("Hex", "ranged", 6, 10, def_minus=2, attacks=3))),
    ("arm_minus_on_critical", one(Target(12, 18, boxes=10),
                                  W("Rend", "melee", 7, 12, arm_minus=3, effect_on="critical", attacks=3))),
    ("two_weapons_effects_stack", Scenario(Target(15, 16, boxes=10), [
        Attacker("Hexer", [W("Hex", "ranged", 7, None, def_minus=2, arm_minus=1)]),
        Attacker("Curser", [W("Curse", "arcane", 7, None, def_minus=1, arm_minus=2)]),
        Attacker("Gunner", [W("Gun", "ranged", 4, 12, attacks=2)]),
    ])),
    ("stationary", Scenario(Target(16, 14, boxes=6), [
        Attacker("Freezer", [W("Ice", "ranged", 7, None, rules={"stationary"})]),
        Attacker("Brute", [W("Club", "melee", 3, 11, attacks=2)]),
    ])),
    ("critical_stationary", one(Target(13, 14, boxes=8),
                                W("Frost", "melee", 7, 11, rules={"critical_stationary"}, attacks=3))),
    ("knockdown_then_auto_hit", one(Target(15, 14, boxes=6),
                                    W("Slam", "melee", 6, 10, rules={"knockdown"}),
                                    W("Claw", "melee", 4, 11, attacks=2))),
    ("dispel", one(Target(13, 13, boxes=6, upkeep_def=2, upkeep_arm=2, spell_def=1),
                   W("Nullify", "melee", 6, 12, rules={"dispel"}, attacks=3))),
    ("grievous_wounds_vs_tough", one(Target(12, 14, boxes=3, rules={"tough"}, rapid_healing=1),
                                     W("Blade", "melee", 6, 12, rules={"grievous_wounds"}, attacks=2),
                                     W("Club", "melee", 6, 12))),
    ("blessed_vs_spells", one(Target(13, 14, boxes=6, spell_def=2, spell_arm=2, upkeep_def=1, upkeep_arm=1),
                              W("Holy", "melee", 6, 12, rules={"blessed"}, attacks=2),
                              W("Plain", "melee", 6, 12))),
    ("chain_weapon_vs_shield", one(Target(13, 14, boxes=6, shield=("L",), buckler=("R",)),
                                   W("Flail", "melee", 6, 12, rules={"chain_weapon"}, attacks=2),
                                   W("Mace", "melee", 6, 12))),
    ("decapitation", one(Target(12, 16, boxes=10), W("Vorpal", "melee", 7, 12, rules={"decapitation"},
                                                     attacks=2))),
    # issue 17: roll modifiers and damage rules (docs/rules.md 1, 2)
    ("jump_the_shark", one(Target(15, 16, boxes=8), W("Hook", "melee", 6, 12, rules={"jump_the_shark"}, attacks=2),
                           focus=1)),
    ("sanguine_fate", one(Target(13, 16, boxes=8), W("Blade", "melee", 6, 12, attacks=2,
                                                     rules={"sanguine_fate", "critical_knockdown"}))),
    ("discard_both", one(Target(12, 15, boxes=6), W("Gun", "ranged", 8, 12, attacks=2, extra_attack_dice=1,
                                                    attack_discard="both", damage_discard="both",
                                                    extra_damage_dice=1))),
    ("trash_after_knockdown", one(Target(13, 16, boxes=10), W("Maul", "melee", 6, 12, attacks=3,
                                                              rules={"knockdown", "trash"}))),
    ("shatter_after_stationary", Scenario(Target(13, 16, boxes=10), [
        Attacker("Freezer", [W("Frost", "ranged", 7, None, rules={"stationary"})]),
        Attacker("Smasher", [W("Hammer", "melee", 6, 12, attacks=2, rules={"shatter"})])])),
    ("critical_armor_piercing", one(Target(12, 19, boxes=8), W("Pick", "melee", 7, 12, attacks=2,
                                                               rules={"critical_armor_piercing"}))),
    ("ice_cage_then_melee", Scenario(Target(15, 15, boxes=8), [
        Attacker("Freezer", [W("Frost", "ranged", 6, 10, attacks=2, rules={"ice_cage"})]),
        Attacker("Smasher", [W("Axe", "melee", 5, 12, attacks=2)])])),
    ("critical_ice_cage", one(Target(14, 15, boxes=8), W("Frost", "ranged", 7, 11, attacks=3,
                                                         rules={"critical_ice_cage"}), focus=1)),
    ("paralysis_then_melee", Scenario(Target(16, 15, boxes=8), [
        Attacker("Venom", [W("Spit", "ranged", 7, None, rules={"paralysis"})]),
        Attacker("Biter", [W("Jaws", "melee", 5, 12, attacks=2)])])),
    ("critical_paralysis", one(Target(15, 15, boxes=8), W("Sting", "melee", 7, 11, attacks=3,
                                                          rules={"critical_paralysis"}))),
    ("sustained_attack", one(Target(15, 15, boxes=8), W("Claw", "melee", 6, 12, attacks=3,
                                                        rules={"sustained_attack"}), focus=1)),
    # the critical-hit-only forms of Dispel, Grievous Wounds and Sustained Attack
    ("critical_dispel", one(Target(13, 13, boxes=6, upkeep_def=2, upkeep_arm=2, upkeep_rules={"tough"}),
                            W("Nullify", "melee", 7, 12, rules={"critical_dispel"}, attacks=3), focus=1)),
    ("critical_grievous_wounds", one(Target(12, 14, boxes=4, rules={"tough"}, rapid_healing=1),
                                     W("Blade", "melee", 7, 12, rules={"critical_grievous_wounds"}, attacks=3),
                                     focus=1)),
    ("critical_sustained_attack", one(Target(15, 14, boxes=8), W("Claw", "melee", 7, 12, attacks=3,
                                                                 rules={"critical_sustained_attack"}), focus=1)),
    ("cavalry_charge", one(Target(15, 15, boxes=8), W("Lance", "melee", 6, 12, attacks=2), focus=1,
                           charge=True, cavalry=True)),
    ("random_rof_d3", one(Target(13, 14, boxes=8), W("Chain gun", "ranged", 6, 11, attacks="d3",
                                                     rules={"critical_knockdown"}), focus=1)),
    ("upkeep_tough_unyielding_dispel", one(Target(12, 13, boxes=4, upkeep_rules={"tough", "unyielding"}),
                                           W("Null", "melee", 6, 12, attacks=3, rules={"dispel"}), focus=1)),
    ("rapid_healing_d3", one(Target(12, 14, boxes=8, rapid_healing="d3"), W("Axe", "melee", 6, 13, attacks=3))),
    ("decapitation_on_hit", one(Target(12, 16, boxes=10), W("Axe", "melee", 7, 12, rules={"decapitation_on_hit"},
                                                            attacks=2))),
    ("shred_with_focus", one(Target(13, 16, boxes=8, rules={"tough"}), W("Claws", "melee", 7, 12, attacks=2,
                                                                         rules={"shred", "critical_knockdown"}),
                             focus=1)),
    # ------------------------------------------------------------------ target
    ("shield_and_buckler", one(Target(12, 13, boxes=8, shield=("L", "R"), buckler=("H",)), FIST)),
    ("unyielding_melee_and_ranged", Scenario(Target(12, 14, boxes=8, rules={"unyielding"}), [
        Attacker("Gunner", [W("Gun", "ranged", 6, 12)]),
        Attacker("Brawler", [W("Fist", "melee", 6, 12)]),
    ])),
    ("carapace_ranged_not_arcane", Scenario(Target(12, 12, boxes=8, rules={"carapace"}), [
        Attacker("Gunner", [W("Gun", "ranged", 6, 12)]),
        Attacker("Caster", [W("Bolt", "arcane", 6, 12)]),
    ])),
    ("terrain_forest", one(Target(13, 13, boxes=5, terrain={"forest"}), W("Gun", "ranged", 6, 11, attacks=2))),
    ("terrain_rubble_in_melee", one(Target(12, 13, boxes=5, terrain={"rubble"}, state={"in_melee"}),
                                    W("Gun", "ranged", 9, 11, attacks=2))),
    ("terrain_hill", one(Target(13, 13, boxes=5, terrain={"hill"}), W("Gun", "ranged", 6, 11, attacks=2))),
    ("terrain_obstacle_melee", one(Target(13, 13, boxes=5, terrain={"obstacle"}),
                                   W("Sword", "melee", 6, 11, attacks=2))),
    ("terrain_tall_grass_large_base", Scenario(Target(13, 13, boxes=5, base="large", terrain={"tall_grass"}), [
        Attacker("A", [W("Gun", "ranged", 6, 11, attacks=2)]),
    ])),
    ("inert_target", one(Target(15, 14, boxes=8, state={"inert"}, focus=3, shield=("L",)),
                         W("Fist", "melee", 4, 12, attacks=2))),
    ("power_field_focus_lethal", one(Target(10, 14, boxes=4, focus=3, power_field="lethal"),
                                     W("Fist", "melee", 7, 14, attacks=3))),
    ("power_field_never", one(Target(10, 14, boxes=4, focus=3, power_field="never"),
                              W("Fist", "melee", 7, 14, attacks=3))),
    ("fury_target_lethal", one(Target(12, 14, boxes=3, fury=1, power_field="lethal"), W("Axe", "melee", 6, 13, attacks=3))),
    ("tough", one(Target(12, 14, boxes=3, rules={"tough"}), W("Axe", "melee", 6, 12, attacks=3))),
    ("tough_steady_knocked_down", one(Target(12, 14, boxes=3, rules={"tough_steady"}, state={"knocked_down"}),
                                      W("Axe", "melee", 6, 12, attacks=3))),
    ("tough_knocked_down_no_roll", one(Target(12, 14, boxes=3, rules={"tough"}, state={"knocked_down"}),
                                       W("Axe", "melee", 6, 12, attacks=3))),
    ("rapid_healing", one(Target(12, 16, boxes=8, rapid_healing=2), W("Sword", "melee", 6, 12, attacks=3))),
    ("resistances", Scenario(Target(13, 13, boxes=6, resist={"fire", "magical"}), [
        Attacker("Pyro", [W("Flame", "ranged", 6, 12, damage_type={"fire", "corrosion"})]),
        Attacker("Caster", [W("Bolt", "arcane", 6, 12)]),
        Attacker("Chiller", [W("Ice", "ranged", 6, 12, damage_type={"cold"})]),
    ])),
    # ------------------------------------------------------------------ several attackers
    ("multi_attacker_points_not_carried", Scenario(Target(13, 15, boxes=12), [
        Attacker("Caster", [W("Staff", "melee", 6, 12)], focus=3,
                 spend=_spend(boost_attack="never", boost_damage="never", buy_attacks=False)),
        Attacker("Jack", [W("Fist", "melee", 6, 14)], focus=1),
    ])),
    ("everything_at_once", Scenario(
        Target(13, 15, boxes=6, rules={"tough"}, focus=1, upkeep_arm=1, terrain={"forest"}), [
            Attacker("Hexer", [W("Hex", "arcane", 7, 10, def_minus=1, rules={"dispel"})], focus=1),
            Attacker("Beast", [W("Claw", "melee", 6, 12, rules={"critical_knockdown"}),
                               W("Horn", "melee", 5, 13, rules={"weapon_master"})], force=2, model="warbeast",
                               charge=True),
        ])),
]


def case(name: str) -> Scenario:
    """The scenario of the case called ``name``."""
    return dict(CASES)[name]
