"""The ball, stomp and hatgram boards drawn as plain text (every style stripped): the ball's exit
is drawn under the columns the model says, and each board reads without colour."""

from __future__ import annotations

from typing import Any

import pytest

from roguelike import puzzles
from screens.puzzle.ball import BallView
from screens.puzzle.hatgram import HatgramView
from screens.puzzle.keydoor import KeyDoorView
from screens.puzzle.stomp import StompView
from tests.puzzles.support import CUSTOM_BALL

SIZES = [(80, 24), (120, 40), (60, 20)]


def plain(view: Any, s: Any, width: int, height: int, marks: list[Any] | None = None) -> list[str]:
    view.reset_ui(s)
    return [line.plain for line in view.board(s, width, height, marks or [])]


def ruler_x(lines: list[str], label: int) -> int:
    """The x of column ``label``'s number in the ruler above the board."""
    ruler = lines[0]
    xs = [
        i
        for i in range(len(ruler))
        if ruler[i : i + len(str(label))] == str(label) and (i == 0 or ruler[i - 1] == " ")
    ]
    return xs[0]


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("size", SIZES)
def test_the_exit_is_drawn_under_the_models_columns(seed, size):
    p = puzzles.generate("ball", "hard" if seed % 2 else "easy", seed)
    lines = plain(BallView(p), p.initial(), *size)
    wall = next(line for line in reversed(lines) if "▓" in line)  # the bottom wall
    for col in range(p.cols):  # model column col is labelled col + 1 in the ruler
        x = ruler_x(lines, col + 1)
        gap = wall[x] == " "
        assert gap == (p.exit_col <= col <= p.exit_col + 1), (col, p.exit_col, wall)
    # the model's own picture agrees
    bottom = p.picture(p.initial())[-1]
    assert [i - 1 for i, ch in enumerate(bottom) if ch == " "] == [p.exit_col, p.exit_col + 1]


def test_ball_wall_blocked_target_and_empty_cells_have_their_own_glyphs():
    p = puzzles.from_json(CUSTOM_BALL)
    text = "\n".join(plain(BallView(p), p.initial(), 80, 24))
    for glyph in ("▓", "╳", "░", "·", "●", "1"):
        assert glyph in text, glyph
    assert "exit" not in text  # a target board has no gap
    # the wall has no gap anywhere
    lines = plain(BallView(p), p.initial(), 80, 24)
    wall = next(line for line in reversed(lines) if "▓" in line)
    assert " " not in wall.strip()


def test_every_cell_of_a_ball_piece_shows_its_label():
    p = puzzles.generate("ball", "hard", 3)
    view = BallView(p)
    lines = plain(view, p.initial(), 120, 40)
    text = "\n".join(lines)
    for i, (k, _r, _c) in enumerate(view.pieces):
        cells = 4 if k in (0, 4) else 1 if k == 1 else 2
        if cells > 1:
            assert text.count(view.label(i)) >= cells, (i, k)


@pytest.mark.parametrize("size", SIZES)
def test_stomp_lit_and_dark_tiles_differ_in_their_characters(size):
    p = puzzles.from_json(
        {
            "format": 1,
            "type": "stomp",
            "difficulty": "easy",
            "par": 1,
            "config": {"rows": 2, "cols": 5, "target": [".....", "....."]},
            "state": ["#....", "##..."],
        }
    )
    view = StompView(p)
    s = p.initial()
    lines = plain(view, s, *size)
    board = "\n".join(lines)
    assert board.count("●") == 3  # the lit tiles
    assert board.count("·") == 7  # the dark ones
    # after a stomp the glyphs follow the tiles
    t = p.apply(s, (1, 0))
    assert "\n".join(plain(view, t, *size)).count("●") == 0
    # the target reads without colour too: dark tiles are ░, lit ones █
    q = puzzles.generate("stomp", "hard", 1)
    target_lit = bin(q.target).count("1")
    text = "\n".join(plain(StompView(q), q.initial(), *size))
    assert "█" in text if target_lit else "█" not in text
    assert "░" in text


