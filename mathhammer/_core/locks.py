"""A lock on a file a run writes, so that a second run writing the same file stops at once.

The lock is the operating system's (``flock``) on a lock file of its own, kept in the
system's temporary folder and named by a hash of the written file's absolute path: nothing is
created beside the user's files, and the lock goes with the process that holds it (a run
killed outright leaves no stale lock behind). Where ``flock`` does not exist (Windows), runs
are not locked.

Examples
--------
>>> import tempfile, os
>>> target = os.path.join(tempfile.mkdtemp(), "out.csv")
>>> with WriterLock("out", target):
...     WriterLock("out", target).acquire()
Traceback (most recent call last):
...
mathhammer.errors.InputError: out: another run is writing this file now: wait for it to end, or choose another path (got '...out.csv')
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from ..errors import InputError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None

__all__ = ["WriterLock"]


class WriterLock:
    """The lock on writing ``path`` (key ``key`` in the error a second writer gets)."""

    def __init__(self, key: str, path: str | os.PathLike):
        self.key = key
        self.path = os.fspath(path)
        self._fd: int | None = None

    def _lock_file(self) -> Path:
        name = hashlib.sha256(os.path.abspath(self.path).encode("utf-8", "surrogateescape")).hexdigest()[:32]
        folder = Path(tempfile.gettempdir()) / f"mathhammer-locks-{os.getuid() if hasattr(os, 'getuid') else 0}"
        folder.mkdir(mode=0o700, exist_ok=True)
        return folder / f"{name}.lock"

    def acquire(self) -> WriterLock:
        """Take the lock, or raise :class:`InputError` at once if another process holds it."""
        if fcntl is None or self._fd is not None:
            return self
        fd = os.open(self._lock_file(), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise InputError(self.key, self.path, "another run is writing this file now: wait for it "
                             "to end, or choose another path") from None
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the lock
            self._fd = None

    def __enter__(self) -> WriterLock:
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()
