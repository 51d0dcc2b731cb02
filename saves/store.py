"""The save directory: one file per world, written atomically, with a backup and a lock.

Where
    ``platformdirs.user_data_dir("roguelike") / "worlds"`` by default; the environment
    variable ``ROGUELIKE_SAVE_DIR`` overrides it, and an explicit ``Store(path)`` (the command
    line's ``--save-dir``) overrides both.

Files (``<slug>`` is the world's name in lowercase ASCII words joined by ``-``)
    ``<slug>.rgl``       the save (format: :mod:`saves.header`, :mod:`saves.codec`)
    ``<slug>.rgl.bak``   the save before the last one: loading and listing fall back to it,
                         saying why, when the main file fails any check (its header's seal
                         included); the next save then rewrites the main file and keeps the
                         good backup. Anything but a regular file there (a folder, a
                         FIFO, a link) is left alone, and saves go on without a backup
    ``<slug>.lock``      while a game has the world open: a file the game keeps open and
                         locked by the OS (``fcntl.flock``; ``msvcrt.locking`` on Windows),
                         so the lock ends with its process however that ends (kill -9 too)
                         and a dead game's lock is free with no take-over. Only the OS lock
                         counts: the holder's pid, host and start time are written in the
                         file after it is locked, for the refusal message alone. A release
                         removes the file while still holding it; a game that locked a file
                         just removed sees that the path no longer names it and tries again
                         (so the lock is never split between two files). Another open of the
                         file, even by this process, is another holder.
    ``.<slug>.rgl.*.tmp`` a save being written (left behind only by a killed writer, and
                         swept when the world is next locked; a link there is removed, never
                         followed)

Only regular files are read or replaced (:func:`read_file`, :func:`check_replaceable`): a
FIFO, a device, a folder or a symbolic link where a save, a backup, an import, a run file or a
lock should be is refused in one line (:class:`NotRegularFile`) before it is opened for
reading, so no file can make the game wait; the listing shows such a ``x.rgl`` with that
problem. An imported world is dated by the import, and a listed world dated in the future is
ordered as the oldest, so no file can make itself the world Continue opens.

A save is written to a temporary file in the same directory, flushed and fsynced; the old save
becomes the backup (a hard link, so the main file never disappears), the temporary file
replaces the main file with ``os.replace``, and the directory is fsynced. A writer killed at
any moment leaves the last complete save loadable.

API::

    store = Store()                      # or Store(path)
    store.list() -> list[WorldInfo]      # most recently saved first; damaged ones have .problem
    store.latest() -> WorldInfo | None   # the most recently saved world that can be loaded
    store.info(name) -> WorldInfo
    store.create(world) -> GameState     # a world not yet played: saves a fresh new_game
    store.save(state, world, visited=()) -> WorldInfo
    store.load(name) -> (World, GameState, visited)   # store.last_warning: backup used?
    store.delete(name)
    store.export(name, path) -> Path     # store.last_warning: the backup went out?
    store.import_file(path, name=None) -> WorldInfo
    with store.lock(name):               # hold the world while a game has it open; save()
        ...                              # inside takes no other lock

A game being played (its lock, autosaves, permadeath) is a :class:`saves.session.Session`.

``visited`` is a list of :class:`~saves.world.VisitedFloor` (the earlier floors as they were
left); :func:`saves.session.step_remembering` keeps it while playing. Keep one Store per
application: a lock belongs to the Store that took it, and another Store object, even in the
same process, is refused like another game. Errors: a damaged or foreign file raises
:class:`~saves.errors.SaveError` (:class:`~saves.errors.SaveVersionError` for a newer format
or another generator); a name taken, a world not found or a world open in another game raise
:class:`~saves.errors.StoreError` subclasses (WorldExists, WorldNotFound, WorldLocked,
BadWorldName). Every message is one line. Permadeath is only recorded here
(``World.permadeath``, ``WorldInfo.permadeath``): the session deletes such a world when its
player dies.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import os
import secrets
import socket
import stat
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from platformdirs import user_data_dir

from roguelike.version import GENERATOR_VERSION
from saves import header as h
from saves.errors import (
    SaveError,
    SaveVersionError,
    WorldExists,
    WorldLocked,
    WorldNotFound,
)
from saves.text import printable
from saves.world import VisitedFloor, World, WorldInfo, check_name, now_iso, parse_date, slug

if TYPE_CHECKING:
    from roguelike.engine import GameState
    from roguelike.recording import Recording
    from saves.codec import Loaded

ENV_DIR = "ROGUELIKE_SAVE_DIR"
SUFFIX = ".rgl"
BACKUP_SUFFIX = ".rgl.bak"
#: A saved date later than now by more than this (a clock a little ahead is forgiven) is
#: listed as the oldest: no file can push itself to the top of the list, where Continue looks.
FUTURE_SLACK_S = 300.0
LOCK_SUFFIX = ".lock"
#: The largest file the store reads.
MAX_FILE = len(h.MAGIC) + h.MAX_HEADER + 1 + h.MAX_PAYLOAD


class BackupWarning(UserWarning):
    """A world was loaded from its backup because its main file is damaged."""


def default_dir() -> Path:
    """``$ROGUELIKE_SAVE_DIR``, else the user data directory's ``worlds`` folder."""
    env = os.environ.get(ENV_DIR)
    if env:
        return Path(env).expanduser()
    # appauthor=False: no "roguelike\\roguelike" on Windows; the same path elsewhere
    return Path(user_data_dir("roguelike", appauthor=False)) / "worlds"


