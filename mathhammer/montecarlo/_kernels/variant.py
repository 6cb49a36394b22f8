"""Which variant of the general kernel a scenario takes (issue 18, "First run and waiting").

:func:`.sequence.run_trials` compiles apart for each type of its arguments: with ``rare`` set
to ``None`` Numba prunes the paths of units, blasts, continuous effects and hazards before
typing them, and compiles the kernel in about half the time (benchmarks/README.md, "First
run: the cold compile"). A scenario takes that lean variant when none of those paths can
run; its counts are then the same as the full variant's, bit for bit (the pruned branches
are those the full variant's runtime tests skip for it).
"""

from __future__ import annotations

import numpy as np

from .layout import (A_FLAGS, F_BLAST, F_CORROSION, F_CRIT_CORROSION, F_CRIT_FIRE, F_FIRE, T_EFFECTS,
                     T_HAZARDS, T_MODELS)

#: Row flags that put a continuous effect on the target.
SETS_EFFECT = F_FIRE | F_CORROSION | F_CRIT_FIRE | F_CRIT_CORROSION


def needs_rare(tables) -> bool:
    """Whether the encoded scenario ``tables`` (:class:`.layout.Tables`) needs the full
    variant of the general kernel: several targets (or Shred: a routes matrix), a unit, a
    blast, a continuous effect or hazard the target starts with, or a weapon putting one on.

    The kernel's own test for the maintenance phase (``continuous`` in
    :func:`.sequence.run_trials`) reads the same fields, so the lean variant is taken only
    where the full variant would skip every pruned path.
    """
    groups = tables.groups
    flags = tables.attacks[:, A_FLAGS]
    return bool(tables.routes.ndim > 1 or groups[:, T_MODELS].sum() > 1
                or (flags & F_BLAST).any() or (flags & SETS_EFFECT).any()
                or np.any(groups[:, T_EFFECTS] != 0) or tables.target[T_HAZARDS] != 0)
