"""Distance maps and downhill steps: the engine's searches against a plain breadth-first search, on
drawn grids and on a real floor.

Every situation is built on a real generated floor: a monster-free game of a seed, with the
player moved and monsters placed by hand on walkable cells, so each test knows exactly who
stands where. Expected values come from the rules (the engine modules' docstrings, the
creatures data), never from a recorded run.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike import tiles
from roguelike.engine import GameState
from roguelike.engine.monsters import SCENT_RANGE, player_distances
from roguelike.engine.pathing import FAR, distance_map, downhill
from tests.engine.support import DIRS8, bfs, fresh, locked_doors

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
