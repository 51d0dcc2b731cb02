"""Rest and travel on real floors: when rest is refused, how long it lasts and what stops it;
travel's shortest paths, doors, refusals and stops.

Every situation is built on a real generated floor: a monster-free game of a seed, with the
player moved and monsters placed by hand on walkable cells, so each test knows exactly who
stands where. Expected values come from the rules (the engine modules' docstrings, the
creatures data), never from a recorded run.
"""

from __future__ import annotations

import copy

import numpy as np
from scipy import ndimage

from roguelike import tiles
from roguelike.engine import (
    Attacked,
    DoorOpened,
    DoorUnlocked,
    GameState,
    Message,
    Moved,
    Rest,
    Travel,
    Wait,
    step,
)
from roguelike.engine.pathing import FAR
from tests.engine.support import (
    ORTHO,
    add,
    arena,
    attacks_by,
    bfs,
    fresh,
    off,
    put_player,
    texts,
    unseen_cells,
    walk_dist,
)

# --- 6. rest and travel ---------------------------------------------------------------------


def test_rest_is_refused_with_an_awake_monster_in_view():
    state, c = arena()
    state.hp = state.max_hp - 5
    add(state, "orc", off(c, 3, 0), awake=True)
    turn = state.turn
    events = step(state, Rest())
    assert len(events) == 1 and isinstance(events[0], Message)
    assert state.turn == turn and state.hp == state.max_hp - 5


def test_rest_beside_a_sleeping_monster_lasts_until_it_wakes():
    """Only awake monsters in view forbid rest (engine._threats); one that wakes ends it."""
    state, c = arena()
    state.regen_clock = 0
    state.hp = state.max_hp - 5
    m = add(state, "orc", off(c, 3, 0), awake=False)
    turn = state.turn
    events = step(state, Rest())
    assert state.turn > turn
    assert m.awake or state.hp == state.max_hp
    if m.awake:
        assert "stop" in texts(events)


def test_rest_heals_to_full_taking_as_long_as_waiting_would():
    state = fresh(0)
    state.hp = state.max_hp - 4
    waited = copy.deepcopy(state)
    n = 0
    while waited.hp < waited.max_hp:
        step(waited, Wait())
        n += 1
    turn = state.turn
    step(state, Rest())
    assert state.hp == state.max_hp and state.turn == turn + n > turn
    # at full HP there is nothing to rest for
    assert all(isinstance(e, Message) for e in step(state, Rest())) and state.turn == turn + n


def test_rest_stops_when_a_monster_comes_into_view():
    state = fresh(0)
    state.hp = 5
    m = add(state, "orc", unseen_cells(state, 8, 12)[0])
    turn = state.turn
    events = step(state, Rest())
    assert state.visible[m.y, m.x] and state.visible_monsters() == [m]
    assert turn < state.turn <= turn + 12
    assert state.hp < state.max_hp
    assert "You stop resting: an orc comes into view." in texts(events)


def _no_pickups(state: GameState) -> None:
    state.items_lying.clear()
    state.keys_lying.clear()


def test_travel_walks_a_shortest_path_to_a_seen_cell():
    state, c = arena()
    _no_pickups(state)
    ok = tiles.WALKABLE[state.tiles] & state.explored
    from_c = bfs(ok, [c])
    plain = ok & (state.tiles != tiles.DOOR) & (state.tiles != tiles.DOOR_OPEN)
    from_c_plain = bfs(plain, [c])
    ys, xs = np.nonzero((from_c < FAR) & (from_c == from_c_plain) & state.visible)
    target = max(
        ((int(x), int(y)) for x, y in zip(xs, ys, strict=True)),
        key=lambda p: (from_c[p[1], p[0]], p),
    )
    n = int(from_c[target[1], target[0]])
    assert n >= 4
    to_target = bfs(ok, [target])
    turn = state.turn
    events = step(state, Travel(*target))
    assert state.player == target and state.turn == turn + n
    moves = [e for e in events if isinstance(e, Moved)]
    assert len(moves) == n
    for mv in moves:
        assert to_target[mv.to[1], mv.to[0]] == to_target[mv.frm[1], mv.frm[0]] - 1


