"""``mathhammer app``: the explorer as a page on this machine (127.0.0.1), one
:class:`~mathhammer.app.view.Explorer` per browser tab."""

from __future__ import annotations

import errno
import socket

import panel as pn

from ..errors import InputError
from ..explorer import ADDRESS, DEFAULT_PORT
from .view import Explorer

__all__ = ["serve"]


def serve(port: int = DEFAULT_PORT, *, show: bool = True, scenario=None, method: str = "auto") -> None:
    """Serve the explorer on ``127.0.0.1:port`` (``port=0``: any free port) and open it in the
    browser when ``show``; blocks until interrupted.

    Each browser tab gets its own explorer of ``scenario`` (the heavy warjack matchup when
    None), computed by ``method``.
    """
    _check_port(port)
    pn.extension()
    Explorer(scenario, method)  # a bad scenario or method is refused before serving

    def page():
        explorer = Explorer(scenario, method)
        pn.state.on_session_destroyed(lambda context: explorer.runner.close())
        return explorer.panel()

    origins = [f"{ADDRESS}:{port}", f"localhost:{port}"] if port else ["*"]
    pn.serve({"/": page}, port=port, address=ADDRESS, show=show, title="mathhammer explorer",
             websocket_origin=origins)


def _check_port(port: int) -> None:
    """Refuse, in one line, a port another program already listens on, and suggest a free one
    (the web server's own error is a traceback)."""
    if not port:
        return
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((ADDRESS, port))
        except OSError as exc:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as free:
                free.bind((ADDRESS, 0))
                other = free.getsockname()[1]
            why = "is in use" if exc.errno == errno.EADDRINUSE else f"cannot be used ({exc.strerror or exc})"
            raise InputError("--port", port, f"{why} on {ADDRESS}: give another, e.g. --port {other}, "
                             "or --port 0 for any free port") from None
