"""The turn engine: ``step(state, action)`` applies one action to a :class:`GameState` (in
place) and returns what happened as a list of events. It never prints; every message is also
appended to ``state.log``.

Rules:

* **Moves** go in eight directions, but a diagonal step is allowed only when both orthogonal
  cells beside it are walkable (README, movement rule). So what a player can reach is exactly
  what the floor proof's 4-connected walk reaches, and no door can be squeezed past at a corner.
  Moving into a monster attacks it.
* **Keys and items** are taken by walking onto them (or with :class:`PickUp` on their cell).
* **Doors**: walking into a closed door opens it; walking into a locked door whose key you
  hold unlocks it (it becomes an open door). Either way the player stays where they are and the
  turn is spent. A locked door without its key refuses you, naming the key's colour. Open
  doors can be closed again (monsters open plain doors, never locked ones).
  **Keys are kept** after unlocking: the topology has one lock per key, so keeping a key costs
  nothing, and if a later rule ever re-locks a door the player cannot be soft-locked out.
* **Time** is counted in player turns. Every spent turn, each monster gains energy equal to its
  speed and acts once for each 100 it holds, so a bat (150) acts three times in two turns and
  an ogre (80) four times in five. Refused actions (a wall, a corner, no stairs, nothing to
  pick up) cost no turn. The player regains 1 HP every few turns.
* **Combat**: a blow hits with a chance (the player's 85%, a monster's own accuracy minus 3
  per point of the player's defence), then deals its damage roll minus the target's defence,
  at least 1. All rolls draw from ``state.rng``, the floor's gameplay stream.
* **Monsters** score every legal action and take the best, ties broken by the gameplay stream
  (:func:`monster_options`): approach along a distance map, attack when adjacent, flee when
  hurt, close to shooting range and shoot (every other turn) if ranged, stay near their post if
  they guard a key room, and stay next to their own kind if they hunt in packs.
* **Descend** on the stairs goes to the next floor; on the exit of the last floor, the game is
  won. Reaching 0 HP ends the run.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from roguelike import tiles
from roguelike.engine.actions import (
    Action,
    Close,
    Descend,
    Explore,
    Move,
    Open,
    PickUp,
    Rest,
    SolvePuzzle,
    Travel,
    Use,
    Wait,
)
from roguelike.engine.creatures import GUARD_RADIUS, ITEMS, MONSTERS, Monster
from roguelike.engine.events import (
    Attacked,
    Bumped,
    Descended,
    Died,
    DoorClosed,
    DoorOpened,
    DoorUnlocked,
    Event,
    ItemTaken,
    ItemUsed,
    KeyTaken,
    LevelUp,
    Message,
    Moved,
    PuzzleFound,
    PuzzleSolved,
    Won,
)
from roguelike.engine.pathing import FAR, distance_map, downhill, shifted
from roguelike.engine.puzzle_rooms import BadSolution, replay
from roguelike.engine.state import GameState

PLAYER_ACCURACY = 85
#: Most turns one Rest or Travel lasts.
REST_LIMIT = 300
TRAVEL_LIMIT = 400
#: Turns of its own an awake monster hunts without seeing the player before it gives up.
HUNT_MEMORY = 20
#: How far monsters' distance maps reach (steps).
SCENT_RANGE = 40
HEAL_POTION = 12
BOMB_DAMAGE = (6, 10)
ELIXIR_HP = 5
#: A ranged monster shoots at most once in this many of its turns.
RELOAD_TURNS = 2
#: How close a shooting monster comes while it sees you (it never backs away: a shooter faster
#: than you that kept its distance could never be caught); out of sight, it comes on.
SHOOTING_RANGE = 3

_DIRS8 = ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1))


def key_name(key: int) -> str:
    """How the player reads key ``key``: ``the red key (A)``."""
    return f"the {tiles.key_colour(key)[0]} key ({tiles.key_letter(key)})"


def a(name: str) -> str:
    """``a goblin``, ``an orc``."""
    return ("an " if name[0] in "aeiou" else "a ") + name


def chebyshev(p: tuple[int, int], q: tuple[int, int]) -> int:
    return max(abs(p[0] - q[0]), abs(p[1] - q[1]))


def can_step(state: GameState, x: int, y: int, dx: int, dy: int) -> bool:
    """Whether a step from (x, y) by (dx, dy) is allowed by the map alone: the target is
    walkable and, for a diagonal, so are both orthogonal cells beside it."""
    walk = tiles.WALKABLE
    t = state.tiles
    nx, ny = x + dx, y + dy
    if not (0 <= nx < state.width and 0 <= ny < state.height) or not walk[t[ny, nx]]:
        return False
    return not (dx and dy) or bool(walk[t[y, nx]] and walk[t[ny, x]])


def doors_around(state: GameState, *, closed: bool) -> list[tuple[int, int]]:
    """Directions (dx, dy) of the doors next to the player: closed ones (plain, or locked with
    a key held) when ``closed``, else open ones."""
    x, y = state.player
    out = []
    for dx, dy in _DIRS8:
        nx, ny = x + dx, y + dy
        if not (0 <= nx < state.width and 0 <= ny < state.height):
            continue
        t = int(state.tiles[ny, nx])
        lock = tiles.lock_of(t)
        if (
            closed
            and (t == tiles.DOOR or (lock is not None and lock in state.keys_held))
            or not closed
            and t == tiles.DOOR_OPEN
        ):
            out.append((dx, dy))
    return out


# --- the step -------------------------------------------------------------------------------


def step(state: GameState, action: Action) -> list[Event]:
    """Apply ``action`` to ``state`` and return the events it caused, in order."""
    if state.won:
        events: list[Event] = [Message("You have already left the dungeon.")]
    elif state.dead:
        events = [Message("You are dead.")]
    elif isinstance(action, Rest):
        events = _rest(state)
    elif isinstance(action, Travel):
        events = _travel(state, action)
    elif isinstance(action, Explore):
        events = _explore(state)
    else:
        events = _one_turn(state, action)
    for e in events:
        if isinstance(e, Message):
            state.say(e.text)
    return events


def _one_turn(state: GameState, action: Action) -> list[Event]:
    """One action; if it spends a turn, the world answers (monsters, healing, view)."""
    turn_before = state.turn
    floor_before = state.number
    if isinstance(action, Move):
        events = _move(state, action.dx, action.dy)
    elif isinstance(action, Wait):
        state.turn += 1
        events = []
    elif isinstance(action, PickUp):
        events = _take_here(state)
        if events:
            state.turn += 1
        else:
            events = [Message("There is nothing here to pick up.")]
    elif isinstance(action, Descend):
        events = _descend(state)
    elif isinstance(action, Open):
        events = _open(state, action)
    elif isinstance(action, Close):
        events = _close(state, action)
    elif isinstance(action, Use):
        events = _use(state, action.item)
    elif isinstance(action, SolvePuzzle):
        events = _solve_puzzle(state, action)
    else:  # pragma: no cover - the Action union is closed
        raise TypeError(f"not an action: {action!r}")
    if state.turn != turn_before and state.number == floor_before and not state.won:
        events += _world_turn(state)
    return events


def _world_turn(state: GameState) -> list[Event]:
    """Everything that happens after the player spent a turn."""
    state.update_view()  # monsters notice the player from where they now stand
    before = state.tiles.copy()
    events = _monsters_act(state)
    if not state.dead:
        _regenerate(state)
    if not np.array_equal(before, state.tiles):  # a monster opened a door: the view changed
        state.update_view()
    return events


def _regenerate(state: GameState) -> None:
    state.regen_clock += 1
    if state.regen_clock >= max(3, 9 - state.level // 2):
        state.regen_clock = 0
        state.hp = min(state.max_hp, state.hp + 1)


# --- the player's actions -------------------------------------------------------------------


def _move(state: GameState, dx: int, dy: int) -> list[Event]:
    x, y = state.player
    nx, ny = x + dx, y + dy
    if not (0 <= nx < state.width and 0 <= ny < state.height):
        return [Bumped(nx, ny, "edge")]
    target = state.monster_at(nx, ny)
    if target is not None:
        if dx and dy and not _orthogonals_walkable(state, x, y, dx, dy):
            return _corner(nx, ny)
        state.turn += 1
        return _player_attacks(state, target)
    tile = int(state.tiles[ny, nx])
    lock = tiles.lock_of(tile)
    if lock is not None:
        if lock not in state.keys_held:
            colour = tiles.key_colour(lock)[0]
            return [
                Bumped(nx, ny, tiles.TILES[tile].name),
                Message(f"The {colour} door is locked: it needs {key_name(lock)}."),
            ]
        if dx and dy and not _orthogonals_walkable(state, x, y, dx, dy):
            return _corner(nx, ny)
        return _unlock(state, lock, nx, ny)
    if tile == tiles.DOOR:
        if dx and dy and not _orthogonals_walkable(state, x, y, dx, dy):
            return _corner(nx, ny)
        state.tiles[ny, nx] = tiles.DOOR_OPEN
        state.turn += 1
        return [DoorOpened(nx, ny)]
    if not tiles.WALKABLE[tile]:
        return [Bumped(nx, ny, tiles.TILES[tile].name)]
    if not can_step(state, x, y, dx, dy):
        return _corner(nx, ny)
    state.player = (nx, ny)
    state.turn += 1
    events: list[Event] = [Moved((x, y), (nx, ny))]
    events += _take_here(state)
    room = state.puzzles.get((nx, ny))
    if room is not None:
        room.visited = True
        events.append(PuzzleFound(nx, ny))
        if room.solved:
            events.append(Message(f"The {room.type} pedestal is quiet: you solved it."))
        else:
            events.append(
                Message(
                    f"{a(room.difficulty).capitalize()} {room.type} puzzle is carved in the "
                    "pedestal."
                )
            )
    if tile in (tiles.STAIRS, tiles.EXIT):
        what = "the exit: press > to leave" if tile == tiles.EXIT else "stairs down: press >"
        events.append(Message(f"There are {what}." if tile == tiles.STAIRS else f"This is {what}."))
    return events


def _unlock(state: GameState, lock: int, x: int, y: int) -> list[Event]:
    state.tiles[y, x] = tiles.DOOR_OPEN
    state.turn += 1
    return [DoorUnlocked(lock, x, y), Message(f"You unlock the door with {key_name(lock)}.")]


def _orthogonals_walkable(state: GameState, x: int, y: int, dx: int, dy: int) -> bool:
    t = state.tiles
    return bool(tiles.WALKABLE[t[y, x + dx]] and tiles.WALKABLE[t[y + dy, x]])


def _corner(x: int, y: int) -> list[Event]:
    return [Bumped(x, y, "corner"), Message("You cannot squeeze past the corner.")]


def _take_here(state: GameState) -> list[Event]:
    """Take the key and the item on the player's cell; no events when there is nothing."""
    events: list[Event] = []
    key = state.keys_lying.pop(state.player, None)
    if key is not None:
        state.keys_held.add(key)
        state.stats.keys += 1
        events += [KeyTaken(key), Message(f"You take {key_name(key)}.")]
    item = state.items_lying.pop(state.player, None)
    if item is not None:
        events += [ItemTaken(item), Message(_receive(state, item))]
    return events


