"""Monsters, combat, items, resting, travel, doors and determinism, played on real floors.

Every situation is built on a real generated floor: a monster-free game of a seed, with the
player moved and monsters placed by hand on walkable cells, so each test knows exactly who
stands where. Expected values come from the rules (the engine modules' docstrings, the
creatures data), never from a recorded run.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections import deque
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import ndimage

import roguelike.engine.monsters as ai
from roguelike import seeds, tiles
from roguelike.engine import (
    Attacked,
    Bumped,
    Close,
    Descend,
    Died,
    DoorClosed,
    DoorOpened,
    DoorUnlocked,
    Event,
    GameState,
    ItemTaken,
    ItemUsed,
    LevelUp,
    Message,
    Move,
    Moved,
    Open,
    PickUp,
    Rest,
    Travel,
    Use,
    Wait,
    describe,
    doors_around,
    new_game,
    step,
)
from roguelike.engine.balance import DEFENCE_DODGE
from roguelike.engine.creatures import (
    GUARD_RADIUS,
    ITEMS,
    MONSTERS,
    ItemKind,
    Monster,
    fill_share,
    inhabit,
    monster_attack,
    monster_hp,
    slot_level,
)
from roguelike.engine.items import BOMB_DAMAGE, TAKE, USE, held
from roguelike.engine.monsters import (
    HUNT_MEMORY,
    RELOAD_TURNS,
    SCENT_RANGE,
    monster_options,
    player_distances,
)
from roguelike.engine.pathing import FAR, distance_map, downhill
from roguelike.engine.puzzle_rooms import place_puzzles
from roguelike.gen.floor import Floor
from roguelike.gen.pipeline import generate_floor
from tests.engine.support import add, arena, cheb, fresh, off, put_player

DIRS8 = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0)]
ORTHO = [(1, 0), (-1, 0), (0, 1), (0, -1)]
REPO = Path(__file__).resolve().parents[2]

# --- helpers --------------------------------------------------------------------------------


def bfs(
    passable: np.ndarray, sources: list[tuple[int, int]], limit: int | None = None
) -> np.ndarray:
    """Plain Python breadth-first search: steps from the nearest source in 8 directions, a
    diagonal only when both orthogonal cells beside it are passable; sources count as
    passable, sources off the grid are ignored, FAR where unreached (or beyond ``limit``)."""
    h, w = passable.shape
    src = [(x, y) for x, y in sources if 0 <= x < w and 0 <= y < h]
    ok = passable.copy()
    for x, y in src:
        ok[y, x] = True
    dist = np.full((h, w), FAR, dtype=np.int32)
    queue: deque[tuple[int, int]] = deque()
    for x, y in src:
        if dist[y, x] != 0:
            dist[y, x] = 0
            queue.append((x, y))
    while queue:
        x, y = queue.popleft()
        if limit is not None and dist[y, x] >= limit:
            continue
        for dx, dy in DIRS8:
            nx, ny = x + dx, y + dy
            if not (0 <= nx < w and 0 <= ny < h) or not ok[ny, nx] or dist[ny, nx] != FAR:
                continue
            if dx and dy and not (ok[y, nx] and ok[ny, x]):
                continue
            dist[ny, nx] = dist[y, x] + 1
            queue.append((nx, ny))
    return dist


def walk_dist(state: GameState, pos: tuple[int, int]) -> np.ndarray:
    """Steps from ``pos`` over the walkable cells of the live map."""
    return bfs(tiles.WALKABLE[state.tiles], [pos])


@cache
def floor_of(seed: int, number: int) -> Floor:
    return generate_floor(seed, number, last=number == 3)


def attacks_by(events: list[Event], attacker: str) -> list[Attacked]:
    return [e for e in events if isinstance(e, Attacked) and e.attacker == attacker]


def texts(events: list[Event]) -> str:
    return " | ".join(e.text for e in events if isinstance(e, Message))


def best_options(opts: list[tuple[float, str, tuple[int, int]]]):
    top = max(o[0] for o in opts)
    return [o for o in opts if o[0] == top]


def plain_doors(state: GameState):
    """(door, v) for closed plain doors with walkable cells at door - 2v, door - v and
    door + v (v an orthogonal unit step)."""
    walk = tiles.WALKABLE[state.tiles]
    h, w = walk.shape
    ys, xs = np.nonzero(state.tiles == tiles.DOOR)
    for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
        for vx, vy in ORTHO:
            cells = [(x - 2 * vx, y - 2 * vy), (x - vx, y - vy), (x + vx, y + vy)]
            if all(0 <= cx < w and 0 <= cy < h and walk[cy, cx] for cx, cy in cells):
                yield (x, y), (vx, vy)


def locked_doors(state: GameState):
    """(door, v, key) for locked doors with walkable cells on both sides along v."""
    walk = tiles.WALKABLE[state.tiles]
    for d in state.floor.doors:
        if d.lock is None:
            continue
        for vx, vy in ORTHO:
            if walk[d.y - vy, d.x - vx] and walk[d.y + vy, d.x + vx]:
                yield (d.x, d.y), (vx, vy), d.lock
                break


# --- 1. distance maps -----------------------------------------------------------------------


@st.composite
def grids(draw):
    """A small random passability grid and 0-3 sources (some off the grid or on walls)."""
    h = draw(st.integers(1, 12))
    w = draw(st.integers(1, 12))
    density = draw(st.sampled_from([0.0, 0.2, 0.35, 0.5]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    passable = rng.random((h, w)) >= density
    n = draw(st.integers(0, 3))
    sources = [(draw(st.integers(-1, w)), draw(st.integers(-1, h))) for _ in range(n)]
    return passable, sources


@settings(max_examples=200)
@given(grids())
def test_distance_map_equals_a_plain_bfs_with_the_corner_rule(grid):
    passable, sources = grid
    got = distance_map(passable, sources)
    assert got.dtype == np.int32
    assert np.array_equal(got, bfs(passable, sources))


@settings(max_examples=100)
@given(grids(), st.integers(0, 6))
def test_distance_map_stops_at_its_limit(grid, limit):
    passable, sources = grid
    full = bfs(passable, sources)
    got = distance_map(passable, sources, limit)
    assert np.array_equal(got, np.where(full <= limit, full, FAR))


def test_a_map_changed_in_place_is_searched_as_it_is_now():
    """The step graphs kept between searches are found by the mask's content: a door opened
    (the same array, changed) is searched anew, and the old map again gives the old answer."""
    passable = np.ones((3, 7), dtype=bool)
    passable[:, 3] = False
    assert distance_map(passable, [(0, 1)])[1, 6] == FAR
    passable[1, 3] = True  # the door opens
    assert distance_map(passable, [(0, 1)])[1, 6] == 6
    passable[1, 3] = False
    assert distance_map(passable, [(0, 1)])[1, 6] == FAR


def test_distance_map_unreachable_cells_and_corners_are_far():
    passable = np.ones((5, 5), dtype=bool)
    passable[:, 2] = False  # a wall splits the grid
    dist = distance_map(passable, [(0, 0)])
    assert (dist[:, 3:] == FAR).all() and (dist[:, 2] == FAR).all()
    assert dist[4, 1] == 4  # straight down the left strip
    # two walls touching at a corner: no diagonal squeeze between them
    corner = np.array([[True, False], [False, True]])
    assert distance_map(corner, [(0, 0)])[1, 1] == FAR
    assert distance_map(np.ones((2, 2), dtype=bool), [(0, 0)])[1, 1] == 1


@settings(max_examples=150)
@given(grids())
def test_downhill_steps_lower_the_distance_by_exactly_one(grid):
    passable, sources = grid
    h, w = passable.shape
    dist = distance_map(passable, sources)
    ok = passable.copy()
    for x, y in sources:
        if 0 <= x < w and 0 <= y < h:
            ok[y, x] = True
    for y, x in np.argwhere((dist < FAR) & (dist > 0)).tolist():
        steps = downhill(dist, ok, x, y)
        expected = {
            (dx, dy)
            for dx, dy in DIRS8
            if 0 <= x + dx < w
            and 0 <= y + dy < h
            and dist[y + dy, x + dx] == dist[y, x] - 1
            and (not (dx and dy) or (ok[y, x + dx] and ok[y + dy, x]))
        }
        assert steps and len(steps) == len(set(steps)) and set(steps) == expected
        # following the first step every time reaches a source in exactly dist[y, x] steps
        n, (cx, cy) = 0, (x, y)
        while dist[cy, cx] > 0:
            dx, dy = downhill(dist, ok, cx, cy)[0]
            assert dist[cy + dy, cx + dx] == dist[cy, cx] - 1
            cx, cy, n = cx + dx, cy + dy, n + 1
        assert n == dist[y, x] and (cx, cy) in sources


def test_monsters_distance_map_on_a_real_floor_is_the_bfs_within_scent_range():

    def reach(s: GameState) -> int:
        d = bfs(tiles.WALKABLE[s.tiles], [s.player], SCENT_RANGE + 1)
        return int(d.max(initial=0, where=d < FAR))

    # the first floor (by seed) whose ground reaches beyond the scent range from the spawn
    state = next(s for s in (fresh(seed) for seed in range(30)) if reach(s) > SCENT_RANGE)
    got = player_distances(state)
    want = bfs(tiles.WALKABLE[state.tiles], [state.player], SCENT_RANGE)
    assert np.array_equal(got, want)
    assert got.max(initial=0, where=got < FAR) == SCENT_RANGE  # floors are larger
    for (x, y), _, _ in locked_doors(state):
        assert got[y, x] == FAR  # monsters never path through locked doors


# --- 2. monster AI --------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["rat", "goblin", "orc", "troll"])
def test_an_awake_melee_monster_two_cells_away_approaches(kind):
    assert MONSTERS[kind].speed == 100 and not MONSTERS[kind].erratic
    state, c = arena()
    m = add(state, kind, off(c, 2, 0))
    events = step(state, Wait())
    assert cheb(m.pos, c) == 1
    assert not attacks_by(events, kind)  # it spent its one action on the step


def test_an_adjacent_monster_attacks_every_turn_and_stays_put():
    state, c = arena()
    m = add(state, "orc", off(c, 1, 0))
    lo, hi = monster_attack(MONSTERS["orc"], state.difficulty)
    turns = 6
    state.hp = state.max_hp = turns * hi + 1  # not about survival: no blow may kill
    dealt = 0
    for _ in range(turns):
        hits = attacks_by(step(state, Wait()), "orc")
        assert len(hits) == 1
        (hit,) = hits
        assert hit.target == "you" and not hit.ranged and not hit.killed
        assert hit.damage == 0 or lo <= hit.damage <= hi
        assert m.pos == off(c, 1, 0)
        dealt += hit.damage
    assert state.hp == state.max_hp - dealt


def test_a_hurt_rat_runs_away():
    info = MONSTERS["rat"]
    hp = 1
    assert info.flee_below and hp < info.flee_below * info.max_hp
    state, c = arena()
    m = add(state, "rat", off(c, 1, 0), hp=hp)
    for want in (2, 3):
        events = step(state, Wait())
        assert cheb(m.pos, c) == want
        assert not attacks_by(events, "rat")
    assert state.hp == state.max_hp


def test_a_cornered_hurt_rat_bites():
    """Fleeing is a preference, not a rule: with no step away, a hurt rat fights."""
    state = fresh(0)
    walk = tiles.WALKABLE[state.tiles]
    spot = None
    for y, x in np.argwhere(walk):
        for sx, sy in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
            free = {(x + sx, y), (x, y + sy), (x + sx, y + sy)}
            nbrs = {(x + dx, y + dy) for dx, dy in DIRS8 if walk[y + dy, x + dx]}
            if nbrs == free and all(
                walk[b, a] and (a, b) not in state.items_lying for a, b in free
            ):
                spot = ((int(x), int(y)), (int(x + sx), int(y + sy)))
                break
        if spot:
            break
    assert spot, "no room corner on seed 0"
    corner, player = spot
    state.keys_lying.pop(player, None)
    put_player(state, player)
    m = add(state, "rat", corner, hp=1)
    opts = monster_options(state, m, player_distances(state))
    assert [o[1] for o in best_options(opts)] == ["attack"]
    assert attacks_by(step(state, Wait()), "rat")


def test_a_goblin_archer_in_view_shoots_then_reloads():
    info = MONSTERS["goblin archer"]
    assert info.ranged >= 3
    state, c = arena()
    m = add(state, "goblin archer", off(c, 3, 0))
    last: int | None = None
    shots = []
    for t in range(1, 10):
        ready = last is None or t - last >= RELOAD_TURNS
        can = bool(state.visible[m.y, m.x]) and 2 <= cheb(m.pos, c) <= info.ranged
        got = attacks_by(step(state, Wait()), "goblin archer")
        assert all(e.ranged and e.target == "you" for e in got)
        assert len(got) == (1 if ready and can else 0), (t, m.pos, last)
        assert cheb(m.pos, c) >= 2  # it never closes in to melee
        if got:
            last = t
            shots.append(t)
    assert shots[0] == 1 and len(shots) >= 3


def test_an_archer_next_to_the_player_fights_rather_than_backing_away():
    # a shooter that kept its distance could never be caught (a wraith outruns you)
    state, c = arena()
    m = add(state, "goblin archer", off(c, 1, 0))
    opts = monster_options(state, m, player_distances(state))
    best = best_options(opts)
    assert [o[1] for o in best] == ["attack"]
    assert all(o[0] < best[0][0] for o in opts if o[1] == "move")


def test_an_archer_stands_its_ground_when_the_player_closes_in():
    state, c = arena()
    m = add(state, "wraith", off(c, 3, 0))
    m.awake = True
    step(state, Move(1, 0))  # the player closes to two cells
    for _ in range(4):
        before = cheb(m.pos, state.player)
        step(state, Wait())
        assert cheb(m.pos, state.player) <= before  # never backs away


def test_guards_stay_within_their_radius_while_hunting():
    state = fresh(0)
    px, py = state.player
    dist = walk_dist(state, state.player)
    ys, xs = np.nonzero((dist >= 9) & (dist <= 12))
    homes = [
        (int(x), int(y))
        for x, y in zip(xs, ys, strict=True)
        if cheb((int(x), int(y)), (px, py)) >= GUARD_RADIUS + 3
    ]
    assert homes
    home = homes[0]
    runs = {}
    for guard in (True, False):
        s = copy.deepcopy(state)
        s.hp = s.max_hp = 1000
        m = add(s, "orc", home, guard=guard)
        start = cheb(m.pos, s.player)
        far = 0
        for _ in range(14):
            step(s, Wait())
            far = max(far, cheb(m.pos, m.home))
            if guard:
                assert cheb(m.pos, m.home) <= GUARD_RADIUS
        runs[guard] = (start, cheb(m.pos, s.player), far)
    start, end, _ = runs[True]
    assert end < start  # the guard did come closer...
    assert runs[False][2] > GUARD_RADIUS  # ...as far as its post allows; a free orc goes on
    assert runs[False][1] == 1


def test_a_pack_monster_prefers_a_cell_next_to_its_kind():
    state, c = arena()
    g = add(state, "goblin", off(c, 3, 0))
    add(state, "goblin", off(c, 2, -2), awake=False)
    opts = monster_options(state, g, player_distances(state))
    moves = {o[2]: o[0] for o in opts if o[1] == "move"}
    # three cells two steps from the player; only (2, -1) touches the other goblin
    assert moves[(-1, 0)] == moves[(-1, 1)] < moves[(-1, -1)]
    assert [o[2] for o in best_options(opts)] == [(-1, -1)]
    step(state, Wait())
    assert g.pos == off(c, 2, -1)
    # an orc (no pack) sees the same three cells as equals
    state2, c2 = arena()
    o = add(state2, "orc", off(c2, 3, 0))
    add(state2, "orc", off(c2, 2, -2), awake=False)
    best = best_options(monster_options(state2, o, player_distances(state2)))
    assert sorted(b[2] for b in best) == [(-1, -1), (-1, 0), (-1, 1)]


def test_ties_are_broken_by_the_gameplay_stream():
    state, c = arena()
    m = add(state, "orc", off(c, 2, 0))
    best = best_options(monster_options(state, m, player_distances(state)))
    targets = {off(m.pos, *o[2]) for o in best}
    assert len(targets) == 3  # a genuine tie
    chosen = set()
    for i in range(40):
        a = copy.deepcopy(state)
        a.rng = np.random.default_rng(i)
        b = copy.deepcopy(a)
        step(a, Wait())
        step(b, Wait())
        assert a.monsters[0].pos == b.monsters[0].pos  # same state, same stream: same choice
        assert a.rng.bit_generator.state == b.rng.bit_generator.state
        chosen.add(a.monsters[0].pos)
    assert chosen == targets  # and the stream, not a fixed order, decides among equals


def _unseen_cells(state: GameState, lo: int, hi: int) -> list[tuple[int, int]]:
    dist = walk_dist(state, state.player)
    free = (dist >= lo) & (dist <= hi) & ~state.visible & (state.tiles != tiles.DOOR)
    ys, xs = np.nonzero(free)
    return [(int(x), int(y)) for x, y in zip(xs, ys, strict=True)]


def test_a_sleeping_monster_out_of_view_stays_at_home():
    state = fresh(0)
    pos = _unseen_cells(state, 5, 10)[0]
    sleeper = copy.deepcopy(state)
    m = add(sleeper, "orc", pos, awake=False)
    for _ in range(15):
        step(sleeper, Wait())
        assert m.pos == pos and not m.awake
    # the same orc awake hunts the player down
    hunter = copy.deepcopy(state)
    hunter.hp = hunter.max_hp = 1000
    h = add(hunter, "orc", pos, awake=True)
    for _ in range(15):
        step(hunter, Wait())
    assert cheb(h.pos, hunter.player) == 1


def test_an_awake_monster_that_cannot_find_the_player_gives_up_after_hunt_memory():
    state = fresh(0)
    labels, _ = ndimage.label(tiles.WALKABLE[state.tiles])
    here = labels[state.player[1], state.player[0]]
    region = None
    for lab in range(1, labels.max() + 1):
        cells = labels == lab
        if lab != here and cells.sum() > 20 and not (cells & state.visible).any():
            region = cells
            break
    assert region is not None, "seed 0 has a region behind locked doors"
    y, x = np.argwhere(region)[0]
    m = add(state, "orc", (int(x), int(y)))
    for t in range(1, HUNT_MEMORY + 2):
        step(state, Wait())
        assert not state.visible[m.y, m.x]
        assert m.awake == (t <= HUNT_MEMORY), t


def test_a_sleeping_monster_walks_home_through_a_closed_door():
    state = fresh(0)
    far = walk_dist(state, state.player)
    door, (vx, vy) = next(d for d in plain_doors(state) if far[d[0][1], d[0][0]] > 25)
    home, start = (door[0] - vx, door[1] - vy), (door[0] + vx, door[1] + vy)
    m = add(state, "orc", start, awake=False, home=home)
    step(state, Wait())
    assert m.pos == door and state.tiles[door[1], door[0]] == tiles.DOOR_OPEN
    step(state, Wait())
    assert m.pos == home and not m.awake


def test_a_sleeping_monster_in_view_wakes_at_once_when_near_and_by_chance_when_far():
    for i in range(12):
        state, c = arena()
        state.rng = np.random.default_rng(i)
        near = add(state, "orc", off(c, 2, 0), awake=False)
        events = step(state, Wait())
        assert near.awake and "notices you" in texts(events)
    woke = 0
    for i in range(60):
        s, c2 = arena()
        s.rng = np.random.default_rng(i)
        m = add(s, "orc", off(c2, 3, 3), awake=False)
        assert s.visible[m.y, m.x]
        step(s, Wait())
        woke += m.awake
    assert 0 < woke < 60  # a coin toss each turn, not certainty


def test_monsters_never_share_a_cell_nor_step_onto_the_player():
    state, c = arena()
    state.hp = state.max_hp = 1000
    crowd = [add(state, "orc", off(c, dx, 3)) for dx in range(-3, 4)]
    crowd += [add(state, "jackal", off(c, dx, -3)) for dx in range(-3, 4)]
    for _ in range(8):
        step(state, Wait())
        cells = [m.pos for m in crowd]
        assert len(set(cells)) == len(cells) and c not in cells
        assert all(tiles.WALKABLE[state.tiles[y, x]] for x, y in cells)


def test_a_monster_cannot_strike_past_a_wall_corner():
    state = fresh(0)
    walk = tiles.WALKABLE[state.tiles]
    h, w = walk.shape
    spot = next(
        ((x, y), (dx, dy))
        for y in range(1, h - 1)
        for x in range(1, w - 1)
        for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1))
        if walk[y, x]
        and walk[y + dy, x + dx]
        and walk[y, x + dx] != walk[y + dy, x]
        and state.tiles[y + dy, x + dx] != tiles.DOOR
    )
    (x, y), (dx, dy) = spot
    state.keys_lying.pop((x, y), None)
    state.items_lying.pop((x, y), None)
    put_player(state, (x, y))
    m = add(state, "orc", (x + dx, y + dy))
    assert "attack" not in {o[1] for o in monster_options(state, m, player_distances(state))}
    assert not attacks_by(step(state, Wait()), "orc")


def test_a_troll_regenerates_every_time_it_acts():
    info = MONSTERS["troll"]
    assert info.regen and info.speed == 100
    state, c = arena()
    state.hp = state.max_hp = 1000
    troll = add(state, "troll", off(c, 1, 0), hp=info.max_hp - 10)
    orc = add(state, "orc", off(c, -1, 0), hp=5)
    for n in range(1, 6):
        step(state, Wait())
        assert troll.hp == info.max_hp - 10 + n * info.regen
        assert orc.hp == 5


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


# --- 5. items -------------------------------------------------------------------------------


@pytest.mark.parametrize("item", sorted(ITEMS))
def test_walking_onto_an_item_takes_it(item):
    state, c = arena()
    state.hp = state.max_hp - 7
    where = off(c, 1, 0)
    state.items_lying[where] = item
    before = copy.deepcopy(state)
    events = step(state, Move(1, 0))
    assert state.player == where and ItemTaken(item) in events
    assert where not in state.items_lying
    kind = ITEMS[item].kind
    if kind == "pack":
        assert state.inventory == {item: 1}
    else:
        assert state.inventory == {}
    assert state.hint_coins == before.hint_coins + (kind == "coin")
    info = ITEMS[item]
    blade = info.amount if info.effect == "attack" else 0
    assert state.attack == (before.attack[0] + blade, before.attack[1] + blade)
    assert state.defence == before.defence + (info.amount if info.effect == "defence" else 0)
    assert state.accuracy == before.accuracy - info.clumsy
    assert state.speed == before.speed - info.slow
    if info.effect == "vigour":
        assert state.max_hp == before.max_hp + info.amount
        assert state.hp == before.hp + info.amount
    else:
        assert state.max_hp == before.max_hp and state.hp == before.hp


def test_pick_up_takes_what_lies_underfoot():
    state, c = arena()
    state.items_lying[c] = "fire bomb"
    turn = state.turn
    events = step(state, PickUp())
    assert ItemTaken("fire bomb") in events and state.inventory == {"fire bomb": 1}
    assert state.turn == turn + 1 and c not in state.items_lying


def test_a_healing_potion_heals_but_not_above_max():
    state, c = arena()
    state.inventory["healing potion"] = 2
    state.hp = state.max_hp - 20
    turn = state.turn
    events = step(state, Use("healing potion"))
    assert events[0] == ItemUsed("healing potion")
    assert state.hp == state.max_hp - 20 + ITEMS["healing potion"].amount and state.turn == turn + 1
    assert state.inventory == {"healing potion": 1}
    state.hp = state.max_hp - 3
    step(state, Use("healing potion"))
    assert state.hp == state.max_hp and state.inventory == {}
    # at full HP it is refused and kept, and no turn passes
    state.inventory["healing potion"] = 1
    turn = state.turn
    events = step(state, Use("healing potion"))
    assert all(isinstance(e, Message) for e in events) and state.turn == turn
    assert state.inventory == {"healing potion": 1} and state.hp == state.max_hp


@pytest.mark.parametrize("item", [i for i, k in ITEMS.items() if k.kind == "pack"])
def test_using_an_item_not_held_is_refused_without_a_turn(item):
    state, c = arena()
    state.hp = state.max_hp - 5
    add(state, "orc", off(c, 2, 0), awake=False)
    before = copy.deepcopy(state)
    events = step(state, Use(item))
    assert len(events) == 1 and isinstance(events[0], Message)
    assert state.turn == before.turn and state.hp == before.hp and state.player == c
    assert state.monsters == before.monsters


def test_a_fire_bomb_burns_the_nearest_monster_and_its_neighbours():
    state, c = arena()
    state.inventory["fire bomb"] = 1
    target = add(state, "orc", off(c, 2, 0), hp=100, awake=False)
    beside = add(state, "orc", off(c, 3, 1), hp=100, awake=False)
    aside = add(state, "orc", off(c, -3, 0), hp=100, awake=False)
    turn = state.turn
    events = step(state, Use("fire bomb"))
    burns = attacks_by(events, "you")
    assert all(b.ranged and b.target == "orc" for b in burns) and len(burns) == 2
    lo, hi = BOMB_DAMAGE
    for m in (target, beside):
        assert 100 - hi <= m.hp <= 100 - lo and m.awake
    assert aside.hp == 100
    assert state.turn == turn + 1 and "fire bomb" not in state.inventory
    # with nothing in view the bomb is kept and no turn passes
    state.monsters.clear()
    state.inventory["fire bomb"] = 1
    turn = state.turn
    events = step(state, Use("fire bomb"))
    assert all(isinstance(e, Message) for e in events)
    assert state.turn == turn and state.inventory == {"fire bomb": 1}


def test_a_fire_bomb_can_kill():
    state, c = arena()
    state.inventory["fire bomb"] = 1
    add(state, "rat", off(c, 2, 0), hp=1)
    add(state, "rat", off(c, 2, 1), hp=1)
    events = step(state, Use("fire bomb"))
    assert [b.killed for b in attacks_by(events, "you")] == [True, True]
    assert state.monsters == [] and state.stats.kills == 2
    assert state.xp == 2 * MONSTERS["rat"].xp


def test_a_blink_scroll_moves_the_player_to_the_farthest_visible_free_cell():
    base, c = arena()
    base.inventory["blink scroll"] = 1
    walk = tiles.WALKABLE[base.tiles]
    cells = [
        (int(x), int(y))
        for y, x in np.argwhere(walk & base.visible)
        if (int(x), int(y)) not in base.items_lying and (int(x), int(y)) not in base.keys_lying
    ]

    def farthest(frm: tuple[int, int], among: list[tuple[int, int]]) -> set[tuple[int, int]]:
        top = max(cheb(p, frm) for p in among)
        return {p for p in among if cheb(p, frm) == top}

    # an orc where fleeing it and merely leaving your cell lead to different places
    orc_at = next(
        off(c, dx, dy)
        for dx in range(-3, 4)
        for dy in range(-3, 4)
        if (dx, dy) != (0, 0)
        and not farthest(off(c, dx, dy), [p for p in cells if p != off(c, dx, dy)])
        & farthest(c, cells)
    )
    state = copy.deepcopy(base)
    orc = add(state, "orc", orc_at, awake=False)
    candidates = [p for p in cells if p != orc_at]
    step(state, Use("blink scroll"))
    assert state.player in farthest(orc_at, candidates)
    assert cheb(state.player, orc.pos) > 3
    assert "blink scroll" not in state.inventory


def test_a_mapping_scroll_reveals_the_whole_floor():
    state = fresh(0)
    state.inventory["mapping scroll"] = 1
    layout = state.tiles != tiles.VOID
    assert not state.explored[layout].all()
    turn = state.turn
    step(state, Use("mapping scroll"))
    assert state.explored[layout].all() and state.turn == turn + 1


def test_every_item_kind_has_a_handler_for_its_effect():
    """Pack items are played by the use handlers, the others when taken: by effect, never by
    name, and every handler is some item's."""
    for name, info in ITEMS.items():
        table = USE if info.kind == "pack" else TAKE
        assert info.effect in table, name
    assert set(USE) | set(TAKE) == {info.effect for info in ITEMS.values()}
    assert not set(USE) & set(TAKE)


