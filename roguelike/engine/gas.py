"""Marsh gas: pockets of it hang over a floor's shallow water, harmless until fire finds them.

:func:`lay_gas` places the pockets of a floor when the player arrives: a pure function of the
generated floor and its own stream, ``seeds.stream(seed, floor, "gas")`` (so play never changes
where gas lies, and the generator's streams are untouched). A pocket is the walkable cells
round a cell of shallow water (a 3×3 square, doors left out), never within
:data:`KEEP_CLEAR` steps of the spawn, the stairs, a key or a vault's pedestal. How many pockets
a floor has is ``depth.GAS_POCKETS``. The gas stays where it is; fire that reaches a cell of a
pocket makes the whole cloud (its cells joined side by side or corner to corner) explode at
once (:func:`roguelike.engine.fire.explode`). Gas never blocks a step or the view, so the floor's
proof is untouched.
"""

from __future__ import annotations

import numpy as np

from roguelike import depth, seeds, tiles
from roguelike.gen.floor import Floor

__all__ = ["GAS_STREAM", "KEEP_CLEAR", "cloud", "lay_gas"]

GAS_STREAM = "gas"
#: No gas within this many steps (Chebyshev) of the spawn, the stairs, a key or a pedestal.
KEEP_CLEAR = 3

Pos = tuple[int, int]


def lay_gas(fl: Floor) -> set[Pos]:
    """The cells of floor ``fl`` under marsh gas (see the module's docstring)."""
    assert fl.tiles is not None
    grid = fl.tiles
    count = depth.GAS_POCKETS.at(fl.number)
    if count <= 0:
        return set()
    clear = np.zeros(grid.shape, dtype=bool)
    anchors = [fl.spawn, fl.finish, *((k.x, k.y) for k in fl.keys)]
    anchors += [(v.x, v.y) for v in fl.vaults]
    h, w = grid.shape
    for x, y in anchors:
        clear[
            max(0, y - KEEP_CLEAR) : y + KEEP_CLEAR + 1, max(0, x - KEEP_CLEAR) : x + KEEP_CLEAR + 1
        ] = True
    ys, xs = np.nonzero((grid == tiles.WATER) & ~clear)
    if not len(xs):
        return set()
    rng = seeds.stream(fl.seed, fl.number, GAS_STREAM)
    picks = rng.choice(len(xs), size=min(count, len(xs)), replace=False)
    open_ground = tiles.WALKABLE[grid] & ~np.isin(grid, (tiles.DOOR, tiles.DOOR_OPEN)) & ~clear
    gas: set[Pos] = set()
    for i in sorted(int(p) for p in picks):
        cx, cy = int(xs[i]), int(ys[i])
        for y in range(max(0, cy - 1), min(h, cy + 2)):
            for x in range(max(0, cx - 1), min(w, cx + 2)):
                if open_ground[y, x]:
                    gas.add((x, y))
    return gas


def cloud(gas: set[Pos], start: Pos) -> list[Pos]:
    """The cloud of gas holding ``start`` (its cells joined side by side or corner to corner),
    in the order of rows then columns; empty when no gas lies there."""
    if start not in gas:
        return []
    seen = {start}
    todo = [start]
    while todo:
        x, y = todo.pop()
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                c = (x + dx, y + dy)
                if c in gas and c not in seen:
                    seen.add(c)
                    todo.append(c)
    return sorted(seen, key=lambda p: (p[1], p[0]))
