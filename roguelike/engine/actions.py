"""What a player (or, later, the autoplayer) asks the engine to do: small frozen dataclasses
that :func:`roguelike.engine.engine.step` interprets."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Move:
    """One step in one of the eight directions (``dx``, ``dy`` in -1..1, not both 0).
    Walking into a door opens it; walking onto a key takes it."""

    dx: int
    dy: int

    def __post_init__(self) -> None:
        if self.dx not in (-1, 0, 1) or self.dy not in (-1, 0, 1) or (self.dx, self.dy) == (0, 0):
            raise ValueError(f"a move is one step in one of eight directions, not {self}")


@dataclass(frozen=True)
class Wait:
    """Let one turn pass."""


@dataclass(frozen=True)
class PickUp:
    """Take what lies on the player's cell (keys are also taken just by walking onto them)."""


@dataclass(frozen=True)
class Descend:
    """Take the stairs down, or leave the dungeon by the exit of the last floor."""


Action = Move | Wait | PickUp | Descend
