"""Travel the way players do, on the game screen: ``>`` and ``<`` walk to the known stairs and
take them, Tab jumps the travel cursor between places, and the map scrolls without jumps
in steps (the player's camera, :func:`screens.map_view.camera_axis`, and the cursor's,
:func:`screens.map_view.follow_axis`, tested as pure functions too)."""

from __future__ import annotations

import copy
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st
from textual.app import App

from roguelike.engine import GameState, Travel, new_game, step
from roguelike.engine.places import places
from roguelike.engine.state import FOV_RADIUS
from screens.game import GameScreen
from screens.map_view import MapView, camera_axis, edge_of, follow_axis, margin_of
from tests.screens.support import GameApp, screen_text

SEED = 12345


@cache
def _quiet() -> GameState:
    return new_game(SEED, total_floors=3, monsters=False, puzzles=False)


def quiet() -> GameState:
    """A monster-free game, nothing lying about (so nothing new stops a walk)."""
    state = copy.deepcopy(_quiet())
    state.items_lying.clear()
    state.keys_lying.clear()
    return state


def known(state: GameState) -> GameState:
    """``state`` with the whole floor known and every key held: the stairs can be walked to."""
    state.explored[:] = True
    state.keys_held = {k.id for k in state.floor.keys}
    return state


def prompt(app: App[None]) -> str:
    return " ".join(screen_text(app).split())


async def test_greater_than_walks_to_the_known_stairs_then_takes_them():
    state = known(quiet())
    finish = state.floor.finish
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("greater_than_sign")
        await pilot.pause()
        assert state.player == finish and state.number == 1 and state.turn > 0
        await pilot.press("greater_than_sign")
        await pilot.pause()
        assert state.number == 2
        assert "You descend to floor 2" in prompt(app)


async def test_greater_than_before_the_stairs_are_seen_says_so_and_spends_no_turn():
    state = quiet()
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("greater_than_sign")
        await pilot.pause()
        assert state.turn == 0 and state.player == state.floor.spawn
        assert "You have not found the stairs yet" in prompt(app)


async def test_less_than_does_what_greater_than_does():
    state = known(quiet())
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("less_than_sign")
        await pilot.pause()
        assert state.player == state.floor.finish


async def test_tab_jumps_the_travel_cursor_between_places_and_enter_goes():
    state = quiet()
    expected = places(state)
    assert len(expected) >= 2
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("tab")
        await pilot.pause()
        assert screen.mode.name == "travel" and screen.cursor == expected[0].pos
        assert f"[1/{len(expected)}," in prompt(app)
        assert "Tab next" in " ".join(screen.prompt.split())  # the key as the footer writes it
        await pilot.press("tab")
        assert screen.cursor == expected[1].pos
        await pilot.press("shift+tab")
        assert screen.cursor == expected[0].pos
        await pilot.press("shift+tab")  # cycles round to the last
        assert screen.cursor == expected[-1].pos
        await pilot.press("tab", "tab")
        assert screen.cursor == expected[1].pos
        # Enter travels there: the same as the engine's Travel from a copy
        twin = copy.deepcopy(state)
        step(twin, Travel(*expected[1].pos))
        await pilot.press("enter")
        await pilot.pause()
        assert screen.mode.name == "play" and screen.cursor is None
        assert state.player == twin.player and state.turn == twin.turn > 0


async def test_in_look_mode_tab_jumps_and_greater_than_finds_the_stairs():
    state = known(quiet())
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("x", "tab")
        assert screen.mode.name == "look" and screen.cursor == places(state)[0].pos
        await pilot.press("greater_than_sign")
        await pilot.pause()
        assert screen.cursor == state.floor.finish and state.turn == 0
        assert "Stairs leading down" in prompt(app)
        await pilot.press("escape")
        assert screen.mode.name == "play" and screen.cursor is None


async def test_walking_moves_the_map_in_steps_and_keeps_the_player_in_view():
    state = known(quiet())
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        view = app.screen.query_one(MapView)
        w, h = view.size
        # walk to the stairs one cell at a time, on the path travel would take
        twin = copy.deepcopy(state)
        path = [e.to for e in step(twin, Travel(*state.floor.finish)) if hasattr(e, "to")]
        assert len(path) > 10
        offset = view.scroll_offset
        scrolled = 0
        steps = 0
        for x, y in path:
            dx, dy = x - state.player[0], y - state.player[1]
            keys = {(0, -1): "k", (0, 1): "j", (-1, 0): "h", (1, 0): "l"}
            keys |= {(-1, -1): "y", (1, -1): "u", (-1, 1): "b", (1, 1): "n"}
            await pilot.press(keys[(dx, dy)])
            if state.player != (x, y):  # it opened a door: the next press goes through
                await pilot.press(keys[(dx, dy)])
            assert state.player == (x, y)
            new = view.scroll_offset
            steps += 1
            scrolled += new != offset
            offset = new
            sx, sy = view.map_to_screen(x, y)
            assert 0 <= sx < w and 0 <= sy < h
        assert scrolled > 0  # the walk was long enough to scroll
        assert scrolled * 3 <= steps  # in steps: not every step (the old camera followed each)


