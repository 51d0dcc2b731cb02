"""The sliding puzzle's solvers: the tables of a board, the two IDA* searches and the
constructive route (the rules, the hints and the generator are in
:mod:`roguelike.puzzles.sliding`, whose docstring says how they are used and what they cost).

- :class:`Tables`: per (size, goal), Manhattan distances, neighbours, Zobrist keys and the
  linear-conflict caches; :func:`tables` keeps one per (size, goal);
- :class:`PatternDB`: the 4×4 additive pattern database (:func:`pattern_db`, built once per goal);
- :func:`ida` (Manhattan distance plus linear conflicts) and :func:`ida_pdb` (the larger of that
  and the pattern database): optimal plans within a node limit;
- :func:`constructive`: a route, not shortest, found group of cells by group without search of
  the whole board;
- :func:`reachable`: the parity rule.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np

from roguelike.puzzles.base import SearchLimit

State = tuple[int, ...]
Move = int
#: zobrist key -> (exact distance, next tile or 0 at the goal, the state): states on known
#: optimal paths
Known = dict[int, tuple[int, int, State]]

_FOUND = -1


def _lis(seq: list[int]) -> int:
    """Length of the longest strictly increasing subsequence (lines are at most 4 long)."""
    best: list[int] = []
    for x in seq:
        lo, hi = 0, len(best)
        while lo < hi:
            mid = (lo + hi) // 2
            if best[mid] < x:
                lo = mid + 1
            else:
                hi = mid
        if lo == len(best):
            best.append(x)
        else:
            best[lo] = x
    return len(best)


class Tables:
    """Per (size, goal) tables: Manhattan distances to the goal, neighbours, Zobrist keys,
    line-conflict caches."""

    def __init__(self, n: int, goal: State | None = None) -> None:
        self.n = n
        size = n * n
        self.goal: State = standard_goal(n) if goal is None else goal
        #: tile -> its cell in the goal
        self.home = [0] * size
        for p, t in enumerate(self.goal):
            self.home[t] = p
        self.md = [[0] * size for _ in range(size)]
        for t in range(1, size):
            gr, gc = divmod(self.home[t], n)
            for p in range(size):
                r, c = divmod(p, n)
                self.md[t][p] = abs(r - gr) + abs(c - gc)
        self.nbr: list[tuple[int, ...]] = []
        for p in range(size):
            r, c = divmod(p, n)
            out = []
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < n and 0 <= cc < n:
                    out.append(rr * n + cc)
            self.nbr.append(tuple(out))
        zrng = np.random.Generator(np.random.PCG64(0x5EED_0000 + n))
        self.zob = [[int(x) for x in zrng.integers(0, 2**62, size=size)] for _ in range(size)]
        self.row_cache: list[dict[tuple[int, ...], int]] = [{} for _ in range(n)]
        self.col_cache: list[dict[tuple[int, ...], int]] = [{} for _ in range(n)]

    def row_lc(self, r: int, board: list[int] | State) -> int:
        n = self.n
        key = tuple(board[r * n : r * n + n])
        cache_ = self.row_cache[r]
        v = cache_.get(key)
        if v is None:
            home = [self.home[t] % n for t in key if t and self.home[t] // n == r]
            v = 2 * (len(home) - _lis(home))
            cache_[key] = v
        return v

    def col_lc(self, c: int, board: list[int] | State) -> int:
        n = self.n
        key = tuple(board[c::n])
        cache_ = self.col_cache[c]
        v = cache_.get(key)
        if v is None:
            home = [self.home[t] // n for t in key if t and self.home[t] % n == c]
            v = 2 * (len(home) - _lis(home))
            cache_[key] = v
        return v

    def heuristic(self, s: State) -> int:
        """Manhattan distance plus linear conflicts (admissible)."""
        n = self.n
        h = sum(self.md[t][p] for p, t in enumerate(s) if t)
        h += sum(self.row_lc(r, s) for r in range(n)) + sum(self.col_lc(c, s) for c in range(n))
        return h

    def zobrist(self, s: State | list[int]) -> int:
        z = 0
        for p, t in enumerate(s):
            if t:
                z ^= self.zob[t][p]
        return z


def standard_goal(n: int) -> State:
    """1, 2, ..., n*n-1 in reading order, the gap last."""
    return tuple(range(1, n * n)) + (0,)


#: The 15-puzzle's additive pattern database: goal cells grouped 4-4-4-3, the four 2×2
#: quarters (the standard goal's groups; another goal's non-gap cells are cut into fours in
#: reading order).
PDB_GROUPS: tuple[tuple[int, ...], ...] = ((0, 1, 4, 5), (2, 3, 6, 7), (8, 9, 12, 13), (10, 11, 14))


class PatternDB:
    """A disjoint additive pattern database for a 4×4 goal (after Korf and Felner): for each
    group of tiles (:data:`PDB_GROUPS`), the fewest moves OF THOSE TILES that bring them home,
    wherever the others are (a tile may step into any cell no tile of its group holds). Moves
    of one group's tiles are never counted by another's, so the sum over the groups is
    admissible, and never below the Manhattan distance. Each table is indexed by its tiles'
    cells in base 16 (16⁴ bytes for four tiles) and filled by a breadth-first search from the
    goal done with numpy, level by level. Built on the first hint that needs it (once per goal,
    kept in memory), never at import: 0.2 s for the four tables on the 2-core machine, under
    load. (A 5-5-5 split proved no more hints within the node budget and took 2.6 s.)"""

    def __init__(self, goal: State) -> None:
        n = 4
        cells = [p for p in range(n * n) if goal[p]]
        groups = (
            PDB_GROUPS
            if goal.index(0) == n * n - 1
            else tuple(tuple(cells[i : i + 4]) for i in range(0, 15, 4))
        )
        #: tile -> (its group, the shift of its cell in the group's index)
        self.slot: list[tuple[int, int]] = [(0, 0)] * (n * n)
        self.tables: list[bytes] = []
        self.group_tiles: list[tuple[int, ...]] = []
        for g, group in enumerate(groups):
            tiles_ = tuple(goal[p] for p in group)
            self.group_tiles.append(tiles_)
            for k, tile in enumerate(tiles_):
                self.slot[tile] = (g, 4 * (len(tiles_) - 1 - k))
            self.tables.append(_pattern_table(group))

    def indices(self, s: State | list[int]) -> list[int]:
        out = [0] * len(self.tables)
        for p, tile in enumerate(s):
            if tile:
                g, shift = self.slot[tile]
                out[g] += p << shift
        return out

    def value(self, idx: list[int]) -> int:
        return sum(tab[i] for tab, i in zip(self.tables, idx, strict=True))


def _pattern_table(home: tuple[int, ...]) -> bytes:
    """Moves of its own tiles each arrangement of a group needs (see :class:`PatternDB`): a
    16ᵏ-byte table for k tiles, 255 for index values that are not arrangements."""
    n, k = 4, len(home)
    nbr = np.full((4, n * n), -1, dtype=np.int64)
    for p in range(n * n):
        r, c = divmod(p, n)
        for d, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
            if 0 <= r + dr < n and 0 <= c + dc < n:
                nbr[d, p] = (r + dr) * n + c + dc
    shifts = [4 * (k - 1 - j) for j in range(k)]
    dist = np.full(16**k, 255, dtype=np.uint8)
    start = sum(p << sh for p, sh in zip(home, shifts, strict=True))
    dist[start] = 0
    frontier = np.array([start], dtype=np.int64)
    level = 0
    while frontier.size:
        pos = [(frontier >> sh) & 15 for sh in shifts]
        occupied = np.zeros(frontier.size, dtype=np.int64)
        for pj in pos:
            occupied |= np.left_shift(1, pj)
        found = []
        for j in range(k):
            for d in range(4):
                q = nbr[d][pos[j]]
                ok = (q >= 0) & ((occupied >> np.maximum(q, 0)) & 1 == 0)
                nxt = frontier[ok] + ((q[ok] - pos[j][ok]) << shifts[j])
                found.append(nxt)
        cand = np.concatenate(found)
        cand = cand[dist[cand] == 255]
        level += 1
        dist[cand] = level  # repeated candidates write the same level
        frontier = np.flatnonzero(dist == level)
    return dist.tobytes()


@cache
def pattern_db(goal: State) -> PatternDB:
    """The 4×4 pattern database of ``goal`` (built once per goal, kept in memory)."""
    return PatternDB(goal)


@cache
def tables(n: int, goal: State | None = None) -> Tables:
    return Tables(n, None if goal == standard_goal(n) else goal)


def reachable(s: State, goal: State, n: int) -> bool:
    """The parity rule: can ``s`` reach ``goal`` at all? The permutation taking one to the
    other (the gap counted as a tile) must have the parity of the gap's taxicab distance."""
    where = {t: p for p, t in enumerate(s)}
    perm = [where[t] for t in goal]
    seen = [False] * len(perm)
    parity = 0
    for i in range(len(perm)):
        j, length = i, 0
        while not seen[j]:
            seen[j] = True
            j = perm[j]
            length += 1
        if length:
            parity ^= (length - 1) & 1
    (ar, ac), (br, bc) = divmod(s.index(0), n), divmod(goal.index(0), n)
    return parity == (abs(ar - br) + abs(ac - bc)) & 1


