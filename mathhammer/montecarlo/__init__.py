"""The Monte Carlo engine: rules objects -> int64 tables (:mod:`.encode`) -> private Numba
kernels (:mod:`._kernels`: one trial per attack sequence, chunks over threads) -> counts ->
:class:`~mathhammer.result.Result` (:mod:`.assemble`); :func:`monte_carlo` does the three."""

from .._core.numba_env import check_environment

check_environment()  # before Numba is imported: NUMBA_* values it would fail on are one line

from .run import MAX_STRIDE, max_draws, monte_carlo  # noqa: E402

__all__ = ["monte_carlo", "max_draws", "MAX_STRIDE"]
