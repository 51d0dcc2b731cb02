"""``BusyScreen``: a box saying what is being made ("Making today's world…") while a piece of
work that holds the screen for a while runs (a world's first floor generated, its puzzles
carved): the title never sits there unchanged for seconds after a key.

``CheckScreen``: the same box for work that runs in a worker thread while the screen keeps
answering, with how far it is (a loaded run's recording replayed before the hall keeps it:
"Checking the run against its recording… input N of M")."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static
from textual.worker import Worker, WorkerState, get_current_worker

from screens.box import BoxScreen

#: What the work is told as it goes: (inputs done, inputs in all); it raises to stop the work
#: (:data:`roguelike.recording.Progress`, not imported: the title shows before the engine loads).
Progress = Callable[[int, int], None]


class BusyScreen(BoxScreen[None]):
    """Shows ``words``; :meth:`run` (called once they are on the screen: see
    ``RoguelikeApp.busy``) leaves and runs ``work`` (which may push the next screen)."""

    DEFAULT_CSS = """
    BusyScreen #busy-box {
        width: auto;
        max-width: 70;
    }
    """

    def __init__(self, words: str, work: Callable[[], object]) -> None:
        super().__init__()
        self.words = words
        self.work = work

    def compose(self) -> ComposeResult:
        yield Static(self.words, id="busy-box", classes="box", markup=False)

    def run(self) -> None:
        self.dismiss()
        self.work()


#: How often a :class:`CheckScreen` shows how far its work is, in seconds.
PROGRESS_EVERY = 0.25


class WorkStopped(Exception):
    """A :class:`CheckScreen`'s work was stopped (Esc, or the game quits): its replay ends at
    its next input."""


@dataclass(frozen=True)
class CheckResult:
    """How a :class:`CheckScreen`'s work ended: its ``value``, or the ``error`` it raised, or
    ``stopped`` before it was done."""

    value: object = None
    error: BaseException | None = None
    stopped: bool = False


class CheckScreen(BoxScreen[CheckResult]):
    """A box saying ``words`` and how far the work is ("input N of M") while ``work`` runs in
    a worker thread (a run's recording replayed to check it: seconds for a long run), so
    the screen keeps answering. ``work`` is given a progress callback ``(done, total)``,
    which raises :class:`WorkStopped` once :meth:`stop` is called. Dismissed with a
    :class:`CheckResult`. ``stoppable``: Esc stops the work (only where stopping changes
    nothing: the caller then keeps everything as it was)."""

    DEFAULT_CSS = """
    CheckScreen #check-box {
        width: auto;
        max-width: 70;
    }
    """
    BINDINGS = [Binding("escape", "stop", "Stop", show=False)]

    def __init__(
        self, words: str, work: Callable[[Progress], object], *, stoppable: bool = False
    ) -> None:
        super().__init__()
        self.words = words
        self.work = work
        self.stoppable = stoppable
        #: (inputs replayed, inputs in all), set by the worker's thread
        self.progress: tuple[int, int] = (0, 0)
        self._stopping = threading.Event()

    def compose(self) -> ComposeResult:
        yield Static(self.words, id="check-box", classes="box", markup=False)

    def on_mount(self) -> None:
        self.run_worker(self._run, thread=True, exit_on_error=False, group="check")
        self.set_interval(PROGRESS_EVERY, self._show_progress)

    def _run(self) -> CheckResult:
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if self._stopping.is_set() or worker.is_cancelled:  # stopped, or the app quits
                raise WorkStopped
            self.progress = (done, total)

        # a stop ends the worker as a success that says so: a worker left in error would
        # make anyone waiting for the app's workers fail on an ending that was asked for
        try:
            return CheckResult(self.work(progress))
        except WorkStopped:
            return CheckResult(stopped=True)

    @property
    def text(self) -> str:
        done, total = self.progress
        if not total:
            return self.words
        hint = " · Esc stops" if self.stoppable else ""
        return f"{self.words}\ninput {done:,} of {total:,}{hint}"

    def _show_progress(self) -> None:
        self.query_one("#check-box", Static).update(self.text)

    def stop(self) -> None:
        """Stop the work at its next input (the screen is dismissed once it has ended)."""
        self._stopping.set()

    def action_stop(self) -> None:
        if self.stoppable:
            self.stop()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if event.state == WorkerState.SUCCESS:
            result = worker.result
            self.dismiss(result if isinstance(result, CheckResult) else CheckResult(result))
        elif event.state == WorkerState.ERROR:
            self.dismiss(CheckResult(error=worker.error))
        elif event.state == WorkerState.CANCELLED:
            self.dismiss(CheckResult(stopped=True))
