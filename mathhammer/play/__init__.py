"""Best play: the decisions of attackers and targets that play their best, as tables.

The exact engine finds best play by backward induction (:mod:`mathhammer.exact.induction`);
this package reads its decisions into the dense tables the Monte Carlo kernel follows
(:mod:`.solve`, laid out as :mod:`.codes` says), solving a documented relaxation where the
exact state is too large (:mod:`.relax`). docs/best-play.md describes the game and the
relaxation's loss.
"""

from .codes import KeySpace
from .relax import relaxed
from .solve import MAX_TABLE_BYTES, DecisionTable, needs_play, report, solve, solve_with_result

__all__ = ["KeySpace", "DecisionTable", "solve", "solve_with_result", "needs_play", "report", "relaxed", "MAX_TABLE_BYTES"]
