"""``mathhammer matrix``: every attacker card against every target card.

::

    mathhammer matrix --attackers cards/ --targets cards/ --trials 200000 --out matrix.parquet
    mathhammer matrix --attackers heavy_warjack,light_warjack --targets solo,heavy_warbeast \\
        --vary attackers.0.focus=0:3 --metric damage_mean
    mathhammer matrix --attackers a/ --targets b/ --scheduler tcp://10.0.0.5:8786 --out m.parquet
"""

from __future__ import annotations

import argparse
import sys

from .._core.paths import is_folder
from ..errors import InputError, shown
from ._common import EXIT_OK, PROG, UsageError, add_progress_flag, int_arg, points_progress
from .cards import add_cards_flag, card_dirs_for
from .run import add_common, check_plot
from .sweep import interrupted, metric_of, metric_tables, parse_vary, write_frame

#: API argument -> the flag that sets it, for error messages.
_FLAGS = {"attackers": "--attackers", "targets": "--targets", "vary": "--vary",
          "out": "--out", "resume": "--resume", "scheduler": "--scheduler",
          "workers": "--workers", "batch": "--batch", "turns": "--turns"}


def add_parsers(sub) -> None:
    p = sub.add_parser(
        "matrix", help="every attacker card against every target card (balance matrix)",
        description="Simulate every attacker card against every target card (optionally "
        "over --vary parameters): kill odds with their 95% interval, damage and cripple odds "
        "per pair, printed as a table of --metric and written to --out (.parquet or .csv) "
        "point by point. Points run in this process on all cores, or on a Dask cluster "
        "(--scheduler; pip install 'mathhammer[dask]').")
    p.add_argument("--attackers", action="append", required=True, metavar="DIR|CARDS",
                   help="a directory of card files (its cards with an [attacker] table), or "
                   "card names separated by commas (NAME:ACTION picks the weapons); repeatable")
    p.add_argument("--targets", action="append", required=True, metavar="DIR|CARDS",
                   help="a directory of card files, or card names separated by commas")
    p.add_argument("--all-actions", action="store_true",
                   help="an attacker with weapons of several types counts once per type "
                   "(NAME:melee, NAME:ranged); default: its first type")
    p.add_argument("--vary", action="append", default=None, metavar="PATH=VALUES",
                   help="a parameter varied at every pair, e.g. attackers.0.focus=0:3 or "
                   "target.arm=16,18 (repeatable)")
    p.add_argument("--turns", type=int_arg("turns", 1, 20), default=None, metavar="N",
                   help="rounds of attacks (and of continuous effects) per point")
    p.add_argument("--scheduler", default="local", metavar="WHERE",
                   help="local (default: this process, all cores), local-cluster (a Dask "
                   "LocalCluster on this machine) or a Dask scheduler address tcp://HOST:PORT")
    p.add_argument("--workers", type=int_arg("workers", 1, 4096), default=None, metavar="N",
                   help="worker processes of --scheduler local-cluster (default: one per core)")
    p.add_argument("--batch", type=int_arg("batch", 1, 100_000), default=None, metavar="N",
                   help="points per Dask task (default 1): fewer tasks for big clusters, "
                   "but a killed worker then loses its whole batch in flight")
    p.add_argument("--out", default=None, metavar="FILE.parquet",
                   help="write every figure of every pair to FILE (.parquet or .csv), point "
                   "by point as they finish (never overwritten)")
    p.add_argument("--resume", action="store_true",
                   help="continue the matrix --out holds: compute only the missing points")
    p.add_argument("--metric", default=None, metavar="METRIC",
                   help="figure the table (and --plot) shows: kill, damage_mean, cripple:X, "
                   "... (default kill)")
    p.add_argument("--plot", default=None, metavar="FILE.png",
                   help="also draw a heatmap of --metric into FILE (.png, .svg or .pdf); with "
                   "--vary, at the last value of each varied parameter")
    add_points_output(p)
    add_common(p, file=False)
    add_cards_flag(p)
    p.set_defaults(handler=matrix_command)


def add_points_output(p) -> None:
    """``--force`` (of ``--plot``), ``--progress`` and ``--json`` / ``--csv``: the output flags
    of a run over points (``matrix``, ``trade-matrix``; ``p`` a Parser with ``--plot``)."""
    p.add_argument("--force", action="store_true", help="let --plot overwrite its file")
    p.needs("--force", ("--plot",), "lets --plot overwrite its file")
    add_progress_flag(p, " (and the Dask dashboard's address)")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print every figure as JSON")
    fmt.add_argument("--csv", action="store_true", help="print the long frame as CSV")


