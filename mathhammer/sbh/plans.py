"""Song of Blades and Heroes: models, activation steps, turn plans and warbands.

Frozen dataclasses that validate themselves on construction: every bad value raises
:class:`~mathhammer.errors.InputError` naming the field and the value (one line, so the CLI
can print it and exit with status 2). docs/rules.md section 8 is the source; where it is silent the
choice is a field of :class:`~mathhammer.sbh.rules.Settings` (docs/sbh.md, "Choices"); the
limits checked here are those of :mod:`.rules`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..errors import InputError
from .._core.validate import check_bool, check_int, check_str
from .rules import (
    DEFAULT_SETTINGS,
    MAX_BONUS,
    MAX_COMBAT,
    MAX_DICE,
    MAX_GROUP,
    MAX_LARGE_GROUP,
    MAX_MODELS,
    MIN_GROUP,
    Settings,
    check_quality,
)

__all__ = [
    "Group",
    "Model",
    "Solo",
    "Turn",
    "Warband",
]


def _check_dice(key: str, value: object) -> int:
    return check_int(key, value, 1, MAX_DICE)


@dataclass(frozen=True)
class Model:
    """One SBH model.

    Parameters
    ----------
    quality : int
        Quality "Q+", 2 to 6: a die showing at least Q is a success.
    combat : int
        Combat score, 0 to 12.
    name : str
    leader : bool
        Has the Leader special rule: only a Leader may give group orders.

    Examples
    --------
    >>> Model(3, 3, "Elf").quality
    3
    >>> Model(7)
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: quality: must be between 2 and 6 (got 7)
    """

    quality: int
    combat: int = 0
    name: str = ""
    leader: bool = False

    def __post_init__(self):
        check_quality("quality", self.quality)
        check_int("combat", self.combat, 0, MAX_COMBAT)
        check_str("name", self.name)
        check_bool("leader", self.leader)

    @property
    def label(self) -> str:
        """The name, or ``Q{quality}+`` when unnamed."""
        return self.name or f"Q{self.quality}+"


def _check_model(key: str, value: object) -> Model:
    if not isinstance(value, Model):
        raise InputError(key, value, "must be a Model")
    return value


def _check_models(key: str, values: object, lo: int, hi: int,
                  reason: str | None = None) -> tuple[Model, ...]:
    if isinstance(values, (str, bytes, Model)) or not isinstance(values, Sequence):
        raise InputError(key, values, "must be a list of Model")
    models = tuple(_check_model(f"{key}[{i}]", m) for i, m in enumerate(values))
    if not lo <= len(models) <= hi:
        raise InputError(key, len(models), reason or f"must hold {lo} to {hi} models")
    return models


@dataclass(frozen=True)
class Solo:
    """One model activated on its own: it rolls ``dice`` dice against its Quality.

    Parameters
    ----------
    model : Model
    dice : int
        1 to 3 dice.
    bonus : int
        Added to every die (-3 to 3), e.g. a Leader's bonus where a house rule gives it.
    """

    model: Model
    dice: int
    bonus: int = 0

    def __post_init__(self):
        _check_model("model", self.model)
        _check_dice("dice", self.dice)
        check_int("bonus", self.bonus, -MAX_BONUS, MAX_BONUS)

    @property
    def models(self) -> tuple[Model, ...]:
        return (self.model,)

    @property
    def label(self) -> str:
        return f"{self.model.label} ({self.dice}d)"


@dataclass(frozen=True)
class Group:
    """A Leader's group order: the Leader activates first, then the group rolls once.

    The Leader rolls ``leader_dice`` dice against its own Quality. It gives the order (spending
    one action) when it has at least one action and no turnover: a Leader that rolled a
    turnover cannot give it (docs/rules.md 8: "a turnover with only one action means no group
    order"). The members then roll ``dice`` dice once, against the *lowest* Quality among them
    (the highest Q number), each die getting ``settings.leader_bonus``; every member gets as
    many actions as the roll has successes. Two or more failures of either roll end the turn.

    The members do not include the Leader (it keeps its other actions for itself), and a
    group whose order is not given does not activate in this plan.

    Parameters
    ----------
    leader : Model
        Must have ``leader=True``.
    members : sequence of Model
        2 to 5 models (10 with ``Settings.large_groups``); any number from 1 for a regroup.
    dice : int
        Dice of the group's roll, 1 to 3 (a regroup rolls 1).
    leader_dice : int
        Dice of the Leader's own activation roll, 1 to 3 (default 1).
    regroup : bool
        The Regroup order: every member within Long rolls 1 die at the lowest Quality; no
        limit on the number of members (other than the plan's).
    """

    leader: Model
    members: tuple[Model, ...]
    dice: int
    leader_dice: int = 1
    regroup: bool = False

    def __post_init__(self):
        leader = _check_model("leader", self.leader)
        if not leader.leader:
            raise InputError("leader", leader.label, "must be a Model with leader=True "
                             "(only a Leader gives group orders)")
        check_bool("regroup", self.regroup)
        if self.regroup:
            members = _check_models("members", self.members, 1, MAX_MODELS - 1)
        else:
            members = _check_models("members", self.members, MIN_GROUP, MAX_LARGE_GROUP,
                                    f"must hold {MIN_GROUP} to {MAX_GROUP} models "
                                    f"({MAX_LARGE_GROUP} with large_groups)")
        object.__setattr__(self, "members", members)
        _check_dice("dice", self.dice)
        if self.regroup and self.dice != 1:
            raise InputError("dice", self.dice, "a regroup rolls 1 die")
        _check_dice("leader_dice", self.leader_dice)

    @property
    def quality(self) -> int:
        """The Quality the group rolls against: the lowest among the members (highest Q)."""
        return max(m.quality for m in self.members)

    @property
    def models(self) -> tuple[Model, ...]:
        return (self.leader,) + self.members

    @property
    def label(self) -> str:
        kind = "regroup" if self.regroup else f"group of {len(self.members)}"
        return f"{self.leader.label} ({self.leader_dice}d) -> {kind} at Q{self.quality}+ ({self.dice}d)"


def _check_step(key: str, value: object) -> Solo | Group:
    if not isinstance(value, (Solo, Group)):
        raise InputError(key, value, "must be a Solo or a Group step")
    return value


@dataclass(frozen=True)
class Turn:
    """A player's turn as planned: steps in order, until the first turnover.

    Each step is a :class:`Solo` activation or a Leader's :class:`Group` order. The turn ends
    after the step that rolls a turnover (two or more failures), once that step's actions are
    taken; otherwise after the last step. Every model of the plan activates at most once (it
    is the caller's job not to list the same miniature twice).

    Parameters
    ----------
    steps : sequence of Solo or Group
    settings : Settings

    Examples
    --------
    >>> t = Turn([Solo(Model(3), 2), Solo(Model(4), 3)])
    >>> len(t.models), t.max_actions
    (2, 5)
    >>> Turn([Group(Model(3, leader=True), [Model(4)] * 6, dice=2)])
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: steps[0].members: must hold 2 to 5 models (10 with large_groups) (got 6)
    """

    steps: tuple[Solo | Group, ...]
    settings: Settings = field(default=DEFAULT_SETTINGS)

    def __post_init__(self):
        if isinstance(self.steps, (Solo, Group)) or not isinstance(self.steps, Sequence):
            raise InputError("steps", self.steps, "must be a list of Solo or Group steps")
        steps = tuple(_check_step(f"steps[{i}]", s) for i, s in enumerate(self.steps))
        if not steps:
            raise InputError("steps", 0, "must hold at least one step")
        if not isinstance(self.settings, Settings):
            raise InputError("settings", self.settings, "must be a Settings")
        for i, s in enumerate(steps):
            if isinstance(s, Group) and not s.regroup and len(s.members) > self.settings.max_group:
                hint = "" if self.settings.large_groups else " (10 with large_groups)"
                raise InputError(f"steps[{i}].members", len(s.members),
                                 f"must hold 2 to {self.settings.max_group} models{hint}")
        n = sum(len(s.models) for s in steps)
        if n > MAX_MODELS:
            raise InputError("steps", n, f"must activate at most {MAX_MODELS} models in all")
        object.__setattr__(self, "steps", steps)

    @property
    def models(self) -> tuple[Model, ...]:
        """Every model of the plan in activation order (a group's Leader before its members)."""
        return tuple(m for s in self.steps for m in s.models)

    @property
    def max_actions(self) -> int:
        """Most actions the turn can give (every die a success)."""
        total = 0
        for s in self.steps:
            if isinstance(s, Solo):
                total += s.dice
            else:
                total += s.leader_dice - 1 + s.dice * len(s.members)
        return total


@dataclass(frozen=True)
class Warband:
    """Models of one side, in the order they would be activated.

    Parameters
    ----------
    models : sequence of Model
        1 to 40 models.
    name : str

    Examples
    --------
    >>> band = Warband([Model(3), Model(4), Model(4)])
    >>> [s.dice for s in band.one_at_a_time(2).steps]
    [2, 2, 2]
    """

    models: tuple[Model, ...]
    name: str = ""

    def __post_init__(self):
        object.__setattr__(self, "models", _check_models("models", self.models, 1, MAX_MODELS))
        check_str("name", self.name)

    def one_at_a_time(self, dice: int | Sequence[int], settings: Settings = DEFAULT_SETTINGS) -> Turn:
        """The turn activating every model on its own, in order, with ``dice`` dice each
        (one number for all, or one per model)."""
        if isinstance(dice, int) and not isinstance(dice, bool):
            dice = [dice] * len(self.models)
        if isinstance(dice, (str, bytes)) or not isinstance(dice, Sequence):
            raise InputError("dice", dice, "must be an integer or a list of integers")
        if len(dice) != len(self.models):
            raise InputError("dice", len(dice), f"must give one number per model ({len(self.models)})")
        steps = [Solo(m, _check_dice(f"dice[{i}]", d)) for i, (m, d) in enumerate(zip(self.models, dice))]
        return Turn(steps, settings)
