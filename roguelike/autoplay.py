"""A simple autoplayer: it plays through the same actions as a person and sees only what a
person sees (the field of view, the explored map, the messages).

Its policy, turn by turn: drink a potion when low and threatened; attack an adjacent
monster (the weakest first); wait for a melee monster two steps away, but go for one that
shoots or stays further; rest when hurt and alone; solve a puzzle it stands on with the
puzzle's own solver; explore; once nothing is left to explore,
travel to the stairs (or the exit) and take them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from roguelike.engine import (
    Action,
    Descend,
    Explore,
    Move,
    Rest,
    SolvePuzzle,
    Travel,
    Use,
    Wait,
    new_game,
    step,
)
from roguelike.engine.engine import (
    _orthogonals_walkable,
    _threats,
    chebyshev,
    explore_distances,
    travel_distances,
)
from roguelike.engine.pathing import FAR, downhill
from roguelike.engine.state import GameState

#: Share of HP below which the player rests, and below which it drinks in a fight.
REST_BELOW = 0.7
DRINK_BELOW = 0.35
#: Most actions in a run.
TURN_LIMIT = 20_000
#: Actions in a row without progress after which a run is abandoned as stuck.
STUCK_AFTER = 50
#: Turns in which nothing changes (floor, map seen, HP, kills, keys, puzzles, pack) after
#: which a run is abandoned as stuck.
STALL_TURNS = 400


@dataclass
class Result:
    won: bool
    floors: int
    turns: int
    cause: str
    seconds: float


def choose(state: GameState) -> Action:
    """The next action for ``state``."""
    px, py = state.player
    threats = _threats(state)
    hurt = state.hp < DRINK_BELOW * state.max_hp
    if threats and hurt and state.inventory.get("healing potion"):
        return Use("healing potion")
    adjacent = [
        m
        for m in state.visible_monsters()
        if chebyshev(m.pos, state.player) == 1 and can_step_to(state, m.x, m.y)
    ]
    if adjacent:
        m = min(adjacent, key=lambda m: (m.hp, m.id))
        return Move(m.x - px, m.y - py)
    if threats:
        if len(threats) >= 2 and state.inventory.get("fire bomb"):
            return Use("fire bomb")
        target = threats[0]
        if target.info.ranged or target.guard or chebyshev(target.pos, state.player) > 2:
            # no known way to it yet: look around (one step of exploring) and try again
            return _towards(state, target.x, target.y) or _explore_step(state) or Wait()
        return Wait()  # let it come: the first blow is ours
    if state.hp < REST_BELOW * state.max_hp:
        return Rest()
    room = state.puzzles.get(state.player)
    if room is not None and not room.solved:
        p = room.puzzle()
        plan = p.solve(p.initial()) or []
        return SolvePuzzle(tuple(p.move_to_json(m) for m in plan))
    left = [r for r in state.puzzles.values() if r.visited and not r.solved]
    if left:  # a pedestal it was pulled away from (by a fight): back to it
        return Travel(left[0].x, left[0].y)
    return Explore()


def can_step_to(state: GameState, x: int, y: int) -> bool:
    """Whether the player could attack (x, y) from where it stands (the corner rule)."""
    px, py = state.player
    dx, dy = x - px, y - py
    return not (dx and dy) or _orthogonals_walkable(state, px, py, dx, dy)


def _first_step(state: GameState, dist: np.ndarray) -> Action | None:
    """The first step of a shortest way down ``dist`` from the player, if there is one."""
    px, py = state.player
    if dist[py, px] >= FAR:
        return None
    steps = downhill(dist, dist < FAR, px, py)
    return Move(*steps[0]) if steps else None


def _towards(state: GameState, x: int, y: int) -> Action | None:
    return _first_step(state, travel_distances(state, x, y))


def _progress(state: GameState) -> tuple[int, ...]:
    stats = state.stats
    return (
        state.number,
        int(state.explored.sum()),
        state.hp,
        stats.kills,
        stats.keys,
        stats.puzzles_solved,
        sum(state.inventory.values()),
        len(state.monsters),
    )


def _explore_step(state: GameState) -> Action | None:
    """One step towards the nearest unexplored place, even with a monster in view."""
    return _first_step(state, explore_distances(state))


def play(state: GameState, *, limit: int = TURN_LIMIT) -> Result:
    """Play ``state`` to its end (or until ``limit`` actions)."""
    start = time.perf_counter()
    idle = 0
    last_progress, since = _progress(state), state.turn
    for _ in range(limit):
        if state.over:
            break
        now = _progress(state)
        if now != last_progress:
            last_progress, since = now, state.turn
        elif state.turn - since > STALL_TURNS:
            break  # turns pass but nothing changes: a stalemate
        turn, floor = state.turn, state.number
        action = choose(state)
        events = step(state, action)
        if isinstance(action, Explore) and state.turn == turn:
            if not _leave_floor(state):
                idle += 1
        elif state.turn == turn and state.number == floor:
            idle += 1
            if idle > 3:
                step(state, Wait())
        else:
            idle = 0
        if idle > STUCK_AFTER:
            break
        del events
    cause = state.stats.cause or "stuck"
    return Result(
        state.won, state.stats.floors_reached, state.turn, cause, time.perf_counter() - start
    )


def _leave_floor(state: GameState) -> bool:
    """Travel to the stairs (or exit) if known, and take them; whether anything happened."""
    fin = state.floor.finish
    if fin is None or not state.explored[fin[1], fin[0]]:
        return False
    turn = state.turn
    if state.player != fin:
        step(state, Travel(*fin))
    if state.player == fin:
        step(state, Descend())
    return state.turn != turn


def play_seed(seed: int, preset: str = "normal") -> Result:
    return play(new_game(seed, preset=preset))
