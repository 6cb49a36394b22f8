"""Where cards are found: the search path (``--cards`` directories, ``MATHHAMMER_CARDS``, the
bundled cards) and a card reference -> its file.

A card is referred to by its name, the file name without ``.toml`` (compared ignoring case,
``-`` and spaces), or by the path of its file (a reference ending in ``.toml`` or holding a
``/``). Names are looked up in the search path of :func:`card_dirs`: the directories given,
then those of the ``MATHHAMMER_CARDS`` environment variable (separated by :data:`os.pathsep`),
then the user's card folder (:func:`user_dir`, ``~/.mathhammer/cards``, when it exists), then
the bundled cards; the first directory holding a card of that name wins, so a user card
shadows a bundled one. ``mathhammer cards new`` writes to :func:`write_dir`.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from .._core.paths import folder_to_read, home_folder, path_of
from ..errors import InputError
from .schema import normal_name

__all__ = ["BUNDLED_DIR", "ENV_VAR", "USER_LABEL", "card_dirs", "card_folders", "catalogue",
           "find_card", "is_card_path", "user_dir", "write_dir"]

#: Environment variable naming directories of user cards (``os.pathsep``-separated).
ENV_VAR = "MATHHAMMER_CARDS"
#: Directory of the bundled cards.
BUNDLED_DIR = Path(__file__).resolve().parent.parent / "data" / "cards"
#: Label of the user's card folder in :func:`card_folders`.
USER_LABEL = "user"
#: Card names listed in an "unknown card" message (more: ``mathhammer cards`` lists them).
_MAX_LISTED = 20


def user_dir() -> Path | None:
    """The user's card folder, ``~/.mathhammer/cards`` (it need not exist); None without a
    home directory.

    It is searched after the ``MATHHAMMER_CARDS`` directories when it exists, and
    ``mathhammer cards new`` writes there when neither ``--cards`` nor ``MATHHAMMER_CARDS``
    names a folder. A folder of the home directory, not of the working directory: a project's
    ``cards/`` folder (or ``examples/cards``, which holds scenarios) is never read unasked.
    """
    home = home_folder()  # None where HOME is empty or relative: never the root or the working folder
    return None if home is None else home / ".mathhammer" / "cards"


def card_folders(extra: Iterable[str | os.PathLike] | None = ()) -> list[tuple[str, Path]]:
    """Every card folder with where it comes from, in search order, each once.

    Returns
    -------
    list of (str, Path)
        ``("--cards", DIR)`` for ``extra``, ``("MATHHAMMER_CARDS", DIR)`` for the
        environment variable's directories, ``("user", DIR)`` for :func:`user_dir` (listed
        even when it does not exist yet), ``("bundled", BUNDLED_DIR)``.

    Raises
    ------
    InputError
        A directory given that does not exist: key ``cards`` (``extra``) or
        ``MATHHAMMER_CARDS``.
    """
    if isinstance(extra, (str, bytes, os.PathLike)):
        extra = [extra]
    elif extra is None:
        extra = ()
    elif isinstance(extra, Mapping) or not isinstance(extra, Iterable):
        raise InputError("cards", extra, "must be a folder of cards, or a list of them")
    found = [("--cards", folder_to_read("cards", d)) for d in extra]
    for entry in os.environ.get(ENV_VAR, "").split(os.pathsep):
        if entry.strip():
            found.append((ENV_VAR, folder_to_read(ENV_VAR, entry)))
    user = user_dir()
    if user is not None:
        found.append((USER_LABEL, user))
    found.append(("bundled", BUNDLED_DIR))
    out, seen = [], set()
    for label, d in found:
        key = d.resolve()
        if key not in seen:
            seen.add(key)
            out.append((label, d))
    return out


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
        then :func:`user_dir` when it is a directory, then :data:`BUNDLED_DIR`; each once.

    Raises
    ------
    InputError
        A directory that does not exist: key ``cards`` (``extra``) or ``MATHHAMMER_CARDS``.
    """
    # the user's folder where it exists (an unreadable one is refused, never skipped)
    return [d if label != USER_LABEL else folder_to_read("~/.mathhammer/cards", d)
            for label, d in card_folders(extra) if label != USER_LABEL or d.is_dir()]


def write_dir(extra: Iterable[str | os.PathLike] | None = ()) -> tuple[str, Path]:
    """The folder ``mathhammer cards new`` writes to, with its :func:`card_folders` label:
    the first ``--cards`` directory, else the first ``MATHHAMMER_CARDS`` one, else
    :func:`user_dir` (created by the writer).

    Raises
    ------
    InputError
        As :func:`card_folders`; key ``cards`` when there is no home directory either.
    """
    folders = card_folders(extra)
    label, path = folders[0]
    if label == "bundled":
        raise InputError("cards", None, "no folder to write a card to: give --cards DIR (no home "
                         "directory for ~/.mathhammer/cards)")
    return label, path


def is_card_path(ref: str) -> bool:
    """Whether a card reference is a path (ends in ``.toml`` or holds a separator), not a name."""
    seps = {"/", os.sep} | ({os.altsep} if os.altsep else set())
    return ref.lower().endswith(".toml") or any(s in ref for s in seps)


def catalogue(dirs: Sequence[Path]) -> dict[str, Path]:
    """Normalised card name -> file of every card in ``dirs``, the first directory winning."""
    out: dict[str, Path] = {}
    for d in dirs:
        for path in sorted(d.glob("*.toml")):
            out.setdefault(normal_name(path.stem), path)
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
    given, ref = ref, ref.strip()  # an error shows the value as written
    if is_card_path(ref):
        path = path_of("card", ref, "a card file")  # not too long, no NUL
        if not path.is_absolute() and base is not None:
            path = Path(base) / path
        if not path.is_file():
            reason = f"no such card file: {path}"
            if Path(ref).name == ref:  # a bare file name: perhaps meant as a card name
                reason += f"; a library card is named without .toml: {Path(ref).stem!r}"
            raise InputError("card", given, reason)
        return path
    known = catalogue(card_dirs(dirs))
    path = known.get(normal_name(ref))
    if path is None:
        names = sorted(p.stem for p in known.values())
        close = difflib.get_close_matches(normal_name(ref), [normal_name(n) for n in names], n=1, cutoff=0.5)
        reason = "unknown card"
        if close:
            reason += f"; did you mean {close[0]!r}?"
        if len(names) <= _MAX_LISTED:
            reason += " (cards: " + ", ".join(names) + ")"
        else:
            reason += " (`mathhammer cards` lists them)"
        raise InputError("card", given, reason)
    return path
