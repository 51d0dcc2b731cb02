"""The sealed vault in play: its seal holds until its pedestal's puzzle is solved and breaks
exactly then, it is richer than a treasure room (every upgrade is kept), look and the legend
explain it, a save round-trips it sealed and open, and the bot goes in (or keeps out, when told
to skip treasure)."""

from __future__ import annotations

import copy
from functools import cache

import numpy as np
import pytest

from roguelike import tiles
from roguelike.autoplay import Memory, Policy, decide
from roguelike.engine import GameState, Move, PickUp, SolvePuzzle, describe, new_game, step
from roguelike.engine.balance import (
    TREASURE_TABLE,
    VAULT_CONSUMABLES,
    VAULT_TABLE,
    VAULT_UPGRADES,
)
from roguelike.engine.legend import by_glyph
from roguelike.engine.puzzle_rooms import PuzzleRoom
from roguelike.gen.floor import Door, VaultSpot
from roguelike.gen.pipeline import generate_floor
from roguelike.recording import digest
from saves import SaveError, codec
from tests.engine.support import put_player, stand_on
from tests.saves.support import pack_as, world_of

FAST = ("jugs", "stomp", "sliding")


@cache
def _vault_world() -> GameState:
    """The first monster-free world (by seed) whose floor 2 has a vault with a fast puzzle."""
    for seed in range(80):
        if "vault" not in generate_floor(seed, 2, stop_after="roles").roles.values():
            continue
        state = new_game(seed, total_floors=3, floor=2, monsters=False)
        if _pedestal(state).type in FAST:
            return state
    raise AssertionError("no vault with a fast puzzle on floor 2 of seeds 0..79")


def world() -> GameState:
    return copy.deepcopy(_vault_world())


def _vault(state: GameState) -> VaultSpot:
    (v,) = state.floor.vaults
    return v


def _pedestal(state: GameState) -> PuzzleRoom:
    return state.puzzles[(_vault(state).x, _vault(state).y)]


def _seal(state: GameState) -> Door:
    return next(d for d in state.floor.doors if d.lock == _vault(state).key)


def _beside_seal(state: GameState) -> tuple[int, int, int, int]:
    """A walkable cell outside the vault next to the seal, and the step from it into the seal."""
    seal = _seal(state)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        x, y = seal.x - dx, seal.y - dy
        if tiles.WALKABLE[state.tiles[y, x]] and state.floor.room_map[y, x] != _vault(state).vault:
            return x, y, dx, dy
    raise AssertionError("no way up to the seal")


def _solve(state: GameState, upto: int | None = None) -> list:
    """Stand on the vault's pedestal and report its optimal plan (its first ``upto`` moves)."""
    room = _pedestal(state)
    stand_on(state, room.pos)
    p = room.puzzle()
    plan = [p.move_to_json(m) for m in p.solve(p.initial()) or []]
    return step(state, SolvePuzzle(tuple(plan[:upto] if upto is not None else plan)))


def _vault_items(state: GameState) -> dict[tuple[int, int], str]:
    room = _vault(state).vault
    return {p: n for p, n in state.items_lying.items() if state.floor.room_map[p[1], p[0]] == room}


def test_the_vault_pedestal_is_a_puzzle_that_opens_the_vault_key():
    state = world()
    room = _pedestal(state)
    assert room.key == _vault(state).key
    assert state.tiles[room.y, room.x] == tiles.PEDESTAL
    assert room.pos not in state.keys_lying


def test_the_seal_holds_until_the_puzzle_is_solved_and_breaks_exactly_then():
    state = world()
    seal = _seal(state)
    x, y, dx, dy = _beside_seal(state)
    put_player(state, (x, y))
    events = step(state, Move(dx, dy))
    assert state.player == (x, y) and state.tiles[seal.y, seal.x] == tiles.VAULT_SEAL
    assert any("pedestal is nearby" in getattr(e, "text", "") for e in events)
    _solve(state, upto=0)
    assert not _pedestal(state).solved
    assert state.tiles[seal.y, seal.x] == tiles.VAULT_SEAL
    events = _solve(state)
    assert _pedestal(state).solved and _vault(state).key in state.keys_held
    assert state.tiles[seal.y, seal.x] == tiles.DOOR_OPEN
    assert any("seal breaks" in getattr(e, "text", "") for e in events)
    put_player(state, (x, y))
    step(state, Move(dx, dy))
    assert state.player == (seal.x, seal.y)


def test_solving_the_vault_opens_no_door_of_the_topology():
    state = world()
    locked = [d for d in state.floor.doors if d.lock is not None and d.lock != _vault(state).key]
    before = [int(state.tiles[d.y, d.x]) for d in locked]
    _solve(state)
    assert [int(state.tiles[d.y, d.x]) for d in locked] == before


