"""The sealed vault in generation: the roles stage places it on some floors from floor 2 on,
the stamp stage seals it and sets its pedestal in the room before it, it never holds a key,
and the proof shows every floor completable without it and the vault open once solved."""

from __future__ import annotations

import dataclasses
from functools import cache

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from roguelike import tiles
from roguelike.gen.floor import Floor, VaultSpot
from roguelike.gen.pipeline import generate_floor
from roguelike.gen.prove import prove
from roguelike.gen.roles import SPECIAL_ROLES, TREASURE_ROLES, room_roles

SEEDS = range(40)


@cache
def _vault_seeds(floor: int) -> tuple[int, ...]:
    """The seeds among SEEDS whose floor ``floor`` has a vault (the roles stage only)."""
    return tuple(
        s for s in SEEDS if "vault" in generate_floor(s, floor, stop_after="roles").roles.values()
    )


@cache
def _vault_floor(index: int = 0) -> Floor:
    """The ``index``-th floor 2 with a vault, generated whole (so proven)."""
    return generate_floor(_vault_seeds(2)[index], 2)


def _parent(fl: Floor, room: int) -> int:
    return next(e.a for e in fl.topology.edges if e.b == room and not e.loop)


def test_vaults_lie_on_some_floors_from_floor_2_never_on_floor_1():
    assert len(_vault_seeds(2)) >= 3
    assert "vault" in SPECIAL_ROLES and "vault" in TREASURE_ROLES
    for s in range(10):
        assert "vault" not in generate_floor(s, 1, stop_after="roles").roles.values()


@given(st.integers(0, 2**32 - 1))
def test_the_roles_draw_at_most_one_vault_and_only_on_a_plain_dead_end(n):
    topo = generate_floor(0, 3, stop_after="topology").topology
    roles = room_roles(topo, np.random.default_rng(n), 3)
    vaults = [r for r, role in roles.items() if role == "vault"]
    assert len(vaults) <= 1
    children, degree = topo.children(), {r: len(v) for r, v in topo.neighbours().items()}
    by_id = {r.id: r for r in topo.rooms}
    for v in vaults:
        assert by_id[v].role == "room" and by_id[v].key is None
        assert not children[v] and degree[v] == 1


def test_a_vault_holds_no_key_and_is_sealed_with_its_pedestal_in_the_room_before_it():
    for i in range(3):
        fl = _vault_floor(i)
        (v,) = fl.vaults
        assert fl.roles[v.vault] == "vault"
        assert v.vault != fl.topology.finish
        assert all(k.room != v.vault for k in fl.keys)
        assert v.key not in {k.id for k in fl.keys} and 1 <= v.key <= tiles.MAX_KEYS
        assert v.room == _parent(fl, v.vault)
        assert fl.room_map[v.y, v.x] == v.room and tiles.WALKABLE[fl.tiles[v.y, v.x]]
        assert fl.protected[v.y, v.x]
        (seal,) = [d for d in fl.doors if d.lock == v.key]
        assert fl.tiles[seal.y, seal.x] == tiles.VAULT_SEAL
        assert int((fl.tiles == tiles.VAULT_SEAL).sum()) == 1
        # its treasure is in it, and nothing that lives
        kinds = {s.kind for s in fl.slots if s.room == v.vault}
        assert "treasure" in kinds and "monster" not in kinds


def test_the_proof_passes_for_floors_with_a_vault():
    for i in range(3):
        fl = _vault_floor(i)
        assert prove(fl) == []  # the control for the refusals below


def test_the_proof_refuses_a_vault_open_without_its_puzzle():
    fl = _vault_floor()
    (v,) = fl.vaults
    (seal,) = [d for d in fl.doors if d.lock == v.key]
    grid = fl.tiles.copy()
    grid[seal.y, seal.x] = tiles.FLOOR
    problems = prove(dataclasses.replace(fl, tiles=grid))
    assert any("entered with its seal shut" in p for p in problems), problems


def test_the_proof_refuses_a_vault_whose_way_in_is_cut_off():
    fl = _vault_floor()
    (v,) = fl.vaults
    grid = fl.tiles.copy()
    grid[(fl.room_map == v.vault) & tiles.WALKABLE[grid]] = tiles.WALL
    problems = prove(dataclasses.replace(fl, tiles=grid))
    assert any("cannot be entered once its puzzle is solved" in p for p in problems), problems


def test_the_proof_refuses_a_pedestal_behind_its_own_seal_or_a_seal_on_a_topology_key():
    fl = _vault_floor()
    (v,) = fl.vaults
    ys, xs = np.nonzero((fl.room_map == v.vault) & tiles.WALKABLE[fl.tiles])
    inside = dataclasses.replace(v, x=int(xs[0]), y=int(ys[0]))
    problems = prove(dataclasses.replace(fl, vaults=[inside]))
    assert any("pedestal of vault" in p for p in problems), problems
    stolen = VaultSpot(fl.keys[0].id, v.x, v.y, v.room, v.vault)
    problems = prove(dataclasses.replace(fl, vaults=[stolen]))
    assert any("key" in p for p in problems), problems


def test_the_stairs_never_need_the_vault():
    """With the seal left shut for good (a wall), the floor still proves: nothing the stairs
    need lies behind it."""
    fl = _vault_floor(1)
    (v,) = fl.vaults
    (seal,) = [d for d in fl.doors if d.lock == v.key]
    grid = fl.tiles.copy()
    grid[seal.y, seal.x] = tiles.WALL
    problems = prove(dataclasses.replace(fl, tiles=grid, vaults=[]))
    behind = {f"room {v.vault} cannot be entered"} | {
        f"a {s.kind} slot at {(s.x, s.y)} cannot be reached" for s in fl.slots if s.room == v.vault
    }
    assert set(problems) <= behind and f"room {v.vault} cannot be entered" in problems
