"""Helpers shared by the engine and autoplayer tests: hand-built situations on real floors.

A monster-free game of a seed (:func:`fresh`), an open square of floor around the player with
nothing lying near (:func:`arena`), monsters placed by hand (:func:`add`), and a small world
with a puzzle pedestal of a fast type (:func:`world`, :func:`room_of`, :func:`stand_on`).
"""

from __future__ import annotations

import copy
from functools import cache

import numpy as np
from scipy import ndimage

from roguelike import tiles
from roguelike.engine import Event, GameState, Move, PuzzleRoom, new_game, step
from roguelike.engine.creatures import MONSTERS, Monster

__all__ = [
    "add",
    "arena",
    "cheb",
    "fresh",
    "off",
    "open_centres",
    "put_player",
    "room_of",
    "stand_on",
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
    """The first small world (by seed) whose first floor has a pedestal of a fast type."""
    for seed in range(200):
        state = new_game(seed, preset="small", monsters=False)
        if any(p.type in ("jugs", "stomp", "sliding") for p in state.puzzles.values()):
            return state
    raise AssertionError("no pedestal of a fast type in 200 worlds")


def world() -> GameState:
    """A private copy of a small monster-free world with a fast pedestal on floor 1."""
    return copy.deepcopy(_world_with_puzzle())


def room_of(state: GameState) -> PuzzleRoom:
    """The first pedestal of a fast type on the floor."""
    return next(p for p in state.puzzles.values() if p.type in ("jugs", "stomp", "sliding"))


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
