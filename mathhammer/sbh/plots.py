"""Plots of SBH odds. Each function draws on ``ax`` (a new figure's Axes when omitted) and
returns the Axes, seaborn style, so plots compose into the caller's figures.
"""

from __future__ import annotations

from collections.abc import Iterable

import matplotlib.pyplot as plt
import numpy as np

from .exact import activation, shoot
from .results import SHOOT_OUTCOMES, TurnResult
from .rules import DEFAULT_SETTINGS, MAX_DICE, Settings

__all__ = ["plot_activation", "plot_shoot", "plot_turn"]

_ACTION_COLOURS = ("#bdbdbd", "#9ecae1", "#4292c6", "#08519c")
_SHOOT_COLOURS = {"nothing": "#bdbdbd", "beaten": "#fdae6b", "killed": "#e6550d",
                  "gruesome": "#7f2704"}


def _axes(ax):
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.5))
    return ax


def plot_activation(qualities: Iterable[int] = (2, 3, 4, 5, 6), dice: Iterable[int] = (1, 2, 3),
                    bonus: int = 0, settings: Settings = DEFAULT_SETTINGS, ax=None):
    """Stacked bars of the actions an activation roll gives, by Quality and dice.

    One group of bars per Quality, one bar per number of dice, stacked by the number of
    actions (0 to 3); the outcomes that are a turnover (two or more failures) are hatched.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = _axes(ax)
    qualities, dice = list(qualities), list(dice)
    width = 0.8 / max(1, len(dice))
    labelled = set()
    for qi, q in enumerate(qualities):
        for di, d in enumerate(dice):
            odds = activation(q, d, bonus, settings)
            x = qi + (di - (len(dice) - 1) / 2) * width
            bottom = 0.0
            for k, p in enumerate(odds.actions):
                p = float(p)
                label = f"{k} action{'s' if k != 1 else ''}" if k not in labelled else None
                labelled.add(k)
                ax.bar(x, p, width * 0.95, bottom=bottom, color=_ACTION_COLOURS[k],
                       hatch="//" if d - k >= 2 else None, edgecolor="white", label=label)
                bottom += p
            ax.text(x, 1.01, f"{d}d", ha="center", va="bottom", fontsize=7)
    ax.bar(np.nan, np.nan, color="white", edgecolor="black", hatch="//", label="turnover")
    ax.set_xticks(range(len(qualities)), [f"Q{q}+" for q in qualities])
    ax.set_ylim(0, 1.08)
    ax.set_ylabel("probability")
    title = "Activation roll" + (f" (bonus {bonus:+d})" if bonus else "")
    ax.set_title(title)
    ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False, fontsize=8)
    return ax


def plot_shoot(combat: int, target_combat: int, modifier: int = 0,
               shooters: Iterable[int] = range(1, 6), settings: Settings = DEFAULT_SETTINGS,
               ax=None):
    """Stacked bars of the outcomes of concentrated shooting by number of shooters.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = _axes(ax)
    shooters = list(shooters)
    bottoms = np.zeros(len(shooters))
    table = [shoot(n, combat, target_combat, modifier, settings) for n in shooters]
    for outcome in SHOOT_OUTCOMES:
        values = np.array([float(getattr(o, outcome)) for o in table])
        ax.bar(shooters, values, 0.7, bottom=bottoms, color=_SHOOT_COLOURS[outcome],
               label=outcome, edgecolor="white")
        bottoms += values
    ax.set_xticks(shooters)
    ax.set_xlabel("shooters")
    ax.set_ylabel("probability")
    ax.set_ylim(0, 1)
    ax.set_title(f"Concentrated shooting: combat {combat} {modifier:+d} against {target_combat}")
    ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False, fontsize=8)
    return ax


def plot_turn(result: TurnResult, ax=None, label: str | None = None):
    """Bars of the distribution of a turn's total actions (call again on the same ``ax``
    with another result and a ``label`` to compare plans).

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = _axes(ax)
    pmf = np.asarray(result.actions_pmf)
    k = np.arange(len(pmf))
    ax.step(k, pmf, where="mid", label=label or f"mean {result.expected_actions:.2f}")
    ax.fill_between(k, pmf, step="mid", alpha=0.3)
    ax.set_xlabel("actions in the turn")
    ax.set_ylabel("probability")
    ax.legend(frameon=False, fontsize=8)
    return ax


assert MAX_DICE < len(_ACTION_COLOURS)
