"""A trade at a glance: each side's survival turn by turn, and beside it what decided it: the
crippling the first exchange left on each model, or, with no system to cripple, the models a
unit has left (or the damage on each model) turn by turn (docs/trades.md)."""

from __future__ import annotations

import numpy as np

from ..errors import InputError
from ._common import BAND_ALPHA, percent_axis

__all__ = ["plot_trade_matrix", "trade_figure"]

#: The two sides' colours (the first side's, the other's).
SIDE_COLORS = ("tab:red", "tab:blue")


def trade_figure(result, *, fig=None):
    """Draw ``result`` (a :class:`~mathhammer.result.trade.TradeResult`) on two panels: left,
    P(each side still has a model standing) after every turn, with its 95 % band (Monte
    Carlo); right, for each model, P(each system or aspect crippled while the model still
    stands) at the end of the first round: the crippling that shapes the rest of the trade.
    Without a grid, spiral or ``cripple_at``, the right panel is each unit's models standing
    turn by turn (with units), else each model's damage as a share of its boxes.
    Returns the figure (a new one of its own unless ``fig`` is given)."""
    from ..result.trade import TradeResult

    if not isinstance(result, TradeResult):
        raise InputError("trade_figure", type(result).__name__, "draws a TradeResult (simulate_trade)")
    if fig is None:
        import matplotlib.pyplot as plt

        fig = plt.figure(figsize=(10, 4.6), layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=(3, 2))
    _survival(result, left)
    if result.figures.crippled:
        _crippling(result, right)
    else:
        _by_turn(result, right)
    fig.suptitle(result.headline, fontsize="medium")
    return fig


def _survival(result, ax) -> None:
    f = result.figures
    x = np.arange(len(f.turns))
    for s, name in enumerate(result.sides):
        standing = 1.0 - f.destroyed[:, s]
        color = SIDE_COLORS[s]
        ax.step(x, standing, where="post", color=color, marker="o", label=name)
        if result.trials is not None:
            bands = np.array([result.interval(float(p)) for p in standing])
            ax.fill_between(x, bands[:, 0], bands[:, 1], step="post", color=color, alpha=BAND_ALPHA,
                            linewidth=0)
        ax.annotate(f"{standing[-1]:.0%}", (x[-1], standing[-1]), xytext=(6, 0),
                    textcoords="offset points", va="center", color=color, fontsize="small")
    ax.set_xticks(x, [f"R{r}\n{side}" for r, side in f.turns], fontsize="small")
    ax.set_xlim(-0.3, x[-1] + 0.6)
    ax.set_ylim(0, 1.05)
    percent_axis(ax.yaxis, decimals=0)
    ax.set_ylabel("P(side still standing)")
    ax.set_xlabel("after each side's turn")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="lower left", fontsize="small")


def _crippling(result, ax) -> None:
    f = result.figures
    k = min(1, len(f.turns) - 1)  # the end of round 1: both sides have acted once
    labels, values, colors = [], [], []
    for x, name in enumerate(result.models):
        standing = 1.0 - f.model_destroyed[k, x]
        for (model, letter), p in f.crippled.items():
            if model == name:
                labels.append(f"{name}: {letter}")
                values.append(max(0.0, float(p[k]) - (1.0 - standing)))
                colors.append(SIDE_COLORS[result.model_side[x]])
    y = np.arange(len(labels))[::-1]
    ax.barh(y, values, color=colors, alpha=0.8)
    ax.set_yticks(y, labels, fontsize="small")
    ax.set_xlim(0, max(0.05, 1.15 * max(values)))
    percent_axis(ax.xaxis, decimals=0)
    ax.set_xlabel(f"P(crippled, still standing) after round {f.turns[k][0]}")
    ax.grid(True, axis="x", alpha=0.3)


def _by_turn(result, ax) -> None:
    """Each unit's models standing on average, or each model's damage as a share of its
    boxes, after every turn: one line an entry, in its side's colour (dashed for the
    second entry of a side, and so on)."""
    f = result.figures
    x = np.arange(len(f.turns))
    sizes = [result.sizes[i] if result.sizes else 1 for i in range(len(result.models))]
    units = any(n > 1 for n in sizes)
    seen = [0, 0]
    for i, name in enumerate(result.models):
        side = result.model_side[i]
        style = ("-", "--", ":", "-.")[seen[side] % 4]
        seen[side] += 1
        if units:
            values, label = sizes[i] - f.lost[:, i], f"{name} ({sizes[i]})"
        else:
            values, label = f.damage[:, i] / result.boxes[i], name
        ax.step(x, values, where="post", color=SIDE_COLORS[side], linestyle=style, marker="o",
                markersize=4, label=label)
    ax.set_xticks(x, [f"R{r}" for r, _ in f.turns], fontsize="small")
    ax.set_xlim(-0.3, x[-1] + 0.3)
    if units:
        ax.set_ylim(0, 1.05 * max(sizes))
        ax.set_ylabel("models standing, on average")
    else:
        ax.set_ylim(0, 1.05)
        percent_axis(ax.yaxis, decimals=0)
        ax.set_ylabel("damage, share of its boxes")
    ax.set_xlabel("after each side's turn")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")


def plot_trade_matrix(frame, metric: str = "win", *, first: str | None = None, ax=None, **kwargs):
    """Heatmap of a trade matrix (:func:`~mathhammer.studies.trade_matrices.trade_matrix`):
    ``metric`` (default ``win``: P(the row card wins the trade)) of every row card against
    every column card; ``first`` (``"row"`` or ``"column"``) chooses the points of a matrix
    run with ``first="both"``. Other keyword arguments go to
    :func:`~mathhammer.plots.plot_matrix`. Returns the Axes."""
    from ..result.metrics import metric_label
    from .matrix import plot_matrix

    where = None if first is None else {"first": first}
    ax = plot_matrix(frame, metric, ax=ax, where=where, **kwargs)
    firsts = sorted(set(frame["first"])) if first is None else [first]
    goes = {"row": "the row card's side first", "column": "the column card's side first"}
    rounds = frame.attrs.get("rounds")
    ax.set_title(f"{metric_label(metric)}, row card against column card\n"
                 f"{' / '.join(goes[f] for f in firsts)}" + (f", {rounds} rounds" if rounds else ""),
                 fontsize="medium")
    ax.set_ylabel("row card")
    ax.set_xlabel("column card")
    return ax
