"""The target suffers the points of an attack (docs/activation.md, step 4 and "Suffering
points"): they are marked on its damage track, grid or spiral, a system whose last box is
marked is crippled (and on a grid changes the next attacks: :func:`.attack_steps.cripple_feedback`),
and a model with every box marked is destroyed.
"""

from __future__ import annotations

from ..._core.jit import jit
from .attack_steps import cripple_feedback
from .damage import mark_track
from .layout import C_DAMAGE
from .marking import crippled_set, first_column, mark_columns
from .model_state import M_CRIPPLED, M_MARKED

__all__ = ["letters_present", "suffer_points"]


@jit(inline=True)
def letters_present(letter_mask, n_letters):
    """The letters (a bit each) with a box on the card: a crippled set is always among them."""
    present = 0
    for x in range(n_letters):
        for c in range(letter_mask.shape[1]):
            if letter_mask[x, c] != 0:
                present |= 1 << x
    return present


@jit(inline=True)
def suffer_points(card, counts, target, ms, ts, colmask, dice, pos, points, row, boxes, on_card,
                  present, feedback, shield):
    """Model ``ms`` of target ``ts`` suffers ``points`` from the attack of counter row
    ``row``: marked (a card's from a column a d6 picks, read whenever points are dealt),
    counted, its crippled set updated; returns ``(pos, destroyed)``. ``card``: the card's
    tables ``(col_full, letters_done)``; ``counts``: the counters it adds to, ``(attack_counts,
    kill_at, cripple_delta)``."""
    col_full, letters_done = card
    attack_counts, kill_at, cripple_delta = counts
    was = ms[M_CRIPPLED]
    if not on_card:
        taken = mark_track(ms[M_MARKED], boxes, points)
    else:
        taken = 0
        if points > 0:
            taken = min(points, boxes - ms[M_MARKED])
            c, pos = first_column(dice, pos)
            if mark_columns(colmask, col_full, letters_done, c, taken):
                ms[M_CRIPPLED] = crippled_set(colmask, letters_done, present)
    ms[M_MARKED] += taken
    attack_counts[row, C_DAMAGE] += taken
    destroyed = ms[M_MARKED] >= boxes
    if destroyed:
        kill_at[row] += 1
    if ms[M_CRIPPLED] != was:
        cripple_delta[row, was] -= 1
        cripple_delta[row, ms[M_CRIPPLED]] += 1
        if feedback:
            cripple_feedback(ms, ts, target, shield)
    return pos, destroyed
