"""The puzzle screen, driven through Textual's Pilot: every type played to the end by key
presses alone, hints, undo, reset, leaving and coming back, and the layout at 80×24."""

from __future__ import annotations

from collections import deque
from functools import cache
from typing import Any

import pytest
from textual.widgets import Static

from roguelike import puzzles
from roguelike.puzzles import hatgram
from screens.puzzle import VIEWS, PuzzleScreen, RulesScreen, score
from tests.puzzles.support import stuck_jugs
from tests.screens.support import Host, panel_text, screen_text

SIZES = [(80, 24), (120, 40)]
ARROW = {(-1, 0): "up", (1, 0): "down", (0, -1): "left", (0, 1): "right"}
DIRECTION = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
#: (type, difficulty) played to the end by keys; the 15-puzzle too
PLAYED = [(t, "easy") for t in puzzles.TYPES] + [("sliding", "very-hard")]


@cache
def puzzle(type_name: str, difficulty: str = "easy", seed: int = 11) -> Any:
    return puzzles.generate(type_name, difficulty, seed)


def replay(p: Any, start_json: Any, moves: list[Any]) -> Any:
    s = p.state_from_json(start_json)
    for m in moves:
        s = p.apply(s, p.move_from_json(m))
    return s


# ---------------------------------------------------------------------------- moves → keys


def _orientation_keys(shape: Any, start: int, goal: int) -> list[str]:
    """The shortest run of ``t`` (turn) and ``f`` (flip) presses from one orientation to
    another, found here independently of the screen."""
    paths = {start: []}
    todo = deque([start])
    while todo:
        j = todo.popleft()
        for key, step in (("t", hatgram.turned), ("f", hatgram.flipped)):
            k = step(shape, j)
            if k not in paths:
                paths[k] = [*paths[j], key]
                todo.append(k)
    return paths[goal]


def _ghost_keys(ghost: tuple[int, int, int], r: int, c: int) -> list[str]:
    _j, gr, gc = ghost
    keys = ["down" if r > gr else "up"] * abs(r - gr)
    return keys + ["right" if c > gc else "left"] * abs(c - gc)


async def play_move(pilot: Any, screen: PuzzleScreen, m: Any) -> None:
    """Press the keys that make move ``m`` on ``screen`` (reading only where its cursor,
    selection or ghost stands), and check that exactly ``m`` was played."""
    p, s, ui = screen.visit.puzzle, screen.visit.state, screen.view
    before = len(screen.moves)
    t = p.type_name
    keys: list[str]
    if t == "jugs":
        keys = [str(m[0] + 1), str(m[1] + 1)]
    elif t == "sliding":
        n = p.size
        tr, tc = divmod(s.index(m), n)
        br, bc = divmod(s.index(0), n)
        keys = [ARROW[(br - tr, bc - tc)]]
    elif t == "stomp":
        (cr, cc), (r, c) = ui.cursor, m
        keys = ["down" if r > cr else "up"] * abs(r - cr)
        keys += ["right" if c > cc else "left"] * abs(c - cc)
        keys.append("space")
    elif t == "ball":
        r, c, d = m
        i = next(k for k, piece in enumerate(ui.pieces) if piece[1:] == [r, c])
        keys = [str(i)] if i <= 9 else ["tab"] * ((i - ui.sel) % len(ui.pieces))
        keys.append(d)
    elif t == "hatgram":
        i = m[1]
        await pilot.press(str(i + 1))
        if m[0] == "remove":
            keys = ["backspace"]
        else:
            _, i, j, r, c = m
            await pilot.press(*_orientation_keys(p.pieces[i], ui.ghost[i][0], j))
            assert ui.ghost[i][0] == j
            keys = [*_ghost_keys(ui.ghost[i], r, c), "enter"]
    elif t == "keydoor":
        main = {"left": "left", "right": "right", "enter": "down", "take": "t"}
        side = {"left": "up", "right": "down", "leave": "up", "take": "t"}
        either = {"drop": "d", "open": "o"}
        keys = [(side if p.is_side(s[0]) else main).get(m) or either[m]]
    else:  # pragma: no cover - a new type needs its keys here
        raise AssertionError(t)
    await pilot.press(*keys)
    assert len(screen.moves) == before + 1, (t, m, keys, str(screen.message))
    assert screen.moves[-1] == p.move_to_json(m)


# ---------------------------------------------------------------------------- playing


