"""The situation bits of best play's state key, read off a target's state bits: one
definition for every kernel that looks best play's decisions up (:mod:`.play_lookup`,
:mod:`.spend`)."""

from __future__ import annotations

import numpy as np

from ..._core.jit import jit
from .layout import ST_DISPELLED, ST_GRIEVOUS, ST_PARALYZED, ST_PRONE, ST_STILL, ST_SUSTAINED


@jit(helper=True)
def situation_bits(state, down_before):
    """The raw situation bits of :meth:`mathhammer.play.codes.KeySpace.key` (the index into
    ``play_keys[K_SITUATION_INDEX:]``) of a target in ``state``: knocked down, stationary
    (knocked down or not), dispelled, Grievous Wounds, knocked down before the attack
    (``down_before``), paralyzed, hit by a Sustained Attack weapon."""
    return (np.int64((state & ST_PRONE) != 0) | np.int64((state & ST_STILL) != 0) << 1
            | np.int64((state & ST_DISPELLED) != 0) << 2 | np.int64((state & ST_GRIEVOUS) != 0) << 3
            | np.int64(down_before) << 4 | np.int64((state & ST_PARALYZED) != 0) << 5
            | np.int64((state & ST_SUSTAINED) != 0) << 6)