def solvable(s: State, n: int) -> bool:
    """The parity rule of the n-puzzle: can ``s`` reach the standard goal at all?"""
    return reachable(s, standard_goal(n), n)


# --- IDA* ------------------------------------------------------------------------------------
def ida(
    T: Tables, start: State, known: Known, walk: Callable[[State], list[Move]], limit: int
) -> list[Move]:
    """An optimal tile list from ``start`` by IDA* with Manhattan distance plus linear
    conflicts (``T``'s heuristic). A state of ``known`` (exact distances on optimal paths found
    before) ends the search there: its remembered path (``walk``) completes the plan. Raises
    SearchLimit past ``limit`` nodes (-1: no limit)."""
    n = T.n
    md, nbr, zob = T.md, T.nbr, T.zob
    row_lc, col_lc = T.row_lc, T.col_lc
    board = list(start)
    rows = [row_lc(r, board) for r in range(n)]
    cols = [col_lc(c, board) for c in range(n)]
    h0 = T.heuristic(start)
    path: list[int] = []
    tail: list[int] = []
    nodes = 0

    def dfs(g: int, bound: int, blank: int, prev: int, h: int, z: int) -> int:
        nonlocal nodes
        nodes += 1
        if nodes == limit:
            raise SearchLimit(f"no shortest plan within {limit} nodes")
        hit = known.get(z)
        if hit is not None and hit[2] == tuple(board):
            f = g + hit[0]
            if f <= bound:
                tail.extend(walk(hit[2]))
                return _FOUND
            return f
        f = g + h
        if f > bound:
            return f
        if h == 0:
            return _FOUND
        best = 1 << 30
        br, bc = divmod(blank, n)
        for p in nbr[blank]:
            if p == prev:
                continue
            t = board[p]
            board[blank] = t
            board[p] = 0
            dh = md[t][blank] - md[t][p]
            pr, pc = divmod(p, n)
            if pr == br:  # horizontal slide: the tile changes column
                o1, o2 = cols[pc], cols[bc]
                n1, n2 = col_lc(pc, board), col_lc(bc, board)
                cols[pc], cols[bc] = n1, n2
                dh += n1 + n2 - o1 - o2
            else:  # vertical slide: the tile changes row
                o1, o2 = rows[pr], rows[br]
                n1, n2 = row_lc(pr, board), row_lc(br, board)
                rows[pr], rows[br] = n1, n2
                dh += n1 + n2 - o1 - o2
            path.append(t)
            r = dfs(g + 1, bound, p, blank, h + dh, z ^ zob[t][p] ^ zob[t][blank])
            if r == _FOUND:
                return _FOUND
            path.pop()
            board[p] = t
            board[blank] = 0
            if pr == br:
                cols[pc], cols[bc] = o1, o2
            else:
                rows[pr], rows[br] = o1, o2
            if r < best:
                best = r
        return best

    bound = h0
    z0 = T.zobrist(start)
    blank0 = start.index(0)
    while True:
        r = dfs(0, bound, blank0, -1, h0, z0)
        if r == _FOUND:
            return path + tail
        bound = r


