"""``mathhammer app``: the live explorer as a local web page."""

from __future__ import annotations

from ..errors import InputError
from ..explorer import ADDRESS, DEFAULT_PORT, EVERY_INTERFACE, check_panel
from ..io.scenario_files import load_scenario
from ._common import EXIT_OK, int_arg

__all__ = ["add_parsers"]


def add_parsers(sub) -> None:
    p = sub.add_parser("app", help="the live explorer as a page in the browser (needs mathhammer[app])",
                       description="Serve the live explorer on 127.0.0.1 and open it in the browser: "
                       "pick cards, change numbers, read the odds as they change; download the "
                       "scenario as a TOML file that `mathhammer run` reads, and load one back.")
    p.add_argument("scenario", nargs="?", help="a scenario file to start from (default: a heavy "
                   "warjack against a heavy warjack)")
    p.add_argument("--port", type=int_arg("port", 0, 65535), default=DEFAULT_PORT,
                   help=f"port on {ADDRESS} (default {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--host", nargs="?", const=EVERY_INTERFACE, metavar="ADDRESS",
                   help=f"serve beyond this machine, on ADDRESS (alone: {EVERY_INTERFACE}, every network "
                   "interface), so that a phone on the same network can open the page; anyone on that "
                   "network can then use it (never the default)")
    p.add_argument("--no-browser", action="store_true", help="serve without opening the browser")
    p.add_argument("--method", choices=("auto", "exact", "monte_carlo"), default="auto",
                   help="how the page computes (default auto: exact where it answers quickly)")
    p.set_defaults(handler=_app)


def _app(args) -> int:
    check_panel()
    scenario = load_scenario(args.scenario) if args.scenario is not None else None
    if scenario is not None and scenario.several:
        raise InputError("scenario", args.scenario, "has several targets: the explorer's page shows one "
                         "target (run the file with mathhammer run)")
    from ..app.server import serve  # Panel is imported only by this command

    serve(args.port, show=not args.no_browser, scenario=scenario, method=args.method,
          address=args.host or ADDRESS)
    return EXIT_OK
