"""Watching a game in progress from its input stream: the replay viewer, following.

A watcher's tab (``roguelike serve``'s ``/watch/ID``) runs a game process of its own, read-only:
it is given the watched game's input stream (:mod:`saves.live`) and never anything that reaches
that game. :class:`FollowScreen` is the replay viewer (:class:`~screens.replay.ReplayScreen`,
the same frames, checks and drawing) over the inputs the stream has shown so far: every
``LOOK_EVERY`` seconds it reads what the stream gained (:class:`saves.live.LiveReader`), adds
the inputs a watcher may see (a daily's stay :data:`saves.live.BEHIND_TURNS` turns behind)
and plays on once it has caught up. On opening it seeks to the latest of them at once. A new
game opened in the watched tab starts the viewer again on it; a stream that breaks its bounds
stops it with one line; a stream gone says the game is over. Only the stream's replayed state
is drawn, never its bytes, and its world name is shown through :func:`saves.text.printable`.
Practice (``p``) is not offered: the watched run is not in the hall yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from roguelike.engine.words import upper_first
from roguelike.recording import Recording
from saves.live import BEHIND_TURNS, LiveError, LiveReader
from saves.text import printable
from screens.replay import ReplayScreen

#: How often the stream is read, in seconds.
LOOK_EVERY = 0.25
#: A watcher's speed: fast enough to keep up with a player's keys.
FOLLOW_SPEED = 5


@dataclass
class Watched:
    """A game being watched, as the viewer plays it: its world and the inputs shown so far."""

    world: str
    recording: Recording | None


class FollowScreen(ReplayScreen):
    """Follows the input stream at ``path`` (see the module). Leaving it ends the app."""

    def __init__(self, path: Path, *, who: str = "") -> None:
        self.reader = LiveReader(path)
        self.who = printable(who)[:40]
        #: why following stopped (a broken stream), one line
        self.broken: str | None = None
        super().__init__(Watched("", None), speed=FOLLOW_SPEED)

    def on_mount(self) -> None:
        super().on_mount()
        self.look()
        self.set_interval(LOOK_EVERY, self.look)

    # ------------------------------------------------------------------ the stream

    def look(self) -> None:
        """Read the stream; a new game starts the viewer on it, new inputs are played on."""
        if self.broken is not None:
            return
        was_gone = self.reader.gone
        try:
            began = self.reader.look()
        except LiveError as err:
            self.broken = printable(str(err))
            self.error = f"Not followed: {self.broken}"
            self.finished = True
            self._show()
            return
        if began:
            self._begin()
        elif self.record.recording is not None:
            self._follow()
        if self.reader.gone != was_gone:
            self._show()

    def _begin(self) -> None:
        """A new game in the watched tab: the viewer starts again, at its latest shown."""
        reader = self.reader
        assert reader.recording is not None
        shown = Recording(reader.recording.start, reader.recording.generator)
        self.record = Watched(printable(reader.world), shown)
        self.recording = shown
        self.world_name = self.record.world
        self._snapshots = []
        self._restart()
        self._extend()
        self.seek_turn(1 << 40)  # the latest shown input, replayed headless

    def _extend(self) -> bool:
        """The inputs newly shown, added to what the viewer plays; True if any were."""
        reader, shown = self.reader, self.recording
        assert reader.recording is not None and shown is not None
        have, upto = len(shown), reader.shown()
        if upto <= have:
            return False
        shown.actions += reader.recording.actions[have:upto]
        shown.checks += reader.recording.checks[have:upto]
        return True

    def _follow(self) -> None:
        """New inputs shown: played on once the viewer has caught up with the last ones (a
        seek or a replay under way when they came plays on to them when it ends)."""
        if self.recording is None:
            return
        self._extend()
        behind = self.played < len(self.recording)
        if behind and self.finished and self.error is None and not self.seeking:
            self.finished = False
            self._play_from(self.played, self._visited)
            self._restart_timer()
            self._show()

    # ------------------------------------------------------------------ drawing and keys

    def status_line(self, width: int) -> str | None:
        if self.error is not None and self.record.recording is not None:
            return self.error
        if self.broken is not None:
            return f"Not followed: {self.broken}"
        who = f"{self.who}'s game" if self.who else "the game"
        if self.record.recording is None:
            if self.reader.gone:
                return f"{upper_first(who)} is over."  # a name keeps its capitals
            return f"Waiting for {who} to begin… · q leaves"
        if not self.finished and self.played < len(self.record.recording):
            return super().status_line(width)  # catching up (or seeking back)
        state = self.state
        where = f"Watching {who} · turn {state.turn} · floor {state.number}"
        if state.over:
            where += " · won" if state.won else " · died"
        elif self.reader.gone:
            where += " · the game is over: its run is in the hall"
        elif self.reader.daily:
            where += f" · the daily, shown {BEHIND_TURNS} turns behind"
        else:
            where += " · live"
        parts = [(0, where), (1, "Home restarts"), (2, "q leaves")]
        while len(parts) > 1 and len(" · ".join(w for _, w in parts)) > width:
            parts.remove(max(parts))
        return " · ".join(w for _, w in parts)

    def action_leave(self) -> None:
        if self.seeking:
            self._stop_seek()
            return
        self.app.exit()