def _receive(state: GameState, item: str) -> str:
    """Put ``item`` where it goes (pack, coin purse, or straight into use); what to say."""
    kind = ITEMS[item].kind
    if kind == "coin":
        state.hint_coins += 1
        return f"You pick up a hint coin ({state.hint_coins} held)."
    if kind == "now":
        if item == "sharp blade":
            state.attack = (state.attack[0] + 1, state.attack[1] + 1)
            return "You take up a sharper blade: your blows hit 1 harder."
        if item == "iron plate":
            state.defence += 1
            return f"You strap on an iron plate: defence {state.defence}."
        state.max_hp += ELIXIR_HP
        state.hp = state.max_hp
        return f"You drink a heart elixir: {state.max_hp} HP, fully healed."
    state.inventory[item] = state.inventory.get(item, 0) + 1
    return f"You pick up {a(item)}."


def _descend(state: GameState) -> list[Event]:
    x, y = state.player
    tile = int(state.tiles[y, x])
    if tile == tiles.EXIT and state.floor.last:
        state.turn += 1
        state.won = True
        state.stats.cause = "escaped"
        return [Won(), Message("You climb out of the dungeon into the daylight. You win!")]
    if tile != tiles.STAIRS:
        return [Message("There are no stairs here.")]
    nxt = state.number + 1
    state.turn += 1
    state.enter_floor(nxt)
    last = " It is the last: its exit leads out." if nxt == state.total_floors else ""
    return [Descended(nxt), Message(f"You descend to floor {nxt} of {state.total_floors}.{last}")]


