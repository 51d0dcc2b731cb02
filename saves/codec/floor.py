"""The current floor as generated, record by record, each writer beside its reader: the floor,
its parameters, its topology (stored once, in the shape :meth:`Topology.to_dict` gives it),
its layout and the room templates the layout places. A loaded floor never runs the generator.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from roguelike import seeds, tiles
from roguelike.gen.floor import (
    CHANGE_KINDS,
    TRAP_KINDS,
    Corridor,
    Door,
    Floor,
    FloorChange,
    KeySpot,
    Layout,
    Placement,
    Slot,
    TrapSpot,
    VaultSpot,
)
from roguelike.gen.templates import (
    FIXED,
    PROBABILISTIC,
    SOCKET,
    SPOTS,
    TAGS,
    Template,
    load_templates,
)
from roguelike.gen.topology import MAX_ROOMS, DungeonParams, Edge, Key, ParamsError, Room, Topology
from saves import fields as f
from saves.codec.common import MAX_BIG, MAX_ITEMS, check_tile_ids
from saves.errors import SaveError
from saves.header import MAX_CHANGES, MAX_TRAPS, MAX_VAULTS

ROOM_ROLES_MAX = 32
SLOT_KINDS = ("monster", "item", "treasure", "captive")
TOPOLOGY_ROLES = ("start", "finish", "key", "room")
_GLYPHS = frozenset(FIXED) | frozenset(SPOTS) | frozenset(PROBABILISTIC) | {SOCKET}


# --- floor -----------------------------------------------------------------------------------


def floor_doc(fl: Floor) -> dict[str, Any]:
    return {
        "seed": fl.seed,
        "number": fl.number,
        "last": fl.last,
        "params": params_doc(fl.params),
        "topology": topology_doc(fl.topology),
        "roles": [{"room": r, "role": role} for r, role in fl.roles.items()],
        "layout": layout_doc(fl.layout),
        "tiles": f.encode_array(fl.tiles, f.UINT8),
        "room_map": f.encode_array(fl.room_map, f.INT16),
        "protected": f.encode_array(fl.protected, f.BOOL),
        "zone": f.encode_array(fl.zone, f.INT16),
        "theme": fl.theme,
        "doors": [{"x": d.x, "y": d.y, "lock": d.lock, "edge": list(d.edge)} for d in fl.doors],
        "keys": [{"id": k.id, "x": k.x, "y": k.y, "room": k.room} for k in fl.keys],
        "spawn": list(fl.spawn),
        "finish": list(fl.finish),
        "slots": [
            {"kind": s.kind, "x": s.x, "y": s.y, "room": s.room, "level": s.level} for s in fl.slots
        ],
        "spots": [
            {"room": room, "spots": {g: [list(c) for c in cells] for g, cells in by.items()}}
            for room, by in fl.spots.items()
        ],
        "traps": [{"x": t.x, "y": t.y, "kind": t.kind} for t in fl.traps],
        "vaults": [
            {"key": v.key, "x": v.x, "y": v.y, "room": v.room, "vault": v.vault} for v in fl.vaults
        ],
        "changes": [change_doc(ch) for ch in fl.changes],
        "proven": fl.proven,
    }


def change_doc(ch: FloorChange) -> dict[str, Any]:
    """A floor change: its kind, its pedestal's key, cell and room, and the cells it sets as
    [x, y, tile] rows."""
    return {
        "kind": ch.kind,
        "key": ch.key,
        "x": ch.x,
        "y": ch.y,
        "room": ch.room,
        "cells": [list(c) for c in ch.cells],
    }


def changes_from(
    value: Any, where: str, width: int, height: int, taken: set[int], rooms: set[int]
) -> list[FloorChange]:
    """The floor's changes, each checked: a kind this game knows, a key of its own (``taken``:
    the topology's and the vaults'), its pedestal and cells on the map, every cell's tile one
    a player can walk on."""
    out: list[FloorChange] = []
    for i, item in enumerate(f.array_list(value, where, MAX_CHANGES)):
        w = f"{where}[{i}]"
        e = f.obj(item, w)
        kind = f.text(f.get(e, "kind", w), f"{w}.kind", 20, choices=CHANGE_KINDS)
        key = f.integer(f.get(e, "key", w), f"{w}.key", 1, tiles.MAX_KEYS)
        if key in taken:
            raise SaveError(f"{w}.key: key {key} is another key's")
        taken.add(key)
        x = f.integer(f.get(e, "x", w), f"{w}.x", 0, width - 1)
        y = f.integer(f.get(e, "y", w), f"{w}.y", 0, height - 1)
        room = f.integer(f.get(e, "room", w), f"{w}.room", 0, MAX_ROOMS)
        if room not in rooms:
            raise SaveError(f"{w}.room: no room {room}")
        cells = []
        for j, c in enumerate(f.array_list(f.get(e, "cells", w), f"{w}.cells", width * height)):
            cw = f"{w}.cells[{j}]"
            row = f.array_list(c, cw, 3)
            if len(row) != 3:
                raise SaveError(f"{cw}: not [x, y, tile]")
            cx = f.integer(row[0], f"{cw}[0]", 0, width - 1)
            cy = f.integer(row[1], f"{cw}[1]", 0, height - 1)
            t = f.integer(row[2], f"{cw}[2]", 0, len(tiles.TILES) - 1)
            if not tiles.WALKABLE[t]:
                raise SaveError(f"{cw}: sets {tiles.TILES[t].name}, which no one can walk on")
            cells.append((cx, cy, t))
        out.append(FloorChange(kind, key, x, y, room, tuple(cells)))
    return out


def floor_from(value: Any, where: str, seed: int, total: int) -> Floor:
    o = f.obj(value, where)

    def field(key: str) -> Any:
        return f.get(o, key, where)

    def at(key: str) -> str:
        return f"{where}.{key}"

    if f.integer(field("seed"), at("seed"), 0, (1 << seeds.SEED_BITS) - 1) != seed:
        raise SaveError(f"{at('seed')}: the floor is of another world")
    number = f.integer(field("number"), at("number"), 1, total)
    params = params_from(field("params"), at("params"))
    topo = topology_from(field("topology"), at("topology"))
    rooms = {r.id for r in topo.rooms}
    grid = f.decode_array(field("tiles"), at("tiles"), f.UINT8)
    check_tile_ids(grid, at("tiles"))
    height, width = int(grid.shape[0]), int(grid.shape[1])
    shape = (height, width)
    room_map = f.decode_array(field("room_map"), at("room_map"), f.INT16, shape)
    if int(room_map.min()) < -1 or int(room_map.max()) >= len(rooms):
        raise SaveError(f"{at('room_map')}: a cell names a room that does not exist")
    zone = f.decode_array(field("zone"), at("zone"), f.INT16, shape)
    if int(zone.min()) < -1:
        raise SaveError(f"{at('zone')}: a zone below -1")
    protected = f.decode_array(field("protected"), at("protected"), f.BOOL, shape)

    def room_id(v: Any, w: str) -> int:
        r = f.integer(v, w, 0, MAX_ROOMS)
        if r not in rooms:
            raise SaveError(f"{w}: room {r} is not in the topology")
        return r

    def xy(v: Any, w: str) -> tuple[int, int]:
        return f.cell(v, w, width, height)

    roles: dict[int, str] = {}
    for i, item in enumerate(f.array_list(field("roles"), at("roles"), MAX_ROOMS)):
        w = f"{at('roles')}[{i}]"
        e = f.obj(item, w)
        roles[room_id(f.get(e, "room", w), f"{w}.room")] = f.text(
            f.get(e, "role", w), f"{w}.role", ROOM_ROLES_MAX
        )
    lay = layout_from(field("layout"), at("layout"), topo, shape)  # a Floor always has one
    doors = []
    for i, item in enumerate(f.array_list(field("doors"), at("doors"), 4 * MAX_ROOMS)):
        w = f"{at('doors')}[{i}]"
        e = f.obj(item, w)
        x, y = xy([f.get(e, "x", w), f.get(e, "y", w)], w)
        a, b = f.pair(f.get(e, "edge", w), f"{w}.edge", 0, MAX_ROOMS)
        room_id(a, f"{w}.edge[0]")
        room_id(b, f"{w}.edge[1]")
        lock = f.optional_int(f.get(e, "lock", w), f"{w}.lock", 1, tiles.MAX_KEYS)
        doors.append(Door(x, y, lock, (a, b)))
    keys = []
    for i, item in enumerate(f.array_list(field("keys"), at("keys"), tiles.MAX_KEYS)):
        w = f"{at('keys')}[{i}]"
        e = f.obj(item, w)
        x, y = xy([f.get(e, "x", w), f.get(e, "y", w)], w)
        kid = f.integer(f.get(e, "id", w), f"{w}.id", 1, tiles.MAX_KEYS)
        keys.append(KeySpot(kid, x, y, room_id(f.get(e, "room", w), f"{w}.room")))
    slots = []
    for i, item in enumerate(f.array_list(field("slots"), at("slots"), MAX_ITEMS)):
        w = f"{at('slots')}[{i}]"
        e = f.obj(item, w)
        kind = f.text(f.get(e, "kind", w), f"{w}.kind", 20, choices=SLOT_KINDS)
        x, y = xy([f.get(e, "x", w), f.get(e, "y", w)], w)
        room = room_id(f.get(e, "room", w), f"{w}.room")
        slots.append(
            Slot(kind, x, y, room, f.integer(f.get(e, "level", w), f"{w}.level", 0, 10**6))
        )
    spots: dict[int, dict[str, list[tuple[int, int]]]] = {}
    for i, item in enumerate(f.array_list(field("spots"), at("spots"), MAX_ROOMS)):
        w = f"{at('spots')}[{i}]"
        e = f.obj(item, w)
        room = room_id(f.get(e, "room", w), f"{w}.room")
        by = f.obj(f.get(e, "spots", w), f"{w}.spots")
        if len(by) > len(SPOTS):
            raise SaveError(f"{w}.spots: more than {len(SPOTS)} kinds of spot")
        spots[room] = {
            f.text(g, f"{w}.spots key", 1): [
                xy(c, f"{w}.spots.{g}[{j}]")
                for j, c in enumerate(f.array_list(cells, f"{w}.spots.{g}", width * height))
            ]
            for g, cells in by.items()
        }
    traps = []
    listed = f.array_list(field("traps"), at("traps"), MAX_TRAPS)
    for i, item in enumerate(listed):
        w = f"{at('traps')}[{i}]"
        e = f.obj(item, w)
        x, y = xy([f.get(e, "x", w), f.get(e, "y", w)], w)
        if not tiles.WALKABLE[grid[y, x]]:
            raise SaveError(f"{w}: a trap in {tiles.TILES[int(grid[y, x])].name}")
        kind = f.text(f.get(e, "kind", w), f"{w}.kind", 20, choices=TRAP_KINDS)
        traps.append(TrapSpot(x, y, kind))
    if len({(t.x, t.y) for t in traps}) != len(traps):
        raise SaveError(f"{at('traps')}: two traps on one cell")
    vaults = []
    listed = f.array_list(field("vaults"), at("vaults"), MAX_VAULTS)
    for i, item in enumerate(listed):
        w = f"{at('vaults')}[{i}]"
        e = f.obj(item, w)
        x, y = xy([f.get(e, "x", w), f.get(e, "y", w)], w)
        vkey = f.integer(f.get(e, "key", w), f"{w}.key", 1, tiles.MAX_KEYS)
        room = room_id(f.get(e, "room", w), f"{w}.room")
        vaults.append(VaultSpot(vkey, x, y, room, room_id(f.get(e, "vault", w), f"{w}.vault")))
    if len({v.key for v in vaults} | {k.id for k in keys}) != len(vaults) + len(keys):
        raise SaveError(f"{at('vaults')}: a vault's key is another key's")
    changes = changes_from(
        field("changes"),
        at("changes"),
        width,
        height,
        {v.key for v in vaults} | {k.id for k in keys},
        {r.id for r in topo.rooms},
    )
    fl = Floor(
        seed=seed,
        number=number,
        last=f.boolean(field("last"), at("last")),
        params=params,
        topology=topo,
        roles=roles,
        layout=lay,
        tiles=grid,
        room_map=room_map,
        protected=protected,
        zone=zone,
        theme=f.text(field("theme"), at("theme"), 80),
        doors=doors,
        keys=keys,
        spawn=xy(field("spawn"), at("spawn")),
        finish=xy(field("finish"), at("finish")),
        slots=slots,
        traps=traps,
        vaults=vaults,
        changes=changes,
        spots=spots,
        proven=f.boolean(field("proven"), at("proven")),
    )
    return fl


# --- parameters ------------------------------------------------------------------------------


def params_doc(p: DungeonParams) -> dict[str, Any]:
    return {
        "rooms": list(p.rooms),
        "leaves": list(p.leaves),
        "finish_distance": list(p.finish_distance),
        "keys": p.keys,
        "start_degree": p.start_degree,
        "max_depth": p.max_depth,
        "cycles": p.cycles,
    }


def params_from(value: Any, where: str) -> DungeonParams:
    o = f.obj(value, where)

    def rng(key: str) -> tuple[int, int]:
        return f.pair(f.get(o, key, where), f"{where}.{key}", 0, 10_000)

    def num(key: str) -> int:
        return f.integer(f.get(o, key, where), f"{where}.{key}", 0, 10_000)

    params = DungeonParams(
        rooms=rng("rooms"),
        leaves=rng("leaves"),
        finish_distance=rng("finish_distance"),
        keys=num("keys"),
        start_degree=num("start_degree"),
        max_depth=num("max_depth"),
        cycles=num("cycles"),
    )
    try:
        params.check()
    except ParamsError as err:
        raise SaveError(f"{where}: {err}") from None
    return params


# --- topology --------------------------------------------------------------------------------


def topology_doc(topo: Topology) -> dict[str, Any]:
    """The topology in the one shape the project gives it (:meth:`Topology.to_dict`, what
    ``roguelike generate --format json`` prints: rooms with the key each holds, edges with
    ``loop`` only when true), plus the solver attempts it took."""
    return {**topo.to_dict(), "attempts": topo.attempts}


def topology_from(value: Any, where: str) -> Topology:
    """A topology of :func:`topology_doc`'s shape; its keys are those its rooms hold."""
    o = f.obj(value, where)
    raw_rooms = f.array_list(f.get(o, "rooms", where), f"{where}.rooms", MAX_ROOMS)
    rooms = []
    for i, item in enumerate(raw_rooms):
        w = f"{where}.rooms[{i}]"
        e = f.obj(item, w)
        rooms.append(
            Room(
                id=f.integer(f.get(e, "id", w), f"{w}.id", 0, MAX_ROOMS),
                depth=f.integer(f.get(e, "depth", w), f"{w}.depth", 0, MAX_ROOMS),
                role=f.text(f.get(e, "role", w), f"{w}.role", 20, choices=TOPOLOGY_ROLES),
                key=f.optional_int(f.get(e, "key", w), f"{w}.key", 1, tiles.MAX_KEYS),
            )
        )
    ids = [r.id for r in rooms]
    if sorted(ids) != list(range(len(ids))) or not ids:
        raise SaveError(f"{where}.rooms: room ids must be 0..{len(ids) - 1}, each once")
    held = [r.key for r in rooms if r.key is not None]
    if len(set(held)) != len(held):
        raise SaveError(f"{where}.rooms: a key lies in two rooms")
    n = len(ids)
    edges = []
    for i, item in enumerate(f.array_list(f.get(o, "edges", where), f"{where}.edges", 4 * n)):
        w = f"{where}.edges[{i}]"
        e = f.obj(item, w)
        edges.append(
            Edge(
                a=f.integer(f.get(e, "a", w), f"{w}.a", 0, n - 1),
                b=f.integer(f.get(e, "b", w), f"{w}.b", 0, n - 1),
                lock=f.optional_int(f.get(e, "lock", w), f"{w}.lock", 1, tiles.MAX_KEYS),
                loop=f.boolean(e.get("loop", False), f"{w}.loop"),
            )
        )
    return Topology(
        rooms=tuple(rooms),
        edges=tuple(edges),
        keys=keys_of(rooms),
        start=f.integer(f.get(o, "start", where), f"{where}.start", 0, n - 1),
        finish=f.integer(f.get(o, "finish", where), f"{where}.finish", 0, n - 1),
        attempts=f.integer(f.get(o, "attempts", where), f"{where}.attempts", 0, MAX_BIG),
    )


