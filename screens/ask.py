"""``AskScreen``: a modal question answered by typing a line (a turn to seek to, a file to
write). Enter dismisses with the text, Esc with None. The question and the default are shown
with markup off: a path may hold brackets."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from screens.box import BoxScreen


class AskScreen(BoxScreen[str | None]):
    DEFAULT_CSS = """
    AskScreen .box {
        width: 70;
    }
    AskScreen Input {
        width: 100%;
    }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, question: str, default: str = "", *, restrict: str | None = None) -> None:
        """``restrict``: a regular expression the typed text must match as it is typed."""
        super().__init__()
        self.question = question
        self.default = default
        self.restrict = restrict

    def compose(self) -> ComposeResult:
        with Vertical(classes="box"):
            yield Static(self.question, markup=False)
            yield Input(self.default, restrict=self.restrict, id="answer")
            yield Static("Enter confirms · Esc cancels", markup=False)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
