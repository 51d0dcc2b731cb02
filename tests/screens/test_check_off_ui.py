"""A loaded save's run is replayed against its recording before the hall keeps it (a doctored
save's claims never reach the hall), and that replay runs in a worker thread with a box saying
how far it is: the screen keeps answering. Before, the replay ran on the UI thread when the run
ended, when a finished game was left and when a world was deleted or started again: a whole
normal-size run held the screen for about ten seconds.

The slow replay is a stand-in for :func:`saves.verify.verify` that reports progress and waits on
an event the test sets (never on time: it gives up after ten seconds only so that a frozen
screen fails the test instead of hanging it).
"""

from __future__ import annotations

import threading
from typing import Any

import pytest

import saves.session
from roguelike.engine import Wait
from roguelike.recording import Progress, check
from saves import Store, World
from saves.hall import Hall
from saves.record import RunRecord
from saves.session import Games
from screens.app import RoguelikeApp
from screens.busy import CheckScreen
from screens.ending import CHECKING_RUN
from screens.game import GameScreen
from screens.load import LoadScreen
from screens.summary import SummaryScreen
from tests.saves.run_support import forged_world
from tests.screens.support import delete_world, quiet_game, screen_text

SEED = 4242
NAME = "Slow"


class SlowReplay:
    """``verify`` replaced: reports input 3 of 10 until :attr:`release` is set, then holds."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.calls = 0

    def __call__(self, record: RunRecord, *, progress: Progress | None = None) -> Any:
        self.calls += 1
        for _ in range(1000):  # ten seconds at most: a test that froze the screen fails
            if progress is not None:
                progress(3, 10)
            if self.release.wait(0.01):
                break
        if progress is not None:
            progress(10, 10)
        return None


@pytest.fixture
def slow(monkeypatch) -> SlowReplay:
    replay = SlowReplay()
    monkeypatch.setattr(saves.session, "verify", replay)
    return replay


def saved_world(*, dead: bool, permadeath: bool = False) -> None:
    """A world played three turns and saved (its player dead, if ``dead``: the save made to
    read as whole)."""
    session = Games(Store(), make_game=quiet_game).new(
        World(NAME, SEED, "small", permadeath=permadeath)
    )
    for _ in range(3):
        session.step(Wait())
    if dead:
        session.state.dead, session.state.hp = True, 0
        assert session.recording is not None
        session.recording.checks[-1] = check(session.state)
    session.save()
    session.quit()


async def until_progress(pilot, app: RoguelikeApp, words: str) -> CheckScreen:
    """The check's box once it shows ``words`` (the UI thread draws it while the replay runs)."""
    for _ in range(400):
        await pilot.pause(0.02)
        box = next((s for s in app.screen_stack if isinstance(s, CheckScreen)), None)
        if box is not None and words in box.text and words in screen_text(app):
            return box
    raise AssertionError(f"no check box saying {words!r}: {screen_text(app)!r}")


async def end_loaded_run(pilot, app: RoguelikeApp) -> None:
    """Load the saved world, whose run is over, and leave its game screen: the run ends."""
    session = app.open_world(NAME)
    assert session is not None and session.ended and not session.proven
    app.play(session)
    await pilot.pause()
    game = app.screen
    assert isinstance(game, GameScreen)
    game.dismiss(game.state)


async def test_the_end_of_a_loaded_run_is_checked_while_the_screen_answers(slow):
    saved_world(dead=True, permadeath=True)
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await end_loaded_run(pilot, app)
        box = await until_progress(pilot, app, "input 3 of 10")
        assert CHECKING_RUN in box.text
        await pilot.press("escape")  # answered (at the run's end it stops nothing)
        await pilot.pause()
        assert app.screen is box
        assert Hall(Store().path).runs() == [] and Store().exists(NAME)  # nothing decided yet
        slow.release.set()
        await app.workers.wait_for_complete()
        for _ in range(50):
            await pilot.pause()
            if isinstance(app.screen, SummaryScreen):
                break
        assert isinstance(app.screen, SummaryScreen)
    (run,) = Hall(Store().path).runs()
    assert (run.world, run.outcome, run.turns) == (NAME, "died", 3)
    assert not Store().exists(NAME)  # permadeath: deleted once its run was in the hall
    assert slow.calls == 1  # replayed once: the hall and the summary took its verdict


async def test_ctrl_q_during_the_check_keeps_the_world_as_it_ended(slow):
    saved_world(dead=True, permadeath=True)
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await end_loaded_run(pilot, app)
        await until_progress(pilot, app, "input 3 of 10")
        await pilot.press("ctrl+q")
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert not slow.release.is_set()  # stopped, not waited for
    assert app.session is None and app.unsaved is None
    info = Store().info(NAME)
    assert info.dead and info.turn == 3  # not lost, not deleted: its death is saved
    assert Hall(Store().path).runs() == []  # unchecked: not in the hall (yet)
    assert not list(Store().path.glob("*.lock"))


async def test_deleting_a_world_is_checked_in_a_worker_and_esc_keeps_it(slow):
    saved_world(dead=False)
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(100, 30)) as pilot:
        await delete_world(pilot)
        box = await until_progress(pilot, app, "input 3 of 10 · Esc stops")
        await pilot.press("escape")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen is not box and isinstance(app.screen, LoadScreen)
        assert Store().exists(NAME) and Hall(Store().path).runs() == []
        await pilot.press("d", "y")
        await until_progress(pilot, app, "input 3 of 10")
        slow.release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, LoadScreen)
    (run,) = Hall(Store().path).runs()
    assert (run.world, run.outcome, run.turns) == (NAME, "abandoned", 3)
    assert not Store().exists(NAME)


async def test_a_doctored_save_played_to_its_end_in_the_app_never_reaches_the_hall():
    forged_world(Store(), NAME)
    app = RoguelikeApp(make_game=quiet_game)
    said: list[str] = []  # every notification, kept (a loaded CI machine outlived its timeout)
    real_notify = app.notify

    def notify(message, *args, **kwargs):  # type: ignore[no-untyped-def]
        said.append(str(message))
        return real_notify(message, *args, **kwargs)

    app.notify = notify  # type: ignore[method-assign]
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await end_loaded_run(pilot, app)
        await app.workers.wait_for_complete()
        for _ in range(50):
            await pilot.pause()
            if isinstance(app.screen, SummaryScreen):
                break
        assert isinstance(app.screen, SummaryScreen)
    assert any("claim of outcome is false" in line for line in said)
    assert Hall(Store().path).runs() == []
    assert Store().info(NAME).won  # kept, as it ended


async def test_ctrl_q_on_a_finished_loaded_game_checks_it_then_quits(slow):
    saved_world(dead=True, permadeath=True)
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        session = app.open_world(NAME)
        assert session is not None
        app.play(session)
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("ctrl+q")  # leaving a finished game ends its run: checked first
        await until_progress(pilot, app, "input 3 of 10")
        assert Store().exists(NAME) and Hall(Store().path).runs() == []
        slow.release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not session.open  # ended and released, then the app quits
    (run,) = Hall(Store().path).runs()
    assert (run.world, run.outcome) == (NAME, "died")
    assert not Store().exists(NAME) and slow.calls == 1
