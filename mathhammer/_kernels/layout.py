"""Field layout of the encoded tables shared by :mod:`mathhammer.encode` and the kernels.

Plain module-level ints: Numba freezes them as compile-time constants. Every table is an
``int64`` array; a row per entity, a column per field (struct of arrays, flags as bits).

The per-trial state (see ``docs/activation.md``) is a handful of scalars in the kernel: the
damage marked (a track count; grids and spirals add per-box marks in a scratch array and a
crippled-system bit set), the target situation bits ``ST_*``, the -DEF / -ARM effects active
(a bit per weapon and the running sums), the target's focus or fury left, and the current
attacker's points left.
"""

# --- attacks table: int64[n_attacks, A_NFIELDS], one row per attack slot in sequence order --
# Weapon and target figures are copied into every row (no indirection in the hot loop: each
# row holds all the kernel needs to resolve that attack). Dice counts are *raw* (free boosts,
# extra dice, crippling, resistance applied but not floored): the kernel adds paid boosts and
# Brutal Damage, then floors at one die.
A_KIND = 0          # K_MELEE | K_RANGED | K_ARCANE
A_SKILL = 1         # MAT or RAT, plus the combined-attack bonus
A_POW = 2           # POW plus the combined-attack bonus (ignored when F_DAMAGE is unset)
A_ATT_DICE = 3      # raw attack dice: 2 + free boost + extra - crippled
A_DMG_DICE = 4      # raw damage dice: 2 + free boost + Weapon Master + extra - crippled - resisted
A_FLAGS = 5         # F_* bits
A_DEF = 6           # DEF at the target's starting base DEF, terrain included, spells not
A_DEF5 = 7          # DEF at base DEF 5, terrain included, spells not
A_LOCATION = 8      # SYS_* index of the weapon's system, -1 if none
A_ATTACKER = 9      # index of the attacker making it (row of the attackers table)
A_WEAPON = 10       # index of the weapon in the flattened weapon list
A_ORIGIN = 11       # ORIGIN_INITIAL | ORIGIN_BOUGHT
A_AUTOHIT_ON = 12   # situation bits under which it hits automatically (ST_MELEE_AUTOHIT for melee)
A_SPELL_DEF = 13    # DEF from spells Dispel does not end (0 for Blessed weapons)
A_UPKEEP_DEF = 14   # DEF from upkeep spells, lost once dispelled (0 for Blessed weapons)
A_ARM = 15          # base ARM (halved for Armor-Piercing) + Unyielding/Carapace + spell ARM
A_UPKEEP_ARM = 16   # ARM from upkeep spells, lost once dispelled (0 for Blessed weapons)
A_EFFECT_BIT = 17   # bit of this weapon's -DEF/-ARM effect (0: none)
A_DEF_MINUS = 18    # its -DEF
A_ARM_MINUS = 19    # its -ARM
A_EFFECT_ON = 20    # outcome from which it lands: HIT or CRIT
A_NFIELDS = 21

K_MELEE = 0
K_RANGED = 1
K_ARCANE = 2

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
F_ATT_DROP_LOW = 1 << 11     # attack roll discards its lowest die
F_ATT_DROP_HIGH = 1 << 12    # attack roll discards its highest die
F_DMG_DROP_LOW = 1 << 13     # damage roll discards its lowest die
F_DMG_DROP_HIGH = 1 << 14    # damage roll discards its highest die
F_DISPEL = 1 << 15           # a hit ends upkeep spells at once
F_GRIEVOUS = 1 << 16         # a hit stops Tough and healing
F_IGNORE_SHIELD = 1 << 17    # Chain Weapon: no Shield/Buckler ARM
F_DECAP = 1 << 18            # a critical hit doubles the damage points
F_FIRST = 1 << 19            # first slot of its attacker: points are reset to the pool

# --- attackers table: int64[n_attackers, P_NFIELDS] --------------------------------------
P_POINTS = 0        # focus, fury or forcing at the start of its activation
P_BOOST_ATT = 1     # MODE_*
P_BOOST_ATT_AT = 2  # threshold of MODE_AUTO attack boosts (need on two dice)
P_BOOST_DMG = 3     # MODE_*
P_RESERVE = 4       # boosts are paid only while points > reserve
P_NFIELDS = 5

MODE_NEVER = 0
MODE_ALWAYS = 1
MODE_AUTO = 2

# --- target vector: int64[T_NFIELDS] ----------------------------------------------------
T_ARM = 0           # base ARM (for reference; rows hold the ARM each attack faces)
T_BOXES = 1         # damage boxes of a track (1 = no boxes)
T_STATE = 2         # ST_* bits at the start of the sequence
T_CAPACITY = 3      # CAP_TRACK (later: CAP_GRID, CAP_SPIRAL)
T_SHIELD_ARM = 4    # Shield and Buckler ARM in the starting state
T_POINTS = 5        # focus or fury it may spend against damage
T_POWER_KIND = 6    # PK_NONE | PK_FOCUS | PK_FURY
T_POWER_POLICY = 7  # PF_NEVER | PF_LETHAL
T_TOUGH = 8         # TOUGH_NONE | TOUGH | TOUGH_STEADY
T_RAPID_HEAL = 9    # damage points removed after an attack that damaged without disabling
T_NFIELDS = 10

CAP_TRACK = 0

PK_NONE = 0
PK_FOCUS = 1
PK_FURY = 2

PF_NEVER = 0
PF_LETHAL = 1

TOUGH_NONE = 0
TOUGH = 1
TOUGH_STEADY = 2

# --- dynamic target situation bits -----------------------------------------------------
ST_BASE_DEF_5 = 1 << 0    # base DEF is 5 (knocked down, stationary, inert, wild, building, crippled M)
ST_MELEE_AUTOHIT = 1 << 1  # melee attacks hit automatically (knocked down, stationary, ...)
ST_PRONE = 1 << 2          # knocked down as such (a knocked-down model cannot make a Tough roll)
ST_DISPELLED = 1 << 3      # its upkeep spells have ended
ST_GRIEVOUS = 1 << 4       # hit by Grievous Wounds: no Tough, no healing
ST_STATIONARY = ST_BASE_DEF_5 | ST_MELEE_AUTOHIT
ST_KNOCKED_DOWN = ST_STATIONARY | ST_PRONE

# --- counters --------------------------------------------------------------------------
# attack_counts[chunk, attack, C_*], the columns of Result.slot_weights
C_MADE = 0
C_HIT = 1
C_CRIT = 2
C_DAMAGE = 3
C_BOOST_ATT = 4
C_BOOST_DMG = 5
C_SPENT = 6
C_TARGET_SPENT = 7
C_TOUGH = 8
C_NFIELDS = 9

# outcome codes of an attack roll
MISS = 0
HIT = 1
CRIT = 2
