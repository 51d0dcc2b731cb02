"""The question asked when leaving a game could not save it (a full disk, a save folder made
read-only): why, in one line, and what to do. ``r`` tries again (after freeing some space, say),
``l`` leaves without saving (the world stays as last saved, which the box says), Esc goes back
to the game, still open and held. Nothing is decided without the player: a game whose save
failed is never closed silently.
"""

from __future__ import annotations

from typing import Literal

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from saves.text import printable
from screens.box import BoxScreen

#: What the player chose: try saving again, or leave without saving (None: back to the game).
LeaveChoice = Literal["retry", "leave"]


class SaveFailedScreen(BoxScreen[LeaveChoice | None]):
    """Saving on the way out failed: ``r`` retry, ``l`` leave without saving, Esc back to the
    game. Dismissed with the choice (None: back to the game)."""

    DEFAULT_CSS = """
    SaveFailedScreen #save-failed-box {
        width: 72;
        border: round $error;
    }
    """
    BINDINGS = [
        Binding("r", "choose('retry')", "Retry"),
        Binding("l", "choose('leave')", "Leave without saving"),
        Binding("escape", "choose(None)", "Back to the game"),
    ]

    def __init__(self, world: str, reason: str) -> None:
        """``world``: the world's name; ``reason``: why it was not saved (one line)."""
        super().__init__()
        self.world = world
        self.reason = " ".join(reason.split())

    @property
    def text(self) -> str:
        return (
            f"{printable(self.world)} was not saved: {printable(self.reason)}\n\n"
            "r try again · l leave without saving (the world stays as last saved) · "
            "Esc back to the game"
        )

    def compose(self) -> ComposeResult:
        yield Static(self.text, id="save-failed-box", classes="box", markup=False)

    def action_choose(self, choice: LeaveChoice | None) -> None:
        self.dismiss(choice)
