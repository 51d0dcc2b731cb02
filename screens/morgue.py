"""``MorgueScreen``: a run's text (its morgue, :func:`saves.morgue.morgue`) in a scrollable box,
shown from the hall and from the final screen; Esc or Enter closes it. The text is plain (its
parts from a file already made printable), shown with markup off."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from screens.box import BoxScreen

__all__ = ["MorgueScreen"]


class MorgueScreen(BoxScreen[None]):
    """A run's text dump, scrollable; Esc or Enter closes it."""

    DEFAULT_CSS = """
    MorgueScreen .box {
        width: 80;
        height: 90%;
    }
    """
    BINDINGS = [Binding("escape,enter,q", "close", "Close")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="box"):
            yield Static(self.text, id="morgue-text", markup=False)
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)
