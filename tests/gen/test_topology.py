"""The topology encoding against the independent validator, and the validator against
broken topologies (so that a pass means something)."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike.gen.topology import (
    DungeonParams,
    Edge,
    Key,
    ParamsError,
    Room,
    Topology,
    TopologyError,
    bfs_depths,
    generate_topology,
)
from roguelike.gen.validate import validate_topology

# (the 1,000-seed sweep of the defaults is in test_floor.py: it checks each floor's topology
# against the validator as it makes the floor, so the same seeds are not generated twice)


def test_floors_of_one_world_differ_and_repeat():
    a1, a2 = generate_topology(42, 1), generate_topology(42, 2)
    assert a1 != a2
    assert generate_topology(42, 1) == a1


def test_keys_form_a_progression_on_most_floors():
    """Nesting is drawn per key (70%): most floors hide key B behind lock A."""
    nested = 0
    for seed in range(100):
        topo = generate_topology(seed, 1)
        held = {k.id: k.room for k in topo.keys}
        lock_a = next(e for e in topo.edges if e.lock == 1)
        reach_without_a = _reach(topo, {1})
        nested += held[2] not in reach_without_a
        assert lock_a.b in topo.main_path()
    assert 50 <= nested <= 90


def _reach(topo, blocked):
    return set(bfs_depths(topo, frozenset(blocked)))


@pytest.mark.parametrize("cycles", [1, 2, 4])
def test_loops_keep_every_rule(cycles):
    params = DungeonParams(cycles=cycles)
    for seed in range(60):
        topo = generate_topology(seed, 1, params)
        assert validate_topology(topo, params) == [], (seed, cycles)
        assert sum(e.loop for e in topo.edges) == cycles


@st.composite
def param_sets(draw):
    """Parameter sets scaled from a room count, then with ranges drawn freely around it."""
    hi = draw(st.integers(2, 100))
    lo = draw(st.integers(max(2, hi - 10), hi))
    keys = draw(st.integers(0, min(10, max(0, lo - 3))))
    start_degree = draw(st.integers(1, 4))
    cycles = draw(st.integers(0, 3))
    base = DungeonParams.scaled((lo, hi), keys, cycles, start_degree)
    if draw(st.booleans()):
        f_lo = draw(st.integers(1, 12))
        base = dataclasses.replace(base, finish_distance=(f_lo, f_lo + draw(st.integers(0, 8))))
    if draw(st.booleans()):
        l_lo = draw(st.integers(1, max(1, hi // 2)))
        l_hi = l_lo + draw(st.integers(0, 20))
        base = dataclasses.replace(base, leaves=(l_lo, max(l_hi, hi // 6)))
    return base


@settings(max_examples=8)
@given(param_sets())
def test_parameter_sweep_gives_valid_floors_or_a_clear_refusal(params):
    """A few drawn parameter sets in the fast tier; the long sweep below in the slow one."""
    _valid_floor_or_a_clear_refusal(params)


@pytest.mark.slow
@settings(max_examples=50)
@given(param_sets())
def test_long_parameter_sweep_gives_valid_floors_or_a_clear_refusal(params):
    _valid_floor_or_a_clear_refusal(params)


def _valid_floor_or_a_clear_refusal(params: DungeonParams) -> None:
    try:
        params.check()
    except ParamsError as err:
        assert str(err) and "\n" not in str(err)
        return
    try:
        topo = generate_topology(3, 1, params)
    except ParamsError as err:  # proven impossible by the solver: allowed, but said clearly
        assert "no floor satisfies" in str(err)
        return
    except TopologyError as err:  # ranges packed to their very limit: a clear refusal too
        assert "widen the parameter ranges" in str(err) and "\n" not in str(err)
        return
    assert validate_topology(topo, params) == []


@pytest.mark.parametrize("rooms", [15, 20, 30, 40])
@pytest.mark.parametrize("keys", [0, 3, 6])
def test_scaled_parameters_in_the_games_range_always_solve(rooms, keys):
    """Room and key counts like the game's floors (15–40 rooms, up to 6 keys): always a
    floor, never a refusal."""
    params = DungeonParams.scaled((rooms, rooms), keys)
    params.check()
    for seed in range(3):
        topo = generate_topology(seed * 1000 + rooms + keys, 1, params)
        assert validate_topology(topo, params) == []


SCALED = (st.integers(2, 100), st.integers(0, 10), st.integers(0, 3), st.integers(1, 4))


@settings(max_examples=5)
@given(*SCALED)
def test_scaled_parameters_give_a_floor_or_one_clear_line(rooms, keys, cycles, start_degree):
    """The family the CLI uses when only --rooms and --keys are given: a valid floor, or a
    refusal in one line (by the checks, or by the solver: its proof of infeasibility or an
    exhausted budget). The game's own parameters always solve (test_floor's seed sweep). A few
    draws in the fast tier, the long sweep in the slow one."""
    _scaled_floor_or_one_clear_line(rooms, keys, cycles, start_degree)


@pytest.mark.slow
@settings(max_examples=25)
@given(*SCALED)
def test_scaled_parameters_over_a_long_sweep_give_a_floor_or_one_clear_line(
    rooms, keys, cycles, start_degree
):
    _scaled_floor_or_one_clear_line(rooms, keys, cycles, start_degree)


def _scaled_floor_or_one_clear_line(rooms: int, keys: int, cycles: int, start_degree: int) -> None:
    params = DungeonParams.scaled((rooms, rooms), keys, cycles, start_degree)
    try:
        params.check()
        topo = generate_topology(rooms * 7 + keys, 1, params)
    except (ParamsError, TopologyError) as err:
        assert str(err) and "\n" not in str(err)
        return
    assert validate_topology(topo, params) == []


@pytest.mark.parametrize(
    "params, words",
    [
        (DungeonParams(rooms=(3, 3), keys=5), "5 keys need at least 7 rooms"),
        (DungeonParams(leaves=(4, 4), start_degree=5), "start degree 5"),
        (DungeonParams(rooms=(20, 15)), "range 20:15 is empty"),
        (DungeonParams(keys=9), "9 keys need 9 locked corridors"),
        (DungeonParams(leaves=(2, 3), keys=1, start_degree=4), "at least 4 leaves"),
        (DungeonParams(rooms=(35, 35), leaves=(3, 3), keys=2), "do not fit"),
        (DungeonParams(rooms=(60, 60), leaves=(5, 7)), "at most 8 rooms per dead end"),
        (DungeonParams(finish_distance=(12, 14)), "exceeds the max depth"),
        (DungeonParams(cycles=12), "loops need"),
    ],
)
def test_impossible_parameters_are_refused_before_solving(params, words):
    with pytest.raises(ParamsError, match=words):
        params.check()


# --- the validator catches what it should ----------------------------------------------------


@pytest.fixture(scope="module")
def good():
    return generate_topology(11, 1, DungeonParams(cycles=1))


def _replace_rooms(topo, **changes):
    return dataclasses.replace(topo, **changes)


def test_validator_accepts_the_good_one(good):
    assert validate_topology(good, DungeonParams(cycles=1)) == []


def test_validator_catches_a_key_behind_its_own_lock(good):
    params = DungeonParams(cycles=1)
    lock3 = next(e for e in good.edges if e.lock == 3)
    beyond = [r.id for r in good.rooms if r.id not in _reach(good, {3}) and r.role == "room"]
    key3 = next(k for k in good.keys if k.id == 3)
    target = beyond[0] if beyond else lock3.b
    rooms = tuple(
        dataclasses.replace(r, role="key", key=3)
        if r.id == target
        else dataclasses.replace(r, role="room", key=None)
        if r.id == key3.room
        else r
        for r in good.rooms
    )
    keys = tuple(k if k.id != 3 else Key(3, target) for k in good.keys)
    problems = validate_topology(dataclasses.replace(good, rooms=rooms, keys=keys), params)
    assert any("own lock" in p for p in problems)


def test_validator_catches_a_lock_off_the_main_path(good):
    path = set(good.main_path())
    side = next(e for e in good.edges if not e.loop and e.b not in path and e.lock is None)
    edges = tuple(
        dataclasses.replace(e, lock=None)
        if e.lock == 2
        else dataclasses.replace(e, lock=2)
        if e == side
        else e
        for e in good.edges
    )
    problems = validate_topology(dataclasses.replace(good, edges=edges), DungeonParams(cycles=1))
    assert any("not on the path" in p for p in problems)


def test_validator_catches_a_walk_around_a_lock(good):
    lock = next(e for e in good.edges if e.lock == 1)
    edges = good.edges + (Edge(lock.a, good.finish, None, loop=True),)
    problems = validate_topology(dataclasses.replace(good, edges=edges), DungeonParams(cycles=2))
    assert any("walked around" in p for p in problems)


def test_validator_catches_two_keys_in_one_room_and_a_missing_lock(good):
    k1, k2 = good.keys[0], good.keys[1]
    keys = (k1, Key(k2.id, k1.room)) + good.keys[2:]
    problems = validate_topology(dataclasses.replace(good, keys=keys), DungeonParams(cycles=1))
    assert any("holds 2 keys" in p for p in problems)
    edges = tuple(dataclasses.replace(e, lock=None) if e.lock == 1 else e for e in good.edges)
    problems = validate_topology(dataclasses.replace(good, edges=edges), DungeonParams(cycles=1))
    assert any("do not pair" in p for p in problems)


def test_validator_catches_non_planar_and_overfull_rooms():
    # K5 on rooms 0..4 plus the rest as a path: not planar, degrees above 4
    rooms = tuple(
        Room(i, 1 if i else 0, "start" if i == 0 else "finish" if i == 1 else "room")
        for i in range(6)
    )
    edges = [Edge(a, b) for a in range(5) for b in range(a + 1, 5)] + [Edge(4, 5)]
    topo = Topology(rooms, tuple(edges), ())
    problems = validate_topology(topo, DungeonParams(rooms=(6, 6), keys=0))
    assert any("not planar" in p for p in problems)
    assert any("corridors (at most 4)" in p for p in problems)
    assert any("tree corridors" in p for p in problems)


def test_validator_catches_locks_out_of_order(good):
    edges = tuple(dataclasses.replace(e, lock={1: 2, 2: 1}.get(e.lock, e.lock)) for e in good.edges)
    problems = validate_topology(dataclasses.replace(good, edges=edges), DungeonParams(cycles=1))
    assert any("locks stand in the order" in p for p in problems)


def test_validator_catches_wrong_depths(good):
    rooms = tuple(
        dataclasses.replace(r, depth=r.depth + 1) if r.id == good.finish else r for r in good.rooms
    )
    problems = validate_topology(dataclasses.replace(good, rooms=rooms), DungeonParams(cycles=1))
    assert any("says depth" in p for p in problems)
