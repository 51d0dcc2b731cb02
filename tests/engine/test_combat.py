"""Combat on real floors: bumping attacks, corners refuse a blow, kills give XP and levels, a
monster can end the run, defence lowers the chance to be hit.

Every situation is built on a real generated floor: a monster-free game of a seed, with the
player moved and monsters placed by hand on walkable cells, so each test knows exactly who
stands where. Expected values come from the rules (the engine modules' docstrings, the
creatures data), never from a recorded run.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from roguelike import tiles
from roguelike.engine import (
    Attacked,
    Bumped,
    Descend,
    Died,
    Event,
    GameState,
    LevelUp,
    Message,
    Move,
    Moved,
    PickUp,
    Rest,
    Use,
    Wait,
    step,
)
from roguelike.engine.balance import DEFENCE_DODGE
from roguelike.engine.creatures import MONSTERS, Monster
from tests.engine.support import ORTHO, add, arena, attacks_by, fresh, off, put_player, texts

# --- 4. combat ------------------------------------------------------------------------------


def test_bumping_into_a_monster_attacks_it():
    state, c = arena()
    info = MONSTERS["orc"]
    m = add(state, "orc", off(c, 1, 0), hp=100, awake=False)
    turn = state.turn
    events = step(state, Move(1, 0))
    assert state.turn == turn + 1 and state.player == c
    assert isinstance(events[0], Attacked)
    blow = events[0]
    assert (blow.attacker, blow.target, blow.killed) == ("you", "orc", False)
    lo = max(1, state.attack[0] - info.defence)
    hi = max(1, state.attack[1] - info.defence)
    assert blow.damage == 0 or lo <= blow.damage <= hi
    assert m.hp == 100 - blow.damage
    assert m.awake  # a blow wakes it
    assert not any(isinstance(e, Moved) for e in events)


def test_attacking_a_monster_past_a_wall_corner_is_refused():
    state = fresh(0)
    walk = tiles.WALKABLE[state.tiles]
    h, w = walk.shape
    for y in range(1, h - 1):
        for x in range(1, w - 1):
            for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                if (
                    walk[y, x]
                    and walk[y + dy, x + dx]
                    and walk[y, x + dx] != walk[y + dy, x]
                    and state.tiles[y + dy, x + dx] != tiles.DOOR
                ):
                    put_player(state, (x, y))
                    m = add(state, "orc", (x + dx, y + dy), awake=False)
                    turn = state.turn
                    got = step(state, Move(dx, dy))
                    assert got[0] == Bumped(x + dx, y + dy, "corner")
                    assert state.turn == turn and m.hp == MONSTERS["orc"].max_hp
                    return
    raise AssertionError("no corner on seed 0")


def _kill(state: GameState, m: Monster, direction: tuple[int, int]) -> list[Event]:
    """Bump ``m`` until it dies; the events of the killing turn."""
    for _ in range(40):
        events = step(state, Move(*direction))
        if m not in state.monsters:
            return events
    raise AssertionError("the monster would not die")


def test_killing_a_monster_gives_xp_and_removes_it():
    state, c = arena()
    m = add(state, "orc", off(c, 1, 0), hp=1, awake=False)
    xp, kills = state.xp, state.stats.kills
    events = _kill(state, m, (1, 0))
    blows = attacks_by(events, "you")
    assert blows[-1].killed and blows[-1].target == "orc"
    assert state.monster_at(*off(c, 1, 0)) is None and m not in state.monsters
    assert state.stats.kills == kills + 1
    assert state.xp == xp + MONSTERS["orc"].xp
    assert "kill" in texts(events)
    assert state.player == c  # the killing blow does not move you


def test_enough_xp_levels_up():
    state, c = arena()
    state.xp = state.xp_to_next - 1
    need = state.xp_to_next
    level, max_hp, hp = state.level, state.max_hp, state.hp
    m = add(state, "rat", off(c, 1, 0), hp=1, awake=False)
    events = _kill(state, m, (1, 0))
    ups = [e for e in events if isinstance(e, LevelUp)]
    assert ups == [LevelUp(level + 1)] and state.level == level + 1
    assert state.xp == need - 1 + MONSTERS["rat"].xp - need
    assert state.max_hp > max_hp
    assert state.hp - hp == state.max_hp - max_hp  # the new HP come filled


def test_the_level_up_message_states_the_new_attack():
    state, c = arena()
    state.level = 2  # the next level is odd: both bounds rise
    state.xp = state.xp_to_next - 1
    m = add(state, "rat", off(c, 1, 0), hp=1, awake=False)
    events = _kill(state, m, (1, 0))
    assert state.level == 3
    lo, hi = state.attack
    assert f"hits of {lo}-{hi}" in texts(events)


@pytest.mark.parametrize("number", [1, 2])
def test_a_monster_killing_the_player_ends_the_run(number):
    state = fresh(0, floor=number)
    x, y = state.player
    walk = tiles.WALKABLE[state.tiles]
    nx, ny = next((x + dx, y + dy) for dx, dy in ORTHO if walk[y + dy, x + dx])
    add(state, "orc", (nx, ny))
    state.hp = 1
    died: list[Event] = []
    for _ in range(60):
        events = step(state, Wait())
        died = [e for e in events if isinstance(e, Died)]
        if state.dead:
            break
    assert state.dead and state.over and state.hp == 0
    cause = state.stats.cause
    assert cause is not None and "orc" in cause and f"floor {number}" in cause
    assert died == [Died(cause)]
    # afterwards nothing changes: every action answers with a single message
    before = copy.deepcopy(state)
    for action in (Wait(), Move(1, 0), Rest(), PickUp(), Descend(), Use("healing potion")):
        got = step(state, action)
        assert len(got) == 1 and isinstance(got[0], Message)
        assert state.log[-1] == got[0].text
    assert (state.turn, state.hp, state.player, state.monsters, state.xp) == (
        before.turn,
        before.hp,
        before.player,
        before.monsters,
        before.xp,
    )
    assert np.array_equal(state.tiles, before.tiles)
    assert state.rng.bit_generator.state == before.rng.bit_generator.state


def test_defence_lowers_a_monsters_chance_to_hit():
    """Hit chance is accuracy minus DEFENCE_DODGE per defence point: enough armour makes every
    blow miss."""
    state, c = arena()
    info = MONSTERS["orc"]
    state.defence = info.accuracy // DEFENCE_DODGE + 1
    add(state, "orc", off(c, 1, 0))
    for _ in range(20):
        hits = attacks_by(step(state, Wait()), "orc")
        assert len(hits) == 1 and hits[0].damage == 0
    assert state.hp == state.max_hp
