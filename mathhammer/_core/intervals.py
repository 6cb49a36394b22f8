"""Confidence intervals of Monte Carlo figures: Wilson intervals of proportions, Student's t.

Game-agnostic: Warmachine results and Song of Blades and Heroes results both use them.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["wilson_interval", "normal_interval", "pmf_moments", "pmf_sd", "t975", "Z95"]

# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045, 2.042)

Z95 = 1.959963984540054


def normal_interval(mean: float, sd: float, n: int | None, z: float = Z95) -> tuple[float, float]:
    """95% normal interval of a sample mean, ``mean +- z sd / sqrt(n)``; the point
    ``(mean, mean)`` when ``n`` is None (an exact figure).

    >>> normal_interval(2.0, 1.0, 100)
    (1.8040036015459946, 2.1959963984540054)
    >>> normal_interval(2.0, 1.0, None)
    (2.0, 2.0)
    """
    if n is None:
        return (mean, mean)
    h = z * sd / math.sqrt(n)
    return (mean - h, mean + h)


def pmf_moments(pmf) -> tuple[float, float]:
    """Mean and standard deviation of a distribution over 0, 1, 2, ... (``pmf[k]``:
    probability of k), what :func:`normal_interval` takes for the mean of such counts.

    >>> pmf_moments([0.5, 0.0, 0.5])
    (1.0, 1.0)
    """
    pmf = np.asarray(pmf, dtype=np.float64)
    k = np.arange(pmf.size)
    mean = float(k @ pmf)
    return mean, math.sqrt(max(0.0, float((k * k) @ pmf) - mean * mean))


def pmf_sd(pmf) -> float:
    """Standard deviation of a distribution over 0, 1, 2, ... (:func:`pmf_moments`).

    >>> pmf_sd([0.5, 0.0, 0.5])
    1.0
    """
    return pmf_moments(pmf)[1]


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
