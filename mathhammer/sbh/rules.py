"""Song of Blades and Heroes: the limits of the rules model, its settings, and when a die succeeds.

The bounds every input is checked against (Quality, dice, group sizes, combat scores,
modifiers), the :class:`Settings` that make the choices docs/rules.md section 8 leaves open
(docs/sbh.md, "Choices"), and the success rule of one die of an activation roll
(:func:`success_faces`, :func:`threshold`), which the exact odds and the Monte Carlo run
both read. A bad value raises :class:`~mathhammer.errors.InputError` naming the field and
the value (one line, so the CLI can print it and exit with status 2). The models and turn
plans built on these are in :mod:`.plans`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._core.validate import check_bool, check_int

__all__ = [
    "DEFAULT_SETTINGS",
    "MAX_BONUS",
    "MAX_COMBAT",
    "MAX_DICE",
    "MAX_GROUP",
    "MAX_LARGE_GROUP",
    "MAX_MODELS",
    "MAX_MODIFIER",
    "MAX_QUALITY",
    "MAX_SHOOTERS",
    "MIN_QUALITY",
    "Settings",
    "check_quality",
    "success_faces",
]

#: Quality is rolled as "Q+" on a d6: 2+ (best) to 6+ (worst).
MIN_QUALITY = 2
MAX_QUALITY = 6
#: An activation rolls 1, 2 or 3 dice.
MAX_DICE = 3
#: Concentrated shooting: up to 5 shooters.
MAX_SHOOTERS = 5
#: Group activation: 2-5 models, up to 10 with the optional "larger group activations" rule.
MIN_GROUP = 2
MAX_GROUP = 5
MAX_LARGE_GROUP = 10
#: Models a turn plan may activate (a large SBH warband is about 15).
MAX_MODELS = 40
#: Combat scores accepted (SBH profiles run 0-6; monsters and bonuses go a little higher).
MAX_COMBAT = 12
#: Modifiers added to a combat total, and bonuses added to activation dice.
MAX_MODIFIER = 10
MAX_BONUS = 3


def check_quality(key: str, value: object) -> int:
    """``value`` as a Quality "Q+" (2 to 6), or :class:`~mathhammer.errors.InputError` on ``key``."""
    return check_int(key, value, MIN_QUALITY, MAX_QUALITY)


@dataclass(frozen=True)
class Settings:
    """The choices docs/rules.md section 8 leaves open (docs/sbh.md, "Choices").

    Parameters
    ----------
    leader_bonus : int
        Added to every die of a roll made on a Leader's group order (group activation,
        concentrated shooting, regroup): the Leader's "usual +1 bonus" of the seed. Default 1;
        the Leader's own activation roll never gets it, nor do models activated one at a time
        (give a :class:`~mathhammer.sbh.plans.Solo` step a ``bonus`` for that).
    natural_one_fails : bool
        A die showing 1 fails an activation roll whatever the bonus (default True). It only
        matters when ``quality - bonus <= 1``.
    natural_six_succeeds : bool
        A die showing 6 succeeds whatever the penalty (default True). It only matters when
        ``quality - bonus >= 7``.
    large_groups : bool
        The optional rule allowing groups of up to 10 models (default False: 2-5).
    total_floor : int or None
        Combat totals (die + combat score + modifiers) below this count as this value before
        they are compared (default 1, so that "double" and "triple" keep their meaning when
        the concentrated-shooting penalty takes a target below 1). ``None`` compares the raw
        totals.

    Examples
    --------
    >>> Settings().leader_bonus
    1
    >>> Settings(leader_bonus=9)
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: settings.leader_bonus: must be between -3 and 3 (got 9)
    """

    leader_bonus: int = 1
    natural_one_fails: bool = True
    natural_six_succeeds: bool = True
    large_groups: bool = False
    total_floor: int | None = 1

    def __post_init__(self):
        check_int("settings.leader_bonus", self.leader_bonus, -MAX_BONUS, MAX_BONUS)
        check_bool("settings.natural_one_fails", self.natural_one_fails)
        check_bool("settings.natural_six_succeeds", self.natural_six_succeeds)
        check_bool("settings.large_groups", self.large_groups)
        if self.total_floor is not None:
            check_int("settings.total_floor", self.total_floor, -MAX_MODIFIER, MAX_MODIFIER)

    @property
    def max_group(self) -> int:
        """Largest group a Leader may order: 5, or 10 with ``large_groups``."""
        return MAX_LARGE_GROUP if self.large_groups else MAX_GROUP


DEFAULT_SETTINGS = Settings()


def success_faces(quality: int, bonus: int = 0, settings: Settings = DEFAULT_SETTINGS) -> int:
    """How many faces of a d6 succeed on an activation roll at ``quality`` with ``bonus``.

    A die succeeds when ``die + bonus >= quality``; with ``settings.natural_one_fails`` a 1
    always fails, with ``settings.natural_six_succeeds`` a 6 always succeeds.

    Examples
    --------
    >>> [success_faces(q) for q in range(2, 7)]
    [5, 4, 3, 2, 1]
    >>> success_faces(2, bonus=1), success_faces(6, bonus=-2)
    (5, 1)
    >>> success_faces(2, 1, Settings(natural_one_fails=False))
    6
    """
    q = check_quality("quality", quality)
    b = check_int("bonus", bonus, -MAX_BONUS, MAX_BONUS)
    return sum(1 for face in range(1, 7) if _die_succeeds(face, q, b, settings))


def _die_succeeds(face: int, quality: int, bonus: int, settings: Settings) -> bool:
    if face == 1 and settings.natural_one_fails:
        return False
    if face == 6 and settings.natural_six_succeeds:
        return True
    return face + bonus >= quality


def threshold(quality: int, bonus: int = 0, settings: Settings = DEFAULT_SETTINGS) -> int:
    """Lowest die face that succeeds (7: none does). Success is monotone in the face, so a
    roll succeeds on a die exactly when ``die >= threshold``.

    >>> threshold(4), threshold(2, 1), threshold(6, -1), threshold(6, -1, Settings(natural_six_succeeds=False))
    (4, 2, 6, 7)
    """
    return 7 - success_faces(quality, bonus, settings)

