"""The vectors of forward propagation: per state, the probability of each damage marked.

:func:`~mathhammer.exact.forward.propagate_rounds` holds the distribution as a dict ``State ->
vector over damage marked`` (on a grid or spiral, over the configurations numbered so far, so
a vector made early may be shorter than one made later: :func:`pad`). Every edge of an event
pushes its probability into the vector of the state it leads to (:func:`push`), and adds its
damage points to the attack's figures (:func:`moments`); :func:`push_attack` does both for all
the edges of an attack at once.
"""

from __future__ import annotations

from itertools import accumulate

import numpy as np

__all__ = ["pad", "add", "push", "moments", "push_attack"]


def pad(v: np.ndarray, size: int) -> np.ndarray:
    """``v`` with zeros appended up to ``size`` (configurations met since it was made)."""
    if v.size >= size:
        return v
    out = np.zeros(size)
    out[: v.size] = v
    return out


def moments(mass: np.ndarray, k: np.ndarray) -> tuple[float, float]:
    """``(sum(mass * k), sum(mass * k**2))`` for integers ``k``, summed pairwise (a BLAS dot
    product spends more in its threads than in the sum on a busy machine)."""
    kf = k.astype(np.float64)
    first = mass * kf
    return float(first.sum()), float((first * kf).sum())


def push(dist: dict, state, dst: np.ndarray, mass: np.ndarray, size: int) -> None:
    """``dist[state] += np.bincount(dst, mass)`` in place, the vector padded to ``size``,
    the histogram over the span of ``dst`` only (the same sums, in the same order)."""
    acc = dist.get(state)
    if acc is None:
        acc = dist[state] = np.zeros(size)
    elif acc.size < size:
        acc = dist[state] = pad(acc, size)
    if dst.size == 0:
        return
    lo, hi = int(dst.min()), int(dst.max()) + 1
    acc[lo:hi] += np.bincount(dst - lo, weights=mass, minlength=hi - lo)


def add(dist: dict, state, v: np.ndarray) -> None:
    """``dist[state] += v``, padding the shorter vector."""
    old = dist.get(state)
    if old is None:
        dist[state] = v
    elif old.size == v.size:
        dist[state] = old + v
    else:
        size = max(old.size, v.size)
        dist[state] = pad(old, size) + pad(v, size)


def push_attack(pieces: list, v: np.ndarray, size: int, dist: dict, again: dict, counts: np.ndarray):
    """Push ``v`` along every piece of an attack on a damage track at once, into ``dist``
    (into ``again``, a state owing a Shred attack), and add to ``counts`` (the attack's
    ``SLOT_*`` figures) each piece's probability times what it counts, piece after piece
    as a sum over the pieces one by one would (a sure figure stays exactly 1). None, having
    done nothing, where a piece counts what a knockdown in quicksand made the target suffer
    (pushed piece by piece).

    Returns
    -------
    killed : list of float
        The probability of each piece that kills.
    first, second : float
        The boxes marked, and their squares, weighed by probability.
    """
    pieces = [pc for pc in pieces if pc.p.size]
    if any(pc.quick is not None or pc.quick_kill or pc.quick_spent or pc.quick_tough for pc in pieces):
        return None
    sizes = [pc.p.size for pc in pieces]
    mass = v[np.concatenate([pc.src for pc in pieces])] * np.concatenate([pc.p for pc in pieces])
    starts = list(accumulate(sizes[:-1], initial=0))
    totals = np.array([mass[a: a + n].sum() for a, n in zip(starts, sizes)])  # summed as one piece's
    # rows added one after the other: the order of the sums piece by piece
    rows = totals[:, None] * np.array([pc.counts for pc in pieces])
    counts[:] = np.concatenate((counts[None], rows)).sum(axis=0)
    killed = [float(totals[k]) for k, pc in enumerate(pieces) if pc.state is None]
    marks = [k for k, pc in enumerate(pieces) if pc.marked is not None]
    if len(marks) == len(pieces):
        first, second = moments(mass, np.concatenate([pc.marked for pc in pieces]))
    else:
        first = second = 0.0
        for k in marks:
            a, b = moments(mass[starts[k]: starts[k] + sizes[k]], pieces[k].marked)
            first, second = first + a, second + b
    by: dict = {}
    for k, pc in enumerate(pieces):
        if pc.state is not None:
            by.setdefault(pc.state, []).append(k)
    for state, ks in by.items():
        if len(ks) == 1:
            k = ks[0]
            dst, m = pieces[k].dst, mass[starts[k]: starts[k] + sizes[k]]
        else:
            dst = np.concatenate([pieces[k].dst for k in ks])
            m = np.concatenate([mass[starts[k]: starts[k] + sizes[k]] for k in ks])
        push(again if state.shred else dist, state, dst, m, size)
    return killed, first, second
