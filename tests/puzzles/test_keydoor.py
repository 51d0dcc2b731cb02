"""Keydoor: the measures (drop matters, the greedy player, optimal plans), the corridor rule (a
door is crossed both ways) in Python and in clingo, hand-written states refused when they do
not hold together, the generator's stated targets on a fixed sample of seeds, and the searches'
tables and A* answering as the rules and the breadth-first search do, on any small board."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asp import solve as asp_solve
from roguelike.puzzles import IllegalMove, PuzzleFormatError, keydoor, keydoor_gen
from roguelike.puzzles import keydoor_measures as measuring
from roguelike.puzzles.base import bfs_plan
from roguelike.puzzles.keydoor import KeyDoor

# rooms 1..8, no branch: key 1 in room 2 opens the goal's door (room 8), key 2 in room 6 opens
# the door of room 7. Best: carry key 1 to room 5 and put it down, take key 2, open door 2,
# fetch key 1 back from room 5 (15 actions); without dropping, key 1 waits in room 2 (19).
FERRY = KeyDoor(8, 0, 1, (8, 7), (2, 6))
# rooms 1..4, branch room 5 off room 2: key 1 in the branch opens the door of room 3
PLAIN = KeyDoor(4, 1, 2, (3,), (5,))


def test_measures_when_drop_is_needed():
    m = measuring.measures(FERRY)
    assert (m.par, m.no_drop, m.greedy, m.optimal_plans) == (15, 19, 19, 1)
    assert m.drop_matters and m.greedy_misses
    assert "drop" in FERRY.solve(FERRY.initial())
    # the greedy player walks past key 1, uses key 2, then walks back for key 1
    assert measuring.greedy_plan(FERRY) == (
        ["right"] * 5 + ["take", "open"] + ["left"] * 4 + ["take"] + ["right"] * 5
    ) + ["open", "right"]


def test_measures_when_drop_is_not_needed():
    m = measuring.measures(PLAIN)
    assert (m.par, m.no_drop, m.greedy, m.optimal_plans) == (7, 7, 7, 1)
    assert not m.drop_matters and not m.greedy_misses


def test_greedy_takes_the_nearest_usable_key():
    # key 1 (room 2) opens the goal's door (room 6), key 2 (room 3) the door of room 4: the
    # nearest key, key 1, cannot be used yet, so greedy walks past it to key 2, opens door 2,
    # comes back for key 1; here that is also the optimum (room 3, where key 1 would wait,
    # holds key 2, and putting key 1 down in room 2 again gains nothing)
    p = KeyDoor(6, 0, 1, (6, 4), (2, 3))
    assert measuring.greedy_plan(p) == ["right", "right", "take", "open", "left", "take"] + [
        "right",
        "right",
        "right",
        "open",
        "right",
    ]
    m = measuring.measures(p)
    assert m.greedy == m.par == 11 and not m.greedy_misses


def brute_count(p: KeyDoor, s, depth: int) -> int:
    """Plans of exactly ``depth`` actions from ``s`` that first reach the goal at their end,
    by plain recursion (no breadth-first search)."""

    @cache
    def count(t, d: int) -> int:
        if p.is_solved(t):
            return int(d == 0)
        if d == 0:
            return 0
        return sum(count(p.apply(t, m), d - 1) for m in p.moves(t))

    return count(s, depth)


@pytest.mark.parametrize(
    "p",
    [
        FERRY,
        PLAIN,
        KeyDoor(6, 2, 3, (5,), (7,)),
        KeyDoor(7, 2, 2, (6, 4), (3, 8)),
        KeyDoor(5, 0, 1, (), ()),
    ],
)
def test_optimal_plans_are_counted_as_a_plain_enumeration_does(p):
    par = len(p.solve(p.initial()))
    assert measuring.count_optimal_plans(p) == brute_count(p, p.initial(), par)


def test_optimal_plans_are_capped_and_several_are_found():
    # the key may wait in room 2, 3 or 4 before it is needed: several plans of the same length
    p = KeyDoor(6, 0, 1, (6, 5), (2, 4))
    n = brute_count(p, p.initial(), len(p.solve(p.initial())))
    assert n > 1
    assert measuring.count_optimal_plans(p) == n
    assert measuring.count_optimal_plans(p, cap=1) == 1


# --- the corridor rule: a door stands between two rooms and is crossed both ways ------------
def test_an_open_door_is_crossed_both_ways_and_a_closed_one_neither():
    p = KeyDoor(5, 0, 1, (3,), (2,))
    s = p.initial()
    for a in ("right", "take", "open", "right", "right"):
        s = p.apply(s, a)
    assert s[0] == 4
    s = p.apply(p.apply(s, "left"), "left")  # back through the open door
    assert s[0] == 2
    # a hand-written state: the player stands beyond door 1, still locked, holding key 1
    beyond = p.state_from_json({"room": 3, "held": 1, "keys": [0], "opened": []})
    with pytest.raises(IllegalMove, match="locked"):
        p.apply(beyond, "left")  # would cross the locked door
    assert p.apply(beyond, "right")[0] == 4  # no door between rooms 3 and 4
    opened = p.apply(beyond, "open")  # from its far side
    assert p.apply(opened, "left")[0] == 2


def test_the_branch_door_is_crossed_both_ways():
    p = KeyDoor(4, 2, 2, (5,), (3,))  # door 1 at the entrance of the first branch room
    inside = p.state_from_json({"room": 5, "held": 0, "keys": [3], "opened": []})
    with pytest.raises(IllegalMove, match="locked"):
        p.apply(inside, "leave")
    assert p.apply(inside, "right")[0] == 6


def clingo_accepts(p: KeyDoor, actions: list[str], extra: int = 0) -> bool:
    """Does clingo find a plan within len(actions) + extra that starts with ``actions``?"""
    constants = p.constants() | {"chain": 0, "horizon": len(actions) + extra}
    facts = p.encoding_facts()
    facts += [f"given_do({t},{a})." for t, a in enumerate(actions)]
    out = asp_solve.solve(["keydoor"], constants, [1], 100_000, facts)
    assert out.status != "unknown"
    return out.status == "sat"


#: Pairs of actions in a row that the encoding's redundant rules cut (a shorter plan beats them)
UNDO = {("left", "right"), ("right", "left"), ("enter", "leave"), ("leave", "enter")}
UNDO |= {("take", "drop"), ("drop", "take")}


def undoes(plan: list[str]) -> bool:
    return any((a, b) in UNDO for a, b in zip(plan, plan[1:], strict=False))


@pytest.mark.parametrize("difficulty", ["medium", "hard", "very-hard"])
def test_clingo_and_python_agree_on_every_action_along_random_walks(difficulty):
    """From states reached by random legal walks, each action Python allows, followed by the
    Python optimum, is a whole plan clingo accepts (unless two actions in a row undo each
    other, which the encoding cuts as never optimal); each action Python refuses cannot be
    continued in clingo at all."""
    rng = np.random.default_rng(13)
    checked = 0
    for seed in range(3):
        p = keydoor_gen.generate(difficulty, seed)
        for _ in range(3):
            s, walk = p.initial(), []
            for _ in range(int(rng.integers(3, 12))):
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
                continue
            for a in keydoor.ACTIONS:
                if a in p.moves(s):
                    rest = p.solve(p.apply(s, a))
                    whole = walk + [a] + (rest or [])
                    if rest is not None and not undoes(whole):
                        assert clingo_accepts(p, whole)
                        checked += 1
                else:
                    assert not clingo_accepts(p, walk + [a], 30)
                    checked += 1
    assert checked >= 40


# --- hand-written states and configs --------------------------------------------------------
TWO = KeyDoor(6, 2, 2, (4, 8), (3, 7))


@pytest.mark.parametrize(
    ("state", "says"),
    [
        ({"room": 1, "held": 1, "keys": [3, 7], "opened": []}, "both held and lying"),
        ({"room": 1, "held": 1, "keys": [0, 7], "opened": [1]}, "used up"),
        ({"room": 1, "held": 0, "keys": [3, 7], "opened": [1]}, "used up"),
        ({"room": 1, "held": 0, "keys": [3, 9], "opened": []}, "does not exist"),
        ({"room": 1, "held": 0, "keys": [3, 3], "opened": []}, "two keys"),
        ({"room": 1, "held": 0, "keys": [3, 7], "opened": [3]}, "door 3 does not exist"),
        ({"room": 1, "held": 0, "keys": [0, 0], "opened": [1, 1]}, "twice"),
        ({"room": 1, "held": 3, "keys": [3, 7], "opened": []}, "held must be"),
        ({"room": 9, "held": 0, "keys": [3, 7], "opened": []}, "room 9"),
        ({"room": "1", "held": 0, "keys": [3, 7], "opened": []}, "room must be an integer"),
        ({"room": True, "held": 0, "keys": [3, 7], "opened": []}, "room must be an integer"),
        ({"room": 1, "held": False, "keys": [3, 7], "opened": []}, "held must be an integer"),
        ({"room": 1, "held": 0, "keys": [3, True], "opened": []}, "list of integers"),
        ({"room": 1, "held": 0, "keys": [3], "opened": []}, "each of the 2 keys"),
        ({"room": 1, "held": 0, "keys": [3, 7]}, "missing"),
    ],
)
def test_an_inconsistent_state_is_refused(state, says):
    with pytest.raises(PuzzleFormatError, match=says):
        TWO.state_from_json(state)


def test_a_consistent_state_is_read_back():
    s = (5, 0, (0, 7), 1)
    assert TWO.state_from_json(TWO.state_to_json(s)) == s


def doc(**config) -> dict:
    base = {"rooms": 4, "branch": 1, "junction": 2, "doors": [3], "keys": [5]}
    return {
        "format": 1,
        "type": "keydoor",
        "difficulty": "easy",
        "par": 7,
        "config": base | config,
    }


@pytest.mark.parametrize(
    ("config", "says"),
    [
        ({"rooms": 12, "branch": 5}, "at most 16 rooms"),
        ({"rooms": 9, "doors": [3, 4, 5, 6], "keys": [2, 5, 6, 7]}, "4 keys: at most"),
        ({"rooms": True}, "rooms must be an integer"),
        ({"junction": 2.0}, "junction must be an integer"),
        ({"doors": [1], "keys": [3]}, "start has no entrance"),
        ({"plan": ["right", "right", "right"]}, "does not reach the goal"),
        ({"plan": ["right", "enter", "take", "leave", "open", "right", "jump"]}, "unknown action"),
        ({"plan": ["right", "enter", "take", "leave", "drop", "take", "open"]}, "does not reach"),
    ],
)
def test_a_bad_config_is_refused(config, says):
    with pytest.raises(PuzzleFormatError, match=says):
        KeyDoor.from_json(doc(**config))


def test_a_plan_is_checked_and_a_good_one_kept():
    plan = ["right", "enter", "take", "leave", "open", "right", "right"]
    assert KeyDoor.from_json(doc(plan=plan)).plan == tuple(plan)
    assert KeyDoor.from_json(doc()).plan == ()


# --- the generator's targets ----------------------------------------------------------------
def test_very_hard_instances_need_a_drop_and_beat_the_greedy_player():
    """The generator keeps only very-hard instances of the thesis's shape where drop matters
    (its docstring), so the greedy player, who drops no key it may still need, misses par on
    every one of them (seeds 0, 5, 10, 15 draw that shape)."""
    for seed in range(0, 20, len(keydoor.SHAPES)):
        m = measuring.measures(keydoor_gen.generate("very-hard", seed))
        assert m.drop_matters and m.greedy_misses


def test_hard_instances_sometimes_need_a_drop():
    """At hard, the encoding's ferry rule makes drop matter in most instances (not filtered):
    on seeds 0..7, in at least half of them."""
    ms = [measuring.measures(keydoor_gen.generate("hard", seed)) for seed in range(0, 40, 5)]
    assert sum(m.drop_matters for m in ms) >= 4


@pytest.mark.parametrize("p", [KeyDoor(5, 0, 1, (3,), (2,)), KeyDoor(4, 2, 2, (5, 3), (6, 2))])
def test_the_move_tables_agree_with_the_rules_in_words(p):
    """``moves`` (from tables) allows exactly the actions ``apply`` allows, in every state of
    a small corridor, consistent or not."""
    total, n = p.rooms + p.branch, len(p.keys)
    for room in range(1, total + 1):
        for held in range(n + 1):
            for where in itertools.product(range(total + 1), repeat=n):
                for opened in range(1 << n):
                    s = (room, held, where, opened)
                    assert p.moves(s) == [a for a in keydoor.ACTIONS if p._why_not(s, a) is None]


@st.composite
def boards(draw: st.DrawFn) -> KeyDoor:
    """A small board of any layout and rules the class accepts (consistent, maybe unsolvable):
    one or two branches or none, one to three keys, a one-key hand or a bag, doors that keep
    their key or eat it."""
    rooms = draw(st.integers(2, 6))
    branch = draw(st.integers(0, 3))
    junction = draw(st.integers(1, rooms - 1)) if branch else 0
    spare = [j for j in range(1, rooms) if j != junction]
    branch2 = draw(st.integers(0, 2)) if branch and spare else 0
    junction2 = draw(st.sampled_from(spare)) if branch2 else 0
    total = rooms + branch + branch2
    k = draw(st.integers(1, min(3, total - 1)))
    doors = draw(st.lists(st.integers(2, total), min_size=k, max_size=k, unique=True))
    keys = draw(st.lists(st.integers(1, total), min_size=k, max_size=k, unique=True))
    keeps = draw(st.lists(st.integers(1, k), unique=True))
    hand = draw(st.integers(1, k))
    return KeyDoor(
        rooms, branch, junction, tuple(doors), tuple(keys), (), "easy", 0, branch2, junction2,
        hand, tuple(sorted(keeps)),
    )  # fmt: skip


def walk(p: KeyDoor, choices: list[int]) -> list:
    """The states of a walk from the start, one listed move after another."""
    s, states = p.initial(), [p.initial()]
    for c in choices:
        moves = p.moves(s)
        if not moves:
            break
        s = p.apply(s, moves[c % len(moves)])
        states.append(s)
    return states


@settings(max_examples=300, deadline=None)
@given(p=boards(), choices=st.lists(st.integers(0, 6), max_size=20))
def test_the_searches_tables_and_a_star_answer_as_the_rules_and_the_breadth_first_search(
    p, choices
):
    """From states a player reaches: ``move_states`` lists ``moves`` with their ``_step``
    states; ``solve`` (A*'s length first, then a pruned search) gives the plain breadth-first
    search's plan; ``distance`` (A*) is its length or None, and None past its bound; so is the
    length without ``drop``; the lower bound never overestimates and moves by one at most per
    action."""
    for s in walk(p, choices):
        assert p.move_states(s) == [(m, p._step(s, m)) for m in p.moves(s)]
        plan = p.solve(s)
        assert plan == bfs_plan(s, p.moves, p._step, p.is_solved)
        d = None if plan is None else len(plan)
        assert p.distance(s) == d
        blind = measuring.no_drop_plan(p, s)
        assert measuring.no_drop_distance(p, s) == (None if blind is None else len(blind))
        if d is not None:
            assert p.lower_bound(s) <= d
            assert p.distance(s, d) == d and (d == 0 or p.distance(s, d - 1) is None)
        for _, t in p.move_states(s):
            assert p.lower_bound(s) <= 1 + p.lower_bound(t)
