"""The game as played, record by record, each writer beside its reader: the world, the game
state, its run statistics, its random stream, its monsters and puzzle rooms, and the earlier
floors visited. The current floor as generated is :mod:`saves.codec.floor`'s.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import numpy as np

from roguelike import puzzles, seeds, tiles
from roguelike.engine.balance import (
    BERSERK_TURNS,
    CONFUSED_TURNS,
    DARK_TURNS,
    DETECT_TURNS,
    DIFFICULTIES,
    FIRE_FUEL_TURNS,
    FREE_TURNS,
    HALLUCINATION_TURNS,
    HASTE_TURNS,
    NET_TURNS,
    PERK_OFFERED,
    PERKS,
    PLAYER_SPEED_LEAST,
    STEALTH_MOST,
    WEARY_TURNS,
)
from roguelike.engine.creatures import ITEMS, MONSTERS, SHACKLED, Monster, monster_hp
from roguelike.engine.fire import FIRE_PROOF
from roguelike.engine.identify import POTIONS, SCROLLS
from roguelike.engine.puzzle_rooms import PuzzleRoom
from roguelike.engine.state import LOG_LIMIT, GameState, RunStats
from roguelike.presets import PRESETS
from roguelike.recording import MAX_ACTIONS
from saves import fields as f
from saves import header as h
from saves.codec.common import (
    MAX_BIG,
    MAX_ITEMS,
    MAX_LINE,
    MAX_MONSTERS,
    MAX_MOVES,
    MAX_PACK,
    U64,
    U128,
    check_tile_ids,
)
from saves.codec.floor import floor_doc, floor_from
from saves.errors import SaveError
from saves.text import printable
from saves.world import RUN_ID, VisitedFloor, World, check_name, parse_date

#: Messages of the log a save keeps.
LOG_KEPT = 200
#: What the pack can hold (the other items are used when taken).
PACK_ITEMS = frozenset(name for name, kind in ITEMS.items() if kind.kind == "pack" or kind.slot)
#: What the pack can hold besides: the wearables not worn.
WEARABLES = frozenset(name for name, kind in ITEMS.items() if kind.slot)
#: What ``state.identified`` can hold: the potion and scroll kinds.
KNOWABLE = frozenset(POTIONS + SCROLLS)


# --- world -----------------------------------------------------------------------------------


def world_doc(world: World) -> dict[str, Any]:
    return {
        "name": world.name,
        "seed": seeds.stored(world.seed),
        "preset": world.preset,
        "difficulty": world.difficulty,
        "generator": world.generator,
        "permadeath": world.permadeath,
        "created": world.created,
        "challenge": world.challenge,
        "practice_from": world.practice_from,
    }


def state_name(value: Any, where: str) -> str:
    """The world name a state carries, under the one rule for names (as the header's)."""
    try:
        return check_name(f.text(value, where, 200))
    except ValueError as err:  # BadWorldName
        raise SaveError(f"{where}: {err}") from None


def shown_text(text: str | None) -> str | None:
    """A text the screens show (a cause of death), made printable and kept within its bound."""
    return None if text is None else printable(text)[:MAX_LINE]


def world_from(value: Any, where: str) -> World:
    o = f.obj(value, where)
    code = f.text(f.get(o, "seed", where), f"{where}.seed", 20)
    try:
        seed = seeds.read_stored(code)
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
        challenge=_challenge_id(f.get(o, "challenge", where), f"{where}.challenge"),
        difficulty=f.difficulty(o, where),
        practice_from=_practice_from(f.get(o, "practice_from", where), f"{where}.practice_from"),
    )


def _practice_from(value: Any, where: str) -> int | None:
    """The input a practice world began at (bounded as a recording's inputs), or None."""
    return None if value is None else f.integer(value, where, 0, MAX_ACTIONS)


def _challenge_id(value: Any, where: str) -> str | None:
    """A run id (letters, digits and dashes), or None (a world that answers no challenge)."""
    run_id = f.optional_text(value, where, 40)
    if run_id is not None and not RUN_ID.fullmatch(run_id):
        raise SaveError(f"{where}: {f.show(run_id)} is not a run id")
    return run_id


