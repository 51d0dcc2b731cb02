"""Saving, continuing, loading and deleting worlds through the application and its keys.

Every test has a save folder of its own (``ROGUELIKE_SAVE_DIR``, set in tests/conftest.py)."""

from __future__ import annotations

import pytest
from textual.widgets import Checkbox, DataTable, Input, Static

from roguelike import seeds
from roguelike.engine import new_game
from saves import Store, World, world_name_for
from screens.app import RoguelikeApp
from screens.game import GameScreen
from screens.load import ConfirmScreen
from screens.new_game import NewGameScreen
from screens.summary import SummaryScreen
from screens.title import TitleScreen
from tests.saves.support import pack_as, world_of
from tests.screens.support import open_load, save_dir, screen_text

SEED = seeds.read_stored("N65Q-QBJ0-23PV")
NAME = world_name_for(SEED)


def rng_state(state) -> dict:
    return state.rng.bit_generator.state


async def walk(pilot, keys="llljjhk"):
    for key in keys:
        await pilot.press(key)
    await pilot.pause()


async def test_save_and_quit_then_continue_resumes_exactly():
    app = RoguelikeApp(seed=SEED, preset="small")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        assert Store().info(NAME).turn == 0  # saved at once
        await walk(pilot)
        state = game.state
        where, turn, log, rng = state.player, state.turn, state.log[-5:], rng_state(state)
        monsters = [(m.kind, m.x, m.y, m.hp) for m in state.monsters]
        assert turn > 0
        await pilot.press("S")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        assert Store().info(NAME).turn == turn
        await pilot.pause()
        assert NAME in str(app.screen.query_one("#title-note", Static).render())

    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        state = game.state
        assert (state.player, state.turn, state.log[-5:]) == (where, turn, log)
        assert rng_state(state) == rng
        assert [(m.kind, m.x, m.y, m.hp) for m in state.monsters] == monsters
        assert "Floor 1/3" in screen_text(app)


async def test_descending_autosaves_with_the_floor_left(quiet_worlds):
    app = RoguelikeApp(make_game=quiet_worlds, seed=SEED, preset="small")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        state = game.state
        assert state.player != state.floor.finish  # not already there: the move below counts
        state.player = state.floor.finish
        await pilot.press("greater_than_sign")
        await pilot.pause()
        assert state.number == 2
        assert Store().info(NAME).floor == 2
        _, loaded, visited = Store().load(NAME)
        assert loaded.number == 2 and [v.number for v in visited] == [1]
        assert app.session is not None and [v.number for v in app.session.visited] == [1]


async def test_ctrl_q_in_the_game_saves_then_quits():
    app = RoguelikeApp(seed=SEED, preset="small")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await walk(pilot, "ll")
        turn = app.screen.state.turn
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert not app.is_running
    assert Store().info(NAME).turn == turn
    assert not list(save_dir().glob("*.lock"))  # released


def make_worlds(*names: str) -> Store:
    store = Store()
    for n, name in enumerate(names):
        store.create(World.new(name, n + 1, preset="small"))
    return store


async def test_load_lists_worlds_and_deletes_only_after_yes():
    store = make_worlds("First Keep", "Second Keep")
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_load(pilot)
        table = screen.query_one(DataTable)
        assert table.row_count == 2
        text = screen_text(app)
        assert "First Keep" in text and "Second Keep" in text and "playing" in text
        first = screen.current
        assert first is not None
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is screen and table.row_count == 2 and store.exists(first.name)
        await pilot.press("d", "y")
        await pilot.pause()
        assert table.row_count == 1 and not store.exists(first.name)
        await pilot.press("enter")  # loads the other one
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.screen.world_name != first.name


async def test_a_damaged_save_is_listed_and_skipped():
    store = make_worlds("Good Keep")
    (store.path / "broken.rgl").write_bytes(b"not a save at all")
    app = RoguelikeApp()
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        screen = await open_load(pilot)
        names = [i.name for i in screen.infos]
        broken = names.index("broken")
        assert "cannot load" in screen_text(app)
        screen.query_one(DataTable).move_cursor(row=broken)
        await pilot.pause()
        assert "cannot be loaded" in str(screen.query_one("#load-detail", Static).render())
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen  # not loaded
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("c")  # Continue skips it
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.screen.world_name == "Good Keep"


async def test_a_world_of_another_generator_is_listed_as_such_not_as_damaged():
    """A save the last generator made is whole: the list says why it cannot be loaded (its
    floors would differ), not that it is damaged."""
    store = make_worlds("Good Keep")
    state = new_game(1, preset="small")
    old = pack_as(world_of(state, "Old Keep"), state, generator="3")
    (store.path / "old-keep.rgl").write_bytes(old)
    app = RoguelikeApp()
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        screen = await open_load(pilot)
        row = [i.name for i in screen.infos].index("Old Keep")
        screen.query_one(DataTable).move_cursor(row=row)
        await pilot.pause()
        detail = str(screen.query_one("#load-detail", Static).render())
        assert "Old Keep: cannot be loaded: made by generator 3, this game has" in detail
        assert "damaged" not in detail and "damaged" not in screen_text(app)


async def test_a_world_open_in_another_game_is_refused():
    make_worlds("Busy Keep")
    other = Store()  # another game's store holds the world
    with other.lock("Busy Keep"):
        app = RoguelikeApp()
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot.pause()
            await pilot.pause()
            await pilot.press("c")
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen)
            assert any("already open" in str(n.message) for n in app._notifications)


async def test_a_taken_name_is_refused_with_a_free_one_offered():
    make_worlds("Taken Keep")
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        screen.query_one("#name", Input).value = "taken keep"
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
        status = str(screen.query_one("#name-status", Static).render())
        assert "already exists" in status and "'taken keep 2'" in status
        screen.query_one("#name", Input).value = "Fresh Keep"
        screen.query_one("#permadeath", Checkbox).value = True
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert Store().info("Fresh Keep").permadeath


@pytest.mark.parametrize("permadeath", [True, False])
async def test_death_deletes_a_permadeath_world_and_saves_any_other(permadeath, quiet_worlds):
    app = RoguelikeApp(make_game=quiet_worlds)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.start_game(World("Doomed Keep", SEED, "small", permadeath))
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        game.state.hp = 0
        game.state.dead = True
        game.state.stats.cause = "a test"
        game._check_end()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        gone = "This world is gone (permadeath)" in screen_text(app)
        assert gone == permadeath
        assert Store().exists("Doomed Keep") != permadeath
        if not permadeath:
            info = Store().info("Doomed Keep")
            assert info.dead
            await pilot.press("enter")
            await pilot.pause()
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen)
            assert app.screen.query_one("#continue").disabled  # an ended world
            assert not app.screen.query_one("#load").disabled
