"""Free play of the source's custom puzzles through Textual's Pilot: the puzzle index's custom
lists (only values within the bounds), a rectangular stomp board and a sliding board to a goal
that is not 1..n, each played to the end with keys, its best score kept under a code that
carries the options."""

from __future__ import annotations

from textual.widgets import Select

from roguelike.puzzles import codes, custom, sliding
from saves import Store
from saves.scores import BestScores
from screens.app import RoguelikeApp
from screens.puzzle import PuzzleScreen
from screens.puzzle_index import LEVELS, PuzzleIndexScreen
from tests.screens.support import screen_text
from tests.screens.test_puzzle_index import message, open_index

STEP = {(1, 0): "down", (-1, 0): "up", (0, 1): "right", (0, -1): "left"}


async def choose(pilot, index: PuzzleIndexScreen, **values: str) -> None:
    for name, value in values.items():
        index.query_one(f"#free-{name}", Select).value = value
        await pilot.pause()


def offered(index: PuzzleIndexScreen, name: str) -> list[str]:
    box = index.query_one(f"#free-{name}", Select)
    return [str(value) for _label, value in box._options]


async def finish(pilot, index: PuzzleIndexScreen) -> str:
    screen = pilot.app.screen
    assert isinstance(screen, PuzzleScreen) and screen.solved
    await pilot.press("enter")
    await pilot.pause()
    assert pilot.app.screen is index
    return message(index)


async def test_a_rectangular_stomp_board_in_free_play():
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        index = await open_index(pilot)
        await choose(pilot, index, type="stomp", difficulty="hard")
        # the lists hold only what the bounds allow: every board of 2 to 7 a side, and the
        # depths of the board chosen (a 4x4 board: at most 4 stomps)
        assert "3x4" in offered(index, "size") and "8x8" not in offered(index, "size")
        await choose(pilot, index, size="4x4")
        assert offered(index, "depth") == [LEVELS, "1", "2", "3", "4"]
        await choose(pilot, index, size="3x4", depth="3")
        await pilot.press("ctrl+n")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PuzzleScreen)
        p = screen.visit.puzzle
        assert (p.n_rows, p.n_cols, p.par) == (3, 4, 3)
        assert index.playing is not None and index.playing.endswith("/3x4,d3")
        view = screen.view
        for r, c in p.solve(screen.visit.state):
            cr, cc = view.cursor
            keys = ["down" if r > cr else "up"] * abs(r - cr)
            keys += ["right" if c > cc else "left"] * abs(c - cc)
            await pilot.press(*keys, "space")
        await pilot.pause()
        code = index.playing
        assert "solved, score 100 (a new best)" in await finish(pilot, index)
        assert BestScores(Store().path).read() == {code: 100}
        # the row of the custom puzzle plays the same board again
        c, o = codes.parse_with_options(code)
        assert custom.generate(c.type, c.difficulty, c.seed, o) == p


async def test_a_sliding_board_to_a_spiral_goal_in_free_play():
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        index = await open_index(pilot)
        await choose(pilot, index, type="sliding", difficulty="easy")
        assert offered(index, "size") == [LEVELS, "3x3", "4x4"]
        assert offered(index, "goal") == [LEVELS, "spiral", "snake", "reverse"]
        await choose(pilot, index, size="3x3", depth="6", goal="spiral")
        await pilot.press("ctrl+n")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PuzzleScreen)
        p = screen.visit.puzzle
        assert p.goal() == sliding.named_goal("spiral", 3) and p.par == 6
        # the goal is drawn beside the board
        text = screen_text(app)
        assert "goal" in text and "  1  2  3" in text and "  8  ·  4" in text
        for tile in p.solve(screen.visit.state):
            s = screen.visit.state
            (br, bc), (tr, tc) = divmod(s.index(0), 3), divmod(s.index(tile), 3)
            await pilot.press(STEP[(br - tr, bc - tc)])
        await pilot.pause()
        assert "solved, score 100 (a new best)" in await finish(pilot, index)
        assert index.playing is None
        (code,) = BestScores(Store().path).read()
        assert code.endswith("/3x3,d6,g=spiral")