def _solve_puzzle(state: GameState, action: SolvePuzzle) -> list[Event]:
    room = state.puzzles.get(state.player)
    if room is None:
        return [Message("There is no puzzle here.")]
    if not 0 <= action.coins_spent <= state.hint_coins or action.hints_used < 0:
        return [Message("You do not have that many hint coins.")]
    p = room.puzzle()
    try:
        s = replay(p, list(action.moves))
    except BadSolution as err:
        return [Message(f"The pedestal refuses: {err}")]
    changed = list(action.moves) != room.moves or action.coins_spent or action.hints_used
    state.hint_coins -= action.coins_spent
    room.hints_used += action.hints_used
    state.stats.hints_used += action.hints_used
    room.moves = list(action.moves)
    if changed:  # a look at the puzzle and straight back costs no time
        state.turn += 1
    if room.solved or not p.is_solved(s):
        return []
    room.solved = True
    state.stats.puzzles_solved += 1
    state.keys_held.add(room.key)
    state.stats.keys += 1
    events: list[Event] = [PuzzleSolved(room.key, room.x, room.y)]
    colour = tiles.key_colour(room.key)[0]
    for d in state.floor.doors:
        if d.lock == room.key and tiles.lock_of(int(state.tiles[d.y, d.x])) == room.key:
            state.tiles[d.y, d.x] = tiles.DOOR_OPEN
            state.explored[d.y, d.x] = True
            events += [
                DoorUnlocked(room.key, d.x, d.y),
                Message(
                    f"The puzzle clicks into place: somewhere, the {colour} door "
                    f"({tiles.key_letter(room.key)}) grinds open."
                ),
            ]
    return events


