"""The source's custom puzzles: any jug start, rectangular stomp boards, ball boards with a target
cell and blocked cells, hatgram boards with many tilings. Each solver is checked against a
second, simple breadth-first search (or, for the hatgram, every tiling listed by dancing links)
written here, on small hand-made instances."""

from __future__ import annotations

import itertools
from collections import deque
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from roguelike import puzzles
from roguelike.puzzles import PuzzleFormatError, ball, hatgram, hatgram_solve, jugs, stomp
from roguelike.puzzles.base import SearchLimit
from tests.puzzles.support import CUSTOM_BALL, doc


def bfs_length(start: Any, neighbours: Any, solved: Any) -> int | None:
    """The fewest moves from ``start`` to a solved state (None: none is reachable)."""
    seen = {start: 0}
    todo = deque([start])
    while todo:
        s = todo.popleft()
        if solved(s):
            return seen[s]
        for t in neighbours(s):
            if t not in seen:
                seen[t] = seen[s] + 1
                todo.append(t)
    return None


def round_trips(p: Any) -> None:
    d = p.to_json()
    q = puzzles.from_json(d)
    assert q == p and q.to_json() == d
    assert q.initial() == p.initial()


# --- jugs: any start -----------------------------------------------------------------------


def jug_neighbours(caps: tuple[int, ...]) -> Any:
    def step(s: tuple[int, ...]) -> list[tuple[int, ...]]:
        out = []
        for a in range(len(caps)):
            for b in range(len(caps)):
                if a != b:
                    amount = min(s[a], caps[b] - s[b])
                    t = list(s)
                    t[a] -= amount
                    t[b] += amount
                    out.append(tuple(t))
        return out

    return step


@st.composite
def custom_jugs(draw: Any) -> jugs.Jugs:
    caps = tuple(draw(st.lists(st.integers(1, 7), min_size=2, max_size=4)))
    start = tuple(draw(st.integers(0, c)) for c in caps)
    water = sum(start)
    if draw(st.booleans()):
        target: tuple[str, tuple[int, ...]] = ("any", (draw(st.integers(1, max(caps))),))
    else:
        amounts = tuple(draw(st.integers(0, c)) for c in caps)
        assume(sum(amounts) == water)
        target = ("vector", amounts)
    return jugs.Jugs(caps, target, start=start)


@settings(max_examples=150, deadline=None)
@given(custom_jugs())
def test_jugs_from_any_start_agree_with_a_plain_search(p):
    want = bfs_length(p.initial(), jug_neighbours(p.capacities), p.is_solved)
    plan = p.solve(p.initial())
    assert (None if plan is None else len(plan)) == want
    if plan is not None:
        s = p.initial()
        for m in plan:
            s = p.apply(s, m)
            assert sum(s) == sum(p.initial())  # no water added or spilled
        assert p.is_solved(s)
        round_trips(jugs.Jugs(p.capacities, p.target, par=len(plan), start=p.start))


def test_a_jug_start_is_written_only_when_it_is_not_the_standard_one():
    standard = puzzles.generate("jugs", "medium", 5)
    assert "start" not in standard.to_json()["config"]
    custom = jugs.Jugs((8, 5, 3), ("any", (4,)), par=0, start=(4, 4, 0))
    assert custom.to_json()["config"]["start"] == [4, 4, 0]
    assert custom.to_json()["state"] == [4, 4, 0]
    assert custom.initial() == (4, 4, 0) and custom.water == 8


def test_a_jug_start_is_checked():
    base = {"capacities": [8, 5, 3], "target": {"kind": "any", "amount": 4}}
    for start in ([9, 0, 0], [1, 2], [1, 2, 3, 4], [-1, 0, 0], [True, 0, 0], "8,0,0", [4.0, 0, 0]):
        with pytest.raises(PuzzleFormatError):
            puzzles.from_json(doc("jugs", base | {"start": start}))
    # a vector target must hold the start's water, and a state too
    with pytest.raises(PuzzleFormatError):
        puzzles.from_json(
            doc(
                "jugs",
                base | {"start": [4, 0, 0], "target": {"kind": "vector", "amounts": [8, 0, 0]}},
            )
        )
    p = puzzles.from_json(doc("jugs", base | {"start": [4, 0, 1]}))
    with pytest.raises(PuzzleFormatError):
        p.state_from_json([8, 0, 0])
    assert p.state_from_json([0, 5, 0]) == (0, 5, 0)


