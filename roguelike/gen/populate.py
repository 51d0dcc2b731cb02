"""Stage 6: where monsters, items, treasure and hidden traps go.

The start room stays empty. Every other room gets a Poisson number of monster slots (more the
deeper the room: ``depth.MONSTER_SLOTS``), preferring its template's ``m`` spots; a special
room's record (``special.py``) has its say through its ``populate`` hook: an ambush room fills
every ``m`` spot and a few more besides, a captive room seats its captive (a ``captive`` slot)
among one or two guards, a sealed vault holds no monster (nothing lives shut in); a room whose
record holds ``treasure`` (a treasure room, a snare, a vault) gets a treasure slot on each
``$`` spot; a room has a 35% chance of one item slot. A slot's level is the room's depth plus
``depth.SLOT_LEVEL`` of the floor (one per floor below the first). Slots never share a cell,
nor take the spawn, the stairs or a key.

Traps are drawn afterwards from their own stream (``traps``), so adding or tuning them never
moves a slot. A trap lies only on open room floor: a cell whose eight neighbours are all
walkable and hold no other trap, so a trap can always be stepped around and never stands on
the only way anywhere (the proof's paths stay open even to a player who will not step on one).
A room whose record is ``ringed`` (a snare) also rings each of its treasures with traps,
leaving one gap. A fire trap is likelier where moss grows round its cell (``FIRE_TRAP_ON_MOSS``).
"""

from __future__ import annotations

import numpy as np

from roguelike import depth, tiles
from roguelike.gen.floor import TRAP_KINDS, Decorated, Populated, Slot, TrapSpot, carried
from roguelike.gen.special import RoomFill, special

#: The most traps one floor holds (beside a snare's ring); how many by floor is
#: ``depth.TRAPS``.
TRAPS_MOST = 8
#: The weight of each trap kind, in the order of TRAP_KINDS.
TRAP_WEIGHTS = (5, 3, 2, 3)
#: The weight of a fire trap where moss grows on its cell or round it (fire traps are set
#: where they burn: the moss carries the blaze on).
FIRE_TRAP_ON_MOSS = 10

_RING = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def populate(
    fl: Decorated, rng: np.random.Generator, trap_rng: np.random.Generator | None = None
) -> Populated:
    """Stage 6 on a decorated floor; ``rng`` is the floor's ``population`` stream and
    ``trap_rng`` its ``traps`` stream (none: a floor without traps)."""
    walk = tiles.WALKABLE[fl.tiles]
    taken = {fl.spawn, fl.finish} | {(k.x, k.y) for k in fl.keys}
    spots = fl.spots
    slots: list[Slot] = []
    for r in fl.topology.rooms:
        if r.id == fl.topology.start:
            continue
        cells = np.argwhere(walk & (fl.room_map == r.id) & ~fl.protected)
        level = r.depth + depth.SLOT_LEVEL.at(fl.number)
        room = special(fl.roles.get(r.id))
        monsters = int(rng.poisson(depth.MONSTER_SLOTS.at(r.depth)))
        preferred = [c for c in spots[r.id].get("m", []) if walk[c[1], c[0]]]
        if room is not None and room.populate is not None:  # a special room's own say
            fill = RoomFill(r.id, level, monsters, preferred, cells, taken, slots, rng)
            monsters = room.populate(fill)
        for i in range(monsters):
            if i < len(preferred) and preferred[i] not in taken:
                pos = preferred[i]
            elif len(cells):
                y, x = cells[int(rng.integers(len(cells)))]
                pos = (int(x), int(y))
            else:
                continue
            if pos not in taken:
                taken.add(pos)
                slots.append(Slot("monster", pos[0], pos[1], r.id, level))
        if room is not None and room.treasure:
            for pos in spots[r.id].get("$", []):
                if walk[pos[1], pos[0]] and pos not in taken:
                    taken.add(pos)
                    slots.append(Slot("treasure", pos[0], pos[1], r.id, level))
        if len(cells) and rng.integers(100) < 35:
            y, x = cells[int(rng.integers(len(cells)))]
            pos = (int(x), int(y))
            if pos not in taken:
                taken.add(pos)
                slots.append(Slot("item", pos[0], pos[1], r.id, level))
    traps = [] if trap_rng is None else place_traps(fl, slots, taken, trap_rng)
    return Populated(**carried(fl), slots=slots, traps=traps)


