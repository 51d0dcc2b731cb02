"""The engine's one entry: ``step(state, action)`` applies one action to a :class:`GameState`
(in place) and returns what happened as a list of events. It never prints; every message is
also appended to ``state.log``. Reaching 0 HP, or leaving by the last exit, ends the run: after
that every action is answered with a message only.
"""

from __future__ import annotations

from roguelike.engine.actions import Action, Explore, Rest, Travel
from roguelike.engine.events import Event, Message
from roguelike.engine.state import GameState
from roguelike.engine.travel import explore, rest, travel
from roguelike.engine.turn import one_turn

__all__ = ["step"]


def step(state: GameState, action: Action) -> list[Event]:
    """Apply ``action`` to ``state`` and return the events it caused, in order."""
    if state.won:
        events: list[Event] = [Message("You have already left the dungeon.")]
    elif state.dead:
        events = [Message("You are dead.")]
    else:
        match action:
            case Rest():
                events = rest(state)
            case Travel() | Explore() if state.confused:
                events = [Message("You are too confused to walk far: one step at a time.")]
            case Travel():
                events = travel(state, action)
            case Explore():
                events = explore(state, onward=action.onward)
            case _:
                events = one_turn(state, action)
    for e in events:
        if isinstance(e, Message):
            state.say(e.text)
    return events
