"""Captives and allies on the map: the kind's letter in the ally colour, and in the monochrome
theme a style (reverse video) that tells an ally from a hostile of the same kind, where no
colour can; look says what the captive needs."""

from __future__ import annotations

import pytest
from rich.style import Style

from roguelike.engine import describe, new_game
from screens import themes
from screens.game import GameScreen
from screens.map_view import MapView
from screens.themes import DEFAULT_PALETTE, apply_theme
from tests.engine.support import add, seat
from tests.screens.support import GameApp, visible_floor

SEED = 12345


@pytest.fixture(autouse=True)
def _default_theme_after():
    """The palette is the app's (module state): every test here leaves the default behind."""
    yield
    themes.use(DEFAULT_PALETTE)


def styled(view: MapView, x: int, y: int) -> tuple[str, Style | None]:
    """The glyph drawn for map cell (x, y), and its style."""
    sx, sy = view.map_to_screen(x, y)
    at = 0
    for seg in view.render_line(sy):
        if at <= sx < at + len(seg.text):
            return seg.text[sx - at], seg.style
        at += len(seg.text)
    raise AssertionError(f"({x}, {y}) is not on the screen")


@pytest.mark.parametrize("theme", ["default", "mono"])
async def test_an_ally_is_told_from_a_hostile_of_its_kind(theme):
    state = new_game(SEED, total_floors=2, monsters=False)
    app = GameApp(state)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        apply_theme(app, theme)
        game = app.screen
        assert isinstance(game, GameScreen)
        mine, theirs = visible_floor(state), visible_floor(state, 1)
        seat(state, "goblin", mine)
        add(state, "goblin", theirs, awake=False)
        game.map_view.restyle()
        await pilot.pause()
        (g1, ally_style), (g2, hostile_style) = (styled(game.map_view, *p) for p in (mine, theirs))
        assert g1 == g2 == "g"
        assert ally_style != hostile_style
        if theme == "mono":  # no colour to tell them: the style does
            assert ally_style.reverse and not hostile_style.reverse
        assert "bump it to free it" in describe(state, *mine)
