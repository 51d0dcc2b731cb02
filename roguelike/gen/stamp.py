"""Stage 4: stamp the layout into a tile map.

Each placed template is resolved (its probabilistic tiles drawn) into the map, corridors are
cut through the rock and walled, and every corridor end gets a door: the locked one at the room
beyond its lock, a vault's seal at the vault (any room whose special record is ``sealed``,
see ``special.py``), the others a door or an open archway. A vault's
pedestal goes in the room the vault hangs from, on the plain cell nearest that room's centre.
The stage also marks what the terrain stage must leave alone (corridors, doors, keys, the
stairs and a walkable skeleton joining each room's doors and spots), each walkable cell's key
zone, and the spawn, stairs and key cells.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from roguelike import tiles
from roguelike.gen.floor import Door, KeySpot, Laid, Spots, Stamped, VaultSpot, carried
from roguelike.gen.special import special
from roguelike.gen.topology import Topology


def _zones(topo: Topology) -> dict[int, int]:
    """Each room's key zone: how many locks lie between it and the start."""
    zone = {topo.start: 0}
    nbrs = topo.children()
    lock_into = {e.b: e.lock for e in topo.edges if not e.loop}
    queue = deque([topo.start])
    while queue:
        r = queue.popleft()
        for c in nbrs[r]:
            zone[c] = zone[r] + (lock_into.get(c) is not None)
            queue.append(c)
    return zone


