"""The new-world dialog's difficulty: normal unless the player picks another, the choice
carried by the world to its game, its save, the side panel and the character sheet."""

from __future__ import annotations

from roguelike.engine.balance import DEFAULT_DIFFICULTY, DIFFICULTIES
from saves.store import Store
from screens.app import RoguelikeApp
from screens.character import sheet_text
from screens.game import GameScreen
from screens.new_game import NewGameScreen
from tests.screens.support import panel_text, quiet_game, screen_text


async def open_dialog(pilot) -> NewGameScreen:
    await pilot.press("n")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, NewGameScreen)
    return screen


async def test_normal_is_offered_first_and_starts_a_normal_world():
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_dialog(pilot)
        assert screen.chosen_difficulty() == DEFAULT_DIFFICULTY
        assert "Start ⏎" in screen_text(app) and "brutal" in screen_text(app)  # it all fits
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.screen.state.difficulty == DEFAULT_DIFFICULTY
        assert "Difficulty" not in panel_text(app.screen)  # normal goes without saying


async def test_a_harder_choice_reaches_the_game_the_save_and_the_panels():
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_dialog(pilot)
        choice = screen.query_one("#difficulty")
        choice.focus()
        await pilot.pause()
        await pilot.press("right")  # normal → hard
        await pilot.pause()
        assert screen.chosen_difficulty() == "hard"
        await pilot.press("enter")
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        assert game.state.difficulty == "hard"
        assert "Difficulty hard" in panel_text(game)
        assert "hard" in sheet_text(game.state).plain.split("Difficulty", 1)[1]
        assert app.session is not None and app.session.world.difficulty == "hard"
        (info,) = Store(app.save_dir).list()
        assert info.difficulty == "hard"


async def test_the_choice_stops_at_its_ends():
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_dialog(pilot)
        choice = screen.query_one("#difficulty")
        choice.focus()
        await pilot.pause()
        await pilot.press(*["left"] * (len(DIFFICULTIES) + 1))
        await pilot.pause()
        assert screen.chosen_difficulty() == next(iter(DIFFICULTIES))
        await pilot.press(*["right"] * (len(DIFFICULTIES) + 1))
        await pilot.pause()
        assert screen.chosen_difficulty() == list(DIFFICULTIES)[-1]
