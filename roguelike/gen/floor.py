"""A whole floor: the pipeline of DESIGN.md, stages 1 to 7.

``generate_floor(seed, number)`` runs topology → roles → layout → stamping → terrain →
population → proof, each stage a pure function of its inputs and its own random stream
(``seeds.stream(seed, number, stage)``). ``stop_after`` ends the pipeline early so a person can
look at one stage (``roguelike generate --stage layout``). A floor that fails the proof raises
:class:`ProofError`: that is a generator bug, never something to retry silently.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

from roguelike import seeds, tiles
from roguelike.gen import terrain
from roguelike.gen.layout import Layout, embed
from roguelike.gen.topology import DungeonParams, Topology, generate_topology

STAGES = ("topology", "roles", "layout", "stamp", "terrain", "population", "proof")


class ProofError(RuntimeError):
    """A floor that cannot be completed as promised: always a generator bug."""


@dataclass(frozen=True)
class Door:
    x: int
    y: int
    lock: int | None  # the key that opens it, or None
    edge: tuple[int, int]  # the corridor's rooms (a, b)


@dataclass(frozen=True)
class KeySpot:
    id: int
    x: int
    y: int
    room: int


@dataclass(frozen=True)
class Slot:
    """A place where the game puts a monster or an item; ``level`` follows the room's depth."""

    kind: str  # "monster" | "item" | "treasure"
    x: int
    y: int
    room: int
    level: int


@dataclass
class Floor:
    seed: int
    number: int
    last: bool
    params: DungeonParams
    topology: Topology
    roles: dict[int, str] = field(default_factory=dict)
    layout: Layout | None = None
    tiles: np.ndarray | None = None  # uint8 (height, width)
    room_map: np.ndarray | None = None  # int16: room id of each room cell, -1 elsewhere
    protected: np.ndarray | None = None
    zone: np.ndarray | None = None
    theme: str = ""
    doors: list[Door] = field(default_factory=list)
    keys: list[KeySpot] = field(default_factory=list)
    spawn: tuple[int, int] | None = None
    finish: tuple[int, int] | None = None
    slots: list[Slot] = field(default_factory=list)
    spots: dict[int, dict[str, list[tuple[int, int]]]] = field(default_factory=dict)  # per room
    proven: bool = False

    @property
    def width(self) -> int:
        return 0 if self.layout is None else self.layout.width

    @property
    def height(self) -> int:
        return 0 if self.layout is None else self.layout.height