def ida_pdb(
    T: Tables,
    db: PatternDB,
    start: State,
    known: Known,
    walk: Callable[[State], list[Move]],
    limit: int,
) -> list[Move]:
    """IDA* for the 15-puzzle with the larger of two admissible heuristics: Manhattan
    distance plus linear conflicts, and the additive pattern database (:class:`PatternDB`).
    Returns an optimal plan (ending, like :func:`ida`'s, on a remembered optimal path of
    ``known`` when it meets one); raises SearchLimit past ``limit`` nodes (-1: no limit)."""
    n = T.n
    md, nbr, zob = T.md, T.nbr, T.zob
    row_lc, col_lc = T.row_lc, T.col_lc
    pdb_tab, slot = db.tables, db.slot
    path: list[int] = []
    tail: list[int] = []
    board = list(start)
    rows = [row_lc(r, board) for r in range(n)]
    cols = [col_lc(c, board) for c in range(n)]
    idx = db.indices(start)
    nodes = 0

    def dfs(g: int, bound: int, blank: int, prev: int, h1: int, h2: int, z: int) -> int:
        nonlocal nodes
        nodes += 1
        if nodes == limit:
            raise SearchLimit(f"no shortest plan within {limit} nodes")
        hit = known.get(z)
        if hit is not None and hit[2] == tuple(board):
            f = g + hit[0]
            if f <= bound:
                tail.extend(walk(hit[2]))
                return _FOUND
            return f
        h = h1 if h1 > h2 else h2
        f = g + h
        if f > bound:
            return f
        if h == 0:
            return _FOUND
        best = 1 << 30
        br, bc = divmod(blank, n)
        for p in nbr[blank]:
            if p == prev:
                continue
            t = board[p]
            board[blank] = t
            board[p] = 0
            dh = md[t][blank] - md[t][p]
            pr, pc = divmod(p, n)
            if pr == br:
                o1, o2 = cols[pc], cols[bc]
                n1, n2 = col_lc(pc, board), col_lc(bc, board)
                cols[pc], cols[bc] = n1, n2
                dh += n1 + n2 - o1 - o2
            else:
                o1, o2 = rows[pr], rows[br]
                n1, n2 = row_lc(pr, board), row_lc(br, board)
                rows[pr], rows[br] = n1, n2
                dh += n1 + n2 - o1 - o2
            grp, shift = slot[t]
            old = idx[grp]
            new = old + ((blank - p) << shift)
            idx[grp] = new
            tab = pdb_tab[grp]
            path.append(t)
            r = dfs(
                g + 1,
                bound,
                p,
                blank,
                h1 + dh,
                h2 + tab[new] - tab[old],
                z ^ zob[t][p] ^ zob[t][blank],
            )
            if r == _FOUND:
                return _FOUND
            path.pop()
            idx[grp] = old
            board[p] = t
            board[blank] = 0
            if pr == br:
                cols[pc], cols[bc] = o1, o2
            else:
                rows[pr], rows[br] = o1, o2
            if r < best:
                best = r
        return best

    h1, h2 = T.heuristic(start), db.value(idx)
    bound = max(h1, h2)
    z0 = T.zobrist(start)
    blank0 = start.index(0)
    while True:
        r = dfs(0, bound, blank0, -1, h1, h2, z0)
        if r == _FOUND:
            return path + tail
        bound = r