@pytest.mark.parametrize(("type_name", "difficulty"), PLAYED)
async def test_the_optimal_solution_played_by_keys_solves_it(type_name, difficulty):
    p = puzzle(type_name, difficulty)
    plan = p.solve(p.initial())
    assert len(plan) == p.par
    app = Host(PuzzleScreen(p))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.puzzle_screen
        for m in plan:
            assert not screen.solved
            await play_move(pilot, screen, m)
        assert screen.solved
        text = screen_text(app)
        assert f"Solved in {p.par} moves (par {p.par})" in text
        await pilot.press("enter")
        await pilot.pause()
    [out] = app.outcomes
    assert out.solved and out.move_count == p.par == len(out.moves)
    assert out.moves == [p.move_to_json(m) for m in plan]
    assert out.start_json == p.state_to_json(p.initial())
    final = replay(p, out.start_json, out.moves)
    assert p.is_solved(final) and out.state_json == p.state_to_json(final)
    assert out.score == 100 and out.coins_spent == out.hints_used == out.resets == 0


async def test_keydoor_plays_by_numbered_actions_too():
    p = puzzle("keydoor")
    app = Host(PuzzleScreen(p))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.puzzle_screen
        for m in p.solve(p.initial()):
            legal = p.moves(screen.visit.state)
            assert p.describe_move(m, screen.visit.state) in panel_text(screen)
            await pilot.press(str(legal.index(m) + 1))
        assert screen.solved
        await pilot.press("enter")
    assert app.outcomes[0].solved and app.outcomes[0].move_count == p.par


async def test_hatgram_enter_lifts_a_placed_piece_and_backspace_too():
    p = puzzle("hatgram")
    first = p.solve(p.initial())[0]
    app = Host(PuzzleScreen(p))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.puzzle_screen
        await play_move(pilot, screen, first)
        await pilot.press(str(first[1] + 1), "enter")
        assert screen.visit.state == p.initial() and screen.moves[-1] == ["remove", first[1]]
        await play_move(pilot, screen, first)
        await play_move(pilot, screen, ("remove", first[1]))
        assert screen.visit.state == p.initial() and len(screen.moves) == 4


async def test_illegal_keys_say_why_and_play_nothing():
    p = puzzle("jugs")
    app = Host(PuzzleScreen(p))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.puzzle_screen
        await pilot.press("2")  # jug B starts empty
        assert "empty" in str(screen.message) and not screen.moves
        await pilot.press("1", "1")  # the same jug twice cancels
        assert "cancelled" in str(screen.message) and not screen.moves
        await pilot.press("9")
        assert "no jug 9" in str(screen.message)


# ---------------------------------------------------------------------------- hints


@pytest.mark.parametrize("type_name", ["sliding", "hatgram", "keydoor"])
async def test_four_hints_give_two_nudges_a_milestone_then_the_next_move(type_name):
    p = puzzle(type_name)
    app = Host(PuzzleScreen(p, coins=6))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.puzzle_screen
        await play_move(pilot, screen, p.solve(p.initial())[0])  # hints from a later state
        s = screen.visit.state
        words = panel_text(screen)
        await pilot.press("h")
        text = panel_text(screen)
        assert p.nudge(s, 1) in text and p.nudge(s, 1) not in words
        await pilot.press("h")
        text = panel_text(screen)
        assert p.nudge(s, 2) in text
        await pilot.press("h")
        goal = puzzles.milestone(p, s)
        assert goal is not None and "Milestone " + goal.text in panel_text(screen)
        await pilot.press("h")
        move, left = puzzles.hint(p, s)
        assert screen.visit.hint_moves == [move]
        text = panel_text(screen)
        assert p.describe_move(move, s) in text and f"{left} moves left" in text
        assert (
            screen.visit.coins == 2
            and screen.visit.coins_spent == 4
            and screen.visit.hints_used == 4
        )
        await pilot.press("h")  # another hint: the step after it, a coin more
        plan = p.solve(s)
        assert screen.visit.hint_moves == plan[:2] and screen.visit.coins == 1
        assert p.describe_move(plan[1], p.apply(s, move)) in panel_text(screen)
        await play_move(pilot, screen, move)  # moving starts the tiers again
        assert (
            screen.visit.hint_tier == 0
            and screen.visit.hint_moves == []
            and screen.visit.hint_lines == []
        )
        await pilot.press("escape")
    out = app.outcomes[0]
    assert (out.coins_spent, out.hints_used) == (5, 5)
    assert out.score == score(5, 0, 2, p.par) == 50


