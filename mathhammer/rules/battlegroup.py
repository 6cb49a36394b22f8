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
    is not itself a warjack or warbeast; with a warcaster's battlegroup in the scenario, no
    warjack outside every battlegroup has focus (it has no controller to allocate it).

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
        # a warlock (fury) controls warbeasts, each with its own fury: nothing is allocated
        # (leeching and reaving are not modelled: docs/rules.md 9)
        kind = "warbeast" if a.fury else "warjack"
        members = tuple(_member(attackers, index, owner, i, k, kind) for k in range(len(a.controls)))
        if a.fury:
            out.append(Battlegroup(i, members, 0))
            continue
        pool = a.focus + sum(attackers[j].focus for j in members)
        if pool == 0:
            raise InputError(f"{key}.focus", a.focus, "a battlegroup's controller needs focus to allocate "
                             "(its ARC: the focus it keeps, with what the file allocates its warjacks)")
        out.append(Battlegroup(i, members, pool))
    if any(g.allocates for g in out):
        # a warjack's focus comes from its controller: with battlegroups in the scenario, one
        # outside all of them has no focus to spend
        for j, a in enumerate(attackers):
            if a.model == "warjack" and a.focus and j not in owner:
                raise InputError(f"attackers[{j}].focus", a.focus, "a warjack outside every battlegroup has no "
                                 "controller to allocate it focus: name it in a controller's controls, or "
                                 "give it focus = 0")
    return tuple(out)


def _member(attackers, index: dict, owner: dict, i: int, k: int, kind: str) -> int:
    """The index of the ``k``-th model controller ``i`` names, checked: another attacker of
    model ``kind`` in no other battlegroup (a warjack: no fury, at most the limit of focus);
    recorded in ``owner``."""
    name = attackers[i].controls[k]
    where = f"attackers[{i}].controls[{k}]"
    j = index.get(name)
    if j is None:
        raise InputError(where, name, "names no attacker of the scenario: "
                         + ", ".join(repr(x.name) for x in attackers))
    if j == i:
        raise InputError(where, name, "names the controller itself")
    member = attackers[j]
    if member.model != kind:
        whose = "a warlock controls warbeasts" if kind == "warbeast" else "a controller allocates focus to warjacks"
        raise InputError(where, name, f"{whose}; {name!r} is model = {member.model!r}")
    if j in owner:
        raise InputError(where, name, f"is in the battlegroup of {attackers[owner[j]].name!r} already")
    if kind == "warjack" and member.fury:
        raise InputError(f"attackers[{j}].fury", member.fury, "a warjack in a battlegroup is allocated focus, not fury")
    if kind == "warjack" and member.focus > ALLOCATION_LIMIT:
        raise InputError(f"attackers[{j}].focus", member.focus, f"a warjack can be allocated at most "
                         f"{ALLOCATION_LIMIT} focus (the Cortex rule)")
    owner[j] = i
    return j
