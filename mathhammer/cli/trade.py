"""``mathhammer trade FILE``: two sides taking turns over rounds (docs/trades.md); ``mathhammer
trade-matrix``: every card trading with every card; ``mathhammer worth CARD``: what +1 of each
stat is worth in its trades."""

from __future__ import annotations

import json
import sys

from ..errors import InputError
from ..io.schema import ScenarioFileError
from ..rules.scenario import MAX_TURNS
from ..studies.trade_matrices import FIRST_CHOICES
from ._common import EXIT_OK, PROG, UsageError, add_trials_seed, int_arg, points_progress, write
from .cards import add_cards_flag, card_dirs_for
from .matrix import add_points_output, as_flag_error, deck_arg
from .run import check_plot
from .sweep import interrupted, metric_of, metric_tables, write_frame

__all__ = ["add_parsers"]


def add_parsers(sub) -> None:
    p = sub.add_parser("trade", help="two sides taking turns over rounds: who wins the trade",
                       description="Play a trade file (docs/trades.md) out: each round each side's "
                       "models attack with what their damage leaves them. Prints who wins the "
                       "trade and, after every turn, who is out and each model's damage and "
                       "crippled systems.")
    p.add_argument("file", metavar="FILE", help="a trade file (TOML)")
    _run_flags(p, "Monte Carlo sample size (default: the file's [simulation] trials)",
               "random seed (default: the file's; drawn and reported when it has none)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--plot", metavar="FILE.png", default=None,
                   help="also draw the trade: each side's survival turn by turn, and the "
                   "crippling the first round left (PNG, SVG or PDF by the extension)")
    p.add_argument("--force", action="store_true", help="replace the --plot file if it exists")
    p.needs("--force", ("--plot",), "lets --plot overwrite a file that exists")
    add_cards_flag(p)
    p.set_defaults(handler=_trade)
    _add_matrix_parser(sub)
    _add_worth_parser(sub)


#: The run's own arguments -> their flags, for the errors the API raises on them.
_RUN_FLAGS = {"trials": "--trials", "seed": "--seed"}


def _run_flags(p, trials: str, seed: str) -> None:
    """``--trials``, ``--seed`` (their help ``trials`` and ``seed``) and ``--method``."""
    add_trials_seed(p, trials, seed)
    p.add_argument("--method", choices=("monte_carlo", "mc", "exact"), default="monte_carlo",
                   help="monte_carlo (default) or exact (single models on damage tracks)")


def _trade_shape(p, first: str, first_help: str) -> None:
    """``--rounds`` and ``--first`` (its default ``first``) of the commands trading cards."""
    p.add_argument("--rounds", type=int_arg("rounds", 1, MAX_TURNS), default=3, metavar="N",
                   help="rounds of each trade (default 3)")
    p.add_argument("--first", choices=FIRST_CHOICES, default=first, help=first_help)


def _add_matrix_parser(sub) -> None:
    p = sub.add_parser("trade-matrix", help="every card trading with every card: who wins",
                       description="Trade every --rows card with every --columns card over "
                       "--rounds rounds (docs/trades.md): P(the row card wins the trade) with "
                       "its 95% interval, damage dealt and taken, models killed and lost, per "
                       "pairing, printed as a table of --metric and written to --out (.csv) "
                       "point by point. Points run in this process on all cores, or on a Dask "
                       "cluster (--scheduler).")
    p.add_argument("--rows", action="append", required=True, metavar="DIR|CARDS",
                   help="a directory of card files, or card names separated by commas; repeatable")
    p.add_argument("--columns", action="append", required=True, metavar="DIR|CARDS",
                   help="a directory of card files, or card names separated by commas")
    _trade_shape(p, "row", "whose side goes first: the row card's (default), the column card's, "
                 "or both (two points a pairing)")
    _run_flags(p, "Monte Carlo sample size of every pairing (default 1,000,000)",
               "the run's seed (each pairing's is derived from it); drawn when not given")
    p.add_argument("--scheduler", default="local", metavar="WHERE",
                   help="local (default), local-cluster (a Dask LocalCluster) or tcp://HOST:PORT")
    p.add_argument("--workers", type=int_arg("workers", 1, 4096), default=None, metavar="N",
                   help="worker processes of --scheduler local-cluster (default: one per core)")
    p.add_argument("--batch", type=int_arg("batch", 1, 100_000), default=None, metavar="N",
                   help="points per Dask task (default 1)")
    p.add_argument("--out", default=None, metavar="FILE.csv",
                   help="write every figure of every pairing to FILE.csv as they finish (never "
                   "overwritten)")
    p.add_argument("--resume", action="store_true", help="continue the matrix --out holds")
    p.add_argument("--metric", default=None, metavar="METRIC",
                   help="figure the table (and --plot) shows: win (default), lose, "
                   "both_standing, damage_dealt, damage_taken, models_killed, models_lost")
    p.add_argument("--plot", default=None, metavar="FILE.png",
                   help="also draw a heatmap of --metric into FILE (.png, .svg or .pdf)")
    add_points_output(p)
    add_cards_flag(p)
    p.set_defaults(handler=_trade_matrix)


