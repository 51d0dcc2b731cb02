"""The multi-turn actions: rest, travel and explore, turn after turn until done or interrupted,
and the maps they walk by (over the explored map only: the player plans with what they know).

A walk stops when a new monster comes into view, the player is attacked or loses health,
something is picked up or found, the way is blocked, or it runs out (:data:`TRAVEL_LIMIT`).
A travel (a walk to a place the player chose over ground they know) also stops when anything
new comes into view: an item, a key, a pedestal, a locked door, the stairs or the exit
(:func:`sightings`), since the player chose the place before they knew of it. Exploring walks to
the items, keys and pedestals it sees anyway, so it stops for none of those on the way; it
stops when it first sees the stairs or the exit, where the player may want to go down.
Resting is refused with a threat in view (:func:`threats`).

Exploring respects what the player knows (:func:`dangers`): it never walks into the reach of a
guard or sentinel it has seen (the cells it can strike from the ground round its post), nor
into the range of a shooter in view, and steps round known traps; it explores elsewhere first
and stops *before* a danger, saying which (``You stop: the gnoll sentinel guards the next
room.``). It is refused only while a monster in view presses the player (:func:`pressing`:
one that could walk up within :data:`~roguelike.engine.balance.EXPLORE_WARY` of its turns, or
a shooter with the player in range); a kiting shooter out of range, or one with no way to the
player but the long way round, lets it go on, and a walk stops when one comes that near.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from roguelike import tiles
from roguelike.engine.actions import Move, Travel, Wait
from roguelike.engine.allies import freed
from roguelike.engine.balance import EXPLORE_WARY, PLAYER_SPEED
from roguelike.engine.creatures import Monster, shown_name
from roguelike.engine.describe import item_name, key_name
from roguelike.engine.events import (
    Attacked,
    Bumped,
    Event,
    ItemTaken,
    KeyTaken,
    Message,
    PuzzleFound,
)
from roguelike.engine.grid import DIRS8, chebyshev
from roguelike.engine.monsters import (
    SCENT_RANGE,
    SPOTTED,
    held_back,
    keeps_post,
    player_distances,
    post_radius,
)
from roguelike.engine.pathing import FAR, distance_map, downhill, shifted
from roguelike.engine.state import GameState
from roguelike.engine.turn import one_turn
from roguelike.engine.words import a, and_list, counted, upper_first

__all__ = [
    "REST_LIMIT",
    "TRAVEL_LIMIT",
    "Danger",
    "come_into_view",
    "danger_mask",
    "dangers",
    "explore",
    "explore_distances",
    "explore_refusal",
    "explored_all",
    "guard_reach",
    "known_passable",
    "pressing",
    "rest",
    "sightings",
    "threats",
    "travel",
    "travel_distances",
    "walk",
]

#: Most turns one Rest or Travel lasts.
REST_LIMIT = 300
TRAVEL_LIMIT = 400


def threats(state: GameState) -> list[Monster]:
    """Monsters in view that are awake, not fleeing and able to reach the player: they forbid
    resting and exploring. A sleeping or fleeing one, one across a chasm, or a guard the
    player stands beyond the reach of (it keeps to its post) only stops a walk the first time
    it is seen."""
    awake = [
        m for m in state.visible_monsters() if m.awake and not m.fleeing and not held_back(state, m)
    ]
    if not awake:
        return []
    dist = player_distances(state)
    return [m for m in awake if dist[m.y, m.x] < FAR]


def _soon(state: GameState, m: Monster, steps: int) -> bool:
    """Whether ``m``, ``steps`` away by its own way, could stand next to the player within
    :data:`EXPLORE_WARY` of its turns (a fast one sooner, and sooner still against a slowed
    player: the rule of ``monsters_act``)."""
    return (steps - 1) * 100 * state.speed <= EXPLORE_WARY * m.info.speed * PLAYER_SPEED


def pressing(state: GameState) -> list[Monster]:
    """The monsters in view that forbid exploring (nearest first): awake, not fleeing, not
    held back at a post (:func:`~roguelike.engine.monsters.held_back`), and either a shooter
    with the player in its range, or one that could walk up to the player soon
    (:func:`_soon`, by a way over the known map or the unexplored) and is not a kiting shooter
    (one keeps its distance)."""
    candidates = [
        m for m in state.visible_monsters() if m.awake and not m.fleeing and not held_back(state, m)
    ]
    if not candidates:
        return []
    # over the map as the player knows it, taking every unexplored cell for open ground
    known = tiles.WALKABLE[state.tiles] | ~state.explored
    dist = distance_map(known, [state.player], SCENT_RANGE)
    out = []
    for m in candidates:
        ranged = m.info.ranged
        in_range = bool(ranged) and chebyshev(m.pos, state.player) <= ranged
        steps = int(dist[m.y, m.x])
        coming = not m.info.kite and steps < FAR and _soon(state, m, steps)
        if in_range or coming:
            out.append(m)
    return out


@dataclass(frozen=True)
class Danger:
    """Ground the player knows a blow can come from: the cells (``cells``, a mask) where
    ``monster`` can strike, and the few words that say so (``the gnoll sentinel guards the
    next room``)."""

    monster: Monster
    cells: np.ndarray
    why: str


def guard_reach(state: GameState, m: Monster) -> np.ndarray:
    """The cells a guard or sentinel ``m`` can strike while it keeps to its post: the ground it
    can walk to within its radius of the post, and every cell within a blow of that ground (a
    step for a melee kind, its shot's range over cells it sees through for a shooter)."""
    r = post_radius(m)
    hx, hy = m.home
    box = np.zeros(state.tiles.shape, dtype=bool)
    box[max(0, hy - r) : hy + r + 1, max(0, hx - r) : hx + r + 1] = True
    unknown = ~state.explored  # as far as the player can tell: the unexplored may be open
    walkable = tiles.WALKABLE[state.tiles] | unknown
    ground = distance_map(walkable & box, [m.home]) < FAR
    ys, xs = np.nonzero(ground)
    through = (tiles.TRANSPARENT[state.tiles] | unknown) if m.info.ranged else walkable
    strike = distance_map(
        through, list(zip(xs.tolist(), ys.tolist(), strict=True)), limit=max(1, m.info.ranged)
    )
    return strike < FAR


def _shot_reach(state: GameState, m: Monster) -> np.ndarray:
    """The cells within the range of the shooter ``m`` from where it stands, over cells it
    sees through."""
    seen_through = tiles.TRANSPARENT[state.tiles] | ~state.explored
    return distance_map(seen_through, [m.pos], limit=m.info.ranged) < FAR


def dangers(state: GameState) -> list[Danger]:
    """What the player knows can strike them, which explore keeps out of: every living guard or
    sentinel seen (in view now or before: it keeps to its post), and every awake shooter in
    view that does not press the player yet (:func:`pressing`: it is beyond range). It
    changes nothing (the turns mark the guards seen: ``spot_guards``), so asking is free."""
    room_map = state.floor.room_map
    px, py = state.player
    here = -1 if room_map is None else int(room_map[py, px])
    out = []
    for m in state.monsters:
        seen = bool(state.visible[m.y, m.x])
        if keeps_post(m) and (seen or SPOTTED in m.extra):
            hx, hy = m.home
            room = -1 if room_map is None else int(room_map[hy, hx])
            where = "this room" if room >= 0 and room == here else "the next room"
            name = shown_name(state, m)
            who = f"the {name}" if seen else f"the {name} you saw {bearing(px, py, hx, hy)}"
            words = f"{who} guards {where if room >= 0 else 'the way on'}"
            if m.info.still:  # it never leaves its cell: what keeps explore away is its ring
                words += " (it never moves: strike it to go on)"
            out.append(Danger(m, guard_reach(state, m), words))
        elif seen and m.awake and m.info.ranged and not m.fleeing:
            words = f"the {shown_name(state, m)} covers the way on"
            out.append(Danger(m, _shot_reach(state, m), words))
    return out


#: The eight compass words, clockwise from north (y grows southward on the map).
COMPASS = ("north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west")


def bearing(x: int, y: int, to_x: int, to_y: int) -> str:
    """Which way (``to_x``, ``to_y``) lies from (``x``, ``y``), in compass words ("to the
    north-east"), for a danger the player saw before and cannot see now."""
    if (to_x, to_y) == (x, y):
        return "here"
    angle = math.degrees(math.atan2(to_x - x, y - to_y)) % 360  # 0 north, 90 east
    return f"to the {COMPASS[int((angle + 22.5) // 45) % 8]}"


def danger_mask(found: list[Danger], shape: tuple[int, ...]) -> np.ndarray:
    """The cells of all of ``found``."""
    out = np.zeros(shape, dtype=bool)
    for d in found:
        out |= d.cells
    return out


def rest(state: GameState) -> list[Event]:
    """Wait until healed, a threat comes into view, the player is attacked, or
    :data:`REST_LIMIT` turns pass."""
    seen = threats(state)
    if seen:
        return [Message(f"You cannot rest with {a(shown_name(state, seen[0]))} in view.")]
    if state.hp >= state.max_hp:
        return [Message("You are not hurt.")]
    events: list[Event] = []
    for _ in range(REST_LIMIT):
        got = one_turn(state, Wait())
        events += got
        if state.dead or any(isinstance(e, Attacked) and e.target == "you" for e in got):
            return events
        came = threats(state)
        if came:  # named as explore's stop names them: "a goblin comes into view"
            kinds = [shown_name(state, m) for m in came]
            return events + [Message(f"You stop resting: {come_into_view(kinds)}.")]
        if state.hp >= state.max_hp:
            return events + [Message("You rest until healed.")]
    return events + [Message("You rest for a long while.")]


def known_passable(state: GameState) -> np.ndarray:
    """Where the player may plan a walk: explored walkable cells and the explored locked doors
    whose key is held (walking into one unlocks it)."""
    ok = tiles.WALKABLE[state.tiles].copy()
    for k in state.keys_held:
        ok |= state.tiles == tiles.locked_door(k)
    return ok & state.explored


def known_traps(state: GameState, *, heed_fire: bool = True) -> np.ndarray:
    """The cells of the traps the player knows of, and the burning cells and the monsters that
    never move (a shrieker) in view, which every walk steps around (``heed_fire`` False: not
    the burning cells, for a player who pays fire no mind: the autoplayer's ``ignore_fire``)."""
    out = np.zeros(state.tiles.shape, dtype=bool)
    for x, y in state.traps_known:
        out[y, x] = True
    for x, y in state.fire if heed_fire else ():
        out[y, x] |= bool(state.visible[y, x])
    for m in _still_in_view(state):
        out[m.y, m.x] = True
    return out


def _still_in_view(state: GameState) -> list[Monster]:
    """The creatures in view that never move: a monster that stays put (a shrieker) and a
    captive in its shackles. A walk planned through one would bump it for ever ("Something is
    in the way"; an explore stopped at a shackled goblin fourteen times in a row while the
    room went on round it)."""
    still = [m for m in state.monsters if m.info.still]
    still += [c for c in state.allies if not freed(c)]
    return [m for m in still if state.visible[m.y, m.x]]


def _around_traps(
    state: GameState, ok: np.ndarray, sources: list[tuple[int, int]], *, heed_fire: bool = True
) -> np.ndarray:
    """Distances to ``sources`` stepping around the known traps (and the fire in view, with
    ``heed_fire``); where that leaves the player no way at all, the distances straight over
    them (a known trap never walls a player in)."""
    fire = heed_fire and bool(state.fire)
    if not state.traps_known and not fire and not _still_in_view(state):
        return distance_map(ok, sources)
    dist = distance_map(ok & ~known_traps(state, heed_fire=heed_fire), sources)
    x, y = state.player
    if dist[y, x] >= FAR:
        return distance_map(ok, sources)
    return dist


def travel_distances(
    state: GameState,
    x: int,
    y: int,
    avoid: np.ndarray | None = None,
    *,
    heed_fire: bool = True,
) -> np.ndarray:
    """Steps to (x, y) over the explored map (never through the cells of ``avoid``, and around
    known traps unless they are the only way; around the fire in view with ``heed_fire``)."""
    ok = known_passable(state)
    if avoid is not None:
        ok &= ~avoid
    return _around_traps(state, ok, [(x, y)], heed_fire=heed_fire)


def explore_distances(
    state: GameState,
    avoid: np.ndarray | None = None,
    *,
    danger: np.ndarray | None = None,
    heed_fire: bool = True,
) -> np.ndarray:
    """Steps over the explored map to the nearest unexplored edge (a known walkable cell next
    to an unknown one), known item or key lying on the floor, or puzzle pedestal not yet
    stepped on; never through the cells of ``avoid`` (the autoplayer's ablations). ``danger``
    (the cells of :func:`dangers`): no target in it and no way through it; a player standing in
    it is led out first, by the shortest way to safe ground that has a way on. ``heed_fire``
    False: the fire in view is no trap to step round (the autoplayer's ``ignore_fire``)."""
    ok = known_passable(state)
    if avoid is not None:
        ok &= ~avoid
    unknown = ~state.explored
    edge = np.zeros_like(ok)
    for dx, dy in DIRS8:
        edge |= shifted(unknown, dx, dy)
    targets = ok & edge
    fresh = [pos for pos, room in state.puzzles.items() if not room.visited]
    # a treasure's choice is the player's decision: seen, it draws no walk to it
    lying = [pos for pos in state.items_lying if pos not in state.choices]
    for x, y in lying + list(state.keys_lying) + fresh:
        targets[y, x] |= bool(state.explored[y, x])
    targets &= ~known_traps(state, heed_fire=heed_fire)
    if danger is None or not danger.any():
        return _around_traps(state, ok, _cells(targets), heed_fire=heed_fire)
    safe = ok & ~danger
    dist = _around_traps(state, safe, _cells(targets & safe), heed_fire=heed_fire)
    x, y = state.player
    if not danger[y, x] or dist[y, x] < FAR:
        return dist
    # standing in danger: out of it first, to the nearest safe cell a way on leaves from
    return _around_traps(state, ok, _cells(safe & (dist < FAR)), heed_fire=heed_fire)


def _cells(mask: np.ndarray) -> list[tuple[int, int]]:
    ys, xs = np.nonzero(mask)
    return list(zip(xs.tolist(), ys.tolist(), strict=True))


def travel(state: GameState, action: Travel) -> list[Event]:
    """Walk a shortest known way to the explored cell ``action`` names."""
    x, y = action.x, action.y
    if not (0 <= x < state.width and 0 <= y < state.height) or not state.explored[y, x]:
        return [Message("You do not know the way there.")]
    if (x, y) == state.player:
        return []
    dist = travel_distances(state, x, y)
    px, py = state.player
    if dist[py, px] >= FAR:
        return [Message("You know no way there.")]
    return walk(state, lambda: dist, lambda: state.player == (x, y), stop_on=TRAVEL_STOPS)


def explore(state: GameState, *, onward: bool = False) -> list[Event]:
    """Walk to the nearest place worth a look (:func:`explore_distances`), keeping out of the
    known dangers (:func:`dangers`), until the floor changes or there is nothing left to
    explore but what a danger keeps. ``onward``: items and keys picked up on the way do not
    stop it, and the first sight of the stairs or exit does (see
    :class:`~roguelike.engine.actions.Explore`)."""
    refused = explore_refusal(state)
    if refused is not None:
        return [Message(refused)]
    floor = state.number
    return walk(
        state,
        lambda: explore_distances(state, danger=danger_mask(dangers(state), state.tiles.shape)),
        lambda: state.number != floor,
        explore=True,
        stop_on=EXPLORE_NOTES if onward else frozenset(),
        note_on=frozenset() if onward else EXPLORE_NOTES,
        through_pickups=onward,
    )


def explore_refusal(state: GameState) -> str | None:
    """Why explore would not take a step now (None: it would): a monster in view presses the
    player (:func:`pressing`), every place left lies in a known danger, or none is left."""
    seen = pressing(state)
    if seen:
        return f"Not with {a(shown_name(state, seen[0]))} in view: fight it or step away."
    found = dangers(state)
    dist = explore_distances(state, danger=danger_mask(found, state.tiles.shape))
    px, py = state.player
    if dist[py, px] < FAR:
        return None
    return explore_end(state, found)


def explore_end(state: GameState, found: list[Danger] | None = None) -> str:
    """What to say when explore has no step left: the danger that keeps the nearest place
    left (``You stop: the gnoll sentinel guards the next room.``), else what to do next
    (:func:`explored_all`)."""
    found = dangers(state) if found is None else found
    px, py = state.player
    if found and explore_distances(state)[py, px] < FAR:
        steps = distance_map(known_passable(state), [state.player])
        near = min(found, key=lambda d: (int(steps[d.cells].min(initial=FAR)), d.monster.id))
        return f"You stop: {near.why}."
    return explored_all(state)


def explored_all(state: GameState) -> str:
    """What to say when exploring finds nothing more: and what to do next."""
    text = "Explored all you can reach."
    fx, fy = state.floor.finish or (-1, -1)
    px, py = state.player
    # seen is not reached: a puzzle that draws the floor's walls shows stairs behind a door
    if fx >= 0 and state.explored[fy, fx] and travel_distances(state, fx, fy)[py, px] < FAR:
        where = "exit" if state.floor.last else "stairs"
        then = "leave" if state.floor.last else "go down"
        return f"{text} Press > to walk to the {where}, and > again to {then}."
    changes = {c.key for c in state.floor.changes}  # an optional pedestal holds no door shut
    waiting = [
        r for r in state.puzzles.values() if r.visited and not r.solved and r.key not in changes
    ]
    if waiting:
        colour = tiles.key_colour(waiting[0].key)[0]
        return f"{text} The {waiting[0].type} pedestal holds the {colour} door shut: solve it."
    seen = sorted(
        {
            lock
            for lock in (tiles.lock_of(int(t)) for t in np.unique(state.tiles[state.explored]))
            if lock is not None and lock not in state.keys_held
        }
    )
    if seen:
        return f"{text} {upper_first(key_name(seen[0]))} is still to find."
    return text


def sightings(state: GameState) -> set[tuple[str, int, int]]:
    """What the player has seen of the floor that a walk should not pass unnoticed, as
    (kind, x, y): the stairs or exit, keys, unsolved pedestals and items lying on explored
    cells, and explored locked doors."""
    explored = state.explored
    seen: set[tuple[str, int, int]] = set()
    finish = state.floor.finish
    if finish is not None and explored[finish[1], finish[0]]:
        seen.add(("exit" if state.floor.last else "stairs", *finish))
    for (x, y), _ in state.keys_lying.items():
        if explored[y, x]:
            seen.add(("key", x, y))
    for (x, y), room in state.puzzles.items():
        if explored[y, x] and not room.solved:
            seen.add(("pedestal", x, y))
    for (x, y), _ in state.items_lying.items():
        if explored[y, x]:
            seen.add(("item", x, y))
    ys, xs = np.nonzero(explored & (state.tiles >= tiles.LOCKED_FIRST))
    seen.update(("locked door", x, y) for x, y in zip(xs.tolist(), ys.tolist(), strict=True))
    return seen


#: The sightings (kinds of :func:`sightings`) that stop a travel.
TRAVEL_STOPS = frozenset({"stairs", "exit", "key", "pedestal", "item", "locked door"})
#: The sightings an explore tells of as it walks on. (It does not stop there: the recorded
#: explores of older runs must replay the same.)
EXPLORE_NOTES = frozenset({"stairs", "exit"})


def _sighted(state: GameState, new: set[tuple[str, int, int]], *, stop: bool = True) -> str:
    """``You stop: you see the stairs down and a potion.`` for the things first seen (``stop``
    False: ``You see the stairs down (> walks there).``)."""
    words = []
    for kind, x, y in sorted(new, key=lambda s: (TRAVEL_ORDER.index(s[0]), s[2], s[1])):
        if kind == "stairs":
            words.append("the stairs down")
        elif kind == "exit":
            words.append("the exit")
        elif kind == "key":
            words.append(key_name(state.keys_lying[(x, y)]))
        elif kind == "pedestal":
            words.append(f"a {state.puzzles[(x, y)].type} pedestal")
        elif kind == "item":
            words.append(a(item_name(state, state.items_lying[(x, y)])))  # as look names it
        else:
            lock = tiles.lock_of(int(state.tiles[y, x]))
            words.append(f"a door locked with {key_name(lock)}" if lock else "a locked door")
    if stop:
        return f"You stop: you see {and_list(words)}."
    walks = " (> walks there)" if any(k in ("stairs", "exit") for k, _, _ in new) else ""
    return f"You see {and_list(words)}{walks}."


TRAVEL_ORDER = ("stairs", "exit", "key", "pedestal", "locked door", "item")


def in_the_way(state: GameState, m: Monster | None) -> str:
    """Why a walk stopped on a creature on its next step: the one the player sees, by the
    name it shows (asleep, or a captive), else "Something" (a lurker not yet seen)."""
    if m is None or not state.shows(m):
        return "Something is in the way."
    if m in state.allies:  # the player's side shows its own kind (the map draws it so)
        return f"You stop: the shackled {m.kind} is in the way (bump it to work its shackles)."
    how = "" if m.awake else " (asleep)"
    return f"You stop: the {shown_name(state, m)}{how} is in the way: strike it, or go round."


def walk(
    state: GameState,
    distances: Callable[[], np.ndarray],
    arrived: Callable[[], bool],
    *,
    explore: bool = False,
    stop_on: frozenset[str] = frozenset(),
    note_on: frozenset[str] = frozenset(),
    through_pickups: bool = False,
) -> list[Event]:
    """Step down a distance map until ``arrived``, or a reason to stop: a monster comes into
    view, the player is attacked or loses health, something is picked up or found, a sighting
    of a kind in ``stop_on`` is new (see :func:`sightings`), the way is blocked, or the walk
    runs out (:data:`TRAVEL_LIMIT`); a new sighting of a kind in ``note_on`` is told of, and
    the walk goes on; ``through_pickups``: taking an item or a key does not stop it. The map
    is asked for again only when the walk reaches one of its targets or cannot go on, so a
    long walk costs a few maps, not one per step. ``explore``: say what is left to do when the
    map has no more steps."""
    seen = {m.id for m in state.visible_monsters()}
    watched = stop_on | note_on
    known = {s for s in sightings(state) if s[0] in watched} if watched else set()
    events: list[Event] = []
    dist: np.ndarray | None = None
    for _ in range(TRAVEL_LIMIT):
        if arrived():
            break
        px, py = state.player
        steps: list[tuple[int, int]] = []
        if dist is not None and dist[py, px] < FAR:
            steps = downhill(dist, dist < FAR, px, py)
        if not steps:
            dist = distances()
            steps = downhill(dist, dist < FAR, px, py)
        if not steps:
            if explore:
                events.append(Message(explore_end(state)))
            break
        dx, dy = steps[0]
        captive = state.ally_at(px + dx, py + dy)  # a free ally swaps; a captive's bumps are asked
        blocker = state.monster_at(px + dx, py + dy)
        if blocker is not None or (captive and not freed(captive)):
            events.append(Message(in_the_way(state, blocker or captive)))
            break
        hp = state.hp
        traps_known = len(state.traps_known)
        got = one_turn(state, Move(dx, dy))
        events += got
        if len(state.traps_known) != traps_known:
            dist = None  # a trap was found: the way is planned again, around it
        stop = (
            (Bumped, PuzzleFound) if through_pickups else (Bumped, ItemTaken, KeyTaken, PuzzleFound)
        )
        attacked = any(isinstance(e, Attacked) and e.target == "you" for e in got)
        if state.dead or attacked or any(isinstance(e, stop) for e in got):
            break
        if state.hp < hp:
            events.append(Message(f"You stop: you lost {hp - state.hp} HP."))
            break
        new = {m.id for m in state.visible_monsters()} - seen
        if new:
            kinds = [shown_name(state, m) for m in state.visible_monsters() if m.id in new]
            events.append(Message(f"You stop: {come_into_view(kinds)}."))
            break
        near = pressing(state) if explore else []
        if near:
            m = near[0]
            how = "has you in range" if m.info.ranged else "comes for you"
            events.append(Message(f"You stop: the {shown_name(state, m)} {how}."))
            break
        if watched and not arrived():
            found = {s for s in sightings(state) if s[0] in watched} - known
            if any(s[0] in stop_on for s in found):
                events.append(Message(_sighted(state, found)))
                break
            if found:
                events.append(Message(_sighted(state, found, stop=False)))
                known |= found
    return events


def come_into_view(kinds: list[str]) -> str:
    """``two rats and a goblin come into view``: the monsters that appeared, each kind counted
    once (the most numerous first), with the verb agreeing."""
    verb = "comes" if len(kinds) == 1 else "come"
    return f"{counted(kinds)} {verb} into view"
