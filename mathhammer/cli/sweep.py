"""``mathhammer sweep`` (a scenario over a grid of parameter values) and ``mathhammer compare``
(loadouts side by side).

::

    mathhammer sweep jack.toml --vary target.arm=14:22 --vary target.def=10:16 --out arm_def.csv
    mathhammer sweep jack.toml --vary attackers.0.spend.boost_attack=never,always,auto --json
    mathhammer compare fist.toml axe.toml --label Fist --label Axe --plot fist_axe.png
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
from pathlib import Path

from ..errors import InputError
from ._common import EXIT_OK, PROG, UsageError, add_progress_flag, points_progress, write
from .cards import add_cards_flag, card_dirs_for
from .run import add_common, check_plot

EXIT_INTERRUPTED = 130


def add_parsers(sub) -> None:
    sw = sub.add_parser(
        "sweep", help="simulate a scenario over a grid of parameter values",
        description="Simulate a scenario (or several loadouts) at every point of the grid of "
        "the --vary parameters, with one seed and common random numbers, and print a metric "
        "over the first two parameters (or every figure as JSON / CSV).")
    sw.add_argument("scenarios", nargs="+", metavar="SCENARIO.toml",
                    help="scenario file; several: loadouts swept over the same grid")
    sw.add_argument("--vary", action="append", required=True, metavar="PATH=VALUES",
                    help="a parameter and its values: target.arm=14:22 (inclusive range), "
                    "14:22:2 (step), a,b,c (list), or one value; paths: target.def, "
                    "attackers.0.focus, attackers.NAME.weapons.NAME.pow, "
                    "attackers.0.spend.boost_attack, simulation.turns, ... (repeatable)")
    sw.add_argument("--label", action="append", default=None, metavar="NAME",
                    help="name of each loadout, in the order of the files (default: file names)")
    sw.add_argument("--out", default=None, metavar="FILE.csv",
                    help="append the rows to this CSV file point by point (never overwritten)")
    sw.add_argument("--resume", action="store_true",
                    help="continue the sweep --out holds: compute only the missing points")
    sw.add_argument("--metric", default=None, metavar="METRIC",
                    help="figure the table shows (kill, damage_mean, cripple:X, ...; "
                    "default kill)")
    add_progress_flag(sw, "")
    add_plot_flags(sw, "also draw the metric into FILE (.png, .svg or .pdf): a heatmap "
                   "over two --vary parameters (one per loadout), lines over one (one per "
                   "loadout, with 95%% bands)")
    fmt = sw.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print every figure as JSON")
    fmt.add_argument("--csv", action="store_true", help="print the long frame as CSV")
    add_common(sw)
    add_cards_flag(sw)
    sw.set_defaults(handler=sweep_command)

    cmp_ = sub.add_parser(
        "compare", help="compare loadouts side by side",
        description="Simulate two or more scenario files with one seed and common random "
        "numbers; print their figures side by side and which is better, with the 95% "
        "interval of the difference.")
    cmp_.add_argument("scenarios", nargs="+", metavar="SCENARIO.toml",
                      help="two or more scenario files (the loadouts)")
    cmp_.add_argument("--label", action="append", default=None, metavar="NAME",
                      help="name of each loadout, in the order of the files (default: file "
                      "names)")
    cmp_.add_argument("--json", action="store_true", help="print the comparison as JSON")
    add_plot_flags(cmp_, "also draw the loadouts side by side into FILE (.png, .svg or "
                   ".pdf): kill and mean damage (and models destroyed against a unit), "
                   "each with its 95%% interval and the verdict")
    add_common(cmp_)
    add_cards_flag(cmp_)
    cmp_.set_defaults(handler=compare_command)


# ---------------------------------------------------------------------------- helpers
def add_plot_flags(p, help_text: str) -> None:
    """``--plot FILE`` (checked before computing: :func:`~mathhammer.cli.run.check_plot`)
    and ``--force`` (let it overwrite its file; refused without ``--plot``)."""
    p.add_argument("--plot", default=None, metavar="FILE.png", help=help_text)
    p.add_argument("--force", action="store_true", help="let --plot overwrite its file")
    p.needs("--force", ("--plot",), "lets --plot overwrite its file")


def _save_plot(figure, args: argparse.Namespace, what: str) -> None:
    """Write ``figure()`` into ``--plot`` (nothing without it) and say so on stderr."""
    if args.plot is None:
        return
    import matplotlib

    matplotlib.use("Agg")
    from ..plots import save_figure

    try:
        fig = figure()
    except ValueError as exc:  # a metric the figure cannot draw
        raise InputError("--metric", metric_of(args), str(exc)) from None
    save_figure(fig, args.plot, overwrite=bool(getattr(args, "force", False)))
    sys.stderr.write(f"{PROG}: wrote the {what} to {args.plot}\n")


def _labels(args: argparse.Namespace) -> list[str]:
    files = args.scenarios
    if args.label is not None:
        if len(args.label) != len(files):
            raise UsageError(f"--label: give one per scenario file ({len(files)}), "
                             f"got {len(args.label)}")
        labels = [x.strip() for x in args.label]
        for x in labels:
            if not x:
                raise UsageError("--label: must not be empty")
        if len(set(labels)) != len(labels):
            dup = next(x for x in labels if labels.count(x) > 1)
            raise UsageError(f"--label: {dup!r} is given twice")
        return labels
    stems = [Path(f).stem or f for f in files]
    if len(set(stems)) == len(stems):
        return stems
    if len(set(files)) == len(files):
        return list(files)
    dup = next(f for f in files if files.count(f) > 1)
    raise UsageError(f"{dup} is given twice; name the loadouts with --label")


def _load(args: argparse.Namespace) -> dict:
    from ..io.scenario_files import load_scenario

    dirs = card_dirs_for(args)
    out = {}
    for label, path in zip(_labels(args), args.scenarios):
        scen = load_scenario(path, cards=dirs)
        if args.objective is not None:
            scen = dataclasses.replace(scen, objective=args.objective)
        out[label] = scen
    return out


def _num(x):
    if isinstance(x, float) and math.isnan(x):
        return None
    if hasattr(x, "item"):
        return _num(x.item())
    return x


def _fmt(value: float, probability: bool) -> str:
    if math.isnan(value):
        return "-"
    return f"{100 * value:.1f}%" if probability else f"{value:.2f}"


def _grid_text(rows, params: list[str], metric: str, probability: bool) -> list[str]:
    """One table: the first parameter down, the second across (or a single column)."""
    if len(params) == 1:
        p = params[0]
        cells = [[p, metric]] + [[str(v), _fmt(x, probability)]
                                 for v, x in zip(rows[p], rows["value"])]
    else:
        p, q = params[0], params[1]
        across = list(dict.fromkeys(rows[q]))
        down = list(dict.fromkeys(rows[p]))
        value = {(a, b): x for a, b, x in zip(rows[p], rows[q], rows["value"])}
        cells = [[f"{p} \\ {q}"] + [str(b) for b in across]]
        for a in down:
            cells.append([str(a)] + [_fmt(value.get((a, b), math.nan), probability)
                                     for b in across])
    widths = [max(len(r[i]) for r in cells) for i in range(len(cells[0]))]
    return ["  ".join([r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])])
            .rstrip() for r in cells]


def metric_tables(frame, metric: str, shown: list[str], header: str,
                  what: str = "sweep") -> list[str]:
    """``header``, then ``metric`` as tables over the two columns ``shown`` (the first down,
    the second across), one per value of the frame's other key columns."""
    from ..result.metrics import SUMMARY_COLUMNS, is_probability

    rows = frame[frame["metric"] == metric]
    if rows.empty:
        have = ", ".join(dict.fromkeys(frame["metric"]))
        raise InputError("--metric", metric, f"is not a figure of this {what} (it has {have})")
    keys = [c for c in frame.columns if c not in SUMMARY_COLUMNS]
    outer = [c for c in keys if c not in shown]
    probability = is_probability(metric)
    lines = [header]
    groups = [((), rows)] if not outer else rows.groupby(outer, sort=False)
    for key, part in groups:
        lines.append("")
        if outer:
            key = key if isinstance(key, tuple) else (key,)
            lines.append(", ".join(f"{c} = {v}" for c, v in zip(outer, key)))
        lines += _grid_text(part, shown, metric, probability)
    return lines