def test_travel_across_the_floor_opens_doors_and_unlocks_with_held_keys():
    state = fresh(0)
    _no_pickups(state)
    state.explored[:] = True
    target = state.floor.finish
    # without the keys the stairs lie behind locked doors: no known way, no turn spent
    turn = state.turn
    events = step(state, Travel(*target))
    assert all(isinstance(e, Message) for e in events) and state.turn == turn
    assert state.player == state.floor.spawn
    state.keys_held = {k.id for k in state.floor.keys}
    ok = tiles.WALKABLE[state.tiles].copy()
    for k in state.keys_held:
        ok |= state.tiles == tiles.locked_door(k)
    n = int(bfs(ok, [target])[state.player[1], state.player[0]])
    events = step(state, Travel(*target))
    assert state.player == target
    doors = [e for e in events if isinstance(e, DoorOpened | DoorUnlocked)]
    assert any(isinstance(e, DoorUnlocked) for e in doors)
    assert state.turn == turn + n + len(doors)


def test_travel_refuses_an_unexplored_target_without_a_turn():
    state = fresh(0)
    walk = tiles.WALKABLE[state.tiles]
    known = walk & state.explored
    grown = ndimage.binary_dilation(known, structure=np.ones((3, 3), bool))
    ys, xs = np.nonzero(grown & walk & ~state.explored)  # just past what was seen
    assert len(xs)
    turn, here = state.turn, state.player
    for target in [(int(xs[0]), int(ys[0])), (-1, 0), (state.width, 3)]:
        events = step(state, Travel(*target))
        assert len(events) == 1 and isinstance(events[0], Message)
        assert state.turn == turn and state.player == here


def test_travel_stops_when_a_new_monster_comes_into_view():
    state = fresh(0)
    _no_pickups(state)
    state.explored[:] = True
    dist = walk_dist(state, state.player)
    ys, xs = np.nonzero((dist >= 12) & (dist < 25) & ~state.visible)
    spots = [(int(x), int(y)) for x, y in zip(xs, ys, strict=True)]
    # a cell just beyond where the orc will sleep, so the walk must pass within its sight
    pos, target = next(
        (p, (p[0] + dx, p[1] + dy))
        for p in spots
        for dx, dy in ORTHO
        if tiles.WALKABLE[state.tiles[p[1] + dy, p[0] + dx]]
        and dist[p[1] + dy, p[0] + dx] > dist[p[1], p[0]]
    )
    m = add(state, "orc", pos, awake=False)
    events = step(state, Travel(*target))
    assert state.player != target and state.visible[m.y, m.x]
    assert "comes into view" in texts(events)
    assert 0 < len([e for e in events if isinstance(e, Moved)]) < dist[target[1], target[0]]


def test_travel_never_attacks_a_monster_in_the_way():
    state, c = arena()
    _no_pickups(state)
    put_player(state, off(c, -1, 0))
    m = add(state, "orc", c, hp=50, awake=False)
    turn = state.turn
    events = step(state, Travel(*off(c, 3, 0)))
    assert not attacks_by(events, "you") and m.hp == 50 and state.turn == turn
    assert state.player == off(c, -1, 0) and "in the way" in texts(events)


def test_travel_stops_when_the_player_is_hurt():
    base, c = arena()
    _no_pickups(base)
    put_player(base, off(c, -3, 0))
    base.hp = base.max_hp - 10
    add(base, "rat", off(c, -2, 1))
    for rs in range(60):
        for clock in range(9):
            state = copy.deepcopy(base)
            state.rng = np.random.default_rng(rs)
            state.regen_clock = clock
            events = step(state, Travel(*off(c, 3, 0)))
            hurt = [
                i
                for i, e in enumerate(events)
                if isinstance(e, Attacked) and e.target == "you" and e.damage > 0
            ]
            if hurt:
                after = events[hurt[0] :]
                assert not any(isinstance(e, Moved) for e in after), (rs, clock)
