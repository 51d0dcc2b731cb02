"""Monster AI on real floors: approaching, attacking, fleeing, shooting, guarding, packs, sleeping
and waking, and the gameplay stream breaking ties.

Every situation is built on a real generated floor: a monster-free game of a seed, with the
player moved and monsters placed by hand on walkable cells, so each test knows exactly who
stands where. Expected values come from the rules (the engine modules' docstrings, the
creatures data), never from a recorded run.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from scipy import ndimage

from roguelike import tiles
from roguelike.engine import Move, Wait, step
from roguelike.engine.balance import POTION_DRINKERS
from roguelike.engine.creatures import GUARD_RADIUS, MONSTERS, monster_attack
from roguelike.engine.monsters import HUNT_MEMORY, RELOAD_TURNS, monster_options, player_distances
from tests.engine.support import (
    DIRS8,
    add,
    arena,
    attacks_by,
    cheb,
    fresh,
    off,
    plain_doors,
    put_player,
    unseen_cells,
    walk_dist,
)


def best_options(opts: list[tuple[float, str, tuple[int, int]]]):
    top = max(o[0] for o in opts)
    return [o for o in opts if o[0] == top]


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


def test_a_sleeping_monster_out_of_view_stays_at_home():
    state = fresh(0)
    pos = unseen_cells(state, 5, 10)[0]
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
    other = add(state, "skeleton", off(c, -1, 0), hp=5)  # no regeneration, no potion to drink
    assert not MONSTERS["skeleton"].regen and "skeleton" not in POTION_DRINKERS
    for n in range(1, 6):
        step(state, Wait())
        assert troll.hp == info.max_hp - 10 + n * info.regen
        assert other.hp == 5
