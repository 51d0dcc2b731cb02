"""Traps, ambush rooms and deep water in play: they trigger, reveal, are avoided by the walks,
and round-trip through a save."""

from __future__ import annotations

import dataclasses
from functools import cache

import pytest

from roguelike import tiles
from roguelike.autoplay import Memory, decide
from roguelike.engine import GameState, Move, Search, Travel, Wait, describe, new_game, step
from roguelike.engine.balance import ALARM_RADIUS, NET_TURNS, SEARCH_RADIUS
from roguelike.engine.legend import TRAP_GLYPH, by_glyph
from roguelike.engine.pathing import FAR
from roguelike.engine.travel import explore_distances, travel_distances
from roguelike.gen.floor import TrapSpot
from roguelike.gen.pipeline import generate_floor
from roguelike.recording import SIMPLE_ACTIONS, digest
from saves import SaveError, codec
from tests.engine.support import add, arena, off, put_player
from tests.saves.support import pack_as, world_of


def _trapped(kind: str, *, known: bool = False) -> tuple[GameState, tuple[int, int]]:
    """The arena with no traps but one of ``kind`` a step east of the player."""
    state, c = arena(3)
    x, y = off(c, 1, 0)
    state.floor = dataclasses.replace(state.floor, traps=[TrapSpot(x, y, kind)])
    state.traps = {(x, y): kind}
    state.traps_known = {off(c, 1, 0)} if known else set()
    return state, c


def test_a_dart_trap_hurts_and_is_known_from_then_on():
    state, c = _trapped("dart")
    events = step(state, Move(1, 0))
    assert state.player == off(c, 1, 0)
    assert state.hp < state.max_hp
    assert off(c, 1, 0) in state.traps_known
    assert any("dart trap" in getattr(e, "text", "") for e in events)


def test_a_dart_trap_can_kill_but_spares_the_invulnerable():
    state, _ = _trapped("dart")
    state.hp = 1
    step(state, Move(1, 0))
    assert state.dead and "dart trap" in (state.stats.cause or "")
    spared, _ = _trapped("dart")
    spared.hp, spared.invulnerable = 1, True
    step(spared, Move(1, 0))
    assert not spared.dead and spared.hp == 1 and spared.spared == 1


def test_an_alarm_wakes_the_sleepers_around_and_not_the_far_ones():
    state, c = _trapped("alarm")
    near = add(state, "rat", off(c, -2, -2), awake=False)
    far_pos = next(
        (x, y)
        for y in range(state.height)
        for x in range(state.width)
        if tiles.WALKABLE[state.tiles[y, x]]
        and max(abs(x - c[0] - 1), abs(y - c[1])) > ALARM_RADIUS + 2
    )
    far = add(state, "rat", far_pos, awake=False)
    step(state, Move(1, 0))
    assert near.awake and not far.awake


def test_a_net_holds_the_player_for_its_turns():
    state, c = _trapped("net")
    step(state, Move(1, 0))
    assert state.netted == NET_TURNS
    turn = state.turn
    for _ in range(NET_TURNS):
        step(state, Move(1, 0))
        assert state.player == off(c, 1, 0)
    assert state.turn >= turn + NET_TURNS and state.netted == 0
    step(state, Move(1, 0))
    assert state.player == off(c, 2, 0)


def test_searching_reveals_traps_within_reach_only():
    state, c = arena(3)
    near, far = off(c, SEARCH_RADIUS, 0), off(c, -3, 0)
    state.traps = {near: "dart", far: "net"}
    for _ in range(30):  # each search finds a trap in reach with a good chance
        step(state, Search())
        if near in state.traps_known:
            break
    assert near in state.traps_known and far not in state.traps_known
    assert "s" in SIMPLE_ACTIONS and SIMPLE_ACTIONS["s"] == Search()


def test_a_known_trap_is_drawn_described_and_in_the_legend():
    state, c = _trapped("net", known=True)
    text = describe(state, *off(c, 1, 0))
    assert text.startswith(f"`{TRAP_GLYPH}` A net trap")
    assert by_glyph(TRAP_GLYPH)
    hidden, c = _trapped("net")
    assert TRAP_GLYPH not in describe(hidden, *off(c, 1, 0))


def test_travel_steps_around_a_known_trap_and_not_a_hidden_one():
    state, c = _trapped("dart", known=True)
    step(state, Travel(*off(c, 2, 0)))
    assert state.player == off(c, 2, 0) and state.hp == state.max_hp  # around it
    state, c = _trapped("dart")
    step(state, Travel(*off(c, 2, 0)))
    # straight over the hidden one: it goes off, and the walk stops at the lost health
    assert state.player == off(c, 1, 0) and state.hp < state.max_hp
    state, c = _trapped("dart", known=True)
    dist = travel_distances(state, *off(c, 2, 0))
    assert 2 < dist[c[1], c[0]] < FAR  # around it (its corners count as blocked too)
    assert explore_distances(state)[c[1], c[0]] >= 0


