"""The main figure of a result, and writing figures to files (``mathhammer run --plot``).

Nothing here uses pyplot: figures are :class:`matplotlib.figure.Figure` objects printed
through the Agg, SVG or PDF canvas, so no GUI backend is ever needed.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from .._core.paths import path_of
from .._core.validate import check_bool, check_int
from ..errors import NO_VALUE, InputError
from ._common import method_note, need_columns, need_comparison, need_result

__all__ = ["PLOT_SUFFIXES", "compare_figure", "figure_title", "main_figure", "save_figure",
           "sweep_figure", "write_main_figure"]

#: File kinds :func:`save_figure` writes, by suffix.
PLOT_SUFFIXES = (".png", ".svg", ".pdf")
#: The most dots per inch a figure file is written at (a PNG of a few hundred megapixels).
MAX_DPI = 1200


def _panels(result) -> list[list[str]]:
    """Mosaic of the main figure: damage (a unit: models destroyed, and the damage on the
    unit when its models have several boxes) and rounds on top, card (and cripple) below."""
    unit = result.models > 1
    first = (["models"] + (["damage"] if result.boxes > result.models else [])) if unit else ["damage"]
    if result.several:
        first = ["targets"] + first
    top = first + (["kill_by_turn"] if result.turns > 1 else [])
    card = result.card
    bottom = ([] if card is None else ["card"] + (["cripple"] if card.letters else []))
    rows = [r for r in (top, bottom) if r]
    width = max(len(r) for r in rows)
    # a lone panel in a row spans the whole row
    return [r * width if len(r) == 1 else r for r in rows]


def main_figure(result, *, scale: float = 1.0) -> Figure:
    """The figure ``mathhammer run --plot FILE`` writes.

    ``scale`` multiplies its size in inches, its text staying the same size: the explorer
    draws it at 0.75, so that shown at the page's width its text reads as the page's.

    Panels (Axes labelled with these names): ``"targets"`` (:func:`plot_targets`, several
    targets), ``"models"`` (:func:`plot_models_destroyed`, a
    unit as the target), ``"damage"`` (:func:`plot_damage`, but for a unit of one-box models),
    ``"kill_by_turn"`` (:func:`plot_kill_by_turn`, when ``result.turns > 1``), ``"card"``
    (:func:`plot_card`, when the target has a grid or spiral; a polar ring for a spiral) and
    ``"cripple"`` (:func:`plot_cripple`, when the card has systems or aspects). Twin and
    colorbar Axes come on top of those in ``fig.axes``. When the target is destroyed in
    some trials but not all (:func:`~mathhammer.plots.card.can_condition`), the card shows
    the marks of a target still standing at the end and the cripple bars come in pairs,
    every trial and still standing: a kill marks every box, so the plain map says little
    where the kill is likely.

    The figure's title (:func:`figure_title`) names the attackers and the target and says
    the headline figures and how they were found; the panels' titles only say what each
    panel shows, so nothing is said twice.
    """
    need_result(result, "main_figure")
    from .card import can_condition, plot_card, plot_cripple
    from .damage import plot_damage
    from .turns import plot_kill_by_turn
    from .targets import plot_targets
    from .units import plot_models_destroyed

    mosaic = _panels(result)
    ncols = len(mosaic[0])
    # room for the title's three lines, the legend under the damage bars, and a card
    spiral = result.card is not None and result.card.kind == "spiral"
    height = 4.8 * len(mosaic) + 0.9 + (1.4 if spiral else 0.6 if result.card is not None else 0)
    fig = Figure(figsize=(6.4 * ncols * scale, height * scale), layout="constrained")
    extra = {"card": {"projection": "polar"}} if spiral else {}
    # a spiral's ring gets the taller row: its labels need the room
    ratios = [1.0, 1.3] if spiral and len(mosaic) == 2 else None
    axes = fig.subplot_mosaic(mosaic, per_subplot_kw=extra, height_ratios=ratios)
    for name, ax in axes.items():
        ax.set_label(name)
    if "targets" in axes:
        plot_targets(result, ax=axes["targets"])
    if "models" in axes:
        plot_models_destroyed(result, ax=axes["models"])
    if "damage" in axes:
        plot_damage(result, ax=axes["damage"])
    if "kill_by_turn" in axes:
        plot_kill_by_turn(result, ax=axes["kill_by_turn"])
    # a target destroyed in some trials: its card as a surviving target is left (a kill
    # marks every box, so the plain map darkens with the kill and says little more)
    standing = can_condition(result)
    if "card" in axes:
        plot_card(result, ax=axes["card"], standing=standing)
    if "cripple" in axes:
        plot_cripple(result, ax=axes["cripple"], standing="both" if standing else False)
    _short_titles(axes, result, fig.get_figwidth() / ncols)
    fig.suptitle(figure_title(result, width=fig.get_figwidth()))
    return fig


def _short_titles(axes: dict, result, width: float) -> None:
    """Panel titles that say what each panel shows and nothing more: who and how (the
    matchup, the method, the seed) is said once, in the figure's title. The card's, the
    longest, is wrapped to its column's ``width`` (inches, about ten characters an inch)."""
    for name, ax in axes.items():
        if name == "card":  # keep the quantity: "P(box marked ...)" or a unit's share
            title, chars = ax.get_title().split("\n")[-1], max(30, int(10 * width))
            if len(title) > chars and " (" in title:  # the share of trials on a line of its own
                head, _, tail = title.rpartition(" (")
                title = f"{head}\n({tail}"
            ax.set_title("\n".join(textwrap.fill(line, chars) for line in title.split("\n")))
        else:
            ax.set_title(_PANEL_TITLES[name])
    if "cripple" in axes and result.card.models == 1:
        kind = "aspect" if result.card.kind == "spiral" else "system"
        axes["cripple"].set_title(f"P({kind} crippled at the end)")


