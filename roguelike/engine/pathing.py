"""Distance maps on the numpy grid ("Dijkstra maps", as Brogue calls them).

A distance map holds, for every cell, the number of steps to the nearest source, moving in
eight directions under the game's corner rule: a diagonal step is allowed only when both
orthogonal cells beside it are passable. No Python loop runs over cells: the step rule is a
few whole-array masks, built straight into a sparse graph (the last few kept, by mask), and
the search is scipy's.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

#: Distance of a cell no source reaches.
FAR = np.int32(1 << 20)

#: The eight steps (dx, dy), in the fixed order every search and scan of the engine tries them.
DIRS8 = ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1))


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
    up to ``limit`` steps; :data:`FAR` where no source reaches. Sources count as passable.

    The legal steps become the edges of a sparse graph (:func:`step_graph`), and scipy's
    breadth-first Dijkstra walks it from all sources at once, in C."""
    h, w = passable.shape
    dist = np.full((h, w), FAR, dtype=np.int32)
    starts = [(x, y) for x, y in sources if 0 <= x < w and 0 <= y < h]
    if not starts:
        return dist
    ok = passable.astype(bool, copy=True)
    for x, y in starts:
        ok[y, x] = True
    found = dijkstra(
        step_graph(ok),
        directed=True,
        indices=[y * w + x for x, y in starts],
        min_only=True,
        unweighted=True,
        limit=limit,
    ).reshape(h, w)
    reached = np.isfinite(found)
    dist[reached] = found[reached].astype(np.int32)
    return dist


#: The step graphs built last, by mask: most searches of a turn (the monsters', the player's,
#: the bot's) walk the same map, and building the graph costs more than searching it.
_GRAPHS: OrderedDict[tuple[tuple[int, int], bytes], csr_matrix] = OrderedDict()
_GRAPHS_KEPT = 8
_GRAPHS_LOCK = threading.Lock()


def step_graph(ok: np.ndarray) -> csr_matrix:
    """The legal steps between the True cells of ``ok`` as a sparse graph over the cells
    (row-major index), each edge of weight 1; the last few are kept, so a map searched again
    is not built again (the graph is a pure function of the mask: keeping it changes no
    distance).

    Built straight in compressed-row form: for each cell its eight steps in a row, legal ones
    kept, so the edges come out sorted by cell with no conversion."""
    key = (ok.shape, np.packbits(ok).tobytes())
    with _GRAPHS_LOCK:
        graph = _GRAPHS.get(key)
        if graph is not None:
            _GRAPHS.move_to_end(key)
            return graph
    h, w = ok.shape
    legal = np.zeros((h, w, 8), dtype=bool)
    for d, (dx, dy) in enumerate(DIRS8):
        # cells a step by (dx, dy) leaves from (sy, sx) and arrives at (ty, tx)
        sy, sx = slice(max(-dy, 0), h - max(dy, 0)), slice(max(-dx, 0), w - max(dx, 0))
        ty, tx = slice(max(dy, 0), h - max(-dy, 0)), slice(max(dx, 0), w - max(-dx, 0))
        step = ok[sy, sx] & ok[ty, tx]
        if dx and dy:  # the corner rule: both orthogonal cells beside the step
            step &= ok[sy, tx] & ok[ty, sx]
        legal[sy, sx, d] = step
    rows = legal.reshape(h * w, 8)
    cells, dirs = np.nonzero(rows)  # row-major: by cell, then by direction
    offsets = np.array([dy * w + dx for dx, dy in DIRS8], dtype=np.int64)
    indices = (cells + offsets[dirs]).astype(np.int32)
    indptr = np.zeros(h * w + 1, dtype=np.int32)
    np.cumsum(rows.sum(axis=1), out=indptr[1:])
    graph = csr_matrix(
        (np.ones(len(indices), dtype=np.float64), indices, indptr), shape=(h * w, h * w)
    )
    with _GRAPHS_LOCK:
        _GRAPHS[key] = graph
        while len(_GRAPHS) > _GRAPHS_KEPT:
            _GRAPHS.popitem(last=False)
    return graph


def downhill(dist: np.ndarray, passable: np.ndarray, x: int, y: int) -> list[tuple[int, int]]:
    """The legal steps (dx, dy) from (x, y) that lower ``dist`` by one: every first step of a
    shortest path to the map's sources, in a fixed order."""
    h, w = dist.shape
    here = dist[y, x]
    out = []
    for dx, dy in DIRS8:
        nx, ny = x + dx, y + dy
        if not (0 <= nx < w and 0 <= ny < h) or dist[ny, nx] != here - 1:
            continue
        if dx and dy and not (passable[y, nx] and passable[ny, x]):
            continue
        out.append((dx, dy))
    return out
