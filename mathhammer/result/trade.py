"""The figures of a trade (docs/trades.md): after each side's turn, who is out, the damage and
crippling on every model, and who wins the trade, with intervals."""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from .._core.intervals import Z95, normal_interval, wilson_interval

__all__ = ["TradeFigures", "TradeResult"]


@dataclasses.dataclass(frozen=True)
class TradeFigures:
    """A trade's figures after each turn (a side's turn of a round, in order), exact or the
    means of Monte Carlo trials.

    Attributes
    ----------
    turns : tuple of (int, str)
        ``(round, side)`` of each turn, in order.
    destroyed : ndarray, shape (turns, 2)
        P(side s has no model standing) after each turn (sides as the trade lists them).
    model_destroyed : ndarray, shape (turns, models)
        P(each model destroyed), models in :attr:`Trade.models` order.
    damage : ndarray, shape (turns, models)
        Expected damage marked on each model (a destroyed model: every box; a unit: on all
        of its models).
    crippled : dict of (str, str) -> ndarray, shape (turns,)
        P(the model's system or aspect crippled), by ``(model, letter)``: the letters of its
        grid or spiral, or of its ``cripple_at`` (a destroyed model counts as crippled; a
        unit: its models with it crippled, on average).
    lost : ndarray, shape (turns, models)
        Models of each entry destroyed, on average (a single model: ``model_destroyed``).
    damage_sd : ndarray, shape (turns, models)
        The standard deviation of the damage on each entry (its interval's width).
    """

    turns: tuple
    destroyed: np.ndarray
    model_destroyed: np.ndarray
    damage: np.ndarray
    crippled: dict
    lost: np.ndarray
    damage_sd: np.ndarray

    @property
    def both_standing(self) -> np.ndarray:
        """P(neither side out) after each turn (the trade stops at the first side out, so
        both sides are never out together)."""
        return 1.0 - self.destroyed[:, 0] - self.destroyed[:, 1]


