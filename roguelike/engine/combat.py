"""Blows: the player's and the monsters' attacks, damage, death, experience and levels.

A blow hits with a chance (the player's accuracy, 85% unless a clumsy weapon lowers it; a
monster's own accuracy minus ``DEFENCE_DODGE`` per point of the player's defence), then deals
its damage roll (the player's raised while berserk, lowered while weary; a monster's scaled by
the world's difficulty) minus the target's defence, at least 1. All rolls draw from
``state.rng``, the floor's gameplay stream. A kill gives the monster's experience; each level
up adds ``LEVEL_HP`` HP (maximum and current), 1 to the top of the damage roll and, on every
odd level, 1 to its bottom. An invulnerable player (a measuring switch of the
autoplayer, never saved) is left at 1 HP by a blow that would kill it.

Some kinds' blows do more than damage: a swarming kind hits surer and harder for each other
swarming monster next to the player; a thief's blow takes an item from the pack (or a hint
coin) instead of HP, and the thief drops it where it dies; a corroding kind's blow may wear the
player's armour by 1 for good, or with no armour left the blade, never below what levels gave.
"""

from __future__ import annotations

from roguelike import tiles
from roguelike.engine.balance import (
    BERSERK_BONUS,
    DEFENCE_DODGE,
    LEVEL_HP,
    PLAYER_ACCURACY,
    SWARM_ACCURACY,
    WEARY_MALUS,
)
from roguelike.engine.creatures import Monster, monster_attack
from roguelike.engine.describe import a, item_name, level_attack
from roguelike.engine.events import Attacked, Died, Event, LevelUp, Message
from roguelike.engine.grid import DIRS8
from roguelike.engine.state import GameState

__all__ = [
    "PLAYER_ACCURACY",
    "drop_loot",
    "fury",
    "gain_xp",
    "hurt_monster",
    "hurt_player",
    "take_damage",
    "monster_hits",
    "player_attacks",
]


def player_attacks(state: GameState, m: Monster) -> list[Event]:
    """The player strikes ``m`` (and wakes it)."""
    m.awake = True
    if state.rng.integers(100) >= state.accuracy:
        return [Attacked("you", m.kind, 0, False), Message(f"You miss the {m.kind}.")]
    roll = int(state.rng.integers(state.attack[0], state.attack[1] + 1)) + fury(state)
    return hurt_monster(state, m, max(1, roll - m.info.defence), "you")


def fury(state: GameState) -> int:
    """What the player's blows gain (berserk) or lose (weary) now."""
    return BERSERK_BONUS if state.berserk else -WEARY_MALUS if state.weary else 0


def take_damage(state: GameState, damage: int, cause: str) -> bool:
    """The player loses ``damage`` HP, whatever dealt it; True when that ends the run, as
    ``cause`` ("killed by a goblin") on this floor. The one place a run ends in death, so an
    invulnerable player (a measuring run: see ``GameState.invulnerable``) is spared here: it
    is left at 1 HP and the blow is counted."""
    state.hp -= damage
    if state.hp <= 0 and state.invulnerable:
        state.hp = 1
        state.spared += 1
    if state.hp > 0:
        return False
    state.hp = 0
    state.dead = True
    state.stats.cause = f"{cause} on floor {state.number}"
    return True


def hurt_player(state: GameState, damage: int, cause: str) -> list[Event]:
    """The player takes ``damage`` from something that is not a monster's blow (its own bomb);
    at 0 HP the run ends with ``cause``."""
    if not take_damage(state, damage, cause):
        return [Message(f"You are burnt for {damage}.")]
    return [Died(state.stats.cause or cause), Message(f"You are burnt for {damage}. You die...")]


def hurt_monster(
    state: GameState, m: Monster, damage: int, by: str, *, ranged: bool = False
) -> list[Event]:
    """``m`` takes ``damage`` from the player's ``by`` (a blow, a bomb); a kill is counted and
    its experience gained."""
    m.hp -= damage
    m.awake = True
    if m.hp > 0:
        return [
            Attacked(by, m.kind, damage, False, ranged),
            Message(f"You hit the {m.kind} for {damage}."),
        ]
    state.monsters.remove(m)
    state.stats.kills += 1
    events: list[Event] = [
        Attacked(by, m.kind, damage, True, ranged),
        Message(f"You kill the {m.kind}."),
    ]
    if m.loot:
        events += drop_loot(state, m)
    return events + gain_xp(state, m.info.xp)


