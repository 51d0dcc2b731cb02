"""Stage 1: the topology of a floor, from the clingo encoding in ``asp/``.

``generate_topology(seed, floor, params)`` returns a :class:`Topology`: rooms (start 0, finish
1, the rest by depth), corridors, locks and keys. Parameters are ranges, checked before
solving so that an impossible set fails at once with a sentence naming the conflict;
``params_for_floor(number)`` gives the ranges the game uses at each depth (from the depth
curve's ``TOPOLOGY`` table, ``roguelike/depth.py``).
"""

from __future__ import annotations

from collections import deque
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from asp import solve as asp_solve
from roguelike import depth, seeds

Range = tuple[int, int]

#: Conflicts clingo may spend on one attempt before it is re-seeded (a count, not seconds, so
#: every machine stops at the same point).
CONFLICT_LIMIT = 4000
#: Attempts with a fresh solver seed before giving up.
ATTEMPTS = 12
#: Chance, in tenths, that key K must lie behind lock K-1.
NESTED_IN_10 = 7


class ParamsError(ValueError):
    """The parameters cannot describe any floor; the message names the conflict."""


class TopologyError(RuntimeError):
    """The solver found no floor within its budget (not proven impossible)."""


#: Largest floor: beyond it grounding alone takes seconds.
MAX_ROOMS = 200
#: One colour and letter per key (tiles.KEY_COLOURS).
MAX_KEYS = 10

#: Longest average branch the generator supports: more rooms per dead end makes floors of
#: endless corridors, and the solver can no longer promise an answer in time.
ROOMS_PER_LEAF = 8


