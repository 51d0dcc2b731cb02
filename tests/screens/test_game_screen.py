"""The game screen, driven through Textual's Pilot on real games (small worlds, fast)."""

from __future__ import annotations

import numpy as np
import pytest
from rich.text import Text
from textual.app import App
from textual.geometry import Offset
from textual.selection import Selection
from textual.widgets import Static

from roguelike import seeds, tiles
from roguelike.engine import GameState, can_step, describe, doors_around
from screens.game import GameScreen
from screens.history import HistoryScreen
from screens.inventory import InventoryScreen
from screens.lines import TextLines
from screens.map_view import MapView
from screens.side_panel import bar
from tests.screens.support import VI, GameApp, game, panel_text, press_to, screen_text

SEED = 12345
SIZES = [(80, 24), (120, 40)]
#: A key of each direction, (dx, dy) → key, alternating arrows and vi-keys.
ARROWS = {(0, -1): "up", (0, 1): "down", (-1, 0): "left", (1, 0): "right"}


def text_of(widget: Static) -> str:
    return str(widget.render())


def screen_cell(view: MapView, x: int, y: int) -> str:
    """The character the map view draws at map cell (x, y)."""
    sx, sy = view.map_to_screen(x, y)
    assert 0 <= sx < view.size.width and 0 <= sy < view.size.height, "the cell is off screen"
    return view.render_line(sy).text[sx]


def open_direction(state: GameState, keys: dict[tuple[int, int], str]) -> tuple[int, int]:
    """A direction among ``keys`` the player can step in from where they stand."""
    x, y = state.player
    for dx, dy in keys:
        if can_step(state, x, y, dx, dy):
            return dx, dy
    raise AssertionError("the player is walled in")


@pytest.mark.parametrize("size", SIZES)
async def test_walking_moves_the_player_and_the_map_draws_them(size):
    state = game()
    app = GameApp(state)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        view = app.screen.query_one(MapView)
        assert screen_cell(view, *state.player) == "@"
        for keys in (ARROWS, VI, ARROWS, VI, VI, ARROWS):
            before = state.player
            dx, dy = open_direction(state, keys)
            await pilot.press(keys[(dx, dy)])
            await pilot.pause()
            assert state.player == (before[0] + dx, before[1] + dy)
            assert screen_cell(view, *state.player) == "@"
            # where the player stood is drawn as its tile again
            px, py = before
            assert screen_cell(view, px, py) == tiles.TILES[int(state.tiles[py, px])].glyph
        assert state.turn == 6


async def test_the_view_follows_the_player_on_a_long_walk():
    state = game()
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        view = app.screen.query_one(MapView)
        offsets = {tuple(view.scroll_offset)}
        # a depth-first walk: new cells first, back the way it came when stuck
        visited: set[tuple[int, int]] = {state.player}
        trail: list[tuple[int, int]] = []
        for _ in range(40):
            x, y = state.player
            ahead = [
                d
                for d in ARROWS
                if can_step(state, x, y, *d) and (x + d[0], y + d[1]) not in visited
            ]
            if ahead:
                d = ahead[0]
                trail.append(state.player)
            else:
                bx, by = trail.pop()
                d = (bx - x, by - y)
            await pilot.press(ARROWS[d])
            visited.add(state.player)
            sx, sy = view.map_to_screen(*state.player)
            assert 0 <= sx < view.size.width and 0 <= sy < view.size.height
            offsets.add(tuple(view.scroll_offset))
        await pilot.pause()
        assert len(offsets) > 1  # the view scrolled to keep up
        assert screen_cell(view, *state.player) == "@"
        assert state.turn == 40


async def test_only_changed_rows_are_rendered_again():
    state = game()
    app = GameApp(state)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        view = app.screen.query_one(MapView)
        before = view.rows_rendered
        # waiting changes nothing on the map: no row is rendered again
        await pilot.press("s")
        await pilot.pause()
        assert state.turn == 1 and view.rows_rendered == before
        dx, dy = open_direction(state, ARROWS)
        await pilot.press(ARROWS[(dx, dy)])
        await pilot.pause()
        # a step re-renders at most the rows the field of view spans
        assert 0 < view.rows_rendered - before <= 2 * (state.fov_radius or 0) + 3


