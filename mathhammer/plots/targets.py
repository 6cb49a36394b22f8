"""Several targets: how likely each one ends destroyed, and how many of its models."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Patch

from ._common import BAR_COLOR, KILL_COLOR, get_axes, method_note, need_result, percent_axis

__all__ = ["plot_targets"]


def plot_targets(result, *, ax: Axes | None = None, **kwargs) -> Axes:
    """Horizontal bars, one per target in order (the first on top), of the probability it
    ends destroyed, with the last bar "every target destroyed" (the kill) highlighted. Each
    bar is labelled with its percentage and, for a unit, the models destroyed on average;
    Monte Carlo results show each bar's 95% Wilson interval. Extra keyword arguments go to
    :meth:`~matplotlib.axes.Axes.barh`.

    Returns the Axes.
    """
    need_result(result, "plot_targets")
    ax = get_axes(ax)
    figures = list(result.targets.values())
    labels = [f["name"] for f in figures] + ["every target"]
    p = np.array([f["kill"] for f in figures] + [result.kill])
    lo = np.array([f["kill_ci95"][0] for f in figures] + [result.kill_ci95[0]])
    hi = np.array([f["kill_ci95"][1] for f in figures] + [result.kill_ci95[1]])
    y = np.arange(p.size)[::-1]
    color = kwargs.pop("color", BAR_COLOR)
    colors = [color] * len(figures) + [KILL_COLOR]
    kwargs.setdefault("height", 0.65)
    if not result.exact:
        kwargs.setdefault("xerr", np.vstack([p - lo, hi - p]))
        kwargs.setdefault("error_kw", {"elinewidth": 0.8, "capsize": 2, "ecolor": "0.3"})
    ax.barh(y, p, color=colors, **kwargs)
    for yy, f, pp, h in zip(y, figures + [None], p, hi):
        text = f"{100 * pp:.1f}%"
        if f is not None and f["models"] > 1:
            text += f"  ({f['models_destroyed_mean']:.2f} of {f['models']} models)"
        end = pp if result.exact or not np.isfinite(h) else max(pp, h)  # past the error bar's cap
        ax.annotate(text, (end, yy), xytext=(5, 0), textcoords="offset points", va="center",
                    fontsize="small")
    ax.set_yticks(y, labels)
    ax.set_xlim(0, 1.3)  # room for the labels right of a bar at 100 %
    ax.set_xticks(np.linspace(0, 1, 6))
    percent_axis(ax.xaxis)
    ax.set_xlabel("P(destroyed at the end)")
    ax.set_title(f"Targets destroyed ({method_note(result)})")
    ax.legend(handles=[Patch(color=color, label="this target"),
                       Patch(color=KILL_COLOR, label="every target (the kill)")],
              loc="lower right", fontsize="small")
    return ax
