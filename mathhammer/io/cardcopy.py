"""``mathhammer cards new NAME --from CARD``: an editable copy of a card in the user's folder.

The copy is the source file's text (its comments and layout kept, so that it reads as the
bundled cards do), with a comment saying where it came from and its display name (``[card]
name``) made from NAME. It is checked as a card before it is put in place, and it never
replaces a file unless asked (``overwrite``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from pathlib import Path

from .._core.paths import read_file, replace_with
from ..errors import InputError
from .cardpath import write_dir
from .cards import load_card
from .schema import normal_name

__all__ = ["NAME_PATTERN", "copy_card", "display_name"]

#: What a new card's name may be: its file is NAME.toml (letters, digits, ``_`` and ``-``).
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
_HEADER = re.compile(r"^\s*\[\s*card\s*\]\s*(#.*)?$")
_TABLE = re.compile(r"^\s*\[")
_NAME_LINE = re.compile(r"""^(\s*name\s*=\s*)("(?:[^"\\]|\\.)*"|'[^']*')(.*)$""")


def display_name(name: str) -> str:
    """The display name of a new card named ``name``: ``my_jack`` -> ``"My jack"``."""
    text = name.replace("_", " ").replace("-", " ").strip()
    return text[:1].upper() + text[1:]


def _renamed(text: str, title: str) -> str:
    """``text`` with its ``[card]`` table's ``name`` set to ``title`` (added under the
    ``[card]`` header when absent); unchanged when the file has no ``[card]`` header line."""
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if _HEADER.match(line)), None)
    if start is None:
        return text
    value = json.dumps(title, ensure_ascii=False)  # a TOML basic string
    for i in range(start + 1, len(lines)):
        if _TABLE.match(lines[i]):
            break
        m = _NAME_LINE.match(lines[i].rstrip("\r\n"))
        if m:
            end = lines[i][len(lines[i].rstrip("\r\n")):]
            lines[i] = f"{m.group(1)}{value}{m.group(3)}{end}"
            return "".join(lines)
    lines.insert(start + 1, f"name = {value}\n")
    return "".join(lines)


def copy_card(name: str, source: str | os.PathLike, dirs: Iterable[str | os.PathLike] | None = (),
              overwrite: bool = False) -> Path:
    """Write a copy of the card ``source`` as ``NAME.toml`` in the user's card folder.

    Parameters
    ----------
    name : str
        The new card's name (its file name without ``.toml``): letters, digits, ``_``, ``-``.
    source : str or path-like
        The card copied: a name or a card file (see :func:`~mathhammer.io.cardpath.find_card`).
    dirs : iterable of path-like, optional
        ``--cards`` directories: the first is written to (see
        :func:`~mathhammer.io.cardpath.write_dir`), and all are searched for ``source``.
    overwrite : bool
        Replace a card file of that name already in the folder (else it is an error).

    Returns
    -------
    Path
        The file written. It loads back as ``name`` and, but for its display name, gives the
        same target and attacker as ``source``.

    Raises
    ------
    InputError
        ``NAME``: a name that is not a file name, or a card of that name already in the folder
        (without ``overwrite``); ``card``: an unknown ``source``; ``cards``: a folder that
        cannot be written.
    """
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise InputError("NAME", name, "a card name is 1 to 64 letters, digits, '_' or '-', starting with a "
                         "letter or digit (its file is NAME.toml)")
    card = load_card(source, dirs)
    _, folder = write_dir(dirs)
    clash = sorted(p for p in folder.glob("*.toml") if normal_name(p.stem) == normal_name(name)) \
        if folder.is_dir() else []
    path = clash[0] if clash else folder / f"{name}.toml"
    if clash and path.resolve() == card.info.path.resolve():
        raise InputError("NAME", name, f"is the card copied from ({path}): choose another name")
    if clash and not overwrite:
        raise InputError("NAME", name, f"{path} already exists: pass --overwrite to replace it")
    text = read_file("--from", card.info.path, "card file").decode("utf-8-sig")
    body = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("# Bundled card"))
    header = (f"# {name}: copied from the card {card.name!r} ({card.info.path}) by `mathhammer cards new`.\n"
              "# Edit it to match your model; the keys: examples/cards/README.md (\"Your own cards\").\n")
    content = header + _renamed(body, display_name(name))

    def write(tmp: Path) -> None:
        tmp.write_text(content, encoding="utf-8")
        load_card(str(tmp))  # the copy is a card before it is put in place

    try:
        folder.mkdir(parents=True, exist_ok=True)
        replace_with(path, write)  # through a temporary file of its own: never a user's file
    except OSError as exc:
        raise InputError("cards", str(folder), f"cannot write a card there: {exc.strerror or exc}") from None
    return path
