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

Special rooms never change the topology, the locks or the keys, so the proof stage proves a
floor with them exactly as before; a vault's seal is not one of the topology's locks, and the
proof also shows the vault opens once its puzzle is solved.
"""

from __future__ import annotations

import numpy as np

from roguelike.gen.floor import Cast, Planned, carried
from roguelike.gen.topology import Topology

#: Every role a room may have; the roles that hold treasure.
ROLES = (
    "start",
    "finish",
    "key",
    "room",
    "treasure",
    "snare",
    "ambush",
    "flooded",
    "vault",
    "captive",
)
TREASURE_ROLES = frozenset({"treasure", "snare", "vault"})
#: The special rooms (the bench counts them per floor).
SPECIAL_ROLES = ("snare", "ambush", "flooded", "vault", "captive")

# Chances, in percent; how the roles spread over a floor.
TREASURE_BASE, TREASURE_PER_DEPTH = 35, 5  # a dead end is treasure: base + per depth (to 6)
SNARE_IN_100 = 30  # a treasure room is a snare instead (from floor 2)
AMBUSH_IN_100 = 25  # a plain dead end at depth 2 or more is an ambush (from floor 2)
FLOODED_IN_100 = 45  # a floor from 3 on floods one passage
VAULT_IN_100 = 30  # a dead end left plain is the floor's one vault (from floor 2)
CAPTIVE_IN_100 = 35  # a plain dead end left holds a captive (from floor 2, one a floor at most)


def room_roles(topo: Topology, rng: np.random.Generator, floor: int = 1) -> dict[int, str]:
    """Room id → role: the topology's start, finish, key and room, with some dead ends that
    hold no key made treasure (35% plus 5% per level of depth, up to depth 6), some of those
    snares, some plain dead ends ambushes and at most one of the rest a sealed vault, on
    deeper floors one passage flooded, and from floor 2 one plain dead end left at most a
    captive's. Every draw is made for every room in id order, whatever its outcome, so one
    choice never shifts the others."""
    roles = {r.id: r.role for r in topo.rooms}
    children = topo.children()
    degree = {r: len(v) for r, v in topo.neighbours().items()}
    passages = []
    vaulted = False
    for r in topo.rooms:
        treasure, snare, ambush, vault = (int(v) for v in rng.integers(100, size=4))
        if r.role != "room":
            continue
        dead_end = not children[r.id] and degree[r.id] == 1
        if dead_end and treasure < TREASURE_BASE + TREASURE_PER_DEPTH * min(r.depth, 6):
            roles[r.id] = "snare" if floor >= 2 and snare < SNARE_IN_100 else "treasure"
        elif dead_end and floor >= 2 and r.depth >= 2 and ambush < AMBUSH_IN_100:
            roles[r.id] = "ambush"
        elif dead_end and floor >= 2 and not vaulted and vault < VAULT_IN_100:
            roles[r.id] = "vault"
            vaulted = True
        elif degree[r.id] >= 2:
            passages.append(r.id)
    flood = int(rng.integers(100))
    if floor >= 3 and passages and flood < FLOODED_IN_100:
        roles[passages[flood % len(passages)]] = "flooded"
    # drawn last, so the draws above (and so every other role) are what they were before
    # captives came: the first plain dead end whose draw falls under the chance holds one
    held = [int(v) for v in rng.integers(100, size=len(topo.rooms))]
    for r, draw in zip(topo.rooms, held, strict=True):
        plain = roles[r.id] == "room" and not children[r.id] and degree[r.id] == 1
        if floor >= 2 and plain and draw < CAPTIVE_IN_100:
            roles[r.id] = "captive"
            break
    return roles


def assign_roles(fl: Planned, rng: np.random.Generator) -> Cast:
    """Stage 2 on a planned floor; ``rng`` is the floor's ``roles`` stream."""
    return Cast(**carried(fl), roles=room_roles(fl.topology, rng, fl.number))
