"""The names a scenario may use: attack types, base sizes, target states, damage types, rules.

Kept in one place so that validation messages, the README and the encoder agree.
"""

from __future__ import annotations

ATTACK_TYPES = ("melee", "ranged", "arcane")
RANGED_TYPES = frozenset({"ranged", "arcane"})

BASE_SIZES = ("small", "medium", "large", "extra_large", "huge")

#: Target states of docs/rules.md section 1 (``building``: the target *is* a building).
TARGET_STATES = (
    "knocked_down",
    "stationary",
    "inert",
    "wild",
    "building",
    "in_melee",
    "cover",
    "concealment",
    "elevated",
    "obstacle",
)

#: States that make the target's base DEF 5 and melee attacks against it hit automatically.
BASE_DEF_5_STATES = frozenset({"knocked_down", "stationary", "inert", "wild", "building"})
MELEE_AUTO_HIT_STATES = BASE_DEF_5_STATES
#: States that are stationary but for being knocked down (the engines' "still"; Shatter).
STILL_STATES = frozenset({"stationary", "inert", "wild", "building"})

#: Damage types a weapon may deal and a target may resist. Arcane attacks always add "magical".
DAMAGE_TYPES = ("fire", "cold", "corrosion", "electrical", "magical")

#: Weapon special rules the engine implements (README "Weapon rules" says what each does).
WEAPON_RULES = (
    "knockdown",            # a hit knocks the target down
    "critical_knockdown",   # a critical hit knocks it down
    "stationary",           # a hit makes it stationary
    "critical_stationary",  # a critical hit makes it stationary
    "weapon_master",        # one additional damage die
    "brutal_damage",        # one additional damage die on a critical hit (setting: on any hit)
    "armor_piercing",       # halve the target's base ARM (round up), then apply modifiers
    "reroll_attack",        # reroll a missed attack roll, once
    "reroll_damage",        # reroll a low damage roll that does not disable, once
    "dispel",               # a hit ends the target's upkeep spells at once
    "grievous_wounds",      # a hit stops Tough and healing for the rest of the sequence
    "blessed",              # ignores spell bonuses to DEF and ARM
    "chain_weapon",         # ignores Shield and Buckler ARM bonuses
    "decapitation",         # a critical hit doubles the damage points
    "fire",                 # a hit sets the target on fire (continuous effect)
    "corrosion",            # a hit puts corrosion on the target (continuous effect)
    "critical_fire",        # a critical hit sets the target on fire
    "critical_corrosion",   # a critical hit puts corrosion on the target
    "jump_the_shark",       # every die of its attack and damage rolls showing 1 counts as a 6
    "sanguine_fate",        # one more die with the attack roll: not in the total, but a double
    "trash",                # one more damage die against a target knocked down at the time
    "shatter",              # one more damage die against a target stationary at the time
    "critical_armor_piercing",  # Armor-Piercing on a critical hit only
    "decapitation_on_hit",  # Decapitation on any hit (doubles the damage points)
    "ice_cage",             # a hit: -2 DEF, cumulative; from two, the target is stationary
    "critical_ice_cage",    # the same on a critical hit
    "paralysis",            # a hit: the target's base DEF is 5 (melee attacks still roll)
    "critical_paralysis",   # the same on a critical hit
    "sustained_attack",     # once it has hit the target, its later attacks on it hit automatically
    "critical_dispel",      # Dispel on a critical hit only
    "critical_grievous_wounds",   # Grievous Wounds on a critical hit only
    "critical_sustained_attack",  # Sustained Attack from a critical hit only
    "shred",                # a critical hit: one more attack with it, which can shred again
)

#: Power attacks a weapon entry may be (``power_attack``; docs/rules.md 5, "Power attacks"):
#: the combat action is that one attack, made with the attacker's MAT and the POW given.
POWER_ATTACKS = ("headbutt", "slam")
#: Actions an attacker made from a card may take (``heavy_warjack:slam``): the weapons of one
#: type, or one of its power attacks with its melee weapons for the attacks bought after it.
CARD_ACTIONS = ATTACK_TYPES + POWER_ATTACKS

#: Weapon rules that only make sense on a weapon that rolls damage.
DAMAGE_ROLL_RULES = frozenset({"weapon_master", "brutal_damage", "armor_piercing", "reroll_damage", "decapitation",
                               "trash", "shatter", "critical_armor_piercing", "decapitation_on_hit"})
#: Weapon rules one weapon cannot have together: the same rule on any hit and on a critical
#: hit only.
EXCLUSIVE_RULES = (("armor_piercing", "critical_armor_piercing"), ("decapitation", "decapitation_on_hit"),
                   ("dispel", "critical_dispel"), ("grievous_wounds", "critical_grievous_wounds"),
                   ("sustained_attack", "critical_sustained_attack"))

#: Continuous effects (docs/rules.md 4), in the order the maintenance phase resolves them.
CONTINUOUS_EFFECTS = ("fire", "corrosion")

