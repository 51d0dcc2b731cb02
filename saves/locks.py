"""The lock of a world: held while a game has it open.

``<slug>.lock`` is a file the game keeps open and locked by the OS (``fcntl.flock``;
``msvcrt.locking`` on Windows), so the lock ends with its process however that ends (kill -9
too) and a dead game's lock is free with no take-over. Only the OS lock counts: the holder's
pid, host and start time are written in the file after it is locked, for the refusal message
alone. A release removes the file while still holding it; a game that locked a file just
removed sees that the path no longer names it and tries again (so the lock is never split
between two files). Another open of the file, even by this process, is another holder.

The shared files that any game may write (the best puzzle scores, the hall of runs, the
options) are written under :func:`shared_lock`: the same OS lock, on ``.<file>.lock`` beside
the file, held for one read-merge-write and waited for with a deadline, so two games never
lose each other's records.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import os
import socket
import stat
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from saves.errors import WorldLocked
from saves.files import SAFE_OPEN, NotRegularFile, kind_of
from saves.text import printable
from saves.world import now_iso, parse_date

#: The most of a lock file read for the refusal message (the holder's pid, host and time).
MAX_HOLDER = 256
#: Where Windows locks a lock file: one byte past its text, so the text stays readable.
_WIN_LOCK_AT = 1 << 20
#: Tries at a lock whose file is replaced under us (a holder releasing as we open it).
LOCK_ATTEMPTS = 50


def _try_lock(fd: int) -> bool:
    """Take the OS lock of the open lock file ``fd`` without waiting; False if another open
    file holds it (another game, or another Store of this process)."""
    if sys.platform == "win32":
        import msvcrt  # Windows only

        os.lseek(fd, _WIN_LOCK_AT, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl  # POSIX only (the import above is its Windows twin)

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as err:
        if err.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return False
        raise
    return True


def _same_file(fd: int, path: Path) -> bool:
    """Whether ``path`` still names the file open as ``fd`` (a holder releasing a lock
    unlinks its file: a lock taken on the unlinked file is no lock at all)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (mine.st_dev, mine.st_ino)