def keys_of(rooms: Sequence[Room]) -> tuple[Key, ...]:
    """The keys of a topology, as the generator lists them: by key, each with its room."""
    return tuple(sorted(Key(r.key, r.id) for r in rooms if r.key is not None))


# --- layout ----------------------------------------------------------------------------------


def layout_doc(lay: Layout) -> dict[str, Any]:
    """The layout; each corridor names its edge by its place in the floor's topology."""
    edge_index = {e: i for i, e in enumerate(lay.topology.edges)}
    return {
        "width": lay.width,
        "height": lay.height,
        "attempt": lay.attempt,
        "placements": [
            {"room": p.room, "x": p.x, "y": p.y, "template": template_doc(p.template)}
            for p in lay.placements
        ],
        "corridors": [
            {
                "edge": edge_index[c.edge],
                "cells": [list(cell) for cell in c.cells],
                "door_a": list(c.door_a),
                "door_b": list(c.door_b),
            }
            for c in lay.corridors
        ],
    }


def layout_from(value: Any, where: str, topo: Topology, shape: tuple[int, int]) -> Layout:
    o = f.obj(value, where)
    height, width = shape
    if f.integer(f.get(o, "width", where), f"{where}.width", 1, f.MAX_SIDE) != width or (
        f.integer(f.get(o, "height", where), f"{where}.height", 1, f.MAX_SIDE) != height
    ):
        raise SaveError(f"{where}: its size is not the map's {width}x{height}")
    n = len(topo.rooms)
    placements = []
    for i, item in enumerate(f.array_list(f.get(o, "placements", where), f"{where}.placements", n)):
        w = f"{where}.placements[{i}]"
        e = f.obj(item, w)
        t = template_from(f.get(e, "template", w), f"{w}.template")
        x = f.integer(f.get(e, "x", w), f"{w}.x", 0, width - t.width)
        y = f.integer(f.get(e, "y", w), f"{w}.y", 0, height - t.height)
        placements.append(Placement(f.integer(f.get(e, "room", w), f"{w}.room", 0, n - 1), t, x, y))
    corridors = []
    raw = f.array_list(f.get(o, "corridors", where), f"{where}.corridors", len(topo.edges))
    for i, item in enumerate(raw):
        w = f"{where}.corridors[{i}]"
        e = f.obj(item, w)
        edge = topo.edges[f.integer(f.get(e, "edge", w), f"{w}.edge", 0, len(topo.edges) - 1)]
        cells = tuple(
            f.cell(c, f"{w}.cells[{j}]", width, height)
            for j, c in enumerate(f.array_list(f.get(e, "cells", w), f"{w}.cells", width * height))
        )
        door_a = f.cell(f.get(e, "door_a", w), f"{w}.door_a", width, height)
        door_b = f.cell(f.get(e, "door_b", w), f"{w}.door_b", width, height)
        corridors.append(Corridor(edge, cells, door_a, door_b))
    return Layout(
        topology=topo,
        placements=tuple(placements),
        corridors=tuple(corridors),
        width=width,
        height=height,
        attempt=f.integer(f.get(o, "attempt", where), f"{where}.attempt", 0, MAX_BIG),
    )


