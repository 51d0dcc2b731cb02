"""Floor changes in generation: an optional pedestal whose puzzle changes the map. Its cells
are where it says (a shortcut through wall, a bridge over chasm, a flooded passage's deep
water), a shortcut or bridge saves the steps it promises, its pedestal is a free cell the
player can reach, the floor is proven completable with and without the change, and the proof
refuses a change that would let the player past a lock."""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roguelike import tiles
from roguelike.gen.changes import (
    BLOCKING,
    OPENED,
    PLAIN,
    SHORTCUT_SAVING,
    _bfs,
    applied,
    place_change,
)
from roguelike.gen.floor import CHANGE_KINDS, Floor, FloorChange
from roguelike.gen.pipeline import generate_floor
from roguelike.gen.prove import prove
from roguelike.seeds import stream
from tests.floors import floor


def _check(fl: Floor) -> None:
    assert len(fl.changes) <= 1
    taken = {k.id for k in fl.keys} | {v.key for v in fl.vaults}
    walk = tiles.WALKABLE[fl.tiles]
    for ch in fl.changes:
        assert ch.kind in CHANGE_KINDS
        assert ch.key not in taken and ch.key <= tiles.MAX_KEYS
        # the pedestal: a free plain cell of its room, holding nothing else
        assert fl.tiles[ch.y, ch.x] in PLAIN and fl.room_map[ch.y, ch.x] == ch.room
        assert not fl.protected[ch.y, ch.x]
        things = {fl.spawn, fl.finish} | {(s.x, s.y) for s in fl.slots}
        things |= {(k.x, k.y) for k in fl.keys} | {(t.x, t.y) for t in fl.traps}
        assert (ch.x, ch.y) not in things
        if ch.kind in BLOCKING:
            assert 1 <= len(ch.cells) <= 3
            assert all(fl.tiles[y, x] == BLOCKING[ch.kind] for x, y, _ in ch.cells)
            assert all(t == OPENED[ch.kind] for _, _, t in ch.cells)
            # a straight run, and opening it saves the steps promised from the spawn
            xs, ys = {x for x, _, _ in ch.cells}, {y for _, y, _ in ch.cells}
            assert len(xs) == 1 or len(ys) == 1
            opened = walk.copy()
            for k in fl.keys:
                opened |= fl.tiles == tiles.locked_door(k.id)
            before = _bfs(opened, [fl.spawn])
            after = _bfs(opened | tiles.WALKABLE[applied(fl, ch)], [fl.spawn])
            assert (before - after).max() >= SHORTCUT_SAVING
        elif ch.kind == "drain":
            flooded = [r for r, role in fl.roles.items() if role == "flooded"]
            deep = (fl.room_map == flooded[0]) & (fl.tiles == tiles.DEEP_WATER)
            assert {(x, y) for x, y, _ in ch.cells} == {
                (int(x), int(y)) for y, x in zip(*deep.nonzero(), strict=True)
            }
            assert fl.room_map[ch.y, ch.x] != flooded[0]
        else:
            assert ch.kind == "reveal" and not ch.cells and ch.room == fl.topology.start
        # completable without the change (the floor as generated) and with it
        assert prove(fl) == []
        assert prove(dataclasses.replace(fl, tiles=applied(fl, ch), changes=[])) == []


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**40), st.sampled_from([1, 3, 5, 7]))
def test_a_floor_change_is_where_it_says_and_the_floor_is_proven_both_ways(seed, number):
    _check(generate_floor(seed, number))


def test_every_kind_is_drawn_on_some_floor():
    kinds = set()
    for seed in range(30):
        for number in (1, 3, 5):
            fl = generate_floor(seed, number, stop_after="population")
            kinds |= {ch.kind for ch in fl.changes}
        if kinds == set(CHANGE_KINDS):
            break
    assert kinds == set(CHANGE_KINDS)


def test_the_change_is_drawn_from_its_own_stream():
    """Generated without its change step, the floor is the same in every other field."""
    fl = floor(0, 3)
    assert fl.changes, "floor 3 of world 0 has a shortcut"
    bare = dataclasses.replace(fl, changes=[])
    populated = generate_floor(0, 3, stop_after="population")
    assert dataclasses.replace(populated, changes=[]).slots == bare.slots
    again = place_change(dataclasses.replace(populated, changes=[]), stream(0, 3, "changes"))
    assert again.changes == fl.changes


def test_the_proof_refuses_a_change_that_opens_a_lock():
    """A change whose cells would open a locked door: the floor then reaches its stairs
    without that key, and the proof says so."""
    fl = next(
        f for f in (floor(s, 1) for s in range(20)) if f.keys and not f.changes and not f.vaults
    )
    door = next(d for d in fl.doors if d.lock is not None)
    x, y = next(
        (x, y)
        for x, y in zip(*reversed((fl.room_map == fl.topology.start).nonzero()), strict=True)
        if fl.tiles[y, x] in PLAIN and (x, y) != fl.spawn
    )
    bad = FloorChange(
        "shortcut",
        len(fl.keys) + 1,
        int(x),
        int(y),
        fl.topology.start,
        ((door.x, door.y, tiles.RUBBLE),),
    )
    problems = prove(dataclasses.replace(fl, changes=[bad]))
    assert any("with the shortcut" in p and "without key" in p for p in problems), problems
    assert prove(fl) == []