def _holder(fd: int) -> tuple[int | None, str | None, str | None] | None:
    """(pid, host, since) written in the lock file ``fd`` by its holder, None where missing
    or not well-formed: only ever shown in a message, never trusted. None for an empty file
    (a holder that has the lock but has not written yet)."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, MAX_HOLDER).decode("ascii", "replace")
    except OSError:
        return (None, None, None)
    if not text:
        return None
    lines = [*text.splitlines(), "", "", ""][:3]
    digits = lines[0].strip()
    pid = int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= 10 else None
    host = printable(lines[1].strip()[:64]) or None
    try:
        when = parse_date(lines[2].strip()).astimezone(dt.UTC)
        since: str | None = when.strftime("%Y-%m-%d %H:%M UTC")
    except (ValueError, OverflowError):
        since = None
    return pid, host, since


def _locked_message(name: str, path: Path, fd: int) -> str:
    """The refusal of a lock held by another open file: who holds it, and where the lock is."""
    holder = _holder(fd)
    where = printable(str(path))
    if holder is None:
        return f"world {name!r} is being opened by another game; its lock is {where}"
    pid, host, since = holder
    if pid == os.getpid() and host == printable(socket.gethostname().strip()[:64]):
        return f"world {name!r} is already open in this game; its lock is {where}"
    who = ", ".join(
        part
        for part in (
            f"process {pid}" + (f" on {host}" if host else "") if pid is not None else "",
            f"since {since}" if since else "",
        )
        if part
    )
    return (
        f"world {name!r} is open in another game ({who or 'holder unknown'}); its lock is {where}"
    )


def _drop(fd: int, path: Path) -> None:
    """Let go of the lock held as ``fd``, removing its file while it is still ours (so no
    lock file outlives its game; an opener of the old file sees it gone and tries again)."""
    if sys.platform == "win32":  # an open file cannot be removed there: close first
        os.close(fd)
        with contextlib.suppress(OSError):  # another game opened it meanwhile: theirs now
            os.unlink(path)
        return
    try:
        if _same_file(fd, path):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
    finally:
        os.close(fd)


def _acquire(path: Path, name: str) -> int:
    """The open lock file of world ``name``, locked by the OS and holding our pid, host and
    start time; WorldLocked if another open file holds it. The OS drops the lock when its
    process ends in any way (kill -9 included), so a dead game's lock is free by construction
    and what its file says is never trusted, only shown."""
    flags = os.O_RDWR | os.O_CREAT | SAFE_OPEN
    for _ in range(LOCK_ATTEMPTS):
        try:
            fd = os.open(path, flags, 0o644)
        except OSError as err:
            if err.errno in (errno.ELOOP, errno.EISDIR):
                try:
                    kind = kind_of(os.lstat(path).st_mode)
                except OSError:  # gone again: say what the open found
                    kind = "a symbolic link" if err.errno == errno.ELOOP else "a folder"
                raise NotRegularFile(path, kind) from None
            raise OSError(err.errno, err.strerror, str(path)) from None
        try:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):
                raise NotRegularFile(path, kind_of(mode))
            if not _try_lock(fd):
                raise WorldLocked(_locked_message(name, path, fd))
        except BaseException:
            os.close(fd)
            raise
        if not _same_file(fd, path):  # its holder removed it as we opened it: again
            os.close(fd)
            continue
        me = f"{os.getpid()}\n{socket.gethostname()}\n{now_iso()}\n".encode("ascii", "replace")
        try:
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            view = memoryview(me)
            while view:
                view = view[os.write(fd, view) :]
        except OSError as err:  # a full disk: no half-taken lock stays behind
            _drop(fd, path)
            raise OSError(
                err.errno, f"cannot write the lock of world {name!r}: {err.strerror}", str(path)
            ) from None
        except BaseException:
            _drop(fd, path)
            raise
        return fd
    raise WorldLocked(f"world {name!r}: its lock {printable(str(path))} keeps changing hands")


class WorldLock:
    """The lock of one world, held from creation until :meth:`release` (or the end of a
    ``with`` block): its lock file, kept open and locked by the OS (``flock`` where there is
    one, ``msvcrt.locking`` on Windows). Raises :class:`WorldLocked` when another open file
    holds it: another game, or another Store of this process (the OS lock belongs to one open
    of the file, not to a process)."""

    def __init__(
        self, path: Path, name: str, on_release: Callable[[WorldLock], None] | None = None
    ) -> None:
        self.path = path
        self.name = name
        self._on_release = on_release
        self._fd: int | None = _acquire(path, name)
        self.held = True

    def release(self) -> None:
        if not self.held:
            return
        self.held = False
        if self._on_release is not None:
            self._on_release(self)
        fd, self._fd = self._fd, None
        if fd is not None:
            _drop(fd, self.path)

    def __enter__(self) -> WorldLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


#: How long a writer of a shared file waits for another game's write to finish (a write holds
#: the lock for milliseconds; a game stopped while holding it must not stop this one for ever).
SHARED_WAIT_S = 10.0
#: How often a waiting writer tries the lock again.
_SHARED_POLL_S = 0.005


@contextlib.contextmanager
def shared_lock(target: Path, *, wait: float = SHARED_WAIT_S) -> Iterator[None]:
    """Hold the lock of the shared file ``target`` (the best puzzle scores, the hall, the
    options: files that two games may write at once) for one read-merge-write: an OS lock on
    ``.<name>.lock`` beside it, waited for at most ``wait`` seconds (then OSError EAGAIN,
    naming the file). The lock file stays (removing it would let a waiting writer lock a file
    no longer there); the OS drops the lock when its holder ends, however it ends."""
    path = target.with_name(f".{target.name}.lock")
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | SAFE_OPEN, 0o644)
    except OSError as err:
        if err.errno in (errno.ELOOP, errno.EISDIR):
            raise NotRegularFile(path, "a symbolic link or a folder") from None
        raise OSError(err.errno, err.strerror, str(path)) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(path, kind_of(mode))
        deadline = time.monotonic() + wait
        while not _try_lock(fd):
            if time.monotonic() >= deadline:
                raise OSError(errno.EAGAIN, f"another game keeps {target.name} locked", str(path))
            time.sleep(_SHARED_POLL_S)
        yield
    finally:
        os.close(fd)  # closing the file lets go of its lock