def drop_loot(state: GameState, m: Monster) -> list[Event]:
    """A dead thief's loot falls on its cell, or on the nearest free one round it but the
    player's (lost if every cell round it holds something)."""
    walk = tiles.WALKABLE[state.tiles]
    for dx, dy in ((0, 0), *DIRS8):
        x, y = m.x + dx, m.y + dy
        free = (x, y) not in state.items_lying and (x, y) not in state.keys_lying
        inside = 0 <= y < state.height and 0 <= x < state.width
        # never under the player, who would stand on it without taking it
        mine = (x, y) == state.player
        if inside and free and not mine and walk[y, x] and (x, y) not in state.puzzles:
            state.items_lying[(x, y)] = m.loot
            return [Message(f"The {m.kind} drops your {item_name(state, m.loot)}.")]
    return []


def gain_xp(state: GameState, xp: int) -> list[Event]:
    """Add ``xp`` experience and take every level it reaches."""
    state.xp += xp
    events: list[Event] = []
    while state.xp >= state.xp_to_next:
        state.xp -= state.xp_to_next
        state.level += 1
        state.max_hp += LEVEL_HP
        state.hp += LEVEL_HP
        lo, hi = state.attack
        state.attack = (lo + state.level % 2, hi + 1)
        lo, hi = state.attack
        events += [
            LevelUp(state.level),
            Message(f"You reach level {state.level}: {state.max_hp} HP, hits of {lo}-{hi}."),
        ]
    return events


def monster_hits(state: GameState, m: Monster, *, ranged: bool) -> list[Event]:
    """``m`` attacks the player (a shot when ``ranged``); at 0 HP the run ends."""
    info = m.info
    verb = "shoots at" if ranged else "attacks"
    swarm = _swarming(state, m) if info.swarm and not ranged else 0
    accuracy = info.accuracy + SWARM_ACCURACY * swarm
    if state.rng.integers(100) >= accuracy - DEFENCE_DODGE * state.defence:
        return [
            Attacked(m.kind, "you", 0, False, ranged),
            Message(f"The {m.kind} {verb} you and misses."),
        ]
    if info.steals and not m.loot and not ranged:
        took = _steal(state, m)
        if took:
            return [Attacked(m.kind, "you", 0, False, ranged), Message(took)]
    lo, hi = monster_attack(info, state.difficulty)
    roll = int(state.rng.integers(lo, hi + 1)) + info.swarm * swarm
    damage = max(1, roll - state.defence)
    worn = _corrode(state, m) if info.corrodes and not ranged else []
    died = take_damage(state, damage, f"killed by {a(m.kind)}")
    events: list[Event] = [Attacked(m.kind, "you", damage, died, ranged)]
    if not died:
        return events + [Message(f"The {m.kind} {verb} you: {damage} damage.")] + worn
    cause = state.stats.cause or ""
    return events + [Died(cause), Message(f"The {m.kind} {verb} you: {damage} damage. You die...")]


def _swarming(state: GameState, m: Monster) -> int:
    """The other swarming monsters next to the player, who make ``m``'s blow surer."""
    px, py = state.player
    return sum(
        1
        for o in state.monsters
        if o is not m and o.info.swarm and max(abs(o.x - px), abs(o.y - py)) == 1
    )


def _steal(state: GameState, m: Monster) -> str | None:
    """The thief ``m`` takes one item of the pack (drawn by the gameplay stream, from the
    names in order) or, with an empty pack, one hint coin; what it says, or None with nothing
    to take."""
    names = sorted(n for n, count in state.inventory.items() if count > 0)
    if names:
        name = names[int(state.rng.integers(len(names)))]
        state.inventory[name] -= 1
        if not state.inventory[name]:
            del state.inventory[name]
    elif state.hint_coins:
        state.hint_coins -= 1
        name = "hint coin"
    else:
        return None
    m.loot = name
    return f"The {m.kind} snatches your {item_name(state, name)} and runs!"


def _corrode(state: GameState, m: Monster) -> list[Event]:
    """By chance, ``m``'s blow wears the player's armour by 1, or with none the blade, never
    below what levels alone give."""
    if state.rng.integers(100) >= m.info.corrodes:
        return []
    if state.defence > 0:
        state.defence -= 1
        return [Message(f"The {m.kind} eats into your armour: defence {state.defence}.")]
    base = level_attack(state.level)
    lo, hi = state.attack
    if lo > base[0] and hi > base[1]:
        state.attack = (lo - 1, hi - 1)
        return [Message(f"The {m.kind} pits your blade: hits of {lo - 1}-{hi - 1}.")]
    return []
