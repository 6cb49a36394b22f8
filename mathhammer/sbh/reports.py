"""Tidy pandas tables of SBH odds: one row per case, one column per figure (floats).

>>> from mathhammer.sbh import activation_summary
>>> activation_summary(qualities=[4], dice=[1, 2, 3]).round(3)[["dice", "expected_actions", "turnover"]]
   dice  expected_actions  turnover
0     1               0.5      0.00
1     2               1.0      0.25
2     3               1.5      0.50
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pandas as pd

from ..errors import InputError
from .exact import activation, shoot, turn_odds
from .plans import Group, Model, Solo, Turn
from .results import SHOOT_OUTCOMES, TurnResult
from .rules import DEFAULT_SETTINGS, Settings

__all__ = [
    "activation_summary",
    "activation_table",
    "compare_plans",
    "group_vs_individual",
    "shoot_table",
    "turn_table",
]

_QUALITIES = (2, 3, 4, 5, 6)
_DICE = (1, 2, 3)


def activation_table(qualities: Iterable[int] = _QUALITIES, dice: Iterable[int] = _DICE,
                     bonus: int = 0, settings: Settings = DEFAULT_SETTINGS) -> pd.DataFrame:
    """Every outcome of an activation roll: one row per (quality, dice, actions).

    Columns: ``quality``, ``dice``, ``bonus``, ``actions`` (successes), ``failures``,
    ``turnover`` (bool: two or more failures), ``probability``.

    >>> t = activation_table(qualities=[3], dice=[2])
    >>> t[["actions", "turnover", "probability"]].round(4).values.tolist()
    [[0, True, 0.1111], [1, False, 0.4444], [2, False, 0.4444]]
    """
    rows = []
    for q in qualities:
        for d in dice:
            odds = activation(q, d, bonus, settings)
            for k, p in enumerate(odds.actions):
                rows.append({"quality": q, "dice": d, "bonus": bonus, "actions": k,
                             "failures": d - k, "turnover": d - k >= 2, "probability": float(p)})
    return pd.DataFrame(rows)


def activation_summary(qualities: Iterable[int] = _QUALITIES, dice: Iterable[int] = _DICE,
                       bonus: int = 0, settings: Settings = DEFAULT_SETTINGS) -> pd.DataFrame:
    """One row per (quality, dice): ``expected_actions``, ``at_least_one`` (the model acts),
    ``all_dice`` (every die succeeds), ``turnover``."""
    rows = []
    for q in qualities:
        for d in dice:
            odds = activation(q, d, bonus, settings)
            rows.append({"quality": q, "dice": d, "bonus": bonus,
                         "expected_actions": float(odds.expected_actions),
                         "at_least_one": float(odds.at_least_one),
                         "all_dice": float(odds.actions[-1]),
                         "turnover": float(odds.turnover)})
    return pd.DataFrame(rows)


def shoot_table(combat: int, target_combat: int, modifier: int = 0,
                shooters: Iterable[int] = range(1, 6),
                settings: Settings = DEFAULT_SETTINGS) -> pd.DataFrame:
    """Concentrated shooting by number of shooters: one row per shooter count.

    Columns: ``shooters``, ``combat``, ``target_combat``, ``modifier``, ``target_penalty``
    (-(shooters - 1)), the outcomes ``nothing``, ``beaten``, ``killed``, ``gruesome``,
    ``kill_or_better`` and ``lose_shooter``.

    >>> t = shoot_table(2, 4, modifier=1)
    >>> t.set_index("shooters")["kill_or_better"].round(4).tolist()
    [0.0, 0.0556, 0.1667, 0.3333, 0.5]
    """
    rows = []
    for n in shooters:
        odds = shoot(n, combat, target_combat, modifier, settings)
        row = {"shooters": n, "combat": combat, "target_combat": target_combat,
               "modifier": modifier, "target_penalty": -(n - 1)}
        row.update({k: float(getattr(odds, k)) for k in SHOOT_OUTCOMES})
        row["kill_or_better"] = float(odds.kill_or_better)
        row["lose_shooter"] = float(odds.lose_shooter)
        rows.append(row)
    return pd.DataFrame(rows)


def _summary(label: str, res: TurnResult) -> dict:
    orders = res.order[~pd.isna(res.order)]
    return {
        "activation": label,
        "models": res.n_models,
        "expected_actions": res.expected_actions,
        "expected_acted": res.expected_acted,
        "all_act": res.all_act,
        "turnover": res.turnover,
        "order": float(orders[0]) if len(orders) == 1 else float("nan"),
    }


def compare_plans(plans: dict[str, Turn]) -> pd.DataFrame:
    """One row per named plan (exact): ``models``, ``expected_actions``, ``expected_acted``,
    ``all_act``, ``turnover`` and ``order`` (probability the group order is given, for a plan
    with exactly one group step; NaN otherwise)."""
    return pd.DataFrame([_summary(name, turn_odds(t)) for name, t in plans.items()])


def group_vs_individual(leader: Model | int, members: Sequence[Model | int], dice: int,
                        leader_dice: int = 1,
                        settings: Settings = DEFAULT_SETTINGS) -> pd.DataFrame:
    """Group order against one-at-a-time activation of the same models (exact).

    ``individual``: the Leader rolls ``leader_dice`` dice, then each member rolls ``dice``
    dice on its own, in order, until a turnover. ``group``: the Leader rolls ``leader_dice``
    dice and, if it can, orders the group, which rolls ``dice`` dice once at the lowest
    Quality with the Leader's bonus. Models may be given as Qualities.

    Returns one row per way (``activation`` = "individual", "group") with the columns of
    :func:`compare_plans`: ``all_act`` is the probability that the Leader and every member
    get at least one action.

    >>> t = group_vs_individual(3, [4, 4, 4, 4], dice=2)
    >>> t.set_index("activation")["all_act"].round(4).to_dict()
    {'individual': 0.2109, 'group': 0.5926}
    """
    lead = _model(leader, "leader", leader=True)
    mems = [_model(m, f"members[{i}]") for i, m in enumerate(_seq(members, "members"))]
    individual = Turn([Solo(lead, leader_dice)] + [Solo(m, dice) for m in mems], settings)
    group = Turn([Group(lead, mems, dice, leader_dice)], settings)
    return compare_plans({"individual": individual, "group": group})


def _seq(values, key):
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise InputError(key, values, "must be a list of Model or Quality")
    return values


def _model(value: Model | int, key: str, leader: bool = False) -> Model:
    if isinstance(value, Model):
        if leader and not value.leader:
            return Model(value.quality, value.combat, value.name, leader=True)
        return value
    try:
        return Model(value, leader=leader, name="Leader" if leader else "")
    except InputError as exc:
        raise InputError(key, exc.value, exc.reason) from None


def turn_table(result: TurnResult) -> pd.DataFrame:
    """Per model of a turn: ``model``, ``acted`` (at least one action), ``expected_actions``."""
    return pd.DataFrame({"model": list(result.model_labels), "acted": result.model_acted,
                         "expected_actions": result.model_actions})