@dataclasses.dataclass(frozen=True)
class TradeResult:
    """A trade's answer: :class:`TradeFigures` with what they are about and how they were got.

    Attributes
    ----------
    sides : tuple of str
        The two sides' names, as the trade lists them.
    models : tuple of str
        Every model (or unit), the first side's first; ``model_side``, ``boxes`` (of one of
        its models) and ``sizes`` (its models) of each.
    figures : TradeFigures
    method : str
        ``"monte_carlo"`` or ``"exact"``.
    trials, seed : int or None
        The Monte Carlo run's (None for exact figures).
    spending : tuple of str
        How each model spends its points (:attr:`Trade.spending
        <mathhammer.rules.trade.Trade.spending>`).

    Examples
    --------
    >>> from mathhammer.rules import Attacker, Spend, Target, Weapon
    >>> from mathhammer.rules.trade import Side, Trade, TradeModel
    >>> from mathhammer.trade import simulate_trade
    >>> fist = Weapon("Fist", "melee", 6, 12)
    >>> a = TradeModel(Attacker("A", [fist], spend=Spend()), Target(12, 15, boxes=1), ["B"])
    >>> b = TradeModel(Attacker("B", [fist], spend=Spend()), Target(12, 15, boxes=1), ["A"])
    >>> res = simulate_trade(Trade([Side("Red", [a]), Side("Blue", [b])]), method="exact")
    >>> round(res.wins["Red"], 4), round(res.wins["Blue"], 4)   # p = 26/36 * 33/36
    (0.662, 0.2237)
    """

    sides: tuple
    models: tuple
    model_side: tuple
    boxes: tuple
    figures: TradeFigures
    method: str
    trials: int | None = None
    seed: int | None = None
    sizes: tuple = ()
    spending: tuple = ()

    @property
    def wins(self) -> dict:
        """P(each side wins the trade): the other side is out by its end."""
        end = self.figures.destroyed[-1]
        return {self.sides[0]: float(end[1]), self.sides[1]: float(end[0])}

    @property
    def undecided(self) -> float:
        """P(both sides still stand at the end)."""
        return float(self.figures.both_standing[-1])

    def interval(self, p: float) -> tuple[float, float]:
        """A 95 % interval of probability ``p`` (Wilson's, over the trials; a point when exact)."""
        if self.trials is None:
            return (p, p)
        return wilson_interval(round(p * self.trials), self.trials)

    @property
    def headline(self) -> str:
        """Who wins the trade, how often, in one line."""
        (a, pa), (b, pb) = self.wins.items()
        lead, p, other, q = (a, pa, b, pb) if pa >= pb else (b, pb, a, pa)
        lo, hi = self.interval(p)
        rounds = self.figures.turns[-1][0]
        band = "" if self.trials is None else f" (95 % {lo:.1%}-{hi:.1%})"
        return (f"{lead} wins the trade {p:.1%}{band}, {other} {q:.1%}, both standing after "
                f"{rounds} round{'s' * (rounds != 1)} {self.undecided:.1%}")

    def summary_records(self) -> list[list]:
        """The trade's end as rows ``[metric, value, ci_low, ci_high]``, from the first side's
        view: ``win`` and ``lose`` (P(the first side wins, the other wins)), ``both_standing``,
        ``damage_dealt`` and ``damage_taken`` (on the other side's entries and on its own, at
        the end), ``models_killed`` and ``models_lost``. Intervals are 95 %: Wilson's for the
        probabilities, normal for the damage (none where a side has several entries: their
        covariance is not kept) and for the models (their mean's, bounded by the unit's
        size); exact figures are their own interval."""
        f = self.figures
        n = self.trials
        rows = []
        for metric, p in (("win", self.wins[self.sides[0]]), ("lose", self.wins[self.sides[1]]),
                          ("both_standing", self.undecided)):
            rows.append([metric, p, *self.interval(p)])
        for metric, side in (("damage_dealt", 1), ("damage_taken", 0)):
            own = [x for x in range(len(self.models)) if self.model_side[x] == side]
            mean = float(sum(f.damage[-1, x] for x in own))
            sd = float(f.damage_sd[-1, own[0]]) if len(own) == 1 else math.nan
            rows.append([metric, mean, *normal_interval(mean, sd, n)])
        for metric, side in (("models_killed", 1), ("models_lost", 0)):
            own = [x for x in range(len(self.models)) if self.model_side[x] == side]
            mean = float(sum(f.lost[-1, x] for x in own))
            size = sum(self._size(x) for x in own)
            rows.append([metric, mean, *normal_interval(mean, size / 2, n)])
        return rows

    def sides_frame(self):
        """One row a turn: ``round``, ``turn`` (the side whose turn it was) and P(each side
        out) (``out:NAME``), P(both standing)."""
        import pandas as pd

        f = self.figures
        rows = []
        for k, (rnd, side) in enumerate(f.turns):
            row = {"round": rnd, "turn": side}
            row.update({f"out:{name}": float(f.destroyed[k, s]) for s, name in enumerate(self.sides)})
            row["both_standing"] = float(f.both_standing[k])
            rows.append(row)
        return pd.DataFrame(rows)

    def frame(self):
        """Tidy: one row a turn and model: ``round``, ``turn``, ``model``, ``side``, ``boxes``,
        ``destroyed`` (probability), ``damage_mean``, and ``crippled:X`` for each letter
        reported (NaN where the model has no such letter)."""
        import pandas as pd

        f = self.figures
        letters = sorted({letter for _, letter in f.crippled})
        rows = []
        for k, (rnd, side) in enumerate(f.turns):
            for x, name in enumerate(self.models):
                row = {"round": rnd, "turn": side, "model": name, "side": self.sides[self.model_side[x]],
                       "models": self._size(x), "boxes": self.boxes[x],
                       "destroyed": float(f.model_destroyed[k, x]), "damage_mean": float(f.damage[k, x]),
                       "models_lost_mean": float(f.lost[k, x])}
                for letter in letters:
                    p = f.crippled.get((name, letter))
                    row[f"crippled:{letter}"] = float(p[k]) if p is not None else math.nan
                rows.append(row)
        return pd.DataFrame(rows)

    def to_dict(self) -> dict:
        """JSON-ready: the headline, each side's win probability with its interval, and the
        figures after every turn."""
        f = self.figures
        return {
            "method": self.method, "trials": self.trials, "seed": self.seed,
            "headline": self.headline,
            "wins": {name: {"p": p, "ci95": list(self.interval(p))} for name, p in self.wins.items()},
            "both_standing": self.undecided,
            "spending": dict(zip(self.models, self.spending)),
            "turns": [{"round": rnd, "turn": side,
                       "out": {name: float(f.destroyed[k, s]) for s, name in enumerate(self.sides)},
                       "models": {name: {"destroyed": float(f.model_destroyed[k, x]),
                                         "damage_mean": float(f.damage[k, x]),
                                         "models_lost_mean": float(f.lost[k, x]),
                                         "crippled": {letter: float(p[k]) for (m, letter), p in f.crippled.items()
                                                      if m == name}}
                                  for x, name in enumerate(self.models)}}
                      for k, (rnd, side) in enumerate(f.turns)],
        }

    def summary(self) -> str:
        """Text: the headline, then after each turn who is out and each model's damage."""
        f = self.figures
        how = ("exact" if self.trials is None else f"Monte Carlo, {self.trials:,} trials, seed {self.seed}")
        lines = [self.headline, f"({how}; 95 % half-width of a probability at most "
                 f"{Z95 * 0.5 / math.sqrt(self.trials):.2%})" if self.trials else f"({how})"]
        if self.spending:
            lines.append("spending: " + "; ".join(f"{m} {how}" for m, how in zip(self.models, self.spending)))
        lines.append("")
        width = max(len(m) for m in self.models)
        for k, (rnd, side) in enumerate(f.turns):
            out = ", ".join(f"{name} out {f.destroyed[k, s]:.1%}" for s, name in enumerate(self.sides))
            lines.append(f"round {rnd}, after {side}'s turn: {out}")
            for x, name in enumerate(self.models):
                crip = " ".join(f"{letter} {p[k]:.0%}" for (m, letter), p in f.crippled.items() if m == name)
                size = self._size(x)
                lost = f"  models lost {f.lost[k, x]:4.2f}/{size}" if size > 1 else ""
                lines.append(f"  {name:<{width}}  destroyed {f.model_destroyed[k, x]:6.1%}  damage "
                             f"{f.damage[k, x]:5.2f}/{self.boxes[x] * size}{lost}"
                             + (f"  crippled: {crip}" if crip else ""))
        return "\n".join(lines)

    def _size(self, x: int) -> int:
        """Models of entry ``x`` (1 for a single model)."""
        return self.sizes[x] if self.sizes else 1
