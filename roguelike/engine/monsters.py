"""Monsters' turns: waking, energy, and the choice of what to do.

Every spent player turn, each monster gains energy equal to its speed and acts once for each
100 it holds, so a bat (150) acts three times in two turns and an ogre (80) four times in five.
A sleeping monster in view wakes at once when within two steps, else with an even chance each
turn; asleep, it drifts back to its post. An awake monster scores every legal action and takes
the best, ties broken by the gameplay stream (:func:`monster_options`): approach along a
distance map, attack when adjacent, flee when hurt, close to shooting range and shoot (every
other turn) if ranged, stay near their post if they guard a key room, and stay next to their
own kind if they hunt in packs. One that has not seen the player for :data:`HUNT_MEMORY` of
its turns falls asleep again. Monsters open plain doors, never locked ones.
"""

from __future__ import annotations

import numpy as np

from roguelike import tiles
from roguelike.engine.balance import GUARD_RADIUS, HUNT_MEMORY, RELOAD_TURNS, SHOOTING_RANGE
from roguelike.engine.combat import monster_hits
from roguelike.engine.creatures import Monster
from roguelike.engine.events import Event, Message
from roguelike.engine.grid import DIRS8, can_step, chebyshev
from roguelike.engine.pathing import FAR, distance_map
from roguelike.engine.state import GameState

__all__ = [
    "HUNT_MEMORY",
    "RELOAD_TURNS",
    "SCENT_RANGE",
    "SHOOTING_RANGE",
    "monster_options",
    "monster_turn",
    "monsters_act",
    "player_distances",
    "wander_home",
]

#: How far monsters' distance maps reach (steps).
SCENT_RANGE = 40


def monsters_act(state: GameState) -> list[Event]:
    """Every monster's share of the turn the player just spent, in the order of the list."""
    events: list[Event] = []
    dist: np.ndarray | None = None
    for m in list(state.monsters):
        if state.dead:
            break
        if m not in state.monsters:  # killed during this round
            continue
        if not m.awake and state.visible[m.y, m.x]:
            near = chebyshev(m.pos, state.player) <= 2
            if near or state.rng.integers(100) < 50:
                m.awake = True
                m.unseen = 0
                events.append(Message(f"The {m.kind} notices you!"))
        m.energy += m.info.speed
        while m.energy >= 100 and not state.dead:
            m.energy -= 100
            if m.info.regen and m.hp < m.max_hp:
                m.hp = min(m.max_hp, m.hp + m.info.regen)
            if m.awake:
                if dist is None:
                    dist = player_distances(state)
                events += monster_turn(state, m, dist)
            else:
                wander_home(state, m)
    return events


def player_distances(state: GameState) -> np.ndarray:
    """Steps from the player for monsters: through plain doors, never through locked ones."""
    return distance_map(tiles.WALKABLE[state.tiles], [state.player], SCENT_RANGE)


def _can_step(state: GameState, m: Monster, dx: int, dy: int) -> bool:
    nx, ny = m.x + dx, m.y + dy
    if not can_step(state, m.x, m.y, dx, dy) or (nx, ny) == state.player:
        return False
    return state.monster_at(nx, ny) is None


def wander_home(state: GameState, m: Monster) -> None:
    """An idle monster drifts back to its post, one step nearer when it can."""
    if m.pos == m.home:
        return
    here = chebyshev(m.pos, m.home)
    for dx, dy in DIRS8:
        if chebyshev((m.x + dx, m.y + dy), m.home) < here and _can_step(state, m, dx, dy):
            _moves(state, m, dx, dy)
            return


def _moves(state: GameState, m: Monster, dx: int, dy: int) -> None:
    """``m`` steps by (dx, dy), opening a plain door it walks into."""
    m.x += dx
    m.y += dy
    if state.tiles[m.y, m.x] == tiles.DOOR:
        state.tiles[m.y, m.x] = tiles.DOOR_OPEN


def monster_options(
    state: GameState, m: Monster, dist: np.ndarray
) -> list[tuple[float, str, tuple[int, int]]]:
    """Every legal action of an awake monster with its score: ``(score, what, (dx, dy))``
    where ``what`` is ``"wait"``, ``"move"``, ``"attack"`` or ``"shoot"``. The monster plays
    the best; :func:`monster_turn` breaks ties with the gameplay stream."""
    info = m.info
    sees = bool(state.visible[m.y, m.x])
    gap = chebyshev(m.pos, state.player)

    def d(x: int, y: int) -> int:
        v = int(dist[y, x])
        return v if v < FAR else SCENT_RANGE + chebyshev((x, y), state.player)

    hurt = m.fleeing
    here = d(m.x, m.y)

    def place_score(x: int, y: int) -> float:
        dn = d(x, y)
        if hurt:
            s = 10.0 * dn
        elif info.ranged and sees:  # closes to shooting range, then stands its ground
            s = -10.0 * max(dn - SHOOTING_RANGE, 0) - (1.0 if (x, y) != m.pos else 0.0)
        else:
            s = -10.0 * dn
        if info.pack:
            allies = sum(
                1
                for o in state.monsters
                if o is not m and o.kind == m.kind and chebyshev(o.pos, (x, y)) == 1
            )
            s += 2.0 * min(allies, 2)
        if m.guard and chebyshev((x, y), m.home) > GUARD_RADIUS:
            s -= 1000.0
        return s

    options: list[tuple[float, str, tuple[int, int]]] = [(place_score(m.x, m.y), "wait", (0, 0))]
    for dx, dy in DIRS8:
        if _can_step(state, m, dx, dy):
            options.append((place_score(m.x + dx, m.y + dy), "move", (dx, dy)))
    px, py = state.player
    if gap == 1 and can_step(state, m.x, m.y, px - m.x, py - m.y):
        score = 10.0 * here + 5 if hurt else 100.0
        options.append((score, "attack", (px - m.x, py - m.y)))
    if info.ranged and sees and 2 <= gap <= info.ranged and not m.extra.get("reload"):
        options.append((10.0 * here + 8 if hurt else 100.0, "shoot", (0, 0)))
    return options


def monster_turn(state: GameState, m: Monster, dist: np.ndarray) -> list[Event]:
    """One action of the awake monster ``m``: an erratic flutter by chance, else its best
    option (:func:`monster_options`)."""
    info = m.info
    if state.visible[m.y, m.x]:
        m.unseen = 0
    else:
        m.unseen += 1
        if m.unseen > HUNT_MEMORY:
            m.awake = False
            return []
    if m.extra.get("reload"):
        m.extra["reload"] -= 1
    options = monster_options(state, m, dist)
    if info.erratic and state.rng.random() < info.erratic:
        moves = [o for o in options if o[1] == "move"]
        if moves:
            _, _, (dx, dy) = moves[int(state.rng.integers(len(moves)))]
            _moves(state, m, dx, dy)
            return []
    top = max(o[0] for o in options)
    best = [o for o in options if o[0] == top]
    _, what, (dx, dy) = best[int(state.rng.integers(len(best)))] if len(best) > 1 else best[0]
    if what == "move":
        _moves(state, m, dx, dy)
        return []
    if what == "attack":
        return monster_hits(state, m, ranged=False)
    if what == "shoot":
        m.extra["reload"] = RELOAD_TURNS
        return monster_hits(state, m, ranged=True)
    return []
