"""The public entry point :func:`simulate`: check the arguments, settle the spending
policies, and have the engine evaluate the scenario."""

from __future__ import annotations

import dataclasses

from ._core.ticker import check_show, noticing
from ._core.validate import check_bool
from .engine import check_method, check_method_arguments, evaluate
from .errors import InputError
from .policy import optimize
from .result import Result
from .rules import Scenario

__all__ = ["simulate", "EXACT_NOTICE_AFTER"]

#: Seconds an exact run may last before a line on stderr says so and suggests Monte Carlo
#: (most take milliseconds; best play on a big grid or spiral may take a minute, or give up).
EXACT_NOTICE_AFTER = 5.0

_EXACT_NOTICE = ("mathhammer: the exact engine is still at work after {:.0f} s (every configuration of "
                 "a grid or spiral, every decision of best play); the Monte Carlo method "
                 "(--method monte_carlo, method=\"monte_carlo\") answers in seconds")


def simulate(
    scenario: Scenario,
    trials: int | None = None,
    seed: int | None = None,
    method: str = "monte_carlo",
    *,
    stride: int | None = None,
    progress: bool | None = None,
    explain: bool = True,
) -> Result:
    """Simulate a scenario and return its :class:`~mathhammer.result.Result`.

    Parameters
    ----------
    scenario : Scenario
    trials : int, optional
        Monte Carlo sample size; defaults to ``scenario.trials``.
    seed : int, optional
        Seed of the random streams; defaults to ``scenario.seed``, and when that is ``None``
        too a fresh seed is drawn and reported in ``Result.seed``. The same seed gives the
        same result whatever the number of threads.
    method : {"monte_carlo", "mc", "exact"}
        ``"exact"`` computes the distributions by enumeration and dynamic programming
        (:mod:`mathhammer.exact`) and raises :class:`~mathhammer.errors.ExactNotApplicable`
        where that engine cannot.
    stride : int, optional
        Common random numbers: every trial starts its dice ``stride`` pairs after the last
        one started, whatever it read, so scenarios simulated with the same seed and stride
        see the same dice in the same trial (trial j of one loadout meets the dice of trial
        j of another; neighbouring sweep points differ smoothly). Use
        :func:`mathhammer.common_stride` of the scenarios compared. ``None`` (the default)
        reads the dice packed, the fastest; the two give different draws of the same
        distribution.
    progress : bool, optional
        Show progress on stderr once a run has lasted a second: a bar over the trials of a
        Monte Carlo run, a counter of the transitions built by the exact engine and by the
        solve of best play. None (the default): when stderr is a terminal (a script run from
        a shell, the command line; not a notebook or a pipe). The first run after installing
        also says on stderr that it compiles the Monte Carlo kernels, and an exact run that
        lasts over :data:`EXACT_NOTICE_AFTER` seconds that Monte Carlo would answer in
        seconds, whatever this says.
    explain : bool
        With best play, say how to play it (``Result.play_table()``, the report's section,
        ``--json`` ``best_play.decisions``): a pass over the solved game weighing each
        decision, and for the exact method a second induction. Studies of many points
        (sweeps, matrices) turn it off; the figures are the same either way.

    When an attacker has ``policy = "optimize"``, its spending policy is chosen first by
    :func:`mathhammer.optimize` (same method, trials and seed) and the result of the best
    policy is returned (at the ``stride`` when one is given), with the optimizer's report in
    ``Result.optimizer``.
    """
    if not isinstance(scenario, Scenario):
        raise InputError("scenario", type(scenario).__name__, "must be a mathhammer.Scenario")
    method = check_method(method)
    check_method_arguments(method, trials=trials, seed=seed, stride=stride)
    check_show(progress)
    if any(a.policy == "optimize" for a in scenario.attackers):
        found = optimize(scenario, method=method, trials=trials, seed=seed, stride=stride)
        return dataclasses.replace(found.result, optimizer=found.report())
    check_bool("explain", explain)
    if method != "exact":
        return evaluate(scenario, method, trials, seed, stride=stride, progress=progress, explain=explain)
    with noticing(EXACT_NOTICE_AFTER, _EXACT_NOTICE.format(EXACT_NOTICE_AFTER)):
        return evaluate(scenario, method, trials, seed, stride=stride, progress=progress, explain=explain)
