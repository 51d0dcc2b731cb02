"""Determinism and streams: inhabiting a floor is a pure function of it (in other processes too),
the population follows depth and floor, and the same actions give the same game.

Every situation is built on a real generated floor: a monster-free game of a seed, with the
player moved and monsters placed by hand on walkable cells, so each test knows exactly who
stands where. Expected values come from the rules (the engine modules' docstrings, the
creatures data), never from a recorded run.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from roguelike import seeds, tiles
from roguelike.engine import Attacked, Descend, GameState, Move, Wait, new_game, step
from roguelike.engine.creatures import SHACKLED, fill_share, inhabit, monster_hp, slot_level
from roguelike.engine.pathing import FAR, distance_map, downhill
from roguelike.engine.puzzle_rooms import place_puzzles
from roguelike.gen.floor import Floor
from roguelike.gen.pipeline import generate_floor
from tests.engine.support import DIRS8, put_player
from tests.floors import floor


def floor_of(seed: int, number: int) -> Floor:
    """The shared floor ``number`` of ``seed``, the last of three worlds' floors on 3."""
    return floor(seed, number, last=number == 3)


REPO = Path(__file__).resolve().parents[2]


# --- 8. determinism and streams -------------------------------------------------------------

SNAPSHOT_SRC = """
import json, sys
from roguelike.engine.creatures import inhabit
from roguelike.gen.pipeline import generate_floor

def snapshot(pairs):
    out = []
    for seed, n in pairs:
        ms, items = inhabit(generate_floor(seed, n, last=n == 3))
        out.append([
            [[m.id, m.kind, m.x, m.y, m.hp, list(m.home), m.guard] for m in ms],
            sorted([x, y, k] for (x, y), k in items.items()),
        ])
    return out
"""
PAIRS = [[0, 1], [1, 2], [5, 3], [17, 1]]


def test_inhabit_is_a_pure_function_of_the_floor():
    for seed, n in PAIRS:
        a = inhabit(generate_floor(seed, n, last=n == 3))
        b = inhabit(generate_floor(seed, n, last=n == 3))
        c = inhabit(floor_of(seed, n))
        assert a == b == c
        assert a[0], "every sampled floor has monsters"


def test_inhabit_is_the_same_in_other_processes():
    ns: dict[str, Any] = {}
    exec(SNAPSHOT_SRC, ns)
    here = json.loads(json.dumps(ns["snapshot"](PAIRS)))
    code = SNAPSHOT_SRC + "\nprint(json.dumps(snapshot(json.loads(sys.argv[1]))))\n"
    for hashseed in ("1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        out = subprocess.run(
            [sys.executable, "-c", code, json.dumps(PAIRS)],
            capture_output=True,
            text=True,
            env=env,
            cwd=REPO,
            check=True,
            timeout=120,
        )
        assert json.loads(out.stdout) == here


def _population(seeds_: range, number: int):
    """(monster, room depth, is leader, floor) for every monster of floor ``number``."""
    rows = []
    for seed in seeds_:
        fl = floor_of(seed, number)
        depth = {r.id: r.depth for r in fl.topology.rooms}
        key_rooms = {k.room for k in fl.keys}
        leaders = {(s.x, s.y) for s in fl.slots if s.kind == "monster"}
        monsters, _ = inhabit(fl)
        for m in monsters:
            room = int(fl.room_map[m.y, m.x])
            assert room >= 0, "monsters live in rooms"
            assert m.guard == (room in key_rooms)
            assert m.awake is False and m.hp == m.max_hp == monster_hp(m.info) and m.home == m.pos
            rows.append((m, depth[room], m.pos in leaders, fl))
    return rows


SAMPLE = range(24)


def test_monster_strength_follows_room_depth_and_floor():
    by_floor = {}
    for number in (1, 3):
        rows = _population(SAMPLE, number)
        for m, depth, _, _ in rows:
            assert m.info.level <= slot_level(depth, number), (m.kind, depth, number)
        by_floor[number] = rows
    mean = {n: np.mean([m.info.level for m, *_ in rows]) for n, rows in by_floor.items()}
    assert mean[3] > mean[1] + 1
    rows = by_floor[1] + by_floor[3]
    shallow = [m.info.level for m, d, _, fl in rows if fl.number == 1 and d <= 2]
    deep = [m.info.level for m, d, _, fl in rows if fl.number == 1 and d >= 4]
    assert shallow and deep and np.mean(deep) > np.mean(shallow)


def test_the_share_of_filled_monster_slots_follows_the_floor():
    for number in (1, 3):
        slots = sum(
            1 for seed in SAMPLE for s in floor_of(seed, number).slots if s.kind == "monster"
        )
        leaders = sum(1 for *_, lead, _ in _population(SAMPLE, number) if lead)
        assert abs(leaders / slots - fill_share(number)) < 0.12, (number, leaders, slots)


