"""Run one trial of the real kernel on dice we choose, for worked examples.

The kernel reads its dice from a buffer; handing it a buffer we wrote lets a test replay an
example from the rules die by die and check what the kernel did with each attack.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mathhammer._kernels.layout import C_CRIT, C_DAMAGE, C_HIT, C_MADE, C_NFIELDS
from mathhammer._kernels.rng import FILL_SLACK, RNG_WORDS
from mathhammer._kernels.sequence import run_trials
from mathhammer.encode import encode


@dataclass
class Played:
    made: list[int]
    hit: list[int]
    crit: list[int]
    damage: list[int]
    marked: int
    killed_by: int | None
    dice_read: int


def play(scenario, dice: list[int]) -> Played:
    """Resolve ``scenario`` once with the given dice (in the order the kernel reads them)."""
    enc = encode(scenario)
    size = len(dice) + enc.max_dice  # room enough that the kernel never refills the buffer
    buf = np.full(size + FILL_SLACK, 7, dtype=np.uint8)  # 7 = "never read"
    buf[: len(dice)] = dice
    rs = np.zeros(RNG_WORDS, dtype=np.uint64)  # unused: no refill happens
    n = enc.attacks.shape[0]
    hist = np.zeros(scenario.target.boxes + 1, dtype=np.int64)
    counts = np.zeros((n, C_NFIELDS), dtype=np.int64)
    kill_at = np.zeros(n, dtype=np.int64)
    pos = run_trials(1, rs, buf, 0, size, enc.max_dice, enc.attacks, enc.target, hist, counts,
                     kill_at)
    assert pos <= len(dice), f"the kernel read {pos} dice, only {len(dice)} were scripted"
    killed = np.flatnonzero(kill_at)
    return Played(
        made=counts[:, C_MADE].tolist(),
        hit=counts[:, C_HIT].tolist(),
        crit=counts[:, C_CRIT].tolist(),
        damage=counts[:, C_DAMAGE].tolist(),
        marked=int(np.flatnonzero(hist)[0]),
        killed_by=int(killed[0]) if killed.size else None,
        dice_read=int(pos),
    )
