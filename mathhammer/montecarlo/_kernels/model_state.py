"""The state a trial carries from attack to attack, as arrays the kernel's steps share.

One row per model, ``models[j, M_*]``: what happens to a model (the damage marked, its
situation bits, the -DEF / -ARM effects on it, its continuous effects, its crippled systems,
the order its card's boxes were marked in, the Shield ARM it has now). A model of a damage
grid or life spiral also has a row of ``cols[j, c]``, the marked boxes of each column (a bit
a row, top or outermost first), and ``order[j, k]``, the boxes in the order they were
marked (healing removes the last first). One row per target, ``targets[g, G_*]``: what
belongs to the whole target (its focus or fury left, whether its Cortex or Spirit is lost,
its models destroyed, whether it is destroyed and when its Shield Guard was used).

The rows are plain ``int64`` (a model that is both an attacker and a target, in a trade,
is a row with both parts: the columns of one are never the other's), so a step takes the
array and a row index and no step needs more than a few of them.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit

__all__ = ["M_MARKED", "M_STATE", "M_EFFECTS", "M_DEF_MINUS", "M_ARM_MINUS", "M_CONT",
           "M_CRIPPLED", "M_MARKS", "M_SHIELD", "M_GONE", "M_FIELDS", "G_POINTS", "G_CORTEX_LOST",
           "G_BLOCKED", "G_DESTROYED", "G_EARTH", "G_DISPELLED", "G_DEAD", "G_GUARDED", "G_FIELDS",
           "new_models", "new_targets", "clear"]

# --- a model: models[j, M_*]
M_MARKED = 0      # damage points marked (a card's: its boxes marked)
M_STATE = 1       # situation bits ST_* (layout)
M_EFFECTS = 2     # the -DEF / -ARM effects on it, a bit each (A_EFFECT_BIT)
M_DEF_MINUS = 3   # their -DEF, summed (Ice Cage stacks included)
M_ARM_MINUS = 4   # their -ARM, summed
M_CONT = 5        # continuous effects on it (CE_* bits)
M_CRIPPLED = 6    # its card's crippled systems or aspects, a bit a letter
M_MARKS = 7       # boxes of its card in ``order`` (healing removes the last first)
M_SHIELD = 8      # Shield and Buckler ARM it has now (a crippled location loses its share)
M_GONE = 9        # 1: destroyed in this trial (a unit's next model takes its place)
M_FIELDS = 10

# --- a target: targets[g, G_*]
G_POINTS = 0       # focus or fury it has left for its power field
G_CORTEX_LOST = 1  # 1: its Cortex was crippled (no focus from the next round on)
G_BLOCKED = 2      # 1: a crippled Spirit or its like stops its power field
G_DESTROYED = 3    # its models destroyed so far
G_EARTH = 4        # 1: the burning earth it stands in is lit
G_DISPELLED = 5    # ST_DISPELLED once a model of it was dispelled this round (a Dispel of a
#                    unit's upkeep spells holds for every model: each takes the bit on being
#                    attacked)
G_DEAD = 6         # 1: every model of it is destroyed (several targets: the others go on)
G_GUARDED = 7      # the round (from 1) its Shield Guard was last used in (once a round)
G_BLOCKS = 8       # Shield Guard blocks its side has left (Target.guard_blocks)
G_FIELDS = 9


def new_models(n_models: int) -> np.ndarray:
    """The rows of ``n_models`` models, zero (each trial sets them as its models start)."""
    return np.zeros((max(1, n_models), M_FIELDS), dtype=np.int64)


def new_targets(n_targets: int) -> np.ndarray:
    """The rows of ``n_targets`` targets, zero."""
    return np.zeros((max(1, n_targets), G_FIELDS), dtype=np.int64)


@jit(inline=True)
def clear(row):
    """Set every field of ``row`` (a 1-D array) to 0, one by one: a trial resets its state
    rows so at every start, and ``row[:] = 0`` compiled without reference counting took a
    generic path that cost the units variant 400 of its 800 ns a trial."""
    for k in range(row.shape[0]):
        row[k] = 0
