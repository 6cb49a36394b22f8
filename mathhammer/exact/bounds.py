"""The exact engine's limits: bounds on what a sequence may reach, and the checks against them.

A run holds, per state entering an event, a vector over the damage marked (on a grid or
spiral, over the configurations of the card numbered so far), and each event moves every
entry along its edges. The functions here bound, from a :class:`~mathhammer.exact.setup.Setup`
alone, how many states a scenario may reach (:func:`state_bound`), how many card
configurations the engine may number (:func:`card_registry`) and how many edges a forward
pass builds (:func:`card_work`); :func:`prepare` refuses, in one line, a scenario whose bounds
exceed the limits (:data:`MAX_STATES`, :data:`MAX_WORK`, :data:`MAX_CARD_STATES`,
:data:`MAX_CARD_WORK`, :data:`MAX_INDUCTION_SLOTS`), or whose best play on a card is estimated
to need more than :data:`MAX_CARD_INDUCTION_EDGES` edges
(:func:`~mathhammer.exact.induction_work.induction_work`; the engine also counts them while it
runs), and :func:`check_exact_applicable` says whether a scenario passes before any
propagation is run.
"""

from __future__ import annotations

from math import prod

from ..errors import ExactNotApplicable, InputError
from ..rules import Scenario
from . import rolls
from .card import N_COLUMNS
from .induction_work import induction_work
from .setup import Setup
from .state import FIRE_POW, SlotInfo, State
from .targets import Targets, check_targets

__all__ = ["situations_varying", "state_bound", "max_marks", "fire_marks", "event_fans", "card_bounds", "card_registry", "card_work",
           "prepare", "check_exact_applicable", "needs_induction", "best_play_refusal", "MAX_STATES", "MAX_WORK", "MAX_CARD_STATES",
           "MAX_CARD_WORK", "MAX_INDUCTION_SLOTS", "MAX_CARD_INDUCTION_EDGES"]

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

#: Grids and spirals with best play: most edges the decisions keep (backward induction and the
#: forward pass along its decisions; about two to five million a second) before the exact
#: engine gives up (:class:`~mathhammer.exact.induction.Engine`): some 20-40 s, enough for every
#: bundled card's activation on another (the most: a heavy warbeast's on a heavy warbeast, 67
#: million), not for two heavy warjacks' on a heavy warjack (162 million). A scenario
#: estimated beyond it (:func:`~mathhammer.exact.induction_work.induction_work`) is refused
#: before any of them.
MAX_CARD_INDUCTION_EDGES = 82_000_000


def situations_varying(setup: Setup) -> tuple[bool, bool, bool, bool, bool]:
    """Whether the sequence can change the target's knocked-down, stationary, dispelled,
    Grievous Wounds and paralyzed state (else each stays as it starts)."""
    weapons = [info.weapon for info in setup.all_infos]

    def any_rule(name):  # on any hit or on a critical hit only
        return any(w.has_rule(name) for w in weapons)

    return (bool(any_rule("knockdown") or setup.tough),
            bool(any_rule("stationary") or setup.ice_stacks >= 2),
            bool(any_rule("dispel") and setup.dispellable),
            bool(any_rule("grievous_wounds") and setup.woundable),
            bool(any_rule("paralysis")))


def _other_states(setup: Setup) -> int:
    """States of everything but the damage marked the sequence may reach (a bound)."""
    t = setup.target
    down, still, dispelled, grievous, paralyzed = (2 if v else 1 for v in situations_varying(setup))
    effects = 2 ** len(setup.minus)
    target_points = t.power_points + 1
    points = max((info.attacker.points for info in setup.slots), default=0) + 1
    cont = 2 ** setup.possible.bit_count()
    earth = 2 if setup.earth_possible else 1
    lost = 2 if setup.track_lost else 1
    # a unit: the models destroyed; with an AOE, each other model's damage and knockdown
    others = (2 * setup.boxes) ** (setup.models - 1) if setup.blast else 1
    sustained = 2 if any(info.weapon.has_rule("sustained_attack") for info in setup.all_infos) else 1
    # Shred: the attacks of a chain made so far, and with which weapon
    shred = setup.most_shred * (1 + setup.most_alternatives) + 1
    return prod((down, still, dispelled, grievous, paralyzed, sustained, shred, setup.ice_stacks + 1,
                 setup.most_shots + 1, setup.most_arm_extra + 1, effects, target_points, points, cont, earth,
                 lost, setup.models, others, setup.blocks + 1))


