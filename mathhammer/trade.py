"""The public entry point of trades (docs/trades.md): :func:`simulate_trade`."""

from __future__ import annotations

from ._core.limits import MAX_SEED, MAX_TRIALS, fresh_seed
from ._core.validate import check_instance, check_int
from .engine import check_method, check_method_arguments
from .result.trade import TradeResult
from .rules.trade import Trade

__all__ = ["simulate_trade"]


def simulate_trade(trade: Trade, trials: int | None = None, seed: int | None = None,
                   method: str = "monte_carlo") -> TradeResult:
    """Play ``trade`` out and return its :class:`~mathhammer.result.trade.TradeResult`.

    Parameters
    ----------
    trade : Trade
    trials : int, optional
        Monte Carlo sample size; defaults to ``trade.trials``.
    seed : int, optional
        Defaults to ``trade.seed``; when that is None too a fresh seed is drawn and reported.
        The same seed gives the same figures on any number of threads.
    method : {"monte_carlo", "mc", "exact"}
        ``"exact"``: every state carried exactly (single models on damage tracks:
        :mod:`mathhammer.exact.trade`), else
        :class:`~mathhammer.errors.ExactNotApplicable`.

    Examples
    --------
    >>> from mathhammer.io.trade_files import load_trade
    >>> res = simulate_trade(load_trade("examples/trades/heavy_duel.toml"), trials=20_000, seed=1)
    >>> res.sides, res.method, res.figures.turns[-1]
    (('Red', 'Blue'), 'monte_carlo', (3, 'Blue'))
    """
    check_instance("trade", trade, Trade, "a mathhammer Trade (mathhammer.io.trade_files.load_trade)")
    method = check_method(method)
    names = tuple(m.name for m in trade.models)
    sides = tuple(s.name for s in trade.sides)
    model_side = tuple(trade.side_of(name) for name in names)
    boxes = tuple(m.target.boxes for m in trade.models)
    sizes = tuple(m.target.models for m in trade.models)
    if method == "exact":
        check_method_arguments(method, trials=trials, seed=seed)
        from .exact.trade import exact_trade

        return TradeResult(sides, names, model_side, boxes, exact_trade(trade), "exact", sizes=sizes,
                           spending=trade.spending)
    trials = check_int("trials", trade.trials if trials is None else trials, 1, MAX_TRIALS)
    seed = trade.seed if seed is None else seed
    seed = fresh_seed() if seed is None else check_int("seed", seed, 0, MAX_SEED)
    from .montecarlo.trades import trade_figures, trade_monte_carlo

    figures = trade_figures(trade, trade_monte_carlo(trade, trials, seed))
    return TradeResult(sides, names, model_side, boxes, figures, "monte_carlo", trials, seed, sizes, trade.spending)
