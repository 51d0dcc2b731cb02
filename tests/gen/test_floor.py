"""Whole floors: the proof on many seeds, layout success at every size, stages, and the proof
itself shown to catch broken floors."""

import dataclasses
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from roguelike import tiles
from roguelike.gen.floor import Decorated, Floor, Laid, Stamped
from roguelike.gen.pipeline import STAGES, generate_floor
from roguelike.gen.prove import prove
from roguelike.gen.topology import DungeonParams, params_for_floor
from roguelike.gen.validate import validate_topology
from tests import floors


@pytest.mark.slow
def test_defaults_over_1000_seeds_make_proven_floors_whose_topology_holds_every_rule():
    """One sweep for two properties of the same 1,000 default floors: each one is made at all
    (``generate_floor`` raises ProofError on a floor that fails its proof), and its topology
    passes the independent validator (the topology stage is the first of the floor's)."""
    params = DungeonParams()
    for seed in range(1000):
        fl = generate_floor(seed, 1, params)
        assert validate_topology(fl.topology, params) == [], seed


@pytest.mark.parametrize(
    "params",
    [
        pytest.param(DungeonParams.scaled((40, 40), 6), id="40-rooms-6-keys"),
        pytest.param(DungeonParams(cycles=2), id="defaults-2-loops"),
        pytest.param(DungeonParams(cycles=4), id="defaults-4-loops"),
    ],
)
@pytest.mark.parametrize(
    "seeds",
    [
        pytest.param(range(3), id="seeds-0-2"),
        pytest.param(range(3, 40), id="seeds-3-39", marks=pytest.mark.slow),
    ],
)
def test_larger_floors_and_loops_always_lay_out_and_prove(params, seeds):
    """Made at all means laid out and proven (the stages raise otherwise); the first seeds in
    the fast tier, the rest of the 40 in the slow one."""
    for seed in seeds:
        fl = generate_floor(seed, 1, params)
        loops = [c for c in fl.layout.corridors if c.edge.loop]
        assert len(loops) == params.cycles


def test_rooms_never_overlap_and_every_edge_has_its_doors():
    fl = floors.floor(5, 1)
    boxes = np.zeros((fl.height, fl.width), dtype=np.int16)
    for p in fl.layout.placements:
        boxes[p.y : p.y + p.h, p.x : p.x + p.w] += 1
    assert boxes.max() == 1
    assert len(fl.doors) == 2 * len(fl.topology.edges)
    for e in fl.topology.edges:
        if e.lock is not None:
            locked = [d for d in fl.doors if d.lock == e.lock]
            assert len(locked) == 1
            assert fl.tiles[locked[0].y, locked[0].x] == tiles.locked_door(e.lock)


def test_floor_size_grows_with_rooms_and_stays_terminal_shaped():
    small = [floors.floor(s, 1) for s in range(10)]
    large = [generate_floor(s, 1, DungeonParams.scaled((40, 40), 6)) for s in range(5)]
    for fl in small:
        assert fl.height <= 84 and fl.width <= 240
    assert np.mean([f.width * f.height for f in large]) > np.mean(
        [f.width * f.height for f in small]
    )


def test_keys_stairs_spawn_and_slots_are_where_they_belong():
    fl = floors.floor(9, 1)
    assert fl.room_map[fl.spawn[1], fl.spawn[0]] == fl.topology.start
    assert fl.room_map[fl.finish[1], fl.finish[0]] == fl.topology.finish
    assert fl.tiles[fl.finish[1], fl.finish[0]] == tiles.STAIRS
    for k in fl.keys:
        assert fl.room_map[k.y, k.x] == next(t.room for t in fl.topology.keys if t.id == k.id)
    assert any(s.kind == "monster" for s in fl.slots)
    deep = [s.level for s in fl.slots]
    assert min(deep) >= 1
    last = floors.floor(9, 1, last=True)
    assert last.tiles[last.finish[1], last.finish[0]] == tiles.EXIT


def test_monsters_grow_with_depth():
    shallow, deep = [], []
    for seed in range(30):
        fl = floors.floor(seed, 1)
        depth = {r.id: r.depth for r in fl.topology.rooms}
        for s in fl.slots:
            if s.kind == "monster":
                (shallow if depth[s.room] <= 2 else deep).append(s)
    assert len(deep) > len(shallow)


