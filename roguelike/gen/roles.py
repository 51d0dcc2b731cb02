"""Stage 2: the role of every room.

The topology already names the start, the finish and the key rooms; this stage turns some of
the other rooms into special rooms, in the spirit of Brogue's "machines", each placed where the
tree's shape suits it:

* ``treasure``: a dead end holding treasure, more of them the deeper they lie;
* ``snare``: a treasure dead end whose treasure is ringed by hidden traps, with one safe gap
  (the populate stage lays the traps), so taking it is a risk a careful player can lower;
* ``ambush``: a quiet dead end whose sleepers all wake together when the player steps in
  (the engine springs it), so a room that looks empty is worth a second thought;
* ``flooded``: a passage (a room with two or more corridors) under deep water, which costs a
  turn more for every step taken in it (the terrain stage floods it; the room drops nothing a
  player needs: keys, stairs and pedestals are never flooded);
* ``vault``: a treasure dead end sealed shut (the stamp stage seals its door and sets a puzzle
  pedestal in the room it hangs from), richer than a treasure room because a puzzle guards it:
  solving the pedestal breaks the seal. At most one a floor;
* ``captive``: a dead end where a shackled captive sits among one or two sleeping guards;
  freed (bumped a few turns), it follows the player as an ally (the populate stage seats it,
  the engine frees it). At most one a floor, never a key room.

Each special room is a record of ``roguelike/gen/special.py`` (its odds by floor in
``roguelike/depth.py``); this stage is a loop over those records, in their order.

Special rooms never change the topology, the locks or the keys, so the proof stage proves a
floor with them exactly as before; a vault's seal is not one of the topology's locks, and the
proof also shows the vault opens once its puzzle is solved.
"""

from __future__ import annotations

import numpy as np

from roguelike.gen.floor import Cast, Planned, carried
from roguelike.gen.special import CATALOG, SPECIAL_ROLES, TREASURE_ROLES, Candidate
from roguelike.gen.topology import Topology

__all__ = ["ROLES", "SPECIAL_ROLES", "TREASURE_ROLES", "assign_roles", "room_roles"]

#: Every role a room may have: the topology's, then the special rooms' (``special.CATALOG``).
ROLES = ("start", "finish", "key", "room", *(s.role for s in CATALOG))


def room_roles(topo: Topology, rng: np.random.Generator, floor: int = 1) -> dict[int, str]:
    """Room id → role: the topology's start, finish, key and room, with some plain rooms made
    special rooms by the records of ``special.CATALOG``, in its order. First every room, in id
    order, draws one number for each ``each`` and ``instead`` record, whatever its outcome (so
    one choice never shifts the others); a plain room goes to the first ``each`` record it
    suits whose draw falls under its odds (then perhaps to a record ``instead`` of that one).
    Then each ``pick`` and ``first`` record, in catalog order, draws and places its one room."""
    roles = {r.id: r.role for r in topo.rooms}
    children = topo.children()
    degree = {r: len(v) for r, v in topo.neighbours().items()}

    def candidate(room_id: int, room_depth: int) -> Candidate:
        dead_end = not children[room_id] and degree[room_id] == 1
        return Candidate(room_id, room_depth, roles[room_id], dead_end, degree[room_id])

    batch = [s for s in CATALOG if s.placing in ("each", "instead")]
    placed = {s.role: 0 for s in CATALOG}
    for r in topo.rooms:
        draws = {
            s.role: int(v) for s, v in zip(batch, rng.integers(100, size=len(batch)), strict=True)
        }
        if r.role != "room":
            continue
        c = candidate(r.id, r.depth)
        for s in batch:
            if s.placing != "each" or not s.where(c):
                continue
            if s.at_most is not None and placed[s.role] >= s.at_most:
                continue
            if draws[s.role] >= s.chance(floor, r.depth):
                continue
            role = s.role
            for other in batch:  # a room this record won may be another one instead
                won = other.where(c) and draws[other.role] < other.chance(floor, r.depth)
                if other.instead_of == role and won:
                    role = other.role
            roles[r.id] = role
            placed[role] += 1
            break
    for s in CATALOG:
        if s.placing == "pick":
            suits = [
                r.id
                for r in topo.rooms
                if roles[r.id] == "room" and s.where(candidate(r.id, r.depth))
            ]
            draw = int(rng.integers(100))
            if suits and draw < s.chance(floor):
                roles[suits[draw % len(suits)]] = s.role
        elif s.placing == "first":
            held = [int(v) for v in rng.integers(100, size=len(topo.rooms))]
            for r, draw in zip(topo.rooms, held, strict=True):
                c = candidate(r.id, r.depth)
                if c.role == "room" and s.where(c) and draw < s.chance(floor, r.depth):
                    roles[r.id] = s.role
                    break
    return roles


def assign_roles(fl: Planned, rng: np.random.Generator) -> Cast:
    """Stage 2 on a planned floor; ``rng`` is the floor's ``roles`` stream."""
    return Cast(**carried(fl), roles=room_roles(fl.topology, rng, fl.number))
