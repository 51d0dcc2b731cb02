"""The player's side: captives to free and the allies they become.

A captive room (roguelike/gen/roles.py) seats a shackled captive among sleeping guards. The
captive stands in ``state.allies``, never in ``state.monsters``, so nothing that looks for
danger (a rest, an explore, the autoplayer's eyes, the hall's kills) ever counts it. Bumping it
spends a turn working its shackles; after :data:`~roguelike.engine.balance.FREE_TURNS` bumps it
is free and follows the player as an ally.

An ally's turn is a scored choice like a monster's, ties broken by the gameplay stream so a
replay plays it again exactly: strike a hostile next to it, go after an awake hostile that
comes near the player, else keep within :data:`~roguelike.engine.balance.ALLY_FOLLOW` of the
player (beside them on the stairs). Hostiles strike back at an ally next to them when the
player is out of reach (:func:`hits_ally`, one of their options). Walking into an ally swaps
places with it, so it never blocks a corridor; one next to the player on the stairs comes
down with them.
"""

from __future__ import annotations

import numpy as np

from roguelike import tiles
from roguelike.engine.balance import (
    ALLY_FOLLOW,
    ALLY_REACH,
    DEFENCE_DODGE,
    FIRE_AVOID,
    FREE_TURNS,
    PLAYER_SPEED,
)
from roguelike.engine.combat import remains
from roguelike.engine.creatures import SHACKLED, Monster, monster_attack, shown_name
from roguelike.engine.events import Event, Message
from roguelike.engine.grid import DIRS8, can_step, chebyshev
from roguelike.engine.pathing import FAR, distance_map
from roguelike.engine.state import GameState
from roguelike.engine.stealth import alert

__all__ = [
    "allies_act",
    "bump_ally",
    "followers",
    "freed",
    "hits_ally",
    "seat_followers",
]

#: How far an ally's distance map to the player reaches (steps); beyond it, it walks by sight.
FOLLOW_RANGE = 40


def freed(m: Monster) -> bool:
    """``m`` (of ``state.allies``) is a free ally, not a captive still in shackles."""
    return SHACKLED not in m.extra


def bump_ally(state: GameState, m: Monster) -> list[Event]:
    """The player bumps the captive ``m``: a turn spent on its shackles, which fall at
    :data:`FREE_TURNS` bumps. (Bumping a free ally swaps places: that is the player's move.)"""
    state.turn += 1
    m.extra[SHACKLED] += 1
    if m.extra[SHACKLED] < FREE_TURNS:
        return [
            Message(f"You work at the {m.kind}'s shackles ({m.extra[SHACKLED]} of {FREE_TURNS}).")
        ]
    del m.extra[SHACKLED]
    m.awake = True
    m.energy = 0
    return [Message(f"You free the captive {m.kind}! It is your ally now, and follows you.")]


def followers(state: GameState) -> list[Monster]:
    """The free allies next to the player: they come along down the stairs."""
    return [m for m in state.allies if freed(m) and chebyshev(m.pos, state.player) == 1]


def seat_followers(state: GameState, allies: list[Monster]) -> list[Event]:
    """Put ``allies`` (who came down the stairs) on the free cells nearest the player, ring by
    ring in the order of the directions; one with no room within a few rings is lost."""
    walk = tiles.WALKABLE[state.tiles]
    px, py = state.player
    free = [
        (px + dx * r, py + dy * r)
        for r in (1, 2, 3)
        for dx, dy in DIRS8
        if 0 <= px + dx * r < state.width and 0 <= py + dy * r < state.height
    ]
    events: list[Event] = []
    for m in allies:
        cell = next(
            (c for c in free if walk[c[1], c[0]] and not state.occupied(*c)),
            None,
        )
        if cell is None:
            events.append(Message(f"Your {m.kind} is lost on the stairs."))
            continue
        m.x, m.y = cell
        m.home = cell
        m.energy = 0
        # ids are per floor: a newcomer takes one no ally of this floor holds (a save refuses
        # two allies of one id)
        m.id = max((o.id for o in state.allies), default=-1) + 1
        state.allies.append(m)
        events.append(Message(f"Your {m.kind} comes down with you."))
    return events


def hits_ally(state: GameState, m: Monster, ally: Monster) -> list[Event]:
    """The hostile ``m`` strikes the ally ``ally`` (its blow as against the player, less the
    ally's defence); an ally that dies is gone, and the log says so."""
    info = m.info
    if state.rng.integers(100) >= info.accuracy - DEFENCE_DODGE * ally.info.defence:
        return [Message(f"The {shown_name(state, m)} attacks your {ally.kind} and misses.")]
    lo, hi = monster_attack(info, state.difficulty)
    damage = max(1, int(state.rng.integers(lo, hi + 1)) - ally.info.defence)
    ally.hp -= damage
    if ally.hp > 0:
        return [Message(f"The {shown_name(state, m)} hits your {ally.kind} for {damage}.")]
    state.allies.remove(ally)
    return [Message(f"The {shown_name(state, m)} kills your {ally.kind}! Your ally is dead.")]


