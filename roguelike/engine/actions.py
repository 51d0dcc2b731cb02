"""What a player (or the autoplayer) asks the engine to do: small frozen dataclasses that
:func:`roguelike.engine.step.step` interprets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def _check_direction(obj: object, dx: int, dy: int) -> None:
    if dx not in (-1, 0, 1) or dy not in (-1, 0, 1) or (dx, dy) == (0, 0):
        raise ValueError(f"a direction is one step in one of eight directions, not {obj}")


@dataclass(frozen=True)
class Move:
    """One step in one of the eight directions (``dx``, ``dy`` in -1..1, not both 0).
    Walking into a door opens it, into a monster attacks it; walking onto a key or an item
    takes it."""

    dx: int
    dy: int

    def __post_init__(self) -> None:
        _check_direction(self, self.dx, self.dy)


@dataclass(frozen=True)
class Wait:
    """Let one turn pass."""


@dataclass(frozen=True)
class Search:
    """Spend a turn searching the cells around for hidden traps."""


@dataclass(frozen=True)
class Rest:
    """Wait turn after turn until healed, or until something interrupts: an awake monster
    comes into view, the player is attacked, or :data:`~roguelike.engine.travel.REST_LIMIT` turns
    pass. Refused with an awake monster in view."""


@dataclass(frozen=True)
class PickUp:
    """Take what lies on the player's cell (walking onto it takes it too)."""


@dataclass(frozen=True)
class Descend:
    """Take the stairs down, or leave the dungeon by the exit of the last floor."""


@dataclass(frozen=True)
class Open:
    """Open the closed door in direction (``dx``, ``dy``)."""

    dx: int
    dy: int

    def __post_init__(self) -> None:
        _check_direction(self, self.dx, self.dy)


@dataclass(frozen=True)
class Close:
    """Close the open door in direction (``dx``, ``dy``) if nothing stands in it."""

    dx: int
    dy: int

    def __post_init__(self) -> None:
        _check_direction(self, self.dx, self.dy)


@dataclass(frozen=True)
class Use:
    """Use (drink, read, throw) one ``item`` (a name in the item table) from the pack.
    ``choice``: for a scroll of identification, the unknown kind in the pack to name ("": the
    first)."""

    item: str
    choice: str = ""


@dataclass(frozen=True)
class Throw:
    """Throw one ``item`` (a bomb) from the pack at the cell (``x``, ``y``) in view and in range:
    it flies along the line of fire and bursts on the first monster or before the first wall in
    its way, or on the cell aimed at."""

    item: str
    x: int
    y: int


@dataclass(frozen=True)
class Drop:
    """Put one ``item`` from the pack on the player's cell (where nothing lies, and not on
    stairs or a pedestal); it can be taken again."""

    item: str


@dataclass(frozen=True)
class Wear:
    """Wear or wield ``item`` (a wearable, from the pack): what its slot held goes back to
    the pack (or falls apart, if corroded). A turn."""

    item: str


@dataclass(frozen=True)
class TakeOff:
    """Take off what the ``slot`` ("weapon" or "armour") holds, into the pack (a corroded item
    falls apart). A turn."""

    slot: str


@dataclass(frozen=True)
class ChoosePerk:
    """Take the perk at ``index`` (0-based) of the pending offer (``state.perk_offer``). No
    turn passes."""

    index: int


@dataclass(frozen=True)
class Travel:
    """Walk to the explored cell (``x``, ``y``) along a shortest known path, one turn per
    step, stopping early when a monster comes into view, the player is attacked or something
    is picked up."""

    x: int
    y: int


@dataclass(frozen=True)
class Explore:
    """Walk, turn after turn, towards the nearest place not yet seen (or an item or key seen
    lying there), stopping when a monster comes into view, the player is hurt, or something
    is picked up; refused with an awake monster in view.

    ``onward``: pick things up on the way and go on exploring (the first sight of the stairs
    or the exit stops it instead), as the ``e`` key does: a floor takes a few presses, not one
    per item. Recorded as its own code, so the explores of older recordings replay as they
    were played."""

    onward: bool = False


@dataclass(frozen=True)
class SolvePuzzle:
    """Report the play at the puzzle pedestal the player stands on: ``moves`` (the puzzle's
    move JSON, from its initial state), and the hints taken meanwhile, which cost
    ``coins_spent`` hint coins, and ``resets``, the times it was started again meanwhile (kept
    with the pedestal: they lower its score in later visits too). The engine replays the
    moves; if they solve the puzzle, the pedestal's lock opens. Progress is kept either way."""

    moves: tuple[Any, ...]
    hints_used: int = 0
    coins_spent: int = 0
    resets: int = 0


Action = (
    Move
    | Wait
    | Search
    | Rest
    | PickUp
    | Descend
    | Open
    | Close
    | Use
    | Throw
    | Drop
    | Wear
    | TakeOff
    | ChoosePerk
    | Travel
    | Explore
    | SolvePuzzle
)
