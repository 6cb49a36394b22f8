"""Paths a user names: every file or folder read or written is checked here, before any work.

One place, so that every flag and key that names a file says the same thing about the same
problem: a path that is empty (``--cards ""`` would read the working folder), holds a NUL
character, is too long for the file system, does not exist, is a folder where a file is
wanted (or the other way round), cannot be read or written, or is a device, a named pipe or
a socket (reading ``/dev/zero`` as a scenario never ends, a named pipe blocks until someone
writes to it). A file read is also bounded in size. Each problem is one
:class:`~mathhammer.errors.InputError` naming the key and the path.

Examples
--------
>>> read_file("scenario", "")
Traceback (most recent call last):
...
mathhammer.errors.InputError: scenario: is empty: give the path of a file (got '')
>>> read_file("scenario", "/dev/null")
Traceback (most recent call last):
...
mathhammer.errors.InputError: scenario: is a device, a pipe or a socket, not a file (got '/dev/null')
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from ..errors import InputError

__all__ = ["MAX_READ_BYTES", "TEMP_SUFFIX", "path_of", "read_file", "folder_to_read", "file_to_write",
           "folder_to_write", "home_folder", "replace_with", "is_folder"]

#: The largest file read (a scenario, a card, a sweep's journal record): far above any real one.
MAX_READ_BYTES = 64 * 2**20
#: The suffix of the temporary files :func:`replace_with` makes (created exclusively).
TEMP_SUFFIX = ".mathhammer-tmp"


def path_of(key: str, value: object, what: str = "a file") -> Path:
    """``value`` (a str or path-like) as a :class:`Path`, ``~`` expanded; refused when it is not
    a path, is empty, holds a NUL character or is too long for the file system."""
    if isinstance(value, bytes):
        try:
            value = os.fsdecode(value)
        except UnicodeDecodeError:
            raise InputError(key, value, "is not a path this system can read") from None
    if not isinstance(value, (str, os.PathLike)):
        raise InputError(key, value, f"must be a path to {what}")
    text = os.fspath(value)
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    if not text.strip():
        raise InputError(key, text, f"is empty: give the path of {what}")
    if "\0" in text:
        raise InputError(key, text, "holds a NUL character: no path can")
    path = Path(text).expanduser()
    longest = max((len(os.fsencode(part)) for part in path.parts), default=0)
    if longest > 255 or len(os.fsencode(str(path))) > 4095:
        raise InputError(key, text, "is too long for the file system (a name has at most 255 bytes, "
                         "a path 4,095)")
    return path


def _typed(value: object) -> str:
    """A path :func:`path_of` accepted, as the user typed it (``~`` not expanded), for messages."""
    return os.fsdecode(os.fspath(value))


def _stat(key: str, shown: str, path: Path, what: str):
    try:
        return path.stat()
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        raise InputError(key, shown, f"is not {what}: a part of the path is a file, not a folder") from None
    except PermissionError:
        raise InputError(key, shown, "cannot be read: permission denied") from None
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            raise InputError(key, shown, "is too long for the file system") from None
        raise InputError(key, shown, f"cannot be read: {exc.strerror or exc}") from None


def is_folder(value: object) -> bool:
    """Whether ``value`` names an existing folder; False for anything that cannot (not a path,
    empty, a NUL character, too long for the file system), where ``Path.is_dir`` would raise.
    For deciding what a value is (a folder of cards, or card names), not for checking it."""
    try:
        return path_of("path", value, "a folder").is_dir()
    except (InputError, OSError):
        return False


def read_file(key: str, value: object, what: str = "file", most: int = MAX_READ_BYTES) -> bytes:
    """The bytes of the regular file ``value`` names, at most ``most`` of them."""
    path = path_of(key, value, f"a {what}")
    shown = _typed(value)
    st = _stat(key, shown, path, f"a {what}")
    if st is None:
        raise InputError(key, shown, "no such file")
    if stat.S_ISDIR(st.st_mode):
        raise InputError(key, shown, f"is a directory, not a {what}")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(key, shown, f"is a device, a pipe or a socket, not a {what}")
    if st.st_size > most:
        raise InputError(key, shown, f"is {st.st_size:,} bytes: a {what} is at most {most:,}")
    try:
        with open(path, "rb") as f:
            data = f.read(most + 1)
    except PermissionError:
        raise InputError(key, shown, "cannot be read: permission denied") from None
    except OSError as exc:
        raise InputError(key, shown, f"cannot be read: {exc.strerror or exc}") from None
    if len(data) > most:
        raise InputError(key, shown, f"is over {most:,} bytes: a {what} is at most that")
    return data


def folder_to_read(key: str, value: object) -> Path:
    """The folder ``value`` names, checked to exist and be readable (its files listed)."""
    path = path_of(key, value, "a folder")
    shown = _typed(value)
    st = _stat(key, shown, path, "a folder")
    if st is None:
        raise InputError(key, shown, "no such directory")
    if not stat.S_ISDIR(st.st_mode):
        raise InputError(key, shown, "is not a directory")
    try:
        with os.scandir(path):
            pass
    except OSError as exc:
        raise InputError(key, shown, f"cannot be read: {exc.strerror or exc}") from None
    return path


def file_to_write(key: str, value: object, what: str = "file") -> Path:
    """The file ``value`` names, to be written: its folder exists and can be written to, and
    the path, if it exists, is a regular file (not a folder, a device or a pipe). Whether an
    existing file may be replaced is the caller's to say."""
    path = path_of(key, value, f"a {what}")
    shown = _typed(value)
    folder = path.parent
    st = _stat(key, shown, folder, "a folder")
    if st is None or not stat.S_ISDIR(st.st_mode):
        raise InputError(key, shown, "its folder does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(key, shown, "cannot write in its folder: permission denied")
    st = _stat(key, shown, path, f"a {what}")
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise InputError(key, shown, f"is a directory: give the path of a {what}")
        if not stat.S_ISREG(st.st_mode):
            raise InputError(key, shown, f"is a device, a pipe or a socket, not a {what}")
    return path


def folder_to_write(key: str, value: object) -> Path:
    """The folder ``value`` names, to write files in: it exists, or it will be created under
    the nearest folder above it that exists; either can be written to."""
    path = path_of(key, value, "a folder")
    shown = _typed(value)
    target = path
    while True:
        try:
            st = target.stat()
        except FileNotFoundError:
            if target.parent == target:
                raise InputError(key, shown, "no such directory") from None
            target = target.parent
            continue
        except NotADirectoryError:
            raise InputError(key, shown, "cannot create the directory: a part of the path is a file") from None
        except OSError as exc:
            raise InputError(key, shown, f"cannot be read: {exc.strerror or exc}") from None
        break
    if not stat.S_ISDIR(st.st_mode):
        reason = "is not a directory" if target == path else "cannot create the directory: a part of the path is a file"
        raise InputError(key, shown, reason)
    if not os.access(target, os.W_OK | os.X_OK):
        raise InputError(key, shown, "cannot be written to: permission denied")
    return path


def home_folder() -> Path | None:
    """The user's home folder, or None where there is none to be trusted (``HOME`` empty or
    relative: ``~`` would then be the working folder, or the file system's root)."""
    try:
        home = Path.home()
    except (RuntimeError, KeyError):
        return None
    return home if home.is_absolute() and str(home) != home.anchor else None


def replace_with(path: Path, write) -> None:
    """Write the file ``path`` whole or not at all: ``write(tmp)`` fills a temporary file made
    beside it, which then replaces ``path``. The temporary file is created exclusively under a
    name no other file has (``.NAME.XXXXXX.mathhammer-tmp`` and the file's own suffix, which some
    writers read), so no file of the user's is ever written over on the way, and it is
    removed if anything fails."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX + path.suffix)
    os.close(fd)
    try:
        write(Path(tmp))
        os.replace(tmp, path)
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)
