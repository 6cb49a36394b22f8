"""The target's damage grid or life spiral: box mark odds and cripple odds."""

from __future__ import annotations

import math
import textwrap

import numpy as np
from matplotlib.axes import Axes
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize
from matplotlib.patches import Rectangle

from .._core.intervals import wilson_interval
from ..errors import NO_VALUE, InputError
from ._common import (BAR_COLOR, check_flags, get_axes, method_note, need_result, percent_axis,
                      spread_panels, target_title)

#: Colour of the bars over the trials the target still stands (beside every trial's).
STANDING_COLOR = "tab:orange"

__all__ = ["LABEL_POINTS", "STANDING_COLOR", "can_condition", "letter_names", "plot_card", "plot_cripple"]

#: Size (points) of the probability written on each box: readable at the default size.
LABEL_POINTS = 8.0


def letter_names(result) -> dict[str, str]:
    """Full names of the systems (grid) or aspects (spiral) on the result's card."""
    from ..rules.vocabulary import GRID_SYSTEM_NAMES, SPIRAL_ASPECT_NAMES

    kind = result.card.kind if result.card is not None else ""
    if kind == "spiral":
        return dict(SPIRAL_ASPECT_NAMES)
    if kind == "grid":
        return dict(GRID_SYSTEM_NAMES)
    return {}


def can_condition(result) -> bool:
    """Whether the card's figures can be read "if the target is still standing": one
    target, a single model with a card, destroyed in some trials but not all.

    A destroyed target has every box marked and every system or aspect crippled, so over the
    trials it stands, P(box marked) is ``(p - kill) / (1 - kill)``, and likewise a cripple:
    where the target often dies the unconditional map is all dark, the conditional one shows
    what a surviving target is left with.
    """
    return (result.card is not None and result.card.models == 1 and result.per_target is None
            and 0.0 < result.kill < 1.0)


def _standing(p: np.ndarray, kill: float) -> np.ndarray:
    """``p`` over the trials the target stands (see :func:`can_condition`)."""
    return np.clip((np.asarray(p, dtype=float) - kill) / (1.0 - kill), 0.0, 1.0)


def _check_condition(result, what: str) -> None:
    if not can_condition(result):
        raise InputError(what, NO_VALUE, f"standing=True needs one single-model target destroyed in "
                         f"some trials but not all (kill {result.kill:.4g})")


def _no_card(what: str) -> ValueError:
    return InputError(what, NO_VALUE, f"the target has no damage grid or life spiral "
                      "(a damage track has nothing to draw or cripple)")


def plot_cripple(result, *, ax: Axes | None = None, standing: bool | str = False,
                 **kwargs) -> Axes:
    """Bars of the probability each system (grid) or aspect (spiral) ends crippled, in the
    order of ``result.card.letters``, with 95% interval error bars (zero-width for exact
    results).

    ``standing``: False, over every trial; True, over the trials the target is still
    standing at the end (:func:`can_condition`; a Wilson interval over those trials);
    ``"both"``, the two side by side, each letter's pair of bars with a legend. Extra keyword
    arguments go to :meth:`~matplotlib.axes.Axes.bar`. Raises InputError when the target has
    no card, or ``standing`` asks for what :func:`can_condition` refuses.
    """
    need_result(result, "plot_cripple")
    if result.card is None or not result.card.letters:
        raise _no_card("plot_cripple")
    if standing not in (False, True, "both"):
        raise InputError("plot_cripple", NO_VALUE, f"standing must be False, True or 'both' (got {standing!r})")
    if standing:
        _check_condition(result, "plot_cripple")
    ax = get_axes(ax)
    letters = list(result.card.letters)
    names = letter_names(result)
    p = np.array([result.cripple[x] for x in letters], dtype=float)
    ci = result.cripple_ci95
    lo = np.array([ci[x][0] for x in letters], dtype=float)
    hi = np.array([ci[x][1] for x in letters], dtype=float)
    series = []
    color = kwargs.pop("color", None)  # the one series' colour, or every trial's of two
    if standing in (False, "both"):
        series.append(("every trial", p, lo, hi, color or BAR_COLOR))
    if standing:
        q = _standing(p, result.kill)
        if result.exact:
            q_lo = q_hi = q
        else:  # successes and trials over the trials the target stands
            n = result.trials * (1.0 - result.kill)
            bounds = np.array([wilson_interval(v * n, max(1, round(n))) for v in q])
            q_lo, q_hi = bounds[:, 0], bounds[:, 1]
        series.append(("if still standing", q, q_lo, q_hi,
                       (color if standing is True else None) or STANDING_COLOR))
    kwargs.setdefault("capsize", 0 if result.exact else 4)
    width = 0.8 / len(series)
    for i, (label, v, v_lo, v_hi, color) in enumerate(series):
        x = np.arange(len(letters)) + (i - (len(series) - 1) / 2) * width
        yerr = np.vstack([np.clip(v - v_lo, 0, None), np.clip(v_hi - v, 0, None)])
        bars = ax.bar(x, v, width=width, yerr=yerr, color=color, label=label, **kwargs)
        ax.bar_label(bars, labels=[f"{100 * y:.0f}%" if len(series) > 1 else f"{100 * y:.1f}%"
                                   for y in v], padding=2, fontsize="small")
    if len(series) > 1:  # above the tallest bar, inside the Axes
        ax.legend(loc="upper center", ncols=2, fontsize="small", frameon=False)
    ax.set_xticks(range(len(letters)),
                  [f"{x}\n" + textwrap.fill(names[x], 12) if x in names else x for x in letters],
                  fontsize="small")
    ax.set_ylim(0, 1.08 if len(series) == 1 else 1.2)  # two series: room for the legend
    ax.set_yticks(np.linspace(0.0, 1.0, 6))
    percent_axis(ax.yaxis)
    what = "aspect" if result.card.kind == "spiral" else "system"
    if result.card.models > 1:  # a unit of models with a card: the share of its models
        ax.set_ylabel(f"share of the {result.card.models} models\nwith the {what} crippled at the end")
    elif standing is True:
        ax.set_ylabel(f"P({what} crippled | still standing)")
    else:
        ax.set_ylabel(f"P({what} crippled at the end)")
    ax.set_title(f"{target_title(result, 'Crippled')} ({method_note(result)})")
    return ax


