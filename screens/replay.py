"""The replay viewer: a run record's recording played again on the game screen's map, side
panel and message log, so the watcher sees what the player saw.

The viewer never decides anything: it feeds the recorded inputs, one per tick of a timer, to
:func:`roguelike.recording.frames` (with the session's step, which keeps the floors left
behind, as the game did) and draws the state after each. Keys (:data:`REPLAY_BINDINGS`, which
also drive the footer): space pauses, ``+``/``-`` change the speed, ``.`` or → plays one input
while paused, ``f`` seeks to the next floor, ``]``/``[`` 100 turns on or back, ``g`` asks for
a turn, Home goes back to the start, ``p`` practises from where the replay stands (a new
world whose run begins with the inputs so far: :meth:`saves.session.Games.practice`, started by
the app, :class:`PracticeHost`), Esc or ``q`` leaves. Seeking forward replays headless
(nothing drawn) up to the target; seeking back starts again from the last :class:`Snapshot`
before it (a copy of the state kept where each floor begins and every ``SNAPSHOT_EVERY``
inputs, a few milliseconds and a few hundred KB each), so it replays at most one stretch.
A seek never freezes the screen: it replays in slices of at most ``SEEK_SLICE`` seconds,
between which the screen draws where it got ("Seeking… turn N") and takes keys; Esc stops a
seek where it got (and leaves once no seek is under way), another seek replaces it. The
recording's length is bounded before its first input (``Recording.cost_problem``), so a seek
ends.

A recording that goes out of sync (:class:`roguelike.recording.Divergence`), or cannot be
replayed at all (another generator, no recording), stops the replay with a one-line error
naming the turn, on the prompt line; the viewer stays up, showing the last good state.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from textual.timer import Timer

from roguelike.engine import Action, Event, GameState, Message, new_game
from roguelike.recording import Frame, Recording, RecordingError, frames
from saves.record import RunRecord
from saves.session import step_remembering
from saves.text import printable
from saves.world import VisitedFloor
from screens.ask import AskScreen
from screens.bindings import REPLAY_BINDINGS, textual_bindings
from screens.dungeon import DungeonScreen
from screens.history import HistoryScreen

#: Inputs per second at each speed (``+``/``-`` choose one).
SPEEDS: tuple[float, ...] = (2, 5, 10, 20, 50, 100)
DEFAULT_SPEED = 3
#: The colour of an out-of-sync line.
ERROR = "bold #ff6060"
#: Inputs between two snapshots (one is also kept where each floor begins).
SNAPSHOT_EVERY = 100
#: The most snapshots kept (each a few hundred KB): beyond, they are thinned out.
MAX_SNAPSHOTS = 64
#: The longest a seek replays at once, in seconds, before the screen draws and takes keys.
SEEK_SLICE = 0.03


@runtime_checkable
class PracticeHost(Protocol):
    """An app that can start a practice game (``p``): the game's app."""

    def practise(self, record: RunRecord, played: int) -> None:
        """Start a practice game from input ``played`` of ``record``'s run."""


class Replayable(Protocol):
    """What the viewer plays: a run record, or a game being watched (:mod:`screens.follow`)."""

    @property
    def world(self) -> str: ...

    @property
    def recording(self) -> Recording | None: ...


@dataclass(frozen=True)
class Snapshot:
    """The replay as it stood after ``played`` inputs (copies: never played on)."""

    played: int
    state: GameState
    visited: list[VisitedFloor]