def sweep_text(frame, metric: str) -> str:
    """The readable output of ``mathhammer sweep``: ``metric`` over the first two
    parameters, one table per loadout and per value of the other parameters."""
    from ..result.metrics import SUMMARY_COLUMNS

    params = [c for c in frame.columns if c not in SUMMARY_COLUMNS and c != "loadout"]
    shown = params[:2]
    a = frame.attrs
    if a.get("method") == "exact":
        how = "exact"
    else:
        how = (f"Monte Carlo, {a.get('trials'):,} trials, seed {a.get('seed')}, "
               "common random numbers")
    header = f"{metric} over {' x '.join(shown)} ({a.get('points')} points; {how})"
    lines = metric_tables(frame, metric, shown, header)
    if a.get("out"):
        lines += ["", f"every figure of every point: {a['out']}"]
    return "\n".join(lines)


def metric_of(args: argparse.Namespace) -> str:
    """The figure ``--metric`` names (``kill`` by default). With ``--json`` or ``--csv`` every
    figure is printed, so a ``--metric`` would choose nothing there unless a ``--plot`` draws
    it: refused in one line rather than ignored."""
    if args.metric is not None and (args.json or args.csv) and getattr(args, "plot", None) is None:
        raise UsageError(f"--metric: with --{'json' if args.json else 'csv'} every figure is printed; "
                         "--metric chooses the figure of the text table and of --plot (give one of them)")
    return "kill" if args.metric is None else args.metric