def state_bound(setup: Setup) -> int:
    """Upper bound on the states the sequence may reach (damage marked included); on a
    card, the configurations the engine may number (:func:`card_registry`) times the
    rest of the state: the size of the distribution it holds."""
    if setup.card is None:
        return _other_states(setup) * setup.boxes
    return card_registry(setup) * _other_states(setup)


def max_marks(setup: Setup, info: SlotInfo) -> int:
    """Most boxes one attack can mark: its largest damage roll (every die a 6, a paid
    boost if its attacker has points, Decapitation) against the lowest ARM the
    sequence can leave, capped at the boxes."""
    if info.pow is None:
        return 0
    w, t = info.weapon, setup.target
    dice = max(1, setup.damage_dice(info, True) + int(info.attacker.points > 0 and not w.boosted_damage))
    arm = setup.armor(info, True, frozenset(setup.minus), frozenset(t.shield) | frozenset(t.buckler), True)
    double = w.rules & {"decapitation", "decapitation_on_hit"}
    top = max(0, 6 * dice + info.pow - arm) * (2 if double else 1)
    return min(top, setup.boxes)


def fire_marks(setup: Setup) -> int:
    """Most boxes fire's damage roll can mark (12 on 2d6 + POW 12 against the lowest
    ARM the sequence can leave), capped at the boxes."""
    t = setup.target
    low = State(False, False, True, False, frozenset(setup.minus), 0, 0,
                frozenset(t.shield) | frozenset(t.buckler))
    return min(setup.boxes, max(0, 12 + FIRE_POW - setup.fire_armor(low)))


def event_fans(setup: Setup) -> list[int]:
    """Per event, a bound on the card configurations it leads to from one: an attack
    (:func:`card_bounds`; a knockdown in quicksand adds a point: a column roll), fire
    (a column and up to :func:`fire_marks` boxes), corrosion (a column, one box);
    the other steps move no box."""
    card = setup.card
    out = []
    for ev in setup.events:
        if ev.kind == "attack":
            # a bought attack with a choice of weapons: the widest of them
            fan = 0
            for info in (setup.slots[ev.slot],) + setup.alternatives[ev.slot]:
                t = max_marks(setup, info)
                d = int(info.weapon.damage_to in card.dx)
                f = 1 + (N_COLUMNS + d) * t + N_COLUMNS * max(0, setup.rapid_healing - 1) * int(t > 0)
                if setup.quicksand and info.weapon.rules & {"knockdown", "critical_knockdown"}:
                    f *= 1 + N_COLUMNS
                fan = max(fan, f)
        elif ev.kind == "fire":
            fan = 1 + N_COLUMNS * fire_marks(setup)
        elif ev.kind == "corrosion":
            fan = 1 + N_COLUMNS
        else:
            fan = 1
        out.append(fan)
    return out


def card_bounds(setup: Setup) -> tuple[list[int], list[int]]:
    """Per event (attacks and round-end steps), a bound on the card configurations
    entering it (and one more entry: after the last) and on the configurations it leads
    to from each (grids and spirals).

    From one configuration an attack leads to at most ``1 + (6 + d) * T + 6 * (r - 1)``
    others: no mark, or a start column (six, plus one for "damage to X": ``d``) and a
    number of boxes up to ``T`` (:func:`max_marks`; Tough saves and Rapid Healing of
    one are among them), plus what Rapid Healing ``r`` may heal beyond the attack's own
    marks (see :func:`event_fans` for the other steps). Entering event ``e``, the
    product of those over the events before, capped (without a mark stack) by the
    configurations the columns can form.
    """
    card = setup.card
    cap = card.n_codes if not card.stack else None
    configs, fans = [], event_fans(setup)
    c = 1
    for fan in fans:
        configs.append(c if cap is None else min(c, cap))
        c = min(c * fan, 10**18)
    configs.append(c if cap is None else min(c, cap))  # after the last event
    return configs, fans


def card_registry(setup: Setup) -> int:
    """Bound on the configurations the engine numbers over the whole sequence: those
    entering each event and after the last, summed, capped (without a mark stack) by
    the configurations the columns can form."""
    configs, _ = card_bounds(setup)
    total = sum(configs)
    return total if setup.card.stack else min(total, setup.card.n_codes)