def test_a_hinted_stomp_tile_still_says_whether_it_is_lit():
    p = puzzles.generate("stomp", "medium", 4)
    s = p.initial()
    move = p.solve(s)[0]
    lit = bool(s >> (move[0] * p.n_cols + move[1]) & 1)
    text = "\n".join(plain(StompView(p), s, 80, 24, [move]))
    assert ("◈" if lit else "◇") in text


@pytest.mark.parametrize("size", SIZES)
def test_hatgram_pieces_are_lettered_in_every_cell(size):
    p = puzzles.generate("hatgram", "medium", 5)
    s = p.initial()
    for i, pl in enumerate(p.solutions()[0]):
        s = p.apply(s, ("place", i, *pl))
    board = plain(HatgramView(p), s, *size)
    # the board's rows (between the frame's corners), without the tray beside them
    inside = [line.split("│")[1] for line in board if line.count("│") >= 2]
    text = "\n".join(inside)
    for i, piece in enumerate(p.pieces):
        assert text.count(chr(ord("A") + i)) == len(piece)
    assert text.count("·") == 0
    assert "░" in text  # blocked squares


def test_empty_hatgram_squares_read_without_colour():
    p = puzzles.generate("hatgram", "easy", 5)
    view = HatgramView(p)
    board = plain(view, p.initial(), 80, 24)
    inside = "\n".join(line.split("│")[1] for line in board if line.count("│") >= 2)
    ghost = len(p.pieces[view.sel])  # the selected piece's ghost covers some empty squares
    assert inside.count("·") == p.rows * p.cols - len(p.blocked) - ghost


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("size", [*SIZES, (44, 20), (40, 20), (30, 20)])
def test_keydoor_locked_doors_are_never_a_bare_digit(seed, size):
    """On the corridor's row every digit is a key's label (``k2``) or a door's (``▐2▌``,
    ``▐2``, open ``╌2``), and a door with one cell to stand in has its number under it: a
    bare digit beside a key read as ``k22`` on very-hard boards."""
    p = puzzles.generate("keydoor", "very-hard", seed)
    s = p.initial()
    lines = plain(KeyDoorView(p), s, *size)
    row, under = lines[1], lines[2]
    for x, ch in enumerate(row):
        if ch.isdigit():
            assert x > 0 and row[x - 1] in "k▐╌", (size, row)
    for x, ch in enumerate(under):
        if ch.isdigit() and x < len(row) and row[x] == "▐":
            continue
        assert not ch.isdigit() or ch == "│", (size, under)
    doors = [p.door_at(r) for r in range(2, p.rooms + 1) if p.door_at(r)]
    assert doors
    for k in doors:  # every locked door of the corridor is drawn with its number
        assert f"▐{k}" in row or any(
            row[x] == "▐" and under[x : x + 1] == str(k) for x in range(len(row))
        ), (k, size, row)


def test_a_gap_board_says_what_its_marked_squares_are():
    """Playing an easy ball board at 80x24, the empty ░ square above the gap read as a fixed
    wall (the goal spoke of the gap alone): the goal names the ░ squares, and on a gap board
    they are drawn only where the ball must end, above the gap."""
    for seed in range(40):
        p = puzzles.generate("ball", "easy", seed)
        view = BallView(p)
        lines = plain(view, p.initial(), 80, 24)
        if p.target is None and any("░" in line for line in lines):
            break
    else:
        raise AssertionError("no easy gap board with a square above the gap left empty")
    assert "░" in view.goal and "gap" in view.goal
    columns = {ruler_x(lines, c + 1): c for c in range(p.cols)}
    marked = {columns[x] for line in lines for x in columns if line[x] == "░"}
    assert marked and marked <= {p.exit_col, p.exit_col + 1}
