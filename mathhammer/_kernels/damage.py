"""Marking damage points on the target's damage capacity (RULES.md section 3).

A damage track marks boxes left to right; the number of marked boxes is the whole state.
Grids and spirals (a later issue) add per-box marks in a scratch array and a crippled-system
bit set; they plug in here, behind the same call.
"""

from __future__ import annotations

from ._jit import jit


@jit(inline=True)
def mark_track(marked, boxes, points):
    """Mark ``points`` damage on a track with ``marked`` of ``boxes`` already marked.

    Returns the points actually marked: a model never takes more damage than its unmarked
    boxes.
    """
    room = boxes - marked
    return points if points < room else room