def _skeleton(walk: np.ndarray, targets: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Cells of shortest paths inside ``walk`` from the first target to every other one."""
    if len(targets) < 2:
        return list(targets)
    h, w = walk.shape
    start = targets[0]
    prev: dict[tuple[int, int], tuple[int, int] | None] = {start: None}
    queue = deque([start])
    while queue:
        x, y = queue.popleft()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < w and 0 <= ny < h and walk[ny, nx] and (nx, ny) not in prev:
                prev[(nx, ny)] = (x, y)
                queue.append((nx, ny))
    cells = {start}
    for t in targets[1:]:
        cur: tuple[int, int] | None = t
        while cur is not None and cur in prev and cur not in cells:
            cells.add(cur)
            cur = prev[cur]
    return sorted(cells)


def _centre_cell(walk: np.ndarray, room_map: np.ndarray, room: int) -> tuple[int, int]:
    """The walkable cell of a room nearest its centre (for templates without a spot)."""
    ys, xs = np.nonzero(walk & (room_map == room))
    cy, cx = ys.mean(), xs.mean()
    i = int(np.argmin((ys - cy) ** 2 + (xs - cx) ** 2))
    return int(xs[i]), int(ys[i])


def stamp(fl: Laid, rng: np.random.Generator) -> Stamped:
    """Stage 4 on a laid-out floor; ``rng`` is the floor's ``stamp`` stream."""
    lay, topo = fl.layout, fl.topology
    h, w = lay.height, lay.width
    grid = np.full((h, w), tiles.VOID, dtype=np.uint8)
    room_map = np.full((h, w), -1, dtype=np.int16)
    protected = np.zeros((h, w), dtype=bool)
    spots: Spots = {}
    for p in lay.placements:
        sub = p.template.resolve(rng)
        inside = sub != tiles.VOID
        region = (slice(p.y, p.y + p.h), slice(p.x, p.x + p.w))
        grid[region][inside] = sub[inside]
        room_map[region][inside] = p.room
        spots[p.room] = {
            g: [(p.x + x, p.y + y) for x, y in cells] for g, cells in p.template.spots.items()
        }
    # corridors, walled where they meet rock
    corridor = np.zeros((h, w), dtype=bool)
    for c in lay.corridors:
        xs, ys = np.array(c.cells).T
        corridor[ys, xs] = True
    near = np.zeros_like(corridor)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            near |= np.roll(np.roll(corridor, dy, axis=0), dx, axis=1)
    grid[near & (grid == tiles.VOID)] = tiles.WALL
    grid[corridor] = tiles.FLOOR
    protected |= corridor
    # a vault (a room whose special record is ``sealed``) has a seal that answers to a key of
    # its own, past the topology's keys
    vault_rooms = sorted(r for r, role in fl.roles.items() if _sealed(role))
    vault_key = {v: len(topo.keys) + 1 + i for i, v in enumerate(vault_rooms)}
    # doors: the locked one at the room beyond its lock, the others doors or open archways
    doors = []
    for c in lay.corridors:
        e = c.edge
        for cell, at_b in ((c.door_a, False), (c.door_b, True)):
            lock = e.lock if at_b else None
            if at_b and e.b in vault_key and not e.loop:
                lock = vault_key[e.b]
                tile = tiles.VAULT_SEAL
            elif lock is not None:
                tile = tiles.locked_door(lock)
            else:
                tile = tiles.DOOR if rng.integers(100) < 55 else tiles.FLOOR
            grid[cell[1], cell[0]] = tile
            protected[cell[1], cell[0]] = True
            doors.append(Door(cell[0], cell[1], lock, (e.a, e.b)))
    # the walkable skeleton that joins each room's doors and spots
    walk = tiles.WALKABLE[grid]
    door_cells: dict[int, list[tuple[int, int]]] = {p.room: [] for p in lay.placements}
    for c in lay.corridors:
        door_cells[c.edge.a].append(c.door_a)
        door_cells[c.edge.b].append(c.door_b)
    vaults = _vault_spots(topo, vault_key, walk, room_map, spots, door_cells)
    pedestal_at = {v.room: [(v.x, v.y)] for v in vaults}
    for p in lay.placements:
        targets = sorted(door_cells[p.room]) + sorted(
            cell for g in "@>k$m" for cell in spots[p.room].get(g, [])
        )
        targets += pedestal_at.get(p.room, [])
        inner = walk & (room_map == p.room)
        for x, y in door_cells[p.room]:
            inner[y, x] = True
        for x, y in _skeleton(inner, targets):
            protected[y, x] = True
    room_zone = _zones(topo)
    zone = np.full((h, w), -1, dtype=np.int16)
    for p in lay.placements:
        zone[(room_map == p.room) & walk] = room_zone[p.room]
    for c in lay.corridors:  # a corridor lies on its near side; a locked door on neither
        xs, ys = np.array(c.cells).T
        zone[ys, xs] = room_zone[c.edge.a]
        zone[c.door_a[1], c.door_a[0]] = room_zone[c.edge.a]
        zone[c.door_b[1], c.door_b[0]] = -1 if c.edge.lock is not None else room_zone[c.edge.b]
    # the floor's fixed places
    spawn = (spots[topo.start].get("@") or door_cells[topo.start][:1])[0]
    finish_spots = spots[topo.finish].get(">") or []
    finish = finish_spots[0] if finish_spots else _centre_cell(walk, room_map, topo.finish)
    grid[finish[1], finish[0]] = tiles.EXIT if fl.last else tiles.STAIRS
    protected[finish[1], finish[0]] = True
    keys = []
    for k in topo.keys:
        ks = spots[k.room].get("k") or [_centre_cell(walk, room_map, k.room)]
        keys.append(KeySpot(k.id, ks[0][0], ks[0][1], k.room))
        protected[ks[0][1], ks[0][0]] = True  # terrain never covers a key
    for v in vaults:
        protected[v.y, v.x] = True  # nor a vault's pedestal
    return Stamped(
        **carried(fl),
        tiles=grid,
        room_map=room_map,
        protected=protected,
        zone=zone,
        doors=doors,
        keys=keys,
        spawn=spawn,
        finish=finish,
        spots=spots,
        vaults=vaults,
    )


def _sealed(role: str) -> bool:
    room = special(role)
    return room is not None and room.sealed


def _vault_spots(
    topo: Topology,
    vault_key: dict[int, int],
    walk: np.ndarray,
    room_map: np.ndarray,
    spots: Spots,
    door_cells: dict[int, list[tuple[int, int]]],
) -> list[VaultSpot]:
    """Each vault's pedestal: in the room the vault hangs from (so the player who finds the
    seal has just walked past its puzzle), on the walkable cell nearest that room's centre that
    is no door, spot or other pedestal (a fixed choice: the stamp stream draws nothing more)."""
    parent = {e.b: e.a for e in topo.edges if not e.loop}
    used: set[tuple[int, int]] = set()
    for by in spots.values():
        for cells in by.values():
            used.update(cells)
    for cells in door_cells.values():
        used.update(cells)
    out = []
    for vault, key in sorted(vault_key.items()):
        room = parent[vault]
        ys, xs = np.nonzero(walk & (room_map == room))
        cells = [(int(x), int(y)) for y, x in zip(ys, xs, strict=True)]
        free = [c for c in cells if c not in used] or cells
        cy, cx = ys.mean(), xs.mean()
        x, y = min(free, key=lambda c: ((c[1] - cy) ** 2 + (c[0] - cx) ** 2, c[1], c[0]))
        used.add((x, y))
        out.append(VaultSpot(key, x, y, room, vault))
    return out