async def test_super_hint_shows_the_next_three_moves_for_two_coins():
    p = puzzle("sliding", "medium")
    app = Host(PuzzleScreen(p, coins=3))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.puzzle_screen
        await pilot.press("H")
        plan = p.solve(p.initial())
        assert screen.visit.hint_moves == plan[:3]
        assert screen.visit.coins == 1 and screen.visit.hints_used == 2
        text = panel_text(screen)
        assert f"{len(plan)} moves left" in text
        for m in plan[:3]:
            assert f"slide tile {m} " in text
        await pilot.press("H")  # shown already: nothing more to pay
        assert screen.visit.coins == 1 and "already" in str(screen.message)
        await pilot.press("h")  # another hint goes on from the fourth step
        assert screen.visit.hint_moves == plan[:4] and screen.visit.coins == 0
        await play_move(pilot, screen, plan[0])
        screen.visit.coins = 1
        await pilot.press("H")  # one coin left: not enough
        assert screen.visit.coins == 1 and screen.visit.hint_moves == []
        assert "costs 2 coins" in str(screen.message)


async def test_without_coins_a_hint_says_so_and_shows_nothing():
    p = puzzle("stomp")
    app = Host(PuzzleScreen(p, coins=0, hints_used=1))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.puzzle_screen
        for key in ("h", "H"):
            await pilot.press(key)
            assert "no hint coins" in str(screen.message) and "Ask again" in str(screen.message)
            assert screen.visit.hint_lines == [] and screen.visit.hint_moves == []
        assert screen.visit.coins == 0 and screen.visit.hints_used == 1 and screen.visit.score == 90


async def test_without_coins_asking_twice_pays_with_score_and_the_rules_say_so():
    p = puzzle("stomp")
    app = Host(PuzzleScreen(p, coins=0))
    async with app.run_test(size=(100, 40)) as pilot:
        screen = app.puzzle_screen
        await pilot.press("h", "h")
        s = screen.visit.state
        assert "bought with score" in str(screen.message)
        assert p.nudge(s, 1) in panel_text(screen)
        assert screen.visit.coins == 0 and screen.visit.score == 80
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        hints = app.screen.query_one("#rules-hints", Static)
        assert "paid with score instead" in str(hints.render())


async def test_an_unreachable_goal_is_announced_and_not_hinted():
    p = stuck_jugs()
    app = Host(PuzzleScreen(p, coins=3))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.puzzle_screen
        await pilot.press("1", "2")
        assert "can no longer be reached" in str(screen.message)
        await pilot.press("h")
        assert screen.visit.coins == 3 and "can no longer be reached" in str(screen.message)


# ---------------------------------------------------------------------------- undo, reset, leave


async def test_undo_takes_back_exactly_one_move():
    p = puzzle("ball")
    plan = p.solve(p.initial())
    app = Host(PuzzleScreen(p))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.puzzle_screen
        states = [screen.visit.state]
        for m in plan[:3]:
            await play_move(pilot, screen, m)
            states.append(screen.visit.state)
        for back in (2, 1, 0):
            await pilot.press("u")
            assert screen.visit.state == states[back] and len(screen.moves) == back
        await pilot.press("u")  # nothing left to undo
        assert screen.visit.state == p.initial() and "Nothing to undo" in str(screen.message)
        for m in plan:  # the labels of the blocks followed the undos
            await play_move(pilot, screen, m)
        assert screen.solved


async def test_reset_asks_once_then_returns_to_the_start_and_costs_points():
    p = puzzle("stomp", "medium")
    plan = p.solve(p.initial())
    app = Host(PuzzleScreen(p))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.puzzle_screen
        await pilot.press("r")
        assert "start already" in str(screen.message) and screen.visit.resets == 0
        await play_move(pilot, screen, plan[0])
        await pilot.press("r")
        assert screen.moves and "again" in str(screen.message)
        await pilot.press("u", "r")  # another key disarms it: this r asks again
        assert not screen.moves
        await play_move(pilot, screen, plan[0])
        await pilot.press("r", "r")
        assert screen.visit.state == p.initial() and screen.moves == [] and screen.visit.resets == 1
        assert screen.visit.score == 95
        for m in plan:
            await play_move(pilot, screen, m)
        await pilot.press("enter")
    out = app.outcomes[0]
    assert out.solved and out.resets == 1 and out.score == 95 and out.move_count == p.par


