"""Forward propagation: the probability of every state, event after event, into a Result.

The distribution before event ``e`` (an attack, or a step of the end of a round:
:attr:`Setup.events <mathhammer.exact.setup.Setup.events>`) is a dict ``State -> vector over
damage marked`` (on a grid or spiral, over the configurations of the card met so far).
Each event pushes every vector along its edges (:meth:`Engine.edges
<mathhammer.exact.induction.Engine.edges>`): probability that reaches a kill leaves the
distribution and is counted in ``kill_weights[i]`` (attack ``i``) or in the maintenance
kills of its round; the rest lands in the state after the event. On the way, each edge adds
its probability times its counts to the ``SLOT_*`` columns of attack ``i`` (or to the
``EFFECT_*`` figures of its round: :class:`~mathhammer.exact.tally.Tally`), so every figure
is an exact expectation.
"""

from __future__ import annotations

import numpy as np

from .._core.validate import check_bool
from ..errors import InputError
from ..result import CardPart, Result, RoundsPart, TargetsPart, UnitPart
from ..result.fields import EFFECT_AFTER, EFFECT_APPLIED, EFFECT_KILL, EFFECT_PRESENT
from ..result.naming import card_names, scenario_names
from ..rules import Scenario
from ..rules.slots import round_labels
from .bounds import MAX_CARD_INDUCTION_EDGES, needs_induction, prepare
from .induction import CONFIG_BATCH, Engine, deep_recursion
from .layers import layered, unfold
from .state import CORROSION, FIRE
from .targets import switch_all, target_figures
from .tidy import tidy, tidy_rounds, tidy_targets
from .tally import Tally
from .vectors import add, pad

__all__ = ["exact_result", "result_of", "propagate", "propagate_rounds"]


def propagate(engine: Engine):
    """Push the starting state through every event (attacks of every round, round-end
    steps): :func:`propagate_rounds` without its ``rounds`` figures.

    Returns
    -------
    damage_weights, slot_weights, kill_weights, slot_damage_sq, cards
    """
    damage_weights, slot_weights, kill_weights, slot_damage_sq, _, cards = propagate_rounds(engine)
    return damage_weights, slot_weights, kill_weights, slot_damage_sq, cards


def propagate_rounds(engine: Engine, visit=None):
    """Push the starting state through every event (attacks of every round, round-end steps).

    ``visit(e, dist)``, when given, is called with the distribution entering each event
    (``State -> vector over damage marked``), e.g. to weigh the decisions of best play by how
    often they are met.

    Returns
    -------
    damage_weights, slot_weights, kill_weights, slot_damage_sq : ndarray
        As in :class:`~mathhammer.result.Result` (probabilities; a row per attack of every
        round), and per attack ``E[(damage points it marked)**2]``.
    rounds : dict
        ``maintenance_kill_weights`` (per round), ``effect_weights`` (per round, effect
        and ``EFFECT_*`` column) and ``destroyed_weights`` (models destroyed at the end), as
        in :class:`~mathhammer.result.Result`; several targets
        (:class:`~mathhammer.exact.targets.Targets`): also ``target_kill_weights``,
        ``target_damage_weights`` and ``target_destroyed_weights``. A kill is then every
        target destroyed, and the damage and models destroyed are summed over the targets.
    cards : dict
        Grids and spirals: ``cripple_weights`` and ``box_weights`` as in
        :class:`~mathhammer.result.Result`, ``cripple_end`` (per letter, crippled at the
        end, after the last round's maintenance phase) and ``final``, the distribution of
        the target left standing at the end (``State -> vector over the configurations of
        engine.setup.card``); empty for a damage track.
    """
    setup = engine.setup
    card = setup.card
    several = setup.several
    start = np.zeros(setup.size)
    start[0] = 1.0  # no damage marked (the empty card)
    dist = {setup.start: start}
    tally = Tally(setup)
    effects = tally.effects
    cripple_weights = np.zeros((setup.n, len(card.letters) if card is not None else 0))
    for e, ev in enumerate(setup.events):
        entered: dict = {}
        for state, v in dist.items():
            state = setup.enter_event(e, state)
            add(entered, state, v)
        dist = {}
        attack = ev.kind == "attack"
        t = ev.round
        # Shred (docs/rules.md 5): what a critical hit left owing one more attack goes through
        # this attack again, pass after pass, until no chain is left (each pass one attack more)
        todo = entered
        while todo:
            if several:  # an attack going to another target sets the one under attack aside
                todo = switch_all(setup, e, todo)
            if visit is not None:  # the target's points left in the state, as without layers
                visit(e, unfold(setup, todo))
            again: dict = {}
            for state, v in todo.items():
                if not v.any():
                    continue
                if card is None:
                    batches = [None]
                else:
                    src = np.flatnonzero(v)
                    batches = [src[lo: lo + CONFIG_BATCH] for lo in range(0, src.size, CONFIG_BATCH)]
                for batch in batches:
                    pieces = engine.edges(e, state, batch)
                    (tally.attack if attack else tally.step)(ev, state, v, pieces, dist, again)
            todo = again
        engine.release(e)
        if attack and card is not None:
            i = ev.slot
            size = setup.size
            crippled = card.crippled_matrix(size)
            for v in dist.values():
                cripple_weights[i] += pad(v, size) @ crippled
            # a kill marks every box
            cripple_weights[i] += tally.kill_weights[: i + 1].sum() + tally.maintenance[:t].sum()
        if ev.kind == "activation":
            for state, v in dist.items():
                cont = state.cont
                if ev.target >= 0 and state.target != ev.target:  # each target in its own step
                    cont = next((own.cont for g, _, own in state.parked if g == ev.target), 0)
                for k, bit in ((0, FIRE), (1, CORROSION)):
                    if cont & bit:
                        effects[t, k, EFFECT_AFTER] += v.sum()
    kill_weights, maintenance = tally.kill_weights, tally.maintenance
    killed = kill_weights.sum() + maintenance.sum()
    damage_weights, destroyed_weights, cards = _end_figures(setup, dist, killed, cripple_weights)
    rounds = {"maintenance_kill_weights": maintenance, "effect_weights": effects,
              "destroyed_weights": destroyed_weights}
    if several:
        rounds["target_damage_weights"], rounds["target_destroyed_weights"] = target_figures(setup, dist, killed)
        rounds["target_kill_weights"] = tally.target_kill
        rounds["slot_target_weights"] = tally.slot_target
    return damage_weights, tally.slot_weights, kill_weights, tally.slot_damage_sq, rounds, cards


