"""``mathhammer app``: the explorer as a page on this machine (127.0.0.1), or with ``--host`` on
the network (a phone at the table), one :class:`~mathhammer.app.view.Explorer` per browser
tab."""

from __future__ import annotations

import errno
import os
import socket
import sys

import panel as pn

from ..errors import InputError
from ..explorer import ADDRESS, DEFAULT_PORT, EVERY_INTERFACE
from .view import Explorer

__all__ = ["serve", "PAGE"]

#: The served page: Panel's own, with the viewport a phone needs to lay it out at its width
#: (without it a phone draws the page as a desktop one, shrunk).
PAGE = """{% extends base %}
{% block postamble %}<meta name="viewport" content="width=device-width, initial-scale=1">{% endblock %}
{% block contents %}{{ embed(roots.page) }}{% endblock %}
"""


def serve(port: int = DEFAULT_PORT, *, show: bool = True, scenario=None, method: str = "auto",
          address: str = ADDRESS) -> None:
    """Serve the explorer on ``address:port`` (``port=0``: any free port) and open it in the
    browser when ``show``; blocks until interrupted.

    Each browser tab gets its own explorer of ``scenario`` (the heavy warjack matchup when
    None), computed by ``method``. An ``address`` other than this machine's loopback serves
    the page to the network: a one-line warning on stderr says so, with the address to open
    from a phone.
    """
    _check_port(port, address)
    pn.extension()
    Explorer(scenario, method)  # a bad scenario or method is refused before serving

    def page():
        explorer = Explorer(scenario, method)
        pn.state.on_session_destroyed(lambda context: explorer.runner.close())
        out = pn.Template(PAGE)
        out.add_panel("page", explorer.panel())
        return out

    if not port:  # the port is said in the warning and the origins: choose it now
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as free:
            free.bind((address, 0))
            port = free.getsockname()[1]
    hosts = {ADDRESS, "localhost"}
    if address != ADDRESS:
        lan = _lan_address(address)
        hosts |= {address, lan, socket.gethostname()}
        print(f"warning: serving on {address}:{port}: anyone on your network can open this page and run "
              f"computations on this machine (from a phone: http://{lan}:{port}/)", file=sys.stderr, flush=True)
    origins = sorted(f"{h}:{port}" for h in hosts)
    pn.serve({"/": page}, port=port, address=address, show=show, title="mathhammer explorer",
             websocket_origin=origins)


def _lan_address(address: str) -> str:
    """The address a phone on the network opens: ``address`` itself, or for every interface
    the one this machine's outgoing route uses (no packet is sent), else its host name."""
    if address != EVERY_INTERFACE:
        return address
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address: only the route is looked up
            return probe.getsockname()[0]
        except OSError:
            return socket.gethostname()


def _check_port(port: int, address: str = ADDRESS) -> None:
    """Refuse, in one line, an address this machine cannot listen on, and a port another
    program already listens on with a free one suggested (the web server's own errors are
    tracebacks)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((address, 0))
        except (OSError, UnicodeError) as exc:
            raise InputError("--host", address, "is not an address of this machine to listen on "
                             f"({getattr(exc, 'strerror', None) or exc}): give one of its IPv4 addresses, "
                             "or --host alone for every interface") from None
    if not port:
        return
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        if os.name != "nt":
            # as the web server binds (Tornado): connections of a server stopped a moment
            # ago, still closing on that port, do not make it in use; a listener does
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((address, port))
        except OSError as exc:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as free:
                free.bind((address, 0))
                other = free.getsockname()[1]
            why = "is in use" if exc.errno == errno.EADDRINUSE else f"cannot be used ({exc.strerror or exc})"
            raise InputError("--port", port, f"{why} on {address}: give another, e.g. --port {other}, "
                             "or --port 0 for any free port") from None
