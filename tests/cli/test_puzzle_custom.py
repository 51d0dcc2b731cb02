"""Hand-written and hostile documents given to ``roguelike puzzle solve`` and ``puzzle play
--file``: a one-line answer or refusal (exit 2), with the work bounded by refusing before any
state space is built."""

from __future__ import annotations

import argparse
import json
from functools import partial
from typing import Any

import pytest

from roguelike import puzzles
from roguelike.cli import Fail
from roguelike.cli import puzzle as cli_puzzle
from roguelike.puzzles import hatgram, hatgram_solve, jugs
from tests.cli.support import assert_one_line_error, call
from tests.puzzles.support import CUSTOM_BALL
from tests.puzzles.support import doc as puzzle_doc

#: a hand-written document whose par (1) is not checked by loading
doc = partial(puzzle_doc, par=1)


def solve_call(d: Any) -> tuple[int, str, str]:
    return call(["puzzle", "solve"], d if isinstance(d, str) else json.dumps(d))


def never(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("a search started on input that should have been refused")


# --- puzzle solve ----------------------------------------------------------------------------


def test_a_huge_jugs_instance_is_refused_before_any_search(monkeypatch):
    monkeypatch.setattr(jugs, "bfs_plan", never)
    d = doc("jugs", {"capacities": [1000, 999, 998, 997], "target": {"kind": "any", "amount": 1}})
    status, out, err = solve_call(d)
    assert_one_line_error(status, out, err)
    assert "pours" in err


def test_an_unsolvable_jugs_with_large_capacities_answers_in_one_line():
    # within the limits (301 * 200 states of 6 pours at most), and out of reach: after a pour
    # some jug is empty or full, and the target has none
    d = doc(
        "jugs",
        {"capacities": [1000, 300, 199], "target": {"kind": "vector", "amounts": [600, 250, 150]}},
    )
    status, out, err = solve_call(d)
    assert_one_line_error(status, out, err)
    assert "cannot be solved" in err
    # a little larger, and refused before any search
    d = doc("jugs", {"capacities": [1000, 998, 198], "target": {"kind": "any", "amount": 1}})
    status, out, err = solve_call(d)
    assert_one_line_error(status, out, err)
    assert "more than" in err


def test_a_custom_jug_start_is_solved_from_its_state():
    d = doc(
        "jugs",
        {"capacities": [8, 5, 3], "start": [0, 5, 3], "target": {"kind": "any", "amount": 4}},
        [0, 5, 3],
    )
    status, out, err = solve_call(d)
    assert status == 0, err
    p = puzzles.from_json(d)
    s = p.initial()
    for m in json.loads(out)["moves"]:
        s = p.apply(s, p.move_from_json(m))
    assert p.is_solved(s)


def test_a_large_hatgram_is_refused_before_any_table_is_built(monkeypatch):
    monkeypatch.setattr(hatgram_solve, "_anchored", never)
    monkeypatch.setattr(hatgram_solve, "orientations", never)
    monkeypatch.setattr(hatgram, "orientations", never)
    piece = [[0, c] for c in range(hatgram.MAX_PIECE_CELLS + 1)]
    for config in (
        {"rows": 40, "cols": 40, "pieces": [[[0, 0]]] * 1600},
        {"rows": 12, "cols": 12, "pieces": [[[0, 0]]] * 144},
        {"rows": 12, "cols": 12, "pieces": [piece] * 4},
    ):
        status, out, err = solve_call(doc("hatgram", config))
        assert_one_line_error(status, out, err)


def test_a_hatgram_beyond_its_search_budget_is_refused_in_one_line(monkeypatch):
    monkeypatch.setattr(hatgram, "SEARCH_NODES", 5)  # a tiling of 16 squares takes 16 steps
    square = [[r, c] for r in range(3) for c in range(3)]
    d = doc(
        "hatgram",
        {"rows": 12, "cols": 12, "pieces": [square] * 16},
        [[0, 1, 1], [0, 5, 5]] + [None] * 14,
    )
    status, out, err = solve_call(d)
    assert_one_line_error(status, out, err)
    assert "too large" in err


def test_a_large_ball_board_is_refused_in_one_line():
    d = doc(
        "ball",
        {"rows": 8, "cols": 8, "exit_col": 3},
        {"ball": [[0, 0]], "1x1": [[3, 3], [4, 4], [5, 5], [2, 6]]},
    )
    status, out, err = solve_call(d)
    assert_one_line_error(status, out, err)
    assert "too large" in err


def test_deep_json_is_refused_in_one_line():
    status, out, err = solve_call("[" * 200_000 + "]" * 200_000)
    assert_one_line_error(status, out, err)


def test_oversized_input_is_refused_before_it_is_parsed(monkeypatch):
    monkeypatch.setattr(cli_puzzle.json, "loads", never)
    status, out, err = solve_call(" " * (cli_puzzle.MAX_INPUT_CHARS + 10))
    assert_one_line_error(status, out, err)
    assert "longer than" in err


@pytest.mark.parametrize(
    "d",
    [
        doc("jugs", {"capacities": [True, 5], "target": {"kind": "any", "amount": 1}}),
        doc("jugs", {"capacities": [8, 5], "target": {"kind": "any", "amount": 1.5}}),
        doc("jugs", {"capacities": "8,5", "target": {"kind": "any", "amount": 1}}),
        doc("stomp", {"rows": 3.0, "cols": 3, "target": ["..."] * 3}, ["..."] * 3),
        doc("stomp", {"rows": 2, "cols": 3, "target": ["...", "..."]}, ["...", "..x"]),
        doc("ball", {"rows": 3, "cols": 4, "exit_col": 0}, {"ball": [[0, 0]], "1x1": [["a", 0]]}),
        doc("ball", {"rows": 3, "cols": 4, "exit_col": 0}, {"ball": [[0, 0], [0, 2]]}),
        doc(
            "hatgram",
            {"rows": 2, "cols": 2, "pieces": [[[0, 0], [0, 1], [1, 0], [1, 1]]]},
            [[0, 0, "0"]],
        ),
        {"format": 1, "type": ["jugs"], "difficulty": "easy", "par": 1, "config": {}},
        {"format": 1, "type": "jugs", "difficulty": "easy", "par": True, "config": {}},
        [1, 2, 3],
        "\u001b[31mred",
    ],
)
def test_wrong_types_are_refused_in_one_line(d):
    status, out, err = solve_call(d)
    assert_one_line_error(status, out, err)
    assert "\u001b" not in err


# --- puzzle play --file ----------------------------------------------------------------------


class FakeApp:
    """Stands in for the puzzle app: keeps what it was given, plays nothing."""

    made: list[Any] = []

    def __init__(self, puzzle: Any, *, coins: int) -> None:
        FakeApp.made.append((puzzle, coins))

    def run(self) -> None:
        return None


def play_args(**kw: Any) -> argparse.Namespace:
    base = {"type": None, "difficulty": None, "seed": None, "file": None, "code": None, "coins": 5}
    return argparse.Namespace(**(base | kw))


def test_play_file_plays_a_custom_puzzle(tmp_path):
    path = tmp_path / "ball.json"
    path.write_text(json.dumps(CUSTOM_BALL), encoding="utf-8")
    FakeApp.made.clear()
    line = cli_puzzle.play_text(play_args(file=str(path), coins=2), FakeApp)
    [(p, coins)] = FakeApp.made
    assert p == puzzles.from_json(CUSTOM_BALL) and coins == 2
    assert line == f"ball · easy · {path}: not played\n"


def test_play_file_plays_a_generated_puzzle(tmp_path):
    g = puzzles.generate("hatgram", "medium", 9)
    path = tmp_path / "h.json"
    path.write_text(json.dumps(g.to_json()), encoding="utf-8")
    FakeApp.made.clear()
    cli_puzzle.play_text(play_args(file=str(path)), FakeApp)
    assert FakeApp.made[0][0] == g


def test_play_file_refuses_a_wrong_par_in_one_line(tmp_path):
    path = tmp_path / "ball.json"
    path.write_text(json.dumps(CUSTOM_BALL | {"par": 3}), encoding="utf-8")
    with pytest.raises(Fail, match="par 3 is wrong: the optimum from the start is 4"):
        cli_puzzle.play_text(play_args(file=str(path)), FakeApp)
    status, out, err = call(["puzzle", "play", "--file", str(path)])
    assert_one_line_error(status, out, err)


def test_play_file_refuses_an_unsolvable_start(tmp_path):
    path = tmp_path / "jugs.json"
    path.write_text(
        json.dumps(doc("jugs", {"capacities": [6, 4], "target": {"kind": "any", "amount": 1}})),
        encoding="utf-8",
    )
    status, out, err = call(["puzzle", "play", "--file", str(path)])
    assert_one_line_error(status, out, err)
    assert "cannot be solved" in err


def test_play_file_refuses_what_it_cannot_read(tmp_path):
    missing = tmp_path / "nothing.json"
    status, out, err = call(["puzzle", "play", "--file", str(missing)])
    assert_one_line_error(status, out, err)
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00")
    status, out, err = call(["puzzle", "play", "--file", str(binary)])
    assert_one_line_error(status, out, err)
    status, out, err = call(["puzzle", "play", "--file", str(missing), "--type", "jugs"])
    assert_one_line_error(status, out, err)
    status, out, err = call(["puzzle", "play"])
    assert_one_line_error(status, out, err)


async def test_a_custom_puzzle_from_a_file_starts_on_the_puzzle_screen(tmp_path):
    from screens.lines import TextLines
    from screens.puzzle import PuzzleApp

    path = tmp_path / "ball.json"
    path.write_text(json.dumps(CUSTOM_BALL), encoding="utf-8")
    FakeApp.made.clear()
    cli_puzzle.play_text(play_args(file=str(path)), FakeApp)
    p, coins = FakeApp.made[0]
    app = PuzzleApp(p, coins=coins)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1", "down")
        await pilot.pause()
        board = app.screen.query_one("#puzzle-board", TextLines).lines
        panel = app.screen.query_one("#puzzle-panel", TextLines).lines
        text = " ".join(" ".join(line.plain for line in [*board, *panel]).split())
        assert "onto the marked squares (░ where no block stands)" in text and "▓" in text
        await pilot.press("down", "0", "right", "right")
        assert app.screen.solved
