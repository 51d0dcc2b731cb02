"""Stage 3: embed the topology on a grid (``lay_out`` on a floor's record, ``embed`` the work).

Every room gets a template variant with at least one socket per corridor; rooms are placed
breadth-first from the start, each beside its parent: a socket of the parent and an opposite
socket of the child are joined by a straight or Z-shaped corridor. Rooms never overlap (their
boxes keep a ring of rock between them) and corridors never touch one another, so the map has
exactly the topology's connections. Loop corridors (cycles) are routed afterwards by a
breadth-first search through the rock.

Placement backtracks: when no candidate fits a room, the previous room takes its next
candidate. All choices come from the floor's ``layout`` stream, so it is deterministic; should
a whole attempt fail (a step budget, or a loop with no route), the next attempt uses the
stream ``layout#1``, ``layout#2``, ….
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from roguelike import seeds
from roguelike.gen.floor import Cast, Corridor, Laid, Layout, Placement, carried
from roguelike.gen.special import special
from roguelike.gen.templates import Socket, Template, load_templates
from roguelike.gen.topology import Edge, Topology

CANVAS_W, CANVAS_H = 640, 320
CHECKS_PER_ROOM = 30  # fit checks per room and attempt before starting over (short attempts)
ATTEMPTS = 250  # a fresh stream each; the 1000-seed runs never needed more than 80
MAX_HEIGHT_BASE = 36
MAX_ALONG = 10  # corridor length along its socket's direction
MAX_OFFSET = 7  # sideways shift of a Z-shaped corridor
MAX_TEMPLATES_PER_ROOM = 14
OFFSETS_PER_SOCKET = 3

DIRS = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


class LayoutError(RuntimeError):
    """No embedding was found within every attempt's budget (a bug: tests keep it at 0%)."""


def role_tag(role: str) -> str:
    """The template tag a room of ``role`` draws from: a special room's is its record's
    ``template`` (a snare or a vault is a treasure room)."""
    room = special(role)
    if room is not None:
        return room.template
    return role if role in ("start", "finish", "key", "puzzle") else "any"


@cache
def _pool(tag: str) -> tuple[tuple[Template, ...], ...]:
    """Every template of a tag, each with its distinct variants."""
    return tuple(t.variants() for t in load_templates() if tag in t.tags)


class _Canvas:
    """Who owns each cell while placing: rooms (box and a ring of rock) and corridors (cells
    and the ring around them)."""

    def __init__(self) -> None:
        self.owner = np.full((CANVAS_H, CANVAS_W), -1, dtype=np.int32)  # box + 1-cell ring
        self.body = np.zeros((CANVAS_H, CANVAS_W), dtype=bool)  # the box itself
        self.corr = np.zeros((CANVAS_H, CANVAS_W), dtype=np.int16)  # corridor cells + ring

    def room_fits(self, x: int, y: int, w: int, h: int) -> bool:
        if x < 2 or y < 2 or x + w + 2 > CANVAS_W or y + h + 2 > CANVAS_H:
            return False
        region = (slice(y - 1, y + h + 1), slice(x - 1, x + w + 1))
        return bool((self.owner[region] == -1).all() and not self.corr[region].any())

    def corridor_fits(self, cells: np.ndarray, rooms: tuple[int, int]) -> bool:
        xs, ys = cells[:, 0], cells[:, 1]
        if xs.min() < 1 or ys.min() < 1 or xs.max() >= CANVAS_W - 1 or ys.max() >= CANVAS_H - 1:
            return False
        owner = self.owner[ys, xs]
        ok_owner = (owner == -1) | (owner == rooms[0]) | (owner == rooms[1])
        return bool(ok_owner.all() and not self.body[ys, xs].any() and not self.corr[ys, xs].any())

    def mark_room(self, p: Placement, sign: int) -> None:
        region = (slice(p.y - 1, p.y + p.h + 1), slice(p.x - 1, p.x + p.w + 1))
        self.owner[region] = p.room if sign > 0 else -1
        self.body[p.y : p.y + p.h, p.x : p.x + p.w] = sign > 0

    def mark_corridor(self, cells: np.ndarray, sign: int) -> None:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                np.add.at(self.corr, (cells[:, 1] + dy, cells[:, 0] + dx), sign)


def _z_cells(
    start: tuple[int, int], o: tuple[int, int], along: int, off: int, bend: int
) -> np.ndarray:
    """Cells from ``start`` (the cell outside the parent's socket): ``bend`` steps along o,
    ``off`` steps sideways, then the rest of ``along`` steps along o."""
    px, py = -o[1], o[0]  # perpendicular
    sign = 1 if off >= 0 else -1
    cells = [start]
    x, y = start
    for _ in range(bend):
        x, y = x + o[0], y + o[1]
        cells.append((x, y))
    for _ in range(abs(off)):
        x, y = x + px * sign, y + py * sign
        cells.append((x, y))
    for _ in range(along - bend):
        x, y = x + o[0], y + o[1]
        cells.append((x, y))
    return np.array(cells, dtype=np.int32)


