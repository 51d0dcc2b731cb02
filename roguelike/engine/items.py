"""Keys and items: taking them, and using what the pack holds.

Keys and items are taken by walking onto them (or with :class:`PickUp` on their cell). An item
does what its kind's ``effect`` says (:data:`roguelike.engine.creatures.ITEMS`): a pack item
waits in the pack until used (:data:`USE`), any other is applied when taken (:data:`TAKE`).
Which handler runs depends on the effect, never on the item's name (the upgrade handlers'
messages still name today's one item of each effect). Using an item spends a turn, unless it
is refused (a potion at full HP, a bomb with nothing in view): then it is kept and no time
passes.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from roguelike import tiles
from roguelike.engine.balance import BOMB_DAMAGE
from roguelike.engine.combat import hurt_monster
from roguelike.engine.creatures import ITEMS, ItemKind, Monster
from roguelike.engine.describe import a, key_name
from roguelike.engine.events import Event, ItemTaken, ItemUsed, KeyTaken, Message
from roguelike.engine.grid import chebyshev
from roguelike.engine.state import GameState

__all__ = ["BOMB_DAMAGE", "TAKE", "USE", "held", "receive", "take_here", "use"]

#: A pack item's effect: its events, or why it cannot be used now (a string: no turn passes).
UseEffect = Callable[[GameState, ItemKind], list[Event] | str]
#: An effect applied when its item is taken: what to say.
TakeEffect = Callable[[GameState, ItemKind], str]


# --- taking -----------------------------------------------------------------------------------


def take_here(state: GameState) -> list[Event]:
    """Take the key and the item on the player's cell; no events when there is nothing."""
    events: list[Event] = []
    key = state.keys_lying.pop(state.player, None)
    if key is not None:
        state.keys_held.add(key)
        state.stats.keys += 1
        events += [KeyTaken(key), Message(f"You take {key_name(key)}.")]
    item = state.items_lying.pop(state.player, None)
    if item is not None:
        events += [ItemTaken(item), Message(receive(state, item))]
    return events


def receive(state: GameState, item: str) -> str:
    """Put ``item`` where it goes (the pack, or straight into effect); what to say."""
    info = ITEMS[item]
    if info.kind == "pack":
        state.inventory[item] = state.inventory.get(item, 0) + 1
        return f"You pick up {a(item)}."
    return TAKE[info.effect](state, info)


def _coin(state: GameState, item: ItemKind) -> str:
    state.hint_coins += 1
    return f"You pick up a hint coin ({state.hint_coins} held)."


def _attack(state: GameState, item: ItemKind) -> str:
    state.attack = (state.attack[0] + item.amount, state.attack[1] + item.amount)
    return f"You take up a sharper blade: your blows hit {item.amount} harder."


def _defence(state: GameState, item: ItemKind) -> str:
    state.defence += item.amount
    return f"You strap on an iron plate: defence {state.defence}."


def _vigour(state: GameState, item: ItemKind) -> str:
    state.max_hp += item.amount
    state.hp = state.max_hp
    return f"You drink a heart elixir: {state.max_hp} HP, fully healed."


#: Effects applied when taken, by effect.
TAKE: dict[str, TakeEffect] = {
    "coin": _coin,
    "attack": _attack,
    "defence": _defence,
    "vigour": _vigour,
}


# --- using ------------------------------------------------------------------------------------


def use(state: GameState, item: str) -> list[Event]:
    """Use ``item`` from the pack: its effect, one item fewer, a turn spent."""
    if state.inventory.get(item, 0) <= 0:
        return [Message(f"You have no {item}.")]
    info = ITEMS[item]
    if info.effect not in USE:  # pragma: no cover - only pack items reach the pack
        raise ValueError(f"{item} cannot be used")
    events = USE[info.effect](state, info)
    if isinstance(events, str):
        return [Message(events)]
    state.inventory[item] -= 1
    if not state.inventory[item]:
        del state.inventory[item]
    state.turn += 1
    return [ItemUsed(item), *events]


def held(state: GameState, effect: str) -> str | None:
    """The first item in the pack with ``effect``, if any."""
    return next((i for i, n in state.inventory.items() if n and ITEMS[i].effect == effect), None)


def _heal(state: GameState, item: ItemKind) -> list[Event] | str:
    if state.hp >= state.max_hp:
        return "You are not hurt."
    healed = min(item.amount, state.max_hp - state.hp)
    state.hp += healed
    return [Message(f"You drink {a(item.name)}: +{healed} HP.")]


def _map(state: GameState, item: ItemKind) -> list[Event] | str:
    state.explored |= state.tiles != tiles.VOID
    return [Message("The scroll burns, and the floor's layout glows in your mind.")]


def _blink(state: GameState, item: ItemKind) -> list[Event] | str:
    """To the free cell in view farthest from the monsters in view (or from the player's own
    cell, with none in view); never into a doorway, onto a pedestal, key or item."""
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


def _bomb(state: GameState, item: ItemKind) -> list[Event] | str:
    seen = state.visible_monsters()
    if not seen:
        return "There is nothing in view to throw it at."
    return _burn(state, item, seen[0])


def _burn(state: GameState, item: ItemKind, target: Monster) -> list[Event]:
    """The bomb bursts on ``target``: it and every monster next to it take a damage roll."""
    events: list[Event] = [Message(f"You throw {a(item.name)} at the {target.kind}!")]
    for m in list(state.monsters):
        if chebyshev(m.pos, target.pos) <= 1:
            dmg = int(state.rng.integers(BOMB_DAMAGE[0], BOMB_DAMAGE[1] + 1))
            events += hurt_monster(state, m, dmg, "you", ranged=True)
    return events


#: Effects of pack items, by effect.
USE: dict[str, UseEffect] = {
    "heal": _heal,
    "map": _map,
    "blink": _blink,
    "bomb": _bomb,
}
