"""Small scenarios with units: attacking units and unit targets (docs/units.md).

``ORACLE_CASES`` are within tests/naive_units.py's brute force (no points, damage tracks,
knockdown, Tough, combined attacks, blast on a hit and on a miss); ``CASES`` adds what only the exact engine and the kernel
share: best play with focus, fixed spending, continuous effects over rounds, quicksand,
Dispel, Grievous Wounds on a critical hit. Each is ``(id, scenario)``.
"""

from __future__ import annotations

from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon

RIFLE = Weapon("Rifle", "ranged", skill=5, pow=10)
AXE = Weapon("Axe", "melee", skill=6, pow=12, attacks=2, rules={"critical_knockdown"})
HAMMER = Weapon("Hammer", "melee", skill=5, pow=12, attacks=3)
FLAMER = Weapon("Flamer", "ranged", skill=6, pow=10, rules={"fire"})
NET = Weapon("Net", "ranged", skill=6, pow=None, rules={"knockdown"})
MORTAR = Weapon("Mortar", "ranged", skill=5, pow=12, blast_pow=6, blast_models=2)
BOMB = Weapon("Bomb", "ranged", skill=6, pow=14, blast_pow=7, blast_on_miss=1,
              rules={"critical_knockdown"})

ORACLE_CASES = [
    ("riflemen_vs_infantry",
     Scenario(Target(defense=13, arm=13, models=3), [Attacker("Riflemen", [RIFLE], models=4)])),
    ("tough_two_box_models",
     Scenario(Target(defense=13, arm=13, boxes=2, models=3, rules={"tough"}),
              [Attacker("Riflemen", [RIFLE], models=4)])),
    ("combined_attacks_groups_of_two",
     Scenario(Target(defense=14, arm=13, boxes=2, models=3, rules={"tough"}),
              [Attacker("Riflemen", [RIFLE], models=5, combined=2)])),
    ("melee_unit_critical_knockdown",
     Scenario(Target(defense=12, arm=14, boxes=3, models=2, rules={"tough"}),
              [Attacker("Brutes", [AXE], models=2)])),
    ("knocked_down_unit_of_five_box_models",
     Scenario(Target(defense=12, arm=15, boxes=5, models=2, state={"knocked_down"}),
              [Attacker("Smasher", [HAMMER])])),
    ("ranged_then_melee_four_models",
     Scenario(Target(defense=12, arm=13, boxes=1, models=4, rules={"tough"}),
              [Attacker("Riflemen", [RIFLE], models=3), Attacker("Brutes", [AXE])])),
    ("blast_on_tough_one_box_models",
     Scenario(Target(defense=13, arm=13, boxes=1, models=4, rules={"tough"}),
              [Attacker("Gunners", [MORTAR], models=2)])),
    ("blast_on_a_miss_then_melee",
     Scenario(Target(defense=12, arm=12, boxes=3, models=3, rules={"tough"}),
              [Attacker("Bombers", [BOMB], models=2), Attacker("Brutes", [AXE])])),
]

CASES = ORACLE_CASES + [
    ("best_play_focus_against_a_unit",
     Scenario(Target(defense=13, arm=15, boxes=3, models=3, rules={"tough"}),
              [Attacker("Jack", [Weapon("Fist", "melee", 6, 14, attacks=2)], focus=3)])),
    ("best_play_for_models_destroyed",
     Scenario(Target(defense=13, arm=12, boxes=1, models=2, rules={"tough"}),
              [Attacker("Jack", [Weapon("Fist", "melee", 5, 12, attacks=2)], focus=2)],
              objective="destroyed")),
    ("fixed_boosts_unit_of_attackers_with_focus",
     Scenario(Target(defense=14, arm=14, boxes=2, models=3),
              [Attacker("Officers", [RIFLE], models=2, focus=1, policy="fixed",
                        spend=Spend(boost_attack="always"))])),
    ("fire_on_a_unit_over_two_rounds",
     Scenario(Target(defense=12, arm=12, boxes=2, models=3),
              [Attacker("Burners", [FLAMER], models=2)], turns=2)),
    ("blast_against_a_unit_over_two_rounds",
     Scenario(Target(defense=13, arm=12, boxes=2, models=3, rules={"tough"}),
              [Attacker("Gunners", [MORTAR])], turns=2)),
    ("critical_grievous_wounds_on_a_tough_unit",
     Scenario(Target(defense=12, arm=13, boxes=2, models=3, rules={"tough"}),
              [Attacker("Brutes", [Weapon("Cleaver", "melee", 7, 12, attacks=2,
                                          rules={"critical_grievous_wounds"})], models=2)])),
    ("net_then_hammer_in_quicksand",
     Scenario(Target(defense=12, arm=13, boxes=2, models=2, terrain={"quicksand"}),
              [Attacker("Netter", [NET]), Attacker("Smasher", [HAMMER])])),
]
