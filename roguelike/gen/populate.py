"""Stage 6: where monsters, items and treasure go.

The start room stays empty. Every other room gets a Poisson number of monster slots (more the
deeper the room), preferring its template's ``m`` spots; a treasure room gets a treasure slot on
each ``$`` spot; a room has a 35% chance of one item slot. A slot's level is the room's depth
plus the floor's number minus one. Slots never share a cell, nor take the spawn, the stairs or
a key.
"""

from __future__ import annotations

import numpy as np

from roguelike import tiles
from roguelike.gen.floor import Decorated, Populated, Slot, carried


def populate(fl: Decorated, rng: np.random.Generator) -> Populated:
    """Stage 6 on a decorated floor; ``rng`` is the floor's ``population`` stream."""
    walk = tiles.WALKABLE[fl.tiles]
    taken = {fl.spawn, fl.finish} | {(k.x, k.y) for k in fl.keys}
    spots = fl.spots
    slots: list[Slot] = []
    for r in fl.topology.rooms:
        if r.id == fl.topology.start:
            continue
        cells = np.argwhere(walk & (fl.room_map == r.id) & ~fl.protected)
        level = r.depth + fl.number - 1
        monsters = int(rng.poisson(0.5 + 0.3 * min(r.depth, 6)))
        preferred = [c for c in spots[r.id].get("m", []) if walk[c[1], c[0]]]
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
        if fl.roles.get(r.id) == "treasure":
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
    return Populated(**carried(fl), slots=slots)
