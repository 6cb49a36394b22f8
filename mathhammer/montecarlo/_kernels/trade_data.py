"""The data of the Monte Carlo trade kernel (:mod:`.trade_trials`): a trade's tables, one
chunk's counters and a trial's state, allocated by the caller so that the kernel allocates
nothing."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .attack_steps import V_FIELDS
from .model_state import G_FIELDS, M_FIELDS

__all__ = ["TradeTables", "TradeCounters", "TradeState", "new_state", "NO_THRESHOLD"]

#: A ``thresholds`` entry of a letter no track damage cripples.
NO_THRESHOLD = 1 << 30


class TradeTables(NamedTuple):
    """A trade, encoded (:func:`mathhammer.montecarlo.trades.encode_trade` builds it): ``M``
    entries, both sides', the first side's first, each of ``n_models`` models (a unit's
    rows of the trial's state from ``first_row``)."""

    rows: np.ndarray         # int64[rows, A_NFIELDS]: every program's attack rows
    prog_start: np.ndarray   # int64[programs]: a program's first row
    prog_len: np.ndarray     # int64[programs]: its attack slots (initial, then bought)
    prog_att: np.ndarray     # int64[programs, P_NFIELDS]: its attacker's points and policy
    prog_index: np.ndarray   # int64[M, combos, targets, 2]: the program of model x with crippled
    #                          combination c attacking its k-th target, charging or not (-1: none)
    rel: np.ndarray          # int64[M, MAX_REL]: the letter bits whose crippling changes its
    #                          attacks, in combination order (-1 past the last)
    stops_charge: np.ndarray  # int64[M]: letter bits a crippling of which stops its charge
    charges: np.ndarray      # int64[M]: 1 where its first activation opens with a charge
    targets_of: np.ndarray   # int64[M, targets]: the models it attacks, in order (-1 past the last)
    side_of: np.ndarray      # int64[M]: 0 or 1
    order: np.ndarray        # int64[2, M]: each side's models in activation order (-1 past the last)
    tvec: np.ndarray         # int64[M, T_NFIELDS]: each model's target vector
    col_full: np.ndarray     # int64[M, N_COLUMNS]: a grid's or spiral's boxes (0 for a track)
    letters_done: np.ndarray  # int64[M, N_COLUMNS, 2 ** MAX_ROWS]
    present: np.ndarray      # int64[M]: the letters on its card, a bit each (a track's cripple_at letters)
    thresholds: np.ndarray   # int64[M, MAX_LETTERS]: a track: damage marked crippling each letter
    first_row: np.ndarray    # int64[M]: its first model's row of the trial's state
    n_models: np.ndarray     # int64[M]: its models (1, or a unit's)
    first: np.ndarray        # int64[1]: the side whose turn comes first
    rounds: np.ndarray       # int64[1]
    table_of: np.ndarray     # int64[M, combos, 2 ** targets, 2]: the best-play table model x reads
    #                          with crippled combination c, the enemies of its list standing (a
    #                          bit each) and charging or not (-1: none, the fixed policy decides)
    table_start: np.ndarray  # int64[tables]: a table's first row of ``play_attack``
    key0: np.ndarray         # int64[tables, 2, 4]: a table's state key with no point left, the
    #                          model attacked knocked down or not, with continuous effects 0-3
    play_attack: np.ndarray  # uint8[rows, keys, boxes]: each table's decision bits, a row per
    #                          attack of its program, at each key and damage marked


class TradeCounters(NamedTuple):
    """One chunk's counters: after each turn ``k`` (a side's turn of a round, in order), per
    entry ``x`` (a unit's figures summed over its models)."""

    side_out: np.ndarray     # int64[turns, 2]: trials with no entry of the side standing
    destroyed: np.ndarray    # int64[turns, M]: trials with every model of the entry destroyed
    damage: np.ndarray       # int64[turns, M]: damage marked (a destroyed model: every box)
    damage_sq: np.ndarray    # int64[turns, M]: its square (the entry's damage, squared), summed
    lost: np.ndarray         # int64[turns, M]: models destroyed
    crippled: np.ndarray     # int64[turns, M, MAX_LETTERS]: models with the letter crippled
    #                          (a destroyed model: every letter of its card or thresholds)
    attack_counts: np.ndarray  # int64[rows, C_NFIELDS]: boosts per row (the attack steps' tally)


class TradeState(NamedTuple):
    """A trial's state, allocated by the caller (:func:`new_state`) so that the kernel
    allocates nothing and runs without reference counting."""

    ms: np.ndarray        # int64[models, M_FIELDS]: every model's row (:mod:`.model_state`)
    cols: np.ndarray      # int64[models, columns]: a card's marked boxes, column by column
    ts: np.ndarray        # int64[G_FIELDS]: the target row the cripple step writes (unread)
    act: np.ndarray       # int64[V_FIELDS]: the acting model's points and policy
    standing: np.ndarray  # int64[M]: each entry's models standing
    alive: np.ndarray     # int64[2]: each side's entries standing
    tally: np.ndarray     # int64[1]: Tough saves (the Tough step's tally)


def new_state(t: TradeTables) -> TradeState:
    """A fresh :class:`TradeState` for the trade ``t`` (one per chunk run at a time)."""
    entries = t.tvec.shape[0]
    rows = int(t.first_row[-1] + t.n_models[-1])
    return TradeState(np.zeros((rows, M_FIELDS), dtype=np.int64),
                      np.zeros((rows, t.col_full.shape[1]), dtype=np.int64),
                      np.zeros(G_FIELDS, dtype=np.int64), np.zeros(V_FIELDS, dtype=np.int64),
                      np.zeros(entries, dtype=np.int64), np.zeros(2, dtype=np.int64),
                      np.zeros(1, dtype=np.int64))
