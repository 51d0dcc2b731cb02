"""The help screen: every key and every map glyph, generated from the live tables, never
written by hand.

The game's keys come from :data:`screens.bindings.GAME_BINDINGS` (grouped Move / Act / Info /
Watch) with the keys the player rebound in the options, and the keys that work everywhere
from the app's own ``BINDINGS``. Key names are written the way the footer writes them (``↑ k
8``, ``^q``). The legend under them is :data:`roguelike.engine.legend.LEGEND`, each glyph drawn
in its map colour; a family of glyphs that differ by colour only (the locked doors, the keys)
is one row that names the colours, so it reads without them.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Static

from roguelike import tiles
from roguelike.engine.legend import GROUPS as LEGEND_GROUPS
from roguelike.engine.legend import LEGEND, SIGHT_NOTES, Entry
from screens.bindings import GAME_BINDINGS, ClosedByItsKey, KeyBinding, rebound
from screens.map_view import colour_of, key_glyph, key_underlined
from screens.themes import current

GROUPS = ("Move", "Act", "Info", "Watch")
EVERYWHERE = "Everywhere"
#: the groups in two columns, each about as long as the other; the short Everywhere group
#: heads its column so that every group but Watch shows on the first page at 80x24
COLUMNS = (("Move", "Info", "Watch"), (EVERYWHERE, "Act"))
#: the legend's groups in two columns
LEGEND_COLUMNS = (("You", "Terrain", "Doors and keys"), ("Items", "Monsters"))
#: The narrowest screen that shows the legend's columns side by side: the meanings are long,
#: and two columns at 80 left each meaning a strip of eight characters, so narrower screens
#: give the legend one column of the full width.
LEGEND_SIDE_BY_SIDE = 120
#: How the help writes the blank glyph (solid rock, or not seen yet).
BLANK = "␣"


def key_names(app: App[object], keys: str) -> str:
    """``"up,k,8"`` → ``"↑ k 8"``: each key as the app writes it in the footer."""
    return " ".join(app.get_key_display(Binding(key.strip(), "")) for key in keys.split(","))


def key_label(app: App[object], row_id: str) -> str:
    """The first key of the game row ``row_id`` as the player has it, written as the footer
    writes it (its own ``key_display``, ``Tab``, while it is not rebound)."""
    row = next(
        b for b in rebound(getattr(app, "key_overrides", {}), GAME_BINDINGS) if b.id == row_id
    )
    return written(app, row, first=True)


def written(app: App[object], row: KeyBinding, *, first: bool = False) -> str:
    """The keys of ``row`` as the footer writes them: its own ``key_display`` (``Tab``) for a
    row of one key, else each key's display name (``first``: the first key only)."""
    if row.key_display and "," not in row.keys:
        return row.key_display
    return key_names(app, row.keys.split(",")[0] if first else row.keys)


def game_rows(
    app: App[object], group: str, table: Iterable[KeyBinding] | None = None
) -> list[tuple[str, str]]:
    """(keys, description) for each binding of ``group`` in the game's table (by default
    with the keys the player rebound, the app's ``key_overrides``, as input has them)."""
    if table is None:
        table = rebound(getattr(app, "key_overrides", {}), GAME_BINDINGS)
    return [(written(app, b), b.description) for b in table if b.group == group]


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