def test_item_descriptions_state_their_amounts():
    for name, info in ITEMS.items():
        if info.amount:
            assert str(info.amount) in info.description, name


def test_held_finds_a_pack_item_by_effect():
    state, _ = arena()
    assert held(state, "heal") is None
    state.inventory["fire bomb"] = 1
    state.inventory["healing potion"] = 2
    assert held(state, "heal") == "healing potion" and held(state, "bomb") == "fire bomb"
    assert held(state, "blink") is None


def test_a_new_item_kind_with_a_known_effect_needs_only_its_data(monkeypatch):
    """An item kind is its row in the table: a stronger potion heals by its own amount."""
    strong = ItemKind("strong potion", "!", "#ff00ff", "Heals 20 HP.", effect="heal", amount=20)
    monkeypatch.setitem(ITEMS, strong.name, strong)
    state, c = arena()
    state.hp = state.max_hp - 25
    state.items_lying[off(c, 1, 0)] = strong.name
    step(state, Move(1, 0))
    assert state.inventory == {strong.name: 1} and held(state, "heal") == strong.name
    events = step(state, Use(strong.name))
    assert events[0] == ItemUsed(strong.name) and state.hp == state.max_hp - 5
    assert "strong potion: +20 HP" in texts(events) and state.inventory == {}