# --- game state ------------------------------------------------------------------------------


def state_doc(s: GameState) -> dict[str, Any]:
    return {
        "seed": s.seed,
        "world_name": s.world_name,
        "preset": s.preset,
        "difficulty": s.difficulty,
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
        "accuracy": s.accuracy,
        "speed": s.speed,
        "stealth": s.stealth,
        "berserk": s.berserk,
        "weary": s.weary,
        "identified": sorted(s.identified),
        "hasted": s.hasted,
        "detecting": s.detecting,
        "darkness": s.darkness,
        "hallucinating": s.hallucinating,
        "confused": s.confused,
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
        "choices": [{"x": x, "y": y, "group": g} for (x, y), g in s.choices.items()],
        "inventory": [{"item": i, "count": n} for i, n in s.inventory.items()],
        "equipment": [{"item": i, "enchant": n} for i, n in s.equipment.items()],
        "perks": list(s.perks),
        "perk_offer": list(s.perk_offer),
        "monsters": [monster_doc(m) for m in s.monsters],
        "allies": [monster_doc(m) for m in s.allies],
        "puzzles": [puzzle_doc(p) for p in s.puzzles.values()],
        "stats": stats_doc(s.stats),
        "log": s.log[-LOG_KEPT:],
        "rng": rng_doc(s.rng),
        "traps_known": [list(pos) for pos in sorted(s.traps_known)],
        "netted": s.netted,
        "sprung": sorted(s.sprung),
        "fire": [[x, y, n] for (x, y), n in sorted(s.fire.items())],
        "gas": [list(pos) for pos in sorted(s.gas)],
    }


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
    check_tile_ids(live, at("tiles"))
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
    # the treasure's choice groups
    choices: dict[tuple[int, int], int] = {}
    for i, item in enumerate(f.array_list(field("choices"), at("choices"), MAX_ITEMS)):
        w = f"{at('choices')}[{i}]"
        e = f.obj(item, w)
        pos = f.cell([f.get(e, "x", w), f.get(e, "y", w)], w, width, height)
        if pos not in items_lying or pos in choices:
            raise SaveError(f"{w}: no item of a choice lies at {pos[0]},{pos[1]}")
        choices[pos] = f.integer(f.get(e, "group", w), f"{w}.group", 0, MAX_ITEMS)
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
    # the log and the cause are shown on screen: made printable here, so the engine never
    # holds a stranger's escape sequence (cut back to their bound, so the game can save them)
    log = [
        printable(f.text(line, f"{at('log')}[{i}]", MAX_LINE))[:MAX_LINE]
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
        world_name=state_name(field("world_name"), at("world_name")),
        preset=f.text(field("preset"), at("preset"), 20, choices=PRESETS),
        difficulty=f.difficulty(o, where),
        keys_held=keys_held,
        keys_lying=keys_lying,
        monsters=monsters,
        items_lying=items_lying,
        choices=choices,
        puzzles=rooms,
        inventory=inventory,
        hint_coins=f.integer(field("hint_coins"), at("hint_coins"), 0, MAX_PACK),
        attack=(lo, hi),
        defence=f.integer(field("defence"), at("defence"), 0, MAX_BIG),
        accuracy=f.integer(field("accuracy"), at("accuracy"), 0, 100),
        speed=f.integer(field("speed"), at("speed"), PLAYER_SPEED_LEAST, 1000),
        stealth=f.integer(field("stealth"), at("stealth"), 0, STEALTH_MOST),
        berserk=f.integer(field("berserk"), at("berserk"), 0, BERSERK_TURNS),
        weary=f.integer(field("weary"), at("weary"), 0, WEARY_TURNS),
        identified=identified_from(field("identified"), at("identified")),
        hasted=f.integer(field("hasted"), at("hasted"), 0, HASTE_TURNS),
        detecting=f.integer(field("detecting"), at("detecting"), 0, DETECT_TURNS),
        darkness=f.integer(field("darkness"), at("darkness"), 0, DARK_TURNS),
        hallucinating=f.integer(
            field("hallucinating"), at("hallucinating"), 0, HALLUCINATION_TURNS
        ),
        confused=f.integer(field("confused"), at("confused"), 0, CONFUSED_TURNS),
        equipment=equipment_from(field("equipment"), at("equipment")),
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
    # the trap state
    state.traps = {(t.x, t.y): t.kind for t in fl.traps}
    for i, c in enumerate(f.array_list(field("traps_known"), at("traps_known"), h.MAX_TRAPS)):
        pos = f.cell(c, f"{at('traps_known')}[{i}]", width, height)
        if pos not in state.traps:
            raise SaveError(f"{at('traps_known')}[{i}]: no trap lies at {pos}")
        state.traps_known.add(pos)
    state.netted = f.integer(field("netted"), at("netted"), 0, NET_TURNS)
    count = len(fl.topology.rooms)
    for i, r in enumerate(f.array_list(field("sprung"), at("sprung"), count)):
        state.sprung.add(f.integer(r, f"{at('sprung')}[{i}]", 0, count - 1))
    # the fire and the marsh gas
    state.fire = fire_from(field("fire"), at("fire"), live)
    state.gas = gas_from(field("gas"), at("gas"), live)
    # captives and allies
    state.allies = allies_from(field("allies"), at("allies"), width, height)
    # growth: the perks taken (one a level beyond the first at most) and the one on offer
    state.perks = perks_from(field("perks"), at("perks"), state.level - 1)
    offer = f.array_list(field("perk_offer"), at("perk_offer"), PERK_OFFERED)
    state.perk_offer = tuple(
        f.text(p, f"{at('perk_offer')}[{i}]", 40, choices=PERKS) for i, p in enumerate(offer)
    )
    if len(set(state.perk_offer)) != len(state.perk_offer):
        raise SaveError(f"{at('perk_offer')}: a perk is offered twice")
    if bool(state.perk_offer) != (len(state.perks) < state.level - 1):
        raise SaveError(f"{at('perk_offer')}: an offer is pending exactly when a perk is owed")
    return state


def fire_from(value: Any, where: str, live: np.ndarray) -> dict[tuple[int, int], int]:
    """The burning cells: each listed once, on ground fire can stand on, with the turns it
    still burns (1 up to a moss fire's)."""
    height, width = int(live.shape[0]), int(live.shape[1])
    out: dict[tuple[int, int], int] = {}
    for i, item in enumerate(f.array_list(value, where, width * height)):
        w = f"{where}[{i}]"
        triple = f.array_list(item, w, 3)
        if len(triple) != 3:
            raise SaveError(f"{w}: a burning cell is [x, y, turns]")
        pos = f.cell(triple[:2], w, width, height)
        t = int(live[pos[1], pos[0]])
        if not tiles.WALKABLE[t] or t in FIRE_PROOF:
            raise SaveError(f"{w}: fire cannot burn on {_tile_name(live, pos)}")
        if pos in out:
            raise SaveError(f"{w}: {pos[0]},{pos[1]} is listed twice")
        out[pos] = f.integer(triple[2], f"{w}[2]", 1, FIRE_FUEL_TURNS)
    return out


def gas_from(value: Any, where: str, live: np.ndarray) -> set[tuple[int, int]]:
    """The cells under marsh gas: each listed once, on walkable ground."""
    height, width = int(live.shape[0]), int(live.shape[1])
    out: set[tuple[int, int]] = set()
    for i, item in enumerate(f.array_list(value, where, width * height)):
        w = f"{where}[{i}]"
        pos = f.cell(item, w, width, height)
        if not tiles.WALKABLE[live[pos[1], pos[0]]]:
            raise SaveError(f"{w}: gas over {_tile_name(live, pos)}")
        if pos in out:
            raise SaveError(f"{w}: {pos[0]},{pos[1]} is listed twice")
        out.add(pos)
    return out


def identified_from(value: Any, where: str) -> set[str]:
    """The potion and scroll kinds the player knows: each once, each one of them."""
    known: set[str] = set()
    for i, item in enumerate(f.array_list(value, where, len(KNOWABLE))):
        kind = f.text(item, f"{where}[{i}]", 40, choices=KNOWABLE)
        if kind in known:
            raise SaveError(f"{where}[{i}]: {kind} is listed twice")
        known.add(kind)
    return known


def equipment_from(value: Any, where: str) -> dict[str, int]:
    """What the player wears and wields: each worn item (a wearable, at most one a slot) with
    its enchantment (0 as found, down to minus its amount by corrosion)."""
    out: dict[str, int] = {}
    slots: set[str] = set()
    for i, item in enumerate(f.array_list(value, where, len(WEARABLES))):
        w = f"{where}[{i}]"
        e = f.obj(item, w)
        kind = f.text(f.get(e, "item", w), f"{w}.item", 40, choices=WEARABLES)
        if ITEMS[kind].slot in slots:
            raise SaveError(f"{w}: two items are worn as the {ITEMS[kind].slot}")
        slots.add(ITEMS[kind].slot)
        out[kind] = f.integer(f.get(e, "enchant", w), f"{w}.enchant", -ITEMS[kind].amount, 0)
    return out


def allies_from(value: Any, where: str, width: int, height: int) -> list[Monster]:
    """The captives and allies of a floor: monsters of their own list, each with a distinct
    id, a captive's ``shackled`` count within the bumps that free one."""
    allies = [
        monster_from(m, f"{where}[{i}]", width, height)
        for i, m in enumerate(f.array_list(value, where, h.MAX_ALLIES))
    ]
    if len({m.id for m in allies}) != len(allies):
        raise SaveError(f"{where}: two allies share an id")
    for i, m in enumerate(allies):
        if SHACKLED in m.extra:
            f.integer(m.extra[SHACKLED], f"{where}[{i}].extra.{SHACKLED}", 0, FREE_TURNS - 1)
    return allies


def _tile_name(grid: np.ndarray, pos: tuple[int, int]) -> str:
    return tiles.TILES[int(grid[pos[1], pos[0]])].name


# --- run statistics --------------------------------------------------------------------------


def stats_doc(stats: RunStats) -> dict[str, Any]:
    return {
        "floors_reached": stats.floors_reached,
        "kills": stats.kills,
        "keys": stats.keys,
        "puzzles_solved": stats.puzzles_solved,
        "hints_used": stats.hints_used,
        "cause": stats.cause,
        "puzzle_scores": [
            {"floor": n, "type": t, "difficulty": d, "score": s}
            for n, t, d, s in stats.puzzle_scores
        ],
    }


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
        cause=shown_text(f.optional_text(f.get(o, "cause", where), f"{where}.cause", MAX_LINE)),
        puzzle_scores=puzzle_scores_from(
            f.get(o, "puzzle_scores", where), f"{where}.puzzle_scores", total
        ),
    )


