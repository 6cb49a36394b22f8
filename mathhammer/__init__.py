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

from .errors import ExactNotApplicable, InputError, MathhammerError
from .result import Result
from .rules import Attacker, AttackSlot, Scenario, Spend, Target, Weapon
from .scenario import load_scenario, scenario_from_dict
from .optimize import Optimized, optimize
from .simulate import simulate
from .sweep import sweep  # the function shadows its module, as simulate does
from .compare import Comparison, compare
from .matrix import matrix  # the function shadows its module, as sweep does

__all__ = [
    "Attacker",
    "AttackSlot",
    "Comparison",
    "ExactNotApplicable",
    "InputError",
    "MathhammerError",
    "Optimized",
    "Result",
    "Scenario",
    "Target",
    "Spend",
    "Weapon",
    "compare",
    "load_scenario",
    "matrix",
    "optimize",
    "scenario_from_dict",
    "simulate",
    "sweep",
]

__version__ = "0.1.0"
