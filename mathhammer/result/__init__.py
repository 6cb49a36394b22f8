"""Results: what a run found, and every way of reading it.

- :mod:`.fields`: the one column layout of the counters (kernels, exact engine, frames);
- :mod:`.core`: :class:`Result`, counters or probabilities turned into figures and intervals;
- its views, each None where it does not apply: :mod:`.card` (:class:`CardPart`, a grid or
  spiral), :mod:`.units` (:class:`UnitPart`), :mod:`.rounds` (:class:`RoundsPart`,
  continuous effects), :mod:`.targets` (:class:`TargetsPart`, several targets),
  :mod:`.bestplay` (:class:`BestPlay`, :class:`Decision`) and :mod:`.optimizer`
  (:class:`OptimizerReport`, :class:`PolicyChoice`);
- :mod:`.metrics`: the registry of summary metrics (kind, interval, label);
- :mod:`.paired`: paired differences of two runs on common random numbers;
- :mod:`.frames`: tidy pandas frames (imported when first asked for: pandas stays out of
  the command line's start-up);
- :mod:`.export`: CSV and JSON files;
- :mod:`.text`: the command line's text report.
"""

from .bestplay import BestPlay, Decision
from .card import CardPart
from .core import Result
from .fields import (
    EFFECT_AFTER,
    EFFECT_APPLIED,
    EFFECT_DAMAGE,
    EFFECT_DESTROYED,
    EFFECT_FIELDS,
    EFFECT_KILL,
    EFFECT_NAMES,
    EFFECT_PRESENT,
    EFFECT_TARGET_SPENT,
    EFFECT_TOUGH,
    SLOT_BOOST_ATTACK,
    SLOT_BOOST_DAMAGE,
    SLOT_CRIT,
    SLOT_DAMAGE,
    SLOT_DESTROYED,
    SLOT_FIELDS,
    SLOT_HIT,
    SLOT_MADE,
    SLOT_SHRED,
    SLOT_SPENT,
    SLOT_TARGET_SPENT,
    SLOT_TOUGH,
)
from .optimizer import OptimizerReport, PolicyChoice
from .paired import PAIRED_METRICS, paired_difference
from .rounds import RoundsPart
from .targets import TargetsPart
from .units import UnitPart

__all__ = [
    "Result",
    "BestPlay",
    "CardPart",
    "Decision",
    "OptimizerReport",
    "PolicyChoice",
    "RoundsPart",
    "TargetsPart",
    "UnitPart",
    "EFFECT_AFTER",
    "EFFECT_APPLIED",
    "EFFECT_DAMAGE",
    "EFFECT_DESTROYED",
    "EFFECT_FIELDS",
    "EFFECT_KILL",
    "EFFECT_NAMES",
    "EFFECT_PRESENT",
    "EFFECT_TARGET_SPENT",
    "EFFECT_TOUGH",
    "PAIRED_METRICS",
    "SLOT_BOOST_ATTACK",
    "SLOT_BOOST_DAMAGE",
    "SLOT_CRIT",
    "SLOT_DAMAGE",
    "SLOT_DESTROYED",
    "SLOT_FIELDS",
    "SLOT_HIT",
    "SLOT_MADE",
    "SLOT_SHRED",
    "SLOT_SPENT",
    "SLOT_TARGET_SPENT",
    "SLOT_TOUGH",
    "paired_difference",
]
