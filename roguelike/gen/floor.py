"""A generated floor as it stands after each stage of the pipeline, and its small records.

Each stage's record is the previous one plus what that stage adds, every field set:
``Planned`` (stage 1: the topology) → ``Cast`` (2: room roles) → ``Laid`` (3: the layout) →
``Stamped`` (4: tiles, doors, keys, spawn and stairs) → ``Decorated`` (5: terrain and theme) →
``Populated`` (6: monster, item and treasure slots, a floor change) → ``Floor`` (7: proven);
``Layout`` with its ``Placement`` and ``Corridor`` records is what stage 3 adds. The engine, the
saves and the screens use the final :class:`Floor`; the stages that build these records live in
the modules of this package named after them, and ``roguelike.gen.pipeline`` runs them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from roguelike.gen.templates import Socket, Template
from roguelike.gen.topology import DungeonParams, Edge, Topology


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
class VaultSpot:
    """A sealed vault: the key id its seal answers to (one past the topology's keys, never one
    of them), its pedestal's cell and the room that holds it (the vault's parent), and the
    vault room itself."""

    key: int
    x: int
    y: int
    room: int
    vault: int


#: The kinds of floor change a solved optional pedestal makes (``roguelike/gen/changes.py``).
CHANGE_KINDS = ("shortcut", "drain", "bridge", "reveal")


@dataclass(frozen=True)
class FloorChange:
    """What solving an optional pedestal does to the floor: its ``kind`` (one of
    :data:`CHANGE_KINDS`), the key id its pedestal answers to (past the topology's keys and the
    vaults', never one of them), the pedestal's cell and room, and ``cells``: each cell the
    change sets, as (x, y, the tile it becomes), in order. A ``reveal`` sets no tile (its
    ``cells`` are empty): it draws the floor's outline and stairs on the player's map."""

    kind: str
    key: int
    x: int
    y: int
    room: int
    cells: tuple[tuple[int, int, int], ...] = ()


@dataclass(frozen=True)
class Slot:
    """A place where the game puts a monster or an item; ``level`` follows the room's depth."""

    kind: str  # "monster" | "item" | "treasure" | "captive"
    x: int
    y: int
    room: int
    level: int


@dataclass(frozen=True, order=True)
class TrapSpot:
    """A hidden trap: where it lies and what it does (a kind of ``balance.TRAPS``)."""

    x: int
    y: int
    kind: str


#: Per room, the cells of its template's spots by glyph ("@", ">", "k", "$", "m").
Spots = dict[int, dict[str, list[tuple[int, int]]]]


# --- stage 3's records: where each room and corridor lies ------------------------------------


@dataclass(frozen=True)
class Placement:
    room: int
    template: Template
    x: int  # top-left corner on the floor
    y: int

    @property
    def w(self) -> int:
        return self.template.width

    @property
    def h(self) -> int:
        return self.template.height

    def socket_at(self, s: Socket) -> tuple[int, int]:
        return self.x + s.x, self.y + s.y


@dataclass(frozen=True)
class Corridor:
    edge: Edge
    cells: tuple[tuple[int, int], ...]  # floor cells, from room a's socket to room b's
    door_a: tuple[int, int]  # the socket cell of room a it leaves by
    door_b: tuple[int, int]  # the socket cell of room b it enters by


@dataclass(frozen=True)
class Layout:
    topology: Topology
    placements: tuple[Placement, ...]  # by room id
    corridors: tuple[Corridor, ...]  # in edge order
    width: int
    height: int
    attempt: int


# --- each stage's record ----------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Planned:
    """After stage 1: which floor this is, and its topology."""

    seed: int
    number: int
    last: bool  # the last floor of the world: its finish is the exit, not stairs
    params: DungeonParams
    topology: Topology


@dataclass(frozen=True, kw_only=True)
class Cast(Planned):
    """After stage 2: every room's role (start, finish, key, treasure or room)."""

    roles: dict[int, str]


@dataclass(frozen=True, kw_only=True)
class Laid(Cast):
    """After stage 3: rooms and corridors placed on a grid."""

    layout: Layout

    @property
    def width(self) -> int:
        return self.layout.width

    @property
    def height(self) -> int:
        return self.layout.height


@dataclass(frozen=True, kw_only=True)
class Stamped(Laid):
    """After stage 4: the tile map and the fixed places on it."""

    tiles: np.ndarray  # uint8 (height, width)
    room_map: np.ndarray  # int16: room id of each room cell, -1 elsewhere
    protected: np.ndarray  # bool: cells the terrain stage must leave as they are
    zone: np.ndarray  # int16: key zone of each walkable cell (locks behind it), -1 elsewhere
    doors: list[Door]
    keys: list[KeySpot]
    spawn: tuple[int, int]
    finish: tuple[int, int]
    spots: Spots
    #: the floor's sealed vaults (none on most floors); their seals are doors whose ``lock`` is
    #: the vault's key
    vaults: list[VaultSpot] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class Decorated(Stamped):
    """After stage 5: ``tiles`` dressed with the terrain of the floor's theme."""

    theme: str


@dataclass(frozen=True, kw_only=True)
class Populated(Decorated):
    """After stage 6: where monsters, items, treasure and hidden traps go."""

    slots: list[Slot]
    traps: list[TrapSpot] = field(default_factory=list)
    #: what an optional pedestal's solution changes (at most one a floor; see ``changes.py``)
    changes: list[FloorChange] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class Floor(Populated):
    """A whole floor, after stage 7: ``proven`` says the proof passed."""

    proven: bool


def carried(record: Planned) -> dict[str, Any]:
    """The fields of one stage's record, to build the next stage's record from."""
    return {f.name: getattr(record, f.name) for f in fields(record)}


#: The kinds of trap the populate stage hides (their effects are the engine's: engine/traps.py).
TRAP_KINDS = ("dart", "alarm", "net", "fire")
