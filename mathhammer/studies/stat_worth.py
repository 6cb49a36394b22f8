"""What a point of each stat is worth: a card's trade win odds against its opponents with +1
MAT, RAT, POW, DEF, ARM, boxes or focus (docs/trades.md, "What a stat is worth").

Each change is a trade of the card (its side going first, the opponent's, or both) with each
opponent card, over ``rounds``: its figure is P(the card wins) with the stat raised by one,
less the same without, from common random numbers (the same seed and chunks for both: every
chunk's difference is paired, and the interval is Student's over the chunks' differences) or
exactly (the exact trade engine: single models on damage tracks). The table a designer reads
to price a stat, as a frame, a figure and ``mathhammer worth``.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Iterable

import numpy as np

from .._core.intervals import t975
from .._core.limits import MAX_SEED, MAX_TRIALS, fresh_seed
from .._core.validate import check_choice, check_int
from ..engine import check_method, check_method_arguments
from ..errors import InputError
from ..io.cardpath import card_dirs
from ..rules.scenario import MAX_TURNS
from ..rules.trade import Side, Trade, TradeModel
from .decks import deck
from .pairs import point_seed
from .trade_matrices import trade_pair

__all__ = ["STATS", "raise_stat", "stat_worth"]

#: The stats priced, in the table's order.
STATS = ("MAT", "RAT", "POW", "DEF", "ARM", "boxes", "focus")
#: Chunks a Monte Carlo figure is split into for its paired interval.
CHUNKS = 20


def raise_stat(model: TradeModel, stat: str) -> TradeModel | None:
    """``model`` with ``stat`` one higher, or None where the stat does not apply (RAT without
    a ranged or arcane weapon, boxes on a grid or spiral, ...).

    MAT and RAT: every melee (ranged and arcane) weapon's skill; POW: every weapon with a POW;
    DEF, ARM: the model's; boxes: its damage track's (its ``cripple_at`` kept); focus: the
    points it spends (its focus, fury or forcing, whichever it has; a warjack without any:
    focus).
    """
    check_choice("stat", stat, STATS)
    a, t = model.attacker, model.target

    def weapons(test, change):
        if not any(test(w) for w in a.weapons):
            return None
        ws = tuple(change(w) if test(w) else w for w in a.weapons)
        return dataclasses.replace(model, attacker=dataclasses.replace(a, weapons=ws))

    if stat == "MAT":
        return weapons(lambda w: w.type == "melee", lambda w: dataclasses.replace(w, skill=w.skill + 1))
    if stat == "RAT":
        return weapons(lambda w: w.type != "melee", lambda w: dataclasses.replace(w, skill=w.skill + 1))
    if stat == "POW":
        return weapons(lambda w: w.pow is not None, lambda w: dataclasses.replace(w, pow=w.pow + 1))
    if stat in ("DEF", "ARM"):
        field = "defense" if stat == "DEF" else "arm"
        return dataclasses.replace(model, target=dataclasses.replace(t, **{field: getattr(t, field) + 1}))
    if stat == "boxes":
        if t.capacity != "track":
            return None
        return dataclasses.replace(model, target=dataclasses.replace(t, boxes=t.boxes + 1))
    points = [p for p in ("focus", "fury", "force") if getattr(a, p)]
    if not points and a.model != "warjack":
        return None
    field = points[0] if points else "focus"
    return dataclasses.replace(model, attacker=dataclasses.replace(a, **{field: getattr(a, field) + 1}))


def _with(trade: Trade, model: TradeModel) -> Trade:
    """``trade`` with the row side's model replaced by ``model``."""
    return dataclasses.replace(trade, sides=(Side(trade.sides[0].name, (model,)), trade.sides[1]))


