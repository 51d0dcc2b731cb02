"""Doors on real floors: opening and closing, locked doors and their keys, and monsters at plain
and locked doors.

Every situation is built on a real generated floor: a monster-free game of a seed, with the
player moved and monsters placed by hand on walkable cells, so each test knows exactly who
stands where. Expected values come from the rules (the engine modules' docstrings, the
creatures data), never from a recorded run.
"""

from __future__ import annotations

from roguelike import tiles
from roguelike.engine import (
    Bumped,
    Close,
    DoorClosed,
    DoorOpened,
    DoorUnlocked,
    Message,
    Open,
    Wait,
    doors_around,
    step,
)
from roguelike.engine.monsters import monster_options, player_distances
from roguelike.engine.pathing import FAR
from tests.engine.support import (
    add,
    cheb,
    fresh,
    locked_doors,
    off,
    plain_doors,
    put_player,
    texts,
    walk_dist,
)

# --- 7. doors -------------------------------------------------------------------------------


def test_open_and_close_a_door():
    state = fresh(0)
    door, (vx, vy) = next(plain_doors(state))
    put_player(state, (door[0] - vx, door[1] - vy))
    assert (vx, vy) in doors_around(state, closed=True)
    assert (vx, vy) not in doors_around(state, closed=False)
    turn = state.turn
    assert step(state, Open(vx, vy)) == [DoorOpened(*door)]
    assert state.tiles[door[1], door[0]] == tiles.DOOR_OPEN and state.turn == turn + 1
    assert state.player == (door[0] - vx, door[1] - vy)
    assert (vx, vy) in doors_around(state, closed=False)
    assert (vx, vy) not in doors_around(state, closed=True)
    # a monster in the doorway keeps it open, and costs no turn
    m = add(state, "orc", door, awake=False)
    turn = state.turn
    events = step(state, Close(vx, vy))
    assert all(isinstance(e, Message) for e in events) and "orc" in texts(events)
    assert state.tiles[door[1], door[0]] == tiles.DOOR_OPEN and state.turn == turn
    state.monsters.remove(m)
    state.items_lying[door] = "hint coin"
    events = step(state, Close(vx, vy))
    assert all(isinstance(e, Message) for e in events) and state.turn == turn
    del state.items_lying[door]
    assert step(state, Close(vx, vy)) == [DoorClosed(*door)]
    assert state.tiles[door[1], door[0]] == tiles.DOOR and state.turn == turn + 1
    # closing a closed door, opening a floor cell: refused, no turn
    for action in (Close(vx, vy), Open(-vx, -vy)):
        events = step(state, action)
        assert all(isinstance(e, Message) for e in events) and state.turn == turn + 1


def test_locked_doors_are_listed_only_with_their_key():
    state = fresh(0)
    door, (vx, vy), key = next(locked_doors(state))
    put_player(state, (door[0] - vx, door[1] - vy))
    assert (vx, vy) not in doors_around(state, closed=True)
    turn = state.turn
    events = step(state, Open(vx, vy))
    assert isinstance(events[0], Bumped) and state.turn == turn
    state.keys_held.add(key)
    assert (vx, vy) in doors_around(state, closed=True)
    events = step(state, Open(vx, vy))
    assert events[0] == DoorUnlocked(key, *door) and state.turn == turn + 1
    assert state.tiles[door[1], door[0]] == tiles.DOOR_OPEN


def test_monsters_walk_through_plain_doors_opening_them():
    state = fresh(0)
    state.hp = state.max_hp = 1000
    door, (vx, vy) = next(
        (d, (vx, vy))
        for d, (vx, vy) in plain_doors(state)
        if walk_dist(state, (d[0] - 2 * vx, d[1] - 2 * vy))[d[1] + vy, d[0] + vx] == 3
    )  # the only way from one side to the other is through the door
    player = (door[0] - 2 * vx, door[1] - 2 * vy)
    other = (door[0] + vx, door[1] + vy)
    put_player(state, player)
    m = add(state, "orc", other)
    assert not state.visible[m.y, m.x]  # the closed door hides it
    step(state, Wait())
    assert m.pos == door and state.tiles[door[1], door[0]] == tiles.DOOR_OPEN
    assert state.visible[m.y, m.x]
    step(state, Wait())
    assert cheb(m.pos, player) == 1


def test_monsters_never_pass_locked_doors():
    state = fresh(0)
    state.hp = state.max_hp = 1000
    door, (vx, vy), key = next(locked_doors(state))
    put_player(state, (door[0] - vx, door[1] - vy))
    state.keys_held.add(key)  # even a key in the player's hand opens nothing for them
    m = add(state, "orc", (door[0] + vx, door[1] + vy))
    locked = int(state.tiles[door[1], door[0]])
    dist = player_distances(state)
    assert dist[door[1], door[0]] == FAR
    opts = monster_options(state, m, dist)
    assert all(off(m.pos, *o[2]) != door for o in opts if o[1] == "move")
    for _ in range(15):
        step(state, Wait())
        assert m.pos != door and state.tiles[door[1], door[0]] == locked
