"""Monte Carlo trades (docs/trades.md): a trade encoded once, run chunk by chunk, into figures.

Each model's combat action is encoded once for every combination of its crippled letters
that changes an attack (a weapon's location, a warjack's Cortex and Movement, a warbeast's
Body, Mind and Spirit), against each model it may attack, charging or not: an attack
*program* built by the scenario encoder (:func:`.encode.encode` of a one-attacker scenario),
so the kernel (:mod:`._kernels.trade_trials`) rolls every attack with the general kernel's
own steps. Chunks and streams are the package's (:mod:`mathhammer._core.chunks`): the same
seed gives the same counts on any number of threads.
"""

from __future__ import annotations

import dataclasses

import numba
import numpy as np

from .._core.chunks import BATCH, CHUNK, PAD, batches, open_batch
from .._core.compiling import compile_for
from .._core.threads import run_chunks
from ..errors import InputError
from ..play.trades import ActivationPlay
from ..result.trade import TradeFigures
from ..rules import Scenario
from ..rules.trade import Trade, TradeModel
from ..rules.vocabulary import GRID_LETTERS, SPIRAL_LETTERS
from ._kernels import layout as L
from ._kernels.trade_data import NO_THRESHOLD, TradeCounters, TradeTables, new_state
from ._kernels.trade_trials import trade_trials
from .card_tables import card_tables
from .draws import max_draws
from .encode import encode

__all__ = ["check_trade_montecarlo", "encode_trade", "lasts", "trade_monte_carlo", "TradeCounts"]

def check_trade_montecarlo(trade: Trade) -> None:
    """Raise :class:`~mathhammer.errors.InputError` (one line, naming the key) for what a
    trade holds that the Monte Carlo trade does not model yet (:meth:`TradeModel.unmodelled`,
    and Tough on a grid or spiral: a save would have to unmark a box of the card)."""
    for s, side in enumerate(trade.sides):
        for i, m in enumerate(side.models):
            key = f"sides[{s}].models[{i}]"
            why = m.unmodelled()
            if why is not None:
                raise InputError(f"{key}.{why[0]}", why[1], why[2])
            if m.target.tough_rules and m.target.capacity != "track":
                raise InputError(f"{key}.target.rules", sorted(m.target.tough_rules),
                                 "Tough on a grid or spiral is not modelled in a trade")


def _alphabet(m: TradeModel) -> str:
    return SPIRAL_LETTERS if m.attacker.model == "warbeast" else GRID_LETTERS


def _relevant(m: TradeModel) -> list[str]:
    """The letters of model ``m`` whose crippling changes its combat action: its weapons'
    locations, a warjack's Cortex (focus) and Movement (a charge), a warbeast's aspects."""
    a = m.attacker
    if a.model == "warjack":
        wanted = {w.location for w in a.weapons if w.location} | {"C"} | ({"M"} if a.charge else set())
    elif a.model == "warbeast":
        wanted = {"B", "M", "S"}
    else:
        wanted = set()
    return [letter for letter in m.letters if letter in wanted]