# --- 6. rest and travel ---------------------------------------------------------------------


def test_rest_is_refused_with_an_awake_monster_in_view():
    state, c = arena()
    state.hp = state.max_hp - 5
    add(state, "orc", off(c, 3, 0), awake=True)
    turn = state.turn
    events = step(state, Rest())
    assert len(events) == 1 and isinstance(events[0], Message)
    assert state.turn == turn and state.hp == state.max_hp - 5


def test_rest_beside_a_sleeping_monster_lasts_until_it_wakes():
    """Only awake monsters in view forbid rest (engine._threats); one that wakes ends it."""
    state, c = arena()
    state.regen_clock = 0
    state.hp = state.max_hp - 5
    m = add(state, "orc", off(c, 3, 0), awake=False)
    turn = state.turn
    events = step(state, Rest())
    assert state.turn > turn
    assert m.awake or state.hp == state.max_hp
    if m.awake:
        assert "stop" in texts(events)


def test_rest_heals_to_full_taking_as_long_as_waiting_would():
    state = fresh(0)
    state.hp = state.max_hp - 4
    waited = copy.deepcopy(state)
    n = 0
    while waited.hp < waited.max_hp:
        step(waited, Wait())
        n += 1
    turn = state.turn
    step(state, Rest())
    assert state.hp == state.max_hp and state.turn == turn + n > turn
    # at full HP there is nothing to rest for
    assert all(isinstance(e, Message) for e in step(state, Rest())) and state.turn == turn + n


