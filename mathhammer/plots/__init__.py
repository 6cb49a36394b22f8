"""Matplotlib plots of results and sweeps.

Every function draws into the Axes it is given (``ax=``) and returns it, in the style of
seaborn: extra keyword arguments go to the main matplotlib call (``bar``, ``imshow``,
``plot``). Without ``ax`` each call makes a new pyplot figure of its own (constrained
layout) and draws there, so several calls in one script give several figures, never one
figure drawn over; to place a plot, pass ``ax`` (``fig, ax = plt.subplots()``).

- :func:`plot_damage`: damage distribution, P(=k) bars and the "k or more" curve.
- :func:`plot_kill_heatmap`: kill probability (or any metric) of a sweep over two parameters.
- :func:`plot_matrix`: a metric of every attacker against every target (a balance matrix).
- :func:`plot_kill_vs`: a metric against one parameter, one line per loadout, with CI bands.
- :func:`plot_compare`: loadouts side by side (:func:`mathhammer.compare`), one bar each.
- :func:`plot_cripple`: probability each system or aspect ends crippled.
- :func:`plot_card`: the damage grid or life spiral, each box shaded by its mark probability.
- :func:`plot_kill_by_turn`: kill probability by the end of each round.
- :func:`plot_models_destroyed`: a unit as the target, P(exactly k models destroyed) bars and
  the "k or more" curve.
- :func:`plot_targets`: several targets, the probability each one (and every one) ends
  destroyed.
- :func:`main_figure` / :func:`save_figure`: the figure ``mathhammer run --plot FILE`` writes;
  :func:`sweep_figure` and :func:`compare_figure`: those of ``sweep --plot`` and ``compare --plot``;
  :func:`trade_figure`: a trade's (``trade --plot``), each side's survival turn by turn and
  the crippling the first round left; :func:`plot_trade_matrix`: a trade matrix's heatmap;
  :func:`plot_stat_worth`: what +1 of each stat is worth in a card's trades.

Exact results have no sampling error: they are drawn without bands (zero-width error bars).
"""

from .card import plot_card, plot_cripple
from .compare import plot_compare
from .damage import plot_damage
from .figure import compare_figure, main_figure, save_figure, sweep_figure, write_main_figure
from .matrix import plot_matrix
from .sweep import plot_kill_heatmap, plot_kill_vs
from .turns import plot_kill_by_turn
from .targets import plot_targets
from .trade import plot_trade_matrix, trade_figure
from .worth import plot_stat_worth
from .units import plot_models_destroyed

__all__ = [
    "plot_stat_worth",
    "plot_trade_matrix",
    "trade_figure",
    "compare_figure",
    "main_figure",
    "plot_card",
    "plot_compare",
    "plot_cripple",
    "plot_damage",
    "plot_kill_by_turn",
    "plot_kill_heatmap",
    "plot_kill_vs",
    "plot_matrix",
    "plot_models_destroyed",
    "plot_targets",
    "save_figure",
    "sweep_figure",
    "write_main_figure",
]
