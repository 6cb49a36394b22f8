"""Plots of sweep frames: a metric over two parameters (heatmap) or against one (lines).

A sweep frame is tidy and long: one column per varied parameter (``"target.arm"``,
``"target.def"``, ...), then ``metric`` (``"kill"``, ...), ``value``, and optionally
``ci_low``/``ci_high`` (95% interval; equal to ``value`` for exact results) and ``loadout``.
"""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from ..errors import NO_VALUE, InputError
from ..result.metrics import is_probability, metric_label
from ..studies.params import param_label
from ._common import BAND_ALPHA, get_axes, integer_axis, need_columns, percent_axis, tick_label
from ._heatmap import draw_heatmap

__all__ = ["LINE_DASHES", "LINE_MARKERS", "plot_kill_heatmap", "plot_kill_vs"]

#: The markers and dashes of :func:`plot_kill_vs`'s lines, in turn, when it draws several.
LINE_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
LINE_DASHES = ("-", "--", ":", "-.")


def _rows_of_metric(frame, metric: str, what: str):
    rows = frame[frame["metric"] == metric]
    if rows.empty:
        have = ", ".join(map(repr, sorted(frame["metric"].astype(str).unique())))
        raise InputError(what, NO_VALUE, f"no rows with metric {metric!r} (the frame has {have or 'none'})")
    return rows


def _numeric(values) -> bool:
    try:
        np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        return False
    return True


def plot_kill_heatmap(frame, *, x: str = "target.def", y: str = "target.arm",
                      metric: str = "kill", loadout=None, ax: Axes | None = None,
                      annotate: bool = True, percent: bool | None = None, **kwargs) -> Axes:
    """Heatmap of ``metric`` over two swept parameters (columns of ``x``, rows of ``y``).

    The rows of ``frame`` whose ``metric`` column equals ``metric`` are pivoted into a table
    (``y`` values upwards, ``x`` values rightwards, ascending); missing cells are blank. With
    ``annotate`` each cell shows its value (a percentage when ``percent``; by default when
    the metric is a probability). A frame with a ``loadout`` column holding several loadouts
    needs ``loadout=`` to pick one. Extra keyword arguments go to
    :meth:`~matplotlib.axes.Axes.imshow` (``cmap``, ``vmin``, ``vmax``, ...).

    Raises InputError (one line) when the frame lacks a column, holds no row of ``metric``,
    holds several loadouts and none is chosen, or has several rows for one cell (another
    parameter varies too).
    """
    what = "plot_kill_heatmap"
    need_columns(frame, [x, y, "metric", "value"], what)
    rows = _rows_of_metric(frame, metric, what)
    title_bits = []
    if "loadout" in rows.columns:
        names = list(dict.fromkeys(rows["loadout"]))
        if loadout is None:
            if len(names) > 1:
                raise InputError(what, NO_VALUE, f"the frame holds {len(names)} loadouts "
                                 f"({', '.join(map(str, names))}); choose one with loadout=")
        else:
            if loadout not in names:
                raise InputError(what, NO_VALUE, f"loadout {loadout!r} is not in the frame "
                                 f"(it has {', '.join(map(str, names))})")
            rows = rows[rows["loadout"] == loadout]
        title_bits.append(str(loadout if loadout is not None else names[0]))
    elif loadout is not None:
        raise InputError(what, NO_VALUE, f"loadout={loadout!r} given but the frame has no 'loadout' column")
    if rows.duplicated(subset=[x, y]).any():
        raise InputError(what, NO_VALUE, f"several rows per ({y}, {x}) cell; filter the frame so that "
                         f"only {x} and {y} vary")
    table = rows.pivot(index=y, columns=x, values="value").sort_index(axis=0).sort_index(axis=1)
    data = table.to_numpy(dtype=float)
    if percent is None:
        percent = is_probability(metric)

    ax = get_axes(ax)
    draw_heatmap(ax, data, xticklabels=[tick_label(v) for v in table.columns],
                 yticklabels=[tick_label(v) for v in table.index], label=metric_label(metric),
                 percent=percent, annotate=annotate, origin="lower", fontsize="small",
                 **kwargs)
    ax.set_xlabel(param_label(x))
    ax.set_ylabel(param_label(y))
    ax.set_title(" — ".join([f"{metric_label(metric)} by {param_label(y)} and {param_label(x)}"] + title_bits))
    return ax