# --- the constructive solver -----------------------------------------------------------------
def _phases(n: int) -> list[list[int]]:
    """The cells the constructive solver fills, group by group, in order: each row but the last
    two, a cell at a time and its last two cells together; then the last two rows a column
    (two cells) at a time; then the last 2×2 block."""
    out: list[list[int]] = []
    for r in range(n - 2):
        out += [[r * n + c] for c in range(n - 2)]
        out.append([r * n + n - 2, r * n + n - 1])
    for c in range(n - 2):
        out.append([(n - 2) * n + c, (n - 1) * n + c])
    out.append([(n - 2 + r) * n + n - 2 + c for r in (0, 1) for c in (0, 1)])
    return out


def constructive(n: int, goal: State, s: State) -> list[Move]:
    """A route (tile list) from ``s`` to ``goal``, not shortest, found without search of the
    whole board: the cells are filled group by group (see :func:`_phases`); each group is
    brought home by a breadth-first search over the positions of the gap and the group's own
    tiles only (at most n²·(n²-1)·(n²-2) of them), the cells filled before never touched again.
    Rows first, then the last two rows column by column is the classic hand method, and each
    group can always be brought home from any arrangement of the free cells (for the last 2×2
    block, by the parity rule: ``s`` must be able to reach ``goal``). The board is first mirrored
    so that the goal's gap lies in the last 2×2 block (moves are tile numbers, which mirroring
    leaves alone). Raises ValueError when ``s`` cannot reach ``goal``."""
    if not reachable(s, goal, n):
        raise ValueError("this arrangement cannot reach the goal (wrong parity)")
    gr, gc = divmod(goal.index(0), n)
    flip_r, flip_c = gr < n - 2, gc < n - 2

    def f(p: int) -> int:
        r, c = divmod(p, n)
        return (n - 1 - r if flip_r else r) * n + (n - 1 - c if flip_c else c)

    board = [0] * (n * n)
    want = [0] * (n * n)
    for p in range(n * n):
        board[f(p)] = s[p]
        want[f(p)] = goal[p]
    nbr = tables(n).nbr
    locked = [False] * (n * n)
    route: list[Move] = []
    for cells in _phases(n):
        tiles = [want[c] for c in cells if want[c]]
        targets = tuple(c for c in cells if want[c])
        for gap in _group_path(board, tiles, targets, locked, nbr):
            blank = board.index(0)
            route.append(board[gap])
            board[blank], board[gap] = board[gap], 0
        for c in cells:
            locked[c] = True
    return route


