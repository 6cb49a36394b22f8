"""Field layout of the encoded tables shared by :mod:`mathhammer.montecarlo.encode` and the kernels.

Plain module-level ints: Numba freezes them as compile-time constants. Every table is an
``int64`` array; a row per entity, a column per field (struct of arrays, flags as bits).

The per-trial state (see ``docs/activation.md``) is a handful of scalars in the kernel: the
damage marked (a track count; grids and spirals add per-box marks in a scratch array and a
crippled-system bit set), the target situation bits ``ST_*``, the -DEF / -ARM effects active
(a bit per weapon and the running sums), the target's focus or fury left, and the current
attacker's points left.
"""

from typing import NamedTuple

import numpy as np

from ..._core.limits import MAX_ARM_STACK, MAX_ICE_STACKS
from ...play import codes as _play
from ...result.fields import (
    EFFECT_AFTER,
    EFFECT_APPLIED,
    EFFECT_DAMAGE,
    EFFECT_DESTROYED,
    EFFECT_FIELDS,
    EFFECT_KILL,
    EFFECT_NAMES,
    EFFECT_PRESENT,
    EFFECT_TARGET_SPENT,
    EFFECT_TOUGH,
    SLOT_BOOST_ATTACK,
    SLOT_BOOST_DAMAGE,
    SLOT_CRIT,
    SLOT_DAMAGE,
    SLOT_DESTROYED,
    SLOT_FIELDS,
    SLOT_SHRED,
    SLOT_HIT,
    SLOT_MADE,
    SLOT_SPENT,
    SLOT_TARGET_SPENT,
    SLOT_TOUGH,
)


# --- attacks table: int64[n_slots + n_alternatives, A_NFIELDS], one row per attack slot in
# sequence order, then one per other weapon a bought attack may be made with by best play
# (its slot's A_CHOICES / A_CHOICE_ROW point there; the BUY bit of that row's decision
# table entry says best play makes it with that weapon). Weapon and target figures are
# copied into every row (no indirection in the hot loop: each row holds all the kernel
# needs to resolve that attack). Dice counts are *raw* (free boosts,
# extra dice, crippling, resistance applied but not floored): the kernel adds paid boosts and
# Brutal Damage, then floors at one die.
A_SKILL = 0         # MAT or RAT, plus the combined-attack bonus
A_POW = 1           # POW plus the combined-attack bonus (ignored when F_DAMAGE is unset)
A_ATT_DICE = 2      # raw attack dice: 2 + free boost + extra - crippled
A_DMG_DICE = 3      # raw damage dice: 2 + free boost + Weapon Master + extra - crippled - resisted
A_FLAGS = 4         # F_* bits
A_DEF = 5           # DEF at the target's starting base DEF, terrain included, spells not
A_DEF5 = 6          # DEF at base DEF 5, terrain included, spells not
A_ATTACKER = 7      # index of the attacker making it (row of the attackers table)
A_ORIGIN = 8        # ORIGIN_INITIAL | ORIGIN_BOUGHT
A_AUTOHIT_ON = 9    # situation bits under which it hits automatically (ST_MELEE_AUTOHIT for
#                     melee; ST_ALWAYS for a weapon with auto_hit)
A_SPELL_DEF = 10    # DEF from spells Dispel does not end (0 for Blessed weapons)
A_UPKEEP_DEF = 11   # DEF from upkeep spells, lost once dispelled (0 for Blessed weapons)
A_ARM = 12          # base ARM (halved for Armor-Piercing) + Unyielding/Carapace + spell ARM
A_UPKEEP_ARM = 13   # ARM from upkeep spells, lost once dispelled (0 for Blessed weapons)
A_EFFECT_BIT = 14   # bit of this weapon's -DEF/-ARM effect (0: none)
A_DEF_MINUS = 15    # its -DEF
A_ARM_MINUS = 16    # its -ARM
A_EFFECT_ON = 17    # outcome from which it lands: HIT or CRIT
A_DAMAGE_TO = 18    # letter index (on the target's card) its damage goes to first, -1: none
A_COST = 19         # points a bought attack costs (1; a spell's cast: its COST)
A_CHOICES = 20      # bought attack: other weapons best play may make it with (rows after the slots')
A_CHOICE_ROW = 21   # ... the first of their rows (alternatives of one slot are consecutive)
A_BLAST_POW = 22    # an AOE against a unit (F_BLAST): POW of its blast damage rolls
A_BLAST_DICE = 23   # ... their dice (2, one fewer where the type is resisted)
A_BLAST_MODELS = 24  # ... other models of the unit a hit catches
A_BLAST_MISS = 25   # ... models a miss catches (the one aimed at first)
A_ATT_MODE = 26     # R_* bits of its attack roll (0: two dice read as a pair, the fast path)
A_DMG_MODE = 27     # R_* bits of its damage roll (R_DROP_*, R_SHARK)
A_CRIT_ARM_CUT = 28  # Armor-Piercing on a critical hit only: the ARM a critical hit takes off
A_NUMBER = 29       # its number among its weapon's initial attacks (0 first)
A_ROF = 30          # a random rate of fire (F_ROF): ROF_D3 | ROF_D6 | ROF_2D3
A_SIDE = 31         # a colossal's grid its damage goes to: SIDE_LEFT | SIDE_RIGHT | SIDE_RANDOM
A_NFIELDS = 32