def _kind(rng: np.random.Generator, *, mossy: bool = False) -> str:
    """A trap's kind by ``TRAP_WEIGHTS`` (a fire trap weighs ``FIRE_TRAP_ON_MOSS`` where
    ``mossy``): one draw of ``rng`` either way."""
    weights = np.array(TRAP_WEIGHTS, dtype=float)
    if mossy:
        weights[TRAP_KINDS.index("fire")] = FIRE_TRAP_ON_MOSS
    return TRAP_KINDS[int(rng.choice(len(TRAP_KINDS), p=weights / weights.sum()))]


def open_floor(fl: Decorated) -> np.ndarray:
    """Cells where a trap may lie: unprotected room floor (not the start room's) whose eight
    neighbours are all walkable, so a player can always step around it."""
    walk = tiles.WALKABLE[fl.tiles]
    h, w = walk.shape
    ok = walk & (fl.room_map >= 0) & (fl.room_map != fl.topology.start) & ~fl.protected
    ok &= fl.tiles != tiles.DEEP_WATER
    ok[0, :] = ok[-1, :] = ok[:, 0] = ok[:, -1] = False
    inner = walk[1:-1, 1:-1].copy()
    for dx, dy in _RING:
        inner &= walk[1 + dy : h - 1 + dy, 1 + dx : w - 1 + dx]
    full = np.zeros_like(walk)
    full[1:-1, 1:-1] = inner
    return ok & full


def place_traps(
    fl: Decorated, slots: list[Slot], taken: set[tuple[int, int]], rng: np.random.Generator
) -> list[TrapSpot]:
    """The floor's hidden traps: scattered ones on open floor, then each snare's rings."""
    free = open_floor(fl)
    for s in slots:
        free[s.y, s.x] = False
    for x, y in taken:
        free[y, x] = False
    for d in fl.doors:
        free[max(d.y - 1, 0) : d.y + 2, max(d.x - 1, 0) : d.x + 2] = False
    traps: dict[tuple[int, int], str] = {}
    count = min(TRAPS_MOST, int(rng.poisson(depth.TRAPS.at(fl.number))))
    ys, xs = np.nonzero(free)
    order = rng.permutation(len(xs)) if len(xs) else np.zeros(0, dtype=int)
    for i in order:
        if len(traps) >= count:
            break
        x, y = int(xs[i]), int(ys[i])
        # no other trap within two steps: every trap's ring of neighbours is trap-free
        if any(abs(x - tx) <= 2 and abs(y - ty) <= 2 for tx, ty in traps):
            continue
        mossy = bool((fl.tiles[y - 1 : y + 2, x - 1 : x + 2] == tiles.MOSS).any())
        traps[(x, y)] = _kind(rng, mossy=mossy)
    walk = tiles.WALKABLE[fl.tiles]
    rings: list[list[tuple[int, int]]] = []
    gaps: set[tuple[int, int]] = set()
    for s in slots:
        room = special(fl.roles.get(s.room))
        if s.kind != "treasure" or room is None or not room.ringed:
            continue
        ring = [
            (s.x + dx, s.y + dy)
            for dx, dy in _RING
            if walk[s.y + dy, s.x + dx]
            and not fl.protected[s.y + dy, s.x + dx]
            and (s.x + dx, s.y + dy) not in taken
        ]
        if ring:  # one cell of each ring stays safe, whatever the rings next to it lay
            gaps.add(ring[int(rng.integers(len(ring)))])
            rings.append(ring)
    for ring in rings:
        for pos in ring:
            if pos not in gaps and pos not in traps:
                traps[pos] = "dart" if rng.integers(2) else "net"
    return sorted(TrapSpot(x, y, kind) for (x, y), kind in traps.items())