def _open(state: GameState, action: Open) -> list[Event]:
    x, y = state.player
    nx, ny = x + action.dx, y + action.dy
    if not (0 <= nx < state.width and 0 <= ny < state.height):
        return [Message("There is no door there.")]
    tile = int(state.tiles[ny, nx])
    lock = tiles.lock_of(tile)
    if tile == tiles.DOOR or lock is not None:
        return _move(state, action.dx, action.dy)
    return [Message("There is no closed door there.")]


def _close(state: GameState, action: Close) -> list[Event]:
    x, y = state.player
    nx, ny = x + action.dx, y + action.dy
    if not (0 <= nx < state.width and 0 <= ny < state.height) or (
        int(state.tiles[ny, nx]) != tiles.DOOR_OPEN
    ):
        return [Message("There is no open door there.")]
    blocker = state.monster_at(nx, ny)
    if blocker is not None:
        return [Message(f"The {blocker.kind} stands in the doorway.")]
    if (nx, ny) in state.items_lying or (nx, ny) in state.keys_lying:
        return [Message("Something lies in the doorway.")]
    state.tiles[ny, nx] = tiles.DOOR
    state.turn += 1
    return [DoorClosed(nx, ny)]


def _use(state: GameState, item: str) -> list[Event]:
    if state.inventory.get(item, 0) <= 0:
        return [Message(f"You have no {item}.")]
    events: list[Event]
    if item == "healing potion":
        if state.hp >= state.max_hp:
            return [Message("You are not hurt.")]
        healed = min(HEAL_POTION, state.max_hp - state.hp)
        state.hp += healed
        events = [Message(f"You drink a healing potion: +{healed} HP.")]
    elif item == "mapping scroll":
        state.explored |= state.tiles != tiles.VOID
        events = [Message("The scroll burns, and the floor's layout glows in your mind.")]
    elif item == "blink scroll":
        events = _blink(state)
    elif item == "fire bomb":
        seen = state.visible_monsters()
        if not seen:
            return [Message("There is nothing in view to throw it at.")]
        events = _bomb(state, seen[0])
    else:  # pragma: no cover - pack items are the four above
        raise ValueError(f"{item} cannot be used")
    state.inventory[item] -= 1
    if not state.inventory[item]:
        del state.inventory[item]
    state.turn += 1
    return [ItemUsed(item), *events]