def _matrix_text(frame, metric: str) -> str:
    a = frame.attrs
    how = ("exact" if a.get("method") == "exact"
           else f"Monte Carlo, {a.get('trials'):,} trials a pairing, seed {a.get('seed')}")
    header = (f"{metric}: row card trading with column card, {a.get('rounds')} rounds "
              f"({a.get('points')} points; {how}; {a.get('backend')})")
    shown = frame.rename(columns={"attacker": "row card", "target": "column card"})  # the table's heads
    lines = metric_tables(shown, metric, ["row card", "column card"], header, what="trade matrix")
    lines += ["", f"spending: {a.get('policy')}"]
    if a.get("out"):
        lines += [f"every figure of every pairing: {a['out']}"]
    return "\n".join(lines)


def _trade_matrix(args) -> int:
    from ..studies.points import RunInterrupted
    from ..studies.trade_matrices import trade_matrix

    if args.resume and args.out is None:
        raise UsageError("--resume needs --out FILE, the file of the matrix to resume")
    check_plot(args)
    metric = metric_of(args) if args.metric is not None else "win"
    flags = {"rows": "--rows", "columns": "--columns", "out": "--out", "scheduler": "--scheduler",
             "workers": "--workers", "batch": "--batch", **_RUN_FLAGS}
    try:
        frame = trade_matrix(deck_arg(args.rows, "--rows"), deck_arg(args.columns, "--columns"),
                             rounds=args.rounds, first=args.first, trials=args.trials, seed=args.seed,
                             method=args.method, cards=card_dirs_for(args), scheduler=args.scheduler,
                             workers=args.workers, batch=args.batch, out=args.out, resume=args.resume,
                             progress=points_progress(args))
    except RunInterrupted as exc:
        return interrupted(exc, "FILE.csv")
    except InputError as exc:
        raise as_flag_error(exc, flags) from None
    if args.plot is not None:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib.figure import Figure

        from ..plots import plot_trade_matrix, save_figure

        n_c, n_r = frame["target"].nunique(), frame["attacker"].nunique()
        fig = Figure(figsize=(min(4 + 0.6 * n_c, 30), min(3 + 0.45 * n_r, 30)), layout="constrained")
        first = frame["first"].iloc[0] if frame["first"].nunique() > 1 else None
        try:
            plot_trade_matrix(frame, metric, first=first, ax=fig.add_subplot())
        except ValueError as exc:
            raise InputError("--metric", metric, str(exc)) from None
        save_figure(fig, args.plot, overwrite=args.force)
    write_frame(frame, args, ("method", "trials", "seed", "rounds", "first", "policy", "backend",
                              "workers", "batch", "points", "computed", "out"),
                lambda f, _: _matrix_text(f, metric))  # its own default metric: win
    if args.plot is not None:
        sys.stderr.write(f"{PROG}: wrote the heatmap to {args.plot}\n")
    return EXIT_OK

def _trade(args) -> int:
    from ..io.trade_files import load_trade
    from ..trade import simulate_trade

    trade = load_trade(args.file, card_dirs_for(args))
    check_plot(args)  # before the run: a --plot file that exists or cannot be written
    try:
        result = simulate_trade(trade, args.trials, args.seed, args.method)
    except InputError as exc:
        if exc.key.startswith("sides["):  # what the file holds that the engine refuses: its file named
            raise ScenarioFileError(str(args.file), exc.key, exc.value, exc.reason) from None
        raise as_flag_error(exc, _RUN_FLAGS) from None
    write(json.dumps(result.to_dict()) if args.json else result.summary())
    if args.plot:
        from ..plots.figure import save_figure
        from ..plots.trade import trade_figure

        save_figure(trade_figure(result), args.plot, overwrite=args.force)
        sys.stderr.write(f"{PROG}: wrote the figure to {args.plot}\n")
    return EXIT_OK


