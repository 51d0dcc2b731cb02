"""Puzzle rooms in the dungeon: which keys are pedestals, and how solving one opens its lock.

The engine replays the moves a screen reports; only a real solution opens the door."""

from __future__ import annotations

import collections
import itertools
from types import SimpleNamespace
from typing import cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike import depth as depth_curve
from roguelike import puzzles, tiles
from roguelike.engine import (
    DoorUnlocked,
    Explore,
    Message,
    PuzzleFound,
    PuzzleSolved,
    SolvePuzzle,
    Use,
    describe,
    new_game,
    puzzle_rooms,
    step,
)
from roguelike.engine.puzzle_rooms import (
    difficulty_for,
    floor_types,
    place_puzzles,
    puzzle_keys,
    puzzle_share,
)
from roguelike.gen.floor import Floor
from roguelike.gen.pipeline import generate_floor
from tests.engine.support import room_of, stand_on, world
from tests.floors import floor


def test_placement_is_a_pure_function_of_the_floor():
    for seed in range(5):
        fl = generate_floor(seed, 2)
        a, b = place_puzzles(fl), place_puzzles(generate_floor(seed, 2))
        assert a == b
        keys = {k.id: (k.x, k.y) for k in fl.keys}
        # a vault's and a floor change's pedestal stand where the floor says
        keys |= {v.key: (v.x, v.y) for v in fl.vaults} | {c.key: (c.x, c.y) for c in fl.changes}
        for p in a:
            assert keys[p.key] == p.pos  # the pedestal is the key's spot
            assert p.type in puzzles.TYPES and p.difficulty in puzzles.DIFFICULTIES


def test_more_puzzles_deeper_but_never_more_than_two_a_floor():
    """What place_puzzles reads of a floor (its seed, number, rooms and keys) is all the draw
    sees: stub floors, many of them, cheaply. The share grows with depth, the cap holds it to
    two (and every floor with a key has one)."""
    assert puzzle_share(1) < puzzle_share(3) < puzzle_share(5) <= 0.8

    def counts(number: int) -> list[int]:
        return [len(place_puzzles(_stub_floor(seed, number, 5))) for seed in range(150)]

    first, fifth = counts(1), counts(5)
    assert set(first) | set(fifth) <= {1, 2}
    assert sum(first) < sum(fifth)
    assert 1 in first and 2 in fifth


@pytest.mark.slow
def test_real_floors_hold_at_most_two_pedestals_besides_their_seals():
    for seed in range(20):
        for number in (1, 3, 5):
            fl = floor(seed, number)
            rooms = place_puzzles(fl)
            seals = {v.key for v in fl.vaults}
            keyed = [p for p in rooms if p.key not in seals]
            assert 1 <= len(keyed) <= depth_curve.PUZZLE_MOST.at(number)
            assert len({p.type for p in rooms}) == len(rooms)


def _stub_floor(seed: int, number: int, n_keys: int, vaults: int = 0) -> Floor:
    """What place_puzzles reads of a floor (seed, number, rooms, corridors, keys, vaults),
    without the cost of generating one: a way of rooms from the start (0) to the stairs (1)
    with a lock on every other corridor, and ``n_keys`` side rooms behind locked corridors
    off it, each holding a key."""
    rooms = [SimpleNamespace(id=i, depth=i % 9) for i in range(2 * n_keys + 2 + vaults)]
    edges = []
    keys = []
    way = [0, *range(2, 2 + n_keys), 1]
    for i, (a, b) in enumerate(itertools.pairwise(way)):
        edges.append(
            SimpleNamespace(a=a, b=b, lock=(i + 1 if i % 2 and i < n_keys else None), loop=False)
        )
    locked = {e.lock for e in edges if e.lock is not None}
    for i in range(n_keys):
        room = 2 + n_keys + i
        lock = None if i + 1 in locked else i + 1
        edges.append(SimpleNamespace(a=2 + i, b=room, lock=lock, loop=False))
        keys.append(SimpleNamespace(id=i + 1, x=i, y=0, room=room))
    seals = [
        SimpleNamespace(key=100 + v, x=50 + v, y=1, room=2, vault=2 + 2 * n_keys + v)
        for v in range(vaults)
    ]
    return cast(
        Floor,
        SimpleNamespace(
            seed=seed,
            number=number,
            topology=SimpleNamespace(rooms=rooms, edges=edges, start=0, finish=1),
            keys=keys,
            vaults=seals,
            changes=[],
        ),
    )


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**55 - 1),
    number=st.integers(1, 10),
    n_keys=st.integers(1, 10),
    vaults=st.integers(0, 2),
)
def test_no_floor_holds_one_type_twice(seed, number, n_keys, vaults):
    fl = _stub_floor(seed, number, n_keys, vaults)
    rooms = place_puzzles(fl)
    assert len({p.type for p in rooms}) == len(rooms)
    assert 1 <= len(rooms) - vaults <= depth_curve.PUZZLE_MOST.at(number)
    keys = [p.key for p in rooms[: len(rooms) - vaults]]
    assert keys == sorted(keys)
    assert rooms == place_puzzles(_stub_floor(seed, number, n_keys, vaults))  # deterministic


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**55 - 1))
def test_the_first_three_floors_deal_all_six_types(seed):
    """The deck: floors 1-3, two puzzles each, meet every type once (so a run's first floors
    never repeat a type), and the order differs between worlds."""
    dealt = [t for n in (1, 2, 3) for t in floor_types(seed, n, 2)]
    assert sorted(dealt) == sorted(puzzles.TYPES)
    for n in range(1, 12):
        assert len(set(floor_types(seed, n, 2))) == 2


