"""The run summary: won or died (and of what), the seed code to share, and the run's numbers.

Dismisses with ``"title"`` (back to the title) or ``"again"`` (the same world from the start).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from roguelike import seeds

if TYPE_CHECKING:
    from roguelike.engine import GameState

SummaryChoice = Literal["title", "again"]


def _stat(state: GameState, name: str, default: Any) -> Any:
    """``state.stats.<name>``, or ``default`` while the engine has no such figure."""
    stats = getattr(state, "stats", None)
    value = getattr(stats, name, None) if stats is not None else None
    return default if value is None else value


def outcome(state: GameState, who: str = "You") -> tuple[str, str]:
    """(headline, cause) of a finished run played by ``who`` ("You", or "The bot")."""
    if getattr(state, "won", False):
        return f"{who} escaped the dungeon", "won"
    cause = getattr(state, "cause", None) or _stat(state, "cause", None)
    if getattr(state, "dead", False):
        return f"{who} died", str(cause or "unknown causes")
    return f"{who} left the dungeon", str(cause or "the run was abandoned")


def summary_rows(state: GameState) -> list[tuple[str, str]]:
    """The figures of a run, as (label, value) rows."""
    number = getattr(getattr(state, "floor", None), "number", 1)
    reached = _stat(state, "floors_reached", number)
    return [
        ("Floors reached", f"{reached} / {state.total_floors}"),
        ("Turns", str(_stat(state, "turns", getattr(state, "turn", 0)))),
        ("Kills", str(_stat(state, "kills", 0))),
        ("Keys", str(_stat(state, "keys", len(getattr(state, "keys_held", ()))))),
        ("Puzzles solved", str(_stat(state, "puzzles_solved", 0))),
        ("Hints used", str(_stat(state, "hints_used", 0))),
    ]


class SummaryScreen(Screen[SummaryChoice]):
    BINDINGS = [
        Binding("c", "copy_seed", "Copy seed code"),
        Binding("a,r", "again", "Same world again", key_display="a"),
        Binding("enter,escape,t", "title", "Title", key_display="⏎"),
    ]

    def __init__(
        self, state: GameState, *, world_name: str = "", gone: bool = False, watched: bool = False
    ) -> None:
        """``gone``: the world was deleted (a permadeath world whose player died);
        ``watched``: the bot played it all (watch mode), and "again" watches it again."""
        super().__init__()
        self.gone = gone
        self.watched = watched
        self.state = state
        self.world_name = world_name or getattr(state, "world_name", "") or ""
        self.code = seeds.encode(state.seed)

    def compose(self) -> ComposeResult:
        headline, cause = outcome(self.state, "The bot" if self.watched else "You")
        table = Table(show_header=False, box=None, padding=(0, 2))
        table.add_column(style="bold")
        table.add_column()
        if self.world_name:
            table.add_row("World", self.world_name)
        table.add_row("Seed code", self.code)
        if not getattr(self.state, "won", False):
            table.add_row("Cause", cause)
        for label, value in summary_rows(self.state):
            table.add_row(label, value)
        with Center(), Vertical(id="summary-box"):
            yield Static(headline, id="summary-headline", classes="won" if cause == "won" else "")
            yield Static(table, id="summary-table")
            if self.gone:
                yield Static("This world is gone (permadeath)", id="summary-gone")
        yield Footer()

    def action_copy_seed(self) -> None:
        self.app.copy_to_clipboard(self.code)
        self.notify(f"Seed code {self.code} copied", timeout=3)

    def action_again(self) -> None:
        self.dismiss("again")

    def action_title(self) -> None:
        self.dismiss("title")
