"""The autoplayer: it plays through the same actions as a person and sees only what a
person sees (the field of view, the explored map, what lies or stands there, the messages).
A test redraws everything a person has not seen and checks it decides the same.

Its policy, turn by turn (:func:`decide`, which also says why):

1. low with a monster coming: drink a potion, else read a blink scroll, else step away;
2. on an unsolved puzzle pedestal, solve it with the puzzle's own solver (one turn in the
   dungeon, however long the puzzle), unless a monster stands next to it;
3. strike an adjacent monster it can reach past the corners (the weakest, fleeing last),
   first drinking a berserk potion against a big one or two at once;
4. with monsters coming: a fire bomb thrown where its burst burns two or a big one and never
   itself (:func:`_aim`), a sacrifice scroll when hurt among several; wait for a melee monster
   that can step next to it (the first blow is ours), or a skirmisher close by (it darts back
   out of reach: chasing it is a mistake), else go for it;
5. search once where a known trap lies within reach (traps ring treasure); rest when hurt
   and alone; look where it last saw the monster it went for (its
   :class:`Memory`); read a mapping scroll on a floor whose stairs it has not seen;
6. free a captive it has seen (its guards in view first: walking up to each), bumping it
   till its shackles fall; take one upgrade of a treasure's choice it has seen, by
   :data:`TREASURE_PREFERENCE` (stepping round the others); go back to a pedestal a fight
   pulled it away from; explore (the engine's walk takes keys, items and pedestals on its
   way and unlocks doors whose key it holds);
7. with nothing left to explore, travel to the stairs (or the exit) and take them (waiting a
   few turns there for an ally in view to come beside it).

:func:`play` runs it to the end of a world; :func:`play_many` runs worlds in processes.

A :class:`Policy` makes it a measuring instrument: ``invulnerable`` (blows cannot kill it: does
every world let a player find the keys, solve the puzzles and take every stair?), and two
ablations that show what a part of the game is worth to survival: ``no_items`` (it never uses
a consumable) and ``skip_treasure`` (it never sets foot in a treasure room; it walks step by
step around them, so it reads the floor's room roles, which a person would learn by looking).
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from roguelike import seeds, tiles
from roguelike.engine import (
    Action,
    Descend,
    Explore,
    Move,
    PickUp,
    Rest,
    Search,
    SolvePuzzle,
    Throw,
    Travel,
    Use,
    Wait,
    new_game,
    step,
)
from roguelike.engine.allies import freed
from roguelike.engine.balance import DEFAULT_DIFFICULTY, SEARCH_RADIUS, THROW_RANGE
from roguelike.engine.creatures import ITEMS, SHACKLED, Monster, monster_attack
from roguelike.engine.describe import a as a_
from roguelike.engine.grid import DIRS8, can_step, chebyshev
from roguelike.engine.identify import unknown_in_pack
from roguelike.engine.items import flight, held_known
from roguelike.engine.monsters import SCENT_RANGE
from roguelike.engine.pathing import FAR, distance_map, downhill
from roguelike.engine.state import GameState
from roguelike.engine.travel import explore_distances, known_passable, travel_distances
from roguelike.engine.travel import threats as travel_threats
from roguelike.gen.roles import TREASURE_ROLES
from roguelike.recording import Recording

#: Share of HP below which the player rests, and below which it drinks in a fight.
REST_BELOW = 0.7
DRINK_BELOW = 0.35
#: Most actions in a run.
TURN_LIMIT = 20_000
#: Refused actions (no turn spent) in a row after which a run is abandoned as stuck.
STUCK_AFTER = 50
#: Refused actions in a row (no turn spent) after which the player waits a turn instead.
IDLE_WAIT = 3
#: Turns in which nothing changes (floor, map seen, max HP, kills, keys, puzzles, pack) after
#: which a run is abandoned as stuck.
STALL_TURNS = 400
#: Turns the autoplayer keeps looking for a monster it went for after it goes out of sight.
HUNT_TURNS = 20
#: Turns it waits on the stairs for an ally in view to come beside it (it follows, but keeps
#: a step or two away), before it goes down without it.
ALLY_WAIT = 4
#: How near a captive (Chebyshev) a monster in view counts as its guard, dealt with first.
GUARD_REACH = 3
#: Which upgrade of a treasure's choice it keeps: the first of these that lies there.
TREASURE_PREFERENCE = ("iron plate", "sharp blade", "heart elixir", "war axe", "tower plate")
#: Turns it waits in all for one monster to come (or stands its ground against it) before it
#: gives up on that one until it comes next to it: a monster that cannot reach the player
#: (across a chasm, say) must not hold it still for ever.
PATIENCE = 12
#: Below this share of its HP, with a threat in view and nothing known to help, it gambles on
#: an unknown potion or scroll.
DESPERATE = 0.3
#: A monster with at least this many HP is worth a bomb on its own (or a berserk potion).
BIG_HP = 14


@dataclass(frozen=True)
class Policy:
    """How the autoplayer plays: the measuring switches (see the module's docstring)."""

    invulnerable: bool = False
    no_items: bool = False
    skip_treasure: bool = False
    #: never drink or read an unknown potion or scroll (the gamble of identification, off)
    no_unknown: bool = False

    def describe(self) -> str:
        """The switches as the command line writes them ("" for the full autoplayer)."""
        names = ("invulnerable", "no_items", "skip_treasure", "no_unknown")
        return " ".join("--" + n.replace("_", "-") for n in names if getattr(self, n))


FULL = Policy()


@dataclass
class Result:
    seed: int
    won: bool
    floors: int
    turns: int
    cause: str
    seconds: float
    #: the lowest share of its HP the player fell to (how close the run came to death)
    lowest_hp: float = 1.0
    #: the floor it died on (None: it did not die)
    died_on: int | None = None
    #: consumables used (each use that took a turn)
    items_used: int = 0
    #: consumables still in the pack at the end
    items_left: int = 0
    #: blows that would have killed it (an invulnerable run only)
    spared: int = 0
    #: the player on arriving at each floor it reached: (floor, maximum HP, mean of the damage
    #: roll, defence), for the power curve of the bench
    arrivals: tuple[tuple[int, int, float, int], ...] = ()
    #: the monsters placed on each floor it reached: (floor, how many, their mean maximum HP,
    #: their mean expected damage a player turn against an unarmoured player)
    monsters: tuple[tuple[int, int, float, float], ...] = ()
    #: the world's difficulty
    difficulty: str = DEFAULT_DIFFICULTY


def arrival(state: GameState) -> tuple[int, int, float, int]:
    """The player's power as it enters the current floor (see :attr:`Result.arrivals`)."""
    lo, hi = state.attack
    return (state.number, state.max_hp, (lo + hi) / 2, state.defence)


def threat(state: GameState) -> tuple[int, int, float, float]:
    """The strength of the monsters placed on the current floor as it is entered (see
    :attr:`Result.monsters`): a blow's expected damage times its chance to hit, times the
    monster's moves per player turn."""
    hp: list[float] = []
    dpt: list[float] = []
    for m in state.monsters:
        info = m.info
        lo, hi = monster_attack(info, state.difficulty)
        hp.append(m.max_hp)
        dpt.append((lo + hi) / 2 * info.accuracy / 100 * info.speed / 100)
    mean_hp = float(np.mean(hp)) if hp else 0.0
    mean_dpt = float(np.mean(dpt)) if dpt else 0.0
    return (state.number, len(hp), round(mean_hp, 2), round(mean_dpt, 3))


@dataclass
class Memory:
    """What the autoplayer remembers from one turn to the next, as a person would: where it
    last saw the monster it went for (on which floor, until which turn it keeps looking)."""

    hunt: tuple[int, int, int] | None = None  # (floor, x, y)
    until: int = 0
    kind: str = ""
    #: the monster's id (a person knows the one they saw die)
    target: int = -1
    #: the cells it has had in view on this floor (a mapping scroll shows the map, not what
    #: stands and lies there: going to look is still getting somewhere)
    seen: np.ndarray | None = None
    floor: int = 0
    #: how it plays
    policy: Policy = FULL
    #: the cells it keeps out of on this floor (treasure rooms, for ``skip_treasure``)
    avoid: np.ndarray | None = None
    #: where it has searched for traps on this floor (traps come in rings round treasure)
    searched: set[tuple[int, int]] = field(default_factory=set)
    #: turns it has waited for each monster (by id) to come; past ``PATIENCE``, it goes about
    #: its business until that monster stands next to it
    waited: dict[int, int] = field(default_factory=dict)
    #: turns it has waited on these stairs for its allies to come beside it
    stair_wait: int = 0

    def observe(self, state: GameState) -> None:
        if (
            self.seen is None
            or self.floor != state.number
            or self.seen.shape != state.visible.shape
        ):
            self.seen, self.floor = state.visible.copy(), state.number
            self.searched = set()
            self.waited = {}
            self.avoid = treasure_cells(state) if self.policy.skip_treasure else None
        else:
            self.seen |= state.visible


def treasure_cells(state: GameState) -> np.ndarray:
    """The cells of the floor's treasure rooms (dead ends that hold no key: keeping out of
    them never shuts the way to a key or the stairs)."""
    fl = state.floor
    rooms = [r for r, role in fl.roles.items() if role in TREASURE_ROLES]
    return np.isin(fl.room_map, rooms)


@dataclass(frozen=True)
class Decision:
    """An action and, in a few words, why (watch mode shows it)."""

    action: Action
    why: str


def choose(state: GameState, memory: Memory | None = None) -> Action:
    """The next action for ``state``."""
    return decide(state, memory=memory).action


def decide(state: GameState, *, stepwise: bool = False, memory: Memory | None = None) -> Decision:
    """The next action for ``state`` and the reason for it. ``stepwise``: walks one step at a
    time, for people to watch (a rest stays whole: it changes nothing on the map but the HP,
    and resting only to 70% would send the player into the next fight hurt). ``memory``: what
    it saw on earlier turns (kept up to date here; None: it remembers nothing)."""
    memory = Memory() if memory is None else memory
    memory.observe(state)
    d = _decide(state, memory)
    avoid = memory.avoid
    # a monster it no longer waits for may still be one the engine's walks refuse to start
    # with in view (it can reach the player the long way round): a step at a time, then
    blocked = isinstance(d.action, (Explore, Travel, Rest)) and bool(travel_threats(state))
    if blocked and isinstance(d.action, Rest):
        return Decision(Wait(), d.why)  # a turn's rest the engine does not refuse
    walk_one = stepwise or avoid is not None or blocked or bool(state.confused)
    if walk_one and isinstance(d.action, (Explore, Travel)):
        # the engine's walks know nothing of what it keeps out of: one step of its own
        a = d.action
        if isinstance(a, Explore):
            one = _explore_step(state, avoid)
        else:
            one = _towards(state, a.x, a.y, avoid)
        return Decision(one or (a if avoid is None else Wait()), d.why)
    return d


def _gamble(state: GameState, memory: Memory, *, threats: bool) -> Decision | None:
    """Learning what the pack holds (off with ``no_unknown`` or ``no_items``): a known scroll
    of identification names an unknown kind; an unknown potion or scroll is tried when it is
    safe (full HP, no monster in view), or when desperate (a threat, low HP, nothing known to
    help), a potion first (more potions heal than scrolls save)."""
    policy = memory.policy
    unknown = unknown_in_pack(state)
    if policy.no_unknown or policy.no_items or not unknown:
        return None
    names = held_known(state, "identify")
    if names is not None and any(k != names for k in unknown) and not threats:
        choice = next(k for k in unknown if k != names)
        return Decision(Use(names, choice), "reading a scroll of identification")
    seen = bool(state.visible_monsters())
    if not seen and not threats and state.hp >= state.max_hp and not state.confused:
        return Decision(Use(unknown[0]), "trying an unknown item in safety")
    if threats and state.hp < DESPERATE * state.max_hp:
        potions = [k for k in unknown if ITEMS[k].verb == "quaff"]
        return Decision(Use((potions or unknown)[0]), "trying an unknown item in despair")
    return None


def _decide(state: GameState, memory: Memory) -> Decision:
    px, py = state.player
    threats = [m for m in threats_seen(state) if memory.waited.get(m.id, 0) <= PATIENCE]
    hurt = state.hp < DRINK_BELOW * state.max_hp
    avoid, items = memory.avoid, not memory.policy.no_items
    potion = held_known(state, "heal") if items else None
    scroll = held_known(state, "blink") if items else None
    if threats and hurt and potion:
        return Decision(Use(potion), "drinking a potion")
    if threats and hurt and scroll:
        return Decision(Use(scroll), "blinking away")
    gamble = _gamble(state, memory, threats=bool(threats))
    if gamble is not None:
        return gamble
    adjacent = [
        m
        for m in state.visible_monsters()
        if chebyshev(m.pos, state.player) == 1 and can_step_to(state, m.x, m.y)
    ]
    room = state.puzzles.get(state.player)
    if room is not None and not room.solved and not any(not m.fleeing for m in adjacent):
        # a puzzle costs one turn in the dungeon: solve it even with a shooter in view
        p = room.puzzle()
        plan = p.solve(p.initial()) or []
        return Decision(
            SolvePuzzle(tuple(p.move_to_json(m) for m in plan)), f"solving the {room.type} puzzle"
        )
    fury = held_known(state, "berserk") if items and not (state.berserk or state.weary) else None
    if adjacent:
        big = [m for m in adjacent if m.hp >= BIG_HP]
        if fury and (big or len(adjacent) >= 2):
            return Decision(Use(fury), "drinking a berserk potion")
        m = min(adjacent, key=lambda m: (m.fleeing, m.hp, m.id))
        for came in adjacent:  # it came after all: worth waiting for again
            memory.waited.pop(came.id, None)
        return Decision(Move(m.x - px, m.y - py), f"fighting {a_(m.kind)}")
    if threats:
        bomb = held_known(state, "bomb") if items else None
        aim = _aim(state, threats) if bomb else None
        if bomb and aim is not None:
            return Decision(Throw(bomb, *aim), "throwing a fire bomb")
        burn = held_known(state, "sacrifice") if items else None
        if burn and hurt and len(threats) >= 2 and state.max_hp > 3 * BIG_HP:
            return Decision(Use(burn), "reading a sacrifice scroll")
        # a step back does not take it out of a shooter's range: away from melee ones only;
        # and an invulnerable run never retreats: no blow can kill it, and a shooter that keeps
        # it at 1 HP would otherwise draw it back and forth for ever (the proof must not stall)
        melee_threats = [m for m in threats if not m.info.ranged]
        retreat = hurt and melee_threats and not memory.policy.invulnerable
        away = _away(state, melee_threats, avoid) if retreat else None
        if away is not None:  # no potion, no scroll: out of their reach, to rest
            return Decision(away, "retreating")
        target = threats[0]
        memory.hunt, memory.until = (state.number, target.x, target.y), state.turn + HUNT_TURNS
        memory.kind, memory.target = target.kind, target.id
        melee = not (target.info.ranged or target.guard or target.info.still)
        if melee and _can_come(state, target):
            memory.waited[target.id] = memory.waited.get(target.id, 0) + 1
            return Decision(Wait(), f"waiting for {a_(target.kind)}")  # the first blow is ours
        if melee and target.info.skirmish and chebyshev(target.pos, state.player) <= 3:
            # it darts back out of reach: chasing it is a mistake, it comes to us
            memory.waited[target.id] = memory.waited.get(target.id, 0) + 1
            return Decision(Wait(), f"standing its ground against {a_(target.kind)}")
        # no known way to it yet: look around (one step of exploring) and try again
        step_ = _towards(state, target.x, target.y, avoid) or _explore_step(state, avoid) or Wait()
        return Decision(step_, f"going for {a_(target.kind)}")
    if _trap_near(state) and state.player not in memory.searched:
        # where one trap was found, others may lie (a snare rings its treasure): look once
        memory.searched.add(state.player)
        return Decision(Search(), "searching for traps")
    if state.hp < REST_BELOW * state.max_hp:
        return Decision(Rest(), "resting")
    if memory.hunt is not None:  # it went out of sight: look where it was last seen
        floor, x, y = memory.hunt
        # monsters die by the player's hand only, in view: "gone" is a kill it saw
        alive = any(m.id == memory.target for m in state.monsters)
        towards = _towards(state, x, y, avoid) if alive and state.turn <= memory.until else None
        if floor == state.number and state.player != (x, y) and towards is not None:
            return Decision(towards, f"looking for the {memory.kind} it lost")
        memory.hunt = None
    fin = state.floor.finish
    stairs_known = fin is not None and bool(state.explored[fin[1], fin[0]])
    mapping = held_known(state, "map") if items else None
    if mapping and not stairs_known:
        return Decision(Use(mapping), "reading a mapping scroll")
    captive = _captive(state)
    if captive is not None:  # its guards first, then the shackles (an ally is no consumable)
        guards = [
            m for m in state.visible_monsters() if chebyshev(m.pos, captive.pos) <= GUARD_REACH
        ]
        goal = guards[0] if guards else captive
        towards = _towards(state, goal.x, goal.y, avoid)
        if towards is not None:
            why = f"going for the captive's guard, {a_(goal.kind)}" if guards else "freeing"
            return Decision(towards, why if guards else f"freeing the captive {goal.kind}")
    pick = None if memory.policy.skip_treasure else _treasure_pick(state)
    if pick is not None:
        if pick == state.player:
            return Decision(PickUp(), f"choosing {a_(state.items_lying[pick])}")
        others = np.zeros(state.tiles.shape, dtype=bool)
        for x, y in state.choices:
            others[y, x] = (x, y) != pick
        towards = _towards(state, *pick, others if avoid is None else avoid | others)
        if towards is not None:
            return Decision(towards, f"going for {a_(state.items_lying[pick])}")
    left = [r for r in state.puzzles.values() if r.visited and not r.solved]
    # a pedestal it was pulled away from (by a fight, or a scroll of teleport: then by a known
    # way only, else it explores on until it knows one)
    if left and _towards(state, left[0].x, left[0].y, avoid) is not None:
        return Decision(Travel(left[0].x, left[0].y), "going back to a puzzle")
    if _explore_step(state, avoid) is not None:
        return Decision(Explore(), "exploring")
    if fin is not None and stairs_known:
        if state.player == fin:
            behind = [
                m
                for m in state.allies
                if freed(m) and state.visible[m.y, m.x] and chebyshev(m.pos, fin) > 1
            ]
            if behind and not state.floor.last and memory.stair_wait < ALLY_WAIT:
                memory.stair_wait += 1  # an ally comes down only from beside the player
                return Decision(Wait(), f"waiting for its {behind[0].kind}")
            memory.stair_wait = 0
            return Decision(Descend(), "leaving" if state.floor.last else "going down")
        return Decision(
            Travel(*fin), f"heading for {'the exit' if state.floor.last else 'the stairs'}"
        )
    return Decision(Explore(), "exploring")


def _trap_near(state: GameState) -> bool:
    """A known trap lies within a search's reach."""
    return any(chebyshev(pos, state.player) <= SEARCH_RADIUS for pos in state.traps_known)


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


def can_step_to(state: GameState, x: int, y: int) -> bool:
    """Whether the player could attack (x, y) from where it stands (the corner rule)."""
    px, py = state.player
    return can_step(state, px, py, x - px, y - py)


def _first_step(state: GameState, dist: np.ndarray) -> Action | None:
    """The first step of a shortest way down ``dist`` from the player, if there is one."""
    px, py = state.player
    if dist[py, px] >= FAR:
        return None
    steps = downhill(dist, dist < FAR, px, py)
    return Move(*steps[0]) if steps else None


def _aim(state: GameState, threats: list[Monster]) -> tuple[int, int] | None:
    """Where to throw a bomb: the threat whose burst burns the most threats (two, or one big
    one), never one that would burst next to the player itself; None: keep the bomb."""
    best: tuple[int, int, int, int] | None = None
    for m in threats:
        path = flight(state, m.x, m.y)
        if not path or chebyshev(path[-1], state.player) < 2:
            continue
        if chebyshev(m.pos, state.player) > THROW_RANGE:
            continue
        burnt = [t for t in threats if chebyshev(t.pos, path[-1]) <= 1]
        worth = len(burnt) >= 2 or any(t.hp >= BIG_HP for t in burnt)
        if worth and (best is None or len(burnt) > best[0]):
            best = (len(burnt), m.id, m.x, m.y)
    return None if best is None else (best[2], best[3])


def _captive(state: GameState) -> Monster | None:
    """The nearest shackled captive it has seen (a captive never moves), if any."""
    seen = [m for m in state.allies if not freed(m) and state.explored[m.y, m.x]]
    return min(seen, key=lambda m: (chebyshev(m.pos, state.player), m.id), default=None)


def _treasure_pick(state: GameState) -> tuple[int, int] | None:
    """The upgrade it keeps of the first treasure choice it has seen, by
    :data:`TREASURE_PREFERENCE`."""
    groups: dict[int, list[tuple[int, int]]] = {}
    for pos, g in state.choices.items():
        if state.explored[pos[1], pos[0]] and pos in state.items_lying:
            groups.setdefault(g, []).append(pos)
    for g in sorted(groups):
        rank = {name: i for i, name in enumerate(TREASURE_PREFERENCE)}
        cells = sorted(groups[g], key=lambda p: (rank.get(state.items_lying[p], 99), p))
        return cells[0]
    return None


def _towards(state: GameState, x: int, y: int, avoid: np.ndarray | None = None) -> Action | None:
    return _first_step(state, travel_distances(state, x, y, avoid))


def progress(state: GameState, memory: Memory | None = None) -> tuple[int, ...]:
    """What changes when a run goes somewhere: a run is stuck when it stops changing."""
    stats = state.stats
    seen = memory.seen if memory is not None and memory.floor == state.number else None
    return (
        state.number,
        int(state.explored.sum()),
        0 if seen is None else int(seen.sum()),
        state.max_hp,
        stats.kills,
        stats.keys,
        stats.puzzles_solved,
        sum(state.inventory.values()),
        len(state.monsters),
        sum(m.extra.get(SHACKLED, -1) for m in state.allies),
    )


def _explore_step(state: GameState, avoid: np.ndarray | None = None) -> Action | None:
    """One step towards the nearest unexplored place (outside ``avoid``), even with a monster
    in view."""
    return _first_step(state, explore_distances(state, avoid))


class Autopilot:
    """The autoplayer turn after turn: :func:`play` and watch mode share it. It keeps the
    :class:`Memory`, lets a turn pass after a few refused actions in a row (``IDLE_WAIT``), and
    tells when a run is stuck: more than ``STUCK_AFTER`` refused actions in a row, or
    ``STALL_TURNS`` turns without :func:`progress`."""

    def __init__(self, state: GameState, *, stepwise: bool = False, policy: Policy = FULL) -> None:
        self.stepwise = stepwise
        self.memory = Memory(policy=policy)
        self.memory.observe(state)
        self.idle = 0
        self._wait_next = False
        self._forced = False
        self._last, self._since = progress(state, self.memory), state.turn

    def decide(self, state: GameState) -> Decision:
        """The next action (a wait, between refused tries)."""
        self._forced, self._wait_next = self._wait_next, False
        if self._forced:
            return Decision(Wait(), "waiting a turn")
        return decide(state, stepwise=self.stepwise, memory=self.memory)

    def acted(self, spent: bool) -> None:
        """The action :meth:`decide` gave was played; ``spent``: it took a turn (or a floor)."""
        if self._forced:
            return
        self.idle = 0 if spent else self.idle + 1
        self._wait_next = self.idle > IDLE_WAIT

    def stuck(self, state: GameState) -> bool:
        """Whether the run is stuck (asked before each action)."""
        self.memory.observe(state)  # where a walk ended: new ground in view is getting somewhere
        now = progress(state, self.memory)
        if now != self._last:
            self._last, self._since = now, state.turn
        return self.idle > STUCK_AFTER or state.turn - self._since > STALL_TURNS


def play(
    state: GameState,
    *,
    limit: int = TURN_LIMIT,
    recording: Recording | None = None,
    policy: Policy = FULL,
) -> Result:
    """Play ``state`` to its end (or until ``limit`` actions) as ``policy`` says, adding every
    action to ``recording`` if one is given (an invulnerable run cannot be recorded: no player
    could play it)."""
    if policy.invulnerable and recording is not None:
        raise ValueError("an invulnerable run is a measurement, not a run to record")
    state.invulnerable = policy.invulnerable
    start = time.perf_counter()
    pilot = Autopilot(state, policy=policy)
    lowest, used = 1.0, 0
    arrivals, threats = [arrival(state)], [threat(state)]
    for _ in range(limit):
        if state.over or pilot.stuck(state):
            break
        before = (state.turn, state.number)
        action = pilot.decide(state).action
        step(state, action)
        if recording is not None:
            recording.add(action, state)
        lowest = min(lowest, state.hp / state.max_hp)
        spent = (state.turn, state.number) != before
        used += isinstance(action, Use | Throw) and spent
        if state.number != before[1] and not state.over:
            arrivals.append(arrival(state))
            threats.append(threat(state))
        pilot.acted(spent)
    cause = state.stats.cause or f"stuck on floor {state.number}"
    return Result(
        state.seed,
        state.won,
        state.stats.floors_reached,
        state.turn,
        cause,
        time.perf_counter() - start,
        lowest,
        died_on=state.number if state.dead else None,
        items_used=used,
        items_left=sum(state.inventory.values()),
        spared=state.spared,
        arrivals=tuple(arrivals),
        monsters=tuple(threats),
        difficulty=state.difficulty,
    )


def play_seed(
    seed: int,
    preset: str = "normal",
    policy: Policy = FULL,
    difficulty: str = DEFAULT_DIFFICULTY,
) -> Result:
    return play(new_game(seed, preset=preset, difficulty=difficulty), policy=policy)


def bot_seeds(count: int) -> list[int]:
    """The worlds of ``roguelike bot --seeds N`` and of the bench: the texts ``bot-1`` …"""
    return [seeds.text_seed(f"bot-{i}") for i in range(1, count + 1)]


def _play_job(job: tuple[int, str, Policy, str]) -> Result:
    return play_seed(*job)


def play_many(
    worlds: list[int],
    preset: str = "normal",
    jobs: int = 0,
    policy: Policy = FULL,
    difficulty: str = DEFAULT_DIFFICULTY,
) -> list[Result]:
    """Play every world of ``worlds`` (seeds) at ``difficulty`` in ``jobs`` processes (0:
    one per core), in order. Each world is a pure function of its seed, so the processes
    change nothing but the time taken."""
    todo = [(seed, preset, policy, difficulty) for seed in worlds]
    workers = min(jobs or os.cpu_count() or 1, len(todo))
    if workers <= 1:
        return [_play_job(j) for j in todo]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(_play_job, todo))


