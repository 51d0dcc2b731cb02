"""Fire, for the autoplayer: whether a cell burns now or may at the end of the turn
(:func:`_in_danger`), the step out of it (:func:`_fire_escape`), and where a fire bomb is
worth throwing (:func:`_aim`: a burst that burns two threats or a big one, or that sets moss
or marsh gas alight round one, :func:`_kindling`; never one next to the player), the cells a
walk keeps out of while fire is in view (:func:`hot_cells`: burning, or moss or gas that may
catch), a step off the moss before a fire-starter comes to blows (:func:`_off_moss`), and a
known incineration potion opened among several foes (:func:`_incinerate`). With
``ignore_fire`` it pays fire no mind (and never starts a fire on purpose).
"""

from __future__ import annotations

import numpy as np

from roguelike import tiles
from roguelike.autoplay.policy import BIG_HP
from roguelike.engine import Action, Move, Use
from roguelike.engine.balance import FIRE_DAMAGE, INCINERATION_SELF, THROW_RANGE
from roguelike.engine.creatures import Monster
from roguelike.engine.fire import FUEL
from roguelike.engine.gas import cloud
from roguelike.engine.grid import DIRS8, can_step, chebyshev
from roguelike.engine.items import flight, held_known
from roguelike.engine.state import GameState


def _aim(state: GameState, threats: list[Monster], *, fire: bool = True) -> tuple[int, int] | None:
    """Where to throw a bomb: the threat whose burst burns the most threats (two, or one big
    one; with ``fire``, also one the burst sets moss or marsh gas alight round: see
    :func:`_kindling`), never one that would burst next to the player itself; None: keep the
    bomb."""
    best: tuple[int, int, int, int] | None = None
    for m in threats:
        path = flight(state, m.x, m.y)
        if not path or chebyshev(path[-1], state.player) < 2:
            continue
        if chebyshev(m.pos, state.player) > THROW_RANGE:
            continue
        burnt = [t for t in threats if chebyshev(t.pos, path[-1]) <= 1]
        worth = len(burnt) >= 2 or any(t.hp >= BIG_HP for t in burnt)
        worth = worth or (fire and _kindling(state, path[-1]))
        if worth and (best is None or len(burnt) > best[0]):
            best = (len(burnt), m.id, m.x, m.y)
    return None if best is None else (best[2], best[3])


def _seen_fire(state: GameState) -> list[tuple[int, int]]:
    """The burning cells in view (a person sees no fire behind a wall)."""
    return [p for p in state.fire if state.visible[p[1], p[0]]]


def _in_danger(state: GameState, pos: tuple[int, int], fire: list[tuple[int, int]]) -> bool:
    """Whether ``pos`` burns now or may at the end of the turn: it is burning, it is moss next
    to a fire in view, or marsh gas next to it lies within two steps of a fire in view."""
    if pos in state.fire:
        return True
    near = [f for f in fire if chebyshev(f, pos) <= 3]
    if not near:
        return False
    if int(state.tiles[pos[1], pos[0]]) in FUEL and any(chebyshev(f, pos) <= 1 for f in near):
        return True
    gas = [g for g in state.gas if chebyshev(g, pos) <= 1]
    return any(chebyshev(g, f) <= 2 for g in gas for f in near)


def _fire_escape(state: GameState) -> Action | None:
    """A step out of danger from fire (:func:`_in_danger`) when the player stands in it: to a
    safe free neighbour, the farthest from the fire, else to any that is not burning."""
    fire = _seen_fire(state)
    if not fire or not _in_danger(state, state.player, fire):
        return None
    px, py = state.player
    best: tuple[int, int, int, int] | None = None
    for dx, dy in DIRS8:
        x, y = px + dx, py + dy
        if not can_step(state, px, py, dx, dy) or state.occupied(x, y) or (x, y) in state.fire:
            continue
        safe = 0 if _in_danger(state, (x, y), fire) else 1
        far = min(chebyshev((x, y), f) for f in fire)
        if best is None or (safe, far) > (best[0], best[1]):
            best = (safe, far, dx, dy)
    return None if best is None else Move(best[2], best[3])


