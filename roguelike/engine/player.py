"""The player's single-turn actions: moving (and attacking by moving), doors, picking up,
descending, and playing a puzzle pedestal. Each returns its events and advances
``state.turn`` when it spends a turn; a refused action (a wall, a corner, no stairs, nothing to
pick up) spends none.

Doors: walking into a closed door opens it; walking into a locked door whose key you hold
unlocks it (it becomes an open door). Either way the player stays where they are and the turn
is spent. A locked door without its key refuses you, naming the key's colour. Open doors can be
closed again. Keys are kept after unlocking: the topology has one lock per key, so keeping a key
costs nothing, and if a later rule ever re-locks a door the player cannot be soft-locked out.

Descending on the stairs goes to the next floor (with the allies next to the player); on the
exit of the last floor, the game is won.
"""

from __future__ import annotations

from roguelike import tiles
from roguelike.engine.actions import Close, Open, SolvePuzzle
from roguelike.engine.allies import bump_ally, followers, freed, seat_followers
from roguelike.engine.changes import apply_change, change_of, promise
from roguelike.engine.combat import player_attacks
from roguelike.engine.creatures import shown_name
from roguelike.engine.describe import a, key_name, upper_first
from roguelike.engine.events import (
    Bumped,
    Descended,
    DoorClosed,
    DoorOpened,
    DoorUnlocked,
    Event,
    ItemTaken,
    KeyTaken,
    Message,
    Moved,
    PuzzleFound,
    PuzzleSolved,
    Won,
)
from roguelike.engine.grid import can_step, corner_free
from roguelike.engine.items import take_here
from roguelike.engine.puzzle_rooms import BadSolution, replay, room_score
from roguelike.engine.state import GameState
from roguelike.engine.traps import after_step, held

__all__ = ["close_door", "descend", "move", "open_door", "pick_up", "solve_puzzle"]


def move(state: GameState, dx: int, dy: int) -> list[Event]:
    """A step by (dx, dy): into a monster attacks it (into an ethereal one, which blows pass
    through, passes through it: they swap places), into a captive works its shackles, into
    an ally swaps places with it, into a door opens or unlocks it, onto a free cell moves there
    and takes what lies on it."""
    x, y = state.player
    nx, ny = x + dx, y + dy
    if not (0 <= nx < state.width and 0 <= ny < state.height):
        return [Bumped(nx, ny, "edge")]
    struggle = held(state)
    if struggle is not None:
        return struggle
    ally = state.ally_at(nx, ny)
    if ally is not None and dx and dy and not corner_free(state, x, y, dx, dy):
        return _corner(nx, ny)
    if ally is not None and not freed(ally):
        return bump_ally(state, ally)
    target = state.monster_at(nx, ny)
    ghost = target if target is not None and target.info.ethereal else None
    if ghost is not None and dx and dy and not corner_free(state, x, y, dx, dy):
        return _corner(nx, ny)
    if target is not None and ghost is None:
        if dx and dy and not corner_free(state, x, y, dx, dy):
            return _corner(nx, ny)
        state.turn += 1
        return player_attacks(state, target)
    tile = int(state.tiles[ny, nx])
    if tile == tiles.VAULT_SEAL:
        return _seal(state, nx, ny)
    lock = tiles.lock_of(tile)
    if lock is not None:
        if lock not in state.keys_held:
            colour = tiles.key_colour(lock)[0]
            return [
                Bumped(nx, ny, tiles.TILES[tile].name),
                Message(f"The {colour} door is locked: it needs {key_name(lock)}."),
            ]
        if dx and dy and not corner_free(state, x, y, dx, dy):
            return _corner(nx, ny)
        return _unlock(state, lock, nx, ny)
    if tile == tiles.DOOR:
        if dx and dy and not corner_free(state, x, y, dx, dy):
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
    if ally is not None:  # a free ally never blocks the way: it takes the player's place
        ally.x, ally.y = x, y
        events.append(Message(f"You swap places with your {ally.kind}."))
    if ghost is not None:  # blows pass through it, and so does the player
        ghost.x, ghost.y = x, y
        ghost.awake = True
        events.append(
            Message(
                f"You pass through the {shown_name(state, ghost)}: blows cannot hurt it, fire can."
            )
        )
    events += take_here(state)
    events += after_step(state)
    room = state.puzzles.get((nx, ny))
    if room is not None:
        room.visited = True
        events.append(PuzzleFound(nx, ny))
        if room.solved:
            events.append(Message(f"The {room.type} pedestal is quiet: you solved it."))
        else:
            events.append(
                Message(
                    f"{upper_first(a(room.difficulty))} {room.type} puzzle is carved in the "
                    "pedestal."
                )
            )
            promised = promise(state, room.key)
            if promised is not None:
                events.append(Message(promised))
    if tile in (tiles.STAIRS, tiles.EXIT):
        what = "the exit: press > to leave" if tile == tiles.EXIT else "stairs down: press >"
        events.append(Message(f"There are {what}." if tile == tiles.STAIRS else f"This is {what}."))
    return events


def _unlock(state: GameState, lock: int, x: int, y: int) -> list[Event]:
    state.tiles[y, x] = tiles.DOOR_OPEN
    state.turn += 1
    return [DoorUnlocked(lock, x, y), Message(f"You unlock the door with {key_name(lock)}.")]


def seal_key(state: GameState, x: int, y: int) -> int | None:
    """The key of the vault whose seal stands at (x, y), or None."""
    return next((d.lock for d in state.floor.doors if (d.x, d.y) == (x, y)), None)