def card_work(setup: Setup) -> int:
    """Bound on the edges a forward pass over a card builds (:data:`MAX_CARD_WORK`)."""
    configs, fans = card_bounds(setup)
    outcomes = 3  # miss, hit, critical hit
    return sum(c * f * outcomes for c, f in zip(configs[:-1], fans, strict=True)) * _other_states(setup)


def prepare(scenario: Scenario, slots=None, induction: bool = False, forward: bool = True) -> Setup | Targets:
    """The :class:`~mathhammer.exact.setup.Setup` of ``scenario`` (several targets: the
    :class:`~mathhammer.exact.targets.Targets`), once :func:`check_exact_applicable` passes.

    ``slots`` replaces the scenario's attack sequence;
    ``induction``: decisions will be found by backward induction; ``forward``: and a forward
    pass along them will follow (its edges count in the estimate of best play's work on a
    card; :func:`~mathhammer.exact.optimal.optimal_value` makes none). Several targets: each
    target's bounds hold, and its states count in the limits: at most the sum of the
    targets' where the routes go in order (only the target under attack has a state), else
    each target's states times those of every other, set aside, untouched or destroyed.
    """
    if not isinstance(scenario, Scenario):
        raise InputError("scenario", type(scenario).__name__, "must be a mathhammer.Scenario")
    if scenario.several:
        slots = tuple(scenario.attack_sequence() if slots is None else slots)
        check_targets(scenario, slots)
        setup = Targets(scenario, slots)
        parts = setup.parts
    else:
        setup = Setup(scenario, slots)
        parts = (setup,)
    each = [_part_states(part, induction, forward) for part in parts]
    states = sum(each)
    if scenario.several and setup.crossing:  # the others set aside, each in a state of its own
        states = sum(k * prod(h + 2 for j, h in enumerate(each) if j != g) for g, k in enumerate(each))
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


def _part_states(setup: Setup, induction: bool, forward: bool) -> int:
    """The checks of one target's setup; the bound on its states (0 on a card: checked by
    :func:`_check_card`)."""
    t = setup.target
    if t.rapid_healing == "d3" and (t.card is not None or setup.blast):
        raise ExactNotApplicable(
            "Rapid Healing d3 on a damage grid or life spiral, or on a unit an area-of-effect "
            "attack blasts, is beyond the exact engine: use the Monte Carlo method")
    if setup.most_shred and setup.card is not None and setup.rapid_healing >= 2:
        raise ExactNotApplicable(
            "Shred against a damage grid or life spiral with Rapid Healing of 2 or more is beyond "
            "the exact engine (it keeps the order of a fixed number of marks): use the Monte "
            "Carlo method")
    if t.unit and t.card is not None:
        raise ExactNotApplicable(
            f"a unit of {t.models} models with a damage {t.capacity} each (every model's card "
            "at once) is beyond the exact engine: use the Monte Carlo method")
    spread = t.effects or (t.hazards & {"acid_bath", "burning_earth"})
    if t.unit and spread:
        # each model of the unit would carry its own continuous effects: the state holds
        # only the model under attack's (docs/units.md)
        raise ExactNotApplicable(
            f"a unit target with {', '.join(sorted(spread))} has continuous effects on every "
            "model at once, beyond the exact engine: use the Monte Carlo method")
    for info in setup.all_infos:
        points = info.attacker.points > 0
        w = info.weapon
        attack = setup.attack_dice(info, int(points and not info.slot.free_attack_boost))
        damage = 0
        if w.deals_damage:
            free = info.slot.free_damage_boost
            damage = setup.damage_dice(info, True) + int(points and not free)
        if max(attack, damage) > rolls.MAX_DICE:
            raise ExactNotApplicable(
                f"{info.slot.label}: more than {rolls.MAX_DICE} dice in one roll is not supported "
                "by the exact engine")
    if setup.card is not None:
        _check_card(setup, induction, forward)
        return 0
    return state_bound(setup)


