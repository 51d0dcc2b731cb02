"""Fire and marsh gas (engine/fire.py, engine/gas.py): moss catches, the spread is the play
stream's and so replays exactly, water stops it, it burns out into ash, it hurts whoever
stands in it, monsters keep out of it, bombs light it, gas explodes, a save keeps it, and look
and the legend name it."""

from __future__ import annotations

import copy

import numpy as np

from roguelike import tiles
from roguelike.engine import Throw, Wait, step
from roguelike.engine.balance import FIRE_DAMAGE, FIRE_FUEL_TURNS, FIRE_SHARE, GAS_BLAST
from roguelike.engine.describe import describe
from roguelike.engine.fire import burn, can_burn, ignite
from roguelike.engine.gas import KEEP_CLEAR, cloud, lay_gas
from roguelike.engine.legend import FIRE_GLYPH, GAS_GLYPH, TILE_MEANING, by_glyph
from roguelike.engine.monsters import monster_options, player_distances
from roguelike.engine.state import GameState
from roguelike.recording import digest
from saves import codec
from tests.engine.support import add, arena, cheb, fresh, off
from tests.saves.support import world_of


def _mossy(state: GameState, c: tuple[int, int], r: int) -> list[tuple[int, int]]:
    """Lay moss on every cell of the (2r+1)² square round ``c`` but ``c`` itself (bare floor);
    no gas."""
    state.gas.clear()
    state.tiles[c[1], c[0]] = tiles.FLOOR
    cells = [off(c, dx, dy) for dy in range(-r, r + 1) for dx in range(-r, r + 1) if dx or dy]
    for x, y in cells:
        state.tiles[y, x] = tiles.MOSS
    return cells


def _burn_out(state: GameState, limit: int = 200) -> int:
    """Burn (without the rest of the world) until no fire is left; the turns it took."""
    for turn in range(limit):
        if not state.fire:
            return turn
        burn(state)
    raise AssertionError("the fire never went out")


def test_moss_catches_spreads_and_burns_out_into_ash():
    state, c = arena(3)
    moss = _mossy(state, c, 3)
    start = off(c, -3, -3)
    ignite(state, *start)
    assert state.fire == {start: FIRE_FUEL_TURNS}
    turns = _burn_out(state)
    ash = [p for p in moss if state.tiles[p[1], p[0]] == tiles.ASH]
    assert start in ash and len(ash) > 1, "the fire spread from the cell it started on"
    assert turns > FIRE_FUEL_TURNS
    for x, y in ash:  # burnt ground never burns long again, and stays walkable
        assert tiles.WALKABLE[state.tiles[y, x]]
        ignite(state, x, y)
        assert state.fire[(x, y)] < FIRE_FUEL_TURNS


def test_the_spread_is_the_play_streams_and_replays_exactly():
    state, c = arena(3)
    _mossy(state, c, 3)
    ignite(state, *off(c, 3, 3))
    twin = copy.deepcopy(state)
    history, twin_history = [], []
    for _ in range(8):
        burn(state)
        burn(twin)
        history.append(sorted(state.fire.items()))
        twin_history.append(sorted(twin.fire.items()))
    assert history == twin_history
    assert np.array_equal(state.tiles, twin.tiles)
    # another state of the play stream burns another way (the rolls are the stream's)
    other, _ = arena(3)
    _mossy(other, c, 3)
    other.rng.integers(100, size=7)
    ignite(other, *off(c, 3, 3))
    other_history = []
    for _ in range(8):
        burn(other)
        other_history.append(sorted(other.fire.items()))
    assert other_history != history


def test_water_stops_the_fire():
    state, c = arena(3)
    _mossy(state, c, 3)
    for dy in range(-3, 4):  # a line of water, then deep water, across the square
        x, y = off(c, 1, dy)
        state.tiles[y, x] = tiles.WATER if dy < 0 else tiles.DEEP_WATER
    for dy in range(-3, 4):
        ignite(state, *off(c, 3, dy))
    for _ in range(60):  # long enough for any spread: keep the right side burning
        for dy in range(-3, 4):
            ignite(state, *off(c, 3, dy))
        burn(state)
    left = [off(c, dx, dy) for dx in (-3, -2, -1) for dy in range(-3, 4)]
    assert all(state.tiles[y, x] == tiles.MOSS for x, y in left)
    assert not any(p in state.fire for p in left)
    for dy in range(-3, 4):
        assert not can_burn(state, *off(c, 1, dy))


def test_doors_stairs_and_walls_never_burn():
    state, c = arena(2)
    for tile in (tiles.DOOR, tiles.DOOR_OPEN, tiles.STAIRS, tiles.WALL, tiles.WATER):
        state.tiles[c[1] - 1, c[0]] = tile
        assert ignite(state, c[0], c[1] - 1) == []
        assert (c[0], c[1] - 1) not in state.fire


def test_fire_hurts_the_player_who_stands_in_it():
    state, c = arena(3)
    state.fire[c] = FIRE_FUEL_TURNS
    hp = state.hp
    step(state, Wait())
    share = state.max_hp * FIRE_SHARE // 100
    assert hp - FIRE_DAMAGE[1] - share <= state.hp <= hp - FIRE_DAMAGE[0] - share
    state.hp = 1
    state.fire[c] = FIRE_FUEL_TURNS
    step(state, Wait())
    assert state.dead and state.cause is not None and state.cause.startswith("burnt to death")