def _end_figures(setup, dist: dict, killed: float, cripple_weights):
    """The figures at the end, from the distribution of the states left standing ``dist``
    and the probability ``killed`` of the kill: the damage marked, the models destroyed and,
    on a grid or spiral, the card's figures (``cards`` of :func:`propagate_rounds`)."""
    several = setup.several
    # a unit: the damage on the whole unit (a destroyed model counts all its boxes); several
    # targets: on all of them (the others destroyed, set aside or untouched)
    unit_boxes = setup.unit_boxes
    damage_weights = np.zeros(unit_boxes + 1)
    destroyed_weights = np.zeros(setup.models + 1)
    for state, v in dist.items():
        part = setup.part(state)
        boxes_before, models_before = setup.before(state)
        v = v[: part.size] if several else v
        marked = part.unit_marked(np.arange(v.size), state) + boxes_before
        damage_weights += np.bincount(marked, weights=v, minlength=unit_boxes + 1)
        destroyed_weights[state.destroyed + models_before] += v.sum()
    damage_weights[unit_boxes] = killed
    destroyed_weights[setup.models] = killed
    card = setup.card
    if card is None:
        return damage_weights, destroyed_weights, {}
    box_weights = [killed + np.zeros(n_rows) for n_rows in card.lengths]
    cripple_end = np.full(len(card.letters), killed)
    crippled = card.crippled_matrix(setup.size)
    for v in dist.values():
        for c, w in enumerate(card.box_marked(v)):
            box_weights[c] += w
        cripple_end += pad(v, setup.size) @ crippled
    return damage_weights, destroyed_weights, {
        "cripple_weights": cripple_weights, "box_weights": box_weights, "final": dist,
        "cripple_end": cripple_end}


