"""The end of a round and the start of the next one (docs/activation.md, "Continuous effects,
hazards and several turns"), as edges like an attack's.

After the attack phase of round ``t`` (or in its place, in rounds without one) come, as
:class:`~mathhammer.exact.state.Event` steps:

* ``"earth"``: the end of the attackers' turn: a burning earth that still burns goes out
  on a d6 of 1-2;
* ``"fire"``, ``"corrosion"``: the maintenance phase: an effect on the target expires on a
  d6 of 1-2; otherwise fire makes a POW 12 damage roll, corrosion deals 1 point, suffered
  as :func:`~mathhammer.exact.suffering.suffer` says (a kill ends the trial);
* ``"activation"``: the target's activation: an acid bath gives Corrosion, a burning earth
  still burning gives Fire (not to a target resistant to the type); the end of its turn,
  where a burning earth may go out; then the start of the next round
  (:meth:`~mathhammer.exact.setup.Setup.reset`).

Each step returns :class:`~mathhammer.exact.edges.Piece` edges. Fire and corrosion pieces
count, in ``counts``, ``(present, applied)`` (the first two ``EFFECT_*`` columns of
:class:`~mathhammer.result.Result`), and where the effect was applied (``suffered``) also
whether the points destroyed a model, the focus the power field spent and whether a Tough
roll saved the target; in ``marked``, the boxes the effect marked.

The attack slots of every round are named by :func:`mathhammer.rules.slots.round_labels`.
"""

from __future__ import annotations

import numpy as np

from . import rolls
from .choices import Decisions
from .edges import Piece
from .setup import Setup
from .state import CORROSION, FIRE, FIRE_POW, Event, State
from .suffering import suffer

__all__ = ["round_edges", "PRESENT", "suffered", "suffered_spent"]

#: ``counts`` of a fire or corrosion piece: on the target at the maintenance phase, expired.
PRESENT = (1, 0)


def suffered(destroyed: int, spent: int, tough: int) -> tuple:
    """``counts`` of a fire or corrosion piece that was applied (did not expire): present,
    applied, the points destroyed a model (the target, or one of its unit's), the focus the
    target's power field spent against them, a Tough roll saved the target."""
    return (1, 1, destroyed, spent, tough)


def suffered_spent(counts: tuple) -> int:
    """The focus the target's power field spent against a round-end piece of ``counts``
    (0 where nothing was suffered: an expiry, a round without a continuous effect)."""
    return counts[3] if len(counts) == 5 else 0


def round_edges(setup: Setup, ev: Event, state: State, m: np.ndarray, dec: Decisions | None) -> list[Piece]:
    """Every outcome of the round-end step ``ev`` from ``state``, for each damage marked
    (configuration) of ``m``; probabilities sum to 1 for each."""
    n = m.size
    one = np.ones(n)
    if ev.kind == "earth":
        if not state.earth:
            return [Piece(state, m, m, one, ())]
        return [Piece(state, m, m, one * (2 / 3), ()), Piece(state._replace(earth=False), m, m, one / 3, ())]
    if ev.kind in ("fire", "corrosion"):
        bit = FIRE if ev.kind == "fire" else CORROSION
        if not state.cont & bit:
            return [Piece(state, m, m, one, ())]
        out = [Piece(state._replace(cont=state.cont & ~bit), m, m, one / 3, PRESENT)]  # expires
        if ev.kind == "fire":
            pmf = rolls.damage_pmf(2, FIRE_POW, setup.fire_armor(state))
            xs = np.flatnonzero(pmf)
            qs = pmf[xs]
        else:
            xs, qs = np.ones(1, dtype=np.int64), np.ones(1)
        cur = np.repeat(m, xs.size)
        x = np.tile(xs, n)
        p = np.tile(qs, n) * (2 / 3)
        for h in suffer(setup, state, cur, x, p, dec, setup.windows[ev.slot]):
            out.append(Piece(h.state, cur[h.rows], h.dst, h.p, suffered(h.destroyed, h.spent, h.tough), h.taken))
        return out
    if ev.kind != "activation":
        raise ValueError(f"unknown round step {ev.kind!r}")
    # the target's activation: hazards give their effects (a burning earth only while it
    # burns; never an effect it resists: setup.hazard_bits and earth_possible say so)
    after = state._replace(cont=state.cont | setup.hazard_bits | (FIRE if state.earth else 0))
    branches = [(after, one)]
    if after.earth:  # the end of its turn
        branches = [(after, one * (2 / 3)), (after._replace(earth=False), one / 3)]
    nxt = ev.round + 1 < setup.turns
    return [Piece(setup.reset(s) if nxt else s, m, m, q, ()) for s, q in branches]
