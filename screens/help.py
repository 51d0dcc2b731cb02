"""The help screen: every key, generated from the live bindings, never written by hand.

The game's keys come from :data:`screens.bindings.GAME_BINDINGS` (grouped Move / Act / Info /
Watch) with the keys the player rebound in the options,
and the keys that work everywhere from the app's own ``BINDINGS``. Key names are written the
way the footer writes them (``↑ k 8``, ``^q``).
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.table import Table
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Static

from screens.bindings import GAME_BINDINGS, KeyBinding, rebound

GROUPS = ("Move", "Act", "Info", "Watch")
EVERYWHERE = "Everywhere"
#: the groups in two columns, each about as long as the other
COLUMNS = (("Move", "Info", "Watch"), ("Act", EVERYWHERE))


def key_names(app: App[object], keys: str) -> str:
    """``"up,k,8"`` → ``"↑ k 8"``: each key as the app writes it in the footer."""
    return " ".join(app.get_key_display(Binding(key.strip(), "")) for key in keys.split(","))


def game_rows(
    app: App[object], group: str, table: Iterable[KeyBinding] | None = None
) -> list[tuple[str, str]]:
    """(keys, description) for each binding of ``group`` in the game's table (by default
    with the keys the player rebound, the app's ``key_overrides``, as input has them)."""
    if table is None:
        table = rebound(getattr(app, "key_overrides", {}), GAME_BINDINGS)
    return [(key_names(app, b.keys), b.description) for b in table if b.group == group]


def app_rows(app: App[object]) -> list[tuple[str, str]]:
    """(keys, description) for the app-level bindings (those that work on every screen)."""
    rows: dict[str, list[str]] = {}
    # the app's live map (its BINDINGS merged down the class tree, with any keymap applied)
    for bindings in app._bindings.key_to_bindings.values():
        for binding in bindings:
            if binding.description:
                rows.setdefault(binding.description, []).append(app.get_key_display(binding))
    return [(" ".join(keys), description) for description, keys in rows.items()]


def keys_table(rows: list[tuple[str, str]]) -> Table:
    table = Table(
        show_header=False,
        box=None,
        padding=(0, 1),
        expand=False,
    )
    table.add_column("keys", style="bold", no_wrap=True)
    table.add_column("what", ratio=1)
    for keys, description in rows:
        table.add_row(keys, description)
    return table


class HelpScreen(ModalScreen[None]):
    """Every key of the game. Esc (or ? or q) closes it."""

    BINDINGS = [
        Binding("escape,question_mark,f1,q", "close", "Close", key_display="esc"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static("Keys", id="help-title")
            with Horizontal(id="help-columns"):
                for column in COLUMNS:
                    with Vertical(classes="help-column"):
                        for group in column:
                            rows = app_rows(self.app) if group == EVERYWHERE else None
                            yield Label(group, classes="help-heading")
                            yield Static(
                                keys_table(rows or game_rows(self.app, group)),
                                id=f"help-{group.lower()}",
                                classes="help-group",
                            )
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)
