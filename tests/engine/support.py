"""Helpers shared by the engine and autoplayer tests: hand-built situations on real floors.

A monster-free game of a seed (:func:`fresh`), an open square of floor around the player with
nothing lying near (:func:`arena`), monsters placed by hand (:func:`add`), and a small world
with a puzzle pedestal of a fast type (:func:`world`, :func:`room_of`, :func:`stand_on`); a
plain breadth-first search to check the engine's distance maps against (:func:`bfs`), the
blows and messages among events, and doors with room to walk through them.
"""

from __future__ import annotations

import copy
from collections import deque
from functools import cache

import numpy as np
from scipy import ndimage

from roguelike import tiles
from roguelike.engine import Attacked, Event, GameState, Message, Move, PuzzleRoom, new_game, step
from roguelike.engine.creatures import MONSTERS, SHACKLED, Monster
from roguelike.engine.pathing import FAR

__all__ = [
    "add",
    "arena",
    "attacks_by",
    "bfs",
    "cheb",
    "DIRS8",
    "fresh",
    "locked_doors",
    "off",
    "open_centres",
    "ORTHO",
    "plain_doors",
    "put_player",
    "room_of",
    "stand_on",
    "texts",
    "unseen_cells",
    "walk_dist",
    "world",
]


def cheb(p: tuple[int, int], q: tuple[int, int]) -> int:
    """Chebyshev distance: steps between ``p`` and ``q`` on an open floor."""
    return max(abs(p[0] - q[0]), abs(p[1] - q[1]))


@cache
def _fresh(seed: int, floor: int = 1) -> GameState:
    return new_game(seed, total_floors=3, floor=floor, monsters=False, puzzles=False)


def fresh(seed: int, floor: int = 1) -> GameState:
    """A monster-free game of ``seed`` at the spawn of ``floor`` (a private copy)."""
    return copy.deepcopy(_fresh(seed, floor))


def put_player(state: GameState, pos: tuple[int, int]) -> None:
    """Move the player to ``pos`` (no turn passes) and update the view."""
    state.player = pos
    state.update_view()


def add(
    state: GameState,
    kind: str,
    pos: tuple[int, int],
    *,
    hp: int | None = None,
    awake: bool = True,
    guard: bool = False,
    home: tuple[int, int] | None = None,
) -> Monster:
    """Place a ``kind`` monster on the free walkable cell ``pos`` (awake unless told)."""
    assert tiles.WALKABLE[state.tiles[pos[1], pos[0]]], pos
    assert state.monster_at(*pos) is None and pos != state.player
    mid = max((m.id for m in state.monsters), default=-1) + 1
    m = Monster(
        mid,
        kind,
        pos[0],
        pos[1],
        MONSTERS[kind].max_hp if hp is None else hp,
        home=home or pos,
        guard=guard,
        awake=awake,
    )
    state.monsters.append(m)
    return m


def open_centres(state: GameState, r: int) -> list[tuple[int, int]]:
    """Centres of (2r+1)² squares of open floor (walkable and transparent)."""
    ok = tiles.WALKABLE[state.tiles] & tiles.TRANSPARENT[state.tiles]
    er = ndimage.binary_erosion(ok, structure=np.ones((2 * r + 1, 2 * r + 1), bool))
    ys, xs = np.nonzero(er)
    return sorted(zip(xs.tolist(), ys.tolist(), strict=True))


@cache
def _arena_spot(r: int) -> tuple[int, tuple[int, int]]:
    for seed in range(60):
        centres = open_centres(_fresh(seed), r)
        if centres:
            return seed, centres[len(centres) // 2]
    raise AssertionError(f"no open {2 * r + 1}² square on floor 1 of seeds 0..59")


def arena(r: int = 3) -> tuple[GameState, tuple[int, int]]:
    """A monster-free game with the player at the centre ``c`` of an open (2r+1)² square of
    floor, nothing lying within r+1 of it, no trap on the floor, and no regeneration to blur HP
    arithmetic."""
    seed, c = _arena_spot(r)
    state = fresh(seed)
    for lying in (state.items_lying, state.keys_lying):
        for pos in [p for p in lying if cheb(p, c) <= r + 1]:
            del lying[pos]
    state.traps.clear()  # a hidden trap would blur the arithmetic too (tests add their own)
    put_player(state, c)
    state.regen_clock = -10_000
    return state, c


def off(c: tuple[int, int], dx: int, dy: int) -> tuple[int, int]:
    """The cell (dx, dy) away from ``c``."""
    return (c[0] + dx, c[1] + dy)


# --- puzzle rooms ----------------------------------------------------------------------------

DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))


@cache
def _world_with_puzzle() -> GameState:
    """The first small world (by seed) whose first floor has a pedestal of a fast type that
    opens a lock."""
    for seed in range(200):
        state = new_game(seed, preset="small", monsters=False)
        changes = {c.key for c in state.floor.changes}
        fast = ("jugs", "stomp", "sliding")
        if any(p.type in fast and p.key not in changes for p in state.puzzles.values()):
            return state
    raise AssertionError("no pedestal of a fast type in 200 worlds")


def world() -> GameState:
    """A private copy of a small monster-free world with a fast pedestal on floor 1."""
    return copy.deepcopy(_world_with_puzzle())