# -- the scrolling rule, as a pure function ---------------------------------------------------


def test_everything_the_player_sees_stays_on_screen_where_the_view_can_hold_it():
    """The margin is the player's sight where the view holds it on both sides; a smaller view
    (19 rows at 80×24) centres the player, so a monster seen above is never off the top."""
    assert margin_of(2 * FOV_RADIUS + 1) == FOV_RADIUS == margin_of(200)
    for view in (19, 12, 5):
        offset = follow_axis(40, 0, view, 75)
        assert 40 - offset in (view // 2, (view - 1) // 2)  # the middle row


@st.composite
def views(draw):
    view = draw(st.integers(1, 120))
    size = draw(st.integers(1, 300))
    p = draw(st.integers(0, size - 1))
    start = draw(st.integers(0, max(0, size - view)))
    return view, size, p, start


@given(views(), st.integers(-3, 3))
@settings(max_examples=300)
def test_the_followed_cell_stays_in_view_and_the_view_moves_no_more_than_it(v, move):
    view, size, p, start = v
    offset = follow_axis(p, start, view, size)
    # the view is within the map and shows p, a margin from the edges where the map allows
    assert 0 <= offset <= max(0, size - view)
    assert offset <= p < offset + view
    margin = margin_of(view)
    if size > view:
        assert p - offset >= margin or offset == 0
        assert offset + view - 1 - p >= margin or offset == size - view
    # a following step of `move` cells scrolls the view by no more than `move`
    q = min(size - 1, max(0, p + move))
    after = follow_axis(q, offset, view, size)
    assert abs(after - offset) <= abs(q - p)
    assert after <= q < after + view
    # standing still never scrolls
    assert follow_axis(p, offset, view, size) == offset


# -- the player's camera, as a pure function --------------------------------------------------


@given(views(), st.lists(st.integers(-12, 12), max_size=4))
@settings(max_examples=300)
def test_the_camera_shows_the_player_and_every_monster_that_fits_beside_it(v, near):
    view, size, p, start = v
    keep = [min(size - 1, max(0, p + d)) for d in near]
    offset = camera_axis(p, start, view, size, keep)
    assert 0 <= offset <= max(0, size - view)
    assert offset <= p < offset + view or size <= view
    if max([p, *keep]) - min([p, *keep]) < view:  # they fit together: all are on the view
        assert all(offset <= k < offset + view for k in keep) or size <= view
    # it settles: asked again, it stays
    assert camera_axis(p, offset, view, size, keep) == offset


@given(st.integers(5, 120), st.integers(0, 400), st.integers(0, 300))
def test_a_walk_moves_the_camera_only_near_an_edge_and_then_recentres(view, size, p):
    """Without monsters, the camera stays until the player comes within the edge, then it
    centres the player (a step, not a cell)."""
    p = min(p, max(0, size - 1))
    offset = camera_axis(p, 0, view, size)
    after = camera_axis(min(size - 1, p + 1), offset, view, size)
    if after != offset and size > view:
        q = min(size - 1, p + 1)
        assert after in (max(0, min(size - view, q - view // 2)),)
        assert offset + view - 1 - q < edge_of(view) or q - offset < edge_of(view)


async def test_a_travel_that_cannot_go_says_why_and_spends_no_turn():
    """Issue 28: travel to a chosen place always goes or says why not: Enter with the cursor
    still on the player, and a click on a cell the player does not know, said nothing."""
    state = quiet()
    unknown = next(
        (x, y) for y in range(state.height) for x in range(state.width) if not state.explored[y, x]
    )
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("t", "enter")
        assert state.turn == 0 and "You are there already" in (screen.prompt or "")
        screen.post_message(MapView.TileClicked(*unknown))
        await pilot.pause()
        assert state.turn == 0 and "You do not know that place" in (screen.prompt or "")


async def test_a_place_one_step_away_is_one_step_not_one_steps():
    state = quiet()
    door = places(state)[0]
    assert door.kind == "door"
    # the player moved next to the door, on ground they know
    from roguelike.engine.travel import known_passable

    ok = known_passable(state)
    state.player = next(
        (door.x + dx, door.y + dy)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))  # a diagonal may turn a corner
        if ok[door.y + dy, door.x + dx]
    )
    near = places(state)
    assert near[0].pos == door.pos and near[0].steps == 1
    assert any(p.steps not in (None, 1) for p in near)  # the plural is still said
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("tab")
        await pilot.pause()
        assert f"[1/{len(near)}, 1 step]" in prompt(app)
        far = next(i for i, p in enumerate(near) if p.steps not in (None, 1))
        await pilot.press(*["tab"] * far)
        await pilot.pause()
        assert f"[{far + 1}/{len(near)}, {near[far].steps} steps]" in prompt(app)
