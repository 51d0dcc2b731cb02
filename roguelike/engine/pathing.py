"""Distance maps on the numpy grid ("Dijkstra maps", as Brogue calls them).

A distance map holds, for every cell, the number of steps to the nearest source, moving in
eight directions under the game's corner rule: a diagonal step is allowed only when both
orthogonal cells beside it are passable. The map grows as a wavefront of whole-array numpy
operations (a few per step), so its cost depends on the distance reached, not on Python loops
over cells.
"""

from __future__ import annotations

import numpy as np

#: Distance of a cell no source reaches.
FAR = np.int32(1 << 20)

_DIRS = ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1))


def shifted(a: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """``out[y, x] = a[y - dy, x - dx]``, with False (or 0) shifted in at the edges."""
    out = np.zeros_like(a)
    h, w = a.shape
    ys_dst = slice(max(dy, 0), h + min(dy, 0))
    xs_dst = slice(max(dx, 0), w + min(dx, 0))
    ys_src = slice(max(-dy, 0), h + min(-dy, 0))
    xs_src = slice(max(-dx, 0), w + min(-dx, 0))
    out[ys_dst, xs_dst] = a[ys_src, xs_src]
    return out


def distance_map(
    passable: np.ndarray, sources: list[tuple[int, int]], limit: int = 1 << 16
) -> np.ndarray:
    """Steps from the nearest of ``sources`` ((x, y) cells) to every cell of ``passable``,
    up to ``limit`` steps; :data:`FAR` where no source reaches. Sources count as passable."""
    h, w = passable.shape
    dist = np.full((h, w), FAR, dtype=np.int32)
    frontier = np.zeros((h, w), dtype=bool)
    for x, y in sources:
        if 0 <= x < w and 0 <= y < h:
            frontier[y, x] = True
    dist[frontier] = 0
    ok = passable | frontier
    # a diagonal step into (x, y) by (dx, dy) needs (x, y - dy) and (x - dx, y) passable
    gates = {(dx, dy): shifted(ok, 0, dy) & shifted(ok, dx, 0) for dx, dy in _DIRS if dx and dy}
    unseen = ok & ~frontier
    d = 0
    while frontier.any() and d < limit:
        d += 1
        grow = np.zeros((h, w), dtype=bool)
        for dx, dy in _DIRS:
            if dx and dy:
                grow |= shifted(frontier, dx, dy) & gates[(dx, dy)]
            else:
                grow |= shifted(frontier, dx, dy)
        frontier = grow & unseen
        unseen &= ~frontier
        dist[frontier] = d
    return dist


def downhill(dist: np.ndarray, passable: np.ndarray, x: int, y: int) -> list[tuple[int, int]]:
    """The legal steps (dx, dy) from (x, y) that lower ``dist`` by one: every first step of a
    shortest path to the map's sources, in a fixed order."""
    h, w = dist.shape
    here = dist[y, x]
    out = []
    for dx, dy in _DIRS:
        nx, ny = x + dx, y + dy
        if not (0 <= nx < w and 0 <= ny < h) or dist[ny, nx] != here - 1:
            continue
        if dx and dy and not (passable[y, nx] and passable[ny, x]):
            continue
        out.append((dx, dy))
    return out
