"""Plan the turn: how a battlegroup's focus is allocated, in which order the attackers
activate, and who activates next given what the last activation did (docs/turn.md).

Each battlegroup's pool (:mod:`mathhammer.rules.battlegroup`) is shared out before any die
is rolled: each warjack receives 0 to :data:`~mathhammer.rules.battlegroup.ALLOCATION_LIMIT`
focus (none with a crippled Cortex), the controller keeps the rest. Every allocation is
played in every fixed order of the attackers and in the adaptive order (the player picks the
next attacker after seeing how the last activation went: the damage marked, knocked down, the
target's focus left), each activation by best play (backward induction over the whole turn:
an attacker's decisions already weigh what the attackers after it can still do), and the
plans are ranked by the scenario's objective, then the damage marked. The activations are
chained by :class:`~mathhammer.exact.activations.Activations`, exactly on a damage track, a
unit and a small grid or spiral (:data:`TURN_CARD_WORK`), on the track relaxation of a larger
one (the same boxes as one track).
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np

from ..errors import ExactNotApplicable, InputError
from ..rules import Scenario
from ..rules.battlegroup import ALLOCATION_LIMIT, battlegroups
from .plans import TIE, NextPick, Plan, TurnPlans

__all__ = ["Plan", "NextPick", "TurnPlans", "allocations", "even_allocation", "plan_turn", "MAX_PLANS", "TIE",
           "TURN_CARD_WORK"]

#: Most plans (allocations x orders) the exact planner evaluates; beyond, it says so at once.
MAX_PLANS = 5_000
#: A grid or spiral is planned on exactly when the exact engine's bound on the work of a pass
#: over its configurations is at most this (a light warjack's grid against a few light
#: attackers: about a second a plan's activations; a heavy's grid against heavy warjacks is
#: far beyond, and is planned on its track relaxation).
TURN_CARD_WORK = 40_000_000


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


class _Planner:
    """The plans of one scenario, played on one :class:`~mathhammer.exact.activations.Activations`:
    each attacker with each focus a plan gives it is one attacker there (two alike but for
    their names, once: their activations are the same)."""

    def __init__(self, scenario: Scenario, solved: Scenario, options: list[dict]):
        from ..exact.activations import Activations

        self.scenario = scenario
        self.names = [a.name for a in scenario.attackers]
        focus = [{a.focus} | {o[i] for o in options if i in o} for i, a in enumerate(scenario.attackers)]
        index: dict = {}
        self.ids: dict = {}
        for i, a in enumerate(solved.attackers):
            for f in sorted(focus[i]):
                alike = dataclasses.replace(a, name="_", controls=(), focus=f)
                self.ids[(i, f)] = index.setdefault(alike, len(index))
        variants = [dataclasses.replace(a, name=f"attacker {k}") for k, a in enumerate(index)]
        self.acts = Activations(solved, variants)
        self.objective = scenario.objective

    def _focus(self, focus: dict) -> tuple:
        return tuple((n, focus.get(i, a.focus)) for i, (n, a) in enumerate(zip(self.names, self.scenario.attackers)))

    def _ids(self, focus: dict) -> list[int]:
        return [self.ids[(i, f)] for i, (_, f) in enumerate(self._focus(focus))]

    def _figures(self, values: np.ndarray) -> tuple[float, float, float]:
        acts = self.acts
        return acts.figure(values, self.objective), acts.figure(values, "kill"), acts.figure(values, "damage")

    def fixed(self, focus: dict, order: tuple) -> Plan:
        ids = self._ids(focus)
        values = self.acts.sequence(tuple(ids[i] for i in order))
        return Plan(self._focus(focus), tuple(self.names[i] for i in order), *self._figures(values))

    def adaptive(self, focus: dict) -> Plan:
        acts = self.acts
        ids = self._ids(focus)
        group = tuple(ids)
        start = acts.setup.start
        first_id = int(acts.choice(group, start, np.zeros(1, dtype=np.int64))[0])
        first = ids.index(first_id)
        rest = [i for i in range(len(ids)) if i != first]
        then = self._then(first_id, [(i, ids[i]) for i in rest]) if rest else ()
        return Plan(self._focus(focus), (self.names[first],), *self._figures(acts.adaptive(group)),
                    adaptive=True, then=then)

    def _then(self, first_id: int, rest: list) -> tuple:
        """The second pick in each situation the first activation leaves the target standing
        in, the likeliest first (:class:`NextPick`)."""
        acts = self.acts
        setup = acts.setup
        left = tuple(v for _, v in rest)
        name_of = {}
        for i, v in rest:  # alike attackers: the first named
            name_of.setdefault(v, self.names[i])
        leaves = acts.leaves(first_id, left)
        total = sum(float(v.sum()) for v in leaves.values())
        if total <= TIE:
            return ()
        labels = _situations(setup, list(leaves))
        found = []
        for (state, v), label in zip(leaves.items(), labels):
            reached = np.flatnonzero(v > TIE)
            if reached.size == 0:
                continue
            picks = acts.choice(left, state, reached)
            boxes_left = setup.part(state).remaining(reached)
            mass = v[reached] / total
            order = np.argsort(-boxes_left, kind="stable")
            runs: list = []
            for k in order:
                name, b = name_of[int(picks[k])], int(boxes_left[k])
                if runs and runs[-1][0] == name:
                    runs[-1][2] = b
                    runs[-1][3] += float(mass[k])
                else:
                    runs.append([name, b, b, float(mass[k])])
            found.append(NextPick(label, float(v.sum()) / total,
                                  tuple((n, lo, hi, share) for n, hi, lo, share in runs)))
        found.sort(key=lambda p: -p.share)
        return tuple(found)


def _situations(setup, states: list) -> list[str]:
    """A label for each state a first activation may leave, from what differs among them:
    knocked down or not, the target's points left, the models of a unit destroyed, the
    continuous effects on it, the -DEF / -ARM effects it carries."""
    kind = setup.target.power_kind or "focus"
    parts = {
        "down": lambda s: "knocked down" if s.down else "standing",
        "target_points": lambda s: f"{s.target_points} {kind} left",
        "destroyed": lambda s: f"{s.destroyed} models destroyed",
        "cont": lambda s: "on fire or corroding" if s.cont else "no continuous effect",
        "effects": lambda s: ", ".join(sorted(e[0] for e in s.effects)) + " on it" if s.effects else "no effect on it",
    }
    varying = [f for f in parts if len({getattr(s, f) for s in states}) > 1]
    return [", ".join(parts[f](s) for f in varying) for s in states]


def _card_fits(scenario: Scenario) -> bool:
    """Whether a grid or spiral is small enough to plan on exactly: the exact engine's bound
    on a pass over its configurations (:func:`~mathhammer.exact.bounds.card_work`, with every
    attacker at the most focus a plan gives it) at most :data:`TURN_CARD_WORK`, and no Rapid
    Healing that keeps the order of the last marks."""
    from ..exact.bounds import card_work, prepare

    t = scenario.target
    if t.colossal or t.rapid_healing not in (0, 1):
        return False
    try:
        return card_work(prepare(scenario, induction=True)) <= TURN_CARD_WORK
    except ExactNotApplicable:
        return False


def plan_turn(scenario: Scenario, adaptive: bool = True) -> TurnPlans:
    """Every allocation of the battlegroups' focus in every order of the attackers, and in
    the adaptive order (``adaptive``), played exactly by best play, ranked: the objective,
    then the damage marked (a fixed order before the adaptive one among equals, the file's own
    plan first of all).

    Raises
    ------
    InputError
        The scenario has no battlegroup, its objective is ``cripple:X``, it has several
        targets or more than one turn.
    ExactNotApplicable
        More than :data:`MAX_PLANS` plans, or a plan beyond the exact engine (said before any
        is played).

    Examples
    --------
    >>> from mathhammer.rules import Attacker, Target, Weapon
    >>> fist = [Weapon("Fist", "melee", 6, 12)]
    >>> caster = Attacker("Caster", [Weapon("Staff", "melee", 6, 10)], focus=2, model="other",
    ...                   controls=["Jack"])
    >>> plans = plan_turn(Scenario(Target(12, 14, boxes=3), [caster, Attacker("Jack", fist)]))
    >>> len(plans.plans), plans.best.value >= plans.as_written.value
    (9, True)
    """
    from ..exact.bounds import prepare
    from .relax import relaxed

    if not battlegroups(scenario.attackers):
        raise InputError("attackers", [a.name for a in scenario.attackers],
                         "plan the turn of a battlegroup: give its controller controls = [...]")
    if scenario.objective.startswith("cripple:"):
        raise InputError("simulation.objective", scenario.objective,
                         "the turn planner ranks plans by kill, damage or destroyed")
    if scenario.several:
        raise InputError("targets", [t.name for t in scenario.targets], "the turn planner plans against one target")
    if scenario.turns > 1:
        raise InputError("simulation.turns", scenario.turns, "the turn planner plans one turn (turns = 1)")
    options = allocations(scenario)
    orders = list(itertools.permutations(range(len(scenario.attackers))))
    count = len(options) * (len(orders) + adaptive)
    if count > MAX_PLANS:
        raise ExactNotApplicable(f"{len(options)} allocations x {len(orders) + adaptive} orders = {count:,} plans "
                                 f"exceed the exact planner's {MAX_PLANS:,}")
    most = [max([a.focus] + [o.get(i, a.focus) for o in options]) for i, a in enumerate(scenario.attackers)]

    def at_most(sc: Scenario) -> Scenario:  # every attacker with the most focus a plan gives it
        return dataclasses.replace(sc, attackers=tuple(dataclasses.replace(a, focus=f)
                                                       for a, f in zip(sc.attackers, most)))

    solved, how = scenario, "exact"
    if scenario.target.card is not None and not _card_fits(at_most(scenario)):
        solved, _, how = relaxed(scenario)
    prepare(at_most(solved), induction=True)
    planner = _Planner(scenario, solved, options)
    written = {i: a.focus for i, a in enumerate(scenario.attackers)}
    identity = tuple(range(len(scenario.attackers)))
    as_written = planner.fixed(written, identity)
    plans = [as_written]
    for focus in options:
        for order in orders:
            if {**written, **focus} == written and order == identity:
                continue  # the file's own plan, already in
            plans.append(planner.fixed(focus, order))
    if adaptive:
        plans += [planner.adaptive(focus) for focus in options]
    ranked = sorted(plans, key=lambda p: (-round(p.value / TIE) * TIE, -round(p.damage_mean / TIE) * TIE))
    even = planner.fixed({**written, **even_allocation(scenario)}, identity)
    return TurnPlans(scenario, tuple(ranked), as_written, even, how, planner.acts.solved, adaptive)