def test_the_vault_holds_every_upgrade_for_the_taking_and_a_consumable_or_two():
    state = world()
    inside = _vault_items(state)
    upgrades = [n for n in inside.values() if n in dict(TREASURE_TABLE)]
    finds = [n for n in inside.values() if n not in dict(TREASURE_TABLE)]
    assert VAULT_UPGRADES[0] <= len(upgrades) <= VAULT_UPGRADES[1]
    assert len(set(upgrades)) == len(upgrades)
    consumables = [n for n in finds if n in dict(VAULT_TABLE)]
    assert VAULT_CONSUMABLES[0] <= len(consumables)
    assert not any(p in state.choices for p in inside)  # no choice: nothing crumbles
    _solve(state)
    attack, defence, max_hp = state.attack, state.defence, state.max_hp
    for pos, name in sorted(inside.items()):
        if name in dict(TREASURE_TABLE):
            put_player(state, pos)
            step(state, PickUp())
    assert not any(n in dict(TREASURE_TABLE) for n in _vault_items(state).values())
    assert (state.attack, state.defence, state.max_hp) != (attack, defence, max_hp)


def test_look_and_the_legend_describe_the_seal_and_its_pedestal():
    state = world()
    seal, room = _seal(state), _pedestal(state)
    state.explored[:] = True
    text = describe(state, seal.x, seal.y)
    assert "sealed vault" in text.lower() and "pedestal is nearby" in text
    assert "vault" in describe(state, room.x, room.y)
    (entry,) = by_glyph(tiles.TILES[tiles.VAULT_SEAL].glyph)
    assert "sealed vault" in entry.meaning.lower() and entry.group == "Doors and keys"


@pytest.mark.parametrize("solved", [False, True])
def test_a_vault_round_trips_through_a_save_sealed_or_open(solved):
    state = world()
    if solved:
        _solve(state)
    world_ = world_of(state)
    loaded = codec.decode(codec.encode(world_, state, [])).state
    assert loaded.floor.vaults == state.floor.vaults
    assert np.array_equal(loaded.tiles, state.tiles)
    assert _pedestal(loaded).solved == solved
    assert digest(loaded) == digest(state)


def test_a_floor_without_its_vaults_field_is_refused():
    state = new_game(1, total_floors=3, monsters=False)
    world_ = world_of(state)
    doc = codec.to_document(world_, state)
    del doc["state"]["floor"]["vaults"]
    with pytest.raises(SaveError, match="vaults"):  # every field of the format is required
        codec.decode(pack_as(world_, state, doc))


@pytest.mark.parametrize(
    "vaults",
    [
        [{"key": 11, "x": 1, "y": 1, "room": 0, "vault": 1}],
        [{"key": 9, "x": 1, "y": 1, "room": 0, "vault": 10_000}],
        [{"key": 9, "x": -1, "y": 1, "room": 0, "vault": 1}],
        [{"key": 1, "x": 1, "y": 1, "room": 0, "vault": 1}],
        [{"key": 9, "x": 1, "y": 1, "room": 0, "vault": 1}] * 11,
        "many",
    ],
)
def test_hostile_vaults_are_refused_in_one_line(vaults):
    state = world()
    world_ = world_of(state)
    doc = codec.to_document(world_, state)
    doc["state"]["floor"]["vaults"] = vaults
    with pytest.raises(SaveError, match="vaults"):
        codec.decode(pack_as(world_, state, doc))


def _play(state: GameState, policy: Policy, turns: int, until=lambda s: False) -> set:
    """Let the bot play up to ``turns`` decisions on this floor, or until ``until(state)``;
    the cells it stood on."""
    memory = Memory(policy=policy)
    stood = {state.player}
    floor = state.number
    for _ in range(turns):
        if state.over or state.number != floor or until(state):
            break
        step(state, decide(state, memory=memory).action)
        stood.add(state.player)
    return stood


def _upgrades_left(state: GameState) -> list[str]:
    return [n for n in _vault_items(state).values() if n in dict(TREASURE_TABLE)]


def test_the_bot_solves_the_vault_and_empties_it():
    state = world()
    stood = _play(state, Policy(), 3000, until=lambda s: not _upgrades_left(s))
    assert _pedestal(state).solved and not _upgrades_left(state)
    assert any(state.floor.room_map[y, x] == _vault(state).vault for x, y in stood)


def test_the_bot_keeps_out_of_the_vault_when_it_skips_treasure():
    state = world()
    inside = state.floor.room_map == _vault(state).vault
    seen: set[tuple[int, int]] = set()

    def on_floor_2(s: GameState) -> bool:
        if s.number == 2:
            seen.add(s.player)
        return False

    _play(state, Policy(skip_treasure=True), 3000, until=on_floor_2)
    assert state.number == 3  # it finished the floor
    assert seen and not any(inside[y, x] for x, y in seen)