#: The most pedestals a run's statistics list (a floor has a handful).
MAX_PUZZLES_SOLVED = 10_000


def puzzle_scores_from(value: Any, where: str, total: int) -> list[tuple[int, str, str, int]]:
    """The pedestals solved in a run, each ``{floor, type, difficulty, score}`` (a save's
    statistics and a run record list them alike)."""
    out = []
    for i, item in enumerate(f.array_list(value, where, MAX_PUZZLES_SOLVED)):
        o = f.obj(item, f"{where}[{i}]")
        out.append(
            (
                f.integer(f.get(o, "floor", where), f"{where}[{i}].floor", 1, total),
                f.text(f.get(o, "type", where), f"{where}[{i}].type", 20, choices=puzzles.TYPES),
                f.text(
                    f.get(o, "difficulty", where),
                    f"{where}[{i}].difficulty",
                    20,
                    choices=puzzles.DIFFICULTIES,
                ),
                f.integer(f.get(o, "score", where), f"{where}[{i}].score", 0, 100),
            )
        )
    return out


# --- random stream ---------------------------------------------------------------------------


def rng_doc(rng: np.random.Generator) -> dict[str, Any]:
    """The gameplay stream's PCG64 state."""
    state = rng.bit_generator.state
    return {
        "bit_generator": state["bit_generator"],
        "state": {"state": int(state["state"]["state"]), "inc": int(state["state"]["inc"])},
        "has_uint32": int(state["has_uint32"]),
        "uinteger": int(state["uinteger"]),
    }


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


