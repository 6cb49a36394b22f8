"""Scenario files (TOML) -> rules objects: files, text, tables, and scenarios of cards.

The format, key by key, is ``docs/scenario-format.md``. Every problem in a file raises
:class:`~mathhammer.io.schema.ScenarioFileError`, an :class:`~mathhammer.errors.InputError`
whose message is one line naming the file, the dotted key and the offending value, e.g.
``x.toml: attackers[0].weapons[1].skill: must be between 0 and 30 (got 45)``.

:class:`ScenarioReader` is the :class:`~mathhammer.io.tables.TableReader` of a scenario: it
also resolves library cards (``card = ...`` beside a target's or an attacker's keys,
:mod:`mathhammer.io.cards`), the keys given beside ``card`` overriding the card's.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from .._core.paths import read_file
from ..errors import InputError
from ..rules import Scenario
from .cards import attacker_ref, load_card
from .overrides import merge_attacker, merge_target
from .schema import (
    ACTION_KEY,
    ATTACKER_KEYS,
    CARD_KEY,
    MISSING,
    SETTINGS_KEYS,
    SIMULATION_KEYS,
    TARGET_KEYS,
    ScenarioFileError,
)
from .tables import TableReader
from .toml_text import parse_toml

__all__ = ["ScenarioReader", "demo_scenario", "load_scenario", "loads_scenario",
           "scenario_from_cards", "scenario_from_dict"]


class ScenarioReader(TableReader):
    """Reads one scenario document, library cards included.

    ``cards``: card directories searched first; ``base``: the folder relative card paths are
    resolved against (the scenario file's; None: the working directory).
    """

    def __init__(self, source: str, cards=None, base: str | os.PathLike | None = None):
        super().__init__(source)
        self.cards = cards
        self.base = base

    def scenario(self, data: object) -> Scenario:
        """The scenario ``data`` describes; a value a TOML file cannot hold (None, a JSON
        ``null``) is refused where it is, not read as the key's default."""
        self.check_nulls(data, "")
        return super().scenario(data)

    def check_nulls(self, data: object, prefix: str) -> None:
        """Refuse a None anywhere in ``data`` (a dict given to :func:`scenario_from_dict`):
        ``pow = None`` would otherwise read as POW "-", a weapon with no damage roll."""
        if isinstance(data, Mapping):
            for k, v in data.items():
                self.check_nulls(v, f"{prefix}.{k}" if prefix else str(k))
        elif isinstance(data, list):
            for i, v in enumerate(data):
                self.check_nulls(v, f"{prefix}[{i}]")
        elif data is None:
            raise self.error(prefix, None, "has no value: a scenario file's keys hold a value "
                             "(leave the key out for its default)")

    def card(self, ref: object, key: str):
        """The library card ``ref`` names (:func:`mathhammer.io.cards.load_card`)."""
        try:
            return load_card(ref, self.cards, self.base)
        except ScenarioFileError:
            raise  # a problem inside the card file: named by its file and key
        except InputError as err:
            if err.key != "card":
                raise  # a missing card directory (--cards, MATHHAMMER_CARDS)
            raise self.error(key, err.value, err.reason) from None

    def card_target(self, tgt: Mapping, prefix: str = "target") -> Mapping:
        """``[target]`` with ``card = ...``: the card's table with the other keys over it."""
        self.check_keys(tgt, prefix, TARGET_KEYS + (CARD_KEY,), "target")
        return merge_target(self.card(tgt[CARD_KEY], f"{prefix}.{CARD_KEY}"), tgt)

    def card_attacker(self, att: Mapping, prefix: str, taken: set[str]) -> Mapping:
        """``[[attackers]]`` with ``card = ...``: the card's table with the other keys over
        it, named apart from the attackers before it when no name is given."""
        self.check_keys(att, prefix, ATTACKER_KEYS + (CARD_KEY, ACTION_KEY), "attacker")
        card = self.card(att[CARD_KEY], f"{prefix}.{CARD_KEY}")
        try:
            table = merge_attacker(card, att, att.get(ACTION_KEY))
        except InputError as err:
            raise self.wrap(err, prefix) from None
        if "name" not in att and isinstance(table.get("name"), str) and table["name"] in taken:
            n = 2
            while f"{table['name']} {n}" in taken:
                n += 1
            table["name"] = f"{table['name']} {n}"
        return table


def scenario_from_dict(data: dict, source: str = "<dict>", cards=None,
                       base: str | os.PathLike | None = None) -> Scenario:
    """Build a :class:`~mathhammer.rules.Scenario` from the tables of a scenario file.

    Parameters
    ----------
    data : dict
        What :func:`tomllib.load` returns for a scenario file (keys ``simulation``,
        ``settings``, ``target``, ``attackers``).
    source : str
        Name used in error messages.
    cards : iterable of path-like, optional
        Card directories searched before ``MATHHAMMER_CARDS`` and the bundled cards, for
        ``card = "name"`` references (:mod:`mathhammer.io.cards`).
    base : path-like, optional
        Folder that relative card paths are resolved against (default: working directory).

    Returns
    -------
    Scenario

    Raises
    ------
    ScenarioFileError
        One-line message ``"{source}: {key}: {reason} (got {value!r})"``.

    Examples
    --------
    >>> s = scenario_from_dict({
    ...     "target": {"def": 12, "arm": 18, "boxes": 30},
    ...     "attackers": [{"name": "Jack", "weapons": [
    ...         {"name": "Fist", "type": "melee", "skill": 7, "pow": 16, "attacks": 2}]}],
    ... })
    >>> s.trials, s.seed, s.n_attacks
    (1000000, None, 2)
    >>> scenario_from_dict({"target": {"def": 12, "arm": 18}, "attackers": []})
    Traceback (most recent call last):
    ...
    mathhammer.io.schema.ScenarioFileError: <dict>: attackers: at least one attacker is needed (got [])
    >>> scenario_from_dict({
    ...     "target": {"def": 12, "arm": 18, "focus": 11},
    ...     "attackers": [{"weapons": [{"name": "Fist", "type": "melee", "skill": 7, "pow": 16}]}],
    ... }, source="x.toml")
    Traceback (most recent call last):
    ...
    mathhammer.io.schema.ScenarioFileError: x.toml: target.focus: must be between 0 and 10 (got 11)
    """
    return ScenarioReader(source, cards, base).scenario(data)


def loads_scenario(text: str, source: str = "<string>", cards=None,
                   base: str | os.PathLike | None = None) -> Scenario:
    """Parse scenario TOML text.

    Parameters
    ----------
    text : str
        The TOML text of a scenario file.
    source : str
        Name used in error messages.
    cards, base
        As for :func:`scenario_from_dict`.

    Returns
    -------
    Scenario

    Raises
    ------
    ScenarioFileError
        When the text is not TOML or describes an invalid scenario.

    Examples
    --------
    >>> s = loads_scenario('''
    ... [target]
    ... def = 12
    ... arm = 18
    ... [[attackers]]
    ... focus = 3
    ... [attackers.spend]
    ... boost_attack = "always"
    ... [[attackers.weapons]]
    ... name = "Fist"
    ... type = "melee"
    ... skill = 7
    ... pow = 16
    ... ''')
    >>> s.attackers[0].focus, s.attackers[0].spend.boost_attack
    (3, 'always')
    """
    if not isinstance(text, str):
        raise InputError("text", text, "must be the TOML text of a scenario (a str)")
    return scenario_from_dict(parse_toml(text, source), source, cards, base)


def demo_scenario() -> Scenario:
    """The bundled demo scenario (``mathhammer/data/demo.toml``, run by ``mathhammer demo``)."""
    from importlib.resources import files

    text = files("mathhammer").joinpath("data", "demo.toml").read_text(encoding="utf-8")
    return loads_scenario(text, source="demo.toml")


def load_scenario(path: str | os.PathLike, cards=None) -> Scenario:
    """Read a scenario TOML file.

    Parameters
    ----------
    path : str or os.PathLike
        The file; error messages name it as given.
    cards : iterable of path-like, optional
        Card directories searched first (see :func:`scenario_from_dict`); relative card
        paths are resolved against the file's folder.

    Returns
    -------
    Scenario

    Raises
    ------
    ScenarioFileError
        When the file cannot be read, is not valid UTF-8 TOML, or describes an invalid
        scenario; the message is one line starting with the file name as given.
    """
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise InputError("path", path, "must be the path of a scenario file")
    source = os.fspath(path)
    if isinstance(source, bytes):
        source = os.fsdecode(source)
    try:
        raw = read_file("path", path, "scenario file")
    except InputError as err:
        raise ScenarioFileError(source, "", MISSING, err.reason) from None
    p = Path(source).expanduser()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioFileError(
            source, "", MISSING, f"not UTF-8 text (bad byte at offset {exc.start}); is it a TOML file?"
        ) from None
    return loads_scenario(text, source, cards, p.parent)


def scenario_from_cards(attackers: Sequence[str | Mapping], target: str | Mapping,
                        dirs: Iterable[str | os.PathLike] | None = None, *,
                        source: str = "<cards>", **simulation) -> Scenario:
    """A scenario of library cards: ``attackers`` in order against ``target``.

    Parameters
    ----------
    attackers : sequence of str or mapping
        Card references; ``"name:action"`` picks the action (``infantry:melee``); a mapping
        is an ``[[attackers]]`` entry with ``card`` and overrides.
    target : str or mapping
        A card reference, or a ``[target]`` table with ``card`` and overrides.
    dirs : iterable of path-like, optional
        Card directories searched first (``--cards``).
    source : str
        Name used in error messages.
    **simulation
        Keys of ``[simulation]`` (``trials``, ``seed``, ``objective``, ``turns``,
        ``attack_turns``) and ``[settings]`` (``brutal_damage``); None values are left out.

    Raises
    ------
    ScenarioFileError
        E.g. ``<cards>: attackers[0].card: unknown card; did you mean 'solo'? (got 'sollo')``.
    TypeError
        An unknown keyword.

    Examples
    --------
    >>> s = scenario_from_cards(["heavy_warjack", "heavy_warjack"], "heavy_warbeast",
    ...                         trials=1000, seed=1)
    >>> [a.name for a in s.attackers], s.target.capacity
    (['Heavy warjack', 'Heavy warjack 2'], 'spiral')
    """
    unknown = sorted(set(simulation) - set(SIMULATION_KEYS) - set(SETTINGS_KEYS))
    if unknown:
        raise TypeError(f"scenario_from_cards() got unexpected keyword arguments: {', '.join(unknown)}")
    if isinstance(attackers, (str, Mapping)):
        attackers = [attackers]
    if not isinstance(attackers, (list, tuple)) or not attackers:
        raise InputError("attackers", attackers, "must be a card name, or a list of card names (or tables)")
    for i, a in enumerate(attackers):
        if not isinstance(a, (str, Mapping)):
            raise InputError(f"attackers[{i}]", a, "must be a card name or a table with card = NAME")
    if not isinstance(target, (str, Mapping)):
        raise InputError("target", target, "must be a card name or a table with card = NAME")
    sim = {k: v for k, v in simulation.items() if k in SIMULATION_KEYS and v is not None}
    settings = {k: v for k, v in simulation.items() if k in SETTINGS_KEYS and v is not None}
    data: dict = {
        "target": dict(target) if isinstance(target, Mapping) else {"card": target},
        "attackers": [attacker_ref(a) for a in attackers],
    }
    if sim:
        data["simulation"] = sim
    if settings:
        data["settings"] = settings
    return scenario_from_dict(data, source, cards=dirs)
