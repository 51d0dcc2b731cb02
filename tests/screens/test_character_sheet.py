"""The character sheet (``@``) and the side panel's permadeath line, through the Pilot."""

from __future__ import annotations

import pytest

from roguelike import seeds
from roguelike.engine import GameState, new_game
from roguelike.engine.combat import gain_xp
from roguelike.engine.items import receive
from saves import World
from screens.app import RoguelikeApp
from screens.character import CharacterScreen
from screens.game import GameScreen
from tests.screens.support import (
    GameApp,
    SheetApp,
    game,
    panel_text,
    quiet_game,
    screen_text,
    sheet_of,
)

SIZES = [(80, 24), (200, 60)]


def known_state() -> GameState:
    """A game at a known point: level 2, a blade and a plate taken, two keys, coins, a pack,
    kills and a solved puzzle on record."""
    state = game()
    gain_xp(state, 10)  # the one way levels are gained
    for item in ("sharp blade", "iron plate", "hint coin", "hint coin", "hint coin"):
        receive(state, item)
    state.keys_held = {1, 3}
    state.inventory = {"healing potion": 2, "fire bomb": 1}
    state.identified.add("healing potion")  # known: the sheet names it
    state.turn = 321
    state.stats.kills = 5
    state.stats.puzzles_solved = 1
    state.stats.hints_used = 2
    state.stats.puzzle_scores = [(1, "jugs", "easy", 87)]
    return state


@pytest.mark.parametrize("size", SIZES)
async def test_the_sheet_shows_a_known_state(size):
    state = known_state()
    app = SheetApp(state)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("at")
        await pilot.pause()
        sheet = sheet_of(app)
        lo, hi = state.attack
        assert state.level == 2 and (lo, hi) == (3, 7) and state.defence == 1
        for line in (
            f"HP         {state.hp}/{state.max_hp}",
            "Level      2  XP 0/20",
            "Attack     3-7",
            "Defence    1",
            "Speed      100",
            "/ sharp blade  (wielded: +1 damage)",
            "[ iron plate  (worn: +1 defence)",
            "A perk is on offer: P to choose it.",
            "Keys       A red  C yellow",
            "Coins      3",
            "Pack       ! healing potion ×2, ( fire bomb",
            f"Floor      1 of {state.total_floors}",
            "Turns      321",
            "Kills      5",
            "Puzzles    1 solved  hints used 2",
            "floor 1: jugs (easy)  score 87",
            f"Seed       {seeds.encode(state.seed)}",
            "Permadeath yes",
        ):
            assert line in sheet, line
        assert "heart elixir" not in sheet
        # a name from a file never drives the terminal: not on the sheet, nor in the panel
        assert "Character · Deep\\x1b[2Jrun" in sheet
        assert "\x1b" not in screen_text(app)
        assert state.turn == 321  # looking at the sheet costs nothing
        await pilot.press("at")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_a_fresh_sheet_says_what_is_missing():
    app = GameApp(game())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("at")
        await pilot.pause()
        sheet = sheet_of(app)
        assert "nothing else worn" in sheet and "Keys       none" in sheet
        assert "None yet: each level up offers three." in sheet
        assert "Pack       empty" in sheet and "Permadeath no" in sheet
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


@pytest.mark.parametrize("permadeath", [True, False])
async def test_the_side_panel_says_when_a_world_is_permadeath(permadeath):
    """Through the whole app: a world made permadeath shows it in the side panel."""
    seed = seeds.parse("perma")
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.start_game(World("Perma", seed, "small", permadeath))
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert ("Permadeath" in panel_text(app.screen)) is permadeath


async def test_a_world_that_is_not_permadeath_never_says_so():
    app = GameApp(new_game(1, total_floors=1, monsters=False, puzzles=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Permadeath" not in panel_text(app.screen)


async def test_the_sheet_leaves_the_bot_the_wheel():
    """Looking at the sheet in watch mode is not playing: the bot keeps the wheel."""
    app = SheetApp(game())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        screen.bot.start()
        screen.action_pause()
        await pilot.press("at")
        await pilot.pause()
        assert isinstance(app.screen, CharacterScreen) and screen.bot.autopilot
