"""The custom puzzles a player chooses (:mod:`roguelike.puzzles.custom`): every option set within
the bounds generates a board of that shape, goal and depth whose par is its exact solver's
optimum, which hints, milestones and the difficulty score read; every set outside them is
refused in one line; a code carries the options and rebuilds the same board."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from roguelike import puzzles
from roguelike.puzzles import ball_custom, codes, custom, difficulty, sliding, stomp

LEVELS = st.sampled_from(puzzles.DIFFICULTIES)
SEEDS = st.integers(0, 2**40)


@st.composite
def sliding_options(draw: Any) -> custom.Options:
    n = draw(st.sampled_from(sliding.CUSTOM_SIDES))
    lo, hi = sliding.CUSTOM_DEPTH[n]
    goal = draw(
        st.one_of(
            st.none(),
            st.sampled_from(sliding.GOALS),
            st.permutations(range(n * n)).map(lambda t: custom.goal_text(tuple(t))),
        )
    )
    return custom.Options(n, n, draw(st.integers(lo, hi)), goal)


@st.composite
def stomp_options(draw: Any) -> custom.Options:
    lo, hi = stomp.CUSTOM_SIDES
    rows, cols = draw(st.integers(lo, hi)), draw(st.integers(lo, hi))
    d_lo, d_hi = stomp.custom_depths(rows, cols)
    return custom.Options(rows, cols, draw(st.integers(d_lo, d_hi)))


@st.composite
def ball_options(draw: Any) -> custom.Options:
    lo, hi = ball_custom.CUSTOM_SIDES
    rows, cols = draw(st.integers(lo, hi)), draw(st.integers(lo, hi))
    return custom.Options(
        rows,
        cols,
        draw(st.integers(1, ball_custom.CUSTOM_DEPTH)),
        blocked=draw(st.integers(0, ball_custom.custom_blocked(rows, cols))),
        target=draw(st.booleans()),
    )


def shape(p: Any) -> tuple[int, int]:
    if isinstance(p, sliding.Sliding):
        return p.size, p.size
    if isinstance(p, stomp.Stomp):
        return p.n_rows, p.n_cols
    return p.rows, p.cols


def check_board(type_name: str, level: str, seed: int, o: custom.Options) -> None:
    p = custom.generate(type_name, level, seed, o)
    assert p.type_name == type_name and p.difficulty == level
    assert shape(p) == (o.rows, o.cols)
    plan = p.solve(p.initial())
    assert plan is not None and p.par == o.depth == len(plan)
    s = p.initial()
    for m in plan:
        s = p.apply(s, m)
    assert p.is_solved(s)
    if type_name == "sliding":
        want = custom.goal_tiles(o.goal, o.rows) if o.goal else sliding.standard_goal(o.rows)
        assert p.goal() == want
    if type_name == "ball":
        assert len(p.blocked) == o.blocked and (p.target is not None) == o.target
    # the JSON record rebuilds it, and it is read back as bounded as any hand-written one
    assert puzzles.from_json(p.to_json()) == p
    # the code carries the options and rebuilds the same board
    code = codes.with_options(codes.PuzzleCode(type_name, level, seed), o)
    c, back = codes.parse_with_options(code)
    assert (c.type, c.difficulty, c.seed, back) == (
        type_name,
        level,
        seed,
        custom.check(type_name, level, o),
    )
    assert custom.generate(c.type, c.difficulty, c.seed, back).to_json() == p.to_json()
    # hints, the milestone tier and the difficulty score work on it
    a = puzzles.advise(p, p.initial())
    assert a.move is None if p.par == 0 else a.move in p.moves(p.initial())
    for tier in (1, 2, 3, 4):
        assert puzzles.hint_text(p, p.initial(), tier)
    m = puzzles.milestone(p, p.initial(), a)
    if m is not None:
        assert 0 < m.steps < len(a.plan) and m.facts
    assert difficulty.measure(p).length == p.par


@settings(max_examples=40, deadline=None)
@given(sliding_options(), LEVELS, SEEDS)
def test_every_sliding_option_set_within_bounds_makes_its_board(o, level, seed):
    check_board("sliding", level, seed, o)


@settings(max_examples=60, deadline=None)
@given(stomp_options(), LEVELS, SEEDS)
def test_every_stomp_option_set_within_bounds_makes_its_board(o, level, seed):
    check_board("stomp", level, seed, o)


@settings(max_examples=25, deadline=None)
@given(ball_options(), LEVELS, SEEDS)
def test_every_ball_option_set_within_bounds_makes_its_board(o, level, seed):
    check_board("ball", level, seed, o)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        sliding_options().map(lambda o: ("sliding", o)),
        stomp_options().map(lambda o: ("stomp", o)),
        ball_options().map(lambda o: ("ball", o)),
    ),
    LEVELS,
    SEEDS,
)
def test_every_option_set_within_bounds_makes_its_board_over_a_long_sweep(case, level, seed):
    check_board(case[0], level, seed, case[1])


def test_the_bounds_hold_at_their_corners():
    """The deepest boards of every shape generate (the hardest corners of the bounds)."""
    for n in sliding.CUSTOM_SIDES:
        for goal in sliding.GOALS:
            check_board(
                "sliding", "easy", 7, custom.Options(n, n, sliding.CUSTOM_DEPTH[n][1], goal)
            )
    lo, hi = stomp.CUSTOM_SIDES
    for rows in range(lo, hi + 1):
        for cols in range(lo, hi + 1):
            deepest = stomp.custom_depths(rows, cols)[1]
            check_board("stomp", "hard", 7, custom.Options(rows, cols, deepest))
    for rows, cols in ((4, 4), (5, 5)):
        most = ball_custom.custom_blocked(rows, cols)
        check_board(
            "ball",
            "easy",
            7,
            custom.Options(rows, cols, ball_custom.CUSTOM_DEPTH, None, most, True),
        )


def test_no_options_is_the_levels_own_puzzle():
    for type_name in puzzles.TYPES:
        want = puzzles.generate(type_name, "easy", 11).to_json()
        assert custom.generate(type_name, "easy", 11).to_json() == want
        code = codes.encode(type_name, "easy", 11)
        assert codes.parse_with_options(code) == (codes.parse(code), custom.NONE)
        assert codes.with_options(codes.parse(code), custom.NONE) == code


def test_an_option_left_out_is_the_levels():
    p = custom.generate("stomp", "medium", 3, custom.Options(depth=4))
    assert (p.n_rows, p.n_cols) == (stomp.SIZE["medium"],) * 2 and p.par == 4
    q = custom.generate("sliding", "very-hard", 3, custom.Options(goal="spiral"))
    assert q.size == 4 and q.goal() == sliding.named_goal("spiral", 4)
    assert sliding.PAR["very-hard"][0] <= q.par <= sliding.CUSTOM_DEPTH[4][1]


def test_named_goals():
    assert sliding.named_goal("spiral", 3) == (1, 2, 3, 8, 0, 4, 7, 6, 5)
    assert sliding.named_goal("snake", 3) == (1, 2, 3, 6, 5, 4, 7, 8, 0)
    assert sliding.named_goal("reverse", 3) == (8, 7, 6, 5, 4, 3, 2, 1, 0)
    assert sliding.named_goal("spiral", 4) == (1, 2, 3, 4, 12, 13, 14, 5, 11, 0, 15, 6, 10, 9, 8, 7)
    assert custom.goal_text((1, 2, 3, 8, 0, 4, 7, 6, 5)) == "spiral"
    assert custom.goal_text((0, 1, 2, 3, 4, 5, 6, 7, 8)) == "012345678"


OUT_OF_BOUNDS = [
    ("sliding", "5x5"),
    ("sliding", "3x4"),
    ("sliding", "d0"),
    ("sliding", f"d{sliding.CUSTOM_DEPTH[3][1] + 1}"),
    ("sliding", "4x4,d31"),
    ("sliding", "g=12345678"),
    ("sliding", "g=112345678"),
    ("sliding", "g=spirals"),
    ("sliding", "b1"),
    ("stomp", "1x4"),
    ("stomp", "8x3"),
    ("stomp", "2x3,d2"),
    ("stomp", "4x4,d5"),
    ("stomp", "3x3,d10"),
    ("stomp", "g=spiral"),
    ("stomp", "t"),
    ("ball", "3x4"),
    ("ball", "6x5"),
    ("ball", f"d{ball_custom.CUSTOM_DEPTH + 1}"),
    ("ball", "4x4,b3"),
    ("ball", "5x5,b4"),
    ("ball", "b0"),
    ("jugs", "d3"),
    ("hatgram", "3x3"),
    ("keydoor", "t"),
    ("stomp", ""),
    ("stomp", "d5,3x4"),
    ("stomp", "d5,d5"),
    ("stomp", "3x4;d5"),
    ("stomp", "d" + "9" * 70),
    ("stomp", "d-1"),
    ("stomp", "d\x00"),
    ("stomp", "d\u0665"),  # an Arabic-Indic five is a digit to int(), not to a code
]


@pytest.mark.parametrize(("type_name", "text"), OUT_OF_BOUNDS)
def test_out_of_bounds_options_are_refused_in_one_line(type_name, text):
    with pytest.raises(custom.OptionsError) as err:
        custom.parse(type_name, text, "easy")
    assert "\n" not in str(err.value) and len(str(err.value)) < 200
    code = f"{type_name}:easy#0000-0000-01AB/{text}"
    with pytest.raises(codes.PuzzleCodeError) as err2:
        codes.parse_with_options(code)
    assert "\n" not in str(err2.value)


@st.composite
def out_of_bounds(draw: Any) -> tuple[str, str, custom.Options]:
    """An option set one step past a bound of its type."""
    type_name = draw(st.sampled_from(custom.CUSTOM_TYPES))
    level = draw(LEVELS)
    lo, hi = {"sliding": (3, 4), "stomp": stomp.CUSTOM_SIDES, "ball": ball_custom.CUSTOM_SIDES}[
        type_name
    ]
    side = draw(st.one_of(st.integers(-5, lo - 1), st.integers(hi + 1, 99)))
    kind = draw(st.sampled_from(("rows", "cols", "depth-low", "depth-high")))
    if kind in ("rows", "cols"):
        other = draw(st.integers(lo, hi))
        rows, cols = (side, other) if kind == "rows" else (other, side)
        return type_name, level, custom.Options(rows, cols)
    n = draw(st.integers(lo, hi))
    d_lo, d_hi = custom.depths(type_name, n, n)
    depth = (
        draw(st.integers(-10, d_lo - 1))
        if kind == "depth-low"
        else draw(st.integers(d_hi + 1, 999))
    )
    return type_name, level, custom.Options(n, n, depth)


@settings(max_examples=150, deadline=None)
@given(out_of_bounds())
def test_every_set_past_a_bound_is_refused_in_one_line(case):
    type_name, level, o = case
    with pytest.raises(custom.OptionsError) as err:
        custom.generate(type_name, level, 1, o)
    assert "\n" not in str(err.value)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=90), st.sampled_from(puzzles.TYPES))
@example("\x00" * 90, "jugs")  # each escaped to four characters: the quote was 300 long
@example("\U0010ffff" * 60, "sliding")
def test_any_text_after_the_slash_is_read_or_refused_in_one_line(text, type_name):
    code = f"{type_name}:easy#0000-0000-01AB/{text}"
    try:
        c, o = codes.parse_with_options(code)
    except codes.PuzzleCodeError as err:
        assert "\n" not in str(err) and len(str(err)) < 300
        return
    # read: it is canonical, within the bounds, and written back as read
    assert custom.check(c.type, c.difficulty, o) == o
    assert codes.parse_with_options(codes.with_options(c, o)) == (c, o)