def exact_result(scenario: Scenario, slots=None, layers: bool = True) -> Result:
    """Exact distributions of one scenario, as a :class:`~mathhammer.result.Result`.

    Follows docs/activation.md: forward propagation of the probability of every state
    (damage marked, knocked down, stationary, dispelled, Grievous Wounds, active -DEF /
    -ARM effects, target's points left, current attacker's points left) along
    :meth:`Scenario.attack_sequence <mathhammer.rules.Scenario.attack_sequence>`, each
    attacker with ``policy = "fixed"`` spending by its ``spend`` policy. Attackers with
    ``policy = "best"`` (the default) do what maximises the scenario's objective, and a target
    with ``power_field = "best"`` (the default) what minimises it, found first by backward
    induction (:class:`~mathhammer.exact.induction.Engine`).

    On a damage grid or life spiral the damage marked is which boxes are marked (and, for
    Rapid Healing of 2 or more, the order of the last marks): the column roll, "damage to
    X", crippling and un-crippling, and the feedback of crippled systems on the target
    (Shield / Buckler, Movement, Power Field Generator, Cortex) are all enumerated.

    Weights are probabilities (``total == 1.0``). ``slot_weights`` holds, per attack, the
    expected value of each ``SLOT_*`` column (``SLOT_DAMAGE``: boxes it marked, before any
    Tough roll or Rapid Healing); ``damage_weights`` the distribution of the damage marked
    at the end (a kill is ``boxes``); ``slot_damage_sq`` per attack
    ``E[(boxes it marked)**2]`` (to size Monte Carlo tolerances). Grids and spirals also
    fill the result's ``card``: ``letters``, ``cripple_weights`` (per attack, the
    probability each letter is crippled once it is resolved; a kill cripples every letter),
    ``cripple_end_weights`` (at the very end) and ``box_weights`` (per column, the
    probability each box ends marked).

    Several rounds, continuous effects and hazards (docs/activation.md, "Continuous
    effects, hazards and several turns"): the state also holds the continuous effects on
    the target, whether a burning earth still burns and whether its Cortex was ever
    crippled; the chain runs through the attacks of every round with an attack phase and
    the end of every round (:mod:`~mathhammer.exact.rounds`). Every per-slot array then has
    a row per slot per attack round, round-major (labels by
    :func:`~mathhammer.rules.slots.round_labels`, rounds in ``slot_round``); a quicksand
    point's kill is its slot's kill. When ``scenario.continuous``, the result's ``rounds``
    holds the kills of each round's maintenance phase (``maintenance_kill_weights``) and
    the ``EFFECT_*`` figures per round of fire, corrosion and quicksand
    (``effect_weights``; their points count
    there, not in their slot's ``SLOT_DAMAGE``; the focus a power field spends on them and
    the Tough saves they cause count in ``EFFECT_TARGET_SPENT`` / ``EFFECT_TOUGH``, not in
    ``SLOT_TARGET_SPENT`` / ``SLOT_TOUGH``).

    Several targets (docs/units.md; :mod:`~mathhammer.exact.targets`): the state also
    holds the target under attack, the first standing; an attack none of whose targets
    stands is not made. The kill (``kill_weights``, the maintenance kills) is every target
    destroyed, ``damage_weights`` and the unit's ``destroyed_weights`` are over the whole
    scenario's boxes and models, and the result's ``per_target`` holds each target's
    (``damage_weights``, ``destroyed_weights``, ``kill_weights`` per target and round).

    ``slots``: the scenario's attack sequence, when already built. ``layers``: the target's
    points spent kept in the index where that applies (:mod:`~mathhammer.exact.layers`: the
    same figures, faster); False keeps a state per amount left.

    Raises
    ------
    ExactNotApplicable
        See :func:`~mathhammer.exact.check_exact_applicable`.

    Examples
    --------
    >>> from mathhammer.rules import Attacker, Scenario, Target, Weapon
    >>> net = Weapon("Net", "ranged", skill=20, pow=None, rules={"knockdown"})
    >>> axe = Weapon("Axe", "melee", skill=0, pow=20)
    >>> scen = Scenario(Target(defense=15, arm=10, boxes=5),
    ...                 [Attacker("Netter", [net]), Attacker("Axeman", [axe])])
    >>> res = exact_result(scen)
    >>> res.hit.round(4).tolist()    # net: 35/36; axe: 35/36 + (1/36) * (1/36)
    [0.9722, 0.973]
    >>> # Automatic hits are never critical: the axe crits only on its own all-sixes roll,
    >>> # after the net missed.
    >>> round(float(res.crit[1]) * 36 * 36)
    1
    >>> round(res.kill, 4)           # any axe hit deals at least 12 damage
    0.973

    On a grid whose only system box, L, is in column 3 (one box per column), one damage
    point cripples it when the column roll is a 3:

    >>> grid = Target(defense=5, arm=10, grid=[".", ".", "L", ".", ".", "."])
    >>> poke = Weapon("Poke", "melee", skill=20, pow=5, extra_attack_dice=-1, extra_damage_dice=-1)
    >>> res = exact_result(Scenario(grid, [Attacker("A", [poke])]))
    >>> res.card.letters, round(res.cripple["L"] * 36, 9)   # a 6 deals 1 point, then column 3
    (('L',), 1.0)
    """
    if not isinstance(scenario, Scenario):
        raise InputError("scenario", type(scenario).__name__, "must be a mathhammer.Scenario")
    setup = prepare(scenario, slots, induction=needs_induction(scenario))  # checks it applies
    setup = layered(setup) if check_bool("layers", layers) else setup
    engine = Engine(setup, objective=scenario.objective, edge_budget=MAX_CARD_INDUCTION_EDGES)
    return result_of(scenario, engine)


