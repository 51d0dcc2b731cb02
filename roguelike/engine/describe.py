"""How the game names things to the player: articles, keys, and the look-mode text of a cell."""

from __future__ import annotations

from roguelike import tiles
from roguelike.engine.creatures import ITEMS
from roguelike.engine.state import GameState

__all__ = ["TILE_TEXT", "a", "describe", "key_name"]


def key_name(key: int) -> str:
    """How the player reads key ``key``: ``the red key (A)``."""
    return f"the {tiles.key_colour(key)[0]} key ({tiles.key_letter(key)})"


def a(name: str) -> str:
    """``a goblin``, ``an orc``."""
    return ("an " if name[0] in "aeiou" else "a ") + name


#: Look-mode text of each tile, by its name.
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