# --- files -----------------------------------------------------------------------------------


class NotRegularFile(OSError):
    """A path that is a FIFO, a device, a folder or a symbolic link where a save, a run file
    or a lock must be a plain file: refused before it is opened for reading (a FIFO would
    block the game) or replaced (a device or a link would be clobbered). An ``OSError`` with
    the path as its ``filename``, so every caller that reports a file it cannot read or write
    in one line reports this one too."""

    def __init__(self, path: str | os.PathLike[str], kind: str) -> None:
        super().__init__(errno.EINVAL, f"{kind}, not a regular file", str(path))
        self.kind = kind


def _kind(mode: int) -> str:
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
        raise NotRegularFile(path, _kind(st.st_mode))


def _replaceable(path: Path) -> bool:
    """Whether ``path`` is missing or a regular file (:func:`check_replaceable`'s test)."""
    try:
        check_replaceable(path)
    except NotRegularFile:
        return False
    return True


#: Flags that keep an open from following a link or waiting on a FIFO, where the OS has them.
_SAFE_OPEN = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
_SAFE_OPEN |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def read_file(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """The bytes of the regular file ``path``: at most ``limit`` of them (MAX_FILE by default:
    a bigger file is refused with SaveError before it is read). Anything but a regular file
    (a FIFO, a device, a folder, a symbolic link) is refused with :class:`NotRegularFile`
    before it is opened for reading, so that no file can make the game wait or read forever;
    the check is made again on the opened file, so a swap in between is refused too."""
    limit = MAX_FILE if limit is None else limit
    before = os.lstat(path)
    if not stat.S_ISREG(before.st_mode):
        raise NotRegularFile(path, _kind(before.st_mode))
    try:
        fd = os.open(path, os.O_RDONLY | _SAFE_OPEN)
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
            raise NotRegularFile(path, _kind(st.st_mode))
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


def _why(err: SaveError | OSError) -> str:
    """The one line saying why a file could not be read."""
    return str(err) if isinstance(err, SaveError) else (err.strerror or str(err))


def _decodes(data: bytes) -> bool:
    """Whether ``data`` is a save that loads in full (header matching payload)."""
    from saves.codec import decode  # loads the engine: not for listing

    try:
        decode(data)
    except SaveError:
        return False
    return True


# --- locks -----------------------------------------------------------------------------------

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
    flags = os.O_RDWR | os.O_CREAT | _SAFE_OPEN
    for _ in range(LOCK_ATTEMPTS):
        try:
            fd = os.open(path, flags, 0o644)
        except OSError as err:
            if err.errno in (errno.ELOOP, errno.EISDIR):
                try:
                    kind = _kind(os.lstat(path).st_mode)
                except OSError:  # gone again: say what the open found
                    kind = "a symbolic link" if err.errno == errno.ELOOP else "a folder"
                raise NotRegularFile(path, kind) from None
            raise OSError(err.errno, err.strerror, str(path)) from None
        try:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):
                raise NotRegularFile(path, _kind(mode))
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


# --- the store -------------------------------------------------------------------------------


