"""The autoplayer's ways over the map it knows: what it takes for a threat
(:func:`threats_seen`), a first step towards a place or towards the nearest unexplored one, a
step away from its threats, whether a monster can step next to it (the first blow is ours),
and whether a known trap lies within a search's reach.
"""

from __future__ import annotations

import numpy as np

from roguelike import tiles
from roguelike.engine import Action, Move
from roguelike.engine.balance import SEARCH_RADIUS
from roguelike.engine.creatures import Monster
from roguelike.engine.grid import DIRS8, can_step, chebyshev
from roguelike.engine.monsters import SCENT_RANGE
from roguelike.engine.pathing import FAR, distance_map, downhill
from roguelike.engine.state import GameState
from roguelike.engine.travel import explore_distances, known_passable, travel_distances


def threats_seen(state: GameState) -> list[Monster]:
    """The monsters in view that are awake, not fleeing and, as far as a person can tell,
    able to reach the player: over the known map, taking every unexplored cell for open ground
    (the engine's own list looks at the whole map, which a person has not seen)."""
    awake = [m for m in state.visible_monsters() if m.awake and not m.fleeing]
    if not awake:
        return []
    known = tiles.WALKABLE[state.tiles] | ~state.explored
    dist = distance_map(known, [state.player], SCENT_RANGE)
    return [m for m in awake if dist[m.y, m.x] < FAR]


def can_step_to(state: GameState, x: int, y: int) -> bool:
    """Whether the player could attack (x, y) from where it stands (the corner rule)."""
    px, py = state.player
    return can_step(state, px, py, x - px, y - py)


def _can_come(state: GameState, m: Monster) -> bool:
    """Whether ``m`` can step next to the player (and be hit first) on its next move: it is
    two steps away with a free cell between (one it may enter, and attack from)."""
    if chebyshev(m.pos, state.player) != 2:
        return False
    px, py = state.player
    for dx, dy in DIRS8:
        x, y = px + dx, py + dy
        if (
            chebyshev((x, y), m.pos) == 1
            and not state.occupied(x, y)
            and can_step(state, m.x, m.y, x - m.x, y - m.y)
            and can_step(state, x, y, px - x, py - y)  # the same corner both ways
        ):
            return True
    return False


def _first_step(state: GameState, dist: np.ndarray) -> Action | None:
    """The first step of a shortest way down ``dist`` from the player, if there is one."""
    px, py = state.player
    if dist[py, px] >= FAR:
        return None
    steps = downhill(dist, dist < FAR, px, py)
    return Move(*steps[0]) if steps else None


def _towards(
    state: GameState,
    x: int,
    y: int,
    avoid: np.ndarray | None = None,
    *,
    heed_fire: bool = True,
) -> Action | None:
    """The first step of a shortest known way to (x, y), outside ``avoid`` (and round the fire
    in view, with ``heed_fire``)."""
    return _first_step(state, travel_distances(state, x, y, avoid, heed_fire=heed_fire))


def _explore_step(
    state: GameState,
    avoid: np.ndarray | None = None,
    *,
    heed_fire: bool = True,
    danger: np.ndarray | None = None,
) -> Action | None:
    """One step towards the nearest unexplored place (outside ``avoid``; round the fire in view
    with ``heed_fire``; out of ``danger`` as the engine's explore keeps), even with a monster
    in view."""
    dist = explore_distances(state, avoid, danger=danger, heed_fire=heed_fire)
    return _first_step(state, dist)


def _away(
    state: GameState, threats: list[Monster], avoid: np.ndarray | None = None
) -> Action | None:
    """A step that takes the player further from the nearest monster of ``threats`` (over the
    known map, outside ``avoid``), if there is one."""
    ok = known_passable(state)
    if avoid is not None:
        ok &= ~avoid
    dist = distance_map(ok, [m.pos for m in threats])
    px, py = state.player
    here = int(dist[py, px])
    best: tuple[int, int, int] | None = None
    for dx, dy in DIRS8:
        x, y = px + dx, py + dy
        kept_out = avoid is not None and bool(avoid[y, x])
        if can_step(state, px, py, dx, dy) and state.monster_at(x, y) is None and not kept_out:
            d = int(dist[y, x])
            if d > here and (best is None or d > best[0]):
                best = (d, dx, dy)
    return None if best is None else Move(best[1], best[2])


def _trap_near(state: GameState) -> bool:
    """A known trap lies within a search's reach."""
    return any(chebyshev(pos, state.player) <= SEARCH_RADIUS for pos in state.traps_known)
