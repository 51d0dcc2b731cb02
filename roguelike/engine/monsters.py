"""Monsters' turns: waking, energy, and the choice of what to do.

Every spent player turn, each monster gains energy equal to its speed and acts once for each
100 it holds, so a bat (150) acts three times in two turns and an ogre (80) four times in five.
A sleeping monster notices a player in its sight and near it by a chance its kind's perception
and the player's stealth set, and noise wakes it unaware, to go and look
(:mod:`roguelike.engine.stealth`); asleep, it drifts back to its post. An awake monster scores
every legal action and takes the best, ties broken by the gameplay stream
(:func:`monster_options`): approach along a distance map, attack when adjacent, flee when hurt,
close to shooting range and shoot (every other turn) if ranged, stay near their post if they
guard a key room, and stay next to their own kind if they hunt in packs. One that has not seen
the player for :data:`HUNT_MEMORY` of its turns falls asleep again. Monsters open plain doors,
never locked ones; a beast (``paws``) opens none, so a closed door keeps it out, and a
basher smashes a closed plain door into a broken one that never closes again (the crash wakes
monsters near), never a locked one.

The kinds' ways are scored options too, so a player can learn to answer each: a skirmisher
steps back out of reach after a blow (chasing it is a mistake); a kiting shooter backs away
while it sees you, for a bounded number of steps; a flanking pack spreads round the player; a
sentinel keeps to its post; a shrieker wakes everything near when it sees you; a summoner
raises a bounded number of minions; a breather seeks a straight line to the player within its
reach and breathes along it (every :data:`BREATH_RELOAD` turns), burning all on the line.
Fleeing never stalls a walk or a rest: a fleeing monster
in view gives up after :data:`FLEE_TURNS` of its turns and fights on, cornered; one out of
sight hides, heals :data:`HIDE_HEAL` a turn and comes back whole. A thief out of sight for
:data:`THIEF_ESCAPE` turns is gone with what it took.
"""

from __future__ import annotations

import numpy as np

from roguelike import tiles
from roguelike.engine.allies import freed, hits_ally
from roguelike.engine.balance import (
    ALLY_TARGET_SCORE,
    BASH_NOISE,
    BREATH_RELOAD,
    FIRE_AVOID,
    FLANK_SPREAD,
    FLEE_TURNS,
    GUARD_RADIUS,
    HIDE_HEAL,
    HUNT_MEMORY,
    KITE_DISTANCE,
    KITE_STEPS,
    MONSTERS,
    PLAYER_SPEED,
    RELOAD_TURNS,
    ROUSE_COST,
    SENTINEL_RADIUS,
    SHOOTING_RANGE,
    SHRIEK_RELOAD,
    SKIRMISH_RETREAT,
    SUMMON_MOST,
    SUMMON_RELOAD,
    THIEF_ESCAPE,
)
from roguelike.engine.combat import breath_line, breathes, monster_hits
from roguelike.engine.creatures import Monster, monster_hp, shown_name
from roguelike.engine.describe import a, item_name
from roguelike.engine.events import Event, Message
from roguelike.engine.fire import FUEL, ignite
from roguelike.engine.grid import DIRS8, can_step, chebyshev
from roguelike.engine.items import monster_drinks
from roguelike.engine.pathing import FAR, distance_map
from roguelike.engine.state import GameState
from roguelike.engine.stealth import UNAWARE, alert, investigate, notice, sneaky

__all__ = [
    "FLEE_TURNS",
    "HUNT_MEMORY",
    "RELOAD_TURNS",
    "SPOTTED",
    "SCENT_RANGE",
    "SHOOTING_RANGE",
    "monster_options",
    "monster_turn",
    "monsters_act",
    "held_back",
    "keeps_post",
    "player_distances",
    "post_radius",
    "spot_guards",
    "wander_home",
]