def legend_rows(group: str, legend: Iterable[Entry] = LEGEND) -> list[tuple[Text, str, str]]:
    """(glyph in its colour, name, meaning) for each entry of the legend's ``group``; the
    entries of a family make one row, their glyphs (or colours) listed."""
    rows: list[tuple[Text, str, str]] = []
    families: set[str] = set()
    entries = [e for e in legend if e.group == group]
    for e in entries:
        if not e.family:
            glyph = BLANK if e.glyph == " " else e.glyph
            rows.append((Text(glyph, style=f"bold {colour_of(e.colour)}"), e.name, e.meaning))
            continue
        if e.family in families:
            continue
        families.add(e.family)
        kin = [k for k in entries if k.family == e.family]
        name = "locked door" if "door" in e.name else "key"
        # as the map draws them in the theme in use: a key lying on the floor is its door's
        # letter where the theme tells keys by letter, in its key's colour of the palette
        drawn = (
            [(k.glyph, colour_of(k.colour)) for k in kin]
            if name == "locked door"
            else [(key_glyph(n), colour_of(f"key{n}")) for n in range(1, len(kin) + 1)]
        )
        underline = " underline" if name == "key" and key_underlined() else ""
        first_colour: dict[str, str] = {}  # glyph → the colour of its first entry
        for g, colour in drawn:
            first_colour.setdefault(g, colour)
        glyphs = Text()
        for g, colour in first_colour.items():
            glyphs.append(g, style=f"bold{underline} {colour}")
        if len(glyphs) > 3:  # the locked doors (and keys by letter): first and last letter
            glyphs = Text.assemble(
                (drawn[0][0], f"bold{underline} {drawn[0][1]}"),
                "-",
                (drawn[-1][0], f"bold{underline} {drawn[-1][1]}"),
            )
        colours = ", ".join(
            f"{tiles.key_letter(n)} {tiles.key_colour(n)[0]}" for n in range(1, len(kin) + 1)
        )
        rows.append((glyphs, name, f"{e.family[0].upper()}{e.family[1:]} ({colours})."))
    return rows


def sight_notes() -> list[str]:
    """How the map tells what is in view from what is remembered, and the glyphs the theme in
    use draws only where a tile is remembered (the mono theme's ``·``), which no row of the
    legend has."""
    notes = list(SIGHT_NOTES)
    by_glyph: dict[str, list[str]] = {}
    for t in tiles.TILES:
        drawn = current().remembered_glyphs.get(t.glyph)
        if drawn is not None and drawn != t.glyph:
            by_glyph.setdefault(drawn, []).append(f"{t.name} ({t.glyph} in view)")
    notes += [f"{g}: remembered {' or '.join(names)}." for g, names in by_glyph.items()]
    return notes


def legend_table(rows: list[tuple[Text, str, str]]) -> Table:
    table = Table(show_header=False, box=None, padding=(0, 1), expand=False)
    table.add_column("glyph", no_wrap=True)
    table.add_column("name", style="bold", no_wrap=True)
    table.add_column("meaning", ratio=1)
    for glyph, name, meaning in rows:
        table.add_row(glyph, Text(name), Text(meaning))
    return table


class HelpScreen(ClosedByItsKey, ModalScreen[None]):
    """Every key of the game, then the legend of the map. Esc (or ? or q) closes it."""

    DEFAULT_CSS = """
    HelpScreen #legend-title {
        text-style: bold;
        color: $accent;
    }
    HelpScreen #legend-columns {
        height: auto;
    }
    HelpScreen #legend-columns.-one-column {
        layout: vertical;
    }
    HelpScreen #legend-columns.-one-column .help-column {
        margin-right: 0;
    }
    """

    BINDINGS = [
        Binding("escape,question_mark,f1,q", "close", "Close", key_display="esc"),
    ]
    opened_by = "game.help"

    def __init__(self, legend: tuple[Entry, ...] = LEGEND) -> None:
        """``legend``: the legend to show (a game's, :func:`legend_for`, names the potions and
        scrolls as its player knows them)."""
        super().__init__()
        self.legend = legend

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
            yield Static("Legend", id="legend-title")
            yield Static(Text("  ".join(sight_notes())), id="legend-sight", classes="help-group")
            with Horizontal(id="legend-columns"):
                for column in LEGEND_COLUMNS:
                    with Vertical(classes="help-column"):
                        for group in column:
                            yield Label(group, classes="help-heading")
                            yield Static(
                                legend_table(legend_rows(group, self.legend)),
                                id=f"legend-{LEGEND_GROUPS.index(group)}",
                                classes="help-group",
                            )
        yield Footer()

    def on_resize(self, event: events.Resize) -> None:
        self.query_one("#legend-columns").set_class(
            event.size.width < LEGEND_SIDE_BY_SIDE, "-one-column"
        )

    def action_close(self) -> None:
        self.dismiss(None)