#: The title of each panel of the main figure (the card's keeps its own last line).
_PANEL_TITLES = {"targets": "Each target destroyed", "models": "Models destroyed",
                 "damage": "Damage points marked", "kill_by_turn": "Killed by the end of the round",
                 "cripple": "Crippled at the end"}


def figure_title(result, *, width: float = 6.4) -> str:
    """The title of the main figure: who attacks whom, the headline figures, and how they
    were found (method, seed, best play), each line wrapped to fit a figure ``width``
    inches wide (about ten characters an inch at the title's size), never clipped."""
    name = result.target_name or "target"
    attackers = list(result.attacker_names)
    who = (f"{', '.join(attackers)} ({'attacker' if len(attackers) == 1 else 'attackers'}) "
           f"vs {name} (target)" if attackers else name)
    what = "exact" if result.exact else f"{method_note(result)}, seed {result.seed}"
    play = result.play.solved_on if result.play is not None else ""
    if play:  # say how the points were spent
        what += "; best play" + ("" if play == "exact" else " (relaxed)" if play.startswith("relaxed")
                                 else " (not solved: default policy)")
    if result.several:
        figures = (f"every target destroyed {100 * result.kill:.2f}%, "
                   f"{result.models_destroyed_mean:.2f} of {result.models} models destroyed "
                   "on average")
    elif result.models > 1:
        figures = (f"{result.models} models: all destroyed {100 * result.kill:.2f}%, "
                   f"{result.models_destroyed_mean:.2f} destroyed on average")
    else:
        figures = f"kill {100 * result.kill:.2f}%, expected damage {result.damage_mean:.2f}"
    chars = max(40, int(10 * width))
    return "\n".join(textwrap.fill(line, chars) for line in (who, figures, f"({what})"))


def _how(attrs_or_method, trials=None, seed=None) -> str:
    if attrs_or_method == "exact":
        return "exact"
    return f"Monte Carlo, {trials:,} trials, seed {seed}, common random numbers"


