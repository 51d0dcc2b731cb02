"""Stage 2: the role of every room.

The topology already names the start, the finish and the key rooms; this stage turns some of
the other dead ends into treasure rooms, more of them the deeper they lie.
"""

from __future__ import annotations

import numpy as np

from roguelike.gen.floor import Cast, Planned, carried
from roguelike.gen.topology import Topology


def room_roles(topo: Topology, rng: np.random.Generator) -> dict[int, str]:
    """Room id → role: the topology's start, finish, key and room, with some dead ends that
    hold no key made "treasure" (35% plus 5% per level of depth, up to depth 6)."""
    roles = {r.id: r.role for r in topo.rooms}
    children = topo.children()
    degree = {r: len(v) for r, v in topo.neighbours().items()}
    for r in topo.rooms:
        dead_end = r.role == "room" and not children[r.id] and degree[r.id] == 1
        if dead_end and rng.integers(100) < 35 + 5 * min(r.depth, 6):
            roles[r.id] = "treasure"
    return roles


def assign_roles(fl: Planned, rng: np.random.Generator) -> Cast:
    """Stage 2 on a planned floor; ``rng`` is the floor's ``roles`` stream."""
    return Cast(**carried(fl), roles=room_roles(fl.topology, rng))
