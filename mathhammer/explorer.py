"""The way in to the live explorer (:mod:`mathhammer.app`), which needs the ``app`` extra
(``pip install 'mathhammer[app]'``, for Panel): nothing here imports it until asked.
"""

from __future__ import annotations

import importlib.util

from .errors import MathhammerError

__all__ = ["ADDRESS", "DEFAULT_PORT", "EVERY_INTERFACE", "check_panel", "explore"]

#: The port ``mathhammer app`` serves on when none is given.
DEFAULT_PORT = 5006
#: Where it listens: this machine only (the page runs the engines on it).
ADDRESS = "127.0.0.1"
#: Where ``mathhammer app --host`` listens when given no address: every network interface,
#: so that a phone on the same network can open the page.
EVERY_INTERFACE = "0.0.0.0"


def check_panel() -> None:
    """Raise a one-line :class:`~mathhammer.errors.MathhammerError` when Panel is missing."""
    if importlib.util.find_spec("panel") is None:
        raise MathhammerError("the explorer needs Panel: pip install 'mathhammer[app]'")


def explore(scenario=None, method: str = "auto"):
    """The live explorer of ``scenario`` in a notebook: controls for the target and the
    attackers, the answer updated as they change (exact where it is quick, else a Monte Carlo
    estimate refined in stages), the scenario downloadable as TOML.

    Parameters
    ----------
    scenario : Scenario, optional
        What it starts from (None: a heavy warjack against a heavy warjack's grid).
    method : {"auto", "exact", "monte_carlo", "mc"}

    Returns
    -------
    mathhammer.app.view.Explorer
        Shown as the page when it is the cell's value; ``.doc`` is the scenario document,
        ``.last_answer`` the figures on the page.
    """
    check_panel()
    import panel as pn

    from .app.view import Explorer

    pn.extension()
    return Explorer(scenario, method)
