"""The save directory: one file per world, with its backup and lock; listing, loading,
saving, deleting, import and export.

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
    ``<slug>.lock``      while a game has the world open (:mod:`saves.locks`)
    ``.<slug>.rgl.*.tmp`` a save being written (left behind only by a killed writer, and
                         swept when the world is next locked; a link there is removed, never
                         followed)

Files are read and written through :mod:`saves.files` (only regular files, atomic writes, the
old save kept as the backup); a ``x.rgl`` that is not a regular file is listed with that
problem. An imported world is dated by the import, and a listed world dated in the future is
ordered as the oldest, so no file can make itself the world Continue opens.

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
import os
import stat
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from platformdirs import user_data_dir

from roguelike import seeds
from roguelike.version import GENERATOR_VERSION
from saves import header as h
from saves.errors import SaveError, SaveVersionError, WorldExists, WorldNotFound
from saves.files import fsync_dir, read_file, replaceable, write_atomic
from saves.locks import WorldLock
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


class BackupWarning(UserWarning):
    """A world was loaded from its backup because its main file is damaged."""


def default_dir() -> Path:
    """``$ROGUELIKE_SAVE_DIR``, else the user data directory's ``worlds`` folder."""
    env = os.environ.get(ENV_DIR)
    if env:
        return Path(env).expanduser()
    # appauthor=False: no "roguelike\\roguelike" on Windows; the same path elsewhere
    return Path(user_data_dir("roguelike", appauthor=False)) / "worlds"


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
                content = read_file(path)
                head, _ = h.read(content)
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
            if (head.world, head.seed, head.created) != (
                world.name,
                seeds.stored(world.seed),
                world.created,
            ):
                if not head.sealed and not _decodes(content):
                    continue  # an old-format header damaged where nothing covered it
                raise WorldExists(
                    f"a world named {head.world!r} "
                    f"(seed {seeds.shown(head.seed, head.generator)}) already uses "
                    f"{main.name}: choose another name"
                )
            intact = path == main
            break
        # a folder, FIFO, device or link where the backup goes is never replaced, and never
        # stops the save either (every later save would fail): this save keeps no backup
        keep = intact and replaceable(backup)
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