def _wins(trade: Trade, trials, seed, method) -> tuple[float, np.ndarray | None]:
    """P(the row side wins), and its chunks' win fractions (Monte Carlo)."""
    from ..trade import simulate_trade

    if method == "exact":
        return simulate_trade(trade, method="exact").wins["row"], None
    from ..montecarlo.trades import trade_monte_carlo

    counts = trade_monte_carlo(trade, trials, seed, chunk=-(-trials // CHUNKS))
    per_chunk = counts.chunk_out[:, 1] / counts.chunk_trials
    return float(counts.side_out[-1, 1] / trials), per_chunk


def _row(stat: str, opponent: str, picked: list) -> dict:
    """A row of the table: the mean of the ``picked`` trades' win odds, as the card is and with
    the stat raised, and their difference's interval (over the chunks' paired differences,
    averaged over the trades; a point when exact)."""
    base = float(np.mean([p[1] for p in picked]))
    up = float(np.mean([p[2] for p in picked]))
    lo = hi = up - base
    if picked[0][3] is not None:
        diffs = np.mean([p[3] for p in picked], axis=0)
        half = t975(len(diffs) - 1) * float(np.std(diffs, ddof=1)) / math.sqrt(len(diffs))
        lo, hi = up - base - half, up - base + half
    return {"stat": stat, "opponent": opponent, "base": base, "raised": up, "delta": up - base,
            "ci_low": lo, "ci_high": hi}


def stat_worth(card, opponents, *, rounds: int = 3, first: str = "both", stats: Iterable[str] = STATS,
               trials: int | None = None, seed: int | None = None, method: str = "monte_carlo",
               cards: Iterable[str | os.PathLike] | None = None):
    """The change of ``card``'s trade win odds against each of ``opponents`` for +1 of each stat.

    Parameters
    ----------
    card : str
        A card reference (``"name"``, ``"name:action"``, a path).
    opponents : path-like or iterable of str
        A directory of cards or card references, as :func:`~mathhammer.studies.trade_matrices.trade_matrix`
        takes them.
    rounds : int
        Rounds of each trade (default 3).
    first : {"row", "column", "both"}
        Whose side goes first: the card's, the opponent's, or both (default: the two figures
        averaged).
    stats : iterable of str
        Of :data:`STATS` (default all).
    trials, seed : int, optional
        Monte Carlo sample size of each trade (default 200,000) and the run's seed (each
        opponent's and order's seed derived from it; drawn when None, ``attrs["seed"]``).
    method : {"monte_carlo", "mc", "exact"}
    cards : iterable of path-like, optional
        Card directories searched first.

    Returns
    -------
    pandas.DataFrame
        One row per stat and opponent, and per stat ``opponent = "all"`` (the mean over the
        opponents): ``stat``, ``opponent``, ``base`` (P(win) as the card is), ``raised``
        (with the stat +1), ``delta`` and its 95 % ``ci_low``, ``ci_high`` (a point when
        exact). A stat that does not apply to the card has no rows (``attrs["not_applicable"]``).

    Examples
    --------
    >>> frame = stat_worth("solo", ["infantry", "heavy_infantry"], method="exact", rounds=2)
    >>> row = frame[(frame.stat == "ARM") & (frame.opponent == "heavy_infantry")].iloc[0]
    >>> bool(row.raised >= row.base), list(frame.attrs["not_applicable"])
    (True, ['RAT', 'focus'])
    """
    import pandas as pd

    method = check_method(method)
    check_int("rounds", rounds, 1, MAX_TURNS)
    check_choice("first", first, ("row", "column", "both"))
    stats = list(stats)
    for i, s in enumerate(stats):
        check_choice(f"stats[{i}]", s, STATS)
    check_method_arguments(method, trials=trials, seed=seed)
    if method != "exact":
        trials = 200_000 if trials is None else check_int("trials", trials, CHUNKS, MAX_TRIALS)
        seed = fresh_seed() if seed is None else check_int("seed", seed, 0, MAX_SEED)
    if not isinstance(card, (str, os.PathLike)):
        raise InputError("card", card, "must be a card name or path")
    dirs = card_dirs(cards) if cards is not None else None
    (me,), _ = deck([card], "attackers", dirs, False, key="card")
    others, _ = deck(opponents, "attackers", dirs, False, key="opponents")
    firsts = ("row", "column") if first == "both" else (first,)
    trades = {(o.label, f): trade_pair(me, o, f, rounds, dirs) for o in others for f in firsts}
    model = next(iter(trades.values())).sides[0].models[0]  # the card as a trade model (which stats apply)
    rows, missing = [], []
    for stat in stats:
        if raise_stat(model, stat) is None:
            missing.append(stat)
            continue
        per = []  # (opponent, base, raised, each chunk's difference or None)
        for (label, f), trade in trades.items():
            key_seed = None if seed is None else point_seed(seed, (label, f))
            base, base_chunks = _wins(trade, trials, key_seed, method)
            up, up_chunks = _wins(_with(trade, raise_stat(trade.sides[0].models[0], stat)), trials,
                                  key_seed, method)
            per.append((label, base, up, None if base_chunks is None else up_chunks - base_chunks))
        for label in [o.label for o in others] + ["all"]:
            rows.append(_row(stat, label, [p for p in per if label in (p[0], "all")]))
    frame = pd.DataFrame(rows, columns=["stat", "opponent", "base", "raised", "delta", "ci_low", "ci_high"])
    frame.attrs.update({"card": me.label, "rounds": rounds, "first": first, "method": method,
                        "trials": trials, "seed": seed, "chunks": None if method == "exact" else CHUNKS,
                        "not_applicable": missing})
    if frame.empty:
        raise InputError("stats", stats, f"none applies to {me.label}")
    return frame
