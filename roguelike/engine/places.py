"""The places worth going to on a floor, as the player knows it: what the travel cursor jumps
between, and where ``>`` walks.

Everything here is read from what the player has seen (the explored map, the monsters in view),
never from the floor as generated, so the cursor cannot give away a key the player has not
found. Places come nearest first, by steps over the known map (:func:`known_steps`); places no
known way reaches come after, by straight distance.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import ndimage

from roguelike import tiles
from roguelike.engine.actions import Descend, Travel
from roguelike.engine.creatures import ITEMS, shown_name
from roguelike.engine.describe import a, item_name, key_name
from roguelike.engine.grid import DIRS8
from roguelike.engine.pathing import FAR, distance_map, shifted
from roguelike.engine.state import GameState
from roguelike.engine.travel import known_passable

__all__ = [
    "KINDS",
    "Place",
    "finish_known",
    "frontier",
    "known_steps",
    "places",
    "stairs_action",
]

Pos = tuple[int, int]

#: The kinds of place, in the order they are listed when two are as near.
KINDS: tuple[str, ...] = (
    "stairs",
    "exit",
    "key",
    "pedestal",
    "locked door",
    "monster",
    "item",
    "door",
    "unexplored",
)


@dataclass(frozen=True)
class Place:
    """One place worth going to: its cell, its kind (one of :data:`KINDS`), a few words for the
    prompt line, and the steps a known way takes there (None: no known way)."""

    x: int
    y: int
    kind: str
    what: str
    steps: int | None

    @property
    def pos(self) -> Pos:
        return (self.x, self.y)


def finish_known(state: GameState) -> Pos | None:
    """Where the stairs (or, on the last floor, the exit) are, once the player has seen them."""
    finish = state.floor.finish
    if finish is None:
        return None
    fx, fy = finish
    return finish if bool(state.explored[fy, fx]) else None


def stairs_action(state: GameState) -> Descend | Travel | str:
    """What ``>`` asks for, as in Brogue: on the stairs (or the exit), take them; off them,
    once they have been seen, travel there (an ordinary :class:`Travel`, which stops on
    anything new like any other); before that, the line that says why nothing happens."""
    x, y = state.player
    if int(state.tiles[y, x]) in (tiles.STAIRS, tiles.EXIT):
        return Descend()
    finish = finish_known(state)
    where = "exit" if state.floor.last else "stairs"
    if finish is None:
        them = "it" if state.floor.last else "them"
        return f"You have not found the {where} yet: explore (e) to find {them}."
    return Travel(*finish)


def known_steps(state: GameState) -> np.ndarray:
    """Steps from the player to every cell over the explored map (walkable cells and locked
    doors whose key is held); a cell a walk cannot enter (a locked door, a wall) gets the steps
    to its nearest reachable neighbour plus one, so that it can be sorted by how near it is."""
    ok = known_passable(state)
    dist = distance_map(ok, [state.player])
    beside = dist.copy()
    for dx, dy in DIRS8:
        near = shifted(dist - FAR, dx, dy) + FAR  # FAR shifted in at the edges
        near[near < FAR] += 1
        np.minimum(beside, near, out=beside)
    return np.where(ok | (dist < FAR), dist, beside)


def frontier(state: GameState, steps: np.ndarray) -> list[Pos]:
    """One cell per stretch of unexplored edge (known walkable cells next to unknown ones, the
    stretches joined in eight directions): the one a known way reaches in fewest steps."""
    unknown = ~state.explored
    edge = np.zeros_like(unknown)
    for dx, dy in DIRS8:
        edge |= shifted(unknown, dx, dy)
    edge &= known_passable(state)
    edge &= steps < FAR
    labels, count = ndimage.label(edge, structure=np.ones((3, 3), dtype=bool))
    if count == 0:
        return []
    ys, xs = np.nonzero(labels)
    label_of = labels[ys, xs]
    cost = steps[ys, xs]
    # sort by (stretch, steps, y, x): the first cell of each stretch is its nearest
    order = np.lexsort((xs, ys, cost, label_of))
    first = np.ones(len(order), dtype=bool)
    first[1:] = label_of[order][1:] != label_of[order][:-1]
    keep = order[first]
    return list(zip(xs[keep].tolist(), ys[keep].tolist(), strict=True))


def places(state: GameState) -> list[Place]:
    """Every place worth the travel cursor's jump, nearest first (ties: the order of
    :data:`KINDS`, then top to bottom, left to right). The player's own cell is not one."""
    steps = known_steps(state)
    explored = state.explored
    found: dict[tuple[Pos, str], str] = {}

    def add(pos: Pos, kind: str, what: str) -> None:
        if pos != state.player:
            found.setdefault((pos, kind), what)

    finish = finish_known(state)
    if finish is not None:
        if state.floor.last:
            add(finish, "exit", "the exit out of the dungeon")
        else:
            add(finish, "stairs", "the stairs down")
    for pos, key in state.keys_lying.items():
        if explored[pos[1], pos[0]]:
            add(pos, "key", key_name(key))
    for pos, room in state.puzzles.items():
        if explored[pos[1], pos[0]] and not room.solved:
            add(pos, "pedestal", f"the {room.type} pedestal")
    ys, xs = np.nonzero(explored & (state.tiles >= tiles.LOCKED_FIRST))
    for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
        lock = tiles.lock_of(int(state.tiles[y, x]))
        if lock is not None:
            held = " (you hold its key)" if lock in state.keys_held else ""
            add((x, y), "locked door", f"a door locked with {key_name(lock)}{held}")
    for m in state.monsters:
        if m.hp > 0 and state.shows(m):
            add((m.x, m.y), "monster", a(shown_name(state, m)))
    for pos, item in state.items_lying.items():
        if explored[pos[1], pos[0]]:
            add(pos, "item", a(item_name(state, item)) if item in ITEMS else "something")
    ys, xs = np.nonzero(explored & (state.tiles == tiles.DOOR))
    for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
        add((x, y), "door", "a closed door")
    for pos in frontier(state, steps):
        add(pos, "unexplored", "the edge of the unexplored")
    px, py = state.player
    rank = {kind: n for n, kind in enumerate(KINDS)}

    def order(item: tuple[tuple[Pos, str], str]) -> tuple[int, int, int, int, int]:
        ((x, y), kind), _ = item
        s = int(steps[y, x])
        far = s if s < FAR else int(FAR) + max(abs(x - px), abs(y - py))
        return (far, rank[kind], y, x, 0)

    out = []
    for ((x, y), kind), what in sorted(found.items(), key=order):
        s = int(steps[y, x])
        out.append(Place(x, y, kind, what, s if s < FAR else None))
    return out
