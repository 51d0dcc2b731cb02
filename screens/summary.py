"""The run summary: won or died (and of what), the seed code to share, the run's numbers and
its score term by term; ``m`` shows the run's whole text (its morgue: gear, pack, last
messages, the map round the player), as the hall keeps it.

A run that answered a challenge (``versus``: the imported record whose world it played) shows
both runs side by side: outcome, floors, turns, kills, puzzles and score, yours first. The
sender's figures were recomputed by replay when the file was imported; their texts are shown
as :func:`saves.morgue.printable` makes them (never as markup).

Dismisses with ``"title"`` (back to the title) or ``"again"`` (the same world from the start).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from roguelike import seeds
from saves.morgue import outcome_words, printable
from saves.record import RunRecord
from saves.runs import score_of, score_parts_of
from screens.morgue import run_text

if TYPE_CHECKING:
    from roguelike.engine import GameState

SummaryChoice = Literal["title", "again"]


def outcome(state: GameState, who: str = "You") -> tuple[str, str]:
    """(headline, cause) of a finished run played by ``who`` ("You", or "The bot")."""
    if state.won:
        return f"{who} escaped the dungeon", "won"
    if state.dead:
        return f"{who} died", state.cause or "unknown causes"
    return f"{who} left the dungeon", state.cause or "the run was abandoned"


def summary_rows(state: GameState) -> list[tuple[str, str]]:
    """The figures of a run, as (label, value) rows."""
    stats = state.stats
    return [
        ("Floors reached", f"{stats.floors_reached} / {state.total_floors}"),
        ("Turns", str(state.turn)),
        ("Kills", str(stats.kills)),
        ("Keys", str(stats.keys)),
        ("Puzzles solved", str(stats.puzzles_solved)),
        ("Hints used", str(stats.hints_used)),
        ("Score", score_words(state)),
    ]


def score_words(state: GameState) -> str:
    """``180 = depth 100 + puzzles 80``: the score and its terms (those worth any points)."""
    parts = [p for p in score_parts_of(state) if p.points]
    terms = " + ".join(f"{p.name} {p.points}" for p in parts)
    return f"{score_of(state)}" + (
        f" = {terms}" if len(parts) > 1 else f" ({terms})" if parts else ""
    )


def comparison(state: GameState, other: RunRecord) -> Table:
    """Your run (``state``) and the challenge's (``other``) side by side."""
    stats = state.stats
    mine_outcome = (
        "won" if state.won else f"died: {printable(state.cause or '')}" if state.dead else "left"
    )
    points = sum(p[3] for p in stats.puzzle_scores)
    rows = [
        ("Outcome", mine_outcome, outcome_words(other)),
        (
            "Floors",
            f"{stats.floors_reached} / {state.total_floors}",
            f"{other.floors} / {other.total_floors}",
        ),
        ("Turns", str(state.turn), str(other.turns)),
        ("Kills", str(stats.kills), str(other.kills)),
        (
            "Puzzles",
            f"{stats.puzzles_solved} ({points})",
            f"{other.puzzles_solved} ({other.puzzle_points})",
        ),
        ("Score", str(score_of(state)), str(other.score)),
    ]
    table = Table(box=None, padding=(0, 2), title="The challenge", title_justify="left")
    table.add_column("", style="bold")
    table.add_column("You")
    table.add_column(Text(printable(other.world)[:24]))
    for label, mine, theirs in rows:
        table.add_row(label, Text(mine), Text(theirs))
    return table


class SummaryScreen(Screen[SummaryChoice]):
    BINDINGS = [
        Binding("c", "copy_seed", "Copy seed code"),
        Binding("m", "morgue", "The run's text"),
        Binding("a,r", "again", "Same world again", key_display="a"),
        Binding("enter,escape,t", "title", "Title", key_display="⏎"),
    ]

    def __init__(
        self,
        state: GameState,
        *,
        world_name: str = "",
        gone: bool = False,
        watched: bool = False,
        versus: RunRecord | None = None,
        record: RunRecord | None = None,
    ) -> None:
        """``gone``: the world was deleted (a permadeath world whose player died);
        ``watched``: the bot played it all (watch mode), and "again" watches it again;
        ``versus``: the challenge this run answered, shown beside it; ``record``: the run's
        record, whose text ``m`` shows (None: ``m`` says there is none)."""
        super().__init__()
        self.record = record
        self.versus = versus
        self.gone = gone
        self.watched = watched
        self.state = state
        self.world_name = world_name or state.world_name
        self.code = seeds.encode(state.seed)

    def compose(self) -> ComposeResult:
        headline, cause = outcome(self.state, "The bot" if self.watched else "You")
        table = Table(show_header=False, box=None, padding=(0, 2))
        table.add_column(style="bold")
        table.add_column()
        if self.world_name:
            table.add_row("World", Text(printable(self.world_name)))
        table.add_row("Seed code", self.code)
        if not self.state.won:
            table.add_row("Cause", Text(printable(cause)))
        for label, value in summary_rows(self.state):
            if self.versus is None or label in ("Keys", "Hints used"):  # the rest compared below
                table.add_row(label, value)
        with Center(), Vertical(id="summary-box"):
            yield Static(headline, id="summary-headline", classes="won" if cause == "won" else "")
            yield Static(table, id="summary-table")
            if self.versus is not None:
                yield Static(comparison(self.state, self.versus), id="summary-versus")
            if self.gone:
                yield Static("This world is gone (permadeath)", id="summary-gone")
        yield Footer()

    def action_copy_seed(self) -> None:
        self.app.copy_to_clipboard(self.code)
        self.notify(f"Seed code {self.code} copied", timeout=3)

    def action_morgue(self) -> None:
        if self.record is None:
            self.notify("This run has no record to show", timeout=3)
            return
        self.app.push_screen(run_text(self.record))

    def action_again(self) -> None:
        self.dismiss("again")

    def action_title(self) -> None:
        self.dismiss("title")
