"""Files on disk, read and written safely: the one rule that only regular files are read or
replaced, and atomic writes with a backup. Every file of the game goes through here (saves
and their backups, run and challenge files, the options, the best scores).

Only regular files are read or replaced (:func:`read_file`, :func:`check_replaceable`): a
FIFO, a device, a folder or a symbolic link where a save, a backup, an import, a run file or a
lock should be is refused in one line (:class:`NotRegularFile`) before it is opened for
reading, so no file can make the game wait.

A file is written (:func:`write_atomic`) to a temporary file in the same directory
(``.<name>.<pid>.<random>.tmp``), flushed and fsynced; the old file becomes the backup if one
is asked for (a hard link, so the main file never disappears), the temporary file replaces the
main file with ``os.replace``, and the directory is fsynced. A writer killed at any moment
leaves the last complete file in place.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path

from saves.errors import SaveError
from saves.header import KIND

#: The largest file read by default (the largest save).
MAX_FILE = KIND.max_file


class NotRegularFile(OSError):
    """A path that is a FIFO, a device, a folder or a symbolic link where a save, a run file
    or a lock must be a plain file: refused before it is opened for reading (a FIFO would
    block the game) or replaced (a device or a link would be clobbered). An ``OSError`` with
    the path as its ``filename``, so every caller that reports a file it cannot read or write
    in one line reports this one too."""

    def __init__(self, path: str | os.PathLike[str], kind: str) -> None:
        super().__init__(errno.EINVAL, f"{kind}, not a regular file", str(path))
        self.kind = kind


def kind_of(mode: int) -> str:
    """What a file of ``mode`` is, in words (for a refusal)."""
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a plain file"


def check_replaceable(path: Path) -> None:
    """Refuse (NotRegularFile) to replace ``path`` unless it is missing or a regular file:
    a write must never swap a device, a FIFO, a folder or a link for a file of ours."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(st.st_mode):
        raise NotRegularFile(path, kind_of(st.st_mode))


def replaceable(path: Path) -> bool:
    """Whether ``path`` is missing or a regular file (:func:`check_replaceable`'s test)."""
    try:
        check_replaceable(path)
    except NotRegularFile:
        return False
    return True


#: Flags that keep an open from following a link or waiting on a FIFO, where the OS has them.
SAFE_OPEN = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
SAFE_OPEN |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def read_file(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """The bytes of the regular file ``path``: at most ``limit`` of them (MAX_FILE by default:
    a bigger file is refused with SaveError before it is read). Anything but a regular file
    (a FIFO, a device, a folder, a symbolic link) is refused with :class:`NotRegularFile`
    before it is opened for reading, so that no file can make the game wait or read forever;
    the check is made again on the opened file, so a swap in between is refused too."""
    limit = MAX_FILE if limit is None else limit
    before = os.lstat(path)
    if not stat.S_ISREG(before.st_mode):
        raise NotRegularFile(path, kind_of(before.st_mode))
    try:
        fd = os.open(path, os.O_RDONLY | SAFE_OPEN)
    except OSError as err:
        if err.errno == errno.ELOOP:  # O_NOFOLLOW: it became a link
            raise NotRegularFile(path, "a symbolic link") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or (st.st_dev, st.st_ino) != (
            before.st_dev,
            before.st_ino,
        ):
            raise NotRegularFile(path, kind_of(st.st_mode))
        if st.st_size > limit:
            raise SaveError(f"the file is larger than any save ({limit} bytes)")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:  # it grew while being read
        raise SaveError(f"the file is larger than any save ({limit} bytes)")
    return b"".join(chunks)


def fsync_dir(path: Path) -> None:
    """Make the directory's entries (a rename) durable; a no-op where directories cannot be
    opened (Windows)."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _temp_name(target: Path) -> Path:
    return target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")


def write_atomic(target: Path, data: bytes, *, backup: Path | None = None) -> None:
    """Put ``data`` at ``target`` so that a crash at any moment leaves either the old file or
    the new one, complete. With ``backup``, the old file (if any) becomes ``backup``."""
    check_replaceable(target)
    tmp = _temp_name(target)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(tmp, flags, 0o644)
    except OSError as err:  # name the file asked for, not the temporary one
        raise OSError(err.errno, err.strerror, str(target)) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if backup is not None and target.exists():
            _keep_as_backup(target, backup)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(target.parent)


def _keep_as_backup(target: Path, backup: Path) -> None:
    """``backup`` becomes the current ``target`` (which stays in place): a hard link renamed
    over the old backup, or where links are not allowed a copy written the same safe way."""
    link = _temp_name(backup)
    try:
        os.link(target, link)
    except OSError:
        write_atomic(backup, target.read_bytes())
        return
    try:
        os.replace(link, backup)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(link)
        raise
