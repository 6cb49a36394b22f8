"""``mathhammer app``: the explorer as a page on this machine (127.0.0.1), one
:class:`~mathhammer.app.view.Explorer` per browser tab."""

from __future__ import annotations

import panel as pn

from ..explorer import ADDRESS, DEFAULT_PORT
from .view import Explorer

__all__ = ["serve"]


def serve(port: int = DEFAULT_PORT, *, show: bool = True, scenario=None, method: str = "auto") -> None:
    """Serve the explorer on ``127.0.0.1:port`` (``port=0``: any free port) and open it in the
    browser when ``show``; blocks until interrupted.

    Each browser tab gets its own explorer of ``scenario`` (the heavy warjack matchup when
    None), computed by ``method``.
    """
    pn.extension()
    Explorer(scenario, method)  # a bad scenario or method is refused before serving

    def page():
        explorer = Explorer(scenario, method)
        pn.state.on_session_destroyed(lambda context: explorer.runner.close())
        return explorer.panel()

    origins = [f"{ADDRESS}:{port}", f"localhost:{port}"] if port else ["*"]
    pn.serve({"/": page}, port=port, address=ADDRESS, show=show, title="mathhammer explorer",
             websocket_origin=origins)
