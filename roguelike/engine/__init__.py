"""The game core of play: state, actions, the turn engine, events, creatures and field of view.

Pure Python and numpy: no Textual here, and nothing is printed. The screens send actions to
:func:`step` and draw the state and the events it returns.

The modules, from the bottom up: ``actions`` and ``events`` (what goes in and comes out),
``creatures`` (monster and item kinds as data, and who lives where), ``puzzle_rooms``, ``fov``,
``pathing`` (distance maps), ``state``; ``grid`` (legal steps), ``describe`` (the words for
things), ``combat``, ``items``, ``monsters``, ``player`` (the player's single-turn actions),
``turn`` (one turn and the world's answer), ``travel`` (rest, travel, explore) and ``step``.
"""

from roguelike.engine.actions import (
    Action,
    ChoosePerk,
    Close,
    Descend,
    Drop,
    Explore,
    Move,
    Open,
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
)
from roguelike.engine.creatures import ITEMS, MONSTERS, ItemKind, Monster, MonsterKind
from roguelike.engine.describe import describe, key_name
from roguelike.engine.events import (
    Attacked,
    Bumped,
    Descended,
    Died,
    DoorClosed,
    DoorOpened,
    DoorUnlocked,
    Event,
    ItemDropped,
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
from roguelike.engine.fov import compute_fov
from roguelike.engine.grid import can_step, doors_around
from roguelike.engine.puzzle_rooms import PuzzleRoom
from roguelike.engine.state import GameState, RunStats, new_game
from roguelike.engine.step import step

__all__ = [
    "ITEMS",
    "MONSTERS",
    "Action",
    "Attacked",
    "Bumped",
    "Close",
    "Descend",
    "Descended",
    "ChoosePerk",
    "Drop",
    "TakeOff",
    "Wear",
    "Died",
    "DoorClosed",
    "DoorOpened",
    "DoorUnlocked",
    "Event",
    "Explore",
    "GameState",
    "ItemDropped",
    "ItemKind",
    "ItemTaken",
    "ItemUsed",
    "KeyTaken",
    "LevelUp",
    "Message",
    "Monster",
    "MonsterKind",
    "Move",
    "Moved",
    "Open",
    "PickUp",
    "PuzzleFound",
    "PuzzleRoom",
    "PuzzleSolved",
    "Rest",
    "RunStats",
    "SolvePuzzle",
    "Throw",
    "Travel",
    "Use",
    "Search",
    "Wait",
    "Won",
    "can_step",
    "compute_fov",
    "describe",
    "doors_around",
    "key_name",
    "new_game",
    "step",
]
