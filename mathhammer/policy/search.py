"""Spending-policy search: every policy of the family (:mod:`.family`), evaluated and ranked.

An attacker with ``policy = "optimize"`` has its ``spend`` table chosen here: every member of
the family that behaves differently on the scenario is evaluated with the same seed (common
random numbers, so close policies are compared on mostly the same dice) or exactly, and
ranked by the scenario's objective (kill probability or expected damage). With several such
attackers the search is coordinate-wise, in attacker order: each is optimised given the
choices already made for the ones before it and the current policies of the ones after it.

The family is a heuristic of what players do; :func:`mathhammer.exact.optimal_value` gives the
value of the best adaptive play by backward induction on damage tracks, and the tests check
that the best policy of the family reaches it on small cases.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._core.limits import fresh_seed
from ..engine import check_method, check_method_arguments, evaluate
from ..errors import InputError
from ..result import OptimizerReport, PolicyChoice, Result
from ..rules import Scenario, Spend
from ..rules.scenario import check_objective
from .family import policy_family, with_spends

__all__ = ["Optimized", "Candidate", "optimize"]


@dataclass(frozen=True)
class Candidate:
    """One evaluated policy assignment: the spend of every optimised attacker and its figures."""

    spends: tuple[Spend, ...]     # one per optimised attacker, in attacker order
    result: Result
    score: float
    score_ci95: tuple[float, float]

    @property
    def label(self) -> str:
        return " | ".join(s.label for s in self.spends)


@dataclass(frozen=True)
class Optimized:
    """What the optimizer found.

    Attributes
    ----------
    objective : {"kill", "damage", "cripple:X"}
    attackers : tuple of str
        Names of the optimised attackers.
    ranking : tuple of Candidate
        The policies of the last round of the search that behave differently (the first of
        each set of alike policies), best first.
    policies_tried : int
        Policies evaluated over the whole search (every round), alike ones included.
    scenario : Scenario
        The scenario with the best policies filled in (``policy = "fixed"``).
    result : Result
        Its result: the best candidate's, or evaluated again at the ``stride`` asked for.
    adaptive_best : float or None
        With the exact method, when every attacker with points is optimised: the value of the
        best *adaptive* play (every boost and buy decided on the state, by backward
        induction, :func:`mathhammer.exact.optimal_value`), a ceiling for any policy.
    """

    objective: str
    attackers: tuple[str, ...]
    ranking: tuple[Candidate, ...]
    scenario: Scenario
    result: Result
    policies_tried: int = 0
    adaptive_best: float | None = None

    @property
    def best(self) -> Candidate:
        return self.ranking[0]

    @property
    def runner_up(self) -> Candidate | None:
        return self.ranking[1] if len(self.ranking) > 1 else None

    def report(self) -> OptimizerReport:
        """The chosen policy and the runner-up with their figures (``Result.optimizer``)."""

        def one(c: Candidate | None) -> PolicyChoice | None:
            if c is None:
                return None
            return PolicyChoice(spends=c.spends, label=c.label, score=c.score,
                                score_ci95=c.score_ci95, kill=c.result.kill,
                                kill_ci95=c.result.kill_ci95, damage_mean=c.result.damage_mean)

        return OptimizerReport(objective=self.objective, attackers=tuple(self.attackers),
                               policies_tried=self.policies_tried,
                               distinct_policies=len(self.ranking), chosen=one(self.best),
                               runner_up=one(self.runner_up), adaptive_best=self.adaptive_best)

    def to_dict(self) -> dict:
        """:meth:`report` as plain Python (the JSON ``optimizer``)."""
        return self.report().to_dict()


def optimize(
    scenario: Scenario,
    objective: str | None = None,
    method: str = "monte_carlo",
    trials: int | None = None,
    seed: int | None = None,
    *,
    stride: int | None = None,
) -> Optimized:
    """Choose the spending policy of every attacker with ``policy = "optimize"``.

    Parameters
    ----------
    scenario : Scenario
    objective : {"kill", "damage", "cripple:X"}, optional
        Defaults to ``scenario.objective``; ``cripple:X`` maximises the probability that
        system or aspect X of the target's grid or spiral ends crippled.
    method : {"monte_carlo", "mc", "exact"}
        How each policy is evaluated. Monte Carlo runs every policy with the same seed.
    trials, seed : int, optional
        As for :func:`mathhammer.simulate`; a seed is drawn once if none is given.
    stride : int, optional
        Common random numbers for :attr:`Optimized.result`: the chosen policies are
        evaluated once more at this stride (Monte Carlo; the search itself reads the dice
        packed, every policy with the same seed).

    Returns
    -------
    Optimized
        The ranking (best first: highest score, then fewest points spent on average), the
        scenario with the chosen policies, and :meth:`Optimized.to_dict` for reports.
    """
    if not isinstance(scenario, Scenario):
        raise InputError("scenario", type(scenario).__name__, "must be a mathhammer.Scenario")
    objective = scenario.objective if objective is None else objective
    method = check_method(method)
    check_method_arguments(method, trials=trials, seed=seed, stride=stride)
    check_objective("objective", objective, scenario.target)
    targets = [i for i, a in enumerate(scenario.attackers) if a.policy == "optimize"]
    if not targets:
        raise InputError("attackers", [a.name for a in scenario.attackers],
                         'no attacker has policy = "optimize"')
    if seed is None:
        seed = scenario.seed if scenario.seed is not None else fresh_seed()

    chosen = {i: scenario.attackers[i].spend for i in targets}
    ranking: list[Candidate] = []
    n_tried = 0
    for i in targets:
        family = policy_family(scenario.attackers[i], scenario)
        tried = []
        seen = set()
        for spend in family:
            trial = {**chosen, i: spend}
            result = evaluate(with_spends(scenario, trial), method, trials, seed, explain=False)
            # policies that behave alike here give identical counters (same seed) or
            # probabilities: keep the first of them only
            behaviour = (result.damage_weights.tobytes(), result.slot_weights.tobytes())
            if behaviour in seen:
                continue
            seen.add(behaviour)
            score, ci = result.objective_value(objective)
            tried.append(Candidate(tuple(trial[j] for j in targets), result, score, ci))
        n_tried += len(family)
        tried.sort(key=lambda c: (-c.score, float(c.result.spent_mean.sum())))
        chosen[i] = tried[0].spends[targets.index(i)]
        ranking = tried
    adaptive = None
    if method == "exact" and all(a.policy == "optimize" for a in scenario.attackers if a.points):
        from ..exact import optimal_value

        adaptive = optimal_value(scenario, objective)
    best = with_spends(scenario, chosen)
    result = ranking[0].result
    if stride is not None and method == "monte_carlo":
        result = evaluate(best, method, result.trials, result.seed, stride=stride)
    return Optimized(
        objective=objective,
        attackers=tuple(scenario.attackers[i].name for i in targets),
        ranking=tuple(ranking),
        scenario=best,
        result=result,
        policies_tried=n_tried,
        adaptive_best=adaptive,
    )
