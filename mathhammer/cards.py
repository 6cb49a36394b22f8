"""The card library: model types described once, used as targets and as attackers.

A card file is TOML describing one model type::

    [card]
    name = "Heavy warjack"            # display name (default: the file name)
    kind = "heavy warjack"            # free text; KINDS lists the usual ones
    description = "Generic heavy warjack: ..."

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

A card is referred to by its name, the file name without ``.toml`` (compared ignoring case,
``-`` and spaces), or by the path of its file (a reference ending in ``.toml`` or holding a
``/``). Names are looked up in the search path of :func:`card_dirs`: the directories given
(``--cards DIR``, the ``cards`` argument of the API), then those of the ``MATHHAMMER_CARDS``
environment variable (separated by :data:`os.pathsep`), then the bundled cards; the first
directory holding a card of that name wins, so a user card shadows a bundled one.

A card's weapons may mix types (a rifle and a hand weapon); a combat action never does, so an
attacker made from a card uses the weapons of one type, its *action*: ``melee``, ``ranged``
or ``arcane``, by default the type of the card's first weapon.

The bundled cards (``mathhammer/data/cards``) are illustrative generic model types with
Mk4-like numbers, not real models; ``mathhammer cards`` lists them.
"""

from __future__ import annotations

import copy
import difflib
import functools
import os
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from .errors import InputError
from .rules import Attacker, Scenario, Target
from .rules.vocabulary import ATTACK_TYPES
from .scenario import (
    ATTACKER_KEYS,
    MISSING,
    SETTINGS_KEYS,
    SIMULATION_KEYS,
    ScenarioFileError,
    _normal,
    _Reader,
    scenario_from_dict,
)

__all__ = [
    "BUNDLED_DIR",
    "CARD_KEYS",
    "ENV_VAR",
    "KINDS",
    "Card",
    "CardInfo",
    "card_dirs",
    "cards_frame",
    "cards_in",
    "find_card",
    "list_cards",
    "load_card",
    "merge_attacker",
    "merge_target",
    "scenario_from_cards",
]

#: Environment variable naming directories of user cards (``os.pathsep``-separated).
ENV_VAR = "MATHHAMMER_CARDS"
#: Directory of the bundled cards.
BUNDLED_DIR = Path(__file__).resolve().parent / "data" / "cards"
#: Tables of a card file, and keys of its ``[card]`` table.
FILE_KEYS = ("card", "target", "attacker")
CARD_KEYS = ("name", "kind", "description")
#: The usual kinds of model, in the order ``mathhammer cards`` lists them (any text is allowed).
KINDS = (
    "infantry", "heavy infantry", "solo", "warcaster", "warlock", "light warjack",
    "heavy warjack", "colossal", "light warbeast", "heavy warbeast",
)
#: Attacker keys whose overrides replace the card's other keys of the group.
_ATTACKER_GROUPS = (("focus", "fury", "force"),)
_TARGET_GROUPS = (("boxes", "grid", "spiral"), ("focus", "fury"))
_MAX_LISTED = 20


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
        return _Reader(self.source).target(data)

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
        return _Reader(self.source).attacker(table, 0, prefix="attacker")


# ---------------------------------------------------------------------------- search path
def _directory(key: str, value: str | os.PathLike) -> Path:
    path = Path(value).expanduser()
    if not path.exists():
        raise InputError(key, os.fspath(value), "no such directory")
    if not path.is_dir():
        raise InputError(key, os.fspath(value), "is not a directory")
    return path


def card_dirs(extra: Iterable[str | os.PathLike] | None = ()) -> list[Path]:
    """The directories searched for cards, first match first.

    Parameters
    ----------
    extra : iterable of path-like
        Directories searched before the others (``--cards DIR``).

    Returns
    -------
    list of Path
        ``extra``, then the directories of ``MATHHAMMER_CARDS`` (empty entries skipped),
        then :data:`BUNDLED_DIR`; each once.

    Raises
    ------
    InputError
        A directory that does not exist: key ``cards`` (``extra``) or ``MATHHAMMER_CARDS``.
    """
    if isinstance(extra, (str, os.PathLike)):
        extra = [extra]
    found = [_directory("cards", d) for d in (extra or ())]
    for entry in os.environ.get(ENV_VAR, "").split(os.pathsep):
        if entry.strip():
            found.append(_directory(ENV_VAR, entry))
    found.append(BUNDLED_DIR)
    out, seen = [], set()
    for d in found:
        key = d.resolve()
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def _is_path(ref: str) -> bool:
    seps = {"/", os.sep} | ({os.altsep} if os.altsep else set())
    return ref.lower().endswith(".toml") or any(s in ref for s in seps)