def test_rest_stops_when_a_monster_comes_into_view():
    state = fresh(0)
    state.hp = 5
    m = add(state, "orc", _unseen_cells(state, 8, 12)[0])
    turn = state.turn
    events = step(state, Rest())
    assert state.visible[m.y, m.x] and state.visible_monsters() == [m]
    assert turn < state.turn <= turn + 12
    assert state.hp < state.max_hp
    assert "stop" in texts(events)


def _no_pickups(state: GameState) -> None:
    state.items_lying.clear()
    state.keys_lying.clear()


def test_travel_walks_a_shortest_path_to_a_seen_cell():
    state, c = arena()
    _no_pickups(state)
    ok = tiles.WALKABLE[state.tiles] & state.explored
    from_c = bfs(ok, [c])
    plain = ok & (state.tiles != tiles.DOOR) & (state.tiles != tiles.DOOR_OPEN)
    from_c_plain = bfs(plain, [c])
    ys, xs = np.nonzero((from_c < FAR) & (from_c == from_c_plain) & state.visible)
    target = max(
        ((int(x), int(y)) for x, y in zip(xs, ys, strict=True)),
        key=lambda p: (from_c[p[1], p[0]], p),
    )
    n = int(from_c[target[1], target[0]])
    assert n >= 4
    to_target = bfs(ok, [target])
    turn = state.turn
    events = step(state, Travel(*target))
    assert state.player == target and state.turn == turn + n
    moves = [e for e in events if isinstance(e, Moved)]
    assert len(moves) == n
    for mv in moves:
        assert to_target[mv.to[1], mv.to[0]] == to_target[mv.frm[1], mv.frm[0]] - 1


