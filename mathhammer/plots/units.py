"""Models destroyed: P(exactly k) bars and the "k or more" curve (a unit as the target)."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Patch

from .._core.intervals import Z95

from ._labels import bar_label, error_extents, text_color_on
from ._common import (BAR_COLOR, KILL_COLOR, at_least_twin, check_flags, get_axes, integer_axis,
                      legend_below, method_note, need_result, percent_axis, target_title)

__all__ = ["plot_models_destroyed"]


def plot_models_destroyed(result, *, ax: Axes | None = None, at_least: bool = True, **kwargs) -> Axes:
    """Bars of the probability that exactly k models of the target end destroyed,
    k = 0..models; the last bar (every model: the unit is cleared) is highlighted, and each
    bar is labelled with its percentage: just above the bar, or, where the "k or more" line
    passes there, inside the bar's top or raised clear of the line (never struck through).

    With ``at_least``, a twin y-axis (label ``"models_destroyed_at_least"``) carries the
    probability of k or more destroyed as a line with markers (what a player asks: "at
    least three dead?"). Extra keyword arguments go to :meth:`~matplotlib.axes.Axes.bar`
    (``color`` colours every bar but the last). Monte Carlo results show each bar's 95%
    interval as an error bar. The line has its own 0-105 % scale (right), the bars theirs;
    the legend sits under the axis, off the bars. Without ``ax`` the bars go on a new figure.

    Returns the Axes of the bars.
    """
    check_flags(at_least=at_least)
    need_result(result, "plot_models_destroyed")
    ax = get_axes(ax)
    pmf = np.asarray(result.models_destroyed_pmf, dtype=float)
    n = pmf.size - 1
    k = np.arange(pmf.size)
    color = kwargs.pop("color", BAR_COLOR)
    kill_color = kwargs.pop("kill_color", KILL_COLOR)
    colors = [color] * n + [kill_color]
    kwargs.setdefault("width", 0.75)
    if not result.exact:
        # normal 95% interval of each proportion (wide enough at these sample sizes)
        se = np.sqrt(np.clip(pmf * (1 - pmf), 0, None) / result.trials)
        kwargs.setdefault("yerr", Z95 * se)
        kwargs.setdefault("error_kw", {"elinewidth": 0.8, "capsize": 2, "ecolor": "0.3"})
    bars = ax.bar(k, pmf, color=colors, **kwargs)
    top = max(float(pmf.max()), 1e-9)
    ax.set_ylim(0, top * 1.18)
    line = None
    if at_least:  # drawn first: the labels keep clear of its line
        _twin, line = at_least_twin(ax, k, result.models_destroyed_at_least,
                                    "models_destroyed_at_least")
    down, up = error_extents(kwargs.get("yerr"), pmf.size)
    for rect, p, lo, hi in zip(bars, pmf, down, up):
        if p >= 0.005:  # over and under the error bar, off the "k or more" line
            bar_label(ax, f"{100 * p:.0f}%", rect.get_x() + rect.get_width() / 2, p + hi, p - lo,
                      [line] if line is not None else [], fontsize="x-small",
                      inside_color=text_color_on(rect.get_facecolor()))
    ax.set_xlabel(f"models destroyed, k (of {n})")
    ax.set_ylabel("P(exactly k)")
    ax.set_xlim(-0.6, pmf.size - 0.4)
    percent_axis(ax.yaxis)
    integer_axis(ax.xaxis)
    ax.set_xticks(k)
    mean = result.models_destroyed_mean
    ax.set_title(f"{target_title(result, 'Models destroyed')} ({method_note(result)})")
    mean_line = ax.axvline(mean, color="0.35", linestyle="--", linewidth=1,
                           label=f"mean {mean:.2f}")
    handles = [Patch(color=color, label="P(exactly k)"),
               Patch(color=kill_color, label=f"all {n} destroyed ({100 * pmf[-1]:.1f}%)"), mean_line]
    if line is not None:
        handles.append(line)
    legend_below(ax, handles)
    return ax
