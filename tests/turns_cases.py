"""Named scenarios over several rounds with continuous effects and hazards
(docs/activation.md, "Continuous effects, hazards and several turns"; docs/rules.md 4).

``CASES`` is a list of ``(name, Scenario)``: small cases for the Monte Carlo kernel against the
exact engine (tests/test_mc_vs_exact_turns.py) and the exact engine's invariants
(tests/test_exact_turns.py). Every case runs in the exact engine in well under a second and
none uses ``power_field = "optimal"`` (the kernel cannot). Probabilities are kept away from 0
and 1 where it matters, so a 5-sigma comparison has something to compare.
"""

from __future__ import annotations

from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon

__all__ = ["CASES", "case"]


def W(name, kind, skill, pow_, **kw):
    return Weapon(name, kind, skill=skill, pow=pow_, **kw)


def one(target, *weapons, turns=3, attack_turns="all", **attacker):
    return Scenario(target, [Attacker("A", list(weapons), **attacker)], turns=turns, attack_turns=attack_turns)


#: A gun that can do nothing: POW "-" and no rule (it only stands for an attack phase).
DUD = W("Dud", "ranged", 0, None)

CASES: list[tuple[str, Scenario]] = [
    # --- weapons that put effects on the target
    ("fire_alone", one(Target(13, 15, boxes=8), W("Torch", "melee", 6, 10, rules={"fire"}), turns=3)),
    ("corrosion_alone", one(Target(13, 14, boxes=5), W("Acid", "ranged", 6, 9, rules={"corrosion"}), turns=3)),
    ("fire_and_corrosion", Scenario(Target(14, 15, boxes=9),
                                    [Attacker("Pyro", [W("Flamer", "ranged", 6, 8, rules={"fire"})]),
                                     Attacker("Acid", [W("Spit", "ranged", 6, 8, rules={"corrosion"})])],
                                    turns=4)),
    ("fire_resistant_target_never_burns", one(Target(12, 14, boxes=6, resist={"fire"}),
                                              W("Torch", "melee", 6, 11, rules={"fire", "corrosion"}),
                                              turns=3)),
    ("critical_fire_only", one(Target(12, 15, boxes=6),
                               W("Brand", "melee", 7, 11, rules={"critical_fire"}, attacks=2), turns=2)),
    ("critical_corrosion_three_dice", one(Target(14, 14, boxes=6),
                                          W("Venom", "ranged", 5, 10, rules={"critical_corrosion"},
                                            extra_attack_dice=1), turns=3)),
    # --- effects on the target from the start, no attack that does anything
    ("starting_fire_and_corrosion_five_turns", one(Target(14, 17, boxes=6, effects={"fire", "corrosion"}), DUD,
                                                   turns=5, attack_turns="first")),
    ("one_turn_fire", one(Target(12, 15, boxes=5), W("Torch", "melee", 6, 11, rules={"fire"}), turns=1)),
    # --- attack phases: every round or the first only
    ("five_turns_attacks_every_round", one(Target(13, 16, boxes=12), W("Torch", "melee", 6, 11, rules={"fire"}),
                                           turns=5)),
    ("five_turns_attacks_first_round_only", one(Target(13, 16, boxes=12),
                                                W("Torch", "melee", 6, 11, rules={"fire"}),
                                                turns=5, attack_turns="first")),
    ("two_attackers_points_every_round", Scenario(
        Target(13, 15, boxes=8, effects={"corrosion"}),
        [Attacker("Jack", [W("Fist", "melee", 6, 11, rules={"fire"})], focus=1,
                  spend=Spend(boost_attack="auto", boost_attack_at=7, buy_attacks=True)),
         Attacker("Gun", [W("Rifle", "ranged", 5, 10)])], turns=2)),
    # --- hazards
    ("acid_bath", one(Target(13, 15, boxes=3, terrain={"acid_bath"}), DUD, turns=4, attack_turns="first")),
    ("burning_earth", one(Target(13, 16, boxes=6, terrain={"burning_earth"}), DUD, turns=4, attack_turns="first")),
    ("burning_earth_and_fire_weapon", one(Target(13, 15, boxes=8, terrain={"burning_earth"}),
                                          W("Torch", "melee", 6, 10, rules={"fire"}), turns=3)),
    ("acid_bath_corrosion_resistant", one(Target(13, 15, boxes=4, terrain={"acid_bath", "burning_earth"},
                                                 resist={"corrosion"}),
                                          W("Spit", "ranged", 6, 9, rules={"corrosion"}), turns=3)),
    ("quicksand_knockdown", Scenario(Target(14, 14, boxes=4, terrain={"quicksand"}),
                                     [Attacker("Netter", [W("Net", "ranged", 6, None, rules={"knockdown"})]),
                                      Attacker("Axeman", [W("Axe", "melee", 4, 11, attacks=2)])], turns=2)),
    ("quicksand_critical_knockdown_tough_steady", one(
        Target(12, 14, boxes=3, terrain={"quicksand"}, rules={"tough_steady"}),
        W("Hammer", "melee", 6, 10, rules={"critical_knockdown"}, attacks=2), turns=2)),
    # --- defences against continuous damage
    ("power_field_focus_vs_fire", one(Target(14, 14, boxes=4, focus=2, effects={"fire"}),
                                      W("Torch", "melee", 5, 9, rules={"fire"}), turns=4)),
    ("fury_does_not_stop_corrosion", one(Target(13, 14, boxes=3, fury=1, effects={"corrosion"}),
                                         W("Axe", "melee", 5, 11), turns=3)),
    ("tough_vs_corrosion", one(Target(14, 14, boxes=2, rules={"tough"}, effects={"corrosion"}), DUD,
                               turns=5, attack_turns="first")),
    ("knocked_down_no_tough_at_maintenance", one(Target(13, 14, boxes=3, rules={"tough"}),
                                                 W("Slam", "melee", 6, 10, rules={"fire", "knockdown"}),
                                                 turns=3)),
    ("grievous_wounds_no_tough_vs_corrosion", one(Target(13, 14, boxes=3, rules={"tough"}, rapid_healing=1),
                                                  W("Barb", "melee", 6, 10, rules={"corrosion", "grievous_wounds"}),
                                                  turns=3)),
    ("fire_armor_shield_upkeep_dispel_arm_minus", one(
        Target(13, 12, boxes=8, shield=("L",), upkeep_arm=2, spell_arm=1, rules={"unyielding"}),
        W("Hex", "ranged", 6, 8, rules={"fire", "dispel"}, arm_minus=2), turns=3)),
    ("rapid_healing_not_after_maintenance", one(Target(13, 15, boxes=5, rapid_healing=1, effects={"fire"}),
                                                W("Blade", "melee", 6, 11), turns=3)),
    # --- damage grids and life spirals
    ("grid_fire", one(Target(13, 13, grid=["L.", ".", "M", ".G", "C", "R."], focus=1, shield=("L",)),
                      W("Torch", "melee", 6, 10, rules={"fire"}), turns=2)),
    ("grid_cortex_lost_for_good", one(Target(13, 14, grid=["C", ".", "", ".", "", ""], focus=2, rules={"tough"},
                                             effects={"corrosion"}),
                                      W("Fist", "melee", 5, 11), turns=3)),
    ("spiral_acid_bath_quicksand", one(Target(13, 14, spiral=["B", "M", "", "S", "", "B"],
                                              terrain={"acid_bath", "quicksand"}),
                                       W("Bite", "melee", 6, 10, rules={"critical_knockdown"}), turns=3)),
]


def case(name: str) -> Scenario:
    """The scenario of ``CASES`` called ``name``."""
    return dict(CASES)[name]