def _seal(state: GameState, x: int, y: int) -> list[Event]:
    """Walking into a vault's seal: it breaks if the vault's key is held (its puzzle solved,
    or, in a world without puzzles, its key picked up), else it says where to look."""
    key = seal_key(state, x, y)
    if key is None or key not in state.keys_held:
        return [
            Bumped(x, y, tiles.TILES[tiles.VAULT_SEAL].name),
            Message("A sealed vault: its pedestal is nearby. Solve its puzzle to break the seal."),
        ]
    state.tiles[y, x] = tiles.DOOR_OPEN
    state.turn += 1
    return [DoorUnlocked(key, x, y), Message("The seal breaks: the vault stands open.")]


def _corner(x: int, y: int) -> list[Event]:
    return [Bumped(x, y, "corner"), Message("You cannot squeeze past the corner.")]


def pick_up(state: GameState) -> list[Event]:
    """Take what lies on the player's cell (a turn), or say there is nothing."""
    events = take_here(state, choose=True)
    if not events:
        return [Message("There is nothing here to pick up.")]
    if any(isinstance(e, ItemTaken | KeyTaken) for e in events):
        state.turn += 1  # nothing taken (the pack is full of its kind): no turn spent
    return events


def open_door(state: GameState, action: Open) -> list[Event]:
    """Open (or unlock) the door in ``action``'s direction: as walking into it."""
    x, y = state.player
    nx, ny = x + action.dx, y + action.dy
    if not (0 <= nx < state.width and 0 <= ny < state.height):
        return [Message("There is no door there.")]
    tile = int(state.tiles[ny, nx])
    lock = tiles.lock_of(tile)
    if tile == tiles.DOOR or lock is not None:
        return move(state, action.dx, action.dy)
    return [Message("There is no closed door there.")]


def close_door(state: GameState, action: Close) -> list[Event]:
    """Close the open door in ``action``'s direction, unless something is in the doorway."""
    x, y = state.player
    nx, ny = x + action.dx, y + action.dy
    if not (0 <= nx < state.width and 0 <= ny < state.height) or (
        int(state.tiles[ny, nx]) != tiles.DOOR_OPEN
    ):
        return [Message("There is no open door there.")]
    hostile, ally = state.monster_at(nx, ny), state.ally_at(nx, ny)
    if hostile is not None:
        return [Message(f"The {shown_name(state, hostile)} stands in the doorway.")]
    if ally is not None:
        return [Message(f"The {ally.kind} stands in the doorway.")]
    if (nx, ny) in state.items_lying or (nx, ny) in state.keys_lying:
        return [Message("Something lies in the doorway.")]
    state.tiles[ny, nx] = tiles.DOOR
    state.turn += 1
    return [DoorClosed(nx, ny)]


def descend(state: GameState) -> list[Event]:
    """Take the stairs to the next floor, or leave by the last floor's exit and win."""
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
    coming = followers(state)
    state.enter_floor(nxt)
    last = " It is the last: its exit leads out." if nxt == state.total_floors else ""
    events: list[Event] = [
        Descended(nxt),
        Message(f"You descend to floor {nxt} of {state.total_floors}.{last}"),
    ]
    return events + seat_followers(state, coming)


def solve_puzzle(state: GameState, action: SolvePuzzle) -> list[Event]:
    """Replay the moves reported for the pedestal underfoot and keep them as its progress; if
    they solve it, its key is the player's and its locked doors open (a floor change's
    pedestal instead changes the map, ``changes.py``). Anything new (other
    moves, coins spent, hints used) costs a turn; a look at the puzzle and straight back does
    not."""
    room = state.puzzles.get(state.player)
    if room is None:
        return [Message("There is no puzzle here.")]
    if not 0 <= action.coins_spent <= state.hint_coins or action.hints_used < 0:
        return [Message("You do not have that many hint coins.")]
    if action.resets < 0:
        return [Message("A puzzle is never reset a negative number of times.")]
    p = room.puzzle()
    try:
        s = replay(p, list(action.moves))
    except BadSolution as err:
        return [Message(f"The pedestal refuses: {err}")]
    changed = (
        list(action.moves) != room.moves or action.coins_spent or action.hints_used or action.resets
    )
    state.hint_coins -= action.coins_spent
    room.hints_used += action.hints_used
    room.resets += action.resets
    state.stats.hints_used += action.hints_used
    room.moves = list(action.moves)
    if changed:
        state.turn += 1
    if room.solved or not p.is_solved(s):
        return []
    room.solved = True
    state.stats.puzzles_solved += 1
    state.stats.puzzle_scores.append((state.number, room.type, room.difficulty, room_score(room)))
    events: list[Event] = [PuzzleSolved(room.key, room.x, room.y)]
    change = change_of(state, room.key)
    if change is not None:  # an optional pedestal: it changes the map and opens no lock
        return events + apply_change(state, change)
    state.keys_held.add(room.key)
    state.stats.keys += 1
    colour = tiles.key_colour(room.key)[0]
    for d in state.floor.doors:
        if d.lock == room.key and int(state.tiles[d.y, d.x]) == tiles.VAULT_SEAL:
            state.tiles[d.y, d.x] = tiles.DOOR_OPEN
            state.explored[d.y, d.x] = True
            events += [
                DoorUnlocked(room.key, d.x, d.y),
                Message("The puzzle clicks into place: nearby, a vault's seal breaks open."),
            ]
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
