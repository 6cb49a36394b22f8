"""Blast damage: the other models of a unit an area-of-effect attack catches (docs/units.md).

After an AOE attack's own damage (and a knockdown in quicksand), up to ``blast_models``
other living models of the unit, first in order, each suffer a blast damage roll of
``2d6 + blast_pow`` against their ARM (one die fewer where the type is resisted); a missed
AOE catches ``blast_on_miss`` models, the one aimed at first (a single model too). With several
targets, a blast stays on the target attacked. Each model rolls its own Tough
and heals by Rapid Healing as after an attack; a blast never knocks down and puts no effect
on the models it catches. The rest of the unit waits in :attr:`State.others
<mathhammer.exact.state.State.others>` (damage marked, knocked down), kept only when a blast
can happen; the points and figures count in the attack's columns (``SLOT_DAMAGE``,
``SLOT_TOUGH``, ``SLOT_DESTROYED``).
"""

from __future__ import annotations

import itertools

import numpy as np

from ..result.fields import SLOT_DESTROYED, SLOT_TOUGH
from . import rolls
from .edges import Piece
from .setup import Setup
from .state import SlotInfo, State

__all__ = ["blast"]


def blast(setup: Setup, info: SlotInfo, pieces: list[Piece], missed: bool) -> list[Piece]:
    """The pieces of an attack of ``info`` (a hit, or ``missed``) after its blast."""
    w = info.weapon
    k = w.blast_on_miss if missed else w.blast_models
    # a miss catches the model aimed at on a single model too; a hit, a unit's other models
    if not (w.blasts and k and (setup.blast or missed)):
        return pieces
    out = []
    for pc in pieces:
        if pc.state is None or pc.state.target != setup.index:
            out.append(pc)  # every model destroyed: nothing left to catch (the next target's
            continue  # models are not under the template)
        # the model under attack is caught by a miss, and when the hit destroyed the one it
        # hit (the piece's state is then the next model's, at a damage marked of its own)
        caught_first = missed or pc.counts[SLOT_DESTROYED] > 0
        if not caught_first:
            out += _caught(setup, info, pc, np.arange(pc.src.size), None, k)
            continue
        for d in np.unique(pc.dst):
            out += _caught(setup, info, pc, np.flatnonzero(pc.dst == d), int(d), k)
    return out


def _outcomes(setup: Setup, info: SlotInfo, marked: int, down: bool, state: State | None):
    """A blast damage roll on one model: ``(probability, (marked, down) or None: destroyed,
    Tough save, boxes marked)``. ``state``: the model under attack's (its -ARM effects,
    Grievous Wounds, Dispel), None for another model of the unit (none of those)."""
    w, boxes = info.weapon, setup.boxes
    dispelled = state.dispelled if state is not None else False
    effects = state.effects if state is not None else frozenset()
    grievous = state is not None and state.grievous
    arm = setup.armor(info, dispelled, effects, arm_extra=state.arm_extra if state is not None else 0)
    pmf = rolls.damage_pmf(w.blast_dice_against(setup.target.resist), w.blast_pow, arm)
    tough = (setup.tough and not grievous and (not down or setup.steady)
             and not (setup.upkeep_tough and dispelled))
    heals = 0 if grievous else setup.rapid_healing
    out = []
    for x in np.flatnonzero(pmf):
        q = float(pmf[x])
        taken = min(int(x), boxes - marked)
        if marked + taken >= boxes:
            if tough:  # saved; with the setting rapid_healing_when_hit, healed then too
                left = max(0, boxes - 1 - heals) if setup.heal_when_hit else boxes - 1
                out.append((setup.saved(q), (left, True), 1, taken))
                out.append((setup.failed(q), None, 0, taken))
            else:
                out.append((q, None, 0, taken))
            continue
        end = marked + taken
        if heals and taken > 0:
            end = max(0, end - heals)
        out.append((q, (end, down), 0, taken))
    return out


def _caught(setup: Setup, info: SlotInfo, pc: Piece, rows: np.ndarray, d: int | None, k: int) -> list[Piece]:
    """The blast on the edges ``rows`` of ``pc``: ``d`` is the damage marked of the model
    under attack when it is caught (None: it is not)."""
    s = pc.state
    models = ([(d, s.down)] if d is not None else []) + list(s.others)
    caught, rest = models[:k], models[k:]
    per_model = [_outcomes(setup, info, m, down, s if (d is not None and j == 0) else None)
                 for j, (m, down) in enumerate(caught)]
    groups: dict = {}
    for combo in itertools.product(*per_model):
        q = 1.0
        after, saved, killed, taken = [], 0, 0, 0
        for p, model, save, tk in combo:
            q *= p
            saved += save
            taken += tk
            if model is None:
                killed += 1
            after.append(model)
        key = (tuple(after), saved, killed, taken)
        groups[key] = groups.get(key, 0.0) + q
    out = []
    for (after, saved, killed, taken), q in groups.items():
        living = [m for m in after if m is not None] + rest
        destroyed = s.destroyed + killed
        if d is None:  # the model under attack stands as the hit left it
            state, dst = s._replace(others=tuple(living), destroyed=destroyed), pc.dst[rows]
        elif not living:  # every model destroyed: the kill (or the next target)
            state, at = setup.killed(s._replace(others=(), destroyed=setup.models - 1))
            dst = np.full(rows.size, at, dtype=np.int64)
        elif after[0] is not None:  # caught and still standing: it stays under attack
            (m0, down0), others = after[0], living[1:]
            state = s._replace(down=down0, others=tuple(others), destroyed=destroyed)
            dst = np.full(rows.size, m0, dtype=np.int64)
        else:  # caught and destroyed: the next living model takes its place
            (m0, down0), others = living[0], living[1:]
            fresh, _ = setup.killed(s._replace(others=(), destroyed=destroyed - 1))
            state = fresh._replace(down=down0, others=tuple(others))
            dst = np.full(rows.size, m0, dtype=np.int64)
        counts = list(pc.counts)
        counts[SLOT_TOUGH] += saved
        counts[SLOT_DESTROYED] += killed
        marked = (pc.marked[rows] if pc.marked is not None else np.zeros(rows.size, dtype=np.int64)) + taken
        out.append(Piece(state, pc.src[rows], dst, pc.p[rows] * q, tuple(counts), marked,
                         None if pc.tag is None else pc.tag[rows],
                         None if pc.quick is None else pc.quick[rows], pc.quick_kill, pc.quick_spent,
                         pc.quick_tough))
    return out