def result_of(scenario: Scenario, engine: Engine, visit=None) -> Result:
    """The :class:`~mathhammer.result.Result` of ``scenario`` by forward propagation on
    ``engine`` (an :class:`~mathhammer.exact.induction.Engine` on the scenario's setup: its
    values, already computed or not, decide best play); ``visit`` as for
    :func:`propagate_rounds`. :func:`exact_result` builds the engine; best play's decision
    tables (:func:`mathhammer.play.solve_with_result`) pass the one they recorded, so one
    backward induction serves both."""
    setup = engine.setup
    with deep_recursion(setup.n_events):
        damage_weights, slot_weights, kill_weights, slot_damage_sq, rounds, cards = propagate_rounds(engine, visit)
    slot_round = tuple(info.round for info in setup.slots)
    maintenance = rounds["maintenance_kill_weights"]
    damage_weights, slot_weights, kill_weights = tidy(damage_weights, slot_weights, kill_weights)
    kill_weights, maintenance = tidy_rounds(kill_weights, maintenance, slot_round)
    effect_weights = None
    if scenario.continuous:
        effect_weights = np.clip(rounds["effect_weights"], 0.0, None)
        for col in (EFFECT_PRESENT, EFFECT_APPLIED, EFFECT_KILL, EFFECT_AFTER):  # probabilities
            effect_weights[:, :, col] = np.minimum(effect_weights[:, :, col], 1.0)
        effect_weights[:, :, EFFECT_APPLIED] = np.minimum(effect_weights[:, :, EFFECT_APPLIED],
                                                          effect_weights[:, :, EFFECT_PRESENT])
    return Result(
        method="exact",
        trials=None,
        seed=None,
        slot_labels=round_labels([info.slot.label for info in setup.slots[: setup.n0]], setup.rounds),
        total=1.0,
        damage_weights=damage_weights,
        slot_weights=slot_weights,
        kill_weights=kill_weights,
        boxes=setup.unit_boxes,
        slot_damage_sq=slot_damage_sq,
        turns=setup.turns,
        slot_round=slot_round,
        slot_attacker=tuple(info.slot.attacker_index for info in setup.slots),
        slot_paid=tuple(info.slot.paid for info in setup.slots),
        **scenario_names(scenario),
        card=_card(scenario, setup, cards),
        units=None if setup.models == 1 else UnitPart(
            setup.models, np.clip(rounds["destroyed_weights"], 0.0, 1.0)),
        rounds=None if effect_weights is None else RoundsPart(
            maintenance, effect_weights, effect_names=scenario.possible_effects),
        per_target=_targets(scenario, setup, rounds),
    )


def _card(scenario: Scenario, setup, cards: dict) -> CardPart | None:
    """The grid or spiral's view from the card figures of :func:`propagate_rounds`."""
    if not cards:
        return None
    # after the last round's end; else the last slot row's
    end = np.clip(cards["cripple_end"], 0.0, 1.0) if setup.round_end else None
    return CardPart(**card_names(scenario), letters=tuple(setup.card.letters),
                    cripple_weights=np.clip(cards["cripple_weights"], 0.0, 1.0),
                    box_weights=tuple(np.clip(w, 0.0, 1.0) for w in cards["box_weights"]),
                    cripple_end_weights=end)


def _targets(scenario: Scenario, setup, rounds: dict) -> TargetsPart | None:
    """Several targets' view from the figures of :func:`propagate_rounds`."""
    if not setup.several:
        return None
    damage, destroyed, kills = tidy_targets(rounds["target_damage_weights"],
                                            rounds["target_destroyed_weights"], rounds["target_kill_weights"])
    return TargetsPart(names=tuple(t.name for t in scenario.targets), damage_weights=damage,
                       destroyed_weights=destroyed, kill_weights=kills,
                       made_weights=np.clip(rounds["slot_target_weights"], 0.0, 1.0))