#: The counter a key room's guard or a sentinel keeps in its ``extra`` once the player has seen
#: it: it keeps to its post, so the player knows where it stands even out of sight (explore
#: keeps out of its reach: :mod:`roguelike.engine.travel`).
SPOTTED = "spotted"

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
        if sneaky(m):  # asleep or unaware: it may notice the player
            events += notice(state, m)
        # against a slow player (heavy armour) a monster gets more of its turns
        m.energy += m.info.speed * PLAYER_SPEED // state.pace
        while m.energy >= 100 and not state.dead and m in state.monsters:  # a thief may go
            m.energy -= 100
            if m.info.regen and m.hp < m.max_hp:
                m.hp = min(m.max_hp, m.hp + m.info.regen)
            if m.extra.get("hiding"):  # out of sight it licks its wounds, then comes back
                m.hp = min(m.max_hp, m.hp + HIDE_HEAL)
                if m.hp >= m.max_hp:
                    for counter in ("hiding", "fled"):
                        m.extra.pop(counter, None)
            drank = monster_drinks(state, m) if m.awake and UNAWARE not in m.extra else None
            if UNAWARE in m.extra:
                investigate(state, m)
            elif drank is not None:  # its turn went on its potion
                events += drank
            elif m.awake:
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
    if m.info.paws and state.tiles[ny, nx] == tiles.DOOR:  # a beast cannot open a door
        return False
    return not state.occupied(nx, ny)


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


def _bashes(state: GameState, m: Monster, dx: int, dy: int) -> list[Event]:
    """``m`` smashes the closed plain door at (dx, dy) from it instead of stepping: the door
    is broken for good (it never closes nor blocks the view again) and the crash wakes every
    monster within :data:`BASH_NOISE`. A locked door is never a step, so never broken."""
    x, y = m.x + dx, m.y + dy
    state.tiles[y, x] = tiles.BROKEN_DOOR
    for o in state.monsters:
        if o is not m and chebyshev(o.pos, (x, y)) <= BASH_NOISE:
            o.awake, o.unseen = True, 0
    if state.visible[m.y, m.x] or state.visible[y, x]:
        return [Message(f"The {shown_name(state, m)} smashes the door to splinters!")]
    return [Message("You hear a door splinter somewhere.")]


def _radius(m: Monster) -> int:
    """How far a guard strays from its post: a sentinel less far than a key room's others."""
    return SENTINEL_RADIUS if m.info.sentinel else GUARD_RADIUS


def held_back(state: GameState, m: Monster) -> bool:
    """Whether ``m`` cannot come for the player where it stands: a rooted one that does not
    shoot (a shrieker), or one keeping to a post the player stands out of its reach from (a key
    room's guard, a sentinel). It forbids neither rest nor explore."""
    if m.info.still and not m.info.ranged:
        return True
    if not (m.guard or m.info.sentinel):
        return False
    return chebyshev(state.player, m.home) > _radius(m) + max(1, m.info.ranged)


def _free_next_to(state: GameState, m: Monster) -> tuple[int, int] | None:
    """The first free cell next to ``m`` (in the order of the directions) a minion could
    stand on, if there is one."""
    for dx, dy in DIRS8:
        if _can_step(state, m, dx, dy):
            return (m.x + dx, m.y + dy)
    return None


