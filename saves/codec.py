"""A saved game to bytes and back: :func:`encode` and :func:`decode`.

The payload (see :mod:`saves.header` for the envelope) is one JSON object::

    {"world":   {"name", "seed" (code), "preset", "generator", "permadeath", "created"},
     "state":   {every field of GameState; "floor": the current floor in full; "rng": the
                 gameplay stream's PCG64 state; "log": its last LOG_KEPT messages},
     "visited": [{"number", "tiles", "explored"}, …]}   # earlier floors, as left

Maps are arrays (:mod:`saves.fields`). The current floor is saved in full — the tiles as
generated and as they are now, the room map, zones, protected cells, layout, doors, keys,
slots, spots, topology, roles, theme, parameters — so loading never runs the generator.
Nothing is pickled or evaluated: every value is read back through a check of its type and
range, and anything wrong raises one :class:`~saves.errors.SaveError`.

**Versions.** :data:`~saves.header.FORMAT_VERSION` is the format written. A document of an
older format passes through :data:`MIGRATIONS` (``{n: document of format n → format n+1}``)
before it is read, so adding a field (the puzzle states of a coming issue, say) means: bump
the format, write the field, and add a migration that gives old documents its default.

* format 1: the game before puzzle rooms, every key lying on its floor;
* format 2: ``state.puzzles`` (each pedestal: its key, place, type, difficulty, seed, the
  instance once generated, the player's moves, solved, hints used, visited) and
  ``state.with_puzzles``. A format-1 document gets ``puzzles: []`` and ``with_puzzles:
  false``: its keys lie on the floor, and so will those of the floors below.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from roguelike import puzzles, seeds, tiles
from roguelike.engine.creatures import ITEMS, MONSTERS, Monster
from roguelike.engine.puzzle_rooms import PuzzleRoom
from roguelike.engine.state import LOG_LIMIT, PRESETS, GameState, RunStats
from roguelike.gen.floor import Door, Floor, KeySpot, Slot
from roguelike.gen.layout import Corridor, Layout, Placement
from roguelike.gen.templates import FIXED, PROBABILISTIC, SOCKET, SPOTS, TAGS, Template
from roguelike.gen.topology import MAX_ROOMS, DungeonParams, Edge, Key, ParamsError, Room, Topology
from roguelike.version import GAME_VERSION, GENERATOR_VERSION
from saves import fields as f
from saves import header as h
from saves.errors import SaveError, SaveVersionError
from saves.world import VisitedFloor, World, check_name, now_iso, parse_date

#: Messages of the log a save keeps.
LOG_KEPT = 200
MAX_MONSTERS = 10_000
MAX_ITEMS = 100_000
MAX_BIG = 10**9  # counters: turns, HP, experience, energy …
MAX_PACK = 10**6
MAX_MOVES = 100_000  # moves kept for one puzzle
MAX_LINE = 2000  # longest log message kept
ROOM_ROLES_MAX = 32
SLOT_KINDS = ("monster", "item", "treasure")
TOPOLOGY_ROLES = ("start", "finish", "key", "room")
U128 = (1 << 128) - 1
U64 = (1 << 64) - 1
#: What the pack can hold (the other items are used when taken).
PACK_ITEMS = frozenset(name for name, kind in ITEMS.items() if kind.kind == "pack")
_GLYPHS = frozenset(FIXED) | frozenset(SPOTS) | frozenset(PROBABILISTIC) | {SOCKET}

Migration = Callable[[dict[str, Any]], dict[str, Any]]


# --- migrations ------------------------------------------------------------------------------


def _v1_to_v2(doc: dict[str, Any]) -> dict[str, Any]:
    """Format 2 has puzzle rooms. A game saved before them has every key lying on its floor,
    and keeps it so on the floors below (``with_puzzles`` false)."""
    state = dict(f.obj(f.get(doc, "state", "payload"), "payload.state"))
    state.setdefault("puzzles", [])
    state.setdefault("with_puzzles", False)
    return {**doc, "state": state}


#: Format n → format n + 1, applied in a chain from a save's format up to FORMAT_VERSION.
MIGRATIONS: dict[int, Migration] = {1: _v1_to_v2}


def migrate(doc: dict[str, Any], version: int) -> dict[str, Any]:
    """``doc`` of format ``version`` brought to :data:`~saves.header.FORMAT_VERSION`."""
    if version > h.FORMAT_VERSION:
        raise SaveVersionError(h.newer_format_message(version))
    while version < h.FORMAT_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise SaveError(f"format {version} cannot be read by this game (no migration)")
        doc = step(doc)
        version += 1
    return doc


# --- saving ----------------------------------------------------------------------------------


@dataclass
class Loaded:
    """A decoded save."""

    world: World
    state: GameState
    visited: list[VisitedFloor]
    header: h.Header


def summary_of(world: World, state: GameState) -> h.Summary:
    return h.Summary(
        preset=state.preset,
        floor=state.number,
        floors=state.total_floors,
        turn=state.turn,
        permadeath=world.permadeath,
        dead=state.dead,
        won=state.won,
    )


def check_belongs(world: World, state: GameState) -> None:
    """ValueError unless ``state`` is a game of ``world`` (a programming error, not a file's)."""
    if state.seed != world.seed:
        raise ValueError(
            f"the game is of world {seeds.encode(state.seed)}, not {world.code} ({world.name})"
        )
    if state.preset != world.preset:
        raise ValueError(f"the game is a {state.preset} run, the world {world.preset}")


def encode(
    world: World,
    state: GameState,
    visited: Sequence[VisitedFloor] = (),
    *,
    saved: str | None = None,
) -> bytes:
    """The bytes of a save of ``state`` in ``world`` (with the earlier floors ``visited``)."""
    check_belongs(world, state)
    return h.pack(
        to_document(world, state, visited),
        format=h.FORMAT_VERSION,
        game=GAME_VERSION,
        generator=GENERATOR_VERSION,
        seed=world.code,
        world=world.name,
        created=world.created,
        saved=saved or now_iso(),
        summary=summary_of(world, state),
    )


def to_document(
    world: World, state: GameState, visited: Sequence[VisitedFloor] = ()
) -> dict[str, Any]:
    """The payload of the current format, as a JSON-able object."""
    return {
        "world": world_doc(world),
        "state": state_doc(state),
        "visited": [
            {
                "number": v.number,
                "tiles": f.encode_array(v.tiles, f.UINT8),
                "explored": f.encode_array(v.explored, f.BOOL),
            }
            for v in sorted(visited, key=lambda v: v.number)
        ],
    }


def world_doc(world: World) -> dict[str, Any]:
    return {
        "name": world.name,
        "seed": world.code,
        "preset": world.preset,
        "generator": world.generator,
        "permadeath": world.permadeath,
        "created": world.created,
    }


def state_doc(s: GameState) -> dict[str, Any]:
    rng_state = s.rng.bit_generator.state
    return {
        "seed": s.seed,
        "world_name": s.world_name,
        "preset": s.preset,
        "total_floors": s.total_floors,
        "fov_radius": s.fov_radius,
        "with_monsters": s.with_monsters,
        "with_puzzles": s.with_puzzles,
        "floor": floor_doc(s.floor),
        "tiles": f.encode_array(s.tiles, f.UINT8),
        "explored": f.encode_array(s.explored, f.BOOL),
        "visible": f.encode_array(s.visible, f.BOOL),
        "player": list(s.player),
        "hp": s.hp,
        "max_hp": s.max_hp,
        "attack": list(s.attack),
        "defence": s.defence,
        "level": s.level,
        "xp": s.xp,
        "regen_clock": s.regen_clock,
        "turn": s.turn,
        "won": s.won,
        "dead": s.dead,
        "hint_coins": s.hint_coins,
        "keys_held": sorted(s.keys_held),
        "keys_lying": [{"x": x, "y": y, "key": k} for (x, y), k in s.keys_lying.items()],
        "items_lying": [{"x": x, "y": y, "item": i} for (x, y), i in s.items_lying.items()],
        "inventory": [{"item": i, "count": n} for i, n in s.inventory.items()],
        "monsters": [monster_doc(m) for m in s.monsters],
        "puzzles": [puzzle_doc(p) for p in s.puzzles.values()],
        "stats": {
            "floors_reached": s.stats.floors_reached,
            "kills": s.stats.kills,
            "keys": s.stats.keys,
            "puzzles_solved": s.stats.puzzles_solved,
            "hints_used": s.stats.hints_used,
            "cause": s.stats.cause,
        },
        "log": s.log[-LOG_KEPT:],
        "rng": {
            "bit_generator": rng_state["bit_generator"],
            "state": {
                "state": int(rng_state["state"]["state"]),
                "inc": int(rng_state["state"]["inc"]),
            },
            "has_uint32": int(rng_state["has_uint32"]),
            "uinteger": int(rng_state["uinteger"]),
        },
    }


def puzzle_doc(p: PuzzleRoom) -> dict[str, Any]:
    return {
        "key": p.key,
        "x": p.x,
        "y": p.y,
        "type": p.type,
        "difficulty": p.difficulty,
        "seed": p.seed,
        "instance": p.instance,
        "moves": list(p.moves),
        "solved": p.solved,
        "hints_used": p.hints_used,
        "visited": p.visited,
    }


def monster_doc(m: Monster) -> dict[str, Any]:
    return {
        "id": m.id,
        "kind": m.kind,
        "x": m.x,
        "y": m.y,
        "hp": m.hp,
        "home": list(m.home),
        "guard": m.guard,
        "awake": m.awake,
        "energy": m.energy,
        "unseen": m.unseen,
        "extra": dict(m.extra),
    }


def floor_doc(fl: Floor) -> dict[str, Any]:
    if fl.tiles is None or fl.room_map is None or fl.protected is None or fl.zone is None:
        raise ValueError("only a fully generated floor can be saved")
    if fl.spawn is None or fl.finish is None:
        raise ValueError("only a fully generated floor can be saved")
    topo = fl.topology
    p = fl.params
    return {
        "seed": fl.seed,
        "number": fl.number,
        "last": fl.last,
        "params": {
            "rooms": list(p.rooms),
            "leaves": list(p.leaves),
            "finish_distance": list(p.finish_distance),
            "keys": p.keys,
            "start_degree": p.start_degree,
            "max_depth": p.max_depth,
            "cycles": p.cycles,
        },
        "topology": {
            "rooms": [
                {"id": r.id, "depth": r.depth, "role": r.role, "key": r.key} for r in topo.rooms
            ],
            "edges": [{"a": e.a, "b": e.b, "lock": e.lock, "loop": e.loop} for e in topo.edges],
            "keys": [{"id": k.id, "room": k.room} for k in topo.keys],
            "start": topo.start,
            "finish": topo.finish,
            "attempts": topo.attempts,
        },
        "roles": [{"room": r, "role": role} for r, role in fl.roles.items()],
        "layout": None if fl.layout is None else layout_doc(fl.layout),
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
        "proven": fl.proven,
    }


def layout_doc(lay: Layout) -> dict[str, Any]:
    edge_index = {e: i for i, e in enumerate(lay.topology.edges)}
    return {
        "width": lay.width,
        "height": lay.height,
        "attempt": lay.attempt,
        "placements": [
            {
                "room": p.room,
                "x": p.x,
                "y": p.y,
                "template": {
                    "name": p.template.name,
                    "tags": sorted(p.template.tags),
                    "depth": list(p.template.depth),
                    "weight": p.template.weight,
                    "grid": list(p.template.grid),
                },
            }
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


# --- loading ---------------------------------------------------------------------------------


def decode(data: bytes) -> Loaded:
    """The saved game in ``data``; SaveError with a one-line reason for anything wrong."""
    try:
        return _decode(data)
    except SaveError:
        raise
    # every check above is explicit; this only turns a check we did not think of into the
    # same one-line refusal instead of a traceback
    except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError) as err:
        raise SaveError(f"the save is malformed: {type(err).__name__}: {err}") from None


def _decode(data: bytes) -> Loaded:
    head, payload = h.read(data)
    problem = h.generator_problem(head, GENERATOR_VERSION)
    if problem:
        raise SaveVersionError(problem)
    doc = migrate(h.document(payload), head.format)
    world = world_from(f.get(doc, "world", "payload"), "world")
    if world.name != head.world or world.code != head.seed or world.created != head.created:
        raise SaveError("the save's header does not match its payload (world, seed or date)")
    if world.generator != head.generator:
        raise SaveError("the save's header does not match its payload (generator)")
    state = state_from(f.get(doc, "state", "payload"), "state")
    if state.seed != world.seed or state.preset != world.preset:
        raise SaveError("state: its seed or preset is not the world's")
    visited = visited_from(f.get(doc, "visited", "payload"), "visited", state)
    if summary_of(world, state) != head.summary:
        raise SaveError("the save's header does not match its payload (summary)")
    return Loaded(world, state, visited, head)


def world_from(value: Any, where: str) -> World:
    o = f.obj(value, where)
    code = f.text(f.get(o, "seed", where), f"{where}.seed", 20)
    try:
        seed = seeds.decode(code)
    except seeds.SeedCodeError:
        raise SaveError(f"{where}.seed: {f.show(code)} is not a seed code") from None
    try:
        name = check_name(f.text(f.get(o, "name", where), f"{where}.name", 200))
    except ValueError as err:
        raise SaveError(f"{where}.name: {err}") from None
    created = f.text(f.get(o, "created", where), f"{where}.created", 40)
    try:
        parse_date(created)
    except ValueError:
        raise SaveError(f"{where}.created: {f.show(created)} is not an ISO 8601 date") from None
    return World(
        name=name,
        seed=seed,
        preset=f.text(f.get(o, "preset", where), f"{where}.preset", 20, choices=PRESETS),
        permadeath=f.boolean(f.get(o, "permadeath", where), f"{where}.permadeath"),
        created=created,
        generator=f.text(f.get(o, "generator", where), f"{where}.generator", 40),
    )


def visited_from(value: Any, where: str, state: GameState) -> list[VisitedFloor]:
    out: list[VisitedFloor] = []
    for i, item in enumerate(f.array_list(value, where, h.MAX_FLOORS)):
        at = f"{where}[{i}]"
        o = f.obj(item, at)
        number = f.integer(f.get(o, "number", at), f"{at}.number", 1, state.total_floors)
        if out and number <= out[-1].number:
            raise SaveError(f"{at}.number: floors must be listed once each, in order")
        grid = f.decode_array(f.get(o, "tiles", at), f"{at}.tiles", f.UINT8)
        _check_tile_ids(grid, f"{at}.tiles")
        explored = f.decode_array(f.get(o, "explored", at), f"{at}.explored", f.BOOL, grid.shape)
        out.append(VisitedFloor(number, grid, explored))
    return out


def _check_tile_ids(grid: np.ndarray, where: str) -> None:
    top = int(grid.max())
    if top >= len(tiles.TILES):
        raise SaveError(f"{where}: tile id {top} is not a tile (there are {len(tiles.TILES)})")


def state_from(value: Any, where: str) -> GameState:
    o = f.obj(value, where)

    def field(key: str) -> Any:
        return f.get(o, key, where)

    def at(key: str) -> str:
        return f"{where}.{key}"

    seed = f.integer(field("seed"), at("seed"), 0, (1 << seeds.SEED_BITS) - 1)
    total = f.integer(field("total_floors"), at("total_floors"), 1, h.MAX_FLOORS)
    fl = floor_from(field("floor"), at("floor"), seed, total)
    assert fl.tiles is not None
    height, width = int(fl.tiles.shape[0]), int(fl.tiles.shape[1])
    live = f.decode_array(field("tiles"), at("tiles"), f.UINT8, (height, width))
    _check_tile_ids(live, at("tiles"))
    explored = f.decode_array(field("explored"), at("explored"), f.BOOL, (height, width))
    visible = f.decode_array(field("visible"), at("visible"), f.BOOL, (height, width))
    player = f.cell(field("player"), at("player"), width, height)
    if not tiles.WALKABLE[live[player[1], player[0]]]:
        raise SaveError(f"{at('player')}: the player stands in {_tile_name(live, player)}")
    max_hp = f.integer(field("max_hp"), at("max_hp"), 1, MAX_BIG)
    hp = f.integer(field("hp"), at("hp"), 0, max_hp)
    lo, hi = f.pair(field("attack"), at("attack"), 0, MAX_BIG)
    if lo > hi:
        raise SaveError(f"{at('attack')}: {lo}-{hi} is not a range")
    fov = f.optional_int(field("fov_radius"), at("fov_radius"), 0, f.MAX_SIDE)

    keys_held: set[int] = set()
    for i, k in enumerate(f.array_list(field("keys_held"), at("keys_held"), tiles.MAX_KEYS)):
        keys_held.add(f.integer(k, f"{at('keys_held')}[{i}]", 1, tiles.MAX_KEYS))
    keys_lying: dict[tuple[int, int], int] = {}
    for i, item in enumerate(f.array_list(field("keys_lying"), at("keys_lying"), tiles.MAX_KEYS)):
        w = f"{at('keys_lying')}[{i}]"
        e = f.obj(item, w)
        pos = f.cell([f.get(e, "x", w), f.get(e, "y", w)], w, width, height)
        keys_lying[pos] = f.integer(f.get(e, "key", w), f"{w}.key", 1, tiles.MAX_KEYS)
    items_lying: dict[tuple[int, int], str] = {}
    for i, item in enumerate(f.array_list(field("items_lying"), at("items_lying"), MAX_ITEMS)):
        w = f"{at('items_lying')}[{i}]"
        e = f.obj(item, w)
        pos = f.cell([f.get(e, "x", w), f.get(e, "y", w)], w, width, height)
        items_lying[pos] = f.text(f.get(e, "item", w), f"{w}.item", 40, choices=ITEMS)
    inventory: dict[str, int] = {}
    for i, item in enumerate(f.array_list(field("inventory"), at("inventory"), len(ITEMS))):
        w = f"{at('inventory')}[{i}]"
        e = f.obj(item, w)
        kind = f.text(f.get(e, "item", w), f"{w}.item", 40, choices=PACK_ITEMS)
        if kind in inventory:
            raise SaveError(f"{w}: {kind} is listed twice")
        inventory[kind] = f.integer(f.get(e, "count", w), f"{w}.count", 1, MAX_PACK)
    monsters = [
        monster_from(m, f"{at('monsters')}[{i}]", width, height)
        for i, m in enumerate(f.array_list(field("monsters"), at("monsters"), MAX_MONSTERS))
    ]
    if len({m.id for m in monsters}) != len(monsters):
        raise SaveError(f"{at('monsters')}: two monsters share an id")
    rooms: dict[tuple[int, int], PuzzleRoom] = {}
    for i, item in enumerate(f.array_list(field("puzzles"), at("puzzles"), tiles.MAX_KEYS)):
        room = puzzle_from(item, f"{at('puzzles')}[{i}]", width, height)
        if room.pos in rooms:
            raise SaveError(f"{at('puzzles')}[{i}]: two pedestals on one cell")
        rooms[room.pos] = room
    log = [
        f.text(line, f"{at('log')}[{i}]", MAX_LINE)
        for i, line in enumerate(f.array_list(field("log"), at("log"), LOG_LIMIT))
    ]
    state = GameState(
        seed=seed,
        total_floors=total,
        floor=fl,
        tiles=live,
        player=player,
        hp=hp,
        max_hp=max_hp,
        rng=rng_from(field("rng"), at("rng")),
        world_name=f.text(field("world_name"), at("world_name"), 200),
        preset=f.text(field("preset"), at("preset"), 20, choices=PRESETS),
        keys_held=keys_held,
        keys_lying=keys_lying,
        monsters=monsters,
        items_lying=items_lying,
        puzzles=rooms,
        inventory=inventory,
        hint_coins=f.integer(field("hint_coins"), at("hint_coins"), 0, MAX_PACK),
        attack=(lo, hi),
        defence=f.integer(field("defence"), at("defence"), 0, MAX_BIG),
        level=f.integer(field("level"), at("level"), 1, MAX_BIG),
        xp=f.integer(field("xp"), at("xp"), 0, MAX_BIG),
        visible=visible,
        explored=explored,
        turn=f.integer(field("turn"), at("turn"), 0, h.MAX_TURN),
        regen_clock=f.integer(field("regen_clock"), at("regen_clock"), 0, MAX_BIG),
        fov_radius=fov,
        with_monsters=f.boolean(field("with_monsters"), at("with_monsters")),
        with_puzzles=f.boolean(field("with_puzzles"), at("with_puzzles")),
        won=f.boolean(field("won"), at("won")),
        dead=f.boolean(field("dead"), at("dead")),
        log=log,
        stats=stats_from(field("stats"), at("stats"), total),
    )
    return state


def _tile_name(grid: np.ndarray, pos: tuple[int, int]) -> str:
    return tiles.TILES[int(grid[pos[1], pos[0]])].name


def stats_from(value: Any, where: str, total: int) -> RunStats:
    o = f.obj(value, where)

    def count(key: str, lo: int = 0, hi: int = MAX_BIG) -> int:
        return f.integer(f.get(o, key, where), f"{where}.{key}", lo, hi)

    return RunStats(
        floors_reached=count("floors_reached", 1, total),
        kills=count("kills"),
        keys=count("keys"),
        puzzles_solved=count("puzzles_solved"),
        hints_used=count("hints_used"),
        cause=f.optional_text(f.get(o, "cause", where), f"{where}.cause", MAX_LINE),
    )


def rng_from(value: Any, where: str) -> np.random.Generator:
    o = f.obj(value, where)
    name = f.text(f.get(o, "bit_generator", where), f"{where}.bit_generator", 20)
    if name != "PCG64":
        raise SaveError(f"{where}.bit_generator: {f.show(name)}, expected 'PCG64'")
    inner = f.obj(f.get(o, "state", where), f"{where}.state")
    state: Any = {
        "bit_generator": "PCG64",
        "state": {
            "state": f.integer(f.get(inner, "state", where), f"{where}.state.state", 0, U128),
            "inc": f.integer(f.get(inner, "inc", where), f"{where}.state.inc", 0, U128),
        },
        "has_uint32": f.integer(f.get(o, "has_uint32", where), f"{where}.has_uint32", 0, 1),
        "uinteger": f.integer(f.get(o, "uinteger", where), f"{where}.uinteger", 0, U64),
    }
    bits = np.random.PCG64(0)
    try:
        bits.state = state
    except (ValueError, TypeError, OverflowError) as err:
        raise SaveError(f"{where}: numpy refuses this state ({err})") from None
    return np.random.Generator(bits)


def puzzle_from(value: Any, where: str, width: int, height: int) -> PuzzleRoom:
    """A pedestal. Its stored instance is ignored (made again from its seed when needed, and
    its moves checked then): see the comment below."""
    o = f.obj(value, where)

    def field(key: str) -> Any:
        return f.get(o, key, where)

    x, y = f.cell([field("x"), field("y")], where, width, height)
    room = PuzzleRoom(
        key=f.integer(field("key"), f"{where}.key", 1, tiles.MAX_KEYS),
        x=x,
        y=y,
        type=f.text(field("type"), f"{where}.type", 20, choices=puzzles.TYPES),
        difficulty=f.text(
            field("difficulty"), f"{where}.difficulty", 20, choices=puzzles.DIFFICULTIES
        ),
        seed=f.integer(field("seed"), f"{where}.seed", 0, U64),
        instance=None,
        moves=list(f.array_list(field("moves"), f"{where}.moves", MAX_MOVES)),
        solved=f.boolean(field("solved"), f"{where}.solved"),
        hints_used=f.integer(field("hints_used"), f"{where}.hints_used", 0, MAX_BIG),
        visited=f.boolean(field("visited"), f"{where}.visited"),
    )
    instance = field("instance")
    if instance is not None:
        f.obj(instance, f"{where}.instance")
    # The stored instance is not trusted: a shared file could carry a puzzle built to make
    # the solver run for ever. Generation is a pure function of (type, difficulty, seed), so
    # the pedestal makes its puzzle again when it is next used, and checks the saved moves
    # against it then (PuzzleRoom.puzzle).
    return room


def monster_from(value: Any, where: str, width: int, height: int) -> Monster:
    o = f.obj(value, where)

    def field(key: str) -> Any:
        return f.get(o, key, where)

    kind = f.text(field("kind"), f"{where}.kind", 40, choices=MONSTERS)
    pos = f.cell([field("x"), field("y")], where, width, height)
    extra: dict[str, int] = {}
    raw_extra = f.obj(field("extra"), f"{where}.extra")
    if len(raw_extra) > 32:
        raise SaveError(f"{where}.extra: more than 32 entries")
    for key, v in raw_extra.items():
        extra[f.text(key, f"{where}.extra key", 40)] = f.integer(
            v, f"{where}.extra.{key}", -MAX_BIG, MAX_BIG
        )
    return Monster(
        id=f.integer(field("id"), f"{where}.id", 0, MAX_BIG),
        kind=kind,
        x=pos[0],
        y=pos[1],
        hp=f.integer(field("hp"), f"{where}.hp", 1, MONSTERS[kind].max_hp),
        home=f.cell(field("home"), f"{where}.home", width, height),
        guard=f.boolean(field("guard"), f"{where}.guard"),
        awake=f.boolean(field("awake"), f"{where}.awake"),
        energy=f.integer(field("energy"), f"{where}.energy", 0, MAX_BIG),
        unseen=f.integer(field("unseen"), f"{where}.unseen", 0, MAX_BIG),
        extra=extra,
    )


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
    _check_tile_ids(grid, at("tiles"))
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
        spots=spots,
        proven=f.boolean(field("proven"), at("proven")),
    )
    return fl


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


def topology_from(value: Any, where: str) -> Topology:
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
                loop=f.boolean(f.get(e, "loop", w), f"{w}.loop"),
            )
        )
    keys = []
    for i, item in enumerate(f.array_list(f.get(o, "keys", where), f"{where}.keys", n)):
        w = f"{where}.keys[{i}]"
        e = f.obj(item, w)
        keys.append(
            Key(
                id=f.integer(f.get(e, "id", w), f"{w}.id", 1, tiles.MAX_KEYS),
                room=f.integer(f.get(e, "room", w), f"{w}.room", 0, n - 1),
            )
        )
    return Topology(
        rooms=tuple(rooms),
        edges=tuple(edges),
        keys=tuple(keys),
        start=f.integer(f.get(o, "start", where), f"{where}.start", 0, n - 1),
        finish=f.integer(f.get(o, "finish", where), f"{where}.finish", 0, n - 1),
        attempts=f.integer(f.get(o, "attempts", where), f"{where}.attempts", 0, MAX_BIG),
    )


@functools.cache
def _shipped_templates() -> dict[str, Template]:
    """Every shipped template variant by name: a loaded layout shares the game's objects."""
    from roguelike.gen.templates import load_templates

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
