"""Field layout of the encoded tables shared by :mod:`mathhammer.encode` and the kernels.

Plain module-level ints: Numba freezes them as compile-time constants. Every table is an
``int64`` array; a row per entity, a column per field (struct of arrays, flags as bits).

The per-trial state is designed for the whole roadmap: the target's damage (track count, or
per-box marks of a grid/spiral in a scratch array), a bit set of target situation flags, a bit
set of crippled systems/aspects, a bit set of continuous effects, and per-attacker resources
(focus, fury) in a scratch row. Issue-2 kernels use the track and the situation flags.
"""

# --- attacks table: int64[n_attacks, A_NFIELDS], one row per attack in sequence order ------
# Weapon figures are copied into every attack row (no weapon -> attack indirection in the
# hot loop: each row holds all the kernel needs to resolve that attack).
A_KIND = 0          # K_MELEE | K_RANGED | K_ARCANE
A_SKILL = 1         # MAT or RAT
A_POW = 2           # POW (ignored when F_DAMAGE is unset)
A_ATT_DICE = 3      # attack dice in the starting state: boosts, extra dice, crippling; >= 1
A_DMG_DICE = 4      # damage dice in the starting state: also resistance removed; >= 1
A_FLAGS = 5         # F_* bits
A_DEF = 6           # DEF against this attack, target at its normal base DEF
A_DEF5 = 7          # DEF against this attack when the target's base DEF is 5
A_LOCATION = 8      # SYS_* index of the weapon's system, -1 if none
A_ATTACKER = 9      # index of the attacker making it
A_WEAPON = 10       # index of the weapon in the flattened weapon list
A_ORIGIN = 11       # ORIGIN_INITIAL (later: bought additional attacks)
A_AUTOHIT_ON = 12   # situation bits under which it hits automatically (ST_MELEE_AUTOHIT for melee)
A_NFIELDS = 13

K_MELEE = 0
K_RANGED = 1
K_ARCANE = 2

ORIGIN_INITIAL = 0

F_DAMAGE = 1 << 0            # the weapon has a POW (rolls damage)
F_KNOCKDOWN = 1 << 1         # knocks down on a hit
F_CRIT_KNOCKDOWN = 1 << 2    # knocks down on a critical hit

# --- target vector: int64[T_NFIELDS] ----------------------------------------------------
T_ARM = 0
T_BOXES = 1         # damage boxes of a track (1 = no boxes)
T_STATE = 2         # ST_* bits at the start of the sequence
T_CAPACITY = 3      # CAP_TRACK (later: CAP_GRID, CAP_SPIRAL)
T_NFIELDS = 4

CAP_TRACK = 0

# --- dynamic target situation bits -----------------------------------------------------
ST_BASE_DEF_5 = 1 << 0    # base DEF is 5 (knocked down, stationary, inert, wild, building, crippled M)
ST_MELEE_AUTOHIT = 1 << 1  # melee attacks hit automatically (knocked down, stationary, ...)
ST_KNOCKED_DOWN = ST_BASE_DEF_5 | ST_MELEE_AUTOHIT

# --- counters --------------------------------------------------------------------------
# attack_counts[chunk, attack, C_*]: the kernel counts hit, crit and damage; the driver works
# out made (every trial but those an earlier attack ended)
C_MADE = 0
C_HIT = 1
C_CRIT = 2
C_DAMAGE = 3
C_NFIELDS = 4

# outcome codes of an attack roll
MISS = 0
HIT = 1
CRIT = 2
