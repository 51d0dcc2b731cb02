"""A solved puzzle that changes the floor: applying a floor change the generator drew.

The floor carries each change as a record (``FloorChange``: its kind, its pedestal's key and
cell, the cells it sets; ``roguelike/gen/changes.py`` draws it and the proof proves the floor
both with and without it). When the puzzle on its pedestal is solved (``player.solve_puzzle``,
which checks the reported moves), :func:`apply_change` sets those cells on the live map, once
(a pedestal is solved once), marks them explored so the map and the overview remember them,
and says what changed and which way. The live map and the explored mask are what a save keeps,
so a change applied is saved with them, and replayed bit for bit with the solving action.
"""

from __future__ import annotations

import numpy as np

from roguelike import tiles
from roguelike.engine.events import Event, Message
from roguelike.engine.state import GameState
from roguelike.gen.floor import FloorChange

#: What each kind of change does, as its pedestal promises it (said when stepped on).
PROMISE = {
    "shortcut": "opens a shortcut through a wall nearby",
    "bridge": "raises a bridge over a chasm nearby",
    "drain": "drains the flooded passage nearby",
    "reveal": "draws the walls of this whole floor on your map",
}


def change_of(state: GameState, key: int) -> FloorChange | None:
    """The floor change whose pedestal answers to ``key``, or None (a lock's key)."""
    return next((ch for ch in state.floor.changes if ch.key == key), None)


def promise(state: GameState, key: int) -> str | None:
    """What solving the pedestal of ``key`` would change, in words, or None."""
    ch = change_of(state, key)
    return None if ch is None else f"Solving it {PROMISE[ch.kind]} (it opens no door)."


def apply_change(state: GameState, ch: FloorChange) -> list[Event]:
    """Set ``ch``'s cells on the live map (a reveal: mark the floor's outline explored) and
    say what changed; the view is computed again, as a wall gone lets the player see further."""
    for x, y, t in ch.cells:
        state.tiles[y, x] = t
        state.explored[y, x] = True
    if ch.kind == "reveal":
        state.explored |= shown_by_map(state.tiles, state.floor.finish)
        state.update_view()
        return [
            Message(
                "The puzzle clicks into place: the walls of this whole floor, and its stairs, "
                "are drawn on your map."
            )
        ]
    state.update_view()
    where = _direction(state.player, ch.cells)
    said = {
        "shortcut": f"{where}, a wall crumbles to rubble: a shortcut opens",
        "bridge": f"{where}, a bridge rises over the chasm",
        "drain": f"{where}, the flooded passage drains: its deep water is gone",
    }[ch.kind]
    return [Message(f"The puzzle clicks into place: {said}.")]


def shown_by_map(grid: np.ndarray, finish: tuple[int, int] | None) -> np.ndarray:
    """The cells a floor's map shows: the outline of every room and corridor (each cell no one
    walks on, a wall, chasm or locked door, next to one they do) and the stairs. The floor
    inside stays unexplored, so exploring still leads there, and what lies on it (keys, items)
    is still to be seen."""
    walk = tiles.WALKABLE[grid]
    near = walk.copy()
    near[1:, :] |= walk[:-1, :]
    near[:-1, :] |= walk[1:, :]
    near[:, 1:] |= walk[:, :-1]
    near[:, :-1] |= walk[:, 1:]
    near[1:, 1:] |= walk[:-1, :-1]
    near[:-1, :-1] |= walk[1:, 1:]
    near[1:, :-1] |= walk[:-1, 1:]
    near[:-1, 1:] |= walk[1:, :-1]
    shown = near & ~walk & (grid != tiles.VOID)
    if finish is not None:
        shown[finish[1], finish[0]] = True
    return shown


def _direction(frm: tuple[int, int], cells: tuple[tuple[int, int, int], ...]) -> str:
    """Which way the cells lie from ``frm``, as a phrase ("to the north-east", "close by")."""
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    dx = (min(xs) + max(xs)) / 2 - frm[0]
    dy = (min(ys) + max(ys)) / 2 - frm[1]
    if abs(dx) <= 3 and abs(dy) <= 3:
        return "close by"
    ns = "north" if dy < 0 else "south"
    ew = "west" if dx < 0 else "east"
    if abs(dy) < abs(dx) / 2:
        return f"to the {ew}"
    if abs(dx) < abs(dy) / 2:
        return f"to the {ns}"
    return f"to the {ns}-{ew}"
