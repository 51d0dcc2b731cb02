"""Hints from any reachable state (:func:`roguelike.puzzles.advise`): exact where proven, a
known route where not, and following them always ends at the goal."""

from __future__ import annotations

from collections import deque
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roguelike import puzzles
from roguelike.puzzles import sliding
from roguelike.puzzles.base import SearchLimit, Unsolvable

SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large]


@cache
def generated(type_name: str, difficulty: str, seed: int) -> Any:
    return puzzles.generate(type_name, difficulty, seed)


def reachable_state(p: Any, cut: int, walk: list[int]) -> tuple[Any, list[Any]]:
    """A state a player can reach: ``cut`` moves along the optimal plan, then the random moves
    ``walk`` (each an index into the legal moves); and the states passed through, oldest
    first."""
    s, trail = p.initial(), []
    plan = p.solve(s) or []
    for m in plan[: cut % (len(plan) + 1)]:
        trail.append(s)
        s = p.apply(s, m)
    for k in walk:
        moves = p.moves(s)
        if not moves:
            break
        trail.append(s)
        s = p.apply(s, moves[k % len(moves)])
    return s, trail


def bfs_distance(p: Any, s: Any, limit: int) -> int | None:
    """Moves from ``s`` to the goal by a plain breadth-first search (not the types' solvers);
    None if unreachable, -1 if more than ``limit`` states were seen."""
    seen = {s}
    frontier = deque([(s, 0)])
    while frontier:
        cur, d = frontier.popleft()
        if p.is_solved(cur):
            return d
        for m in p.moves(cur):
            t = p.apply(cur, m)
            if t not in seen:
                seen.add(t)
                if len(seen) > limit:
                    return -1
                frontier.append((t, d + 1))
    return None


SMALL = [
    ("jugs", "easy"),
    ("jugs", "hard"),
    ("sliding", "easy"),
    ("stomp", "easy"),
    ("ball", "easy"),
    ("hatgram", "easy"),
    ("keydoor", "easy"),
    ("keydoor", "medium"),
]


@settings(max_examples=60, deadline=None, suppress_health_check=SLOW)
@given(
    kind=st.sampled_from(SMALL),
    seed=st.integers(0, 3),
    cut=st.integers(0, 60),
    walk=st.lists(st.integers(0, 7), max_size=60),
)
def test_an_exact_hint_is_the_breadth_first_distance(kind, seed, cut, walk):
    p = generated(*kind, seed)
    s, trail = reachable_state(p, cut, walk)
    d = bfs_distance(p, s, 60_000)
    try:
        a = puzzles.advise(p, s, trail=trail)
    except Unsolvable:
        assert d is None and not any(bfs_distance(p, t, 60_000) is not None for t in trail)
        return
    if a.move is None and not p.is_solved(s):  # a dead end: undo to a state that can finish
        assert d is None and a.undo >= 1 and not a.exact
        assert bfs_distance(p, trail[-a.undo], 60_000) == a.undo_left
        return
    if d == -1:
        return  # too large for the plain search: nothing to compare
    assert a.exact and a.moves_left == d
    if d:
        assert bfs_distance(p, p.apply(s, a.move), 60_000) == d - 1


def follow(p: Any, s: Any, trail: list[Any], limit: int) -> int:
    """Follow the advice from ``s`` until the goal; the number of steps (moves and undos)."""
    steps = 0
    while not p.is_solved(s):
        a = puzzles.advise(p, s, trail=trail)
        if a.move is None:
            assert a.undo >= 1
            for _ in range(a.undo):
                s = trail.pop()
        else:
            assert a.exact or (a.route_len is not None and a.route_len >= 1)
            if a.exact:
                assert a.moves_left == len(a.plan)
            trail.append(s)
            s = p.apply(s, a.move)
        steps += 1
        assert steps <= limit
    return steps


@settings(max_examples=40, deadline=None, suppress_health_check=SLOW)
@given(
    type_name=st.sampled_from(puzzles.TYPES),
    difficulty=st.sampled_from(puzzles.DIFFICULTIES),
    seed=st.integers(0, 2),
    cut=st.integers(0, 60),
    walk=st.lists(st.integers(0, 7), max_size=60),
)
def test_following_the_advice_always_reaches_the_goal(type_name, difficulty, seed, cut, walk):
    p = generated(type_name, difficulty, seed)
    s, trail = reachable_state(p, cut, walk)
    try:
        puzzles.advise(p, s, trail=trail)
    except Unsolvable:
        return  # nothing on the trail can reach the goal either (a reset is the way)
    follow(p, s, trail, 1000)


def far_15_state(seed: int, walk: int = 60) -> tuple[Any, Any]:
    p = generated("sliding", "very-hard", seed)
    s, _ = reachable_state(p, 0, [(7 * i + seed) % 5 for i in range(walk)])
    return p, s