def plot_card(result, *, ax: Axes | None = None, cmap="Reds", annotate: bool = True,
              vmin: float = 0.0, vmax: float = 1.0, standing: bool = False, **kwargs) -> Axes:
    """The target's card with each box shaded by the probability it ends marked.

    A damage grid is drawn as on the card: columns 1..6 left to right (a colossal's: its left
    grid's L1..L6, a gap, its right grid's R1..R6), boxes top to bottom,
    each a :class:`~matplotlib.patches.Rectangle` with its system letter (hull boxes
    unlabelled). A life spiral is drawn as a ring when ``ax`` is polar (six 60° sectors,
    branch 1 at the top and clockwise, outermost box on the outer ring) and otherwise as a
    table (branches 1..6 top to bottom, outermost box first), each box a Rectangle with its
    aspect letter. Patches are added column by column (branch by branch), box by box, in the
    order of ``result.box_marked``, so there is one Rectangle per box. With ``annotate``
    each box also shows its probability. A colorbar (``vmin``..``vmax``) is added, and the
    figure's panels spread so that its label keeps clear of the next panel's
    (:func:`~mathhammer.plots._common.spread_panels`). Extra keyword arguments go to the
    Rectangles (``edgecolor``, ``linewidth``, ...). With
    ``standing`` each box is shaded by the probability it is marked over the trials the
    target is still standing at the end (:func:`can_condition`): where the target often
    dies, the map of a surviving target's damage.

    Raises InputError when the target has no card, has a grid and ``ax`` is polar, or
    ``standing`` asks for what :func:`can_condition` refuses.
    """
    check_flags(annotate=annotate, standing=standing)
    need_result(result, "plot_card")
    if result.card is None:
        raise _no_card("plot_card")
    if standing:
        _check_condition(result, "plot_card")
    ax = get_axes(ax)
    from matplotlib import colormaps

    if isinstance(cmap, str) and cmap not in colormaps:
        raise InputError("cmap", cmap, "is not a matplotlib colormap (e.g. Reds, viridis)")
    cmap = colormaps[cmap] if isinstance(cmap, str) else cmap
    for key, value in (("vmin", vmin), ("vmax", vmax)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise InputError(key, value, "must be a finite number (the colour scale's end)")
    if vmin >= vmax:
        raise InputError("vmax", vmax, f"must be above vmin ({vmin}): the colour scale runs from one to the other")
    norm = Normalize(vmin=vmin, vmax=vmax)
    kwargs.setdefault("edgecolor", "black")
    kwargs.setdefault("linewidth", 0.8)
    probs = [_standing(col, result.kill) if standing else np.asarray(col, dtype=float)
             for col in result.box_marked]
    card = result.card
    spiral = card.kind == "spiral"
    polar = getattr(ax, "name", "") == "polar"
    if polar and not spiral:
        raise InputError("plot_card", NO_VALUE, "a damage grid is drawn on rectilinear Axes, not polar ones")
    if spiral and polar:
        _draw_ring(ax, card.columns, probs, cmap, norm, annotate, kwargs)
    else:
        _draw_table(ax, card.columns, probs, cmap, norm, annotate, kwargs, rows=spiral)
    what = "P(box marked)" if card.models == 1 else f"share of the {card.models} models"
    if standing:
        what = "P(box marked | still standing)"
    spread_panels(ax.figure)  # the colorbar's label faces the next panel's, if any
    cbar = ax.figure.colorbar(ScalarMappable(norm=norm, cmap=cmap), ax=ax, shrink=0.8, label=what)
    percent_axis(cbar.ax.yaxis, decimals=0)
    kind = "life spiral" if spiral else "damage grid"
    if standing:
        last = (f"P(box marked at the end), if still standing ({100 * (1 - result.kill):.0f}% "
                "of trials)")
    elif card.models > 1:
        last = f"{what} marked at the end"
    else:
        last = "P(box marked at the end)"
    ax.set_title(f"{target_title(result, kind.capitalize())}\n{last}")
    return ax


def _text_color(rgba) -> str:
    r, g, b = rgba[:3]
    return "white" if 0.299 * r + 0.587 * g + 0.114 * b < 0.5 else "black"


def _label_box(ax, x, y, letter, p, color, annotate, dy):
    """Letter (not for hull boxes) and, with ``annotate``, the probability of one box."""
    named = letter != "."
    if named:
        ax.text(x, y - (dy if annotate else 0), letter, ha="center", va="center",
                fontsize="medium", fontweight="bold", color=color)
    if annotate:
        ax.text(x, y + (dy if named else 0), f"{100 * p:.0f}%", ha="center", va="center",
                fontsize=LABEL_POINTS, color=color)


def _draw_table(ax, card, probs, cmap, norm, annotate, kwargs, *, rows: bool) -> None:
    """Grid (``rows`` False): column c at x = c, box r at y = r (y axis downwards): every
    column starts at the top row, box 1 of each column in row 1, so a shorter column ends
    higher up, as the text report and the card tables (examples/cards/README.md) write it.
    Spiral table (``rows`` True): branch b at y = b, box i at
    x = i. A colossal's twelve columns: its left grid, a gap, its right grid."""
    depth = max((len(col) for col in card), default=0) or 1
    colossal = not rows and len(card) == 12
    at = [c + (0.5 if colossal and c >= 6 else 0.0) for c in range(len(card))]  # each column's x
    for c, col in enumerate(card):
        for r, letter in enumerate(col):
            p = float(probs[c][r])
            face = cmap(norm(p))
            x, y = (r, c) if rows else (at[c], r)
            ax.add_patch(Rectangle((x, y), 1, 1, facecolor=face, gid=f"{c + 1}:{r + 1}",
                                   **kwargs))
            _label_box(ax, x + 0.5, y + 0.5, letter, p, _text_color(face), annotate, 0.2)
    n_x, n_y = (depth, len(card)) if rows else (at[-1] + 1, depth)
    ax.set_xlim(0, n_x)
    ax.set_ylim(n_y, 0)
    ax.set_aspect("equal")
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(False)
    ax.tick_params(length=0)
    if rows:
        ax.set_yticks(np.arange(len(card)) + 0.5, [f"branch {b + 1}" for b in range(len(card))])
        ax.set_xticks(np.arange(depth) + 0.5, [str(i + 1) for i in range(depth)])
        ax.set_xlabel("box (outermost first)")
    else:
        ax.xaxis.tick_top()
        ax.set_xticks(np.asarray(at) + 0.5, [("L" if c < 6 else "R") * colossal + str(c % 6 + 1)
                                             for c in range(len(card))])
        ax.set_yticks([])
        ax.set_xlabel("column (left grid, right grid)" if colossal else "column")
        ax.xaxis.set_label_position("top")


def _upright(theta: float) -> float:
    """Rotation (degrees) of a label along the ring at ``theta`` (clockwise from the top):
    tangent to the ring, never upside down."""
    deg = -math.degrees(theta) % 360  # the tangent's angle on the page
    return deg - 180 if 90 < deg < 270 else deg


def _draw_ring(ax, card, probs, cmap, norm, annotate, kwargs) -> None:
    """Spiral on polar Axes: branch b is the sector [60 b, 60 (b + 1)) degrees clockwise from
    the top; box i of a branch spans radii [outer - i - 1, outer - i]."""
    depth = max((len(col) for col in card), default=0) or 1
    hole = 1.5
    outer = hole + depth
    width = 2 * math.pi / len(card)
    ax.set_theta_zero_location("N")
    ax.set_theta_direction(-1)
    for b, branch in enumerate(card):
        theta = (b + 0.5) * width
        for i, letter in enumerate(branch):
            p = float(probs[b][i])
            face = cmap(norm(p))
            ax.bar(theta, 1.0, width=width * 0.97, bottom=outer - i - 1, facecolor=face,
                   gid=f"{b + 1}:{i + 1}", **kwargs)
            # one line ("M 80%"): a ring is too thin for two lines at a readable size
            text = letter + (f" {100 * p:.0f}%" if annotate else "")
            ax.text(theta, outer - i - 0.5, text, ha="center", va="center",
                    fontsize=LABEL_POINTS, color=_text_color(face),
                    rotation=_upright(theta), rotation_mode="anchor")
    ax.set_ylim(0, outer)
    ax.set_yticks([])
    ax.set_xticks([(b + 0.5) * width for b in range(len(card))],
                  [str(b + 1) for b in range(len(card))])
    ax.grid(False)
    ax.spines["polar"].set_visible(False)
