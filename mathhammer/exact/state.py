"""The state an attack sequence carries from attack to attack, and the figures that never change.

docs/activation.md "State carried from attack to attack": damage marked, knocked down,
stationary, upkeep spells dispelled, Grievous Wounds, the active -DEF / -ARM effects, the
target's focus or fury left and the current attacker's points left. The engine keeps the
damage marked as the index of a vector (``0 .. boxes - 1`` while the target stands) and
everything else in a hashable :class:`State`, so that one NumPy operation moves every
amount of damage at once.

On a damage grid or life spiral the index is that of a *configuration* (which boxes are
marked, and where healing needs it the order of the last marks), numbered as the engine
meets them by a :class:`~mathhammer.exact.card.Card`; the grid systems that change the
target's defences, while crippled, are also kept in :attr:`State.crippled`.

Over several rounds (docs/activation.md, "Continuous effects, hazards and several turns")
the state also holds the continuous effects on the target (:attr:`State.cont`), whether a
burning earth still burns and whether its Cortex was ever crippled; the attacks of every
round with an attack phase are numbered one after the other (round-major), and
:attr:`Setup.events <mathhammer.exact.setup.Setup.events>` lists them (:class:`Event`) with
the steps of the end of each round.

Each attack of the sequence is a :class:`SlotInfo` (the numbers its rolls use). What is
read from the scenario once is a :class:`~mathhammer.exact.setup.Setup`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..rules import Attacker, AttackSlot, Weapon

__all__ = ["State", "Event", "SlotInfo", "FIRE", "CORROSION", "EFFECT_BIT", "FIRE_POW", "ROUND_FRESH"]

#: POW of fire's damage roll (docs/rules.md 4).
FIRE_POW = 12


class State(NamedTuple):
    """Everything but the damage marked that the rest of the sequence depends on."""

    down: bool  #: knocked down (base DEF 5, melee auto-hit, no Tough roll unless Steady)
    still: bool  #: stationary, inert, wild or a building (base DEF 5, melee auto-hit)
    dispelled: bool  #: upkeep spells ended by Dispel
    grievous: bool  #: Grievous Wounds: no Tough, no healing
    effects: frozenset  #: (attacker index, weapon index) of each active -DEF / -ARM effect
    target_points: int  #: focus or fury the target has left for its power field
    points: int  #: focus, fury or forcing the current attacker has left
    #: Grid systems whose crippling changes the target's defences (Shield / Buckler
    #: locations, Movement, Power Field Generator) that are crippled now; always empty for
    #: tracks and spirals. A function of the marked boxes, kept here so that DEF, ARM and
    #: the power field can be read from the state.
    crippled: frozenset = frozenset()
    #: Continuous effects on the target (bits :data:`FIRE`, :data:`CORROSION`): they carry
    #: over from round to round (docs/activation.md, "Continuous effects").
    cont: int = 0
    #: A burning earth the target stands in still burns.
    earth: bool = False
    #: Its Cortex was crippled at some point: its focus is gone for good, also in later
    #: rounds (kept only when there are several rounds).
    lost: bool = False
    #: A unit: models destroyed so far; the rest of the state (and the damage marked) is the
    #: model under attack's (docs/units.md).
    destroyed: int = 0
    #: A unit an area-of-effect attack can blast: ``(damage marked, knocked down)`` of each
    #: living model after the one under attack, in order (empty otherwise: the next model
    #: is fresh).
    others: tuple = ()
    #: Several targets (docs/units.md): the index of the target under attack; the rest of
    #: the state is its own (and the attacker's points, volley and Shred chain). The other
    #: targets are destroyed (bits of ``dead``), set aside with a state of their own
    #: (``parked``: ``(index, damage marked, its State)`` in the order of the index) or
    #: untouched (:mod:`~mathhammer.exact.targets`).
    target: int = 0
    dead: int = 0
    parked: tuple = ()
    #: Ice Cage stacks this round (-2 DEF each; from two the target is stationary: ``still``).
    ice: int = 0
    #: Paralysis: base DEF 5 this round (melee attacks still roll).
    paralyzed: bool = False
    #: The current attacker's Sustained Attack weapon has hit the target this activation.
    sustained: bool = False
    #: A random rate of fire's roll, within its volley (0 elsewhere).
    shots: int = 0
    #: -ARM added this round by weapons' effects landing again (setting
    #: arm_minus_stacks_same_weapon; their first landing is in ``effects``).
    arm_extra: int = 0
    #: Shred (docs/rules.md 5): the Shred attacks made so far in the current attack's chain
    #: while one more is owed (a critical hit of the weapon), else 0: the state then goes back
    #: into the same attack, made again with the same weapon (``shred_alt``: 0, the slot's
    #: own; k, its k-th alternative weapon, :attr:`Setup.alternatives`).
    shred: int = 0
    shred_alt: int = 0
    #: Shield Guard blocks the target's side has left (:attr:`Target.guard_blocks`).
    blocks: int = 0


#: What a new round (and a unit's next model) starts without: Dispel, Grievous Wounds, the
#: -DEF / -ARM effects, Ice Cage, Paralysis, an attacker's Sustained Attack and volley.
ROUND_FRESH = dict(dispelled=False, grievous=False, effects=frozenset(), ice=0, paralyzed=False,
                   sustained=False, shots=0, arm_extra=0)

#: Bits of :attr:`State.cont`, in the order the maintenance phase resolves them.
FIRE = 1
CORROSION = 2
#: :attr:`State.cont` bit of each continuous effect.
EFFECT_BIT = {"fire": FIRE, "corrosion": CORROSION}


class Event(NamedTuple):
    """One step of the whole scenario: an attack, or a step of the end of a round.

    ``kind`` is ``"attack"``, ``"earth"`` (end of the attackers' turn: a burning earth may go
    out), ``"fire"``, ``"corrosion"`` (the maintenance phase, in that order) or
    ``"activation"`` (the target's activation: hazards give their effects; the end of its
    turn, where a burning earth may go out; then the start of the next round).
    ``slot``: for an attack, its index in :attr:`Setup.slots
    <mathhammer.exact.setup.Setup.slots>`; otherwise the index of the next attack
    (``len(slots)`` if none), whose mark window a step of the round end uses.
    """

    kind: str
    round: int
    slot: int
    #: A round-end step with several targets whose routes set a target aside: the target it
    #: is for (one step per target); -1: the target under attack.
    target: int = -1


@dataclass(frozen=True)
class SlotInfo:
    """One attack of the sequence with the numbers its rolls use."""

    slot: AttackSlot
    first: bool  #: the first attack of its attacker: its points are reset to full here
    skill: int  #: MAT / RAT + combined-attack bonus
    pow: int | None  #: POW + combined-attack bonus, None for POW "-"
    index: int = 0  #: its place in the sequence (all rounds, round-major)
    round: int = 0  #: the round (0-based) it belongs to
    #: its row in best play's decision tables (:attr:`Setup.table_rows`): ``index``, or for
    #: one of the weapons a bought attack may be made with instead (``slot.choices``) a row
    #: after every slot's
    row: int = 0

    @property
    def rof(self) -> str | None:
        """Its random rate of fire (an initial attack of such a weapon), or None."""
        return None if self.slot.bought else self.slot.weapon.random_rof

    @property
    def weapon(self) -> Weapon:
        return self.slot.weapon

    @property
    def attacker(self) -> Attacker:
        return self.slot.attacker

    @property
    def ident(self) -> tuple[str, int, int]:
        """Which -DEF / -ARM effect this is: (weapon name, -DEF, -ARM). Same-named effects do
        not stack, so like weapons of different attackers share it (docs/activation.md 6)."""
        w = self.slot.weapon
        return (w.name, w.def_minus, w.arm_minus)

    @property
    def signature(self) -> tuple:
        """Everything one attack's outcome tree depends on besides the state: attacks with
        equal signatures (the same weapon of like attackers) share their cached tree."""
        a = self.attacker
        ident = self.ident if self.weapon.has_effect else None
        s = self.slot
        return (self.weapon, a.spend, self.skill, self.pow, s.combined_bonus, s.bought, s.charge, s.cost, s.stops,
                s.collateral, s.paid, ident, s.choices, s.number if self.rof else None)