def summary(results: list[Result]) -> dict[str, Any]:
    """What ``bot --seeds N`` reports of ``results``: the win rate, the deaths by floor (and
    the largest share one floor holds), how close the runs came to death, and the
    consumables used (in every run, and in the won ones), as a JSON-ready dict."""
    n = len(results)
    won = [r for r in results if r.won]
    died = [r.died_on for r in results if r.died_on is not None]
    by_floor = {str(f): died.count(f) for f in sorted(set(died))}
    low = [r.lowest_hp for r in results]

    def median(values: list[float] | list[int]) -> float | None:
        return None if not values else round(float(np.median(values)), 3)

    return {
        "worlds": n,
        "won": len(won),
        "win_rate": round(len(won) / n, 3) if n else None,
        "deaths": len(died),
        "stuck": sum(r.cause.startswith("stuck") for r in results),
        "deaths_by_floor": by_floor,
        "largest_floor_share": round(max(by_floor.values()) / len(died), 3) if died else None,
        "lowest_hp_p50": median(low),
        "lowest_hp_min": round(min(low), 3) if low else None,
        "items_used_p50": median([r.items_used for r in results]),
        "items_used_won_p50": median([r.items_used for r in won]),
        "items_left_p50": median([r.items_left for r in results]),
        "spared_blows": sum(r.spared for r in results),
    }