# --- templates -------------------------------------------------------------------------------


def template_doc(t: Template) -> dict[str, Any]:
    return {
        "name": t.name,
        "tags": sorted(t.tags),
        "depth": list(t.depth),
        "weight": t.weight,
        "grid": list(t.grid),
    }


@functools.cache
def _shipped_templates() -> dict[str, Template]:
    """Every shipped template variant by name: a loaded layout shares the game's objects."""
    return {v.name: v for t in load_templates() for v in t.variants()}


def template_from(value: Any, where: str) -> Template:
    o = f.obj(value, where)
    name = f.text(f.get(o, "name", where), f"{where}.name", 100)
    tags = frozenset(
        f.text(t, f"{where}.tags[{i}]", 20, choices=TAGS)
        for i, t in enumerate(f.array_list(f.get(o, "tags", where), f"{where}.tags", len(TAGS)))
    )
    depth = f.pair(f.get(o, "depth", where), f"{where}.depth", 0, 10_000)
    weight = f.integer(f.get(o, "weight", where), f"{where}.weight", 1, 10_000)
    rows = f.array_list(f.get(o, "grid", where), f"{where}.grid", 200)
    grid = tuple(f.text(r, f"{where}.grid[{i}]", 200) for i, r in enumerate(rows))
    if not grid or not grid[0] or any(len(r) != len(grid[0]) for r in grid):
        raise SaveError(f"{where}.grid: rows must be non-empty and of one length")
    if any(c not in _GLYPHS for r in grid for c in r):
        raise SaveError(f"{where}.grid: a glyph that is not in the template legend")
    made = Template(name, tags, depth, weight, grid, source="<save>")
    known = _shipped_templates().get(name)
    if known is not None and (known.tags, known.depth, known.weight, known.grid) == (
        tags,
        depth,
        weight,
        grid,
    ):
        return known
    return made