#: Sides of a colossal's damage grid (A_SIDE): where the attacker stands, or a d6 roll
#: (1-3 left, 4-6 right) for damage with no origin (continuous effects, quicksand).
SIDE_LEFT = 0
SIDE_RIGHT = 1
SIDE_RANDOM = 2

ROF_D3 = 1
ROF_D6 = 2
ROF_2D3 = 3

# R_* bits of a roll's mode (A_ATT_MODE, A_DMG_MODE; dice.roll_stats, docs/rules.md 1 and 2)
R_DROP_LOW = 1 << 0     # discard the lowest die (while two or more are left)
R_DROP_HIGH = 1 << 1    # discard the highest die (after the lowest: while two or more are left)
R_SHARK = 1 << 2        # Jump the Shark: a die showing 1 counts as a 6
R_SANGUINE = 1 << 3     # Sanguine Fate: one more die, never in the total, that can make a double
R_CRIT_ALL = 1 << 4     # setting crit_counts_discarded: the double is judged on every die rolled
R_ONE_MISSES = 1 << 5   # setting single_die_one_misses: one kept die showing 1 misses

ORIGIN_INITIAL = 0
ORIGIN_BOUGHT = 1

F_DAMAGE = 1 << 0            # the weapon has a POW (rolls damage)
F_KNOCKDOWN = 1 << 1         # a hit knocks down
F_CRIT_KNOCKDOWN = 1 << 2    # a critical hit knocks down
F_STATIONARY = 1 << 3        # a hit makes stationary
F_CRIT_STATIONARY = 1 << 4   # a critical hit makes stationary
F_FREE_ATT_BOOST = 1 << 5    # attack roll boosted for free (already in A_ATT_DICE): never paid
F_FREE_DMG_BOOST = 1 << 6    # damage roll boosted for free (weapon or charge): never paid
F_BRUTAL = 1 << 7            # one more damage die on a critical hit
F_BRUTAL_HIT = 1 << 8        # one more damage die on any hit (setting)
F_REROLL_ATT = 1 << 9        # reroll a missed attack roll once
F_REROLL_DMG = 1 << 10       # reroll a low, non-disabling damage roll once
F_TRASH = 1 << 11            # one more damage die against a target knocked down at the time
F_SHATTER = 1 << 12          # one more damage die against a target stationary at the time
F_CRIT_AP = 1 << 13          # Armor-Piercing on a critical hit only (A_CRIT_ARM_CUT)
F_DECAP_HIT = 1 << 14        # Decapitation on any hit: the damage points doubled
F_DISPEL = 1 << 15           # a hit ends upkeep spells at once
F_GRIEVOUS = 1 << 16         # a hit stops Tough and healing
F_IGNORE_SHIELD = 1 << 17    # Chain Weapon: no Shield/Buckler ARM
F_DECAP = 1 << 18            # a critical hit doubles the damage points
F_FIRST = 1 << 19            # first slot of its attacker: points are reset to the pool
F_FIRE = 1 << 20             # a hit sets the target on fire (cleared for fire-resistant targets)
F_CORROSION = 1 << 21        # a hit puts corrosion on it (cleared for resistant targets)
F_CRIT_FIRE = 1 << 22        # a critical hit sets it on fire
F_CRIT_CORROSION = 1 << 23   # a critical hit puts corrosion on it
F_DECLINE_SKIPS = 1 << 24    # bought slot: best play not buying it skips it (a spell's cast)
#                              rather than ending the attacker's buying
F_BLAST = 1 << 25            # an AOE against a unit: blast damage on its other models
F_DISPEL_LATE = 1 << 26      # setting dispel_from_next_attack: its Dispel after its damage roll
F_KD_STOPS_TOUGH = 1 << 27   # setting knockdown_before_tough: its knockdown stops this hit's Tough
F_ICE = 1 << 28              # Ice Cage: a hit gives -2 DEF, cumulative (ST_ICE_ONE); from two, stationary
F_CRIT_ICE = 1 << 29         # ... a critical hit
F_PARALYSIS = 1 << 30        # Paralysis: a hit makes the base DEF 5 (ST_PARALYZED)
F_CRIT_PARALYSIS = 1 << 31   # ... a critical hit
F_LASTING = F_ICE | F_CRIT_ICE | F_PARALYSIS | F_CRIT_PARALYSIS  # effects kept in the state bits
F_ROF = 1 << 32              # an initial attack of a random rate of fire: made while A_NUMBER < the roll
F_SUSTAIN = 1 << 33          # Sustained Attack: a hit sets ST_SUSTAINED (its A_AUTOHIT_ON holds it)
F_ARM_STACKS = 1 << 34       # setting arm_minus_stacks_same_weapon: its -ARM lands again (ST_ARM_*)
F_AFTER_ROLL = F_LASTING | F_DISPEL_LATE | F_ARM_STACKS  # what a hit changes once its damage is rolled
F_SHRED = 1 << 35            # Shred: a critical hit makes the attack again (up to MAX_SHRED in a chain)
F_GUARDABLE = 1 << 36        # a ranged attack: Shield Guard may take its hit (T_GUARDED_BY)
F_SLAMS = 1 << 37            # a slam with collateral damage: its hit decides the next slot
F_COLLATERAL = 1 << 38       # a slam's collateral damage roll: made only when the slam hit
F_CRIT_DISPEL = 1 << 39      # Dispel on a critical hit only
F_CRIT_GRIEVOUS = 1 << 40    # Grievous Wounds on a critical hit only
F_CRIT_SUSTAIN = 1 << 41     # Sustained Attack from a critical hit only (sets ST_SUSTAINED then)
F_AT_ONCE = F_DISPEL | F_GRIEVOUS | F_SUSTAIN | F_CRIT_DISPEL | F_CRIT_GRIEVOUS | F_CRIT_SUSTAIN  # hit_at_once

