"""Spending-policy optimizer: search the policy family of ``docs/activation.md``.

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

import dataclasses
import secrets
from dataclasses import dataclass

from .errors import InputError
from .result import Result
from .rules import Attacker, Scenario, Spend
from .rules.scenario import check_objective
from .rules.spend import MAX_THRESHOLD

__all__ = ["Optimized", "Candidate", "policy_family", "optimize"]


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
    adaptive_best : float or None
        With the exact method, when every attacker with points is optimised: the value of the
        best *adaptive* play (every boost and buy decided on the state, by backward
        induction, :func:`mathhammer.exact.optimal_value`), a ceiling for any policy.
    """

    objective: str
    attackers: tuple[str, ...]
    ranking: tuple[Candidate, ...]
    scenario: Scenario
    policies_tried: int = 0
    adaptive_best: float | None = None

    @property
    def best(self) -> Candidate:
        return self.ranking[0]

    @property
    def runner_up(self) -> Candidate | None:
        return self.ranking[1] if len(self.ranking) > 1 else None

    def to_dict(self) -> dict:
        """The chosen policy and the runner-up with their figures (the JSON ``optimizer``)."""

        def one(c: Candidate | None):
            if c is None:
                return None
            return {
                "policy": {name: s.to_dict() for name, s in zip(self.attackers, c.spends)},
                "label": c.label,
                "score": c.score,
                "score_ci95": list(c.score_ci95),
                "kill": c.result.kill,
                "kill_ci95": list(c.result.kill_ci95),
                "damage_mean": c.result.damage_mean,
            }

        return {
            "objective": self.objective,
            "attackers": list(self.attackers),
            "policies_tried": self.policies_tried,
            "distinct_policies": len(self.ranking),
            "chosen": one(self.best),
            "runner_up": one(self.runner_up),
            "adaptive_best": self.adaptive_best,
        }


def _needs(attacker: Attacker, scenario: Scenario) -> list[int]:
    """Every roll on two dice (``DEF - skill``) its attacks can need: at normal and base DEF 5,
    with and without upkeep spells, less every sum of the scenario's distinct -DEF effects;
    clamped to the thresholds a policy can name (2..13: needing 13 or more boosts the same)."""
    t = scenario.target
    minus = sorted({(w.name, w.def_minus) for a in scenario.attackers for w in a.weapons
                    if w.def_minus})
    sums = {0}
    for _name, x in minus:
        sums |= {s + x for s in sums}
    out = set()
    for w in attacker.weapons:
        spells = 0 if "blessed" in w.rules else t.spell_def
        upkeep = 0 if "blessed" in w.rules else t.upkeep_def
        skill = w.skill + attacker.combined_bonus
        for base5 in (False, True):
            for up in (0, upkeep):
                for s in sums:
                    need = t.defense_against(w.type, base_def_5=base5) + spells + up - s - skill
                    out.add(min(max(need, 2), MAX_THRESHOLD))
    return sorted(out)


def policy_family(attacker: Attacker, scenario: Scenario) -> list[Spend]:
    """The spending policies of ``attacker`` that may behave differently on ``scenario``.

    ``boost_attack``: never, always, and auto at each threshold that splits the rolls it can
    need; ``boost_damage``: never, always, auto; ``buy_attacks`` (only with a melee weapon)
    with each ``reserve`` from 0 to its points. An attacker without points has one policy.

    Examples
    --------
    >>> from mathhammer.rules import Target, Weapon
    >>> jack = Attacker("Jack", [Weapon("Fist", "melee", 7, 16, attacks=2)], focus=1)
    >>> s = Scenario(Target(defense=13, arm=18, boxes=10), [jack])
    >>> len(policy_family(jack, s))  # (never, always, auto 6+) x 3 x (no buy, reserve 0, 1)
    27
    """
    if attacker.points == 0:
        return [attacker.spend]
    needs = _needs(attacker, scenario)
    attack = [("never", attacker.spend.boost_attack_at), ("always", attacker.spend.boost_attack_at)]
    attack += [("auto", t) for t in needs[1:]]
    buys = [(False, 0)]
    if attacker.bought_weapon is not None:
        buys += [(True, r) for r in range(attacker.points + 1)]
    return [
        Spend(boost_attack=a, boost_attack_at=at, boost_damage=d, buy_attacks=b, reserve=r)
        for a, at in attack
        for d in ("never", "always", "auto")
        for b, r in buys
    ]


def _with_spends(scenario: Scenario, spends: dict[int, Spend]) -> Scenario:
    attackers = tuple(
        dataclasses.replace(a, spend=spends.get(i, a.spend), policy="fixed")
        for i, a in enumerate(scenario.attackers)
    )
    return dataclasses.replace(scenario, attackers=attackers)


def optimize(
    scenario: Scenario,
    objective: str | None = None,
    method: str = "monte_carlo",
    trials: int | None = None,
    seed: int | None = None,
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

    Returns
    -------
    Optimized
        The ranking (best first: highest score, then fewest points spent on average), the
        scenario with the chosen policies, and :meth:`Optimized.to_dict` for reports.
    """
    from .simulate import _ALIASES, simulate

    if not isinstance(scenario, Scenario):
        raise InputError("scenario", type(scenario).__name__, "must be a mathhammer.Scenario")
    objective = scenario.objective if objective is None else objective
    check_objective("objective", objective, scenario.target)
    targets = [i for i, a in enumerate(scenario.attackers) if a.policy == "optimize"]
    if not targets:
        raise InputError("attackers", [a.name for a in scenario.attackers],
                         'no attacker has policy = "optimize"')
    if seed is None:
        seed = scenario.seed if scenario.seed is not None else secrets.randbits(62)

    chosen = {i: scenario.attackers[i].spend for i in targets}
    ranking: list[Candidate] = []
    n_tried = 0
    for i in targets:
        family = policy_family(scenario.attackers[i], scenario)
        tried = []
        seen = set()
        for spend in family:
            trial = {**chosen, i: spend}
            result = simulate(_with_spends(scenario, trial), trials=trials, seed=seed,
                              method=method)
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
    if _ALIASES.get(method) == "exact" and all(
            a.policy == "optimize" for a in scenario.attackers if a.points):
        from .exact import optimal_value

        adaptive = optimal_value(scenario, objective)
    return Optimized(
        objective=objective,
        attackers=tuple(scenario.attackers[i].name for i in targets),
        ranking=tuple(ranking),
        scenario=_with_spends(scenario, chosen),
        policies_tried=n_tried,
        adaptive_best=adaptive,
    )
