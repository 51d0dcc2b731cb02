"""Blows: the player's and the monsters' attacks, damage, death, experience and levels.

A blow hits with a chance (the player's accuracy, 85% unless a clumsy weapon lowers it; a
monster's own accuracy minus 3 per point of the player's defence), then deals its damage roll
(the player's raised while berserk, lowered while weary) minus the target's defence, at least
1. All rolls draw from ``state.rng``, the floor's gameplay stream. A kill gives the monster's
experience; each level up adds 5 HP (maximum and current), 1 to the top of the damage roll and,
on every odd level, 1 to its bottom. An invulnerable player (a measuring switch of the
autoplayer, never saved) is left at 1 HP by a blow that would kill it.
"""

from __future__ import annotations

from roguelike.engine.balance import (
    BERSERK_BONUS,
    DEFENCE_DODGE,
    LEVEL_HP,
    PLAYER_ACCURACY,
    WEARY_MALUS,
)
from roguelike.engine.creatures import Monster
from roguelike.engine.describe import a
from roguelike.engine.events import Attacked, Died, Event, LevelUp, Message
from roguelike.engine.state import GameState

__all__ = [
    "PLAYER_ACCURACY",
    "fury",
    "gain_xp",
    "hurt_monster",
    "hurt_player",
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


def hurt_player(state: GameState, damage: int, cause: str) -> list[Event]:
    """The player takes ``damage`` from something that is not a monster's blow (its own bomb);
    at 0 HP the run ends with ``cause``."""
    state.hp -= damage
    if state.hp <= 0 and state.invulnerable:  # a measuring run: see GameState.invulnerable
        state.hp = 1
        state.spared += 1
    if state.hp > 0:
        return [Message(f"You are burnt for {damage}.")]
    state.hp = 0
    state.dead = True
    state.stats.cause = f"{cause} on floor {state.number}"
    return [Died(state.stats.cause), Message(f"You are burnt for {damage}. You die...")]


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
    return events + gain_xp(state, m.info.xp)


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
    if state.rng.integers(100) >= info.accuracy - DEFENCE_DODGE * state.defence:
        return [
            Attacked(m.kind, "you", 0, False, ranged),
            Message(f"The {m.kind} {verb} you and misses."),
        ]
    roll = int(state.rng.integers(info.attack[0], info.attack[1] + 1))
    damage = max(1, roll - state.defence)
    state.hp -= damage
    if state.hp <= 0 and state.invulnerable:  # a measuring run: see GameState.invulnerable
        state.hp = 1
        state.spared += 1
    events: list[Event] = [Attacked(m.kind, "you", damage, state.hp <= 0, ranged)]
    if state.hp > 0:
        return events + [Message(f"The {m.kind} {verb} you: {damage} damage.")]
    state.hp = 0
    state.dead = True
    cause = f"killed by {a(m.kind)} on floor {state.number}"
    state.stats.cause = cause
    return events + [Died(cause), Message(f"The {m.kind} {verb} you: {damage} damage. You die...")]
