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
:attr:`Setup.events` lists them with the steps of the end of each round.

:class:`Setup` reads a :class:`~mathhammer.rules.Scenario` once: per attack, the numbers
its rolls use (skill and POW with the combined-attack bonus, the charge, the weapon), and
for the target, its DEF and ARM against each attack (and against fire) given a
:class:`State`.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import NamedTuple

import numpy as np

from ..errors import ExactNotApplicable, InputError
from ..rules import Attacker, AttackSlot, Scenario, Weapon
from . import rolls
from .card import N_COLUMNS, Card

__all__ = ["State", "Event", "SlotInfo", "Setup", "optimal_slots", "prepare", "check_exact_applicable",
           "needs_induction", "FIRE", "CORROSION", "EFFECT_BIT", "FIRE_POW", "MAX_STATES", "MAX_WORK",
           "MAX_CARD_STATES", "MAX_CARD_WORK", "MAX_INDUCTION_SLOTS"]

#: Most states (damage marked x every other part of :class:`State` it may reach) the engine
#: accepts: beyond it a run would take minutes and gigabytes.
MAX_STATES = 2_000_000

#: Most states x attacks: the work of one forward pass is about proportional to it (the
#: bound is loose: most scenarios reach far fewer states than it counts).
MAX_WORK = 200_000_000

#: Grids and spirals: most states (configurations of the card the sequence may reach x
#: every other part of :class:`State`; x the attacks for backward induction), about the
#: entries of the vectors the engine holds (8 bytes each). The configurations are bounded by
#: what each attack can do from one configuration (no damage, or a start column and a
#: number of boxes) and by the column masks each column can reach, not by ``2 ** boxes``.
MAX_CARD_STATES = 20_000_000

#: Grids and spirals: most edges (states x the outcomes of one attack from each, summed
#: over the attacks) the bound allows: a couple of minutes at worst, where the bound is
#: tight (about 30 ns an edge); most scenarios reach far fewer.
MAX_CARD_WORK = 4_000_000_000

#: Most attacks in one sequence when a decision is found by backward induction (the values
#: are computed recursively, one level per attack).
MAX_INDUCTION_SLOTS = 200

#: POW of fire's damage roll (docs/rules.md 4).
FIRE_POW = 12

