"""The legend in the help screen and in look mode, through the Pilot: every glyph the map
draws is explained, and look on a monster shows its numbers."""

from __future__ import annotations

import io
import textwrap

import pytest
from rich.console import Console
from textual.widgets import Static

from roguelike import tiles
from roguelike.engine import MONSTERS, describe
from roguelike.engine.creatures import monster_attack
from roguelike.engine.legend import (
    GROUPS,
    KEY_GLYPH,
    LEGEND,
    PLAYER_GLYPH,
    SIGHT_NOTES,
    legend_for,
)
from screens import map_view
from screens.game import GameScreen
from screens.help import HelpScreen, legend_rows
from tests.engine.support import add, arena, off
from tests.screens.support import GameApp, game, screen_text

SIZES = [(80, 24), (200, 60)]


def plain(widget: Static) -> str:
    """What ``widget`` shows, as text, laid out at its width on screen (a table too)."""
    console = Console(width=max(20, widget.content_size.width), file=io.StringIO(), record=True)
    console.print(widget.content)
    return console.export_text()


def test_the_map_draws_keys_and_the_player_as_the_legend_says():
    assert (map_view.KEY_GLYPH, map_view.PLAYER_GLYPH) == (KEY_GLYPH, PLAYER_GLYPH)


def test_every_entry_has_a_row_and_families_name_their_colours():
    rows = [row for group in GROUPS for row in legend_rows(group)]
    names = {name for _, name, _ in rows}
    families = {e.family for e in LEGEND if e.family}
    assert {e.name for e in LEGEND if not e.family} <= names
    assert len(rows) == len([e for e in LEGEND if not e.family]) + len(families)
    for _, name, meaning in rows:
        if name in ("locked door", "key"):
            # colour is never the only way to tell them: every colour is named
            for key in range(1, tiles.MAX_KEYS + 1):
                assert f"{tiles.key_letter(key)} {tiles.key_colour(key)[0]}" in meaning
    (doors,) = [g for g, name, _ in rows if name == "locked door"]
    assert doors.plain == f"A-{tiles.key_letter(tiles.MAX_KEYS)}"


@pytest.mark.parametrize("size", SIZES)
async def test_help_shows_the_legend(size):
    state = game()
    app = GameApp(state)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        legend = "\n".join(
            plain(w) for w in app.screen.query(Static) if (w.id or "").startswith("legend")
        )
        for entry in legend_for(state):  # the potions and scrolls in this world's looks
            if not entry.family:
                assert entry.name in legend
        for glyph in ("%", '"', "&", "_", ":", "=", "<", "*"):
            assert any(line.lstrip().startswith(glyph) for line in legend.splitlines()), glyph
        assert SIGHT_NOTES[0] in legend
        assert "Character sheet" in plain(app.screen.query_one("#help-info", Static))
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


@pytest.mark.parametrize("size, columns", [((80, 24), 1), ((160, 40), 2)])
async def test_the_legend_takes_the_width_it_has(size, columns):
    """At 80 columns the legend is one column of the full width (side by side, each meaning
    was a strip of eight characters); on a wide screen its groups stand side by side."""
    app = GameApp(game())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        items = app.screen.query_one(f"#legend-{GROUPS.index('Items')}", Static)
        terrain = app.screen.query_one(f"#legend-{GROUPS.index('Terrain')}", Static)
        side_by_side = items.region.x != terrain.region.x
        assert side_by_side == (columns == 2)
        assert items.region.width >= size[0] // columns - 6
        longest = max(len(line) for line in plain(items).splitlines())
        assert longest > size[0] // 2 or columns == 2  # meanings run across the screen


async def test_look_on_a_monster_shows_its_numbers():
    state, c = arena()
    m = add(state, "orc", off(c, 2, 0), hp=7)
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("x", "l", "l")
        await pilot.pause()
        assert screen.cursor == m.pos
        shown = " ".join(screen_text(app).split())
        lo, hi = monster_attack(MONSTERS["orc"], state.difficulty)  # as the world's level has it
        assert describe(state, *m.pos) in str(screen.query_one("#messages", Static).render())
        assert f"`o` An orc (7/{m.max_hp} HP, awake, hunting you)" in shown
        assert f"Hits {lo}-{hi}," in shown and "To kill it: ~" in shown
        assert state.turn == 0


async def test_look_on_a_sleeper_shows_its_whole_text_and_keys_at_80x24():
    """Look's text of a sleeping monster runs past the log's four rows at 80 columns: the log
    grows to show it whole, its keys at the end, and gives the rows back to the map after."""
    state, c = arena()
    m = add(state, "orc", off(c, 2, 0), hp=7)
    m.awake = False
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        map_rows = screen.map_view.size.height
        await pilot.press("x", "l", "l")
        await pilot.pause()
        assert screen.cursor == m.pos
        said = " ".join(describe(state, *m.pos).split())
        width = screen.query_one("#messages", Static).content_size.width
        assert len(textwrap.wrap(screen.prompt, width)) > 4  # more than the log's four rows
        shown = " ".join(screen_text(app).split())
        assert said in shown and shown.index(said) < shown.index("(Tab next, Esc ends)")
        await pilot.press("escape")
        await pilot.pause()
        assert screen.map_view.size.height == map_rows