def _catalogue(dirs: Sequence[Path]) -> dict[str, Path]:
    """Normalised card name -> file, first directory first."""
    out: dict[str, Path] = {}
    for d in dirs:
        for path in sorted(d.glob("*.toml")):
            out.setdefault(_normal(path.stem), path)
    return out


def find_card(ref: str, dirs: Iterable[str | os.PathLike] | None = None,
              base: str | os.PathLike | None = None) -> Path:
    """The file of the card ``ref`` names.

    Parameters
    ----------
    ref : str
        A card name, or the path of a card file (ends in ``.toml`` or holds a ``/``).
    dirs : iterable of path-like, optional
        Directories searched first (see :func:`card_dirs`).
    base : path-like, optional
        Folder a relative path is resolved against (a scenario file's folder); default the
        working directory.

    Raises
    ------
    InputError
        Key ``card``: an unknown name (with the closest names) or a missing file.

    Examples
    --------
    >>> find_card("Heavy Warjack").name
    'heavy_warjack.toml'
    >>> find_card("heavy_warjak")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: card: unknown card; did you mean 'heavy_warjack'? (cards: ...
    """
    if not isinstance(ref, str) or not ref.strip():
        raise InputError("card", ref, "must be a card name or the path of a card file (.toml)")
    ref = ref.strip()
    if _is_path(ref):
        path = Path(ref).expanduser()
        if not path.is_absolute() and base is not None:
            path = Path(base) / path
        if not path.is_file():
            reason = f"no such card file: {path}"
            if Path(ref).name == ref:  # a bare file name: perhaps meant as a card name
                reason += f"; a library card is named without .toml: {Path(ref).stem!r}"
            raise InputError("card", ref, reason)
        return path
    catalogue = _catalogue(card_dirs(dirs))
    path = catalogue.get(_normal(ref))
    if path is None:
        names = sorted(p.stem for p in catalogue.values())
        close = difflib.get_close_matches(_normal(ref), [_normal(n) for n in names], n=1, cutoff=0.5)
        reason = "unknown card"
        if close:
            reason += f"; did you mean {close[0]!r}?"
        if len(names) <= _MAX_LISTED:
            reason += " (cards: " + ", ".join(names) + ")"
        else:
            reason += " (`mathhammer cards` lists them)"
        raise InputError("card", ref, reason)
    return path


