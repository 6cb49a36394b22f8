"""The Monte Carlo engine: rules objects -> int64 tables (:mod:`.encode`) -> private Numba
kernels (:mod:`._kernels`: one trial per attack sequence, chunks over threads) -> counts ->
:class:`~mathhammer.result.Result` (:mod:`.assemble`); :func:`monte_carlo` does the three."""

from .run import MAX_STRIDE, max_draws, monte_carlo

__all__ = ["monte_carlo", "max_draws", "MAX_STRIDE"]
