"""Song of Blades and Heroes (SBH): activation rolls, group orders, concentrated shooting.

docs/rules.md section 8, as docs/sbh.md describes it. Exact odds for one roll and one shot
(:mod:`.exact`), exact or Monte Carlo distributions of a whole turn (:mod:`.simulate`), tidy
tables (:mod:`.reports`) and plots (:mod:`.plots`, imported on first use).

>>> from mathhammer import sbh
>>> [round(float(p), 4) for p in sbh.activation(3, 3).actions]
[0.037, 0.2222, 0.4444, 0.2963]
>>> str(sbh.shoot(5, 2, 4, modifier=1).kill_or_better)
'1/2'
"""

from .exact import (
    activation,
    best_dice,
    classify_shot,
    shoot,
    step_outcomes,
    turn_odds,
    volley,
)
from .plans import Group, Model, Solo, Turn, Warband
from .results import SHOOT_OUTCOMES, ActivationOdds, BestDice, ShootOdds, TurnResult
from .rules import DEFAULT_SETTINGS, Settings, success_faces
from .simulate import simulate_turn

__all__ = [
    "DEFAULT_SETTINGS",
    "SHOOT_OUTCOMES",
    "ActivationOdds",
    "BestDice",
    "Group",
    "Model",
    "Settings",
    "ShootOdds",
    "Solo",
    "Turn",
    "TurnResult",
    "Warband",
    "activation",
    "activation_summary",
    "activation_table",
    "best_dice",
    "classify_shot",
    "compare_plans",
    "group_vs_individual",
    "plot_activation",
    "plot_shoot",
    "plot_turn",
    "shoot",
    "shoot_table",
    "simulate_turn",
    "step_outcomes",
    "success_faces",
    "turn_odds",
    "turn_table",
    "volley",
]


_LAZY = {
    "plot_activation": "plots",
    "plot_shoot": "plots",
    "plot_turn": "plots",
    "activation_summary": "reports",
    "activation_table": "reports",
    "group_vs_individual": "reports",
    "shoot_table": "reports",
    "turn_table": "reports",
    "compare_plans": "reports",
}


def __getattr__(name):  # tables import pandas, plots matplotlib: only when asked for
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
