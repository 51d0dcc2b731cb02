"""Whole runs through the real application and its keys: a tiny world won from the title's
command-line start to the summary, and a run that ends in death.

The player here presses what a person would: ``e`` to explore (which walks to keys and items,
opens doors and unlocks the ones whose key is held), a click on the stairs to travel there,
``>`` to descend or leave, direction keys to fight, Enter to see the summary.
"""

from __future__ import annotations

import numpy as np

from roguelike import seeds, tiles
from roguelike.engine import GameState, Monster, new_game
from screens.app import RoguelikeApp
from screens.game import GameScreen
from screens.map_view import MapView
from screens.summary import SummaryScreen
from tests.screens.support import VI

SEED = seeds.read_stored("N65Q-QBJ0-23PV")


def all_text(app: RoguelikeApp) -> str:
    """The current screen as plain text, one line per terminal row."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def explore_floor(pilot, state: GameState) -> None:
    """Press ``e`` until exploring has nothing left to find."""
    for _ in range(200):
        before = len(state.log)
        await pilot.press("e")
        await pilot.pause()
        new = " ".join(state.log[before:])
        if "Explored all you can reach" in new:
            return
    raise AssertionError("exploring never finished")


async def test_a_tiny_world_is_won_with_the_keys_and_ends_in_the_summary(quiet_worlds):
    """Without monsters and puzzles (they have their own tests), a three-floor world from
    ``roguelike --seed CODE --preset small``: every key taken and every door opened by
    exploring, the stairs reached by a click, and the exit taken on the last floor."""
    app = RoguelikeApp(make_game=quiet_worlds, seed=SEED, preset="small")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        state = app.screen.state
        assert state.seed == SEED and state.total_floors == 3
        keys_total = 0
        for number in (1, 2, 3):
            assert state.number == number
            assert f"Floor {number}/3" in all_text(app)
            await explore_floor(pilot, state)
            fl = state.floor
            # every key was taken and every locked door opened by walking the floor (without
            # puzzles, a vault's key lies on its pedestal's cell, and is taken too)
            assert state.keys_held == {k.id for k in fl.keys} | {v.key for v in fl.vaults}
            keys_total += len(fl.keys) + len(fl.vaults)
            assert not any(tiles.lock_of(int(t)) for t in np.unique(state.tiles))
            app.screen.query_one(MapView).post_message(MapView.TileClicked(*fl.finish))
            await pilot.pause()
            assert state.player == fl.finish
            await pilot.press("greater_than_sign")
            await pilot.pause()
        assert state.won and state.stats.cause == "escaped"
        assert state.stats.keys == keys_total and state.stats.floors_reached == 3
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        text = all_text(app)
        assert seeds.encode(SEED) in text
        assert "You escaped" in text and "3 / 3" in text and str(state.turn) in text


async def test_a_fight_to_the_death_ends_the_run_with_its_cause():
    """A troll next to a fresh player: the player attacks it with a direction key (the troll
    is hurt or the blow misses), keeps waiting, dies, and the summary names the troll."""
    app = RoguelikeApp(seed=SEED, preset="small")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        state = app.screen.state
        state.monsters.clear()
        x, y = state.player
        walk = tiles.WALKABLE[state.tiles]
        (dx, dy), (tx, ty) = next(
            ((dx, dy), (x + dx, y + dy))
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if walk[y + dy, x + dx]
        )
        troll = Monster(99, "troll", tx, ty, 32, home=(tx, ty), awake=True)
        state.monsters.append(troll)
        turn = state.turn
        await pilot.press(VI[(dx, dy)])
        await pilot.pause()
        assert state.turn == turn + 1 and state.player == (x, y)  # a blow, not a step
        assert troll.hp < 32 or "You miss the troll." in state.log
        for _ in range(100):
            if state.dead:
                break
            await pilot.press("full_stop")
            await pilot.pause()
        assert state.dead and state.hp == 0
        assert state.stats.cause == "killed by a troll on floor 1"
        assert "die" in all_text(app).lower()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        assert "killed by a troll on floor 1" in all_text(app)


async def test_a_pedestal_opens_its_puzzle_and_only_real_solutions_open_the_lock():
    """Stepping on a pedestal opens the puzzle screen. A screen that claims a solve with
    wrong moves opens nothing (the engine replays them); the true moves open the lock."""
    from screens.puzzle import PuzzleOutcome, PuzzleScreen

    def locks(s):  # the quick pedestals that open a lock (not a floor change's)
        changes = {c.key for c in s.floor.changes}
        return [
            p for p in s.puzzles.values() if p.type in ("jugs", "stomp") and p.key not in changes
        ]

    state = next(
        s
        for s in (new_game(seed, preset="small", monsters=False) for seed in range(100))
        if locks(s)
    )
    room = locks(state)[0]
    door = next(d for d in state.floor.doors if d.lock == room.key)
    x, y = room.pos
    walk = tiles.WALKABLE[state.tiles]
    dx, dy = next(d for d in ((1, 0), (-1, 0), (0, 1), (0, -1)) if walk[y - d[1], x - d[0]])
    state.player = (x - dx, y - dy)
    state.update_view()
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(GameScreen(state))
        await pilot.pause()
        await pilot.press(VI[(dx, dy)])
        await pilot.pause()
        assert state.player == room.pos and isinstance(app.screen, PuzzleScreen)
        p = room.puzzle()
        plan = [p.move_to_json(m) for m in p.solve(p.initial())]
        wrong = plan[:-1]
        app.screen.dismiss(PuzzleOutcome(True, None, wrong, 0, 0, len(wrong)))
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and not room.solved
        assert tiles.lock_of(int(state.tiles[door.y, door.x])) == room.key
        assert room.moves == wrong  # progress kept
        await pilot.press("p")  # play it again
        await pilot.pause()
        assert isinstance(app.screen, PuzzleScreen)
        app.screen.dismiss(PuzzleOutcome(True, None, plan, 0, 0, len(plan)))
        await pilot.pause()
        assert room.solved and state.tiles[door.y, door.x] == tiles.DOOR_OPEN
        assert state.stats.puzzles_solved == 1
        assert "grinds open" in all_text(app)
