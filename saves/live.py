"""A game's input stream: its recording, written as it is played, for others to watch.

A game served to a browser (``roguelike serve``) is given a file in its player's save folder
(``--live-stream``). :class:`LiveWriter` writes there, when a game opens, the run's start and
the inputs recorded so far (a game continued from a save), then appends each input as it is
played. A watcher follows the file with :class:`LiveReader` and replays it
(:func:`roguelike.recording.frames`, the replay viewer's own): the game is a pure function of
its seed and inputs, so what the watcher sees is exactly what the player saw, and the file
holds nothing a terminal could act on (a watcher draws the replayed state, never the file's
bytes).

The file is lines of JSON (ASCII):

- the head: ``{"live": 1, "id": …, "world": …, "daily": true|false, "generator": …,
  "start": …}`` (``id``: random, a new one for each game opened in the tab; ``start``: a
  recording's, :meth:`roguelike.recording.Start.to_json`);
- then one line per input: ``[code, check, turn]``, the recorded action, its check and the
  turn it led to (the inputs recorded before the game was opened carry the turn it was
  opened at: their own turns are not known, and a later one never shows them early).

A game opened anew in the same tab replaces the file (a new head). Bounds: the file is never
larger than :data:`MAX_STREAM` (a recording's whole document: the writer stops there, the
reader refuses a larger file), and every line is checked as a recording read from a file is
(:meth:`roguelike.recording.Recording.from_json`).

**A daily's watchers stay behind.** A daily world's scored run is ranked against everyone's, so
its watchers are shown the inputs at least :data:`BEHIND_TURNS` turns older than the latest:
counted in turns, not seconds, so a player who stops moving is never caught up with. Other
games are shown as they are played.
"""

from __future__ import annotations

import bisect
import json
import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from roguelike.recording import (
    MAX_ACTIONS,
    MAX_PUZZLE_MOVES,
    MAX_TURNS,
    RECORDING_VERSION,
    Code,
    Recording,
    RecordingError,
    Start,
)
from saves.envelope import MAX_DOCUMENT
from saves.errors import failure_reason
from saves.files import write_atomic

#: The head's format.
LIVE_VERSION = 1
#: The largest stream: a recording's whole document (the most a save or run file holds).
MAX_STREAM = MAX_DOCUMENT
#: How many turns behind the latest a daily's watchers are shown.
BEHIND_TURNS = 50
#: The most bytes read from a stream at one look (a watcher catches up over a few).
READ_CHUNK = 4 << 20


class LiveError(ValueError):
    """A stream a watcher cannot follow: the message is one line."""


def _line(value: Any) -> bytes:
    return (
        json.dumps(value, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")
        + b"\n"
    )


class LiveWriter:
    """Writes one game's input stream to ``path`` (see the module). Writing never stops the
    game: a failure (a full disk, the folder gone) ends the stream, play goes on, and
    ``told`` is given the reason once (the served game tells the player that watchers can no
    longer follow)."""

    def __init__(self, path: Path, told: Callable[[str], None] | None = None) -> None:
        self.path = path
        self.size = 0
        #: the stream stopped: it reached :data:`MAX_STREAM`, or a write failed
        self.stopped = False
        #: why it stopped (None: it goes on); ``told`` is given it once, to tell the player
        self.problem: str | None = None
        self.told = told

    def _stop(self, why: str) -> None:
        self.stopped = True
        self.problem = why
        if self.told is not None:
            self.told(why)

    def begin(self, world: str, daily: bool, recording: Recording, turn: int) -> None:
        """A game opened: its head and the ``recording``'s inputs so far (led to ``turn``)."""
        head = {
            "live": LIVE_VERSION,
            "id": secrets.token_hex(8),
            "world": world,
            "daily": daily,
            "generator": recording.generator,
            "start": recording.start.to_json(),
        }
        lines = [_line(head)]
        pairs = zip(recording.actions, recording.checks, strict=True)
        lines += [_line([a, c, turn]) for a, c in pairs]
        data = b"".join(lines)
        self.stopped, self.problem = False, None
        if len(data) > MAX_STREAM:
            self._stop("the game is longer than a stream holds")
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, data)  # a new file: a watcher sees the new game whole
        except OSError as err:
            self._stop(failure_reason(err))
            return
        self.size = len(data)

    def add(self, action: Code, check: int, turn: int) -> None:
        """An input just recorded, appended."""
        if self.stopped:
            return
        line = _line([action, check, turn])
        if self.size + len(line) > MAX_STREAM:
            self._stop("the game is longer than a stream holds")
            return
        try:
            with self.path.open("ab") as out:
                out.write(line)
        except OSError as err:
            self._stop(failure_reason(err))
            return
        self.size += len(line)