def test_worlds_meet_the_types_in_different_orders():
    firsts = collections.Counter(floor_types(seed, 1, 1)[0] for seed in range(120))
    assert set(firsts) == set(puzzles.TYPES)  # any type may come first


def test_the_gate_gets_the_first_puzzle_and_a_side_room_the_second():
    fl = _stub_floor(7, 3, 4)
    gates = {
        e.lock
        for e in fl.topology.edges
        if e.lock is not None and e.b not in {k.room for k in fl.keys}
    }
    first, second = puzzle_keys(fl, 2)
    assert first in gates and second not in gates
    # the gate nearest the stairs: the deepest locked corridor on the way
    on_way = [e for e in fl.topology.edges if e.lock in gates]
    assert first == max(on_way, key=lambda e: fl.topology.rooms[e.b].depth).lock


def test_real_floors_put_the_first_puzzle_on_the_way_to_the_stairs():
    seen = 0
    for seed in range(6):
        fl = floor(seed, 3)
        topo = fl.topology
        way = puzzle_rooms._tree_path(topo.edges, topo.start, topo.finish)
        gate_keys = {e.lock for e in topo.edges if e.lock is not None and (e.a, e.b) in way}
        if gate_keys:
            assert puzzle_keys(fl, 1)[0] in gate_keys
            seen += 1
    assert seen >= 3


def test_every_type_still_comes_up():
    seen = collections.Counter(
        p.type for seed in range(60) for p in place_puzzles(_stub_floor(seed, 5, 10))
    )
    assert set(seen) == set(puzzles.TYPES)


def test_difficulty_follows_floor_and_room_depth():
    order = puzzles.DIFFICULTIES.index
    assert difficulty_for(1, 0) == "easy"
    for number in range(1, 9):
        for depth in range(0, 12):
            d = order(difficulty_for(number, depth))
            assert d <= order(difficulty_for(number + 1, depth))
            assert d <= order(difficulty_for(number, depth + 1))
    assert difficulty_for(9, 12) == "very-hard"


def test_a_pedestal_stands_where_its_key_would_lie():
    state = world()
    assert state.puzzles
    for pos, room in state.puzzles.items():
        assert state.tiles[pos[1], pos[0]] == tiles.PEDESTAL
        assert pos not in state.keys_lying and room.key not in state.keys_lying.values()
    changes = {c.key for c in state.floor.changes}  # a floor change's pedestal holds no key
    lying = set(state.keys_lying.values()) | {p.key for p in state.puzzles.values()}
    assert lying - changes == {k.id for k in state.floor.keys}