# ---------------------------------------------------------------------------- reading a card
def _read_toml(source: str, path: Path) -> dict:
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioFileError(source, "", MISSING,
                                f"not UTF-8 text (bad byte at offset {exc.start})") from None
    except OSError as exc:
        raise ScenarioFileError(source, "", MISSING, f"cannot read card file: {exc.strerror or exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioFileError(source, "", MISSING, f"invalid TOML: {exc}") from None


def _actions(weapons: list) -> list[str]:
    """Weapon types in order of first appearance."""
    out = []
    for w in weapons:
        if isinstance(w, Mapping) and w.get("type") in ATTACK_TYPES and w["type"] not in out:
            out.append(w["type"])
    return out


def _check(path: Path, data: Mapping, bundled: bool) -> Card:
    """Validate a card file's tables; every error names the file and the key."""
    source = str(path)
    reader = _Reader(source)
    for key, value in data.items():
        if key not in FILE_KEYS:
            if key in ("simulation", "settings"):
                reason = "unknown key: a card file holds [card], [target] and [attacker] (a scenario file?)"
            elif key == "attackers":
                reason = "unknown key; did you mean 'attacker'? (a card has one [attacker] table)"
            else:
                reason = "unknown key (allowed: card, target, attacker)"
            raise ScenarioFileError(source, str(key), value, reason)
    meta = reader.table(data.get("card", {}), "card", "[card]")
    reader.check_keys(meta, "card", CARD_KEYS, "card")
    for key in CARD_KEYS:
        if key in meta and not isinstance(meta[key], str):
            raise ScenarioFileError(source, f"card.{key}", meta[key], "must be a string")
    title = meta.get("name", path.stem)

    raw = reader.require(data, "", "target")
    target_table = dict(reader.table(raw, "target", "[target]"))
    if "card" in target_table:
        raise ScenarioFileError(source, "target.card", target_table["card"],
                                "a card cannot refer to another card")
    target_table.setdefault("name", title)
    target = reader.target({"target": target_table})

    attacker_table, actions, points = None, [], ""
    if "attacker" in data:
        att = dict(reader.table(data["attacker"], "attacker", "[attacker]"))
        reader.check_keys(att, "attacker", ATTACKER_KEYS, "attacker")
        weapons = reader.weapon_list(att, "attacker")
        for j, w in enumerate(weapons):
            reader.weapon(w, f"attacker.weapons[{j}]")
        att.setdefault("name", title)
        attacker_table = att
        actions = _actions(weapons)
        attacker = None
        for action in actions or [None]:  # no weapon: the reader says why
            table = _with_action(att, {}, action) if action else att
            attacker = reader.attacker(table, 0, prefix="attacker")
        resource = attacker.resource
        points = f"{resource} {getattr(attacker, resource)}" if resource else ""
    info = CardInfo(
        name=path.stem, title=title, kind=meta.get("kind", ""), description=meta.get("description", ""),
        path=path, bundled=bundled, capacity=target.capacity, boxes=target.boxes,
        defense=target.defense, arm=target.arm, actions=tuple(actions), points=points,
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
    ['infantry', 'heavy_infantry', 'solo']
    """
    infos = [_load_path(p).info for p in _catalogue(card_dirs(dirs)).values()]
    rank = {k: i for i, k in enumerate(KINDS)}
    return sorted(infos, key=lambda c: (rank.get(c.kind.strip().lower(), len(KINDS)), c.name))


def cards_in(directory: str | os.PathLike, key: str = "cards") -> list[Card]:
    """Every card file directly in ``directory`` (``*.toml``, sorted by name), checked.

    Unlike :func:`list_cards`, no other directory is searched: this is a deck of cards,
    e.g. the attackers of :func:`mathhammer.matrix.matrix`.

    Raises
    ------
    InputError
        ``key``: the directory does not exist or holds no ``.toml`` file.
    ScenarioFileError
        A card file with a problem (one line naming the file and the key).

    Examples
    --------
    >>> [c.name for c in cards_in(BUNDLED_DIR)][:3]
    ['colossal', 'heavy_infantry', 'heavy_warbeast']
    """
    path = _directory(key, directory)
    files = sorted(path.glob("*.toml"))
    if not files:
        raise InputError(key, os.fspath(directory), "holds no card file (*.toml)")
    return [_load_path(f) for f in files]


def cards_frame(dirs: Iterable[str | os.PathLike] | None = None):
    """:func:`list_cards` as a :class:`pandas.DataFrame`, one row per card."""
    import pandas as pd

    return pd.DataFrame([c.to_dict() for c in list_cards(dirs)])


# ---------------------------------------------------------------------------- overrides
def _merge(table: Mapping, overrides: Mapping, groups: tuple[tuple[str, ...], ...]) -> dict:
    out = copy.deepcopy(dict(table))
    for group in groups:
        if any(k in overrides for k in group):
            for k in group:
                out.pop(k, None)
    for key, value in overrides.items():
        out[key] = copy.deepcopy(value)
    return out


def merge_target(card: Card, overrides: Mapping) -> dict:
    """The card's ``[target]`` table with ``overrides`` applied (a new dict).

    A key given replaces the card's; giving one of ``boxes``, ``grid``, ``spiral`` replaces
    the card's damage capacity (all three), and one of ``focus``, ``fury`` both. Lists
    (``rules``, ``state``, ...) are replaced, not extended. ``card`` itself is dropped.

    Examples
    --------
    >>> t = merge_target(load_card("heavy_warjack"), {"boxes": 20, "arm": 20})
    >>> t["boxes"], t["arm"], "grid" in t
    (20, 20, False)
    """
    return _merge(card.target_table, {k: v for k, v in overrides.items() if k != "card"},
                  _TARGET_GROUPS)


def merge_attacker(card: Card, overrides: Mapping, action: str | None = None) -> dict:
    """The card's ``[attacker]`` table with ``overrides`` applied, for one action.

    A key given replaces the card's (one of ``focus``, ``fury``, ``force`` replaces all
    three), except ``spend``, merged key by key; ``weapons`` replaces the card's list.
    ``action`` (``melee``, ``ranged`` or ``arcane``) keeps the weapons of that type; without
    it the card's own weapons are those of its first weapon's type (given ``weapons`` are
    kept as they are). When the action is not melee, the card's ``charge`` and
    ``buy_weapon`` are dropped.

    Raises
    ------
    InputError
        Key ``card`` (a target-only card) or ``action``.

    Examples
    --------
    >>> a = merge_attacker(load_card("infantry"), {"name": "Squad"}, "melee")
    >>> a["name"], [w["name"] for w in a["weapons"]]
    ('Squad', ['Hand weapon'])
    """
    if card.attacker_table is None:
        raise InputError("card", card.name, "is a target-only card: it has no [attacker] table")
    return _with_action(card.attacker_table, overrides, action)


def _with_action(table: Mapping, overrides: Mapping, action: str | None) -> dict:
    """:func:`merge_attacker` on a card's ``[attacker]`` table."""
    over = {k: v for k, v in overrides.items() if k not in ("card", "action")}
    out = _merge(table, {k: v for k, v in over.items() if k != "spend"}, _ATTACKER_GROUPS)
    if "spend" in over:
        spend = table.get("spend")
        if isinstance(spend, Mapping) and isinstance(over["spend"], Mapping):
            out["spend"] = {**copy.deepcopy(dict(spend)), **copy.deepcopy(dict(over["spend"]))}
        else:
            out["spend"] = copy.deepcopy(over["spend"])
    weapons = out.get("weapons")
    if not isinstance(weapons, list):
        return out  # the reader says what is wrong with it
    if action is None:
        if "weapons" in over:
            return out
        kinds = _actions(weapons)
        action = kinds[0] if kinds else None
        if action is None:
            return out
    if not isinstance(action, str) or action not in ATTACK_TYPES:
        raise InputError("action", action, "must be one of " + ", ".join(ATTACK_TYPES))
    kept = [w for w in weapons if isinstance(w, Mapping) and w.get("type") == action]
    if not kept:
        have = ", ".join(_actions(weapons)) or "none"
        raise InputError("action", action, f"the attacker has no {action} weapon (its actions: {have})")
    out["weapons"] = kept
    if action != "melee":
        for key in ("charge", "buy_weapon"):
            if key not in over:
                out.pop(key, None)
    return out


# ---------------------------------------------------------------------------- scenarios
def _attacker_ref(ref: str | Mapping) -> dict:
    """``"name"``, ``"name:action"`` or a table -> an ``[[attackers]]`` entry."""
    if isinstance(ref, Mapping):
        return dict(ref)
    if isinstance(ref, str) and ":" in ref:
        name, _, action = ref.rpartition(":")
        if action.strip().lower() in ATTACK_TYPES and name.strip():
            return {"card": name.strip(), "action": action.strip().lower()}
    return {"card": ref}


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
    sim = {k: v for k, v in simulation.items() if k in SIMULATION_KEYS and v is not None}
    settings = {k: v for k, v in simulation.items() if k in SETTINGS_KEYS and v is not None}
    data: dict = {
        "target": dict(target) if isinstance(target, Mapping) else {"card": target},
        "attackers": [_attacker_ref(a) for a in attackers],
    }
    if sim:
        data["simulation"] = sim
    if settings:
        data["settings"] = settings
    return scenario_from_dict(data, source, cards=dirs)