def test_travel_across_the_floor_opens_doors_and_unlocks_with_held_keys():
    state = fresh(0)
    _no_pickups(state)
    state.explored[:] = True
    assert state.floor.finish is not None
    target = state.floor.finish
    # without the keys the stairs lie behind locked doors: no known way, no turn spent
    turn = state.turn
    events = step(state, Travel(*target))
    assert all(isinstance(e, Message) for e in events) and state.turn == turn
    assert state.player == state.floor.spawn
    state.keys_held = {k.id for k in state.floor.keys}
    ok = tiles.WALKABLE[state.tiles].copy()
    for k in state.keys_held:
        ok |= state.tiles == tiles.locked_door(k)
    n = int(bfs(ok, [target])[state.player[1], state.player[0]])
    events = step(state, Travel(*target))
    assert state.player == target
    doors = [e for e in events if isinstance(e, DoorOpened | DoorUnlocked)]
    assert any(isinstance(e, DoorUnlocked) for e in doors)
    assert state.turn == turn + n + len(doors)


def test_travel_refuses_an_unexplored_target_without_a_turn():
    state = fresh(0)
    walk = tiles.WALKABLE[state.tiles]
    known = walk & state.explored
    grown = ndimage.binary_dilation(known, structure=np.ones((3, 3), bool))
    ys, xs = np.nonzero(grown & walk & ~state.explored)  # just past what was seen
    assert len(xs)
    turn, here = state.turn, state.player
    for target in [(int(xs[0]), int(ys[0])), (-1, 0), (state.width, 3)]:
        events = step(state, Travel(*target))
        assert len(events) == 1 and isinstance(events[0], Message)
        assert state.turn == turn and state.player == here


