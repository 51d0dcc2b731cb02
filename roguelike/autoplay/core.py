"""The autoplayer's turn and its runs.

Its policy, turn by turn (:func:`decide`, which also says why):

1. low with a monster coming: drink a potion, else read a blink scroll, else step away;
   standing in fire (or on moss beside it, or by marsh gas near it): step out of it;
2. on an unsolved puzzle pedestal, solve it with the puzzle's own solver (one turn in the
   dungeon, however long the puzzle), unless a monster stands next to it;
3. strike an adjacent monster it can reach past the corners (the weakest, fleeing last),
   first drinking a berserk potion against a big one or two at once;
4. with monsters coming: a fire bomb thrown where its burst burns two or a big one and never
   itself (:func:`roguelike.autoplay.fire._aim`), a sacrifice scroll when hurt among several;
   wait for a melee monster that can step next to it (the first blow is ours), or a
   skirmisher close by (it darts back out of reach: chasing it is a mistake), else go for it;
5. search once where a known trap lies within reach (traps ring treasure); rest when hurt
   and alone; look where it last saw the monster it went for (its
   :class:`~roguelike.autoplay.policy.Memory`); read a mapping scroll on a floor whose stairs
   it has not seen;
6. free a captive it has seen (its guards in view first: walking up to each), bumping it
   till its shackles fall; take one upgrade of a treasure's choice it has seen, by
   :data:`roguelike.autoplay.kit.TREASURE_PREFERENCE` (stepping round the others); go back to
   a pedestal a fight pulled it away from; explore (the engine's walk takes keys, items and
   pedestals on its way and unlocks doors whose key it holds);
7. with nothing left to explore, travel to the stairs (or the exit) and take them (waiting a
   few turns there for an ally in view to come beside it).

Sneaking, fire, the breathers and ghosts, and what it carries each have their module; this
one weighs them in order (:func:`_decide`). :class:`Autopilot` plays it turn after turn
(watch mode and :func:`play` share it); :func:`play` runs it to the end of a world.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from roguelike.autoplay.fire import _aim, _fire_escape, _incinerate, _off_moss, hot_cells
from roguelike.autoplay.kit import _gamble, _gear_change, _perk_choice, _treasure_pick
from roguelike.autoplay.monsters import _fire_at_ghost, _off_breath, breath_mask
from roguelike.autoplay.moves import (
    _away,
    _can_come,
    _explore_step,
    _towards,
    _trap_near,
    can_step_to,
)
from roguelike.autoplay.policy import BIG_HP, FULL, HUNT_TURNS, PATIENCE, Decision, Memory, Policy
from roguelike.autoplay.sneak import _in_the_way, _loud_wait, _quiet_step, _sneak, _threats
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
from roguelike.engine.balance import DEFAULT_DIFFICULTY
from roguelike.engine.creatures import SHACKLED, Monster, monster_attack, shown_name
from roguelike.engine.describe import a as a_
from roguelike.engine.grid import chebyshev
from roguelike.engine.items import held_known
from roguelike.engine.state import GameState
from roguelike.engine.travel import danger_mask, dangers, explore_refusal
from roguelike.engine.travel import threats as travel_threats
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
#: which a run is abandoned as stuck. Walking across known ground changes none of them: on a
#: wide floor, exploring the far end and then walking the length of the floor back to the
#: stairs took 401 (golden world 8-YK2R-TYRD-ZG46, floor 4, "stuck" while on its way).
STALL_TURNS = 800
#: Turns it waits on the stairs for an ally in view to come beside it (it follows, but keeps
#: a step or two away), before it goes down without it.
ALLY_WAIT = 4
#: How near a captive (Chebyshev) a monster in view counts as its guard, dealt with first.
GUARD_REACH = 3


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
    #: the puzzle pedestals of each floor it reached: (floor, type, a vault's seal or not)
    pedestals: tuple[tuple[int, str, bool], ...] = ()
    #: the score of each puzzle it solved (0..100), in order
    puzzle_scores: tuple[int, ...] = ()
    kills: int = 0


def arrival(state: GameState) -> tuple[int, int, float, int]:
    """The player's power as it enters the current floor (see :attr:`Result.arrivals`)."""
    lo, hi = state.attack
    return (state.number, state.max_hp, (lo + hi) / 2, state.defence)


