"""The monsters whose answer is not a corridor (off with ``naive_monsters``): a breather's line
is death, so it steps off every breather's line towards the nearest one (:func:`_off_breath`);
only fire hurts a ghost, so it throws a fire bomb at one, or reads a sacrifice scroll next to
one (:func:`_fire_at_ghost`).
"""

from __future__ import annotations

import numpy as np

from roguelike import tiles
from roguelike.autoplay.policy import BIG_HP, PATIENCE, Decision, Memory
from roguelike.engine import Move, Throw, Use
from roguelike.engine.balance import THROW_RANGE
from roguelike.engine.creatures import Monster, shown_name
from roguelike.engine.grid import DIRS8, can_step, chebyshev
from roguelike.engine.items import flight, held_known
from roguelike.engine.state import GameState


def _fire_at_ghost(state: GameState, memory: Memory, seen: list[Monster]) -> Decision | None:
    """Fire for a ghost in view (only fire hurts it): a bomb thrown at it from two steps or
    more, else a sacrifice scroll when it is next to the player; None: nothing to burn it
    with (the player walks on: it passes through ghosts, and they are slow; stepping away
    from one drew the walk back and forth and stalled runs)."""
    policy = memory.policy
    ghosts = [m for m in seen if m.info.ethereal]
    if not ghosts or policy.naive_monsters:
        return None
    if policy.no_items:
        return None
    bomb = held_known(state, "bomb")
    for g in ghosts:
        path = flight(state, g.x, g.y) if bomb else []
        near = chebyshev(g.pos, state.player) <= THROW_RANGE
        if bomb and path and path[-1] == g.pos and chebyshev(g.pos, state.player) >= 2 and near:
            return Decision(
                Throw(bomb, g.x, g.y), f"throwing a fire bomb at the {shown_name(state, g)}"
            )
    burn = held_known(state, "sacrifice")
    close = any(chebyshev(g.pos, state.player) == 1 for g in ghosts)
    if burn and close and state.max_hp > 2 * BIG_HP:
        return Decision(Use(burn), "burning the ghost with a sacrifice scroll")
    return None


def _breath_lines(state: GameState, cell: tuple[int, int]) -> bool:
    """Whether ``cell`` lies on the breath line of an awake breather in view: on one of its
    straight lines, within its reach, nothing that blocks the view between."""
    for m in state.visible_monsters():
        reach = m.info.breath
        if not reach or not m.awake:
            continue
        dx, dy = cell[0] - m.x, cell[1] - m.y
        if (dx and dy and abs(dx) != abs(dy)) or not 0 < max(abs(dx), abs(dy)) <= reach:
            continue
        sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
        between = [(m.x + sx * k, m.y + sy * k) for k in range(1, max(abs(dx), abs(dy)))]
        if all(tiles.TRANSPARENT[state.tiles[y, x]] for x, y in between):
            return True
    return False


def _off_breath(state: GameState, memory: Memory) -> Decision | None:
    """A step off every breather's line (a corridor is death), towards the nearest breather
    (to strike it from beside it); None when the player stands off them and no step both
    keeps off and comes nearer, or next to a breather already (then it fights)."""
    if memory.policy.naive_monsters:
        return None
    breathers = [
        m
        for m in state.visible_monsters()
        if m.info.breath and m.awake and memory.dodged.get(m.id, 0) <= PATIENCE
    ]
    if not breathers or any(chebyshev(m.pos, state.player) == 1 for m in breathers):
        return None
    px, py = state.player

    def nearest(c: tuple[int, int]) -> int:
        return min(chebyshev(c, m.pos) for m in breathers)

    here_lined = _breath_lines(state, state.player)
    best: tuple[int, int, int] | None = None
    for dx, dy in DIRS8:
        c = (px + dx, py + dy)
        if not can_step(state, px, py, dx, dy) or state.occupied(*c):
            continue
        if _breath_lines(state, c):
            continue
        d = nearest(c)
        if (here_lined or d < nearest(state.player)) and (best is None or d < best[0]):
            best = (d, dx, dy)
    if best is None:
        return None
    # a breather that keeps finding a new line is dodged PATIENCE times, then gone for
    nearest_one = min(breathers, key=lambda m: (chebyshev(m.pos, state.player), m.id))
    memory.dodged[nearest_one.id] = memory.dodged.get(nearest_one.id, 0) + 1
    return Decision(Move(best[1], best[2]), "keeping off the breath's line")


def breath_mask(state: GameState, memory: Memory) -> np.ndarray | None:
    """The cells two steps or more along the lines of every awake breather in view, up to its
    reach and the first thing that blocks the view: where a walk (a retreat, the way to a
    monster) must not lead, since a breath there cannot be answered. The cells next to a
    breather are left open: it is struck from beside it. None: no breather in view, or the
    policy pays breathers no heed (``naive_monsters``)."""
    if memory.policy.naive_monsters:
        return None
    breathers = [m for m in state.visible_monsters() if m.info.breath and m.awake]
    if not breathers:
        return None
    out = np.zeros(state.tiles.shape, dtype=bool)
    for m in breathers:
        for dx, dy in DIRS8:
            for k in range(1, m.info.breath + 1):
                x, y = m.x + dx * k, m.y + dy * k
                if not (0 <= x < state.width and 0 <= y < state.height):
                    break
                if k >= 2:
                    out[y, x] = True
                if not tiles.TRANSPARENT[state.tiles[y, x]]:
                    break
    return out
