"""Sliding tiles: the 8-puzzle (3×3) and the 15-puzzle (4×4).

The state is a tuple of ``n*n`` numbers read row by row, ``0`` the gap. The goal is
``1, 2, ..., n*n-1`` with the gap last, unless the puzzle gives another (``target``, see the
JSON below). A move is the NUMBER of the tile that slides into the gap (only the tiles next to
the gap can move).

Solver: IDA* with Manhattan distance plus linear conflicts, counted the admissible way
(per row and column: twice the number of its home tiles that must leave the line so that the
rest are in order, i.e. ``2 * (k - longest increasing run)``). States on an optimal path that
was found before are remembered with their exact distance and next move; the search uses those
exact values as its heuristic (still admissible) and stops at them, so a hint on or near a known
path costs little. The generator uses this search alone (its node counts decide which puzzles
it keeps).

Hints (:meth:`Sliding.guide`, through :func:`roguelike.puzzles.advise`): on the 4×4 board the
search takes the larger of that heuristic and an additive pattern database
(:class:`_PatternDB`, built lazily, 0.2 s), and stops after HINT_BUDGET nodes (a count, so every
machine gives the same hint). Past it the hint is not proven: it gives the first move of a
known route from the CONSTRUCTIVE solver (:func:`constructive`: the rows, then the last two rows
column by column, each group of cells by a small search of its own; it always succeeds, some
100 moves on the 15-puzzle), and, given the player's trail, how many moves to undo to rejoin a
proven optimal path. A route is remembered, so the next hint along it continues it.

Measured (2-core machine shared with other jobs; 100 very-hard seeds; a state = a random prefix
of the optimal plan then up to 60 random moves, or the start after such a walk and a reset; the
instance as the game holds it; HINT_BUDGET 2000): hint p50 0.2 ms, p99 25 ms, 85 of 100 hints
proven (3000 nodes proved no more). Under heavier load the p99 doubled. Before the budget, a
hint a dozen moves off the line took a median 0.16 s and once over 20 s. ``roguelike bench
--only puzzle`` prints these per difficulty ("hint far"). Generation (unchanged): p50 14 ms,
p99 122 ms on 300 very-hard seeds.

JSON config: ``{"size": 4}``, and optionally ``"goal"``: the arrangement to reach, a list like the
state (a custom goal, as in the source; the standard order when left out). A goal must be
reachable from the start (the parity rule, :func:`reachable`), else the document is refused. The
heuristic, the solver and the constructive route are all relative to the goal. State: the list of
numbers; move: the tile.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

import numpy as np

from roguelike.puzzles.base import (
    GenerationError,
    IllegalMove,
    PuzzleFormatError,
    SearchLimit,
    check_difficulty,
    envelope,
    in_range,
    int_list,
    is_int,
    open_envelope,
    rng_for,
)

State = tuple[int, ...]
Move = int

#: Optimal move counts per difficulty (very-hard is the 15-puzzle).
PAR: dict[str, tuple[int, int]] = {
    "easy": (6, 10),
    "medium": (12, 16),
    "hard": (18, 22),
    "very-hard": (30, 40),
}
SIZE: dict[str, int] = {"easy": 3, "medium": 3, "hard": 3, "very-hard": 4}
#: Random-walk lengths used to scramble before the exact solver measures the true distance.
WALK: dict[str, tuple[int, int]] = {
    "easy": (8, 14),
    "medium": (14, 26),
    "hard": (24, 60),
    "very-hard": (30, 44),
}
#: Percent chance that a scrambling step prefers a tile moving AWAY from its home (when one can):
#: the scramble then drifts far from the goal with a heuristic that stays accurate, so the
#: 15-puzzle's instances are found fast and their hints stay cheap.
AWAY_BIAS: dict[str, int] = {"easy": 0, "medium": 0, "hard": 0, "very-hard": 70}
#: A 15-puzzle instance whose first solve expands more IDA* nodes than this is rejected: it keeps
#: every hint near the optimal path fast (a count, not a time, so every machine agrees).
GEN_NODE_LIMIT = 12000
ATTEMPTS = 500
#: Robustness probes of a 15-puzzle instance: how many, how far off the path, node budget each.
PROBES = 6
PROBE_WALK = 8
PROBE_NODE_LIMIT = 8000
#: IDA* nodes a hint may spend proving the shortest plan; past it the hint gives a move on the
#: known route of :func:`constructive` instead (see :func:`roguelike.puzzles.advise`).
HINT_BUDGET = 2000

_FOUND = -1

#: The rules in a few lines, for players (the puzzle screen's ``?``).
RULES = """\
Numbered tiles lie in a frame with one gap. A tile next to the gap can slide into it.

