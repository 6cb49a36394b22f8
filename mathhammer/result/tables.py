"""The pandas tables and files of a :class:`~mathhammer.result.Result`, which binds these
functions as its methods (``summary()``, ``damage_table()``, ... ``to_csv``, ``to_json``).

Thin wrappers over :mod:`.frames` and :mod:`.export`, imported when first called, so that
importing mathhammer or running the command line does not import pandas.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .core import Result

__all__ = ["summary", "damage_table", "destroyed_table", "attack_table", "play_table",
           "cripple_table", "cripple_after_table", "by_turn", "effect_table", "box_table",
           "targets_table", "tables", "to_csv", "to_json"]


def summary(result: Result):
    """Headline figures as a tidy frame: ``metric``, ``value``, ``ci_low``, ``ci_high``
    (see :func:`mathhammer.result.frames.summary_frame`)."""
    from .frames import summary_frame

    return summary_frame(result)


def damage_table(result: Result):
    """Damage distribution: ``damage``, ``probability``, ``at_least`` (P(damage >= k))."""
    from .frames import damage_frame

    return damage_frame(result)


def destroyed_table(result: Result):
    """A unit as the target: ``destroyed`` (k), ``probability`` (exactly k), ``at_least``
    and its 95% interval (see :func:`mathhammer.result.frames.destroyed_frame`)."""
    from .frames import destroyed_frame

    return destroyed_frame(result)


def attack_table(result: Result):
    """One row per attack slot: made, hit, crit, mean damage, kill after it, boosts,
    points spent (see :func:`mathhammer.result.frames.attack_frame`)."""
    from .frames import attack_frame

    return attack_frame(result)


def play_table(result: Result):
    """Best play in a player's words, one row per attack and decision: ``slot``,
    ``attack``, ``who``, ``decision``, ``condition``, ``agreement``, ``taken``,
    ``points`` (see :func:`mathhammer.result.play.play_rows`); empty without best play."""
    import pandas as pd

    from .play import PLAY_COLUMNS, play_rows

    return pd.DataFrame(play_rows(result), columns=list(PLAY_COLUMNS))


def cripple_table(result: Result):
    """Per system or aspect: ``letter``, ``system``, ``probability`` crippled at the end,
    ``ci_low``, ``ci_high`` (empty for a damage track)."""
    from .frames import cripple_frame

    return cripple_frame(result)


def cripple_after_table(result: Result):
    """Per attack slot and letter: ``probability`` it is crippled once the attack is
    resolved (empty for a damage track)."""
    from .frames import cripple_after_frame

    return cripple_after_frame(result)


def by_turn(result: Result):
    """Kill by the end of each round: ``turn``, ``kill``, ``ci_low``, ``ci_high`` (empty
    for a single round)."""
    from .frames import turn_frame

    return turn_frame(result)


def effect_table(result: Result):
    """Continuous effects and hazards per round (empty when none can happen; see
    :func:`mathhammer.result.frames.effect_frame`)."""
    from .frames import effect_frame

    return effect_frame(result)


def box_table(result: Result):
    """Probability each box of the grid or spiral ends marked: ``column``, ``row``,
    ``letter``, ``probability`` (empty for a damage track)."""
    from .frames import box_frame

    return box_frame(result)


def targets_table(result: Result):
    """Several targets: one row per target and metric (``target``, ``metric``, ``value``,
    ``ci_low``, ``ci_high``; see :func:`mathhammer.result.frames.targets_frame`)."""
    from .frames import targets_frame

    return targets_frame(result)


def tables(result: Result) -> dict:
    """Every table that applies, keyed by file-friendly name (``summary``, ``damage``,
    ``destroyed``, ``attacks``, ``cripple``, ``cripple_after``, ``by_turn``, ``effects``,
    ``boxes``, ``targets``)."""
    from . import frames

    return frames.tables(result)


def to_csv(result: Result, directory, overwrite: bool = False) -> list:
    """Write every table as ``directory/NAME.csv`` (the directory is created if
    missing); return the paths. Raises :class:`~mathhammer.errors.InputError` when a file
    exists, unless ``overwrite``."""
    from .export import write_csv

    return write_csv(result, directory, overwrite=overwrite)


def to_json(result: Result, path=None, overwrite: bool = False):
    """:meth:`~Result.to_dict` as JSON: the string when ``path`` is None, else written to
    ``path`` (which is returned). Raises :class:`~mathhammer.errors.InputError` when
    ``path`` exists, unless ``overwrite``."""
    if path is None:
        import json

        return json.dumps(result.to_dict())
    from .export import write_json

    return write_json(result, path, overwrite=overwrite)
