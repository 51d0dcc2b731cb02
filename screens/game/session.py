"""What a game screen plays through: the game session.

The app gives the screen its :class:`saves.Session` (which records every action, remembers the
floors left behind, autosaves, and becomes a saved world when the player takes over a watched
game); a screen made without one plays on :class:`Unsaved`, the engine's own ``step`` with
nothing saved (tests, the UI bench). :class:`GameSession` is what the screen uses of either.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from roguelike.engine import Action, Event, GameState, step
from saves.world import World


class GameSession(Protocol):
    """The part of :class:`saves.Session` a game screen uses (see its docstrings)."""

    state: GameState
    watching: bool
    save_due: bool
    save_error: str | None

    def step(self, action: Action, *, autosave_now: bool = True) -> list[Event]: ...

    def save_if_due(self) -> bool: ...

    def next_floor_ready(self) -> bool: ...

    def wait_for_next_floor(
        self,
        *,
        stopped: Callable[[], bool] = ...,
        making: Callable[[], None] | None = None,
    ) -> bool: ...

    def take_over(self) -> World: ...


class Unsaved:
    """A game played on the engine's ``step`` alone: nothing recorded or saved, the floor
    below always ready (it is generated at the stairs), never a watched game to take over."""

    watching = False
    save_due = False
    save_error: str | None = None

    def __init__(self, state: GameState) -> None:
        self.state = state

    def step(self, action: Action, *, autosave_now: bool = True) -> list[Event]:
        return step(self.state, action)

    def save_if_due(self) -> bool:
        return True

    def next_floor_ready(self) -> bool:
        return True

    def wait_for_next_floor(
        self,
        *,
        stopped: Callable[[], bool] = lambda: False,
        making: Callable[[], None] | None = None,
    ) -> bool:
        return True

    def take_over(self) -> World:
        raise TypeError("an unsaved game is never watched: there is nothing to take over")
