"""The game core of play: field of view, and the turn engine driven over real floors."""

from __future__ import annotations

import copy
from collections import deque
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import ndimage

from roguelike import seeds, tiles
from roguelike.engine import (
    Bumped,
    Descend,
    Descended,
    DoorOpened,
    DoorUnlocked,
    Event,
    GameState,
    KeyTaken,
    Message,
    Move,
    Moved,
    PickUp,
    Wait,
    Won,
    compute_fov,
    new_game,
    step,
)
from roguelike.gen.pipeline import generate_floor

DIRS8 = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0)]

# --- field of view --------------------------------------------------------------------------


@st.composite
def maps(draw):
    """A small random map of transparent and opaque cells."""
    h = draw(st.integers(3, 14))
    w = draw(st.integers(3, 14))
    density = draw(st.sampled_from([0.0, 0.1, 0.25, 0.4]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    return rng.random((h, w)) >= density


@settings(max_examples=150)
@given(maps(), st.sampled_from([None, 3, 6]))
def test_fov_is_symmetric_between_transparent_cells(transparent, radius):
    ys, xs = np.nonzero(transparent)
    cells = list(zip(xs.tolist(), ys.tolist(), strict=True))
    seen = {c: compute_fov(transparent, c, radius) for c in cells}
    for ax, ay in cells:
        for bx, by in cells:
            assert seen[(ax, ay)][by, bx] == seen[(bx, by)][ay, ax], ((ax, ay), (bx, by))


@settings(max_examples=100)
@given(maps(), st.data())
def test_fov_sees_origin_and_its_neighbours_and_respects_radius(transparent, data):
    h, w = transparent.shape
    x = data.draw(st.integers(0, w - 1))
    y = data.draw(st.integers(0, h - 1))
    radius = data.draw(st.integers(1, 6))
    vis = compute_fov(transparent, (x, y), radius)
    for dx, dy in [(0, 0), *DIRS8]:
        if 0 <= x + dx < w and 0 <= y + dy < h and dx * dx + dy * dy <= radius * radius:
            assert vis[y + dy, x + dx]
    gy, gx = np.mgrid[0:h, 0:w]
    assert not (vis & ((gx - x) ** 2 + (gy - y) ** 2 > radius * radius)).any()


@settings(max_examples=100)
@given(st.data())
def test_fov_shows_every_wall_of_a_closed_room_and_nothing_beyond(data):
    h, w = 16, 20
    x0 = data.draw(st.integers(0, 8))
    y0 = data.draw(st.integers(0, 6))
    x1 = data.draw(st.integers(x0 + 2, w - 1))
    y1 = data.draw(st.integers(y0 + 2, h - 1))
    transparent = np.ones((h, w), dtype=bool)  # open ground outside the room, too
    transparent[y0, x0 : x1 + 1] = transparent[y1, x0 : x1 + 1] = False
    transparent[y0 : y1 + 1, x0] = transparent[y0 : y1 + 1, x1] = False
    x = data.draw(st.integers(x0 + 1, x1 - 1))
    y = data.draw(st.integers(y0 + 1, y1 - 1))
    vis = compute_fov(transparent, (x, y))
    room = np.zeros((h, w), dtype=bool)
    room[y0 : y1 + 1, x0 : x1 + 1] = True
    assert vis[room].all()  # the floor and every wall of a convex room
    assert not vis[~room].any()  # nothing through the walls


def test_fov_a_pillar_casts_a_shadow():
    transparent = np.ones((9, 9), dtype=bool)
    transparent[4, 5] = False  # a pillar just east of the viewer at (4, 4)
    vis = compute_fov(transparent, (4, 4))
    assert vis[4, 5]  # the pillar itself
    shadow = {(6, 4), (7, 3), (7, 4), (7, 5), (8, 3), (8, 4), (8, 5)}  # a cone behind it
    hidden = {(int(x), int(y)) for y, x in np.argwhere(~vis)}
    assert hidden == shadow


# --- helpers that play real floors ----------------------------------------------------------


def passable(state: GameState, target: tuple[int, int]) -> np.ndarray:
    """Where a player may plan to go: walkable cells, locked doors whose key they hold, and
    the target itself."""
    ok = tiles.WALKABLE[state.tiles].copy()
    for k in state.keys_held:
        ok |= state.tiles == tiles.locked_door(k)
    ok[target[1], target[0]] = True
    return ok


def bfs_path(state: GameState, target: tuple[int, int]) -> list[tuple[int, int]]:
    """A shortest 8-direction path from the player to ``target`` obeying the corner rule
    (a diagonal only when both orthogonal cells beside it are walkable)."""
    ok = passable(state, target)
    walk = tiles.WALKABLE[state.tiles]
    h, w = ok.shape
    start = state.player
    prev: dict[tuple[int, int], tuple[int, int] | None] = {start: None}
    queue = deque([start])
    while queue:
        x, y = queue.popleft()
        if (x, y) == target:
            break
        for dx, dy in DIRS8:
            nx, ny = x + dx, y + dy
            if not (0 <= nx < w and 0 <= ny < h) or not ok[ny, nx] or (nx, ny) in prev:
                continue
            if dx and dy and not (walk[y, nx] and walk[ny, x]):
                continue
            prev[(nx, ny)] = (x, y)
            queue.append((nx, ny))
    assert target in prev, f"no path from {start} to {target}"
    path: list[tuple[int, int]] = []
    cur: tuple[int, int] | None = target
    while cur is not None and cur != start:
        path.append(cur)
        cur = prev[cur]
    return path[::-1]


def walk_to(state: GameState, target: tuple[int, int], *, stop_before: bool = False) -> list:
    """Step along a BFS path until the player stands on ``target`` (or next to it with
    ``stop_before``); doors on the way are opened by walking into them (the path is planned
    again after each)."""
    events: list[Event] = []
    for _ in range(100):
        path = bfs_path(state, target)
        if stop_before:
            path = path[:-1]
        for nx, ny in path:
            x, y = state.player
            turn = state.turn
            got = step(state, Move(nx - x, ny - y))
            assert not any(isinstance(e, Bumped) for e in got), got
            assert state.turn == turn + 1
            events += got
            if state.player != (nx, ny):  # a door opened: plan again
                break
        else:
            return events
    raise AssertionError("walk did not arrive")


def events_of(events: list, kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def lock_doors(state: GameState) -> dict[int, tuple[int, int]]:
    return {d.lock: (d.x, d.y) for d in state.floor.doors if d.lock is not None}


def play_floor(state: GameState) -> list:
    """Take every key in order, unlocking doors on the way, then walk to the stairs."""
    events: list[Event] = []
    for k in sorted(k.id for k in state.floor.keys):
        spot = next(s for s in state.floor.keys if s.id == k)
        events += walk_to(state, (spot.x, spot.y))
    events += walk_to(state, state.floor.finish)
    return events


SEEDS = [0, 1, 2, 7, 42]


@cache
def _fresh(seed: int, total_floors: int) -> GameState:
    return new_game(seed, total_floors=total_floors, monsters=False, puzzles=False)


def fresh(seed: int, total_floors: int = 3) -> GameState:
    return copy.deepcopy(_fresh(seed, total_floors))


# --- the engine on real floors --------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_a_floor_played_key_by_key_door_by_door_to_the_stairs(seed):
    state = fresh(seed)
    assert state.player == state.floor.spawn and state.number == 1 and state.turn == 0
    doors = lock_doors(state)
    keys = sorted(k.id for k in state.floor.keys)
    assert keys and sorted(doors) == keys

    # door A refuses a player without key A, naming its colour, and costs no turn
    walk_to(state, doors[1], stop_before=True)
    (x, y), (dx, dy) = state.player, doors[1]
    turn = state.turn
    got = step(state, Move(dx - x, dy - y))
    assert got[0] == Bumped(dx, dy, "door locked with key A")
    assert any(isinstance(e, Message) and "red" in e.text for e in got)
    assert state.tiles[dy, dx] == tiles.locked_door(1) and state.turn == turn
    assert state.player == (x, y)

    taken: list[int] = []
    unlocked: list[DoorUnlocked] = []
    for k in keys:
        spot = next(s for s in state.floor.keys if s.id == k)
        events = walk_to(state, (spot.x, spot.y))
        unlocked += events_of(events, DoorUnlocked)
        assert events_of(events, KeyTaken) == [KeyTaken(k)]
        taken.append(k)
        assert state.keys_held == set(taken)  # keys are kept after unlocking
        assert (spot.x, spot.y) not in state.keys_lying
    events = walk_to(state, state.floor.finish)
    unlocked += events_of(events, DoorUnlocked)
    # every lock stands on the way to the stairs, each opened once, with its own key
    assert sorted(u.key for u in unlocked) == keys
    for u in unlocked:
        assert doors[u.key] == (u.x, u.y)
        assert state.tiles[u.y, u.x] == tiles.DOOR_OPEN
    assert state.keys_held == set(keys)

    # the explored mask holds everything seen, including the path walked
    assert state.visible[state.player[1], state.player[0]]
    assert not (state.visible & ~state.explored).any()
    assert state.explored[state.floor.spawn[1], state.floor.spawn[0]]

    got = step(state, Descend())
    assert got[0] == Descended(2)
    assert state.number == 2 and not state.floor.last
    assert state.player == state.floor.spawn
    assert state.keys_held == set()
    # a world without puzzles lays each key on the floor, a vault's on its pedestal's cell
    lying = {(k.x, k.y): k.id for k in state.floor.keys}
    assert state.keys_lying == lying | {(v.x, v.y): v.key for v in state.floor.vaults}
    assert state.explored.sum() == state.visible.sum() > 0


def test_the_last_floor_is_won_at_its_exit():
    state = fresh(3, total_floors=1)
    assert state.floor.last
    fx, fy = state.floor.finish
    assert state.tiles[fy, fx] == tiles.EXIT
    play_floor(state)
    got = step(state, Descend())
    assert got[0] == Won() and state.won
    turn = state.turn
    assert events_of(step(state, Wait()), Message) and state.turn == turn


def test_the_second_floor_of_a_run_is_the_last_when_the_run_has_two():
    state = fresh(5, total_floors=2)
    play_floor(state)
    assert step(state, Descend())[0] == Descended(2)
    assert state.floor.last
    play_floor(state)
    assert step(state, Descend())[0] == Won()


def test_playing_never_changes_the_next_floor():
    seed = 11
    before = generate_floor(seed, 2).tiles
    state = fresh(seed)
    state.rng.random(1000)  # a fight's worth of gameplay draws
    play_floor(state)
    step(state, Descend())
    assert np.array_equal(state.floor.tiles, before)
    assert np.array_equal(state.tiles, before)
    assert np.array_equal(generate_floor(seed, 2).tiles, before)
    # the gameplay stream is its own: floor 2's, untouched by floor 1's draws
    assert state.rng.random() == seeds.stream(seed, 2, "play").random()


def _squeeze_spots(state: GameState):
    """(cell, diagonal) pairs of walkable cells with exactly one wall between them."""
    walk = tiles.WALKABLE[state.tiles]
    h, w = walk.shape
    for y in range(1, h - 1):
        for x in range(1, w - 1):
            if not walk[y, x]:
                continue
            for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                if walk[y + dy, x + dx] and walk[y, x + dx] != walk[y + dy, x]:
                    yield (x, y), (dx, dy)


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_a_diagonal_squeeze_past_a_wall_corner_is_refused(seed):
    state = fresh(seed)
    spots = list(_squeeze_spots(state))
    assert spots
    for (x, y), (dx, dy) in spots[:50]:
        state.player = (x, y)
        turn = state.turn
        got = step(state, Move(dx, dy))
        assert got[0] == Bumped(x + dx, y + dy, "corner")
        assert state.player == (x, y) and state.turn == turn


def test_a_free_diagonal_step_is_allowed():
    state = fresh(0)
    walk = tiles.WALKABLE[state.tiles]
    h, w = walk.shape
    free = next(
        ((x, y), (dx, dy))
        for y in range(1, h - 1)
        for x in range(1, w - 1)
        for dx, dy in ((1, 1), (-1, -1))
        if walk[y, x] and walk[y + dy, x + dx] and walk[y, x + dx] and walk[y + dy, x]
    )
    (x, y), (dx, dy) = free
    state.player = (x, y)
    state.keys_lying.pop((x + dx, y + dy), None)
    assert step(state, Move(dx, dy)) == [Moved((x, y), (x + dx, y + dy))]


def test_plain_doors_open_when_walked_into():
    for seed in SEEDS:
        state = fresh(seed)
        labels, _ = ndimage.label(tiles.WALKABLE[state.tiles])
        home = labels[state.player[1], state.player[0]]
        closed = [
            (d.x, d.y)
            for d in state.floor.doors
            if state.tiles[d.y, d.x] == tiles.DOOR and labels[d.y, d.x] == home
        ]
        if not closed:
            continue
        target = min(closed, key=lambda c: len(bfs_path(state, c)))
        walk_to(state, target, stop_before=True)
        (x, y), (tx, ty) = state.player, target
        if state.tiles[ty, tx] != tiles.DOOR:  # opened on the way
            continue
        got = step(state, Move(tx - x, ty - y))
        assert got == [DoorOpened(tx, ty)]
        assert state.tiles[ty, tx] == tiles.DOOR_OPEN and state.player == (x, y)
        assert state.floor.tiles[ty, tx] == tiles.DOOR
        return
    pytest.skip("no closed door on these seeds")


def test_refused_actions_cost_no_turn():
    state = fresh(0)
    for action in (Descend(), PickUp()):
        turn = state.turn
        got = step(state, action)
        assert all(isinstance(e, Message) for e in got) and state.turn == turn
    turn = state.turn
    assert step(state, Wait()) == [] and state.turn == turn + 1
    with pytest.raises(ValueError):
        Move(0, 0)
    with pytest.raises(ValueError):
        Move(2, 0)


@settings(max_examples=30)
@given(st.sampled_from(SEEDS[:2]), st.lists(st.sampled_from(DIRS8), min_size=1, max_size=300))
def test_random_walks_stay_where_the_proof_walks(seed, moves):
    """Whatever the moves, the player stays in the 4-connected walkable region of the spawn
    (no corner squeezing), holds exactly the keys they stood on, and the explored mask only
    grows."""
    state = fresh(seed)
    explored = state.explored.copy()
    visited = {state.player}
    for dx, dy in moves:
        step(state, Move(dx, dy))
        visited.add(state.player)
        assert tiles.WALKABLE[state.tiles[state.player[1], state.player[0]]]
        assert not (explored & ~state.explored).any()
        explored = state.explored.copy()
    labels, _ = ndimage.label(tiles.WALKABLE[state.tiles])
    sx, sy = state.floor.spawn
    assert all(labels[y, x] == labels[sy, sx] for x, y in visited)
    stood_on_keys = {k.id for k in state.floor.keys if (k.x, k.y) in visited}
    assert state.keys_held == stood_on_keys