def write_frame(frame, args: argparse.Namespace, attrs: tuple[str, ...], text, **extra) -> None:
    """Print a long frame of points (sweep, matrix): ``--json`` (``attrs`` of the frame,
    ``extra``, ``columns`` and ``rows``), ``--csv``, or ``text(frame, args.metric)``."""
    if args.json:
        out = {k: frame.attrs.get(k) for k in attrs}
        out.update(extra)
        out["columns"] = list(frame.columns)
        out["rows"] = [{c: _num(v) for c, v in zip(frame.columns, row)}
                       for row in frame.itertuples(index=False)]
        write(json.dumps(out))
    elif args.csv:
        write(frame.to_csv(index=False, lineterminator="\n"))
    else:
        write(text(frame, metric_of(args)))


def parse_vary(specs) -> dict[str, list]:
    """``--vary PATH=VALUES`` flags as ``{path: values}``; a path given twice is refused."""
    from ..studies.grids import parse_spec

    vary: dict[str, list] = {}
    for spec in specs or ():
        path, values = parse_spec(spec)
        if path in vary:
            raise InputError("--vary", spec, f"{path} is varied twice")
        vary[path] = values
    return vary


def interrupted(exc, out_hint: str) -> int:
    """Say how many points an interrupted run (sweep, matrix) finished and where they are;
    return exit status 130."""
    again = "--resume" if exc.kept == exc.out else f"--out {exc.out} --resume"
    kept = (f"the finished points are kept in {exc.kept} (run again with {again} to finish)"
            if exc.out else f"nothing was kept (use --out {out_hint} to keep points as they "
            "finish)")
    sys.stderr.write(f"{PROG}: interrupted after {exc.done} of {exc.total} points; {kept}\n")
    return EXIT_INTERRUPTED


# ---------------------------------------------------------------------------- commands
def sweep_command(args: argparse.Namespace) -> int:
    from ..studies.points import RunInterrupted
    from ..studies.sweeps import sweep

    if args.resume and args.out is None:
        raise UsageError("--resume needs --out FILE.csv, the file of the sweep to resume")
    vary = parse_vary(args.vary)
    for path in vary:  # --objective and a varied objective: the varied values would win
        if args.objective is not None and path.strip().lower().replace("-", "_") == "simulation.objective":
            raise UsageError(f"--objective: is also varied (--vary {path}): give it once, as the "
                             "flag or as a varied parameter")
    check_plot(args)
    metric_of(args)  # a --metric nothing would read is refused before any point
    if args.plot is not None and len(vary) > 2:
        raise InputError("--plot", args.plot, "draws a sweep over one or two --vary "
                         f"parameters (this one has {len(vary)}); use --out and plot the "
                         "frame from Python")
    scenarios = _load(args)
    target = scenarios if len(scenarios) > 1 else next(iter(scenarios.values()))
    try:
        frame = sweep(target, vary, trials=args.trials, seed=args.seed, method=args.method,
                      out=args.out, resume=args.resume,
                      progress=points_progress(args))
    except RunInterrupted as exc:
        return interrupted(exc, "FILE.csv")
    except InputError as exc:
        flag = {"vary": "--vary", "out": "--out", "resume": "--resume"}.get(exc.key)
        if flag is None and exc.key in vary:  # a bad value of a varied path
            flag = f"--vary {exc.key}"
        if flag is not None:
            raise InputError(flag, exc.value, exc.reason) from None
        raise
    vary = {k: [_num(v) for v in vs] for k, vs in frame.attrs["vary"].items()}
    write_frame(frame, args, ("method", "trials", "seed", "stride", "points", "computed", "out"),
                sweep_text, vary=vary)
    from ..plots import sweep_figure

    _save_plot(lambda: sweep_figure(frame, metric_of(args)), args,
               "heatmap" if len(vary) == 2 else "figure")
    return EXIT_OK


def compare_command(args: argparse.Namespace) -> int:
    from ..studies.comparisons import compare

    if len(args.scenarios) < 2:
        raise UsageError("compare needs at least two scenario files")
    check_plot(args)
    comparison = compare(_load(args), trials=args.trials, seed=args.seed, method=args.method)
    write(json.dumps(comparison.to_dict()) if args.json else str(comparison))
    from ..plots import compare_figure

    _save_plot(lambda: compare_figure(comparison), args, "comparison")
    return EXIT_OK
