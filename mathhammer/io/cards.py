"""The card library: model types described once, used as targets and as attackers.

A card file is TOML describing one model type::

    [card]
    name = "Heavy warjack"            # display name (default: the file name)
    kind = "heavy warjack"            # free text; KINDS lists the usual ones
    description = "Generic heavy warjack: ..."
    models = 1                        # a unit card: this many models, as target and attacker

    [target]                          # the keys of a scenario's [target] table
    def = 12
    arm = 18
    grid = ["..LLM", "...LLM", "...HCC", "...HCC", "...RRM", "..RRM"]

    [attacker]                        # the keys of a scenario's [[attackers]] entry
    focus = 3                         # (optional: without it the card is a target only)
    [[attacker.weapons]]
    name = "Left fist"
    type = "melee"
    skill = 6
    pow = 17

Cards are found by name or path (:mod:`.cardpath`); a scenario's overrides and an attacker's
action are applied by :mod:`.overrides`. The bundled cards (``mathhammer/data/cards``) are
illustrative generic model types with Mk4-like numbers, not real models; ``mathhammer cards``
lists them.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

from .._core.limits import MAX_MODELS
from .._core.paths import folder_to_read, read_file
from .._core.validate import check_int
from ..errors import InputError
from ..rules import Attacker, Target
from ..rules.vocabulary import CARD_ACTIONS
from .cardpath import BUNDLED_DIR, card_dirs, catalogue, find_card
from .overrides import merge_attacker, merge_target, weapon_actions, with_action
from .schema import ATTACKER_KEYS, MISSING, ScenarioFileError
from .tables import TableReader
from .toml_text import parse_toml

__all__ = [
    "CARD_KEYS",
    "FILE_KEYS",
    "KINDS",
    "Card",
    "CardInfo",
    "attacker_ref",
    "cards_frame",
    "cards_in",
    "list_cards",
    "load_card",
]

#: Tables of a card file, and keys of its ``[card]`` table.
FILE_KEYS = ("card", "target", "attacker")
CARD_KEYS = ("name", "kind", "description", "models")
#: The usual kinds of model, in the order ``mathhammer cards`` lists them (any text is allowed).
KINDS = (
    "infantry", "heavy infantry", "solo", "warcaster", "warlock", "light warjack",
    "heavy warjack", "colossal", "light warbeast", "heavy warbeast",
)


@dataclass(frozen=True)
class CardInfo:
    """What ``mathhammer cards`` shows of a card.

    Attributes
    ----------
    name : str
        The name scenarios refer to it by (its file name without ``.toml``).
    title, kind, description : str
        From its ``[card]`` table.
    path : Path
        Its file.
    bundled : bool
        Whether it is one of the bundled cards.
    capacity : {"track", "grid", "spiral"}
    boxes, defense, arm : int
        Its target's damage boxes, DEF and ARM.
    actions : tuple of str
        Weapon types of its attacker, the default action first; empty for a target-only card.
    points : str
        The attacker's focus, fury or forcing, e.g. ``"focus 3"``; empty when it has none.
    models : int
        Models of a unit card (``models`` in ``[card]``): the target is a unit of them and
        the attacker a unit making that many combat actions; 1 for a single model.
    """

    name: str
    title: str
    kind: str
    description: str
    path: Path
    bundled: bool
    capacity: str
    boxes: int
    defense: int
    arm: int
    actions: tuple[str, ...]
    points: str
    models: int = 1

    @property
    def attacks(self) -> bool:
        """Whether the card has an ``[attacker]`` table."""
        return bool(self.actions)

    def to_dict(self) -> dict:
        """JSON-ready fields (path as text), with ``attacks``."""
        out = asdict(self)
        out["path"] = str(self.path)
        out["actions"] = list(self.actions)
        out["attacks"] = self.attacks
        return out


@dataclass(frozen=True)
class Card:
    """A checked card: its tables as read, and its :class:`CardInfo`.

    ``target_table`` and ``attacker_table`` (None for a target-only card) are the card's
    ``[target]`` and ``[attacker]`` tables with the display name filled in; treat them as
    read-only (:func:`merge_target` and :func:`merge_attacker` return copies).
    """

    info: CardInfo
    target_table: Mapping
    attacker_table: Mapping | None

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def source(self) -> str:
        """The card's file, as named in error messages."""
        return str(self.info.path)

    def to_target(self, overrides: Mapping | None = None) -> Target:
        """Its :class:`Target`, with ``overrides`` (keys of ``[target]``) applied.

        Examples
        --------
        >>> jack = load_card("heavy_warjack")
        >>> jack.to_target().boxes, jack.to_target({"arm": 20}).arm
        (34, 20)
        """
        data = {"target": merge_target(self, overrides or {})}
        return TableReader(self.source).target(data)

    def to_attacker(self, overrides: Mapping | None = None, action: str | None = None) -> Attacker:
        """Its :class:`Attacker` making ``action`` (default: its first weapon's type), with
        ``overrides`` (keys of ``[[attackers]]``) applied.

        Examples
        --------
        >>> [w.name for w in load_card("infantry").to_attacker(action="melee").weapons]
        ['Hand weapon']
        """
        try:
            table = merge_attacker(self, overrides or {}, action)
        except InputError as err:
            raise ScenarioFileError.wrap(self.source, err, "attacker") from None
        return TableReader(self.source).attacker(table, 0, prefix="attacker")