# --- attackers table: int64[n_attackers, P_NFIELDS] --------------------------------------
P_POINTS = 0        # focus, fury or forcing at the start of its activation
P_BOOST_ATT = 1     # MODE_*
P_BOOST_ATT_AT = 2  # threshold of MODE_AUTO attack boosts (need on two dice)
P_BOOST_DMG = 3     # MODE_*
P_RESERVE = 4       # boosts are paid only while points > reserve
P_BEST = 5          # 1: best play decides (tables play_attack / play_field); unsolved entries
#                     fall back to the MODE_* fields, which hold the default Spend
P_NFIELDS = 6

MODE_NEVER = 0
MODE_ALWAYS = 1
MODE_AUTO = 2

# --- target vector: int64[T_NFIELDS] ----------------------------------------------------
T_BOXES = 0         # damage boxes (1 = no boxes; a grid's or spiral's total)
T_STATE = 1         # ST_* bits at the start of the sequence
T_CAPACITY = 2      # CAP_TRACK | CAP_GRID | CAP_SPIRAL
T_SHIELD_ARM = 3    # Shield and Buckler ARM in the starting state
T_POINTS = 4        # focus or fury it may spend against damage
T_POWER_KIND = 5    # PK_NONE | PK_FOCUS | PK_FURY
T_POWER_POLICY = 6  # PF_NEVER | PF_LETHAL | PF_BEST
T_TOUGH = 7         # TOUGH_NONE | TOUGH | TOUGH_STEADY
T_RAPID_HEAL = 8    # damage points removed after an attack that damaged without disabling
T_SHIELD_LOC = 9    # 4 fields: Shield/Buckler ARM in locations L, R, H, F (lost while crippled)
T_NLETTERS = 13     # letters of the card's alphabet (8 for a grid, 3 for a spiral, 0 track)
T_TURNS = 14        # rounds simulated
T_ATTACK_ROUNDS = 15  # rounds with an attack phase (all, or the first only)
T_EFFECTS = 16      # continuous effects at the start (CE_* bits)
T_SUFFERS = 17      # continuous effects it can get (CE_* bits of the types it does not resist)
T_HAZARDS = 18      # HZ_* bits of the hazards it stands in
T_ARM_BASE = 19     # ARM against non-attack damage: base ARM + spell ARM (shield, upkeep added)
T_UPKEEP_ARM = 20   # ARM from upkeep spells (lost while dispelled)
T_SLOTS = 21        # attack slots of a round: the attacks table's first rows (alternatives follow)
T_MODELS = 22       # models of the target (a unit, docs/units.md; 1 for a single model)
T_FIRST_MODEL = 23  # several targets: index of its first model among every target's models
T_TARGETS = 24      # targets of the scenario (the first target's vector: 1, or several)
T_TOUGH_ON = 25     # the d6 roll Tough needs (5: 5 or 6)
T_TOUGH_UPKEEP = 26  # 1: its Tough comes from an upkeep spell (lost once dispelled)
T_GUARDED_BY = 27   # several targets: the target whose Shield Guard guards it (-1: none)
T_FIELD_LIMIT = 28  # setting power_field_per_attack: most points one damage roll takes (0: any)
T_HEAL_WHEN_HIT = 29  # setting rapid_healing_when_hit: Rapid Healing after a Tough save, and
#                       after damage rolled that the power field prevented
T_GUARD_BLOCKS = 30  # Shield Guard blocks of the target's side at the start (Target.guard_blocks)
T_NFIELDS = 31
RAPID_D3 = -1       # T_RAPID_HEAL of Rapid Healing d3