def _add_worth_parser(sub) -> None:
    p = sub.add_parser("worth", help="what +1 of each stat is worth in a card's trades",
                       description="Trade CARD with every --against card (docs/trades.md) as it is "
                       "and with +1 MAT, RAT, POW, DEF, ARM, boxes or focus: the change of its "
                       "win odds per stat and opponent, and their mean, with 95% intervals "
                       "(common random numbers, paired over chunks; exact on damage tracks).")
    p.add_argument("card", metavar="CARD", help="a card name (NAME:ACTION picks its weapons) or path")
    p.add_argument("--against", action="append", required=True, metavar="DIR|CARDS",
                   help="a directory of card files, or card names separated by commas")
    _trade_shape(p, "both", "whose side goes first: the card's (row), the opponent's (column), or "
                 "both, averaged (default)")
    p.add_argument("--stats", default=None, metavar="LIST",
                   help="the stats priced, comma-separated (default MAT,RAT,POW,DEF,ARM,boxes,focus)")
    _run_flags(p, "Monte Carlo sample size of each trade (default 200,000)",
               "the run's seed (each trade's derived from it); drawn when not given")
    p.add_argument("--plot", default=None, metavar="FILE.png",
                   help="also draw the bars of the mean over the opponents (.png, .svg or .pdf)")
    p.add_argument("--force", action="store_true", help="let --plot overwrite its file")
    p.needs("--force", ("--plot",), "lets --plot overwrite its file")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print the table as JSON")
    fmt.add_argument("--csv", action="store_true", help="print the table as CSV")
    add_cards_flag(p)
    p.set_defaults(handler=_worth)


def _worth_text(frame) -> str:
    a = frame.attrs
    how = "exact" if a["method"] == "exact" else f"Monte Carlo, {a['trials']:,} trials a trade, seed {a['seed']}"
    lines = [f"What +1 of each stat is worth to {a['card']}: change of P(wins the trade), {a['rounds']} "
             f"rounds, {'both orders averaged' if a['first'] == 'both' else a['first'] + ' first'} ({how})", ""]
    table = frame.pivot(index="stat", columns="opponent", values="delta").reindex(
        index=list(dict.fromkeys(frame["stat"])), columns=list(dict.fromkeys(frame["opponent"])))
    width = max(10, *(len(c) for c in table.columns))
    lines.append(f"{'stat':<8}" + "".join(f"{c:>{width + 2}}" for c in table.columns))
    for stat, row in table.iterrows():
        lines.append(f"{'+1 ' + stat:<8}" + "".join(f"{100 * v:>+{width + 1}.1f}%" for v in row))
    overall = frame[frame["opponent"] == "all"]
    if a["method"] != "exact":
        lines += ["", "mean over the opponents, 95% interval (percentage points):"]
        lines += [f"  +1 {r.stat:<6} {100 * r.delta:+6.1f}  [{100 * r.ci_low:+.1f}, {100 * r.ci_high:+.1f}]"
                  for r in overall.itertuples()]
    if a["not_applicable"]:
        lines += ["", f"not applicable to {a['card']}: {', '.join(a['not_applicable'])}"]
    return "\n".join(lines)


def _worth(args) -> int:
    from ..studies.stat_worth import STATS, stat_worth

    check_plot(args)
    stats = STATS if args.stats is None else [s.strip() for s in args.stats.split(",")]
    try:
        frame = stat_worth(args.card, deck_arg(args.against, "--against"), rounds=args.rounds,
                           first=args.first, stats=stats, trials=args.trials, seed=args.seed,
                           method=args.method, cards=card_dirs_for(args))
    except InputError as exc:
        raise as_flag_error(exc, {"card": "CARD", "stats": "--stats", "opponents": "--against",
                                  **_RUN_FLAGS}) from None
    if args.plot is not None:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib.figure import Figure

        from ..plots import plot_stat_worth, save_figure

        fig = Figure(figsize=(7, 1.2 + 0.45 * frame["stat"].nunique()), layout="constrained")
        plot_stat_worth(frame, ax=fig.add_subplot())
        save_figure(fig, args.plot, overwrite=args.force)
    if args.json:
        write(json.dumps({**frame.attrs, "rows": frame.to_dict("records")}))
    elif args.csv:
        write(frame.to_csv(index=False, lineterminator="\n"))
    else:
        write(_worth_text(frame))
    if args.plot is not None:
        sys.stderr.write(f"{PROG}: wrote the figure to {args.plot}\n")
    return EXIT_OK
