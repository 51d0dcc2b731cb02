"""The application's flow through the Pilot: title → new game → game → summary, help,
the too-small overlay, Ctrl+Q everywhere, and ``roguelike --seed``."""

import os
import subprocess
import sys

import pytest
from textual.widgets import Input, Static

from roguelike import seeds
from roguelike.cli import main
from roguelike.engine import new_game
from roguelike.presets import PRESETS
from saves import world_name_for
from screens.app import RoguelikeApp
from screens.bindings import GAME_BINDINGS
from screens.game import GameScreen
from screens.help import HelpScreen
from screens.new_game import NewGameScreen
from screens.summary import SummaryScreen
from screens.title import TitleScreen
from screens.too_small import TooSmallScreen
from tests.screens.support import screen_text

SIZES = [(80, 24), (120, 40)]
CODE = seeds.encode(0x1234_5678_9ABC)


async def open_new_game(pilot, key="s"):
    await pilot.press(key)
    await pilot.pause()
    assert isinstance(pilot.app.screen, NewGameScreen)
    return pilot.app.screen


@pytest.mark.parametrize("size", SIZES)
async def test_a_typed_code_starts_that_world(size):
    app = RoguelikeApp()
    async with app.run_test(size=size) as pilot:
        screen = await open_new_game(pilot)
        await pilot.press(*CODE.lower())  # codes are read case-insensitively
        await pilot.pause()
        status = str(screen.query_one("#seed-status", Static).render())
        assert status == f"✓ seed {CODE}"
        name = screen.query_one("#name", Input).value
        assert name == world_name_for(seeds.parse(CODE))  # named after the seed
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        state = app.screen.state
        assert state.seed == seeds.parse(CODE)
        assert state.world_name == name and state.total_floors == PRESETS["normal"]
        assert [type(s) for s in app.screen_stack[1:]] == [TitleScreen, GameScreen]


async def test_a_bad_code_shows_the_error_and_does_not_start():
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_new_game(pilot)
        bad = CODE[:-1] + ("0" if CODE[-1] != "0" else "1")  # a wrong check symbol
        await pilot.press(*bad)
        await pilot.pause()
        status = screen.query_one("#seed-status", Static)
        assert "wrong check symbol" in str(status.render()) and status.has_class("-error")
        assert "wrong check symbol" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen  # not started
        screen.query_one("#seed", Input).value = ""
        await pilot.pause()
        assert str(status.render()) == "random world" and not status.has_class("-error")


async def test_blank_starts_a_random_world_of_the_chosen_size():
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_new_game(pilot, "n")
        assert app.focused is screen.query_one("#seed")  # a code typed at once is kept
        await pilot.press("tab", "tab")  # the name, then the size
        assert app.focused is screen.query_one("#preset")
        await pilot.press("up")  # normal → small
        await pilot.pause()
        assert screen.chosen_preset() == "small"
        name = screen.query_one("#name", Input).value
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        state = app.screen.state
        assert state.seed == screen.random_seed and state.world_name == name
        assert state.total_floors == PRESETS["small"]


async def test_a_typed_world_name_is_kept():
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_new_game(pilot)
        await pilot.press("tab", *"My Keep", "shift+tab", *"dragon")  # focus selects all
        await pilot.pause()
        assert screen.query_one("#name", Input).value == "My Keep"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.state.world_name == "My Keep"
        assert app.screen.state.seed == seeds.parse("dragon")


@pytest.mark.parametrize("size", SIZES)
async def test_help_lists_the_keys_of_the_table(size):
    app = RoguelikeApp()
    async with app.run_test(size=size) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        for heading in ("Move", "Act", "Info", "Everywhere"):
            assert heading in text
        assert "↑ k 8" in text and "Move or attack north" in text  # human key names
        if size == (120, 40):  # every key is there, a scroll away at most
            box = app.screen.query_one("#help-box")
            while box.scroll_y < box.max_scroll_y:
                box.scroll_to(y=box.scroll_y + box.size.height // 2, animate=False)
                await pilot.pause()
                text += "\n" + screen_text(app)
            for binding in GAME_BINDINGS:
                assert binding.description in text
            assert "^q" in text and "Quit" in text  # the app's own bindings


async def test_help_from_the_game_returns_to_the_same_game():
    app = RoguelikeApp(seed=seeds.parse(CODE), preset="small")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert GAME_BINDINGS[0].description in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game


def finished_state(*, won=False):
    state = new_game(seeds.parse(CODE), preset="small", world_name="Test Keep")
    if won:
        state.won = True
        state.stats.cause = "escaped"
    else:
        state.dead = True
        state.stats.cause = "killed by a cave rat"
    state.stats.kills = 3
    return state


@pytest.mark.parametrize("size", SIZES)
async def test_summary_shows_the_seed_and_the_cause_and_copies_the_code(size):
    app = RoguelikeApp()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.push_screen(SummaryScreen(finished_state(), world_name="Test Keep"))
        await pilot.pause()
        text = screen_text(app)
        assert "You died" in text and "killed by a cave rat" in text
        assert CODE in text and "Test Keep" in text
        assert "Floors reached" in text and "1 / 3" in text and "Kills" in text
        for label in ("Turns", "Keys", "Puzzles solved", "Hints used"):
            assert label in text
        await pilot.press("c")
        assert app.clipboard == CODE


async def test_the_end_of_a_run_leads_to_the_summary_then_again_or_title():
    app = RoguelikeApp(seed=seeds.parse(CODE), preset="small")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        game.state.won = True
        game.dismiss(game.state)
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        assert "You escaped" in screen_text(app)
        await pilot.press("a")  # the same world again, from the start
        await pilot.pause()
        again = app.screen
        assert isinstance(again, GameScreen) and again is not game
        assert again.state.seed == seeds.parse(CODE) and not again.state.won
        assert again.state.total_floors == PRESETS["small"]
        again.dismiss(finished_state())
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen) and len(app.screen_stack) == 2


