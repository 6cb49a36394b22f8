"""The one column layout of the counters: per attack slot, and per round and continuous effect.

Monte Carlo kernels count into these columns, the exact engine writes expected values into
them, and :class:`~mathhammer.result.Result` and the frames read them: the kernels' ``C_*``
and ``E_*`` names (:mod:`mathhammer.montecarlo._kernels.layout`) are these constants, not
copies of them.
"""

from __future__ import annotations

__all__ = [
    "SLOT_MADE",
    "SLOT_HIT",
    "SLOT_CRIT",
    "SLOT_DAMAGE",
    "SLOT_BOOST_ATTACK",
    "SLOT_BOOST_DAMAGE",
    "SLOT_SPENT",
    "SLOT_TARGET_SPENT",
    "SLOT_TOUGH",
    "SLOT_DESTROYED",
    "SLOT_SHRED",
    "SLOT_FIELDS",
    "EFFECT_NAMES",
    "EFFECT_PRESENT",
    "EFFECT_APPLIED",
    "EFFECT_DAMAGE",
    "EFFECT_KILL",
    "EFFECT_AFTER",
    "EFFECT_DESTROYED",
    "EFFECT_TARGET_SPENT",
    "EFFECT_TOUGH",
    "EFFECT_FIELDS",
]

# Columns of ``Result.slot_weights``: one row per attack slot.
SLOT_MADE = 0           # the attack was made
SLOT_HIT = 1            # ... and hit
SLOT_CRIT = 2           # ... and was a critical hit
SLOT_DAMAGE = 3         # damage points it marked (summed)
SLOT_BOOST_ATTACK = 4   # paid attack boosts
SLOT_BOOST_DAMAGE = 5   # paid damage boosts
SLOT_SPENT = 6          # attacker points paid for it (buying it + boosts)
SLOT_TARGET_SPENT = 7   # focus or fury the target spent against it
SLOT_TOUGH = 8          # Tough rolls it caused that saved the target
SLOT_DESTROYED = 9      # models it destroyed (a single target: 1 at its kill)
SLOT_SHRED = 10         # Shred attacks it led to (each made again at once; the columns above
#                         but made, hit and crit count theirs too)
SLOT_FIELDS = 11

# ``Result.rounds.effect_weights[round, effect, column]``: effects in this order (the order
# the maintenance phase resolves fire and corrosion; quicksand's points last), then the
# columns.
EFFECT_NAMES = ("fire", "corrosion", "quicksand")
EFFECT_PRESENT = 0  # on the target at the maintenance phase (fire, corrosion)
EFFECT_APPLIED = 1  # ... and did not expire
EFFECT_DAMAGE = 2   # damage points it marked (summed)
EFFECT_KILL = 3     # it killed the target (quicksand: during an attack, also in kill_weights)
EFFECT_AFTER = 4    # on the target at the end of the round (a unit, like the first two: per model)
EFFECT_DESTROYED = 5  # models it destroyed (quicksand: during an attack, also in SLOT_DESTROYED)
EFFECT_TARGET_SPENT = 6  # focus the target's power field spent against its points
EFFECT_TOUGH = 7    # Tough rolls its points caused that saved the target
EFFECT_FIELDS = 8
