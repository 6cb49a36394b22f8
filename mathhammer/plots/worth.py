"""What a point of each stat is worth (:func:`~mathhammer.studies.stat_worth.stat_worth`): one
bar a stat, the change of the card's trade win odds, with its 95 % interval."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from matplotlib.ticker import PercentFormatter

from ..errors import InputError
from ._common import get_axes

__all__ = ["plot_stat_worth"]


def plot_stat_worth(frame, *, opponent: str = "all", ax: Axes | None = None, **kwargs) -> Axes:
    """Horizontal bars of ``delta`` (in percentage points of win odds) for each stat of a
    :func:`~mathhammer.studies.stat_worth.stat_worth` frame, against ``opponent`` (default
    ``"all"``: the mean over the opponents), with 95 % error bars (none when exact), each
    bar labelled with its figure. Extra keyword arguments go to
    :meth:`~matplotlib.axes.Axes.barh`."""
    if not hasattr(frame, "columns") or not {"stat", "opponent", "delta"} <= set(frame.columns):
        raise InputError("plot_stat_worth", type(frame).__name__, "draws a stat_worth frame")
    rows = frame[frame["opponent"] == opponent]
    if rows.empty:
        have = ", ".join(dict.fromkeys(frame["opponent"]))
        raise InputError("opponent", opponent, f"is not in this table (it has {have})")
    ax = get_axes(ax)
    y = np.arange(len(rows))[::-1]
    delta = rows["delta"].to_numpy()
    err = np.vstack([delta - rows["ci_low"].to_numpy(), rows["ci_high"].to_numpy() - delta])
    kwargs.setdefault("color", ["tab:green" if d >= 0 else "tab:red" for d in delta])
    exact = frame.attrs.get("method") == "exact"
    ax.barh(y, delta, xerr=None if exact else err, capsize=3, alpha=0.85, **kwargs)
    ends = np.where(delta >= 0, rows["ci_high"].to_numpy(), rows["ci_low"].to_numpy())
    for yi, d, end in zip(y, delta, ends):  # the figure past its error bar
        ax.annotate(f"{100 * d:+.1f} pts", (end, yi), xytext=(5 if d >= 0 else -5, 0),
                    textcoords="offset points", ha="left" if d >= 0 else "right", va="center",
                    fontsize="small")
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(y, [f"+1 {s}" for s in rows["stat"]])
    ax.xaxis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=0))
    lo, hi = float(min(0.0, np.min(rows["ci_low"]))), float(max(0.0, np.max(rows["ci_high"])))
    pad = 0.2 * max(hi - lo, 0.01)  # room for the labels on the side the bars reach
    ax.set_xlim(lo - (pad if lo < 0 else 0.02 * pad), hi + (pad if hi > 0 else 0.02 * pad))
    a = frame.attrs
    against = "its opponents (mean)" if opponent == "all" else opponent
    ax.set_xlabel(f"change of P(wins the trade) against {against}")
    ax.set_title(f"What +1 of each stat is worth: {a.get('card', '')}, {a.get('rounds', '?')} rounds",
                 fontsize="medium")
    ax.grid(True, axis="x", alpha=0.3)
    return ax
