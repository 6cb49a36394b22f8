"""Best play solved into decision tables: backward induction, with every decision recorded.

:func:`solve` runs the exact engine's backward induction
(:class:`~mathhammer.exact.induction.Engine`) on the scenario, or on its documented
relaxation where the exact state is too large to solve (:mod:`.relax`), and records every
decision it makes by looking ahead: buying an attack, boosting an attack roll, boosting a
damage roll once the attack roll is known, and the target's power field after each damage
roll (attacks, a knockdown in quicksand, fire and corrosion). The records are laid into the
dense tables of :mod:`.codes`, which the Monte Carlo kernel reads at each decision.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .._core.validate import check_bool
from ..errors import ExactNotApplicable
from ..exact.bounds import MAX_CARD_INDUCTION_EDGES, card_work, prepare
from ..exact.forward import propagate_rounds, result_of
from ..exact.induction import Engine, deep_recursion
from ..exact.induction_work import induction_work
from ..exact.layers import Layered, Unfolding, layered
from ..result import BestPlay, Decision, Result
from ..rules import Scenario
from . import codes as K
from .codes import KeySpace
from .describe import decisions, paid_by
from .record import Recorder, keyspace
from .relax import cripple_marks, relaxed, unguarded

__all__ = ["DecisionTable", "solve", "solve_with_result", "needs_play", "report", "MAX_TABLE_BYTES"]

#: Largest decision tables built (beyond: the kernel spends by the fixed default policy).
MAX_TABLE_BYTES = 256 * 2**20

#: A grid or spiral is solved exactly for the kernel when the exact engine's bound on the
#: edges of a pass over its configurations (:func:`~mathhammer.exact.bounds.card_work`) is at
#: most this (the bound is loose: a single warjack's or warbeast's attacks on any bundled card
#: stay within it, and a warcaster's on a heavy's do not); beyond, on the relaxation.
PLAY_CARD_WORK = 110_000_000
#: ... and when backward induction builds at most this many edges on it (well under a
#: second; the solve gives up for the relaxation past them). It is not tried where the
#: estimate of those edges (:func:`~mathhammer.exact.induction_work.induction_work`) is
#: over :data:`SURE_OVER` times this: at most 1.28 times the edges built on every bundled
#: pairing, so the attempt would fail (2026-12-05: a warlock against a light warbeast, 6.7
#: million estimated, and a light warbeast against a light warjack, 4.5 million).
PLAY_CARD_EDGES = 2_500_000
SURE_OVER = 1.3


@dataclass(frozen=True, eq=False)
class DecisionTable:
    """The decisions of best play, laid out as :mod:`.codes` says.

    Attributes
    ----------
    keys : KeySpace
    attack : ndarray
        ``uint8[rows, keys.size, boxes]``: decision bits before each attack.
    field : ndarray
        ``int8[field_rows, keys.size, boxes, damage]``: points the target spends. Rows: the
        attack rows, then a knockdown in quicksand after each attack row, then fire and
        corrosion of each round; with Shield Guard blocks, then one row per attack row: 1
        where the target's side blocks the hit, at damage index :func:`~.codes.block_index`
        (the attack boost paid or not, the hit critical or not), keyed by the state before
        the attack (:func:`~.codes.field_row`).
    rows : int
        Attack rows: slots of every round with attacks, then :attr:`alternatives`.
    value : float
        The objective's value under best play on the scenario solved.
    solved_on : str
        ``"exact"``, or the relaxation's description (:func:`.relax.relaxed`).
    objective : str
        The objective solved for.
    seconds : float
        Time the solve took.
    card_columns, card_index : ndarray or None
        A grid or spiral solved exactly: ``card_columns[c, mask]`` is column ``c``'s share of
        the code of a configuration (-1: a mask the engine never met), and
        ``card_index[code]`` the configuration's index in the tables (-1: never met).
    reach : ndarray or None
        ``float64[rows, keys.size, width]``: the probability each attack meets each state
        key and damage index in the solved game, under best play (for the "how to play it"
        report, :mod:`.describe`); None when not asked for.
    boxes_left : ndarray or None
        Boxes left at each damage index.
    row_attacker : tuple of int
        The attacker of each attack row.
    alternatives : tuple of (int, str)
        After the slots' rows (``slots`` of them), one row per other weapon a bought attack
        may be made with (best play's choice): its slot's row and the weapon's name. Its
        ``BUY`` bit says best play buys the attack with that weapon; its boosts and power
        field are those of an attack made with it.
    turns : int
        Rounds of the scenario solved (the field table has two rows per round).
    """

    keys: KeySpace
    attack: np.ndarray
    field: np.ndarray
    rows: int
    value: float
    solved_on: str
    objective: str
    seconds: float
    card_columns: np.ndarray | None = None
    card_index: np.ndarray | None = None
    reach: np.ndarray | None = None
    boxes_left: np.ndarray | None = None
    row_attacker: tuple = ()
    alternatives: tuple = ()
    turns: int = 1

    @property
    def slots(self) -> int:
        """Rows of the attack slots (the alternatives' rows follow)."""
        return self.rows - len(self.alternatives)

    @property
    def nbytes(self) -> int:
        extra = 0 if self.card_index is None else self.card_columns.nbytes + self.card_index.nbytes
        return int(self.attack.nbytes + self.field.nbytes + extra)

    def field_row(self, kind: str, row: int) -> int:
        """Row of the field table of ``kind`` (a name of :data:`~.codes.FIELD_KINDS`) and
        ``row`` (:func:`~.codes.field_row`)."""
        return K.field_row(self.rows, K.FIELD_KINDS[kind], row, self.turns)

    def summary(self) -> dict:
        """What a result says about the table (the same for the same scenario: no timing)."""
        return {"solved_on": self.solved_on, "objective": self.objective, "value": self.value,
                "table_bytes": self.nbytes, "states": int(self.keys.size)}


def needs_play(scenario: Scenario) -> bool:
    """Whether best play decides anything: an attacker with ``policy = "best"`` and points, a
    target (any of several) with points and ``power_field = "best"``, or Shield Guard blocks
    to spend."""
    return any(a.plays_best for a in scenario.attackers) or any(
        t.power_field == "best" and t.power_points > 0 or t.guard_blocks for t in scenario.targets)


def solve(scenario: Scenario, slots=None, reach: bool = True, relax: str = "auto",
          every_start: bool = False, cripple: tuple | None = None) -> DecisionTable:
    """The decision tables of best play in ``scenario``: solved exactly on a damage track,
    and on a grid or spiral small enough (:data:`PLAY_CARD_WORK`; without Rapid Healing of 2
    or more, whose mark order the kernel does not key); else on the relaxation of
    :func:`.relax.relaxed`. ``slots``: the scenario's attack sequence, when already built;
    ``reach``: also weigh each decision by how often it is met (a forward pass, for the
    "how to play it" report); ``relax``: ``"auto"`` as above, ``"never"`` (the exact method's
    own report, within the exact engine's budget) or ``"always"`` (to measure the
    relaxation's loss, benchmarks/bench_relaxation.py); ``every_start``: also solve from
    every situation and continuous effect the key tells apart (knocked down or not, on fire
    or not ...), so that the tables hold a decision for an activation that finds its target
    so (a trade's activations: the one before may have knocked it down); on a damage track
    the tables hold every damage marked already. ``cripple``: per target (in order), the
    crippling of its damage track, per system whose crippling feeds back, the chance it is
    crippled at each damage marked (:meth:`~mathhammer.exact.relaxation.TrackRelaxation.
    cripple_from`; a trade's ``cripple_at`` thresholds: 0 below, 1 from the threshold).

    Raises
    ------
    ExactNotApplicable
        Neither the scenario nor its relaxation is within the exact engine's limits, or the
        tables would exceed :data:`MAX_TABLE_BYTES`. Several targets are solved exactly
        (damage tracks, routes that never leave a target aside: :mod:`mathhammer.exact.targets`),
        without the reach (the "how to play it" report is for one target), or not at all.
    """
    began = time.perf_counter()
    t = scenario.target
    if scenario.several:
        solved, how = unguarded(scenario)
        setup = prepare(solved, slots, induction=True)
        if setup.crossing:
            raise ExactNotApplicable(
                "best play's tables key the target under attack only, and these routes leave a "
                "target aside damaged while another is attacked (the exact method plays them best)")
        if any(cripple or ()):
            for part, share in zip(setup.parts, cripple):
                if share:
                    part.cripple_from(share)
            how += ", systems crippled from their thresholds"
        return _solve(setup, scenario.objective, how, began, False, every_start=every_start)
    if relax == "never":
        setup = prepare(scenario, slots, induction=True)
        return _solve(setup, scenario.objective, "exact", began, reach, MAX_CARD_INDUCTION_EDGES, every_start)
    if relax not in ("auto", "always"):
        raise ValueError(f"relax must be auto, never or always (got {relax!r})")
    if t.card is not None and t.rapid_healing in (0, 1) and relax == "auto":
        try:
            # the card's bound first, without the estimate of backward induction's work that
            # checking it for induction makes (most of the check's time): a card over
            # PLAY_CARD_WORK goes to the relaxation without it
            if card_work(prepare(scenario, slots)) <= PLAY_CARD_WORK:
                setup = prepare(scenario, slots, induction=True)
                need = induction_work(setup)
                if need is None or need.total <= SURE_OVER * PLAY_CARD_EDGES:
                    return _solve(setup, scenario.objective, "exact", began, reach, PLAY_CARD_EDGES, every_start)
        except ExactNotApplicable:
            pass
    solved, objective, how = relaxed(scenario)
    # a relaxed scenario differs in its target only: the attack sequence is the same
    setup = prepare(solved, slots, induction=True)
    if cripple and cripple[0] and t.card is None:
        setup.cripple_from(cripple[0])
        how += f", {', '.join(sorted(cripple[0]))} crippled from their thresholds"
    elif solved is not scenario:
        share = cripple_marks(scenario, slots)
        if share:
            setup.cripple_from(share)
            how += f", {', '.join(sorted(share))} crippled at random as on the grid"
    return _solve(setup, objective, how, began, reach, every_start=every_start)


def _starts(setup, keys: KeySpace) -> list:
    """The starting states the tables tell apart: knocked down or not (where it can change),
    each set of continuous effects (where one can be put on), and on a track with crippling
    (:meth:`~mathhammer.exact.relaxation.TrackRelaxation.cripple_from`) each set of systems
    crippled already; the scenario's own first."""
    start = setup.start
    first = setup.part(start)  # several targets: the first one's
    downs = (start.down, not start.down) if keys.varying[0] else (start.down,)
    conts = [start.cont] + [c for c in range(keys.cont) if c != start.cont] if keys.cont > 1 else [start.cont]
    letters = sorted(first.feedback) if first.track_cripple is not None else []
    crippled = [frozenset(x for i, x in enumerate(letters) if (c >> i) & 1) for c in range(1 << len(letters))]
    return [start._replace(down=d, cont=c, crippled=start.crippled | x) for x in crippled for d in downs
            for c in conts]


def _solve(setup, objective: str, how: str, began: float, want_reach: bool,
           edge_budget: int | None = None, every_start: bool = False) -> DecisionTable:
    engine, rec, keys, value = _induct(setup, objective, edge_budget, every_start)

    def forward(visit):
        with deep_recursion(setup.n_events):
            propagate_rounds(engine, visit)

    return _tables(setup, engine, rec, keys, value, how, objective, began, forward if want_reach else None)


def solve_with_result(scenario: Scenario, slots=None, layers: bool = True) -> tuple[DecisionTable, Result]:
    """Best play's decision tables (as :func:`solve` with ``relax="never"``) and the exact
    :class:`~mathhammer.result.Result` of ``scenario``, from one backward induction: the
    forward pass that weighs each decision by how often it is met also gives the figures.
    ``slots``: the scenario's attack sequence, when already built. One target only (the
    tables are for one). ``layers``: the target's points spent kept in the index where
    that applies (:mod:`~mathhammer.exact.layers`: the same tables and figures, faster);
    False keeps a state per amount left.

    Raises
    ------
    ExactNotApplicable
        As :func:`~mathhammer.exact.exact_result` and :func:`solve`.
    """
    began = time.perf_counter()
    setup = prepare(scenario, slots, induction=True)
    setup = layered(setup) if check_bool("layers", layers) else setup
    engine, rec, keys, value = _induct(setup, scenario.objective, MAX_CARD_INDUCTION_EDGES, False)
    out = []

    def forward(visit):
        out.append(result_of(scenario, engine, visit))

    table = _tables(setup, engine, rec, keys, value, "exact", scenario.objective, began, forward)
    return table, out[0]


def _induct(setup, objective: str, edge_budget: int | None, every_start: bool):
    """Backward induction on ``setup`` with every decision recorded: the engine, its
    :class:`~.record.Recorder`, the key space and the objective's value from the start."""
    keys = keyspace(setup)
    rec = Recorder(setup, keys)
    record = Unfolding(setup, rec) if isinstance(setup, Layered) else rec
    engine = Engine(setup, objective=objective, record=record, edge_budget=edge_budget,
                    record_values=rec.mixed is not None)
    with deep_recursion(setup.n_events):
        value = float(engine.value(0, setup.start, np.zeros(1, dtype=np.int64))[0, 0])
        for other in _starts(setup, keys)[1:] if every_start else ():
            engine.value(0, other, np.zeros(1, dtype=np.int64))
    rec.finish()
    engine.record = None  # the decisions are known: a forward pass meets them again
    return engine, rec, keys, value


def _tables(setup, engine, rec, keys: KeySpace, value: float, how: str, objective: str, began: float,
            forward) -> DecisionTable:
    """The decision tables from ``rec``'s records; ``forward(visit)``, when given, runs the
    forward pass along the decisions that weighs them by how often they are met."""
    rows = setup.table_rows
    card = setup.card
    # the boxes of a track (the largest of several), or the card's configurations
    width = setup.boxes if isinstance(setup, Layered) else setup.size
    attack_bytes = rows * keys.size * width
    damage = 1 + max((int(x.max()) for *_, x, _ in rec.field if x.size), default=0)
    if rec.block:
        damage = max(damage, 4)  # a block's index: 2 * attack boost paid + critical
    field_rows = K.field_rows(rows, setup.turns, bool(rec.block))
    field_bytes = field_rows * keys.size * width * damage if rec.field or rec.block else 1
    if attack_bytes + field_bytes > MAX_TABLE_BYTES:
        raise ExactNotApplicable(f"best play: decision tables of {attack_bytes + field_bytes:,} bytes "
                                 f"exceed {MAX_TABLE_BYTES:,}")
    attack = np.zeros((max(1, rows), keys.size, width), dtype=np.uint8)
    for row, key, bit, known, m, best in rec.plain:
        attack[row, key, m] = (attack[row, key, m] & (255 ^ bit ^ known)) | known | np.where(best == 1, bit, 0)
    for row, key, paid, critical, m, best in rec.damage:
        chosen = (attack[row, key, m] & K.BOOST_ATTACK) != 0
        sel = chosen == bool(paid)
        if not sel.any():
            continue
        bit, known = ((K.BOOST_DAMAGE_CRIT, K.KNOWN_DAMAGE_CRIT) if critical
                      else (K.BOOST_DAMAGE_HIT, K.KNOWN_DAMAGE_HIT))
        mm = m[sel]
        attack[row, key, mm] = ((attack[row, key, mm] & (255 ^ bit ^ known)) | known
                                | np.where(best[sel] == 1, bit, 0))
    field = np.full((1, 1, 1, 1), K.UNKNOWN, dtype=np.int8)
    if rec.field or rec.block:
        field = np.full((field_rows, keys.size, width, damage), K.UNKNOWN, dtype=np.int8)
    for kind, row, key, m, x, best in rec.field:
        field[K.field_row(rows, K.FIELD_KINDS[kind], row), key, m, x] = best
    for row, key, paid, critical, m, best in rec.block:
        field[K.field_row(rows, K.FIELD_BLOCK, row, setup.turns), key, m, K.block_index(paid, int(critical))] = best
    reach = None
    if forward is not None:
        reach = np.zeros(attack.shape)

        def visit(e, dist):
            ev = setup.events[e]
            if ev.kind != "attack":
                return
            for state, v in dist.items():
                n = min(v.size, width)
                reach[ev.slot, rec.key(state), :n] += v[:n]

        forward(visit)
        # a bought attack with a choice of weapons meets its boosts on the row of the weapon
        # it is made with
        for info, alts in zip(setup.slots, setup.alternatives):
            if not alts:
                continue
            main = reach[info.row].copy()
            for alt in alts:
                chosen = (attack[alt.row] & K.BUY) != 0
                reach[alt.row] = np.where(chosen, main, 0.0)
                reach[info.row] = np.where(chosen, 0.0, reach[info.row])
    columns = index = None
    if card is not None:
        columns, index = _card_maps(card)
        width = card.size  # the forward pass may have met more configurations
        attack = _widen(attack, width)
        field = _widen(field, width) if rec.field or rec.block else field
        if reach is not None:
            reach = _widen(reach, width)
        left = setup.boxes - card.count[:width]
    else:
        left = width - np.arange(width)  # several targets: the largest's
    seconds = time.perf_counter() - began
    return DecisionTable(keys, attack, field, rows, value, how, objective, seconds, columns, index,
                         reach, left, tuple(info.slot.attacker_index for info in setup.all_infos),
                         tuple((info.index, info.slot.weapon.name) for info in setup.all_infos[setup.n:]),
                         setup.turns)


def _widen(a: np.ndarray, width: int) -> np.ndarray:
    """``a`` with its damage axis (the third) padded to ``width`` (unsolved entries)."""
    if a.shape[2] >= width:
        return a
    pad = [(0, 0)] * a.ndim
    pad[2] = (0, width - a.shape[2])
    fill = K.UNKNOWN if a.dtype == np.int8 else 0
    return np.pad(a, pad, constant_values=fill)


def _card_maps(card) -> tuple[np.ndarray, np.ndarray]:
    """``card_columns`` and ``card_index`` of a card's registry (see :class:`DecisionTable`)."""
    if card.n_codes * 4 > MAX_TABLE_BYTES:
        raise ExactNotApplicable(f"best play: {card.n_codes:,} card codes exceed the table budget")
    columns = np.full((len(card.col_index), 1 << max(card.lengths + [1])), -1, dtype=np.int64)
    for c, index in enumerate(card.col_index):
        for mask, d in index.items():
            columns[c, mask] = d * int(card.radix[c])
    index = np.full(card.n_codes, -1, dtype=np.int32)
    index[card.code[: card.size]] = np.arange(card.size, dtype=np.int32)
    return columns, index


def report(table: DecisionTable, scenario: Scenario, labels, sequence) -> BestPlay:
    """What a result carries about best play (``Result.play``): the table's
    :meth:`~DecisionTable.summary` and the decisions in a player's words
    (:func:`.describe.decisions`), one per attack row of ``labels``; ``sequence``: the
    scenario's attack sequence (how each paid attack is made)."""
    resources = [scenario.attackers[i].resource or "focus" for i in table.row_attacker]
    rows = decisions(table, scenario, list(labels), resources, paid_by(table, sequence))
    return BestPlay(**table.summary(), decisions=tuple(Decision(**d) for d in rows))