def test_solving_the_puzzle_opens_its_lock_and_nothing_else():
    state = world()
    room = room_of(state)
    events = stand_on(state, room.pos)
    assert PuzzleFound(*room.pos) in events
    assert any(isinstance(e, Message) and room.type in e.text for e in events)
    door = next(d for d in state.floor.doors if d.lock == room.key)
    locked = {(d.x, d.y) for d in state.floor.doors if d.lock is not None}
    p = room.puzzle()
    plan = p.solve(p.initial())
    assert plan and len(plan) == p.par
    moves = tuple(p.move_to_json(m) for m in plan)
    # half the solution: progress kept, the door still locked
    events = step(state, SolvePuzzle(moves[: len(moves) // 2]))
    assert not room.solved and room.moves == list(moves[: len(moves) // 2])
    assert tiles.lock_of(int(state.tiles[door.y, door.x])) == room.key
    # the whole solution
    events = step(state, SolvePuzzle(moves, hints_used=0))
    assert room.solved and state.stats.puzzles_solved == 1
    assert PuzzleSolved(room.key, *room.pos) in events
    assert DoorUnlocked(room.key, door.x, door.y) in events
    assert state.tiles[door.y, door.x] == tiles.DOOR_OPEN and state.explored[door.y, door.x]
    for x, y in locked - {(door.x, door.y)}:
        assert tiles.lock_of(int(state.tiles[y, x])) is not None
    assert "solved" in describe(state, *room.pos)
    # solving again changes nothing
    again = step(state, SolvePuzzle(moves))
    assert state.stats.puzzles_solved == 1 and not any(isinstance(e, PuzzleSolved) for e in again)


def test_illegal_or_foreign_moves_are_refused_without_progress():
    state = world()
    room = room_of(state)
    stand_on(state, room.pos)
    turn = state.turn
    events = step(state, SolvePuzzle(("nonsense", 99, None)))
    assert [e for e in events if isinstance(e, Message)][0].text.startswith("The pedestal refuses")
    assert room.moves == [] and not room.solved and state.turn == turn
    # away from the pedestal there is nothing to solve
    stand_on(state, state.floor.spawn)  # type: ignore[arg-type]
    p = room.puzzle()
    moves = tuple(p.move_to_json(m) for m in p.solve(p.initial()))
    events = step(state, SolvePuzzle(moves))
    assert not room.solved and events == [Message("There is no puzzle here.")]


@pytest.mark.parametrize("coins, spent, ok", [(0, 1, False), (2, 3, False), (2, 2, True)])
def test_hints_cost_coins_the_player_has(coins, spent, ok):
    state = world()
    room = room_of(state)
    stand_on(state, room.pos)
    state.hint_coins = coins
    step(state, SolvePuzzle((), hints_used=spent, coins_spent=spent))
    assert state.hint_coins == (coins - spent if ok else coins)
    assert state.stats.hints_used == (spent if ok else 0)
    assert room.hints_used == (spent if ok else 0)


def test_every_floor_with_pedestals_can_still_be_finished():
    """Solve each pedestal with its solver, then explore: every key is taken, every door
    opens and the stairs are found. Puzzle keys stand in for lying keys without breaking the
    floor's proof."""
    checked = 0
    for seed in range(8):
        state = new_game(seed, preset="small", monsters=False)
        if not state.puzzles:
            continue
        checked += 1
        for room in state.puzzles.values():
            state.player = room.pos
            p = room.puzzle()
            step(state, SolvePuzzle(tuple(p.move_to_json(m) for m in p.solve(p.initial()))))
            assert room.solved
        state.player = state.floor.spawn  # type: ignore[assignment]
        state.update_view()
        for _ in range(100):
            turn = state.turn
            step(state, Explore())
            if state.turn == turn:
                break
        assert not any(tiles.lock_of(int(t)) for t in np.unique(state.tiles)), seed
        assert state.keys_held == {k.id for k in state.floor.keys}
        fx, fy = state.floor.finish  # type: ignore[misc]
        assert state.explored[fy, fx]
    assert checked >= 3


def test_a_look_at_the_puzzle_and_straight_back_costs_no_turn():
    state = world()
    room = room_of(state)
    stand_on(state, room.pos)
    turn = state.turn
    step(state, SolvePuzzle(()))
    assert state.turn == turn
    p = room.puzzle()
    first = p.move_to_json(p.solve(p.initial())[0])
    step(state, SolvePuzzle((first,)))
    assert state.turn == turn + 1 and room.moves == [first]


def test_blinking_never_lands_in_a_doorway_or_on_a_pedestal():
    for seed in range(6):
        state = new_game(seed, preset="small", monsters=False)
        walk = np.argwhere(tiles.WALKABLE[state.tiles])
        rng = np.random.default_rng(seed)
        for y, x in walk[rng.choice(len(walk), 15, replace=False)]:
            state.player = (int(x), int(y))
            state.update_view()
            state.inventory["blink scroll"] = 1
            step(state, Use("blink scroll"))
            px, py = state.player
            assert state.tiles[py, px] != tiles.DOOR and state.player not in state.puzzles


def test_resets_reported_are_kept_with_the_pedestal():
    state = world()
    room = room_of(state)
    stand_on(state, room.pos)
    turn = state.turn
    step(state, SolvePuzzle((), resets=2))
    assert room.resets == 2 and state.turn == turn + 1
    events = step(state, SolvePuzzle((), resets=-1))
    assert room.resets == 2
    assert "never reset a negative number of times" in " ".join(map(str, events))


@pytest.mark.parametrize("seed", [3, 5])
def test_a_pedestal_read_from_a_save_holds_what_a_generated_one_knows(seed):
    """An instance read back from its JSON (a loaded save) is warmed at once: its optimal line
    from the start is known again, so hints on it are exact from the first one."""
    from roguelike.engine.puzzle_rooms import LIVE, PuzzleRoom

    made = puzzles.generate("sliding", "very-hard", seed)
    room = PuzzleRoom(1, 0, 0, "sliding", "very-hard", seed, instance=made.to_json())
    LIVE.clear()
    cold = puzzles.from_json(made.to_json())
    assert cold.known_distance(cold.initial()) is None  # what warming has to make up for
    p = room.puzzle()
    assert p == made and p.known_distance(p.initial()) == made.par
    a = puzzles.advise(p, p.initial())
    assert a.exact and a.moves_left == made.par
