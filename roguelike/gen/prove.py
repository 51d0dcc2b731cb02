"""Stage 7: prove that the floor can be finished as promised.

The proof walks the floor as a player would: from the spawn, pick up every key you can reach
and open only doors whose key you hold. Every key, every room, every slot and the stairs must be
reached; each lock must stand exactly once and guard the stairs on its own. A sealed vault is
left shut for all of that (it is optional: nothing the stairs need lies behind it); then its
pedestal must be reachable, its seal must stand once, and with the seal broken the vault and
everything in it must be reached too.

A floor change (``changes.py``: an optional pedestal that opens a shortcut, raises a bridge,
drains a flooded passage or shows the map) is proven both ways: the walk above runs on the
floor as generated, without it, so the floor is completable whether or not its puzzle is ever
solved; then its pedestal must be reachable with every key and no seal broken, and the whole
proof runs again on the floor with the change's cells set, so the change never lets the player
past a lock or into a vault, nor cuts anything off. A floor that fails
raises :class:`ProofError`: that is a generator bug, never something to retry silently.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from scipy import ndimage

from roguelike import seeds, tiles
from roguelike.gen.changes import applied
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
    return problems + vault_problems(fl, walk, held) + change_problems(fl, walk, held)


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


def change_problems(fl: Populated, walk: np.ndarray, held: set[int]) -> list[str]:
    """What the floor's changes break: each one's key must be its own (past the topology's and
    the vaults'), its pedestal reachable with every key of the topology and no seal broken, its
    cells on the map and walkable once set; and the floor with its cells set must pass the
    whole proof again."""
    problems: list[str] = []
    opened = walk.copy()
    for k in held:
        opened |= fl.tiles == tiles.locked_door(k)
    reach = _component(opened, fl.spawn)
    taken = {k.id for k in fl.keys} | {v.key for v in fl.vaults}
    h, w = fl.tiles.shape
    for ch in fl.changes:
        name = f"the {ch.kind} of key {ch.key}"
        if ch.key in taken or not 1 <= ch.key <= tiles.MAX_KEYS:
            problems.append(f"{name} answers to a key taken or out of range")
        taken.add(ch.key)
        if not reach[ch.y, ch.x]:
            problems.append(f"the pedestal of {name} cannot be reached")
        if any(not (0 <= x < w and 0 <= y < h) or not tiles.WALKABLE[t] for x, y, t in ch.cells):
            problems.append(f"{name} sets a cell off the map or not walkable")
            continue
        after = replace(fl, tiles=applied(fl, ch), changes=[])
        problems += [f"with {name}: {p}" for p in prove(after)]
    return problems


def certify(fl: Populated) -> Floor:
    """Stage 7 on a populated floor: the finished floor, or ProofError naming every problem."""
    problems = prove(fl)
    if problems:
        raise ProofError(
            f"floor {fl.number} of {seeds.encode(fl.seed)} fails its proof: " + "; ".join(problems)
        )
    return Floor(**carried(fl), proven=True)
