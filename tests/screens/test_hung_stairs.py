"""The stairs with a floor worker that never answers (issue 24, case 3), through the Pilot: ``>``
says "…", the game keeps answering keys (``?`` opens the help), and once the cache's deadline
passes the floor is made in the game's own process and taken: the
same floor the stairs would have made. Before, the screen waited on the worker for ever."""

from __future__ import annotations

from concurrent.futures import Executor, Future
from typing import Any

from roguelike import seeds
from roguelike.engine.pregen import FloorCache
from roguelike.gen.pipeline import generate_floor
from screens.game import GameScreen
from screens.game.screen import MAKING_FLOOR, STAIRS_WAIT
from screens.help import HelpScreen
from tests.saves.support import assert_same
from tests.screens.support import StairsApp, at_the_stairs

SEED = seeds.text_seed("hung stairs")
#: how many pauses a test waits at most (a bound against a hang, not a timing)
PATIENCE = 3000


class Hung(Executor):
    """Takes every floor and never makes one (a worker stopped for ever)."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        return Future()


async def test_a_hung_worker_never_freezes_the_stairs():
    # long enough that the screen is seen waiting even on a loaded machine (0.3 s was not)
    state = at_the_stairs(SEED, FloorCache(Hung(), deadline=2.0))
    app = StairsApp(state, "Hung", SEED)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("greater_than_sign")
        await pilot.pause()
        assert state.number == 1 and screen.prompt in (STAIRS_WAIT, MAKING_FLOOR)
        await pilot.press("question_mark")  # the game answers while it waits
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        for _ in range(PATIENCE):
            if state.number == 2:
                break
            await pilot.pause(0.01)
        assert state.number == 2
        assert state.floors is not None and state.floors.made_here == 1
        assert state.floors.gave_up is not None
    assert_same(generate_floor(SEED, 2), state.floor)
