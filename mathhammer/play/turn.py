"""Plan the turn: how a battlegroup's focus is allocated and in which order the attackers
activate (docs/turn.md).

Each battlegroup's pool (:mod:`mathhammer.rules.battlegroup`) is shared out before any die
is rolled: each warjack receives 0 to :data:`~mathhammer.rules.battlegroup.ALLOCATION_LIMIT`
focus (none with a crippled Cortex), the controller keeps the rest. Every allocation is
played in every order of the attackers, each activation by best play (the exact engine's
backward induction over the whole sequence: an attacker's decisions already weigh what the
attackers after it can still do), and the plans are ranked by the scenario's objective, then
the damage marked. This is the static plan; the adaptive order (choosing the next attacker
after seeing how the last activation went) is not in it yet.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass

from ..errors import ExactNotApplicable, InputError
from ..rules import Scenario
from ..rules.battlegroup import ALLOCATION_LIMIT, battlegroups

__all__ = ["Plan", "TurnPlans", "allocations", "even_allocation", "plan_turn", "MAX_PLANS", "TIE"]

#: Most plans (allocations x orders) the exact planner evaluates; beyond, it says so at once.
MAX_PLANS = 5_000
#: Plans whose figures differ by less than this are equal.
TIE = 1e-12


@dataclass(frozen=True)
class Plan:
    """One plan of the turn and its exact figures.

    Attributes
    ----------
    focus : tuple of (str, int)
        Per attacker (the scenario's order), the focus it spends: a warjack's allocation, the
        controller's what it keeps.
    order : tuple of str
        The attackers' names in the order they activate.
    value : float
        The scenario's objective (P(kill), the expected damage, or the models destroyed).
    kill, damage_mean : float
    """

    focus: tuple
    order: tuple
    value: float
    kill: float
    damage_mean: float

    def words(self, scenario: Scenario) -> str:
        """The plan in a player's words: "Jack A 3, Jack B 2, Caster keeps 2; Jack A, then ..."."""
        spent = dict(self.focus)
        parts = []
        for group in (g for g in battlegroups(scenario.attackers) if g.allocates):
            jacks = [f"{scenario.attackers[j].name} {spent[scenario.attackers[j].name]}" for j in group.jacks]
            keeper = scenario.attackers[group.controller].name
            parts.append(f"allocate {', '.join(jacks)}; {keeper} keeps {spent[keeper]}")
        return "; ".join(parts + [", then ".join(self.order)])


@dataclass(frozen=True)
class TurnPlans:
    """Every plan of the turn, ranked (best first), and the two a player compares it with."""

    scenario: Scenario
    plans: tuple
    as_written: Plan
    even: Plan
    solves: int = 0  #: exact solves made (plans alike but for names share one)

    @property
    def best(self) -> Plan:
        return self.plans[0]

    def frame(self):
        """One row a plan: ``rank``, ``order``, each attacker's focus (``focus:NAME``),
        ``value``, ``kill``, ``damage_mean``."""
        import pandas as pd

        rows = []
        for rank, p in enumerate(self.plans, 1):
            row = {"rank": rank, "order": " > ".join(p.order)}
            row.update({f"focus:{name}": n for name, n in p.focus})
            row.update(value=p.value, kill=p.kill, damage_mean=p.damage_mean)
            rows.append(row)
        return pd.DataFrame(rows)

    def to_dict(self, top: int | None = None) -> dict:
        """JSON-ready: the objective, ``best``, ``as_written``, ``even`` and the ranked
        ``plans`` (the first ``top``), each ``{"focus": {name: n}, "order": [...], "value",
        "kill", "damage_mean", "words"}``."""
        def one(p: Plan) -> dict:
            return {"focus": dict(p.focus), "order": list(p.order), "value": p.value, "kill": p.kill,
                    "damage_mean": p.damage_mean, "words": p.words(self.scenario)}
        return {"objective": self.scenario.objective, "count": len(self.plans), "best": one(self.best),
                "as_written": one(self.as_written), "even": one(self.even),
                "plans": [one(p) for p in self.plans[:top]]}

    def summary(self) -> str:
        """The best plan in a player's words, how many plans tie with it, and what it gains
        over the file's own plan and an even allocation."""
        objective = self.scenario.objective

        def figure(v: float) -> str:
            return f"{v:.2%}" if objective == "kill" else f"{v:.3f}"

        ties = sum(p.value >= self.best.value - TIE and p.damage_mean >= self.best.damage_mean - TIE
                   for p in self.plans)
        lines = [f"best plan: {self.best.words(self.scenario)}",
                 f"  {objective} {figure(self.best.value)}, damage {self.best.damage_mean:.2f}"
                 + (f" ({ties} plans tie for best: the same figures)" if ties > 1 else "")]
        for label, p in (("the file's plan", self.as_written), ("an even allocation", self.even)):
            gain = self.best.value - p.value
            verdict = ("the same" if gain <= TIE else f"{100 * gain:+.2f} percentage points" if objective == "kill"
                       else f"{gain:+.3f}")
            lines.append(f"against {label} ({p.words(self.scenario)}): {objective} {figure(p.value)}, "
                         f"the best plan {verdict}")
        return "\n".join(lines)


def allocations(scenario: Scenario) -> list[dict]:
    """Every allocation of every battlegroup's pool: ``{attacker index: focus}`` for the
    controllers and their warjacks (each warjack 0 to the limit, none with a crippled Cortex;
    the controller the rest), the battlegroups' allocations combined."""
    per_group = []
    for group in battlegroups(scenario.attackers):
        if not group.allocates:  # a warlock's: the warbeasts' fury is their own
            continue
        caps = [0 if "C" in scenario.attackers[j].crippled else ALLOCATION_LIMIT for j in group.jacks]
        options = []
        for given in itertools.product(*(range(min(c, group.pool) + 1) for c in caps)):
            if sum(given) <= group.pool:
                options.append({group.controller: group.pool - sum(given), **dict(zip(group.jacks, given))})
        per_group.append(options)
    out = []
    for combo in itertools.product(*per_group):
        merged: dict = {}
        for part in combo:
            merged.update(part)
        out.append(merged)
    return out


def even_allocation(scenario: Scenario) -> dict:
    """The pool shared as evenly as it goes among the controller and its warjacks (a warjack
    at most the limit, none with a crippled Cortex; the controller the rest): a player's
    default to compare plans with."""
    out: dict = {}
    for group in (g for g in battlegroups(scenario.attackers) if g.allocates):
        share = group.pool // (len(group.jacks) + 1)
        left = group.pool
        for j in group.jacks:
            given = 0 if "C" in scenario.attackers[j].crippled else min(share, ALLOCATION_LIMIT)
            out[j] = given
            left -= given
        out[group.controller] = left
    return out


def _variant(scenario: Scenario, focus: dict, order: tuple) -> Scenario:
    attackers = [dataclasses.replace(a, focus=focus.get(i, a.focus)) for i, a in enumerate(scenario.attackers)]
    return dataclasses.replace(scenario, attackers=tuple(attackers[i] for i in order))


class _Solver:
    """Plans solved exactly, each sequence once: two plans whose attackers, taken in order,
    are alike but for their names (two warjacks of one card swapped, with the same focus)
    are one solve (its figures do not read names). ``solves`` counts the solves made."""

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        self.names = [a.name for a in scenario.attackers]
        self.figures: dict = {}
        self.solves = 0

    def plan(self, focus: dict, order: tuple) -> Plan:
        from ..exact import exact_result

        sc = self.scenario
        variant = _variant(sc, focus, order)
        key = tuple(dataclasses.replace(a, name="_") for a in variant.attackers)
        if key not in self.figures:
            res = exact_result(variant)
            value = {"kill": res.kill, "damage": res.damage_mean,
                     "destroyed": res.models_destroyed_mean}.get(sc.objective, res.kill)
            self.figures[key] = (float(value), float(res.kill), float(res.damage_mean))
            self.solves += 1
        return Plan(tuple((self.names[i], focus.get(i, a.focus)) for i, a in enumerate(sc.attackers)),
                    tuple(self.names[i] for i in order), *self.figures[key])


def plan_turn(scenario: Scenario) -> TurnPlans:
    """Every allocation of the battlegroups' focus in every order of the attackers, played
    exactly by best play, ranked: the objective, then the damage marked (the file's own plan
    first among equals).

    Raises
    ------
    InputError
        The scenario has no battlegroup, or its objective is ``cripple:X``.
    ExactNotApplicable
        More than :data:`MAX_PLANS` plans (said before any is played), or a plan beyond the
        exact engine.

    Examples
    --------
    >>> from mathhammer.rules import Attacker, Target, Weapon
    >>> fist = [Weapon("Fist", "melee", 6, 12)]
    >>> caster = Attacker("Caster", [Weapon("Staff", "melee", 6, 10)], focus=2, model="other",
    ...                   controls=["Jack"])
    >>> plans = plan_turn(Scenario(Target(12, 14, boxes=3), [caster, Attacker("Jack", fist)]))
    >>> len(plans.plans), plans.best.value >= plans.as_written.value
    (6, True)
    """
    if not battlegroups(scenario.attackers):
        raise InputError("attackers", [a.name for a in scenario.attackers],
                         "plan the turn of a battlegroup: give its controller controls = [...]")
    if scenario.objective.startswith("cripple:"):
        raise InputError("simulation.objective", scenario.objective,
                         "the turn planner ranks plans by kill, damage or destroyed")
    options = allocations(scenario)
    orders = list(itertools.permutations(range(len(scenario.attackers))))
    count = len(options) * len(orders)
    if count > MAX_PLANS:
        raise ExactNotApplicable(f"{len(options)} allocations x {len(orders)} orders = {count:,} plans exceed "
                                 f"the exact planner's {MAX_PLANS:,}")
    written = {i: a.focus for i, a in enumerate(scenario.attackers)}
    identity = tuple(range(len(scenario.attackers)))
    solver = _Solver(scenario)
    as_written = solver.plan(written, identity)
    plans = [as_written]
    for focus in options:
        for order in orders:
            if {**written, **focus} == written and order == identity:
                continue  # the file's own plan, already in
            plans.append(solver.plan(focus, order))
    ranked = sorted(plans, key=lambda p: (-round(p.value / TIE) * TIE, -round(p.damage_mean / TIE) * TIE))
    even = solver.plan({**written, **even_allocation(scenario)}, identity)
    return TurnPlans(scenario, tuple(ranked), as_written, even, solver.solves)