def test_fire_hurts_and_kills_monsters_for_the_players_experience():
    state, c = arena(3)
    rat = add(state, "rat", off(c, 2, 0), awake=False, hp=1)
    state.fire[rat.pos] = FIRE_FUEL_TURNS
    xp = state.xp
    burn(state)
    assert rat not in state.monsters and state.stats.kills == 1 and state.xp > xp


def test_monsters_do_not_step_into_fire_while_they_have_a_choice():
    state, c = arena(3)
    goblin = add(state, "goblin", off(c, -2, 0))
    # without fire, its best move is one step nearer
    best = max(monster_options(state, goblin, player_distances(state)))
    assert best[1] == "move" and cheb(off(goblin.pos, *best[2]), c) == 1
    wall = [off(c, -1, dy) for dy in (-1, 0, 1)]
    for pos in wall:
        state.fire[pos] = FIRE_FUEL_TURNS
    options = monster_options(state, goblin, player_distances(state))
    best = max(options)
    assert off(goblin.pos, *best[2]) not in wall
    # standing in fire, it steps out
    state.fire[goblin.pos] = FIRE_FUEL_TURNS
    best = max(monster_options(state, goblin, player_distances(state)))
    assert best[1] == "move" and off(goblin.pos, *best[2]) not in state.fire


def test_a_bomb_lights_the_moss_it_bursts_on():
    state, c = arena(3)
    _mossy(state, c, 3)
    at = off(c, 3, 0)
    add(state, "rat", at, hp=99)
    state.inventory["fire bomb"] = 1
    step(state, Throw("fire bomb", *at))
    # the moss of the burst's square (inside the arena) burns, a turn older
    burnt = {off(at, dx, dy) for dx in (-1, 0) for dy in (-1, 0, 1)}
    assert all(state.fire.get(p) == FIRE_FUEL_TURNS - 1 for p in burnt)
    assert any(state.tiles[y, x] in (tiles.MOSS, tiles.ASH) for x, y in state.fire)
    assert any("catches fire" in line for line in state.log)


def test_gas_explodes_when_fire_reaches_it_and_is_gone():
    state, c = arena(3)
    state.tiles[c[1] - 3 : c[1] + 4, c[0] - 3 : c[0] + 4] = tiles.FLOOR  # bare, dry ground
    state.gas = {off(c, dx, -3) for dx in (-1, 0, 1)} | {off(c, 2, -2)}
    assert cloud(state.gas, off(c, 0, -3)) == sorted(state.gas, key=lambda p: (p[1], p[0]))
    rat = add(state, "rat", off(c, 0, -2), hp=99)
    hp = state.hp
    ignite(state, *off(c, -1, -3))
    assert not state.gas, "the whole cloud (joined corner to corner) went up at once"
    assert 99 - GAS_BLAST[1] <= rat.hp <= 99 - GAS_BLAST[0]
    assert state.hp == hp, "the player stood out of the blast"
    assert off(c, 2, -2) in state.fire and off(c, 0, -3) in state.fire


def test_gas_lies_by_water_clear_of_the_spawn_and_the_keys_and_the_same_each_time():
    seen_any = False
    for seed in range(6):
        state = fresh(seed, floor=3)
        fl = state.floor
        gas = lay_gas(fl)
        assert gas == lay_gas(fl) == state.gas
        anchors = [fl.spawn, fl.finish, *((k.x, k.y) for k in fl.keys)]
        for x, y in gas:
            seen_any = True
            assert tiles.WALKABLE[fl.tiles[y, x]]
            assert all(cheb((x, y), a) > KEEP_CLEAR for a in anchors)
            near = fl.tiles[max(0, y - 1) : y + 2, max(0, x - 1) : x + 2]
            assert (near == tiles.WATER).any()
    assert seen_any


def test_a_save_keeps_a_burning_floor_and_its_gas():
    state, c = arena(3)
    _mossy(state, c, 3)
    state.regen_clock = 0  # the arena's frozen clock is no saved value
    state.gas = {off(c, 3, 3)}
    ignite(state, *off(c, -3, -3))
    burn(state)
    assert state.fire
    loaded = codec.decode(codec.encode(world_of(state), state)).state
    assert loaded.fire == state.fire and loaded.gas == state.gas
    assert digest(loaded) == digest(state)
    twin = copy.deepcopy(state)
    twin.fire.pop(next(iter(twin.fire)))
    assert digest(twin) != digest(state), "the digest covers the fire"


def test_look_and_the_legend_name_fire_gas_and_ash():
    state, c = arena(3)
    _mossy(state, c, 3)
    fire_at, gas_at = off(c, -2, 0), off(c, 2, 0)
    state.fire[fire_at] = 2
    state.gas = {gas_at}
    assert "Burning (2 more turns)" in describe(state, *fire_at)
    assert "Marsh gas" in describe(state, *gas_at)
    assert "burns" in describe(state, *off(c, 0, 2)).lower()  # moss says it burns
    assert [e.name for e in by_glyph(FIRE_GLYPH)] == ["fire"]
    assert [e.name for e in by_glyph(GAS_GLYPH)] == ["marsh gas"]
    assert [e.name for e in by_glyph(tiles.TILES[tiles.ASH].glyph)] == ["ash"]
    assert "ash" in TILE_MEANING and "Fire never crosses it" in TILE_MEANING["water"]