def test_floors_of_one_world_differ_and_deeper_floors_are_bigger():
    a = generate_floor(3, 1)
    b = generate_floor(3, 2)
    assert not np.array_equal(a.tiles, b.tiles)
    assert len(params_for_floor(8).rooms) == 2
    assert params_for_floor(8).rooms[0] > params_for_floor(1).rooms[0]
    assert params_for_floor(8).keys > params_for_floor(1).keys


@pytest.mark.parametrize("stage", STAGES)
def test_every_stage_can_be_stopped_after(stage):
    fl = generate_floor(4, 1, stop_after=stage)
    reached = STAGES.index(stage)
    assert isinstance(fl, Laid) == (reached >= STAGES.index("layout"))
    assert isinstance(fl, Stamped) == (reached >= STAGES.index("stamp"))
    assert (isinstance(fl, Decorated) and bool(fl.theme)) == (reached >= STAGES.index("terrain"))
    assert isinstance(fl, Floor) == (stage == "proof")


def test_floor_json_is_byte_identical_across_processes():
    args = [
        sys.executable,
        "-m",
        "roguelike.cli",
        "generate",
        "--seed",
        "ember",
        "--format",
        "json",
    ]
    outs = [
        subprocess.run(args, capture_output=True, text=True, env=dict(os.environ, PYTHONHASHSEED=h))
        for h in ("3", "4242")
    ]
    assert outs[0].returncode == 0, outs[0].stderr
    assert outs[0].stdout == outs[1].stdout
    doc = json.loads(outs[0].stdout)
    assert len(doc["tiles"]) == doc["height"] and all(len(r) == doc["width"] for r in doc["tiles"])
    assert set(doc["legend"]) == set("".join(doc["tiles"]))
    assert doc["proven"] is True and doc["spawn"] and doc["finish"]
    assert {k["id"] for k in doc["keys"]} == {1, 2, 3}
    assert len(doc["rooms"]) == len(doc["topology"]["rooms"])
    assert {d["lock"] for d in doc["doors"]} == {None, 1, 2, 3}


# --- the proof catches what it should ---------------------------------------------------------


@pytest.fixture
def floor():
    return floors.floor(21, 1)


def test_proof_passes_on_the_generated_floor(floor):
    assert prove(floor) == []


def test_proof_catches_a_door_left_open(floor):
    grid = floor.tiles.copy()
    grid[grid == tiles.locked_door(1)] = tiles.FLOOR
    grid[grid == tiles.locked_door(2)] = tiles.FLOOR
    grid[grid == tiles.locked_door(3)] = tiles.FLOOR
    problems = prove(dataclasses.replace(floor, tiles=grid))
    assert any("without any key" in p for p in problems)


@pytest.mark.parametrize("key", [1, 2, 3])
def test_proof_catches_any_single_door_left_open(floor, key):
    grid = floor.tiles.copy()
    grid[grid == tiles.locked_door(key)] = tiles.FLOOR
    problems = prove(dataclasses.replace(floor, tiles=grid))
    assert any(f"without key {tiles.key_letter(key)}" in p for p in problems)
    assert any(f"door {tiles.key_letter(key)} stands 0 times" in p for p in problems)


def test_deep_floors_stop_growing_and_still_prove():
    assert params_for_floor(25) == params_for_floor(10)
    fl = generate_floor(2, 25)
    assert validate_topology(fl.topology, params_for_floor(25)) == []


def test_proof_catches_a_key_behind_its_own_door(floor):
    lock3 = next(d for d in floor.doors if d.lock == 3)
    beyond = next(
        (x, y)
        for y, x in np.argwhere(tiles.WALKABLE[floor.tiles] & (floor.room_map == lock3.edge[1]))
    )
    keys = [
        k if k.id != 3 else dataclasses.replace(k, x=beyond[0], y=beyond[1]) for k in floor.keys
    ]
    problems = prove(dataclasses.replace(floor, keys=keys))
    assert any("keys [3] cannot be reached" in p for p in problems)


def test_proof_catches_walled_in_stairs(floor):
    grid = floor.tiles.copy()
    x, y = floor.finish
    grid[y - 1 : y + 2, x - 1 : x + 2] = tiles.WALL
    grid[y, x] = tiles.STAIRS
    problems = prove(dataclasses.replace(floor, tiles=grid))
    assert any("stairs cannot be reached" in p for p in problems)
