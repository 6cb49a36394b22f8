"""Battlegroups: a controller and the warjacks whose focus it allocates, or a warlock and its
warbeasts (docs/rules.md, "Focus allocation").

An attacker's ``controls`` names the warjacks of its battlegroup (other attackers of the
scenario). The focus written on each of them is the file's own allocation, and the
controller's is what it keeps: together they are the pool the turn planner shares out
again, each warjack receiving at most :data:`ALLOCATION_LIMIT`. The engines read each
attacker's focus as written, so a scenario with a battlegroup runs as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError

__all__ = ["Battlegroup", "ALLOCATION_LIMIT", "battlegroups"]

#: Most focus points a warjack may hold from allocation: "A warjack can have no more than 3
#: focus points at any time" (the Cortex rule; docs/rules.md, "Focus allocation").
ALLOCATION_LIMIT = 3


@dataclass(frozen=True)
class Battlegroup:
    """A controller (its index among the scenario's attackers) and its warjacks' or
    warbeasts' indices, in the order ``controls`` names them; ``pool``: the focus the file
    gives them all (0 for a warlock's: its warbeasts' fury is their own, nothing is
    allocated, and the plan is the order alone)."""

    controller: int
    jacks: tuple[int, ...]
    pool: int

    @property
    def allocates(self) -> bool:
        """Whether its controller allocates focus (a warcaster's), or not (a warlock's)."""
        return self.pool > 0


def battlegroups(attackers) -> tuple[Battlegroup, ...]:
    """The battlegroups of ``attackers``, checked: each name of ``controls`` is another
    attacker that no other controller controls: a warcaster's, a warjack with at most
    :data:`ALLOCATION_LIMIT` focus and no fury, a warlock's (a controller with fury) a
    warbeast; a warcaster has focus of its own or allocated (a pool to share); a controller
    is not itself a warjack or warbeast.

    Raises :class:`~mathhammer.errors.InputError` naming the key (``attackers[i].controls[k]``,
    ``attackers[j].focus``, ``attackers[i].focus``).

    >>> from mathhammer.rules import Attacker, Weapon
    >>> fist = [Weapon("Fist", "melee", 6, 16)]
    >>> caster = Attacker("Caster", [Weapon("Staff", "melee", 6, 12)], focus=4, model="other",
    ...                   controls=["Jack A", "Jack B"])
    >>> group, = battlegroups([caster, Attacker("Jack A", fist, focus=2), Attacker("Jack B", fist, focus=1)])
    >>> group.controller, group.jacks, group.pool
    (0, (1, 2), 7)
    """
    index = {a.name: i for i, a in enumerate(attackers)}
    owner: dict[int, int] = {}
    out = []
    for i, a in enumerate(attackers):
        if not a.controls:
            continue
        key = f"attackers[{i}]"
        if a.model in ("warjack", "warbeast"):
            raise InputError(f"{key}.controls", list(a.controls), f"a battlegroup's controller is a warcaster "
                             f"or a warlock (model = \"other\"), not a {a.model}")
        if a.fury:
            out.append(_warlock(attackers, i, index, owner))
            continue
        jacks = []
        for k, name in enumerate(a.controls):
            where = f"{key}.controls[{k}]"
            j = index.get(name)
            if j is None:
                raise InputError(where, name, "names no attacker of the scenario: "
                                 + ", ".join(repr(x.name) for x in attackers))
            if j == i:
                raise InputError(where, name, "names the controller itself")
            jack = attackers[j]
            if jack.model != "warjack":
                raise InputError(where, name, f"a controller allocates focus to warjacks; {name!r} is "
                                 f"model = {jack.model!r}")
            if j in owner:
                raise InputError(where, name, f"is in the battlegroup of {attackers[owner[j]].name!r} "
                                 "already")
            if jack.fury:
                raise InputError(f"attackers[{j}].fury", jack.fury, "a warjack in a battlegroup is allocated "
                                 "focus, not fury")
            if jack.focus > ALLOCATION_LIMIT:
                raise InputError(f"attackers[{j}].focus", jack.focus, f"a warjack can be allocated at most "
                                 f"{ALLOCATION_LIMIT} focus (the Cortex rule)")
            owner[j] = i
            jacks.append(j)
        pool = a.focus + sum(attackers[j].focus for j in jacks)
        if pool == 0:
            raise InputError(f"{key}.focus", a.focus, "a battlegroup's controller needs focus to allocate "
                             "(its ARC: the focus it keeps, with what the file allocates its warjacks)")
        out.append(Battlegroup(i, tuple(jacks), pool))
    return tuple(out)


def _warlock(attackers, i: int, index: dict, owner: dict) -> Battlegroup:
    """A warlock's battlegroup (a controller with fury): warbeasts, each with its own fury;
    nothing is allocated (leeching and reaving are not modelled: docs/rules.md 9)."""
    beasts = []
    for k, name in enumerate(attackers[i].controls):
        where = f"attackers[{i}].controls[{k}]"
        j = index.get(name)
        if j is None:
            raise InputError(where, name, "names no attacker of the scenario: "
                             + ", ".join(repr(x.name) for x in attackers))
        if j == i:
            raise InputError(where, name, "names the controller itself")
        if attackers[j].model != "warbeast":
            raise InputError(where, name, f"a warlock controls warbeasts; {name!r} is model = "
                             f"{attackers[j].model!r}")
        if j in owner:
            raise InputError(where, name, f"is in the battlegroup of {attackers[owner[j]].name!r} already")
        owner[j] = i
        beasts.append(j)
    return Battlegroup(i, tuple(beasts), 0)