# continuous effects (bit = index in the maintenance order: result.fields.EFFECT_NAMES)
CE_FIRE = EFFECT_NAMES.index("fire")
CE_CORROSION = EFFECT_NAMES.index("corrosion")
CE_QUICKSAND = EFFECT_NAMES.index("quicksand")  # counters only: the hazard's damage points
N_EFFECTS = len(EFFECT_NAMES)
FIRE_POW = 12

HZ_ACID = 1 << 0
HZ_EARTH = 1 << 1
HZ_QUICKSAND = 1 << 2

# effect_counts[chunk, round, effect, E_*]: the EFFECT_* columns of result.fields
E_PRESENT = EFFECT_PRESENT
E_APPLIED = EFFECT_APPLIED
E_DAMAGE = EFFECT_DAMAGE
E_KILL = EFFECT_KILL
E_AFTER = EFFECT_AFTER
E_DESTROYED = EFFECT_DESTROYED
E_TARGET_SPENT = EFFECT_TARGET_SPENT
E_TOUGH = EFFECT_TOUGH
E_NFIELDS = EFFECT_FIELDS

CAP_TRACK = 0
CAP_GRID = 1
CAP_SPIRAL = 2

# --- damage grid / life spiral tables (see encode.Encoded) --------------------------------
# card[c, r]: letter index of box r (top / outermost first) of column c, -1 for a hull box;
# col_full[c]: bit mask of the boxes column c has; letter_mask[x, c]: bits of letter x's
# boxes in column c; letter_boxes[x]: how many boxes letter x has.
MAX_ROWS = 10
N_COLUMNS = 6      # columns of a warjack's grid, branches of a spiral; a colossal's side (its
#                    two grids: 12 columns, left 1-6 then right 1-6, col_full's size)
MAX_LETTERS = 8
#: Grid letter indices ("ACGHMFLR") the kernel gives meaning to.
GL_C = 1
GL_G = 2
GL_H = 3
GL_M = 4
GL_F = 5
GL_L = 6
GL_R = 7

PK_NONE = 0
PK_FOCUS = 1
PK_FURY = 2

PF_NEVER = 0
PF_LETHAL = 1
PF_BEST = 2  # the field table of best play (unsolved entries: as PF_LETHAL)

