"""Confidence intervals for Monte Carlo proportions and means, and paired differences."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from .result import Result

__all__ = ["wilson_interval", "paired_difference", "t975", "Z95", "PAIRED_METRICS"]

#: Figures :func:`paired_difference` compares, computed from a chunk's damage histogram.
PAIRED_METRICS = ("kill", "damage_mean")

# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045, 2.042)

Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion.

    Examples
    --------
    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    >>> wilson_interval(0, 1000)[0]
    0.0
    """
    if n <= 0:
        raise ValueError("n must be positive")
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    # rounding can put a bound a hair past p when p is 0 or 1: the interval always holds p
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def t975(df: int) -> float:
    """Two-sided 95% quantile of Student's t with ``df`` degrees of freedom (a table to 30,
    then the Cornish-Fisher expansion, within 1e-3 of the exact value).

    >>> t975(1), t975(30), round(t975(1000), 3)
    (12.706, 2.042, 1.962)
    """
    if df < 1:
        raise ValueError("df must be at least 1")
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


def _chunk_metric(weights: np.ndarray, metric: str) -> np.ndarray:
    if metric == "kill":
        return weights[:, -1]
    return weights @ np.arange(weights.shape[1], dtype=float)


def paired_difference(a: Result, b: Result, metric: str = "kill") -> dict:
    """``metric`` of ``a`` minus that of ``b``, with a 95% interval from paired chunks.

    Both results must be Monte Carlo runs with the same seed, trials and common-random-numbers
    ``stride`` (:func:`mathhammer.simulate`): chunk c of ``a`` then met the same dice as chunk
    c of ``b``. Chunks are independent batches, so the chunk differences give a batch-means
    interval (Student's t with chunks - 1 degrees of freedom) that carries the correlation
    common random numbers create: far narrower than comparing two independent runs. With one
    chunk (a run of at most :data:`~mathhammer._kernels.driver.CHUNK` trials) no interval can
    be given (``ci95`` is ``None``). Exact results give the exact difference.

    Returns
    -------
    dict
        ``metric``, ``difference``, ``ci95`` (a pair or None), ``se``, ``chunks``, ``method``
        (``"paired chunks"`` or ``"exact"``).
    """
    if metric not in PAIRED_METRICS:
        raise ValueError(f"metric must be one of {', '.join(PAIRED_METRICS)} (got {metric!r})")
    value = {"kill": lambda r: r.kill, "damage_mean": lambda r: r.damage_mean}[metric]
    diff = value(a) - value(b)
    if a.exact and b.exact:
        return {"metric": metric, "difference": diff, "ci95": (diff, diff), "se": 0.0,
                "chunks": 0, "method": "exact"}
    if a.exact or b.exact:
        raise ValueError("compare two Monte Carlo results or two exact ones, not one of each")
    if (a.seed, a.trials, a.stride) != (b.seed, b.trials, b.stride) or a.stride == 0:
        raise ValueError("paired comparison needs the same seed, trials and a common "
                         "stride (simulate(..., stride=common_stride([...])))")
    wa, wb = a.chunk_damage_weights, b.chunk_damage_weights
    sizes = wa.sum(axis=1)
    d = (_chunk_metric(wa, metric) - _chunk_metric(wb, metric)) / sizes
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