async def test_a_turn_redraws_only_what_changed_and_lays_nothing_out(monkeypatch):
    state = game()
    app = GameApp(state)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        panel = screen.query_one("#stats", TextLines)
        layouts: list[set[str]] = []
        original = type(screen)._refresh_layout

        def refresh_layout(self, *args, **kwargs):
            layouts.append({type(widget).__name__ for widget in self._layout_widgets})
            return original(self, *args, **kwargs)

        monkeypatch.setattr(type(screen), "_refresh_layout", refresh_layout)
        updates: list[object] = []
        messages = screen.query_one("#messages", Static)
        monkeypatch.setattr(messages, "update", lambda *a, **k: updates.append(a))
        for turn in range(1, 4):
            before = panel.lines_rendered
            await pilot.press("s")
            await pilot.pause()
            assert state.turn == turn
            # the turn counter's line (and the HP bar's, when the player heals) only
            assert 1 <= panel.lines_rendered - before <= 2
            assert f"Turn {turn}" in panel_text(screen)
        # nothing changed size: no layout; but the footer lays its keys out once after start-up
        # when the bindings settle, which comes late on a loaded machine
        assert [widgets for widgets in layouts if widgets != {"FitFooter"}] == []
        assert len(layouts) <= 1
        assert len(updates) <= 1  # the log: at most once, when the last messages turn dim


async def test_text_lines_draw_what_a_static_draws():
    """TextLines shows lines exactly as a Static shows them joined by newlines: the same
    segments, styles and content offsets (text selection), wrapped alike, after any change."""

    class Both(App[None]):
        CSS = "TextLines, Static { width: 16; height: 9; }"

        def compose(self):
            yield TextLines(id="lines")
            yield Static(id="static")

    def lines_for(n: int) -> list[Text]:
        return [
            Text("Some World", style="bold"),
            Text.assemble(("Turn ", "#9a9aaa"), str(n), ("  x", "bold red")),
            Text("wraps " * (n % 4), style="#8a8a8a"),
            Text(""),
            Text.assemble(("g", "bold #40c040"), " goblin", " " * (n % 3), (f"{n}/9", "#e04040")),
        ][: 3 + n % 3]

    app = Both()
    async with app.run_test(size=(40, 20)) as pilot:
        panel = app.query_one(TextLines)
        static = app.query_one(Static)
        for n in [1, 2, 3, 9, 10, 11, 12, 99, 100, 101, 5, 5, 7]:
            lines = lines_for(n)
            panel.show(lines)
            static.update(Text("\n").join(lines))
            await pilot.pause()
            for y in range(9):
                assert list(panel.render_line(y)) == list(static.render_line(y)), (n, y)
        selection = Selection(Offset(2, 1), Offset(3, 4))
        app.screen.selections = {panel: selection, static: selection}
        await pilot.pause()
        for y in range(9):
            assert list(panel.render_line(y)) == list(static.render_line(y)), y
        assert panel.get_selection(selection) == static.get_selection(selection)


@pytest.mark.parametrize("size", SIZES)
async def test_side_panel_shows_hp_floor_and_seed_code(size):
    state = game()
    app = GameApp(state)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        panel = panel_text(app.screen)
        assert f"HP {state.hp}/{state.max_hp}" in panel
        assert f"Floor {state.number}/3" in panel
        assert seeds.encode(state.seed) in panel
        assert "Testing" in panel
        messages = text_of(app.screen.query_one("#messages", Static))
        assert state.log[-1].split()[0] in messages


def test_the_hp_bar_reads_without_colour():
    """Its empty part is another glyph, not the same block in a darker colour: a player at 0
    HP read a full bar on a screen without colour."""
    assert bar(0, 68, 12).plain == "░" * 12
    assert bar(34, 68, 12).plain == "█" * 6 + "░" * 6
    assert bar(1, 68, 12).plain == "█" + "░" * 11  # alive shows at least one block
    assert bar(68, 68, 12).plain == "█" * 12


async def test_bumping_into_a_wall_costs_no_turn():
    state = game()
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        # walk one way until the next cell is a wall, then walk into it
        for d in ARROWS:
            x, y = state.player
            while can_step(state, x, y, *d):
                x, y = x + d[0], y + d[1]
            if tiles.TILES[int(state.tiles[y + d[1], x + d[0]])].name == "wall":
                break
        else:
            pytest.fail("no wall straight ahead in any direction")
        while state.player != (x, y):
            await pilot.press(ARROWS[d])
        await pilot.pause()
        turn, where = state.turn, state.player
        await pilot.press(ARROWS[d])
        await pilot.pause()
        assert (state.turn, state.player) == (turn, where)


