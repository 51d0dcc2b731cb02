"""Leaving a game whose save fails: the game stays open, says why in one line, and the player
chooses (retry, leave without saving, back to the game); a world whose run cannot reach the
hall is not deleted."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from saves import Store, World, world_name_for
from saves import store as store_module
from screens.app import RoguelikeApp
from screens.game import GameScreen
from screens.leave import SaveFailedScreen
from screens.title import TitleScreen
from tests.screens.support import delete_world, screen_text

SEED = 7
NAME = world_name_for(SEED)


class Disk:
    """``write_atomic`` of the store, failing as a full disk while :attr:`full`."""

    def __init__(self) -> None:
        self.full = True
        self.write = store_module.write_atomic

    def __call__(self, *args: object, **kwargs: object) -> None:
        if self.full:
            raise OSError(errno.ENOSPC, "No space left on device", "world.rgl")
        self.write(*args, **kwargs)  # type: ignore[arg-type]


async def walk(pilot, keys: str = "llljjhk") -> None:
    for key in keys:
        await pilot.press(key)
    await pilot.pause()


def locks() -> list[Path]:
    return list(Path(os.environ["ROGUELIKE_SAVE_DIR"]).glob("*.lock"))


async def test_ctrl_q_with_a_full_disk_asks_and_a_retry_saves(quiet_worlds, monkeypatch):
    app = RoguelikeApp(make_game=quiet_worlds, seed=SEED, preset="small")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await walk(pilot)
        turn = app.screen.state.turn
        assert turn > 0
        disk = Disk()
        monkeypatch.setattr(store_module, "write_atomic", disk)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.is_running  # never quits unsaved without a word
        assert isinstance(app.screen, SaveFailedScreen)
        said = screen_text(app)
        assert "No space left on device (world.rgl)" in said and "[Errno" not in said
        assert Store().info(NAME).turn == 0 and locks()  # still held
        disk.full = False  # space freed
        await pilot.press("r")
        await pilot.pause()
    assert not app.is_running
    assert Store().info(NAME).turn == turn and not locks()


async def test_s_with_a_full_disk_then_back_to_the_game_then_leave_unsaved(
    quiet_worlds, monkeypatch
):
    app = RoguelikeApp(make_game=quiet_worlds, seed=SEED, preset="small")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        game = app.screen
        await walk(pilot)
        monkeypatch.setattr(store_module, "write_atomic", Disk())
        await pilot.press("S")
        await pilot.pause()
        assert isinstance(app.screen, SaveFailedScreen)
        await pilot.press("escape")  # back to the game: still playable, still held
        await pilot.pause()
        assert app.screen is game and app.session is not None and app.session.open
        await walk(pilot, "h")
        await pilot.press("S")
        await pilot.pause()
        assert isinstance(app.screen, SaveFailedScreen)
        await pilot.press("l")  # an explicit choice: leave without saving
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        assert app.session is None and not locks()
    assert Store().info(NAME).turn == 0  # as last saved


async def test_deleting_a_world_whose_run_cannot_be_kept_keeps_it(quiet_worlds):
    store = Store()
    app = RoguelikeApp(make_game=quiet_worlds, seed=SEED, preset="small")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await walk(pilot)
        await pilot.press("S")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        (store.path / "runs").write_text("a file where the hall's folder goes")
        await delete_world(pilot)
        await app.workers.wait_for_complete()  # its run is checked in a worker thread
        await pilot.pause()
        assert store.exists(NAME)  # kept: its run would have been lost
        assert any("hall" in str(n.message) for n in app._notifications)


def test_the_question_names_the_world_and_the_reason_in_one_line():
    screen = SaveFailedScreen("[b]Keep[/b]", "No space left\non device")
    first = screen.text.splitlines()[0]
    assert first == "[b]Keep[/b] was not saved: No space left on device"
    assert isinstance(World, type)