class LiveReader:
    """Follows the input stream at ``path`` (see the module): :meth:`look` reads what was
    appended since; :attr:`recording` holds every input read, :meth:`shown` how many of them a
    watcher may see."""

    def __init__(self, path: Path) -> None:
        self.path = path
        #: the game's head (None: no game yet), and its world and whether it is a daily
        self.id: str | None = None
        self.world = ""
        self.daily = False
        self.recording: Recording | None = None
        #: the turn each input of :attr:`recording` led to
        self.turns: list[int] = []
        #: the stream is gone (the game ended)
        self.gone = False
        self._inode: int | None = None
        self._offset = 0
        self._head_bytes = b""

    def look(self) -> bool:
        """Read what the stream gained since the last look; True if a new game began (a new
        head: :attr:`recording` starts again). LiveError (one line) for a stream that breaks
        its bounds or its format; a missing stream sets :attr:`gone`."""
        try:
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except FileNotFoundError:
            self.gone = self.id is not None
            return False
        except OSError as err:
            raise LiveError(f"the game's stream cannot be read: {err.strerror or err}") from None
        with os.fdopen(fd, "rb") as f:
            info = os.fstat(f.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise LiveError("the game's stream is not a regular file")
            if info.st_size > MAX_STREAM:
                raise LiveError(
                    f"the game's stream is larger than a recording can be ({MAX_STREAM >> 20} MiB)"
                )
            self.gone = False
            # a new game's head replaced the file (an inode may be used again: the head
            # itself is compared too)
            new = info.st_ino != self._inode or info.st_size < self._offset
            if not new and self._head_bytes:
                new = os.pread(f.fileno(), len(self._head_bytes), 0) != self._head_bytes
            if new:
                self._inode, self._offset, self._head_bytes = info.st_ino, 0, b""
                self.id, self.recording, self.turns = None, None, []
            f.seek(self._offset)
            data = f.read(min(READ_CHUNK, info.st_size - self._offset))
        end = data.rfind(b"\n") + 1  # a line still being written waits for the next look
        if end == 0:
            return False
        self._offset += end
        lines = data[:end].split(b"\n")[:-1]
        began = False
        if self.id is None:
            self._head_bytes = lines[0] + b"\n"
            self._head(lines.pop(0))
            began = True
        if lines:
            self._inputs(lines)
        return began

    def _head(self, line: bytes) -> None:
        head = _json(line, "its head")
        if not isinstance(head, dict) or head.get("live") != LIVE_VERSION:
            raise LiveError(f"the game's stream is not a stream of version {LIVE_VERSION}")
        ident, world, daily = head.get("id"), head.get("world"), head.get("daily")
        if not isinstance(ident, str) or not isinstance(world, str) or not isinstance(daily, bool):
            raise LiveError("the game's stream has a damaged head")
        try:
            start = Start.from_json(head.get("start"))
            generator = head.get("generator")
            empty = Recording.from_json(
                {
                    "version": RECORDING_VERSION,
                    "generator": generator,
                    "start": start.to_json(),
                    "actions": [],
                    "checks": [],
                }
            )
        except RecordingError as err:
            raise LiveError(f"the game's stream: {err}") from None
        self.id, self.world, self.daily = ident, world, daily
        self.recording, self.turns = empty, []

    def _inputs(self, lines: list[bytes]) -> None:
        assert self.recording is not None
        rec = self.recording
        rows = [_json(line, "an input") for line in lines]
        if any(not isinstance(r, list) or len(r) != 3 for r in rows):
            raise LiveError("the game's stream has a damaged input")
        if len(rec) + len(rows) > MAX_ACTIONS:
            raise LiveError(f"the game's stream holds more than {MAX_ACTIONS:,} inputs")
        try:  # each input checked as a recording's from a file is
            batch = Recording.from_json(
                {
                    "version": RECORDING_VERSION,
                    "generator": rec.generator,
                    "start": rec.start.to_json(),
                    "actions": [r[0] for r in rows],
                    "checks": [r[1] for r in rows],
                },
                "stream",
            )
        except RecordingError as err:
            raise LiveError(f"the game's {err}") from None
        if rec.puzzle_moves + batch.puzzle_moves > MAX_PUZZLE_MOVES:
            raise LiveError(f"the game's stream holds more than {MAX_PUZZLE_MOVES:,} puzzle moves")
        last = self.turns[-1] if self.turns else 0
        for r in rows:
            turn = r[2]
            if not isinstance(turn, int) or isinstance(turn, bool) or not last <= turn <= MAX_TURNS:
                raise LiveError("the game's stream has an input whose turn goes back")
            last = turn
        rec.actions += batch.actions
        rec.checks += batch.checks
        rec.puzzle_moves += batch.puzzle_moves
        self.turns += [r[2] for r in rows]

    def shown(self) -> int:
        """How many inputs a watcher may see: all of them, or for a daily, those at least
        :data:`BEHIND_TURNS` turns older than the latest."""
        if not self.daily:
            return len(self.turns)
        latest = self.turns[-1] if self.turns else 0
        return bisect.bisect_right(self.turns, latest - BEHIND_TURNS)


def _json(line: bytes, what: str) -> Any:
    def constant(name: str) -> Any:
        raise ValueError(name)

    try:
        return json.loads(line.decode("ascii"), parse_constant=constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise LiveError(f"the game's stream has a damaged line ({what})") from None
