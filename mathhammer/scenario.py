"""Scenario files (TOML) <-> rules objects: the names scripts and notebooks import.

The code lives in :mod:`mathhammer.io` (:mod:`~mathhammer.io.scenario_files`,
:mod:`~mathhammer.io.dump`, :mod:`~mathhammer.io.schema`); the format is
``docs/scenario-format.md``.
"""

from .io.dump import scenario_to_dict
from .io.scenario_files import load_scenario, loads_scenario, scenario_from_dict
from .io.schema import (
    ACTION_KEY,
    ATTACKER_KEYS,
    CARD_KEY,
    SETTINGS_KEYS,
    SIMULATION_KEYS,
    SPEND_KEYS,
    TARGET_KEYS,
    TOP_KEYS,
    WEAPON_KEYS,
    ScenarioFileError,
)

__all__ = [
    "ACTION_KEY",
    "ATTACKER_KEYS",
    "CARD_KEY",
    "SETTINGS_KEYS",
    "SIMULATION_KEYS",
    "SPEND_KEYS",
    "TARGET_KEYS",
    "TOP_KEYS",
    "WEAPON_KEYS",
    "ScenarioFileError",
    "load_scenario",
    "loads_scenario",
    "scenario_from_dict",
    "scenario_to_dict",
]
