"""The autoplayer: it plays through the same actions as a person and sees only what a
person sees (the field of view, the explored map, what lies or stands there, the messages).
A test redraws everything a person has not seen and checks it decides the same.

Its policy, turn by turn (:func:`decide`, which also says why):

1. low with a monster coming: drink a potion, else read a blink scroll, else step away;
   standing in fire (or on moss beside it, or by marsh gas near it): step out of it;
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
every world let a player find the keys, solve the puzzles and take every stair?), and
ablations that show what a part of the game is worth to survival: ``no_items`` (it never uses
a consumable), ``skip_treasure`` (it never sets foot in a treasure room; it walks step by
step around them, so it reads the floor's room roles, which a person would learn by looking),
``ignore_fire`` (it never steps out of fire nor aims a bomb at moss or gas for the fire),
``first_perk`` (it takes the first perk offered, not the one it prefers) and ``no_sneak`` (it
takes sleepers for awake monsters: it goes for each as for a threat, and next to one that has
not noticed it waits until it does, so it never lands a sneak attack nor keeps clear of a
sleeping group).

Sneaking (:func:`_sneak`), for the full autoplayer: with no threat in view, it creeps up on a
sleeping (or unaware) monster in view whose group (the sleepers within ``GROUP_REACH`` of it)
is worth it (:func:`_worth_sneaking`: at most two, each an easy kill or a fair fight) for the
sure triple blow; a group not worth it is kept clear of while exploring (``QUIET_RADIUS``),
unless no other way is left.

Growing: a perk on offer is taken at once (:data:`PERK_PREFERENCE`); with no monster in view
it wears the best wearable of its pack (a heavy plate too, when the defence is worth the
slowness against :data:`TYPICAL_BLOW`) and takes off a plate corroded down to its cost.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from roguelike import seeds, tiles
from roguelike.engine import (
    Action,
    ChoosePerk,
    Descend,
    Explore,
    Move,
    PickUp,
    Rest,
    Search,
    SolvePuzzle,
    TakeOff,
    Throw,
    Travel,
    Use,
    Wait,
    Wear,
    new_game,
    step,
)
from roguelike.engine.allies import freed
from roguelike.engine.balance import DEFAULT_DIFFICULTY, SEARCH_RADIUS, THROW_RANGE
from roguelike.engine.creatures import ITEMS, SHACKLED, Monster, monster_attack
from roguelike.engine.describe import a as a_
from roguelike.engine.describe import monster_numbers
from roguelike.engine.fire import FUEL
from roguelike.engine.gas import cloud
from roguelike.engine.gear import SLOTS, bonus, worn
from roguelike.engine.grid import DIRS8, can_step, chebyshev
from roguelike.engine.identify import unknown_in_pack
from roguelike.engine.items import flight, held_known
from roguelike.engine.monsters import SCENT_RANGE
from roguelike.engine.pathing import FAR, distance_map, downhill
from roguelike.engine.perks import perk_count
from roguelike.engine.state import GameState
from roguelike.engine.stealth import notice_chance, sneaky
from roguelike.engine.travel import (
    explore_distances,
    explore_refusal,
    known_passable,
    travel_distances,
)
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
#: How much it wants each perk (the best of the offer is taken), and how much less for each
#: time it has taken it already.
PERK_PREFERENCE = {
    "toughness": 5.0,
    "thick skin": 4.5,
    "accuracy": 4.0,
    "regeneration": 3.5,
    "bomb craft": 2.0,
    "stealth": 1.5,
    "identify by touch": 1.5,
    "keen eyes": 1.0,
}
PERK_REPEAT = 1.0
#: The blow it weighs armour against (a typical monster's mean damage): each point of defence
#: takes one off it, each point of slowness gives the monsters more of their turns.
TYPICAL_BLOW = 6.0
#: Turns it waits in all for one monster to come (or stands its ground against it) before it
#: gives up on that one until it comes next to it: a monster that cannot reach the player
#: (across a chasm, say) must not hold it still for ever.
PATIENCE = 12
#: Below this share of its HP, with a threat in view and nothing known to help, it gambles on
#: an unknown potion or scroll.
DESPERATE = 0.3
#: A monster with at least this many HP is worth a bomb on its own (or a berserk potion).
BIG_HP = 14
#: Sleepers within this many cells (Chebyshev) of each other are one group, woken together.
GROUP_REACH = 3
#: How near (Chebyshev) a sleeping group not worth a fight it walks while exploring.
QUIET_RADIUS = 3


@dataclass(frozen=True)
class Policy:
    """How the autoplayer plays: the measuring switches (see the module's docstring)."""

    invulnerable: bool = False
    no_items: bool = False
    skip_treasure: bool = False
    no_sneak: bool = False
    #: it pays fire no heed: it never steps out of the flames nor aims a bomb at moss
    ignore_fire: bool = False
    #: it ignores the ways of the monsters whose answer is not a corridor: it stands in a
    #: breather's line and keeps its fire for the usual targets, not the ghosts
    naive_monsters: bool = False
    #: it takes the first perk offered at each level up, whatever it is
    first_perk: bool = False

    #: never drink or read an unknown potion or scroll (the gamble of identification, off)
    no_unknown: bool = False

    def describe(self) -> str:
        """The switches as the command line writes them ("" for the full autoplayer)."""
        names = (
            "invulnerable",
            "no_items",
            "skip_treasure",
            "no_sneak",
            "ignore_fire",
            "naive_monsters",
            "first_perk",
            "no_unknown",
        )
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
    #: the sleepers it has seen on this floor and not seen awake since (id → a copy of the
    #: monster as last seen): they do not move, so it keeps clear of them out of view too
    dozing: dict[int, Monster] = field(default_factory=dict)

    def observe(self, state: GameState) -> None:
        if (
            self.seen is None
            or self.floor != state.number
            or self.seen.shape != state.visible.shape
        ):
            self.seen, self.floor = state.visible.copy(), state.number
            self.searched = set()
            self.waited = {}
            self.dozing = {}
            self.avoid = treasure_cells(state) if self.policy.skip_treasure else None
        else:
            self.seen |= state.visible
        for m in state.visible_monsters():
            if m.awake:
                self.dozing.pop(m.id, None)
            else:
                self.dozing[m.id] = replace(m, extra=dict(m.extra))
        for mid, m in list(self.dozing.items()):  # seen gone (killed, or moved off)
            if state.visible[m.y, m.x] and state.monster_at(m.x, m.y) is None:
                del self.dozing[mid]


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
    blocked = _engine_refuses(state, d.action)
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


def _engine_refuses(state: GameState, action: Action) -> bool:
    """Whether the engine's walk ``action`` would not start: a rest or a travel with a threat
    in view; an explore with a monster pressing, or with every place left in a known danger
    (the engine's explore keeps out of a guard's reach, which the autoplayer walks into to
    fight it: it goes a step at a time, then)."""
    if isinstance(action, Explore):
        return explore_refusal(state) is not None
    return isinstance(action, (Travel, Rest)) and bool(travel_threats(state))


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
    if state.perk_offer:  # a choice that spends no turn: made at once
        return _perk_choice(state, memory.policy)
    seen = [m for m in _threats(state, memory) if memory.waited.get(m.id, 0) <= PATIENCE]
    # blows pass through a ghost (and so does the player): never a target of blows
    threats = [m for m in seen if not m.info.ethereal]
    gear = None if threats else _gear_change(state)
    if gear is not None:
        return gear
    hurt = state.hp < DRINK_BELOW * state.max_hp
    avoid, items = memory.avoid, not memory.policy.no_items
    potion = held_known(state, "heal") if items else None
    scroll = held_known(state, "blink") if items else None
    if seen and hurt and potion:
        return Decision(Use(potion), "drinking a potion")
    if seen and hurt and scroll:
        return Decision(Use(scroll), "blinking away")
    escape = None if memory.policy.ignore_fire else _fire_escape(state)
    if escape is not None:
        return Decision(escape, "getting out of the fire")
    fire = _fire_at_ghost(state, memory, seen)
    if fire is not None:
        return fire
    gamble = _gamble(state, memory, threats=bool(threats))
    if gamble is not None:
        return gamble
    adjacent = [
        m
        for m in state.visible_monsters()
        if chebyshev(m.pos, state.player) == 1
        and can_step_to(state, m.x, m.y)
        and not m.info.ethereal
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
        loud = _loud_wait(state, memory, adjacent)
        if loud is not None:
            return loud
        return Decision(Move(m.x - px, m.y - py), f"fighting {a_(m.kind)}")
    dodge = _off_breath(state, memory)
    if dodge is not None:
        return dodge
    if threats:
        bomb = held_known(state, "bomb") if items else None
        aim = _aim(state, threats, fire=not memory.policy.ignore_fire) if bomb else None
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
    # a ghost in view would come and strike a resting player: walk on, it is slow
    if state.hp < REST_BELOW * state.max_hp and not any(m.info.ethereal for m in seen):
        return Decision(Rest(), "resting")
    sneak = None if memory.policy.no_sneak else _sneak(state, memory)
    if sneak is not None:
        return sneak
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
        guards = [  # a ghost is no guard to fight: blows pass through it
            m
            for m in state.visible_monsters()
            if chebyshev(m.pos, captive.pos) <= GUARD_REACH and not m.info.ethereal
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
        quiet = None if memory.policy.no_sneak else _quiet_step(state, memory)
        return Decision(quiet or Explore(), "exploring")
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


def _threats(state: GameState, memory: Memory) -> list[Monster]:
    """The threats it answers: those in view (:func:`threats_seen`), and without sneaking
    (``no_sneak``) the sleepers and unaware ones it can reach too, nearest first."""
    seen = threats_seen(state)
    if not memory.policy.no_sneak:
        return seen
    known = tiles.WALKABLE[state.tiles] | ~state.explored
    dist = distance_map(known, [state.player], SCENT_RANGE)
    asleep = [
        m
        for m in state.visible_monsters()
        if sneaky(m) and not m.fleeing and dist[m.y, m.x] < FAR and m not in seen
    ]
    return sorted(seen + asleep, key=lambda m: (chebyshev(m.pos, state.player), m.id))


def _loud_wait(state: GameState, memory: Memory, adjacent: list[Monster]) -> Decision | None:
    """Without sneaking (``no_sneak``): next to monsters that have all not noticed it, it
    waits until one does (never a sneak attack), unless none ever could where it stands."""
    if not memory.policy.no_sneak or not all(sneaky(m) for m in adjacent):
        return None
    if max(notice_chance(state, m) for m in adjacent) <= 0:
        return None
    return Decision(Wait(), f"waiting for the {adjacent[0].kind} to notice it")


def _groups(state: GameState, sleepers: list[Monster]) -> list[list[Monster]]:
    """``sleepers`` in groups: each within ``GROUP_REACH`` of another of its group."""
    groups: list[list[Monster]] = []
    for m in sleepers:
        near = [g for g in groups if any(chebyshev(m.pos, o.pos) <= GROUP_REACH for o in g)]
        merged = [m] + [o for g in near for o in g]
        groups = [g for g in groups if g not in near] + [merged]
    return groups


def _worth_sneaking(state: GameState, group: list[Monster]) -> bool:
    """Whether a sleeping group is worth waking with a sneak attack: at most two, each an
    easy kill or a fair fight (look's numbers, before the sure triple blow)."""
    if len(group) > 2:
        return False
    return all(monster_numbers(state, m).danger in ("an easy kill", "a fair fight") for m in group)


def _sneak(state: GameState, memory: Memory) -> Decision | None:
    """A step towards the nearest sleeping or unaware monster in view whose group is worth
    a sneak attack (the blow itself is the adjacent fight's), if it knows a way. It goes on
    for it out of view as for a monster it lost (its :class:`Memory`'s hunt), so a sleeper
    that comes in and out of view as it walks does not turn it back and forth."""
    avoid = memory.avoid
    sleepers = [m for m in state.visible_monsters() if sneaky(m) and not m.info.still]
    for group in _groups(state, sleepers):
        if not _worth_sneaking(state, group):
            continue
        m = min(group, key=lambda m: (chebyshev(m.pos, state.player), m.id))
        step_ = _towards(state, m.x, m.y, avoid)
        if step_ is not None:
            memory.hunt, memory.until = (state.number, m.x, m.y), state.turn + HUNT_TURNS
            memory.kind, memory.target = m.kind, m.id
            return Decision(step_, f"sneaking up on the sleeping {m.kind}")
    return None


def _quiet_step(state: GameState, memory: Memory) -> Action | None:
    """One step of exploring that keeps ``QUIET_RADIUS`` clear of the sleeping groups not
    worth waking it remembers on this floor; None with none, or with no such way (then the
    engine's explore goes the plain way)."""
    dozing = list(memory.dozing.values())
    if not dozing:
        return None
    loud = [g for g in _groups(state, dozing) if not _worth_sneaking(state, g)]
    if not loud:
        return None
    quiet = np.zeros(state.tiles.shape, dtype=bool)
    for g in loud:
        for m in g:
            y0, x0 = max(0, m.y - QUIET_RADIUS), max(0, m.x - QUIET_RADIUS)
            quiet[y0 : m.y + QUIET_RADIUS + 1, x0 : m.x + QUIET_RADIUS + 1] = True
    px, py = state.player
    quiet[py, px] = False
    avoid = quiet if memory.avoid is None else quiet | memory.avoid
    return _explore_step(state, avoid)


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
            return Decision(Throw(bomb, g.x, g.y), f"throwing a fire bomb at the {g.kind}")
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
    breathers = [m for m in state.visible_monsters() if m.info.breath and m.awake]
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
    return Decision(Move(best[1], best[2]), "keeping off the breath's line")


def _perk_choice(state: GameState, policy: Policy) -> Decision:
    """The perk it takes of the offer: the first one (``first_perk``), else the best by
    :data:`PERK_PREFERENCE`, each one taken before counting for less."""
    if policy.first_perk:
        return Decision(ChoosePerk(0), f"taking the perk {state.perk_offer[0]}")
    scores = [
        PERK_PREFERENCE.get(name, 0.0) - PERK_REPEAT * perk_count(state, name)
        for name in state.perk_offer
    ]
    best = max(range(len(scores)), key=lambda i: (scores[i], -i))
    return Decision(ChoosePerk(best), f"taking the perk {state.perk_offer[best]}")


def _gear_score(state: GameState, slot: str, item: str | None, enchant: int = 0) -> float:
    """How good wearing ``item`` (None: nothing) in ``slot`` is, higher better: for a weapon
    the expected damage of a blow; for armour, less of a typical blow (``TYPICAL_BLOW``) taken
    per player turn, the slowness counted as the monsters' extra turns."""
    info = ITEMS[item] if item is not None else None
    amount = max(0, info.amount + enchant) if info is not None else 0
    worn_item = worn(state, slot)
    if slot == "weapon":
        lo, hi = state.attack
        if worn_item is not None:  # the numbers without what is wielded now
            lo, hi = lo - bonus(state, worn_item), hi - bonus(state, worn_item)
            hit = state.accuracy + ITEMS[worn_item].clumsy
        else:
            hit = state.accuracy
        if info is not None:
            hit -= info.clumsy
        return max(5, hit) / 100 * ((lo + hi) / 2 + amount)
    speed = state.speed + (ITEMS[worn_item].slow if worn_item is not None else 0)
    if info is not None:
        speed -= info.slow
    return -max(1.0, TYPICAL_BLOW - amount) * 100 / max(1, speed)


def _gear_change(state: GameState) -> Decision | None:
    """Wear a better item from the pack, or take off one worse than nothing (a plate corroded
    down to its cost); None when what is worn is the best it has."""
    for slot in SLOTS:
        now = worn(state, slot)
        best_score = _gear_score(state, slot, now, state.equipment.get(now, 0) if now else 0)
        best: str | None = now
        for item in sorted(state.inventory):
            if ITEMS[item].slot == slot and _gear_score(state, slot, item) > best_score + 1e-9:
                best, best_score = item, _gear_score(state, slot, item)
        if now is not None and best == now and _gear_score(state, slot, None) > best_score + 1e-9:
            return Decision(TakeOff(slot), f"taking off its {now}")
        if best is not None and best != now:
            return Decision(Wear(best), f"putting on {a_(best)}")
    return None


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


# --- fire ----------------------------------------------------------------------------------


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
        "floors_2_3_share": (
            round((by_floor.get("2", 0) + by_floor.get("3", 0)) / len(died), 3) if died else None
        ),
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
