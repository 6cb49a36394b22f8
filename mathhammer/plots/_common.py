"""Helpers shared by the plot modules."""

from __future__ import annotations

from matplotlib.axes import Axes
from matplotlib.ticker import MaxNLocator, PercentFormatter

#: Colours used throughout: bars, the disabled (killed) bar, lines.
BAR_COLOR = "tab:blue"
KILL_COLOR = "tab:red"
LINE_COLOR = "black"
BAND_ALPHA = 0.2


def get_axes(ax: Axes | None) -> Axes:
    """``ax``, or pyplot's current Axes (pyplot is imported only then)."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.gca()


def percent_axis(axis, decimals: int | None = None) -> None:
    """Show a probability axis (0..1) as percentages."""
    axis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=decimals))


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
    a line with markers, on a 0-100 % scale; returns (twin Axes, line)."""
    twin = ax.twinx()
    twin.set_label(label)
    line, = twin.plot(k, at_least, color=LINE_COLOR, marker="o", markersize=3, linewidth=1.2,
                      label="P(k or more)")
    twin.set_ylim(0, 1.05)
    twin.set_ylabel("P(k or more)")
    percent_axis(twin.yaxis)
    return twin, line


def method_note(result) -> str:
    """``exact`` or ``Monte Carlo, N trials`` for titles."""
    if result.exact:
        return "exact"
    return f"Monte Carlo, {result.trials:,} trials"


def target_title(result, what: str) -> str:
    name = result.target_name or "target"
    return f"{what}: {name}"


def need_columns(frame, columns, what: str) -> None:
    """``frame`` must be a DataFrame with ``columns`` (else a ValueError saying what is missing)."""
    if not hasattr(frame, "columns"):
        raise ValueError(f"{what}: expected a pandas DataFrame (a sweep frame), "
                         f"got {type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{what}: the frame lacks column(s) {', '.join(map(repr, missing))} "
                         f"(it has {', '.join(map(repr, frame.columns))})")
