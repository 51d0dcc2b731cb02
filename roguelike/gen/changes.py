"""Stage 6's last step: a puzzle that changes the floor.

Besides the pedestals that open locks, a floor may hold one **optional** pedestal whose
solution changes the map. What it changes is decided here, at generation, and carried by the
floor as a :class:`~roguelike.gen.floor.FloorChange` record (its kind, the pedestal's cell,
every cell it sets and the tile each becomes); the engine applies that record, once, when
the player's reported solution checks out (``roguelike/engine/changes.py``). The kinds:

* ``shortcut``: a straight run of one to three wall cells between two parts of the floor
  that the player can already walk between, but only the long way round, crumbles into
  rubble;
* ``bridge``: the same across a run of chasm cells, which a bridge spans;
* ``drain``: the floor's flooded passage (its deep water) drains to plain floor; the pedestal
  stands outside it, nearest to it, on its near side (nearer the spawn) where it can;
* ``reveal``: the pedestal in the start room draws the whole floor's outline (its walls) and
  its stairs on the player's map; it sets no tile.

A shortcut or a bridge only ever joins two cells that are already connected with every lock
shut (so it never lets the player past a lock or into a vault), and saves at least
:data:`SHORTCUT_SAVING` steps on the way from the spawn. The pedestal's key id is past the
topology's keys and the vaults' (it opens no door), so a floor whose keys already reach
``tiles.MAX_KEYS`` has no change.

Everything is drawn from the floor's own stream ``seeds.stream(seed, floor, "changes")``
(whether the floor has a change at all, by ``depth.CHANGE_ODDS``; which kind of those the
floor allows, by :data:`WEIGHT`; which place), so a change never moves another stage's draw.
The proof (stage 7, ``prove.py``) proves the floor completable as generated, without the
change, and again with each change applied.
"""

from __future__ import annotations

from collections import deque

import numpy as np
from scipy import ndimage

from roguelike import depth, tiles
from roguelike.gen.floor import CHANGE_KINDS, FloorChange, Populated, carried

CHANGE_STREAM = "changes"
#: The fewest steps a shortcut or bridge must save on the way from the spawn.
SHORTCUT_SAVING = 12
#: The longest run of wall or chasm cells a shortcut or bridge crosses.
SHORTCUT_LONGEST = 3
#: Of the shortcuts that save the most, how many the draw picks among.
SHORTCUT_BEST = 5
#: How much more often a kind is chosen than another the floor also allows (a map shown is
#: possible on nearly every floor, so it is the least often chosen).
WEIGHT = {"shortcut": 3, "bridge": 3, "drain": 3, "reveal": 1}
#: The tiles a pedestal may stand on (it replaces them on arrival).
PLAIN = (tiles.FLOOR, tiles.CAVE)
#: The tile a kind leaves where it opens the way.
OPENED = {"shortcut": tiles.RUBBLE, "bridge": tiles.BRIDGE, "drain": tiles.FLOOR}
#: The tile a kind opens the way through.
BLOCKING = {"shortcut": tiles.WALL, "bridge": tiles.CHASM}

Cell = tuple[int, int]


def place_change(fl: Populated, rng: np.random.Generator) -> Populated:
    """``fl`` with its floor change (or none), drawn from ``rng`` (the ``changes`` stream)."""
    key = len(fl.keys) + len(fl.vaults) + 1
    chance = depth.CHANGE_ODDS.at(fl.number)
    roll = int(rng.integers(100))
    if roll >= chance or key > tiles.MAX_KEYS:
        return fl
    walk = tiles.WALKABLE[fl.tiles]
    labels, _ = ndimage.label(walk)  # the parts of the floor between shut locks
    dist = _distances(fl, walk)
    free = _free_cells(fl)
    made: list[FloorChange] = []
    for kind in CHANGE_KINDS:  # every kind drawn in one order, whatever the floor allows
        pick = int(rng.integers(1 << 30))
        change = _make(kind, fl, key, walk, labels, dist, free, pick)
        if change is not None:
            made.append(change)
    if not made:
        return fl
    weights = np.array([WEIGHT[c.kind] for c in made], dtype=float)
    chosen = made[int(rng.choice(len(made), p=weights / weights.sum()))]
    return Populated(**{**carried(fl), "changes": [chosen]})


