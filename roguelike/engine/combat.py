"""Blows: the player's and the monsters' attacks, damage, death, experience and levels.

A blow hits with a chance (the player's 85%, a monster's own accuracy minus ``DEFENCE_DODGE``
per point of the player's defence), then deals its damage roll minus the target's defence, at
least 1. All rolls draw from ``state.rng``, the floor's gameplay stream; a monster's damage roll is
scaled by the world's difficulty. A kill gives the monster's experience; each level up adds
``LEVEL_HP`` HP (maximum and current), 1 to the top of the damage roll and, on every odd
level, 1 to its bottom. An invulnerable player (a measuring switch of the
autoplayer, never saved) is left at 1 HP by a blow that would kill it.
"""

from __future__ import annotations

from roguelike.engine.balance import DEFENCE_DODGE, LEVEL_HP, PLAYER_ACCURACY
from roguelike.engine.creatures import Monster, monster_attack
from roguelike.engine.describe import a
from roguelike.engine.events import Attacked, Died, Event, LevelUp, Message
from roguelike.engine.state import GameState

__all__ = ["PLAYER_ACCURACY", "gain_xp", "hurt_monster", "monster_hits", "player_attacks"]


def player_attacks(state: GameState, m: Monster) -> list[Event]:
    """The player strikes ``m`` (and wakes it)."""
    m.awake = True
    if state.rng.integers(100) >= PLAYER_ACCURACY:
        return [Attacked("you", m.kind, 0, False), Message(f"You miss the {m.kind}.")]
    roll = int(state.rng.integers(state.attack[0], state.attack[1] + 1))
    return hurt_monster(state, m, max(1, roll - m.info.defence), "you")


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
    lo, hi = monster_attack(info, state.difficulty)
    roll = int(state.rng.integers(lo, hi + 1))
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