def _ally_strikes(state: GameState, ally: Monster, m: Monster) -> list[Event]:
    """The ally's blow at the hostile ``m``: its kind's own roll (a freed captive is no
    stronger for the world's difficulty), less the target's defence. A kill it makes is not
    the player's: no experience, not counted among the run's kills."""
    alert(m)
    info = ally.info
    if state.rng.integers(100) >= info.accuracy:
        return [Message(f"Your {ally.kind} misses the {shown_name(state, m)}.")]
    if m.info.ethereal:
        return [Message(f"Your {ally.kind}'s blow passes through the {shown_name(state, m)}.")]
    lo, hi = info.attack
    damage = max(1, int(state.rng.integers(lo, hi + 1)) - m.info.defence)
    m.hp -= damage
    if m.hp > 0:
        return [Message(f"Your {ally.kind} hits the {shown_name(state, m)} for {damage}.")]
    state.monsters.remove(m)
    events: list[Event] = [Message(f"Your {ally.kind} kills the {shown_name(state, m)}.")]
    # a thief's loot falls where it dies, and a fire ant smoulders, as for the player's kills
    return events + remains(state, m)


def _can_step(state: GameState, m: Monster, dx: int, dy: int) -> bool:
    nx, ny = m.x + dx, m.y + dy
    if not can_step(state, m.x, m.y, dx, dy) or (nx, ny) == state.player:
        return False
    return not state.occupied(nx, ny)


def ally_options(
    state: GameState, ally: Monster, dist: np.ndarray
) -> list[tuple[float, str, tuple[int, int]]]:
    """Every legal action of the free ally with its score: ``(score, what, (dx, dy))``, where
    ``what`` is ``"wait"``, ``"move"`` or ``"attack"``. It strikes an awake hostile next to it
    (the weakest first), else goes after the nearest awake hostile in the player's view within
    :data:`ALLY_REACH` of the player, else keeps within :data:`ALLY_FOLLOW` of the player (right
    beside them while they stand on the stairs)."""

    def steps(x: int, y: int) -> int:
        v = int(dist[y, x])
        return v if v < FAR else FOLLOW_RANGE + chebyshev((x, y), state.player)

    prey = [
        o
        for o in state.monsters
        if o.awake
        and state.visible[o.y, o.x]
        and chebyshev(o.pos, state.player) <= ALLY_REACH
        and not o.info.still
    ]

    # on the stairs the player may be about to go down: it comes right beside them
    follow = 1 if state.on_stairs() else ALLY_FOLLOW

    def place(x: int, y: int) -> float:
        moved = 1.0 if (x, y) != ally.pos else 0.0
        away = max(steps(x, y) - follow, 0)
        burning = FIRE_AVOID if (x, y) in state.fire else 0.0  # it keeps out of the flames
        if prey:
            near = min(chebyshev((x, y), o.pos) for o in prey)
            return -10.0 * near - 20.0 * max(steps(x, y) - ALLY_REACH, 0) - moved - burning
        return -10.0 * away - moved - burning

    options: list[tuple[float, str, tuple[int, int]]] = [(place(*ally.pos), "wait", (0, 0))]
    for dx, dy in DIRS8:
        if _can_step(state, ally, dx, dy):
            options.append((place(ally.x + dx, ally.y + dy), "move", (dx, dy)))
        target = state.monster_at(ally.x + dx, ally.y + dy)
        # a sleeper is left to sleep: an ally never wakes what the player is creeping past
        if target is not None and target.awake and can_step(state, ally.x, ally.y, dx, dy):
            options.append((100.0 - target.hp / max(target.max_hp, 1), "attack", (dx, dy)))
    return options


def ally_turn(state: GameState, ally: Monster, dist: np.ndarray) -> list[Event]:
    """One action of the free ally: its best option, ties broken by the gameplay stream."""
    options = ally_options(state, ally, dist)
    top = max(o[0] for o in options)
    best = [o for o in options if o[0] == top]
    _, what, (dx, dy) = best[int(state.rng.integers(len(best)))] if len(best) > 1 else best[0]
    if what == "attack":
        target = state.monster_at(ally.x + dx, ally.y + dy)
        assert target is not None
        return _ally_strikes(state, ally, target)
    if what == "move":
        ally.x += dx
        ally.y += dy
        if state.tiles[ally.y, ally.x] == tiles.DOOR:
            state.tiles[ally.y, ally.x] = tiles.DOOR_OPEN
    return []


def allies_act(state: GameState) -> list[Event]:
    """Every free ally's share of the turn the player just spent, in the order of the list:
    energy as a monster's (its kind's speed), one action per 100."""
    events: list[Event] = []
    dist: np.ndarray | None = None
    for ally in list(state.allies):
        if state.dead or ally not in state.allies or not freed(ally):
            continue
        ally.energy += ally.info.speed * PLAYER_SPEED // state.pace
        while ally.energy >= 100 and ally in state.allies:
            ally.energy -= 100
            if dist is None:
                walk = tiles.WALKABLE[state.tiles]
                dist = distance_map(walk, [state.player], FOLLOW_RANGE)
            events += ally_turn(state, ally, dist)
    return events
