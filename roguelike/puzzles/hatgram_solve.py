"""The hatgram's pieces and the searches over the tilings of its board (the rules, the hints and
the generator are in :mod:`roguelike.puzzles.hatgram`, whose docstring says how the solver
uses these).

- the polyominoes: :func:`normalise`, :func:`orientations` (each shape's distinct turns and
  flips, in a fixed order), :func:`turned`, :func:`flipped`, :func:`pose` (an orientation in
  words), :func:`canonical`;
- :func:`tilings`: the tilings of the empty board by a bitmask search that fills the first
  empty cell (the generator's uniqueness check, and the solver's list);
- :func:`best_tiling`: the branch and bound search for the tiling that keeps the most pieces
  of a state where they are (a board with too many tilings to list);
- :func:`exact_cover` (dancing links) and :func:`solve_board`: the independent second solver.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

from roguelike.puzzles.base import SearchLimit

if TYPE_CHECKING:  # the solver reads an instance; the instance's module imports this one
    from roguelike.puzzles.hatgram import Hatgram

Cell = tuple[int, int]
Shape = tuple[Cell, ...]
Placement = tuple[int, int, int]  # orientation, row, column
State = tuple[Placement | None, ...]


# --- polyominoes -----------------------------------------------------------------------------
def normalise(cells: Iterator[Cell] | list[Cell] | Shape) -> Shape:
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


@cache
def orientations(shape: Shape) -> tuple[Shape, ...]:
    """The distinct turns and flips of a shape, in a fixed (sorted) order."""
    out = set()
    cells = list(shape)
    for _ in range(4):
        cells = [(c, -r) for r, c in cells]
        out.add(normalise(cells))
        out.add(normalise([(r, -c) for r, c in cells]))
    return tuple(sorted(out))


def turned(shape: Shape, j: int) -> int:
    """The orientation of ``shape`` that orientation ``j`` becomes when turned a quarter turn
    clockwise (for a keyboard's "turn" key)."""
    cells = orientations(shape)[j]
    return orientations(shape).index(normalise([(c, -r) for r, c in cells]))


def flipped(shape: Shape, j: int) -> int:
    """The orientation of ``shape`` that orientation ``j`` becomes when flipped left to right."""
    cells = orientations(shape)[j]
    return orientations(shape).index(normalise([(r, -c) for r, c in cells]))


#: How a piece is turned, by quarter turns clockwise (the ``t`` key's way).
_TURNS = ("not turned", "turned a quarter", "turned half round", "turned three quarters")


def pose(shape: Shape, j: int) -> str:
    """Orientation ``j`` of ``shape`` in words, from the way the piece first lies
    (orientation 0): ``turned a quarter``, ``flipped and turned half round``. The fewest
    turns are named, flipped or not, so a symmetric piece never reads as turned further than
    it looks. (An orientation's index is only its place in a sorted list: it says nothing a
    player can follow.)"""
    for flip in (False, True):
        k = flipped(shape, 0) if flip else 0
        for quarter in range(4):
            if k == j:
                if not flip:
                    return _TURNS[quarter]
                return "flipped" if quarter == 0 else f"flipped and {_TURNS[quarter]}"
            k = turned(shape, k)
    raise ValueError(f"{j} is not an orientation of this piece")


def canonical(cells: Iterator[Cell] | list[Cell] | Shape) -> Shape:
    return orientations(normalise(cells))[0]


# --- dancing links ---------------------------------------------------------------------------
def exact_cover(n_cols: int, rows: list[list[int]], limit: int) -> list[list[int]]:
    """Up to ``limit`` exact covers: lists of row indices covering every column exactly once.

    Knuth's Algorithm X with dancing links in flat arrays; node 0..n_cols-1 are the column
    headers, node n_cols the root. Columns are chosen by fewest candidates (ties: lowest index).
    """
    if n_cols == 0:
        return [[]]
    root = n_cols
    L = [i - 1 for i in range(n_cols + 1)]
    L[0] = root
    R = [i + 1 for i in range(n_cols + 1)]
    R[root] = 0
    U = list(range(n_cols + 1))
    D = list(range(n_cols + 1))
    C = list(range(n_cols + 1))
    size = [0] * (n_cols + 1)
    row_of = [-1] * (n_cols + 1)
    for ri, cols in enumerate(rows):
        first = -1
        for col in cols:
            x = len(C)
            C.append(col)
            row_of.append(ri)
            U.append(U[col])
            D.append(col)
            D[U[col]] = x
            U[col] = x
            size[col] += 1
            if first < 0:
                first = x
                L.append(x)
                R.append(x)
            else:
                L.append(L[first])
                R.append(first)
                R[L[first]] = x
                L[first] = x

    def cover(c: int) -> None:
        R[L[c]] = R[c]
        L[R[c]] = L[c]
        i = D[c]
        while i != c:
            j = R[i]
            while j != i:
                D[U[j]] = D[j]
                U[D[j]] = U[j]
                size[C[j]] -= 1
                j = R[j]
            i = D[i]

    def uncover(c: int) -> None:
        i = U[c]
        while i != c:
            j = L[i]
            while j != i:
                size[C[j]] += 1
                D[U[j]] = j
                U[D[j]] = j
                j = L[j]
            i = U[i]
        R[L[c]] = c
        L[R[c]] = c

    found: list[list[int]] = []
    partial: list[int] = []

    def search() -> bool:
        if R[root] == root:
            found.append(sorted(row_of[x] for x in partial))
            return len(found) >= limit
        c = R[root]
        best, best_size = c, size[c]
        while c != root:
            if size[c] < best_size:
                best, best_size = c, size[c]
            c = R[c]
        if best_size == 0:
            return False
        cover(best)
        r = D[best]
        while r != best:
            partial.append(r)
            j = R[r]
            while j != r:
                cover(C[j])
                j = R[j]
            stop = search()
            j = L[r]
            while j != r:
                uncover(C[j])
                j = L[j]
            partial.pop()
            if stop:
                uncover(best)
                return True
            r = D[r]
        uncover(best)
        return False

    search()
    return found


# --- the tilings ----------------------------------------------------------------------------
def solve_board(p: Hatgram, limit: int) -> list[tuple[Placement, ...]]:
    free = p.free_cells
    col_of = {cell: k for k, cell in enumerate(free)}
    n_cells = len(free)
    rows: list[list[int]] = []
    meta: list[tuple[int, Placement]] = []
    for i in range(len(p.pieces)):
        for pl in p.placements(i):
            rows.append([n_cells + i] + sorted(col_of[cell] for cell in p.cells_of(i, pl)))
            meta.append((i, pl))
    out = []
    for cover in exact_cover(n_cells + len(p.pieces), rows, limit):
        sol: list[Placement | None] = [None] * len(p.pieces)
        for ri in cover:
            i, pl = meta[ri]
            sol[i] = pl
        out.append(tuple(sol))  # type: ignore[arg-type]
    return out  # type: ignore[return-value]


def _anchored(p: Hatgram) -> tuple[list[list[tuple[int, int, int, Placement]]], int, int]:
    """The bitmask search's tables: per cell, the placements (piece bit, cell mask, piece,
    placement) whose first cell in reading order it is; the blocked mask; the full mask."""
    cols = p.cols
    blocked = 0
    for r, c in p.blocked:
        blocked |= 1 << (r * cols + c)
    anchored: list[list[tuple[int, int, int, Placement]]] = [[] for _ in range(p.rows * cols)]
    for i, piece in enumerate(p.pieces):
        for j, shape in enumerate(orientations(piece)):
            h = max(r for r, _ in shape) + 1
            w = max(c for _, c in shape) + 1
            origin = 0
            for dr, dc in shape:
                origin |= 1 << (dr * cols + dc)
            first = shape[0][0] * cols + shape[0][1]  # shapes are sorted: their first cell
            for r in range(p.rows - h + 1):
                for c in range(cols - w + 1):
                    mask = origin << (r * cols + c)
                    if not mask & blocked:
                        anchored[first + r * cols + c].append((1 << i, mask, i, (j, r, c)))
    return anchored, blocked, (1 << (p.rows * cols)) - 1


def _too_large(nodes: int) -> SearchLimit:
    """Not a dead end (a hatgram has none): the search gave up, so nothing is known."""
    return SearchLimit(f"this board needs more than {nodes} search steps: too large to solve")


def tilings(p: Hatgram, limit: int, nodes: int | None = None) -> list[tuple[Placement, ...]]:
    """Up to ``limit`` solutions of the empty board, by a bitmask search (the generator's
    uniqueness check; it finds the same solutions as dancing links, in another order).

    Cell (r, c) is bit ``r * cols + c``; blocked cells start filled. The search fills the first
    empty cell in reading order with each unused piece placed so that this cell is its first,
    which tries every tiling exactly once. Raises SearchLimit after ``nodes`` steps (None: no
    bound).
    """
    anchored, blocked, full = _anchored(p)
    found: list[tuple[Placement, ...]] = []
    chosen: list[Placement | None] = [None] * len(p.pieces)
    steps = [0]

    def search(filled: int, used: int) -> bool:
        if filled == full:
            found.append(tuple(chosen))  # type: ignore[arg-type]
            return len(found) >= limit
        steps[0] += 1
        if nodes is not None and steps[0] > nodes:
            raise _too_large(nodes)
        first = (~filled & (filled + 1)).bit_length() - 1
        for piece, mask, i, pl in anchored[first]:
            if used & piece or mask & filled:
                continue
            chosen[i] = pl
            if search(filled | mask, used | piece):
                return True
        return False

    search(blocked, 0)
    return found


def best_tiling(p: Hatgram, s: State, nodes: int) -> tuple[Placement, ...] | None:
    """A tiling of the board that keeps the most pieces placed in ``s`` where they are (None:
    the board has no tiling), by branch and bound: the bitmask search of :func:`tilings`,
    trying each cell's kept placement first, and leaving a branch when the pieces kept so far
    plus the kept placements whose cells are still empty cannot beat the best tiling found.

    Pieces of the same shape are interchangeable, so they are put down in index order (each
    tiling is searched once, not once per order of its identical pieces) and a placement counts
    as kept when a piece of that shape stands there in ``s``; the tiling found is then labelled
    so that exactly those pieces stay. The first best tiling in the search order wins ties.
    Raises SearchLimit after ``nodes`` steps."""
    anchored, blocked, full = _anchored(p)
    n = len(p.pieces)
    sid = [p.pieces.index(piece) for piece in p.pieces]  # the first piece of the same shape
    earlier = [sum(1 << j for j in range(i) if sid[j] == sid[i]) for i in range(n)]
    keep: dict[tuple[int, Placement], int] = {}  # (shape, placement) -> the piece there in s
    keep_mask: list[int] = []
    for i, pl in enumerate(s):
        if pl is not None:
            keep[(sid[i], pl)] = i
            m = 0
            for r, c in p.cells_of(i, pl):
                m |= 1 << (r * p.cols + c)
            keep_mask.append(m)
    ordered = [sorted(cands, key=lambda x: (sid[x[2]], x[3]) not in keep) for cands in anchored]
    chosen: list[Placement | None] = [None] * n
    best: list[Any] = [-1, None]
    steps = [0]

    def search(filled: int, used: int, kept: int) -> bool:
        if filled == full:
            if kept > best[0]:
                best[0], best[1] = kept, tuple(chosen)
            return best[0] == len(keep)
        steps[0] += 1
        if steps[0] > nodes:
            raise _too_large(nodes)
        if kept + sum(1 for m in keep_mask if not m & filled) <= best[0]:
            return False
        first = (~filled & (filled + 1)).bit_length() - 1
        for piece, mask, i, pl in ordered[first]:
            if used & piece or mask & filled or earlier[i] & ~used:
                continue
            chosen[i] = pl
            if search(filled | mask, used | piece, kept + ((sid[i], pl) in keep)):
                return True
        return False

    search(blocked, 0, 0)
    if best[1] is None:
        return None
    # label the tiling: a kept placement goes to the piece standing there, the rest in order
    out: list[Placement | None] = [None] * n
    spare: dict[int, list[Placement]] = {}
    for i, pl in enumerate(best[1]):
        if (sid[i], pl) in keep:
            out[keep[(sid[i], pl)]] = pl
        else:
            spare.setdefault(sid[i], []).append(pl)
    for i in range(n):
        if out[i] is None:
            out[i] = spare[sid[i]].pop(0)
    return tuple(out)  # type: ignore[arg-type]
