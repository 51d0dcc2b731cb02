"""Hatgram: cover every free cell of a board with ALL the given polyominoes.

The board is ``rows × cols`` with some blocked cells; pieces may be turned and flipped. Each
piece has a fixed list of distinct orientations (:func:`orientations`, each normalised so its
bounding box starts at (0, 0)); a placement ``(j, r, c)`` puts orientation ``j`` with its
bounding box's top-left corner on cell ``(r, c)``.

State: a tuple with one entry per piece: None (in the box) or its placement ``(j, r, c)``.
Moves: ``("place", i, j, r, c)`` puts piece ``i`` down on free cells; ``("remove", i)`` takes
it back. Solved when every piece is on the board (they then cover every free cell exactly).

Solver (the searches are in :mod:`roguelike.puzzles.hatgram_solve`): from any state the optimal
plan keeps the pieces that already sit where some tiling has them, removes the others and
places the rest (a misplaced piece costs two moves, an unplaced one one move), minimised over
ALL tilings of the board. The tilings of the empty board depend only on the instance, so they
are enumerated once (``tilings``, a bitmask search that fills the first empty cell); when there
are fewer than SOLUTION_CAP the minimum is taken over that complete list (generated instances
have exactly one). A board with more tilings (or whose tilings take more than SEARCH_NODES
steps to list) is solved by a branch and bound search over the tilings (``best_tiling``) that
maximises the pieces kept, pruning a branch once the pieces it could still keep cannot beat the
best tiling found, and putting down pieces of one shape in a fixed order (so each tiling is
searched once): optimal however many tilings there are. That search too counts its steps and
gives up past SEARCH_NODES (the state is then refused as too large, never answered wrongly).
Dancing links (``exact_cover``) is kept as an independent second solver
(:meth:`Hatgram.count_solutions`, and the tests). ``distance`` gives the optimal move count
alone, for the difficulty score.

Limits of a hand-written instance: boards of 1 to MAX_SIDE cells a side, at most MAX_PIECES
pieces of at most MAX_PIECE_CELLS cells each (checked before any table is built).

Difficulty is board size and piece count; par is the number of pieces (every one is placed).

JSON config: ``{"rows": 6, "cols": 6, "blocked": [[r, c], ...], "pieces": [[[r, c], ...],
...], "solutions": [[[j, r, c], ...], ...]}`` (each piece in its canonical orientation;
"solutions" lists every solution of the empty board, one placement per piece, for a reader; it
is left out when there are SOLUTION_CAP or more. On loading, each listed solution is checked to
be a legal tiling (and the document refused otherwise), but the list is never trusted: the
tilings are counted again by the solver); state: a list of null or ``[j, r, c]``; move:
``["place", i, j, r, c]`` or ``["remove", i]``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

import numpy as np

from roguelike.puzzles.base import (
    HINT_BUDGET,
    Calibration,
    GenerationError,
    IllegalMove,
    PuzzleFormatError,
    PuzzleType,
    SearchLimit,
    cell_name,
    check_difficulty,
    envelope,
    is_int,
    open_envelope,
    ordinal_letter,
    region_name,
    rng_for,
    side_by_side,
)
from roguelike.puzzles.hatgram_solve import (
    Cell,
    Placement,
    Shape,
    State,
    best_tiling,
    canonical,
    flipped,
    normalise,
    orientations,
    pose,
    solve_board,
    tilings,
    turned,
)

__all__ = [
    "PAR",
    "RULES",
    "Hatgram",
    "canonical",
    "flipped",
    "generate",
    "normalise",
    "orientations",
    "pose",
    "turned",
]

Move = tuple[Any, ...]  # ("place", i, j, r, c) | ("remove", i)

#: Per difficulty: (rows, cols, blocked cells, smallest and largest piece).
SHAPE: dict[str, tuple[int, int, int, int, int]] = {
    "easy": (4, 4, 1, 4, 6),
    "medium": (5, 5, 3, 4, 6),
    "hard": (6, 6, 5, 4, 6),
    "very-hard": (7, 7, 8, 4, 6),
}
#: The par of a hatgram is its piece count (every piece is placed once).
PAR: dict[str, tuple[int, int]] = {
    "easy": (3, 3),
    "medium": (4, 5),
    "hard": (6, 7),
    "very-hard": (8, 9),
}
ATTEMPTS = 5000
#: Solutions enumerated for a hand-made instance (generated ones have exactly one).
SOLUTION_CAP = 2000
#: Limits of a hand-written instance: cells a side, pieces, cells per piece.
MAX_SIDE = 12
MAX_PIECES = 16
MAX_PIECE_CELLS = 16
#: The most steps (cells filled) one search may take before the state is refused as too large.
SEARCH_NODES = 400_000

#: The rules in a few lines, for players (the puzzle screen's ``?``).
RULES = """\
Fill the board with all the pieces. Every free square must be covered, no two pieces may
overlap, and dark squares stay empty.

