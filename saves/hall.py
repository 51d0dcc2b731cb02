"""The hall of runs: the run records of a save folder, the player's own and the challenges.

The hall lives in the save folder: ``runs/<id>.run`` for the player's own runs and
``challenges/<id>.run`` for those imported from others (:mod:`saves.record`: a record and its
file). An imported record is never trusted: it is checked by :func:`saves.verify.verify`
before it is kept.

The hall lists a run only from what its recording proves: a session loaded from a save is
replayed before its run is kept (``saves.session``), and each folder keeps a list of the run
files known to hold up (:data:`CHECKED_FILE`: checksums of those the game wrote after checking
them, and of those a listing replayed); a file not in it, dropped into the folder by hand, is
replayed once before it is listed, and one that does not hold up is not listed, with the
reason in :attr:`Hall.problems`; :meth:`Hall.get` (``runs show``, an export, a replay) gives only
what a listing would list, and says why not. The daily streak is counted from the hall's runs.

**A shared hall** (a club's, ``roguelike serve --club``: each player's folder links to one
``runs`` folder) holds every player's runs, but the daily's scored run and the streak are each
player's own: such a folder has an :data:`OWN_RUNS` file, the ids of the runs its games kept
(one a line, the newest :data:`MAX_LISTED`), and :meth:`Hall.daily_used` and
:meth:`Hall.streak` count only those. A folder without the file is one player's: every run
is theirs.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import os
import re
import stat
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from roguelike.recording import Progress
from saves.errors import SaveError
from saves.files import NotRegularFile, check_replaceable, read_file, write_atomic
from saves.locks import shared_lock
from saves.record import MAX_FILE, RunFileError, RunRecord, new_id, pack, unpack
from saves.text import printable
from saves.verify import as_proven, verify
from saves.world import now_iso

RUNS_DIR = "runs"
CHALLENGES_DIR = "challenges"
SUFFIX = ".run"
#: The most run records a folder lists (the oldest beyond are not read).
MAX_LISTED = 5000

#: Run files read, by path: (mtime, size, inode) and the record, or why it is not listed (a
#: file whose recording refutes it). Listing the hall again (the title shows the daily streak
#: each time it appears) reads only what changed, and replays nothing twice in a process.
_READ: dict[Path, tuple[tuple[int, int, int], RunRecord | str]] = {}

#: The file in each hall folder that lists the run files known to hold up, by a checksum of
#: their bytes (one hex digest a line): those the game wrote itself after checking them, and
#: those a listing replayed. A run file not in it (dropped into the folder by hand) is
#: verified by replay before it is listed, once: then its checksum joins the list.
CHECKED_FILE = "checked"
#: In a shared hall's player folder: the ids of that player's own runs (see the module).
OWN_RUNS = "own-runs"
_RUN_ID = re.compile(r"[0-9A-Za-z-]{1,40}", re.ASCII)
#: The most checksums the list keeps (the newest), and its largest size.
MAX_CHECKED = 2 * MAX_LISTED
_CHECKSUM = re.compile(r"[0-9a-f]{32}", re.ASCII)


def checksum(data: bytes) -> str:
    """The checksum the hall's list of checked files keeps of a run file's bytes."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


