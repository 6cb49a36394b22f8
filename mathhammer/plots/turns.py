"""Kill probability by the end of each round."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from ..errors import NO_VALUE, InputError
from ._common import BAND_ALPHA, check_flags, get_axes, integer_axis, need_result, percent_axis

__all__ = ["plot_kill_by_turn"]


def plot_kill_by_turn(result_or_results, *, ax: Axes | None = None, band: bool = True,
                      **kwargs) -> Axes:
    """Cumulative probability the target is killed by the end of round 1, 2, ... (one line
    with markers), with the 95% band of each figure (none for exact results).

    ``result_or_results`` is a :class:`~mathhammer.result.Result` or a dict
    ``{label: Result}`` (one line each, with a legend). Extra keyword arguments go to
    :meth:`~matplotlib.axes.Axes.plot`.
    """
    check_flags(band=band)
    if isinstance(result_or_results, dict):
        if not result_or_results:
            raise InputError("plot_kill_by_turn", NO_VALUE, "the dict of results is empty")
        items = list(result_or_results.items())
        for label, result in items:
            need_result(result, f"plot_kill_by_turn[{label!r}]")
        legend = True
    else:
        r = result_or_results
        need_result(r, "plot_kill_by_turn")
        items = [(r.target_name or "kill", r)]
        legend = False
    ax = get_axes(ax)
    kwargs.setdefault("marker", "o")
    top = 0.0  # the highest figure drawn (its band's top), for the y axis
    for label, result in items:
        rows = result.turn_rows
        turns = np.array([row["turn"] for row in rows])
        line, = ax.plot(turns, result.kill_by_turn, label=str(label), **kwargs)
        top = max(top, float(np.max(result.kill_by_turn)))
        if band and not result.exact:
            lo = np.array([row["kill_ci95"][0] for row in rows])
            hi = np.array([row["kill_ci95"][1] for row in rows])
            ax.fill_between(turns, lo, hi, color=line.get_color(), alpha=BAND_ALPHA,
                            linewidth=0)
            top = max(top, float(np.max(hi)))
    ax.set_xlabel("round")
    ax.set_ylabel("P(killed by the end of the round)")
    # the curve's own scale (an 8 % curve is not flattened on a 0-100 % axis), 5 % at least
    ax.set_ylim(0, min(1.02, max(0.05, 1.15 * top)))
    n = max(result.turns for _, result in items)
    ax.set_xlim(0.75, n + 0.25)
    if n <= 12:  # a tick per round (one round: just "1", not 0.75 ... 1.25)
        ax.set_xticks(np.arange(1, n + 1))
    else:
        integer_axis(ax.xaxis)
    percent_axis(ax.yaxis)
    ax.grid(True, alpha=0.3)
    if legend:
        ax.legend(fontsize="small")
    title = "Kill probability by round"
    if not legend:
        title += f": {items[0][1].target_name}" if items[0][1].target_name else ""
    ax.set_title(title)
    return ax
