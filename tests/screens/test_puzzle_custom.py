"""Free play of the source's custom puzzles through Textual's Pilot: the puzzle index's custom
lists (only values within the bounds), a rectangular stomp board and a sliding board to a goal
that is not 1..n, each played to the end with keys, its best score kept under a code that
carries the options."""

from __future__ import annotations

import pytest
from textual.widgets import Select

from roguelike.puzzles import codes, custom, sliding, stomp
from saves import Store
from saves.scores import BestScores
from screens.app import RoguelikeApp
from screens.puzzle import PuzzleScreen
from screens.puzzle.ball import BallView
from screens.puzzle.sliding import SlidingView
from screens.puzzle.stomp import StompView
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


# --- the custom boards drawn (plain text, every style stripped) ------------------------------


def plain(view, s, width: int, height: int) -> list[str]:
    view.reset_ui(s)
    return [line.plain for line in view.board(s, width, height, [])]


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
def test_every_custom_stomp_rectangle_is_drawn_whole_beside_its_target(size):
    lo, hi = stomp.CUSTOM_SIDES
    for rows in range(lo, hi + 1):
        for cols in range(lo, hi + 1):
            p = custom.generate("stomp", "easy", 5, custom.Options(rows, cols, 1))
            lines = plain(StompView(p), p.initial(), *size)
            text = "\n".join(lines)
            assert max(len(line) for line in lines) <= size[0], (rows, cols)
            lit = p.initial().bit_count()
            assert (text.count("●"), text.count("·")) == (lit, rows * cols - lit), (rows, cols)
            assert "target" in text


def test_a_custom_sliding_goal_is_shown_and_home_is_counted_against_it():
    p = custom.generate("sliding", "easy", 5, custom.Options(3, 3, 1, "spiral"))
    view = SlidingView(p)
    s = p.initial()
    lines = plain(view, s, 80, 24)
    assert any(line.rstrip().endswith("goal") for line in lines)
    assert any(line.rstrip().endswith("8  ·  4") for line in lines)
    # one move from the spiral: every tile but one is home, so one alone is marked out of place
    home = sum(1 for t in s if t and view._home(s, t))
    assert home == 7 and "7 of 8 tiles are home." in view.status(s, 40, [])[0].plain
    # the standard order draws no goal beside the board
    q = custom.generate("sliding", "easy", 5, custom.Options(3, 3, 4))
    assert not any("goal" in line for line in plain(SlidingView(q), q.initial(), 80, 24))


def test_a_custom_ball_boards_blocked_cells_and_target_are_drawn_distinctly():
    p = custom.generate("ball", "easy", 5, custom.Options(5, 5, 6, None, 3, True))
    text = "\n".join(plain(BallView(p), p.initial(), 80, 24))
    assert "╳" in text  # blocked cells, apart from the wall's ▓, in every theme
    assert "▓" in text
