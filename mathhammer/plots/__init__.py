"""Matplotlib plots of results and sweeps.

Every function draws into the Axes it is given (``ax=``; the current Axes of pyplot when
``None``) and returns it, in the style of seaborn: extra keyword arguments go to the main
matplotlib call (``bar``, ``imshow``, ``plot``).

- :func:`plot_damage`: damage distribution, P(=k) bars and the "k or more" curve.
- :func:`plot_kill_heatmap`: kill probability (or any metric) of a sweep over two parameters.
- :func:`plot_matrix`: a metric of every attacker against every target (a balance matrix).
- :func:`plot_kill_vs`: a metric against one parameter, one line per loadout, with CI bands.
- :func:`plot_cripple`: probability each system or aspect ends crippled.
- :func:`plot_card`: the damage grid or life spiral, each box shaded by its mark probability.
- :func:`plot_kill_by_turn`: kill probability by the end of each round.
- :func:`plot_models_destroyed`: a unit as the target, P(exactly k models destroyed) bars and
  the "k or more" curve.
- :func:`plot_targets`: several targets, the probability each one (and every one) ends
  destroyed.
- :func:`main_figure` / :func:`save_figure`: the figure ``mathhammer run --plot FILE`` writes.

Exact results have no sampling error: they are drawn without bands (zero-width error bars).
"""

from .card import plot_card, plot_cripple
from .damage import plot_damage
from .figure import main_figure, save_figure, write_main_figure
from .matrix import plot_matrix
from .sweep import plot_kill_heatmap, plot_kill_vs
from .turns import plot_kill_by_turn
from .targets import plot_targets
from .units import plot_models_destroyed

__all__ = [
    "main_figure",
    "plot_card",
    "plot_cripple",
    "plot_damage",
    "plot_kill_by_turn",
    "plot_kill_heatmap",
    "plot_kill_vs",
    "plot_matrix",
    "plot_models_destroyed",
    "plot_targets",
    "save_figure",
    "write_main_figure",
]
