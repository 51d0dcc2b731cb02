"""What the live map alone allows: which steps are legal, and which doors are next to the player.

Moves go in eight directions, but a diagonal step is allowed only when both orthogonal cells
beside it are walkable. So what a player can reach is exactly what the floor proof's
4-connected walk reaches, and no door can be squeezed past at a corner. Monsters follow the
same rule.
"""

from __future__ import annotations

from roguelike import tiles
from roguelike.engine.pathing import DIRS8
from roguelike.engine.state import GameState

__all__ = ["DIRS8", "can_step", "chebyshev", "corner_free", "doors_around"]


def chebyshev(p: tuple[int, int], q: tuple[int, int]) -> int:
    """Steps between ``p`` and ``q`` on an open floor (diagonals count one)."""
    return max(abs(p[0] - q[0]), abs(p[1] - q[1]))


def corner_free(state: GameState, x: int, y: int, dx: int, dy: int) -> bool:
    """Whether both orthogonal cells beside the diagonal step from (x, y) by (dx, dy) are
    walkable: the corner rule, whatever stands on the target."""
    t = state.tiles
    return bool(tiles.WALKABLE[t[y, x + dx]] and tiles.WALKABLE[t[y + dy, x]])


def can_step(state: GameState, x: int, y: int, dx: int, dy: int) -> bool:
    """Whether a step from (x, y) by (dx, dy) is allowed by the map alone: the target is
    walkable and, for a diagonal, so are both orthogonal cells beside it."""
    nx, ny = x + dx, y + dy
    if not (0 <= nx < state.width and 0 <= ny < state.height):
        return False
    if not tiles.WALKABLE[state.tiles[ny, nx]]:
        return False
    return not (dx and dy) or corner_free(state, x, y, dx, dy)


def doors_around(state: GameState, *, closed: bool) -> list[tuple[int, int]]:
    """Directions (dx, dy) of the doors next to the player: closed ones (plain, or locked with
    a key held) when ``closed``, else open ones."""
    x, y = state.player
    out = []
    for dx, dy in DIRS8:
        nx, ny = x + dx, y + dy
        if not (0 <= nx < state.width and 0 <= ny < state.height):
            continue
        t = int(state.tiles[ny, nx])
        lock = tiles.lock_of(t)
        if (
            closed
            and (t == tiles.DOOR or (lock is not None and lock in state.keys_held))
            or not closed
            and t == tiles.DOOR_OPEN
        ):
            out.append((dx, dy))
    return out