def params_for_floor(number: int) -> DungeonParams:
    """The topology of floor ``number``: 001's defaults on the first floors, then more rooms
    and keys the deeper you go."""
    if number <= 2:
        return DungeonParams()
    grown = min(number, 10) - 2  # floors stop growing at floor 10 (31-44 rooms, 6 keys)
    rooms = (15 + 2 * grown, 20 + 3 * grown)
    keys = min(3 + (min(number, 10) - 1) // 2, 6)
    return DungeonParams.scaled(rooms, keys)


# --- stage 2: roles -------------------------------------------------------------------------


def assign_roles(topo: Topology, rng: np.random.Generator) -> dict[int, str]:
    """start, finish and key rooms from the topology; some other dead ends become treasure
    rooms (more of them deeper down)."""
    roles = {r.id: r.role for r in topo.rooms}
    children = topo.children()
    degree = {r: len(v) for r, v in topo.neighbours().items()}
    for r in topo.rooms:
        dead_end = r.role == "room" and not children[r.id] and degree[r.id] == 1
        if dead_end and rng.integers(100) < 35 + 5 * min(r.depth, 6):
            roles[r.id] = "treasure"
    return roles


# --- stage 4: stamping ----------------------------------------------------------------------


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


def stamp(fl: Floor, rng: np.random.Generator) -> None:
    """Templates, corridors and doors into tile arrays; the protected paths and key zones
    that the terrain stage must respect."""
    lay = fl.layout
    assert lay is not None
    h, w = lay.height, lay.width
    grid = np.full((h, w), tiles.VOID, dtype=np.uint8)
    room_map = np.full((h, w), -1, dtype=np.int16)
    protected = np.zeros((h, w), dtype=bool)
    spots: dict[int, dict[str, list[tuple[int, int]]]] = {}
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
    # doors: the locked one at the room beyond its lock, the others doors or open archways
    fl.doors = []
    for c in lay.corridors:
        e = c.edge
        for cell, at_b in ((c.door_a, False), (c.door_b, True)):
            lock = e.lock if at_b else None
            if lock is not None:
                tile = tiles.locked_door(lock)
            else:
                tile = tiles.DOOR if rng.integers(100) < 55 else tiles.FLOOR
            grid[cell[1], cell[0]] = tile
            protected[cell[1], cell[0]] = True
            fl.doors.append(Door(cell[0], cell[1], lock, (e.a, e.b)))
    # spots and the walkable skeleton that joins each room's doors and spots
    walk = tiles.WALKABLE[grid]
    door_cells: dict[int, list[tuple[int, int]]] = {p.room: [] for p in lay.placements}
    for c in lay.corridors:
        door_cells[c.edge.a].append(c.door_a)
        door_cells[c.edge.b].append(c.door_b)
    for p in lay.placements:
        targets = sorted(door_cells[p.room]) + sorted(
            cell for g in "@>k$m" for cell in spots[p.room].get(g, [])
        )
        inner = walk & (room_map == p.room)
        for x, y in door_cells[p.room]:
            inner[y, x] = True
        for x, y in _skeleton(inner, targets):
            protected[y, x] = True
    room_zone = _zones(fl.topology)
    zone = np.full((h, w), -1, dtype=np.int16)
    for p in lay.placements:
        zone[(room_map == p.room) & walk] = room_zone[p.room]
    for c in lay.corridors:  # a corridor lies on its near side; a locked door on neither
        xs, ys = np.array(c.cells).T
        zone[ys, xs] = room_zone[c.edge.a]
        zone[c.door_a[1], c.door_a[0]] = room_zone[c.edge.a]
        zone[c.door_b[1], c.door_b[0]] = -1 if c.edge.lock is not None else room_zone[c.edge.b]
    # the floor's fixed places
    start_spots = spots[fl.topology.start].get("@") or door_cells[fl.topology.start][:1]
    fl.spawn = start_spots[0]
    finish_spots = spots[fl.topology.finish].get(">") or []
    fl.finish = (
        finish_spots[0] if finish_spots else _centre_cell(walk, room_map, fl.topology.finish)
    )
    grid[fl.finish[1], fl.finish[0]] = tiles.EXIT if fl.last else tiles.STAIRS
    protected[fl.finish[1], fl.finish[0]] = True
    fl.keys = []
    for k in fl.topology.keys:
        ks = spots[k.room].get("k") or [_centre_cell(walk, room_map, k.room)]
        fl.keys.append(KeySpot(k.id, ks[0][0], ks[0][1], k.room))
        protected[ks[0][1], ks[0][0]] = True  # terrain never covers a key
    fl.tiles, fl.room_map, fl.protected, fl.zone, fl.spots = grid, room_map, protected, zone, spots


def _centre_cell(walk: np.ndarray, room_map: np.ndarray, room: int) -> tuple[int, int]:
    """The walkable cell of a room nearest its centre (for templates without a spot)."""
    ys, xs = np.nonzero(walk & (room_map == room))
    cy, cx = ys.mean(), xs.mean()
    i = int(np.argmin((ys - cy) ** 2 + (xs - cx) ** 2))
    return int(xs[i]), int(ys[i])


# --- stage 6: population --------------------------------------------------------------------


def populate(fl: Floor, rng: np.random.Generator) -> None:
    """Slots for monsters, items and treasure, more and stronger with the room's depth."""
    assert fl.tiles is not None and fl.room_map is not None and fl.protected is not None
    walk = tiles.WALKABLE[fl.tiles]
    taken = {fl.spawn, fl.finish} | {(k.x, k.y) for k in fl.keys}
    spots = fl.spots
    slots: list[Slot] = []
    for r in fl.topology.rooms:
        if r.id == fl.topology.start:
            continue
        cells = np.argwhere(walk & (fl.room_map == r.id) & ~fl.protected)
        level = r.depth + fl.number - 1
        monsters = int(rng.poisson(0.5 + 0.3 * min(r.depth, 6)))
        preferred = [c for c in spots[r.id].get("m", []) if walk[c[1], c[0]]]
        for i in range(monsters):
            if i < len(preferred) and preferred[i] not in taken:
                pos = preferred[i]
            elif len(cells):
                y, x = cells[int(rng.integers(len(cells)))]
                pos = (int(x), int(y))
            else:
                continue
            if pos not in taken:
                taken.add(pos)
                slots.append(Slot("monster", pos[0], pos[1], r.id, level))
        if fl.roles.get(r.id) == "treasure":
            for pos in spots[r.id].get("$", []):
                if walk[pos[1], pos[0]] and pos not in taken:
                    taken.add(pos)
                    slots.append(Slot("treasure", pos[0], pos[1], r.id, level))
        if len(cells) and rng.integers(100) < 35:
            y, x = cells[int(rng.integers(len(cells)))]
            pos = (int(x), int(y))
            if pos not in taken:
                taken.add(pos)
                slots.append(Slot("item", pos[0], pos[1], r.id, level))
    fl.slots = slots


# --- stage 7: proof -------------------------------------------------------------------------


def _component(walk: np.ndarray, start: tuple[int, int]) -> np.ndarray:
    from scipy import ndimage

    labels, _ = ndimage.label(walk)  # 4-connected: moving never cuts a corner
    lab = labels[start[1], start[0]]
    return labels == lab if lab else np.zeros_like(walk)


def prove(fl: Floor) -> list[str]:
    """Walk the floor as a player would: from the spawn, pick up every key you can reach and
    open only doors whose key you hold. Every broken promise, in words (empty: proven)."""
    assert fl.tiles is not None and fl.spawn is not None and fl.finish is not None
    problems: list[str] = []
    grid = fl.tiles
    walk = tiles.WALKABLE[grid]
    if not walk[fl.spawn[1], fl.spawn[0]]:
        return ["the spawn is not walkable"]
    locked = {k: grid == tiles.locked_door(k) for k in range(1, tiles.MAX_KEYS + 1)}
    held: set[int] = set()
    reach = _component(walk, fl.spawn)
    while True:
        new = {k.id for k in fl.keys if reach[k.y, k.x]} - held
        if not new:
            break
        held |= new
        opened = walk.copy()
        for k in held:
            opened |= locked[k]
        reach = _component(opened, fl.spawn)
    missing = sorted({k.id for k in fl.keys} - held)
    if missing:
        problems.append(f"keys {missing} cannot be reached")
    if not reach[fl.finish[1], fl.finish[0]]:
        problems.append("the stairs cannot be reached")
    if fl.keys and _component(walk, fl.spawn)[fl.finish[1], fl.finish[0]]:
        problems.append("the stairs can be reached without any key")
    all_keys = {k.id for k in fl.keys}
    for k in sorted(all_keys):
        if int(locked[k].sum()) != 1:
            problems.append(f"door {tiles.key_letter(k)} stands {int(locked[k].sum())} times")
        # every lock on its own must guard the stairs: with every other key, still no way
        opened = walk.copy()
        for other in all_keys - {k}:
            opened |= locked[other]
        if _component(opened, fl.spawn)[fl.finish[1], fl.finish[0]]:
            problems.append(f"the stairs can be reached without key {tiles.key_letter(k)}")
    for s in fl.slots:
        if not reach[s.y, s.x]:
            problems.append(f"a {s.kind} slot at {(s.x, s.y)} cannot be reached")
    assert fl.room_map is not None
    for r in fl.topology.rooms:
        if not (reach & (fl.room_map == r.id)).any():
            problems.append(f"room {r.id} cannot be entered")
    return problems


# --- the pipeline ---------------------------------------------------------------------------


def generate_floor(
    seed: int,
    number: int = 1,
    params: DungeonParams | None = None,
    *,
    last: bool = False,
    stop_after: str = "proof",
) -> Floor:
    """Floor ``number`` of world ``seed``, through the stage ``stop_after``."""
    if stop_after not in STAGES:
        raise ValueError(f"unknown stage {stop_after!r}; one of {', '.join(STAGES)}")
    params = params or params_for_floor(number)
    fl = Floor(seed, number, last, params, generate_topology(seed, number, params))
    upto = STAGES.index(stop_after)
    fl.roles = assign_roles(fl.topology, seeds.stream(seed, number, "roles"))
    if upto < STAGES.index("layout"):
        return fl
    fl.layout = embed(fl.topology, seed, number, fl.roles)
    if upto < STAGES.index("stamp"):
        return fl
    stamp(fl, seeds.stream(seed, number, "stamp"))
    if upto >= STAGES.index("terrain"):
        assert fl.tiles is not None and fl.protected is not None and fl.zone is not None
        fl.theme = terrain.theme_for(number).name
        fl.tiles = terrain.decorate(
            fl.tiles, fl.protected, fl.zone, seeds.stream(seed, number, "terrain"), number
        )
    if upto >= STAGES.index("population"):
        populate(fl, seeds.stream(seed, number, "population"))
    if upto >= STAGES.index("proof"):
        problems = prove(fl)
        if problems:
            raise ProofError(
                f"floor {number} of {seeds.encode(seed)} fails its proof: " + "; ".join(problems)
            )
        fl.proven = True
    return fl