def encode_trade(trade: Trade) -> tuple[TradeTables, int]:
    """The trade's tables and the most dice entries one trial may read."""
    check_trade_montecarlo(trade)
    models = trade.models
    index = {m.name: i for i, m in enumerate(models)}
    n = len(models)
    rel = [_relevant(m) for m in models]
    max_rel = max(1, max(len(r) for r in rel))
    max_targets = max(len(m.attacks) for m in models)
    prog_index = np.full((n, 1 << max_rel, max_targets, 2), -1, dtype=np.int64)
    plays = _Plays(trade, (n, 1 << max_rel, 1 << max_targets, 2))
    rows, starts, lens, atts, draws = [], [], [], [], []
    settings = trade.settings
    filled = 0  # rows so far
    for x, m in enumerate(models):
        most = 0
        for c in range(1 << len(rel[x])):  # bit i of c: the model's i-th relevant letter crippled
            crippled = frozenset(letter for i, letter in enumerate(rel[x]) if (c >> i) & 1)
            for k, name in enumerate(m.attacks):
                # one model's; standing: the rows' DEF is read against the state the kernel keeps
                # (a model that starts knocked down stands up at its activation)
                target = models[index[name]].one_model
                for charge in (0, 1):
                    can = m.attacker.charge and not (m.attacker.model == "warjack" and "M" in crippled)
                    if charge and not can:
                        continue
                    attacker = m.acting(crippled, bool(charge))  # one model's combat action
                    table = plays.add(x, c, k, charge, attacker)
                    enc = encode(Scenario(target, [attacker], trials=1, seed=0, **settings), table=table)
                    prog_index[x, c, k, charge] = len(starts)
                    starts.append(filled)
                    filled += enc.n_slots
                    lens.append(enc.n_slots)
                    rows.append(enc.tables.attacks[: enc.n_slots])
                    atts.append(enc.tables.attackers[0])
                    # the rolls of its attacks, and a column d6 each on a grid or spiral
                    most = max(most, max_draws(enc.tables.attacks, enc.n_slots)
                               + enc.n_slots * (target.card is not None))
        draws.append(most * m.attacker.models)
    rel_bits = np.full((n, max_rel), -1, dtype=np.int64)
    for x, letters in enumerate(rel):
        for i, letter in enumerate(letters):
            rel_bits[x, i] = _alphabet(models[x]).index(letter)
    one = [dataclasses.replace(m.attacker, models=1) for m in models]
    tvec = np.array([encode(Scenario(dataclasses.replace(m.target, models=1), [one[index[m.attacks[0]]]],
                                     trials=1, seed=0, **settings)).tables.target for m in models],
                    dtype=np.int64)
    cards = [card_tables(m.target) for m in models]
    letters_done = np.zeros((n, L.N_COLUMNS, 1 << L.MAX_ROWS), dtype=np.int64)
    for x, (_, _, done) in enumerate(cards):
        letters_done[x, :, : done.shape[1]] = done
    thresholds = np.full((n, L.MAX_LETTERS), NO_THRESHOLD, dtype=np.int64)
    present = np.zeros(n, dtype=np.int64)
    for x, m in enumerate(models):
        alphabet = _alphabet(m)
        for letter in m.letters:
            present[x] |= 1 << alphabet.index(letter)
        for letter, at in m.cripple_at:
            thresholds[x, alphabet.index(letter)] = at
    order = np.full((2, n), -1, dtype=np.int64)
    for s, side in enumerate(trade.sides):
        for j, m in enumerate(side.models):
            order[s, j] = index[m.name]
    targets_of = np.full((n, max_targets), -1, dtype=np.int64)
    for x, m in enumerate(models):
        targets_of[x, : len(m.attacks)] = [index[name] for name in m.attacks]
    key0, play_attack, table_start = plays.arrays()
    tables = TradeTables(
        rows=np.concatenate(rows).astype(np.int64), prog_start=np.array(starts, dtype=np.int64),
        prog_len=np.array(lens, dtype=np.int64), prog_att=np.array(atts, dtype=np.int64),
        prog_index=prog_index, rel=rel_bits,
        stops_charge=np.array([1 << GRID_LETTERS.index("M") if m.attacker.model == "warjack" else 0
                               for m in models], dtype=np.int64),
        charges=np.array([int(m.attacker.charge) for m in models], dtype=np.int64),
        targets_of=targets_of, side_of=np.array([trade.side_of(m.name) for m in models], dtype=np.int64),
        order=order, tvec=tvec, col_full=np.array([cols for cols, _, _ in cards], dtype=np.int64),
        letters_done=letters_done, present=present, thresholds=thresholds,
        first_row=np.cumsum([0] + [m.target.models for m in models])[:-1].astype(np.int64),
        n_models=np.array([m.target.models for m in models], dtype=np.int64),
        first=np.array([[s.name for s in trade.sides].index(trade.first)], dtype=np.int64),
        rounds=np.array([trade.rounds], dtype=np.int64), table_of=plays.table_of, table_start=table_start,
        key0=key0, play_attack=play_attack)
    # a maintenance phase a round per model: fire (expiry, 2d6, column, Tough), corrosion
    # (expiry, column, Tough)
    upkeep = 7 * sum(m.target.models for m in models) if lasts(trade) else 0
    return tables, trade.rounds * (sum(draws) + upkeep)


