"""The special rooms' catalog and the depth curve: each record is placed only where it says,
from the floor it says, as often as it says; and the curve's tables read as documented."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike import depth
from roguelike.gen import roles as roles_stage
from roguelike.gen.special import CATALOG, SPECIAL, Candidate, SpecialRoom
from roguelike.gen.topology import Edge, Room, Topology


def _tree(rs: np.random.Generator, n: int) -> Topology:
    """A random tree of ``n`` rooms: 0 the start, 1 the finish, a few key rooms."""
    parent = {i: int(rs.integers(0, i)) for i in range(1, n)}
    dist = {0: 0}
    for i in range(1, n):
        dist[i] = dist[parent[i]] + 1
    rooms = tuple(
        Room(i, dist[i], "start" if i == 0 else "finish" if i == 1 else "room") for i in range(n)
    )
    return Topology(rooms, tuple(sorted(Edge(parent[i], i) for i in range(1, n))), ())


def _candidate(topo: Topology, room: Room) -> Candidate:
    children = topo.children()
    degree = {r: len(v) for r, v in topo.neighbours().items()}
    dead_end = not children[room.id] and degree[room.id] == 1
    return Candidate(room.id, room.depth, "room", dead_end, degree[room.id])


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 40), floor=st.integers(1, 12))
def test_each_special_room_stands_only_where_and_when_its_record_allows(seed, n, floor):
    rs = np.random.default_rng(seed)
    topo = _tree(rs, n)
    out = roles_stage.room_roles(topo, rs, floor)
    for room in topo.rooms:
        role = out[room.id]
        if room.role != "room":
            assert role == room.role  # the topology's start, finish and keys never change
            continue
        record = SPECIAL.get(role)
        if record is None:
            assert role == "room"
            continue
        assert floor >= record.first_floor
        assert record.chance(floor, room.depth) > 0
        assert record.where(_candidate(topo, room))
        if record.instead_of is not None:  # it stands where the record it replaces may
            assert SPECIAL[record.instead_of].where(_candidate(topo, room))
    for record in CATALOG:
        if record.at_most is not None:
            assert list(out.values()).count(record.role) <= record.at_most


def test_a_record_added_to_the_catalog_is_placed_by_the_roles_stage(monkeypatch):
    """A designer's new room is one record: the roles stage places it with no code of its own
    (here a shrine in the first dead end whose draw allows it, on every floor)."""
    shrine = SpecialRoom(
        "shrine",
        depth.Odds(depth.Steps(((1, 100),))),
        lambda c: c.dead_end,
        placing="first",
        at_most=1,
    )
    monkeypatch.setattr(roles_stage, "CATALOG", (*CATALOG, shrine))
    topo = _tree(np.random.default_rng(3), 25)
    out = roles_stage.room_roles(topo, np.random.default_rng(3), 1)
    assert list(out.values()).count("shrine") == 1
    (room,) = [r for r in topo.rooms if out[r.id] == "shrine"]
    assert _candidate(topo, room).dead_end


def test_the_catalog_names_each_role_once_and_replaces_only_known_roles():
    assert len(SPECIAL) == len(CATALOG)
    for record in CATALOG:
        assert (record.placing == "instead") == (record.instead_of is not None)
        if record.instead_of is not None:
            assert record.instead_of in SPECIAL


def test_steps_take_the_last_row_a_floor_reaches():
    table = depth.Steps(((2, "a"), (5, "b")))
    assert [table.at(f) for f in (1, 2, 4, 5, 99)] == ["a", "a", "a", "b", "b"]
    assert depth.Steps(((3, 10),), before=0).at(2) == 0
    with pytest.raises(ValueError):
        depth.Steps(((4, 1), (2, 2)))


def test_ramps_grow_by_their_step_and_stop_at_their_cap():
    assert [depth.Ramp(1, 2).at(f) for f in (1, 2, 3)] == [1, 3, 5]
    assert [depth.Ramp(0, 1, most=2).at(f) for f in (1, 3, 9)] == [0, 2, 2]
    assert [depth.Ramp(10, 5, until=3, origin=0).at(d) for d in (0, 3, 8)] == [10, 25, 25]
    assert [depth.Ramp(0, 1, every=2).at(f) for f in (1, 2, 3, 4, 5)] == [0, 0, 1, 1, 2]


def test_odds_are_nothing_above_the_first_floor_or_in_a_shallow_room():
    odds = depth.Odds(depth.Steps(((2, 25),)), least_depth=2)
    assert odds.at(1, 5) == 0 and odds.at(2, 1) == 0 and odds.at(2, 2) == 25
    assert depth.TREASURE_ODDS.at(1, 0) < depth.TREASURE_ODDS.at(1, 6)