# --- best play: the state key of mathhammer.play.codes.KeySpace, int64[K_NFIELDS] ---------
K_POINTS = 0       # radix of the attacker's points left
K_TPOINTS = 1      # radix of the target's points left
K_SITUATIONS = 2   # situation digits (a compact index: K_SITUATION_INDEX)
K_EFFECTS = 3      # effect bits (the A_EFFECT_BIT order)
K_CONT = 4         # radix of the continuous effects (4 or 1)
K_EARTH = 5        # radix of a burning earth (2 or 1)
K_DAMAGE = 6       # damage rolls the field table holds (0 .. K_DAMAGE - 1)
K_ROWS = 7         # attack rows of the tables, alternatives' included (field rows: quicksand, fire, corrosion after)
K_SITUATION_INDEX = 8  # 128 entries: compact index of raw bits down | still << 1 | ...
K_LOST = 136       # radix of "its Cortex was crippled" (2 or 1)
K_CARD = 137       # 1: the tables' damage index is a card configuration (play_columns, play_index)
K_DESTROYED = 138  # radix of the models of a unit target destroyed so far (models, or 1)
K_ICE = 139        # radix of the Ice Cage stacks (most stacks + 1, or 1)
K_SHOTS = 140      # radix of a random rate of fire's roll (most attacks + 1, or 1)
K_ARM_EXTRA = 141  # radix of the -ARM that effects landing again added (most + 1, or 1)
K_SHRED = 142      # radix of the Shred attacks made in an attack's chain (MAX_SHRED + 1, or 1)
K_TSTRIDE = 143    # Shield Guard blocks: the target's digit is its points + this x its blocks (0: none)
K_NFIELDS = 144

# decision bits of play_attack and the unsolved field entry (mathhammer.play.codes)
D_BUY = _play.BUY
D_KNOWN_BUY = _play.KNOWN_BUY
D_BOOST_ATTACK = _play.BOOST_ATTACK
D_KNOWN_ATTACK = _play.KNOWN_ATTACK
D_BOOST_DAMAGE_HIT = _play.BOOST_DAMAGE_HIT
D_BOOST_DAMAGE_CRIT = _play.BOOST_DAMAGE_CRIT
D_KNOWN_DAMAGE_HIT = _play.KNOWN_DAMAGE_HIT
D_KNOWN_DAMAGE_CRIT = _play.KNOWN_DAMAGE_CRIT
D_UNKNOWN = _play.UNKNOWN

TOUGH_NONE = 0
TOUGH = 1
TOUGH_STEADY = 2

# --- dynamic target situation bits -----------------------------------------------------
ST_BASE_DEF_5 = 1 << 0    # base DEF is 5 (knocked down, stationary, inert, wild, building, crippled M)
ST_MELEE_AUTOHIT = 1 << 1  # melee attacks hit automatically (knocked down, stationary, ...)
ST_PRONE = 1 << 2          # knocked down as such (a knocked-down model cannot make a Tough roll)
ST_DISPELLED = 1 << 3      # its upkeep spells have ended
ST_GRIEVOUS = 1 << 4       # hit by Grievous Wounds: no Tough, no healing
ST_MOVE_CRIPPLED = 1 << 5  # crippled Movement: base DEF 5 (melee attacks still roll)
ST_ALWAYS = 1 << 6         # set in every state: the A_AUTOHIT_ON of a weapon that always hits
ST_STILL = 1 << 7          # stationary as such (or inert, wild, a building): Shatter's extra die
ST_PARALYZED = 1 << 8      # Paralysis: base DEF 5 (melee attacks still roll)
ST_ICE_SHIFT = 10          # bits 10..13: Ice Cage stacks this round (their -2 DEF each is in the
ST_ICE_ONE = 1 << ST_ICE_SHIFT  # running -DEF sum); at most MAX_ICE
MAX_ICE = MAX_ICE_STACKS   # 15: four bits
ST_SUSTAINED = 1 << 14     # the attacker's Sustained Attack weapon has hit it this activation
ST_ARM_SHIFT = 16          # bits 16..21: -ARM added by effects landing again (in arm_minus too)
MAX_ARM_EXTRA = MAX_ARM_STACK  # 63: six bits
ST_STATIONARY = ST_BASE_DEF_5 | ST_MELEE_AUTOHIT | ST_STILL
ST_KNOCKED_DOWN = ST_BASE_DEF_5 | ST_MELEE_AUTOHIT | ST_PRONE

# --- counters --------------------------------------------------------------------------
# attack_counts[chunk, attack, C_*]: the SLOT_* columns of result.fields (Result.slot_weights)
C_MADE = SLOT_MADE
C_HIT = SLOT_HIT
C_CRIT = SLOT_CRIT
C_DAMAGE = SLOT_DAMAGE
C_BOOST_ATT = SLOT_BOOST_ATTACK
C_BOOST_DMG = SLOT_BOOST_DAMAGE
C_SPENT = SLOT_SPENT
C_TARGET_SPENT = SLOT_TARGET_SPENT
C_TOUGH = SLOT_TOUGH
C_DESTROYED = SLOT_DESTROYED
C_SHRED = SLOT_SHRED
C_NFIELDS = SLOT_FIELDS

