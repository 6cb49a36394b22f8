"""Small named scenarios on damage grids and life spirals (docs/activation.md, last section).

``CASES`` is a list of ``(name, Scenario)``. Each is small enough for the exact engine to
compute in well under a second: grids of six columns of 0 to 4 boxes, and a few realistic
heavy warjack grids with one to three attacks. None uses ``power_field = "optimal"``: the
Monte Carlo kernel is compared against ``exact_result`` on every one of them. Each case is
built so that the rule it names changes the figures (systems that can be crippled before a
later attack where feedback is tested, a target that can be disabled where Tough is tested,
and so on). Grid strings list a column's boxes top to bottom (``.`` hull, a letter a
system); spiral strings a branch's boxes outermost first.
"""

from __future__ import annotations

from mathhammer.rules import Attacker, Scenario, Spend, Target, Weapon

__all__ = ["CASES", "HEAVY_GRID", "SPIRAL", "case"]

#: A heavy warjack's grid (36 boxes): arms in columns 1-2 and 5-6, Movement and Cortex in
#: the middle.
HEAVY_GRID = ("....LL", "...LLM", "..MMCC", "..MMCC", "...RRM", "....RR")

#: A small life spiral (12 boxes).
SPIRAL = ("BB", "MMB", "SM", "S", "BSS", "M")


def W(*args, **kw) -> Weapon:
    return Weapon(*args, **kw)


def one(target: Target, *weapons: Weapon, **attacker) -> Scenario:
    """One attacker (keyword arguments go to :class:`Attacker`) against ``target``."""
    return Scenario(target, [Attacker("A", list(weapons), **attacker)])


def grid(*columns: str, **kw) -> Target:
    """A target with this damage grid (DEF 12, ARM 12 unless given)."""
    kw.setdefault("defense", 12)
    kw.setdefault("arm", 12)
    return Target(grid=list(columns), **kw)


def spiral(*branches: str, **kw) -> Target:
    """A target with this life spiral (DEF 12, ARM 12 unless given)."""
    kw.setdefault("defense", 12)
    kw.setdefault("arm", 12)
    return Target(spiral=list(branches), **kw)