def _blink(state: GameState) -> list[Event]:
    walk = tiles.WALKABLE[state.tiles] & state.visible & (state.tiles != tiles.DOOR)
    for pos in state.puzzles:  # landing on a pedestal would skip its puzzle
        walk[pos[1], pos[0]] = False
    for m in state.monsters:
        walk[m.y, m.x] = False
    for pos in list(state.keys_lying) + list(state.items_lying):
        walk[pos[1], pos[0]] = False
    ys, xs = np.nonzero(walk)
    threats = [m.pos for m in state.visible_monsters()] or [state.player]
    far = np.min([np.maximum(np.abs(xs - tx), np.abs(ys - ty)) for tx, ty in threats], axis=0)
    best = np.flatnonzero(far == far.max())
    i = int(best[int(state.rng.integers(len(best)))])
    state.player = (int(xs[i]), int(ys[i]))
    return [Message("You read the scroll and blink across the room.")]


def _bomb(state: GameState, target: Monster) -> list[Event]:
    events: list[Event] = [Message(f"You throw a fire bomb at the {target.kind}!")]
    for m in list(state.monsters):
        if chebyshev(m.pos, target.pos) <= 1:
            dmg = int(state.rng.integers(BOMB_DAMAGE[0], BOMB_DAMAGE[1] + 1))
            events += _hurt_monster(state, m, dmg, "you", ranged=True)
    return events


# --- combat ---------------------------------------------------------------------------------


def _player_attacks(state: GameState, m: Monster) -> list[Event]:
    m.awake = True
    if state.rng.integers(100) >= PLAYER_ACCURACY:
        return [Attacked("you", m.kind, 0, False), Message(f"You miss the {m.kind}.")]
    roll = int(state.rng.integers(state.attack[0], state.attack[1] + 1))
    return _hurt_monster(state, m, max(1, roll - m.info.defence), "you")


def _hurt_monster(
    state: GameState, m: Monster, damage: int, by: str, *, ranged: bool = False
) -> list[Event]:
    m.hp -= damage
    m.awake = True
    if m.hp > 0:
        return [
            Attacked(by, m.kind, damage, False, ranged),
            Message(f"You hit the {m.kind} for {damage}."),
        ]
    state.monsters.remove(m)
    state.stats.kills += 1
    events: list[Event] = [
        Attacked(by, m.kind, damage, True, ranged),
        Message(f"You kill the {m.kind}."),
    ]
    state.xp += m.info.xp
    while state.xp >= state.xp_to_next:
        state.xp -= state.xp_to_next
        state.level += 1
        state.max_hp += 5
        state.hp += 5
        lo, hi = state.attack
        state.attack = (lo + state.level % 2, hi + 1)
        lo, hi = state.attack
        events += [
            LevelUp(state.level),
            Message(f"You reach level {state.level}: {state.max_hp} HP, hits of {lo}-{hi}."),
        ]
    return events


