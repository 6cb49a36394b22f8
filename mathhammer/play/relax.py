"""The relaxation best play is solved on where the exact state is too large.

On a damage grid or life spiral the exact state is the set of boxes marked (and, with
healing, their order), and the crippling of systems and aspects feeds back into DEF, ARM,
dice and the power field: too many states to solve a whole sequence by backward induction.
There the decisions are solved on the same scenario against a *damage track* of the same
number of boxes (same DEF, ARM, Shields, points, Tough, situation, rounds and effects; no
column rolls, no crippling and so no feedback), and the kernel follows them by the number
of boxes marked. ``cripple:X`` has no meaning on a track: the relaxation maximises the
expected damage instead. Decisions the track leaves (nearly) tied go to the one that deals more
damage (a weight of :data:`~mathhammer.play.solve.RELAXED_TIEBREAK` on the fraction of boxes
marked): on the card, damage cripples systems and opens kills the track cannot see. docs/best-play.md gives the loss this costs against the exact
optimum on small grids.
"""

from __future__ import annotations

import dataclasses

from ..rules import Scenario

__all__ = ["relaxed"]


def relaxed(scenario: Scenario) -> tuple[Scenario, str, str]:
    """The scenario best play is solved on, its objective, and how it was relaxed.

    Returns ``(scenario, objective, "exact")`` for a damage track; for a grid or spiral,
    the scenario against a track of as many boxes, with ``objective`` ``"damage"`` for
    ``cripple:X``, and a one-line description.

    Examples
    --------
    >>> from mathhammer.rules import Attacker, Target, Weapon
    >>> grid = Target(defense=12, arm=18, grid=["..", "..", "LL", "RR", "..", ".."])
    >>> scen = Scenario(grid, [Attacker("A", [Weapon("Fist", "melee", 7, 16)], focus=1)])
    >>> solved, objective, how = relaxed(scen)
    >>> solved.target.capacity, solved.target.boxes, objective, how
    ('track', 12, 'kill', 'relaxed: the grid as a damage track of 12 boxes')
    """
    t = scenario.target
    if t.card is None:
        return scenario, scenario.objective, "exact"
    objective = "damage" if scenario.objective.startswith("cripple:") else scenario.objective
    track = dataclasses.replace(t, grid=None, spiral=None, boxes=t.boxes)
    solved = dataclasses.replace(scenario, target=track, objective=objective)
    how = f"relaxed: the {t.capacity} as a damage track of {t.boxes} boxes"
    if objective != scenario.objective:
        how += f", expected damage for {scenario.objective}"
    return solved, objective, how
