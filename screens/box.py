"""``BoxScreen``: a modal screen that shows one bordered box in the middle of the screen (the
pack, a puzzle's rules). A subclass gives its box the ``box`` class and sets only its width."""

from __future__ import annotations

from textual.screen import ModalScreen, ScreenResultType


class BoxScreen(ModalScreen[ScreenResultType]):
    DEFAULT_CSS = """
    BoxScreen {
        align: center middle;
    }
    BoxScreen .box {
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: round $accent;
        background: $surface;
        padding: 0 1;
    }
    """