def _monster_hits(state: GameState, m: Monster, *, ranged: bool) -> list[Event]:
    info = m.info
    verb = "shoots at" if ranged else "attacks"
    if state.rng.integers(100) >= info.accuracy - 3 * state.defence:
        return [
            Attacked(m.kind, "you", 0, False, ranged),
            Message(f"The {m.kind} {verb} you and misses."),
        ]
    roll = int(state.rng.integers(info.attack[0], info.attack[1] + 1))
    damage = max(1, roll - state.defence)
    state.hp -= damage
    events: list[Event] = [Attacked(m.kind, "you", damage, state.hp <= 0, ranged)]
    if state.hp > 0:
        return events + [Message(f"The {m.kind} {verb} you: {damage} damage.")]
    state.hp = 0
    state.dead = True
    cause = f"killed by {a(m.kind)} on floor {state.number}"
    state.stats.cause = cause
    return events + [Died(cause), Message(f"The {m.kind} {verb} you: {damage} damage. You die...")]


# --- monsters -------------------------------------------------------------------------------


def _monsters_act(state: GameState) -> list[Event]:
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
            if m.info.regen and m.hp < m.info.max_hp:
                m.hp = min(m.info.max_hp, m.hp + m.info.regen)
            if m.awake:
                if dist is None:
                    dist = player_distances(state)
                events += _monster_turn(state, m, dist)
            else:
                _wander_home(state, m)
    return events


def player_distances(state: GameState) -> np.ndarray:
    """Steps from the player for monsters: through plain doors, never through locked ones."""
    return distance_map(tiles.WALKABLE[state.tiles], [state.player], SCENT_RANGE)


def _monster_can_step(state: GameState, m: Monster, dx: int, dy: int) -> bool:
    nx, ny = m.x + dx, m.y + dy
    if not can_step(state, m.x, m.y, dx, dy) or (nx, ny) == state.player:
        return False
    return state.monster_at(nx, ny) is None


def _wander_home(state: GameState, m: Monster) -> None:
    """An idle monster drifts back to its post, one step nearer when it can."""
    if m.pos == m.home:
        return
    here = chebyshev(m.pos, m.home)
    for dx, dy in _DIRS8:
        if chebyshev((m.x + dx, m.y + dy), m.home) < here and _monster_can_step(state, m, dx, dy):
            _monster_moves(state, m, dx, dy)
            return


def _monster_moves(state: GameState, m: Monster, dx: int, dy: int) -> None:
    m.x += dx
    m.y += dy
    if state.tiles[m.y, m.x] == tiles.DOOR:
        state.tiles[m.y, m.x] = tiles.DOOR_OPEN


def monster_options(
    state: GameState, m: Monster, dist: np.ndarray
) -> list[tuple[float, str, tuple[int, int]]]:
    """Every legal action of an awake monster with its score: ``(score, what, (dx, dy))``
    where ``what`` is ``"wait"``, ``"move"``, ``"attack"`` or ``"shoot"``. The monster plays
    the best; :func:`_monster_turn` breaks ties with the gameplay stream."""
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
    for dx, dy in _DIRS8:
        if _monster_can_step(state, m, dx, dy):
            options.append((place_score(m.x + dx, m.y + dy), "move", (dx, dy)))
    px, py = state.player
    if gap == 1 and can_step(state, m.x, m.y, px - m.x, py - m.y):
        score = 10.0 * here + 5 if hurt else 100.0
        options.append((score, "attack", (px - m.x, py - m.y)))
    if info.ranged and sees and 2 <= gap <= info.ranged and not m.extra.get("reload"):
        options.append((10.0 * here + 8 if hurt else 100.0, "shoot", (0, 0)))
    return options


def _monster_turn(state: GameState, m: Monster, dist: np.ndarray) -> list[Event]:
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
            _monster_moves(state, m, dx, dy)
            return []
    top = max(o[0] for o in options)
    best = [o for o in options if o[0] == top]
    _, what, (dx, dy) = best[int(state.rng.integers(len(best)))] if len(best) > 1 else best[0]
    if what == "move":
        _monster_moves(state, m, dx, dy)
        return []
    if what == "attack":
        return _monster_hits(state, m, ranged=False)
    if what == "shoot":
        m.extra["reload"] = RELOAD_TURNS
        return _monster_hits(state, m, ranged=True)
    return []


