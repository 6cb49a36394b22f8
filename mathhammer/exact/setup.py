"""What the exact engine reads from a scenario once: the :class:`Setup`.

:class:`Setup` reads a :class:`~mathhammer.rules.Scenario` once: per attack, the numbers its
rolls use (:class:`~mathhammer.exact.state.SlotInfo`: skill and POW with the combined-attack
bonus, the charge, the weapon), the events of every round (:attr:`Setup.events`), the
target's card (a :class:`~mathhammer.exact.card.Card`) and what its crippling feeds back; the
target's DEF and ARM against each attack (and fire) given a :class:`~.state.State` are its
mixin's, :class:`~mathhammer.exact.figures.AttackFigures`. The bounds on what a sequence may
reach, and the checks that refuse a scenario beyond the engine: :mod:`~mathhammer.exact.bounds`.
"""

from __future__ import annotations

import copy

import numpy as np

from .._core.limits import MAX_ARM_STACK, MAX_ICE_STACKS, MAX_SHRED
from ..errors import ExactNotApplicable
from ..rules import Scenario, Weapon
from ..rules.vocabulary import STILL_STATES
from .card import Card
from .figures import AttackFigures
from .relaxation import TrackRelaxation
from .state import CORROSION, EFFECT_BIT, FIRE, ROUND_FRESH, Event, SlotInfo, State

__all__ = ["Setup"]


def _slot_info(slot, first: bool, index: int, round_: int, row: int) -> SlotInfo:
    """The :class:`SlotInfo` of ``slot``: skill and POW with the combined-attack bonus (and
    the skill with its own modifier: a slam at a larger base)."""
    bonus = slot.combined_bonus
    pow_ = None if slot.weapon.pow is None else slot.weapon.pow + bonus
    return SlotInfo(slot, first, slot.weapon.skill + bonus + slot.attack_mod, pow_, index, round_, row)


