"""An independent check of a topology against every topology rule and our parameters.

It shares nothing with the encoding: it walks the returned rooms and corridors with plain
breadth-first searches, a key-collecting simulation and networkx's planarity test, and lists
every broken rule in words. An empty list means the topology is right.
"""

from __future__ import annotations

from collections import Counter

from roguelike.gen.topology import DungeonParams, Topology, bfs_depths


def _in(value: int, rng: tuple[int, int]) -> bool:
    return rng[0] <= value <= rng[1]


def reachable_with_keys(topo: Topology) -> tuple[set[int], set[int]]:
    """Play the floor abstractly: walk from the start, pick up every key you reach, open every
    door you hold the key of, until nothing changes. Returns (rooms reached, keys held)."""
    key_in = {k.room: k.id for k in topo.keys}
    held: set[int] = set()
    while True:
        reached = set(
            bfs_depths(topo, blocked=frozenset(e.lock for e in topo.edges if e.lock) - held)
        )
        new = {key_in[r] for r in reached if r in key_in} - held
        if not new:
            return reached, held
        held |= new


def validate_topology(topo: Topology, params: DungeonParams) -> list[str]:
    """Every rule the topology breaks, in words (empty when it is right)."""
    problems: list[str] = []
    ids = [r.id for r in topo.rooms]
    n = len(ids)
    if ids != list(range(n)):
        return [f"room ids are not 0..{n - 1}: {ids}"]
    if topo.start != 0 or topo.finish != 1:
        problems.append("the start must be room 0 and the finish room 1")
    if not _in(n, params.rooms):
        problems.append(f"{n} rooms, outside {params.rooms}")
    pairs = [(min(e.a, e.b), max(e.a, e.b)) for e in topo.edges]
    if len(set(pairs)) != len(pairs) or any(a == b for a, b in pairs):
        problems.append("a corridor is repeated or leads from a room to itself")

    tree = [e for e in topo.edges if not e.loop]
    loops = [e for e in topo.edges if e.loop]
    if len(tree) != n - 1:
        problems.append(f"{len(tree)} tree corridors for {n} rooms (a tree has {n - 1})")
    if len(loops) != params.cycles:
        problems.append(f"{len(loops)} extra corridors, {params.cycles} asked for")
    tree_only = Topology(topo.rooms, tuple(tree), topo.keys, topo.start, topo.finish)
    tree_depth = bfs_depths(tree_only)
    if len(tree_depth) != n:
        problems.append("the tree corridors do not connect every room")
        return problems
    depth = bfs_depths(topo)

    degree: Counter[int] = Counter()
    for a, b in pairs:
        degree[a] += 1
        degree[b] += 1
    for r in topo.rooms:
        if r.depth != depth[r.id]:
            problems.append(
                f"room {r.id} says depth {r.depth}, but lies {depth[r.id]} from the start"
            )
        if r.depth > params.max_depth:
            problems.append(f"room {r.id} lies deeper than {params.max_depth}")
        if degree[r.id] > 4:
            problems.append(f"room {r.id} has {degree[r.id]} corridors (at most 4)")
    if degree[topo.start] != params.start_degree:
        problems.append(f"the start has {degree[topo.start]} corridors, not {params.start_degree}")

    children = tree_only.children()
    leaves = [r for r in ids if r != topo.start and not children[r]]
    if not _in(len(leaves), params.leaves):
        problems.append(f"{len(leaves)} leaves, outside {params.leaves}")
    if children[topo.finish] or degree[topo.finish] != 1:
        problems.append("the finish is not a dead end")
    if not _in(depth[topo.finish], params.finish_distance):
        problems.append(
            f"the finish lies {depth[topo.finish]} from the start, outside {params.finish_distance}"
        )

    # keys and locks
    key_ids = sorted(k.id for k in topo.keys)
    lock_ids = sorted(e.lock for e in topo.edges if e.lock is not None)
    if key_ids != list(range(1, params.keys + 1)):
        problems.append(f"keys {key_ids}, expected 1..{params.keys}")
    if lock_ids != key_ids:
        problems.append(f"locks {lock_ids} do not pair one to one with keys {key_ids}")
    if any(e.loop and e.lock is not None for e in topo.edges):
        problems.append("an extra corridor is locked")
    rooms_with_keys = Counter(k.room for k in topo.keys)
    for room, count in rooms_with_keys.items():
        if count > 1:
            problems.append(f"room {room} holds {count} keys")
    path = topo.main_path()
    path_edges = {(path[i], path[i + 1]) for i in range(len(path) - 1)}
    by_id = {r.id: r for r in topo.rooms}
    for k in topo.keys:
        if k.room in (topo.start, topo.finish) or degree[k.room] != 1 or children[k.room]:
            problems.append(f"key {k.id} lies in room {k.room}, which is not a dead-end leaf")
        if by_id[k.room].key != k.id or by_id[k.room].role != "key":
            problems.append(f"room {k.room} does not say it holds key {k.id}")
        if k.room not in bfs_depths(topo, blocked=frozenset({k.id})):
            problems.append(f"key {k.id} cannot be reached without passing its own lock")
    for e in topo.edges:
        if e.lock is not None and (e.a, e.b) not in path_edges:
            problems.append(f"the lock of key {e.lock} is not on the path to the finish")
    lock_at = {(e.a, e.b): e.lock for e in topo.edges if e.lock is not None}
    along = [
        lock_at[(path[i], path[i + 1])]
        for i in range(len(path) - 1)
        if (path[i], path[i + 1]) in lock_at
    ]
    if along != sorted(along):
        problems.append(f"locks stand in the order {along} on the way to the finish, not 1, 2, …")
    # loops never lead around a lock: every locked corridor is a bridge
    for e in topo.edges:
        if e.lock is None:
            continue
        rest = tuple(x for x in topo.edges if x != e)
        if len(bfs_depths(Topology(topo.rooms, rest, topo.keys))) == n:
            problems.append(f"the lock of key {e.lock} can be walked around")

    reached, held = reachable_with_keys(topo)
    if topo.finish not in reached or len(held) != len(topo.keys):
        problems.append("a player cannot collect every key and reach the finish")
    if topo.keys and topo.finish in bfs_depths(topo, blocked=frozenset(key_ids)):
        problems.append("the finish can be reached without any key")

    import networkx as nx  # a dev dependency: only the tests call the validator

    graph = nx.Graph()
    graph.add_nodes_from(ids)
    graph.add_edges_from(pairs)
    if not nx.check_planarity(graph)[0]:
        problems.append("the graph is not planar")
    return problems
