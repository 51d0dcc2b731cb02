"""A puzzle that changes the floor, on screen: solving it draws the opened cells on the map at
once (the wall the shortcut goes through becomes rubble), the log names the change, and the
overview shows the cells as the map remembers them."""

from __future__ import annotations

from roguelike import tiles
from roguelike.engine import GameState, SolvePuzzle, new_game
from roguelike.gen.pipeline import generate_floor
from screens.map_view import MapView
from screens.overview import overview
from tests.engine.support import stand_on
from tests.screens.support import GameApp, screen_text


def shortcut_world() -> GameState:
    """The first monster-free world (by seed) whose floor 3 holds a shortcut; its pedestal's
    puzzle made a quick one, the player on it."""
    seed = next(
        s
        for s in range(40)
        if any(c.kind == "shortcut" for c in generate_floor(s, 3, stop_after="population").changes)
    )
    state = new_game(seed, total_floors=4, floor=3, monsters=False)
    (ch,) = state.floor.changes
    room = state.puzzles[(ch.x, ch.y)]
    room.type, room.difficulty, room.instance = "jugs", "easy", None
    stand_on(state, (ch.x, ch.y))
    return state


async def test_solving_a_shortcut_draws_the_rubble_on_the_map():
    state = shortcut_world()
    (ch,) = state.floor.changes
    p = state.puzzles[(ch.x, ch.y)].puzzle()
    plan = tuple(p.move_to_json(m) for m in p.solve(p.initial()) or [])
    app = GameApp(state)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        view = app.screen.query_one(MapView)

        def drawn(x: int, y: int) -> str:
            sx, sy = view.map_to_screen(x, y)
            assert 0 <= sx < view.size.width and 0 <= sy < view.size.height
            return view.render_line(sy).text[sx]

        rubble = tiles.TILES[tiles.RUBBLE].glyph
        assert all(drawn(x, y) != rubble for x, y, _ in ch.cells)
        app.screen.act(SolvePuzzle(plan))
        await pilot.pause()
        assert all(drawn(x, y) == rubble for x, y, _ in ch.cells)
        assert "a shortcut opens" in screen_text(app)
    # the overview draws what the map remembers: the opened cells are explored rubble now
    over = overview(state, 400, 200)
    rows = over.text().splitlines()
    assert all(
        rows[(y - over.y0) // over.sy][(x - over.x0) // over.sx] == rubble for x, y, _ in ch.cells
    )