def test_a_known_trap_that_is_the_only_way_still_lets_the_walk_through():
    state, c = _trapped("dart", known=True)
    trap = off(c, 1, 0)
    state.tiles[:, trap[0]] = tiles.WALL  # a wall from top to bottom, but for the trap:
    state.tiles[trap[1], trap[0]] = tiles.FLOOR  # the trap is the only way east
    dist = travel_distances(state, *off(c, 2, 0))
    assert dist[c[1], c[0]] == 2
    assert trap in state.traps


@cache
def _floor_with(role: str) -> tuple[int, int]:
    for seed in range(200):
        if role in generate_floor(seed, 3, stop_after="roles").roles.values():
            return seed, 3
    raise AssertionError(f"no floor 3 with a {role} room")


def _game_with(role: str) -> tuple[GameState, int]:
    seed, number = _floor_with(role)
    state = new_game(seed, total_floors=5, floor=number, monsters=False, puzzles=False)
    room = next(r for r, got in sorted(state.floor.roles.items()) if got == role)
    return state, room


def _step_into(state: GameState, room: int | None, inside: set[tuple[int, int]]) -> tuple[int, int]:
    """Put the player just outside a cell of ``inside`` (and outside ``room``, unless None)
    and step onto it; the cell."""
    walk = tiles.WALKABLE[state.tiles]
    rm = state.floor.room_map
    for x, y in sorted(inside):
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            ox, oy = x - dx, y - dy
            out = (ox, oy) not in inside and (room is None or int(rm[oy, ox]) != room)
            if walk[oy, ox] and out and (ox, oy) not in state.traps:
                put_player(state, (ox, oy))
                step(state, Move(dx, dy))
                assert state.player == (x, y)
                return (x, y)
    raise AssertionError("no way into the room")


def test_an_ambush_room_wakes_all_its_sleepers_when_entered():
    state, room = _game_with("ambush")
    rm = state.floor.room_map
    cells = [
        (int(x), int(y))
        for y, x in zip(*(rm == room).nonzero(), strict=True)
        if tiles.WALKABLE[state.tiles[y, x]] and (int(x), int(y)) not in state.traps
    ]
    sleepers = [add(state, "rat", pos, awake=False) for pos in cells[-2:]]
    state.traps = {}
    _step_into(state, room, set(cells[:-2]))
    assert all(m.awake for m in sleepers) and room in state.sprung


def test_a_stroke_through_deep_water_costs_two_turns():
    state, room = _game_with("flooded")
    deep = {
        (int(x), int(y)) for y, x in zip(*(state.tiles == tiles.DEEP_WATER).nonzero(), strict=True)
    }
    state.traps = {}
    turn = state.turn
    _step_into(state, None, deep)  # from dry ground, in the room or out of it
    assert state.turn == turn + 2
    state.turn = turn
    step(state, Wait())
    assert state.turn == turn + 1


def test_trap_state_round_trips_through_a_save_and_each_field_is_required():
    state, c = _trapped("net")
    step(state, Move(1, 0))  # netted, the trap known
    state.regen_clock = 0  # the arena's frozen clock is no save's
    world = world_of(state)
    loaded = codec.decode(codec.encode(world, state, [])).state
    assert loaded.traps == state.traps and loaded.traps_known == state.traps_known
    assert loaded.netted == state.netted and loaded.sprung == state.sprung
    assert digest(loaded) == digest(state)
    for key in ("traps_known", "netted", "sprung", "floor.traps"):
        doc = codec.to_document(world, state)
        *path, last = key.split(".")
        record = doc["state"]
        for part in path:
            record = record[part]
        del record[last]
        with pytest.raises(SaveError, match=last):  # every field of the format is required
            codec.decode(pack_as(world, state, doc))


@pytest.mark.parametrize(
    "key,value",
    [("traps_known", [[0, 0]]), ("netted", NET_TURNS + 1), ("sprung", [10_000])],
)
def test_hostile_trap_state_is_refused_in_one_line(key, value):
    state, _ = _trapped("dart", known=True)
    state.regen_clock = 0  # the arena's frozen clock is no save's
    world = world_of(state)
    doc = codec.to_document(world, state)
    doc["state"][key] = value
    with pytest.raises(SaveError, match=key):
        codec.decode(pack_as(world, state, doc))


def test_the_bot_searches_once_where_a_trap_was_found():
    state, c = _trapped("dart", known=True)
    memory = Memory()
    first = decide(state, memory=memory)
    assert first.action == Search()
    step(state, first.action)
    assert decide(state, memory=memory).action != Search()