def test_travel_stops_when_a_new_monster_comes_into_view():
    state = fresh(0)
    _no_pickups(state)
    state.explored[:] = True
    dist = walk_dist(state, state.player)
    ys, xs = np.nonzero((dist >= 12) & (dist < 25) & ~state.visible)
    spots = [(int(x), int(y)) for x, y in zip(xs, ys, strict=True)]
    # a cell just beyond where the orc will sleep, so the walk must pass within its sight
    pos, target = next(
        (p, (p[0] + dx, p[1] + dy))
        for p in spots
        for dx, dy in ORTHO
        if tiles.WALKABLE[state.tiles[p[1] + dy, p[0] + dx]]
        and dist[p[1] + dy, p[0] + dx] > dist[p[1], p[0]]
    )
    m = add(state, "orc", pos, awake=False)
    events = step(state, Travel(*target))
    assert state.player != target and state.visible[m.y, m.x]
    assert "comes into view" in texts(events)
    assert 0 < len([e for e in events if isinstance(e, Moved)]) < dist[target[1], target[0]]


def test_travel_never_attacks_a_monster_in_the_way():
    state, c = arena()
    _no_pickups(state)
    put_player(state, off(c, -1, 0))
    m = add(state, "orc", c, hp=50, awake=False)
    turn = state.turn
    events = step(state, Travel(*off(c, 3, 0)))
    assert not attacks_by(events, "you") and m.hp == 50 and state.turn == turn
    assert state.player == off(c, -1, 0) and "in the way" in texts(events)


def test_travel_stops_when_the_player_is_hurt():
    base, c = arena()
    _no_pickups(base)
    put_player(base, off(c, -3, 0))
    base.hp = base.max_hp - 10
    add(base, "rat", off(c, -2, 1))
    for rs in range(60):
        for clock in range(9):
            state = copy.deepcopy(base)
            state.rng = np.random.default_rng(rs)
            state.regen_clock = clock
            events = step(state, Travel(*off(c, 3, 0)))
            hurt = [
                i
                for i, e in enumerate(events)
                if isinstance(e, Attacked) and e.target == "you" and e.damage > 0
            ]
            if hurt:
                after = events[hurt[0] :]
                assert not any(isinstance(e, Moved) for e in after), (rs, clock)


# --- 7. doors -------------------------------------------------------------------------------


def test_open_and_close_a_door():
    state = fresh(0)
    door, (vx, vy) = next(plain_doors(state))
    put_player(state, (door[0] - vx, door[1] - vy))
    assert (vx, vy) in doors_around(state, closed=True)
    assert (vx, vy) not in doors_around(state, closed=False)
    turn = state.turn
    assert step(state, Open(vx, vy)) == [DoorOpened(*door)]
    assert state.tiles[door[1], door[0]] == tiles.DOOR_OPEN and state.turn == turn + 1
    assert state.player == (door[0] - vx, door[1] - vy)
    assert (vx, vy) in doors_around(state, closed=False)
    assert (vx, vy) not in doors_around(state, closed=True)
    # a monster in the doorway keeps it open, and costs no turn
    m = add(state, "orc", door, awake=False)
    turn = state.turn
    events = step(state, Close(vx, vy))
    assert all(isinstance(e, Message) for e in events) and "orc" in texts(events)
    assert state.tiles[door[1], door[0]] == tiles.DOOR_OPEN and state.turn == turn
    state.monsters.remove(m)
    state.items_lying[door] = "hint coin"
    events = step(state, Close(vx, vy))
    assert all(isinstance(e, Message) for e in events) and state.turn == turn
    del state.items_lying[door]
    assert step(state, Close(vx, vy)) == [DoorClosed(*door)]
    assert state.tiles[door[1], door[0]] == tiles.DOOR and state.turn == turn + 1
    # closing a closed door, opening a floor cell: refused, no turn
    for action in (Close(vx, vy), Open(-vx, -vy)):
        events = step(state, action)
        assert all(isinstance(e, Message) for e in events) and state.turn == turn + 1


