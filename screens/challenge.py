"""Importing a challenge: a run someone sent (``roguelike runs export``, or ``x`` in the hall),
checked in full before it is offered.

The player types the file's path; the screen says "Checking…", with how many inputs are
replayed so far, while a worker thread has :meth:`saves.hall.Hall.check_file` read it with
bounds and replay its recording, recomputing every claim (a recording longer than its world
allows is refused before any replay). Esc stops the check (so does quitting the game): the
replay looks at its worker's cancel between inputs, so the thread ends at once. A file that
fails is refused with its one-line reason (which claim is false, or what is wrong with the
file) and nothing is kept. A good one is kept among the challenges and offered: ``w`` watches
the sender's run in the replay viewer, ``p`` plays the same world yourself (the screen
dismisses with ``("play", record)``; the app starts the game, and its summary compares the
two runs).

Claims are shown only once the replay has confirmed them, and as plain text: a world's name
from a stranger's file is printed with :func:`saves.morgue.printable`, never as markup.
"""

from __future__ import annotations

from functools import partial
from typing import Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Input, Static
from textual.worker import Worker, WorkerState, get_current_worker

from roguelike import seeds
from saves.errors import SaveError, StoreError
from saves.hall import Hall
from saves.morgue import outcome_words, printable
from saves.record import RunRecord
from screens.replay import ReplayScreen

ChallengeChoice = tuple[Literal["play"], RunRecord]
CHECKING = "Checking… (replaying the sender's run to recompute every claim)"
#: How often the screen shows how far the check is, in seconds.
PROGRESS_EVERY = 0.25


class CheckStopped(Exception):
    """The check's worker was cancelled (Esc, or the game quits): its replay stops."""


def claims(record: RunRecord) -> str:
    """The checked claims of ``record``, a few lines of plain text."""
    outcome = outcome_words(record)
    # a death's cause names its floor already ("killed by a rat on floor 4"): said once
    outcome = outcome.removesuffix(f" on floor {record.floors}")
    return (
        f"{printable(record.world)} (seed {seeds.shown(record.seed, record.generator)}, "
        f"{record.preset} size, "
        f"{record.difficulty} difficulty)\n"
        f"{outcome} on floor {record.floors} of {record.total_floors}, "
        f"turn {record.turns}\n"
        f"kills {record.kills} · puzzles {record.puzzles_solved} ({record.puzzle_points} points)"
        f" · hints {record.hints_used} · score {record.score}"
    )


class ChallengeScreen(Screen[ChallengeChoice | None]):
    """Import a challenge file, then watch or play it (see the module)."""

    DEFAULT_CSS = """
    ChallengeScreen {
        align: center middle;
    }
    #challenge-box {
        width: 80;
        max-width: 100%;
        height: auto;
        border: round $accent;
        padding: 1 2;
    }
    #challenge-title {
        text-style: bold;
        color: $accent;
        margin-bottom: 1;
    }
    #challenge-status {
        margin-top: 1;
        height: auto;
    }
    #challenge-status.-error {
        color: $error;
    }
    #challenge-status.-ok {
        color: $success;
    }
    """
    BINDINGS = [
        Binding("w", "watch", "Watch their run"),
        Binding("p", "play", "Play the same world"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, hall: Hall, path: str = "", *, fixed: bool = False) -> None:
        """``path``: the file to offer (typed over by the player, unless ``fixed``: a served
        game's upload, where a path typed would name a file of the server's, not the
        player's: the field is then read-only and only ``path`` is ever checked)."""
        super().__init__()
        self.hall = hall
        self.path = path
        self.fixed = fixed
        #: the imported record, once checked
        self.record: RunRecord | None = None
        self.checking = False
        #: how far the check's replay is: (inputs replayed, inputs in all), set by its thread
        self.progress: tuple[int, int] = (0, 0)
        self._ticker: Timer | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="challenge-box"):
            yield Static("Import a challenge", id="challenge-title")
            yield Static("The challenge file (Enter checks it):", markup=False)
            yield Input(self.path, id="challenge-path", disabled=self.fixed)
            yield Static("", id="challenge-status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        if not self.fixed:
            self.query_one(Input).focus()

    @property
    def status(self) -> Static:
        return self.query_one("#challenge-status", Static)

    def say(self, text: str, kind: str = "") -> None:
        self.status.set_classes(f"-{kind}" if kind else "")
        self.status.update(Text(text))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        path = self.path if self.fixed else event.value.strip()
        if not path or self.checking:
            return
        self.record, self.checking = None, True
        self.refresh_bindings()
        self.progress = (0, 0)
        self.say(CHECKING)
        # checked off the UI thread, kept on it once done (Esc meanwhile keeps nothing)
        self.run_worker(
            partial(self._check, path), thread=True, exit_on_error=False, group="import"
        )
        self._ticker = self.set_interval(PROGRESS_EVERY, self._show_progress)

    def _check(self, path: str) -> RunRecord:
        """The check, in the worker's thread: stopped between inputs once it is cancelled."""
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:
                raise CheckStopped
            self.progress = (done, total)

        return self.hall.check_file(path, progress=progress)

    def _show_progress(self) -> None:
        done, total = self.progress
        if self.checking and total:
            self.say(f"{CHECKING}\ninput {done:,} of {total:,} replayed · Esc stops")

    def _stop_ticker(self) -> None:
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if event.state in (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED):
            self._stop_ticker()
        if event.state == WorkerState.SUCCESS:
            self.checking = False
            checked = worker.result
            assert isinstance(checked, RunRecord)
            try:
                self.record = self.hall.keep_challenge(checked)
            except (SaveError, OSError) as failure:
                why = str(failure)
                if isinstance(failure, OSError) and failure.strerror:
                    why = failure.strerror
                self.say(f"Not kept: {printable(why)}", "error")
                self.refresh_bindings()
                return
            self.say(
                f"{claims(self.record)}\n\nEvery claim checked by replay. "
                "w watches their run · p plays the same world",
                "ok",
            )
            # the keys are the offer's now (w, p), even when the viewer gives focus back
            self.query_one("#challenge-path", Input).disabled = True
        elif event.state == WorkerState.ERROR:
            self.checking = False
            err = worker.error
            if isinstance(err, SaveError | StoreError | OSError):
                why = str(err)
            else:  # anything else is a bug, but the player still gets one line
                why = f"the file could not be checked ({type(err).__name__})"
            self.say(f"Refused: {printable(why)}", "error")
        else:
            return
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("watch", "play"):
            return self.record is not None
        return True

    def action_watch(self) -> None:
        if self.record is not None:
            self.app.push_screen(ReplayScreen(self.record))

    def action_play(self) -> None:
        if self.record is not None:
            self.dismiss(("play", self.record))

    def action_back(self) -> None:
        self._stop_ticker()
        self.workers.cancel_group(self, "import")  # its replay stops at its next input
        self.dismiss(None)
