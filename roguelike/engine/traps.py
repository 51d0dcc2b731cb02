"""Hidden traps, ambush rooms and deep water: what a floor does to a player who walks into it.

A trap lies hidden until the player spots it (passing next to it, with a chance each step;
searching, a turn spent looking around, with a better chance for every trap within reach) or
triggers it, after which it is known: drawn ``^``, described by look, and avoided by travel,
explore and the autoplayer. A known trap still works when stepped on. The kinds:

* dart: a poisoned dart, damage that grows with the floor;
* alarm: a bell, a noise of loudness ``ALARM_RADIUS`` (:mod:`roguelike.engine.stealth`): the
  sleepers within earshot wake and come to look;
* net: a net that holds the player for ``NET_TURNS`` moves (each spent struggling);
* fire: a jet of flame (``FIRE_TRAP_DAMAGE``), and the trap's cell and the eight round it set
  alight (:func:`roguelike.engine.fire.ignite_around`): on moss the blaze burns on and spreads.

An ambush room (the roles stage's ``ambush``) wakes all its sleepers together the first time
the player steps in. Every roll is the play stream's (``state.rng``); the numbers are
``engine/balance.py``'s.
"""

from __future__ import annotations

from roguelike import depth, tiles
from roguelike.engine.balance import (
    ALARM_RADIUS,
    DART_DAMAGE,
    FIRE_TRAP_DAMAGE,
    LURK_SEARCH,
    LURK_SHOWN,
    NET_TURNS,
    PERK_SPOT,
    SEARCH_RADIUS,
    SPOT_PASSING,
    SPOT_SEARCH,
)
from roguelike.engine.combat import take_damage
from roguelike.engine.creatures import shown_name
from roguelike.engine.events import Died, Event, Message
from roguelike.engine.fire import ignite_around
from roguelike.engine.perks import perk_count
from roguelike.engine.state import GameState
from roguelike.engine.stealth import alert, awareness, make_noise
from roguelike.gen.special import special

__all__ = ["after_step", "held", "search", "spot_around", "spring"]


def _hidden_near(state: GameState, radius: int) -> list[tuple[int, int]]:
    """Hidden traps within ``radius`` steps (Chebyshev) of the player, in a fixed order."""
    px, py = state.player
    return sorted(
        pos
        for pos in state.traps
        if pos not in state.traps_known
        and max(abs(pos[0] - px), abs(pos[1] - py)) <= radius
        and pos != state.player
    )


def spot_around(state: GameState, chance: int, radius: int) -> list[Event]:
    """Roll ``chance`` percent (more with keen eyes) for each hidden trap within ``radius``:
    those found are known."""
    chance += PERK_SPOT * perk_count(state, "keen eyes")
    events: list[Event] = []
    for pos in _hidden_near(state, radius):
        if state.rng.integers(100) < chance:
            state.traps_known.add(pos)
            events.append(Message(f"You spot {_a(state.traps[pos])} trap."))
    return events


def search(state: GameState) -> list[Event]:
    """A turn spent searching the cells around for hidden traps."""
    state.turn += 1
    found = spot_around(state, SPOT_SEARCH, SEARCH_RADIUS) + _spot_lurkers(state)
    return found or [Message("You search around you and find nothing.")]


def _spot_lurkers(state: GameState) -> list[Event]:
    """A search also shows every lurker in view within :data:`LURK_SEARCH` cells (for
    :data:`LURK_SHOWN` of its turns: one asleep stays shown till it wakes)."""
    events: list[Event] = []
    px, py = state.player
    for m in state.monsters:
        near = max(abs(m.x - px), abs(m.y - py)) <= LURK_SEARCH
        if m.info.lurks and near and state.visible[m.y, m.x] and not state.shows(m):
            m.extra["shown"] = LURK_SHOWN
            made_out = _a(shown_name(state, m))
            events.append(Message(f"You make out {made_out} lurking in the shadows!"))
    return events


def held(state: GameState) -> list[Event] | None:
    """If a net holds the player, a move is spent struggling (the events); else None."""
    if state.netted <= 0:
        return None
    state.netted -= 1
    state.turn += 1
    if state.netted:
        return [Message("You struggle in the net.")]
    return [Message("You tear yourself free of the net.")]


def spring(state: GameState, pos: tuple[int, int]) -> list[Event]:
    """The trap at ``pos`` goes off under the player, and is known from now on."""
    kind = state.traps[pos]
    state.traps_known.add(pos)
    if kind == "dart":
        lo, hi = DART_DAMAGE
        damage = int(state.rng.integers(lo, hi + 1)) + depth.DART_BONUS.at(state.number)
        if not take_damage(state, damage, "killed by a dart trap"):
            return [Message(f"A dart trap! A poisoned dart hits you: {damage} damage.")]
        dies = f"A dart trap! The dart hits you: {damage} damage. You die..."
        return [Died(state.stats.cause or ""), Message(dies)]
    if kind == "alarm":  # a noise: the sleepers that hear it come to look
        bell = Message("An alarm trap! A bell rings out across the floor.")
        return [bell, *make_noise(state, pos[0], pos[1], ALARM_RADIUS)]
    if kind == "fire":
        return _fire_trap(state, pos)
    state.netted = NET_TURNS
    return [Message("A net trap! A weighted net falls over you.")]


def _fire_trap(state: GameState, pos: tuple[int, int]) -> list[Event]:
    """A jet of flame under the player, then the ground round the trap alight."""
    lo, hi = FIRE_TRAP_DAMAGE
    damage = int(state.rng.integers(lo, hi + 1))
    if take_damage(state, damage, "burnt by a fire trap"):
        dies = f"A fire trap! A jet of flame engulfs you: {damage} damage. You die..."
        return [Died(state.stats.cause or ""), Message(dies)]
    jet = Message(f"A fire trap! A jet of flame engulfs you: {damage} damage.")
    return [jet, *ignite_around(state, pos)]


def _ambush(state: GameState) -> list[Event]:
    """The ambush room the player just entered springs (a room whose special record
    ``springs``): its sleepers all wake together."""
    fl = state.floor
    x, y = state.player
    room = int(fl.room_map[y, x])
    record = special(fl.roles.get(room))
    if room < 0 or record is None or not record.springs or room in state.sprung:
        return []
    state.sprung.add(room)
    woke = [
        m
        for m in state.monsters
        if m.hp > 0 and int(fl.room_map[m.y, m.x]) == room and awareness(m) != "hunting"
    ]
    for m in woke:
        alert(m)
    if not woke:
        return []
    return [Message("An ambush! The room's sleepers leap up as one.")]


def after_step(state: GameState) -> list[Event]:
    """What the cell the player just stepped onto does: a trap, an ambush, a trap spotted."""
    events: list[Event] = []
    if state.player in state.traps:
        events += spring(state, state.player)
    if not state.dead:
        events += _ambush(state)
        events += spot_around(state, SPOT_PASSING, 1)
    return events


def swimming(state: GameState) -> bool:
    """The player is in deep water: each step there costs a second turn."""
    x, y = state.player
    return int(state.tiles[y, x]) == tiles.DEEP_WATER


def _a(kind: str) -> str:
    return ("an " if kind[0] in "aeiou" else "a ") + kind
