"""Evaluate a scenario whose every spending policy is fixed, by a method, into a Result.

This is what every study calls once the policies are settled: :func:`mathhammer.simulate`
(after resolving ``policy = "optimize"``), the policy search for each candidate, sweeps,
comparisons and matrices. The method is ``"monte_carlo"`` (:mod:`mathhammer.montecarlo`) or
``"exact"`` (:mod:`mathhammer.exact`).
"""

from __future__ import annotations

import dataclasses

from ._core.limits import MAX_SEED, MAX_TRIALS, fresh_seed
from ._core.ticker import show_progress, ticking
from ._core.validate import check_int, check_sequence
from .errors import InputError
from .result import Result
from .rules import Scenario

__all__ = ["evaluate", "check_method", "check_method_arguments", "common_stride", "METHODS", "METHOD_NAMES"]

#: The methods, by their canonical names.
METHODS = ("monte_carlo", "exact")
#: Every name a method may be given by (``mc`` is short for ``monte_carlo``).
METHOD_NAMES = {"mc": "monte_carlo", "monte_carlo": "monte_carlo", "exact": "exact"}


def check_method(method: object, key: str = "method") -> str:
    """The canonical name of ``method`` (``"mc"`` -> ``"monte_carlo"``).

    >>> check_method("mc")
    'monte_carlo'
    >>> check_method("guess")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: method: must be one of monte_carlo, mc, exact (got 'guess')
    """
    if not isinstance(method, str) or method not in METHOD_NAMES:
        raise InputError(key, method, "must be one of monte_carlo, mc, exact")
    return METHOD_NAMES[method]


def check_method_arguments(method: str, **values) -> None:
    """Refuse the Monte Carlo arguments (``trials``, ``seed``, ``stride``) given (not None)
    with the exact method, which computes without them: a value given would be ignored.

    >>> check_method_arguments("monte_carlo", trials=100)
    >>> check_method_arguments("exact", trials=100)
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: trials: is Monte Carlo's: the exact method computes without trials, seed or stride (got 100)
    """
    if method != "exact":
        return
    for name, value in values.items():
        if value is not None:
            raise InputError(name, value, "is Monte Carlo's: the exact method computes without "
                             "trials, seed or stride")


def evaluate(scenario: Scenario, method: str = "monte_carlo", trials: int | None = None,
             seed: int | None = None, *, stride: int | None = None,
             progress: bool | None = False, explain: bool = True) -> Result:
    """The :class:`Result` of ``scenario`` by ``method``, every policy as the scenario says.

    Arguments as for :func:`mathhammer.simulate` (``method`` already checked; ``progress``
    False by default here: studies of many points show their own progress); attackers
    with ``policy = "optimize"`` spend as their ``spend`` table says (the policy search
    chooses those tables). The exact method takes no trials, seed or stride.
    """
    show = show_progress(progress)
    scenario.check_damage_to()
    if method == "exact":
        from .exact import exact_result  # the engines are imported when first used
        from .play import needs_play, report, solve_with_result

        sequence = scenario.attack_sequence()
        with ticking("exact", show):  # transitions built, shown once it lasts a second
            if explain and needs_play(scenario) and not scenario.several:
                # the decisions in a player's words, recorded by the one backward induction
                # (its tables are for one target)
                table, result = solve_with_result(scenario, sequence)
                return dataclasses.replace(result, play=report(table, scenario, result.slot_labels, sequence))
            return exact_result(scenario, sequence)
    trials = scenario.trials if trials is None else check_int("trials", trials, 1, MAX_TRIALS)
    if seed is None:
        seed = scenario.seed if scenario.seed is not None else fresh_seed()
    else:
        seed = check_int("seed", seed, 0, MAX_SEED)
    from .montecarlo import monte_carlo  # Numba is imported by the first Monte Carlo run only

    return monte_carlo(scenario, trials, seed, stride, show, explain)


def common_stride(scenarios) -> int:
    """The ``stride`` that lets every scenario of ``scenarios`` share common random numbers:
    the most dice-buffer entries any of their trials may read.

    >>> from mathhammer import Attacker, Scenario, Target, Weapon
    >>> jack = Attacker("Jack", [Weapon("Fist", "melee", skill=7, pow=16, attacks=2)])
    >>> points = [Scenario(Target(defense=12, arm=a, boxes=30), [jack]) for a in (16, 20)]
    >>> common_stride(points) == max(common_stride([p]) for p in points)
    True
    """
    if isinstance(scenarios, (str, bytes, Scenario)) or not hasattr(scenarios, "__iter__"):
        raise InputError("scenarios", scenarios, "must be a list of mathhammer Scenarios")
    scenarios = check_sequence("scenarios", list(scenarios), Scenario, "mathhammer Scenarios")
    from .montecarlo import max_draws

    return max(max_draws(s) for s in scenarios)
