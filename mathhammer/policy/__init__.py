"""Spending policies: the family of fixed policies (:mod:`.family`) and the search that picks
the best of them for an objective (:mod:`.search`, ``policy = "optimize"``). Every candidate
is evaluated by :func:`mathhammer.engine.evaluate`."""

from .family import policy_family, with_spends
from .search import Candidate, Optimized, optimize

__all__ = ["Candidate", "Optimized", "optimize", "policy_family", "with_spends"]
