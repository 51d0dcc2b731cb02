"""``MorgueScreen``: a run's text (its morgue, :func:`saves.morgue.morgue`) in a scrollable box,
shown from the hall and from the final screen; Esc or Enter closes it. The text is plain (its
parts from a file already made printable), shown with markup off. A fuller text that takes a
replay to make (the run's floors, :func:`saves.morgue.run_floors`) is made in a worker thread
and replaces the first when it is ready (:func:`run_text` makes both for a record). Closing
the screen cancels that worker, and the replay stops at its next progress report, so neither
closing the morgue nor quitting the game waits for a long replay."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static
from textual.worker import Worker, get_current_worker

from roguelike.recording import Progress
from saves.morgue import morgue, run_floors
from saves.record import RunRecord
from screens.box import BoxScreen

__all__ = ["Cancelled", "MorgueScreen", "run_text"]


class Cancelled(Exception):
    """The worker making the fuller text was cancelled (its screen closed): stop replaying."""


class MorgueScreen(BoxScreen[None]):
    """A run's text dump, scrollable; Esc or Enter closes it."""

    DEFAULT_CSS = """
    MorgueScreen .box {
        width: 80;
        height: 90%;
    }
    """
    BINDINGS = [Binding("escape,enter,q", "close", "Close")]

    def __init__(self, text: str, fuller: Callable[[Progress], str] | None = None) -> None:
        """``fuller``: makes the text again with what takes a while (in a worker thread),
        telling its progress to the callback it is given, which raises :class:`Cancelled`
        once the screen is closed."""
        super().__init__()
        self.text = text
        self.fuller = fuller
        self._worker: Worker[None] | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="box"):
            yield Static(self.text, id="morgue-text", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        if self.fuller is not None:
            self._worker = self.run_worker(self._make_fuller, thread=True, exit_on_error=False)

    def on_unmount(self) -> None:
        if self._worker is not None:
            self._worker.cancel()

    def _make_fuller(self) -> None:
        assert self.fuller is not None
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:
                raise Cancelled

        try:
            text = self.fuller(progress)
        except Cancelled:
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self._show, text)

    def _show(self, text: str) -> None:
        self.text = text
        if self.is_mounted:
            self.query_one("#morgue-text", Static).update(text)

    def action_close(self) -> None:
        self.dismiss(None)


def run_text(record: RunRecord, *, streak: int | None = None) -> MorgueScreen:
    """The screen of ``record``'s text: at once without its floors, then with them (found by
    replaying its recording in a worker thread, stopped if the screen is closed first)."""

    def fuller(r: RunRecord, s: int | None, progress: Progress) -> str:
        return morgue(r, streak=s, floors=run_floors(r, progress))

    return MorgueScreen(morgue(record, streak=streak), partial(fuller, record, streak))
