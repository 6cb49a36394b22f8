"""The CSV file a long run appends its points to, so an interrupted run can resume.

Sweeps (:mod:`.sweeps`) and balance matrices (:mod:`.matrices`), through :mod:`.points`, write each
point's rows (``key columns..., metric, value, ci_low, ci_high``) as soon as the point is
finished, in one write, flushed before the next point is written (synced to disk at least
once a second and at the end); the run's identity and the last point written are kept beside
the file in ``<file>.meta.json``. Only the last point of the file can have been cut short,
and the sidecar tells: on resume its rows are dropped and the point computed again.

A file is never overwritten: it must not exist unless the run resumes it, and a file written
by another run (another identity) is refused. Before anything is computed the journal checks
the path (:func:`mathhammer._core.paths.file_to_write`) and that a file can be created in its
folder (a probe file, created exclusively and removed), so a run into a folder it cannot write
stops at once, not after its first point. While it runs it holds a lock on the file
(:class:`~mathhammer._core.locks.WriterLock`): a second run writing the same file stops at
once with one line, before it reads or writes anything. The file and its record are
rewritten through temporary files created exclusively (never a file of the user's).

Resuming an *empty* file (created by hand, or truncated) starts the run afresh, header
first: there is nothing in it to keep. A file that is not UTF-8 CSV text is refused.

A CSV file is the run's output and its own journal: its record stays when the run completes,
so that resuming a finished run recognises it (nothing left to compute) and a file of
another run is refused. A run whose output is written at the end (a Parquet matrix, journal
``<out>.journal.csv``) removes the journal and its record once the output is written
(:meth:`Journal.discard`): only the output stays. An interrupted run keeps both, which is
what ``resume`` reads.
"""

from __future__ import annotations

import csv
import json
import os
import tempfile
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

from .._core.locks import WriterLock
from .._core.paths import TEMP_SUFFIX, file_to_write, replace_with
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
        self.name = name if name is not None else (os.fspath(path) if isinstance(path, (str, os.PathLike))
                                                   else path)
        self.path = file_to_write(key, path, ".csv file")
        self.meta_path = Path(str(self.path) + ".meta.json")
        self.identity = identity
        self.columns = list(columns)
        self.tag, self.checks, self.what, self.key = tag, dict(checks), what, key
        self.rows: dict[tuple, list] = {}  # finished point -> its rows (figures as floats)
        self.last: tuple | None = None
        self._file = None
        self._synced = 0.0
        if self.path.suffix.lower() != ".csv":
            raise InputError(key, self.name, "must be a .csv file")
        file_to_write(key, self.meta_path, "run record")
        self._lock = WriterLock(key, self.path).acquire()  # before anything is read
        exists = [p for p in (self.path, self.meta_path) if p.exists()]
        if exists and not resume:
            self._lock.release()
            raise InputError(key, os.fspath(exists[0]),
                             "exists; resume it (--resume, resume=True) or choose another path")
        try:
            self._check_writable(exists)
        except InputError:
            self._lock.release()
            raise

    def _check_writable(self, exists: list[Path]) -> None:
        """Refuse (before anything is computed) a folder where no file can be created, or an
        existing file that cannot be read and written: create and remove a probe file."""
        folder = self.path.parent
        try:
            fd, probe = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=TEMP_SUFFIX, dir=folder)
            os.close(fd)
            os.remove(probe)
            for p in exists:
                with open(p, "rb+"):  # opened, not written: a resumed file must be writable
                    pass
        except OSError as exc:
            where = os.fspath(folder) if not exists else os.fspath(exists[0])
            raise InputError(self.key, self.name, f"cannot write there ({where}: "
                             f"{exc.strerror or exc}): choose a folder you can write to") from None

    # -------------------------------------------------------------------- reading back
    def stored_identity(self) -> dict | None:
        """The identity of the run being resumed (None when there is none yet)."""
        meta = self._read_meta()
        return None if meta is None else meta["identity"]

    def _empty(self) -> bool:
        return self.path.exists() and self.path.stat().st_size == 0

    def _read_meta(self):
        if not self.meta_path.exists():
            if self.path.exists() and not self._empty():
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
            if self._empty():  # an empty file: a fresh start, header first
                self._rewrite()
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
            try:
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
            except (UnicodeDecodeError, csv.Error) as exc:
                raise InputError("resume", self.name, f"{self.path.name} is not a CSV file of "
                                 f"a {self.what} ({type(exc).__name__}: it is binary or "
                                 "damaged): choose another path") from None
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
        def write(tmp: Path) -> None:
            with open(tmp, "w", newline="", encoding="utf-8") as f:
                w = csv.writer(f, lineterminator="\n")
                w.writerow(self.columns)
                for rows in self.rows.values():
                    w.writerows(rows)
                f.flush()
                os.fsync(f.fileno())

        replace_with(self.path, write)
        self._write_meta()

    def _write_meta(self) -> None:
        last = None
        if self.last is not None:
            last = {"point": list(self.last), "rows": len(self.rows[self.last])}
        meta = {self.tag: 1, "identity": self.identity, "last": last,
                "points_done": len(self.rows)}
        replace_with(self.meta_path, lambda tmp: tmp.write_text(json.dumps(meta, indent=1) + "\n",
                                                                encoding="utf-8"))

    def add(self, point: tuple, rows: list) -> None:
        """Append a finished point's rows (the file and its record are created with the
        first point) and record it as the last one done."""
        if self._file is None:
            if not self.meta_path.exists():
                # the record before the file's first rows: interrupted between the two, the
                # file can still be resumed (a point the record does not name as the last
                # one done is computed again)
                self._write_meta()
            fresh = not self.path.exists() or self._empty()
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

    def discard(self) -> None:
        """The run completed and its output was written elsewhere (a Parquet matrix): close
        and remove the journal and its record, so that only the output stays."""
        self.close()
        for p in (self.meta_path, self.path):
            try:
                p.unlink()
            except FileNotFoundError:
                pass
        self.finish()

    def finish(self) -> None:
        """The run is over: close the file and release its lock."""
        self.close()
        self._lock.release()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc) -> None:
        self.finish()

    def __del__(self):  # an interrupted run: the lock goes with the journal
        lock = getattr(self, "_lock", None)
        if lock is not None:
            lock.release()

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