def sweep_figure(frame, metric: str = "kill") -> Figure:
    """The figure ``mathhammer sweep --plot FILE`` writes: ``metric`` over the swept
    parameters of a :func:`mathhammer.sweep` frame.

    One parameter: :func:`plot_kill_vs`, a line per loadout with its 95 % band. Two: a
    :func:`plot_kill_heatmap` per loadout side by side, the first parameter up the rows,
    the second across (as the text table puts them). Raises InputError (one line) for
    another number of parameters or a metric the frame lacks.
    """
    from ..result.metrics import SUMMARY_COLUMNS
    from .sweep import plot_kill_heatmap, plot_kill_vs

    need_columns(frame, ("metric", "value"), "sweep_figure")
    params = [c for c in frame.columns if c not in SUMMARY_COLUMNS and c != "loadout"]
    if len(params) not in (1, 2):
        raise InputError("sweep_figure", NO_VALUE, f"draws a sweep over one or two parameters "
                         f"(this one has {len(params)})")
    a = frame.attrs
    how = _how(a.get("method"), a.get("trials"), a.get("seed"))
    if len(params) == 1:
        fig = Figure(figsize=(7, 4.5), layout="constrained")
        plot_kill_vs(frame, params[0], metric=metric, ax=fig.subplots())
    else:
        loadouts = (list(dict.fromkeys(frame["loadout"])) if "loadout" in frame.columns
                    else [None])
        fig = Figure(figsize=(6.5 * len(loadouts), 5.5), layout="constrained")
        for ax, name in zip(np.atleast_1d(fig.subplots(1, len(loadouts))), loadouts):
            plot_kill_heatmap(frame, x=params[1], y=params[0], metric=metric, loadout=name,
                              ax=ax)
    who = a.get("matchup")
    # two lines: who against whom, then how (one line is wider than a one-panel figure)
    fig.suptitle(f"{who}\nsweep: {how}" if who else f"Sweep ({how})", fontsize="medium")
    return fig


def compare_figure(comparison) -> Figure:
    """The figure ``mathhammer compare --plot FILE`` writes: a :func:`plot_compare` panel
    per figure the comparison ranks (kill, mean damage and, against a unit, models
    destroyed), side by side, each with its verdict."""
    need_comparison(comparison, "compare_figure")
    from .compare import plot_compare

    metrics = list(comparison.best) or ["kill"]
    fig = Figure(figsize=(5.8 * len(metrics), 2.4 + 0.5 * len(comparison.labels)),
                 layout="constrained")
    for ax, metric in zip(np.atleast_1d(fig.subplots(1, len(metrics))), metrics):
        plot_compare(comparison, metric, ax=ax)
    how = _how(comparison.method, comparison.trials, comparison.seed)
    fig.suptitle(f"Comparison of {len(comparison.labels)} loadouts ({how})", fontsize="medium")
    return fig


def save_figure(fig: Figure, path, *, dpi: int = 120, overwrite: bool = False) -> Path:
    """Write ``fig`` to ``path``: PNG, SVG or PDF by the suffix (case-insensitive).

    ``dpi``: dots per inch of a PNG (1 to 1,200). An existing file is replaced only with
    ``overwrite=True`` (``--force`` on the command line): nothing a user wrote is replaced
    without asking. Raises :class:`~mathhammer.errors.InputError` (key ``--plot``) for
    another suffix, an existing file, or a file that cannot be written. Returns the path
    written.
    """
    if not isinstance(fig, Figure):
        raise InputError("save_figure", fig, "draws a matplotlib Figure (main_figure, sweep_figure ...)")
    p = _figure_path(path, dpi, overwrite)
    from matplotlib.backend_bases import FigureCanvasBase

    if type(fig.canvas) is FigureCanvasBase:  # a bare Figure (not made by pyplot)
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
    try:
        fig.savefig(p, format=p.suffix.lower()[1:], dpi=dpi)
    except OSError as e:
        raise InputError("--plot", str(path), f"cannot be written ({e.strerror or e})") from None
    return p


def _figure_path(path, dpi, overwrite) -> Path:
    """``path`` as a figure file to write, once its suffix, ``dpi`` and ``overwrite`` are
    checked (before anything is drawn)."""
    check_int("dpi", dpi, 1, MAX_DPI)
    check_bool("overwrite", overwrite)
    p = path_of("--plot", path, "a figure file")
    if p.suffix.lower() not in PLOT_SUFFIXES:
        raise InputError("--plot", str(path), "must end in .png, .svg or .pdf")
    if p.exists() and not overwrite:
        raise InputError("--plot", str(path), "already exists: give overwrite=True (--force) to "
                         "replace it, or another path")
    return p


def write_main_figure(result, path, *, dpi: int = 120, overwrite: bool = False) -> Path:
    """``save_figure(main_figure(result), path)``: what ``mathhammer run --plot`` does.
    The path, ``dpi`` and ``overwrite`` are checked before anything is drawn."""
    need_result(result, "write_main_figure")
    _figure_path(path, dpi, overwrite)
    return save_figure(main_figure(result), path, dpi=dpi, overwrite=overwrite)
