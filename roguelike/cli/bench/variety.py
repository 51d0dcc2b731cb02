"""``roguelike bench --only range``: the generator's expressive range, over many floors.

Not a speed: what the floors look like, so that a change to the generator can be seen to
widen or narrow it. Floor ``i`` of the set is floor ``1 + i % 5`` of world ``i`` (the normal
preset's depths), and the lines give, over the set: the room count (and where in its allowed
range it falls, which should be flat), the dead ends, the detour the keys force (the rooms
walked fetching every key in turn and then going down, over the rooms of the shortest way to
the stairs if no door were locked), the special rooms and the hidden traps per floor, and
the templates used.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from roguelike.gen.pipeline import generate_floor
from roguelike.gen.roles import SPECIAL_ROLES
from roguelike.gen.topology import Topology

#: The depths the set cycles through (the normal preset's floors).
DEPTHS = 5


def hops(topo: Topology, start: int, held: frozenset[int] | None) -> dict[int, int]:
    """Corridors from ``start`` to every room, through locks whose key is ``held`` (None:
    through every lock, as if none were locked)."""
    nbrs = topo.neighbours()
    dist = {start: 0}
    queue = deque([start])
    while queue:
        r = queue.popleft()
        for other, e in nbrs[r]:
            open_ = held is None or e.lock is None or e.lock in held
            if other not in dist and open_:
                dist[other] = dist[r] + 1
                queue.append(other)
    return dist


def key_detour(topo: Topology) -> float:
    """Corridors walked fetching the keys (always the nearest one that can be reached) and
    then going to the stairs, over the corridors to the stairs ignoring the locks."""
    direct = hops(topo, topo.start, None)[topo.finish]
    here, held, walked = topo.start, frozenset[int](), 0
    left = {k.id: k.room for k in topo.keys}
    while left:
        dist = hops(topo, here, held)
        reach = sorted((dist[room], k) for k, room in left.items() if room in dist)
        if not reach:  # the proof stage makes this impossible; a bench never crashes on it
            return float("nan")
        d, k = reach[0]
        walked, here, held = walked + d, left.pop(k), held | {k}
    walked += hops(topo, here, held)[topo.finish]
    return walked / max(direct, 1)


def _spread(values: Sequence[float]) -> str:
    a = np.array(values, dtype=float)
    p25, p50, p75 = np.percentile(a, [25, 50, 75])
    return f"min {a.min():.3g} p25 {p25:.3g} p50 {p50:.3g} p75 {p75:.3g} max {a.max():.3g}"


def range_lines(count: int) -> Iterator[str]:
    rooms, share, leaves, detours, traps = [], [], [], [], []
    special: Counter[str] = Counter()
    per_floor_special: list[int] = []
    templates: Counter[str] = Counter()
    themes: Counter[tuple[int, str]] = Counter()
    for i in range(count):
        number = 1 + i % DEPTHS
        fl = generate_floor(i, number, last=number == DEPTHS)
        topo = fl.topology
        lo, hi = fl.params.rooms
        rooms.append(len(topo.rooms))
        share.append((len(topo.rooms) - lo) / max(hi - lo, 1))
        kids = topo.children()
        leaves.append(sum(1 for r in topo.rooms if r.id != topo.start and not kids[r.id]))
        detours.append(key_detour(topo))
        kinds = [role for role in fl.roles.values() if role in SPECIAL_ROLES]
        special.update(kinds)
        per_floor_special.append(len(kinds))
        traps.append(len(fl.traps))
        templates.update(p.template.name.split("/")[0] for p in fl.layout.placements)
        themes[(number, fl.theme)] += 1
    thirds = np.histogram(share, bins=3, range=(0, 1))[0]
    yield f"range · {count} floors (floor 1 + i % {DEPTHS} of world i)"
    yield f"  rooms: {_spread(rooms)}"
    yield (
        "  rooms, place in the allowed range (low / middle / high third): "
        + " / ".join(f"{n / count:.0%}" for n in thirds)
    )
    yield f"  leaves: {_spread(leaves)}"
    yield f"  key detour (corridors walked with keys / without locks): {_spread(detours)}"
    yield (
        f"  special rooms per floor: {_spread(per_floor_special)}; floors with one: "
        f"{sum(1 for n in per_floor_special if n) / count:.0%}; by kind: "
        + ", ".join(f"{k} {special[k]}" for k in SPECIAL_ROLES)
    )
    yield f"  hidden traps per floor: {_spread(traps)}"
    yield (
        f"  templates: {len(templates)} used; the most used: "
        + ", ".join(f"{name} {n}" for name, n in templates.most_common(5))
    )
    yield "  themes by floor: " + ", ".join(
        f"{number}: {theme}" for (number, theme), _ in sorted(themes.items())
    )


PARTS: dict[str, Callable[[int], Iterator[str]]] = {"range": range_lines}