class ReplayScreen(DungeonScreen[None]):
    """Plays ``record``'s recording (see the module). Dismissed with None."""

    BINDINGS = [*textual_bindings(REPLAY_BINDINGS, rebindable=False)]

    def __init__(
        self, record: Replayable, *, speed: int = DEFAULT_SPEED, paused: bool = False
    ) -> None:
        """``speed``: 1 to ``len(SPEEDS)``; ``paused``: start paused (tests step by hand)."""
        self.record = record
        self.recording = record.recording
        self.speed = min(len(SPEEDS), max(1, speed))
        self.paused = paused
        #: inputs played so far
        self.played = 0
        #: the replay reached the recording's end
        self.finished = False
        #: why the replay stopped early (out of sync, unreadable), one line
        self.error: str | None = None
        self._frames: Iterator[Frame] = iter(())
        self._timer: Timer | None = None
        #: where seeking back starts from, by inputs played (a few MB each: a state is small)
        self._snapshots: list[Snapshot] = []
        self._visited: list[VisitedFloor] = []
        #: the seek under way: when it is done (None: none is); a new seek replaces it
        self._seeking: Callable[[], bool] | None = None
        super().__init__(self._fresh_game(), world_name=printable(record.world))
        self._restart()

    # ------------------------------------------------------------------ the replay

    def _fresh_game(self) -> GameState:
        if self.recording is None or self.recording.generator_problem():
            return _empty_state()
        return self.recording.start.game(printable(self.record.world))

    def _restart(self) -> None:
        """Back to the run's first turn (a fresh game and the first input)."""
        self.played, self.finished, self.error = 0, False, None
        if self.recording is None:
            self.error = "This run has no recording: there is nothing to replay."
            self.finished = True
            return
        problem = self.recording.generator_problem()
        if problem is not None:  # said at once, not at the first input
            self.error = f"Cannot replay: {printable(problem)}"
            self.finished = True
            return
        self.state = self._fresh_game()
        self._fresh = len(self.state.log)
        self._play_from(0, [])
        self._keep_snapshot()

    def _play_from(self, played: int, visited: list[VisitedFloor]) -> None:
        """Go on from input ``played``, :attr:`state` being where the inputs before it led."""
        assert self.recording is not None
        self.played, self._visited = played, visited

        def stepper(state: GameState, action: Action) -> list[Event]:
            return step_remembering(state, action, visited)

        self._frames = frames(self.recording, state=self.state, stepper=stepper, start=played)

    def _keep_snapshot(self) -> None:
        if not self._snapshots or self._snapshots[-1].played < self.played:
            state, visited = copy.deepcopy((self.state, self._visited))
            self._snapshots.append(Snapshot(self.played, state, visited))
            if len(self._snapshots) > MAX_SNAPSHOTS:  # a very long run: every other one goes
                self._snapshots[1:] = self._snapshots[2::2]

    def _back_to(self, turn: int) -> None:
        """Back to the last snapshot before ``turn`` (the start, at worst): seeking back then
        replays only the inputs from there."""
        snap = max(
            (s for s in self._snapshots if s.state.turn < turn or s.played == 0),
            key=lambda s: s.played,
        )
        self.finished, self.error = False, None
        self.state, visited = copy.deepcopy((snap.state, snap.visited))
        self._play_from(snap.played, visited)

    def advance(self, inputs: int = 1) -> list[Event]:
        """Play up to ``inputs`` more recorded inputs (fewer at the end or at an error); the
        events of the last one."""
        events: list[Event] = []
        for _ in range(inputs):
            if self.finished:
                break
            floor = self.state.number  # before the input: frames() plays on this state
            try:
                frame = next(self._frames)
            except StopIteration:
                self.finished = True
                break
            except RecordingError as err:
                self.error = f"Replay stopped: {printable(str(err))}"
                self.finished = True
                break
            self.played = frame.index + 1
            events = frame.events
            if self.state.number != floor or self.played % SNAPSHOT_EVERY == 0:
                self._keep_snapshot()
        return events

    def _advance_until(self, done: Callable[[], bool], until: float | None = None) -> bool:
        """Play inputs headless until ``done()`` is true or the replay ends (True), or the
        clock passes ``until`` (False: more to do)."""
        while not self.finished and not done():
            self.advance()  # at least one input a slice, however short
            if until is not None and time.perf_counter() >= until:
                return self.finished or done()
        self._fresh = 0
        return True

    @property
    def seeking(self) -> bool:
        """A seek is under way (replaying in slices)."""
        return self._seeking is not None

    def _seek(self, restart: int | None, done: Callable[[], bool]) -> None:
        """Replay headless until ``done()``, then draw; first back to the last snapshot before
        turn ``restart``, unless None. Mounted, it replays a slice at a time (see the module),
        the prompt line saying how far it got."""
        if restart is not None:
            self._back_to(restart)
        if not self.is_mounted:
            self._advance_until(done)
            self._show()
            return
        self._seeking = done
        self.prompt = "Seeking…"
        self._draw_messages()
        self.call_later(self._seek_slice, done)

    def _seek_slice(self, done: Callable[[], bool]) -> None:
        """One slice of the seek ``done`` (nothing if it was stopped or replaced since)."""
        if self._seeking is not done:
            return
        if self._advance_until(done, time.perf_counter() + SEEK_SLICE):
            self._stop_seek()
            return
        if self._seeking is not done:  # stopped meanwhile
            return
        self.prompt = f"Seeking… turn {self.state.turn} · Esc stops"
        self._draw_messages()
        self.call_later(self._seek_slice, done)  # after the keys and the drawing queued

    def _stop_seek(self) -> None:
        """End the seek under way where it got, and draw."""
        self._seeking = None
        self.prompt = None
        self._fresh = 0
        self._show()

    def seek_turn(self, turn: int) -> None:
        """Show the state at the first input that reaches ``turn`` (from the start if it lies
        behind)."""
        back = turn < self.state.turn or (turn == 0 and self.played > 0)
        self._seek(turn if back else None, lambda: self.state.turn >= turn)

    def next_floor(self) -> None:
        """Play on to the first input on the next floor (or to the end)."""
        floor = self.state.number
        self._seek(None, lambda: self.state.number != floor or self.state.over)

    def step_once(self) -> None:
        events = self.advance()
        self._fresh = sum(isinstance(e, Message) for e in events)
        self._show()

    # ------------------------------------------------------------------ drawing and timing

    def on_mount(self) -> None:
        self.redraw()
        self._restart_timer()

    def status_line(self, width: int) -> str | None:
        """Where the replay stands and the keys, the least needed dropped to fit ``width``;
        an error instead, if it stopped on one."""
        if self.error:
            return self.error
        total = len(self.recording) if self.recording is not None else 0
        state = self.state
        where = f"Replay {self.played}/{total} · turn {state.turn} · floor {state.number}"
        if self.finished:
            how = "won" if state.won else "died" if state.dead else "left unfinished"
            parts = [(0, f"{where} · the end ({how})"), (1, "Home restarts"), (2, "q leaves")]
        else:
            parts = [
                (0, where + (" · paused" if self.paused else "")),
                (1, f"speed {self.speed}/{len(SPEEDS)} +/-"),
                (2, "space resumes" if self.paused else "space pauses"),
                (3, "f floor · ]/[ ±100 turns · g turn"),
            ]
        while len(parts) > 1 and len(" · ".join(w for _, w in parts)) > width:
            parts.remove(max(parts))
        return " · ".join(w for _, w in parts)

    def _show(self) -> None:
        if self.is_mounted:
            self.redraw()
            self.refresh_bindings()
        if self.finished:
            self._restart_timer()

    def _restart_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if not self.paused and not self.finished:
            self._timer = self.set_interval(1 / SPEEDS[self.speed - 1], self.tick)

    def tick(self) -> None:
        """The timer's input: one more, drawn (nothing while another screen is on top)."""
        if self.paused or self.finished or self.seeking or self.app.screen is not self:
            return
        self.step_once()

    # ------------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "step_once":
            return self.paused and not self.finished
        if action in ("pause", "faster", "slower", "next_floor"):
            return not self.finished
        if action == "practise":
            return (
                self.error is None
                and not self.state.over
                and isinstance(self.app, PracticeHost)
                and isinstance(self.record, RunRecord)
            )
        return True

    def action_pause(self) -> None:
        self.paused = not self.paused
        self._restart_timer()
        self._show()

    def action_faster(self) -> None:
        self._set_speed(self.speed + 1)

    def action_slower(self) -> None:
        self._set_speed(self.speed - 1)

    def _set_speed(self, speed: int) -> None:
        self.speed = min(len(SPEEDS), max(1, speed))
        self._restart_timer()
        self._show()

    def action_step_once(self) -> None:
        if self.paused and not self.seeking:
            self.step_once()

    def action_next_floor(self) -> None:
        self.next_floor()

    def action_seek_by(self, turns: int) -> None:
        self.seek_turn(max(0, self.state.turn + turns))

    def action_seek_turn(self, turn: int) -> None:
        self.seek_turn(turn)

    def action_ask_turn(self) -> None:
        def answered(text: str | None) -> None:
            if text and text.isdigit():
                self.seek_turn(int(text[:9]))

        self.app.push_screen(
            AskScreen(f"Seek to turn (now {self.state.turn}):", restrict=r"[0-9]{0,9}"), answered
        )

    def action_practise(self) -> None:
        """``p``: a practice game from exactly where the replay stands (paused first)."""
        if self.seeking or self.error is not None or not isinstance(self.app, PracticeHost):
            return
        if not isinstance(self.record, RunRecord):  # a game being watched is no run yet
            return
        if self.state.over:
            self.notify("The run is over here: go back to an earlier turn to practise.")
            return
        if not self.paused:
            self.action_pause()
        self.app.practise(self.record, self.played)

    def action_history(self) -> None:
        self.app.push_screen(HistoryScreen(self.state.log))

    def action_leave(self) -> None:
        if self.seeking:  # Esc first stops a seek where it got
            self._stop_seek()
            return
        if self._timer is not None:
            self._timer.stop()
        self.dismiss(None)


def _empty_state() -> GameState:
    """Something to draw when there is no recording: a tiny world without monsters."""
    return new_game(1, total_floors=1, monsters=False, puzzles=False)
