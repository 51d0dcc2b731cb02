"""``roguelike puzzle generate`` and ``roguelike puzzle solve`` as a designer meets them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike import puzzles, seeds
from roguelike.puzzles import TYPES, codes, difficulty
from tests.cli.support import assert_one_line_error, call


def run_cli(*args: str, stdin: str = "", env_extra: dict[str, str] | None = None):
    env = dict(os.environ) | (env_extra or {})
    return subprocess.run(
        [sys.executable, "-m", "roguelike.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
    )


@cache
def generated_json(type_name: str, difficulty: str, seed: str) -> str:
    status, out, err = call(
        ["puzzle", "generate", "--type", type_name, "--difficulty", difficulty, "--seed", seed]
    )
    assert status == 0, err
    return out


def solve(doc: dict | str) -> list:
    text = doc if isinstance(doc, str) else json.dumps(doc)
    status, out, err = call(["puzzle", "solve"], text)
    assert status == 0, err
    return json.loads(out)["moves"]


def replay(p, state, moves):
    s = state
    for m in moves:
        s = p.apply(s, p.move_from_json(m))
    return s


# --- generate → solve ------------------------------------------------------------------------


@pytest.mark.parametrize("difficulty", ["easy", "very-hard"])
@pytest.mark.parametrize("type_name", TYPES)
def test_generate_then_solve_gives_a_solution_of_par_length(type_name, difficulty):
    text = generated_json(type_name, difficulty, "dragon")
    doc = json.loads(text)
    assert doc["type"] == type_name and doc["difficulty"] == difficulty
    moves = solve(text)
    assert len(moves) == doc["par"]
    p = puzzles.from_json(doc)
    assert p.is_solved(replay(p, p.initial(), moves))


@pytest.mark.parametrize("type_name", TYPES)
def test_generate_prints_the_difficulty_score_and_its_parts(type_name):
    doc = json.loads(generated_json(type_name, "medium", "score"))
    got = doc.pop("difficulty_score")
    assert doc.pop("code") == f"{type_name}:medium#{seeds.encode(seeds.parse('score'))}"
    assert codes.build(doc.pop("descriptive_code")).puzzle.initial() == (
        puzzles.from_json(doc).initial()
    )
    p = puzzles.from_json(doc)
    assert doc == p.to_json()  # the instance's own JSON is unchanged beside the score
    assert set(got["parts"]) == {
        "length",
        "branching",
        "traps",
        "dead_ends",
        "non_greedy",
        "states",
    }
    assert got["parts"]["length"] == doc["par"] <= got["score"]
    again = puzzles.generate(type_name, "medium", seeds.parse("score"))
    assert got == difficulty.measure(again).to_json()


@pytest.mark.parametrize("type_name", TYPES)
def test_solve_starts_from_the_documents_state(type_name):
    doc = json.loads(generated_json(type_name, "medium", "a state"))
    p = puzzles.from_json(doc)
    plan = solve(doc)
    k = len(plan) // 2
    mid = replay(p, p.initial(), plan[:k])
    rest = solve(doc | {"state": p.state_to_json(mid)})
    assert len(rest) == len(plan) - k
    assert p.is_solved(replay(p, mid, rest))


def test_a_solved_state_needs_no_moves():
    doc = json.loads(generated_json("stomp", "easy", "x"))
    assert solve(doc | {"state": doc["config"]["target"]}) == []


def test_the_pipeline_works_between_real_processes():
    gen = run_cli("puzzle", "generate", "--type", "jugs", "--difficulty", "hard", "--seed", "hello")
    assert gen.returncode == 0, gen.stderr
    sol = run_cli("puzzle", "solve", stdin=gen.stdout)
    assert sol.returncode == 0, sol.stderr
    assert len(json.loads(sol.stdout)["moves"]) == json.loads(gen.stdout)["par"]


# --- determinism -----------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_generate_is_byte_identical_across_processes_and_hash_seeds(fmt):
    args = ("puzzle", "generate", "--type", "hatgram", "--difficulty", "hard", "--seed", "dragon")
    a = run_cli(*args, "--format", fmt, env_extra={"PYTHONHASHSEED": "1"})
    b = run_cli(*args, "--format", fmt, env_extra={"PYTHONHASHSEED": "4242"})
    assert a.returncode == b.returncode == 0, a.stderr
    assert a.stdout == b.stdout and a.stdout


@pytest.mark.parametrize("type_name", TYPES)
def test_same_seed_same_puzzle_and_a_code_equals_its_text(type_name):
    code = seeds.normalise("dragon")
    by_text = generated_json(type_name, "easy", "dragon")
    generated_json.cache_clear()
    assert generated_json(type_name, "easy", "dragon") == by_text
    assert generated_json(type_name, "easy", code.lower().replace("-", "")) == by_text


@pytest.mark.parametrize("type_name", TYPES)
def test_text_format_shows_the_title_and_a_board(type_name):
    status, out, err = call(
        ["puzzle", "generate", "--type", type_name, "--difficulty", "hard", "--seed", "d"]
        + ["--format", "text"]
    )
    assert status == 0, err
    lines = out.splitlines()
    doc = json.loads(generated_json(type_name, "hard", "d"))
    score = doc["difficulty_score"]["score"]
    code = f"{type_name}:hard#{seeds.encode(seeds.parse('d'))}"
    assert lines[0] == f"{type_name} · hard · par {doc['par']} · score {score:.1f} · {code}"
    assert len(lines) >= 4 and all(line == line.rstrip() for line in lines)


# --- bad input -------------------------------------------------------------------------------


BAD_INPUT = pytest.mark.parametrize(
    "args, stdin, words",
    [
        (["puzzle", "solve"], "", "no input"),
        (["puzzle", "solve"], "{not json", "not JSON"),
        (["puzzle", "solve"], "[1, 2]", "unknown puzzle type"),
        (["puzzle", "solve"], '{"type": "chess"}', "unknown puzzle type 'chess'"),
        (["puzzle", "solve"], '{"type": "jugs", "format": 1}', "difficulty"),
        (["puzzle", "solve"], "[" * 100_000, "not JSON"),
        (["puzzle"], "", "required"),
        (["puzzle", "chess"], "", "invalid choice"),
        (["puzzle", "play"], "", "--type"),
        (["puzzle", "play", "--type", "chess"], "", "invalid choice"),
        (["puzzle", "play", "--type", "jugs", "--difficulty", "dire"], "", "invalid choice"),
        (["puzzle", "play", "--type", "jugs", "--seed", "N65Q-QBJ0-23PW"], "", "check symbol"),
        (["puzzle", "play", "--type", "jugs", "--coins", "-1"], "", "--coins"),
        (["puzzle", "play", "--type", "jugs", "--coins", "many"], "", "--coins"),
        (["puzzle", "generate", "--type", "jugs", "--difficulty", "easy"], "", "--seed"),
        (["puzzle", "generate", "--type", "chess", "--difficulty", "easy", "--seed", "x"], "", ""),
        (["puzzle", "generate", "--type", "jugs", "--difficulty", "dire", "--seed", "x"], "", ""),
        (
            ["puzzle", "generate", "--type", "jugs", "--difficulty", "easy"]
            + ["--seed", "N65Q-QBJ0-23PW"],
            "",
            "wrong check symbol",
        ),
    ],
)


@BAD_INPUT
def test_bad_input_gives_one_line_and_exit_2(args, stdin, words):
    """In this process (the same ``main``); between real processes in the slow tier."""
    status, out, err = call(args, stdin)
    assert_one_line_error(status, out, err)
    assert words in err


@pytest.mark.slow
@BAD_INPUT
def test_bad_input_gives_one_line_and_exit_2_from_a_real_process(args, stdin, words):
    result = run_cli(*args, stdin=stdin)
    assert_one_line_error(result.returncode, result.stdout, result.stderr)
    assert words in result.stderr


def jugs_doc(state) -> dict:
    return {
        "format": 1,
        "type": "jugs",
        "difficulty": "easy",
        "par": 1,
        "config": {"capacities": [8, 5, 3], "target": {"kind": "vector", "amounts": [4, 4, 0]}},
        "state": state,
    }


@pytest.mark.parametrize(
    "state, words",
    [
        ([1, 1], "not a state"),  # water appeared from nowhere
        ([4, 4, 1], "not a state"),
        ("full", "not a state"),
    ],
)
def test_illegal_states_are_refused(state, words):
    status, out, err = call(["puzzle", "solve"], json.dumps(jugs_doc(state)))
    assert_one_line_error(status, out, err)


@pytest.mark.parametrize(
    "doc",
    [
        jugs_doc([8, 0, 0])
        | {
            "config": {"capacities": [6, 4], "target": {"kind": "any", "amount": 1}},
            "state": [6, 0],
        },
        {
            "format": 1,
            "type": "keydoor",
            "difficulty": "easy",
            "par": 7,
            "config": {"rooms": 4, "branch": 1, "junction": 2, "doors": [3], "keys": [5]},
            # key 1 is used up (lies nowhere) but its door is still shut
            "state": {"room": 1, "held": 0, "keys": [0], "opened": []},
        },
    ],
    ids=["jugs-odd-amount-from-even-jugs", "keydoor-key-gone-door-shut"],
)
def test_an_unsolvable_state_is_refused(doc):
    status, out, err = call(["puzzle", "solve"], json.dumps(doc))
    assert_one_line_error(status, out, err)
    assert "cannot be solved" in err


# small integers only: a hand-written board of a million cells is a different problem
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.floats(allow_nan=False)
    | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=16,
)


def check_solve_outcome(text: str) -> None:
    """Either a solution that really solves the document's state, or one line and exit 2."""
    status, out, err = call(["puzzle", "solve"], text)
    if status != 0:
        assert_one_line_error(status, out, err)
        return
    doc = json.loads(text)
    p = puzzles.from_json(doc)
    start = p.state_from_json(doc["state"]) if "state" in doc else p.initial()
    assert p.is_solved(replay(p, start, json.loads(out)["moves"]))