def test_locked_doors_are_listed_only_with_their_key():
    state = fresh(0)
    door, (vx, vy), key = next(locked_doors(state))
    put_player(state, (door[0] - vx, door[1] - vy))
    assert (vx, vy) not in doors_around(state, closed=True)
    turn = state.turn
    events = step(state, Open(vx, vy))
    assert isinstance(events[0], Bumped) and state.turn == turn
    state.keys_held.add(key)
    assert (vx, vy) in doors_around(state, closed=True)
    events = step(state, Open(vx, vy))
    assert events[0] == DoorUnlocked(key, *door) and state.turn == turn + 1
    assert state.tiles[door[1], door[0]] == tiles.DOOR_OPEN


def test_monsters_walk_through_plain_doors_opening_them():
    state = fresh(0)
    state.hp = state.max_hp = 1000
    door, (vx, vy) = next(
        (d, (vx, vy))
        for d, (vx, vy) in plain_doors(state)
        if walk_dist(state, (d[0] - 2 * vx, d[1] - 2 * vy))[d[1] + vy, d[0] + vx] == 3
    )  # the only way from one side to the other is through the door
    player = (door[0] - 2 * vx, door[1] - 2 * vy)
    other = (door[0] + vx, door[1] + vy)
    put_player(state, player)
    m = add(state, "orc", other)
    assert not state.visible[m.y, m.x]  # the closed door hides it
    step(state, Wait())
    assert m.pos == door and state.tiles[door[1], door[0]] == tiles.DOOR_OPEN
    assert state.visible[m.y, m.x]
    step(state, Wait())
    assert cheb(m.pos, player) == 1


def test_monsters_never_pass_locked_doors():
    state = fresh(0)
    state.hp = state.max_hp = 1000
    door, (vx, vy), key = next(locked_doors(state))
    put_player(state, (door[0] - vx, door[1] - vy))
    state.keys_held.add(key)  # even a key in the player's hand opens nothing for them
    m = add(state, "orc", (door[0] + vx, door[1] + vy))
    locked = int(state.tiles[door[1], door[0]])
    dist = player_distances(state)
    assert dist[door[1], door[0]] == FAR
    opts = monster_options(state, m, dist)
    assert all(off(m.pos, *o[2]) != door for o in opts if o[1] == "move")
    for _ in range(15):
        step(state, Wait())
        assert m.pos != door and state.tiles[door[1], door[0]] == locked


# --- 8. determinism and streams -------------------------------------------------------------

SNAPSHOT_SRC = """
import json, sys
from roguelike.engine.creatures import inhabit
from roguelike.gen.pipeline import generate_floor

def snapshot(pairs):
    out = []
    for seed, n in pairs:
        ms, items = inhabit(generate_floor(seed, n, last=n == 3))
        out.append([
            [[m.id, m.kind, m.x, m.y, m.hp, list(m.home), m.guard] for m in ms],
            sorted([x, y, k] for (x, y), k in items.items()),
        ])
    return out
"""
PAIRS = [[0, 1], [1, 2], [5, 3], [17, 1]]


def test_inhabit_is_a_pure_function_of_the_floor():
    for seed, n in PAIRS:
        a = inhabit(generate_floor(seed, n, last=n == 3))
        b = inhabit(generate_floor(seed, n, last=n == 3))
        c = inhabit(floor_of(seed, n))
        assert a == b == c
        assert a[0], "every sampled floor has monsters"


def test_inhabit_is_the_same_in_other_processes():
    ns: dict[str, Any] = {}
    exec(SNAPSHOT_SRC, ns)
    here = json.loads(json.dumps(ns["snapshot"](PAIRS)))
    code = SNAPSHOT_SRC + "\nprint(json.dumps(snapshot(json.loads(sys.argv[1]))))\n"
    for hashseed in ("1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        out = subprocess.run(
            [sys.executable, "-c", code, json.dumps(PAIRS)],
            capture_output=True,
            text=True,
            env=env,
            cwd=REPO,
            check=True,
            timeout=120,
        )
        assert json.loads(out.stdout) == here


def _population(seeds_: range, number: int):
    """(monster, room depth, is leader, floor) for every monster of floor ``number``."""
    rows = []
    for seed in seeds_:
        fl = floor_of(seed, number)
        assert fl.room_map is not None
        depth = {r.id: r.depth for r in fl.topology.rooms}
        key_rooms = {k.room for k in fl.keys}
        leaders = {(s.x, s.y) for s in fl.slots if s.kind == "monster"}
        monsters, _ = inhabit(fl)
        for m in monsters:
            room = int(fl.room_map[m.y, m.x])
            assert room >= 0, "monsters live in rooms"
            assert m.guard == (room in key_rooms)
            assert m.awake is False and m.hp == m.max_hp == monster_hp(m.info) and m.home == m.pos
            rows.append((m, depth[room], m.pos in leaders, fl))
    return rows


SAMPLE = range(24)


def test_monster_strength_follows_room_depth_and_floor():
    by_floor = {}
    for number in (1, 3):
        rows = _population(SAMPLE, number)
        for m, depth, _, _ in rows:
            assert m.info.level <= slot_level(depth, number), (m.kind, depth, number)
        by_floor[number] = rows
    mean = {n: np.mean([m.info.level for m, *_ in rows]) for n, rows in by_floor.items()}
    assert mean[3] > mean[1] + 1
    rows = by_floor[1] + by_floor[3]
    shallow = [m.info.level for m, d, _, fl in rows if fl.number == 1 and d <= 2]
    deep = [m.info.level for m, d, _, fl in rows if fl.number == 1 and d >= 4]
    assert shallow and deep and np.mean(deep) > np.mean(shallow)


def test_the_share_of_filled_monster_slots_follows_the_floor():
    for number in (1, 3):
        slots = sum(
            1 for seed in SAMPLE for s in floor_of(seed, number).slots if s.kind == "monster"
        )
        leaders = sum(1 for *_, lead, _ in _population(SAMPLE, number) if lead)
        assert abs(leaders / slots - fill_share(number)) < 0.12, (number, leaders, slots)


def test_pack_monsters_come_in_packs_of_two_to_four():
    """A pack leader brings one to three companions, on the free cells next to it in its
    room: groups of two, three and four occur, never larger (and one only where its room has
    no free cell next to it)."""
    sizes: set[int] = set()
    for number in (1, 3):
        rows = _population(SAMPLE, number)
        for i, (m, _, lead, fl) in enumerate(rows):
            if not (lead and m.info.pack):
                continue
            group = 1
            while i + group < len(rows) and not rows[i + group][2] and rows[i + group][3] is fl:
                group += 1
            assert group <= 4, (fl.seed, fl.number, m.kind, m.pos, group)
            sizes.add(group)
    assert {2, 3, 4} <= sizes


