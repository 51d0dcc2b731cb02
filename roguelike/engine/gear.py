"""What the player wears and wields: two slots, a weapon and an armour, and the numbers that
come from them.

A wearable (an item whose kind has a ``slot``) found in a hoard, a vault or on the floor goes
into the pack; it is put on at once only when its slot is empty *and* it has no cost (no
slowness, no clumsiness), so a vault or a hoard never puts a cost on the player that the player
did not choose. :func:`wear` puts on a wearable from the pack (the one worn in its slot goes
back to the pack) and :func:`take_off` takes one off, each spending a turn.

``state.equipment`` holds what is worn (item → enchantment). A worn item adds its kind's
``amount`` plus its enchantment (never below 0) to damage or defence, and its cost (speed,
accuracy) while it is worn, whatever its enchantment: :func:`refresh` computes the player's
attack, defence, accuracy and speed from the level, what is worn and the perks taken, never
by accumulating. A corroding monster's blow lowers the enchantment of the worn armour (or,
with none left to eat, of the weapon): a worn-out item keeps its cost until it is taken off,
and a corroded item falls apart when it is (the pack keeps only whole items).
"""

from __future__ import annotations

from roguelike.engine.balance import (
    HIT_MOST,
    PERK_ACCURACY,
    PERK_SKIN,
    PLAYER_ACCURACY,
    PLAYER_SPEED,
    PLAYER_SPEED_LEAST,
)
from roguelike.engine.creatures import ITEMS, ItemKind
from roguelike.engine.describe import a, level_attack
from roguelike.engine.events import Event, Message
from roguelike.engine.state import GameState

__all__ = [
    "SLOTS",
    "bonus",
    "corrode",
    "costly",
    "refresh",
    "stow",
    "take_off",
    "wear",
    "wearable",
    "worn",
]

#: The slots, in the order the sheet lists them.
SLOTS = ("weapon", "armour")
#: The least chance to hit, however clumsy the weapon.
HIT_LEAST = 5


def wearable(item: str) -> bool:
    """``item`` is worn or wielded in a slot."""
    return bool(ITEMS[item].slot)


def costly(info: ItemKind) -> bool:
    """The item has a cost while worn (slowness or clumsiness)."""
    return bool(info.slow or info.clumsy)


def worn(state: GameState, slot: str) -> str | None:
    """The item worn in ``slot``, if any."""
    return next((i for i in state.equipment if ITEMS[i].slot == slot), None)


def bonus(state: GameState, item: str) -> int:
    """What the worn ``item`` adds now (to damage or defence): its amount plus its
    enchantment, at least 0."""
    return max(0, ITEMS[item].amount + state.equipment.get(item, 0))


def refresh(state: GameState) -> None:
    """Compute the player's damage roll, defence, accuracy and speed from the level, what is
    worn and the perks taken."""
    lo, hi = level_attack(state.level)
    attack = defence = clumsy = slow = 0
    for item in state.equipment:
        info = ITEMS[item]
        if info.effect == "attack":
            attack += bonus(state, item)
        elif info.effect == "defence":
            defence += bonus(state, item)
        clumsy += info.clumsy
        slow += info.slow
    state.attack = (lo + attack, hi + attack)
    state.defence = defence + PERK_SKIN * state.perks.count("thick skin")
    hit = PLAYER_ACCURACY - clumsy + PERK_ACCURACY * state.perks.count("accuracy")
    state.accuracy = max(HIT_LEAST, min(HIT_MOST, hit))
    state.speed = max(PLAYER_SPEED_LEAST, PLAYER_SPEED - slow)


def _words(state: GameState, item: str) -> str:
    """What the worn ``item`` does now, for a message."""
    info = ITEMS[item]
    cost = ""
    if info.clumsy:
        cost = f", but you hit only {state.accuracy}% of the time"
    if info.slow:
        cost = f", but your speed is {state.speed}"
    if info.effect == "attack":
        return f"hits of {state.attack[0]}-{state.attack[1]}{cost}"
    return f"defence {state.defence}{cost}"


def stow(state: GameState, item: str) -> str:
    """A wearable just taken (from a hoard, a vault, the floor): into the pack, and put on at
    once only when its slot is empty and it costs nothing; what to say (no turn of its own)."""
    info = ITEMS[item]
    if worn(state, info.slot) is None and not costly(info):
        state.equipment[item] = 0
        refresh(state)
        verb = "wield it" if info.slot == "weapon" else "put it on"
        return f"You take {a(item)} and {verb}: {_words(state, item)}."
    state.inventory[item] = state.inventory.get(item, 0) + 1
    key = "w wears it" if info.slot == "armour" else "w wields it"
    return f"You put {a(item)} in your pack ({key})."


def _remove(state: GameState, item: str) -> str:
    """Take the worn ``item`` off: back into the pack, or gone if corrosion ate at it."""
    enchant = state.equipment.pop(item)
    if enchant < 0:
        return f"Your corroded {item} falls apart as you take it off."
    state.inventory[item] = state.inventory.get(item, 0) + 1
    return f"You take off your {item}."


def wear(state: GameState, item: str) -> list[Event]:
    """Put on (or wield) ``item`` from the pack, taking off what its slot held: a turn."""
    if state.inventory.get(item, 0) <= 0:
        return [Message(f"You have no {item} in your pack.")]
    info = ITEMS[item]
    if not info.slot:
        return [Message(f"You cannot wear {a(item)}.")]
    said: list[Event] = []
    old = worn(state, info.slot)
    if old is not None:
        said.append(Message(_remove(state, old)))
    state.inventory[item] -= 1
    if not state.inventory[item]:
        del state.inventory[item]
    state.equipment[item] = 0
    refresh(state)
    state.turn += 1
    verb = "wield" if info.slot == "weapon" else "put on"
    return said + [Message(f"You {verb} {a(item)}: {_words(state, item)}.")]


def take_off(state: GameState, slot: str) -> list[Event]:
    """Take off what ``slot`` holds (into the pack, unless corroded): a turn."""
    if slot not in SLOTS:
        return [Message(f"There is no {slot} slot.")]
    item = worn(state, slot)
    if item is None:
        return [Message(f"You have no {slot} on.")]
    said = _remove(state, item)
    refresh(state)
    state.turn += 1
    return [
        Message(
            f"{said} Defence {state.defence}, hits of {state.attack[0]}-"
            f"{state.attack[1]}, speed {state.speed}."
        )
    ]


def corrode(state: GameState, kind: str) -> list[Event]:
    """A corroding blow of a ``kind`` lowers the enchantment of the worn armour by 1, or with
    no armour left to eat, of the weapon; nothing when neither adds anything any more."""
    for slot in ("armour", "weapon"):
        item = worn(state, slot)
        if item is not None and bonus(state, item) > 0:
            state.equipment[item] -= 1
            refresh(state)
            if slot == "armour":
                return [Message(f"The {kind} eats into your {item}: defence {state.defence}.")]
            lo, hi = state.attack
            return [Message(f"The {kind} pits your {item}: hits of {lo}-{hi}.")]
    return []