@settings(max_examples=150)
@given(st.text(max_size=60))
def test_junk_text_never_gives_a_traceback(text):
    if _is_json(text):
        check_solve_outcome(text)
    else:
        assert_one_line_error(*call(["puzzle", "solve"], text))


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


@settings(max_examples=150)
@given(json_values)
def test_junk_json_never_gives_a_traceback(value):
    check_solve_outcome(json.dumps(value))


@settings(max_examples=300)
@given(
    st.sampled_from(TYPES),
    st.sampled_from(["format", "type", "difficulty", "par", "config", "state", "config.*"]),
    st.data(),
)
def test_damaged_puzzles_never_give_a_traceback(type_name, where, data):
    doc = json.loads(generated_json(type_name, "easy", "damage"))
    if where == "config.*":
        key = data.draw(st.sampled_from(sorted(doc["config"])), label="config key")
        doc["config"][key] = data.draw(json_values, label="junk")
    elif data.draw(st.booleans(), label="delete"):
        del doc[where]
    else:
        doc[where] = data.draw(json_values, label="junk")
    check_solve_outcome(json.dumps(doc))


ROOMY_BALL = {
    "config": {"cols": 5, "exit_col": 1, "rows": 7},
    "difficulty": "hard",
    "format": 1,
    "par": 20,
    "state": {
        "1x1": [[0, 2], [2, 2]],
        "1x2": [[0, 3], [1, 3]],
        "2x1": [[2, 0], [2, 1], [2, 3], [2, 4]],
        "2x2": [],
        "ball": [[0, 0]],
    },
    "type": "ball",
}


