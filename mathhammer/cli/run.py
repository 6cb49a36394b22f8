"""``mathhammer run SCENARIO.toml`` and ``mathhammer demo``: simulate one scenario."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys

from ..rules.vocabulary import GRID_LETTERS, OBJECTIVES, SPIRAL_LETTERS
from ._common import EXIT_OK, PROG, UsageError, add_trials_seed, write
from .cards import add_cards_flag, card_dirs_for


def _objective(text: str) -> str:
    """kill, damage, destroyed or cripple:X (X a system or aspect letter; whether the
    target's card has it is checked with the scenario)."""
    if (text in OBJECTIVES and text != "cripple:X") or (
            text.startswith("cripple:") and len(text) == 9 and text[-1] in GRID_LETTERS + SPIRAL_LETTERS):
        return text
    raise UsageError(f"--objective: must be kill, damage, destroyed or cripple:X with X a system or "
                     f"aspect letter ({GRID_LETTERS}, {SPIRAL_LETTERS}) (got {text!r})")


def add_common(p: argparse.ArgumentParser, file: bool = True) -> None:
    """Flags of every command that simulates: trials, seed, method, objective (``file``:
    the command reads a scenario file, whose settings they override)."""
    over = " (overrides the file)" if file else ""
    add_trials_seed(p, "Monte Carlo sample size" + over, "random seed" + over)
    p.add_argument("--method", choices=("monte_carlo", "mc", "exact"), default="monte_carlo",
                   help="monte_carlo (default) or exact (exact engine, where it applies)")
    p.add_argument("--objective", type=_objective, default=None, metavar="OBJECTIVE",
                   help='kill | damage | destroyed | cripple:X: what best play and policy = '
                   '"optimize" maximise' + over)


def add_parsers(sub) -> None:
    run = sub.add_parser(
        "run", help="simulate a scenario TOML file, or library cards against each other",
        description="Simulate the scenario described by a TOML file, or cards of the library "
        "(mathhammer cards): --attacker CARD [--attacker CARD ...] --target CARD. With a "
        "file, --target and --attacker replace its target and attackers.")
    run.add_argument("scenario", metavar="SCENARIO.toml", nargs="?", default=None,
                     help="scenario file (optional with --attacker and --target)")
    run.add_argument("--attacker", action="append", default=None, metavar="CARD",
                     help="an attacking card, in order (repeatable); CARD:ACTION picks "
                     "melee, ranged or arcane weapons, e.g. infantry:ranged, or a power attack, "
                     "heavy_warjack:headbutt or :slam")
    run.add_argument("--target", default=None, metavar="CARD", help="the target's card")
    add_cards_flag(run)
    _flags(run)
    demo = sub.add_parser("demo", help="simulate the bundled demo scenario",
                          description="Simulate the bundled demo scenario (demo.toml).")
    _flags(demo)
    run.set_defaults(handler=run_command)
    demo.set_defaults(handler=run_command)


def _flags(p: argparse.ArgumentParser) -> None:
    add_common(p)
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress on stderr once the run has lasted a second (trials, or the "
                   "exact engine's transitions); default: when stderr is a terminal")
    p.add_argument("--json", action="store_true",
                   help="print the result as one JSON object instead of a report")
    add_csv_flags(p)
    p.add_argument("--plot", metavar="FILE.png", default=None,
                   help="also draw the main figure (damage distribution, the card with its "
                   "mark odds, cripple odds, kill by round) into FILE (.png, .svg or .pdf)")


def check_plot(args: argparse.Namespace) -> None:
    """Fail fast, before simulating, on a ``--plot`` file that has a bad suffix, exists
    (without ``--force``), or cannot be created (its folder is missing or not writable)."""
    if getattr(args, "plot", None) is None:
        return
    import os

    from .._core.paths import file_to_write
    from ..errors import InputError
    from ..plots.figure import PLOT_SUFFIXES

    path = file_to_write("--plot", args.plot, "figure file")  # a path, its folder writable, no folder or device
    if path.suffix.lower() not in PLOT_SUFFIXES:
        raise InputError("--plot", args.plot, "must end in .png, .svg or .pdf")
    if path.exists() and not getattr(args, "force", False):
        raise InputError("--plot", args.plot, f"already exists; {_CSV_HINT}")
    if path.exists() and not os.access(path, os.W_OK):
        raise InputError("--plot", args.plot, "cannot be written (permission denied)")


def write_plot(args: argparse.Namespace, result) -> str | None:
    """Draw the main figure of ``result`` into ``--plot FILE``; return the line saying so."""
    if getattr(args, "plot", None) is None:
        return None
    from ..plots import write_main_figure

    write_main_figure(result, args.plot, overwrite=bool(getattr(args, "force", False)))
    return f"{PROG}: wrote the figure to {args.plot}"


def add_csv_flags(p) -> None:
    """``--csv DIR`` (write every table of the result as CSV) and ``--force`` (refused
    without ``--csv`` or ``--plot``: ``p`` is a :class:`~mathhammer.cli._common.Parser`)."""
    p.add_argument("--csv", metavar="DIR", default=None,
                   help="also write every table of the result into DIR, one CSV file each "
                   "(summary, damage, attacks, and where they apply cripple, cripple_after, "
                   "by_turn, effects, boxes); DIR is created if missing")
    p.add_argument("--force", action="store_true",
                   help="let --csv and --plot overwrite files that already exist")
    p.needs("--force", ("--csv", "--plot"), "lets --csv and --plot overwrite files that exist")


_CSV_HINT = "pass --force to overwrite"


def check_csv(args: argparse.Namespace, scenario) -> None:
    """Fail fast, before simulating, when ``--csv DIR`` would overwrite a file (checked
    again when writing)."""
    if getattr(args, "csv", None) is None:
        return
    from ..result.export import check_csv_target
    from ..result.frames import table_names

    check_csv_target(args.csv, table_names(scenario), overwrite=args.force, key="--csv",
                     hint=_CSV_HINT)


def write_csv_tables(args: argparse.Namespace, result) -> str | None:
    """Write every table of ``result`` into ``--csv DIR``; return the line saying what was
    written (None without ``--csv``). Raises InputError on a clash, before writing anything."""
    if getattr(args, "csv", None) is None:
        return None
    from ..result.export import write_frames
    from ..result.frames import tables

    paths = write_frames(tables(result), args.csv, overwrite=args.force, key="--csv",
                         hint=_CSV_HINT)
    return f"{PROG}: wrote {len(paths)} tables to {args.csv}: " + ", ".join(p.name for p in paths)


def _from_cards(args: argparse.Namespace):
    """``run`` with cards: a scenario of cards, or the file's with its target / attackers
    replaced by cards."""
    from ..io.dump import scenario_to_dict
    from ..io.scenario_files import load_scenario, scenario_from_dict

    dirs = card_dirs_for(args)
    if args.scenario is None:
        if not args.attacker or not args.target:
            raise UsageError("run needs SCENARIO.toml, or --attacker CARD and --target CARD")
        return _flag_cards(args, args.target, dirs)
    scenario = load_scenario(args.scenario, cards=dirs)
    if not args.attacker and not args.target:
        return scenario
    if args.target and scenario.several:
        raise UsageError(f"--target {args.target}: {args.scenario} has several targets "
                         "([[targets]]); --target replaces the one target of a file")
    data = scenario_to_dict(scenario)
    if args.target:
        data["target"] = {"card": args.target}
    if args.attacker:
        data["attackers"] = scenario_to_dict(
            _flag_cards(args, args.target or "infantry", dirs))["attackers"]
    return scenario_from_dict(data, source=f"{args.scenario} with cards", cards=dirs)


def _flag_cards(args: argparse.Namespace, target: str, dirs):
    """The scenario of the ``--attacker`` cards against ``target``; a bad card or action is
    an error naming the flag (``--attacker``, ``--target``) and the value given to it."""
    import re

    from ..errors import InputError
    from ..io.scenario_files import scenario_from_cards

    try:
        return scenario_from_cards(args.attacker, target, dirs, source="command line")
    except InputError as err:
        m = re.fullmatch(r"(attackers\[(\d+)\]|target)\.(card|action)", err.key)
        if m is None:
            raise
        flag, given = (("--target", target) if m[1] == "target"
                       else ("--attacker", args.attacker[int(m[2])]))
        if m[3] == "card":
            raise InputError(flag, given, err.reason) from None
        reason = f"the action {err.reason}" if err.reason.startswith("must") else err.reason
        raise InputError(f"{flag} {given}", err.value, reason) from None


def load_for(args: argparse.Namespace):
    """The scenario a ``run``/``demo`` command line names, with its overrides applied."""
    from ..io.scenario_files import demo_scenario

    scenario = demo_scenario() if args.command == "demo" else _from_cards(args)
    if args.objective is not None:
        scenario = dataclasses.replace(scenario, objective=args.objective)
    return scenario


def run_command(args: argparse.Namespace) -> int:
    from ..simulation import simulate

    scenario = load_for(args)
    if args.method == "exact" and (args.trials is not None or args.seed is not None):
        raise UsageError("argument --trials/--seed: only with --method monte_carlo (the exact method "
                         "computes without trials or a seed)")
    check_csv(args, scenario)
    check_plot(args)
    result = simulate(scenario, trials=args.trials, seed=args.seed, method=args.method,
                      progress=args.progress)
    written = [w for w in (write_csv_tables(args, result), write_plot(args, result)) if w]
    if args.json:
        text = json.dumps(result.to_dict())
    else:
        from ..result.text import format_report

        text = format_report(scenario, result)
    write(text)
    for line in written:
        sys.stderr.write(line + "\n")
    return EXIT_OK
