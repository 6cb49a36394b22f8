"""``mathhammer plan SCENARIO.toml``: plan the turn of a battlegroup (docs/turn.md)."""

from __future__ import annotations

import json

from ._common import EXIT_OK, int_arg, write
from .cards import add_cards_flag, card_dirs_for

__all__ = ["add_parsers"]


def add_parsers(sub) -> None:
    p = sub.add_parser("plan", help="plan the turn: where a battlegroup's focus goes, who activates first",
                       description="Play every allocation of each battlegroup's focus (a warcaster's "
                       "controls = [...]) in every order of the attackers, exactly, each activation by "
                       "best play (docs/turn.md). Prints the best plan in a player's words against the "
                       "file's own plan and an even allocation, then the best --top plans.")
    p.add_argument("scenario", metavar="SCENARIO.toml", help="a scenario file with a battlegroup")
    p.add_argument("--top", type=int_arg("top", 1, 10_000), default=10, metavar="N",
                   help="plans listed, best first (default 10)")
    p.add_argument("--json", action="store_true", help="print the plans as one JSON object")
    add_cards_flag(p)
    p.set_defaults(handler=_plan)


def _plan(args) -> int:
    from ..io.scenario_files import load_scenario
    from ..play.turn import plan_turn

    plans = plan_turn(load_scenario(args.scenario, cards=card_dirs_for(args)))
    if args.json:
        write(json.dumps(plans.to_dict(args.top)))
        return EXIT_OK
    frame = plans.frame().head(args.top)
    write(plans.summary() + "\n\n" + frame.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    return EXIT_OK