@pytest.mark.parametrize(
    "doc, words",
    [
        (ROOMY_BALL, "too large to solve"),  # once grew past 7 GB before it was bounded
        ({**ROOMY_BALL, "config": {"cols": 30000, "exit_col": 1, "rows": 30000}}, "2..8"),
    ],
)
def test_hostile_ball_boards_are_refused_not_searched_forever(doc, words):
    result = subprocess.run(
        [sys.executable, "-m", "roguelike.cli", "puzzle", "solve"],
        input=json.dumps(doc),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0]


# --- play ------------------------------------------------------------------------------------


def test_the_core_never_imports_textual():
    code = (
        "import sys, roguelike.cli, roguelike.puzzles; "
        "from roguelike.cli import build_parser; "
        "build_parser().parse_args(['puzzle', 'play', '--type', 'jugs']); "
        "assert 'textual' not in sys.modules, 'textual was imported'"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("solved", [True, False])
def test_play_opens_the_puzzle_and_says_how_it_went(monkeypatch, solved):
    from screens import puzzle as screen

    seen = {}

    def fake_run(app):
        seen["puzzle"], seen["coins"] = app.puzzle, app.coins
        p = app.puzzle
        return screen.PuzzleOutcome(
            solved=solved,
            state_json=p.state_to_json(p.initial()),
            moves=[],
            coins_spent=0,
            hints_used=0,
            move_count=p.par if solved else 2,
            score=100,
        )

    monkeypatch.setattr(screen.PuzzleApp, "run", fake_run)
    args = ["puzzle", "play", "--type", "stomp", "--difficulty", "medium", "--seed", "dragon"]
    status, out, err = call([*args, "--coins", "3"])
    assert status == 0, err
    p = puzzles.generate("stomp", "medium", seeds.parse("dragon"))
    assert seen["puzzle"] == p and seen["coins"] == 3
    code = seeds.encode(seeds.parse("dragon"))
    if solved:
        assert (
            out
            == f"stomp · medium · seed {code}: solved in {p.par} moves (par {p.par}), score 100\n"
        )
    else:
        assert out == f"stomp · medium · seed {code}: left unsolved after 2 moves\n"


# --- puzzle codes ----------------------------------------------------------------------------


def test_generate_names_the_puzzles_code():
    seed = seeds.parse("dragon")
    code = f"stomp:medium#{seeds.encode(seed)}"
    doc = json.loads(generated_json("stomp", "medium", "dragon"))
    assert doc["code"] == code
    p = puzzles.generate("stomp", "medium", seed)
    extra = ("code", "descriptive_code", "difficulty_score")
    assert {k: v for k, v in doc.items() if k not in extra} == p.to_json()
    assert doc["descriptive_code"] == codes.describe(p)
    assert solve(doc) == solve(p.to_json())  # the extra key does not upset solve
    status, out, err = call(
        ["puzzle", "generate", "--type", "stomp", "--difficulty", "medium", "--seed", "dragon"]
        + ["--format", "text"]
    )
    assert status == 0, err
    score = doc["difficulty_score"]["score"]
    assert out.splitlines()[0] == f"stomp · medium · par {p.par} · score {score:.1f} · {code}"
    assert out.splitlines()[-1] == f"on any release: {codes.describe(p)}"


def test_play_by_code_opens_the_puzzle_the_code_names(monkeypatch):
    from screens import puzzle as screen

    seen = {}

    def fake_run(app):
        seen["puzzle"] = app.puzzle

    monkeypatch.setattr(screen.PuzzleApp, "run", fake_run)
    seed = seeds.parse("dragon")
    status, out, err = call(["puzzle", "play", "--code", f"ball:hard#{seeds.encode(seed)}"])
    assert status == 0, err
    assert seen["puzzle"] == puzzles.generate("ball", "hard", seed)
    assert out == f"ball · hard · seed {seeds.encode(seed)}: not played\n"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--code", "ball:hard#dragon"], "'dragon' is not a seed code"),
        (["--code", "chess:hard#0000-0000-01AB"], "unknown puzzle type 'chess'"),
        (["--code", "ball:hard#0000-0000-01AB", "--type", "ball"], "leave out --type"),
        ([], "--type TYPE (or --code"),
    ],
)
def test_play_refuses_a_bad_code_in_one_line(monkeypatch, args, words):
    from screens import puzzle as screen

    monkeypatch.setattr(screen.PuzzleApp, "run", lambda app: pytest.fail("played"))
    status, out, err = call(["puzzle", "play", *args])
    assert_one_line_error(status, out, err)
    assert words in err