def monster_options(
    state: GameState, m: Monster, dist: np.ndarray
) -> list[tuple[float, str, tuple[int, int]]]:
    """Every legal action of an awake monster with its score: ``(score, what, (dx, dy))``
    where ``what`` is ``"wait"``, ``"move"``, ``"rouse"`` (wake a sleeper in the way),
    ``"attack"``, ``"strike"`` (a blow at a free ally next to it, when the player is out of
    reach), ``"shoot"``, ``"breathe"``, ``"shriek"`` or ``"raise"``. The monster plays the best;
    :func:`monster_turn` breaks ties with the gameplay stream."""
    info = m.info
    sees = bool(state.visible[m.y, m.x])
    gap = chebyshev(m.pos, state.player)

    def d(x: int, y: int) -> int:
        v = int(dist[y, x])
        return v if v < FAR else SCENT_RANGE + chebyshev((x, y), state.player)

    hurt = m.fleeing
    here = d(m.x, m.y)
    retreating = info.skirmish and m.extra.get("retreat", 0) > 0 and not hurt
    kiting = info.kite and sees and m.extra.get("backed", 0) < KITE_STEPS and not hurt
    at_post = info.sentinel and chebyshev(state.player, m.home) > _radius(m) + 1
    # a breather with its breath ready seeks a straight line to the player within its reach
    lining = bool(info.breath) and sees and not hurt and not m.extra.get("reload", 0)
    flankers = (
        [
            o
            for o in state.monsters
            if o is not m and o.info.flank and chebyshev(o.pos, state.player) == 1
        ]
        if info.flank
        else []
    )

    def place_score(x: int, y: int) -> float:
        dn = d(x, y)
        moved = 1.0 if (x, y) != m.pos else 0.0
        if hurt:
            s = 10.0 * dn
        elif at_post:  # the intruder is beyond its watch: back to the post
            s = -10.0 * chebyshev((x, y), m.home)
        elif retreating:  # just out of reach, until it strikes again
            s = -10.0 * abs(dn - 2)
        elif kiting:  # far enough to be safe, near enough to shoot
            s = -10.0 * (max(KITE_DISTANCE - dn, 0) + max(dn - info.ranged, 0)) - moved
        elif info.ranged and sees:  # closes to shooting range, then stands its ground
            s = -10.0 * max(dn - SHOOTING_RANGE, 0) - moved
        elif lining:  # onto one of the player's lines within reach, else nearer
            s = -10.0 * max(dn - info.breath, 0) - (0.0 if _on_line(state, x, y) else 15.0)
            s -= moved
        else:
            s = -10.0 * dn
        if flankers and chebyshev((x, y), state.player) == 1:  # round the player, not behind
            s += FLANK_SPREAD * min(chebyshev((x, y), o.pos) for o in flankers)
        elif info.pack and not info.flank:
            allies = sum(
                1
                for o in state.monsters
                if o is not m and o.kind == m.kind and chebyshev(o.pos, (x, y)) == 1
            )
            s += 2.0 * min(allies, 2)
        if m.guard and chebyshev((x, y), m.home) > _radius(m):
            s -= 1000.0
        if (x, y) in state.fire:  # out of the flames, and never into them while it can
            s -= FIRE_AVOID
        return s

    options: list[tuple[float, str, tuple[int, int]]] = [(place_score(m.x, m.y), "wait", (0, 0))]
    if not info.still:
        for dx, dy in DIRS8:
            if _can_step(state, m, dx, dy):
                options.append((place_score(m.x + dx, m.y + dy), "move", (dx, dy)))
            elif not hurt and can_step(state, m.x, m.y, dx, dy):
                # a sleeper in the way (in a corridor, say): shaken awake, it comes too; a
                # step costs less, so it rouses only one it cannot go round
                o = state.monster_at(m.x + dx, m.y + dy)
                if o is not None and not o.awake and d(o.x, o.y) < here:
                    options.append((place_score(o.x, o.y) - ROUSE_COST, "rouse", (dx, dy)))
    px, py = state.player
    reload = m.extra.get("reload", 0)
    if gap == 1 and can_step(state, m.x, m.y, px - m.x, py - m.y):
        if hurt:
            score = 10.0 * here + 5
        elif retreating:  # cornered: it strikes rather than stand there
            score = -9.0
        elif kiting:  # cornered: it strikes rather than stand there
            score = -15.0
        else:
            score = 100.0
        options.append((score, "attack", (px - m.x, py - m.y)))
    if info.ranged and sees and 2 <= gap <= info.ranged and not reload:
        if hurt:
            score = 10.0 * here + 8
        elif kiting and gap < KITE_DISTANCE:  # first a step back, if it has one
            score = -5.0
        else:
            score = 100.0
        options.append((score, "shoot", (0, 0)))
    if gap > 1 and not hurt:  # the player out of reach: a free ally next to it will do
        for ally in state.allies:
            ax, ay = ally.x - m.x, ally.y - m.y
            if (
                freed(ally)
                and chebyshev(ally.pos, m.pos) == 1
                and can_step(state, m.x, m.y, ax, ay)
            ):
                options.append((ALLY_TARGET_SCORE, "strike", (ax, ay)))
    if info.breath and sees and not hurt and not reload and breath_line(state, m):
        options.append((110.0, "breathe", (0, 0)))
    if info.shriek and sees and not reload:
        options.append((200.0, "shriek", (0, 0)))
    if (
        info.summons
        and sees
        and not hurt
        and not reload
        and m.extra.get("raised", 0) < SUMMON_MOST
        and _free_next_to(state, m) is not None
    ):
        options.append((150.0, "raise", (0, 0)))
    return options


