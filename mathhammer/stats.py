"""Confidence intervals for Monte Carlo proportions and means."""

from __future__ import annotations

import math

__all__ = ["wilson_interval", "Z95"]

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