def deck_arg(values: list[str], flag: str):
    """A directory (given alone) or the card names of every value, split at commas (an
    empty value is no folder: Path("") is the current one); ``matrix`` and ``trade-matrix``
    read their decks so."""
    if any(not v.strip() for v in values):
        raise UsageError(f"{flag}: an empty value: give a directory or card names (got {shown(values)})")
    dirs = [v for v in values if is_folder(v)]
    if dirs:
        if len(values) > 1:
            raise UsageError(f"{flag}: give one directory, or card names (got {shown(values)})")
        return dirs[0]
    names = [n.strip() for v in values for n in v.split(",")]
    for n in names:
        if not n:
            raise UsageError(f"{flag}: an empty card name in {shown(','.join(values))}")
    return names


def as_flag_error(exc: InputError, flags: dict) -> InputError:
    """``exc`` naming the flag that set its key (``flags``: API argument -> flag) where one did
    (a key of the API's own arguments, not of a card's file); else ``exc`` itself."""
    flag = flags.get(exc.key.split("[")[0])
    if flag is not None and "." not in exc.key:
        return InputError(flag, exc.value, exc.reason)
    return exc


def matrix_text(frame, metric: str) -> str:
    """The readable output of ``mathhammer matrix``: ``metric``, attackers down and targets
    across (one table per value of the varied parameters)."""
    a = frame.attrs
    if a.get("method") == "exact":
        how = "exact"
    else:
        how = f"Monte Carlo, {a.get('trials'):,} trials per point, seed {a.get('seed')}"
    where = a.get("backend", "local")
    if where == "dask":
        where = f"dask, {a.get('workers')} worker threads"
    header = f"{metric}: attacker vs target ({a.get('points')} points; {how}; {where})"
    lines = metric_tables(frame, metric, ["attacker", "target"], header, what="matrix")
    skipped = a.get("skipped") or []
    if skipped:
        lines += ["", f"target-only cards left out of the attackers: {', '.join(skipped)}"]
    if a.get("out"):
        lines += ["", f"every figure of every pair: {a['out']}"]
    return "\n".join(lines)


def matrix_command(args: argparse.Namespace) -> int:
    from ..studies.matrices import matrix
    from ..studies.points import RunInterrupted

    if args.resume and args.out is None:
        raise UsageError("--resume needs --out FILE, the file of the matrix to resume")
    check_plot(args)
    metric_of(args)  # a --metric nothing would read is refused before any point
    vary = parse_vary(args.vary)
    try:
        frame = matrix(
            deck_arg(args.attackers, "--attackers"), deck_arg(args.targets, "--targets"),
            vary=vary or None, trials=args.trials, seed=args.seed, method=args.method,
            cards=card_dirs_for(args), all_actions=args.all_actions,
            scheduler=args.scheduler, workers=args.workers, batch=args.batch, out=args.out,
            resume=args.resume, progress=points_progress(args),
            turns=args.turns, objective=args.objective)
    except RunInterrupted as exc:
        return interrupted(exc, "FILE.parquet")
    except InputError as exc:
        raise as_flag_error(exc, _FLAGS) from None
    if args.plot is not None:
        _plot(frame, args)
    write_frame(frame, args, ("method", "trials", "seed", "backend", "workers", "batch",
                              "points", "computed", "out"), matrix_text)
    if args.plot is not None:
        sys.stderr.write(f"{PROG}: wrote the heatmap to {args.plot}\n")
    return EXIT_OK


def _plot(frame, args: argparse.Namespace) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from ..plots import plot_matrix, save_figure

    params = [c for c in frame.columns
              if c not in ("attacker", "target", "metric", "value", "ci_low", "ci_high")]
    where = {p: frame[p].iloc[-1] for p in params if frame[p].nunique() > 1}
    n_t, n_a = frame["target"].nunique(), frame["attacker"].nunique()
    fig = Figure(figsize=(min(4 + 0.6 * n_t, 30), min(3 + 0.45 * n_a, 30)),
                 layout="constrained")
    try:
        plot_matrix(frame, metric_of(args), ax=fig.add_subplot(), where=where or None)
    except ValueError as exc:
        raise InputError("--metric", metric_of(args), str(exc)) from None
    save_figure(fig, args.plot, overwrite=bool(getattr(args, "force", False)))
