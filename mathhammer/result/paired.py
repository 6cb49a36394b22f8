"""Paired differences of two Monte Carlo results run on common random numbers.

Two results simulated with the same seed, trials and ``stride`` met the same dice chunk by
chunk (:mod:`mathhammer._core.chunks`), so the difference of a figure between them is
measured chunk by chunk: a batch-means interval far narrower than two independent runs give.
"""

from __future__ import annotations

import math

import numpy as np

from .._core.intervals import t975
from .._core.validate import check_instance
from ..errors import InputError
from .core import Result

__all__ = ["paired_difference", "PAIRED_METRICS"]

#: Figures :func:`paired_difference` compares, computed from a chunk's damage histogram (the
#: models destroyed per chunk, for ``destroyed``).
PAIRED_METRICS = ("kill", "damage_mean", "destroyed")

#: Each metric's value in a Result.
_VALUE = {"kill": lambda r: r.kill, "damage_mean": lambda r: r.damage_mean,
          "destroyed": lambda r: r.models_destroyed_mean}


def _chunk_metric(r: Result, metric: str) -> np.ndarray:
    """The chunks' sums of ``metric`` (kills, damage points, models destroyed)."""
    if metric == "destroyed":
        w = r.chunk_destroyed_weights
        return w @ np.arange(w.shape[1], dtype=float)
    w = r.chunk_damage_weights
    if metric == "kill":
        return w[:, -1]
    return w @ np.arange(w.shape[1], dtype=float)


def paired_difference(a: Result, b: Result, metric: str = "kill") -> dict:
    """``metric`` of ``a`` minus that of ``b``, with a 95% interval from paired chunks.

    Both results must be Monte Carlo runs with the same seed, trials and common-random-numbers
    ``stride`` (:func:`mathhammer.simulate`, :func:`mathhammer.common_stride`): chunk c of ``a`` then met the same dice as chunk
    c of ``b``. Chunks are independent batches, so the chunk differences give a batch-means
    interval (Student's t with chunks - 1 degrees of freedom) that carries the correlation
    common random numbers create: far narrower than comparing two independent runs. With one
    chunk (a run of at most :data:`~mathhammer._core.chunks.CHUNK` trials) no interval can
    be given (``ci95`` is ``None``). Exact results give the exact difference.

    Returns
    -------
    dict
        ``metric``, ``difference``, ``ci95`` (a pair or None), ``se``, ``chunks``, ``method``
        (``"paired chunks"`` or ``"exact"``).
    """
    check_instance("a", a, Result, "a mathhammer Result (what simulate returns)")
    check_instance("b", b, Result, "a mathhammer Result (what simulate returns)")
    if not isinstance(metric, str) or metric not in PAIRED_METRICS:
        raise InputError("metric", metric, f"must be one of {', '.join(PAIRED_METRICS)}")
    diff = _VALUE[metric](a) - _VALUE[metric](b)
    if a.exact and b.exact:
        return {"metric": metric, "difference": diff, "ci95": (diff, diff), "se": 0.0,
                "chunks": 0, "method": "exact"}
    if a.exact or b.exact:
        raise InputError("b", b.method, f"compare two Monte Carlo results or two exact ones, not one of "
                         f"each (a is {a.method})")
    if (a.seed, a.trials, a.stride) != (b.seed, b.trials, b.stride) or a.stride == 0:
        raise InputError("b", (b.seed, b.trials, b.stride), "paired comparison needs the same seed, trials "
                         "and a common stride (simulate(..., stride=common_stride([...])))")
    sizes = a.chunk_damage_weights.sum(axis=1)
    d = (_chunk_metric(a, metric) - _chunk_metric(b, metric)) / sizes
    n = len(d)
    if n < 2:
        return {"metric": metric, "difference": diff, "ci95": None, "se": math.nan,
                "chunks": n, "method": "paired chunks"}
    # the overall difference is the size-weighted mean of chunk differences
    w = sizes / sizes.sum()
    se = math.sqrt(float(np.sum(w * w * (d - diff) ** 2)) * n / (n - 1))
    half = t975(n - 1) * se
    return {"metric": metric, "difference": diff, "ci95": (diff - half, diff + half), "se": se,
            "chunks": n, "method": "paired chunks"}
