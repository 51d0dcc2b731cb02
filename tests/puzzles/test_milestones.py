"""Hints that teach: every tier answers from any reachable state, the first hint bought names
something to act on, and the milestone tier names a goal on the plan that, once reached by
following the move hints, stays reached to the plan's end."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roguelike import puzzles
from roguelike.puzzles import TYPES, Unsolvable, milestone
from roguelike.puzzles.visit import MILESTONE_TIER, MOVE_TIER, Visit

#: What a first hint must name for each type to be something to act on.
ACTIONABLE = {
    "jugs": r"\bjug [A-Z]\b",
    "sliding": r"\btiles? \d+",
    "stomp": r"\brow \d+",
    "ball": r"\bthe ball\b|\bblock\b",
    "hatgram": r"\bpiece [A-Z]\b",
    "keydoor": r"\bkey \w+|\bdoor \w+",
}

LEVELS = ("easy", "hard")


@cache
def puzzle(type_name: str, difficulty: str, seed: int) -> Any:
    return puzzles.generate(type_name, difficulty, seed)


def walk(p: Any, picks: list[int]) -> tuple[Any, list[Any]]:
    """A random walk from the start (each pick chooses among the legal moves), stopping at a
    state from which the goal is out of reach: the states passed and the last one."""
    s, trail = p.initial(), []
    for k in picks:
        moves = p.moves(s)
        if not moves or p.is_solved(s):
            break
        t = p.apply(s, moves[k % len(moves)])
        if p.dead_ends and p.solve(t) is None:
            break
        trail.append(s)
        s = t
    return s, trail


walks = st.lists(st.integers(min_value=0, max_value=10_000), max_size=12)
relaxed = settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("type_name", TYPES)
@relaxed
@given(seed=st.integers(min_value=0, max_value=3), picks=walks)
def test_every_tier_answers_and_the_milestone_stays_reached(type_name, level, seed, picks):
    p = puzzle(type_name, level, seed)
    s, trail = walk(p, picks)
    if p.is_solved(s):
        return
    # every tier, bought one after another as a player does, answers with words
    visit = Visit(p, s, coins=MOVE_TIER + 1)
    for _ in range(MOVE_TIER):
        visit.hint(False)
        assert visit.hint_lines and all(words for _label, words in visit.hint_lines)
    assert visit.hint_tier == MOVE_TIER and visit.hint_moves
    first = visit.hint_lines[0][1]
    assert re.search(ACTIONABLE[type_name], first, re.I), first  # the first hint bought says what
    a = visit.advice()
    goal = milestone(p, s, a)
    labels = [label for label, _words in visit.hint_lines]
    assert labels[:2] == ["Hint 1", "Hint 2"]
    assert ("Milestone" in labels) == (goal is not None)
    if goal is None:
        return
    assert visit.hint_lines[2] == ("Milestone", goal.text) and goal.text.startswith("First ")
    # following the move hints (the advice's plan, step after step) reaches it, and it then
    # holds at every state to the end of the plan; it does not hold now
    assert not goal.facts <= p.facts(s)
    assert 0 < goal.steps < len(a.plan) and goal.plan == a.plan
    cur = s
    for i, m in enumerate(a.plan, 1):
        cur = p.apply(cur, m)
        if i >= goal.steps:
            assert goal.facts <= p.facts(cur), (i, goal.text)
    assert p.is_solved(cur)


@pytest.mark.parametrize("type_name", TYPES)
def test_the_first_hint_from_the_start_names_something_to_act_on(type_name):
    """The empty first hint of the issue ("Jugs A and B and C still hold the wrong amounts")
    is gone: from every level's start, the first nudge names a jug, tiles, a row, a piece or a
    key."""
    for level in puzzles.DIFFICULTIES:
        p = puzzle(type_name, level, 0)
        assert re.search(ACTIONABLE[type_name], p.nudge(p.initial(), 1), re.I)


def test_the_jugs_first_hint_names_the_jug_to_pour_from():
    p = puzzle("jugs", "hard", 0)
    s = p.initial()
    a, _b = p.solve(s)[0]
    assert p.nudge(s, 1).startswith(f"Your next pour starts from jug {'ABCD'[a]} ")


@pytest.mark.parametrize(
    ("type_name", "pattern"),
    [
        ("jugs", r"^First (get \d+ L into|empty|fill) jug [A-Z]"),
        ("sliding", r"^First put (tiles? \d+|\d+–\d+ in the)"),
        ("stomp", r"^First make (rows?|the cell|\d+ cells)"),
        ("ball", r"^First park the \w+ block with its top left at row \d+, column \d+"),
        ("hatgram", r"^First place piece [A-Z] "),
        ("keydoor", r"^First take key \w+ in .+, then .*open door \w+"),
    ],
)
def test_a_milestone_is_worded_for_its_type(type_name, pattern):
    """Each type's milestone from some start of the catalog's seeds, in its own words ("first
    get 2 L into jug B", "first take key 2 in room 3, then open door 2 with key 2")."""
    found = []
    for level in puzzles.DIFFICULTIES:
        for seed in range(4):
            p = puzzle(type_name, level, seed)
            try:
                goal = milestone(p, p.initial())
            except Unsolvable:
                continue
            if goal is not None:
                found.append(goal.text)
    assert found and all(re.search(pattern, text) for text in found), found


def test_sliding_names_a_whole_row_when_it_settles():
    """A row of the goal that the plan fills and then leaves alone is named as a row."""
    p = puzzle("sliding", "easy", 0)
    goal = (1, 2, 3, 4, 5, 6, 7, 8, 0)
    assert p.goal() == goal
    words = p.milestone_words(frozenset(("tile", t) for t in (1, 2, 3)), p.initial(), [], 0)
    assert words == "put 1–3 in the top row"
    words = p.milestone_words(frozenset(("tile", t) for t in (1, 4, 7, 5)), p.initial(), [], 0)
    assert words == (
        "put 1, 4 and 7 in the left column and put tile 5 in its place (row 2, column 2)"
    )


def test_the_milestone_hint_is_charged_once_and_read_once_per_state():
    p = puzzle("keydoor", "hard", 1)
    visit = Visit(p, coins=4)
    for _ in range(MILESTONE_TIER):
        visit.hint(False)
    assert visit.coins == 1 and visit.hint_lines[-1][0] == "Milestone"
    assert "open door" in visit.hint_lines[-1][1]
