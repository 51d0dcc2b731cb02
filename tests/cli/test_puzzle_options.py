"""``roguelike puzzle generate`` and ``puzzle play --code`` with a custom puzzle's options: a
board of the options asked, its code carrying them; outside the bounds, one line and exit 2."""

from __future__ import annotations

import json

import pytest

from roguelike import seeds
from roguelike.puzzles import codes, custom
from tests.cli.support import assert_one_line_error, call


def generate(*extra: str) -> tuple[int, str, str]:
    return call(["puzzle", "generate", "--seed", "7", *extra])


def test_generate_makes_the_board_asked_and_its_code_rebuilds_it():
    status, out, err = generate(
        "--type", "stomp", "--difficulty", "hard", "--size", "3x4", "--depth", "5"
    )
    assert status == 0, err
    doc = json.loads(out)
    assert doc["par"] == 5 and doc["config"]["rows"] == 3 and doc["config"]["cols"] == 4
    assert doc["code"].endswith("/3x4,d5")
    c, o = codes.parse_with_options(doc["code"])
    p = custom.generate(c.type, c.difficulty, c.seed, o)
    assert {
        k: v for k, v in doc.items() if k not in ("code", "descriptive_code", "difficulty_score")
    } == p.to_json()


def test_generate_a_sliding_board_to_a_named_goal_shows_the_goal():
    status, out, err = generate(
        "--type",
        "sliding",
        "--difficulty",
        "easy",
        "--goal",
        "spiral",
        "--depth",
        "9",
        "--format",
        "text",
    )
    assert status == 0, err
    assert "par 9" in out and "/d9,g=spiral" in out
    assert "goal:\n1 2 3\n8 . 4\n7 6 5" in out


def test_no_options_prints_todays_board_and_code():
    plain = generate("--type", "ball", "--difficulty", "easy")
    assert plain[0] == 0 and "/" not in json.loads(plain[1])["code"]


@pytest.mark.parametrize(
    "extra",
    [
        ["--type", "stomp", "--difficulty", "easy", "--size", "3x9"],
        ["--type", "stomp", "--difficulty", "easy", "--size", "three"],
        ["--type", "stomp", "--difficulty", "easy", "--size", "4x4", "--depth", "5"],
        ["--type", "sliding", "--difficulty", "easy", "--depth", "25"],
        ["--type", "sliding", "--difficulty", "easy", "--size", "3x4"],
        ["--type", "sliding", "--difficulty", "easy", "--goal", "123"],
        ["--type", "ball", "--difficulty", "easy", "--blocked", "3"],
        ["--type", "ball", "--difficulty", "easy", "--blocked", "-1"],
        ["--type", "ball", "--difficulty", "easy", "--depth", "0"],
        ["--type", "jugs", "--difficulty", "easy", "--depth", "3"],
        ["--type", "stomp", "--difficulty", "easy", "--target"],
        ["--type", "stomp", "--difficulty", "easy", "--depth", "x"],
    ],
)
def test_options_outside_their_bounds_are_refused_in_one_line(extra):
    assert_one_line_error(*generate(*extra))


@pytest.mark.parametrize(
    "code",
    [
        "stomp:easy#0000-0000-01AB/9x9",
        "stomp:easy#0000-0000-01AB/",
        "sliding:easy#0000-0000-01AB/g=nowhere",
        "jugs:easy#0000-0000-01AB/d2",
    ],
)
def test_play_refuses_a_code_with_bad_options_in_one_line(code):
    assert_one_line_error(*call(["puzzle", "play", "--code", code]))


def test_play_plays_the_board_a_code_with_options_names():
    import argparse

    from roguelike.cli import puzzle as cli_puzzle

    seen = []

    class App:
        def __init__(self, p, coins):
            seen.append(p)

        def run(self):
            return None

    args = argparse.Namespace(
        file=None,
        code=codes.encode("stomp", "hard", seeds.read_stored("0000-0000-01AB")) + "/2x5,d3",
        type=None,
        difficulty=None,
        seed=None,
        coins=5,
    )
    line = cli_puzzle.play_text(args, make_app=App)
    (p,) = seen
    assert (p.n_rows, p.n_cols, p.par) == (2, 5, 3)
    assert "2x5,d3" in line
