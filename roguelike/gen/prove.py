"""Stage 7: prove that the floor can be finished as promised.

The proof walks the floor as a player would: from the spawn, pick up every key you can reach
and open only doors whose key you hold. Every key, every room, every slot and the stairs must be
reached; each lock must stand exactly once and guard the stairs on its own. A sealed vault is
left shut for all of that (it is optional: nothing the stairs need lies behind it); then its
pedestal must be reachable, its seal must stand once, and with the seal broken the vault and
everything in it must be reached too. A floor that fails
raises :class:`ProofError`: that is a generator bug, never something to retry silently.
"""

from __future__ import annotations

import numpy as np
from scipy import ndimage

from roguelike import seeds, tiles
from roguelike.gen.floor import Floor, Populated, carried


class ProofError(RuntimeError):
    """A floor that cannot be completed as promised: always a generator bug."""


def _component(walk: np.ndarray, start: tuple[int, int]) -> np.ndarray:
    labels, _ = ndimage.label(walk)  # 4-connected: moving never cuts a corner
    lab = labels[start[1], start[0]]
    return labels == lab if lab else np.zeros_like(walk)


def prove(fl: Populated) -> list[str]:
    """Every promise the floor breaks, in words (an empty list: proven)."""
    problems: list[str] = []
    grid = fl.tiles
    walk = tiles.WALKABLE[grid]
    if not walk[fl.spawn[1], fl.spawn[0]]:
        return ["the spawn is not walkable"]
    locked = {k: grid == tiles.locked_door(k) for k in range(1, tiles.MAX_KEYS + 1)}
    vault_rooms = {v.vault for v in fl.vaults}
    held: set[int] = set()
    reach = _component(walk, fl.spawn)
    while True:
        new = {k.id for k in fl.keys if reach[k.y, k.x]} - held
        if not new:
            break
        held |= new
        opened = walk.copy()
        for k in held:
            opened |= locked[k]
        reach = _component(opened, fl.spawn)
    missing = sorted({k.id for k in fl.keys} - held)
    if missing:
        problems.append(f"keys {missing} cannot be reached")
    if not reach[fl.finish[1], fl.finish[0]]:
        problems.append("the stairs cannot be reached")
    if fl.keys and _component(walk, fl.spawn)[fl.finish[1], fl.finish[0]]:
        problems.append("the stairs can be reached without any key")
    all_keys = {k.id for k in fl.keys}
    for k in sorted(all_keys):
        if int(locked[k].sum()) != 1:
            problems.append(f"door {tiles.key_letter(k)} stands {int(locked[k].sum())} times")
        # every lock on its own must guard the stairs: with every other key, still no way
        opened = walk.copy()
        for other in all_keys - {k}:
            opened |= locked[other]
        if _component(opened, fl.spawn)[fl.finish[1], fl.finish[0]]:
            problems.append(f"the stairs can be reached without key {tiles.key_letter(k)}")
    for s in fl.slots:
        if s.room not in vault_rooms and not reach[s.y, s.x]:
            problems.append(f"a {s.kind} slot at {(s.x, s.y)} cannot be reached")
    for r in fl.topology.rooms:
        if r.id not in vault_rooms and not (reach & (fl.room_map == r.id)).any():
            problems.append(f"room {r.id} cannot be entered")
    return problems + vault_problems(fl, walk, held)


def vault_problems(fl: Populated, walk: np.ndarray, held: set[int]) -> list[str]:
    """What the floor's vaults break: each seal's pedestal must be reachable with every key of
    the topology (``held``) and no seal broken, its seal must stand exactly once, and breaking
    it must let the player into the vault and to every slot in it."""
    problems: list[str] = []
    grid = fl.tiles
    opened = walk.copy()
    for k in held:
        opened |= grid == tiles.locked_door(k)
    reach = _component(opened, fl.spawn)
    topology_keys = {k.id for k in fl.keys}
    for v in fl.vaults:
        if v.key in topology_keys:
            problems.append(f"vault {v.vault}'s seal answers to key {v.key} of the topology")
        if any(k.room == v.vault for k in fl.keys) or v.vault == fl.topology.finish:
            problems.append(f"vault {v.vault} holds a key or the stairs")
        seals = [d for d in fl.doors if d.lock == v.key]
        if len(seals) != 1:
            problems.append(f"vault {v.vault} has {len(seals)} seals, not one")
            continue
        seal = seals[0]
        if grid[seal.y, seal.x] != tiles.VAULT_SEAL:
            problems.append(f"the seal of vault {v.vault} is not a sealed door")
        if not reach[v.y, v.x]:
            problems.append(f"the pedestal of vault {v.vault} cannot be reached")
        vault = fl.room_map == v.vault
        vault[seal.y, seal.x] = False  # the seal's own cell is the way in, not the vault
        if (reach & vault).any():
            problems.append(f"vault {v.vault} can be entered with its seal shut")
        broken = opened.copy()
        broken[seal.y, seal.x] = True
        inside = _component(broken, fl.spawn)
        if not (inside & vault).any():
            problems.append(f"vault {v.vault} cannot be entered once its puzzle is solved")
        for s in fl.slots:
            if s.room == v.vault and not inside[s.y, s.x]:
                problems.append(f"a {s.kind} slot at {(s.x, s.y)} in vault {v.vault} is cut off")
    return problems


def certify(fl: Populated) -> Floor:
    """Stage 7 on a populated floor: the finished floor, or ProofError naming every problem."""
    problems = prove(fl)
    if problems:
        raise ProofError(
            f"floor {fl.number} of {seeds.encode(fl.seed)} fails its proof: " + "; ".join(problems)
        )
    return Floor(**carried(fl), proven=True)