class _Plays:
    """Best play's tables of a trade's activations (:class:`~mathhammer.play.trades.ActivationPlay`),
    gathered as the programs are encoded: per model ``x``, crippled combination ``c``, set of
    the enemies in its ``attacks`` standing (a bit each, in order) and charge, the table its
    attacks read (``table_of``, -1: none: the fixed policy decides)."""

    def __init__(self, trade: Trade, shape: tuple):
        self.trade = trade
        self.play = ActivationPlay(trade.settings, trade.play)
        self.index = {m.name: i for i, m in enumerate(trade.models)}
        self.table_of = np.full(shape, -1, dtype=np.int64)
        self.tables: list = []  # distinct tables, in order
        self._number: dict = {}

    def add(self, x: int, c: int, k: int, charge: int, attacker):
        """The tables of model ``x``'s combination ``c`` and charge for every set of enemies
        standing whose first is its ``k``-th; returns the table of the ``k``-th alone (or
        None)."""
        m = self.trade.models[x]
        enemies = [self.trade.models[self.index[name]] for name in m.attacks]
        for mask in range(1 << len(enemies)):
            if mask & ((1 << (k + 1)) - 1) != 1 << k:  # its first standing is the k-th
                continue
            table = self.play.table(attacker, [e for i, e in enumerate(enemies) if (mask >> i) & 1])
            if table is not None:
                if id(table) not in self._number:
                    self._number[id(table)] = len(self.tables)
                    self.tables.append(table)
                self.table_of[x, c, mask, charge] = self._number[id(table)]
        return self.play.table(attacker, enemies[k])

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``key0`` (each table's state key with no point left, per knocked down or not and
        continuous effects: a trade varies no other digit), ``play_attack`` (every table's
        decision bits, a block of rows each, at each key and damage marked) and
        ``table_start`` (each table's first row), as the kernel reads them."""
        keys = max((table.keys.size for table in self.tables), default=1)
        width = max((table.attack.shape[2] for table in self.tables), default=1)
        sizes = [table.slots for table in self.tables]
        attack = np.zeros((max(1, sum(sizes)), keys, width), dtype=np.uint8)
        start = np.cumsum([0] + sizes).astype(np.int64)
        for table, at, size in zip(self.tables, start, sizes):
            block = table.attack[:size]
            attack[at: at + size, : block.shape[1], : block.shape[2]] = block
        key0 = np.zeros((max(1, len(self.tables)), 2, 4), dtype=np.int64)
        for tb, table in enumerate(self.tables):
            for down in (0, 1):
                for cont in range(4):
                    key0[tb, down, cont] = table.keys.key(0, 0, bool(down), False, False, False, 0, cont, False, False)
        return key0, attack, start


@dataclasses.dataclass(frozen=True)
class TradeCounts:
    """Merged counters of a Monte Carlo trade (the ``TradeCounters`` fields, chunks summed)."""

    trials: int
    side_out: np.ndarray
    destroyed: np.ndarray
    damage: np.ndarray
    damage_sq: np.ndarray
    lost: np.ndarray
    crippled: np.ndarray
    chunk_out: np.ndarray     # int64[chunks, 2]: each chunk's trials with each side out at the end
    chunk_trials: np.ndarray  # int64[chunks]: each chunk's trials (paired comparisons use them)


def lasts(trade: Trade) -> bool:
    """Whether a continuous effect can happen in ``trade``: a model starts with one, or a
    weapon puts one on."""
    return any(m.target.effects or any(w.sets_effects(True) for w in m.attacker.weapons)
               for m in trade.models)


def _chunk_rows(k: int, shape: tuple) -> np.ndarray:
    """Zeroed counters of ``k`` chunks, each chunk's row ``shape`` followed by a cache line of
    padding: two threads writing the rows of neighbouring chunks never share a cache line
    (false sharing halved the trade kernel's speed on two threads)."""
    size = int(np.prod(shape))
    return np.zeros((k, size + PAD), dtype=np.int64)[:, :size].reshape((k,) + shape)


def trade_monte_carlo(trade: Trade, trials: int, seed: int, chunk: int = CHUNK) -> TradeCounts:
    """Run ``trials`` trades from ``seed`` (both checked by the caller) and merge the counts."""
    tables, draws = encode_trade(trade)
    lasting = True if lasts(trade) else None  # None: compiled without the maintenance phase
    n, k_turns = len(trade.models), 2 * trade.rounds
    total = None
    chunk_out, chunk_trials = [], []
    for first, k in batches(trials, chunk, BATCH):
        counters = TradeCounters(
            side_out=_chunk_rows(k, (k_turns, 2)), destroyed=_chunk_rows(k, (k_turns, n)),
            damage=_chunk_rows(k, (k_turns, n)), damage_sq=_chunk_rows(k, (k_turns, n)),
            lost=_chunk_rows(k, (k_turns, n)), crippled=_chunk_rows(k, (k_turns, n, L.MAX_LETTERS)),
            attack_counts=_chunk_rows(k, (tables.rows.shape[0], L.C_NFIELDS)))
        streams, dice, sizes, size = open_batch(seed, first, k, trials, chunk, draws)

        def row(c):
            return TradeCounters(*(a[c] for a in counters))

        def job(lo, hi):
            state = new_state(tables)  # one per range: no two threads share one
            for c in range(lo, hi):
                trade_trials(sizes[c], streams[c], dice[c], np.int64(size), np.int64(size),
                             np.int64(draws), tables, row(c), state, lasting)

        compile_for(trade_trials, (sizes[0], streams[0], dice[0], np.int64(size), np.int64(size),
                                   np.int64(draws), tables, row(0), new_state(tables), lasting),
                    "the Monte Carlo trade kernel", "about 13-17 s on two cores")
        run_chunks(job, k, numba.get_num_threads())
        part = [a.sum(axis=0) for a in counters[:6]]
        total = part if total is None else [t + p for t, p in zip(total, part)]
        chunk_out.append(counters.side_out[:, -1, :].copy())
        chunk_trials.append(sizes.copy())
    return TradeCounts(trials, *total, np.concatenate(chunk_out), np.concatenate(chunk_trials))


def trade_figures(trade: Trade, counts: TradeCounts) -> TradeFigures:
    """The figures of ``counts`` as the exact engine gives them (means over the trials)."""
    turns = tuple((r, side.name) for r in range(1, trade.rounds + 1) for side in trade.order)
    t = counts.trials
    crippled = {}
    for x, m in enumerate(trade.models):
        for letter in m.letters:
            crippled[(m.name, letter)] = counts.crippled[:, x, _alphabet(m).index(letter)] / t
    mean = counts.damage / t
    sd = np.sqrt(np.maximum(counts.damage_sq / t - mean * mean, 0.0))
    return TradeFigures(turns, counts.side_out / t, counts.destroyed / t, mean, crippled,
                        counts.lost / t, sd)
