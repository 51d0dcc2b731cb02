"""Speed and energy: every monster acts once per hundred energy, and a sleeping monster drifts home
one cell per action.

Every situation is built on a real generated floor: a monster-free game of a seed, with the
player moved and monsters placed by hand on walkable cells, so each test knows exactly who
stands where. Expected values come from the rules (the engine modules' docstrings, the
creatures data), never from a recorded run.
"""

from __future__ import annotations

import numpy as np
import pytest

import roguelike.engine.monsters as ai
from roguelike import tiles
from roguelike.engine import Wait, step
from roguelike.engine.creatures import MONSTERS
from tests.engine.support import add, arena, fresh, off

# --- 3. speed and energy --------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(MONSTERS))
def test_monsters_act_once_per_hundred_energy(kind, monkeypatch):
    """After n player turns a monster of speed s has acted floor(n * s / 100) times."""
    speed = MONSTERS[kind].speed
    state, c = arena()
    state.hp = state.max_hp = 100_000
    m = add(state, kind, off(c, 3, 0))
    acts = {"n": 0}
    real_turn, real_wander = ai.monster_turn, ai.wander_home

    def counting_turn(s, mon, dist):
        acts["n"] += mon is m
        return real_turn(s, mon, dist)

    def counting_wander(s, mon):
        acts["n"] += mon is m
        return real_wander(s, mon)

    monkeypatch.setattr(ai, "monster_turn", counting_turn)
    monkeypatch.setattr(ai, "wander_home", counting_wander)
    for n in range(1, 21):
        step(state, Wait())
        assert acts["n"] == n * speed // 100, n
        assert m.energy == n * speed % 100
    if kind == "bat":
        assert acts["n"] == 30
    if kind == "ogre":
        assert acts["n"] == 16


@pytest.mark.parametrize(("kind", "turns"), [("bat", 4), ("ogre", 5), ("skeleton", 6)])
def test_a_sleeping_monster_drifts_home_one_cell_per_action(kind, turns):
    """Observed without instruments: an idle monster away from its post walks straight back,
    one cell per action, so its pace shows its speed."""
    speed = MONSTERS[kind].speed
    span = turns * speed // 100 + 1
    state = fresh(0)
    walk = tiles.WALKABLE[state.tiles] & (state.tiles != tiles.DOOR)
    start = None
    for y, x in np.argwhere(walk):
        row = [(int(x) + i, int(y)) for i in range(span + 1)]
        if all(cx < state.width and walk[cy, cx] and not state.visible[cy, cx] for cx, cy in row):
            start = row
            break
    assert start
    home, pos = start[0], start[-1]
    m = add(state, kind, pos, awake=False, home=home)
    for n in range(1, turns + 1):
        step(state, Wait())
        assert not m.awake
        assert m.pos == (pos[0] - n * speed // 100, pos[1]), n