@pytest.mark.parametrize("type_name", ["ball", "hatgram", "keydoor"])
async def test_escape_keeps_progress_and_reopening_continues(type_name):
    p = puzzle(type_name)
    plan = p.solve(p.initial())
    k = max(1, len(plan) // 2)
    app = Host(PuzzleScreen(p, coins=2))
    async with app.run_test(size=(80, 24)) as pilot:
        for m in plan[:k]:
            await play_move(pilot, app.puzzle_screen, m)
        await pilot.press("h", "escape")
        await pilot.pause()
    out = app.outcomes[0]
    mid = replay(p, out.start_json, out.moves)
    assert not out.solved and out.move_count == k == len(out.moves)
    assert out.state_json == p.state_to_json(mid) and out.coins_spent == out.hints_used == 1

    again = PuzzleScreen(p, out.state_json, coins=1, hints_used=out.hints_used, moves=out.moves)
    app = Host(again)
    async with app.run_test(size=(80, 24)) as pilot:
        assert again.visit.state == mid and len(again.moves) == k
        for m in plan[k:]:
            await play_move(pilot, again, m)
        await pilot.press("enter")
        await pilot.pause()
    done = app.outcomes[0]
    assert done.solved and done.move_count == p.par and done.hints_used == 1
    assert done.start_json == p.state_to_json(p.initial())
    assert p.is_solved(replay(p, done.start_json, done.moves))


async def test_a_state_without_its_moves_replays_from_that_state():
    p = puzzle("sliding")
    plan = p.solve(p.initial())
    mid = p.initial()
    for m in plan[:3]:
        mid = p.apply(mid, m)
    app = Host(PuzzleScreen(p, p.state_to_json(mid)))
    async with app.run_test(size=(80, 24)) as pilot:
        for m in plan[3:]:
            await play_move(pilot, app.puzzle_screen, m)
        await pilot.press("enter")
    out = app.outcomes[0]
    assert out.start_json == p.state_to_json(mid) and out.move_count == len(plan) - 3
    assert p.is_solved(replay(p, out.start_json, out.moves))


def test_moves_that_do_not_lead_to_the_state_are_refused():
    p = puzzle("sliding")
    first = p.solve(p.initial())[0]
    with pytest.raises(ValueError, match="do not lead"):
        PuzzleScreen(p, p.state_to_json(p.initial()), moves=[p.move_to_json(first)])


# ---------------------------------------------------------------------------- layout and keys


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("type_name", puzzles.TYPES)
async def test_the_hardest_boards_and_every_footer_key_fit(type_name, size):
    p = puzzle(type_name, "very-hard")
    app = Host(PuzzleScreen(p, coins=5))
    async with app.run_test(size=size) as pilot:
        screen = app.puzzle_screen
        await pilot.press("H")  # a super hint fills the side panel too
        await pilot.pause()
        board = screen.query_one("#puzzle-board")
        content = board.content_region
        visit = screen.visit
        lines = screen.view.board(visit.state, *screen.board_size(), visit.hint_moves)
        assert max(line.cell_len for line in lines) <= content.width
        assert len(lines) <= content.height
        footer = screen_text(app).splitlines()[-1]
        labels = [row.footer for row in screen.keys if row.footer and not row.when_solved]
        for label in labels:
            assert f" {label}" in footer, (label, footer)
        assert footer.rstrip().endswith("leave")


async def test_question_mark_shows_the_rules_and_the_keys():
    p = puzzle("hatgram")
    app = Host(PuzzleScreen(p))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        text = " ".join(screen_text(app).split())
        assert "Fill the board with all the pieces" in text
        assert "flip the piece over" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, PuzzleScreen) and not app.outcomes


async def test_once_solved_only_enter_escape_and_rules_work():
    p = puzzle("stomp")
    app = Host(PuzzleScreen(p))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.puzzle_screen
        for m in p.solve(p.initial()):
            await play_move(pilot, screen, m)
        await pilot.press("space", "u", "r", "h")
        assert screen.solved and len(screen.moves) == p.par and screen.visit.coins_spent == 0
        footer = screen_text(app).splitlines()[-1]
        assert "done" in footer and "undo" not in footer
        await pilot.press("escape")  # leaving a solved puzzle still reports it solved
    assert app.outcomes[0].solved


def test_every_puzzle_type_has_one_view_whose_keys_do_not_clash():
    """The views' table names each type once; within a view, a key does one thing (the screen's
    Enter only once the puzzle is solved, when the view's keys are off)."""
    assert list(VIEWS) == list(puzzles.TYPES)
    for type_name in puzzles.TYPES:
        screen = PuzzleScreen(puzzle(type_name))
        seen: set[str] = set()
        for row in screen.keys:
            keys = set(row.keys.split(","))
            if not row.when_solved:
                assert not keys & seen, (type_name, row.keys)
            seen |= keys
