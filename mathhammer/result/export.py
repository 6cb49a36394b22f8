"""CSV and JSON files of a :class:`~mathhammer.result.Result`.

Files are never overwritten unless asked (``overwrite=True``; ``--force`` on the command
line): a clash raises :class:`~mathhammer.errors.InputError` before anything is written.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from .._core.paths import file_to_write, folder_to_write
from .._core.validate import check_bool
from ..errors import InputError
from .frames import tables

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from .core import Result

__all__ = ["write_csv", "write_json", "write_frames", "check_csv_target", "csv_paths",
           "to_json_text"]


def _clash(paths: list[Path], key: str, where: Path, hint: str) -> None:
    """Raise :class:`InputError` when any of ``paths`` exists (nothing is written then)."""
    existing = [p for p in paths if p.exists() or p.is_symlink()]
    if existing:
        names = ", ".join(p.name for p in existing)
        verb = "exists" if len(existing) == 1 else "exist"
        raise InputError(key, str(where), f"{names} already {verb}; {hint}")


def csv_paths(directory: str | os.PathLike, names) -> list[Path]:
    """The CSV file of each table name in ``directory``."""
    return [Path(directory) / f"{name}.csv" for name in names]


def check_csv_target(directory: str | os.PathLike, names, *, overwrite: bool = False,
                     key: str = "directory", hint: str = "pass overwrite=True to replace") -> Path:
    """Check that the CSV files of ``names`` can be written into ``directory``; return it.

    Raises :class:`InputError` (naming ``key`` and the directory) when ``directory`` is not a
    directory, or when one of the files exists and ``overwrite`` is false.
    """
    check_bool("overwrite", overwrite)  # "no" is a true value: never read it as a yes
    d = folder_to_write(key, directory)  # a path (not empty, no NUL, not too long), a folder to write in
    if not overwrite:
        _clash(csv_paths(d, names), key, d, hint)
    return d


def write_frames(frames: dict[str, pd.DataFrame], directory: str | os.PathLike, *,
                 overwrite: bool = False, key: str = "directory",
                 hint: str = "pass overwrite=True to replace") -> list[Path]:
    """Write each frame to ``directory/NAME.csv`` (created if missing); return the paths.

    Every clash is checked before the first file is written.
    """
    d = check_csv_target(directory, list(frames), overwrite=overwrite, key=key, hint=hint)
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(key, str(d), f"cannot create the directory ({exc.strerror or exc})") from None
    paths = csv_paths(d, frames)
    for path, frame in zip(paths, frames.values()):
        try:
            frame.to_csv(path, index=False, encoding="utf-8")
        except OSError as exc:
            raise InputError(key, str(path), f"cannot write ({exc.strerror or exc})") from None
    return paths


def write_csv(result: Result, directory: str | os.PathLike, *,
              overwrite: bool = False) -> list[Path]:
    """Write every table of :func:`tables` as ``directory/NAME.csv`` (``summary.csv``,
    ``damage.csv``, ``attacks.csv``, and where they apply ``cripple.csv``,
    ``cripple_after.csv``, ``by_turn.csv``, ``effects.csv``, ``boxes.csv``).

    The directory is created if missing; other files in it are left alone. Returns the paths
    written, in table order.

    Raises
    ------
    InputError
        When ``directory`` is a file, or one of the CSV files exists and ``overwrite`` is
        false (nothing is written then).
    """
    return write_frames(tables(result), directory, overwrite=overwrite)


def to_json_text(result: Result) -> str:
    """``result.to_dict()`` as one line of JSON (what ``mathhammer run --json`` prints)."""
    return json.dumps(result.to_dict())


def write_json(result: Result, path: str | os.PathLike, *, overwrite: bool = False) -> Path:
    """Write ``result.to_dict()`` as JSON to ``path``; return the path.

    Raises
    ------
    InputError
        When ``path`` is a directory, or exists and ``overwrite`` is false.
    """
    check_bool("overwrite", overwrite)
    p = file_to_write("path", path, "JSON file")  # a path, its folder writable, not a folder itself
    if not overwrite:
        _clash([p], "path", p, "pass overwrite=True to replace")
    try:
        p.write_text(to_json_text(result) + "\n", encoding="utf-8")
    except OSError as exc:
        raise InputError("path", str(p), f"cannot write ({exc.strerror or exc})") from None
    return p
