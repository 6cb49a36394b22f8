"""The vectors of forward propagation: per state, the probability of each damage marked.

:func:`~mathhammer.exact.forward.propagate_rounds` holds the distribution as a dict ``State ->
vector over damage marked`` (on a grid or spiral, over the configurations numbered so far, so
a vector made early may be shorter than one made later: :func:`pad`). Every edge of an event
pushes its probability into the vector of the state it leads to (:func:`push`), and adds its
damage points to the attack's figures (:func:`moments`).
"""

from __future__ import annotations

import numpy as np

__all__ = ["pad", "add", "add_into", "push", "moments", "WHOLE"]


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


#: Vectors up to this long take an edge's histogram whole; longer ones (a card's
#: configurations) over the span of its edges only.
WHOLE = 1024


def push(dist: dict, state, dst: np.ndarray, mass: np.ndarray, size: int) -> None:
    """``dist[state] += np.bincount(dst, mass)`` in place, the vector padded to ``size``
    (a long vector: the histogram over the span of ``dst`` only; the same sums, in the same
    order)."""
    if size <= WHOLE:
        add_into(dist, state, np.bincount(dst, weights=mass, minlength=size), size)
        return
    if dst.size == 0:
        add_into(dist, state, np.zeros(0), size)  # the state is reached, with nothing
        return
    lo, hi = int(dst.min()), int(dst.max()) + 1
    add_into(dist, state, np.bincount(dst - lo, weights=mass, minlength=hi - lo), size, lo)


def add_into(dist: dict, state, part: np.ndarray, size: int, at: int = 0) -> None:
    """``dist[state][at: at + part.size] += part`` in place, the vector made or padded to
    ``size``."""
    acc = dist.get(state)
    if acc is None:
        acc = dist[state] = np.zeros(size)
    elif acc.size < size:
        acc = dist[state] = pad(acc, size)
    acc[at: at + part.size] += part


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

