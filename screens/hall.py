"""The hall of runs: every finished run of this save folder (won, died, abandoned) in a table,
best score first, and the challenges imported from others.

Keys: ``o`` cycles the outcome shown (all, won, died, abandoned), ``d`` shows daily runs only,
``/`` types a seed code to filter by (Enter or Esc goes back to the table), ``tab`` switches
between your runs and the challenges; Enter shows the highlighted run as a morgue-style text
(:func:`saves.morgue.morgue`), ``w`` watches it in the replay viewer, ``x`` exports it as a
challenge file (asking where; in a browser tab, a download), ``l`` shows the ladder of its world
(:func:`saves.ladder.hall_ladder`: the hall's runs and challenges of that seed, size and
difficulty, ranked), and on a challenge ``p`` plays its world yourself. Esc leaves.

The screen plays nothing itself: ``p`` dismisses it with ``("play", record)`` and the app
starts the game. Everything a record holds came from a file, so every text is shown as
:func:`saves.morgue.printable` makes it and never as markup.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Input, Static

from roguelike import seeds
from saves.hall import Hall
from saves.ladder import hall_ladder, ladder_table
from saves.morgue import outcome_words, printable
from saves.record import RunFileError, RunRecord
from screens.ask import AskScreen
from screens.footer import FitFooter
from screens.morgue import MorgueScreen, run_text
from screens.replay import ReplayScreen
from screens.served import ServedApp

#: What the outcome filter cycles through (``o``).
OUTCOME_FILTERS = ("all", "won", "died", "abandoned")
#: The table's columns: narrow enough for 80 columns (the size, the cause and the rest are in
#: the detail line and the run's text).
COLUMNS = ("Score", "World", "Seed code", "Outcome", "Floor", "Turns", "Puzzles")
HallChoice = tuple[Literal["play"], RunRecord]


def cells(record: RunRecord) -> tuple[Text, ...]:
    """The table's cells for ``record`` (every text made printable, none read as markup)."""
    daily = " ☀" if record.daily else ""
    return (
        Text(str(record.score), justify="right"),
        Text(printable(record.world)[:20] + daily),
        Text(seeds.shown(record.seed, record.generator)),
        Text(record.outcome + (" practice" if record.practice else "")),
        Text(f"{record.floors}/{record.total_floors}"),
        Text(str(record.turns), justify="right"),
        Text(f"{record.puzzles_solved} ({record.puzzle_points})"),
    )


def shown(
    records: list[RunRecord], outcome: str = "all", seed: str = "", daily: bool = False
) -> list[RunRecord]:
    """The records the filters let through, in their order: ``outcome`` (or ``all``), a seed
    code containing ``seed`` (case and dashes ignored; the code as shown, with its generator,
    or as older releases showed it), daily runs only."""
    want = seed.replace("-", "").strip().upper()

    def codes(r: RunRecord) -> tuple[str, str]:
        return seeds.shown(r.seed, r.generator).replace("-", ""), r.seed.replace("-", "").upper()

    return [
        r
        for r in records
        if (outcome == "all" or r.outcome == outcome)
        and (not want or any(want in code for code in codes(r)))
        and (not daily or r.daily is not None)
    ]