# --- multi-turn actions ---------------------------------------------------------------------


def _threats(state: GameState) -> list[Monster]:
    """Monsters in view that are awake, not fleeing and able to reach the player: they forbid
    resting and exploring. A sleeping or fleeing one, or one across a chasm, only stops a walk
    the first time it is seen."""
    awake = [m for m in state.visible_monsters() if m.awake and not m.fleeing]
    if not awake:
        return []
    dist = player_distances(state)
    return [m for m in awake if dist[m.y, m.x] < FAR]


def _rest(state: GameState) -> list[Event]:
    threats = _threats(state)
    if threats:
        return [Message(f"You cannot rest with {a(threats[0].kind)} in view.")]
    if state.hp >= state.max_hp:
        return [Message("You are not hurt.")]
    events: list[Event] = []
    for _ in range(REST_LIMIT):
        got = _one_turn(state, Wait())
        events += got
        if state.dead or any(isinstance(e, Attacked) and e.target == "you" for e in got):
            return events
        if _threats(state):
            return events + [Message("You stop resting: an enemy comes into view.")]
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


def travel_distances(state: GameState, x: int, y: int) -> np.ndarray:
    """Steps to (x, y) over the explored map."""
    return distance_map(known_passable(state), [(x, y)])


def explore_distances(state: GameState) -> np.ndarray:
    """Steps over the explored map to the nearest unexplored edge (a known walkable cell next
    to an unknown one), known item or key lying on the floor, or puzzle pedestal not yet
    stepped on."""
    ok = known_passable(state)
    unknown = ~state.explored
    edge = np.zeros_like(ok)
    for dx, dy in _DIRS8:
        edge |= shifted(unknown, dx, dy)
    targets = ok & edge
    fresh = [pos for pos, room in state.puzzles.items() if not room.visited]
    for x, y in list(state.items_lying) + list(state.keys_lying) + fresh:
        targets[y, x] |= bool(state.explored[y, x])
    ys, xs = np.nonzero(targets)
    return distance_map(ok, list(zip(xs.tolist(), ys.tolist(), strict=True)))


def _travel(state: GameState, action: Travel) -> list[Event]:
    x, y = action.x, action.y
    if not (0 <= x < state.width and 0 <= y < state.height) or not state.explored[y, x]:
        return [Message("You do not know the way there.")]
    if (x, y) == state.player:
        return []
    dist = travel_distances(state, x, y)
    px, py = state.player
    if dist[py, px] >= FAR:
        return [Message("You know no way there.")]
    return _walk(state, lambda: dist, lambda: state.player == (x, y))


def _explore(state: GameState) -> list[Event]:
    threats = _threats(state)
    if threats:
        return [Message(f"Not with {a(threats[0].kind)} in view: fight it or step away.")]
    dist = explore_distances(state)
    px, py = state.player
    if dist[py, px] >= FAR:
        return [Message(explored_all(state))]
    floor = state.number
    return _walk(
        state, lambda: explore_distances(state), lambda: state.number != floor, explore=True
    )


def explored_all(state: GameState) -> str:
    """What to say when exploring finds nothing more: and what to do next."""
    text = "Explored all you can reach."
    fx, fy = state.floor.finish or (-1, -1)
    if fx >= 0 and state.explored[fy, fx]:
        where = "exit" if state.floor.last else "stairs"
        return f"{text} Travel to the {where} (t) and press >."
    waiting = [r for r in state.puzzles.values() if r.visited and not r.solved]
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
        return f"{text} {key_name(seen[0]).capitalize()} is still to find."
    return text