def power_curves(results: list[Result]) -> list[dict[str, Any]]:
    """The player's power against the monsters' strength, floor by floor, over ``results``:
    on arriving at each floor, the median maximum HP, the mean of the damage roll's mean and
    the mean defence of the runs that reached it; beside them the mean maximum HP and the mean
    expected damage a turn of the monsters placed there (see :func:`threat`). A run that
    died early weighs only on the floors it reached."""
    floors = sorted({f for r in results for f, *_ in r.arrivals})
    out: list[dict[str, Any]] = []
    for floor in floors:
        mine = [a for r in results for a in r.arrivals if a[0] == floor]
        theirs = [t for r in results for t in r.monsters if t[0] == floor and t[1] > 0]
        out.append(
            {
                "floor": floor,
                "runs": len(mine),
                "hp_p50": float(np.median([a[1] for a in mine])),
                "attack_mean": round(float(np.mean([a[2] for a in mine])), 2),
                "defence_mean": round(float(np.mean([a[3] for a in mine])), 2),
                "monsters_mean": round(float(np.mean([t[1] for t in theirs])), 1)
                if theirs
                else 0.0,
                "monster_hp_mean": round(float(np.mean([t[2] for t in theirs])), 2)
                if theirs
                else 0.0,
                "monster_dpt_mean": round(float(np.mean([t[3] for t in theirs])), 3)
                if theirs
                else 0.0,
            }
        )
    return out
