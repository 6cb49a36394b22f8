"""Heatmap of a balance-matrix frame: one metric of every attacker against every target.

A matrix frame (:func:`mathhammer.matrix`) is tidy and long: ``attacker``,
``target``, one column per varied parameter, then ``metric``, ``value``, ``ci_low``,
``ci_high``. :func:`plot_matrix` draws the wide table :func:`~mathhammer.pivot_matrix`
makes of it, read like that table: attackers down (the first at the top), targets across.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from matplotlib.axes import Axes

from ..errors import NO_VALUE, InputError
from ..result.metrics import SUMMARY_COLUMNS, is_probability
from ..studies.matrices import KEY_COLUMNS, pivot_matrix
from ._common import check_flags, get_axes, need_columns, tick_label
from ._heatmap import draw_heatmap, fit_tick_labels

__all__ = ["fitted_figsize", "plot_matrix"]

#: Beyond this many attackers or targets the cells are too small to write in.
MAX_ANNOTATED = 40
#: Rotation (degrees) of the target names, which are long card names.
XTICK_ROTATION = 45.0


def fitted_figsize(table) -> tuple[float, float]:
    """Width and height (inches) of a figure for the wide ``table`` (attackers down,
    targets across): room for each cell, the attackers' names left of the rows, the
    targets' names slanted under the columns and the colorbar; between 5 x 4 and 30 x 30."""
    longest_a = max((len(str(a)) for a in table.index), default=1)
    longest_t = max((len(str(t)) for t in table.columns), default=1)
    slant = abs(np.sin(np.radians(XTICK_ROTATION)))
    width = 2.2 + 0.75 * table.shape[1] + 0.085 * longest_a
    height = 1.6 + 0.5 * table.shape[0] + 0.085 * slant * longest_t
    return float(np.clip(width, 5, 30)), float(np.clip(height, 4, 30))


def _table(frame, metric: str, where: Mapping):
    """``pivot_matrix(frame, metric, **where)``, its InputError as a one-line InputError of the plot that
    says how to choose with ``where=``."""
    what = "plot_matrix"
    try:
        return pivot_matrix(frame, metric, **where)
    except InputError as err:
        if err.reason.startswith("holds several values"):
            raise InputError(what, NO_VALUE, f"{err.key} holds several values "
                             f"({', '.join(map(tick_label, err.value))}); choose one with "
                             f"where={{{err.key!r}: ...}}") from None
        raise InputError(what, NO_VALUE, f"{err}") from None


def plot_matrix(frame, metric: str = "kill", *, ax: Axes | None = None, annotate: bool = True,
                percent: bool | None = None, where: Mapping | None = None,
                **kwargs) -> Axes:
    """Heatmap of ``metric`` for every attacker (rows) against every target (columns).

    A balance matrix is read by rows (how an attacker fares against each target) and by
    columns (how a target holds against each attacker), so the table is drawn as
    :func:`~mathhammer.pivot_matrix` returns it: attackers from the top in the
    frame's order, targets from the left in the frame's order.

    Parameters
    ----------
    frame : pandas.DataFrame
        A frame of :func:`mathhammer.matrix`.
    metric : str
        ``kill``, ``damage_mean``, ``cripple:X``, ``kill_by_turn:T``, ...; a pair without
        it (a cripple figure of a card lacking that system) is a blank cell, and a target
        that has it against no attacker (no C on its card) is left out, its name written
        under the axis ("left out, no cripple:C: solo").
    ax : Axes, optional
        Where to draw; when None, a new figure (constrained layout) sized to the table and
        its labels (:func:`fitted_figsize`), so that no tick label is clipped.
    annotate : bool
        Write each cell's value on it, smaller as the matrix grows; never above
        :data:`MAX_ANNOTATED` attackers or targets, where it could not be read. The size
        is fitted to the Axes as placed when drawing: for some 30 x 30 cards give the
        figure room (``figsize=(10, 9)``) before calling.
    percent : bool, optional
        Show values (colour scale 0..1, colorbar, annotations) as percentages; by default
        for probabilities (``kill``, ``cripple:X``, ``kill_by_turn:T``), while damage and
        other figures are written with 3 significant digits.
    where : mapping, optional
        The value of each varied parameter, e.g. ``{"attackers.0.focus": 3}``; needed for
        every parameter the frame holds several values of. Shown in the title.
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.imshow` (``cmap``, ``vmin``, ``vmax``, ...).

    Returns
    -------
    Axes
        ``ax``, with the image (``ax.images[0]``) and its colorbar.

    Raises
    ------
    ValueError
        One line: ``frame`` is not a matrix frame, ``metric`` is not in it, ``where`` names
        an unknown parameter or value, a parameter with several values is not chosen, or
        no target has ``metric`` at all.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from mathhammer import matrix
    >>> frame = matrix(["heavy_warjack", "light_warjack"], ["solo", "heavy_warbeast"],
    ...                trials=20_000, seed=1, progress=False)
    >>> fig, ax = plt.subplots()
    >>> ax = plot_matrix(frame, "kill", ax=ax)
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['heavy_warjack', 'light_warjack']
    >>> plt.close(fig)
    """
    check_flags(annotate=annotate)
    what = "plot_matrix"
    need_columns(frame, list(KEY_COLUMNS) + ["metric", "value"], what)
    if where is None:
        where = {}
    elif not isinstance(where, Mapping):
        raise InputError(what, NO_VALUE, f"where= must map parameter names to values, "
                         f"got {type(where).__name__}")
    table = _table(frame, metric, where)
    lacking = [str(t) for t in table.columns if table[t].isna().all()]
    if lacking and len(lacking) == table.shape[1]:
        raise InputError(what, NO_VALUE, f"no target has the figure {metric!r}")
    table = table.drop(columns=[t for t in table.columns if str(t) in lacking])
    data = table.to_numpy(dtype=float)
    if percent is None:
        percent = is_probability(metric)

    ax = get_axes(ax, figsize=fitted_figsize(table))
    draw_heatmap(ax, data, xticklabels=[str(t) for t in table.columns],
                 yticklabels=[str(a) for a in table.index], label=metric, percent=percent,
                 annotate=annotate, origin="upper", fontsize=None,
                 max_annotated=MAX_ANNOTATED, xtick_rotation=XTICK_ROTATION, **kwargs)
    fit_tick_labels(ax, data.shape, XTICK_ROTATION)
    # a target without the figure (a cripple:C of a card with no C) is left out, and said
    ax.set_xlabel("target" + (f" (left out, no {metric}: {', '.join(lacking)})" if lacking else ""))
    ax.set_ylabel("attacker")
    title = f"{metric}: attacker vs target"
    params = [c for c in frame.columns if c not in KEY_COLUMNS and c not in SUMMARY_COLUMNS]
    chosen = [f"{name}={tick_label(v)}" for name, v in where.items()]
    # a parameter held at one value needs no choice, but the title should still say it
    chosen += [f"{name}={tick_label(frame[name].iloc[0])}" for name in params
               if name not in where and frame[name].nunique() == 1]
    if chosen:
        title += f" ({', '.join(chosen)})"
    ax.set_title(title)
    return ax
