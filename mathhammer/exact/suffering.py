"""Suffering points that are not an attack's: quicksand, fire, corrosion (docs/activation.md,
"Suffering points").

:func:`suffer` turns the damage points the target suffers, at each damage marked (card
configuration), into :class:`Hurt` edges: its power field, the marking (a column roll on a
card) and a Tough roll. Fire and corrosion at the end of a round
(:mod:`~mathhammer.exact.rounds`) use it, and so does a knockdown in quicksand during an
attack (:func:`quicksand`; :func:`in_quicksand` says when). A crippled Cortex takes the
target's focus for good (:func:`cortex_lost`), whether an attack or suffered points crippled
it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..result.fields import SLOT_DESTROYED, SLOT_TOUGH
from .card import N_COLUMNS
from .choices import Decisions
from .edges import Piece, groups_by, option_totals, subset
from .setup import Setup
from .state import SlotInfo, State

__all__ = ["Hurt", "suffer", "quicksand", "in_quicksand", "cortex_lost"]


def cortex_lost(setup: Setup, state: State) -> State:
    """A crippled Cortex takes the target's focus for good (kept over rounds)."""
    return state._replace(target_points=0, lost=state.lost or setup.track_lost)


def in_quicksand(setup: Setup, info: SlotInfo, state: State, critical: bool) -> bool:
    """A hit of ``info`` knocks the target down in quicksand (it was not knocked down)."""
    return setup.quicksand and info.weapon.triggers("knockdown", critical) and not state.down


@dataclass
class Hurt:
    """Suffering points: the edges of input ``rows`` lead to ``dst`` in ``state`` (None:
    killed) with probabilities ``p``, after marking ``taken`` boxes (before a Tough save);
    ``spent``: focus the power field spent; ``tough``: a Tough roll saved the target;
    ``destroyed``: the points destroyed a model (the target, or one of its unit's: then
    ``state`` is the next model's, :meth:`Setup.killed`)."""

    state: State | None
    rows: np.ndarray
    dst: np.ndarray
    p: np.ndarray
    taken: np.ndarray
    spent: int = 0
    tough: int = 0
    destroyed: int = 0


