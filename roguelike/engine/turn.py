"""One turn: the player's single-turn action, then, if it spent a turn on the same floor, the
world's answer (the monsters act, then the allies, the fire burns, the player regenerates, the
view is brought up to date).

Time is counted in player turns. The player regains 1 HP every few turns: every 9 at level 1,
one turn fewer every two levels, every 3 at the quickest (a regeneration perk takes more off).
"""

from __future__ import annotations

import numpy as np

from roguelike.engine.actions import (
    Action,
    ChoosePerk,
    Close,
    Descend,
    Drop,
    Move,
    Open,
    PickUp,
    Search,
    SolvePuzzle,
    TakeOff,
    Throw,
    Use,
    Wait,
    Wear,
)
from roguelike.engine.allies import allies_act
from roguelike.engine.balance import PERK_REGEN, REGEN_FASTEST
from roguelike.engine.events import Event
from roguelike.engine.fire import burn
from roguelike.engine.gear import take_off, wear
from roguelike.engine.items import drop, stray, throw, tick_effects, use
from roguelike.engine.monsters import monsters_act, spot_guards
from roguelike.engine.perks import choose_perk, perk_count
from roguelike.engine.player import close_door, descend, move, open_door, pick_up, solve_puzzle
from roguelike.engine.state import GameState
from roguelike.engine.traps import search, swimming

__all__ = ["one_turn", "regenerate", "world_turn"]


def one_turn(state: GameState, action: Action) -> list[Event]:
    """One action; if it spends a turn, the world answers (monsters, healing, view)."""
    turn_before = state.turn
    floor_before = state.number
    match action:
        case Move(dx, dy):
            events = move(state, *stray(state, dx, dy))
        case Wait():
            state.turn += 1
            events = []
        case Search():
            events = search(state)
        case PickUp():
            events = pick_up(state)
        case Descend():
            events = descend(state)
        case Open():
            events = open_door(state, action)
        case Close():
            events = close_door(state, action)
        case Use(item, choice):
            events = use(state, item, choice)
        case Throw(item, x, y):
            events = throw(state, item, x, y)
        case Drop(item):
            events = drop(state, item)
        case Wear(item):
            events = wear(state, item)
        case TakeOff(slot):
            events = take_off(state, slot)
        case ChoosePerk(index):
            events = choose_perk(state, index)
        case SolvePuzzle():
            events = solve_puzzle(state, action)
        case _:  # pragma: no cover - the multi-turn actions are step's
            raise TypeError(f"not a single-turn action: {action!r}")
    if state.turn != turn_before and state.number == floor_before and not state.won:
        events += world_turn(state)
        # a stroke through deep water costs a second turn, in which the world acts again
        if isinstance(action, Move) and swimming(state) and not state.dead:
            state.turn += 1
            events += world_turn(state)
    elif state.number != floor_before:
        spot_guards(state)  # the guards in view on arriving
    return events


def world_turn(state: GameState) -> list[Event]:
    """Everything that happens after the player spent a turn."""
    state.update_view()  # monsters notice the player from where they now stand
    before = state.tiles.copy()
    events = monsters_act(state)
    if state.allies and not state.dead:
        events += allies_act(state)
    if not state.dead:
        events += burn(state)  # the fire spreads, burns out, and scorches who stands in it
    if not state.dead:
        regenerate(state)
        events += tick_effects(state)
    if not np.array_equal(before, state.tiles):  # a monster opened a door: the view changed
        state.update_view()
    spot_guards(state)
    return events


def regenerate(state: GameState) -> None:
    """The player's healing clock ticks; at its period the player regains 1 HP."""
    state.regen_clock += 1
    period = max(3, 9 - state.level // 2)
    quicker = PERK_REGEN * perk_count(state, "regeneration")
    if quicker:
        period = max(REGEN_FASTEST, period - quicker)
    if state.regen_clock >= period:
        state.regen_clock = 0
        state.hp = min(state.max_hp, state.hp + 1)