def pedestals(state: GameState) -> list[tuple[int, str, bool]]:
    """The puzzle pedestals of the current floor (see :attr:`Result.pedestals`)."""
    seals = {v.key for v in state.floor.vaults}
    return [(state.number, p.type, p.key in seals) for p in state.puzzles.values()]


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
    # the engine's walks step round the fire in view, no more: one who pays it no mind goes its
    # own way through it, one who heeds it keeps off the moss that may catch too
    in_view = any(state.visible[y, x] for x, y in state.fire)
    fire_blind = not memory.heed_fire and in_view
    walk_one = stepwise or avoid is not None or blocked or bool(state.confused) or fire_blind
    hot = hot_cells(state) if memory.heed_fire and in_view else None
    if hot is not None and isinstance(d.action, (Explore, Travel)):
        one = _wary_step(state, d.action, _joined(avoid, hot))
        if one is not None:
            return Decision(one, d.why)
    if walk_one and isinstance(d.action, (Explore, Travel)):
        # the engine's walks know nothing of what it keeps out of: one step of its own
        a = d.action
        if isinstance(a, Explore):
            # stepping for the engine's explore only to walk through fire: as wary as it is
            wary = fire_blind and not (stepwise or blocked or avoid is not None)
            danger = danger_mask(dangers(state), state.tiles.shape) if wary else None
            one = _explore_step(state, avoid, heed_fire=memory.heed_fire, danger=danger)
        else:
            one = _towards(state, a.x, a.y, avoid, heed_fire=memory.heed_fire)
        return Decision(one or (a if avoid is None else Wait()), d.why)
    return d


def _wary_step(
    state: GameState, action: Explore | Travel, avoid: np.ndarray | None
) -> Action | None:
    """One step of the walk ``action`` that keeps out of ``avoid`` (and of the dangers the
    engine's explore keeps out of); None: no such step."""
    if isinstance(action, Explore):
        danger = danger_mask(dangers(state), state.tiles.shape)
        return _explore_step(state, avoid, danger=danger)
    return _towards(state, action.x, action.y, avoid)


def _engine_refuses(state: GameState, action: Action) -> bool:
    """Whether the engine's walk ``action`` would not start: a rest or a travel with a threat
    in view; an explore with a monster pressing, or with every place left in a known danger
    (the engine's explore keeps out of a guard's reach, which the autoplayer walks into to
    fight it: it goes a step at a time, then)."""
    if isinstance(action, Explore):
        return explore_refusal(state) is not None
    return isinstance(action, (Travel, Rest)) and bool(travel_threats(state))