def room_of(state: GameState) -> PuzzleRoom:
    """The first pedestal of a fast type on the floor that opens a lock (not a floor
    change's)."""
    changes = {c.key for c in state.floor.changes}
    return next(
        p
        for p in state.puzzles.values()
        if p.type in ("jugs", "stomp", "sliding") and p.key not in changes
    )


def stand_on(state: GameState, pos: tuple[int, int]) -> list[Event]:
    """Step onto ``pos`` from a walkable neighbour (as if the player had walked there)."""
    x, y = pos
    walk = tiles.WALKABLE[state.tiles]
    for dx, dy in DIRS:
        if walk[y - dy, x - dx] and (x - dx, y - dy) not in state.puzzles:
            state.player = (x - dx, y - dy)
            state.update_view()
            return step(state, Move(dx, dy))
    raise AssertionError("no way onto the pedestal")


# --- searches, events and doors (the engine tests' common helpers) --------------------------

DIRS8 = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0)]
ORTHO = [(1, 0), (-1, 0), (0, 1), (0, -1)]


def bfs(
    passable: np.ndarray, sources: list[tuple[int, int]], limit: int | None = None
) -> np.ndarray:
    """Plain Python breadth-first search: steps from the nearest source in 8 directions, a
    diagonal only when both orthogonal cells beside it are passable; sources count as
    passable, sources off the grid are ignored, FAR where unreached (or beyond ``limit``)."""
    h, w = passable.shape
    src = [(x, y) for x, y in sources if 0 <= x < w and 0 <= y < h]
    ok = passable.copy()
    for x, y in src:
        ok[y, x] = True
    dist = np.full((h, w), FAR, dtype=np.int32)
    queue: deque[tuple[int, int]] = deque()
    for x, y in src:
        if dist[y, x] != 0:
            dist[y, x] = 0
            queue.append((x, y))
    while queue:
        x, y = queue.popleft()
        if limit is not None and dist[y, x] >= limit:
            continue
        for dx, dy in DIRS8:
            nx, ny = x + dx, y + dy
            if not (0 <= nx < w and 0 <= ny < h) or not ok[ny, nx] or dist[ny, nx] != FAR:
                continue
            if dx and dy and not (ok[y, nx] and ok[ny, x]):
                continue
            dist[ny, nx] = dist[y, x] + 1
            queue.append((nx, ny))
    return dist


def walk_dist(state: GameState, pos: tuple[int, int]) -> np.ndarray:
    """Steps from ``pos`` over the walkable cells of the live map."""
    return bfs(tiles.WALKABLE[state.tiles], [pos])


def attacks_by(events: list[Event], attacker: str) -> list[Attacked]:
    """The blows ``attacker`` struck among ``events``."""
    return [e for e in events if isinstance(e, Attacked) and e.attacker == attacker]


def texts(events: list[Event]) -> str:
    """The messages among ``events``, joined by " | "."""
    return " | ".join(e.text for e in events if isinstance(e, Message))


def plain_doors(state: GameState):
    """(door, v) for closed plain doors with walkable cells at door - 2v, door - v and
    door + v (v an orthogonal unit step)."""
    walk = tiles.WALKABLE[state.tiles]
    h, w = walk.shape
    ys, xs = np.nonzero(state.tiles == tiles.DOOR)
    for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
        for vx, vy in ORTHO:
            cells = [(x - 2 * vx, y - 2 * vy), (x - vx, y - vy), (x + vx, y + vy)]
            if all(0 <= cx < w and 0 <= cy < h and walk[cy, cx] for cx, cy in cells):
                yield (x, y), (vx, vy)


def locked_doors(state: GameState):
    """(door, v, key) for locked doors with walkable cells on both sides along v."""
    walk = tiles.WALKABLE[state.tiles]
    for d in state.floor.doors:
        if d.lock is None:
            continue
        for vx, vy in ORTHO:
            if walk[d.y - vy, d.x - vx] and walk[d.y + vy, d.x + vx]:
                yield (d.x, d.y), (vx, vy), d.lock
                break


def unseen_cells(state: GameState, lo: int, hi: int) -> list[tuple[int, int]]:
    """Free cells (no door) out of view, ``lo`` to ``hi`` steps' walk from the player."""
    dist = walk_dist(state, state.player)
    free = (dist >= lo) & (dist <= hi) & ~state.visible & (state.tiles != tiles.DOOR)
    ys, xs = np.nonzero(free)
    return [(int(x), int(y)) for x, y in zip(xs, ys, strict=True)]


def seat(state: GameState, kind: str, pos: tuple[int, int], *, shackled: bool = True) -> Monster:
    """A captive (or, ``shackled=False``, a free ally) of ``kind`` on the free cell ``pos``."""
    assert tiles.WALKABLE[state.tiles[pos[1], pos[0]]] and not state.occupied(*pos)
    hp = MONSTERS[kind].max_hp
    m = Monster(100 + len(state.allies), kind, pos[0], pos[1], hp, home=pos, max_hp=hp)
    if shackled:
        m.extra[SHACKLED] = 0
    else:
        m.awake = True
    state.allies.append(m)
    return m