def _group_path(
    board: list[int],
    tiles: list[int],
    targets: tuple[int, ...],
    locked: list[bool],
    nbr: list[tuple[int, ...]],
) -> list[int]:
    """The cells the gap steps to, in order, so that ``tiles`` reach ``targets`` (shortest, by
    breadth-first search over the gap's and the tiles' cells, never entering a locked cell).
    A search state is packed in an int, four bits a cell: the gap, then each tile."""
    free = [tuple(q for q in nbr[p] if not locked[q]) for p in range(len(nbr))]
    k = len(tiles)
    start = board.index(0)
    for i, tile in enumerate(tiles):
        start |= board.index(tile) << (4 * (i + 1))
    goal = 0
    for i, cell in enumerate(targets):
        goal |= cell << (4 * (i + 1))
    if start >> 4 == goal >> 4:
        return []
    parent: dict[int, int] = {start: -1}
    frontier = [start]
    while frontier:
        nxt: list[int] = []
        for st in frontier:
            blank = st & 15
            body = st >> 4
            for q in free[blank]:
                moved = body
                for i in range(k):  # a tile on q slides into the gap
                    if (body >> (4 * i)) & 15 == q:
                        moved = body ^ ((q ^ blank) << (4 * i))
                        break
                new = (moved << 4) | q
                if new in parent:
                    continue
                parent[new] = st
                if moved == goal >> 4:
                    path = []
                    cur = new
                    while cur != start:
                        path.append(cur & 15)
                        cur = parent[cur]
                    return path[::-1]
                nxt.append(new)
        frontier = nxt
    raise ValueError("a group of tiles cannot be brought home (wrong parity)")
