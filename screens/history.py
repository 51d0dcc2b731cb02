"""The message history: every message of the run so far, newest at the bottom."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, RichLog, Static

from saves.text import printable
from screens.bindings import ClosedByItsKey


class HistoryScreen(ClosedByItsKey, Screen[None]):
    """Shows ``lines`` (a game's ``state.log``) in a scrollable log, scrolled to the newest
    line. Esc (or ``m``, ``q``) closes it."""

    DEFAULT_CSS = """
    HistoryScreen #history-title {
        height: 1;
        background: $panel;
        color: $text;
        text-style: bold;
        padding: 0 1;
    }
    HistoryScreen #history-log {
        height: 1fr;
        background: $surface;
    }
    """

    BINDINGS = [
        Binding("escape,m,q", "close", "Close"),
    ]
    opened_by = "game.history"

    AUTO_FOCUS = "#history-log"

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__()
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        n = len(self.lines)
        yield Static(
            f"Message history: {n} message{'' if n == 1 else 's'} (↑ ↓ PgUp PgDn scroll)",
            id="history-title",
            markup=False,
        )
        yield RichLog(id="history-log", wrap=True, markup=False, highlight=False)
        yield Footer()

    def on_mount(self) -> None:
        log = self.query_one("#history-log", RichLog)
        for line in self.lines or ["(no messages yet)"]:
            log.write(Text(printable(line)), scroll_end=False)
        log.scroll_end(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