async def test_history_opens_and_closes():
    state = game()
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        history = await press_to(pilot, HistoryScreen, "m")
        assert history.lines == state.log
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_history_opens_at_the_newest_message_at_once():
    """Issue 28: the history opened at the oldest message (the newest is what a player wants),
    and drew nothing for a moment while it wrote a long log line by line."""
    state = game()
    state.log[:] = [f"Message number {n} of a long run, wrapped or not." for n in range(1000)]
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        text = screen_text(app)
        assert "Message number 999 of" in text and "Message number 0 of" not in text
        await pilot.press("home")
        await pilot.pause()
        assert "Message number 0 of" in screen_text(app)


async def test_look_mode_describes_the_cell_under_the_cursor():
    state = game()
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("x")
        await pilot.pause()
        assert screen.mode.name == "look" and screen.cursor == state.player
        messages = screen.query_one("#messages", Static)
        assert describe(state, *state.player) in text_of(messages)
        dx, dy = open_direction(state, VI)
        await pilot.press(VI[(dx, dy)])
        await pilot.pause()
        cursor = (state.player[0] + dx, state.player[1] + dy)
        assert screen.cursor == cursor
        assert describe(state, *cursor) in text_of(messages)
        assert state.turn == 0  # looking costs nothing
        view = screen.query_one(MapView)
        sx, sy = view.map_to_screen(*cursor)
        styles = [seg.style for seg in view.render_line(sy).crop(sx, sx + 1)]
        assert any(s is not None and s.reverse for s in styles)  # the cursor is shown
        await pilot.press("escape")
        await pilot.pause()
        assert screen.mode.name == "play" and screen.cursor is None


async def test_travel_with_the_cursor_and_with_the_mouse():
    state = game()
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        start = state.player
        dx, dy = open_direction(state, ARROWS)
        key = ARROWS[(dx, dy)]
        await pilot.press("t", key, "enter")
        await pilot.pause()
        assert state.player == (start[0] + dx, start[1] + dy)
        # a click on a seen cell travels there
        view = app.screen.query_one(MapView)
        await pilot.click(MapView, offset=view.map_to_screen(*start))
        await pilot.pause()
        assert state.player == start


async def test_doors_open_and_close_with_o_and_c():
    state = game()
    # stand next to exactly one closed door, as if the player had walked there
    for y, x in np.argwhere(state.tiles == tiles.DOOR):
        spots = [(x + dx, y + dy) for dx, dy in ARROWS]
        spot = next(
            (
                (int(sx), int(sy))
                for sx, sy in spots
                if tiles.WALKABLE[state.tiles[sy, sx]] and state.tiles[sy, sx] != tiles.DOOR
            ),
            None,
        )
        if spot is None:
            continue
        state.player = spot
        if len(doors_around(state, closed=True)) == 1 and not doors_around(state, closed=False):
            door = (int(x), int(y))
            break
    else:
        pytest.fail("no door to stand next to")
    state.update_view()
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        assert state.tiles[door[1], door[0]] == tiles.DOOR_OPEN
        view = app.screen.query_one(MapView)
        assert screen_cell(view, *door) == tiles.TILES[tiles.DOOR_OPEN].glyph
        await pilot.press("c")
        await pilot.pause()
        assert state.tiles[door[1], door[0]] == tiles.DOOR
        assert screen_cell(view, *door) == tiles.TILES[tiles.DOOR].glyph