def _as_frame(frame, hue: str | None):
    """A dict {label: frame} becomes one frame with the label in column ``hue``."""
    if isinstance(frame, dict):
        import pandas as pd

        if not frame:
            raise InputError("plot_kill_vs", NO_VALUE, "the dict of frames is empty")
        col = hue or "loadout"
        parts = []
        for label, f in frame.items():
            need_columns(f, [], "plot_kill_vs")
            parts.append(f.drop(columns=[col], errors="ignore").assign(**{col: label}))
        return pd.concat(parts, ignore_index=True), col
    return frame, hue


def plot_kill_vs(frame, param: str, *, metric: str = "kill", hue: str | None = "loadout",
                 ax: Axes | None = None, band: bool = True, **kwargs) -> Axes:
    """``metric`` against the swept parameter ``param``: one line per value of ``hue``.

    ``frame`` is a sweep frame or a dict ``{label: frame}`` (each label becomes a line).
    When the frame has no ``hue`` column (and ``hue`` is the default ``"loadout"`` or None)
    a single line is drawn. With ``band`` and ``ci_low``/``ci_high`` columns, each line gets
    a shaded 95% band (:meth:`~matplotlib.axes.Axes.fill_between`); a line whose interval
    is a point everywhere (exact results) gets none. Several lines each get their own
    hollow marker and dash (:data:`LINE_MARKERS`, :data:`LINE_DASHES`) besides their colour,
    so that two that coincide (loadouts that play alike) both show; a ``marker`` or
    ``linestyle`` given sets every line's. Extra keyword arguments go to
    :meth:`~matplotlib.axes.Axes.plot`.

    Raises InputError (one line) when a column is missing or a line has several rows for
    one value of ``param`` (another parameter varies too).
    """
    what = "plot_kill_vs"
    frame, hue = _as_frame(frame, hue)
    need_columns(frame, [param, "metric", "value"], what)
    if hue is not None and hue not in frame.columns:
        if hue != "loadout":
            raise InputError(what, NO_VALUE, f"the frame lacks the hue column {hue!r} "
                             f"(it has {', '.join(map(repr, frame.columns))})")
        hue = None
    rows = _rows_of_metric(frame, metric, what)
    groups = ([(None, rows)] if hue is None
              else [(name, rows[rows[hue] == name]) for name in dict.fromkeys(rows[hue])])
    has_ci = {"ci_low", "ci_high"} <= set(rows.columns)
    percent = is_probability(metric)

    ax = get_axes(ax)
    # several lines: each its own marker and dash besides its colour, hollow markers, so
    # that lines which coincide (two loadouts playing alike) still show one under the other
    own = len(groups) > 1 and not {"marker", "linestyle", "ls"} & set(kwargs)
    kwargs.setdefault("markersize", 6 if own else 4)
    kwargs.setdefault("marker", "o")
    for i, (name, g) in enumerate(groups):
        if g[param].duplicated().any():
            who = "" if name is None else f" for {hue} {name!r}"
            raise InputError(what, NO_VALUE, f"several rows per {param} value{who}; filter the frame "
                             f"so that only {param} varies")
        g = g.sort_values(param)
        xs = g[param].to_numpy()
        ys = g["value"].to_numpy(dtype=float)
        label = metric_label(metric) if name is None else str(name)
        style = ({"marker": LINE_MARKERS[i % len(LINE_MARKERS)], "markerfacecolor": "none",
                  "linestyle": LINE_DASHES[i % len(LINE_DASHES)]} if own else {})
        line, = ax.plot(xs, ys, label=label, **{**kwargs, **style})
        if band and has_ci:
            lo = g["ci_low"].to_numpy(dtype=float)
            hi = g["ci_high"].to_numpy(dtype=float)
            ok = np.isfinite(lo) & np.isfinite(hi)
            if ok.any() and np.any(hi[ok] > lo[ok]):
                ax.fill_between(xs, lo, hi, where=ok, color=line.get_color(),
                                alpha=BAND_ALPHA, linewidth=0)
    ax.set_xlabel(param_label(param))
    ax.set_ylabel(metric_label(metric))
    if _numeric(rows[param]) and np.all(np.mod(np.asarray(rows[param], float), 1) == 0):
        integer_axis(ax.xaxis)
    if percent:
        percent_axis(ax.yaxis)
    if hue is not None:
        ax.legend(title=hue, fontsize="small")
    ax.set_title(f"{metric_label(metric)} against {param_label(param)}"
                 + (" (95% bands)" if band and has_ci else ""))
    return ax
