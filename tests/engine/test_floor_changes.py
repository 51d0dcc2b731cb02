"""A puzzle that changes the floor, in play: stepping on its pedestal says what it would do,
solving it sets the change's cells on the live map once (with a message naming the change and
the cells remembered on the map), it opens no lock, look tells of it, a save keeps the floor's
changes and the changed map, and a recording replays it bit for bit."""

from __future__ import annotations

import copy
from functools import cache

import numpy as np
import pytest

from roguelike import tiles
from roguelike.engine import (
    GameState,
    Message,
    SolvePuzzle,
    Travel,
    describe,
    new_game,
    step,
)
from roguelike.engine.changes import shown_by_map
from roguelike.engine.puzzle_rooms import PuzzleRoom
from roguelike.engine.travel import explored_all
from roguelike.gen.floor import FloorChange
from roguelike.gen.pipeline import generate_floor
from roguelike.recording import Recording, digest, replay
from saves import SaveError, codec
from tests.engine.support import stand_on
from tests.saves.support import pack_as, world_of

#: Every kind of floor change.
KINDS = ("shortcut", "drain", "bridge", "reveal")


@cache
def _world(kind: str) -> GameState:
    """The first monster-free world (by seed) with a floor change of ``kind`` on floor 1..5."""
    for seed in range(40):
        for number in (1, 3, 5):
            fl = generate_floor(seed, number, stop_after="population")
            if any(ch.kind == kind for ch in fl.changes):
                return new_game(seed, total_floors=6, floor=number, monsters=False)
    raise AssertionError(f"no {kind} on floors 1, 3 or 5 of seeds 0..39")


def world(kind: str) -> GameState:
    state = copy.deepcopy(_world(kind))
    room = pedestal(state)
    room.type, room.difficulty, room.instance = "jugs", "easy", None  # a quick puzzle to solve
    return state


def change(state: GameState) -> FloorChange:
    (ch,) = state.floor.changes
    return ch


def pedestal(state: GameState) -> PuzzleRoom:
    ch = change(state)
    return state.puzzles[(ch.x, ch.y)]


def plan(state: GameState) -> tuple:
    p = pedestal(state).puzzle()
    return tuple(p.move_to_json(m) for m in p.solve(p.initial()) or [])


def texts(events: list) -> list[str]:
    return [e.text for e in events if isinstance(e, Message)]


@pytest.mark.parametrize("kind", KINDS)
def test_solving_applies_the_change_once_and_says_so(kind):
    state = world(kind)
    ch = change(state)
    before = state.tiles.copy()
    said = texts(stand_on(state, (ch.x, ch.y)))
    assert any("Solving it" in t and "opens no door" in t for t in said), said
    keys = set(state.keys_held)
    events = step(state, SolvePuzzle(plan(state)))
    assert pedestal(state).solved
    words = " ".join(texts(events))
    name = {"shortcut": "shortcut", "drain": "drains", "bridge": "bridge", "reveal": "map"}
    assert name[kind] in words, words
    assert state.keys_held == keys  # it opens no lock: no key is held for it
    for x, y, t in ch.cells:
        assert before[y, x] != t and state.tiles[y, x] == t and state.explored[y, x]
    changed = np.argwhere(state.tiles != before)
    assert {(int(x), int(y)) for y, x in changed} == {(x, y) for x, y, _ in ch.cells}
    if kind == "reveal":
        assert state.explored[shown_by_map(state.tiles, state.floor.finish)].all()
        fx, fy = state.floor.finish
        assert state.explored[fy, fx]
    # solving it again (the same moves reported) changes nothing and says nothing new
    after, explored = state.tiles.copy(), state.explored.copy()
    again = step(state, SolvePuzzle(plan(state)))
    assert not texts(again) and (state.tiles == after).all()
    assert (state.explored == explored).all()


