"""Exact SBH odds: activation rolls, group orders, concentrated shooting and whole turns.

Everything here is small. One roll is at most three dice, and one shot is two dice (36
outcomes), so their odds are exact fractions. A turn is a Markov chain over its steps: before
each step the turn is either still going or over; the step's outcomes (enumerated exactly)
move the probability mass of "still going" to the next step or to "over" (a turnover). The
distribution of the total actions and of the number of models that act rides along as a
float array over (actions, models acted).

docs/rules.md section 8 is the contract; docs/sbh.md lists the choices (:class:`.rules.Settings`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import cache

import numpy as np

from ..errors import InputError
from .._core.validate import check_bool, check_choice, check_int
from .plans import Group, Model, Solo, Turn
from .results import ActivationOdds, BestDice, ShootOdds, TurnResult
from .rules import (
    DEFAULT_SETTINGS,
    MAX_BONUS,
    MAX_COMBAT,
    MAX_DICE,
    MAX_MODELS,
    MAX_MODIFIER,
    MAX_QUALITY,
    MAX_SHOOTERS,
    MIN_QUALITY,
    Settings,
    success_faces,
)

__all__ = [
    "activation",
    "best_dice",
    "classify_shot",
    "shoot",
    "step_outcomes",
    "turn_odds",
    "volley",
]

_SIXTH = Fraction(1, 6)


def _check_settings(settings: object) -> Settings:
    if not isinstance(settings, Settings):
        raise InputError("settings", settings, "must be a Settings")
    return settings


@cache
def _roll(p: Fraction, dice: int) -> tuple[Fraction, ...]:
    """Binomial(dice, p): probability of exactly k successes."""
    return tuple(math.comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(dice + 1))


def activation(quality: int, dice: int, bonus: int = 0,
               settings: Settings = DEFAULT_SETTINGS) -> ActivationOdds:
    """Exact odds of an activation roll: ``dice`` d6 against ``quality``, ``bonus`` on each die.

    Each success is one action; two or more failures are a turnover (docs/rules.md 8). With one
    die there is never a turnover.

    Parameters
    ----------
    quality : int
        2 to 6 ("Q+").
    dice : int
        1 to 3.
    bonus : int
        -3 to 3, added to each die (``Settings`` says whether a 1 always fails and a 6 always
        succeeds).
    settings : Settings

    Examples
    --------
    >>> odds = activation(4, 3)
    >>> [str(p) for p in odds.actions], str(odds.turnover)
    (['1/8', '3/8', '3/8', '1/8'], '1/2')
    >>> str(activation(3, 2).turnover), str(activation(3, 2, bonus=1).turnover)
    ('1/9', '1/36')
    """
    q = check_int("quality", quality, MIN_QUALITY, MAX_QUALITY)
    d = check_int("dice", dice, 1, MAX_DICE)
    b = check_int("bonus", bonus, -MAX_BONUS, MAX_BONUS)
    _check_settings(settings)
    p = Fraction(success_faces(q, b, settings), 6)
    actions = _roll(p, d)
    turnover = sum((pk for k, pk in enumerate(actions) if d - k >= 2), Fraction(0))
    return ActivationOdds(q, d, b, actions, turnover)


def classify_shot(shooter_total: int, target_total: int, floor: int | None = 1) -> str:
    """Outcome of an opposed combat roll in shooting: the totals, compared.

    Both totals are first raised to ``floor`` (``None``: compared raw). A tie or a higher
    target total does nothing; a higher shooter total beats the target; at least double kills
    it; at least triple is a gruesome kill.

    Examples
    --------
    >>> classify_shot(9, 5), classify_shot(10, 5), classify_shot(15, 5), classify_shot(5, 5)
    ('beaten', 'killed', 'gruesome', 'nothing')
    >>> classify_shot(2, -1), classify_shot(2, -1, floor=None)
    ('killed', 'gruesome')
    """
    s, t = shooter_total, target_total
    if floor is not None:
        s, t = max(s, floor), max(t, floor)
    if s <= t:
        return "nothing"
    if s >= 3 * t:
        return "gruesome"
    if s >= 2 * t:
        return "killed"
    return "beaten"


def shoot(shooters: int, combat: int, target_combat: int, modifier: int = 0,
          settings: Settings = DEFAULT_SETTINGS, concentrated: bool = True) -> ShootOdds:
    """Exact odds of a (concentrated) shot: one opposed roll, 1d6 each side.

    The shooters roll 1d6 + ``combat`` (the lowest combat score among them) + ``modifier``
    (every modifier that applies to any shooter, e.g. +1 against a Big target); the target
    rolls 1d6 + ``target_combat`` - (``shooters`` - 1). Outcomes as :func:`classify_shot`
    (totals floored at ``settings.total_floor``). In concentrated shooting a 1 on the
    shooters' die calls for another d6; a second 1 costs one shooter its ability to shoot
    (``lose_shooter`` = 1/36, whatever the outcome).

    Parameters
    ----------
    shooters : int
        1 to 5.
    combat, target_combat : int
        0 to 12.
    modifier : int
        -10 to 10, added to the shooters' total.
    settings : Settings
    concentrated : bool
        True (default): a concentrated shot ordered by a Leader, of any size from 1; the
        1-then-1 check applies. False: an ordinary shot of one model (``shooters`` must be 1;
        ``lose_shooter`` is 0).

    Examples
    --------
    Five combat-2 kobolds (+1: the ogre is Big) at a combat-4 ogre (-4 for four extra
    shooters), the seed's example:

    >>> five = shoot(5, 2, 4, modifier=1)
    >>> [str(getattr(five, k)) for k in ("nothing", "beaten", "killed", "gruesome")]
    ['1/6', '1/3', '7/36', '11/36']
    >>> one = shoot(1, 2, 4, modifier=1)
    >>> one.kill_or_better == 0, str(one.beaten)
    (True, '5/18')
    """
    n = check_int("shooters", shooters, 1, MAX_SHOOTERS)
    c = check_int("combat", combat, 0, MAX_COMBAT)
    t = check_int("target_combat", target_combat, 0, MAX_COMBAT)
    m = check_int("modifier", modifier, -MAX_MODIFIER, MAX_MODIFIER)
    _check_settings(settings)
    check_bool("concentrated", concentrated)
    if not concentrated and n != 1:
        raise InputError("shooters", n, "an ordinary (not concentrated) shot has 1 shooter")
    counts = dict.fromkeys(("nothing", "beaten", "killed", "gruesome"), 0)
    for a in range(1, 7):
        for b in range(1, 7):
            counts[classify_shot(a + c + m, b + t - (n - 1), settings.total_floor)] += 1
    odds = {k: Fraction(v, 36) for k, v in counts.items()}
    lose = _SIXTH * _SIXTH if concentrated else Fraction(0)
    return ShootOdds(n, c, t, m, lose_shooter=lose, **odds)


def volley(shooters: Sequence[Model], target: Model | int, modifier: int = 0,
           settings: Settings = DEFAULT_SETTINGS) -> ShootOdds:
    """:func:`shoot` for models: the lowest combat score among ``shooters`` against
    ``target`` (a Model, or its combat score).

    >>> kobold, ogre = Model(4, 2, "Kobold"), Model(4, 4, "Ogre")
    >>> volley([kobold] * 5, ogre, modifier=1) == shoot(5, 2, 4, 1)
    True
    """
    if isinstance(shooters, Model) or not isinstance(shooters, Sequence) or not shooters:
        raise InputError("shooters", shooters, "must be a non-empty list of Model")
    for i, s in enumerate(shooters):
        if not isinstance(s, Model):
            raise InputError(f"shooters[{i}]", s, "must be a Model")
    if len(shooters) > MAX_SHOOTERS:
        raise InputError("shooters", len(shooters), f"must be between 1 and {MAX_SHOOTERS}")
    t = target.combat if isinstance(target, Model) else target
    return shoot(len(shooters), min(s.combat for s in shooters), t, modifier, settings)


# --------------------------------------------------------------------------- whole turns


def step_outcomes(step: Solo | Group, settings: Settings = DEFAULT_SETTINGS):
    """Every outcome of one step of a turn, exactly.

    Returns a list of ``(probability, actions, order, turnover)``: ``actions`` is a tuple of
    the actions of each model of the step (``step.models`` order), ``order`` whether a group
    order was given (always False for a solo step), ``turnover`` whether the turn ends here.
    Outcomes with the same figures are merged.

    Examples
    --------
    >>> [(str(p), a, t) for p, a, _, t in step_outcomes(Solo(Model(4), 2))]
    [('1/4', (0,), True), ('1/2', (1,), False), ('1/4', (2,), False)]
    """
    out: dict[tuple, Fraction] = {}
    if isinstance(step, Solo):
        odds = activation(step.model.quality, step.dice, step.bonus, settings)
        for k, p in enumerate(odds.actions):
            key = ((k,), False, step.dice - k >= 2)
            out[key] = out.get(key, Fraction(0)) + p
    else:
        lead = activation(step.leader.quality, step.leader_dice, 0, settings)
        group = activation(step.quality, step.dice, settings.leader_bonus, settings)
        n = len(step.members)
        for kl, pl in enumerate(lead.actions):
            leader_turnover = step.leader_dice - kl >= 2
            if kl >= 1 and not leader_turnover:
                for g, pg in enumerate(group.actions):
                    key = ((kl - 1,) + (g,) * n, True, step.dice - g >= 2)
                    out[key] = out.get(key, Fraction(0)) + pl * pg
            else:
                key = ((kl,) + (0,) * n, False, leader_turnover)
                out[key] = out.get(key, Fraction(0)) + pl
    return [(p, a, o, t) for (a, o, t), p in out.items() if p]


def _acted(step: Solo | Group, actions: tuple[int, ...], order: bool) -> tuple[bool, ...]:
    """Which models of the step act: at least one action (a Leader that gave the order acted
    even when the order was its only action)."""
    if isinstance(step, Group) and order:
        return (True,) + tuple(a > 0 for a in actions[1:])
    return tuple(a > 0 for a in actions)


def turn_odds(turn: Turn) -> TurnResult:
    """Exact distribution of a turn (Markov chain over its steps).

    Parameters
    ----------
    turn : Turn

    Returns
    -------
    TurnResult
        ``method="exact"``.

    Examples
    --------
    Three Q3+ models, two dice each, one at a time:

    >>> from mathhammer.sbh import Warband
    >>> res = turn_odds(Warband([Model(3)] * 3).one_at_a_time(2))
    >>> round(res.expected_actions, 4), round(res.turnover, 4), round(res.all_act, 4)
    (3.572, 0.2977, 0.7023)
    """
    if not isinstance(turn, Turn):
        raise InputError("turn", turn, "must be a Turn")
    settings = turn.settings
    n_models = len(turn.models)
    width = turn.max_actions + 1
    running = np.zeros((width, n_models + 1))
    running[0, 0] = 1.0
    ended = np.zeros_like(running)
    n_steps = len(turn.steps)
    end_pmf = np.zeros(n_steps + 1)
    order = np.full(n_steps, np.nan)
    model_acted = np.zeros(n_models)
    model_actions = np.zeros(n_models)
    first = 0
    for s, step in enumerate(turn.steps):
        alive = float(running.sum())
        nxt = np.zeros_like(running)
        k = len(step.models)
        if isinstance(step, Group):
            order[s] = 0.0
        for p, actions, given, turnover in step_outcomes(step, settings):
            pf = float(p)
            acted = _acted(step, actions, given)
            total, count = sum(actions), sum(acted)
            dest = ended if turnover else nxt
            dest[total:, count:] += pf * running[: width - total, : n_models + 1 - count]
            if turnover:
                end_pmf[s] += pf * alive
            if given:
                order[s] += pf * alive
            model_acted[first:first + k] += pf * alive * np.array(acted, dtype=float)
            model_actions[first:first + k] += pf * alive * np.array(actions, dtype=float)
        running = nxt
        first += k
    end_pmf[-1] = float(running.sum())
    final = running + ended
    return TurnResult(
        method="exact",
        trials=None,
        seed=None,
        model_labels=tuple(m.label for m in turn.models),
        step_labels=tuple(s.label for s in turn.steps),
        actions_pmf=final.sum(axis=1),
        acted_pmf=final.sum(axis=0),
        end_pmf=end_pmf,
        order=order,
        model_acted=model_acted,
        model_actions=model_actions,
    )


_OBJECTIVES = ("actions", "acted")


def best_dice(models: Sequence[Model | int], objective: str = "actions",
              settings: Settings = DEFAULT_SETTINGS) -> BestDice:
    """Dice per model that maximise the expected figure of a one-at-a-time turn.

    The models activate in the order given, each alone, until the first turnover. Backward
    induction: from the last model back, each model picks the dice (1-3) maximising its own
    expected figure plus the chance of no turnover times the best the later models can do.
    Ties go to fewer dice.

    Parameters
    ----------
    models : sequence of Model or int
        The models, or their Qualities, in activation order (1 to 40).
    objective : {"actions", "acted"}
        Expected total actions, or expected number of models with at least one action.
    settings : Settings

    Examples
    --------
    The last model always rolls three dice: its turnover costs nothing.

    >>> best_dice([3, 3, 3, 3]).dice
    (2, 3, 3, 3)
    >>> best_dice([5, 5, 5]).dice
    (1, 1, 3)
    """
    check_choice("objective", objective, _OBJECTIVES)
    _check_settings(settings)
    if isinstance(models, (str, bytes)) or not isinstance(models, Sequence):
        raise InputError("models", models, "must be a list of Model or Quality")
    if not 1 <= len(models) <= MAX_MODELS:
        raise InputError("models", len(models), f"must hold 1 to {MAX_MODELS} models")
    qualities = []
    for i, m in enumerate(models):
        if isinstance(m, Model):
            qualities.append(m.quality)
        else:
            qualities.append(check_int(f"models[{i}]", m, MIN_QUALITY, MAX_QUALITY))
    value = 0.0
    dice: list[int] = []
    for q in reversed(qualities):
        best = None
        for d in range(1, MAX_DICE + 1):
            odds = activation(q, d, 0, settings)
            gain = odds.expected_actions if objective == "actions" else odds.at_least_one
            v = float(gain) + float(1 - odds.turnover) * value
            if best is None or v > best[0] + 1e-12:
                best = (v, d)
        value, d = best
        dice.append(d)
    return BestDice(tuple(reversed(dice)), value, objective)