async def test_inventory_uses_an_item_by_its_number():
    state = game()
    state.inventory["healing potion"] = 2
    state.hp = 5
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, InventoryScreen)
        await pilot.press("1")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert state.inventory.get("healing potion", 0) == 1 and state.hp > 5
        await pilot.press("i", "escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and state.inventory["healing potion"] == 1


async def test_help_opens():
    state = game()
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert not isinstance(app.screen, GameScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_escaping_ends_the_run_and_enter_returns_the_state():
    state = game(total_floors=1)
    # put the player on the exit of the last (only) floor, as if they had walked there
    assert state.player != state.floor.finish  # not already there: the move below counts
    state.player = state.floor.finish
    state.update_view()
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("greater_than_sign")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and state.won and screen.mode.name == "ended"
        assert "You escaped! press Enter" in text_of(screen.query_one("#messages", Static))
        turn = state.turn
        await pilot.press("s", "right")  # the run is over: nothing acts any more
        assert state.turn == turn
        await pilot.press("enter")
        await pilot.pause()
        assert app.result is state
        assert not isinstance(app.screen, GameScreen)


async def test_monsters_in_view_are_drawn_and_listed():
    state = game(monsters=True)
    # stand near the first monster, as if the player had walked there
    m = state.monsters[0]
    near = [
        (m.x + dx, m.y + dy)
        for r in (2, 3, 4)
        for dx in range(-r, r + 1)
        for dy in range(-r, r + 1)
        if tiles.WALKABLE[state.tiles[m.y + dy, m.x + dx]]
        and state.monster_at(m.x + dx, m.y + dy) is None
    ]
    state.player = near[0]
    state.update_view()
    seen = state.visible_monsters()
    assert m in seen
    app = GameApp(state)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        view = app.screen.query_one(MapView)
        panel = panel_text(app.screen)
        assert "In view" in panel and f"{m.info.name}" in panel
        for other in seen:
            assert screen_cell(view, other.x, other.y) == other.info.glyph
        # monsters out of sight are not drawn: an unseen cell stays blank
        hidden = [o for o in state.monsters if not state.explored[o.y, o.x]]
        for other in hidden:
            sx, sy = view.map_to_screen(other.x, other.y)
            if 0 <= sx < view.size.width and 0 <= sy < view.size.height:
                assert view.render_line(sy).text[sx] == " "


async def test_taking_the_stairs_draws_the_next_floor():
    state = game()
    # put the player on the stairs of floor 1, as if they had walked there
    assert state.player != state.floor.finish  # not already there: the move below counts
    state.player = state.floor.finish
    state.update_view()
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        view = app.screen.query_one(MapView)
        await pilot.press("greater_than_sign")
        await pilot.pause()
        assert state.number == 2
        assert screen_cell(view, *state.player) == "@"
        # every row on screen is the new floor's: seen cells show their tiles, others blank
        for sy in range(view.size.height):
            line = view.render_line(sy).text
            for sx in range(view.size.width):
                cell = view.screen_to_map(sx, sy)
                if cell is None or cell == state.player:
                    continue
                x, y = cell
                expected = (
                    tiles.TILES[int(state.tiles[y, x])].glyph if state.explored[y, x] else " "
                )
                marked = (x, y) in state.keys_lying or (x, y) in state.items_lying
                if not marked and state.monster_at(x, y) is None:
                    assert line[sx] == expected, (x, y)
        panel = panel_text(app.screen)
        assert "Floor 2/3" in panel


async def test_the_seed_code_can_be_copied_from_the_game():
    state = game()
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        turn = state.turn
        await pilot.press("C")
        await pilot.pause()
        assert app.clipboard == seeds.encode(SEED) and state.turn == turn
        # issue 28: it said "copied" where the terminal did not take it; the game cannot know
        # (OSC 52 has no answer), so it says so and shows the code to copy by hand
        said = " ".join(screen_text(app).split())
        assert seeds.encode(SEED) in said and "copied" not in said
        assert "if it accepts it" in said


def a_corner(state) -> tuple[tuple[int, int], tuple[int, int]]:
    """A known floor cell and a diagonal from it onto walkable ground past a wall's corner."""
    walk = tiles.WALKABLE[state.tiles]
    h, w = walk.shape
    for y in range(1, h - 1):
        for x in range(1, w - 1):
            if state.tiles[y, x] != tiles.FLOOR or state.monster_at(x, y) is not None:
                continue
            for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                beside = (state.tiles[y, x + dx], state.tiles[y + dy, x])
                if walk[y + dy, x + dx] and tiles.WALL in beside:
                    return (x, y), (dx, dy)
    raise AssertionError("no corner on the floor")


async def test_the_corner_rule_is_explained_the_first_time_and_look_at_a_wall_says_it():
    """Issue 28: "You cannot squeeze past the corner", dozens of times a floor, surprised
    players of games where a diagonal squeezes past: the first time, the prompt says why."""
    state = game()
    (x, y), (dx, dy) = a_corner(state)
    state.player = (x, y)
    state.update_view()
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press(VI[(dx, dy)])
        assert state.player == (x, y) and state.turn == 0
        assert screen.prompt is not None and "both cells beside it open" in screen.prompt
        await pilot.press(VI[(dx, dy)])  # the second time: the log's short line only
        assert screen.prompt is None and state.log[-1] == "You cannot squeeze past the corner."
    wall = next(
        (wx, wy) for wx, wy in ((x + dx, y), (x, y + dy)) if state.tiles[wy, wx] == tiles.WALL
    )
    assert "diagonal step cannot cut its corner" in describe(state, *wall)
