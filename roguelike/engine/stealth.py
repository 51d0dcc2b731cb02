"""Stealth: noise that wakes sleepers, sleepers that notice the player by chance, and the
sneak attack on a monster that has not noticed you.

A monster is in one of three states of mind (:func:`awareness`): **asleep** (``awake`` False:
it drifts back to its post and notices nothing but noise and the player); **unaware** (awake,
with the ``unaware`` counter in its ``extra``: woken by a noise it goes to look where it came
from, the cell in ``heard_x``/``heard_y`` (round walls, as the sound went), and back to its
post, where it falls asleep again after :data:`~roguelike.engine.balance.HUNT_MEMORY` of its
turns); or **hunting** (awake and after the player, the monsters' AI in
:mod:`roguelike.engine.monsters`).

**Noise** (:func:`make_noise`) has a loudness, in steps: every sleeping or unaware monster
whose way to the noise (Chebyshev steps along every cell that is not wall or void: doors,
water and chasms carry it, walls stop it, so sound goes round a wall, never through it) is at
most that long hears it. A sleeper wakes unaware and goes to look; an unaware one turns
towards the newer noise; a hunting one is not moved. Blows make noise, each side's
(``NOISE_BLOW``, at the striker's cell), as do some items (their ``noise``: a bomb at its
burst, a scroll where it is read) and the alarm trap (``ALARM_RADIUS``).

**Noticing** (:func:`notice`): each turn the player is within ``SENSE_RANGE`` of a sleeping
or unaware monster and in its line of sight (the view is symmetric: the player sees its
cell), it notices the player with a chance in percent of its kind's ``perception`` less
``STEALTH_STEP`` for each point of the player's ``stealth``, times ``NEAR_FACTOR`` next to
the player and ``UNAWARE_FACTOR`` when awake already (at most 100). Walking and resting make
no noise: only how near the player comes counts. The roll is the play stream's.

**A sneak attack** (:func:`sneaky`): the player's blow at a sleeping or unaware monster always
lands and deals ``SNEAK_MULTIPLIER`` times its damage; it wakes the monster, so it happens
once.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from roguelike import tiles
from roguelike.engine.balance import (
    HEARD_WALK,
    HUNT_MEMORY,
    NEAR_FACTOR,
    SENSE_RANGE,
    STEALTH_STEP,
    UNAWARE_FACTOR,
)
from roguelike.engine.creatures import Monster, shown_name
from roguelike.engine.events import Event, Message
from roguelike.engine.grid import DIRS8, can_step, chebyshev
from roguelike.engine.pathing import FAR, distance_map
from roguelike.engine.state import GameState
from roguelike.engine.words import counted

__all__ = [
    "HEARD_X",
    "HEARD_Y",
    "UNAWARE",
    "alert",
    "awareness",
    "investigate",
    "make_noise",
    "notice",
    "notice_chance",
    "sneaky",
    "sound_distances",
]

#: The ``extra`` counter of an awake monster that has not noticed the player (its turns so).
UNAWARE = "unaware"
#: Where an unaware monster heard its last noise (``extra`` entries).
HEARD_X = "heard_x"
HEARD_Y = "heard_y"


def awareness(m: Monster) -> str:
    """``"asleep"``, ``"unaware"`` or ``"hunting"``."""
    if not m.awake:
        return "asleep"
    return "unaware" if UNAWARE in m.extra else "hunting"


def sneaky(m: Monster) -> bool:
    """A blow at ``m`` now is a sneak attack: it is asleep or has not noticed the player."""
    return not m.awake or UNAWARE in m.extra


def alert(m: Monster) -> None:
    """``m`` is awake and after the player (a blow, a shriek, a noticing)."""
    m.awake = True
    m.unseen = 0
    for key in (UNAWARE, HEARD_X, HEARD_Y):
        m.extra.pop(key, None)


def _doze(m: Monster) -> None:
    """``m`` falls asleep again (an unaware monster back at its post)."""
    m.awake = False
    for key in (UNAWARE, HEARD_X, HEARD_Y):
        m.extra.pop(key, None)


def sound_distances(state: GameState, x: int, y: int, loudness: int) -> np.ndarray:
    """Steps sound takes from (x, y) to every cell, up to ``loudness`` (FAR beyond): along
    every cell that is not wall or void, so it goes round walls, never through them."""
    carries = (state.tiles != tiles.WALL) & (state.tiles != tiles.VOID)
    return distance_map(carries, [(x, y)], loudness)


def make_noise(state: GameState, x: int, y: int, loudness: int) -> list[Event]:
    """A noise of ``loudness`` steps at (x, y): each sleeping or unaware monster within
    earshot (:func:`sound_distances`) wakes, unaware, and goes to look at (x, y). What the
    player hears: the sleepers in view that wake are named, others stir unseen."""
    # nobody to hear it (every monster hunting already): no sound map to build
    if loudness <= 0 or all(m.awake and UNAWARE not in m.extra for m in state.monsters):
        return []
    dist = sound_distances(state, x, y, loudness)
    woke: list[Monster] = []
    for m in state.monsters:
        if m.awake and UNAWARE not in m.extra:
            continue
        if dist[m.y, m.x] >= FAR or dist[m.y, m.x] > loudness:
            continue
        if not m.awake:
            woke.append(m)
            m.awake = True
            m.unseen = 0
            m.extra[UNAWARE] = 0
        m.extra[HEARD_X], m.extra[HEARD_Y] = x, y
    if not woke:
        return []
    seen = [m for m in woke if state.visible[m.y, m.x]]
    if seen:
        woken = counted([shown_name(state, m) for m in seen], definite=True)
        return [Message(f"The noise wakes {woken}.")]
    return [Message("Something stirs nearby.")]


def notice_chance(state: GameState, m: Monster) -> int:
    """The chance in percent that the sleeping or unaware ``m`` notices the player this turn
    (0 out of range or sight); see the module."""
    gap = chebyshev(m.pos, state.player)
    if gap > SENSE_RANGE or not state.visible[m.y, m.x]:
        return 0
    chance = max(0, m.info.perception - STEALTH_STEP * state.stealth)
    if gap <= 1:
        chance *= NEAR_FACTOR
    if m.awake:
        chance *= UNAWARE_FACTOR
    return min(100, chance)


def notice(state: GameState, m: Monster) -> list[Event]:
    """The turn's roll of the sleeping or unaware ``m`` to notice the player (drawn from the
    play stream only when the chance is neither 0 nor 100): noticed, it hunts."""
    chance = notice_chance(state, m)
    if chance <= 0:
        return []
    if chance < 100 and state.rng.integers(100) >= chance:
        return []
    alert(m)
    if not state.shows(m):  # a lurker notices you unseen
        return []
    return [Message(f"The {shown_name(state, m)} notices you!")]


def _step(state: GameState, m: Monster, nearer: Callable[[int, int], bool]) -> bool:
    """One step of ``m`` to a free cell that ``nearer`` says is nearer its goal, the first in
    the order of the directions (a closed door on the way is opened); False when none is."""
    for dx, dy in DIRS8:
        nx, ny = m.x + dx, m.y + dy
        if not can_step(state, m.x, m.y, dx, dy) or not nearer(nx, ny):
            continue
        if (nx, ny) == state.player or state.occupied(nx, ny):
            continue
        m.x, m.y = nx, ny
        if state.tiles[ny, nx] == tiles.DOOR:
            state.tiles[ny, nx] = tiles.DOOR_OPEN
        return True
    return False


def _step_towards(state: GameState, m: Monster, goal: tuple[int, int]) -> bool:
    """One step of ``m`` nearer ``goal`` as the crow flies (Chebyshev)."""
    here = chebyshev(m.pos, goal)
    return _step(state, m, lambda x, y: chebyshev((x, y), goal) < here)


def _step_round(state: GameState, m: Monster, goal: tuple[int, int]) -> bool:
    """One step of ``m`` down the walking distances to ``goal``: round the walls the sound
    went round."""
    dist = distance_map(tiles.WALKABLE[state.tiles], [goal], HEARD_WALK)
    here = int(dist[m.y, m.x])
    if here >= FAR:
        return False
    return _step(state, m, lambda x, y: int(dist[y, x]) < here)


def investigate(state: GameState, m: Monster) -> None:
    """A turn of the unaware ``m``: towards the noise it heard (straight, else round the
    walls, :func:`_step_round`; with no step free it stands and listens), then back to its
    post, where (or after ``HUNT_MEMORY`` turns unaware) it falls asleep again."""
    m.extra[UNAWARE] = m.extra.get(UNAWARE, 0) + 1
    if m.info.still:  # it cannot go and look: it listens, then dozes off
        if m.extra[UNAWARE] > HUNT_MEMORY:
            _doze(m)
        return
    heard = (m.extra.get(HEARD_X, m.home[0]), m.extra.get(HEARD_Y, m.home[1]))
    if m.pos != heard and HEARD_X in m.extra:
        if _step_towards(state, m, heard) or _step_round(state, m, heard):
            return
        if m.extra[UNAWARE] <= HUNT_MEMORY:
            return  # no way free this turn (a wall, another monster): it listens
    m.extra.pop(HEARD_X, None)
    m.extra.pop(HEARD_Y, None)
    if m.pos == m.home or m.extra[UNAWARE] > HUNT_MEMORY:
        _doze(m)
        return
    if not _step_towards(state, m, m.home):
        _doze(m)
