"""Damage distribution: P(exactly k) bars and the "k or more" curve."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Patch

from ._common import (BAR_COLOR, KILL_COLOR, at_least_twin, check_flags, get_axes, integer_axis,
                      legend_below, method_note, need_result, percent_axis, target_title)

__all__ = ["plot_damage"]


def plot_damage(result, *, ax: Axes | None = None, at_least: bool = True, **kwargs) -> Axes:
    """Bars of the probability of ending with exactly k damage points marked, k = 0..boxes.

    The last bar (every box marked: the target is disabled) is highlighted and labelled
    with its percentage. With ``at_least``, a twin y-axis (label ``"damage_at_least"``)
    carries the probability of k or more points marked as a line with markers, and both
    axes read on one 0-105 % scale (a value stands at the same height on either); without
    it the bars get the scale of the tallest. The legend sits under the axis, off the
    bars. Extra keyword arguments go to :meth:`~matplotlib.axes.Axes.bar` (``color``
    colours every bar but the last). Without ``ax`` the bars go on a new figure.

    Returns the Axes of the bars.
    """
    check_flags(at_least=at_least)
    need_result(result, "plot_damage")
    ax = get_axes(ax)
    pmf = np.asarray(result.damage_pmf, dtype=float)
    k = np.arange(pmf.size)
    color = kwargs.pop("color", BAR_COLOR)
    kill_color = kwargs.pop("kill_color", KILL_COLOR)
    colors = [color] * (pmf.size - 1) + [kill_color]
    kwargs.setdefault("width", 0.8)
    bars = ax.bar(k, pmf, color=colors, label="P(= k)", **kwargs)
    last = bars.patches[-1]  # the disabled bar, labelled: the figure a player looks for
    ax.annotate(f"{100 * pmf[-1]:.1f}%", (last.get_x() + last.get_width() / 2, pmf[-1]),
                xytext=(0, 2), textcoords="offset points", ha="center", va="bottom",
                fontsize="small", color=kill_color)
    ax.set_xlabel("damage points marked, k")
    ax.set_ylabel("P(exactly k)")
    ax.set_xlim(-0.6, pmf.size - 0.4)
    ax.set_ylim(0, max(float(pmf.max()), 1e-9) * 1.15)  # with the line: 0-105 % on both
    percent_axis(ax.yaxis)
    integer_axis(ax.xaxis)
    ax.set_title(f"{target_title(result, 'Damage marked')} ({method_note(result)})")
    handles = [Patch(color=color, label="P(exactly k)"),
               Patch(color=kill_color, label=f"{'disabled' if result.models == 1 else 'all destroyed'}"
                                             f" (k = {pmf.size - 1})")]
    if at_least:
        twin, line = at_least_twin(ax, k, result.damage_at_least, "damage_at_least")
        handles.append(line)
    legend_below(ax, handles)
    return ax
