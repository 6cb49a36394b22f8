"""The CSV file a long run appends its points to, so an interrupted run can resume.

Sweeps (:mod:`.sweeps`) and balance matrices (:mod:`.matrices`), through :mod:`.points`, write each
point's rows (``key columns..., metric, value, ci_low, ci_high``) as soon as the point is
finished, in one write, flushed before the next point is written (synced to disk at least
once a second and at the end); the run's identity and the last point written are kept beside
the file in ``<file>.meta.json``. Only the last point of the file can have been cut short,
and the sidecar tells: on resume its rows are dropped and the point computed again.

A file is never overwritten: it must not exist unless the run resumes it, and a file written
by another run (another identity) is refused.
"""

from __future__ import annotations

import csv
import json
import os
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..errors import InputError
from ..result.metrics import SUMMARY_COLUMNS

__all__ = ["Journal"]

_SYNC_SECONDS = 1.0


class Journal:
    """A run's CSV file of finished points and its ``.meta.json`` sidecar.

    Parameters
    ----------
    path : path-like
        The ``.csv`` file the rows go to.
    identity : dict
        JSON-ready description of the run; a resumed file must hold the same values for
        every field of ``checks``.
    columns : list of str
        The header: key columns then :data:`SUMMARY_COLUMNS`.
    resume : bool
        Whether an existing file may be continued.
    tag : str
        The sidecar's format key (``"mathhammer_sweep"``, ``"mathhammer_matrix"``).
    checks : mapping of str to str or None
        Identity fields compared on resume, each with the reason printed when it differs
        (None: "FIELD x there, y now").
    name : str, optional
        How errors name the file (default: ``path``); ``key`` the argument they name.
    """

    def __init__(self, path, identity: dict, columns: list[str], resume: bool, *, tag: str,
                 checks: Mapping[str, str | None], what: str = "run", name: str | None = None,
                 key: str = "out"):
        self.path = Path(os.fspath(path))
        self.meta_path = Path(str(self.path) + ".meta.json")
        self.identity = identity
        self.columns = list(columns)
        self.tag, self.checks, self.what, self.key = tag, dict(checks), what, key
        self.rows: dict[tuple, list] = {}  # finished point -> its rows (figures as floats)
        self.last: tuple | None = None
        self.name = name if name is not None else os.fspath(path)
        self._file = None
        self._synced = 0.0
        if self.path.suffix.lower() != ".csv":
            raise InputError(key, self.name, "must be a .csv file")
        if not self.path.parent.is_dir():
            raise InputError(key, self.name, "its folder does not exist")
        exists = [p for p in (self.path, self.meta_path) if p.exists()]
        if exists and not resume:
            raise InputError(key, os.fspath(exists[0]),
                             "exists; resume it (--resume, resume=True) or choose another path")

    # -------------------------------------------------------------------- reading back
    def stored_identity(self) -> dict | None:
        """The identity of the run being resumed (None when there is none yet)."""
        meta = self._read_meta()
        return None if meta is None else meta["identity"]

    def _read_meta(self):
        if not self.meta_path.exists():
            if self.path.exists():
                raise InputError(self.key, self.name, f"has no {self.what} record "
                                 f"{self.meta_path.name} beside it, so it cannot be resumed: "
                                 "choose another path")
            return None
        try:
            meta = json.loads(self.meta_path.read_text(encoding="utf-8"))
            if meta.get(self.tag) != 1 or not isinstance(meta["identity"], dict):
                raise ValueError
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            raise InputError(self.key, os.fspath(self.meta_path),
                             f"is not a {self.what} record mathhammer can read: choose another "
                             "path") from None
        return meta

    def load(self, points: Iterable[tuple]) -> None:
        """Read the finished points back (resume); refuse another run's file; drop the rows
        of a point cut short (rewriting the file without them)."""
        meta = self._read_meta()
        if meta is None:
            return
        old = meta["identity"]
        for field, reason in self.checks.items():
            if old.get(field) != self.identity.get(field):
                what = reason or f"{field} {old.get(field)!r} there, {self.identity.get(field)!r} now"
                raise InputError("resume", self.name, f"the file holds another {self.what} "
                                 f"({what}): choose another path, or give the same arguments "
                                 "to resume it")
        last = meta.get("last")
        last = (tuple(last["point"]), int(last["rows"])) if isinstance(last, dict) else None
        expected = set(points)
        n_key = len(self.columns) - len(SUMMARY_COLUMNS)
        groups: list[list] = []  # [key, rows, broken]: consecutive rows of one point
        clean = True
        if self.path.exists():
            with open(self.path, newline="", encoding="utf-8") as f:
                for i, row in enumerate(csv.reader(f)):
                    if i == 0:
                        clean = row == self.columns
                        if clean:
                            continue
                    parsed = _parse_row(row, len(self.columns))
                    key = tuple(row[:n_key])
                    if not groups or groups[-1][0] != key:
                        groups.append([key, [], False])
                    if parsed is None:
                        groups[-1][2] = True
                    else:
                        groups[-1][1].append(parsed)
        else:
            clean = False
        for i, (key, rows, broken) in enumerate(groups):
            metrics = [r[n_key] for r in rows]
            ok = (not broken and key in expected and key not in self.rows and rows
                  and len(set(metrics)) == len(rows)
                  and (i < len(groups) - 1 or last == (key, len(rows))))
            if ok:
                self.rows[key] = rows
            else:
                clean = False
        self.last = next(reversed(self.rows), None)
        if not clean:
            self._rewrite()

    # -------------------------------------------------------------------- writing
    def _rewrite(self) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open(tmp, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(self.columns)
            for rows in self.rows.values():
                w.writerows(rows)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        self._write_meta()

    def _write_meta(self) -> None:
        last = None
        if self.last is not None:
            last = {"point": list(self.last), "rows": len(self.rows[self.last])}
        meta = {self.tag: 1, "identity": self.identity, "last": last,
                "points_done": len(self.rows)}
        tmp = self.meta_path.with_name(self.meta_path.name + ".tmp")
        tmp.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, self.meta_path)

    def add(self, point: tuple, rows: list) -> None:
        """Append a finished point's rows (the file and its record are created with the
        first point) and record it as the last one done."""
        if self._file is None:
            fresh = not self.path.exists()
            self._file = open(self.path, "a", newline="", encoding="utf-8")  # noqa: SIM115
            self._writer = csv.writer(self._file, lineterminator="\n")
            if fresh:
                self._writer.writerow(self.columns)
        self._writer.writerows(rows)
        self._file.flush()
        now = time.monotonic()
        if now - self._synced >= _SYNC_SECONDS:
            os.fsync(self._file.fileno())
            self._synced = now
        self.rows[point] = rows
        self.last = point
        self._write_meta()

    def reorder(self, keys: list[tuple]) -> None:
        """Rewrite the file with the points in the order of ``keys`` (all of them finished):
        a run whose points finished in any order ends with the same file."""
        if list(self.rows) != list(keys):
            self.close()
            self.rows = {k: self.rows[k] for k in keys}
            self.last = keys[-1] if keys else None
            self._rewrite()

    def close(self) -> None:
        """Sync and close the file (rows of every point added are on disk after this)."""
        if self._file is not None:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()
            self._file = None


def _parse_row(row: list, n: int):
    """A CSV row with its figures as floats, or None when it was cut short."""
    if len(row) != n:
        return None
    try:
        return row[:-3] + [float(x) for x in row[-3:]]
    except ValueError:
        return None
