"""``DungeonScreen``: what the game screen and the replay viewer share — the map, the side
panel and the message log with a prompt line under it, and how they are drawn from a
:class:`~roguelike.engine.GameState`.

A subclass keeps :attr:`state` (the state shown), :attr:`world_name` and :attr:`_fresh` (how
many of the newest log lines the last input wrote, drawn bright) up to date and says what its
prompt line shows (:meth:`status_line`); :meth:`redraw` does the rest, drawing only what
changed. Its CSS (``game.tcss``) names ``DungeonScreen``, so both screens look the same.
"""

from __future__ import annotations

import textwrap
from functools import cached_property
from itertools import islice
from pathlib import Path
from typing import TypeVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from roguelike.engine import GameState
from saves.text import printable
from screens.footer import FitFooter
from screens.lines import TextLines
from screens.map_view import MapView
from screens.repeats import runs_from_end
from screens.side_panel import BRIGHT, OLD, side_panel_lines

#: The colour of the prompt line.
PROMPT = "bold #ffd060"
#: The most rows the message log takes on a short terminal (80×24), where it takes only the
#: rows the last action's messages need (one when nothing new was said), and on a terminal of
#: :data:`TALL` rows or more, where it always takes :data:`TALL_LOG_ROWS`. The full log is one
#: key away (``m``, the message history).
LOG_ROWS = 4
TALL = 30
TALL_LOG_ROWS = 6
#: The most rows a prompt takes: the log grows past its rows to show a long one whole (look's
#: text of a sleeping monster runs to five rows at 80 columns, its keys at the end), the map
#: giving the rows back when the prompt is gone.
PROMPT_ROWS = 8

ResultT = TypeVar("ResultT")


class DungeonScreen(Screen[ResultT]):
    """The map, side panel and message log of ``state`` (see the module)."""

    # beside this module, whichever package the subclass is in (Textual reads a relative path
    # from the subclass's folder)
    CSS_PATH = Path(__file__).with_name("game.tcss")
    AUTO_FOCUS = ""

    def __init__(self, state: GameState, *, world_name: str = "", permadeath: bool = False) -> None:
        super().__init__()
        self.state = state
        self.world_name = world_name
        #: The world's save is deleted at death: the side panel says so.
        self.permadeath = permadeath
        #: A line shown under the log until the next action: a prompt or a description.
        self.prompt: str | None = None
        #: How many of the newest log lines the last action wrote (drawn bright).
        self._fresh = len(state.log)
        #: What the message log shows, and what it was drawn from (see :meth:`_draw_messages`).
        self._messages_shown: Text | None = None
        self._messages_drawn: tuple[object, ...] | None = None
        #: The most rows the message log takes, and whether it takes only as many as the last
        #: action's messages need (a short terminal: the map gets the rest; see
        #: :meth:`on_resize`).
        self._log_rows = LOG_ROWS
        self._quiet_log = True
        self._log_height = LOG_ROWS  # as game.tcss sets it

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        with Horizontal(id="game-main"):
            yield MapView(id="map")
            with Vertical(id="side"):
                yield TextLines(id="stats")
        yield Static("", id="messages")
        yield FitFooter()

    def on_resize(self, event: events.Resize) -> None:
        width, height = event.size
        self.query_one("#side").styles.width = 24 if width < 110 else 30
        # a short terminal (80×24) gives the map every row the log does not need this turn
        self._quiet_log = height < TALL
        self._log_rows = LOG_ROWS if height < TALL else TALL_LOG_ROWS
        if not self._quiet_log:
            self._log_height = self._log_rows
            self._messages.styles.height = self._log_rows
        self.call_after_refresh(self.redraw)

    @cached_property
    def map_view(self) -> MapView:
        return self.query_one("#map", MapView)

    @cached_property
    def _stats(self) -> TextLines:
        return self.query_one("#stats", TextLines)

    @cached_property
    def _messages(self) -> Static:
        return self.query_one("#messages", Static)

    def status_line(self, width: int) -> str | None:
        """What the prompt line shows when no :attr:`prompt` is set (None: nothing)."""
        return None

    def redraw(self) -> None:
        """Draw the state everywhere: the map and the side panel (the rows and lines that
        changed only) and the message log (when it changed)."""
        self.map_view.show(self.state)
        stats = self._stats
        width = max(10, stats.size.width or 21)
        height = stats.size.height or None
        stats.show(
            side_panel_lines(self.state, self.world_name, width, height, permadeath=self.permadeath)
        )
        self._draw_messages()

    def _draw_messages(self) -> None:
        """The newest messages that fit (the last action's bright, older ones dim; a message
        said again in a row once, with its count: :mod:`screens.repeats`), and the prompt line
        under them. On a short terminal the log takes only the rows the last action's
        messages and the prompt need (one at least), up to :data:`LOG_ROWS`, and the map the
        rest; a long prompt gets its rows whole, up to :data:`PROMPT_ROWS`. Drawn again only
        when something it is drawn from changed: new messages, the prompt, the size, and once
        after a batch of new messages (when they turn dim)."""
        widget = self._messages
        width = max(20, widget.content_size.width or 78)
        prompt = self.prompt or self.status_line(width)
        log = self.state.log
        fresh_from = len(log) - self._fresh

        def rows_of(text: str) -> int:
            # wrapped at words as the log draws it: counting characters alone undercounts a
            # line whose last word moves to the next row, and the log cut its last line off
            return max(1, len(textwrap.wrap(text, width, break_on_hyphens=False)))

        prompt_rows = rows_of(prompt) if prompt else 0
        most = max(self._log_rows, min(prompt_rows, PROMPT_ROWS))
        # every shown run takes a row at least: the last `most` runs are all that can show
        runs = list(islice(runs_from_end(log), most))
        if self._quiet_log:
            fresh_rows = 0
            for run in runs:
                if run.last < fresh_from:
                    break
                fresh_rows += rows_of(run.shown)
            budget = max(1, min(most, fresh_rows + prompt_rows))
        else:
            budget = most
        drawn = (width, budget, prompt, tuple((r, r.last >= fresh_from) for r in runs))
        if budget != self._log_height:  # a new height lays the screen out: the map's too
            self._log_height = budget
            widget.styles.height = budget
        if drawn == self._messages_drawn:
            return
        self._messages_drawn = drawn
        budget -= prompt_rows
        shown: list[Text] = []
        for run in runs:
            line = run.shown
            rows = rows_of(line)
            if rows > budget:
                break
            budget -= rows
            # a loaded log was made printable by the codec; again here, as a second guard
            style = BRIGHT if run.last >= fresh_from else OLD
            shown.append(Text(printable(line), style=style))
        shown.reverse()
        if prompt:
            shown.append(Text(prompt, style=PROMPT))
        text = Text("\n").join(shown)
        if text != self._messages_shown:
            self._messages_shown = text
            widget.update(text, layout=False)  # its height is set apart: no new layout