# outcome codes of an attack roll
MISS = 0
HIT = 1
CRIT = 2


# --- what the driver hands a kernel: tables in, counters out (NamedTuples of arrays) ------
class Tables(NamedTuple):
    """The encoded scenario (:class:`mathhammer.montecarlo.encode.Encoded` builds it)."""

    attacks: np.ndarray       # int64[n_slots + n_alternatives, A_NFIELDS]
    attackers: np.ndarray     # int64[n_attackers, P_NFIELDS]
    target: np.ndarray        # int64[T_NFIELDS]
    col_full: np.ndarray      # int64[N_COLUMNS]: bits of the boxes each column has
    letter_mask: np.ndarray   # int64[MAX_LETTERS, N_COLUMNS]: bits of each letter's boxes
    letters_done: np.ndarray  # int64[N_COLUMNS, 2 ** MAX_ROWS]: letters with no box left
    play_keys: np.ndarray     # int64[K_NFIELDS]: the state key of best play
    play_attack: np.ndarray   # uint8[rows, keys, boxes]: decision bits (mathhammer.play.codes)
    play_field: np.ndarray    # int8[field rows, keys, boxes, K_DAMAGE]: target's points spent
    play_columns: np.ndarray  # int64[N_COLUMNS, masks]: a column mask's share of a card code
    play_index: np.ndarray    # int32[codes]: configuration index of a card code (-1: unmet)
    groups: np.ndarray        # int64[n_targets, T_NFIELDS]: every target's vector (several targets;
    #                           row 0 is ``target``), the attacks table a block of rows per target
    routes: np.ndarray        # int64[n_slots, n_targets]: per slot the targets it goes to in order
    #                           (the first still standing), -1 after the last; one target without
    #                           Shred: int64[n_slots], unread (the kernel's paths of several
    #                           targets are then compiled out: ``routes.ndim``)


class Counters(NamedTuple):
    """The counters one chunk increments (rows of the driver's per-batch arrays).

    ``attack_counts`` (the ``C_*`` columns), ``kill_at`` and ``cripple_delta`` have a row per
    attack slot per round with attacks (round-major); ``cripple_delta`` one more, the end of
    the last round. ``C_MADE`` counts only the attacks whose making the driver cannot work out
    from the kills (bought ones, a random rate of fire's; with several targets every one).
    ``kill_at`` counts the attack that destroyed the last model standing (of every target);
    ``C_DESTROYED`` and ``E_DESTROYED`` the models destroyed but that one (the driver adds
    it). ``cripple_delta``: where slot i changes a card's crippled set (a bit a letter) from
    A to B, ``[i, A]`` loses one and ``[i, B]`` gains one (every model's, of a unit of models
    with a card); the driver's running sum over the rows gives how many trials have each set
    once each slot is resolved. ``mask_hist``: per column, the trials (models) ending with
    each set of marked boxes. ``damage_hist`` and ``destroyed_hist``: the damage on every
    model of every target (a destroyed model counts all its boxes) and the models destroyed,
    at the end; the ``target_*`` rows the same per target, with several.
    """

    damage_hist: np.ndarray    # int64[>= boxes + 1]
    attack_counts: np.ndarray  # int64[>= n_rows, C_NFIELDS]
    kill_at: np.ndarray        # int64[>= n_rows]
    cripple_delta: np.ndarray  # int64[n_rows + 1, 2 ** n_letters] (cards; else 1 x 1)
    mask_hist: np.ndarray      # int64[N_COLUMNS, 2 ** MAX_ROWS] (cards; else 1 x 1)
    effect_counts: np.ndarray  # int64[turns + 1, N_EFFECTS, E_NFIELDS]
    destroyed_hist: np.ndarray  # int64[>= models + 1]: models of the target destroyed at the end
    target_damage: np.ndarray  # int64[n_targets, >= boxes + 1]: several targets, each one's damage
    target_destroyed: np.ndarray  # int64[n_targets, >= models + 1]: ... each one's models destroyed
    target_kills: np.ndarray   # int64[n_targets, turns]: ... each one destroyed in each round
    target_made: np.ndarray    # int64[>= n_rows, n_targets]: ... each attack made against each