#: Target states that make its base DEF 5 and melee attacks against it hit automatically,
#: other than being knocked down (which also stops Tough).
_STILL = frozenset({"stationary", "inert", "wild", "building"})


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
    ``slot``: for an attack, its index in :attr:`Setup.slots`; otherwise the index of the
    next attack (``len(slots)`` if none), whose mark window a step of the round end uses.
    """

    kind: str
    round: int
    slot: int


@dataclass(frozen=True)
class SlotInfo:
    """One attack of the sequence with the numbers its rolls use."""

    slot: AttackSlot
    first: bool  #: the first attack of its attacker: its points are reset to full here
    skill: int  #: MAT / RAT + combined-attack bonus
    pow: int | None  #: POW + combined-attack bonus, None for POW "-"
    index: int = 0  #: its place in the sequence (all rounds, round-major)
    round: int = 0  #: the round (0-based) it belongs to

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
        return (self.weapon, a.spend, a.combined_bonus, self.slot.bought, self.slot.charge, ident)


def optimal_slots(scenario: Scenario) -> tuple[AttackSlot, ...]:
    """The attacks of :func:`~mathhammer.exact.optimal_value`: each attacker's initial attacks,
    then one bought attack per point with its bought weapon whatever its ``spend`` says
    (it decides at each one whether to buy it)."""
    out = []
    for ai, a in enumerate(scenario.attackers):
        charge = a.charge_weapon_index
        for wi, w in enumerate(a.weapons):
            out.extend(AttackSlot(ai, wi, k, a, w, charge=(wi == charge and k == 0)) for k in range(w.attacks))
        bought = a.bought_weapon
        if bought is not None:
            wi = a.weapons.index(bought)
            out.extend(AttackSlot(ai, wi, k, a, bought, bought=True) for k in range(a.points))
    return tuple(out)


class Setup:
    """What the engine reads from a scenario once.

    Parameters
    ----------
    scenario : Scenario
    slots : sequence of AttackSlot, optional
        The attacks; :meth:`Scenario.attack_sequence` by default.

    Attributes
    ----------
    card : Card or None
        The target's grid or spiral; None for a damage track (the index is then the
        damage marked).
    feedback : frozenset of str
        Grid systems whose crippling changes DEF, ARM or the power field of the target
        (kept in :attr:`State.crippled`).
    cortex : bool
        A crippled Cortex takes the target's points for good (grid with C and points).
    feedback_mask, cortex_bit : int
        The bits of :attr:`feedback` and of C among ``card.letters`` (0 without a card).
    windows : tuple of int
        With a mark stack (Rapid Healing >= 2): the marks the stack keeps entering each
        attack (and after the last): ``(rapid_healing - 1)`` per attack left that deals
        damage, the most those attacks can heal beyond their own marks.
    """

    def __init__(self, scenario: Scenario, slots=None):
        self.scenario = scenario
        self.target = t = scenario.target
        base = tuple(scenario.attack_sequence() if slots is None else slots)
        #: Attacks of one round, rounds with an attack phase, rounds in all.
        self.n0 = len(base)
        self.rounds = scenario.attack_rounds
        self.turns = scenario.turns
        infos = []
        for r in range(self.rounds):
            for k, s in enumerate(base):
                bonus = s.attacker.combined_bonus
                first = k == 0 or base[k - 1].attacker_index != s.attacker_index
                infos.append(SlotInfo(s, first, s.weapon.skill + bonus,
                                      None if s.weapon.pow is None else s.weapon.pow + bonus,
                                      len(infos), r))
        self.slots: tuple[SlotInfo, ...] = tuple(infos)
        slots = base
        self.boxes = int(t.boxes)
        self.marks = np.arange(self.boxes)
        self.tough = bool(t.rules & {"tough", "tough_steady"})
        self.steady = "tough_steady" in t.rules
        self.rapid_healing = int(t.rapid_healing)
        #: Whether Dispel / Grievous Wounds can change anything (if not, the state ignores them).
        self.dispellable = bool(t.upkeep_def or t.upkeep_arm)
        self.woundable = self.tough or self.rapid_healing > 0
        self.power_kind = t.power_kind  # "focus", "fury" or None (none, or inert / wild)
        self.field = t.power_field if self.power_kind else "never"
        #: -DEF / -ARM of each weapon that has an effect, by identity.
        self.minus = {info.ident: (info.weapon.def_minus, info.weapon.arm_minus)
                      for info in self.slots if info.weapon.has_effect}
        self._continuous_setup()
        self._card_setup()
        self.track_lost = self.cortex and self.turns > 1
        first_points = slots[0].attacker.points if slots else 0
        self.start = State(
            down="knocked_down" in t.state,
            still=bool(t.state & _STILL),
            dispelled=False,
            grievous=False,
            effects=frozenset(),
            target_points=t.power_points,
            points=first_points,
            cont=sum(EFFECT_BIT[e] for e in t.effects),
            earth=self.earth_possible,
        )
        self.events = self._events()

    def _continuous_setup(self):
        """What continuous effects and hazards can do (docs/activation.md, "Continuous
        effects, hazards and several turns")."""
        t = self.target
        hz = t.hazards
        self.suffers = sum(bit for e, bit in EFFECT_BIT.items() if t.suffers(e))
        #: cont bits a hit (critical or not) puts on the target, per weapon
        self._sets: dict = {}
        gives = 0
        for info in self.slots:
            for critical in (False, True):
                gives |= self.sets_bits(info.weapon, critical)
        self.earth_possible = "burning_earth" in hz and bool(self.suffers & FIRE)
        acid = CORROSION if "acid_bath" in hz else 0
        #: cont bits the target's activation gives (acid bath; a burning earth still burning)
        self.hazard_bits = acid & self.suffers
        start = sum(EFFECT_BIT[e] for e in t.effects)
        #: cont bits that may ever be on the target
        self.possible = gives | self.hazard_bits | start | (FIRE if self.earth_possible else 0)
        self.quicksand = "quicksand" in hz
        #: the end of each round is computed (maintenance, hazards, the next round's start)
        self.round_end = bool(self.scenario.continuous or self.turns > 1)

    def sets_bits(self, weapon: Weapon, critical: bool) -> int:
        """:attr:`State.cont` bits a hit of ``weapon`` puts on the target (not resisted)."""
        key = (weapon, critical)
        out = self._sets.get(key)
        if out is None:
            out = sum(EFFECT_BIT[e] for e in weapon.sets_effects(critical)) & self.suffers
            self._sets[key] = out
        return out

    def _events(self) -> tuple[Event, ...]:
        """Attacks and round-end steps of every round, in order."""
        out = []
        n0, n = self.n0, len(self.slots)
        for r in range(self.turns):
            if r < self.rounds:
                out += [Event("attack", r, r * n0 + k) for k in range(n0)]
            if not self.round_end:
                continue
            nxt = (r + 1) * n0 if r + 1 < self.rounds else n
            if self.earth_possible:
                out.append(Event("earth", r, nxt))
            if self.possible & FIRE:
                out.append(Event("fire", r, nxt))
            if self.possible & CORROSION:
                out.append(Event("corrosion", r, nxt))
            out.append(Event("activation", r, nxt))
        return tuple(out)

    def reset(self, state: State) -> State:
        """The start of a new round (docs/activation.md, "A round", 1): the target stands as
        its starting state says, -DEF / -ARM effects, Dispel and Grievous Wounds end, its
        focus or fury is back unless its Cortex was crippled; damage, crippled systems and
        continuous effects stay."""
        return state._replace(
            down=self.start.down, still=self.start.still, dispelled=False, grievous=False,
            effects=frozenset(), target_points=0 if state.lost else self.target.power_points,
            points=0)

    def fire_armor(self, state: State) -> int:
        """ARM against fire's damage roll (not an attack): base ARM, Shield and Buckler
        (unless their location is crippled), spell and upkeep ARM (unless dispelled), less
        the active -ARM effects; no Unyielding, Carapace or Armor-Piercing."""
        t = self.target
        arm = t.arm + t.spell_arm + (0 if state.dispelled else t.upkeep_arm)
        if t.shield_arm:
            arm += (2 * sum(x not in state.crippled for x in t.shield)
                    + sum(x not in state.crippled for x in t.buckler))
        return arm - sum(self.minus[e][1] for e in state.effects)

    def enter_event(self, e: int, state: State) -> State:
        """``state`` as event ``e`` finds it (:meth:`enter` for an attack; a round-end
        step drops the attacker's points)."""
        ev = self.events[e] if e < len(self.events) else None
        if ev is not None and ev.kind == "attack":
            return self.enter(ev.slot, state)
        return state._replace(points=0) if state.points else state

    def _card_setup(self):
        t = self.target
        self.card = None
        self.feedback = frozenset()
        self.cortex = False
        self.windows = (0,) * (self.n + 1)
        self.feedback_mask = 0
        self.cortex_bit = 0
        self._fb_sets: dict = {}
        if t.card is None:
            return
        letters = set(t.letters)
        if self.rapid_healing >= 2:
            dealing = [info.pow is not None for info in self.slots]
            self.windows = tuple((self.rapid_healing - 1) * sum(dealing[i:]) for i in range(self.n + 1))
        self.card = Card(t, [info.weapon.damage_to for info in self.slots], stack=self.windows[0])
        if t.capacity == "grid":
            fb = set()
            if t.shield_arm:  # none while inert
                fb |= (set(t.shield) | set(t.buckler)) & letters
            if "M" in letters and not t.starts_base_def_5:
                fb.add("M")
            if "G" in letters and self.field != "never":
                fb.add("G")
            self.feedback = frozenset(fb)
            self.cortex = "C" in letters and t.power_points > 0
        lt = self.card.letters
        self.feedback_mask = sum(1 << lt.index(x) for x in self.feedback)
        self.cortex_bit = (1 << lt.index("C")) if self.cortex else 0

    # ----------------------------------------------------------------- the index
    @property
    def n(self) -> int:
        """Attacks of every round."""
        return len(self.slots)

    @property
    def n_events(self) -> int:
        """Attacks and round-end steps (:attr:`events`)."""
        return len(self.events)

    @property
    def size(self) -> int:
        """Indices in use: the damage marked on a track, the configurations met on a card."""
        return self.card.size if self.card is not None else self.boxes

    def count(self, idx: np.ndarray) -> np.ndarray:
        """Boxes marked in each index."""
        return idx if self.card is None else self.card.count[idx]

    def remaining(self, idx: np.ndarray) -> np.ndarray:
        """Unmarked boxes in each index."""
        return self.boxes - self.count(idx)

    def crippled_set(self, bits: int) -> frozenset:
        """The :attr:`State.crippled` of a configuration whose crippled letters are ``bits``."""
        key = bits & self.feedback_mask
        out = self._fb_sets.get(key)
        if out is None:
            lt = self.card.letters
            out = frozenset(x for j, x in enumerate(lt) if key >> j & 1)
            self._fb_sets[key] = out
        return out

    def enter(self, i: int, state: State) -> State:
        """``state`` as attack ``i`` finds it: an attacker starts with all of its points,
        and what the previous one left is lost. Past the last attack, points are dropped."""
        if i >= self.n:
            return state._replace(points=0) if state.points else state
        info = self.slots[i]
        if info.first and state.points != info.attacker.points:
            return state._replace(points=info.attacker.points)
        return state

    # ----------------------------------------------------------------- the rolls
    def defense(self, info: SlotInfo, state: State) -> int:
        """``DEF = base + terrain + spells - effects`` against this attack (step 2); a
        crippled Movement system makes the base 5."""
        t, w = self.target, info.weapon
        d = t.defense_against(w.type, base_def_5=state.down or state.still or "M" in state.crippled)
        if "blessed" not in w.rules:
            d += t.spell_def + (0 if state.dispelled else t.upkeep_def)
        return d - sum(self.minus[e][0] for e in state.effects)

    def armor(self, info: SlotInfo, dispelled: bool, effects: frozenset, crippled: frozenset = frozenset()) -> int:
        """ARM against this attack's damage roll (step 4); not floored at 0. A Shield or
        Buckler in a ``crippled`` location gives nothing."""
        t, w = self.target, info.weapon
        arm = t.base_arm("armor_piercing" in w.rules) + t.arm_modifier(w.type)
        if "blessed" not in w.rules:
            arm += t.spell_arm + (0 if dispelled else t.upkeep_arm)
        if "chain_weapon" not in w.rules and t.shield_arm:
            arm += 2 * sum(x not in crippled for x in t.shield) + sum(x not in crippled for x in t.buckler)
        return arm - sum(self.minus[e][1] for e in effects)

    def damage_dice(self, info: SlotInfo, critical: bool) -> int:
        """Damage dice before a paid boost (may be below one; the roll has at least one):
        the attacker's dice for the weapon (crippled systems and aspects included), the
        charge, resistance and Brutal Damage."""
        w, t = info.weapon, self.target
        brutal = "brutal_damage" in w.rules and (critical or self.scenario.brutal_damage == "hit")
        return (info.attacker.damage_dice(w) + int(info.slot.charge and not w.boosted_damage)
                - int(bool(w.damage_types & t.resist)) + int(brutal))

    def attack_dice(self, info: SlotInfo, paid: int) -> int:
        """Attack dice with ``paid`` paid boosts (0 or 1)."""
        return max(1, info.attacker.attack_dice(info.weapon) + paid)

    # ----------------------------------------------------------------- bounds
    def _others(self) -> int:
        """States of everything but the damage marked the sequence may reach (a bound)."""
        weapons = [info.weapon for info in self.slots]
        t = self.target

        def any_rule(*names):
            return any(w.rules & set(names) for w in weapons)

        down = 2 if (any_rule("knockdown", "critical_knockdown") or self.tough) else 1
        still = 2 if any_rule("stationary", "critical_stationary") else 1
        dispelled = 2 if any_rule("dispel") and self.dispellable else 1
        grievous = 2 if any_rule("grievous_wounds") and self.woundable else 1
        effects = 2 ** len(self.minus)
        target_points = t.power_points + 1
        points = max((info.attacker.points for info in self.slots), default=0) + 1
        cont = 2 ** self.possible.bit_count()
        earth = 2 if self.earth_possible else 1
        lost = 2 if self.track_lost else 1
        return prod((down, still, dispelled, grievous, effects, target_points, points, cont, earth, lost))

    def state_bound(self) -> int:
        """Upper bound on the states the sequence may reach (damage marked included); on a
        card, the configurations the engine may number (:meth:`card_registry`) times the
        rest of the state: the size of the distribution it holds."""
        if self.card is None:
            return self._others() * self.boxes
        return self.card_registry() * self._others()

    def max_marks(self, info: SlotInfo) -> int:
        """Most boxes one attack can mark: its largest damage roll (every die a 6, a paid
        boost if its attacker has points, Decapitation) against the lowest ARM the
        sequence can leave, capped at the boxes."""
        if info.pow is None:
            return 0
        w, t = info.weapon, self.target
        dice = max(1, self.damage_dice(info, True) + int(info.attacker.points > 0 and not w.boosted_damage))
        arm = self.armor(info, True, frozenset(self.minus), frozenset(t.shield) | frozenset(t.buckler))
        top = max(0, 6 * dice + info.pow - arm) * (2 if "decapitation" in w.rules else 1)
        return min(top, self.boxes)

    def fire_marks(self) -> int:
        """Most boxes fire's damage roll can mark (12 on 2d6 + POW 12 against the lowest
        ARM the sequence can leave), capped at the boxes."""
        t = self.target
        low = State(False, False, True, False, frozenset(self.minus), 0, 0,
                    frozenset(t.shield) | frozenset(t.buckler))
        return min(self.boxes, max(0, 12 + FIRE_POW - self.fire_armor(low)))

    def event_fans(self) -> list[int]:
        """Per event, a bound on the card configurations it leads to from one: an attack
        (:meth:`card_bounds`; a knockdown in quicksand adds a point: a column roll), fire
        (a column and up to :meth:`fire_marks` boxes), corrosion (a column, one box);
        the other steps move no box."""
        card = self.card
        out = []
        for ev in self.events:
            if ev.kind == "attack":
                info = self.slots[ev.slot]
                t = self.max_marks(info)
                d = int(info.weapon.damage_to in card.dx)
                fan = 1 + (N_COLUMNS + d) * t + N_COLUMNS * max(0, self.rapid_healing - 1) * int(t > 0)
                w = info.weapon
                if self.quicksand and w.rules & {"knockdown", "critical_knockdown"}:
                    fan *= 1 + N_COLUMNS
            elif ev.kind == "fire":
                fan = 1 + N_COLUMNS * self.fire_marks()
            elif ev.kind == "corrosion":
                fan = 1 + N_COLUMNS
            else:
                fan = 1
            out.append(fan)
        return out

    def card_bounds(self) -> tuple[list[int], list[int]]:
        """Per event (attacks and round-end steps), a bound on the card configurations
        entering it (and one more entry: after the last) and on the configurations it leads
        to from each (grids and spirals).

        From one configuration an attack leads to at most ``1 + (6 + d) * T + 6 * (r - 1)``
        others: no mark, or a start column (six, plus one for "damage to X": ``d``) and a
        number of boxes up to ``T`` (:meth:`max_marks`; Tough saves and Rapid Healing of
        one are among them), plus what Rapid Healing ``r`` may heal beyond the attack's own
        marks (see :meth:`event_fans` for the other steps). Entering event ``e``, the
        product of those over the events before, capped (without a mark stack) by the
        configurations the columns can form.
        """
        card = self.card
        cap = card.n_codes if not card.stack else None
        configs, fans = [], self.event_fans()
        c = 1
        for fan in fans:
            configs.append(c if cap is None else min(c, cap))
            c = min(c * fan, 10**18)
        configs.append(c if cap is None else min(c, cap))  # after the last event
        return configs, fans

    def card_registry(self) -> int:
        """Bound on the configurations the engine numbers over the whole sequence: those
        entering each event and after the last, summed, capped (without a mark stack) by
        the configurations the columns can form."""
        configs, _ = self.card_bounds()
        total = sum(configs)
        return total if self.card.stack else min(total, self.card.n_codes)

    def card_work(self) -> int:
        """Bound on the edges a forward pass over a card builds (:data:`MAX_CARD_WORK`)."""
        configs, fans = self.card_bounds()
        outcomes = 3  # miss, hit, critical hit
        return sum(c * f * outcomes for c, f in zip(configs[:-1], fans, strict=True)) * self._others()


def prepare(scenario: Scenario, slots=None, induction: bool = False) -> Setup:
    """The :class:`Setup` of ``scenario``, once :func:`check_exact_applicable` passes.

    ``slots`` replaces the scenario's attack sequence (:func:`optimal_slots`);
    ``induction``: decisions will be found by backward induction.
    """
    if not isinstance(scenario, Scenario):
        raise InputError("scenario", type(scenario).__name__, "must be a mathhammer.Scenario")
    setup = Setup(scenario, slots)
    for info in setup.slots:
        points = info.attacker.points > 0
        w = info.weapon
        attack = setup.attack_dice(info, int(points and not w.boosted_attack))
        damage = 0
        if w.deals_damage:
            free = w.boosted_damage or info.slot.charge
            damage = setup.damage_dice(info, True) + int(points and not free)
        if max(attack, damage) > rolls.MAX_DICE:
            raise ExactNotApplicable(
                f"{info.slot.label}: more than {rolls.MAX_DICE} dice in one roll is not supported "
                "by the exact engine")
    if setup.card is not None:
        _check_card(setup, induction)
        states = 0
    else:
        states = setup.state_bound()
    if states > MAX_STATES:
        raise ExactNotApplicable(
            f"up to {states:,} states (damage marked x situation x effects x points) exceed the "
            f"exact engine's limit of {MAX_STATES:,}: use the Monte Carlo method")
    steps = setup.n_events
    if states * steps > MAX_WORK:
        what = "attacks" if steps == setup.n else "attacks and round-end steps"
        raise ExactNotApplicable(
            f"up to {states:,} states over {steps} {what} exceed the exact engine's limit of "
            f"{MAX_WORK:,} state-attacks: use the Monte Carlo method")
    if induction and steps > MAX_INDUCTION_SLOTS:
        what = "attacks" if steps == setup.n else "attacks and round-end steps"
        raise ExactNotApplicable(
            f"{steps} {what} exceed the {MAX_INDUCTION_SLOTS} that the exact engine's backward "
            "induction handles")
    return setup


def _check_card(setup: Setup, induction: bool) -> None:
    """The limits of a grid or spiral (:data:`MAX_CARD_STATES`, :data:`MAX_CARD_WORK`).

    Forward propagation holds one vector over the configurations numbered so far per state
    entering an attack; backward induction keeps one per state entering every attack.
    """
    states = setup.state_bound() * (setup.n_events if induction else 1)
    kind = setup.target.capacity
    if states > MAX_CARD_STATES:
        what = "kept for every attack by backward induction" if induction else "held at once"
        raise ExactNotApplicable(
            f"up to {states:,} states ({kind} configurations x situation x effects x points, {what}) "
            f"exceed the exact engine's limit of {MAX_CARD_STATES:,}: use the Monte Carlo method")
    work = setup.card_work()
    if work > MAX_CARD_WORK:
        raise ExactNotApplicable(
            f"up to {work:,} {kind} transitions over {setup.n_events} steps exceed the exact engine's "
            f"limit of {MAX_CARD_WORK:,}: use the Monte Carlo method")


def check_exact_applicable(scenario: Scenario) -> None:
    """Raise :class:`~mathhammer.errors.ExactNotApplicable` if :func:`exact_result
    <mathhammer.exact.exact_result>` cannot compute ``scenario``.

    Every rule of docs/activation.md is computed, on damage tracks, grids and spirals,
    over several rounds with continuous effects and hazards.
    Refused: a roll of more than :data:`~mathhammer.exact.rolls.MAX_DICE` dice (never,
    within the rules model's bounds); on a track, more than :data:`MAX_STATES` states
    (damage marked times every situation, set of effects and points the sequence may reach)
    or :data:`MAX_WORK` states times attacks; on a grid or spiral, more than
    :data:`MAX_CARD_STATES` states (the configurations of the card the attacks can reach,
    see :meth:`Setup.card_registry`, times the rest of the state; times the attacks for
    backward induction) or :data:`MAX_CARD_WORK` edges; and, for a target whose power field
    is ``"optimal"`` (backward induction), more than :data:`MAX_INDUCTION_SLOTS` attacks
    (and round-end steps, with several rounds or continuous effects). Attacks count once
    per round with an attack phase.

    Raises
    ------
    InputError
        ``scenario`` is not a :class:`~mathhammer.rules.Scenario`.
    ExactNotApplicable
        The scenario is beyond the engine; the message says why, in one line.

    Examples
    --------
    >>> check_exact_applicable("not a scenario")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: scenario: must be a mathhammer.Scenario (got 'str')
    """
    if not isinstance(scenario, Scenario):
        raise InputError("scenario", type(scenario).__name__, "must be a mathhammer.Scenario")
    prepare(scenario, induction=needs_induction(scenario))


def needs_induction(scenario: Scenario) -> bool:
    """Whether :func:`exact_result <mathhammer.exact.exact_result>` finds the target's
    spending by backward induction (``power_field = "optimal"`` with points to spend)."""
    t = scenario.target
    return t.power_field == "optimal" and t.power_points > 0