def _check_card(setup: Setup, induction: bool, forward: bool = True) -> None:
    """The limits of a grid or spiral (:data:`MAX_CARD_STATES`, :data:`MAX_CARD_WORK`; with
    backward induction, :data:`MAX_CARD_INDUCTION_EDGES` against the edges
    :func:`~mathhammer.exact.induction_work.induction_work` estimates).

    Forward propagation holds one vector over the configurations numbered so far per state
    entering an attack; backward induction keeps one per state entering every attack. The
    edges best play builds are estimated before any is built, so that a scenario far beyond
    the limit is refused at once rather than once the engine has counted them (a minute on a
    heavy card).
    """
    states = state_bound(setup) * (setup.n_events if induction else 1)
    kind = setup.target.capacity
    if states > MAX_CARD_STATES:
        what = "kept for every attack by backward induction" if induction else "held at once"
        raise ExactNotApplicable(
            f"up to {states:,} states ({kind} configurations x situation x effects x points, {what}) "
            f"exceed the exact engine's limit of {MAX_CARD_STATES:,}: use the Monte Carlo method")
    work = card_work(setup)
    if work > MAX_CARD_WORK:
        raise ExactNotApplicable(
            f"up to {work:,} {kind} transitions over {setup.n_events} steps exceed the exact engine's "
            f"limit of {MAX_CARD_WORK:,}: use the Monte Carlo method")
    if not induction:
        return
    need = induction_work(setup)
    edges = None if need is None else (need.total if forward else need.induction)
    if edges is not None and edges > MAX_CARD_INDUCTION_EDGES:
        about = round(edges, 3 - len(str(edges)))  # three figures
        raise ExactNotApplicable(best_play_refusal(
            setup, f"would need about {about:,} transitions of backward induction (the limit is "
                   f"{MAX_CARD_INDUCTION_EDGES:,})"))


def best_play_refusal(setup: Setup, need: str) -> str:
    """The one line that refuses best play on ``setup``'s card, and what answers instead
    (the power field's fixed policy only for a target that spends by best play): one
    wording before the engine runs (:func:`prepare`) and while it runs
    (:class:`~mathhammer.exact.induction.Engine`).

    Parameters
    ----------
    setup : Setup
    need : str
        What best play would need, after "best play on this damage grid ": ``"needs more
        than 82,000,000 transitions of backward induction"``.
    """
    card = "damage grid" if setup.target.capacity == "grid" else "life spiral"
    field = ", power_field = \"lethal\"" if setup.field == "best" and setup.target.power_points else ""
    return (f"best play on this {card} {need}: use the Monte Carlo method (it solves best play on a "
            f"relaxation), fixed policies (policy = \"fixed\"{field}), fewer attacks or points, or a "
            "smaller card")


def check_exact_applicable(scenario: Scenario) -> None:
    """Raise :class:`~mathhammer.errors.ExactNotApplicable` if :func:`exact_result
    <mathhammer.exact.exact_result>` cannot compute ``scenario``.

    Every rule of docs/activation.md is computed, on damage tracks, grids and spirals,
    over several rounds with continuous effects and hazards, and against a unit of models
    (docs/units.md: the state is the model under attack's and the models destroyed).
    Refused: a unit target that starts with continuous effects or stands in an acid bath or
    a burning earth (every model would carry its own effects); with several targets, a
    target after the first that starts with continuous effects, and a grid or spiral
    (:func:`~mathhammer.exact.targets.check_targets`); a roll of more than :data:`~mathhammer.exact.rolls.MAX_DICE` dice (never,
    within the rules model's bounds); on a track, more than :data:`MAX_STATES` states
    (damage marked times every situation, set of effects and points the sequence may reach)
    or :data:`MAX_WORK` states times attacks; on a grid or spiral, more than
    :data:`MAX_CARD_STATES` states (the configurations of the card the attacks can reach,
    see :func:`card_registry`, times the rest of the state; times the attacks for
    backward induction) or :data:`MAX_CARD_WORK` edges; and, with best play (backward
    induction: an attacker with ``policy = "best"``, a target whose power field is
    ``"best"``), more than :data:`MAX_INDUCTION_SLOTS` attacks
    (and round-end steps, with several rounds or continuous effects), and on a grid or
    spiral an estimate of more than :data:`MAX_CARD_INDUCTION_EDGES` edges
    (:func:`~mathhammer.exact.induction_work.induction_work`; a scenario it lets through
    that needs more is still stopped while it runs). Attacks count once per round with an
    attack phase.

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
    """Whether :func:`exact_result <mathhammer.exact.exact_result>` finds decisions by
    backward induction: an attacker playing its best, or a target whose power field is
    ``"best"``, with points to spend."""
    return (any(t.power_field == "best" and t.power_points > 0 or t.guard_blocks for t in scenario.targets)
            or any(a.plays_best for a in scenario.attackers))