def test_the_cells_are_what_the_generator_said():
    """A shortcut opens wall into rubble, a bridge spans chasm, a drain empties deep water."""
    was = {"shortcut": tiles.WALL, "bridge": tiles.CHASM, "drain": tiles.DEEP_WATER}
    now = {"shortcut": tiles.RUBBLE, "bridge": tiles.BRIDGE, "drain": tiles.FLOOR}
    for kind, tile in was.items():
        state = world(kind)
        ch = change(state)
        assert ch.cells and all(state.floor.tiles[y, x] == tile for x, y, _ in ch.cells)
        assert all(t == now[kind] for _, _, t in ch.cells)
    assert not change(world("reveal")).cells


def test_look_tells_what_the_pedestal_changes():
    state = world("shortcut")
    ch = change(state)
    state.explored[ch.y, ch.x] = True
    text = describe(state, ch.x, ch.y)
    assert "shortcut" in text and "door" in text


@pytest.mark.parametrize("solved", [False, True])
def test_a_save_keeps_the_floor_changes_and_the_changed_map(solved):
    state = world("shortcut")
    ch = change(state)
    stand_on(state, (ch.x, ch.y))
    if solved:
        step(state, SolvePuzzle(plan(state)))
    loaded = codec.decode(codec.encode(world_of(state), state, [])).state
    assert loaded.floor.changes == state.floor.changes
    assert (loaded.tiles == state.tiles).all() and (loaded.explored == state.explored).all()
    assert loaded.puzzles[(ch.x, ch.y)].solved == solved
    if not solved:  # solving it after the load applies it there
        step(loaded, SolvePuzzle(plan(loaded)))
        assert all(loaded.tiles[y, x] == t for x, y, t in ch.cells)


@pytest.mark.parametrize(
    ("edit", "why"),
    [
        (lambda c: c.update(kind="flood"), "kind"),
        (lambda c: c.update(cells=[[c["x"], c["y"], tiles.WALL]]), "no one can walk on"),
        (lambda c: c.update(key=1), "another key"),
        (lambda c: c.update(cells=[[0, 0]]), "x, y, tile"),
        (lambda c: c.update(room=9999), "room"),
    ],
)
def test_a_doctored_change_is_refused_in_one_line(edit, why):
    state = world("shortcut")
    world_ = world_of(state)
    doc = codec.to_document(world_, state)
    edit(doc["state"]["floor"]["changes"][0])
    with pytest.raises(SaveError, match=why):
        codec.decode(pack_as(world_, state, doc))


def test_a_recording_replays_the_change_bit_for_bit():
    """A fresh game (floor 1 of the first world whose start room holds a reveal), walked to
    the pedestal and the puzzle solved, recorded: the replay ends in the same state, the map
    drawn the same."""
    seed = next(s for s in range(40) if _reveal_on_floor_one(s))
    state = new_game(seed, total_floors=2, monsters=False)
    rec = Recording.begin(state)
    ch = change(state)
    for action in (Travel(ch.x, ch.y),):
        step(state, action)
        rec.add(action, state)
    assert state.player == (ch.x, ch.y)
    solve = SolvePuzzle(plan(state))
    step(state, solve)
    rec.add(solve, state)
    assert pedestal(state).solved and state.explored[shown_by_map(state.tiles, None)].all()
    again, _ = replay(rec)
    assert digest(again) == digest(state)
    assert (again.explored == state.explored).all()


def _reveal_on_floor_one(seed: int) -> bool:
    fl = generate_floor(seed, 1, stop_after="population")
    return any(ch.kind == "reveal" for ch in fl.changes)


def test_an_unsolved_change_is_not_told_as_holding_a_door_shut():
    state = world("shortcut")
    ch = change(state)
    stand_on(state, (ch.x, ch.y))  # visited, left unsolved
    fx, fy = state.floor.finish
    state.explored[fy, fx] = False
    for room in state.puzzles.values():
        room.visited = room.pos == (ch.x, ch.y)
    assert "door shut" not in explored_all(state)