def test_pack_monsters_come_in_packs_of_two_to_four():
    """A pack leader brings one to three companions, on the free cells next to it in its
    room: groups of two, three and four occur, never larger (and one only where its room has
    no free cell next to it)."""
    sizes: set[int] = set()
    for number in (1, 3):
        rows = _population(SAMPLE, number)
        for i, (m, _, lead, fl) in enumerate(rows):
            if not (lead and m.info.pack):
                continue
            group = 1
            while (
                i + group < len(rows)
                and not rows[i + group][2]
                and rows[i + group][3] is fl
                and SHACKLED not in rows[i + group][0].extra  # a captive is not a companion
            ):
                group += 1
            assert group <= 4, (fl.seed, fl.number, m.kind, m.pos, group)
            sizes.add(group)
    assert {2, 3, 4} <= sizes


def _snapshot(state: GameState) -> dict[str, Any]:
    return {
        "player": state.player,
        "hp": (state.hp, state.max_hp),
        "turn": state.turn,
        "xp": (state.xp, state.level, state.attack, state.defence),
        "over": (state.dead, state.won, state.stats),
        "log": list(state.log),
        "monsters": copy.deepcopy(state.monsters),
        "items": dict(state.items_lying),
        "pack": (dict(state.inventory), state.hint_coins, set(state.keys_held)),
        "tiles": state.tiles.tobytes(),
        "explored": state.explored.tobytes(),
        "rng": state.rng.bit_generator.state,
    }


def _hunter_action(state: GameState, rng: np.random.Generator):
    """Head for the nearest reachable monster (fighting it on arrival), else for the nearest
    key (unlocking its door on the way later); sometimes wander or wait."""
    r = rng.random()
    if r < 0.1:
        return Wait()
    if r < 0.25:
        return Move(*DIRS8[int(rng.integers(8))])
    ok = tiles.WALKABLE[state.tiles].copy()
    for k in state.keys_held:
        ok |= state.tiles == tiles.locked_door(k)
    mine = distance_map(ok, [state.player])
    goals = [m.pos for m in state.monsters if mine[m.y, m.x] < FAR]
    goals = goals or [p for p in state.keys_lying if mine[p[1], p[0]] < FAR]
    if not goals:
        return Move(*DIRS8[int(rng.integers(8))])
    goal = min(goals, key=lambda p: (int(mine[p[1], p[0]]), p))
    steps = downhill(distance_map(ok, [goal]), ok, *state.player)
    return Move(*steps[0]) if steps else Wait()


@pytest.mark.parametrize("seed", [3, 8])
def test_the_same_actions_give_the_same_game(seed):
    a = new_game(seed, total_floors=3)
    b = new_game(seed, total_floors=3)
    for s in (a, b):
        s.hp = s.max_hp = 400
    assert a.monsters, "a world with monsters"
    chooser = np.random.default_rng(seed)
    fights = 0
    for _ in range(250):
        action = _hunter_action(a, chooser)
        ea, eb = step(a, action), step(b, action)
        assert ea == eb
        assert _snapshot(a) == _snapshot(b)
        fights += len([e for e in ea if isinstance(e, Attacked)])
    assert fights > 5 and a.stats.kills > 0


def test_play_on_floor_one_never_changes_floor_two():
    seed = 4
    expected_monsters, expected_items = inhabit(floor(seed, 2))
    assert expected_monsters
    results = []
    for variant in range(3):
        state = new_game(seed, total_floors=3)
        state.hp = state.max_hp = 400
        chooser = np.random.default_rng(variant)
        for _ in range(60 * variant):  # variant 0 goes straight down
            step(state, _hunter_action(state, chooser))
        state.rng.random(17 * variant)
        put_player(state, state.floor.finish)
        step(state, Descend())
        assert state.number == 2
        # the floor's inhabitants: the hostiles, and a captive room's captive on the player's side
        placed = sorted(state.monsters + state.allies, key=lambda m: m.id)
        assert placed == expected_monsters
        assert state.items_lying == expected_items
        fl2 = floor(seed, 2)
        pedestals = {p.pos: p for p in place_puzzles(fl2)}
        expected_tiles = fl2.tiles.copy()
        for x, y in pedestals:
            expected_tiles[y, x] = tiles.PEDESTAL
        assert np.array_equal(state.tiles, expected_tiles)
        assert state.puzzles == pedestals
        lying = {(k.x, k.y): k.id for k in fl2.keys if (k.x, k.y) not in pedestals}
        assert state.keys_lying == lying
        assert state.rng.bit_generator.state == seeds.stream(seed, 2, "play").bit_generator.state
        results.append(state.turn)
    assert len(set(results)) == 3  # the three runs really played differently