Pieces may be turned and flipped over before you put them down. A piece on the board can be
taken back off. Par is one move per piece: put each one straight where it belongs."""


# --- the puzzle ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hatgram:
    rows: int
    cols: int
    blocked: tuple[Cell, ...]
    pieces: tuple[Shape, ...]
    difficulty: str = "easy"
    par: int = 0
    _solutions: list[tuple[Placement, ...]] = field(
        default_factory=list, compare=False, hash=False, repr=False
    )
    # [True] once ``_solutions`` is known to hold EVERY tiling of the empty board; [False] when
    # they are too many to list, or listing them took more than SEARCH_NODES steps
    _complete: list[bool] = field(default_factory=list, compare=False, hash=False, repr=False)
    # piece → its placements on the empty board and their cells' bitmasks (``_masked``)
    _placements: dict[int, list[tuple[Placement, int]]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    type_name: ClassVar[str] = "hatgram"
    #: Can a move leave the goal out of reach? (every move can be undone)
    dead_ends: ClassVar[bool] = False

    def __post_init__(self) -> None:
        if not (1 <= self.rows <= MAX_SIDE and 1 <= self.cols <= MAX_SIDE):
            raise ValueError(f"hatgram boards are 1..{MAX_SIDE} cells on a side")
        if any(not (0 <= r < self.rows and 0 <= c < self.cols) for r, c in self.blocked):
            raise ValueError("a blocked cell is off the board")
        if len(set(self.blocked)) != len(self.blocked):
            raise ValueError("a blocked cell is listed twice")
        if not 1 <= len(self.pieces) <= MAX_PIECES:
            raise ValueError(f"a hatgram has 1 to {MAX_PIECES} pieces")
        if any(not 1 <= len(p) <= MAX_PIECE_CELLS for p in self.pieces):
            raise ValueError(f"a piece has 1 to {MAX_PIECE_CELLS} cells")
        if any(normalise(p) != tuple(p) or len(set(p)) != len(p) for p in self.pieces):
            raise ValueError("pieces must be normalised: distinct cells, sorted, from (0, 0)")
        free = self.rows * self.cols - len(set(self.blocked))
        if sum(len(p) for p in self.pieces) != free:
            raise ValueError("the pieces' area must equal the number of free cells")

    @property
    def free_cells(self) -> list[Cell]:
        blocked = set(self.blocked)
        return [(r, c) for r in range(self.rows) for c in range(self.cols) if (r, c) not in blocked]

    def cells_of(self, i: int, p: Placement) -> list[Cell]:
        j, r, c = p
        return [(r + dr, c + dc) for dr, dc in orientations(self.pieces[i])[j]]

    def placements(self, i: int) -> list[Placement]:
        """Every placement of piece ``i`` on free cells of the empty board."""
        return [pl for pl, _mask in self._masked(i)]

    def _masked(self, i: int) -> list[tuple[Placement, int]]:
        """The placements of piece ``i`` with their cells as a bitmask (bit ``r * cols + c``),
        computed once."""
        if i in self._placements:
            return self._placements[i]
        cols = self.cols
        blocked = 0
        for r, c in self.blocked:
            blocked |= 1 << (r * cols + c)
        out = []
        for j, shape in enumerate(orientations(self.pieces[i])):
            h = max(r for r, _ in shape) + 1
            w = max(c for _, c in shape) + 1
            origin = 0
            for dr, dc in shape:
                origin |= 1 << (dr * cols + dc)
            for r in range(self.rows - h + 1):
                for c in range(cols - w + 1):
                    mask = origin << (r * cols + c)
                    if not mask & blocked:
                        out.append(((j, r, c), mask))
        self._placements[i] = out
        return out

    def solutions(self, limit: int = SOLUTION_CAP) -> list[tuple[Placement, ...]]:
        """The solutions of the empty board (cached), each a placement per piece: all of them
        when there are fewer than ``limit``, else the first ``limit``, and none when listing
        them takes more than SEARCH_NODES steps (``_complete`` says which)."""
        if self._solutions or self._complete:
            return self._solutions
        try:
            sols = tilings(self, limit, SEARCH_NODES)
            complete = len(sols) < limit
        except SearchLimit:  # too long to list: solve() searches from the state instead
            sols, complete = [], False
        self._solutions.extend(sols)
        self._complete.append(complete)
        return self._solutions

    def count_solutions(self, limit: int = 2) -> int:
        return len(solve_board(self, limit))

    # --- rules -----------------------------------------------------------------------------
    def initial(self) -> State:
        return (None,) * len(self.pieces)

    def _occupied(self, s: State) -> set[Cell]:
        occ: set[Cell] = set()
        for i, p in enumerate(s):
            if p is not None:
                occ.update(self.cells_of(i, p))
        return occ

    def moves(self, s: State) -> list[Move]:
        occ = 0
        for r, c in self._occupied(s):
            occ |= 1 << (r * self.cols + c)
        out: list[Move] = []
        for i, p in enumerate(s):
            if p is None:
                out.extend(("place", i, *pl) for pl, mask in self._masked(i) if not mask & occ)
        out.extend(("remove", i) for i, p in enumerate(s) if p is not None)
        return out

    def apply(self, s: State, m: Move) -> State:
        if not isinstance(m, tuple) or not m:
            raise IllegalMove(f"not a move: {m!r}")
        if m[0] == "remove" and len(m) == 2:
            i = m[1]
            if not (isinstance(i, int) and 0 <= i < len(self.pieces)) or s[i] is None:
                raise IllegalMove(f"piece {m[1]!r} is not on the board")
            return s[:i] + (None,) + s[i + 1 :]
        if m[0] == "place" and len(m) == 5 and all(isinstance(v, int) for v in m[1:]):
            _, i, j, r, c = m
            if not 0 <= i < len(self.pieces):
                raise IllegalMove(f"there is no piece {i}")
            if s[i] is not None:
                raise IllegalMove(f"piece {ordinal_letter(i)} is already on the board")
            if not 0 <= j < len(orientations(self.pieces[i])):
                raise IllegalMove(f"piece {ordinal_letter(i)} has no orientation {j}")
            cells = self.cells_of(i, (j, r, c))
            free = set(self.free_cells) - self._occupied(s)
            if not all(cell in free for cell in cells):
                raise IllegalMove(f"piece {ordinal_letter(i)} does not fit there")
            return s[:i] + ((j, r, c),) + s[i + 1 :]
        raise IllegalMove(f"not a move: {m!r}")

    def is_solved(self, s: State) -> bool:
        return all(p is not None for p in s)

    def distance(self, s: State) -> int | None:
        """The optimal move count from ``s`` (what ``len(solve(s))`` gives, without the plan
        when every tiling is listed)."""
        sols = self.solutions()
        if self._complete != [True]:  # too many tilings to list: the search decides
            plan = self.solve(s)
            return None if plan is None else len(plan)
        best = None
        for sol in sols:
            cost = 0
            for p, q in zip(s, sol, strict=True):
                if p != q:
                    cost += 1 if p is None else 2
            best = cost if best is None or cost < best else best
        return best

    def solve(self, s: State, budget: int | None = None) -> list[Move] | None:
        """An optimal plan from ``s`` (see the module docstring); raises SearchLimit when the
        search would take more than SEARCH_NODES steps
        (its own count: the hint ``budget`` is not used by this type)."""
        sols = self.solutions()
        if self._complete == [True]:
            best: tuple[int, int] | None = None
            for k, sol in enumerate(sols):
                cost = sum(
                    0 if p == q else 1 if p is None else 2 for p, q in zip(s, sol, strict=True)
                )
                if best is None or cost < best[0]:
                    best = (cost, k)
            if best is None:
                return None
            sol = sols[best[1]]
        else:
            found = best_tiling(self, s, SEARCH_NODES)
            if found is None:
                return None
            sol = found
        plan: list[Move] = [("remove", i) for i, p in enumerate(s) if p is not None and p != sol[i]]
        places = [
            (min(self.cells_of(i, q)), i, q)
            for i, (p, q) in enumerate(zip(s, sol, strict=True))
            if p != q
        ]
        plan.extend(("place", i, *q) for _, i, q in sorted(places))  # reading order
        return plan

    # --- words -----------------------------------------------------------------------------
    def describe_move(self, m: Move, s: State | None = None) -> str:
        if m[0] == "remove":
            return f"take piece {ordinal_letter(m[1])} off the board"
        _, i, j, r, c = m
        n = len(orientations(self.pieces[i]))
        turn = "" if n == 1 else f" {pose(self.pieces[i], j)},"
        return (
            f"place piece {ordinal_letter(i)}{turn} with its top-left corner at {cell_name(r, c)}"
        )

    def nudge(self, s: State, tier: int) -> str:
        plan = self.solve(s, HINT_BUDGET)  # raises SearchLimit past it
        if plan is None:
            return "These pieces cannot fill the board."
        if not plan:
            return "The board is full."
        m = plan[0]
        name = ordinal_letter(m[1])
        if m[0] == "remove":
            if tier <= 1:
                return f"Piece {name} is not where it belongs."
            return f"Piece {name} is not where it belongs: take it off the board."
        cells = self.cells_of(m[1], tuple(m[2:]))  # type: ignore[arg-type]
        if tier <= 1:
            return f"Piece {name} belongs {self.where_words(cells)}."
        r, c = min(cells)
        return f"Piece {name} covers the cell at {cell_name(r, c)}."

    def facts(self, s: State) -> frozenset[Hashable]:
        """What a milestone may name: each piece where it lies (``("piece", i, placement)``)."""
        return frozenset(("piece", i, p) for i, p in enumerate(s) if p is not None)

    def milestone_words(
        self, new: frozenset[Hashable], s: State, plan: Sequence[Move], at: int
    ) -> str:
        """ "place piece B in the top left corner of the board", joined by "and" (the pieces
        that stay where they are put to the end)."""
        return " and ".join(
            f"place piece {ordinal_letter(i)} {self.where_words(self.cells_of(i, p))}"
            for _tag, i, p in sorted(
                (cast(tuple[str, int, Placement], f) for f in new),
                key=lambda f: plan.index(("place", f[1], *f[2])),
            )
        )

    def where_words(self, cells: list[Cell] | tuple[Cell, ...]) -> str:
        """Where ``cells`` lie, truthfully: the one or two board regions they all fall in, else
        the rows and columns they span (never one cell picked from the piece)."""
        regions: list[str] = []
        for r, c in sorted(cells):
            w = region_name(r, c, self.rows, self.cols)
            if w not in regions:
                regions.append(w)
        if len(regions) == 1:
            return f"in the {regions[0]} of the board"
        if len(regions) == 2:
            return f"across the {regions[0]} and the {regions[1]} of the board"
        rs = sorted({r for r, _ in cells})
        cs = sorted({c for _, c in cells})

        def span(xs: list[int], what: str) -> str:
            return f"{what} {xs[0] + 1}" if len(xs) == 1 else f"{what}s {xs[0] + 1} to {xs[-1] + 1}"

        return f"within {span(rs, 'row')} and {span(cs, 'column')}"

    def picture(self, s: State) -> list[str]:
        """The board as text: ``#`` blocked, ``.`` empty, letters for placed pieces."""
        grid = [["."] * self.cols for _ in range(self.rows)]
        for r, c in self.blocked:
            grid[r][c] = "#"
        for i, p in enumerate(s):
            if p is not None:
                for r, c in self.cells_of(i, p):
                    grid[r][c] = ordinal_letter(i)
        return ["".join(row) for row in grid]

    def render_text(self, s: State) -> str:
        """The board in state ``s`` (see :meth:`picture`) and the pieces, as plain text."""
        lines = self.picture(s)
        lines += ["", "pieces (turn and flip them freely):"]
        blocks = []
        for i, shape in enumerate(self.pieces):
            rows = max(r for r, _ in shape) + 1
            cols = max(c for _, c in shape) + 1
            grid = [["."] * cols for _ in range(rows)]
            for r, c in shape:
                grid[r][c] = ordinal_letter(i)
            blocks.append(["".join(row) for row in grid])
        lines += side_by_side(blocks)
        return "\n".join(lines)

    # --- JSON ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        config: dict[str, Any] = {
            "rows": self.rows,
            "cols": self.cols,
            "blocked": [list(b) for b in self.blocked],
            "pieces": [[list(cell) for cell in p] for p in self.pieces],
        }
        sols = self.solutions()
        if self._complete == [True]:
            config["solutions"] = [[list(pl) for pl in sol] for sol in sols]
        return envelope(self, config)

    @classmethod
    def from_json(cls, d: Any) -> Hatgram:
        difficulty, par, config, _state = open_envelope(d, cls.type_name)
        rows: Any = config.get("rows")
        cols: Any = config.get("cols")
        if not (is_int(rows) and is_int(cols) and 1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
            raise PuzzleFormatError(f"bad hatgram config: rows and cols are 1 to {MAX_SIDE}")
        raw_blocked = config.get("blocked", [])
        if not isinstance(raw_blocked, list) or len(raw_blocked) > rows * cols:
            raise PuzzleFormatError("bad hatgram config: blocked is a list of [row, column]")
        blocked = tuple(sorted(_pair(b, "a blocked cell") for b in raw_blocked))
        raw_pieces = config.get("pieces")
        if not isinstance(raw_pieces, list) or not 1 <= len(raw_pieces) <= MAX_PIECES:
            raise PuzzleFormatError(f"bad hatgram config: pieces is a list of 1 to {MAX_PIECES}")
        pieces = []
        for raw in raw_pieces:
            if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_PIECE_CELLS:
                raise PuzzleFormatError(
                    f"bad hatgram config: a piece is a list of 1 to {MAX_PIECE_CELLS} cells"
                )
            pieces.append(tuple(_pair(cell, "a piece's cell") for cell in raw))
        try:
            out = cls(rows, cols, blocked, tuple(pieces), difficulty, par)
        except ValueError as e:
            raise PuzzleFormatError(f"bad hatgram config: {e}") from None
        listed = config.get("solutions", [])
        if not isinstance(listed, list) or len(listed) >= SOLUTION_CAP:
            raise PuzzleFormatError(
                f"bad hatgram config: solutions is a list of fewer than {SOLUTION_CAP}"
            )
        for sol in listed:
            full = out.state_from_json(sol)  # checks every placement fits
            if not out.is_solved(full):
                raise PuzzleFormatError("a listed solution leaves a piece out")
        return out  # its solver counts the tilings itself: the listed ones are not trusted

    def state_to_json(self, s: State) -> list[list[int] | None]:
        return [None if p is None else list(p) for p in s]

    def state_from_json(self, d: Any) -> State:
        if not isinstance(d, list) or len(d) != len(self.pieces):
            raise PuzzleFormatError(f"a hatgram state lists {len(self.pieces)} placements")
        s: State = self.initial()
        for i, p in enumerate(d):
            if p is None:
                continue
            if not (isinstance(p, list) and len(p) == 3 and all(is_int(v) for v in p)):
                raise PuzzleFormatError(f"bad placement {p!r}")
            try:
                s = self.apply(s, ("place", i, *p))
            except IllegalMove as e:
                raise PuzzleFormatError(str(e)) from None
        return s

    def move_to_json(self, m: Move) -> list[Any]:
        return list(m)

    def move_from_json(self, d: Any) -> Move:
        shape = isinstance(d, list) and (
            (d[:1] == ["place"] and len(d) == 5) or (d[:1] == ["remove"] and len(d) == 2)
        )
        if shape and all(is_int(v) for v in d[1:]):
            return tuple(d)
        raise PuzzleFormatError(f"bad hatgram move {d!r}"[:200])


def _pair(v: Any, what: str) -> Cell:
    """A ``[row, column]`` of small integers; raises PuzzleFormatError."""
    if not (
        isinstance(v, list)
        and len(v) == 2
        and all(is_int(x) and 0 <= x < 64 for x in v)  # bounded before any table is built
    ):
        raise PuzzleFormatError(f"bad hatgram config: {what} is [row, column], got {v!r}"[:200])
    return (v[0], v[1])


# --- generator -------------------------------------------------------------------------------
def _connected(cells: set[Cell]) -> bool:
    return len(_components(cells)) <= 1


def _components(cells: set[Cell]) -> list[int]:
    """Sizes of the 4-connected components of ``cells``."""
    left = set(cells)
    out = []
    while left:
        start = min(left)
        seen = {start}
        stack = [start]
        while stack:
            r, c = stack.pop()
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in left and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
        out.append(len(seen))
        left -= seen
    return out


def _cuttable(n: int, lo: int, hi: int) -> bool:
    """Can ``n`` cells be a sum of piece sizes in lo..hi?"""
    return any(k * lo <= n <= k * hi for k in range(1, n // lo + 1))


def _partition(
    free: list[Cell], lo: int, hi: int, rng: np.random.Generator, distinct: bool = False
) -> list[list[Cell]] | None:
    """Cut the connected cells ``free`` into connected pieces of lo..hi cells.

    Pieces grow one at a time from the first uncut cell in reading order, by random frontier
    cells, to a random size; a piece that leaves an uncuttable remainder (or, with
    ``distinct``, has the shape of an earlier piece, turned or flipped) is grown again (up to
    12 tries), otherwise the cut fails.
    """
    left = set(free)
    parts: list[list[Cell]] = []
    shapes: set[Shape] = set()
    while left:
        start = min(left)
        for _ in range(12):
            target = int(rng.integers(lo, hi + 1))
            piece = [start]
            rem = set(left)
            rem.discard(start)
            while len(piece) < target:
                frontier = sorted(
                    {
                        nb
                        for r, c in piece
                        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
                        if nb in rem
                    }
                )
                if not frontier:
                    break
                cell = frontier[int(rng.integers(0, len(frontier)))]
                piece.append(cell)
                rem.discard(cell)
            if (
                len(piece) == target
                and not (distinct and canonical(piece) in shapes)
                and all(_cuttable(n, lo, hi) for n in _components(rem))
            ):
                break
        else:
            return None
        if distinct:
            shapes.add(canonical(piece))
        parts.append(piece)
        left = rem
    return parts


def generate(difficulty: str, seed: int) -> Hatgram:
    """A hatgram with exactly one solution: board ``SHAPE[difficulty]``, ``PAR`` pieces.

    Blocked cells are drawn (the rest must stay connected), the free cells are cut into
    connected pieces of distinct shapes (a piece that repeats a shape is grown again), and the
    cut is kept only when an exhaustive search (:func:`~roguelike.puzzles.hatgram_solve.tilings`,
    counting solutions up to 2) finds no second way to fit the pieces; otherwise the stream
    draws again.
    """
    check_difficulty(difficulty)
    rng = rng_for("hatgram", difficulty, seed)
    rows, cols, n_blocked, smin, smax = SHAPE[difficulty]
    k_lo, k_hi = PAR[difficulty]
    all_cells = [(r, c) for r in range(rows) for c in range(cols)]
    for _ in range(ATTEMPTS):
        bix = rng.choice(len(all_cells), size=n_blocked, replace=False)
        blocked = tuple(sorted(all_cells[int(i)] for i in bix))
        free = [cell for cell in all_cells if cell not in blocked]
        if not _connected(set(free)):
            continue
        parts = _partition(free, smin, smax, rng, distinct=True)
        if parts is None or not k_lo <= len(parts) <= k_hi:
            continue
        k = len(parts)
        shapes = [canonical(p) for p in parts]
        if len(set(shapes)) != k:
            continue
        order = sorted(range(k), key=lambda i: (len(shapes[i]), shapes[i]))
        pieces = tuple(shapes[i] for i in order)
        p = Hatgram(rows, cols, blocked, pieces, difficulty, k)
        sols = tilings(p, 2)
        if len(sols) == 1:
            p._solutions.extend(sols)
            p._complete.append(True)
            return p
    raise GenerationError(f"no unique hatgram of difficulty {difficulty} in {ATTEMPTS} attempts")


# --- the record every layer reads ------------------------------------------------------------
def greedy(p: Hatgram, s: State) -> float:
    """The difficulty score's naive measure: the pieces still in the box, and nothing else
    (every placement looks as good as any other; why, :mod:`roguelike.puzzles.difficulty`)."""
    return float(s.count(None))


def successor(p: Hatgram, s: State, m: Move) -> State:
    """The placement written in or the piece taken out, unchecked (a listed move is legal):
    the measure's ``apply``, several times cheaper."""
    i = m[1]
    return s[:i] + ((None,) if m[0] == "remove" else (m[2:],)) + s[i + 1 :]


TYPE: PuzzleType[Hatgram, State, Move] = PuzzleType(
    name=Hatgram.type_name,
    generate=generate,
    from_json=Hatgram.from_json,
    par=PAR,
    rules=RULES,
    hint_budget=HINT_BUDGET,
    calibration=Calibration(greedy=greedy, attempts=8, successor=successor),
)