def _make(
    kind: str,
    fl: Populated,
    key: int,
    walk: np.ndarray,
    labels: np.ndarray,
    dist: np.ndarray,
    free: np.ndarray,
    pick: int,
) -> FloorChange | None:
    if kind in BLOCKING:
        return _shortcut(kind, fl, key, labels, dist, free, pick)
    if kind == "drain":
        return _drain(fl, key, walk, dist, free)
    return _reveal(fl, key, free, pick)


def _distances(fl: Populated, walk: np.ndarray) -> np.ndarray:
    """Steps from the spawn to each cell with every lock open and the vaults shut (-1: none)."""
    opened = walk.copy()
    for k in fl.keys:
        opened |= fl.tiles == tiles.locked_door(k.id)
    return _bfs(opened, [fl.spawn])


def _bfs(walk: np.ndarray, starts: list[Cell]) -> np.ndarray:
    h, w = walk.shape
    dist = np.full((h, w), -1, dtype=np.int32)
    queue: deque[Cell] = deque()
    for x, y in starts:
        dist[y, x] = 0
        queue.append((x, y))
    while queue:
        x, y = queue.popleft()
        d = int(dist[y, x]) + 1
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < w and 0 <= ny < h and walk[ny, nx] and dist[ny, nx] < 0:
                dist[ny, nx] = d
                queue.append((nx, ny))
    return dist


def _free_cells(fl: Populated) -> np.ndarray:
    """Cells a pedestal may stand on: plain, unprotected room floor outside any vault, that
    holds nothing else (no slot, trap, key, pedestal, spawn or stairs)."""
    free = np.isin(fl.tiles, PLAIN) & (fl.room_map >= 0) & ~fl.protected
    for v in fl.vaults:
        free &= fl.room_map != v.vault
    taken = [fl.spawn, fl.finish] + [(k.x, k.y) for k in fl.keys] + [(v.x, v.y) for v in fl.vaults]
    taken += [(s.x, s.y) for s in fl.slots] + [(t.x, t.y) for t in fl.traps]
    for x, y in taken:
        free[y, x] = False
    return free


def _nearest_free(free: np.ndarray, near: np.ndarray, allowed: np.ndarray) -> Cell | None:
    """The free, allowed cell with the smallest ``near`` distance (-1: unreached), first in row
    order on a tie."""
    ok = free & allowed & (near >= 0)
    if not ok.any():
        return None
    score = np.where(ok, near, np.iinfo(np.int32).max)
    y, x = np.unravel_index(int(np.argmin(score)), score.shape)
    return int(x), int(y)


