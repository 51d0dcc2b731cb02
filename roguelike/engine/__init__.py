"""The game core of play: state, actions, the turn engine, events and field of view.

Pure Python and numpy: no Textual here, and nothing is printed. The screens send actions to
:func:`step` and draw the events it returns.
"""

from roguelike.engine.actions import Action, Descend, Move, PickUp, Wait
from roguelike.engine.engine import can_step, key_name, step
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
from roguelike.engine.fov import compute_fov
from roguelike.engine.state import GameState, new_game

__all__ = [
    "Action",
    "Bumped",
    "Descend",
    "Descended",
    "DoorOpened",
    "DoorUnlocked",
    "Event",
    "GameState",
    "KeyTaken",
    "Message",
    "Move",
    "Moved",
    "PickUp",
    "Wait",
    "Won",
    "can_step",
    "compute_fov",
    "key_name",
    "new_game",
    "step",
]