CASES: list[tuple[str, Scenario]] = [
    # ------------------------------------------------------------------ marking
    ("grid_overflow_and_wrap",
     one(grid("L.", ".", "..", "M", ".", "R"), W("Fist", "melee", 6, 13, attacks=2))),
    ("grid_uneven_and_empty_columns",
     one(grid("....", "", "L", "", "..M.", "."), W("Axe", "melee", 6, 12, attacks=2))),
    ("grid_systems_crippled_by_chance",
     one(grid("C.", "M..", "L", "R.", ".G", "HA"), W("Rifle", "ranged", 6, 10, attacks=3))),
    ("grid_one_box_per_column",
     one(grid("L", "M", "C", ".", "R", "H"), W("Blade", "melee", 6, 9, attacks=3))),
    # ------------------------------------------------------------------ damage to X
    ("grid_damage_to_low_system",
     one(grid("..", ".M.", ".", "..M", "", ".."), W("Hook", "melee", 6, 12, damage_to="M", attacks=2))),
    ("grid_damage_to_system_already_full",
     one(grid("...", "..", "C", "..", "...", "."), W("Probe", "melee", 6, 11, damage_to="C", attacks=3))),
    ("spiral_damage_to_spirit",
     one(spiral(*SPIRAL), W("Mind Spike", "arcane", 6, 11, damage_to="S", attacks=3))),
    # ------------------------------------------------------------------ feedback on the target
    ("feedback_shield_on_crippled_left_arm",
     one(grid("L", "L.", "..", "..", "..", "R.", shield=("L",), buckler=("R",)),
         W("Fist", "melee", 6, 12, attacks=3))),
    ("feedback_movement_base_def_5",
     Scenario(grid("M", "M.", "..", "..", ".", ".", defense=16, arm=11),
              [Attacker("A", [W("Spike", "ranged", 9, 12, damage_to="M")]),
               Attacker("B", [W("Claw", "melee", 4, 11, attacks=2)])])),
    ("feedback_power_field_generator",
     Scenario(grid("G", ".", "G.", ".", "..", ".", arm=12, focus=2),
              [Attacker("A", [W("Cannon", "ranged", 6, 13, attacks=3)])])),
    ("feedback_cortex_loses_focus",
     Scenario(grid("C", ".", "C.", "..", ".", "..", arm=12, focus=3),
              [Attacker("A", [W("Lance", "melee", 6, 13, damage_to="C")]),
               Attacker("B", [W("Hammer", "melee", 6, 14, attacks=2)])])),
    ("feedback_inert_grid_no_shield_no_focus",
     one(grid("L.", "L", "M.", ".", "G", ".", state={"inert"}, shield=("L",), focus=2),
         W("Mace", "melee", 3, 11, attacks=2))),
    # ------------------------------------------------------------------ healing
    ("grid_tough_heals_last_box",
     one(grid("L", ".", "M", ".", "C", ".", rules={"tough"}), W("Blade", "melee", 6, 11, attacks=3))),
    ("grid_rapid_healing_one",
     one(grid("L.", "", "M", ".", "", "..", rapid_healing=1), W("Blade", "melee", 6, 10, attacks=3))),
    ("grid_rapid_healing_two_with_order",
     one(grid("L", ".", "M", "..", "", ".", rapid_healing=2), W("Claw", "melee", 6, 11, attacks=3))),
    ("grid_tough_steady_grievous",
     Scenario(grid("LL", ".", "M", "", ".", ".", rules={"tough_steady"}, rapid_healing=1),
              [Attacker("A", [W("Club", "melee", 6, 10, attacks=2, rules={"knockdown"})]),
               Attacker("B", [W("Spear", "melee", 6, 11, rules={"grievous_wounds"})])])),
    # ------------------------------------------------------------------ spirals
    ("spiral_body_mind_spirit",
     one(spiral(*SPIRAL, fury=1), W("Claws", "melee", 6, 12, attacks=3))),
    ("spiral_rapid_healing_tough",
     one(spiral("B", "M", "S", "BB", "", "MS", rules={"tough"}, rapid_healing=1),
         W("Bite", "melee", 6, 11, attacks=3))),
    # ------------------------------------------------------------------ crippled attackers
    ("attacker_warjack_left_arm_crippled",
     one(grid("L.", "..", "M", "..", ".", "R."),
         W("Shield Bash", "melee", 6, 12, location="L"), W("Axe", "melee", 6, 13, location="R"),
         crippled={"L"}, focus=1)),
    ("attacker_warjack_head_and_cortex_crippled",
     one(grid("..", "H.", "..", "C", "..", "."),
         W("Horn", "melee", 6, 12, location="H", rules={"critical_knockdown"}), W("Fist", "melee", 6, 12),
         crippled={"H", "C"}, focus=2)),
    ("attacker_warbeast_body_mind_crippled",
     Scenario(spiral("BM", "S", "MB", "", "S", "B"),
              [Attacker("Beast", [W("Claw", "melee", 6, 13, attacks=2)], model="warbeast",
                        crippled={"B", "M"}, force=1)])),
    ("attacker_warbeast_spirit_crippled_no_forcing",
     Scenario(grid("L", "..", "M.", ".", "..", "."),
              [Attacker("Beast", [W("Bite", "melee", 6, 12)], model="warbeast", crippled={"S"}, force=2),
               Attacker("Other", [W("Gun", "ranged", 6, 11)], model="other")])),
    # ------------------------------------------------------------------ situations
    ("grid_knockdown_then_auto_hits",
     Scenario(grid("L.", "M", ".", "..", "R", "..", defense=15),
              [Attacker("Slam", [W("Net", "ranged", 7, None, rules={"knockdown"})]),
               Attacker("Jack", [W("Fist", "melee", 4, 12, attacks=2)])])),
    ("grid_three_attackers_effects",
     Scenario(grid("L..", ".M", "C", "..", "R.", ".", arm=13, shield=("R",)),
              [Attacker("Hexer", [W("Hex", "ranged", 6, 9, arm_minus=2)]),
               Attacker("Jack", [W("Fist", "melee", 6, 12)], focus=1,
                        spend=Spend(boost_attack="never", boost_damage="always", buy_attacks=False)),
               Attacker("Beast", [W("Bite", "melee", 6, 11)], model="warbeast", force=1)])),
    # ------------------------------------------------------------------ heavy warjack grids
    ("heavy_grid_two_fists",
     one(Target(12, 18, grid=list(HEAVY_GRID)), W("Fist", "melee", 7, 18, attacks=2))),
    ("heavy_grid_cannon_shield_focus",
     one(Target(13, 18, grid=list(HEAVY_GRID), shield=("L",), focus=2),
         W("Cannon", "ranged", 6, 15, damage_to="L", location="R"), W("Gun", "ranged", 6, 14, attacks=2),
         focus=1)),
    ("heavy_grid_charge_tough",
     one(Target(12, 17, grid=list(HEAVY_GRID), rules={"tough"}, shield=("R",)),
         W("Axe", "melee", 7, 19, attacks=2), W("Head Spike", "melee", 7, 14, location="H"),
         charge=True, crippled={"H"}, focus=1,
         spend=Spend(boost_attack="never", boost_damage="auto", buy_attacks=False))),
]


def case(name: str) -> Scenario:
    """The scenario of the named case."""
    return dict(CASES)[name]