# --- monsters --------------------------------------------------------------------------------


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
        "loot": m.loot,
        "max_hp": m.max_hp,
    }


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
    # its maximum HP: the kind's scaled by a difficulty, never above the hardest one's
    most = max(monster_hp(MONSTERS[kind], d) for d in DIFFICULTIES)
    top = f.integer(field("max_hp"), f"{where}.max_hp", 1, most)
    return Monster(
        max_hp=top,
        id=f.integer(field("id"), f"{where}.id", 0, MAX_BIG),
        kind=kind,
        x=pos[0],
        y=pos[1],
        hp=f.integer(field("hp"), f"{where}.hp", 1, top),
        home=f.cell(field("home"), f"{where}.home", width, height),
        guard=f.boolean(field("guard"), f"{where}.guard"),
        awake=f.boolean(field("awake"), f"{where}.awake"),
        energy=f.integer(field("energy"), f"{where}.energy", 0, MAX_BIG),
        unseen=f.integer(field("unseen"), f"{where}.unseen", 0, MAX_BIG),
        extra=extra,
        loot=f.text(field("loot"), f"{where}.loot", 40, choices=("", *ITEMS)),
    )


# --- puzzle rooms ----------------------------------------------------------------------------


def puzzle_doc(p: PuzzleRoom) -> dict[str, Any]:
    return {
        "key": p.key,
        "x": p.x,
        "y": p.y,
        "type": p.type,
        "difficulty": p.difficulty,
        "seed": p.seed,
        "instance": copy.deepcopy(p.instance),  # the room's own: a document never aliases it
        "moves": list(p.moves),
        "solved": p.solved,
        "hints_used": p.hints_used,
        "resets": p.resets,
        "visited": p.visited,
    }


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
        resets=f.integer(field("resets"), f"{where}.resets", 0, MAX_BIG),
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


