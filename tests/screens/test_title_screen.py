"""The title screen, driven through Textual's Pilot."""

import pytest
from textual.widgets import Button, Static

from screens.app import RoguelikeApp
from screens.help import HelpScreen
from screens.new_game import NewGameScreen
from screens.title import TitleScreen
from tests.screens.support import screen_text

SIZES = [(80, 24), (120, 40)]


@pytest.mark.parametrize("size", SIZES)
async def test_title_shows_its_options_and_versions(size):
    app = RoguelikeApp()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        text = screen_text(app)
        for label in ("New game", "Continue", "Load", "Enter seed", "Help", "Quit"):
            assert label in text
        assert "generator" in text and "version" in text
        # no saved worlds (an empty save folder): shown, disabled, and saying so
        assert app.screen.query_one("#continue", Button).disabled
        assert app.screen.query_one("#load", Button).disabled
        assert not app.screen.query_one("#new", Button).disabled
        assert "no saved worlds yet" in text


async def test_continue_says_there_are_no_saves_and_stays():
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        assert any("no saved worlds yet" in str(n.message) for n in app._notifications)


@pytest.mark.parametrize(
    "key, screen, focused",
    [("n", NewGameScreen, "seed"), ("s", NewGameScreen, "seed"), ("?", HelpScreen, None)],
)
async def test_keys_open_their_screens(key, screen, focused):
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, screen)
        if focused:
            assert app.focused is not None and app.focused.id == focused
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)


async def test_buttons_work_like_keys():
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.click("#seed")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert app.focused is not None and app.focused.id == "seed"


async def test_preview_draws_a_floor():
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await pilot.pause()
        text = str(app.screen.query_one("#preview-text", Static).render())
        assert text.startswith("floor 1 · seed ") and "start 0" in text and "finish 1" in text
        assert "[A]─" in text and "[C]─" in text  # lock labels survive (not read as markup)


async def test_q_and_ctrl_q_quit_from_the_title():
    for key in ("q", "ctrl+q"):
        app = RoguelikeApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press(key)
            await pilot.pause()
        assert app.return_value is None and not app.is_running