class Hall:
    """The run records of one save folder (see the module)."""

    def __init__(self, folder: str | os.PathLike[str], clock: Callable[[], str] = now_iso):
        self.path = Path(folder)
        self.clock = clock
        #: why some files were skipped by the last listing (one line each)
        self.problems: list[str] = []

    def _dir(self, imported: bool) -> Path:
        return self.path / (CHALLENGES_DIR if imported else RUNS_DIR)

    def file(self, run_id: str, imported: bool = False) -> Path:
        return self._dir(imported) / f"{run_id}{SUFFIX}"

    def add(self, record: RunRecord, imported: bool = False) -> RunRecord:
        """Keep ``record`` (a daily run not the first finished that day is kept unscored).
        The same run kept twice (same world, start, outcome and turns) is kept once. The
        caller has checked it (:func:`verify`, or a session that played it from its start):
        its file joins the folder's list of checked files first, so a failure to write
        either keeps nothing listed that was not checked."""
        folder = self._dir(imported)
        self.path.mkdir(parents=True, exist_ok=True)
        # two games ending runs at once: the check for the same run and for the day's scored
        # daily run, and the write, are one step under the hall's lock
        with shared_lock(folder):
            same = (record.world, record.started, record.outcome, record.turns, record.seed)
            for old in self.challenges() if imported else self.runs():
                if (old.world, old.started, old.outcome, old.turns, old.seed) == same:
                    return old
            daily = record.daily and not imported
            if daily and self.daily_used(dt.date.fromisoformat(record.daily or "")):
                record = replace(record, scored=False)
            folder.mkdir(parents=True, exist_ok=True)
            data = pack(record)
            self._vouch(folder, [checksum(data)])
            if not imported:  # listed first: an id without its file counts for nothing
                self._own_add(record.id)
            write_atomic(self.file(record.id, imported), data)
        return record

    def _checked(self, folder: Path) -> list[str]:
        """The checksums of the run files in ``folder`` known to hold up (see
        :data:`CHECKED_FILE`); a list that cannot be read or is damaged is empty (each file
        is then verified again, once)."""
        try:
            text = read_file(folder / CHECKED_FILE, MAX_CHECKED * 33 + 1).decode("ascii")
        except (OSError, SaveError, UnicodeDecodeError):
            return []
        return [line for line in text.split("\n") if _CHECKSUM.fullmatch(line)]

    def _vouch(self, folder: Path, sums: list[str]) -> None:
        """Add ``sums`` to ``folder``'s list of checked files (atomically; raises OSError)."""
        known = self._checked(folder)
        kept = [*known, *(c for c in sums if c not in known)][-MAX_CHECKED:]
        write_atomic(folder / CHECKED_FILE, "".join(f"{c}\n" for c in kept).encode("ascii"))

    def _read_all(self, imported: bool) -> list[RunRecord]:
        """The records of a folder that hold up: a file the game did not check before (one
        dropped there by hand) is verified by replay first (:func:`verification`), and one
        whose recording refutes it is not listed (:attr:`problems` says why, in a line)."""
        folder = self._dir(imported)
        out: list[RunRecord] = []
        try:
            names = sorted(p for p in folder.iterdir() if p.name.endswith(SUFFIX))
        except FileNotFoundError:
            return out
        except OSError as err:  # not a folder, not readable: an empty hall that says why
            self.problems.append(f"{folder.name}: {err.strerror or err}")
            return out
        checked = functools.cache(lambda: set(self._checked(folder)))  # read once, if a file is new
        newly: list[str] = []
        for p in names[-MAX_LISTED:]:
            try:
                found = self._read(p, checked, newly)
                if isinstance(found, str):
                    self.problems.append(f"{p.name}: {printable(found)}")
                elif found is not None:
                    out.append(found)
            except (SaveError, OSError) as err:  # a run file's or the store's refusal
                self.problems.append(f"{p.name}: {printable(str(err))}")
        self._vouch_listed(folder, newly)
        return out

    def _read(
        self, p: Path, checked: Callable[[], set[str]], newly: list[str]
    ) -> RunRecord | str | None:
        """The record of the run file ``p`` if it holds up, else why it is not listed (None:
        not a regular file): a file whose checksum is not among ``checked()`` is verified by
        replay first, and its checksum added to ``newly`` if it holds. Raises SaveError or
        OSError for a file that does not read."""
        st = p.stat()
        if not stat.S_ISREG(st.st_mode):
            return None
        key = (st.st_mtime_ns, st.st_size, st.st_ino)
        cached = _READ.get(p)
        if cached is None or cached[0] != key:
            data = read_file(p, MAX_FILE)
            record = unpack(data)
            found: RunRecord | str = record
            if checksum(data) not in checked():
                try:
                    found = as_proven(record, verify(record)[0])
                    newly.append(checksum(data))
                except RunFileError as err:
                    found = f"not listed: {err}"
            cached = (key, found)
            _READ[p] = cached
        return cached[1]

    def _vouch_listed(self, folder: Path, newly: list[str]) -> None:
        """Add the checksums a listing replayed to ``folder``'s list, under the hall's lock as
        in :meth:`add` (a run added meanwhile keeps its checksum); a failure is said in
        :attr:`problems` (they are listed all the same, and verified again next time)."""
        if not newly:
            return
        try:
            with shared_lock(folder):
                self._vouch(folder, newly)
        except OSError as err:
            self.problems.append(
                f"{CHECKED_FILE}: the list of checked runs was not written "
                f"({err.strerror or err}): they are replayed again next time"
            )

    def runs(self) -> list[RunRecord]:
        """The player's runs, best score first (then newest)."""
        self.problems = []
        runs = self._read_all(False)
        runs.sort(key=lambda r: r.ended, reverse=True)
        runs.sort(key=lambda r: r.score, reverse=True)
        return runs

    def challenges(self) -> list[RunRecord]:
        """The records imported from others, newest first."""
        self.problems = []
        return sorted(self._read_all(True), key=lambda r: r.ended, reverse=True)

    def get(self, run_id: str) -> tuple[RunRecord, bool]:
        """The record ``run_id`` (an own run or a challenge; a unique prefix will do) and
        whether it was imported, as the listing would list it (a file the game did not check
        is verified by replay first). RunFileError if none or several match, or the one that
        matches is not listed (saying why)."""
        path, imported = self.find(run_id)
        newly: list[str] = []
        record = self._read(path, lambda: set(self._checked(path.parent)), newly)
        if record is None:
            raise RunFileError(f"{path.name}: not a regular file")
        if isinstance(record, str):
            raise RunFileError(f"run {path.name[: -len(SUFFIX)]} is {record}")
        self._vouch_listed(path.parent, newly)
        return record, imported

    def find(self, run_id: str) -> tuple[Path, bool]:
        """The file of the run ``run_id`` (as :meth:`get` finds it) and whether it was
        imported, by its name alone: nothing is read. RunFileError if none or several
        match."""
        found = []
        for imported in (False, True):
            folder = self._dir(imported)
            try:
                names = [p for p in folder.iterdir() if p.name.endswith(SUFFIX)]
            except FileNotFoundError:
                continue
            found += [(p, imported) for p in names if p.name[: -len(SUFFIX)].startswith(run_id)]
        if not run_id or not found:
            raise RunFileError(f"no run {run_id!r} in {self.path}")
        exact = [(p, i) for p, i in found if p.name == f"{run_id}{SUFFIX}"]
        if len(exact) == 1:
            found = exact
        if len(found) > 1:
            raise RunFileError(f"{run_id!r} names {len(found)} runs: give more of the id")
        return found[0]

    def export(self, run_id: str, dest: str | os.PathLike[str]) -> Path:
        """Write the record ``run_id`` as a challenge file at ``dest`` (atomically)."""
        record, _ = self.get(run_id)
        if record.recording is None:
            raise RunFileError(f"run {record.id} has no recording: there is nothing to send")
        path = Path(dest).expanduser()
        try:
            check_replaceable(path)  # the one rule of the store: never a device, FIFO or link
        except NotRegularFile as err:
            raise RunFileError(f"{path} is {err.strerror}: choose another path") from None
        write_atomic(path, pack(record))
        return path

    def import_file(self, source: str | os.PathLike[str]) -> RunRecord:
        """Check the challenge file ``source`` in full (read with bounds, then replayed: every
        claim recomputed) and keep it among the challenges. RunFileError, with nothing kept,
        if anything is wrong."""
        return self.keep_challenge(self.check_file(source))

    def check_file(
        self, source: str | os.PathLike[str], *, progress: Progress | None = None
    ) -> RunRecord:
        """The record in the challenge file ``source``, read with bounds and replayed, every
        claim recomputed (RunFileError if anything is wrong); nothing is kept yet (a screen
        checks in the background and keeps it with :meth:`keep_challenge` only if the player
        is still waiting for it; ``progress``: told how far its replay is, see :func:`verify`)."""
        path = Path(source).expanduser()
        if not path.is_file():
            raise RunFileError(f"{path}: not a regular file")
        if path.stat().st_size > MAX_FILE:
            raise RunFileError(f"{path}: larger than a run file can be ({MAX_FILE >> 20} MiB)")
        try:
            data = read_file(
                path, MAX_FILE
            )  # refuses a link, or a file swapped for a FIFO meanwhile
        except NotRegularFile as err:
            raise RunFileError(f"{path}: {err.strerror}") from None
        record = unpack(data)
        return as_proven(record, verify(record, progress=progress)[0])

    def keep_challenge(self, record: RunRecord) -> RunRecord:
        """Keep the checked ``record`` among the challenges, as kept (see :meth:`check_file`)."""
        # what the sender's game did with the run is not the receiver's: it answers no
        # challenge here, and a run id already used in this folder gets a new one
        record = replace(record, challenge=None)
        if self._taken(record.id):
            record = replace(record, id=self._fresh_id(record.ended))
        return self.add(record, imported=True)

    def _taken(self, run_id: str) -> bool:
        return self.file(run_id).exists() or self.file(run_id, imported=True).exists()

    def _fresh_id(self, ended: str) -> str:
        while True:
            run_id = new_id(ended)
            if not self._taken(run_id):
                return run_id

    def _own_ids(self) -> set[str] | None:
        """The ids of this folder's player's own runs in a shared hall (None: the hall is
        theirs alone; a list that cannot be read is empty: nothing is counted as theirs)."""
        path = self.path / OWN_RUNS
        if not path.exists() and not path.is_symlink():
            return None
        try:
            text = read_file(path, MAX_LISTED * 41 + 1).decode("ascii")
        except (OSError, SaveError, UnicodeDecodeError):
            return set()
        return {line for line in text.split("\n") if _RUN_ID.fullmatch(line)}

    def _own_add(self, run_id: str) -> None:
        """``run_id`` joins this player's own runs, in a shared hall (raises OSError)."""
        own = self._own_ids()
        if own is None:
            return
        path = self.path / OWN_RUNS
        try:
            text = read_file(path, MAX_LISTED * 41 + 1).decode("ascii")
        except (OSError, SaveError, UnicodeDecodeError):
            text = ""
        ids = [line for line in text.split("\n") if _RUN_ID.fullmatch(line)]
        ids = [*ids, run_id][-MAX_LISTED:]
        write_atomic(path, "".join(f"{i}\n" for i in ids).encode("ascii"))

    def own(self, runs: list[RunRecord] | None = None) -> list[RunRecord]:
        """This folder's player's own runs among ``runs`` (the hall's, if None): in a
        shared hall, those its games kept; else all of them."""
        runs = self.runs() if runs is None else runs
        own = self._own_ids()
        return runs if own is None else [r for r in runs if r.id in own]

    def daily_used(self, day: dt.date, runs: list[RunRecord] | None = None) -> bool:
        """Whether this player's scored run of ``day``'s daily world is used (a later one is
        practice: :meth:`add` keeps it unscored). ``runs``: the hall's runs, if already read."""
        runs = self.own(runs)
        return any(r.daily == day.isoformat() and r.scored and not r.practice for r in runs)

    def streak(self, today: dt.date | None = None, runs: list[RunRecord] | None = None) -> int:
        """Days in a row, ending today or yesterday (UTC), with a daily run finished.
        ``runs``: the hall's runs, if already read. Only this player's own count."""
        runs = self.own(runs)
        days = {r.daily for r in runs if r.daily and not r.practice}  # practice never counts
        day = today or dt.datetime.now(dt.UTC).date()
        if day.isoformat() not in days:
            day -= dt.timedelta(days=1)
        n = 0
        while day.isoformat() in days:
            n += 1
            day -= dt.timedelta(days=1)
        return n