# --- earlier floors --------------------------------------------------------------------------


def visited_doc(visited: Sequence[VisitedFloor]) -> list[dict[str, Any]]:
    return [
        {
            "number": v.number,
            "tiles": f.encode_array(v.tiles, f.UINT8),
            "explored": f.encode_array(v.explored, f.BOOL),
        }
        for v in sorted(visited, key=lambda v: v.number)
    ]


def visited_from(value: Any, where: str, state: GameState) -> list[VisitedFloor]:
    out: list[VisitedFloor] = []
    for i, item in enumerate(f.array_list(value, where, h.MAX_FLOORS)):
        at = f"{where}[{i}]"
        o = f.obj(item, at)
        number = f.integer(f.get(o, "number", at), f"{at}.number", 1, state.total_floors)
        if out and number <= out[-1].number:
            raise SaveError(f"{at}.number: floors must be listed once each, in order")
        grid = f.decode_array(f.get(o, "tiles", at), f"{at}.tiles", f.UINT8)
        check_tile_ids(grid, f"{at}.tiles")
        explored = f.decode_array(f.get(o, "explored", at), f"{at}.explored", f.BOOL, grid.shape)
        out.append(VisitedFloor(number, grid, explored))
    return out


def perks_from(value: Any, where: str, most: int) -> list[str]:
    """The perks taken, in order: at most ``most`` (one a level beyond the first), each no
    more often than it may be taken."""
    perks: list[str] = []
    for i, p in enumerate(f.array_list(value, where, most)):
        name = f.text(p, f"{where}[{i}]", 40, choices=PERKS)
        if perks.count(name) >= PERKS[name].most:
            raise SaveError(f"{where}[{i}]: {name} is taken more often than it may be")
        perks.append(name)
    return perks
