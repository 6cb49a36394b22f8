"""What the turn planner answers (:func:`mathhammer.play.turn.plan_turn`): each plan of the
turn with its exact figures, in a player's words, and every plan ranked (docs/turn.md)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass

from ..rules import Scenario
from ..rules.battlegroup import battlegroups

__all__ = ["Plan", "NextPick", "TurnPlans", "then_words", "TIE", "EXCEPTIONS_TOLD"]

#: Plans whose figures differ by less than this are equal.
TIE = 1e-12


@dataclass(frozen=True)
class NextPick:
    """The adaptive order's second pick in one situation the first activation may leave.

    Attributes
    ----------
    situation : str
        What sets it apart ("knocked down, 1 focus left"; empty when it is the only one).
    share : float
        Its probability, the target standing.
    picks : tuple of (str, int, int, float)
        Who activates next, by the boxes the target has left: ``(name, fewest, most,
        share)``, most boxes left first, over the boxes left the first activation can leave;
        ``share``: the probability of that span (the target standing).
    """

    situation: str
    share: float
    picks: tuple


#: Cases listed where the second pick is not the usual one (the rest: in the JSON).
EXCEPTIONS_TOLD = 3


def then_words(then) -> str:
    """The adaptive order's second pick in a player's words: the attacker picked most often,
    then the likeliest cases where another is picked (at most :data:`EXCEPTIONS_TOLD`).

    >>> then_words([NextPick("standing", 0.8, (("Jack B", 13, 20, 0.4), ("Caster", 5, 12, 0.4))),
    ...             NextPick("knocked down", 0.2, (("Caster", 1, 20, 0.2),))])
    'Caster; Jack B if standing with 13-20 boxes left (40%)'
    """
    mass: dict = {}
    for p in then:
        for name, _, _, share in p.picks:
            mass[name] = mass.get(name, 0.0) + share
    usual = max(mass, key=mass.get)
    cases = sorted(((share, name, lo, hi, p.situation) for p in then for name, lo, hi, share in p.picks
                    if name != usual), key=lambda c: -c[0])
    told = []
    for share, name, lo, hi, situation in cases[:EXCEPTIONS_TOLD]:
        span = f"{lo} {'box' if lo == 1 else 'boxes'}" if lo == hi else f"{lo}-{hi} boxes"
        where = f"{situation} with " if situation else "with "
        told.append(f"{name} if {where}{span} left ({share:.0%})" if share >= 0.005
                    else f"{name} if {where}{span} left (<1%)")
    more = len(cases) - len(told)
    return "; ".join([usual] + told + ([f"and {more} rarer cases"] if more > 0 else []))


@dataclass(frozen=True)
class Plan:
    """One plan of the turn and its exact figures.

    Attributes
    ----------
    focus : tuple of (str, int)
        Per attacker (the scenario's order), the focus it spends: a warjack's allocation, the
        controller's what it keeps.
    order : tuple of str
        The attackers' names in the order they activate; the adaptive order: the first alone.
    value : float
        The scenario's objective (P(kill), the expected damage, or the models destroyed).
    kill, damage_mean : float
    adaptive : bool
        The order after the first activation is the adaptive one.
    then : tuple of NextPick
        The adaptive order's second pick, per likely situation (empty for a fixed order).
    """

    focus: tuple
    order: tuple
    value: float
    kill: float
    damage_mean: float
    adaptive: bool = False
    then: tuple = ()

    def order_words(self) -> str:
        """"Jack A, then Caster, then Jack B"; adaptive: "Jack A first, then Caster; Jack B if
        ..."."""
        if not self.adaptive:
            return ", then ".join(self.order)
        if not self.then:
            return f"{self.order[0]} first (the target is destroyed, or nobody is left)"
        return f"{self.order[0]} first, then {then_words(self.then)}" + (
            " (and each later pick by the state too)" if len(self.focus) > 3 else "")

    def words(self, scenario: Scenario) -> str:
        """The plan in a player's words: "allocate Jack A 3, Jack B 2; Caster keeps 2; Jack A, then ..."."""
        spent = dict(self.focus)
        parts = []
        for group in (g for g in battlegroups(scenario.attackers) if g.allocates):
            jacks = [f"{scenario.attackers[j].name} {spent[scenario.attackers[j].name]}" for j in group.jacks]
            keeper = scenario.attackers[group.controller].name
            parts.append(f"allocate {', '.join(jacks)}; {keeper} keeps {spent[keeper]}")
        return "; ".join(parts + [self.order_words()])


@dataclass(frozen=True)
class TurnPlans:
    """Every plan of the turn, ranked (best first), and the two a player compares it with.

    Attributes
    ----------
    scenario : Scenario
    plans : tuple of Plan
        Every allocation in every fixed order, and (``adaptive``) in the adaptive order,
        ranked: the objective, then the damage marked; among equals a fixed order first, the
        file's own plan first of all.
    as_written, even : Plan
        The file's own plan (its focus, its order) and an even allocation in the file's order.
    solved_on : str
        ``"exact"``, or the relaxation the plans were solved on (a grid or spiral).
    activations : int
        Activations solved (one per attacker and what follows it, shared by the plans).
    adaptive : bool
        Whether the adaptive order was planned.
    """

    scenario: Scenario
    plans: tuple
    as_written: Plan
    even: Plan
    solved_on: str = "exact"
    activations: int = 0
    adaptive: bool = True

    @property
    def best(self) -> Plan:
        return self.plans[0]

    def scenario_of(self, plan: Plan) -> Scenario:
        """The scenario a fixed plan plays: each attacker with the plan's focus, in the plan's
        order (what the Monte Carlo kernel runs; an adaptive plan has no one order)."""
        if plan.adaptive:
            raise ValueError("an adaptive plan has no one order to run")
        focus = dict(plan.focus)
        by_name = {a.name: a for a in self.scenario.attackers}
        attackers = tuple(dataclasses.replace(by_name[n], focus=focus[n]) for n in plan.order)
        return dataclasses.replace(self.scenario, attackers=attackers)

    def _alike(self, plan: Plan) -> dict:
        """Each attacker of ``plan`` with its focus, its name dropped (alike models compare equal)."""
        by_name = {a.name: a for a in self.scenario.attackers}
        return {n: dataclasses.replace(by_name[n], name="_", controls=(), focus=f) for n, f in plan.focus}

    def allocation(self, plan: Plan) -> frozenset:
        """What sets ``plan``'s allocation apart: two allocations that give alike models
        (the same card but for its name) the same focus are one (a key to compare)."""
        return frozenset(Counter(self._alike(plan).values()).items())

    def leading(self, top: int, adaptive: bool = False) -> list:
        """The best ``top`` plans that differ in substance: the best plan of each allocation
        (alike models with the same focus being one), best first; where there are fewer
        allocations than ``top`` (a warlock's: none), then the best of each other order
        (alike models swapped being one). ``adaptive``: adaptive plans may be among them
        (else fixed orders only)."""
        out, seen = [], set()
        for by_order in (False, True):
            for p in self.plans:
                if len(out) == top:
                    return out
                if p.adaptive and not adaptive:
                    continue
                alike = self._alike(p)
                key = (self.allocation(p),) + ((p.adaptive, tuple(alike[n] for n in p.order)) if by_order else ())
                if key in seen or (by_order and any(q is p for q in out)):
                    continue
                seen.add(key)
                out.append(p)
        return out

    @property
    def best_fixed(self) -> Plan:
        """The best plan with a fixed order."""
        return next(p for p in self.plans if not p.adaptive)

    @property
    def allocates(self) -> bool:
        """Whether a battlegroup's focus is allocated (a warlock's is not: its plans differ in
        order only)."""
        return any(g.allocates for g in battlegroups(self.scenario.attackers))

    @property
    def allocated(self) -> set:
        """Names of the attackers whose focus an allocation sets."""
        sc = self.scenario
        return {sc.attackers[i].name for g in battlegroups(sc.attackers) if g.allocates
                for i in (g.controller,) + g.jacks}

    def frame(self):
        """One row a plan: ``rank``, ``order`` (names joined by ``>``; the adaptive order:
        the first, then ``adaptive``), the focus of each attacker an allocation sets
        (``focus:NAME``), ``value``, ``kill``, ``damage_mean``, ``adaptive``."""
        import pandas as pd

        rows = []
        allocated = self.allocated
        for rank, p in enumerate(self.plans, 1):
            order = f"{p.order[0]} > adaptive" if p.adaptive else " > ".join(p.order)
            row = {"rank": rank, "order": order}
            row.update({f"focus:{name}": n for name, n in p.focus if name in allocated})
            row.update(value=p.value, kill=p.kill, damage_mean=p.damage_mean, adaptive=p.adaptive)
            rows.append(row)
        return pd.DataFrame(rows)

    def to_dict(self, top: int | None = None) -> dict:
        """JSON-ready: the objective, ``solved_on``, ``best``, ``best_fixed``, ``as_written``,
        ``even``, ``adaptive_gain`` (the best plan's objective over the best fixed order's)
        and the ranked ``plans`` (the first ``top``), each ``{"focus": {name: n}, "order":
        [...], "adaptive", "then": [{"situation", "share", "next": [[name, fewest, most,
        share], ...]}], "value", "kill", "damage_mean", "words"}`` (``then``: the adaptive
        order's second pick, :class:`NextPick`)."""
        def one(p: Plan) -> dict:
            then = [{"situation": n.situation, "share": n.share, "next": [list(x) for x in n.picks]}
                    for n in p.then]
            return {"focus": dict(p.focus), "order": list(p.order), "adaptive": p.adaptive, "then": then,
                    "value": p.value, "kill": p.kill, "damage_mean": p.damage_mean,
                    "words": p.words(self.scenario)}
        return {"objective": self.scenario.objective, "solved_on": self.solved_on, "count": len(self.plans),
                "best": one(self.best), "best_fixed": one(self.best_fixed),
                "adaptive_gain": self.best.value - self.best_fixed.value,
                "as_written": one(self.as_written), "even": one(self.even),
                "plans": [one(p) for p in self.plans[:top]]}

    def summary(self) -> str:
        """The best plan in a player's words, how many plans tie with it, what it gains over
        the best fixed order, the file's own plan and an even allocation."""
        objective = self.scenario.objective

        def figure(v: float) -> str:
            return f"{v:.2%}" if objective == "kill" else f"{v:.3f}"

        def gain(v: float) -> str:
            d = self.best.value - v
            if d <= TIE:
                return "the same"
            digits = 2 if abs(d) >= 5e-5 else 6  # a small gain is told, not rounded to 0
            return f"{100 * d:+.{digits}f} percentage points" if objective == "kill" else f"{d:+.{digits + 1}f}"

        ties = sum(p.value >= self.best.value - TIE and p.damage_mean >= self.best.damage_mean - TIE
                   for p in self.plans)
        lines = [f"best plan: {self.best.words(self.scenario)}",
                 f"  {objective} {figure(self.best.value)}, damage {self.best.damage_mean:.2f}"
                 + (f" ({ties} plans tie for best: the same figures)" if ties > 1 else "")]
        if self.solved_on != "exact":
            lines.append(f"  solved on the {self.solved_on.removeprefix('relaxed: the ')}")
        compared = [("the file's plan", self.as_written)]
        if self.allocates:
            compared.append(("an even allocation", self.even))
        if self.adaptive and self.best.adaptive:
            compared.insert(0, ("the best fixed order", self.best_fixed))
        for label, p in compared:
            lines.append(f"against {label} ({p.words(self.scenario)}): {objective} {figure(p.value)}, "
                         f"the best plan {gain(p.value)}")
        if self.adaptive and not self.best.adaptive:
            lines.append("the adaptive order gains nothing over the best fixed order here")
        return "\n".join(lines)