class Setup(TrackRelaxation, AttackFigures):
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
    index : int
        Several targets: which target of the scenario this setup is (0 alone); set by
        :class:`~mathhammer.exact.targets.Targets`.
    then : callable or None
        Several targets: ``then(after)``, where the fall of this target leaves the sequence
        (:meth:`killed`); None: a kill.
    """

    #: One target: the setup is its own part (:class:`~mathhammer.exact.targets.Targets`
    #: holds one setup per target).
    several = False
    #: Amounts of the target's points spent the index holds (1: none, the state holds its
    #: points left; :class:`~mathhammer.exact.layers.Layered`).
    layers = 1

    def __init__(self, scenario: Scenario, slots=None):
        self.scenario = scenario
        self.target = t = scenario.target
        self.index, self.then = 0, None
        self.rolls: dict = {}  #: damage rolls' arrays and where a kill leaves, for the evaluation (:mod:`.damage`)
        base = tuple(scenario.attack_sequence() if slots is None else slots)
        #: Attacks of one round, rounds with an attack phase, rounds in all.
        self.n0, self.rounds, self.turns = len(base), scenario.attack_rounds, scenario.turns
        infos = []
        for r in range(self.rounds):
            for k, s in enumerate(base):
                first = k == 0 or base[k - 1].actor != s.actor
                infos.append(_slot_info(s, first, len(infos), r, len(infos)))
        self.slots: tuple[SlotInfo, ...] = tuple(infos)
        # the other weapons a bought attack may be made with (best play's choice): their rows
        # follow every slot's, round-major, slot by slot, in the order of ``slot.choices``
        alternatives, flat = [], []
        for info in infos:
            mine = tuple(_slot_info(info.slot.with_weapon(wi), False, info.index, info.round,
                                    len(infos) + len(flat) + j)
                         for j, wi in enumerate(info.slot.choices))
            alternatives.append(mine)
            flat += mine
        #: Per slot, its alternatives (:attr:`SlotInfo.row` numbers them after the slots).
        self.alternatives: tuple[tuple[SlotInfo, ...], ...] = tuple(alternatives)
        #: Every slot and alternative, in row order: what the sequence's weapons can do.
        self.all_infos: tuple[SlotInfo, ...] = self.slots + tuple(flat)
        slots = base
        self.boxes = int(t.boxes)
        #: A unit target: its models, and the boxes of all of them (a kill marks every one).
        self.models = int(t.models)
        self.unit_boxes = self.boxes * self.models
        #: An area-of-effect attack can blast the unit's other models: the state then keeps
        #: theirs (:attr:`State.others`).
        self.blast = t.unit and any(info.weapon.blasts for info in self.all_infos)
        self.marks = np.arange(self.boxes)
        self.tough = bool(t.tough_rules)
        self.upkeep_tough = "tough" in t.upkeep_rules  # a Dispel ends it
        self.steady = "tough_steady" in t.rules
        #: Tough's save: a d6 of ``tough_on`` or more (docs/rules.md 3)
        self.tough_on = int(t.tough_on)
        #: Rapid Healing: its points (a d3: at most 3, ``rapid_d3``)
        self.rapid_d3 = t.rapid_healing == "d3"
        self.rapid_healing = 3 if self.rapid_d3 else int(t.rapid_healing)
        #: Whether Dispel / Grievous Wounds can change anything (if not, the state ignores them).
        self.dispellable = bool(t.upkeep_def or t.upkeep_arm or t.upkeep_rules)
        self.woundable = self.tough or self.rapid_healing > 0
        #: Most -ARM effects landing again can add in a round (arm_minus_stacks_same_weapon).
        self.most_arm_extra = min(MAX_ARM_STACK, sum(info.weapon.arm_minus for info in self.all_infos
                                                     if info.round == 0)) if scenario.arm_minus_stacks_same_weapon else 0
        #: Most attacks of a random rate of fire (0 without one).
        self.most_shots = max((info.weapon.initial_attacks for info in self.all_infos if info.rof), default=0)
        #: Shred: the most Shred attacks one attack leads to (0 without a weapon with Shred),
        #: and the most other weapons a bought attack may be made with (:attr:`State.shred_alt`).
        self.most_shred = MAX_SHRED if any("shred" in info.weapon.rules for info in self.all_infos) else 0
        self.most_alternatives = max((len(alt) for alt in alternatives), default=0)
        #: Most Ice Cage stacks a round can put on it (a bound: each attack of a round).
        self.ice_stacks = min(MAX_ICE_STACKS, sum(info.round == 0 and bool(info.weapon.rules & {
            "ice_cage", "critical_ice_cage"}) for info in self.all_infos))
        self.power_kind = t.power_kind  # "focus", "fury" or None (none, or inert / wild)
        self.field = t.power_field if self.power_kind else "never"
        #: Most points the power field spends on one damage roll (setting
        #: power_field_per_attack; no limit: more than any target has)
        self.field_limit = scenario.power_field_per_attack or t.power_points + 1
        #: Setting rapid_healing_when_hit: Rapid Healing after a Tough save, and after damage
        #: rolled that the power field prevented (a damage track's)
        self.heal_when_hit = scenario.rapid_healing_when_hit
        #: Shield Guard blocks of the target's side at the start, spent by best play
        self.blocks = t.guard_blocks
        #: -DEF / -ARM of each weapon that has an effect, by identity.
        self.minus = {info.ident: (info.weapon.def_minus, info.weapon.arm_minus)
                      for info in self.all_infos if info.weapon.has_effect}
        self._continuous_setup()
        self._card_setup()
        self.track_lost = self.cortex and self.turns > 1
        first_points = slots[0].attacker.points if slots else 0
        self.start = State(
            down="knocked_down" in t.state,
            still=bool(t.state & STILL_STATES),
            dispelled=False,
            grievous=False,
            effects=frozenset(),
            target_points=t.power_points,
            points=first_points,
            cont=sum(EFFECT_BIT[e] for e in t.effects),
            earth=self.earth_possible,
            others=((0, "knocked_down" in t.state),) * (self.models - 1) if self.blast else (),
            blocks=self.blocks,
        )
        self.events = self.events_for(self.possible, self.earth_possible)

    def _continuous_setup(self):
        """What continuous effects and hazards can do (docs/activation.md, "Continuous
        effects, hazards and several turns")."""
        t = self.target
        hz = t.hazards
        self.suffers = sum(bit for e, bit in EFFECT_BIT.items() if t.suffers(e))
        #: cont bits a hit (critical or not) puts on the target, per weapon
        self._sets: dict = {}
        gives = 0
        for info in self.all_infos:
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

    def events_for(self, possible: int, earth: bool) -> tuple[Event, ...]:
        """Attacks and round-end steps of every round, in order, with the continuous
        effects ``possible`` (bits) and a burning earth (``earth``) possible: on this
        target, or, with several targets, on any of them (a step that cannot happen on this
        one leaves its states as they are)."""
        out = []
        n0, n = self.n0, len(self.slots)
        for r in range(self.turns):
            if r < self.rounds:
                out += [Event("attack", r, r * n0 + k) for k in range(n0)]
            if not self.round_end:
                continue
            nxt = (r + 1) * n0 if r + 1 < self.rounds else n
            if earth:
                out.append(Event("earth", r, nxt))
            if possible & FIRE:
                out.append(Event("fire", r, nxt))
            if possible & CORROSION:
                out.append(Event("corrosion", r, nxt))
            out.append(Event("activation", r, nxt))
        return tuple(out)

    def reset(self, state: State) -> State:
        """The start of a new round (docs/activation.md, "A round", 1): the target stands as
        its starting state says, -DEF / -ARM effects, Dispel and Grievous Wounds end, its
        focus or fury is back unless its Cortex was crippled; damage, crippled systems and
        continuous effects stay."""
        return state._replace(down=self.start.down, still=self.start.still, **ROUND_FRESH,
                              target_points=0 if state.lost else self.target.power_points, points=0,
                              others=tuple((m, self.start.down) for m, _ in state.others))

    def shred_number(self, info: SlotInfo) -> int:
        """:attr:`State.shred_alt` of a Shred attack with ``info``'s weapon: 0 for its slot's,
        k for the slot's k-th alternative weapon."""
        return 0 if info.row == info.index else 1 + self.alternatives[info.index].index(info)

    def shred_info(self, i: int, state: State) -> SlotInfo:
        """The weapon of the Shred attack ``state`` owes attack ``i``."""
        return self.slots[i] if state.shred_alt == 0 else self.alternatives[i][state.shred_alt - 1]

    def killed(self, after: State) -> tuple[State | None, int]:
        """Where a model's destruction leaves the sequence, from the state ``after`` the blow:
        ``(None, 0)`` for the target's last model (a kill; several targets: :attr:`then`, the
        first target still standing), else the unit's next model and its damage marked (the
        points left over are lost). The attacker's points go on; the next model stands as the
        unit starts (a Dispel holds for every model), with what a blast left on it."""
        if after.destroyed + 1 >= self.models:
            return (None, 0) if self.then is None else self.then(after)
        s = self.start
        marked, down = after.others[0] if after.others else (0, s.down)
        # a Dispel holds for every model; the attacker's volley and a Shred attack owed go on
        # (the state keeps ``shred``: no ROUND_FRESH field)
        fresh = dict(ROUND_FRESH, dispelled=after.dispelled, shots=after.shots)
        return after._replace(down=down, still=s.still, **fresh, target_points=s.target_points,
                              crippled=frozenset(), cont=s.cont, lost=False, destroyed=after.destroyed + 1,
                              others=after.others[1:]), marked

    def saved(self, p):
        """``p`` times the chance a Tough roll saves (1/3 for 5+, as before the setting)."""
        return p / 3 if self.tough_on == 5 else p * ((7 - self.tough_on) / 6)

    def failed(self, p):
        """``p`` times the chance a Tough roll fails."""
        return p * (2 / 3) if self.tough_on == 5 else p * ((self.tough_on - 1) / 6)

    def enter_event(self, e: int, state: State) -> State:
        """``state`` as event ``e`` finds it (:meth:`enter` for an attack; a round-end
        step drops the attacker's points)."""
        ev = self.events[e] if e < len(self.events) else None
        if ev is not None and ev.kind == "attack":
            return self.enter(ev.slot, state)
        return _end_activation(state._replace(points=0) if state.points else state)

    def _card_setup(self):
        t = self.target
        self.card = None
        self.feedback = frozenset()
        self.cortex = False
        #: The relaxation of best play on a track (:meth:`cripple_from`): per grid system,
        #: its chance of being crippled at each number of boxes marked; None elsewhere.
        self.track_cripple = None
        self.windows = (0,) * (self.n + 1)
        self.feedback_mask = 0
        self.cortex_bit = 0
        self._fb_sets: dict = {}
        if t.card is None:
            return
        if t.colossal:
            raise ExactNotApplicable(f"target {t.name!r} is a colossal: its two grids are beyond the exact "
                                     "engine (Monte Carlo handles them)")
        letters = set(t.letters)
        if self.rapid_healing >= 2:
            dealing = [any(x.pow is not None for x in (info,) + alt)
                       for info, alt in zip(self.slots, self.alternatives)]
            self.windows = tuple((self.rapid_healing - 1) * sum(dealing[i:]) for i in range(self.n + 1))
        self.card = Card(t, [info.weapon.damage_to for info in self.all_infos], stack=self.windows[0])
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

    def only(self, events) -> Setup:
        """This setup with ``events`` (a sub-sequence of :attr:`events`) as its sequence:
        one activation of a turn whose activations are chained one by one
        (:mod:`~mathhammer.exact.activations`). The copy shares everything else, the card's
        numbering of configurations included, so that values pass from one activation to
        the next at the same indices."""
        view = copy.copy(self)
        view.events = tuple(events)
        return view

    def part(self, state: State) -> Setup:
        """The setup of the target under attack in ``state``: this one (one target)."""
        return self

    def skips(self, e: int, state: State) -> bool:
        """Whether event ``e`` leaves ``state`` as it is for want of its target: never here."""
        return False

    def before(self, state: State) -> tuple[int, int]:
        """Boxes marked and models destroyed on the other targets: none (one target)."""
        return (0, 0)

    # ----------------------------------------------------------------- the index
    @property
    def n(self) -> int:
        """Attacks of every round."""
        return len(self.slots)

    @property
    def table_rows(self) -> int:
        """Rows of best play's decision tables: every slot, then every alternative weapon."""
        return len(self.all_infos)

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

    def unit_marked(self, idx, state: State):
        """Boxes marked on the whole unit at index ``idx`` (array, or a track's damage marked) in
        ``state``: the model under attack's, all of each model destroyed, a blast's on the rest."""
        return self.count(idx) + state.destroyed * self.boxes + sum(m for m, _ in state.others)

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
        and what the previous one left is lost. Past the last attack, points are dropped.
        A Shred attack owed (:attr:`State.shred`) is attack ``i`` made again: it finds the
        state as the last attack left it."""
        if state.shred:
            return state
        if i >= self.n:
            return _end_activation(state._replace(points=0) if state.points else state)
        info = self.slots[i]
        if info.first:  # a new activation: its points, no Sustained Attack yet
            state = _end_activation(state)
            if state.points != info.attacker.points:
                state = state._replace(points=info.attacker.points)
        if state.shots and not (info.rof and info.slot.number > 0):  # a volley has ended
            state = state._replace(shots=0)
        return state


def _end_activation(state: State) -> State:
    """``state`` once an attacker's activation is over: no Sustained Attack, no volley."""
    return state._replace(sustained=False, shots=0) if state.sustained or state.shots else state
