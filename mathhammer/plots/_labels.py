"""Percentages written on bars, kept off the "k or more" curve drawn over them.

The damage and models-destroyed plots draw P(exactly k) as bars and P(k or more) as a
line on a twin axis, which is drawn over the bars' Axes: a label written just above a bar
is struck through wherever the line passes there. Where a label and the line meet is
only known once the figure is laid out (constrained layout resizes the Axes, and the
text's size in data units with them), so each label finds its place when it is drawn.
"""

from __future__ import annotations

import numpy as np
from matplotlib.text import Annotation

__all__ = ["OffLineLabel", "bar_label", "error_extents", "text_color_on"]

#: Gap (points) between a label and its bar, and kept clear around the line.
GAP = 2.0
#: Step (points) by which a label is raised, when neither above nor inside its bar is clear.
STEP = 2.0


class OffLineLabel(Annotation):
    """A bar's label that, when drawn, takes the first of these places clear of the
    ``avoid`` lines (and their markers):

    1. just above the bar (over its error bar, when it has one), where a reader looks first;
    2. inside the bar, at its top, in white or black by the bar's shade, where the bar is
       tall enough for it;
    3. above the bar, raised step by step until clear of the lines (still inside the Axes).

    If none is clear (a line running over the whole height), the first is kept. A label
    outside its bar gets a background of the Axes' colour, so that a vertical marker line
    (the mean) passes under it rather than through it. A label wider than the first or last
    bar is moved in from the Axes' side, off the (twin) spine.
    """

    def __init__(self, text, x, top, bottom, avoid, *, inside_color="white", **kwargs):
        kwargs.setdefault("ha", "center")
        super().__init__(text, (x, top), xytext=(0, GAP), textcoords="offset points",
                         va="bottom", **kwargs)
        self._top, self._bottom, self._avoid = top, bottom, list(avoid)
        self._outside_color = self.get_color()
        self._inside_color = inside_color
        self.placed = "above"  # which place it took at the last draw (for tests and callers)

    def _clear(self, renderer, paths, within) -> bool:
        box = self.get_window_extent(renderer)
        pad = GAP * renderer.points_to_pixels(1.0)
        if box.y0 < within.y0 - 0.5 or box.y1 > within.y1 + 0.5:
            return False
        return not any(p.intersects_bbox(box.padded(pad), filled=False) for p in paths)

    def _set_place(self, renderer, place: str, offset: float = GAP) -> None:
        self.placed = place
        inside = place == "inside"
        self.xy = (self.xy[0], self._bottom if inside else self._top)
        self.xyann = (0, -offset if inside else offset)
        self.set_va("top" if inside else "bottom")
        self.set_color(self._inside_color if inside else self._outside_color)
        face = self.axes.get_facecolor()
        self.set_bbox(None if inside else {"boxstyle": "square,pad=0.1", "facecolor": face,
                                           "edgecolor": "none"})
        # a label wider than the last (or first) bar is moved in, off the Axes' side
        box, whole = self.get_window_extent(renderer), self.axes.bbox
        over = max(box.x1 - whole.x1, 0.0) - max(whole.x0 - box.x0, 0.0)
        if over:  # in points, and a little more: clear of the spine
            shift = over / renderer.points_to_pixels(1.0) + np.copysign(GAP / 2, over)
            self.xyann = (-shift, self.xyann[1])

    def _raise(self, renderer, paths, whole) -> None:
        """Above the bar, raised until clear of ``paths``; back just above it when the label
        would leave the Axes first."""
        offset = GAP
        while True:
            offset += STEP
            self._set_place(renderer, "raised", offset)
            if self.get_window_extent(renderer).y1 > whole.y1:
                self._set_place(renderer, "above")
                return
            if self._clear(renderer, paths, whole):
                return

    def draw(self, renderer):
        if not self.get_visible() or self.axes is None:
            return super().draw(renderer)
        paths = [line.get_transform().transform_path(line.get_path())
                 for line in self._avoid if line.get_visible()]
        whole = self.axes.bbox
        self._set_place(renderer, "above")
        if paths and not self._clear(renderer, paths, whole):
            x = self.xy[0]
            bar = whole.frozen()
            bar.y0 = self.axes.transData.transform((x, 0.0))[1]  # the bar's foot
            bar.y1 = self.axes.transData.transform((x, self._bottom))[1]
            self._set_place(renderer, "inside")
            if not self._clear(renderer, paths, bar):
                self._raise(renderer, paths, whole)
        return super().draw(renderer)


def bar_label(ax, text: str, x: float, top: float, bottom: float, avoid, *,
              inside_color: str = "white", **kwargs) -> OffLineLabel:
    """Write ``text`` on the bar at ``x`` as an :class:`OffLineLabel` added to ``ax``.

    Parameters
    ----------
    ax : Axes
        The bars' Axes.
    text : str
        The label (the bar's percentage).
    x : float
        The bar's centre.
    top : float
        Where a label above the bar starts (data units): the bar's height, or the top of
        its error bar.
    bottom : float
        Where a label inside the bar ends (data units): the bar's height, or the foot of
        its error bar.
    avoid : sequence of Line2D
        The lines to keep clear of (the twin axis's "k or more" curve); none, and the label
        stays above its bar.
    inside_color : str
        The text's colour inside the bar (white on a dark bar).
    **kwargs
        Passed to :class:`~matplotlib.text.Annotation` (``fontsize``, ``color``, ...).

    Returns
    -------
    OffLineLabel
        The label (in ``ax.texts``).
    """
    label = OffLineLabel(text, x, top, bottom, avoid, inside_color=inside_color, **kwargs)
    ax.add_artist(label)  # a Text child: one of ax.texts, as an annotation is
    label.set_clip_on(False)  # add_artist clips to the Axes; a label may sit on its edge
    return label


def text_color_on(face) -> str:
    """White on a dark ``face`` (an RGBA colour), black on a light one."""
    r, g, b = face[:3]
    return "white" if 0.299 * r + 0.587 * g + 0.114 * b < 0.5 else "black"


def error_extents(yerr, n: int) -> tuple:
    """The ``yerr`` of :meth:`~matplotlib.axes.Axes.bar` (None, a scalar, n values, or
    2 x n: below and above) as two arrays of n values: how far each error bar runs under
    and over its bar, where the label inside and above it must start."""
    if yerr is None:
        return np.zeros(n), np.zeros(n)
    err = np.abs(np.asarray(yerr, dtype=float))
    if err.ndim == 2:
        return np.broadcast_to(err[0], n), np.broadcast_to(err[1], n)
    err = np.broadcast_to(err, n)
    return err, err