def _read_toml(source: str, path: Path) -> dict:
    try:
        text = read_file("card", path, "card file").decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioFileError(source, "", MISSING,
                                f"not UTF-8 text (bad byte at offset {exc.start})") from None
    except InputError as err:
        raise ScenarioFileError(source, "", MISSING, err.reason) from None
    return parse_toml(text, source)


def _check(path: Path, data: Mapping, bundled: bool) -> Card:
    """Validate a card file's tables; every error names the file and the key."""
    source = str(path)
    reader = TableReader(source)
    for key, value in data.items():
        if key not in FILE_KEYS:
            if key in ("simulation", "settings"):
                reason = "unknown key: a card file holds [card], [target] and [attacker] (a scenario file?)"
            elif key == "attackers":
                reason = "unknown key; did you mean 'attacker'? (a card has one [attacker] table)"
            else:
                reason = "unknown key (allowed: card, target, attacker)"
            raise ScenarioFileError(source, str(key), value, reason)
    if "card" not in data:
        raise ScenarioFileError(source, "card", MISSING, "a card file needs its [card] table (name, kind, "
                                "description): is it a scenario file?")
    meta = reader.table(data["card"], "card", "[card]")
    reader.check_keys(meta, "card", CARD_KEYS, "card")
    for key in ("name", "kind", "description"):
        if key in meta and not isinstance(meta[key], str):
            raise ScenarioFileError(source, f"card.{key}", meta[key], "must be a string")
    title = meta.get("name", path.stem)
    models = meta.get("models", 1)
    if "models" in meta:  # a unit card: its target and its attacker are units of that many
        try:
            check_int("models", models, 1, MAX_MODELS)
        except InputError as err:
            raise ScenarioFileError.wrap(source, err, "card") from None

    raw = reader.require(data, "", "target")
    target_table = dict(reader.table(raw, "target", "[target]"))
    if "card" in target_table:
        raise ScenarioFileError(source, "target.card", target_table["card"],
                                "a card cannot refer to another card")
    target_table.setdefault("name", title)
    if models > 1:
        target_table.setdefault("models", models)
    target = reader.target({"target": target_table})

    attacker_table, actions, points = None, [], ""
    if "attacker" in data:
        att = dict(reader.table(data["attacker"], "attacker", "[attacker]"))
        reader.check_keys(att, "attacker", ATTACKER_KEYS, "attacker")
        weapons = reader.weapon_list(att, "attacker")
        for j, w in enumerate(weapons):
            reader.weapon(w, f"attacker.weapons[{j}]")
        att.setdefault("name", title)
        att.setdefault("base", target.base)  # the same model: a power attack needs its base
        if models > 1:
            att.setdefault("models", models)
        attacker_table = att
        actions = weapon_actions(weapons)
        attacker = None
        for action in actions or [None]:  # no weapon: the reader says why
            table = with_action(att, {}, action) if action else att
            attacker = reader.attacker(table, 0, prefix="attacker")
        resource = attacker.resource
        points = f"{resource} {getattr(attacker, resource)}" if resource else ""
    info = CardInfo(
        name=path.stem, title=title, kind=meta.get("kind", ""), description=meta.get("description", ""),
        path=path, bundled=bundled, capacity=target.capacity, boxes=target.boxes,
        defense=target.defense, arm=target.arm, actions=tuple(actions), points=points,
        models=target.models,
    )
    return Card(info, target_table, attacker_table)


