"""Travel the way players do: the places the travel cursor jumps between, what ``>`` asks for,
and what stops a walk, on real floors (monster-free copies, see ``support.fresh``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike.engine import Descend, Explore, ItemTaken, KeyTaken, Message, Moved, Travel, step
from roguelike.engine import travel as travel_module
from roguelike.engine.identify import is_known, look
from roguelike.engine.pathing import FAR, distance_map
from roguelike.engine.places import (
    KINDS,
    finish_known,
    frontier,
    known_steps,
    places,
    stairs_action,
)
from roguelike.engine.travel import come_into_view, known_passable, sightings
from roguelike.engine.words import a
from roguelike.recording import decode_action, encode_action
from tests.engine.support import cheb, fresh

SEEDS = (0, 1, 2)


def texts(events: list) -> str:
    return " ".join(e.text for e in events if isinstance(e, Message))


def explore_some(state, presses: int) -> None:
    """Press explore ``presses`` times (or until it has nothing more to do)."""
    for _ in range(presses):
        turn = state.turn
        step(state, Explore())
        if state.turn == turn:
            return


# -- the places ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_places_come_nearest_first_and_only_from_what_the_player_knows(seed):
    state = fresh(seed)
    explore_some(state, 6)  # part of the floor known, part not
    found = places(state)
    assert found, "a floor part explored has somewhere to go"
    steps = [p.steps if p.steps is not None else FAR for p in found]
    assert steps == sorted(steps)
    for p in found:
        assert p.kind in KINDS and p.pos != state.player
        if p.kind == "monster":
            assert state.visible[p.y, p.x]
        else:
            assert state.explored[p.y, p.x], p  # nothing unseen is ever given away
    # a key lying where the player has not looked is not a place; once seen, it is
    unseen = [pos for pos in state.keys_lying if not state.explored[pos[1], pos[0]]]
    for pos in unseen:
        assert pos not in {p.pos for p in found}
    if unseen:
        state.explored[unseen[0][1], unseen[0][0]] = True
        assert any(p.pos == unseen[0] and p.kind == "key" for p in places(state))


@pytest.mark.parametrize("seed", SEEDS)
def test_each_stretch_of_unexplored_edge_is_one_place_its_nearest_cell(seed):
    state = fresh(seed)
    steps = known_steps(state)
    cells = frontier(state, steps)
    assert cells, "at the start, most of the floor is unexplored"
    ok = known_passable(state)
    unknown = ~state.explored
    for x, y in cells:
        assert ok[y, x] and steps[y, x] < FAR
        around = unknown[max(0, y - 1) : y + 2, max(0, x - 1) : x + 2]
        assert around.any(), (x, y)
    assert len(set(cells)) == len(cells)
    # known_steps is the walk's own distance on the known map
    px, py = state.player
    walk = distance_map(ok, [state.player])
    assert (steps[ok] == walk[ok]).all() and steps[py, px] == 0


def test_a_locked_door_is_a_place_a_step_past_its_nearest_side():
    state = fresh(0)
    state.explored[:] = True
    locked = [p for p in places(state) if p.kind == "locked door"]
    assert locked
    ok = known_passable(state)
    walk = distance_map(ok, [state.player])
    for p in locked:
        beside = walk[max(0, p.y - 1) : p.y + 2, max(0, p.x - 1) : p.x + 2].min()
        assert p.steps == (int(beside) + 1 if beside < FAR else None)


# -- > walks to the stairs -------------------------------------------------------------------


def test_greater_than_walks_to_the_known_stairs_then_takes_them():
    state = fresh(0)
    state.items_lying.clear()
    state.keys_lying.clear()
    assert isinstance(stairs_action(state), str) and finish_known(state) is None
    assert "not found the stairs" in str(stairs_action(state))
    state.explored[:] = True
    state.keys_held = {k.id for k in state.floor.keys}
    finish = state.floor.finish
    assert stairs_action(state) == Travel(*finish)
    step(state, stairs_action(state))
    assert state.player == finish
    assert stairs_action(state) == Descend()
    step(state, stairs_action(state))
    assert state.number == 2


def test_on_the_last_floor_greater_than_walks_to_the_exit():
    state = fresh(0, 3)  # fresh worlds have 3 floors
    assert state.floor.last
    assert "not found the exit" in str(stairs_action(state))
    state.explored[:] = True
    assert stairs_action(state) == Travel(*state.floor.finish)


# -- what stops a walk -----------------------------------------------------------------------


def _far_item_world(which: int):
    """The ``which``-th (from 0) floor 1, by seed, that :func:`_far_item_walk` can set up."""
    found = 0
    for seed in range(60):
        try:
            walk = _far_item_walk(seed)
        except AssertionError:
            continue
        if found == which:
            return walk
        found += 1
    raise AssertionError(f"fewer than {which + 1} floors with a far item in seeds 0..59")


def _far_item_walk(seed: int):
    """A floor all known but one item's cell, the player out of its sight, and a target just
    past the item: a travel there must see the item on the way."""
    state = fresh(seed)
    state.keys_lying.clear()
    state.explored[:] = True
    ok = known_passable(state)
    here = distance_map(ok, [state.player])
    for pos in sorted(state.items_lying, key=lambda p: -int(here[p[1], p[0]])):
        x, y = pos
        if here[y, x] >= FAR or cheb(pos, state.player) <= 12:
            continue
        beyond = [
            (x + dx, y + dy)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if ok[y + dy, x + dx] and here[y + dy, x + dx] > here[y, x]
        ]
        if beyond:
            for other in [p for p in state.items_lying if p != pos]:
                del state.items_lying[other]
            state.explored[y, x] = False
            return state, pos, beyond[0]
    raise AssertionError(f"no far item with a cell beyond it on floor 1 of seed {seed}")


def test_an_unknown_potion_is_named_by_its_look_in_a_travel_stop_and_the_places():
    """A travel stop said "you see a healing potion", and the places to go listed it so, of a
    potion the player knew only by its look: both gave its kind away."""
    state, item, target = _far_item_world(0)
    state.items_lying[item] = "healing potion"
    assert not is_known(state, "healing potion")
    seen_as = a(look(state, "healing potion")[0])
    said = texts(step(state, Travel(*target)))
    assert f"You stop: you see {seen_as}." in said and "healing" not in said
    assert [p.what for p in places(state) if p.kind == "item"] == [seen_as]


@pytest.mark.parametrize("which", (0, 1, 2))
def test_travel_stops_when_an_item_comes_into_view(which):
    state, item, target = _far_item_world(which)
    events = step(state, Travel(*target))
    assert state.player != target and state.explored[item[1], item[0]]
    assert state.visible[item[1], item[0]]
    assert "You stop: you see" in texts(events)
    assert any(isinstance(e, Moved) for e in events)
    # pressed again, it goes on (the item is known now)
    step(state, Travel(*target))
    assert state.player == target or item == state.player


def test_travel_stops_when_the_player_loses_health_without_a_blow(monkeypatch):
    state = fresh(0)
    state.items_lying.clear()
    state.keys_lying.clear()
    state.explored[:] = True
    state.keys_held = {k.id for k in state.floor.keys}
    real = travel_module.one_turn
    calls = []

    def poisoned(st, action):
        events = real(st, action)
        calls.append(action)
        if len(calls) == 3:
            st.hp -= 2  # something other than a blow hurts (as a poison would)
        return events

    monkeypatch.setattr(travel_module, "one_turn", poisoned)
    events = step(state, Travel(*state.floor.finish))
    assert len(calls) == 3 and state.player != state.floor.finish
    assert "You stop: you lost 2 HP." in texts(events)


def test_explore_tells_of_the_stairs_when_it_first_sees_them():
    state = fresh(1)
    for _ in range(200):
        before = finish_known(state)
        turn = state.turn
        events = step(state, Explore())
        if before is None and finish_known(state) is not None:
            assert "You see the stairs down (> walks there)." in texts(events)
            return
        if state.turn == turn:
            break
    raise AssertionError("explore never saw the stairs")


def test_sightings_are_only_what_is_explored():
    state = fresh(2)
    seen = sightings(state)
    for kind, x, y in seen:
        assert state.explored[y, x], (kind, x, y)
    state.explored[:] = True
    everything = sightings(state)
    assert seen <= everything
    assert ("stairs", *state.floor.finish) in everything
    assert {k for k, _, _ in everything} >= {"stairs", "item"}


@given(st.lists(st.sampled_from(["goblin", "rat", "orc", "jackal"]), min_size=1, max_size=6))
@settings(max_examples=60)
def test_monsters_coming_into_view_are_counted_once_each(kinds):
    text = come_into_view(kinds)
    assert text.endswith(("comes into view", "come into view"))
    assert text.endswith("comes into view") == (len(kinds) == 1)
    for kind in set(kinds):
        assert text.count(kind) == 1, (kind, text)
        assert (f"{kind}s" in text) == (kinds.count(kind) > 1), (kind, text)


def test_the_old_message_lists_each_kind_with_its_number():
    assert come_into_view(["goblin", "jackal", "rat"]) == (
        "a goblin, a jackal and a rat come into view"
    )
    assert come_into_view(["goblin", "goblin", "orc"]) == "two goblins and an orc come into view"


# -- key presses: the same floor, cursor by hand against > and Tab ---------------------------


def presses_to_the_stairs(state, *, by_hand: bool) -> int:
    """Key presses from where exploring ends to the next floor: with the travel cursor moved a
    cell at a time (t, a press per cell of the longer axis, Enter, and > on the stairs) or with
    > alone (it walks there, > again descends). A travel that stops early is asked again."""
    presses = 0
    floor = state.number
    for _ in range(20):
        if state.number != floor:
            return presses
        action = stairs_action(state)
        assert not isinstance(action, str), action
        if isinstance(action, Travel) and by_hand:
            presses += 2 + cheb(state.player, (action.x, action.y))
        else:
            presses += 1
        step(state, action)
    raise AssertionError("never reached the next floor")


def floor_presses(seed: int) -> tuple[int, int]:
    """(as before, now) key presses for floor 1 of a quiet world: exploring with ``e`` until
    the stairs are known and reachable, then going down. Before: each explore stopped at every
    pick-up, and the stairs were reached by moving the travel cursor a cell at a time. Now:
    ``e`` explores onward through pick-ups, and ``>`` walks to the stairs."""
    counts = []
    for now in (False, True):
        state = fresh(seed)
        presses = 0
        while True:
            action = stairs_action(state)
            if isinstance(action, Travel) and known_steps(state)[action.y, action.x] < FAR:
                break
            presses += 1
            turn = state.turn
            step(state, Explore(onward=now))
            assert state.turn != turn, "explore ended before the stairs were reachable"
        counts.append(presses + presses_to_the_stairs(state, by_hand=not now))
    return counts[0], counts[1]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_floor_takes_fewer_than_half_the_presses_it_took(seed):
    before, now = floor_presses(seed)
    assert now * 2 < before, (before, now)


# -- explore onward --------------------------------------------------------------------------


def test_explore_onward_goes_on_through_pick_ups_and_stops_at_the_stairs():
    for seed in SEEDS:
        state = fresh(seed)
        taken_in_one = 0
        for _ in range(60):
            before = finish_known(state)
            turn = state.turn
            events = step(state, Explore(onward=True))
            taken = [e for e in events if isinstance(e, ItemTaken | KeyTaken)]
            moved_after = (
                any(isinstance(e, Moved) for e in events[events.index(taken[0]) + 1 :])
                if taken
                else False
            )
            taken_in_one = max(taken_in_one, len(taken) + moved_after)
            if before is None and finish_known(state) is not None:
                assert "You stop: you see the stairs down" in texts(events)
                fx, fy = state.floor.finish
                assert state.visible[fy, fx]
            if state.turn == turn:
                break
        assert taken_in_one >= 2, "an onward explore never walked on past a pick-up"


def test_the_onward_explore_has_its_own_code_and_the_old_one_replays_as_before():
    assert encode_action(Explore()) == "x" and decode_action("x") == Explore()
    assert encode_action(Explore(onward=True)) == "X"
    assert decode_action("X") == Explore(onward=True)
    old, new = fresh(0), fresh(0)
    step(old, Explore())
    step(new, Explore(onward=True))
    # the old explore stops at the first thing it picks up; the new walks on (or stops alike
    # when there was nothing to pick up on the way)
    assert new.turn >= old.turn