@dataclass
class _Candidate:
    placement: Placement
    corridor: Corridor
    cells: np.ndarray
    parent_socket: Socket
    child_socket: Socket
    loops: list[tuple[Corridor, Socket, Socket]] = field(default_factory=list)


class _Embedder:
    def __init__(
        self, topo: Topology, rng: np.random.Generator, roles: dict[int, str], floor: int = 1
    ) -> None:
        self.topo = topo
        self.floor = floor
        self.rng = rng
        self.roles = roles
        self.canvas = _Canvas()
        self.placed: dict[int, Placement] = {}
        self.free: dict[int, list[Socket]] = {}
        nbrs = topo.neighbours()
        self.degree = {r: len(v) for r, v in nbrs.items()}
        self.depth = {r.id: r.depth for r in topo.rooms}
        # a terminal is wide: floors may grow sideways freely, downwards only so far
        self.max_height = MAX_HEIGHT_BASE + int(2.2 * len(topo.rooms))
        self.extent: list[tuple[int, int]] = []  # (top, bottom) after each placement
        self.checks = 0
        self.check_limit = CHECKS_PER_ROOM * len(topo.rooms)
        kids = topo.children()
        # corridors a room still has to grow once placed: its children and its loops
        self.grows = {r: len(kids[r]) + sum(e.loop for _, e in nbrs[r]) for r in nbrs}
        self.loops_of: dict[int, list[Edge]] = {r.id: [] for r in topo.rooms}
        for e in topo.edges:
            if e.loop:
                self.loops_of[e.a].append(e)
                self.loops_of[e.b].append(e)

    def templates_for(self, room: int) -> list[Template]:
        """Variants fit for a room, in a weighted random order (a few templates, one variant
        of each)."""
        tag = role_tag(self.roles[room])
        need = self.degree[room]
        depth = self.depth[room]
        groups = [g for g in _pool(tag) if len(g[0].sockets) >= need]
        on_floor = [g for g in groups if g[0].floors[0] <= self.floor <= g[0].floors[1]]
        fitting = [g for g in on_floor if g[0].depth[0] <= depth <= g[0].depth[1]]
        anywhere = [g for g in _pool("any") if len(g[0].sockets) >= need]
        groups = fitting or on_floor or groups or anywhere
        if not groups:
            raise LayoutError(f"no template has {need} sockets for room {room}")
        weights = np.array([g[0].weight for g in groups], dtype=float)
        order = self.rng.choice(
            len(groups), size=len(groups), replace=False, p=weights / weights.sum()
        )
        return [
            groups[i][int(self.rng.integers(len(groups[i])))]
            for i in order[:MAX_TEMPLATES_PER_ROOM]
        ]

    def place_start(self) -> None:
        t = self.templates_for(self.topo.start)[0]
        p = Placement(self.topo.start, t, (CANVAS_W - t.width) // 2, (CANVAS_H - t.height) // 2)
        self.canvas.mark_room(p, 1)
        self.placed[p.room] = p
        self.free[p.room] = list(t.sockets)
        self.extent.append((p.y, p.y + p.h))

    def candidates(self, edge: Edge) -> Iterator[_Candidate]:
        parent = self.placed[edge.a]
        rng = self.rng
        top, bottom = self.extent[-1]
        for t in self.templates_for(edge.b):
            free = self.free[edge.a]
            weights = np.array([3.0 if s.side in "EW" else 1.0 for s in free])
            for si in rng.choice(
                len(free), size=len(free), replace=False, p=weights / weights.sum()
            ):
                s = free[int(si)]
                matching = [c for c in t.sockets if c.side == OPPOSITE[s.side]]
                if not matching:
                    continue
                c = matching[int(rng.integers(len(matching)))]
                o = DIRS[s.side]
                sx, sy = parent.socket_at(s)
                for _ in range(OFFSETS_PER_SOCKET):
                    along = int(rng.integers(1, MAX_ALONG + 1))  # steps between the outside cells
                    off = int(rng.integers(-MAX_OFFSET, MAX_OFFSET + 1))
                    bend = int(rng.integers(0, along + 1))
                    px, py = -o[1], o[0]
                    cx = sx + o[0] * (along + 2) + px * off  # the child's socket cell
                    cy = sy + o[1] * (along + 2) + py * off
                    child = Placement(edge.b, t, cx - c.x, cy - c.y)
                    self.checks += 1
                    if max(bottom, child.y + child.h, cy) - min(top, child.y, cy) > self.max_height:
                        continue
                    if not self.canvas.room_fits(child.x, child.y, child.w, child.h):
                        continue
                    cells = _z_cells((sx + o[0], sy + o[1]), o, along, off, bend)
                    if not self.canvas.corridor_fits(cells, (edge.a, edge.b)):
                        continue
                    if not self.room_to_grow(child, c):
                        continue
                    corridor = Corridor(edge, tuple(map(tuple, cells.tolist())), (sx, sy), (cx, cy))
                    yield _Candidate(child, corridor, cells, s, c)

    def room_to_grow(self, p: Placement, used: Socket) -> bool:
        """Lookahead: at least as many free sockets look out on open rock (a 5×5 patch two
        cells out) as the room still has corridors to grow."""
        need = self.grows[p.room]
        if need == 0:
            return True
        open_ = 0
        for s in p.template.sockets:
            if s == used:
                continue
            o = DIRS[s.side]
            sx, sy = p.socket_at(s)
            cx, cy = sx + o[0] * 4, sy + o[1] * 4  # centre of the patch
            if not (3 <= cx < CANVAS_W - 3 and 3 <= cy < CANVAS_H - 3):
                continue
            region = (slice(cy - 2, cy + 3), slice(cx - 2, cx + 3))
            if (self.canvas.owner[region] == -1).all() and not self.canvas.corr[region].any():
                open_ += 1
                if open_ >= need:
                    return True
        return False

    def apply(self, cand: _Candidate, sign: int) -> None:
        p = cand.placement
        self.canvas.mark_room(p, sign)
        self.canvas.mark_corridor(cand.cells, sign)
        parent = cand.corridor.edge.a
        if sign > 0:
            top, bottom = self.extent[-1]
            ys = cand.cells[:, 1]
            self.extent.append(
                (min(top, p.y, int(ys.min())), max(bottom, p.y + p.h, int(ys.max()) + 1))
            )
            self.placed[p.room] = p
            self.free[p.room] = [s for s in p.template.sockets if s != cand.child_socket]
            self.free[parent].remove(cand.parent_socket)
        else:
            self.extent.pop()
            del self.placed[p.room]
            del self.free[p.room]
            self.free[parent].append(cand.parent_socket)
            self.free[parent].sort(key=lambda s: (s.y, s.x))

    def embed_tree(self) -> list[_Candidate] | None:
        tree = [e for e in self.topo.edges if not e.loop]
        by_child = {e.b: e for e in tree}
        children = self.topo.children()
        # Depth-first preorder: every subtree is a contiguous run. When a room finds no place,
        # the culprit is where its parent stands, so the search jumps back to the parent:
        # everything placed since is undone and the parent takes its next candidate.
        order: list[Edge] = []
        stack = [self.topo.start]
        while stack:
            r = stack.pop()
            if r != self.topo.start:
                order.append(by_child[r])
            stack.extend(reversed(children[r]))
        index = {e.b: i for i, e in enumerate(order)}
        self.place_start()
        chosen: list[_Candidate] = []
        gens: list[Iterator[_Candidate]] = [self.candidates(order[0])] if order else []
        while len(chosen) < len(order):
            if self.checks > self.check_limit:
                return None
            cand = next(gens[-1], None)
            if cand is None:
                stuck = order[len(gens) - 1]
                if stuck.a == self.topo.start:
                    return None
                back = index[stuck.a]  # re-place the parent
                while len(chosen) > back:
                    self.undo(chosen.pop())
                del gens[back + 1 :]
                continue
            self.apply(cand, 1)
            if not self.route_loops(cand):
                self.undo(cand)
                continue
            chosen.append(cand)
            if len(chosen) < len(order):
                gens.append(self.candidates(order[len(chosen)]))
        return chosen

    def route_loops(self, cand: _Candidate) -> bool:
        """Route every loop between the room just placed and rooms placed before it."""
        room = cand.placement.room
        for e in self.loops_of[room]:
            other = e.a if e.b == room else e.b
            if other not in self.placed:
                continue
            routed = self.route_loop(e)
            if routed is None:
                return False
            cand.loops.append(routed)
        return True

    def undo(self, cand: _Candidate) -> None:
        for corridor, sa, sb in reversed(cand.loops):
            self.canvas.mark_corridor(np.array(corridor.cells, dtype=np.int32), -1)
            self.free[corridor.edge.a].append(sa)
            self.free[corridor.edge.b].append(sb)
            for r in (corridor.edge.a, corridor.edge.b):
                self.free[r].sort(key=lambda s: (s.y, s.x))
        cand.loops.clear()
        self.apply(cand, -1)

    def _exits(self, p: Placement) -> dict[tuple[int, int], tuple[Socket, tuple[int, int]]]:
        """The cell outside each free socket of a placed room that no corridor crowds:
        cell → (socket, socket cell)."""
        out = {}
        for s in self.free[p.room]:
            sx, sy = p.socket_at(s)
            o = DIRS[s.side]
            cell = (sx + o[0], sy + o[1])
            if self.canvas.corr[cell[1], cell[0]] == 0:
                out[cell] = (s, (sx, sy))
        return out

    def route_loop(self, edge: Edge) -> tuple[Corridor, Socket, Socket] | None:
        """The shortest corridor through rock between a free socket of each room."""
        a, b = self.placed[edge.a], self.placed[edge.b]
        canvas = self.canvas
        starts, goals = self._exits(a), self._exits(b)
        if not starts or not goals:
            return None
        x0 = max(1, min(a.x, b.x) - 12)
        x1 = min(CANVAS_W - 2, max(a.x + a.w, b.x + b.w) + 12)
        y0 = max(1, min(a.y, b.y) - 12)
        y1 = min(CANVAS_H - 2, max(a.y + a.h, b.y + b.h) + 12)
        owner = canvas.owner[y0 : y1 + 1, x0 : x1 + 1]
        ok = (
            ((owner == -1) | (owner == edge.a) | (owner == edge.b))
            & ~canvas.body[y0 : y1 + 1, x0 : x1 + 1]
            & (canvas.corr[y0 : y1 + 1, x0 : x1 + 1] == 0)
        )
        prev: dict[tuple[int, int], tuple[int, int] | None] = {}
        queue: deque[tuple[int, int]] = deque()
        for cell in sorted(starts):
            prev[cell] = None
            queue.append(cell)
        end = None
        while queue:
            cur = queue.popleft()
            if cur in goals:
                end = cur
                break
            x, y = cur
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                nx, ny = x + dx, y + dy
                if (nx, ny) in prev or not (x0 <= nx <= x1 and y0 <= ny <= y1):
                    continue
                if ok[ny - y0, nx - x0]:
                    prev[(nx, ny)] = cur
                    queue.append((nx, ny))
        if end is None:
            return None
        path = [end]
        while prev[path[-1]] is not None:
            path.append(prev[path[-1]])  # type: ignore[arg-type]
        path.reverse()
        sa, door_a = starts[path[0]]
        sb, door_b = goals[end]
        cells = np.array(path, dtype=np.int32)
        canvas.mark_corridor(cells, 1)
        self.free[edge.a].remove(sa)
        self.free[edge.b].remove(sb)
        return Corridor(edge, tuple(path), door_a, door_b), sa, sb


def embed(topo: Topology, seed: int, floor: int, roles: dict[int, str]) -> Layout:
    """Place every room and corridor of ``topo``; raise LayoutError if every attempt fails."""
    for attempt in range(ATTEMPTS):
        stage = "layout" if attempt == 0 else f"layout#{attempt}"
        emb = _Embedder(topo, seeds.stream(seed, floor, stage), roles, floor)
        chosen = emb.embed_tree()
        if chosen is None:
            continue
        corridors = {c.corridor.edge: c.corridor for c in chosen}
        corridors |= {loop.edge: loop for c in chosen for loop, _, _ in c.loops}
        return _crop(topo, emb.placed, [corridors[e] for e in topo.edges], attempt)
    raise LayoutError(f"no layout found in {ATTEMPTS} attempts")


def lay_out(fl: Cast) -> Laid:
    """Stage 3 on a floor whose rooms have their roles (its streams are ``layout``,
    ``layout#1``, …)."""
    return Laid(**carried(fl), layout=embed(fl.topology, fl.seed, fl.number, fl.roles))


def _crop(
    topo: Topology, placed: dict[int, Placement], corridors: list[Corridor], attempt: int
) -> Layout:
    """Shift everything so that the content starts at (2, 2) with a border of rock."""
    xs = [p.x for p in placed.values()] + [x for c in corridors for x, _ in c.cells]
    ys = [p.y for p in placed.values()] + [y for c in corridors for _, y in c.cells]
    xe = [p.x + p.w for p in placed.values()] + [x + 1 for c in corridors for x, _ in c.cells]
    ye = [p.y + p.h for p in placed.values()] + [y + 1 for c in corridors for _, y in c.cells]
    dx, dy = 2 - min(xs), 2 - min(ys)
    width, height = max(xe) + dx + 2, max(ye) + dy + 2

    def shift(cell: tuple[int, int]) -> tuple[int, int]:
        return cell[0] + dx, cell[1] + dy

    placements = tuple(
        Placement(p.room, p.template, p.x + dx, p.y + dy) for _, p in sorted(placed.items())
    )
    moved = tuple(
        Corridor(c.edge, tuple(shift(cell) for cell in c.cells), shift(c.door_a), shift(c.door_b))
        for c in corridors
    )
    return Layout(topo, placements, moved, width, height, attempt)
