"""The captive room: from floor 2, at most one a floor, a dead end that holds no key, with its
captive's slot and one or two guards' slots inside it; the floor is still proven, and the game
seats the captive shackled on the player's side among sleeping guards."""

from __future__ import annotations

import functools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike.depth import CAPTIVE_KINDS
from roguelike.engine import new_game
from roguelike.engine.balance import MONSTERS
from roguelike.engine.creatures import SHACKLED, captive_kind
from roguelike.gen.floor import Floor
from roguelike.gen.pipeline import generate_floor
from roguelike.gen.roles import SPECIAL_ROLES
from roguelike.gen.special import CAPTIVE_GUARDS
from roguelike.gen.validate import validate_topology
from tests.floors import floor

#: Seeds searched for floors with a captive room.
SEARCH = range(40)


@functools.cache
def captive_floors() -> list[Floor]:
    """Floor 2 of every searched seed that has a captive room (whole floors: proven)."""
    floors = [floor(seed, 2) for seed in SEARCH]
    return [fl for fl in floors if "captive" in fl.roles.values()]


def _room(fl: Floor) -> int:
    return next(r for r, role in fl.roles.items() if role == "captive")


def test_some_floors_hold_a_captive_and_are_still_proven():
    floors = captive_floors()
    assert len(floors) >= 3, "the captive room is too rare to meet"
    # made at all means proven (the proof stage raises otherwise); the topology under the
    # captive room still passes the independent validator
    assert all(validate_topology(fl.topology, fl.params) == [] for fl in floors)
    assert "captive" in SPECIAL_ROLES  # the bench's expressive range counts it


def test_a_captive_room_is_a_dead_end_without_a_key_and_one_a_floor():
    for fl in captive_floors():
        assert list(fl.roles.values()).count("captive") == 1
        room = _room(fl)
        assert room not in {k.room for k in fl.keys}
        assert room not in (fl.topology.start,)
        assert not fl.topology.children()[room]
        assert len(fl.topology.neighbours()[room]) == 1


def test_a_captive_room_seats_its_captive_among_its_guards():
    for fl in captive_floors():
        room = _room(fl)
        inside = [s for s in fl.slots if s.room == room]
        captives = [s for s in inside if s.kind == "captive"]
        guards = [s for s in inside if s.kind == "monster"]
        assert len(captives) == 1
        assert CAPTIVE_GUARDS[0] <= len(guards) <= CAPTIVE_GUARDS[1]
        assert int(fl.room_map[captives[0].y, captives[0].x]) == room


@settings(max_examples=12)
@given(seed=st.integers(0, 10**6))
def test_the_first_floor_never_holds_a_captive(seed):
    assert "captive" not in generate_floor(seed, 1, stop_after="roles").roles.values()


def test_the_game_seats_the_captive_shackled_among_sleeping_guards():
    fl = captive_floors()[0]
    state = new_game(fl.seed, total_floors=3, floor=2, puzzles=False)
    room = _room(state.floor)
    (captive,) = state.allies
    assert captive.extra[SHACKLED] == 0 and not captive.awake
    assert int(state.floor.room_map[captive.y, captive.x]) == room
    tier = [kinds for first, kinds in CAPTIVE_KINDS.rows if first <= 2][-1]
    assert captive.kind in tier
    guards = [m for m in state.monsters if int(state.floor.room_map[m.y, m.x]) == room]
    assert guards and not any(m.awake for m in guards)
    assert captive not in state.monsters
    # a world without monsters has no captives either
    bare = new_game(fl.seed, total_floors=3, floor=2, puzzles=False, monsters=False)
    assert bare.allies == []


@settings(max_examples=30)
@given(floor=st.integers(2, 12), seed=st.integers(0, 2**32 - 1))
def test_a_captive_is_of_the_deepest_tier_its_floor_reaches(floor, seed):
    kind = captive_kind(floor, np.random.default_rng(seed))
    tier = [kinds for first, kinds in CAPTIVE_KINDS.rows if first <= floor][-1]
    assert kind in tier


def test_deeper_tiers_are_stronger():
    hp = [max(MONSTERS[k].max_hp for k in kinds) for kinds in CAPTIVE_KINDS.values()]
    assert hp == sorted(hp)
