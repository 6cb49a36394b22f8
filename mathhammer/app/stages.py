"""What the explorer computes for a scenario: exact where it answers quickly, Monte Carlo by
stages otherwise, every stage stoppable when a newer value makes it stale.

Methods (the page's "Method" choice):

- ``"auto"``: a target with a damage track is tried exactly for :data:`EXACT_BUDGET` seconds
  (the exact engine answers most of those in milliseconds); a card (grid or spiral), or an
  exact try that overruns or that the exact engine cannot compute, goes to Monte Carlo: a
  quick estimate of :data:`QUICK_TRIALS` trials, then the document's trials.
- ``"exact"``: the exact engine, however long it takes (its refusal is the answer's note).
- ``"monte_carlo"``: the quick estimate, then the document's trials.

Each stage is one :class:`Answer`; the last is ``final``. A scenario with a battlegroup (an
attacker's ``controls``) then gets its turn planned (:func:`plan_stage`). The computation is
stopped where it stands (:func:`mathhammer._core.ticker.stopping`) when ``stop()`` raises
:class:`Superseded`.

>>> from mathhammer.app.document import new_document, put, to_scenario
>>> doc = put(new_document(), ("target",), {"def": 12, "arm": 18, "boxes": 28})
>>> [(a.method, a.final) for a in answers(to_scenario(doc), "auto")]
[('exact', True)]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .._core.ticker import stopping
from ..engine import evaluate
from ..errors import ExactNotApplicable, InputError
from ..result import Result
from ..rules import Scenario
from ..rules.battlegroup import battlegroups

__all__ = ["plan_stage", "EXACT_BUDGET", "METHODS", "QUICK_TRIALS", "Answer", "OverBudget", "Superseded", "answers"]

#: The page's methods, in the order it offers them.
METHODS = ("auto", "exact", "monte_carlo")
#: Trials of the first Monte Carlo estimate (about a tenth of a second warm).
QUICK_TRIALS = 20_000
#: Seconds "auto" lets the exact engine try before it turns to Monte Carlo.
EXACT_BUDGET = 0.5


class Superseded(Exception):
    """A newer value has made the computation stale (raised by the runner's check)."""


class OverBudget(Exception):
    """The exact try of ``"auto"`` has run past :data:`EXACT_BUDGET`."""


@dataclass(frozen=True)
class Answer:
    """One stage's figures.

    Attributes
    ----------
    result : Result
    method : {"exact", "monte_carlo"}
    final : bool
        No later stage comes for this value.
    note : str
        Why this method (an exact try that did not answer, a refusal), or ``""``.
    seconds : float
        Time the stage took.
    """

    result: Result
    method: str
    final: bool
    note: str = ""
    seconds: float = 0.0


def _no_stop() -> None:
    return None


def _run(scenario: Scenario, method: str, trials: int | None, check: Callable[[], None]) -> Result:
    with stopping(check):
        return evaluate(scenario, method, trials, scenario.seed if scenario.seed is not None else 1)


def answers(scenario: Scenario, method: str = "auto",
            stop: Callable[[], None] = _no_stop, quick: bool = True) -> Iterator[Answer]:
    """The stages of ``scenario`` by ``method``, each an :class:`Answer`, the last final.

    ``quick``: Monte Carlo starts with an estimate of :data:`QUICK_TRIALS` trials (False: the
    document's trials at once, where they are known to take a moment only).

    Raises
    ------
    InputError
        ``method``: not one of :data:`METHODS`.
    ExactNotApplicable
        ``method="exact"`` on a scenario the exact engine cannot compute.
    Superseded
        Whatever ``stop()`` raises, at the next check of the running stage.
    """
    if method not in METHODS:
        raise InputError("method", method, f"must be one of {', '.join(METHODS)}")
    note = ""
    if method == "exact" or (method == "auto" and scenario.targets[0].capacity == "track"):
        deadline = time.perf_counter() + EXACT_BUDGET

        def check() -> None:
            stop()
            if method == "auto" and time.perf_counter() > deadline:
                raise OverBudget

        t0 = time.perf_counter()
        try:
            result = _run(scenario, "exact", None, check)
            yield Answer(result, "exact", True, seconds=time.perf_counter() - t0)
            return
        except OverBudget:
            note = f"exact would take over {EXACT_BUDGET:g} s: choose Exact to wait for it"
        except ExactNotApplicable as err:
            if method == "exact":
                raise
            note = f"not exact: {err}"
    elif method == "auto":
        note = "a card's grid or spiral: Monte Carlo first (choose Exact to wait for exact figures)"
    trials = scenario.trials
    for n in ((QUICK_TRIALS,) if quick and trials > QUICK_TRIALS else ()) + (trials,):
        t0 = time.perf_counter()
        result = _run(scenario, "monte_carlo", n, stop)
        yield Answer(result, "monte_carlo", n == trials, note, time.perf_counter() - t0)


def plan_stage(scenario: Scenario, stop: Callable[[], None] = _no_stop) -> tuple[object, str] | None:
    """The turn planned (:func:`mathhammer.play.turn.plan_turn`: every allocation and order,
    and the adaptive order) for a scenario with a battlegroup, as ``(TurnPlans, "")``, or
    ``(None, why)`` where it cannot be planned (several targets, a plan beyond the exact
    engine ...); None without a battlegroup. Stopped as the stages are."""
    if not battlegroups(scenario.attackers):
        return None
    from ..play.turn import plan_turn

    try:
        with stopping(stop):
            return plan_turn(scenario), ""
    except (InputError, ExactNotApplicable) as err:
        return None, f"the turn is not planned: {err}"