class HallScreen(Screen[HallChoice | None]):
    """The hall of runs (see the module)."""

    #: the table has the keys from the start: Textual's default focuses the first focusable
    #: widget (the seed filter) until on_mount's focus lands, and a quick ``x`` was typed there
    AUTO_FOCUS = "#hall-table"
    DEFAULT_CSS = """
    #hall-box {
        padding: 0 1;
    }
    #hall-title {
        text-style: bold;
        color: $accent;
    }
    #hall-filters {
        height: 3;
    }
    #hall-filters Input {
        width: 30;
    }
    #hall-filter-note {
        width: 1fr;
        padding: 1 0 0 2;
        color: $text-muted;
    }
    #hall-table {
        height: 1fr;
    }
    #hall-detail {
        height: 2;
        color: $text-muted;
    }
    """
    BINDINGS = [
        Binding("w", "watch", "Watch"),
        Binding("x", "export", "Export"),
        Binding("p", "play", "Play"),
        Binding("l", "ladder", "Ladder", show=False),  # the filter note says it: 80 columns
        Binding("o", "outcome", "Outcome"),
        Binding("d", "daily", "Daily"),
        Binding("slash", "seed_filter", "Seed", key_display="/"),
        Binding("tab", "switch", "Other list", key_display="⇥"),  # runs ⇄ challenges
        Binding("escape", "back", "Back"),
    ]

    def __init__(
        self,
        hall: Hall,
        *,
        challenges: bool = False,
        daily: bool = False,
        today: dt.date | None = None,
    ) -> None:
        """``challenges``: open on the imported challenges; ``daily``: on daily runs only;
        ``today``: the day the daily streak counts to (None: today, UTC)."""
        super().__init__()
        self.hall = hall
        self.challenges = challenges
        self.outcome = "all"
        self.daily = daily
        self.today = today
        self.records: list[RunRecord] = []
        self.rows: list[RunRecord] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="hall-box"):
            yield Static("", id="hall-title", markup=False)
            with Horizontal(id="hall-filters"):
                yield Input(placeholder="seed code (/)", id="seed-filter")
                yield Static("", id="hall-filter-note", markup=False)
            yield DataTable(id="hall-table", cursor_type="row", zebra_stripes=True)
            yield Static("", id="hall-detail", markup=False)
        yield FitFooter()

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns(*COLUMNS)
        self.read()
        self.query_one(DataTable).focus()

    # ------------------------------------------------------------------ the list

    def read(self) -> None:
        """Read the runs (or challenges) again, then show them."""
        self.records = self.hall.challenges() if self.challenges else self.hall.runs()
        if self.hall.problems:
            first = printable(self.hall.problems[0])
            more = len(self.hall.problems) - 1
            note = f"Skipped {first}" + (f" (and {more} more)" if more else "")
            self.notify(note, severity="warning", timeout=6, markup=False)
        self.fill()

    def fill(self) -> None:
        """Show the records the filters let through."""
        seed = self.query_one("#seed-filter", Input).value
        self.rows = shown(self.records, self.outcome, seed, self.daily)
        table = self.query_one(DataTable)
        table.clear()
        for record in self.rows:
            table.add_row(*cells(record), key=record.id)
        which = "Challenges received" if self.challenges else "Hall of runs"
        self.query_one("#hall-title", Static).update(
            f"{which} · {len(self.rows)} of {len(self.records)} shown"
        )
        parts = [
            f"outcome: {self.outcome} (o)",
            "daily only (d)" if self.daily else "all worlds (d)",
            "ladder (l)",
        ]
        if self.daily:
            parts.append(f"streak {self.hall.streak(self.today)}")
        self.query_one("#hall-filter-note", Static).update(" · ".join(parts))
        self.show_detail()

    @property
    def current(self) -> RunRecord | None:
        at = self.query_one(DataTable).cursor_row
        return self.rows[at] if 0 <= at < len(self.rows) else None

    def show_detail(self) -> None:
        record = self.current
        if record is None:
            text = "No runs here yet." if not self.records else "No run matches the filters."
        else:
            text = (
                f"{printable(record.world)} · {record.preset} · {record.difficulty} · "
                f"{outcome_words(record)}"
                f" · ended {record.ended[:16].replace('T', ' ')}"
            )
        self.query_one("#hall-detail", Static).update(text)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_detail()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        record = self.current
        if record is not None:
            streak = self.hall.streak(self.today) if record.daily else None
            self.app.push_screen(run_text(record, streak=streak))

    def on_input_changed(self, event: Input.Changed) -> None:
        self.fill()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_one(DataTable).focus()

    # ------------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "play":
            return self.challenges
        return True

    def action_outcome(self) -> None:
        i = OUTCOME_FILTERS.index(self.outcome)
        self.outcome = OUTCOME_FILTERS[(i + 1) % len(OUTCOME_FILTERS)]
        self.fill()

    def action_daily(self) -> None:
        self.daily = not self.daily
        self.fill()

    def action_seed_filter(self) -> None:
        self.query_one("#seed-filter", Input).focus()

    def action_switch(self) -> None:
        self.challenges = not self.challenges
        self.refresh_bindings()
        self.read()

    def action_ladder(self) -> None:
        """``l``: the ladder of the highlighted run's world (seed, size, difficulty) among the
        hall's runs and challenges, best first (practice runs left out), as text."""
        record = self.current
        if record is None:
            return
        records = [*self.hall.runs(), *self.hall.challenges()]
        self.app.push_screen(MorgueScreen(ladder_table(hall_ladder(record, records))))

    def action_watch(self) -> None:
        record = self.current
        if record is not None:
            self.app.push_screen(ReplayScreen(record))

    def action_play(self) -> None:
        record = self.current
        if record is not None and self.challenges:
            self.dismiss(("play", record))

    def action_export(self) -> None:
        record = self.current
        if record is None:
            return
        if isinstance(self.app, ServedApp):  # in a browser: a download, not the server's disk
            self.app.deliver_run(record.id)
            return
        default = str(self.hall.path / f"{record.id}.run")

        def answered(path: str | None) -> None:
            if not path:
                return
            try:
                written = self.hall.export(record.id, path)
            except (RunFileError, OSError) as err:
                self.notify(f"Not exported: {err}", severity="error", timeout=6, markup=False)
            else:
                self.notify(f"Challenge written to {written}", timeout=6, markup=False)

        self.app.push_screen(AskScreen("Write the challenge file to:", default), answered)

    def action_back(self) -> None:
        if self.focused is self.query_one("#seed-filter", Input):
            self.query_one(DataTable).focus()
            return
        self.dismiss(None)