def _snapshot(state: GameState) -> dict[str, Any]:
    return {
        "player": state.player,
        "hp": (state.hp, state.max_hp),
        "turn": state.turn,
        "xp": (state.xp, state.level, state.attack, state.defence),
        "over": (state.dead, state.won, state.stats),
        "log": list(state.log),
        "monsters": copy.deepcopy(state.monsters),
        "items": dict(state.items_lying),
        "pack": (dict(state.inventory), state.hint_coins, set(state.keys_held)),
        "tiles": state.tiles.tobytes(),
        "explored": state.explored.tobytes(),
        "rng": state.rng.bit_generator.state,
    }


def _hunter_action(state: GameState, rng: np.random.Generator):
    """Head for the nearest reachable monster (fighting it on arrival), else for the nearest
    key (unlocking its door on the way later); sometimes wander or wait."""
    r = rng.random()
    if r < 0.1:
        return Wait()
    if r < 0.25:
        return Move(*DIRS8[int(rng.integers(8))])
    ok = tiles.WALKABLE[state.tiles].copy()
    for k in state.keys_held:
        ok |= state.tiles == tiles.locked_door(k)
    mine = distance_map(ok, [state.player])
    goals = [m.pos for m in state.monsters if mine[m.y, m.x] < FAR]
    goals = goals or [p for p in state.keys_lying if mine[p[1], p[0]] < FAR]
    if not goals:
        return Move(*DIRS8[int(rng.integers(8))])
    goal = min(goals, key=lambda p: (int(mine[p[1], p[0]]), p))
    steps = downhill(distance_map(ok, [goal]), ok, *state.player)
    return Move(*steps[0]) if steps else Wait()


@pytest.mark.parametrize("seed", [3, 8])
def test_the_same_actions_give_the_same_game(seed):
    a = new_game(seed, total_floors=3)
    b = new_game(seed, total_floors=3)
    for s in (a, b):
        s.hp = s.max_hp = 400
    assert a.monsters, "a world with monsters"
    chooser = np.random.default_rng(seed)
    fights = 0
    for _ in range(250):
        action = _hunter_action(a, chooser)
        ea, eb = step(a, action), step(b, action)
        assert ea == eb
        assert _snapshot(a) == _snapshot(b)
        fights += len([e for e in ea if isinstance(e, Attacked)])
    assert fights > 5 and a.stats.kills > 0


def test_play_on_floor_one_never_changes_floor_two():
    seed = 4
    expected_monsters, expected_items = inhabit(generate_floor(seed, 2))
    assert expected_monsters
    results = []
    for variant in range(3):
        state = new_game(seed, total_floors=3)
        state.hp = state.max_hp = 400
        chooser = np.random.default_rng(variant)
        for _ in range(60 * variant):  # variant 0 goes straight down
            step(state, _hunter_action(state, chooser))
        state.rng.random(17 * variant)
        assert state.floor.finish is not None
        put_player(state, state.floor.finish)
        step(state, Descend())
        assert state.number == 2
        # the floor's inhabitants: the hostiles, and a captive room's captive on the player's side
        placed = sorted(state.monsters + state.allies, key=lambda m: m.id)
        assert placed == expected_monsters
        assert state.items_lying == expected_items
        fl2 = generate_floor(seed, 2)
        assert fl2.tiles is not None
        pedestals = {p.pos: p for p in place_puzzles(fl2)}
        expected_tiles = fl2.tiles.copy()
        for x, y in pedestals:
            expected_tiles[y, x] = tiles.PEDESTAL
        assert np.array_equal(state.tiles, expected_tiles)
        assert state.puzzles == pedestals
        lying = {(k.x, k.y): k.id for k in fl2.keys if (k.x, k.y) not in pedestals}
        assert state.keys_lying == lying
        assert state.rng.bit_generator.state == seeds.stream(seed, 2, "play").bit_generator.state
        results.append(state.turn)
    assert len(set(results)) == 3  # the three runs really played differently


# --- 9. look --------------------------------------------------------------------------------


def test_describe_what_the_player_knows():
    state, c = arena()
    unseen = np.argwhere(~state.explored)[0]
    assert "have not seen" in describe(state, int(unseen[1]), int(unseen[0]))
    assert "have not seen" in describe(state, -1, 0)
    assert f"{state.hp}/{state.max_hp}" in describe(state, *c)

    m = add(state, "orc", off(c, 2, 0), hp=5)
    text = describe(state, *m.pos)
    assert "orc" in text.lower() and f"5/{MONSTERS['orc'].max_hp} HP" in text
    assert "(remembered)" not in text

    state.items_lying[off(c, -1, 0)] = "blink scroll"
    assert "blink scroll" in describe(state, *off(c, -1, 0)).lower()

    # walk away until the orc's cell is remembered, not seen
    for pos in sorted(zip(*np.nonzero(state.explored), strict=True)):
        y, x = int(pos[0]), int(pos[1])
        if (
            tiles.WALKABLE[state.tiles[y, x]]
            and (x, y) != m.pos
            and not compute_visible(state, (x, y))[m.y, m.x]
        ):
            put_player(state, (x, y))
            break
    assert not state.visible[m.y, m.x] and state.explored[m.y, m.x]
    text = describe(state, *m.pos)
    assert "(remembered)" in text and "orc" not in text.lower()  # no monster from memory


def compute_visible(state: GameState, pos: tuple[int, int]) -> np.ndarray:
    s = copy.copy(state)
    s.explored = state.explored.copy()
    put_player(s, pos)
    return s.visible


def test_describe_names_a_keys_colour_and_a_locks_colour():
    state = fresh(0)
    (kx, ky), key = sorted(state.keys_lying.items())[0]
    walk = tiles.WALKABLE[state.tiles]
    put_player(state, next((kx + dx, ky + dy) for dx, dy in DIRS8 if walk[ky + dy, kx + dx]))
    colour = tiles.key_colour(key)[0]
    text = describe(state, kx, ky)
    assert colour in text and "key" in text
    door, _, lock = next(locked_doors(state))
    state.explored[door[1], door[0]] = True
    text = describe(state, *door)
    assert tiles.key_colour(lock)[0] in text and "locked" in text
