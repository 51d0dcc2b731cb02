"""The load screen: every saved world in a table; Enter plays one, ``d`` deletes one (after a
y/n confirmation), Esc goes back.

Deleting a world whose run is unfinished first keeps that run in the hall of runs as abandoned
(the app's ``abandon``, which replays the run's recording in a worker thread and then calls back
whether the run was kept); if that fails (the hall cannot be written) or is stopped, the world is
not deleted.
The screen does not load anything itself: Enter asks the app's
``open_world(name)`` (which locks and loads the world, or notifies why it cannot and changes
nothing) and dismisses with the :class:`~saves.session.Session` it returns. Damaged saves are
listed with their one-line problem and cannot be loaded.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from roguelike import seeds
from saves import Store, StoreError, WorldInfo
from saves.text import printable
from screens.box import BoxScreen
from screens.busy import BusyScreen

if TYPE_CHECKING:
    from saves.session import Session

COLUMNS = ("World", "Seed code", "Size, difficulty", "Floor", "Turn", "Saved", "Status")


def status(info: WorldInfo) -> str:
    """``playing``, ``won``, ``dead`` or ``cannot load: <why>`` (damaged, or made by another
    generator: the reason says which)."""
    if info.problem is not None:
        return f"cannot load: {printable(info.problem)}"
    if info.won:
        return "won"
    if info.dead:
        return "dead"
    return "playing"


def saved_at(text: str) -> str:
    """An ISO date as local ``YYYY-MM-DD HH:MM`` (or as it is, if it is not one, or if the
    local time zone would take it past year 9999 or before year 1)."""
    try:
        return dt.datetime.fromisoformat(text).astimezone().strftime("%Y-%m-%d %H:%M")
    except (ValueError, OverflowError):
        return text


def row(info: WorldInfo) -> tuple[str | Text, ...]:
    """The table's cells for ``info``."""
    if info.problem is not None:
        return (Text(printable(info.name)), "", "", "", "", "", Text(status(info), style="red"))
    extras = " · permadeath" if info.permadeath else ""
    return (
        Text(printable(info.name)),  # a name is never markup: "[b]" is part of it
        Text(
            printable(seeds.shown(info.seed, info.generator) if info.seed else "?")
        ),  # every cell from the file's header is plain text
        Text(printable(f"{info.preset or '?'} {info.difficulty}")),
        f"{info.floor}/{info.floors}",
        str(info.turn),
        Text(printable(saved_at(info.saved or "?"))),
        Text(status(info) + extras),
    )


class ConfirmScreen(BoxScreen[bool]):
    """A question answered with y (True) or n / Esc (False)."""

    DEFAULT_CSS = """
    ConfirmScreen #confirm-box {
        width: 60;
        border: round $warning;
    }
    """
    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No", key_display="n"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        yield Static(
            f"{self.question}\n\ny yes · n no", id="confirm-box", classes="box", markup=False
        )

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class LoadScreen(Screen["Session | None"]):
    """The saved worlds; Enter plays the highlighted one, d deletes it, Esc goes back."""

    DEFAULT_CSS = """
    #load-box {
        padding: 0 1;
    }
    #load-title {
        text-style: bold;
        color: $accent;
        margin-bottom: 1;
    }
    #worlds {
        height: 1fr;
    }
    #load-detail {
        height: 2;
        color: $text-muted;
    }
    """
    BINDINGS = [
        Binding("enter", "load", "Load", key_display="⏎", priority=True),
        Binding("d,delete", "delete", "Delete", key_display="d"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(
        self,
        store: Store,
        open_world: Callable[[str], Session | None],
        abandon: Callable[[str, Callable[[bool], None]], None] | None = None,
    ) -> None:
        """``open_world``: lock and load a world (the app's); ``abandon``: called with a
        world's name and what to do next before it is deleted (the app keeps an unfinished
        run in the hall, then calls that with False if it could not: the world is kept)."""
        super().__init__()
        self.store = store
        self.open_world = open_world
        self.abandon = abandon
        self.infos: list[WorldInfo] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="load-box"):
            yield Static("Saved worlds", id="load-title")
            yield DataTable(id="worlds", cursor_type="row", zebra_stripes=True)
            yield Static("", id="load-detail", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(*COLUMNS)
        self.fill()
        table.focus()

    def fill(self) -> None:
        """Read the world list again and show it."""
        table = self.query_one(DataTable)
        at = table.cursor_row
        try:
            self.infos = self.store.list()
        except OSError as err:
            self.infos = []
            self.notify(
                f"cannot read the save folder: {err.strerror or err}",
                severity="error",
                markup=False,
            )
        table.clear()
        for n, info in enumerate(self.infos):
            table.add_row(*row(info), key=str(n))
        if self.infos:
            table.move_cursor(row=min(max(0, at), len(self.infos) - 1))
        self.show_detail()

    @property
    def current(self) -> WorldInfo | None:
        at = self.query_one(DataTable).cursor_row
        return self.infos[at] if 0 <= at < len(self.infos) else None

    def show_detail(self) -> None:
        info = self.current
        if info is None:
            text = "No saved worlds. Esc goes back."
        elif info.problem is not None:
            text = f"{printable(info.name)}: cannot be loaded: {printable(info.problem)}"
        else:
            text = f"{printable(info.name)} · {status(info)}" + (
                " · permadeath" if info.permadeath else ""
            )
            if info.from_backup:
                text += " · main file damaged: its backup will be loaded"
        self.query_one("#load-detail", Static).update(text)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_detail()

    def action_load(self) -> None:
        info = self.current
        if info is None:
            return
        if info.problem is not None:
            problem = printable(info.problem)
            self.notify(f"{info.name}: {problem}", severity="error", timeout=6, markup=False)
            return
        name = info.name

        def opening() -> None:
            session = self.open_world(name)
            if session is not None:
                self.dismiss(session)

        # the world is read and its floor made while a box says so (as a new world's is)
        box = BusyScreen(f"Opening {name}…", opening)
        self.app.push_screen(box)
        self.app.call_after_refresh(box.run)

    def action_delete(self) -> None:
        info = self.current
        if info is None:
            return
        name = info.name

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            if self.abandon is None:
                self._delete(name, True)
            else:
                self.abandon(name, partial(self._delete, name))

        self.app.push_screen(
            ConfirmScreen(f"Delete the world {name!r}? Its save and backup are removed."),
            answered,
        )

    def _delete(self, name: str, run_kept: bool) -> None:
        """Delete the world ``name`` once its run is kept (``run_kept``); else it stays."""
        if not run_kept:
            self.fill()  # its run could not be kept (the app said why): the world stays
            return
        try:
            self.store.delete(name)
        except (StoreError, OSError) as err:
            self.notify(str(err), severity="error", timeout=6, markup=False)
        else:
            self.notify(f"Deleted {name}", timeout=3, markup=False)
        self.fill()

    def action_back(self) -> None:
        self.dismiss(None)