@dataclass(frozen=True)
class DungeonParams:
    """The ranges a floor's topology must respect. The defaults make the first floors: 15 to 20
    rooms, 5 to 9 dead ends, the finish 4 to 8 corridors from the start, three keys."""

    rooms: Range = (15, 20)
    leaves: Range = (5, 9)
    finish_distance: Range = (4, 8)
    keys: int = 3
    start_degree: int = 3
    max_depth: int = 10
    cycles: int = 0

    @classmethod
    def scaled(
        cls, rooms: Range = (15, 20), keys: int = 3, cycles: int = 0, start_degree: int = 3
    ) -> DungeonParams:
        """The defaults stretched to another room count: leaves grow with the rooms, the
        finish distance with their square root (long floors, not endless corridors)."""
        lo, hi = rooms
        leaves = (max(start_degree, keys + 1, lo // 3), max(start_degree, keys + 1, hi * 9 // 20))
        finish_lo = max(4, keys + 1, round(max(lo, 1) ** 0.5))  # check() refuses lo < 2 later
        finish = (finish_lo, max(finish_lo, round(1.8 * max(hi, 1) ** 0.5)))
        depth = max(10, finish[1] + 2)
        return cls(rooms, leaves, finish, keys, start_degree, depth, cycles)

    def check(self) -> None:
        """Raise ParamsError naming the first conflict that makes every floor impossible."""
        for name in ("rooms", "leaves", "finish_distance"):
            lo, hi = getattr(self, name)
            if lo > hi:
                raise ParamsError(
                    f"{name} range {lo}:{hi} is empty (the minimum exceeds the maximum)"
                )
            if lo < 1:
                raise ParamsError(f"{name} must be at least 1, got {lo}")
        r_lo, r_hi = self.rooms
        l_lo, l_hi = self.leaves
        f_lo, f_hi = self.finish_distance
        k, sd, depth = self.keys, self.start_degree, self.max_depth
        if r_lo < 2:
            raise ParamsError("a floor needs at least 2 rooms (a start and a finish)")
        if r_hi < k + 2:
            raise ParamsError(
                f"{k} keys need at least {k + 2} rooms (a start, a finish and a dead end for "
                f"each key), but at most {r_hi} are allowed"
            )
        if r_hi > MAX_ROOMS:
            raise ParamsError(f"at most {MAX_ROOMS} rooms per floor are supported, got {r_hi}")
        if not 1 <= sd <= 4:
            raise ParamsError(f"start degree {sd} is impossible: a room has 1 to 4 corridors")
        if k < 0 or self.cycles < 0:
            raise ParamsError("keys and cycles cannot be negative")
        if k > MAX_KEYS:
            raise ParamsError(f"at most {MAX_KEYS} keys per floor are supported, got {k}")
        if depth < 1:
            raise ParamsError(f"max depth must be at least 1, got {depth}")
        if f_lo > depth:
            raise ParamsError(f"finish distance {f_lo} exceeds the max depth {depth}")
        if k > min(f_hi, depth):
            raise ParamsError(
                f"{k} keys need {k} locked corridors on the way to the finish, "
                f"but the finish is at most {min(f_hi, depth)} corridors away"
            )
        if l_hi < k + 1:
            raise ParamsError(
                f"{k} keys need {k + 1} leaves (one for each key and one for the finish), "
                f"but at most {l_hi} leaves are allowed"
            )
        if l_hi < sd:
            raise ParamsError(
                f"a start with {sd} corridors gives at least {sd} leaves, "
                f"but at most {l_hi} are allowed"
            )
        most_leaves = min(r_hi - 1, (sd + 2 * r_hi - 2) // 3)
        if l_lo > most_leaves:
            raise ParamsError(
                f"{r_hi} rooms with at most 4 corridors each have at most {most_leaves} leaves, "
                f"but at least {l_lo} are required"
            )
        # the finish's branch holds at most min(f_hi, depth) rooms, each other branch from the
        # start at most `depth`, and each further leaf adds a branch of at most depth - 1
        roomiest = 1 + min(f_hi, depth) + (sd - 1) * depth + (l_hi - sd) * (depth - 1)
        if r_lo > roomiest:
            raise ParamsError(
                f"{r_lo} rooms do not fit in {l_hi} branches no deeper than {depth} "
                f"(at most {roomiest}); raise the leaves or the max depth"
            )
        if r_lo - 1 > ROOMS_PER_LEAF * l_hi:
            raise ParamsError(
                f"{r_lo} rooms with at most {l_hi} dead ends is beyond what the generator "
                f"supports (at most {ROOMS_PER_LEAF} rooms per dead end); allow more leaves"
            )
        fewest = 1 + max(f_lo, k) + max(l_lo, sd, k + 1) - 1
        if r_hi < fewest:
            raise ParamsError(
                f"a finish {max(f_lo, k)} corridors away and {max(l_lo, sd, k + 1)} leaves "
                f"need at least {fewest} rooms, but at most {r_hi} are allowed"
            )
        if self.cycles > (r_hi - 1) // 2:
            raise ParamsError(
                f"{self.cycles} loops need {2 * self.cycles} free corridors, "
                f"but {r_hi} rooms have only {r_hi - 1}"
            )

    def constants(self) -> dict[str, int]:
        """The encoding's constants."""
        return {
            "min_rooms": self.rooms[0],
            "max_rooms": self.rooms[1],
            "min_leaves": self.leaves[0],
            "max_leaves": self.leaves[1],
            "min_finish": self.finish_distance[0],
            "max_finish": self.finish_distance[1],
            "keys": self.keys,
            "start_degree": self.start_degree,
            "max_depth": self.max_depth,
            "cycles": self.cycles,
        }


@dataclass(frozen=True, order=True)
class Room:
    id: int
    depth: int
    role: str  # start | finish | key | room
    key: int | None = None  # the key found in this room


@dataclass(frozen=True, order=True)
class Edge:
    a: int  # the room nearer the start (the parent, for a tree corridor)
    b: int
    lock: int | None = None  # the key that opens it
    loop: bool = False  # an extra corridor (cycles), not part of the tree


@dataclass(frozen=True, order=True)
class Key:
    id: int
    room: int


@dataclass(frozen=True)
class Topology:
    rooms: tuple[Room, ...]
    edges: tuple[Edge, ...]
    keys: tuple[Key, ...]
    start: int = 0
    finish: int = 1
    attempts: int = field(default=1, compare=False)

    def neighbours(self) -> dict[int, list[tuple[int, Edge]]]:
        """Room id → [(other room, corridor)], in a stable order."""
        out: dict[int, list[tuple[int, Edge]]] = {r.id: [] for r in self.rooms}
        for e in self.edges:
            out[e.a].append((e.b, e))
            out[e.b].append((e.a, e))
        return out

    def children(self) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {r.id: [] for r in self.rooms}
        for e in self.edges:
            if not e.loop:
                out[e.a].append(e.b)
        return out

    def main_path(self) -> list[int]:
        """Room ids from the start to the finish along the tree."""
        parent = {e.b: e.a for e in self.edges if not e.loop}
        path = [self.finish]
        while path[-1] != self.start:
            path.append(parent[path[-1]])
        return path[::-1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "rooms": [asdict(r) for r in self.rooms],
            "edges": [
                {"a": e.a, "b": e.b, "lock": e.lock, **({"loop": True} if e.loop else {})}
                for e in self.edges
            ],
            "start": self.start,
            "finish": self.finish,
        }


def params_for_floor(number: int) -> DungeonParams:
    """The topology parameters of floor ``number``: its row of ``depth.TOPOLOGY`` (rooms and
    keys, more the deeper you go), the other ranges scaled to them."""
    rooms, keys = depth.TOPOLOGY.at(number)
    return DungeonParams.scaled(rooms, keys)


def _relabel(atoms: tuple[asp_solve.Atom, ...]) -> Topology:
    """Turn the encoding's atoms into a Topology: start 0, finish 1, the rest by (depth, id)."""
    parent: dict[int, int] = {}
    depth: dict[int, int] = {0: 0}
    locks: dict[int, int] = {}
    keyroom: dict[int, int] = {}
    loops: list[tuple[int, int]] = []
    finish = -1
    for name, values in atoms:
        args = asp_solve.numbers(values)
        if name == "parent":
            parent[args[0]] = args[1]
        elif name == "depth":
            depth[args[0]] = args[1]
        elif name == "lock":
            locks[args[0]] = args[1]
        elif name == "keyroom":
            keyroom[args[0]] = args[1]
        elif name == "finish":
            finish = args[0]
        elif name == "cyc":
            loops.append((args[0], args[1]))
    others = sorted((r for r in depth if r not in (0, finish)), key=lambda r: (depth[r], r))
    new = {0: 0, finish: 1} | {old: i for i, old in enumerate(others, start=2)}
    key_at = {new[room]: k for k, room in keyroom.items()}
    rooms = []
    for old, nid in sorted(new.items(), key=lambda kv: kv[1]):
        role = "start" if nid == 0 else "finish" if nid == 1 else "key" if nid in key_at else "room"
        rooms.append(Room(nid, depth[old], role, key_at.get(nid)))
    edges = [Edge(new[p], new[c], locks.get(c)) for c, p in parent.items()]
    for x, y in loops:
        a, b = sorted((new[x], new[y]))
        edges.append(Edge(a, b, None, loop=True))
    keys = tuple(sorted(Key(k, new[room]) for k, room in keyroom.items()))
    return Topology(tuple(rooms), tuple(sorted(edges)), keys)


def generate_topology(seed: int, floor: int = 1, params: DungeonParams | None = None) -> Topology:
    """The topology of one floor of the world ``seed``.

    Raises ParamsError if the parameters admit no floor, TopologyError if the solver's budget
    ran out on every attempt.
    """
    params = params or DungeonParams()
    params.check()
    programs = ["topology"] + (["cycles"] if params.cycles else [])
    # Which keys lie behind the previous lock (a progression) is drawn from the floor's stream;
    # should that make a parameter set impossible, the floor is solved without it.
    rng = seeds.stream(seed, floor, "topology")
    nested = [f"nested({k})." for k in range(2, params.keys + 1) if rng.integers(10) < NESTED_IN_10]
    # The solver, left to itself, fills the range to the top; so the room count is drawn
    # uniformly from the range first and pinned, and only if no floor has exactly that many
    # rooms is the whole range given back to the solver.
    target = int(rng.integers(params.rooms[0], params.rooms[1] + 1))
    pinned = replace(params, rooms=(target, target))
    solver_seeds = [seeds.solver_seed(seed, floor, "topology", a) for a in range(ATTEMPTS)]
    tries = [(pinned, nested), (pinned, []), (params, nested), (params, [])]
    if not nested:
        tries = [(pinned, []), (params, [])]
    for ranges, facts in tries:
        try:
            outcome = asp_solve.solve(
                programs, ranges.constants(), solver_seeds, CONFLICT_LIMIT, facts=facts
            )
        except asp_solve.SolverTimeout as err:
            raise TopologyError(f"{err}; widen the parameter ranges") from None
        if outcome.status == "sat":
            topo = _relabel(outcome.atoms)
            return Topology(topo.rooms, topo.edges, topo.keys, attempts=outcome.attempt + 1)
        if outcome.status == "unknown" and ranges is params:
            raise TopologyError(
                f"the solver found no floor in {ATTEMPTS} attempts of {CONFLICT_LIMIT} "
                "conflicts; widen the parameter ranges"
            )
    raise ParamsError(
        "no floor satisfies these parameters (the solver proved it); "
        "widen the ranges of rooms, leaves or finish distance"
    )


def bfs_depths(topo: Topology, blocked: frozenset[int] = frozenset()) -> dict[int, int]:
    """Distance from the start over corridors whose lock is not in ``blocked``."""
    nbrs = topo.neighbours()
    dist = {topo.start: 0}
    queue = deque([topo.start])
    while queue:
        r = queue.popleft()
        for other, e in nbrs[r]:
            if other not in dist and (e.lock is None or e.lock not in blocked):
                dist[other] = dist[r] + 1
                queue.append(other)
    return dist