def _rouses(state: GameState, m: Monster, dx: int, dy: int) -> list[Event]:
    """``m`` shakes awake the sleeper at (dx, dy) from it, which blocks its way."""
    o = state.monster_at(m.x + dx, m.y + dy)
    if o is None:
        return []
    alert(o)
    if state.visible[o.y, o.x] or state.visible[m.y, m.x]:
        woken = shown_name(state, o)
        return [Message(f"The {shown_name(state, m)} rouses the {woken} in its way.")]
    return []


def _shrieks(state: GameState, m: Monster) -> list[Event]:
    """``m`` shrieks: every monster within its kind's radius wakes and hunts."""
    m.extra["reload"] = SHRIEK_RELOAD
    woke = 0
    for o in state.monsters:
        if o is not m and chebyshev(o.pos, m.pos) <= m.info.shriek:
            woke += not o.awake
            alert(o)
    heard = " Something stirs nearby." if woke else ""
    return [Message(f"The {shown_name(state, m)} shrieks!{heard}")]


def _raises(state: GameState, m: Monster) -> list[Event]:
    """``m`` raises one of its minions on a free cell next to it."""
    cell = _free_next_to(state, m)
    assert cell is not None  # the option is only offered with a free cell
    kind = MONSTERS[m.info.summons]
    m.extra["reload"] = SUMMON_RELOAD
    m.extra["raised"] = m.extra.get("raised", 0) + 1
    mid = max(o.id for o in state.monsters) + 1
    hp = monster_hp(kind, state.difficulty)  # a minion is as tough as the world's level makes it
    raised = Monster(mid, kind.name, cell[0], cell[1], hp, home=cell, awake=True, max_hp=hp)
    state.monsters.append(raised)
    if not (state.visible[m.y, m.x] or state.visible[cell[1], cell[0]]):
        return []  # unseen: the player meets the minion when it comes
    return [Message(f"The {shown_name(state, m)} raises {a(shown_name(state, raised))}!")]


def _tick(m: Monster, counter: str) -> None:
    if m.extra.get(counter):
        m.extra[counter] -= 1