def _walk(
    state: GameState,
    distances: Callable[[], np.ndarray],
    arrived: Callable[[], bool],
    *,
    explore: bool = False,
) -> list[Event]:
    """Step down a distance map until ``arrived``, or a reason to stop: a monster comes into
    view, the player is hurt, something is picked up, the way is blocked, or the walk runs out
    (:data:`TRAVEL_LIMIT`). The map is asked for again only when the walk reaches one of its
    targets or cannot go on, so a long walk costs a few maps, not one per step."""
    seen = {m.id for m in state.visible_monsters()}
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
                events.append(Message(explored_all(state)))
            break
        dx, dy = steps[0]
        if state.monster_at(px + dx, py + dy) is not None:
            events.append(Message("Something is in the way."))
            break
        got = _one_turn(state, Move(dx, dy))
        events += got
        stop = (Bumped, ItemTaken, KeyTaken, PuzzleFound)
        attacked = any(isinstance(e, Attacked) and e.target == "you" for e in got)
        if state.dead or attacked or any(isinstance(e, stop) for e in got):
            break
        new = {m.id for m in state.visible_monsters()} - seen
        if new:
            kinds = sorted({m.kind for m in state.monsters if m.id in new})
            events.append(Message(f"You stop: {', '.join(a(k) for k in kinds)} comes into view."))
            break
    return events


# --- look -----------------------------------------------------------------------------------

TILE_TEXT = {
    "void": "Solid rock.",
    "wall": "A rough stone wall.",
    "floor": "Bare stone floor.",
    "door": "A closed wooden door. Walk into it to open it.",
    "open door": "An open door. Press c beside it to close it.",
    "stairs down": "Stairs leading down. Stand on them and press >.",
    "exit": "The way out of the dungeon! Stand on it and press > to win.",
    "water": "Shallow water, cold and still.",
    "chasm": "A chasm: nothing crosses it.",
    "rubble": "Loose rubble underfoot.",
    "moss": "Soft moss.",
    "statue": "A weathered statue.",
    "pedestal": "A stone pedestal carved with puzzles.",
    "bridge": "A narrow bridge.",
    "cave floor": "Uneven cave floor.",
}


def describe(state: GameState, x: int, y: int) -> str:
    """What the player knows about cell (x, y), for look mode."""
    if not (0 <= x < state.width and 0 <= y < state.height) or not state.explored[y, x]:
        return "You have not seen that place."
    seen = bool(state.visible[y, x])
    parts: list[str] = []
    if (x, y) == state.player:
        parts.append(f"You ({state.hp}/{state.max_hp} HP, level {state.level}), on:")
    m = state.monster_at(x, y) if seen else None
    if m is not None:
        mood = "asleep" if not m.awake else ("guarding" if m.guard else "hunting")
        parts.append(
            f"{a(m.kind).capitalize()} ({m.hp}/{m.info.max_hp} HP, {mood}): {m.info.description}"
        )
    if (x, y) in state.keys_lying:
        k = state.keys_lying[(x, y)]
        parts.append(f"{key_name(k).capitalize()}: it opens the {tiles.key_colour(k)[0]} door.")
    if (x, y) in state.items_lying:
        item = state.items_lying[(x, y)]
        parts.append(f"{a(item).capitalize()}. {ITEMS[item].description}")
    room = state.puzzles.get((x, y))
    if room is not None:
        colour = tiles.key_colour(room.key)[0]
        status = "solved" if room.solved else "unsolved: step on it to play"
        parts.append(
            f"A pedestal with {a(room.difficulty)} {room.type} puzzle ({status}). It opens "
            f"the {colour} door."
        )
    tile = tiles.TILES[int(state.tiles[y, x])]
    lock = tiles.lock_of(tile.id)
    if lock is not None:
        parts.append(f"A door locked with {key_name(lock)}.")
    elif room is None:
        parts.append(TILE_TEXT.get(tile.name, tile.name.capitalize() + "."))
    if not seen:
        parts.append("(remembered)")
    return " ".join(parts)


__all__ = ["MONSTERS", "describe", "doors_around", "monster_options", "step"]
