"""``mathhammer trade FILE``: two sides taking turns over rounds (docs/trades.md)."""

from __future__ import annotations

import json
import sys

from .._core.limits import MAX_SEED, MAX_TRIALS
from ._common import EXIT_OK, PROG, int_arg, write
from .cards import add_cards_flag, card_dirs_for
from .run import check_plot

__all__ = ["add_parsers"]


def add_parsers(sub) -> None:
    p = sub.add_parser("trade", help="two sides taking turns over rounds: who wins the trade",
                       description="Play a trade file (docs/trades.md) out: each round each side's "
                       "models attack with what their damage leaves them. Prints who wins the "
                       "trade and, after every turn, who is out and each model's damage and "
                       "crippled systems.")
    p.add_argument("file", metavar="FILE", help="a trade file (TOML)")
    p.add_argument("--trials", type=int_arg("trials", 1, MAX_TRIALS), default=None, metavar="N",
                   help="Monte Carlo sample size (default: the file's [simulation] trials)")
    p.add_argument("--seed", type=int_arg("seed", 0, MAX_SEED), default=None, metavar="S",
                   help="random seed (default: the file's; drawn and reported when it has none)")
    p.add_argument("--method", choices=("monte_carlo", "mc", "exact"), default="monte_carlo",
                   help="monte_carlo (default) or exact (single models on damage tracks)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--plot", metavar="FILE.png", default=None,
                   help="also draw the trade: each side's survival turn by turn, and the "
                   "crippling the first round left (PNG, SVG or PDF by the extension)")
    p.add_argument("--force", action="store_true", help="replace the --plot file if it exists")
    p.needs("--force", ("--plot",), "lets --plot overwrite a file that exists")
    add_cards_flag(p)
    p.set_defaults(handler=_trade)


def _trade(args) -> int:
    from ..io.trade_files import load_trade
    from ..trade import simulate_trade

    trade = load_trade(args.file, card_dirs_for(args))
    check_plot(args)  # before the run: a --plot file that exists or cannot be written
    result = simulate_trade(trade, args.trials, args.seed, args.method)
    write(json.dumps(result.to_dict()) if args.json else result.summary())
    if args.plot:
        from ..plots.figure import save_figure
        from ..plots.trade import trade_figure

        save_figure(trade_figure(result), args.plot, overwrite=args.force)
        sys.stderr.write(f"{PROG}: wrote the figure to {args.plot}\n")
    return EXIT_OK