@functools.lru_cache(maxsize=256)
def _load_cached(path: str, mtime_ns: int, size: int, bundled: bool) -> Card:
    p = Path(path)
    return _check(p, _read_toml(path, p), bundled)


def _load_path(path: Path) -> Card:
    try:
        st = path.stat()
    except OSError as exc:
        raise ScenarioFileError(str(path), "", MISSING, f"cannot read card file: {exc.strerror or exc}") from None
    bundled = path.resolve().parent == BUNDLED_DIR
    return _load_cached(str(path), st.st_mtime_ns, st.st_size, bundled)


def load_card(ref: str | os.PathLike, dirs: Iterable[str | os.PathLike] | None = None,
              base: str | os.PathLike | None = None) -> Card:
    """Read and check the card ``ref`` names (see :func:`find_card`).

    Raises
    ------
    InputError
        Key ``card`` for an unknown name or missing file; ``cards`` / ``MATHHAMMER_CARDS``
        for a missing directory.
    ScenarioFileError
        A problem inside the card file: one line naming the file and the key.

    Examples
    --------
    >>> card = load_card("warcaster")
    >>> card.info.kind, card.info.boxes, card.info.actions, card.to_target().focus
    ('warcaster', 18, ('melee', 'arcane'), 6)
    """
    if isinstance(ref, os.PathLike):
        ref = os.fspath(ref)
    return _load_path(find_card(ref, dirs, base))


def list_cards(dirs: Iterable[str | os.PathLike] | None = None) -> list[CardInfo]:
    """Every card of the search path (a shadowed card once: the one a name finds).

    Parameters
    ----------
    dirs : iterable of path-like, optional
        Directories searched first (see :func:`card_dirs`).

    Returns
    -------
    list of CardInfo
        Sorted by kind (in :data:`KINDS` order, other kinds last) then name.

    Examples
    --------
    >>> [c.name for c in list_cards()][:3]
    ['infantry', 'infantry_unit', 'heavy_infantry']
    """
    infos = [_load_path(p).info for p in catalogue(card_dirs(dirs)).values()]
    rank = {k: i for i, k in enumerate(KINDS)}
    return sorted(infos, key=lambda c: (rank.get(c.kind.strip().lower(), len(KINDS)), c.name))


def cards_in(directory: str | os.PathLike, key: str = "cards") -> list[Card]:
    """Every card file directly in ``directory`` (``*.toml``, sorted by name), checked.

    Unlike :func:`list_cards`, no other directory is searched: this is a deck of cards,
    e.g. the attackers of :func:`mathhammer.matrix`.

    Raises
    ------
    InputError
        ``key``: the directory does not exist or holds no ``.toml`` file.
    ScenarioFileError
        A card file with a problem (one line naming the file and the key).

    Examples
    --------
    >>> [c.name for c in cards_in(BUNDLED_DIR)][:3]
    ['colossal', 'heavy_infantry', 'heavy_infantry_unit']
    """
    path = folder_to_read(key, directory)
    files = sorted(path.glob("*.toml"))
    if not files:
        raise InputError(key, os.fspath(directory), "holds no card file (*.toml)")
    return [_load_path(f) for f in files]


def cards_frame(dirs: Iterable[str | os.PathLike] | None = None):
    """:func:`list_cards` as a :class:`pandas.DataFrame`, one row per card."""
    import pandas as pd

    return pd.DataFrame([c.to_dict() for c in list_cards(dirs)])


def attacker_ref(ref: str | Mapping) -> dict:
    """``"name"``, ``"name:action"`` or a table -> an ``[[attackers]]`` entry.

    >>> attacker_ref("infantry:ranged"), attacker_ref("solo")
    ({'card': 'infantry', 'action': 'ranged'}, {'card': 'solo'})
    """
    if isinstance(ref, Mapping):
        return dict(ref)
    if isinstance(ref, str) and ":" in ref:
        name, _, action = ref.rpartition(":")
        word = action.strip().lower()
        # a word after the colon is an action (an unknown one is refused as such); a path
        # with a colon in it (C:\cards\jack.toml) is a card
        if name.strip() and (word in CARD_ACTIONS or (word.replace("_", "").isalpha() and word.isascii())):
            return {"card": name.strip(), "action": word}
    return {"card": ref}
