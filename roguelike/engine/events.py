"""What happened during one step: small frozen dataclasses the screens draw.

The engine never prints. Events that change the world (``Moved``, ``DoorOpened``, ``KeyTaken``,
…) carry data only; whatever the player should read comes as a separate :class:`Message`
(and is also appended to ``GameState.log``), so a screen can animate the first kind and log
the second.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Moved:
    """The player stepped from ``frm`` to ``to`` (both ``(x, y)``)."""

    frm: tuple[int, int]
    to: tuple[int, int]


@dataclass(frozen=True)
class Bumped:
    """A move was refused at ``(x, y)``; ``what`` is the tile's name, ``"corner"`` for a
    diagonal squeeze past a corner, or ``"edge"`` off the map. Costs no turn."""

    x: int
    y: int
    what: str


@dataclass(frozen=True)
class DoorOpened:
    """A plain door at ``(x, y)`` was pushed open."""

    x: int
    y: int


@dataclass(frozen=True)
class DoorClosed:
    x: int
    y: int


@dataclass(frozen=True)
class KeyTaken:
    key: int


@dataclass(frozen=True)
class ItemTaken:
    item: str


@dataclass(frozen=True)
class ItemUsed:
    item: str


@dataclass(frozen=True)
class ItemDropped:
    item: str


@dataclass(frozen=True)
class DoorUnlocked:
    """The door locked with ``key`` at ``(x, y)`` is now an open door."""

    key: int
    x: int
    y: int


@dataclass(frozen=True)
class PuzzleFound:
    """The player stepped onto the puzzle pedestal at ``(x, y)`` (solved or not)."""

    x: int
    y: int


@dataclass(frozen=True)
class PuzzleSolved:
    """The puzzle at ``(x, y)`` is solved: its key's lock opened."""

    key: int
    x: int
    y: int


@dataclass(frozen=True)
class Attacked:
    """``attacker`` (``"you"`` or a monster's name) struck at ``target`` for ``damage``
    (0 on a miss); ``killed`` when the blow was fatal. ``ranged`` for a shot."""

    attacker: str
    target: str
    damage: int
    killed: bool
    ranged: bool = False


@dataclass(frozen=True)
class Descended:
    """The player arrived on floor ``floor``."""

    floor: int


@dataclass(frozen=True)
class LevelUp:
    level: int


@dataclass(frozen=True)
class Won:
    """The player left the dungeon by the exit of the last floor."""


@dataclass(frozen=True)
class Died:
    cause: str


@dataclass(frozen=True)
class Message:
    text: str


Event = (
    Moved
    | Bumped
    | DoorOpened
    | DoorClosed
    | KeyTaken
    | ItemTaken
    | ItemUsed
    | ItemDropped
    | PuzzleFound
    | PuzzleSolved
    | DoorUnlocked
    | Attacked
    | Descended
    | LevelUp
    | Won
    | Died
    | Message
)