def monster_turn(state: GameState, m: Monster, dist: np.ndarray) -> list[Event]:
    """One action of the awake monster ``m``: an erratic flutter by chance, else its best
    option (:func:`monster_options`). Before it, its fleeing is kept bounded: in view, a
    fleeing monster counts its turns and turns at bay after :data:`FLEE_TURNS`; out of view it
    hides (and heals, in :func:`monsters_act`), and a thief gets away."""
    info = m.info
    events: list[Event] = []
    seen = bool(state.visible[m.y, m.x])
    if seen:
        m.unseen = 0
        m.extra.pop("away", None)
    else:
        m.unseen += 1
        if m.loot:
            m.extra["away"] = m.extra.get("away", 0) + 1
            if m.extra["away"] >= THIEF_ESCAPE:
                state.monsters.remove(m)
                loot = item_name(state, m.loot)  # as the pack named it: an unknown potion's look
                return [Message(f"The {shown_name(state, m)} gets away with your {loot}.")]
        if m.unseen > HUNT_MEMORY:
            m.awake = False
            return []
    for counter in ("reload", "retreat", "shown"):
        _tick(m, counter)
    if m.fleeing:
        if seen:
            m.extra["fled"] = m.extra.get("fled", 0) + 1
            if m.extra["fled"] > FLEE_TURNS:
                m.extra["cornered"] = 1
                m.extra.pop("hiding", None)
                events.append(Message(f"The {shown_name(state, m)} turns at bay!"))
        elif not m.loot:
            m.extra["hiding"] = 1
    options = monster_options(state, m, dist)
    if info.erratic and state.rng.random() < info.erratic:
        moves = [o for o in options if o[1] == "move"]
        if moves:
            _, _, (dx, dy) = moves[int(state.rng.integers(len(moves)))]
            _moves(state, m, dx, dy)
            return events
    top = max(o[0] for o in options)
    best = [o for o in options if o[0] == top]
    _, what, (dx, dy) = best[int(state.rng.integers(len(best)))] if len(best) > 1 else best[0]
    if what == "move" and info.bashes and state.tiles[m.y + dy, m.x + dx] == tiles.DOOR:
        return events + _bashes(state, m, dx, dy)
    if what == "move":
        if info.kite and seen and d_of(dist, m.x + dx, m.y + dy) > d_of(dist, m.x, m.y):
            m.extra["backed"] = m.extra.get("backed", 0) + 1
        _moves(state, m, dx, dy)
        return events
    if what == "attack":
        if info.skirmish:
            m.extra["retreat"] = SKIRMISH_RETREAT
        return events + monster_hits(state, m, ranged=False)
    if what == "shoot":
        m.extra["reload"] = RELOAD_TURNS
        return events + monster_hits(state, m, ranged=True)
    if what == "rouse":
        return events + _rouses(state, m, dx, dy)
    if what == "strike":
        ally = state.ally_at(m.x + dx, m.y + dy)
        assert ally is not None  # the option is only offered with an ally there
        return events + hits_ally(state, m, ally)
    if what == "breathe":
        m.extra["reload"] = BREATH_RELOAD
        line = breath_line(state, m)
        return events + breathes(state, m) + _kindle(state, line)
    if what == "shriek":
        return events + _shrieks(state, m)
    if what == "raise":
        return events + _raises(state, m)
    return events


def _on_line(state: GameState, x: int, y: int) -> bool:
    """(x, y) lies on a straight line (orthogonal or diagonal) through the player."""
    dx, dy = abs(x - state.player[0]), abs(y - state.player[1])
    return dx == 0 or dy == 0 or dx == dy


def d_of(dist: np.ndarray, x: int, y: int) -> int:
    """Steps from the player at (x, y) on a monsters' distance map (FAR where unreachable)."""
    return int(dist[y, x])


def post_radius(m: Monster) -> int:
    """How far a key room's guard or a sentinel strays from its post (a kind that never moves,
    a shrieker, not at all)."""
    return 0 if m.info.still else _radius(m)


def keeps_post(m: Monster) -> bool:
    """Whether ``m`` keeps to a post: a key room's guard or a sentinel."""
    return m.guard or m.info.sentinel


def spot_guards(state: GameState) -> None:
    """Mark the guards and sentinels in view as seen (:data:`SPOTTED`): from then on the player
    knows where their posts are."""
    for m in state.monsters:
        if keeps_post(m) and SPOTTED not in m.extra and state.visible[m.y, m.x]:
            m.extra[SPOTTED] = 1


def _kindle(state: GameState, line: list[tuple[int, int]]) -> list[Event]:
    """What a breath leaves behind on its ``line``: the moss on it catches (the fire then
    spreads and burns on, :mod:`roguelike.engine.fire`), and marsh gas on it explodes. Bare
    ground does not keep a breath's fire: the breath itself was the blow."""
    events: list[Event] = []
    caught = False
    for x, y in line:
        if (x, y) in state.gas or int(state.tiles[y, x]) in FUEL:
            events += ignite(state, x, y)
            caught |= (x, y) in state.fire and bool(state.visible[y, x])
    if caught:
        events.append(Message("The moss catches fire!"))
    return events
