"""The heatmap drawing shared by :func:`~mathhammer.plots.plot_kill_heatmap` (a sweep over two
parameters) and :func:`~mathhammer.plots.plot_matrix` (attackers against targets).

Both draw a table of one metric the same way: an image with one cell per value (missing
values blank), a tick label per row and column, a colorbar (in percent for probabilities)
and each cell's value written on it, in white on dark cells and black on light ones. The
callers only prepare the table and set the axis labels and title.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib import rcParams
from matplotlib.axes import Axes
from matplotlib.font_manager import FontProperties
from matplotlib.image import AxesImage

from ._common import percent_axis

#: Smallest annotation font size (points) of a heatmap whose cells shrink with its size.
MIN_FONTSIZE = 4.0


def cell_value(v: float, percent: bool) -> str:
    """The text of one cell: ``"42%"`` for a probability, 3 significant digits otherwise."""
    return f"{100 * v:.0f}%" if percent else f"{v:.3g}"


def cell_points(ax: Axes, shape: tuple[int, int]) -> tuple[float, float]:
    """Width and height (points) of one cell of a ``shape`` (rows, columns) table filling
    ``ax`` as it is placed now (after its colorbar took its share)."""
    box = ax.get_window_extent()
    scale = 72.0 / ax.figure.dpi
    return (box.width * scale / max(shape[1], 1), box.height * scale / max(shape[0], 1))


def fitted_fontsize(ax: Axes, shape: tuple[int, int], *, chars: int = 4,
                    largest: float | str = "small") -> float:
    """A font size (points) at which ``chars`` characters fit in one cell of ``ax``.

    Between :data:`MIN_FONTSIZE` and ``largest`` (a size in points or a name such as
    ``"small"``), so that small tables keep the usual size and large ones stay legible
    rather than overlapping.
    """
    top = FontProperties(size=largest).get_size_in_points()
    width, height = cell_points(ax, shape)
    # a digit is about 0.6 em wide; keep some margin around the text
    fit = min(width / (0.65 * chars + 0.6), 0.6 * height)
    return float(np.clip(fit, MIN_FONTSIZE, max(top, MIN_FONTSIZE)))


def draw_heatmap(ax: Axes, data, *, xticklabels: Sequence[str], yticklabels: Sequence[str],
                 label: str, percent: bool, annotate: bool = True,
                 origin: str = "lower", fontsize: float | str | None = "small",
                 max_annotated: int | None = None, xtick_rotation: float = 0.0,
                 **kwargs) -> AxesImage:
    """Draw the table ``data`` (rows x columns, NaN for a missing value) into ``ax``.

    Parameters
    ----------
    ax : Axes
    data : array-like of float
        The values; non-finite ones are masked (blank cells, no annotation).
    xticklabels, yticklabels : sequence of str
        One label per column and per row.
    label : str
        The colorbar's label (the metric).
    percent : bool
        Whether the values are probabilities: the colour scale defaults to 0..1, the
        colorbar and the annotations read in percent.
    annotate : bool
        Write each cell's value on it.
    origin : {"lower", "upper"}
        Where the first row goes (:meth:`~matplotlib.axes.Axes.imshow`'s ``origin``):
        ``"lower"`` for parameter values growing upwards, ``"upper"`` for a table read
        from the top.
    fontsize : float, str or None
        Size of the annotations; None fits it to the cells (smaller as the table grows).
    max_annotated : int, optional
        No annotation when the table has more rows or columns than this (they would be
        unreadable).
    xtick_rotation : float
        Rotation (degrees) of the column labels; rotated labels are right-aligned at their
        column, for long names.
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.imshow` (``cmap``, ``vmin``, ``vmax``, ...).

    Returns
    -------
    AxesImage
        The image (its colorbar is ``image.colorbar``).
    """
    data = np.asarray(data, dtype=float)
    if percent:
        kwargs.setdefault("vmin", 0.0)
        kwargs.setdefault("vmax", 1.0)
    kwargs.setdefault("cmap", "viridis")
    kwargs.setdefault("aspect", "auto")
    kwargs.setdefault("interpolation", "nearest")
    im = ax.imshow(np.ma.masked_invalid(data), origin=origin, **kwargs)
    xtick_kw = {"rotation": xtick_rotation, "ha": "right",
                "rotation_mode": "anchor"} if xtick_rotation else {}
    ax.set_xticks(range(data.shape[1]), list(xticklabels), **xtick_kw)
    ax.set_yticks(range(data.shape[0]), list(yticklabels))
    cbar = ax.figure.colorbar(im, ax=ax, label=label)
    if percent:
        percent_axis(cbar.ax.yaxis, decimals=0)
    too_big = max_annotated is not None and max(data.shape) > max_annotated
    if annotate and not too_big and data.size:
        if fontsize is None:
            chars = max((len(cell_value(v, percent)) for v in data.flat if np.isfinite(v)),
                        default=4)
            fontsize = fitted_fontsize(ax, data.shape, chars=chars)
        for i in range(data.shape[0]):
            for j in range(data.shape[1]):
                v = data[i, j]
                if not np.isfinite(v):
                    continue
                r, g, b, _ = im.cmap(im.norm(v))
                dark = 0.299 * r + 0.587 * g + 0.114 * b < 0.5
                ax.text(j, i, cell_value(v, percent), ha="center", va="center",
                        fontsize=fontsize, color="white" if dark else "black")
    return im


def fit_tick_labels(ax: Axes, shape: tuple[int, int], xtick_rotation: float = 0.0) -> None:
    """Shrink the tick labels of a ``shape`` table so that neighbours do not overlap (never
    above the usual tick size, never below :data:`MIN_FONTSIZE`).

    Row labels get the height of a row; column labels, when rotated, the width of a column
    across their slant (unrotated ones run along the axis and are left alone).
    """
    width, height = cell_points(ax, shape)
    slant = abs(np.sin(np.radians(xtick_rotation)))
    for axis, room in ((ax.xaxis, width * slant), (ax.yaxis, height)):
        if room <= 0:
            continue
        usual = FontProperties(size=rcParams[f"{axis.axis_name}tick.labelsize"])
        size = float(np.clip(0.85 * room, MIN_FONTSIZE, usual.get_size_in_points()))
        axis.set_tick_params(labelsize=size)
