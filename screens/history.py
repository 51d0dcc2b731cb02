"""The message history: every message of the run so far, newest at the bottom, a message said
again in a row once with its count (:mod:`screens.repeats`)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from rich.cells import cell_len
from rich.segment import Segment
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.geometry import Size
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Footer, Static

from saves.text import printable
from screens.bindings import ClosedByItsKey
from screens.repeats import collapsed


class WrappedLines(ScrollView):
    """``lines`` wrapped at the widget's width, drawn a screen row at a time (Line API): only
    the rows on the screen are ever drawn, so a log of a thousand lines opens at once (a
    ``RichLog`` rendered every line first: half a second at 80×24). Opens at its end."""

    DEFAULT_CSS = """
    WrappedLines {
        overflow-x: hidden;
        scrollbar-gutter: stable;
    }
    """

    def __init__(self, lines: Sequence[str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines = list(lines)
        #: the lines wrapped, one screen row each, and the width they were wrapped at
        self.rows: list[str] = []
        self._wrapped_at = 0

    def _wrap(self, width: int) -> None:
        if width == self._wrapped_at or width <= 0:
            return
        at_end = not self._wrapped_at or self.scroll_y >= self.max_scroll_y
        self._wrapped_at = width
        rows: list[str] = []
        for line in self.lines:
            if cell_len(line) <= width:  # most do: textwrap only for the rest
                rows.append(line)
            else:
                rows.extend(textwrap.wrap(line, width))
        self.rows = rows
        self.virtual_size = Size(width, len(rows))
        if at_end:
            self.scroll_y = self.max_scroll_y  # before it is drawn: no frame at the top
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        self._wrap(self.scrollable_content_region.width)

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        row = int(self.scroll_y) + y
        text = self.rows[row] if 0 <= row < len(self.rows) else ""
        style = self.rich_style
        return Strip([Segment(text, style)]).extend_cell_length(width, style).crop(0, width)


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
        # a loaded log was made printable by the codec; again here, as a second guard
        shown = [printable(line) for line in collapsed(self.lines)] or ["(no messages yet)"]
        yield WrappedLines(shown, id="history-log")
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)