def suffer(setup: Setup, state: State, cur: np.ndarray, x: np.ndarray, p: np.ndarray,
           dec: Decisions | None, window: int) -> list[Hurt]:
    """The target, in ``state``, suffers ``x`` damage points that are not an attack's
    (quicksand, fire, corrosion: docs/activation.md, "Suffering points"), at each damage
    marked (configuration) ``cur``, with probabilities ``p``.

    The power field spends focus by its policy (``lethal``: only when the points would
    disable, the fewest; ``best``: what the target prefers of ``dec.value``; fury does not prevent
    them; a crippled Power Field Generator stops it); the points are marked (a column roll
    on a card); a disabled target may roll Tough; no Rapid Healing. ``window``: marks the
    card's stack keeps (the next attack's).
    """
    rows = np.arange(cur.size)
    tp = state.target_points
    if (cur.size == 0 or setup.power_kind != "focus" or setup.field == "never" or tp == 0
            or "G" in state.crippled):
        return _suffer_mark(setup, state, rows, cur, x, p, window, 0)
    remaining = setup.remaining(cur)
    if setup.field == "lethal":
        need = -(-(x - remaining + 1) // 5)
        spend = np.where((x >= remaining) & (need <= min(tp, setup.field_limit)), need, 0)
        out = []
        for k in np.unique(spend):
            sel = np.flatnonzero(spend == k)
            k = int(k)
            out += _suffer_mark(setup, state._replace(target_points=tp - k), sel, cur[sel],
                                np.maximum(0, x[sel] - 5 * k), p[sel], window, k)
        return out
    # best: per edge, the spending the target prefers (fewer kills, boxes, then points spent)
    top = min(tp, setup.field_limit, -(-int(x.max()) // 5))
    options = []
    for k in range(top + 1):
        sel = np.flatnonzero((x > 5 * (k - 1)) | (k == 0))
        options.append(_suffer_mark(setup, state._replace(target_points=tp - k), sel, cur[sel],
                                    np.maximum(0, x[sel] - 5 * k), p[sel], window, k))
    if len(options) == 1:
        return options[0]
    totals = [option_totals(dec.chain.width, cur.size,
                            ((h.rows, h.p, dec.lead(h.state, h.dst, target_spent=h.spent)) for h in hurts))
              for hurts in options]
    best = dec.target.choose(totals)
    if dec.record is not None:
        dec.record("suffer", dec.event, dec.row, (state,), (cur, x), best, totals, dec.target)
    out = []
    for j, hurts in enumerate(options):
        for h in hurts:
            keep = best[h.rows] == j
            if keep.any():
                out.append(Hurt(h.state, h.rows[keep], h.dst[keep], h.p[keep], h.taken[keep], h.spent, h.tough,
                            h.destroyed))
    return out


def _suffer_mark(setup: Setup, state: State, rows: np.ndarray, cur: np.ndarray, x: np.ndarray,
                 p: np.ndarray, window: int, spent: int) -> list[Hurt]:
    """Mark ``x`` points (the power field done) from ``cur``; Tough; on a card, the column
    roll and what crippling changes."""
    if rows.size == 0:
        return []
    boxes = setup.boxes
    remaining = setup.remaining(cur)
    taken = np.minimum(x, remaining).astype(np.int64)
    tough = (setup.tough and not state.grievous and (not state.down or setup.steady)
             and not (setup.upkeep_tough and state.dispelled))
    out = []

    def add(st, keep, dst, q, saved=0, destroyed=0):
        if keep.any():
            dst = dst[keep] if isinstance(dst, np.ndarray) else np.full(int(keep.sum()), dst)
            out.append(Hurt(st, rows[keep], dst, q[keep], taken[keep], spent, saved, destroyed))

    disabled = taken >= remaining
    if setup.card is None:
        end = cur + taken
        # the relaxation of a grid: systems crippled at random as the boxes fill
        for st, q in setup.track_split(state, cur, end):
            add(st, ~disabled, end, p * q)
        gone, at = setup.killed(state)  # destroyed: the kill, or the unit's next model
        if tough:
            for st, q in setup.track_split(state._replace(down=True), cur, boxes - 1):
                add(st, disabled, boxes - 1, setup.saved(p * q), 1)
            add(gone, disabled, at, setup.failed(p), destroyed=1)
        else:
            add(gone, disabled, at, p, destroyed=1)
        return out
    card = setup.card
    zero = taken == 0
    add(state, zero, cur, p)
    add(None, disabled, cur, setup.failed(p) if tough else p, destroyed=1)
    go = ~zero & (~disabled | tough)
    if not go.any():
        return out
    pos = np.flatnonzero(go)
    dis = disabled[pos]
    direct, rolled, dst = card.land(cur[pos], taken[pos], dis.astype(np.int64), None, window)
    at = card.spread(pos, direct, rolled)
    s_dis = card.spread(dis, direct, rolled)
    s_p = card.spread(np.where(dis, setup.saved(p[pos]), p[pos]) * (1.0 / N_COLUMNS), direct, rolled)
    bits = card.crip[dst]
    key = (bits & setup.feedback_mask) * 4 + ((bits & setup.cortex_bit) > 0) * 2 + s_dis
    for k, keep in groups_by(key):
        b0 = int(bits[keep][0])
        st = state._replace(crippled=setup.crippled_set(b0))
        if k & 2:
            st = cortex_lost(setup, st)
        if k & 1:
            st = st._replace(down=True)
        out.append(Hurt(st, rows[at][keep], dst[keep], s_p[keep], taken[at][keep], spent, int(k & 1)))
    return out


def quicksand(setup: Setup, info: SlotInfo, pieces: list[Piece], dec: Decisions) -> list[Piece]:
    """A hit knocked the target down in quicksand: where it stands after the attack (not
    killed, not saved by Tough: a Tough save's knockdown came first), it suffers 1 damage
    point at once. Counted apart (``quick``, ``quick_kill``, ``quick_spent``, ``quick_tough``),
    not in the attack's figures."""
    out = []
    window = setup.windows[info.index + 1]
    for pc in pieces:
        if pc.state is None or pc.counts[SLOT_TOUGH] or pc.counts[SLOT_DESTROYED]:
            out.append(pc)  # killed (a unit: the next model stands, not knocked down), or saved
            continue
        ones = np.ones(pc.src.size, dtype=np.int64)
        for h in suffer(setup, pc.state, pc.dst, ones, pc.p, dec, window):
            r = h.rows
            counts = pc.counts
            if h.destroyed:
                counts = tuple(c + 1 if j == SLOT_DESTROYED else c for j, c in enumerate(counts))
            out.append(Piece(h.state, pc.src[r], h.dst, h.p, counts, subset(pc.marked, r), subset(pc.tag, r),
                             h.taken, bool(h.destroyed), h.spent, h.tough))
    return out
