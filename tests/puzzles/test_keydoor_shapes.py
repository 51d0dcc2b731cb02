"""Keydoor shapes: a run's boards take the shapes in turn, a further draw keeps the shape, each
shape's rules (the hand, a door that keeps its key) hold in Python and in clingo alike, the
shape survives the JSON, a hint answers from states off the optimal line, and clingo checks
and proves every shape's generated plan at every level (the generator leaves both to these
tests)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asp import solve as asp_solve
from roguelike import puzzles
from roguelike.engine.puzzle_rooms import difficulty_for
from roguelike.puzzles import IllegalMove, keydoor, keydoor_gen
from roguelike.puzzles.keydoor import SHAPES, KeyDoor

SEEDS = st.integers(0, (1 << 55) - 1)


@settings(max_examples=300, deadline=None)
@given(
    world=SEEDS,
    pedestals=st.lists(SEEDS, min_size=5, max_size=5),
    floors=st.lists(st.integers(1, 8), min_size=5, max_size=5, unique=True),
    easy=st.lists(st.booleans(), min_size=5, max_size=5),
)
def test_five_keydoor_boards_of_a_run_show_three_shapes(world, pedestals, floors, easy):
    """Five keydoor places of a run on five floors (a world has eight at most), with any
    pedestal seeds, draw three shapes at least, a board on floor 1 or 2 being easy or not (only
    there are boards easy, and easy draws a stand-in for nested doors)."""
    shapes = set()
    for seed, floor, is_easy in zip(pedestals, sorted(floors), easy, strict=True):
        level = "easy" if is_easy and floor <= 2 else "hard"
        shapes.add(keydoor_gen.shape_at(keydoor_gen.run_seed(seed, world, floor), level).name)
    assert len(shapes) >= 3


def test_easy_boards_are_on_the_first_two_floors_only():
    """The stand-in argument rests on it: no room depth makes a board of floor 3 easy."""
    assert all(difficulty_for(f, d) != "easy" for f in range(3, 9) for d in range(0, 30))
    assert difficulty_for(1, 0) == "easy"


@settings(max_examples=200, deadline=None)
@given(seed=SEEDS, world=SEEDS, order=st.integers(1, 20))
def test_a_run_seed_is_a_near_seed_of_the_places_shape(seed, world, order):
    moved = keydoor_gen.run_seed(seed, world, order)
    assert moved >= 0 and abs(moved - seed) < len(SHAPES)
    assert keydoor_gen.shape_of(moved) == keydoor_gen.shape_of(
        keydoor_gen.run_seed(0, world, order)
    )
    assert keydoor_gen.shape_of(
        keydoor_gen.run_seed(seed, world, order + 1)
    ) != keydoor_gen.shape_of(moved)


@cache
def board(shape: int, level: str = "medium") -> KeyDoor:
    p = puzzles.generate("keydoor", level, shape)  # seed s draws shape s (or its stand-in)
    assert p.shape == keydoor_gen.shape_at(shape, level).name
    return p


@pytest.mark.parametrize("shape", range(len(SHAPES)))
def test_each_shape_is_generated_with_its_rules_and_rebuilt_from_json(shape):
    # at hard every shape has its own rules (other levels change a few: see the next test)
    p, spec = board(shape, "hard"), SHAPES[shape]
    assert p.hand == spec.hand
    assert bool(p.keeps) == (not spec.eats)
    assert bool(p.branch2) == (spec.branches == 2)
    back = puzzles.from_json(p.to_json())
    assert (back.shape, back.hand, back.keeps, back.branch2, back.junction2) == (
        p.shape,
        p.hand,
        p.keeps,
        p.branch2,
        p.junction2,
    )
    assert len(back.solve(back.initial())) == p.par
    text = p.board_rules()
    assert ("one key at a time" in text) == (p.hand == 1)
    assert ("keeps its key" in text or "keep their key" in text) == bool(p.keeps)


def test_a_level_changes_a_shape_only_where_its_tables_say():
    crossing, nested = SHAPES.index(keydoor_gen.shape_of(4)), SHAPES.index(keydoor_gen.shape_of(3))
    assert board(crossing, "medium").keeps == ()  # medium's crossings eat their keys
    assert board(nested, "very-hard").hand == 1  # very-hard's nested doors: a one-key hand
    assert board(nested, "very-hard").branch == 3
    assert board(nested, "easy").shape == "two-branches"  # easy's stand-in


UNDO = {("left", "right"), ("right", "left"), ("enter", "leave"), ("leave", "enter")}
UNDO |= {("take", "drop"), ("drop", "take")}


def undoes(plan: list[str]) -> bool:
    """Two actions in a row that undo each other (the encoding cuts them as never optimal)."""
    return any((a, b) in UNDO for a, b in zip(plan, plan[1:], strict=False))


def clingo_accepts(p: KeyDoor, actions: list[str], extra: int = 0) -> bool:
    constants = p.constants() | {"chain": 0, "horizon": len(actions) + extra}
    facts = p.encoding_facts() + [f"given_do({t},{a})." for t, a in enumerate(actions)]
    out = asp_solve.solve(["keydoor"], constants, [1], 100_000, facts)
    assert out.status != "unknown"
    return out.status == "sat"


@pytest.mark.parametrize("shape", range(1, len(SHAPES)))
def test_clingo_and_python_agree_off_the_line(shape):
    """From states of random walks, the Python optimum after each legal action is a plan
    clingo accepts, and an action Python refuses cannot be continued in clingo."""
    p = board(shape)
    rng = np.random.default_rng(shape)
    s, walk = p.initial(), []
    for _ in range(int(rng.integers(3, 9))):
        legal = [
            m
            for m in p.moves(s)
            if not undoes(walk[-1:] + [m]) and p.solve(p.apply(s, m)) is not None
        ]
        if not legal or p.is_solved(s):
            break
        m = legal[int(rng.integers(0, len(legal)))]
        s, walk = p.apply(s, m), walk + [m]
    if p.is_solved(s):
        return
    for a in keydoor.ACTIONS:
        if a in p.moves(s):
            rest = p.solve(p.apply(s, a))
            if rest is not None and not undoes(walk + [a] + rest):
                assert clingo_accepts(p, walk + [a] + rest)
        else:
            assert not clingo_accepts(p, walk + [a], 30)


@pytest.mark.parametrize("shape", range(len(SHAPES)))
def test_a_hint_answers_from_states_off_the_line(shape):
    p = board(shape)
    rng = np.random.default_rng(7 + shape)
    s = p.initial()
    for _ in range(12):
        move, left = puzzles.hint(p, s) if p.solve(s) is not None else (None, -1)
        if left > 0:
            assert len(p.solve(p.apply(s, move))) == left - 1
        moves = p.moves(s)
        if not moves or p.is_solved(s):
            break
        s = p.apply(s, moves[int(rng.integers(0, len(moves)))])


def test_a_two_key_hand_never_drops_and_a_kept_key_stays_in_hand():
    # rooms 1..5; key 1 in room 2 opens door 3, key 2 in room 3 opens door 5; door 3 keeps key 1
    p = KeyDoor(5, 0, 1, (3, 5), (2, 4), hand=2, keeps=(1,), shape="nested")
    s = p.apply(p.apply(p.initial(), "right"), "take")
    assert "drop" not in p.moves(s)
    with pytest.raises(IllegalMove, match="never put down"):
        p.apply(s, "drop")
    s = p.apply(s, "open")
    assert keydoor.keys_of(s[1]) == [1]  # door 3 kept it
    s = p.apply(p.apply(p.apply(s, "right"), "right"), "take")
    assert keydoor.keys_of(s[1]) == [1, 2]
    assert p.state_from_json(p.state_to_json(s)) == s
    one = KeyDoor(5, 0, 1, (3, 5), (2, 4), keeps=(1,))
    t = one.apply(one.apply(one.apply(one.initial(), "right"), "take"), "open")
    with pytest.raises(IllegalMove, match="hand is full"):
        one.apply(one.apply(one.apply(t, "right"), "right"), "take")
    best = one.solve(one.initial())
    assert best is not None and len(best) == 9 and "drop" in best  # the spent key 1 put down


@pytest.mark.parametrize("level", puzzles.DIFFICULTIES)
@pytest.mark.parametrize("shape", range(len(SHAPES)))
def test_every_shape_has_a_milestone_from_its_plans_steps(shape, level):
    """A board of each shape at each level: from the start the milestone names the plan's own
    take and open steps, and once reached along the plan its doors stay open to the end."""
    p = puzzles.generate("keydoor", level, shape)
    m = puzzles.milestone(p, p.initial())
    assert m is not None
    assert m.text.startswith("First take key"), m.text
    assert "open door" in m.text
    s = p.initial()
    for k, move in enumerate(m.plan):
        s = p.apply(s, move)
        if k + 1 >= m.steps:
            assert m.facts <= p.facts(s)
    assert p.is_solved(s)


@pytest.mark.parametrize("level", puzzles.DIFFICULTIES)
@pytest.mark.parametrize("shape", range(len(SHAPES)))
def test_clingo_finds_no_plan_shorter_than_par(shape, level):
    """The breadth-first search's par is optimal under clingo's rules too: clingo proves that no
    plan of one action less exists (the proof costs most of a very-hard board's generation, so
    it runs here, on every shape at every level, not in the game)."""
    p = puzzles.generate("keydoor", level, shape)
    constants = p.constants() | {"chain": 0, "horizon": p.par - 1}
    out = asp_solve.solve(["keydoor"], constants, [1, 2], 1_000_000, p.encoding_facts())
    assert out.status == "unsat"
    assert clingo_accepts(p, list(p.plan))


@pytest.mark.parametrize("level", puzzles.DIFFICULTIES)
@pytest.mark.parametrize("shape", range(len(SHAPES)))
def test_clingo_checks_the_generated_plan_under_the_rules_it_was_drawn_by(shape, level):
    """The check the generator made before it kept a board, moved here (it cost a fifth of a
    very-hard board's time): under the generation rules of the board's shape and level, with
    the instance fixed, clingo accepts the stored plan, which plays from the start to the goal
    in par actions. Two seeds of each shape at each level."""
    for seed in (shape, shape + 5 * 7):
        p = puzzles.generate("keydoor", level, seed)
        out = keydoor_gen.check_plan(p)
        assert out.status == "sat", (seed, level)
        doors, keys, plan = keydoor_gen._parse(out.atoms, len(p.keys))
        assert (tuple(doors), tuple(keys), tuple(plan)) == (p.doors, p.keys, p.plan)
        assert len(p.plan) == p.par and keydoor.plays(p, list(p.plan))
        wrong = replace(p, plan=p.plan[:-1] + ("left",))  # the last step undone: not the goal
        assert keydoor_gen.check_plan(wrong).status == "unsat"


def test_a_grounding_solved_seed_by_seed_gives_what_solving_every_seed_gives():
    """``Grounding.each`` (the generator stops at the first instance it keeps) answers as
    ``solve_each`` does, seed by seed, and solves no seed the caller does not ask for."""
    constants = KeyDoor(8, 2, 3, (), ()).constants() | {"keys": 3, "horizon": 0}
    constants |= keydoor_gen.rules(SHAPES[0], "very-hard", True)
    seeds = list(range(1, 9))
    every = asp_solve.Grounding(["keydoor"], constants, keydoor_gen.CONFLICT_LIMIT)
    outcomes = every.solve_each(seeds)
    assert [o.status for o in outcomes] == ["sat"] * len(seeds)
    one_by_one = asp_solve.Grounding(["keydoor"], constants, keydoor_gen.CONFLICT_LIMIT)
    solves = []

    class Counted:  # the grounding's control, counting its solve calls
        def __init__(self, ctl):
            self.ctl = ctl

        def __getattr__(self, name):
            return getattr(self.ctl, name)

        def solve(self, **kwargs):
            solves.append(1)
            return self.ctl.solve(**kwargs)

    one_by_one.ctl = Counted(one_by_one.ctl)
    asked = one_by_one.each(seeds)
    assert [next(asked) for _ in range(3)] == outcomes[:3]
    asked.close()
    assert len(solves) == 3