def test_jugs_beyond_the_limits_are_refused_before_any_search(monkeypatch):
    def no_search(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("searched")

    monkeypatch.setattr(jugs, "bfs_plan", no_search)
    target = {"kind": "any", "amount": 1}
    for caps in (
        [jugs.MAX_CAPACITY + 1, 3],
        [1000, 999, 998],  # 999 * 1000 states over the two smaller jugs
        [2] * (jugs.MAX_JUGS + 1),
        [5],
        [0, 3],
    ):
        with pytest.raises(PuzzleFormatError):
            puzzles.from_json(doc("jugs", {"capacities": caps, "target": target}))


# --- stomp: rectangular boards ---------------------------------------------------------------


def stomp_neighbours(rows: int, cols: int) -> Any:
    flips = []
    for r in range(rows):
        for c in range(cols):
            cells = [(r, c), (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
            flips.append(
                sum(1 << (rr * cols + cc) for rr, cc in cells if 0 <= rr < rows and 0 <= cc < cols)
            )
    return lambda s: [s ^ f for f in flips]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 4).flatmap(
        lambda rows: st.tuples(
            st.just(rows),
            st.integers(2, 12 // rows),
            st.integers(0, (1 << 12) - 1),
            st.integers(0, (1 << 12) - 1),
        )
    )
)
def test_rectangular_stomp_agrees_with_a_plain_search(args):
    rows, cols, a, b = args
    full = (1 << rows * cols) - 1
    start, target = a & full, b & full
    p = stomp.Stomp(rows, start, target, width=cols)
    want = bfs_length(start, stomp_neighbours(rows, cols), lambda s: s == target)
    plan = p.solve(start)
    assert (None if plan is None else len(plan)) == want
    if plan is not None:
        s = start
        for m in plan:
            s = p.apply(s, m)
        assert s == target
        round_trips(stomp.Stomp(rows, start, target, par=len(plan), width=cols))


def test_a_rectangular_board_is_written_with_rows_and_cols():
    p = puzzles.from_json(
        doc("stomp", {"rows": 2, "cols": 5, "target": [".....", "....."]}, ["#....", "##..."], 1)
    )
    assert (p.n_rows, p.n_cols) == (2, 5)
    assert p.to_json()["config"] == {"rows": 2, "cols": 5, "target": [".....", "....."]}
    assert p.solve(p.initial()) == [(1, 0)]
    assert p.moves(p.initial())[-1] == (1, 4)
    with pytest.raises(puzzles.IllegalMove):
        p.apply(p.initial(), (2, 0))
    # a square board keeps the old form
    sq = puzzles.generate("stomp", "hard", 3)
    assert set(sq.to_json()["config"]) == {"size", "target"}
    assert puzzles.from_json(
        doc("stomp", {"rows": 3, "cols": 3, "target": ["..."] * 3}, ["..."] * 3)
    ) == stomp.Stomp(3, 0, 0)


@pytest.mark.parametrize(
    "config",
    [
        {"rows": 1, "cols": 4},
        {"rows": 3, "cols": stomp.MAX_SIDE + 1},
        {"rows": True, "cols": 3},
        {"rows": 3},
        {"size": 3, "rows": 3, "cols": 3},
    ],
)
def test_bad_stomp_boards_are_refused(config):
    with pytest.raises(PuzzleFormatError):
        puzzles.from_json(doc("stomp", config | {"target": ["..."] * 3}, ["..."] * 3))


# --- ball: target cells and blocked cells ----------------------------------------------------

SHAPES = {"ball": (2, 2), "1x1": (1, 1), "1x2": (1, 2), "2x1": (2, 1), "2x2": (2, 2)}
STEPS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def ball_neighbours(rows: int, cols: int, blocked: set[tuple[int, int]]) -> Any:
    """Moves of a state held as a sorted tuple of (kind, row, column), written here from the
    rules alone."""

    def cells(kind: str, r: int, c: int) -> set[tuple[int, int]]:
        h, w = SHAPES[kind]
        return {(r + dr, c + dc) for dr in range(h) for dc in range(w)}

    def step(s: tuple[tuple[str, int, int], ...]) -> list[Any]:
        out = []
        for i, (kind, r, c) in enumerate(s):
            others = set().union(*(cells(*q) for j, q in enumerate(s) if j != i))
            for dr, dc in STEPS.values():
                moved = cells(kind, r + dr, c + dc)
                if all(
                    0 <= rr < rows and 0 <= cc < cols and (rr, cc) not in blocked | others
                    for rr, cc in moved
                ):
                    out.append(tuple(sorted(s[:i] + ((kind, r + dr, c + dc),) + s[i + 1 :])))
        return out

    return step


@st.composite
def custom_balls(draw: Any) -> tuple[dict, Any, Any]:
    rows, cols = draw(st.integers(3, 4)), draw(st.integers(3, 4))
    everything = [(r, c) for r in range(rows) for c in range(cols)]
    ball_at = draw(st.sampled_from([(r, c) for r in range(rows - 1) for c in range(cols - 1)]))
    use_target = draw(st.booleans())
    goal = (
        draw(st.sampled_from([(r, c) for r in range(rows - 1) for c in range(cols - 1)]))
        if use_target
        else None
    )
    exit_col = draw(st.integers(0, cols - 2))
    blocked = sorted(set(draw(st.lists(st.sampled_from(everything), max_size=2))))
    pieces: dict[str, list[list[int]]] = {"ball": [list(ball_at)]}
    for kind in ("1x1", "1x2", "2x1"):
        pieces[kind] = [list(c) for c in draw(st.lists(st.sampled_from(everything), max_size=2))]
    config: dict[str, Any] = {"rows": rows, "cols": cols}
    if goal is None:
        config["exit_col"] = exit_col
    else:
        config["target"] = list(goal)
    if blocked:
        config["blocked"] = [list(b) for b in blocked]
    d = doc("ball", config, pieces)
    try:
        p = puzzles.from_json(d)
    except PuzzleFormatError:
        assume(False)
    start = tuple(
        sorted((kind, r, c) for kind, cells in pieces.items() for r, c in {tuple(x) for x in cells})
    )
    goal_cell = goal if goal is not None else (rows - 2, exit_col)
    return d, p, (rows, cols, set(blocked), start, goal_cell)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(custom_balls())
def test_ball_targets_and_blocked_cells_agree_with_a_plain_search(case):
    """A few drawn boards in the fast tier; the long sweep below in the slow one."""
    _agrees_with_a_plain_search(case)


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(custom_balls())
def test_ball_targets_and_blocked_cells_agree_with_a_plain_search_over_a_long_sweep(case):
    _agrees_with_a_plain_search(case)


def _agrees_with_a_plain_search(case) -> None:
    _d, p, (rows, cols, blocked, start, goal) = case
    want = bfs_length(
        start,
        ball_neighbours(rows, cols, blocked),
        lambda s: next(q for q in s if q[0] == "ball")[1:] == goal,
    )
    plan = p.solve(p.initial())
    assert (None if plan is None else len(plan)) == want
    if plan is not None:
        s = p.initial()
        for m in plan:
            s = p.apply(s, m)
        assert p.is_solved(s)
        q = ball.Ball(
            p.rows, p.cols, p.exit_col, p.start, par=len(plan), target=p.target, blocked=p.blocked
        )
        round_trips(q)


def custom_ball() -> Any:
    """A 3×4 board: the ball in the top left, a small block on the target (the top right), a
    blocked cell under the ball: the block goes down twice, then the ball right twice."""
    return puzzles.from_json(CUSTOM_BALL)


def test_a_ball_target_and_blocked_cells_are_rules():
    p = custom_ball()
    s = p.initial()
    assert not p.is_solved(s)
    with pytest.raises(puzzles.IllegalMove):
        p.apply(s, (0, 0, "down"))  # the blocked cell is in the way
    plan = p.solve(s)
    assert len(plan) == 4
    assert p.to_json()["config"] == {"rows": 3, "cols": 4, "target": [0, 2], "blocked": [[2, 0]]}
    assert "+" in p.render_text(s) and p.picture(s)[-1] == "#" * 6  # no gap in the wall
    round_trips(p)
    # an old document (an exit, nothing blocked) is written as before
    old = puzzles.generate("ball", "easy", 2)
    assert set(old.to_json()["config"]) == {"rows", "cols", "exit_col"}


@pytest.mark.parametrize(
    ("config", "state"),
    [
        ({"rows": 3, "cols": 4, "target": [2, 0]}, {"ball": [[0, 0]]}),  # the ball cannot fit
        ({"rows": 3, "cols": 4, "target": [0, 2], "exit_col": 1}, {"ball": [[0, 0]]}),
        ({"rows": 3, "cols": 4, "exit_col": 0, "blocked": [[0, 0]]}, {"ball": [[0, 0]]}),
        ({"rows": 3, "cols": 4, "exit_col": 0, "blocked": [[2, 3], [2, 3]]}, {"ball": [[0, 0]]}),
        ({"rows": 3, "cols": 4, "exit_col": 0, "blocked": [[1, 0]]}, {"ball": [[0, 2]]}),
        ({"rows": 3, "cols": 4, "exit_col": 0}, {"ball": [[0, 0]], "1x1": [[2, 3], [2, 3]]}),
        ({"rows": 3, "cols": 4, "exit_col": 0}, {"ball": [[0, 0]], "1x1": [[True, 3]]}),
        ({"rows": 3, "cols": 4, "exit_col": 0}, {"ball": [[0, 0]], "3x3": []}),
        ({"rows": 3, "cols": ball.MAX_SIDE + 1, "exit_col": 0}, {"ball": [[0, 0]]}),
        ({"rows": 3, "cols": 4, "exit_col": False}, {"ball": [[0, 0]]}),
    ],
)
def test_bad_ball_boards_are_refused(config, state):
    with pytest.raises(PuzzleFormatError):
        puzzles.from_json(doc("ball", config, state))


# --- hatgram: many tilings, listed solutions checked ------------------------------------------

DOMINO = [[0, 0], [0, 1]]


def domino_board() -> hatgram.Hatgram:
    """A 2×4 board and four dominoes: 5 tilings, 120 with the dominoes told apart."""
    return puzzles.from_json(doc("hatgram", {"rows": 2, "cols": 4, "pieces": [DOMINO] * 4}))


def every_tiling(p: hatgram.Hatgram) -> list[tuple]:
    """All tilings, by dancing links (a second solver: the puzzle's uses a bitmask search)."""
    return hatgram_solve.solve_board(p, 10**6)


def brute_cost(p: hatgram.Hatgram, s: Any) -> int:
    return min(
        sum(0 if a == b else 1 if a is None else 2 for a, b in zip(s, sol, strict=True))
        for sol in every_tiling(p)
    )


@st.composite
def hatgram_states(draw: Any) -> Any:
    p = domino_board()
    s = p.initial()
    for _ in range(draw(st.integers(0, 6))):
        moves = [m for m in p.moves(s) if m[0] == "place"]
        if not moves:
            break
        s = p.apply(s, draw(st.sampled_from(moves)))
    return s


@settings(max_examples=80, deadline=None)
@given(hatgram_states(), st.booleans())
def test_hatgram_solve_is_optimal_with_many_tilings(s, few_listed):
    p = domino_board()
    assert len(every_tiling(p)) == 120
    if few_listed:
        p.solutions(limit=3)  # only three tilings listed: the branch and bound must answer
        assert p._complete == [False]
    plan = p.solve(s)
    assert len(plan) == brute_cost(p, s)
    t = s
    for m in plan:
        t = p.apply(t, m)
    assert p.is_solved(t)


def test_listed_solutions_are_checked_and_never_trusted():
    p = domino_board()
    tilings = every_tiling(p)
    one, other = tilings[0], tilings[-1]
    config = {"rows": 2, "cols": 4, "pieces": [DOMINO] * 4}
    listed = doc("hatgram", config | {"solutions": [[list(pl) for pl in one]]}, par=4)
    q = puzzles.from_json(listed)
    # a board tiled another way is solved: the listed tiling was not taken as the only one
    assert q.solve(other) == []
    assert len(q.solutions()) == 120
    # a listed "solution" that is no tiling is refused
    overlapping = [list(one[0])] * 4
    with pytest.raises(PuzzleFormatError):
        puzzles.from_json(doc("hatgram", config | {"solutions": [overlapping]}))
    with pytest.raises(PuzzleFormatError):
        puzzles.from_json(
            doc("hatgram", config | {"solutions": [[list(one[0]), None, None, None]]})
        )


@pytest.mark.parametrize(
    "config",
    [
        {"rows": 2, "cols": 4, "pieces": [[[0, 0], [0, 0]]] * 4},  # a cell twice
        {"rows": 2, "cols": 4, "pieces": [[[1, 1], [1, 2]]] * 4},  # not normalised
        {"rows": 2, "cols": 4, "pieces": [[[0, True]], [[0, 0]]]},
        {"rows": "2", "cols": 4, "pieces": [DOMINO] * 4},
        {"rows": 13, "cols": 4, "pieces": [DOMINO] * 26},
        {"rows": 12, "cols": 12, "pieces": [[[0, 0]]] * 144},  # too many pieces
        {"rows": 2, "cols": 4, "pieces": [DOMINO] * 4, "blocked": [[0, 0], [0, 0]]},
        {"rows": 2, "cols": 4, "pieces": [DOMINO] * 4, "solutions": "all"},
    ],
)
def test_bad_hatgram_configs_are_refused(config):
    with pytest.raises(PuzzleFormatError):
        puzzles.from_json(doc("hatgram", config))


def squares() -> hatgram.Hatgram:
    """Sixteen 3×3 squares on a 12×12 board: 16! tilings once the squares are told apart."""
    square = [[r, c] for r in range(3) for c in range(3)]
    return puzzles.from_json(doc("hatgram", {"rows": 12, "cols": 12, "pieces": [square] * 16}))


@pytest.mark.parametrize(
    ("placed", "cost"),
    [
        # a square at (1, 1) or (1, 6) is in no tiling (the corner cell (0, 0), the cell (0, 6)
        # need a square of their own that overlaps it): lift it and put it back, 2 moves each
        ([[0, 1, 1], [0, 5, 5]], 14 + 2 * 2),
        ([[0, 0, 0], [0, 3, 3], [0, 1, 6]], 13 + 2),
        ([[0, 0, 3], [0, 0, 0]], 14),
    ],
)
def test_identical_pieces_are_searched_once_per_tiling(placed, cost):
    p = squares()
    s = p.state_from_json(placed + [None] * (16 - len(placed)))
    plan = p.solve(s)
    assert len(plan) == cost
    t = s
    for m in plan:
        t = p.apply(t, m)
    assert p.is_solved(t)


def test_a_hatgram_search_beyond_its_budget_is_refused_not_answered_wrongly(monkeypatch):
    monkeypatch.setattr(hatgram, "SEARCH_NODES", 5)  # a tiling takes 16 steps
    p = squares()
    s = p.state_from_json([[0, 1, 1], [0, 5, 5]] + [None] * 14)
    with pytest.raises(SearchLimit, match="too large"):
        p.solve(s)


# --- every custom puzzle plays from its start ------------------------------------------------


def test_custom_puzzles_keep_their_par_checked():
    from roguelike.puzzles.base import check_par

    check_par(custom_ball())
    for bad in (3, 5):
        with pytest.raises(PuzzleFormatError, match="optimum from the start is 4"):
            check_par(
                ball.Ball(3, 4, -1, custom_ball().start, par=bad, target=(0, 2), blocked=((2, 0),))
            )
    stuck = jugs.Jugs((6, 4), ("any", (1,)), par=1)
    with pytest.raises(PuzzleFormatError, match="cannot be solved"):
        check_par(stuck)


def test_every_allowed_stomp_rectangle_has_a_small_null_space():
    """The README's bound: at most 2**6 solutions to enumerate on any allowed board."""
    widest = 0
    for rows, cols in itertools.product(range(stomp.MIN_SIDE, stomp.MAX_SIDE + 1), repeat=2):
        _pivots, _zero, basis = stomp._elimination(rows, None if rows == cols else cols)
        assert len(basis) <= min(rows, cols)
        widest = max(widest, len(basis))
    assert widest == 6


def test_a_board_too_long_to_list_is_still_searched():
    # fifteen squares and a 1×9 bar: no tiling (a column the bar crosses keeps 11 cells for the
    # squares, which cover 3 a column), and 15! orders of the squares too many to list
    square = [[r, c] for r in range(3) for c in range(3)]
    bar = [[0, c] for c in range(9)]
    p = puzzles.from_json(doc("hatgram", {"rows": 12, "cols": 12, "pieces": [square] * 15 + [bar]}))
    assert p.solve(p.initial()) is None
    assert p._complete == [False] and "solutions" not in p.to_json()["config"]