async def test_too_small_covers_the_game_and_uncovers_it_intact():
    app = RoguelikeApp(seed=seeds.parse(CODE), preset="small")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        await pilot.press("right", "down")
        await pilot.pause()
        where, turn = game.state.player, game.state.turn
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        text = " ".join(screen_text(app).split())  # the message wraps at 60 columns
        assert "Terminal too small: need 80×24, have 60×20 — resize to continue" in text
        await pilot.press("left")  # keys do not reach the hidden game
        await pilot.pause()
        assert game.state.turn == turn
        await pilot.resize_terminal(70, 30)
        await pilot.pause()
        assert "have 70×30" in screen_text(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert app.screen is game and game.is_mounted
        assert (game.state.player, game.state.turn) == (where, turn)
        assert "too small" not in screen_text(app)


async def test_too_small_from_the_start_then_the_title():
    app = RoguelikeApp()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        assert "have 60×20" in screen_text(app)
        await pilot.press("ctrl+p", "n")  # nothing opens over the message
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen) and len(app.screen_stack) == 3
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)


async def test_a_game_started_in_a_small_terminal_waits_under_the_message():
    app = RoguelikeApp(seed=seeds.parse(CODE), preset="small")
    async with app.run_test(size=(79, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


@pytest.mark.parametrize("where", ["title", "new game", "game"])
async def test_ctrl_q_quits_from_anywhere(where):
    app = RoguelikeApp(seed=seeds.parse(CODE) if where == "game" else None, preset="small")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        if where == "new game":
            await open_new_game(pilot)  # the seed Input has the focus
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert not app.is_running


# -- the command line ---------------------------------------------------------------------


def test_seed_starts_that_world(fake_app):
    made = fake_app.made
    assert (
        main(["--seed", "dragon", "--preset", "large", "--difficulty", "hard"], make_app=fake_app)
        == 0
    )
    assert made == {
        "seed": seeds.parse("dragon"),
        "preset": "large",
        "difficulty": "hard",
        "watch": False,
        "save_dir": None,
        "ran": True,
        "pregenerate": "process",  # the game makes each next floor ahead
    }
    made.clear()
    assert main([], make_app=fake_app) == 0
    # None: the engine's default
    assert made == {
        "seed": None,
        "preset": None,
        "difficulty": None,
        "watch": False,
        "save_dir": None,
        "ran": True,
        "pregenerate": "process",
    }


def test_the_cli_the_engine_and_the_saves_use_the_one_preset_table():
    from roguelike import presets
    from roguelike.cli import build_parser
    from roguelike.engine import state
    from saves import world
    from screens import new_game

    preset = next(a for a in build_parser()._actions if a.dest == "preset")
    assert list(preset.choices) == list(presets.PRESETS)
    assert all(f"{name} {floors}" in preset.help for name, floors in PRESETS.items())
    assert state.PRESETS is PRESETS is presets.PRESETS
    assert state.DEFAULT_PRESET == world.DEFAULT_PRESET == presets.DEFAULT_PRESET
    assert tuple(presets.PRESETS) == world.PRESET_NAMES
    assert new_game.PRESETS is presets.PRESETS and new_game.DEFAULT_PRESET == "normal"


def test_a_bad_seed_code_is_one_line_and_exit_2():
    bad = CODE[:-1] + ("0" if CODE[-1] != "0" else "1")
    result = subprocess.run(
        [sys.executable, "-m", "roguelike.cli", "--seed", bad],
        capture_output=True,
        text=True,
        env=dict(os.environ),
    )
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("roguelike: error: ")
    assert "wrong check symbol" in lines[0]


def test_seed_does_not_go_with_a_command(capsys):
    assert main(["--seed", "dragon", "generate", "--seed", "x"]) == 2
    assert (
        "roguelike: error: --seed, --preset and --difficulty start a game"
        in capsys.readouterr().err
    )
