"""The too-small overlay: a full-screen message while the terminal is under 80×24.

It is a modal screen pushed over whatever screen is current, so that screen (a game in
progress, say) is only covered, never torn down, and is exactly as it was when the app pops
the overlay once the terminal is large enough again. The app decides when; see
:meth:`screens.app.RoguelikeApp.check_size`.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import ModalScreen
from textual.widgets import Static

MIN_WIDTH = 80
MIN_HEIGHT = 24


def too_small_message(width: int, height: int) -> str:
    return (
        f"Terminal too small: need {MIN_WIDTH}×{MIN_HEIGHT}, have {width}×{height}"
        " — resize to continue"
    )


class TooSmallScreen(ModalScreen[None]):
    # Keys other than the app's priority ones (Ctrl+Q) stop here: nothing below may act
    # while it cannot be seen.

    def __init__(self, width: int, height: int) -> None:
        super().__init__()
        self._size_text = too_small_message(width, height)

    def compose(self) -> ComposeResult:
        yield Static(self._size_text, id="too-small-text", markup=False)

    def show_size(self, width: int, height: int) -> None:
        self._size_text = too_small_message(width, height)
        if self.is_mounted:
            self.query_one("#too-small-text", Static).update(self._size_text)
