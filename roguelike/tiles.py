"""The one tile table: id → glyph, name, walkable, transparent, colour role.

Maps are ``numpy.uint8`` arrays of tile ids; the boolean lookups ``WALKABLE[tiles]`` and
``TRANSPARENT[tiles]`` vectorise over a whole map. Every glyph is unique, so a printed map
and its legend say exactly which tile is where. A locked door shows its key's letter (key 1 is
``A``) in its key's colour.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MAX_KEYS = 10


@dataclass(frozen=True)
class Tile:
    id: int
    glyph: str
    name: str
    walkable: bool
    transparent: bool
    colour: str  # a colour role; the screens and the ASCII printer map roles to colours


KEY_COLOURS: tuple[tuple[str, str], ...] = (
    ("red", "#e05050"),
    ("blue", "#5080f0"),
    ("yellow", "#e8d040"),
    ("green", "#50c060"),
    ("magenta", "#d060d0"),
    ("cyan", "#40c8d0"),
    ("orange", "#f09030"),
    ("white", "#f0f0f0"),
    ("violet", "#9070f0"),
    ("brown", "#b08050"),
)


def key_letter(key: int) -> str:
    """The letter of key ``key`` (1 → A)."""
    return chr(ord("A") + key - 1)


def key_colour(key: int) -> tuple[str, str]:
    """(colour name, hex) of key ``key`` (1-based)."""
    return KEY_COLOURS[(key - 1) % len(KEY_COLOURS)]


_BASE = [
    # glyph, name, walkable, transparent, colour role
    (" ", "void", False, False, "void"),
    ("#", "wall", False, False, "wall"),
    (".", "floor", True, True, "floor"),
    ("+", "door", True, False, "door"),
    ("'", "open door", True, True, "door"),
    (">", "stairs down", True, True, "stairs"),
    ("<", "exit", True, True, "stairs"),
    ("~", "water", True, True, "water"),
    (":", "chasm", False, True, "chasm"),
    (",", "rubble", True, True, "rubble"),
    ('"', "moss", True, True, "moss"),
    ("&", "statue", False, True, "statue"),
    ("_", "pedestal", True, True, "pedestal"),
    ("=", "bridge", True, True, "bridge"),
    ("%", "cave floor", True, True, "cave"),
]

TILES: tuple[Tile, ...] = tuple(
    [Tile(i, *row) for i, row in enumerate(_BASE)]
    + [
        Tile(
            len(_BASE) + k - 1,
            key_letter(k),
            f"door locked with key {key_letter(k)}",
            False,
            False,
            f"key{k}",
        )
        for k in range(1, MAX_KEYS + 1)
    ]
    # tiles added later come after the locked doors, so that no saved tile id changes
    + [Tile(len(_BASE) + MAX_KEYS, "}", "deep water", True, True, "deep")]
    # a vault's sealed door: it opens when the puzzle of the pedestal near it is solved
    + [Tile(len(_BASE) + MAX_KEYS + 1, "0", "sealed vault", False, False, "pedestal")]
    # what burnt moss leaves (engine/fire.py): never laid by the generator
    + [Tile(len(_BASE) + MAX_KEYS + 2, "`", "ash", True, True, "ash")]
    # a plain door smashed by a door-breaking monster: open for good, it never closes again
    + [Tile(len(_BASE) + MAX_KEYS + 3, "¦", "broken door", True, True, "door")]
)

BY_NAME = {t.name: t.id for t in TILES}
BY_GLYPH = {t.glyph: t.id for t in TILES}
assert len(BY_GLYPH) == len(TILES), "every tile needs a glyph of its own"

VOID = BY_NAME["void"]
WALL = BY_NAME["wall"]
FLOOR = BY_NAME["floor"]
DOOR = BY_NAME["door"]
DOOR_OPEN = BY_NAME["open door"]
STAIRS = BY_NAME["stairs down"]
EXIT = BY_NAME["exit"]
WATER = BY_NAME["water"]
CHASM = BY_NAME["chasm"]
RUBBLE = BY_NAME["rubble"]
MOSS = BY_NAME["moss"]
STATUE = BY_NAME["statue"]
PEDESTAL = BY_NAME["pedestal"]
BRIDGE = BY_NAME["bridge"]
CAVE = BY_NAME["cave floor"]
LOCKED_FIRST = len(_BASE)
DEEP_WATER = BY_NAME["deep water"]
VAULT_SEAL = BY_NAME["sealed vault"]
ASH = BY_NAME["ash"]
BROKEN_DOOR = BY_NAME["broken door"]
#: Tiles that feed a fire (they burn long, spread it, and are ash after: engine/fire.py).
FUEL = frozenset({MOSS})


def locked_door(key: int) -> int:
    """The tile id of a door locked with key ``key`` (1-based)."""
    if not 1 <= key <= MAX_KEYS:
        raise ValueError(f"key {key} outside 1..{MAX_KEYS}")
    return LOCKED_FIRST + key - 1


def lock_of(tile: int) -> int | None:
    """The key that opens tile ``tile``, or None when it is not a locked door."""
    k = tile - LOCKED_FIRST + 1
    return k if 1 <= k <= MAX_KEYS else None


WALKABLE = np.array([t.walkable for t in TILES], dtype=bool)
TRANSPARENT = np.array([t.transparent for t in TILES], dtype=bool)
GLYPHS = np.array([t.glyph for t in TILES])


#: The terminal colour of each colour role (and of the things drawn over tiles): the game's
#: map in its default theme and the generator's coloured ASCII print. The floor is bright
#: enough that a remembered floor (drawn darker) stands clearly apart from one in view.
ROLE_COLOURS: dict[str, str] = {
    "void": "#000000",
    "wall": "#a8a8b8",
    "floor": "#8a8a98",
    "door": "#c08040",
    "stairs": "#ffffff",
    "water": "#4070d0",
    "deep": "#2040a0",
    "trap": "#ff6030",
    "chasm": "#30304a",
    "rubble": "#907060",
    "moss": "#4a9a40",
    "statue": "#c0c0c0",
    "pedestal": "#e0c060",
    "bridge": "#a07040",
    "cave": "#8a7a68",
    "ash": "#686060",
    "fire": "#ff7020",
    "gas": "#b8c840",
    "player": "#ffff60",
    "monster": "#e04040",
    "ally": "#70f0a0",
    "item": "#60e0e0",
    "treasure": "#ffd700",
}
