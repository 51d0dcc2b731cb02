"""The difficulty score: its parts on hand-made instances, its sanity, its bands, determinism."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike import puzzles
from roguelike.puzzles import (
    DIFFICULTIES,
    REGISTRY,
    TYPES,
    Calibration,
    difficulty,
    keydoor_gen,
)
from roguelike.puzzles.difficulty import BANDS, in_band, measure


@cache
def gen(type_name: str, level: str, seed: int) -> Any:
    return puzzles.generate(type_name, level, seed)


# --- a tiny puzzle whose every number is known by hand ----------------------------------------
@dataclass(frozen=True)
class Tiny:
    """S --a--> A --g--> G (the optimum, 2 moves); S --b--> B --a2--> A (one move longer);
    S --d--> D (a dead end: D has no moves)."""

    type_name: ClassVar[str] = "tiny"
    dead_ends: ClassVar[bool] = True
    difficulty: str = "easy"
    par: int = 2

    EDGES: ClassVar[dict[str, dict[str, str]]] = {
        "S": {"a": "A", "b": "B", "d": "D"},
        "A": {"g": "G"},
        "B": {"a2": "A"},
        "D": {},
        "G": {},
    }

    def initial(self) -> str:
        return "S"

    def moves(self, s: str) -> list[str]:
        return list(self.EDGES[s])

    def apply(self, s: str, m: str) -> str:
        return self.EDGES[s][m]

    def is_solved(self, s: str) -> bool:
        return s == "G"

    def solve(self, s: str) -> list[str] | None:
        return {"S": ["a", "g"], "A": ["g"], "B": ["a2", "g"], "G": []}.get(s)


def flat(_p: Tiny, _s: str) -> float:
    return 0.0


def test_tiny_without_a_greedy_rule_every_wrong_move_is_tempting():
    sc = measure(Tiny(), calibration=Calibration(greedy=flat, attempts=1))
    # step S: b and d look as good as a (no greedy rule), d is a dead end (counted twice);
    # step A: one legal move
    assert (sc.length, sc.branching, sc.traps, sc.dead_ends, sc.non_greedy) == (2, 2.0, 1.0, 0.5, 0)
    assert sc.score == pytest.approx((1 + math.log2(1 + 2 + 1)) + 1)


def test_tiny_with_a_misleading_greedy_rule_counts_a_forced_step():
    looks = {"S": 3, "A": 1, "B": 0, "D": 2, "G": 0}
    misleading = Calibration(greedy=lambda _p, s: float(looks[s]), attempts=1)
    sc = measure(Tiny(), calibration=misleading)
    # at S the greedy rule picks b (0) over the right move a (1): forced non-greedy, b tempting,
    # d (2) not; at A the one move is right
    assert (sc.traps, sc.dead_ends, sc.non_greedy) == (0.5, 0.0, 1)
    assert sc.score == pytest.approx((1 + math.log2(2) + math.log2(3)) + 1)


def test_unsolvable_start_is_refused():
    with pytest.raises(puzzles.Unsolvable):
        measure(Tiny(), start="D", calibration=Calibration(greedy=flat, attempts=1))


# --- hand-made instances of real types ----------------------------------------------------------
def stomp_doc(start: list[str]) -> dict[str, Any]:
    return {
        "format": 1,
        "type": "stomp",
        "difficulty": "easy",
        "par": 1,
        "config": {"size": 3, "target": ["...", "...", "..."]},
        "state": start,
    }


def test_one_stomp_from_dark_is_one_obvious_step():
    p = puzzles.from_json(stomp_doc([".#.", "###", ".#."]))  # the centre's cross
    sc = measure(p)
    # the centre clears all five tiles; any other stomp leaves at least three lit
    assert (sc.length, sc.branching, sc.traps, sc.non_greedy, sc.score) == (1, 9.0, 0.0, 0, 1.0)


def test_stomp_where_the_greedy_pick_is_wrong():
    # the centre's cross XOR the top-left corner's L: lit (0,0), (1,1), (1,2), (2,1), 4 tiles.
    # The only optimum stomps the centre (leaving the corner's 3) and the corner (leaving the
    # cross's 5). Stomping (2,2) toggles (2,2), (2,1), (1,2): lit (0,0), (1,1), (2,2), 3 tiles,
    # as good-looking as the centre, and wrong (3x3 stomp solutions are unique): a trap.
    p = puzzles.from_json(stomp_doc(["#..", ".##", ".#."]))
    sc = measure(p)
    assert sc.length == 2
    assert sc.traps >= 0.5  # (2,2) at the first step
    assert sc.score > 2


def test_sliding_one_move_from_the_goal():
    p = puzzles.from_json(
        {
            "format": 1,
            "type": "sliding",
            "difficulty": "easy",
            "par": 1,
            "config": {"size": 3},
            "state": [1, 2, 3, 4, 5, 6, 7, 0, 8],
        }
    )
    sc = measure(p)
    # tiles 5, 7 and 8 may move; only 8 (home in one step) lowers the Manhattan distance
    assert (sc.length, sc.branching, sc.traps, sc.non_greedy, sc.score) == (1, 3.0, 0.0, 0, 1.0)


def test_jugs_classic_eight_five_three():
    p = puzzles.from_json(
        {
            "format": 1,
            "type": "jugs",
            "difficulty": "easy",
            "par": 7,
            "config": {"capacities": [8, 5, 3], "target": {"kind": "vector", "amounts": [4, 4, 0]}},
            "state": [8, 0, 0],
        }
    )
    sc = measure(p)
    assert sc.length == 7  # the textbook optimum
    # its line 800 → 350 → 323 → 620 → 602 → 152 → 143 → 440; legal pours at each state
    # (from a non-empty jug into a jug not full): 2, 3, 4, 4, 4, 4, 4
    assert sc.branching == pytest.approx(25 / 7)
    assert sc.score >= sc.length


def test_hatgram_every_wrong_placement_looks_alike():
    # a 1 x 5 strip, a domino and a straight tromino: 7 placements at the start, 4 of them
    # right (domino left and tromino right, or the other way round), 3 wrong and no different
    # to look at; after the first piece the other has one place left (and the first piece
    # may be taken off: 2 moves)
    p = puzzles.from_json(
        {
            "format": 1,
            "type": "hatgram",
            "difficulty": "easy",
            "par": 2,
            "config": {
                "rows": 1,
                "cols": 5,
                "blocked": [],
                "pieces": [[[0, 0], [0, 1]], [[0, 0], [0, 1], [0, 2]]],
            },
        }
    )
    sc = measure(p)
    assert (sc.length, sc.branching, sc.traps, sc.dead_ends, sc.non_greedy) == (2, 4.5, 1.5, 0, 0)
    assert sc.score == pytest.approx((1 + math.log2(1 + 3)) + 1)


def test_hatgram_distance_is_the_length_of_its_plan():
    p = gen("hatgram", "hard", 4)
    s = p.initial()
    plan = p.solve(s)
    s = p.apply(s, plan[0])
    # a placement off the solution: it must come off again (two moves more than a right one)
    wrong = next(
        m for m in p.moves(s) if m[0] == "place" and p.distance(p.apply(s, m)) == len(plan)
    )
    for state in (p.initial(), s, p.apply(s, wrong)):
        assert p.distance(state) == len(p.solve(state))


# --- sanity on generated puzzles ----------------------------------------------------------------
@pytest.mark.parametrize("type_name", TYPES)
def test_one_move_from_the_goal_scores_below_the_start(type_name):
    p = gen(type_name, "medium", 3)
    plan = p.solve(p.initial())
    s = p.initial()
    for m in plan[:-1]:
        s = p.apply(s, m)
    near = measure(p, s)
    assert near.length == 1
    assert near.score < measure(p).score


@pytest.mark.parametrize("type_name", TYPES)
def test_the_score_reads_the_optimal_line(type_name):
    p = gen(type_name, "hard", 5)
    sc = measure(p)
    assert sc.length == p.par
    assert sc.score >= sc.length  # every step costs its move at least
    assert sc.branching >= 1 and 0 <= sc.dead_ends <= 1 and 0 <= sc.non_greedy <= sc.length


def test_a_puzzle_of_no_registered_type_needs_its_calibration():
    with pytest.raises(ValueError, match="unknown puzzle type 'tiny'"):
        measure(Tiny())


@pytest.mark.parametrize("kind", REGISTRY, ids=TYPES)
def test_every_type_has_a_greedy_rule(kind):
    p = gen(kind.name, "easy", 0)
    assert isinstance(kind.calibration.greedy(p, p.initial()), float)


# --- bands --------------------------------------------------------------------------------------
def test_bands_rise_with_the_level():
    lows = [BANDS[d][0] for d in DIFFICULTIES]
    highs = [BANDS[d][1] for d in DIFFICULTIES]
    assert lows == sorted(lows) and highs == sorted(highs)
    assert all(lo < hi for lo, hi in BANDS.values())


@pytest.mark.parametrize(
    ("type_name", "level"),
    [(t.name, d) for t in REGISTRY for d in DIFFICULTIES if difficulty.drawn(t, d)],
)
def test_generated_puzzles_fall_in_their_levels_band(type_name, level):
    for seed in (11, 12, 13):
        sc = measure(gen(type_name, level, seed))
        assert in_band(sc, level), (type_name, level, seed, sc)


def test_every_level_of_every_type_is_drawn():
    undrawn = {(t.name, d) for t in REGISTRY for d in DIFFICULTIES if not difficulty.drawn(t, d)}
    assert undrawn == set()


def test_a_keydoor_draw_keeps_the_shape_its_seed_names():
    for seed in (11, 12):
        assert gen("keydoor", "very-hard", seed).shape == keydoor_gen.shape_of(seed).name


@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, (1 << 40) - 1), level=st.sampled_from(DIFFICULTIES))
def test_every_keydoor_shape_drawn_at_a_level_lies_in_its_band(seed, level):
    """Any seed at any level: the board's shape is the one the seed draws there (never a
    shape the level stands in for), and its score lies in the level's band."""
    p = gen("keydoor", level, seed)
    assert p.shape == keydoor_gen.shape_at(seed, level).name
    assert (p.shape, level) not in keydoor_gen.STAND_IN
    assert in_band(measure(p), level), (level, seed, p.shape, measure(p))


def test_attempt_seeds_are_the_seed_then_distinct_derived_seeds():
    got = [difficulty.attempt_seed("jugs", "hard", 77, k) for k in range(5)]
    assert got[0] == 77 and len(set(got)) == 5
    assert got == [difficulty.attempt_seed("jugs", "hard", 77, k) for k in range(5)]


# --- determinism ----------------------------------------------------------------------------------
@pytest.mark.parametrize("type_name", TYPES)
def test_same_seed_same_score(type_name):
    a = puzzles.generate(type_name, "very-hard", 9)
    b = puzzles.generate(type_name, "very-hard", 9)
    assert a == b
    first = measure(a)
    assert measure(b) == first
    assert measure(a) == first  # measuring leaves the instance's caches as they were


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**20), st.sampled_from(["jugs", "stomp", "sliding", "hatgram"]))
def test_the_score_is_a_function_of_the_instance(seed, type_name):
    p = gen(type_name, "easy", seed)
    again = puzzles.from_json(p.to_json())  # no solver caches but what solving rebuilds
    assert measure(again) == measure(p)
    sc = measure(p)
    assert sc.length == p.par <= sc.score