# --- puzzle hint -----------------------------------------------------------------------------


def hint(doc: dict | str) -> dict:
    text = doc if isinstance(doc, str) else json.dumps(doc)
    status, out, err = call(["puzzle", "hint"], text)
    assert status == 0, err
    return json.loads(out)


@pytest.mark.parametrize("type_name", TYPES)
def test_hint_gives_the_first_move_of_an_optimal_solution_with_the_moves_left(type_name):
    text = generated_json(type_name, "medium", "a hint")
    doc = json.loads(text)
    got = hint(text)
    assert got["exact"] is True and got["moves_left"] == doc["par"] == len(solve(text))
    p = puzzles.from_json(doc)
    s = p.apply(p.initial(), p.move_from_json(got["move"]))
    assert len(solve(doc | {"state": p.state_to_json(s)})) == doc["par"] - 1
    assert isinstance(got["text"], str) and got["text"]


def test_hint_at_the_goal_has_no_move():
    doc = json.loads(generated_json("stomp", "easy", "x"))
    got = hint(doc | {"state": doc["config"]["target"]})
    assert got["move"] is None and got["moves_left"] == 0 and got["exact"] is True


def test_hint_far_off_the_line_on_the_15_puzzle_is_a_truthful_move_on_a_known_route():
    doc = json.loads(generated_json("sliding", "very-hard", "far"))
    far = [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 1, 2, 0]  # about 60+ moves from home
    got = hint(doc | {"state": far})
    assert got["exact"] is False and "moves_left" not in got
    assert "not proven" in got["text"]
    p = puzzles.from_json(doc)
    # the move lies on a route of route_len moves: follow the hints and count
    s, n = tuple(far), 0
    while not p.is_solved(s):
        got = hint(doc | {"state": list(s)})
        s = p.apply(s, got["move"])
        n += 1
        assert n <= 400
    assert p.is_solved(s)


