"""mathhammer: probability analyzer for Warmachine attacks and damage.

Build a :class:`Scenario` from rules objects (or load one from TOML with
:func:`load_scenario`), then :func:`simulate` it by Monte Carlo or exactly.

>>> from mathhammer import Attacker, Scenario, Target, Weapon, simulate
>>> jack = Attacker("Heavy warjack", [Weapon("Fist", "melee", skill=7, pow=16, attacks=2)])
>>> scen = Scenario(Target(defense=12, arm=18, boxes=30), [jack])
>>> res = simulate(scen, method="exact")
>>> round(res.damage_mean, 3)
8.333
"""

from .engine import common_stride
from .errors import ExactNotApplicable, InputError, MathhammerError
from .explorer import explore
from .io.scenario_files import load_scenario, scenario_from_dict
from .io.trade_files import load_trade
from .play.turn import plan_turn
from .policy import Optimized, optimize
from .result import Result, paired_difference
from .rules import Attacker, AttackSlot, Scenario, Side, Spend, Target, Trade, TradeModel, Weapon
from .simulation import simulate
from .trade import simulate_trade
from .studies import Comparison, RunInterrupted, compare, matrix, pivot, pivot_matrix, sweep
from .studies.plan_checks import check_plans

__all__ = [
    "Attacker",
    "AttackSlot",
    "Comparison",
    "ExactNotApplicable",
    "InputError",
    "MathhammerError",
    "Optimized",
    "Result",
    "RunInterrupted",
    "Scenario",
    "Side",
    "Target",
    "Trade",
    "TradeModel",
    "Spend",
    "Weapon",
    "check_plans",
    "common_stride",
    "compare",
    "explore",
    "load_scenario",
    "load_trade",
    "matrix",
    "optimize",
    "paired_difference",
    "pivot",
    "pivot_matrix",
    "plan_turn",
    "scenario_from_dict",
    "simulate",
    "simulate_trade",
    "sweep",
]

__version__ = "0.1.0"