class Store:
    """The worlds in one directory (see the module's docstring)."""

    def __init__(
        self, path: str | os.PathLike[str] | None = None, *, clock: Callable[[], str] = now_iso
    ) -> None:
        self.path = Path(path).expanduser() if path is not None else default_dir()
        self.clock = clock
        #: set by :meth:`load` when it fell back to the backup: what to tell the player
        self.last_warning: str | None = None
        self._locks: dict[str, WorldLock] = {}

    def __repr__(self) -> str:
        return f"Store({str(self.path)!r})"

    # -- paths

    def file(self, name: str) -> Path:
        """The main save file of world ``name``."""
        return self.path / (slug(check_name(name)) + SUFFIX)

    def _backup(self, main: Path) -> Path:
        return main.with_name(main.name[: -len(SUFFIX)] + BACKUP_SUFFIX)

    def _lock_path(self, main: Path) -> Path:
        return main.with_name(main.name[: -len(SUFFIX)] + LOCK_SUFFIX)

    # -- locks

    def lock(self, name: str) -> WorldLock:
        """Hold world ``name`` (it need not exist yet) for as long as a game has it open:
        ``with store.lock(name): …``. Saves of this store inside take no other lock; another
        game (or another Store of this process) is refused with WorldLocked."""
        main = self.file(name)
        self.path.mkdir(parents=True, exist_ok=True)
        key = main.name

        def forget(lk: WorldLock) -> None:
            if self._locks.get(key) is lk:
                del self._locks[key]

        lk = WorldLock(self._lock_path(main), check_name(name), forget)
        self._locks[key] = lk
        self._sweep_temp_files(main)
        return lk

    @contextlib.contextmanager
    def _holding(self, name: str) -> Iterator[None]:
        """The lock of ``name`` for one operation, unless this store holds it already."""
        main = self.file(name)
        held = self._locks.get(main.name)
        if held is not None and held.held:
            yield
            return
        with self.lock(name):
            yield

    def _sweep_temp_files(self, main: Path) -> None:
        """Remove what killed writers left (we hold the lock, so nobody else is writing)."""
        for pattern in (f".{main.name}.*.tmp", f".{self._backup(main).name}.*.tmp"):
            for tmp in self.path.glob(pattern):
                with contextlib.suppress(OSError):
                    # a file or a link is removed itself (a link's target is never touched);
                    # a folder or anything else with that name is not ours to remove
                    if stat.S_ISREG(mode := tmp.lstat().st_mode) or stat.S_ISLNK(mode):
                        tmp.unlink()

    # -- reading

    def _best(self, name: str) -> tuple[Loaded, bytes, bool]:
        """The decoded save of ``name``, its bytes, and whether they came from the backup."""
        loaded, data, damage = self._best_why(name)
        return loaded, data, damage is not None

    def _best_why(self, name: str) -> tuple[Loaded, bytes, str | None]:
        """The decoded save of ``name``, its bytes, and None if they are the main file's, else
        why the main file was passed over for the backup. The main file is refused for any
        damage its checks find, header included (the seal, :mod:`saves.header`); only an
        intact file of a newer format or another generator is not replaced by its backup (an
        older save would lose progress)."""
        from saves.codec import decode  # loads the engine: not for listing

        main = self.file(name)
        bak = self._backup(main)
        if not main.exists() and not bak.exists():
            raise WorldNotFound(f"no world named {name!r} in {self.path}")
        try:
            data = read_file(main)
            return decode(data), data, None
        except SaveVersionError:
            raise  # intact but not for this game: an older backup would lose progress
        except (SaveError, OSError) as err:
            reason = _why(err)
            try:
                data = read_file(bak)
                return decode(data), data, reason
            except FileNotFoundError:
                raise SaveError(f"world {name!r}: {reason}") from None
            except (SaveError, OSError) as err2:
                why2 = _why(err2)
                raise SaveError(f"world {name!r}: {reason} (and its backup: {why2})") from None

    def load(self, name: str, *, warn: bool = True) -> tuple[World, GameState, list[VisitedFloor]]:
        """The world, the game and the earlier floors of ``name`` (see :meth:`open`)."""
        loaded = self.open(name, warn=warn)
        return loaded.world, loaded.state, loaded.visited

    def open(self, name: str, *, warn: bool = True) -> Loaded:
        """The decoded save of ``name``, its recording included. If the main file is damaged
        the backup is loaded, with a :class:`BackupWarning` (unless ``warn`` is False; always
        kept in ``last_warning``)."""
        self.last_warning = None
        loaded, _, damage = self._best_why(name)
        if damage is not None:
            self.last_warning = (
                f"the save of {name!r} is damaged ({damage}); loaded the one before it "
                f"(saved {loaded.header.saved}); the next save repairs it"
            )
            if warn:
                warnings.warn(self.last_warning, BackupWarning, stacklevel=3)
        if loaded.recording_problem:
            note = (
                f"the save of {name!r}: {loaded.recording_problem}, so this run cannot be replayed"
            )
            self.last_warning = f"{self.last_warning}; {note}" if self.last_warning else note
        return loaded

    def _info(self, main: Path) -> WorldInfo | None:
        """The list entry of the world whose main file is ``main`` (or whose backup is)."""
        bak = self._backup(main)
        first_error: str | None = None
        for path, from_backup in ((main, False), (bak, True)):
            try:
                head, _ = h.read(read_file(path))
            except FileNotFoundError:
                continue
            except SaveVersionError as err:
                first_error = first_error or str(err)
                break  # never fall back to an older save behind a newer game's
            except (SaveError, OSError) as err:
                first_error = first_error or _why(err)
                continue
            if slug(head.world) + SUFFIX != main.name:  # copied in under another file name
                return self._misnamed(main, path, head.world)
            s = head.summary
            note = None
            if from_backup:
                note = (
                    f"its save is damaged ({first_error}); this is its backup, "
                    f"saved {head.saved}; the next save repairs it"
                )
            return WorldInfo(
                name=head.world,
                seed=head.seed,
                preset=s.preset,
                difficulty=s.difficulty,
                floor=s.floor,
                floors=s.floors,
                turn=s.turn,
                created=head.created,
                saved=head.saved,
                permadeath=s.permadeath,
                dead=s.dead,
                won=s.won,
                generator=head.generator,
                game_version=head.game,
                path=str(path),
                from_backup=from_backup,
                problem=h.generator_problem(head, GENERATOR_VERSION),
                note=note,
            )
        if first_error is None:
            return None
        stem = main.name[: -len(SUFFIX)]
        return WorldInfo(
            name=stem, seed="", preset="", floor=0, floors=0, turn=0, created="", saved="",
            permadeath=False, dead=False, won=False, generator="", game_version="",
            path=str(main), problem=first_error,
        )  # fmt: skip

    def _misnamed(self, main: Path, path: Path, world: str) -> WorldInfo:
        """The list entry of a save whose world's name gives another file name: a file
        renamed or copied in by hand. Nothing can open it by its world's name, so it is listed
        by its file's name, with what to do, and is never the world Continue opens."""
        stem = main.name[: -len(SUFFIX)]
        problem = (
            f"it holds the world {world!r}, whose file would be {slug(world)}{SUFFIX}: "
            f"import it (roguelike world import {path.name}) instead of copying it in"
        )
        return WorldInfo(
            name=stem, seed="", preset="", floor=0, floors=0, turn=0, created="", saved="",
            permadeath=False, dead=False, won=False, generator="", game_version="",
            path=str(path), problem=problem,
        )  # fmt: skip

    def readable_list(self) -> list[WorldInfo]:
        """:meth:`list`, or [] if the folder cannot be read (the title and Continue ask this)."""
        try:
            return self.list()
        except OSError:
            return []

    def list(self) -> list[WorldInfo]:
        """Every world, the most recently saved first (damaged ones last, with a problem)."""
        if not self.path.is_dir():
            return []
        stems = {p.name[: -len(SUFFIX)] for p in self.path.glob("*" + SUFFIX)}
        stems |= {p.name[: -len(BACKUP_SUFFIX)] for p in self.path.glob("*" + BACKUP_SUFFIX)}
        infos = [
            info
            for stem in sorted(stems)
            if not stem.startswith(".")
            and (info := self._info(self.path / (stem + SUFFIX))) is not None
        ]

        now = time.time()

        def order(i: WorldInfo) -> tuple[int, float, str]:
            try:
                when = parse_date(i.saved).timestamp()
            except ValueError:
                when = 0.0
            if when > now + FUTURE_SLACK_S:  # no save was made then: the file's word only
                when = 0.0
            return (0 if i.saved else 1, -when, i.name.casefold())

        return sorted(infos, key=order)

    def latest(self) -> WorldInfo | None:
        """The most recently saved world that this game can load, if any."""
        return next((i for i in self.list() if i.playable), None)

    def info(self, name: str) -> WorldInfo:
        info = self._info(self.file(name))
        if info is None:
            raise WorldNotFound(f"no world named {name!r} in {self.path}")
        return info

    def exists(self, name: str) -> bool:
        """Whether anything (a save, a backup, even a dangling link) has the world's files."""
        main = self.file(name)
        return os.path.lexists(main) or os.path.lexists(self._backup(main))

    # -- writing

    def _write(self, world: World, data: bytes) -> None:
        """``data`` as the save of ``world``. The old save becomes the backup, but only if it
        is intact (a damaged one must not push out a good backup). WorldExists if the file
        holds a different world (another name with the same slug, or the same name created
        anew). A file that fails its checks is damaged, not another world: it never blocks
        the save that repairs it (nor does an unsealed old-format header naming another world
        that its payload does not confirm)."""
        main = self.file(world.name)
        backup = self._backup(main)
        intact = False
        for path in (main, backup):
            try:
                content = read_file(path)
                head, _ = h.read(content)
            except (SaveError, OSError):
                continue
            if (head.world, head.seed, head.created) != (world.name, world.code, world.created):
                if not head.sealed and not _decodes(content):
                    continue  # an old-format header damaged where nothing covered it
                raise WorldExists(
                    f"a world named {head.world!r} (seed {head.seed}) already uses "
                    f"{main.name}: choose another name"
                )
            intact = path == main
            break
        # a folder, FIFO, device or link where the backup goes is never replaced, and never
        # stops the save either (every later save would fail): this save keeps no backup
        keep = intact and _replaceable(backup)
        write_atomic(main, data, backup=backup if keep else None)

    def save(
        self,
        state: GameState,
        world: World,
        visited: Sequence[VisitedFloor] = (),
        recording: Recording | None = None,
    ) -> WorldInfo:
        """Write the game ``state`` of ``world`` (and the earlier floors ``visited``, and the
        run's ``recording``); the previous save becomes the backup. Refuses (WorldExists) to
        overwrite a different world, and (WorldLocked) a world another game holds."""
        from saves.codec import encode  # loads the engine: not for listing

        data = encode(world, state, visited, saved=self.clock(), recording=recording)
        with self._holding(world.name):
            self._write(world, data)
        return self.info(world.name)

    def create(self, world: World) -> GameState:
        """Save a fresh game of ``world`` (not yet played) and return it. WorldExists if the
        name (or its file name) is taken."""
        from roguelike.engine import new_game  # loads the engine: not for listing
        from roguelike.recording import Recording
        from saves.codec import encode  # loads the engine: not for listing

        with self._holding(world.name):
            if self.exists(world.name):
                raise WorldExists(self._taken(world.name))
            state = new_game(
                world.seed,
                preset=world.preset,
                world_name=world.name,
                difficulty=world.difficulty,
            )
            data = encode(world, state, (), saved=self.clock(), recording=Recording.begin(state))
            self._write(world, data)
        return state

    def _taken(self, name: str) -> str:
        main = self.file(name)
        try:
            other = self.info(name).name
        except (WorldNotFound, SaveError):
            other = name
        if other.casefold() == name.casefold():
            return f"a world named {other!r} already exists"
        return f"the world {other!r} already uses the file {main.name}; choose another name"

    def delete(self, name: str) -> None:
        """Remove world ``name``: its save, backup and lock. WorldNotFound if there is none,
        WorldLocked if another game has it open."""
        main = self.file(name)
        if not self.exists(name):
            raise WorldNotFound(f"no world named {name!r} in {self.path}")
        with self._holding(name):
            for path in (main, self._backup(main)):
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()
            self._sweep_temp_files(main)
            fsync_dir(self.path)

    def export(self, name: str, path: str | os.PathLike[str]) -> Path:
        """Copy the save of ``name`` (checked) to ``path``, written atomically; ``path`` must
        be a new or a regular file (NotRegularFile otherwise: a device, FIFO, folder or link
        is never replaced). If the main file is damaged the backup is exported, and
        :attr:`last_warning` says so (the command line prints it), never silently."""
        self.last_warning = None
        loaded, data, damage = self._best_why(name)
        dest = Path(path).expanduser()
        write_atomic(dest, data)
        if damage is not None:
            self.last_warning = (
                f"the save of {name!r} is damaged ({printable(damage)}); exported the one "
                f"before it (saved {printable(loaded.header.saved)})"
            )
        return dest

    def import_file(self, path: str | os.PathLike[str], name: str | None = None) -> WorldInfo:
        """Add the world saved in the file ``path``, named ``name`` or as it was. The file is
        checked in full first: a damaged, foreign, newer or other-generator file raises
        SaveError and nothing on disk changes. A name already taken raises WorldExists."""
        from saves.codec import decode, encode  # loads the engine: not for listing

        loaded = decode(read_file(Path(path).expanduser()))
        world, state = loaded.world, loaded.state
        if name is not None:
            new = check_name(name)
            world = replace(world, name=new)
            state.world_name = new
        if self.exists(world.name):
            raise WorldExists(
                self._taken(world.name) + " (import it under another name with --name NEW)"
            )
        # dated by the import, not by the file: a date from the future must not make a
        # stranger's world the one Continue opens
        data = encode(world, state, loaded.visited, saved=self.clock(), recording=loaded.recording)
        self.path.mkdir(parents=True, exist_ok=True)
        with self._holding(world.name):
            if self.exists(world.name):  # created meanwhile
                raise WorldExists(self._taken(world.name))
            write_atomic(self.file(world.name), data)
        return self.info(world.name)
