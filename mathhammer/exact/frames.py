"""Where an attack's options built from one state serve another.

An attack's options (a :class:`~mathhammer.exact.plan.Plan`) depend on the state it is made
from, but some states differ only in where a destruction leads:

* the models of a unit: the attack on its third model is the attack on its first, but a
  destroyed model hands its place to the fourth, not the second, and the last one's fall
  is the kill (or the next target);
* targets alike but for their names, where routes never set a target aside: the attack on
  the second is the attack on the first, but the first one's fall leads on to the second,
  and the second one's, further on.

:func:`plan_frame` gives the state such an attack's options are built from (the unit's first
model, the first of the alike targets, none destroyed), and :func:`reframe` the function
that moves each state those options reach to the state the same edges reach from the state
the attack is made from (:meth:`Plan.reframed <mathhammer.exact.plan.Plan.reframed>`).
An attack destroys at most the model it is made against (the points left over are lost), and
no plan is made where a blast reaches a unit's other models, so the states an attack reaches
are the model still standing, the unit's next model, and what the last one's fall leads to.
"""

from __future__ import annotations

from .state import State

__all__ = ["plan_frame", "reframe"]


def plan_frame(setup, state: State) -> State | None:
    """The state the options of an attack from ``state`` are built from, where they serve
    others too (None: from ``state`` itself): the unit's first model (none of its models
    destroyed), and on several targets whose routes never set one aside, the first target
    alike the one under attack, with no target destroyed.

    >>> from mathhammer.rules import Attacker, Scenario, Target, Weapon
    >>> from mathhammer.exact.setup import Setup
    >>> unit = Setup(Scenario(Target(defense=12, arm=13, boxes=1, models=5),
    ...                       [Attacker("J", [Weapon("Fist", "melee", skill=7, pow=12)])]))
    >>> plan_frame(unit, unit.start._replace(destroyed=3)).destroyed
    0
    >>> plan_frame(unit, unit.start) is None
    True
    """
    if setup.several and setup.crossing:  # a fall may take up a target set aside, damaged
        return None
    part = setup.part(state)
    frame = state
    if part.models > 1 and state.destroyed and not state.others:
        frame = frame._replace(destroyed=0)
    if setup.several:
        g = setup.alike[state.target]
        if g != state.target or g in setup.alike[g + 1:]:
            frame = frame._replace(target=g, dead=0)
    return None if frame == state else frame


def reframe(setup, frame: State, state: State):
    """The function taking each state an attack from ``frame`` (:func:`plan_frame`'s)
    reaches to the state the same edges reach from ``state``: the model under attack still
    standing, the unit's next model, or, where its last model fell, the kill or whatever
    that fall leads to from ``state`` (the attackers' points, volley and Shred chain carried
    over)."""
    part = setup.part(state)
    k = state.destroyed
    where = {"target": state.target, "dead": state.dead} if setup.several else {}
    g = frame.target

    def moved(x: State) -> State | None:
        if x.target == g and x.destroyed == frame.destroyed:  # still standing
            return x._replace(destroyed=k, **where)
        if x.target == g and k + 1 < part.models:  # the model fell: the unit's next one
            return x._replace(destroyed=k + 1, **where)
        # the last model fell (``x`` carries the attackers' fields): the kill, or the next target
        return None if part.then is None else part.then(x._replace(**where))[0]
    return moved
