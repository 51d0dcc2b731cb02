"""The turn engine: ``step(state, action)`` applies one action to a :class:`GameState` (in
place) and returns what happened as a list of events. It never prints.

Rules:

* **Moves** go in eight directions, but a diagonal step is allowed only when both orthogonal
  cells beside it are walkable (README, movement rule). So what a player can reach is exactly
  what the floor proof's 4-connected walk reaches, and no door can be squeezed past at a corner.
* **Keys** are taken by walking onto them (or with :class:`PickUp` on their cell).
* **Doors**: walking into a closed door opens it; walking into a locked door whose key you
  hold unlocks it (it becomes an open door). Either way the player stays where they are and the
  turn is spent. A locked door without its key refuses you, naming the key's colour.
  **Keys are kept** after unlocking: the topology has one lock per key, so keeping a key costs
  nothing, and if a later rule ever re-locks a door the player cannot be soft-locked out.
* **Descend** on the stairs goes to the next floor; on the exit of the last floor, the game is
  won.
* Refused actions (a wall, a corner, no stairs, nothing to pick up) cost no turn. After every
  action the field of view is recomputed and added to the explored mask.
"""

from __future__ import annotations

from roguelike import tiles
from roguelike.engine.actions import Action, Descend, Move, PickUp, Wait
from roguelike.engine.events import (
    Bumped,
    Descended,
    DoorOpened,
    DoorUnlocked,
    Event,
    KeyTaken,
    Message,
    Moved,
    Won,
)
from roguelike.engine.state import GameState


def key_name(key: int) -> str:
    """How the player reads key ``key``: ``the red key (A)``."""
    return f"the {tiles.key_colour(key)[0]} key ({tiles.key_letter(key)})"


def can_step(state: GameState, x: int, y: int, dx: int, dy: int) -> bool:
    """Whether a step from (x, y) by (dx, dy) is allowed by the map alone: the target is
    walkable and, for a diagonal, so are both orthogonal cells beside it."""
    walk = tiles.WALKABLE
    t = state.tiles
    nx, ny = x + dx, y + dy
    if not (0 <= nx < state.width and 0 <= ny < state.height) or not walk[t[ny, nx]]:
        return False
    return not (dx and dy) or bool(walk[t[y, nx]] and walk[t[ny, x]])


def step(state: GameState, action: Action) -> list[Event]:
    """Apply ``action`` to ``state`` and return the events it caused, in order."""
    if state.won:
        return [Message("You have already left the dungeon.")]
    turn_before = state.turn
    floor_before = state.number
    if isinstance(action, Move):
        events = _move(state, action)
    elif isinstance(action, Wait):
        state.turn += 1
        events = []
    elif isinstance(action, PickUp):
        events = _pick_up(state)
    elif isinstance(action, Descend):
        events = _descend(state)
    else:  # pragma: no cover - the Action union is closed
        raise TypeError(f"not an action: {action!r}")
    if state.turn != turn_before and state.number == floor_before and not state.won:
        state.update_view()
    return events


def _move(state: GameState, action: Move) -> list[Event]:
    x, y = state.player
    dx, dy = action.dx, action.dy
    nx, ny = x + dx, y + dy
    if not (0 <= nx < state.width and 0 <= ny < state.height):
        return [Bumped(nx, ny, "edge")]
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
        state.tiles[ny, nx] = tiles.DOOR_OPEN
        state.turn += 1
        return [DoorUnlocked(lock, nx, ny), Message(f"You unlock the door with {key_name(lock)}.")]
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
    events += _take_key(state)
    return events


def _orthogonals_walkable(state: GameState, x: int, y: int, dx: int, dy: int) -> bool:
    t = state.tiles
    return bool(tiles.WALKABLE[t[y, x + dx]] and tiles.WALKABLE[t[y + dy, x]])


def _corner(x: int, y: int) -> list[Event]:
    return [Bumped(x, y, "corner"), Message("You cannot squeeze past the corner.")]


def _take_key(state: GameState) -> list[Event]:
    key = state.keys_lying.pop(state.player, None)
    if key is None:
        return []
    state.keys_held.add(key)
    return [KeyTaken(key), Message(f"You take {key_name(key)}.")]


def _pick_up(state: GameState) -> list[Event]:
    events = _take_key(state)
    if not events:
        return [Message("There is nothing here to pick up.")]
    state.turn += 1
    return events


def _descend(state: GameState) -> list[Event]:
    x, y = state.player
    tile = int(state.tiles[y, x])
    if tile == tiles.EXIT and state.floor.last:
        state.turn += 1
        state.won = True
        return [Won(), Message("You climb out of the dungeon into the daylight. You win!")]
    if tile != tiles.STAIRS:
        return [Message("There are no stairs here.")]
    nxt = state.number + 1
    state.turn += 1
    state.enter_floor(nxt)
    return [Descended(nxt), Message(f"You descend to floor {nxt}.")]
