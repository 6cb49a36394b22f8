"""Song of Blades and Heroes: the int64 step table the turn kernel reads, and its counter row.

The plan arrives as an int64 table, one row per step (fields ``S_*`` below); success of a
die is ``die >= threshold`` (the encoder folds Quality, bonus and the natural 1 / natural 6
settings into the threshold; 7 means no face succeeds). Counters of a chunk live in one int64
row, sections at the offsets ``offs[O_*]`` (:func:`counter_offsets`):

- ``O_ACTIONS``: trials by total actions (0..max_actions);
- ``O_ACTED``: trials by number of models with at least one action (0..n_models);
- ``O_END``: trials by the step that rolled the turnover (n_steps: none);
- ``O_ORDER``: per step, trials where the Leader gave the group order;
- ``O_MODEL_ACTED``, ``O_MODEL_ACTIONS``: per model, trials where it acted, actions summed.
"""

from __future__ import annotations

import numpy as np

__all__ = ["counter_offsets", "max_draws_of"]

# --- fields of a step row
S_KIND = 0          # STEP_SOLO or STEP_GROUP
S_LEADER_THR = 1    # group: lowest die face that succeeds for the Leader's own roll
S_LEADER_DICE = 2   # group: dice of the Leader's roll
S_LEADER_MODEL = 3  # group: the Leader's model index
S_THR = 4           # lowest die face that succeeds for the step's roll (solo model or group)
S_DICE = 5          # dice of that roll
S_FIRST = 6         # first model index the roll activates (solo: the model)
S_COUNT = 7         # models the roll activates (solo: 1)
S_NFIELDS = 8

STEP_SOLO = 0
STEP_GROUP = 1

# --- counter sections (indices into ``offs``)
O_ACTIONS = 0
O_ACTED = 1
O_END = 2
O_ORDER = 3
O_MODEL_ACTED = 4
O_MODEL_ACTIONS = 5
O_WIDTH = 6
N_OFFS = 7


def counter_offsets(n_steps: int, n_models: int, max_actions: int) -> np.ndarray:
    """Offsets of the counter sections (``offs[O_*]``) and the row width ``offs[O_WIDTH]``."""
    sizes = [max_actions + 1, n_models + 1, n_steps + 1, n_steps, n_models, n_models]
    offs = np.zeros(N_OFFS, dtype=np.int64)
    offs[1:] = np.cumsum(sizes)
    return offs


def max_draws_of(steps: np.ndarray) -> int:
    """Most buffer entries one trial can read: every roll of every step."""
    group = steps[:, S_KIND] == STEP_GROUP
    return int(((steps[:, S_DICE] + 1) // 2).sum() + ((steps[group, S_LEADER_DICE] + 1) // 2).sum())
