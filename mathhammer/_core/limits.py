"""Limits of a run, shared by every simulation of the package: trials, seeds, unit sizes."""

from __future__ import annotations

import secrets

__all__ = ["DEFAULT_TRIALS", "MAX_TRIALS", "MAX_SEED", "MAX_MODELS", "MAX_TARGETS", "MAX_ICE_STACKS",
           "MAX_ARM_STACK", "MAX_SHRED", "MAX_POINTS", "fresh_seed"]

#: Monte Carlo sample size when none is given.
DEFAULT_TRIALS = 1_000_000
#: Largest sample size accepted.
MAX_TRIALS = 1_000_000_000
#: Largest seed accepted (seeds are 0 .. 2**63 - 1).
MAX_SEED = 2**63 - 1
#: Most models in a unit (attacking, or the target).
MAX_MODELS = 20
#: Most targets of one scenario (``[[targets]]``).
MAX_TARGETS = 8
#: Most Ice Cage stacks counted on a model in one round (-2 DEF each); more hits add none.
MAX_ICE_STACKS = 15
#: Most -ARM a weapon's effect landing again adds up to on a model in one round (the setting
#: arm_minus_stacks_same_weapon); more adds none.
MAX_ARM_STACK = 63
#: Most Shred attacks one attack leads to (each critical hit of the chain gives one more): a
#: critical hit of the last one gives none. A chain that long needs 20 critical hits in a row,
#: below 1e-7 with three dice for the double and 3e-16 with two (docs/rules.md 5).
MAX_SHRED = 20
#: Most points of one sweep or matrix (the product of its varied values, and of its cards):
#: each point is a scenario built before the first is computed, and a run of more would not
#: end in a day.
MAX_POINTS = 100_000


def fresh_seed() -> int:
    """A seed drawn at random for a run given none (it is reported with the run's figures).

    >>> 0 <= fresh_seed() <= MAX_SEED
    True
    """
    return secrets.randbits(62)