def test_a_far_15_puzzle_state_gets_a_route_not_a_proof_and_the_route_is_kept():
    p = puzzles.from_json(generated("sliding", "very-hard", 1).to_json())
    s = (15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 1, 2, 0)
    with pytest.raises(SearchLimit):
        p.solve(s, budget=sliding.HINT_BUDGET)
    a = puzzles.advise(p, s)
    assert not a.exact and a.moves_left is None and a.route_len == len(a.plan)
    assert "not proven" in a.text
    # the next state on the route continues the same route, one shorter
    b = puzzles.advise(p, p.apply(s, a.move))
    assert b.plan == a.plan[1:] and b.route_len == a.route_len - 1
    # asking the same of a fresh instance gives the same advice: a node budget, not a clock
    again = puzzles.advise(puzzles.from_json(p.to_json()), s)
    assert (again.move, again.route_len, again.text) == (a.move, a.route_len, a.text)


def test_a_route_off_the_line_offers_to_undo_back_onto_a_proven_way():
    p = puzzles.from_json(generated("sliding", "very-hard", 2).to_json())
    trail = [p.initial()]
    plan = p.solve(p.initial())  # the line is proven now
    s = p.initial()
    for k in range(40):  # wander off: a tile back and forth would be too easy to undo
        moves = [m for m in p.moves(s) if p.apply(s, m) not in trail]
        s = p.apply(s, moves[k % len(moves)])
        trail.append(s)
    trail.pop()
    a = puzzles.advise(p, s, trail=trail)
    if a.exact:
        pytest.skip("the budget proved this state: nothing to undo")
    assert a.undo >= 1 and a.undo_left is not None
    assert a.undo + a.undo_left < a.route_len
    back = trail[-a.undo]
    assert len(p.solve(back)) == a.undo_left
    assert len(plan) == p.par


@settings(max_examples=40, deadline=None)
@given(
    n=st.sampled_from([3, 4]),
    goal_perm=st.permutations(list(range(16))),
    start_perm=st.permutations(list(range(16))),
)
def test_the_constructive_route_reaches_any_reachable_goal(n, goal_perm, start_perm):
    goal = tuple(x for x in goal_perm if x < n * n)
    s = list(x for x in start_perm if x < n * n)
    if not sliding.reachable(tuple(s), goal, n):
        i, j = [k for k in range(n * n) if s[k]][:2]
        s[i], s[j] = s[j], s[i]  # swapping two tiles flips the parity
    s = tuple(s)
    assert sliding.reachable(s, goal, n)
    p = sliding.Sliding(n, s, target=goal)
    route = p.route(s)
    cur = s
    for m in route:
        cur = p.apply(cur, m)
    assert cur == goal and len(route) == len(set(route_states(p, s, route)))
    with pytest.raises(ValueError):
        bad = list(goal)
        i, j = [k for k in range(n * n) if bad[k]][:2]
        bad[i], bad[j] = bad[j], bad[i]
        sliding.constructive(n, tuple(bad), s)


def route_states(p: Any, s: Any, route: list[Any]) -> list[Any]:
    out = [s]
    for m in route:
        out.append(p.apply(out[-1], m))
    return out[:-1]


@settings(max_examples=30, deadline=None)
@given(goal_perm=st.permutations(list(range(9))), walk=st.lists(st.integers(0, 3), max_size=14))
def test_a_custom_sliding_goal_is_solved_optimally_relative_to_it(goal_perm, walk):
    goal = tuple(goal_perm)
    p = sliding.Sliding(3, goal, target=goal)
    s, _ = reachable_state(p, 0, walk)
    q = sliding.Sliding(3, s, target=goal)
    assert q.heuristic(s) <= bfs_distance(q, s, 200_000) == len(q.solve(s))
    doc = q.to_json()
    assert doc["config"]["goal"] == list(goal) or goal == sliding.standard_goal(3)
    assert puzzles.from_json(doc) == q


@settings(max_examples=25, deadline=None)
@given(walk=st.lists(st.integers(0, 3), min_size=1, max_size=12))
def test_the_pattern_database_is_admissible_and_the_strong_search_optimal(walk):
    goal = sliding.standard_goal(4)
    p = sliding.Sliding(4, goal)
    s, _ = reachable_state(p, 0, walk)
    db = sliding.pattern_db(goal)
    d = bfs_distance(p, s, 300_000)
    manhattan = sum(sliding.tables(4).md[t][q] for q, t in enumerate(s) if t)
    assert manhattan <= db.value(db.indices(s)) <= d
    strong = sliding.Sliding(4, s).solve(s, strong=True)
    assert len(strong) == len(sliding.Sliding(4, s).solve(s)) == d


@pytest.mark.parametrize("type_name", puzzles.TYPES)
def test_every_solver_takes_a_node_budget(type_name):
    p = generated(type_name, "hard", 0)
    s = p.initial()
    plan = p.solve(s, budget=10**6)
    assert plan is not None and len(plan) == p.par
    if type_name in ("jugs", "keydoor", "sliding"):  # searches: a tiny budget runs out
        fresh = puzzles.from_json(p.to_json())
        with pytest.raises(SearchLimit):
            fresh.solve(fresh.initial(), budget=2)
