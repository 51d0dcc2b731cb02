"""The stairs and the floor made ahead, through the Pilot: ``>`` takes a floor that is ready at
once; one still being made says so and is taken when it is done (the keys that play wait
meanwhile; Esc stays on the floor); the app made with ``pregenerate`` plays and autosaves a
descent."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from roguelike import seeds
from roguelike.engine import GameState, can_step
from roguelike.engine.pregen import FloorCache, make_floor
from saves import Store
from screens.app import RoguelikeApp
from screens.game import GameScreen
from screens.game.screen import STAIRS_WAIT
from tests.screens.support import StairsApp, at_the_stairs

SEED = seeds.text_seed("pregen stairs")
#: how many pauses a test waits for the worker at most (it is let go before the wait)
PATIENCE = 3000


class Held:
    """``make_floor`` held until ``go`` is set; ``calls`` counts the floors it made."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.calls = 0

    def __call__(self, seed: int, number: int, last: bool):
        self.calls += 1
        assert self.go.wait(timeout=60)
        return make_floor(seed, number, last)


def on_the_stairs(held: Held) -> GameState:
    return at_the_stairs(SEED, FloorCache(ThreadPoolExecutor(1), make=held))


async def wait_for(pilot, done) -> None:
    for _ in range(PATIENCE):
        if done():
            return
        await pilot.pause(0.02)


async def test_a_floor_still_being_made_shows_dots_then_is_taken():
    held = Held()
    state = on_the_stairs(held)
    app = StairsApp(state, "Ahead", SEED)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("greater_than_sign")
        await pilot.pause()
        assert state.number == 1 and screen.prompt == STAIRS_WAIT
        await pilot.press("greater_than_sign")  # pressed again while waiting: still one descent
        held.go.set()
        await wait_for(pilot, lambda: state.number == 2)
        await pilot.pause()
        assert state.number == 2 and screen.prompt != STAIRS_WAIT
        # floor 2 was made once, by the worker (never at the stairs); the session then asks
        # for floor 3 ahead, as it does on every arrival
        await wait_for(pilot, lambda: held.calls == 2)
        assert held.calls == 2 and state.floors is not None and state.floors.made_here == 0
        assert state.turn == 1  # one descent, not two
    assert state.floors is None  # the session's end closed its cache


def a_step_off(state: GameState) -> str:
    """A direction key that would step off the stairs."""
    x, y = state.player
    return next(
        k
        for (dx, dy), k in {(1, 0): "right", (-1, 0): "left", (0, 1): "down"}.items()
        if can_step(state, x, y, dx, dy)
    )


async def test_keys_typed_while_waiting_never_walk_off_the_stairs():
    """Issue 28: a move typed while "…" showed used to walk the player off the stairs, the
    descent was dropped without a word, and the next ``>`` walked back ("There are stairs
    down"), spending turns. Now ``>`` on the stairs always descends: the keys that play wait."""
    held = Held()
    state = on_the_stairs(held)
    app = StairsApp(state, "Ahead", SEED)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        start = state.player
        await pilot.press("greater_than_sign")
        await pilot.press(a_step_off(state), "s", "e")
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert state.player == start and state.turn == 0  # no stray turn on this floor
        assert screen.prompt == STAIRS_WAIT  # it says why the keys wait
        held.go.set()
        await wait_for(pilot, lambda: state.number == 2)
        await pilot.pause()
        assert state.number == 2 and state.turn == 1 and screen.prompt != STAIRS_WAIT
    assert state.floors is None  # the session's end closed its cache


async def test_escape_while_waiting_stays_on_the_floor_and_says_so():
    held = Held()
    state = on_the_stairs(held)
    app = StairsApp(state, "Ahead", SEED)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("greater_than_sign", "escape")
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.prompt == "You stay on this floor."
        held.go.set()
        await wait_for(pilot, lambda: held.calls >= 1 and state.floors is not None)
        await pilot.pause(0.2)
        assert state.number == 1 and state.turn == 0
        key = a_step_off(state)
        await pilot.press(key)  # and the keys play again
        assert state.turn == 1
    assert state.floors is None  # the session's end closed its cache


async def test_a_ready_floor_is_taken_at_once():
    held = Held()
    held.go.set()
    state = on_the_stairs(held)
    assert state.floors is not None
    below = state.next_floor()
    assert below is not None
    await_ready = state.floors._pending[below]  # noqa: SLF001 - the test waits for the worker
    await_ready.result(timeout=60)
    app = StairsApp(state, "Ahead", SEED)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("greater_than_sign")  # no wait: the key itself descends
        assert state.number == 2
    assert state.floors is None  # the session's end closed its cache


async def test_the_app_with_pregeneration_descends_and_autosaves(quiet_worlds, tmp_path):
    app = RoguelikeApp(
        make_game=quiet_worlds, seed=SEED, preset="small", pregenerate="thread", save_dir=tmp_path
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = app.session
        assert session is not None and session.state.floors is not None
        state = session.state
        state.player = state.floor.finish
        await pilot.press("greater_than_sign")
        await wait_for(pilot, lambda: state.number == 2)
        await pilot.pause()
        assert state.number == 2 and not session.save_due
        assert Store(tmp_path).info(session.world.name).floor == 2
        cache = state.floors
    assert cache.closed  # leaving the app ended the worker
