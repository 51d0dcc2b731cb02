"""Captives and allies on the map: the kind's letter in the ally colour, and in the monochrome
theme a style (reverse video) that tells an ally from a hostile of the same kind, where no
colour can; look says what the captive needs."""

from __future__ import annotations

import pytest
from textual.app import App

from roguelike.engine import GameState, describe, new_game
from screens import themes
from screens.game import GameScreen
from screens.themes import DEFAULT_PALETTE, apply_theme
from tests.engine.support import add
from tests.engine.test_allies import seat
from tests.screens.test_themes import visible_floor

SEED = 12345


@pytest.fixture(autouse=True)
def _default_theme_after():
    """The palette is the app's (module state): every test here leaves the default behind."""
    yield
    themes.use(DEFAULT_PALETTE)


class GameApp(App[None]):
    def __init__(self, state: GameState) -> None:
        super().__init__()
        self.state = state

    def on_mount(self) -> None:
        self.push_screen(GameScreen(self.state, world_name="Allies"))


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
        view = game.map_view
        strips = {}
        for pos in (mine, theirs):
            sx, sy = view.map_to_screen(*pos)
            line = view.render_line(sy)
            x = 0
            for seg in line:
                if x <= sx < x + len(seg.text):
                    strips[pos] = (seg.text[sx - x], seg.style)
                    break
                x += len(seg.text)
        (g1, ally_style), (g2, hostile_style) = strips[mine], strips[theirs]
        assert g1 == g2 == "g"
        assert ally_style != hostile_style
        if theme == "mono":  # no colour to tell them: the style does
            assert ally_style.reverse and not hostile_style.reverse
        assert "bump it to free it" in describe(state, *mine)
