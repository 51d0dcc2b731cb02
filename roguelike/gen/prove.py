"""Stage 7: prove that the floor can be finished as promised.

The proof walks the floor as a player would: from the spawn, pick up every key you can reach
and open only doors whose key you hold. Every key, every room, every slot and the stairs must be
reached; each lock must stand exactly once and guard the stairs on its own. A floor that fails
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
        if not reach[s.y, s.x]:
            problems.append(f"a {s.kind} slot at {(s.x, s.y)} cannot be reached")
    for r in fl.topology.rooms:
        if not (reach & (fl.room_map == r.id)).any():
            problems.append(f"room {r.id} cannot be entered")
    return problems


def certify(fl: Populated) -> Floor:
    """Stage 7 on a populated floor: the finished floor, or ProofError naming every problem."""
    problems = prove(fl)
    if problems:
        raise ProofError(
            f"floor {fl.number} of {seeds.encode(fl.seed)} fails its proof: " + "; ".join(problems)
        )
    return Floor(**carried(fl), proven=True)