def test_hint_with_a_custom_sliding_goal_heads_for_that_goal():
    goal = [0, 1, 2, 3, 4, 5, 6, 7, 8]
    start = [1, 0, 2, 3, 4, 5, 6, 7, 8]  # one slide from the goal
    doc = {
        "format": 1,
        "type": "sliding",
        "difficulty": "easy",
        "par": 1,
        "config": {"size": 3, "goal": goal},
        "state": start,
    }
    got = hint(doc)
    assert got == hint(json.dumps(doc)) and got["move"] == 1 and got["moves_left"] == 1
    assert solve(doc) == [1]


@pytest.mark.parametrize(
    "stdin, words",
    [
        ("", "no input"),
        ("{", "not JSON"),
        ('{"type": "sliding"}', "not a puzzle"),
        (
            '{"format": 1, "type": "sliding", "difficulty": "easy", "par": 0, '
            '"config": {"size": 3, "goal": [1, 2, 3, 4, 5, 6, 8, 7, 0]}, '
            '"state": [1, 2, 3, 4, 5, 6, 7, 8, 0]}',
            "parity",
        ),
        (
            '{"format": 1, "type": "sliding", "difficulty": "easy", "par": 0, '
            '"config": {"size": 5}, "state": [1, 2, 3, 4, 5, 6, 7, 8, 0]}',
            "3×3 or 4×4",
        ),
        (
            '{"format": 1, "type": "sliding", "difficulty": "easy", "par": 0, '
            '"config": {"size": 3, "goal": [1, 2, 3]}, "state": [1, 2, 3, 4, 5, 6, 7, 8, 0]}',
            "goal",
        ),
    ],
)
def test_hint_refuses_bad_input_in_one_line(stdin, words):
    status, out, err = call(["puzzle", "hint"], stdin)
    assert_one_line_error(status, out, err)
    assert words in err


def test_hint_refuses_a_state_that_cannot_reach_the_goal():
    from tests.puzzles.support import stuck_jugs

    p = stuck_jugs()
    status, out, err = call(["puzzle", "hint"], json.dumps(p.to_json()))
    assert_one_line_error(status, out, err)
    assert "cannot be solved" in err


def test_hint_works_between_real_processes():
    gen = run_cli("puzzle", "generate", "--type", "ball", "--difficulty", "hard", "--seed", "x")
    got = run_cli("puzzle", "hint", stdin=gen.stdout)
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout)["moves_left"] == json.loads(gen.stdout)["par"]
    bad = run_cli("puzzle", "hint", stdin="[]")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_hint_past_its_budget_says_so_and_gives_no_move(monkeypatch):
    """A jugs puzzle whose breadth-first search needs more states than the hint's budget (made
    tiny here): the hint says no plan was found within it, rather than guessing or stalling."""
    from roguelike import puzzles

    monkeypatch.setattr(puzzles, "hint_budget", lambda _p: 5)
    doc = {
        "format": 1,
        "type": "jugs",
        "difficulty": "easy",
        "par": 15,
        "config": {"capacities": [400, 300, 14, 8], "target": {"kind": "any", "amount": 198}},
        "state": [400, 0, 0, 0],
    }
    got = hint(doc)
    assert got["move"] is None and got["exact"] is False and "moves_left" not in got
    assert "within the hint's budget of 5 search nodes" in got["text"]


def test_solve_refuses_a_hand_written_15_puzzle_past_its_budget(monkeypatch):
    from roguelike.cli import puzzle as cli_puzzle

    monkeypatch.setattr(cli_puzzle, "SOLVE_BUDGET", 50)
    doc = json.loads(generated_json("sliding", "very-hard", "far"))
    far = [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 1, 2, 0]
    status, out, err = call(["puzzle", "solve"], json.dumps(doc | {"state": far}))
    assert_one_line_error(status, out, err)
    assert "within 50 search nodes" in err
