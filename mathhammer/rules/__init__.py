"""Rules model: frozen, validated dataclasses in pure Python (no NumPy, no Numba).

Everything downstream (encoder, exact engine, reports) reads these objects; nothing here
knows how they are simulated.
"""

from .attacker import Attacker
from .scenario import Scenario
from .slots import AttackSlot
from .spend import Spend
from .target import Target
from .trade import Side, Trade, TradeModel
from .weapon import Weapon

__all__ = ["Attacker", "AttackSlot", "Scenario", "Side", "Spend", "Target", "Trade", "TradeModel", "Weapon"]