def _joined(avoid: np.ndarray | None, more: np.ndarray | None) -> np.ndarray | None:
    """The cells of both masks (either may be None: none)."""
    if more is None:
        return avoid
    return more if avoid is None else avoid | more


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
        flames = _incinerate(state, adjacent) if items and memory.heed_fire else None
        if flames is not None:
            return Decision(flames, "opening an incineration potion among its foes")
        m = min(adjacent, key=lambda m: (m.fleeing, m.hp, m.id))
        for came in adjacent:  # it came after all: worth waiting for again
            memory.waited.pop(came.id, None)
        loud = _loud_wait(state, memory, adjacent)
        if loud is not None:
            return loud
        return Decision(Move(m.x - px, m.y - py), f"fighting {a_(shown_name(state, m))}")
    dodge = _off_breath(state, memory) if memory.heed_fire else None
    if dodge is not None:
        return dodge
    off = _off_moss(state, threats, _joined(avoid, breath_mask(state, memory)))
    if off is not None and memory.heed_fire:
        return Decision(off, "stepping off the moss")
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
        # nor from one that never moves (a shrieker cannot follow)
        melee_threats = [m for m in threats if not m.info.ranged and not m.info.still]
        invulnerable = memory.policy.invulnerable or state.invulnerable
        retreat = hurt and melee_threats and not invulnerable
        lined = breath_mask(state, memory) if memory.heed_fire else None
        away = _away(state, melee_threats, _joined(avoid, lined)) if retreat else None
        if away is not None:  # no potion, no scroll: out of their reach, to rest
            return Decision(away, "retreating")
        target = threats[0]
        memory.hunt, memory.until = (state.number, target.x, target.y), state.turn + HUNT_TURNS
        memory.kind, memory.target = shown_name(state, target), target.id  # its name, as seen
        # a breather keeps its distance and breathes along its lines: never waited for (bench
        # world 8-J6K2-XPJM-WYRX: the bot waited for a fire drake two cells off, gave it up
        # and rested on its line for 400 turns, or died of it)
        melee = not (target.info.ranged or target.info.breath or target.guard or target.info.still)
        if melee and _can_come(state, target):
            memory.waited[target.id] = memory.waited.get(target.id, 0) + 1
            # the first blow is ours
            return Decision(Wait(), f"waiting for {a_(memory.kind)}")
        if melee and target.info.skirmish and chebyshev(target.pos, state.player) <= 3:
            # it darts back out of reach: chasing it is a mistake, it comes to us
            memory.waited[target.id] = memory.waited.get(target.id, 0) + 1
            return Decision(Wait(), f"standing its ground against {a_(memory.kind)}")
        dodging = memory.dodged.get(target.id, 0) <= PATIENCE
        if lined is not None and target.info.breath and dodging:
            # the way to a breather keeps off its lines; none: straight at it (waiting, it
            # would be given up and breathe on the player for ever)
            off = _towards(
                state, target.x, target.y, _joined(avoid, lined), heed_fire=memory.heed_fire
            )
            if off is not None:
                # each detour counts as a dodge: a breather whose lines the way keeps crossing
                # (out of sight one step, back in sight the next) is gone for straight in the
                # end, never circled for ever
                memory.dodged[target.id] = memory.dodged.get(target.id, 0) + 1
                return Decision(off, f"going for {a_(memory.kind)} off its lines")
        # no known way to it yet: look around (one step of exploring) and try again
        step_ = _towards(state, target.x, target.y, avoid, heed_fire=memory.heed_fire)
        if step_ is None and target.info.breath:
            # its breath lights the moss between: through the flames, or it breathes for ever
            step_ = _towards(state, target.x, target.y, avoid, heed_fire=False)
        step_ = step_ or _explore_step(state, avoid, heed_fire=memory.heed_fire) or Wait()
        return Decision(step_, f"going for {a_(memory.kind)}")
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
        towards = (
            _towards(state, x, y, avoid, heed_fire=memory.heed_fire)
            if alive and state.turn <= memory.until
            else None
        )
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
        towards = _towards(state, goal.x, goal.y, avoid, heed_fire=memory.heed_fire)
        if towards is not None:
            why = (
                f"going for the captive's guard, {a_(shown_name(state, goal))}"
                if guards
                else "freeing"
            )
            return Decision(towards, why if guards else f"freeing the captive {goal.kind}")
    pick = None if memory.policy.skip_treasure else _treasure_pick(state)
    if pick is not None:
        if pick == state.player:
            return Decision(PickUp(), f"choosing {a_(state.items_lying[pick])}")
        others = np.zeros(state.tiles.shape, dtype=bool)
        for x, y in state.choices:
            others[y, x] = (x, y) != pick
        towards = _towards(
            state, *pick, others if avoid is None else avoid | others, heed_fire=memory.heed_fire
        )
        if towards is not None:
            return Decision(towards, f"going for {a_(state.items_lying[pick])}")
    left = [r for r in state.puzzles.values() if r.visited and not r.solved]
    # a pedestal it was pulled away from (by a fight, or a scroll of teleport: then by a known
    # way only, else it explores on until it knows one)
    if (
        left
        and _towards(state, left[0].x, left[0].y, avoid, heed_fire=memory.heed_fire) is not None
    ):
        return Decision(Travel(left[0].x, left[0].y), "going back to a puzzle")
    if _explore_step(state, avoid, heed_fire=memory.heed_fire) is not None:
        quiet = None if memory.policy.no_sneak else _quiet_step(state, memory)
        return Decision(quiet or Explore(), "exploring")
    blocker = _in_the_way(state, memory)
    if blocker is not None:
        return blocker
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


def _captive(state: GameState) -> Monster | None:
    """The nearest shackled captive it has seen (a captive never moves), if any."""
    seen = [m for m in state.allies if not freed(m) and state.explored[m.y, m.x]]
    return min(seen, key=lambda m: (chebyshev(m.pos, state.player), m.id), default=None)


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
    placed = pedestals(state)
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
            placed += pedestals(state)
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
        pedestals=tuple(placed),
        puzzle_scores=tuple(p[3] for p in state.stats.puzzle_scores),
        kills=state.stats.kills,
    )


def play_seed(
    seed: int,
    preset: str = "normal",
    policy: Policy = FULL,
    difficulty: str = DEFAULT_DIFFICULTY,
) -> Result:
    return play(new_game(seed, preset=preset, difficulty=difficulty), policy=policy)