def _kindling(state: GameState, at: tuple[int, int]) -> bool:
    """Whether a burst on ``at`` starts a fire worth a bomb on a single threat: marsh gas round
    it (none of that cloud within three steps of the player), or at least three cells of moss
    round it with the player on no moss within four steps of it."""
    x0, y0 = at
    cells = [(x0 + dx, y0 + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    touching = [c for c in cells if c in state.gas]
    if touching:  # the whole cloud goes up: the player well clear of every cell of it
        blast = {g for c in touching for g in cloud(state.gas, c)}
        return all(chebyshev(g, state.player) > 3 for g in blast)
    inside = [(x, y) for x, y in cells if 0 <= x < state.width and 0 <= y < state.height]
    moss = sum(1 for x, y in inside if int(state.tiles[y, x]) in FUEL)
    px, py = state.player
    exposed = int(state.tiles[py, px]) in FUEL and chebyshev(state.player, at) <= 4
    return moss >= 3 and not exposed


#: How near (Chebyshev) a fire-starter comes before the autoplayer steps off the moss.
MOSS_WARY = 4


def _fire_starter(m: Monster) -> bool:
    """Whether ``m`` sets moss alight by fighting: it breathes fire, or smoulders when dead."""
    return bool(m.info.breath or m.info.embers)


def hot_cells(state: GameState) -> np.ndarray | None:
    """The cells a walk keeps out of while fire is in view: those that burn now or may at the
    end of the turn (:func:`_in_danger`); None: no fire in view."""
    fire = _seen_fire(state)
    if not fire:
        return None
    out = np.zeros(state.tiles.shape, dtype=bool)
    ys, xs = np.nonzero(tiles.WALKABLE[state.tiles] & state.explored)
    for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
        if min(chebyshev((x, y), f) for f in fire) <= 3 and _in_danger(state, (x, y), fire):
            out[y, x] = True
    return out


def _off_moss(
    state: GameState, threats: list[Monster], avoid: np.ndarray | None = None
) -> Action | None:
    """A step off the moss before a fire-starter comes to blows (:func:`_fire_starter`: a
    dead ant's embers, a breath, set the moss under a fight alight): when one is among the
    ``threats`` within ``MOSS_WARY`` steps and none is next to the player, a step to a free
    cell beside it that feeds no fire (and is not in ``avoid``), no farther from the threats
    and not next to one, the nearest to them; None: no need, or no such cell."""
    px, py = state.player
    near_starters = [
        m for m in threats if _fire_starter(m) and chebyshev(m.pos, state.player) <= MOSS_WARY
    ]
    if int(state.tiles[py, px]) not in FUEL or not near_starters:
        return None
    here = min(chebyshev(m.pos, state.player) for m in threats)
    if any(chebyshev(m.pos, state.player) <= 1 for m in state.visible_monsters()):
        return None
    best: tuple[int, int, int] | None = None
    for dx, dy in DIRS8:
        x, y = px + dx, py + dy
        if not can_step(state, px, py, dx, dy) or state.occupied(x, y) or (x, y) in state.fire:
            continue
        if int(state.tiles[y, x]) in FUEL or (avoid is not None and bool(avoid[y, x])):
            continue
        near = min(chebyshev((x, y), m.pos) for m in threats)
        if near <= 1 or near > here:
            continue  # not into a blow's reach (the first blow is ours), nor back
        if best is None or near < best[0]:
            best = (near, dx, dy)
    return None if best is None else Move(best[1], best[2])


def _incinerate(state: GameState, adjacent: list[Monster]) -> Action | None:
    """A known incineration potion opened among its foes: when two or more stand next to the
    player, or a big one, and it has the HP to take its own share of the flames (it steps out
    of them on the next turn: :func:`_fire_escape`); None: keep it."""
    potion = held_known(state, "incinerate")
    if potion is None or not adjacent:
        return None
    worth = len(adjacent) >= 2 or any(m.hp >= BIG_HP for m in adjacent)
    if not worth or state.hp <= 2 * INCINERATION_SELF[1] + FIRE_DAMAGE[1]:
        return None
    return Use(potion)
