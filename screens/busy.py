"""``BusyScreen``: a box saying what is being made ("Making today's world…") while a piece of
work that holds the screen for a while runs (a world's first floor generated, its puzzles
carved): the title never sits there unchanged for seconds after a key."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.widgets import Static

from screens.box import BoxScreen


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
