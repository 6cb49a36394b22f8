"""Loadouts side by side (:func:`mathhammer.compare`): one figure per loadout, with its
95 % interval, the best one highlighted."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from ..errors import NO_VALUE, InputError
from ..result.metrics import is_probability, metric_label
from ._common import BAR_COLOR, KILL_COLOR, get_axes, need_comparison, percent_axis

__all__ = ["plot_compare"]


def plot_compare(comparison, metric: str = "kill", *, ax: Axes | None = None,
                 **kwargs) -> Axes:
    """Horizontal bars of ``metric`` for each loadout of ``comparison`` (the first on
    top), each with its 95 % interval (none for exact results) and its value written
    beside it; the best loadout's bar is highlighted and, for the figures
    :func:`~mathhammer.compare` ranks (``kill``, ``damage_mean``), the title names the best
    (or says there is no clear best) and each other loadout's bar says how it stands against
    the best: the paired difference and its 95 % interval, or "no clear difference".

    Parameters
    ----------
    comparison : Comparison
        What :func:`mathhammer.compare` returned.
    metric : str
        A figure of the comparison's table (``kill``, ``damage_mean``, ``cripple:X``, ...).
    ax : Axes, optional
        Where to draw; when None, a new figure.
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.barh`.

    Returns
    -------
    Axes

    Raises
    ------
    ValueError
        One line: ``metric`` is not a figure of the comparison.
    """
    need_comparison(comparison, "plot_compare")
    long = comparison.long
    rows = long[long["metric"] == metric]
    if rows.empty:
        have = ", ".join(dict.fromkeys(long["metric"].astype(str)))
        raise InputError("plot_compare", NO_VALUE, f"{metric!r} is not a figure of the comparison "
                         f"(it has {have})")
    rows = rows.set_index("loadout").reindex(list(comparison.labels))
    labels = [str(x) for x in rows.index]
    value = rows["value"].to_numpy(dtype=float)
    lo = rows["ci_low"].to_numpy(dtype=float)
    hi = rows["ci_high"].to_numpy(dtype=float)
    verdict = comparison.best.get(metric, {})
    # the best loadout is painted as such only where it is clearly the best
    best = verdict.get("best") if verdict.get("clear") is not False else None
    if not verdict and np.isfinite(value).any():
        best = labels[int(np.nanargmax(value))]
    ax = get_axes(ax)
    y = np.arange(len(labels))[::-1]
    color = kwargs.pop("color", BAR_COLOR)
    kwargs.setdefault("height", 0.6)
    if comparison.method != "exact":
        err = np.vstack([np.clip(value - lo, 0, None), np.clip(hi - value, 0, None)])
        kwargs.setdefault("xerr", np.nan_to_num(err))
        kwargs.setdefault("error_kw", {"elinewidth": 0.8, "capsize": 3, "ecolor": "0.3"})
    ax.barh(y, np.nan_to_num(value), color=[KILL_COLOR if x == best else color for x in labels],
            **kwargs)
    probability = is_probability(metric)
    for yy, v, h in zip(y, value, hi):
        if np.isfinite(v):
            text = f"{100 * v:.1f}%" if probability else f"{v:.2f}"
            ax.annotate(text, (max(v, h if np.isfinite(h) else v), yy), xytext=(4, 0),
                        textcoords="offset points", va="center", fontsize="small")
    # under each other loadout's name, how it stands against the best: the difference with
    # its interval, or "no clear difference"
    against = {v["loadout"]: v for v in verdict.get("versus", [])}
    ax.set_yticks(y, [f"{x}\n{_against(against[x], probability)}" if x in against else x for x in labels])
    top = float(np.nanmax(np.where(np.isfinite(hi), hi, value))) if np.isfinite(value).any() else 1.0
    ax.set_xlim(0, (min(1.0, top) if probability else top) * 1.25 or 1.0)
    if probability:
        percent_axis(ax.xaxis)
        ax.set_xticks([t for t in ax.get_xticks() if 0 <= t <= 1.0])
    ax.set_xlabel(metric_label(metric))
    title = f"{metric_label(metric)} by loadout"
    if verdict.get("best"):
        clear = verdict.get("clear") is not False
        title += (f"\nbest: {verdict['best']} (under the others: their difference, 95% CI)" if clear else
                  f"\nno clear best: {verdict['best']} and {verdict.get('runner_up', 'the next')} level")
    ax.set_title(title, fontsize="medium")
    return ax


def _against(pair: dict, probability: bool) -> str:
    """How a loadout stands against the best, in a few words, signs from this loadout's
    side: "-0.2 pts (-0.3 to -0.1)" (its 95 % interval), or "no clear difference"."""
    scale, unit, digits = (100, " pts", 1) if probability else (1, "", 2)
    if pair.get("clear") is False:
        return "no clear difference"
    ci = pair.get("ci95")
    interval = "" if ci is None else f" ({-ci[1] * scale:+.{digits}f} to {-ci[0] * scale:+.{digits}f})"
    return f"{-pair['difference'] * scale:+.{digits}f}{unit}{interval}"
