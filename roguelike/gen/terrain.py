"""Stage 5: terrain decoration — water, moss, rubble, chasms, statues and cave pockets.

``dress(stamped, rng)`` is the stage on a stamped floor. The work is done by
``decorate(tiles, protected, zone, rng, floor)``: it takes a stamped map and returns a new one
with its empty room floor and the rock between rooms dressed by the floor's *theme*. It is
vectorised (numpy + scipy.ndimage, no loop over tiles) but for the noise (see below).

Themes (``theme_for(floor)``, by floor in ``roguelike/depth.py``'s ``THEME``; coverages are per
mille of the free room floor, see THEMES):

* floors 1–2, *mossy halls*: moss carpets, a few puddles, a little rubble, rare cave pockets;
* floors 3–4, *flooded caves*: pools of water, moss, many cave pockets between the rooms;
* floors 5–6, *broken depths*: rubble fields, narrow chasm cracks, short bridges;
* floors 7+, *the abyss*: wide chasms, longer bridges, statues, some rubble.

No chasm appears before floor 5 and no statue before floor 7.

How: one OpenSimplex field per material (the ``opensimplex`` library's 2D noise, frequency
0.05–0.12, seeded from ``rng``), quantised to integers (``round(n·10⁶)``) before any comparison, so
no float can tip another way on another machine. Water, moss and rubble take the cells where their
field is highest; a chasm takes the cells where its field is nearest zero, which draws winding
cracks. Cave pockets come from a
cellular automaton (random fill, then 4 rounds of the 5×5 majority rule, borders solid) in the rock
(``VOID``) between rooms; they are floored with cave floor and some moss and water, walled where
they meet rock, and may open onto a room through a broken wall (rubble) or lie next to a corridor.
Noise is computed only at the cells that are dressed (free room floor and cave floor, a few
hundred per field on a default floor), row by row through the library's ``noise2array``: without
numba that is a pure-Python loop of some 10–20 µs a point, so a whole map would cost 100 ms a field.

Guarantees (for any input; ``protected`` should hold every cell that must stay put):

* a protected cell, and every cell of the outer border, is never changed;
* only walkable, unprotected room floor (``FLOOR``) is dressed; walls change only where a cave
  pocket breaks through, rock only where a pocket or its wall is carved;
* every walkable cell of the result is 4-connected to a protected cell, without using bridges
  (cells already cut off in the input are left as they were); more strongly, a chasm or statue
  never splits a walkable region of the input, so protected cells joined in the input stay joined
  even where ``protected`` holds no skeleton. Chasm that would cut a region off is filled back,
  and a small cut-off bit of bare floor falls into the chasm instead; a statue stands only where
  its eight neighbours are walkable and no other statue is within two cells;
* bridges are laid only across chasms whose both sides are already reachable without them;
* a cave pocket (with its breaches) touches, even diagonally, walkable cells of exactly one key
  zone and lies at least three cells from any door, so no new path joins two key zones;
* the result is a new ``uint8`` array of the same shape; the inputs are not modified;
* the same inputs and the same ``rng`` state give the same map.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from opensimplex import OpenSimplex
from scipy import ndimage

from roguelike import depth
from roguelike.gen.floor import Decorated, Stamped, carried
from roguelike.gen.special import special
from roguelike.tiles import (
    BRIDGE,
    CAVE,
    CHASM,
    DOOR,
    DOOR_OPEN,
    FLOOR,
    LOCKED_FIRST,
    MAX_KEYS,
    MOSS,
    RUBBLE,
    STATUE,
    VOID,
    WALKABLE,
    WALL,
    WATER,
)


@dataclass(frozen=True)
class Theme:
    """How a floor is dressed. Material weights are per mille of the free room floor."""

    name: str
    water: int
    moss: int
    rubble: int
    chasm: int
    #: per mille of cave-pocket floor that is moss / water
    cave_moss: int = 150
    cave_water: int = 100
    #: per mille of CA candidate rock that starts solid (higher → fewer, smaller pockets)
    cave_fill: int = 500
    #: per mille chance that each cave pocket found by the automaton is kept
    pockets: int = 0
    #: per mille of eligible open floor cells that become a statue (well spaced)
    statues: int = 0
    #: frequency of the chasm field (lower → wider, longer cracks)
    chasm_freq: float = 0.06
    #: longest bridge, in cells (0 → no bridges)
    bridge_len: int = 0


THEMES: tuple[Theme, ...] = (
    Theme(
        "mossy halls",
        water=60,
        moss=200,
        rubble=30,
        chasm=0,
        cave_moss=300,
        cave_water=60,
        cave_fill=540,
        pockets=250,
    ),
    Theme(
        "flooded caves",
        water=230,
        moss=90,
        rubble=30,
        chasm=0,
        cave_moss=120,
        cave_water=300,
        cave_fill=480,
        pockets=800,
    ),
    Theme(
        "broken depths",
        water=40,
        moss=30,
        rubble=170,
        chasm=70,
        cave_moss=60,
        cave_water=60,
        cave_fill=510,
        pockets=450,
        chasm_freq=0.07,
        bridge_len=2,
    ),
    Theme(
        "the abyss",
        water=20,
        moss=10,
        rubble=60,
        chasm=170,
        cave_moss=30,
        cave_water=30,
        cave_fill=530,
        pockets=350,
        statues=8,
        chasm_freq=0.05,
        bridge_len=4,
    ),
)


_BY_NAME = {t.name: t for t in THEMES}
assert set(depth.THEME.values()) <= set(_BY_NAME), "depth.THEME names a theme of THEMES"

# field frequencies (cells⁻¹) of the walkable materials
_FREQ_WATER = 0.07
_FREQ_MOSS = 0.10
_FREQ_RUBBLE = 0.12

_CA_ROUNDS = 4
_CA_SOLID = 13  # of 25 cells in the 5×5 neighbourhood
_MIN_POCKET = 6  # smaller pockets are dropped
_SMALL_ISLAND = 8  # a cut-off bit of floor up to this size falls into the chasm
_ISLAND_ROUNDS = 8
_BRIDGE_MIN_CHASM = 8  # smaller chasms get no bridge

_FOUR = ndimage.generate_binary_structure(2, 1)
_EIGHT = ndimage.generate_binary_structure(2, 2)
_OFFSETS8 = tuple((dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx)
_OFFSETS4 = ((-1, 0), (1, 0), (0, -1), (0, 1))


def theme_for(floor: int) -> Theme:
    """The theme of floor ``floor`` (1-based; deeper floors keep the last theme)."""
    if floor < 1:
        raise ValueError(f"floor {floor} is not 1-based")
    return _BY_NAME[depth.THEME.at(floor)]


# ---------------------------------------------------------------------------------------------
# noise: the opensimplex library


@lru_cache(maxsize=64)
def _generator(seed: int) -> OpenSimplex:
    """opensimplex's generator for ``seed``. Building its permutation is a loop of about a
    millisecond, so a floor generated again from the same seeds reuses the generator."""
    return OpenSimplex(seed)


def _field(seed: int, rows: np.ndarray, cols: np.ndarray, freq: float) -> np.ndarray:
    """opensimplex's 2D noise at the given cells, at ``(col·freq, row·freq)``, quantised to int64
    in ±10⁶.

    The library's ``noise2array`` evaluates a grid (every x with every y), so it is called once per
    map row, with only that row's cells: no cell that needs no noise is computed.
    """
    if rows.size == 0:
        return np.zeros(0, dtype=np.int64)
    generator = _generator(seed)
    order = np.argsort(rows, kind="stable")
    by_row = rows[order]
    xs = cols[order] * freq
    starts = np.flatnonzero(np.r_[True, by_row[1:] != by_row[:-1]])
    ends = np.r_[starts[1:], by_row.size]
    noise = np.empty(rows.size, dtype=np.float64)
    for a, b in zip(starts.tolist(), ends.tolist(), strict=True):
        y = np.array([by_row[a] * freq], dtype=np.float64)
        noise[order[a:b]] = generator.noise2array(xs[a:b], y)[0]
    return np.round(noise * 1e6).astype(np.int64)


def _top(score: np.ndarray, permille: int) -> np.ndarray:
    """The cells whose integer score is among the highest ``permille``/1000 of them."""
    n = score.size
    k = n * permille // 1000
    if k <= 0:
        return np.zeros(n, dtype=bool)
    if k >= n:
        return np.ones(n, dtype=bool)
    threshold = np.partition(score, n - k)[n - k]
    return score >= threshold


# ---------------------------------------------------------------------------------------------
# small array helpers


def _shift(a: np.ndarray, dy: int, dx: int, fill) -> np.ndarray:
    """``out[y, x] = a[y + dy, x + dx]`` (``fill`` outside the map)."""
    h, w = a.shape
    out = np.full_like(a, fill)
    ys, yd = (slice(dy, h), slice(0, h - dy)) if dy >= 0 else (slice(0, h + dy), slice(-dy, h))
    xs, xd = (slice(dx, w), slice(0, w - dx)) if dx >= 0 else (slice(0, w + dx), slice(-dx, w))
    out[yd, xd] = a[ys, xs]
    return out


def _near(mask: np.ndarray, radius: int = 1) -> np.ndarray:
    """Cells within Chebyshev distance ``radius`` of a cell of ``mask``."""
    return ndimage.binary_dilation(mask, structure=_EIGHT, iterations=radius)


def _touch_counts(labels: np.ndarray, n: int, zone: np.ndarray, walk: np.ndarray) -> np.ndarray:
    """For each label 1..n: how many distinct zones its cells touch (8-neighbourhood)."""
    zones = np.where(walk, zone, -1).astype(np.int64)
    pairs = []
    for dy, dx in _OFFSETS8:
        z = _shift(zones, dy, dx, -1)
        sel = (labels > 0) & (z >= 0)
        pairs.append(labels[sel].astype(np.int64) * (1 << 20) + z[sel])
    counts = np.zeros(n + 1, dtype=np.int64)
    if pairs:
        unique = np.unique(np.concatenate(pairs))
        np.add.at(counts, unique >> 20, 1)
    return counts


def _reaching(walk: np.ndarray, protected: np.ndarray) -> np.ndarray:
    """Walkable cells 4-connected to a protected walkable cell."""
    labels, n = ndimage.label(walk, structure=_FOUR)
    good = np.zeros(n + 1, dtype=bool)
    good[labels[protected & walk]] = True
    good[0] = False
    return good[labels]


# ---------------------------------------------------------------------------------------------
# cave pockets


def _cellular_caves(
    candidate: np.ndarray, open_space: np.ndarray, rng: np.random.Generator, fill: int
) -> np.ndarray:
    """The cave automaton over the candidate cells (fill, then the 5×5 majority rule); returns
    the open cells.

    Cells outside the candidates keep their state: ``open_space`` (the walkable floor, so that
    pockets grow towards corridors and rooms) is open, the rest and the map's border solid.
    """
    fixed_solid = ~candidate & ~open_space
    solid = (rng.integers(0, 1000, size=candidate.shape) < fill) & candidate | fixed_solid
    ones = np.ones(5, dtype=np.int32)
    for _ in range(_CA_ROUNDS):
        # solid cells in the 5×5 square, outside the map solid: two exact integer passes
        count = ndimage.correlate1d(solid.astype(np.int32), ones, axis=0, mode="constant", cval=1)
        count = ndimage.correlate1d(count, ones, axis=1, mode="constant", cval=5)
        solid = np.where(count >= _CA_SOLID, True, np.where(25 - count >= _CA_SOLID, False, solid))
        solid = solid & candidate | fixed_solid
    return ~solid & candidate


def _one_zone(new: np.ndarray, zone: np.ndarray, walk: np.ndarray) -> np.ndarray:
    """The cells of ``new`` whose 8-connected group touches walkable cells of exactly one zone."""
    labels, n = ndimage.label(new, structure=_EIGHT)
    counts = _touch_counts(labels, n, zone, walk)
    ok = counts == 1
    ok[0] = False
    return ok[labels]


def _pockets(tiles, protected, zone, rng, theme, walk):
    """Where cave pockets go: returns (pocket floor cells, broken wall cells)."""
    h, w = tiles.shape
    inner = np.zeros((h, w), dtype=bool)
    inner[2 : h - 2, 2 : w - 2] = True
    doors = (tiles == DOOR) | (tiles == DOOR_OPEN)
    doors |= (tiles >= LOCKED_FIRST) & (tiles < LOCKED_FIRST + MAX_KEYS)
    doors |= protected & ~walk
    keep_off = _near(doors, 2)
    candidate = (tiles == VOID) & inner & ~protected & ~keep_off
    open_ = _cellular_caves(candidate, walk & ~keep_off, rng, theme.cave_fill)

    labels, n = ndimage.label(open_, structure=_EIGHT)
    sizes = np.bincount(labels.ravel(), minlength=n + 1)
    keep = (rng.integers(0, 1000, size=n + 1) < theme.pockets) & (sizes >= _MIN_POCKET)
    keep[0] = False
    pocket = keep[labels]
    labels = np.where(pocket, labels, 0)

    # breaches: an unprotected wall cell with the pocket on one side and floor on the other
    wall_ok = (tiles == WALL) & inner & ~protected & ~keep_off
    best_label = np.zeros(0, dtype=np.int64)
    best_cell = np.zeros(0, dtype=np.int64)
    prio = rng.integers(0, 1 << 30, size=tiles.shape)
    for dy, dx in _OFFSETS4:
        side = _shift(labels, dy, dx, 0)
        other = _shift(walk, -dy, -dx, False)
        sel = wall_ok & (side > 0) & other
        best_label = np.concatenate([best_label, side[sel].astype(np.int64)])
        best_cell = np.concatenate([best_cell, np.flatnonzero(sel)])
    breach = np.zeros(tiles.shape, dtype=bool)
    if best_label.size:
        order = np.lexsort((prio.ravel()[best_cell], best_label))
        lab_sorted = best_label[order]
        last = np.r_[lab_sorted[1:] != lab_sorted[:-1], True]
        breach.ravel()[best_cell[order][last]] = True

    # exactly one zone, with the breaches or else without them
    new = pocket | breach
    ok = _one_zone(new, zone, walk)
    retry = pocket & ~ok
    ok |= _one_zone(retry, zone, walk)
    new &= ok
    # and 4-connected to a protected cell through the existing floor
    new &= _reaching(walk | new, protected)
    return new & pocket, new & breach


# ---------------------------------------------------------------------------------------------
# chasm clean-up, statues, bridges


def _cut_off(out, in_labels, prot_idx):
    """Walkable cells of ``out`` that lost their way to the protected cells.

    A cell that was walkable in the input is cut off when it is no longer 4-connected to the first
    protected cell of its input region (regions without a protected cell are left alone); a new
    walkable cell when its region holds no protected cell.
    """
    walk = WALKABLE[out]
    out_labels, n = ndimage.label(walk, structure=_FOUR)
    il = in_labels.ravel()[prot_idx]
    ol = out_labels.ravel()[prot_idx]
    main = np.zeros(int(in_labels.max()) + 1, dtype=np.int64)
    main[il[::-1]] = ol[::-1]  # the first protected cell of each input region wins
    has_protected = np.zeros(n + 1, dtype=bool)
    has_protected[ol] = True
    has_protected[0] = False
    own = main[in_labels]
    cut = np.where(in_labels > 0, (own > 0) & (out_labels != own), ~has_protected[out_labels])
    return walk & cut


def _settle_chasms(out, tiles, protected, placed):
    """Fill back chasm that cuts a region off; let small cut-off floor fall in. In place."""
    in_labels, _ = ndimage.label(WALKABLE[tiles], structure=_FOUR)
    prot_idx = np.flatnonzero(protected & WALKABLE[tiles])
    for _ in range(_ISLAND_ROUNDS):
        cut = _cut_off(out, in_labels, prot_idx)
        my_chasm = placed & (out == CHASM)
        cut_labels, n = ndimage.label(cut, structure=_FOUR)
        near_chasm = np.zeros(n + 1, dtype=bool)
        near_chasm[cut_labels[_near(my_chasm) & cut]] = True
        near_chasm[0] = False
        if not near_chasm.any():
            return
        sizes = np.bincount(cut_labels.ravel(), minlength=n + 1)
        all_floor = np.ones(n + 1, dtype=bool)
        all_floor[cut_labels[cut & ((tiles != FLOOR) | protected)]] = False
        fall = near_chasm & all_floor & (sizes <= _SMALL_ISLAND)
        fall_cells = fall[cut_labels]
        out[fall_cells] = CHASM
        placed |= fall_cells
        # the chasm beside the larger cut-off regions is filled back
        refill = near_chasm & ~fall
        if refill.any():
            region = refill[cut_labels]
            chasm_labels, _ = ndimage.label(my_chasm, structure=_EIGHT)
            hit = np.unique(chasm_labels[_near(region) & my_chasm])
            back = np.isin(chasm_labels, hit[hit > 0])
            out[back] = tiles[back]
            placed &= ~back
    # still cut off after every round: give back every chasm (the input as it was)
    back = placed & (out == CHASM)
    out[back] = tiles[back]


def _statues(out, tiles, protected, rng, permille):
    """Well-spaced statues on open floor whose eight neighbours are all walkable. In place."""
    if permille <= 0:
        return
    walk = WALKABLE[out]
    ring_ok = ndimage.minimum_filter(walk.astype(np.uint8), size=3, mode="constant", cval=0) > 0
    free = ((out == FLOOR) | (out == MOSS) | (out == RUBBLE)) & (tiles == FLOOR) & ~protected
    pick = free & ring_ok & (rng.integers(0, 1000, size=out.shape) < permille)
    crowd = ndimage.convolve(
        pick.astype(np.int32), np.ones((5, 5), dtype=np.int32), mode="constant", cval=0
    )
    out[pick & (crowd == 1)] = STATUE


def _bridges(out, protected, rng, max_len):
    """One straight bridge per chasm, across at most ``max_len`` cells, walkable at both ends."""
    if max_len <= 0:
        return
    chasm = out == CHASM
    if not chasm.any():
        return
    firm = _reaching(WALKABLE[out] & (out != BRIDGE), protected)
    labels, n = ndimage.label(chasm, structure=_EIGHT)
    sizes = np.bincount(labels.ravel(), minlength=n + 1)
    w = out.shape[1]
    cand_label, cand_start, cand_dir, cand_len = [], [], [], []
    for d, (dy, dx) in enumerate(((0, 1), (1, 0))):
        for k in range(1, max_len + 1):
            run = _shift(firm, -dy, -dx, False) & _shift(firm, k * dy, k * dx, False)
            for i in range(k):
                run &= _shift(chasm, i * dy, i * dx, False)
            idx = np.flatnonzero(run & (sizes[labels] >= _BRIDGE_MIN_CHASM))
            cand_label.append(labels.ravel()[idx])
            cand_start.append(idx)
            cand_dir.append(np.full(idx.size, d))
            cand_len.append(np.full(idx.size, k))
    lab = np.concatenate(cand_label).astype(np.int64)
    if lab.size == 0:
        return
    start = np.concatenate(cand_start)
    direction = np.concatenate(cand_dir)
    length = np.concatenate(cand_len)
    prio = rng.integers(0, 1 << 30, size=lab.size)
    order = np.lexsort((prio, lab))
    last = np.r_[lab[order][1:] != lab[order][:-1], True]
    for s, d, k in zip(
        start[order][last], direction[order][last], length[order][last], strict=True
    ):
        y, x = divmod(int(s), w)
        if d == 0:
            out[y, x : x + k] = BRIDGE
        else:
            out[y : y + k, x] = BRIDGE


# ---------------------------------------------------------------------------------------------


def decorate(
    tiles: np.ndarray,
    protected: np.ndarray,
    zone: np.ndarray,
    rng: np.random.Generator,
    floor: int,
) -> np.ndarray:
    """Dress a stamped floor with its theme's terrain; see the module docstring for the rules.

    ``tiles`` uint8 (H, W); ``protected`` bool (H, W), cells never to change; ``zone`` int (H, W),
    the key zone of each walkable cell (-1 elsewhere); ``rng`` the floor's terrain stream;
    ``floor`` 1-based. Returns a new uint8 array.
    """
    tiles = np.asarray(tiles)
    if tiles.ndim != 2 or protected.shape != tiles.shape or zone.shape != tiles.shape:
        raise ValueError("tiles, protected and zone must be 2-D arrays of one shape")
    theme = theme_for(floor)
    h, w = tiles.shape
    out = tiles.astype(np.uint8, copy=True)
    protected = np.asarray(protected, dtype=bool)
    if h < 5 or w < 5:
        return out
    walk = WALKABLE[tiles]
    border = np.zeros((h, w), dtype=bool)
    border[0, :] = border[-1, :] = True
    border[:, 0] = border[:, -1] = True
    fixed = protected | border

    # every seed is drawn up front, in one order, whatever the theme uses
    seeds = [int(s) for s in rng.integers(0, 2**31, size=4)]

    # 1. cave pockets in the rock between rooms
    pocket, breach = _pockets(tiles, protected, zone, rng, theme, walk)
    out[pocket] = CAVE
    out[breach] = RUBBLE
    ring = _near(pocket | breach) & (tiles == VOID) & ~pocket & ~fixed
    out[ring] = WALL

    # 2. materials on free room floor and on cave floor, one noise field each
    room = (tiles == FLOOR) & ~fixed
    room_idx = np.flatnonzero(room)
    cave_idx = np.flatnonzero(pocket)
    both = np.concatenate([room_idx, cave_idx])
    rows, cols = np.divmod(both, w)
    nroom = room_idx.size
    flat = out.reshape(-1)
    placed = np.zeros(h * w, dtype=bool)
    if both.size:
        water = _field(seeds[0], rows, cols, _FREQ_WATER)
        moss = _field(seeds[1], rows, cols, _FREQ_MOSS)
        rubble = _field(seeds[2], rows[:nroom], cols[:nroom], _FREQ_RUBBLE)
        # lowest priority first: later materials overwrite earlier ones
        flat[room_idx[_top(moss[:nroom], theme.moss)]] = MOSS
        flat[room_idx[_top(rubble, theme.rubble)]] = RUBBLE
        flat[room_idx[_top(water[:nroom], theme.water)]] = WATER
        flat[cave_idx[_top(moss[nroom:], theme.cave_moss)]] = MOSS
        flat[cave_idx[_top(water[nroom:], theme.cave_water)]] = WATER
        if theme.chasm > 0 and nroom:
            crack = _field(seeds[3], rows[:nroom], cols[:nroom], theme.chasm_freq)
            chasm_idx = room_idx[_top(-np.abs(crack), theme.chasm)]
            flat[chasm_idx] = CHASM
            placed[chasm_idx] = True
    placed = placed.reshape(h, w)

    # 3. no region cut off by the chasm; then statues and bridges, which cut nothing
    if placed.any():
        _settle_chasms(out, tiles, fixed, placed)
    _statues(out, tiles, fixed, rng, theme.statues)
    _bridges(out, fixed, rng, theme.bridge_len)

    # belt and braces: the promises that must hold whatever happened above
    out[fixed] = tiles[fixed]
    return out


def special_terrain(out: np.ndarray, fl: Stamped) -> None:
    """Each special room's own terrain (its record's ``terrain`` hook, such as a flooded
    room's deep water), in room order, in place."""
    for room, role in sorted(fl.roles.items()):
        record = special(role)
        if record is not None and record.terrain is not None:
            record.terrain(out, fl, room)


def dress(fl: Stamped, rng: np.random.Generator) -> Decorated:
    """Stage 5 on a stamped floor; ``rng`` is the floor's ``terrain`` stream."""
    dressed = decorate(fl.tiles, fl.protected, fl.zone, rng, fl.number)
    special_terrain(dressed, fl)
    return Decorated(**carried(fl) | {"tiles": dressed}, theme=theme_for(fl.number).name)
