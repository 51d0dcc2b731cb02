"""A visit to a puzzle without any screen: moves, undo, reset, hints and coins, score, outcome
(the same expectations the puzzle screen's tests check through the keyboard)."""

from __future__ import annotations

import subprocess
import sys
from functools import cache
from typing import Any

import pytest

from roguelike import puzzles
from roguelike.puzzles.visit import (
    HINT_PENALTY,
    MILESTONE_TIER,
    MOVE_TIER,
    SCORE_HINT_UNITS,
    STUCK,
    Note,
    Visit,
    score,
)
from tests.puzzles.support import stuck_jugs


@cache
def puzzle(type_name: str, difficulty: str = "easy", seed: int = 11) -> Any:
    return puzzles.generate(type_name, difficulty, seed)


def replay(p: Any, start_json: Any, moves: list[Any]) -> Any:
    s = p.state_from_json(start_json)
    for m in moves:
        s = p.apply(s, p.move_from_json(m))
    return s


def test_the_visit_needs_no_user_interface():
    code = (
        "import sys, roguelike.puzzles.visit; "
        "assert 'textual' not in sys.modules and 'rich' not in sys.modules"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("type_name", puzzles.TYPES)
def test_the_optimal_solution_solves_it_with_a_perfect_score(type_name):
    p = puzzle(type_name)
    visit = Visit(p)
    plan = p.solve(p.initial())
    for m in plan[:-1]:
        assert visit.play(m) == Note("") and not visit.solved
    note = visit.play(plan[-1])
    assert note == Note(
        f"Solved in {p.par} move{'s' * (p.par != 1)} (par {p.par}) — perfect!", "solved"
    )
    assert visit.solved and visit.play(plan[0]) is None  # nothing more happens once solved
    out = visit.outcome()
    assert out.solved and out.move_count == p.par and out.score == 100
    assert out.moves == [p.move_to_json(m) for m in plan]
    assert out.start_json == p.state_to_json(p.initial())
    assert out.state_json == p.state_to_json(replay(p, out.start_json, out.moves))
    assert visit.score_words() == "Score 100: no hints, no resets, par or better."


def test_an_illegal_move_says_why_and_changes_nothing():
    p = puzzle("jugs")
    visit = Visit(p)
    empty = next(i for i, now in enumerate(p.initial()) if now == 0)
    note = visit.play((empty, 1 - empty if empty < 2 else 0))
    assert note is not None and note.tone == "bad" and note.text.endswith(".")
    assert note.text[0].isupper() and visit.moves == [] and visit.state == p.initial()


def test_undo_takes_back_exactly_one_move():
    p = puzzle("ball")
    plan = p.solve(p.initial())
    visit = Visit(p)
    states = [visit.state]
    for m in plan[:3]:
        visit.play(m)
        states.append(visit.state)
    for back in (2, 1, 0):
        assert visit.undo() == Note("Move taken back.", "dim")
        assert visit.state == states[back] and len(visit.moves) == back
    assert visit.undo() == Note("Nothing to undo.", "dim")
    assert visit.state == p.initial() and visit.move_count == 0


def test_reset_returns_to_the_start_and_costs_points():
    p = puzzle("stomp", "medium")
    plan = p.solve(p.initial())
    visit = Visit(p)
    assert visit.at_start
    assert visit.reset() == Note("You are at the start already.", "dim")
    assert visit.resets == 0
    visit.play(plan[0])
    assert not visit.at_start
    assert visit.reset() == Note("Back to the start.", "dim")
    assert visit.state == p.initial() and visit.moves == [] and visit.resets == 1
    assert visit.score == 95
    for m in plan:
        visit.play(m)
    out = visit.outcome()
    assert out.solved and out.resets == 1 and out.score == 95 and out.move_count == p.par
    assert visit.score_words() == "Score 95: 100 less 5 for resets."


@pytest.mark.parametrize("type_name", ["sliding", "hatgram", "keydoor"])
def test_four_hints_give_two_nudges_a_milestone_then_the_next_move(type_name):
    p = puzzle(type_name)
    visit = Visit(p, coins=6)
    visit.play(p.solve(p.initial())[0])  # hints from a later state
    s = visit.state
    assert visit.hint(False) == Note("Hint bought: 5 coins left.", "dim")
    assert visit.hint_lines == [("Hint 1", p.nudge(s, 1))] and visit.hint_moves == []
    visit.hint(False)
    assert visit.hint_lines[-1] == ("Hint 2", p.nudge(s, 2))
    goal = puzzles.milestone(p, s)
    assert goal is not None and goal.text.startswith("First ")
    assert visit.hint(False) == Note("Hint bought: 3 coins left.", "dim")
    assert visit.hint_lines[-1] == ("Milestone", goal.text) and visit.hint_moves == []
    assert visit.hint_tier == MILESTONE_TIER
    assert visit.hint(False, keys_for=lambda _s, _m: "x then y") == Note(
        "Hint bought: 2 coins left.", "dim"
    )
    move, left = puzzles.hint(p, s)
    assert visit.hint_moves == [move] and visit.hint_tier == MOVE_TIER
    words = p.describe_move(move, s)
    assert visit.hint_lines[-1] == ("Next:", f"{words} ({left} moves left). Keys: x then y.")
    assert (visit.coins, visit.coins_spent, visit.hints_used) == (2, 4, 4)
    # another hint: the step after the move shown, a coin more
    plan = p.solve(s)
    assert visit.hint(False) == Note("Hint bought: 1 coin left.", "dim")
    assert visit.hint_moves == plan[:2] and visit.hint_lines[-1][0] == "2."
    assert visit.hint_lines[-1][1] == p.describe_move(plan[1], p.apply(s, plan[0]))
    visit.play(move)  # moving starts the tiers again
    assert visit.hint_tier == 0 and visit.hint_moves == [] and visit.hint_lines == []
    out = visit.outcome()
    assert (out.coins_spent, out.hints_used) == (5, 5)
    assert out.score == score(5, 0, 2, p.par) == 50


def test_with_no_milestone_on_the_way_the_third_hint_is_the_move():
    """One move from the goal, nothing settles on the way: no coin buys an empty milestone."""
    p = puzzle("sliding")
    t = p.apply(p.goal(), p.moves(p.goal())[0])
    visit = Visit(p, t, coins=3)
    assert puzzles.milestone(p, t) is None
    for _ in range(3):
        visit.hint(False)
    assert visit.hint_tier == MOVE_TIER and visit.hint_lines[-1][0] == "Next:"
    assert visit.coins == 0


def test_super_hint_shows_the_next_three_moves_for_two_coins():
    p = puzzle("sliding", "medium")
    plan = p.solve(p.initial())
    visit = Visit(p, coins=3)
    visit.hint(True)
    assert visit.hint_moves == plan[:3]
    assert visit.coins == 1 and visit.hints_used == 2
    assert visit.hint_lines[0] == ("Next 3 moves", f"({len(plan)} moves left):")
    assert [label for label, _ in visit.hint_lines[1:]] == ["1.", "2.", "3."]
    assert visit.hint(True).text == "That hint is on the board already."
    assert visit.coins == 1
    assert visit.hint(False) == Note("Hint bought: 0 coins left.", "dim")  # the fourth step
    assert visit.hint_moves == plan[:4] and visit.hint_lines[-1][0] == "4."
    visit.play(plan[0])
    visit.coins = 1
    assert visit.hint(True) == Note("A super hint costs 2 coins; you have 1.", "bad")
    assert visit.coins == 1 and visit.hint_moves == []


def test_without_coins_a_first_ask_offers_a_hint_paid_with_score_and_shows_nothing():
    visit = Visit(puzzle("stomp"), coins=0, hints_used=1)
    for super_hint in (False, True):
        note = visit.hint(super_hint)
        assert note.tone == "warn" and note.text.startswith("You have no hint coins.")
        assert visit.hint_lines == [] and visit.hint_moves == []
    assert visit.coins == 0 and visit.hints_used == 1 and visit.score == 90
    assert visit.score_words() == "Score 90: 100 less 10 for hints."


def test_a_player_with_no_coins_can_always_get_past_by_paying_with_score():
    p = puzzle("sliding", "medium")
    visit = Visit(p, coins=0)
    asked = 0
    while not visit.solved:
        assert asked < 10 * p.par  # every ask either offers, or shows a move
        note = visit.hint(False)
        asked += 1
        if visit.hint_moves:
            visit.play(visit.hint_moves[0])
        else:
            assert note.tone in ("warn", "dim")
    # each hint paid with score counts SCORE_HINT_UNITS coins' worth: costlier than a coin
    assert visit.coins_spent == 0 and visit.hints_used >= SCORE_HINT_UNITS * 3
    assert visit.score == 0 and visit.move_count == p.par
    assert visit.outcome().solved


def test_asking_twice_with_no_coins_pays_with_score_and_a_move_cancels_the_offer():
    p = puzzle("sliding", "medium")
    visit = Visit(p, coins=0)
    plan = p.solve(p.initial())
    assert visit.hint(False).tone == "warn"
    visit.play(plan[0])  # the offer lapses with the move
    assert visit.hint(False).tone == "warn" and visit.hints_used == 0
    note = visit.hint(False)
    assert note.text.startswith("Hint bought with score")
    assert visit.hints_used == SCORE_HINT_UNITS and visit.hint_tier == 1
    assert visit.score == 100 - HINT_PENALTY * SCORE_HINT_UNITS < 100 - HINT_PENALTY


def test_an_unreachable_goal_is_announced_and_not_hinted():
    p = stuck_jugs()
    assert p.dead_ends
    visit = Visit(p, coins=3)
    assert visit.play((0, 1)) == Note(STUCK, "bad") and visit.stuck()
    assert visit.hint(False) == Note(STUCK, "bad") and visit.coins == 3
    # (1 litre cannot be measured with 6 and 4 at all: the start is stranded too)
    assert visit.undo() == Note(STUCK, "bad") and visit.moves == []


def test_types_without_dead_ends_are_never_searched_for_them(monkeypatch):
    p = puzzle("sliding")
    assert not p.dead_ends
    visit = Visit(p)
    monkeypatch.setattr(type(p), "solve", lambda self, s: pytest.fail("solve was called"))
    visit.play(p.moves(p.initial())[0])
    assert not visit.stuck()


def test_moves_over_par_cost_points():
    p = puzzle("sliding")
    visit = Visit(p)
    first = p.moves(p.initial())[0]
    visit.play(first)
    visit.play(first)  # the tile slides back: two moves, the start again
    for m in p.solve(visit.state):
        visit.play(m)
    assert visit.solved and visit.move_count == p.par + 2
    assert visit.score == score(0, 0, p.par + 2, p.par) == 96
    assert visit.solved_words() == f"Solved in {p.par + 2} moves (par {p.par})"
    assert visit.score_words() == "Score 96: 100 less 4 for 2 moves over par."


@pytest.mark.parametrize("type_name", ["ball", "hatgram", "keydoor"])
def test_leaving_keeps_progress_and_a_new_visit_continues(type_name):
    p = puzzle(type_name)
    plan = p.solve(p.initial())
    k = max(1, len(plan) // 2)
    visit = Visit(p, coins=2)
    for m in plan[:k]:
        visit.play(m)
    visit.hint(False)
    out = visit.outcome()
    mid = replay(p, out.start_json, out.moves)
    assert not out.solved and out.move_count == k == len(out.moves)
    assert out.state_json == p.state_to_json(mid) and out.coins_spent == out.hints_used == 1

    again = Visit(p, out.state_json, coins=1, hints_used=out.hints_used, moves=out.moves)
    assert again.state == mid and len(again.moves) == k and again.coins_spent == 0
    assert [before for before, _m in again.trail][0] == p.initial()
    for m in plan[k:]:
        again.play(m)
    done = again.outcome()
    assert done.solved and done.move_count == p.par and done.hints_used == 1
    assert done.start_json == p.state_to_json(p.initial())


def test_a_state_without_its_moves_replays_from_that_state():
    p = puzzle("sliding")
    plan = p.solve(p.initial())
    mid = p.initial()
    for m in plan[:3]:
        mid = p.apply(mid, m)
    visit = Visit(p, p.state_to_json(mid))
    assert visit.start == mid == visit.state and not visit.at_start
    for m in plan[3:]:
        visit.play(m)
    out = visit.outcome()
    assert out.start_json == p.state_to_json(mid) and out.move_count == len(plan) - 3
    assert p.is_solved(replay(p, out.start_json, out.moves))
    visit.reset()  # a reset starts from the puzzle's own start
    assert visit.outcome().start_json == p.state_to_json(p.initial())


def test_moves_that_do_not_lead_to_the_state_are_refused():
    p = puzzle("sliding")
    first = p.solve(p.initial())[0]
    with pytest.raises(ValueError, match="do not lead"):
        Visit(p, p.state_to_json(p.initial()), moves=[p.move_to_json(first)])


def test_a_visit_opened_solved_says_so():
    p = puzzle("jugs")
    moves = [p.move_to_json(m) for m in p.solve(p.initial())]
    visit = Visit(p, moves=moves)
    assert visit.solved and visit.play(p.moves(visit.state)[0]) is None


def test_the_score_never_drops_below_zero():
    assert score(0, 0, 5, 5) == 100
    assert score(3, 1, 7, 5) == 100 - 30 - 5 - 4
    assert score(20, 0, 0, 5) == 0
