"""Damage distribution: P(exactly k) bars and the "k or more" curve."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Patch

from ._labels import bar_label, text_color_on
from ._common import (BAR_COLOR, KILL_COLOR, at_least_twin, check_flags, get_axes, integer_axis,
                      legend_below, method_note, need_result, percent_axis, target_title)

__all__ = ["plot_damage"]


def plot_damage(result, *, ax: Axes | None = None, at_least: bool = True, **kwargs) -> Axes:
    """Bars of the probability of ending with exactly k damage points marked, k = 0..boxes.

    The last bar (every box marked: the target is disabled) is highlighted and labelled
    with its percentage (above the bar, or inside its top or raised where the "k or more"
    line passes there: never struck through); where it is over 2.5 times the tallest other
    bar, the bars take the scale of the others and it is drawn cut (a white break across
    it, its percentage on top), so that the others show. With ``at_least``, a twin y-axis (label
    ``"damage_at_least"``) carries the probability of k or more points marked as a line
    with markers, on its own 0-105 % scale. The legend sits under the axis, off the bars.
    Extra keyword arguments go to :meth:`~matplotlib.axes.Axes.bar` (``color`` colours
    every bar but the last). Without ``ax`` the bars go on a new figure.

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
    tallest = float(pmf[:-1].max()) if pmf.size > 1 else 0.0
    cut = tallest > 0 and pmf[-1] > 2.5 * tallest  # the disabled bar would flatten the others
    top = tallest * 1.6 if cut else max(float(pmf.max()), 1e-9) * 1.15
    heights = np.where(k == pmf.size - 1, min(pmf[-1], 0.86 * top), pmf) if cut else pmf
    bars = ax.bar(k, heights, color=colors, label="P(= k)", **kwargs)
    last = bars.patches[-1]  # the disabled bar, labelled: the figure a player looks for
    x0, w = last.get_x(), last.get_width()
    if cut:  # a white break across it: it goes on past the top
        for y in (0.56, 0.64):
            ax.plot([x0 - 0.15 * w, x0 + 1.15 * w], [top * y, top * (y + 0.05)], color="white",
                    linewidth=2.2, solid_capstyle="butt", clip_on=False, zorder=3)
    ax.set_ylim(0, top)
    line = None
    if at_least:  # drawn first: the label keeps clear of its line
        _twin, line = at_least_twin(ax, k, result.damage_at_least, "damage_at_least")
    bar_label(ax, f"{100 * pmf[-1]:.1f}%", x0 + w / 2, heights[-1], heights[-1],
              [line] if line is not None else [], fontsize="small", color=kill_color,
              inside_color=text_color_on(last.get_facecolor()))
    ax.set_xlabel("damage points marked, k")
    ax.set_ylabel("P(exactly k)")
    ax.set_xlim(-0.6, pmf.size - 0.4)
    percent_axis(ax.yaxis)
    integer_axis(ax.xaxis)
    ax.set_title(f"{target_title(result, 'Damage marked')} ({method_note(result)})")
    handles = [Patch(color=color, label="P(exactly k)"),
               Patch(color=kill_color, label=f"{'disabled' if result.models == 1 else 'all destroyed'}"
                                             f" (k = {pmf.size - 1})")]
    if line is not None:
        handles.append(line)
    legend_below(ax, handles)
    return ax