def _shortcut(
    kind: str,
    fl: Populated,
    key: int,
    labels: np.ndarray,
    dist: np.ndarray,
    free: np.ndarray,
    pick: int,
) -> FloorChange | None:
    """A straight run of ``BLOCKING[kind]`` cells between two cells of one part of the floor
    whose distances from the spawn differ by at least the run's length plus
    :data:`SHORTCUT_SAVING`; the pedestal on the free cell nearest its near end."""
    grid = fl.tiles
    h, w = grid.shape
    blocking = (grid == BLOCKING[kind]) & ~fl.protected
    found: list[tuple[int, int, int, int, int, int]] = []  # (-saving, x, y, dx, dy, length)
    for dx, dy in ((1, 0), (0, 1)):
        for length in range(1, SHORTCUT_LONGEST + 1):
            span = length + 1
            ys, xs = np.nonzero(labels[: h - span * dy, : w - span * dx] > 0)
            if not len(xs):
                continue
            ex, ey = xs + span * dx, ys + span * dy
            ok = labels[ys, xs] == labels[ey, ex]
            for i in range(1, length + 1):
                cx, cy = xs + i * dx, ys + i * dy
                ok &= blocking[cy, cx]
                # a cell opened beside another part of the floor would join the two: never
                for sx, sy in ((dy, dx), (-dy, -dx)):
                    nx = np.clip(cx + sx, 0, w - 1)
                    ny = np.clip(cy + sy, 0, h - 1)
                    side = labels[ny, nx]
                    ok &= (side == 0) | (side == labels[ys, xs])
            saving = np.abs(dist[ys, xs] - dist[ey, ex]) - span
            ok &= (dist[ys, xs] >= 0) & (dist[ey, ex] >= 0) & (saving >= SHORTCUT_SAVING)
            for j in np.nonzero(ok)[0]:
                found.append((-int(saving[j]), int(xs[j]), int(ys[j]), dx, dy, length))
    if not found:
        return None
    found.sort()
    _, x, y, dx, dy, length = found[pick % min(SHORTCUT_BEST, len(found))]
    far = (x + (length + 1) * dx, y + (length + 1) * dy)
    near = (x, y) if dist[y, x] < dist[far[1], far[0]] else far
    from_near = _bfs(labels == labels[near[1], near[0]], [near])
    spot = _nearest_free(free, from_near, np.ones_like(free))
    if spot is None:
        return None
    cells = tuple((x + i * dx, y + i * dy, OPENED[kind]) for i in range(1, length + 1))
    return FloorChange(kind, key, spot[0], spot[1], int(fl.room_map[spot[1], spot[0]]), cells)


def _drain(
    fl: Populated, key: int, walk: np.ndarray, dist: np.ndarray, free: np.ndarray
) -> FloorChange | None:
    """The flooded passage's deep water, drained; the pedestal on the free cell outside it
    nearest to it, on its near side (nearer the spawn than any of its deep water) where the
    floor has one there."""
    flooded = [r for r, role in sorted(fl.roles.items()) if role == "flooded"]
    if not flooded:
        return None
    deep = (fl.room_map == flooded[0]) & (fl.tiles == tiles.DEEP_WATER)
    if not deep.any():
        return None
    ys, xs = np.nonzero(deep)
    from_deep = _bfs(walk, [(int(x), int(y)) for x, y in zip(xs, ys, strict=True)])
    nearest = int(dist[deep].min()) if (dist[deep] >= 0).any() else -1
    before = (fl.room_map != flooded[0]) & (dist >= 0) & (dist < nearest)
    # on the near side if it can, else anywhere beside it
    spot = _nearest_free(free, from_deep, before) or _nearest_free(
        free, from_deep, (fl.room_map != flooded[0]) & (dist >= 0)
    )
    if spot is None:
        return None
    order = sorted(zip(xs.tolist(), ys.tolist(), strict=True), key=lambda c: (c[1], c[0]))
    cells = tuple((x, y, OPENED["drain"]) for x, y in order)
    return FloorChange("drain", key, spot[0], spot[1], int(fl.room_map[spot[1], spot[0]]), cells)


def _reveal(fl: Populated, key: int, free: np.ndarray, pick: int) -> FloorChange | None:
    """A pedestal on a free cell of the start room that shows the floor's map."""
    ys, xs = np.nonzero(free & (fl.room_map == fl.topology.start))
    if not len(xs):
        return None
    i = pick % len(xs)
    return FloorChange("reveal", key, int(xs[i]), int(ys[i]), fl.topology.start)


def applied(fl: Populated, change: FloorChange) -> np.ndarray:
    """``fl``'s tiles with ``change``'s cells set (a copy)."""
    grid = fl.tiles.copy()
    for x, y, t in change.cells:
        grid[y, x] = t
    return grid
