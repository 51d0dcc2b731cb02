"""The overview map (``M``): the whole floor shrunk to fit, the most important cell of each
block winning, and its legend, at 80×24 and 200×60."""

from __future__ import annotations

import copy
from functools import cache

import numpy as np
import pytest

from roguelike import tiles
from roguelike.engine import GameState, new_game
from screens.overview import OverviewMap, OverviewScreen, overview, scale_for
from tests.screens.support import GameApp, screen_text


@cache
def _wide() -> GameState:
    """A wide floor (208×76, floor 4 of a large world): wider than 200 columns."""
    return new_game(7, preset="large", floor=4, monsters=False, puzzles=False)


def wide() -> GameState:
    return copy.deepcopy(_wide())


def test_every_block_shows_its_most_important_cell():
    state = wide()
    state.explored[:] = True
    h, w = state.tiles.shape
    over = overview(state, 78, 20)
    sx, sy = scale_for(w, h, 78, 20)
    assert (over.sx, over.sy) == (sx, sy) == (3, 4)
    rows = over.text().splitlines()
    assert len(rows) <= 20 and all(len(r) <= 78 for r in rows)
    assert len(rows) == -(-h // sy) and len(rows[0]) == -(-w // sx)

    assert (over.x0, over.y0) == (0, 0)  # all of it is known

    def at(x: int, y: int) -> str:
        return rows[y // sy][x // sx]

    # the player wins their block; the stairs theirs; a key its own, even in a block of wall
    assert at(*state.player) == "@" and over.text().count("@") == 1
    fx, fy = state.floor.finish
    if (fx // sx, fy // sy) != (state.player[0] // sx, state.player[1] // sy):
        assert at(fx, fy) == ">"
    for (x, y), _ in state.keys_lying.items():
        block = (x // sx, y // sy)
        if block not in {(px // sx, py // sy) for px, py in [state.player, (fx, fy)]}:
            assert at(x, y) == "k"
    # a locked door (or a vault's seal) shows its glyph unless something weightier shares its
    # block (deep water, numbered after the locks, is no lock)
    locked = {t.id for t in tiles.TILES if tiles.lock_of(t.id) is not None} | {tiles.VAULT_SEAL}
    for y, x in zip(*np.isin(state.tiles, sorted(locked)).nonzero(), strict=True):
        block = state.tiles[y // sy * sy : (y // sy + 1) * sy, x // sx * sx : (x // sx + 1) * sx]
        if not ((block == tiles.STAIRS) | (block == tiles.EXIT)).any():
            shown = at(int(x), int(y))
            assert shown in "@k" or tiles.BY_GLYPH[shown] in locked


def test_only_what_the_player_knows_is_shown():
    state = wide()
    over = overview(state, 78, 20)
    text = over.text()
    assert "@" in text
    fx, fy = state.floor.finish
    if not state.explored[fy, fx]:
        assert ">" not in text
    # the blocks nothing explored touches are blank
    sx, sy, x0, y0 = over.sx, over.sy, over.x0, over.y0
    rows = text.splitlines()
    for by, row in enumerate(rows):
        for bx, glyph in enumerate(row):
            top, left = y0 + by * sy, x0 + bx * sx
            seen = state.explored[top : top + sy, left : left + sx].any()
            if not seen:
                assert glyph == " "
    explored_blocks = sum(g != " " for g in text if g != "\n")
    assert explored_blocks >= 1


def test_a_small_floor_is_shown_full_size():
    state = wide()
    state.explored[:] = True
    h, w = state.tiles.shape
    over = overview(state, w, h)
    assert (over.sx, over.sy) == (1, 1)
    assert over.text().splitlines()[state.player[1]][state.player[0]] == "@"


def test_what_is_known_fills_the_screen():
    """Early on a floor the overview shows the part the player knows, full size while it fits,
    not the whole floor shrunk into a corner (at 80×24 a first room was a blot of 2×4 marks)."""
    state = wide()
    ys, xs = np.nonzero(state.explored)
    known_w, known_h = int(xs.max() - xs.min()) + 3, int(ys.max() - ys.min()) + 3
    assert known_w <= 78 and known_h <= 20  # a first room fits
    over = overview(state, 78, 20)
    assert (over.sx, over.sy) == (1, 1)
    rows = over.text().splitlines()
    px, py = state.player
    assert rows[py - over.y0][px - over.x0] == "@"
    assert len(rows) <= known_h and max(len(r) for r in rows) <= known_w


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_m_opens_the_overview_and_esc_or_m_closes_it(size):
    state = wide()
    state.explored[:] = True
    app = GameApp(state)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        game = app.screen
        await pilot.press("M")
        await pilot.pause()
        assert isinstance(app.screen, OverviewScreen)
        text = screen_text(app)
        lines = text.splitlines()
        assert len(lines) == size[1] and text.count("@") >= 1
        assert "Floor 4 of 8" in lines[0]
        assert "stairs" in text and "locked door" in text and "Esc or M closes" in text
        over = app.screen.query_one(OverviewMap).over
        assert over is not None
        # the whole floor fits on the screen: as many map rows as the shrunk floor has
        h, w = state.tiles.shape
        assert len(over.cells) * over.sy >= h and len(over.cells[0]) * over.sx >= w
        assert len(over.cells) <= size[1] - 2 and len(over.cells[0]) <= size[0]
        assert f"{over.sx}×{over.sy} cells" in " ".join(text.split())
        # the player is drawn once on the map (the legend names the mark too)
        map_rows = [line for line in lines[1:] if "@" in line and "@ you" not in line]
        assert len(map_rows) == 1
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game
        await pilot.press("M")
        await pilot.pause()
        assert isinstance(app.screen, OverviewScreen)
        await pilot.press("M")
        await pilot.pause()
        assert app.screen is game and state.turn == 0
