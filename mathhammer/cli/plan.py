"""``mathhammer plan SCENARIO.toml``: plan the turn of a battlegroup (docs/turn.md)."""

from __future__ import annotations

import json

from ._common import EXIT_OK, add_trials_seed, int_arg, write
from .cards import add_cards_flag, card_dirs_for
from .run import check_plot

__all__ = ["add_parsers"]

#: Allocations run by Monte Carlo after planning on a grid's or spiral's track relaxation.
CONFIRM_ON_A_CARD = 5


def add_parsers(sub) -> None:
    p = sub.add_parser("plan", help="plan the turn: where a battlegroup's focus goes, who activates first",
                       description="Play every allocation of each battlegroup's focus (a warcaster's "
                       "controls = [...]) in every order of the attackers and in the adaptive order (the "
                       "next attacker picked after seeing the last activation), exactly, each activation "
                       "by best play (docs/turn.md). Prints the best plan in a player's words against the "
                       "best fixed order, the file's own plan and an even allocation, then the best --top "
                       "plans. Against a grid or spiral the plans are ranked on its track relaxation and "
                       "the best --confirm allocations, the file's plan and an even allocation are run on "
                       "the card by Monte Carlo with common random numbers.")
    p.add_argument("scenario", metavar="SCENARIO.toml", help="a scenario file with a battlegroup")
    p.add_argument("--top", type=int_arg("top", 1, 10_000), default=10, metavar="N",
                   help="plans listed, best first (default 10)")
    p.add_argument("--json", action="store_true", help="print the plans as one JSON object")
    p.add_argument("--fixed-orders", action="store_true",
                   help="plan fixed orders only (no adaptive order: who goes next is decided before the turn)")
    p.add_argument("--confirm", type=int_arg("confirm", 0, 100), default=None, metavar="N",
                   help=f"allocations run by Monte Carlo (default {CONFIRM_ON_A_CARD} against a grid or "
                   "spiral, 0 against a track: its plans are exact)")
    add_trials_seed(p, "Monte Carlo sample size of each plan run (default: the file's)",
                    "Monte Carlo seed, the same for every plan run (default: the file's)")
    p.add_argument("--plot", metavar="FILE.png",
                   help="draw the best plans with their figures (and Monte Carlo intervals) into FILE "
                   "(.png, .svg or .pdf)")
    p.add_argument("--force", action="store_true", help="let --plot overwrite a file that exists")
    p.needs("--force", ("--plot",), "lets --plot overwrite its file")
    add_cards_flag(p)
    p.set_defaults(handler=_plan)


def _plan(args) -> int:
    from ..io.scenario_files import load_scenario
    from ..play.turn import plan_turn
    from ..studies.plan_checks import check_plans

    check_plot(args)
    plans = plan_turn(load_scenario(args.scenario, cards=card_dirs_for(args)), adaptive=not args.fixed_orders)
    confirm = args.confirm
    if confirm is None:
        confirm = CONFIRM_ON_A_CARD if plans.solved_on != "exact" else 0
    checked = check_plans(plans, confirm, args.trials, args.seed) if confirm else None
    if args.plot:
        from ..plots.figure import save_figure
        from ..plots.plans import plans_figure

        save_figure(plans_figure(plans, checked), args.plot, overwrite=args.force)
    if args.json:
        data = plans.to_dict(args.top)
        if checked is not None:
            data["monte_carlo"] = checked.to_dict()
        write(json.dumps(data))
        return EXIT_OK
    frame = plans.frame().head(args.top)
    text = plans.summary()
    if checked is not None:
        text += "\n" + checked.summary()
    write(text + "\n\n" + frame.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    return EXIT_OK
