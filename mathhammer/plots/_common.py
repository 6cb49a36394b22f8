"""Helpers shared by the plot modules."""

from __future__ import annotations

from matplotlib.axes import Axes
from matplotlib.ticker import MaxNLocator, PercentFormatter

from .._core.validate import check_bool
from ..errors import NO_VALUE, InputError

#: Colours used throughout: bars, the disabled (killed) bar, lines.
BAR_COLOR = "tab:blue"
KILL_COLOR = "tab:red"
LINE_COLOR = "black"
BAND_ALPHA = 0.2


#: Space between side-by-side panels (a fraction of the figure's width, constrained
#: layout's ``wspace``; matplotlib's is 0.02): a panel's twin axis or colorbar label
#: faces the next panel's y axis label, which at matplotlib's spacing reads as one.
PANEL_WSPACE = 0.06

#: Size (inches) of the figure a ``plot_x(...)`` call without ``ax`` makes.
OWN_FIGSIZE = (6.4, 4.8)


def get_axes(ax: Axes | None, *, figsize: tuple[float, float] = OWN_FIGSIZE) -> Axes:
    """``ax``, or the Axes of a new pyplot figure (constrained layout) made for this call.

    Every public ``plot_x(..., ax=None)`` comes here: without ``ax`` each call draws on a
    figure of its own, so several calls in one script never pile onto one picture
    (pyplot is imported only then; ``plt.show()`` and ``plt.savefig`` see the new figure,
    which is the current one).
    """
    if ax is not None:
        if not isinstance(ax, Axes):
            raise InputError("ax", ax, "must be a matplotlib Axes, or None for a figure of its own")
        return ax
    import matplotlib.pyplot as plt

    _fig, own = plt.subplots(figsize=figsize, layout="constrained")
    return own


class TidyPercent(PercentFormatter):
    """Percent tick labels with as few decimals as the ticks need: ``0%, 5%, 10%`` rather
    than ``0.0%, 5.0%, 10.0%`` (matplotlib picks the decimals from the axis range alone),
    ``2.5%, 5.0%`` where one tick needs a decimal. Shorter labels leave more room between
    panels, where a twin axis's labels face the next panel's."""

    def format_ticks(self, values):
        pct = [self.convert_to_pct(v) for v in values]
        decimals = next((d for d in range(6)
                         if all(abs(round(x, d) - x) <= 1e-6 * max(1.0, abs(x)) for x in pct)), 5)
        return [f"{x:.{decimals}f}{self.symbol}" for x in pct]


def spread_panels(fig) -> None:
    """Put :data:`PANEL_WSPACE` at least between the side-by-side panels of ``fig``.

    The plots that put a label on the right of their panel (a twin axis, a colorbar) call
    it on the figure they draw in, so that a figure of several panels made by the caller
    (``plt.subplots(1, 2, layout="constrained")``) gets the room too. Only a figure with
    constrained layout is changed, and only ever to more room: a wider spacing the caller
    chose is kept, another layout is left alone.
    """
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    engine = fig.get_layout_engine()
    if isinstance(engine, ConstrainedLayoutEngine) and engine.get()["wspace"] < PANEL_WSPACE:
        engine.set(wspace=PANEL_WSPACE)


def percent_axis(axis, decimals: int | None = None) -> None:
    """Show a probability axis (0..1) as percentages: with ``decimals`` fixed, or else as
    few as the ticks need (:class:`TidyPercent`)."""
    cls = PercentFormatter if decimals is not None else TidyPercent
    axis.set_major_formatter(cls(xmax=1.0, decimals=decimals))


def integer_axis(axis) -> None:
    axis.set_major_locator(MaxNLocator(integer=True))


def tick_label(value) -> str:
    """A tick label: integral numbers without a decimal point."""
    try:
        f = float(value)
    except (TypeError, ValueError):
        return str(value)
    return str(int(f)) if f.is_integer() else f"{f:g}"


def at_least_twin(ax: Axes, k, at_least, label: str):
    """A twin y-axis (labelled ``label``) over ``ax`` with the probability of k or more as
    a line with markers, on its own 0-105 % scale (right); returns (twin Axes, line).

    The bars keep theirs (left): P(exactly k) is a few percent at most where the boxes are
    many, and on the line's scale the bars would not show. The figure's panels are spread
    (:func:`spread_panels`): the twin's labels face the next panel's y axis label.
    """
    spread_panels(ax.figure)  # its labels face the next panel's, if any
    twin = ax.twinx()
    twin.set_label(label)
    line, = twin.plot(k, at_least, color=LINE_COLOR, marker="o", markersize=3, linewidth=1.2,
                      label="P(k or more)")
    twin.set_ylim(0, 1.05)
    twin.set_ylabel("P(k or more)")
    percent_axis(twin.yaxis)
    return twin, line


def legend_below(ax: Axes, handles) -> None:
    """The legend of ``handles`` under the x axis label of ``ax``, in one row where it
    fits: off the plot, so that it never covers a bar or a point."""
    from matplotlib.transforms import ScaledTranslation

    # anchored 34 points under the bottom of the Axes: below the tick labels and the axis
    # label at any panel height (a fraction of the Axes would move with its size)
    below = ax.transAxes + ScaledTranslation(0, -34 / 72, ax.figure.dpi_scale_trans)
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0),
              bbox_transform=below, ncol=min(len(handles), 4), fontsize="small",
              frameon=False)


def method_note(result) -> str:
    """``exact`` or ``Monte Carlo, N trials`` for titles."""
    if result.exact:
        return "exact"
    return f"Monte Carlo, {result.trials:,} trials"


def target_title(result, what: str) -> str:
    name = result.target_name or "target"
    return f"{what}: {name}"


def need_result(result, what: str) -> None:
    """``result`` must be a :class:`~mathhammer.result.Result` (what ``simulate`` returns)."""
    from ..result import Result

    if not isinstance(result, Result):
        raise InputError(what, result, "draws a mathhammer Result (what simulate returns)")


def need_comparison(comparison, what: str) -> None:
    """``comparison`` must be what :func:`mathhammer.compare` returns."""
    from ..studies.comparisons import Comparison

    if not isinstance(comparison, Comparison):
        raise InputError(what, comparison, "draws a mathhammer Comparison (what compare returns)")


def need_columns(frame, columns, what: str) -> None:
    """``frame`` must be a DataFrame with ``columns`` (else a ValueError saying what is missing)."""
    if not hasattr(frame, "columns"):
        raise InputError(what, NO_VALUE, f"expected a pandas DataFrame (a sweep frame), "
                         f"got {type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise InputError(what, NO_VALUE, f"the frame lacks column(s) {', '.join(map(repr, missing))} "
                         f"(it has {', '.join(map(repr, frame.columns))})")


def check_flags(**flags) -> None:
    """Refuse a switch of a plotting function that is not True or False (``"no"`` is a true
    value in Python: never read it as a yes)."""
    for key, value in flags.items():
        check_bool(key, value)