Put the tiles in order, 1, 2, 3, ... row by row from the top left, with the gap in the
bottom right corner, in as few slides as you can. (A puzzle may show another goal: then
arrange the tiles as it shows.)"""


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


class _Tables:
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


class _PatternDB:
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
    """Moves of its own tiles each arrangement of a group needs (see :class:`_PatternDB`): a
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
def pattern_db(goal: State) -> _PatternDB:
    """The 4×4 pattern database of ``goal`` (built once per goal, kept in memory)."""
    return _PatternDB(goal)


@cache
def tables(n: int, goal: State | None = None) -> _Tables:
    return _Tables(n, None if goal == standard_goal(n) else goal)


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


@dataclass(frozen=True)
class Sliding:
    size: int
    start: State
    difficulty: str = "easy"
    par: int = 0
    #: the arrangement to reach (None: the standard order, the gap last)
    target: State | None = None
    # zobrist key -> (exact distance, next tile or 0 at the goal, the state): states on known
    # optimal paths, filled by solve()
    _known: dict[int, tuple[int, int, State]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    # state -> (moves left, next tile) on a known route that is not proven shortest (filled by
    # route(): the constructive solver, cut short where it meets a state of ``_known``)
    _route: dict[State, tuple[int, int]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    type_name: ClassVar[str] = "sliding"
    #: Can a move leave the goal out of reach? (every move can be undone)
    dead_ends: ClassVar[bool] = False

    def __post_init__(self) -> None:
        n = self.size
        if n not in (3, 4):
            raise ValueError("sliding puzzles are 3×3 or 4×4")
        if sorted(self.start) != list(range(n * n)):
            raise ValueError("the start must hold each number 0..n*n-1 once")
        if self.target is not None:
            if sorted(self.target) != list(range(n * n)):
                raise ValueError("the goal must hold each number 0..n*n-1 once")
            if self.target == standard_goal(n):
                object.__setattr__(self, "target", None)
        if not reachable(self.start, self.goal(), n):
            raise ValueError("this start cannot reach the goal (wrong parity)")

    # --- rules -----------------------------------------------------------------------------
    def initial(self) -> State:
        return self.start

    def goal(self) -> State:
        return standard_goal(self.size) if self.target is None else self.target

    def warm(self) -> None:
        """Build what hints use before the first one is asked: the 4×4 pattern database (0.2 s,
        once per goal in a process)."""
        if self.size == 4:
            pattern_db(self.goal())

    def tables(self) -> _Tables:
        return tables(self.size, self.target)

    def moves(self, s: State) -> list[Move]:
        b = s.index(0)
        return [s[p] for p in self.tables().nbr[b]]

    def apply(self, s: State, m: Move) -> State:
        if not is_int(m) or not 0 < m < self.size**2:
            raise IllegalMove(f"there is no tile {m!r}")
        b = s.index(0)
        p = s.index(m)
        if p not in self.tables().nbr[b]:
            raise IllegalMove(f"tile {m} is not next to the gap")
        out = list(s)
        out[b], out[p] = m, 0
        return tuple(out)

    def is_solved(self, s: State) -> bool:
        return s == self.goal()

    def heuristic(self, s: State) -> int:
        return self.tables().heuristic(s)

    def solve(
        self, s: State, budget: int | None = None, *, strong: bool = False
    ) -> list[Move] | None:
        """An optimal tile list from ``s``; raises SearchLimit past ``budget`` IDA* nodes.
        ``strong``: on the 4×4 board, also use the pattern database (hints do; the generator
        does not, so its node counts, and the puzzles it keeps, stay as they were)."""
        if not reachable(s, self.goal(), self.size):
            return None
        T = self.tables()
        z = T.zobrist(s)
        hit = self._known.get(z)
        if hit is None or hit[2] != s:
            self._search(s, budget, strong)
        return self._walk(s)

    def known_distance(self, s: State) -> int | None:
        """The proven optimal distance of ``s`` when an earlier solve found it, else None."""
        hit = self._known.get(self.tables().zobrist(s))
        return hit[0] if hit is not None and hit[2] == s else None

    def route(self, s: State) -> list[Move]:
        """A known route from ``s`` to the goal, NOT proven shortest, found without search:
        the constructive solver (see :func:`constructive`), loops cut out, cut short where it
        meets a state of a proven optimal path. The route is remembered, so asking again from
        any state on it gives the rest of the same route (following it always ends)."""
        if s not in self._route and self.known_distance(s) is None:
            moves = constructive(self.size, self.goal(), s)
            states = [s]
            for m in moves:
                states.append(self.apply(states[-1], m))
            # cut loops out (from each state jump to its last visit on the route) and stop
            # where the route meets a state whose way on is known already
            last = {st: i for i, st in enumerate(states)}
            path: list[tuple[State, Move]] = []
            i = 0
            while True:
                i = last[states[i]]
                end = states[i]
                if i == len(moves) or end in self._route or self.known_distance(end) is not None:
                    break
                path.append((end, moves[i]))
                i += 1
            tail = self._route[end][0] if end in self._route else self.known_distance(end) or 0
            for k, (st, m) in enumerate(path):
                self._route[st] = (len(path) - k + tail, m)
        plan: list[Move] = []
        cur = s
        while not self.is_solved(cur):
            if self.known_distance(cur) is not None:
                return plan + self._walk(cur)
            _left, m = self._route[cur]
            plan.append(m)
            cur = self.apply(cur, m)
        return plan

    def _walk(self, s: State) -> list[Move]:
        T = self.tables()
        plan: list[Move] = []
        cur = s
        while True:
            d, nxt, st = self._known[T.zobrist(cur)]
            if d == 0:
                return plan
            plan.append(nxt)
            cur = self.apply(cur, nxt)

    def _record(self, s: State, path: list[Move]) -> None:
        T = self.tables()
        cur = s
        total = len(path)
        for i, m in enumerate(path):
            self._known[T.zobrist(cur)] = (total - i, m, cur)
            cur = self.apply(cur, m)
        z = T.zobrist(cur)
        if z not in self._known:
            self._known[z] = (0, 0, cur)

    def _search(self, start: State, node_limit: int | None, strong: bool = False) -> None:
        T = self.tables()
        n = self.size
        md, nbr, zob = T.md, T.nbr, T.zob
        row_lc, col_lc = T.row_lc, T.col_lc
        known = self._known
        board = list(start)
        rows = [row_lc(r, board) for r in range(n)]
        cols = [col_lc(c, board) for c in range(n)]
        h0 = T.heuristic(start)
        path: list[int] = []
        tail: list[int] = []
        nodes = 0
        limit = node_limit if node_limit is not None else -1
        if strong and n == 4:
            self._search_pdb(start, limit, path, tail)
            self._record(start, path + tail)
            return

        def dfs(g: int, bound: int, blank: int, prev: int, h: int, z: int) -> int:
            nonlocal nodes
            nodes += 1
            if nodes == limit:
                raise SearchLimit(f"no shortest plan within {limit} nodes")
            hit = known.get(z)
            if hit is not None and hit[2] == tuple(board):
                f = g + hit[0]
                if f <= bound:
                    tail.extend(self._walk(hit[2]))
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
                self._record(start, path + tail)
                return
            bound = r

    def _search_pdb(self, start: State, limit: int, path: list[int], tail: list[int]) -> None:
        """IDA* for the 15-puzzle with the larger of two admissible heuristics: Manhattan
        distance plus linear conflicts, and the additive pattern database (:class:`_PatternDB`).
        Fills ``path`` (and ``tail``, a remembered optimal path it met) with an optimal plan;
        raises SearchLimit past ``limit`` nodes (-1: no limit)."""
        T = self.tables()
        n = self.size
        md, nbr, zob = T.md, T.nbr, T.zob
        row_lc, col_lc = T.row_lc, T.col_lc
        db = pattern_db(self.goal())
        pdb_tab, slot = db.tables, db.slot
        known = self._known
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
                    tail.extend(self._walk(hit[2]))
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
                return
            bound = r

    # --- words -----------------------------------------------------------------------------
    def describe_move(self, m: Move, s: State | None = None) -> str:
        if s is None:
            return f"slide tile {m} into the gap"
        n = self.size
        br, bc = divmod(s.index(0), n)
        pr, pc = divmod(s.index(m), n)
        way = {(1, 0): "down", (-1, 0): "up", (0, 1): "right", (0, -1): "left"}.get(
            (br - pr, bc - pc), "into the gap"
        )
        return f"slide tile {m} {way}"

    def guide(self, s: State, budget: int | None = None) -> tuple[list[Move], bool]:
        """(a plan from ``s``, proven shortest?): the optimal plan when IDA* proves it within
        ``budget`` nodes, else the known :meth:`route`."""
        try:
            plan = self.solve(s, budget, strong=True)
        except SearchLimit:
            return self.route(s), False
        return (plan or []), True

    def nudge(self, s: State, tier: int) -> str:
        if not reachable(s, self.goal(), self.size):
            return "These tiles cannot be put in order."
        plan, exact = self.guide(s, HINT_BUDGET)
        if not plan:
            return "The tiles are already in order."
        n = self.size
        soon = plan[:4]
        enough = (
            f"{len(plan)} moves are enough"
            if exact
            else f"a way of {len(plan)} moves is known (perhaps not the shortest)"
        )
        if tier <= 1:
            rows = sorted({s.index(t) // n for t in soon})
            cols = sorted({s.index(t) % n for t in soon})
            vert = "top" if max(rows) < n / 2 else "bottom" if min(rows) >= n / 2 else "middle"
            horiz = "left" if max(cols) < n / 2 else "right" if min(cols) >= n / 2 else "centre"
            return f"The next moves happen around the {vert} {horiz} of the board; {enough}."
        tiles = sorted(set(plan[:3]))
        return "Tiles " + ", ".join(map(str, tiles)) + " move next (in some order)."

    def render_text(self, s: State) -> str:
        """The tiles in state ``s`` (``.`` the gap) and the goal, as plain text."""
        n = self.size
        width = len(str(n * n - 1))
        lines = [
            " ".join(str(v).rjust(width) if v else ".".rjust(width) for v in s[r * n : r * n + n])
            for r in range(n)
        ]
        if self.target is None:
            lines.append(f"goal: 1 to {n * n - 1} in reading order, the gap (.) last")
        else:
            lines.append("goal:")
            lines += [
                " ".join(
                    str(v).rjust(width) if v else ".".rjust(width)
                    for v in self.target[r * n : r * n + n]
                )
                for r in range(n)
            ]
        return "\n".join(lines)

    # --- JSON ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        config: dict[str, Any] = {"size": self.size}
        if self.target is not None:
            config["goal"] = list(self.target)
        return envelope(self, config)

    @classmethod
    def from_json(cls, d: Any) -> Sliding:
        difficulty, par, config, state = open_envelope(d, cls.type_name)
        size = config.get("size")
        if size not in (3, 4) or isinstance(size, bool):
            raise PuzzleFormatError(f"a sliding board is 3×3 or 4×4: size {size!r}")
        goal = tuple(int_list(config["goal"], "goal")) if "goal" in config else None
        if goal is not None and sorted(goal) != list(range(size * size)):
            raise PuzzleFormatError(f"the goal must hold each number 0..{size * size - 1} once")
        tiles = tuple(int_list(state, "tiles"))
        if goal is not None and sorted(tiles) == sorted(goal) and not reachable(tiles, goal, size):
            raise PuzzleFormatError(
                "the goal cannot be reached from the start (wrong parity: swap two tiles)"
            )
        try:
            return cls(size, tiles, difficulty, par, goal)
        except ValueError as e:
            raise PuzzleFormatError(str(e)) from None

    def state_to_json(self, s: State) -> list[int]:
        return list(s)

    def state_from_json(self, d: Any) -> State:
        s = tuple(int_list(d, "tiles"))
        if sorted(s) != list(range(self.size**2)) or not reachable(s, self.goal(), self.size):
            raise PuzzleFormatError(f"{list(s)} is not a solvable arrangement")
        return s

    def move_to_json(self, m: Move) -> int:
        return m

    def move_from_json(self, d: Any) -> Move:
        if not is_int(d):
            raise PuzzleFormatError("a move is a tile number")
        return d


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


# --- generator -------------------------------------------------------------------------------
def _scramble(n: int, length: int, rng: np.random.Generator, bias: int = 0) -> State:
    """A random walk of the gap from the goal, never straight back; with ``bias`` percent
    chance per step it picks among the tiles that would move away from home."""
    T = tables(n)
    board = list(T.goal)
    blank = board.index(0)
    prev = -1
    for _ in range(length):
        opts = [p for p in T.nbr[blank] if p != prev]
        if bias and int(rng.integers(0, 100)) < bias:
            away = [p for p in opts if T.md[board[p]][blank] > T.md[board[p]][p]]
            opts = away or opts
        p = opts[int(rng.integers(0, len(opts)))]
        board[blank], board[p] = board[p], 0
        prev, blank = blank, p
    return tuple(board)


def _robust(p: Sliding, plan: list[Move], rng: np.random.Generator) -> bool:
    """Do hints stay cheap off the optimal path? Probe PROBES states a few random moves away
    from it; each must be solved within PROBE_NODE_LIMIT nodes (a count, so every machine
    agrees)."""
    for _ in range(PROBES):
        s = p.start
        for m in plan[: int(rng.integers(0, len(plan)))]:
            s = p.apply(s, m)
        for _ in range(int(rng.integers(3, PROBE_WALK + 1))):
            ms = p.moves(s)
            s = p.apply(s, ms[int(rng.integers(0, len(ms)))])
        try:
            Sliding(p.size, s, target=p.target).solve(s, budget=PROBE_NODE_LIMIT)
        except SearchLimit:
            return False
    return True


def generate(difficulty: str, seed: int) -> Sliding:
    """A sliding puzzle whose true optimal move count lies in ``PAR[difficulty]``.

    A (biased, for the 15-puzzle) random walk scrambles; IDA* measures the true distance. A
    15-puzzle instance is kept only if IDA* solves it within GEN_NODE_LIMIT nodes and a few
    states a few random moves off its optimal path within PROBE_NODE_LIMIT each: hints from near
    the path then stay fast.
    """
    check_difficulty(difficulty)
    rng = rng_for("sliding", difficulty, seed)
    n = SIZE[difficulty]
    lo_hi = PAR[difficulty]
    w_lo, w_hi = WALK[difficulty]
    limit = GEN_NODE_LIMIT if n == 4 else None
    for _ in range(ATTEMPTS):
        start = _scramble(n, int(rng.integers(w_lo, w_hi + 1)), rng, AWAY_BIAS[difficulty])
        if tables(n).heuristic(start) > lo_hi[1]:
            continue
        p = Sliding(n, start, difficulty)
        try:
            plan = p.solve(start, budget=limit)
        except SearchLimit:
            continue
        if plan is None or not in_range(len(plan), lo_hi):
            continue
        if n == 4 and not _robust(p, plan, rng):
            continue
        out = Sliding(n, start, difficulty, len(plan))
        out._known.update(p._known)
        return out
    raise GenerationError(f"no sliding puzzle of difficulty {difficulty} in {ATTEMPTS} attempts")