#: Hazards the target may stand in (docs/rules.md 4, seed 004): they change no DEF, but give
#: Corrosion (acid bath) or Fire (burning earth) at the end of its activation, or 1 damage
#: point when a hit knocks it down (quicksand).
HAZARDS = ("acid_bath", "burning_earth", "quicksand")

#: When attackers attack in a several-turn scenario: every turn, or only the first.
ATTACK_TURNS = ("all", "first")

#: Random rates of fire (``attacks = "d3"`` ...) of a ranged weapon: the most attacks each
#: gives. The roll is made once, before the first of them (docs/rules.md 5).
RANDOM_ROF = {"d3": 3, "d6": 6, "2d3": 6}

#: Which die a weapon discards after rolling (``attack_discard`` / ``damage_discard``); ``both``:
#: the lowest, then the highest (each only while two or more dice are left).
DISCARDS = ("none", "lowest", "highest", "both")

#: When a weapon's -DEF / -ARM effect lands (``effect_on``).
EFFECT_TRIGGERS = ("hit", "critical")

#: Spending modes of an attacker's ``spend`` table.
BOOST_MODES = ("never", "always", "auto")

#: Attacker policies: ``best`` decides every spend by best play (the default with points),
#: ``fixed`` uses its ``spend`` table, ``optimize`` searches the family for a fixed one.
ATTACKER_POLICIES = ("best", "fixed", "optimize")

#: What the optimizer maximises; ``cripple:X`` is the probability system / aspect X ends
#: crippled (a letter of the target's grid or spiral).
OBJECTIVES = ("kill", "damage", "destroyed", "cripple:X")

#: Damage-grid system letters (docs/rules.md 3): Arc node, Cortex, power field Generator, Head,
#: Movement, Front / Left / Right weapon systems. ``.`` is a hull box.
GRID_LETTERS = "ACGHMFLR"
#: Life-spiral aspect letters: Body, Mind, Spirit.
SPIRAL_LETTERS = "BMS"
GRID_SYSTEM_NAMES = {
    "A": "Arc Node", "C": "Cortex", "G": "Power Field Generator", "H": "Head",
    "M": "Movement", "F": "Front weapon system", "L": "Left arm weapon system",
    "R": "Right arm weapon system",
}
SPIRAL_ASPECT_NAMES = {"B": "Body", "M": "Mind", "S": "Spirit"}
#: Most boxes in one grid column or spiral branch.
MAX_COLUMN_BOXES = 10

#: Where an attacker stands against a colossal (``side``): the grid its damage rolls go to,
#: or ``random`` (a d6: 1-3 the left grid, 4-6 the right; docs/rules.md 3, "Colossals").
COLOSSAL_SIDES = ("random", "left", "right")

#: Kinds of attacking model, for what its crippled systems or aspects mean.
ATTACKER_MODELS = ("warjack", "warbeast", "other")

#: How a target spends focus (power field) or fury to reduce the damage it takes.
POWER_FIELD_POLICIES = ("best", "never", "lethal")
#: Older names of power field policies, read as the current one.
POWER_FIELD_ALIASES = {"optimal": "best"}

#: Target special rules (docs/rules.md 9).
TARGET_RULES = ("unyielding", "carapace", "tough", "tough_steady")
#: Target rules an upkeep spell may grant (``upkeep_rules``): Dispel ends them.
UPKEEP_RULES = ("tough", "unyielding")

#: Settings for the open readings, ``[settings]`` booleans (docs/rules.md, "Readings"); False
#: is this project's reading, True the ChanceMachine calculator's.
READINGS = (
    "knockdown_before_tough",
    "crit_counts_discarded",
    "arm_minus_stacks_same_weapon",
    "dispel_from_next_attack",
    "single_die_one_misses",
)

#: Settings of how a target defends (docs/rules.md, "Readings"), a scenario's only: the most
#: points its power field spends on one damage roll (``power_field_per_attack``, 0: no limit)
#: and whether Rapid Healing heals after every damaging hit it survives
#: (``rapid_healing_when_hit``). A trade models no power field or Rapid Healing.
TARGET_SETTINGS = ("power_field_per_attack", "rapid_healing_when_hit")

#: Brutal Damage setting: its extra die on a critical hit (default) or on any hit.
BRUTAL_DAMAGE_ON = ("critical", "hit")

#: Terrain the target stands in or behind (docs/rules.md 7) and the situation it gives.
#: ``tall_grass`` conceals small and medium bases only.
TERRAIN = {
    "forest": "concealment",
    "dense_fog": "concealment",
    "tall_grass": "concealment",
    "cloud": "concealment",
    "rubble": "cover",
    "trench": "cover",
    "crater": "cover",
    "building": "cover",
    "hill": "elevated",
    "obstacle": "obstacle",
    "obstruction": "obstacle",
}

#: Weapon locations (damage-grid systems that may carry weapons).
WEAPON_LOCATIONS = ("L", "R", "H", "F")
