"""The turn planner's best plans confirmed by Monte Carlo, side by side with common random
numbers (docs/turn.md).

On a damage grid or life spiral the planner (:func:`mathhammer.play.turn.plan_turn`) ranks
the plans on the grid's track relaxation; :func:`check_plans` runs the best few allocations
(each in its best fixed order), the file's own plan and an even allocation on the real card by
Monte Carlo, every one with the same seed and dice stride, so that trial j of each meets the
same dice, and compares the best of them with each of the others by a paired interval over
chunks of trials (:func:`mathhammer.result.paired.paired_difference`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .._core.limits import fresh_seed
from ..engine import common_stride
from ..errors import InputError
from ..play.plans import TurnPlans
from ..result import Result
from ..result.paired import paired_difference
from ..result.metrics import objective_value
from ..simulation import simulate

__all__ = ["PlanCheck", "check_plans", "METRIC_OF"]

#: The paired metric of each planning objective.
METRIC_OF = {"kill": "kill", "damage": "damage_mean", "destroyed": "destroyed"}


@dataclass(frozen=True, eq=False)
class PlanCheck:
    """Plans run by Monte Carlo with common random numbers, best first by the objective.

    Attributes
    ----------
    plans : TurnPlans
        What was planned.
    checked : tuple of (str, Plan, Result)
        Each plan run: its label (``"plan 1"`` ... in the planner's rank, ``"the file's plan"``,
        ``"an even allocation"``), the plan, its result; sorted by the objective, best first.
    metric : str
        ``kill``, ``damage_mean`` or ``destroyed``.
    versus : tuple of (str, dict)
        The best plan against each other plan: its label and the paired difference (best
        minus it: ``difference``, ``ci95``, ``se``, ``method``).
    trials, seed : int
    """

    plans: TurnPlans
    checked: tuple
    metric: str
    versus: tuple
    trials: int
    seed: int

    @property
    def best(self) -> tuple:
        """``(label, plan, result)`` of the best plan by Monte Carlo."""
        return self.checked[0]

    def value(self, result: Result) -> tuple[float, float, float]:
        """The objective's figure in ``result``, with its 95% interval."""
        value, (lo, hi) = objective_value(result, self.plans.scenario.objective)
        return float(value), float(lo), float(hi)

    def frame(self):
        """One row a plan run: ``label``, ``order``, each attacker's ``focus:NAME``,
        ``planned`` (the planner's figure, on the relaxation where it planned on one),
        ``value``, ``ci_low``, ``ci_high`` (Monte Carlo), ``difference``, ``diff_low``,
        ``diff_high`` (the best minus it, paired)."""
        import pandas as pd

        diffs = dict(self.versus)
        rows = []
        for label, plan, result in self.checked:
            v, lo, hi = self.value(result)
            d = diffs.get(label)
            ci = (d or {}).get("ci95") or (float("nan"), float("nan"))
            row = {"label": label, "order": " > ".join(plan.order)}
            row.update({f"focus:{n}": f for n, f in plan.focus})
            row.update(planned=plan.value, value=v, ci_low=lo, ci_high=hi,
                       difference=0.0 if d is None else d["difference"], diff_low=ci[0], diff_high=ci[1])
            rows.append(row)
        return pd.DataFrame(rows)

    def to_dict(self) -> dict:
        """JSON-ready: ``metric``, ``trials``, ``seed``, ``best`` (its label) and ``plans``,
        each ``{"label", "focus": {name: n}, "order": [...], "planned", "value", "ci95",
        "versus_best": {"difference", "ci95"} or None for the best}``."""
        diffs = dict(self.versus)
        out = []
        for label, plan, result in self.checked:
            v, lo, hi = self.value(result)
            d = diffs.get(label)
            out.append({"label": label, "focus": dict(plan.focus), "order": list(plan.order), "planned": plan.value,
                        "value": v, "ci95": [lo, hi],
                        "versus_best": None if d is None else {"difference": d["difference"],
                                                               "ci95": None if d["ci95"] is None else list(d["ci95"])}})
        return {"metric": self.metric, "trials": self.trials, "seed": self.seed, "best": self.best[0], "plans": out}

    def summary(self) -> str:
        """The best plan by Monte Carlo and what it gains over each other plan run."""
        sc = self.plans.scenario
        percent = self.metric == "kill"

        def fig(v: float) -> str:
            return f"{v:.2%}" if percent else f"{v:.3f}"

        def diff(v: float) -> str:
            return f"{100 * v:+.2f} points" if percent else f"{v:+.3f}"

        label, plan, result = self.best
        v, lo, hi = self.value(result)
        lines = [f"Monte Carlo on the {sc.target.capacity} ({self.trials:,} trials, seed {self.seed}, common "
                 f"random numbers): best {label}: {plan.words(sc)}",
                 f"  {self.metric} {fig(v)} (95% {fig(lo)} to {fig(hi)})"]
        for other, d in self.versus:
            ci = d.get("ci95")
            if ci is None:
                verdict = "no interval (one chunk of trials)"
            elif ci[0] > 0:
                verdict = f"better by {diff(d['difference'])} (paired 95% {diff(ci[0])} to {diff(ci[1])})"
            else:
                verdict = (f"no clear difference ({diff(d['difference'])}, paired 95% {diff(ci[0])} to "
                           f"{diff(ci[1])})")
            lines.append(f"  against {other}: {verdict}")
        return "\n".join(lines)


def check_plans(plans: TurnPlans, top: int = 5, trials: int | None = None, seed: int | None = None) -> PlanCheck:
    """Run the ``top`` best allocations (each in its best fixed order), the file's own plan and
    an even allocation by Monte Carlo with common random numbers, and compare the best with
    the others (paired intervals).

    Parameters
    ----------
    plans : TurnPlans
    top : int
        Allocations run (at least 1).
    trials, seed : int, optional
        The scenario's by default.

    Raises
    ------
    InputError
        ``top`` below 1.
    """
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise InputError("top", top, "must be a whole number of plans, at least 1")
    sc = plans.scenario
    chosen = [(f"plan {k + 1}", p) for k, p in enumerate(plans.leading(top))]
    compared = [("the file's plan", plans.as_written)] + ([("an even allocation", plans.even)] if plans.allocates else [])
    for label, p in compared:
        same = [k for k, (_, q) in enumerate(chosen) if (q.focus, q.order) == (p.focus, p.order)]
        if same:
            chosen[same[0]] = (f"{chosen[same[0]][0]} ({label})", p)
        else:
            chosen.append((label, p))
    scenarios = [plans.scenario_of(p) for _, p in chosen]
    trials = sc.trials if trials is None else trials
    seed = sc.seed if seed is None else seed
    if seed is None:
        seed = fresh_seed()
    stride = common_stride(scenarios)
    results = [simulate(s, trials, seed, stride=stride, progress=False, explain=False) for s in scenarios]
    metric = METRIC_OF[sc.objective]
    ranked = sorted(zip((label for label, _ in chosen), (p for _, p in chosen), results),
                    key=lambda x: -objective_value(x[2], sc.objective)[0])
    best = ranked[0][2]
    versus = tuple((label, paired_difference(best, r, metric)) for label, _, r in ranked[1:])
    return PlanCheck(plans, tuple(ranked), metric, versus, int(trials), int(seed))
