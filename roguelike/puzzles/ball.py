"""Get the ball out: slide blocks on a walled board until the ball reaches the exit.

The board is ``rows × cols`` cells inside a wall; the exit is a gap two cells wide in the BOTTOM
wall, under columns ``exit_col`` and ``exit_col + 1``. The ball is 2×2 (like Klotski's big
block), so the puzzle is solved when the ball's top-left cell is ``(rows - 2, exit_col)``: the
ball sits in front of the gap (rolling it out is not counted as a move). The source's custom
puzzles add two things a hand-written board may have: a TARGET cell instead of the exit (then
the wall has no gap and the puzzle is solved when the ball's top-left cell is on the target),
and BLOCKED cells, fixed squares of wall inside the board that nothing may enter. The other
pieces are blocks of 1×1, 1×2 (one row, two columns), 2×1 and 2×2 cells. A move slides the ball
or one block ONE cell up, down, left or right into empty cells.

State: one int packing five bitmasks, one per kind in :data:`KINDS` order (ball first, in the
lowest bits), each holding the top-left cells of that kind's pieces (bit ``r * (cols + 1) + c``
of its mask; the spare column keeps shifted pieces from wrapping). Blocks of one kind are
interchangeable, so this shape is canonical by construction. A move is ``(r, c, direction)``:
the piece whose top-left cell is ``(r, c)`` slides one cell.

Solver: breadth-first search over the state space (moves are reversible, so the states
reachable from the start are a connected component). The first solve of an instance measures
the distance to the goal of every state in the component, once; later hints read it.

Limits: boards of 2 to :data:`MAX_SIDE` cells a side; a solve explores at most
:data:`SOLVE_LIMIT` positions and refuses a board whose start has more (checked while searching,
before any larger table is built).

JSON config: ``{"rows": 5, "cols": 6, "exit_col": 2}``, or with a target cell instead of the
exit ``{"rows": 5, "cols": 6, "target": [1, 3]}``; either may add ``"blocked": [[r, c], ...]``
(both written only when used, so older documents load as before); state:
``{"ball": [[r, c]], "1x1": [[r, c], ...], "1x2": [...], "2x1": [...], "2x2": [...]}`` (top-left
cells, sorted; each listed once); move: ``[r, c, "up"]``.
"""

from __future__ import annotations

import bisect
import itertools
from collections import deque
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
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
    in_range,
    is_int,
    open_envelope,
    rng_for,
)

State = int
Move = tuple[int, int, str]

#: (name, height, width) of each kind of piece; the ball is kind 0.
KINDS: tuple[tuple[str, int, int], ...] = (
    ("ball", 2, 2),
    ("1x1", 1, 1),
    ("1x2", 1, 2),
    ("2x1", 2, 1),
    ("2x2", 2, 2),
)
KIND_WORDS = {
    "ball": "the ball",
    "1x1": "the small block",
    "1x2": "the wide block",
    "2x1": "the tall block",
    "2x2": "the big block",
}
DIRECTIONS = ("up", "down", "left", "right")
_DELTA = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}

#: Optimal move counts per difficulty, set so that the difficulty score (see
#: :mod:`roguelike.puzzles.difficulty`) of most instances lands in the level's band.
PAR: dict[str, tuple[int, int]] = {
    "easy": (5, 8),
    "medium": (9, 14),
    "hard": (16, 22),
    "very-hard": (25, 36),
}
#: Per difficulty: (rows, cols, free cells, relative chances of 1x1, 1x2, 2x1 and 2x2 blocks when
#: filling the board, the (1x1 count, 2x2 count) mixes a fill may have (None: any), most states
#: in a component). A component with more states is skipped: it keeps generation (p99 < 200 ms)
#: and a first hint from a loaded puzzle (< 50 ms) fast. On 4×5 boards, measured: fills with no
#: 1x1 block always jam (the ball cannot travel far), and fills with four or more small blocks
#: and no big one mostly have huge components; two small and no big block (or four small and
#: one big) give the deep, small components wanted.
Mix = tuple[tuple[int, int], ...] | None
BOARD: dict[str, tuple[int, int, int, tuple[int, int, int, int], Mix, int]] = {
    "easy": (4, 4, 2, (3, 3, 3, 1), None, 5000),
    "medium": (4, 4, 2, (3, 3, 3, 1), None, 5000),
    "hard": (4, 5, 2, (1, 4, 4, 1), ((2, 0), (4, 1)), 2500),
    "very-hard": (4, 5, 2, (1, 4, 4, 1), ((2, 0), (4, 1)), 2500),
}
ATTEMPTS = 2000

#: The rules in a few lines, for players (the puzzle screen's ``?``).
RULES = """\
The big ball is boxed in by blocks. There is a gap in the bottom wall, just wide enough for
the ball (on some boards, squares marked inside instead, and fixed squares of wall).

A move slides the ball or one block one cell up, down, left or right into empty cells;
nothing can be lifted or turned. Bring the ball to the gap (or onto the marked squares), in as
few moves as you can."""


class _Geometry:
    """Bit tables for one board size (and its blocked cells, a mask of ``bit(r, c)``)."""

    def __init__(self, rows: int, cols: int, blocked: int = 0) -> None:
        self.rows, self.cols = rows, cols
        P = self.P = cols + 1
        self.board = 0
        for r in range(rows):
            for c in range(cols):
                self.board |= 1 << (r * P + c)
        self.board &= ~blocked
        self.shapes: list[tuple[int, ...]] = [
            tuple(dr * P + dc for dr in range(h) for dc in range(w)) for _, h, w in KINDS
        ]
        # per kind and direction: (bit delta, offsets that must be free)
        self.steps: list[list[tuple[str, int, tuple[int, ...]]]] = []
        for shape in self.shapes:
            per = []
            for d in DIRECTIONS:
                dr, dc = _DELTA[d]
                delta = dr * P + dc
                need = tuple(sorted({o + delta for o in shape} - set(shape)))
                per.append((d, delta, need))
            self.steps.append(per)
        self.SH = rows * P  # bits per kind's mask in a packed state
        self.FULL = (1 << self.SH) - 1

    def bit(self, r: int, c: int) -> int:
        return r * self.P + c

    def cell(self, b: int) -> tuple[int, int]:
        return divmod(b, self.P)

    def split(self, s: State) -> list[int]:
        """The five anchor masks of a packed state."""
        return [(s >> (k * self.SH)) & self.FULL for k in range(len(KINDS))]

    def pack(self, masks: list[int]) -> State:
        return sum(m << (k * self.SH) for k, m in enumerate(masks))

    def occupied(self, s: State) -> int:
        occ = 0
        for k, anchors in enumerate(self.split(s)):
            if anchors:
                for o in self.shapes[k]:
                    occ |= anchors << o
        return occ

    def successors(self, s: State) -> Iterator[tuple[int, int, str, State]]:
        """(kind, anchor bit, direction, next state) for every legal move, in a fixed order."""
        free = self.board & ~self.occupied(s)
        for k, anchors in enumerate(self.split(s)):
            if not anchors:
                continue
            base = k * self.SH
            for d, delta, need in self.steps[k]:
                movable = anchors
                for o in need:
                    movable &= (free >> o) if o >= 0 else (free << -o)
                    if not movable:
                        break
                while movable:
                    low = movable & -movable
                    movable ^= low
                    a = low.bit_length() - 1
                    yield k, a, d, s ^ ((low | (1 << (a + delta))) << base)

    def neighbours(self, s: State) -> list[State]:
        """Every state one move away (the breadth-first searches' hot loop, inlined)."""
        SH, FULL, shapes, steps = self.SH, self.FULL, self.shapes, self.steps
        masks = [(s >> (k * SH)) & FULL for k in range(len(KINDS))]
        occ = 0
        for k, anchors in enumerate(masks):
            if anchors:
                for o in shapes[k]:
                    occ |= anchors << o
        free = self.board & ~occ
        out = []
        for k, anchors in enumerate(masks):
            if not anchors:
                continue
            base = k * SH
            for _d, delta, need in steps[k]:
                movable = anchors
                for o in need:
                    movable &= (free >> o) if o >= 0 else (free << -o)
                while movable:
                    low = movable & -movable
                    movable ^= low
                    out.append(s ^ ((low | (low << delta if delta > 0 else low >> -delta)) << base))
        return out


@cache
def geometry(rows: int, cols: int, blocked: int = 0) -> _Geometry:
    return _Geometry(rows, cols, blocked)


def _bits(x: int) -> list[int]:
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


@dataclass(frozen=True)
class Ball:
    rows: int
    cols: int
    exit_col: int
    start: State
    difficulty: str = "easy"
    par: int = 0
    # distance to the goal of every state in the start's component (filled on the first solve)
    _dist: dict[State, int] = field(default_factory=dict, compare=False, hash=False, repr=False)
    #: the cell the ball's top-left must reach, instead of the exit (then ``exit_col`` is -1)
    target: tuple[int, int] | None = None
    #: fixed wall cells inside the board, sorted
    blocked: tuple[tuple[int, int], ...] = ()

    type_name: ClassVar[str] = "ball"
    #: Can a move leave the goal out of reach? (every move can be undone)
    dead_ends: ClassVar[bool] = False

    def __post_init__(self) -> None:
        if not (2 <= self.rows <= MAX_SIDE and 2 <= self.cols <= MAX_SIDE):
            raise ValueError(f"ball boards are 2..{MAX_SIDE} cells on a side")
        if any(not (0 <= r < self.rows and 0 <= c < self.cols) for r, c in self.blocked):
            raise ValueError("a blocked cell is off the board")
        if list(self.blocked) != sorted(set(self.blocked)):
            raise ValueError("blocked cells are listed once each, in order")
        if self.target is None:
            if not 0 <= self.exit_col <= self.cols - 2:
                raise ValueError("the exit must lie under the board")
            goal = (self.rows - 2, self.exit_col)
        else:
            if self.exit_col != -1:
                raise ValueError("a board has an exit or a target cell, not both")
            goal = self.target
            if not (0 <= goal[0] <= self.rows - 2 and 0 <= goal[1] <= self.cols - 2):
                raise ValueError("the target must leave room for the 2×2 ball on the board")
        if any(
            goal[0] + dr == r and goal[1] + dc == c
            for r, c in self.blocked
            for dr in (0, 1)
            for dc in (0, 1)
        ):
            raise ValueError("a blocked cell is where the ball must go")
        self._check_state(self.start)

    def _check_state(self, s: State) -> None:
        g = self.geo
        if not 0 <= s < 1 << (g.SH * len(KINDS)):
            raise ValueError("not a packed ball state")
        masks = g.split(s)
        if masks[0].bit_count() != 1:
            raise ValueError("a ball state has exactly one ball")
        occ = 0
        for k, anchors in enumerate(masks):
            for a in _bits(anchors):
                for o in g.shapes[k]:
                    b = 1 << (a + o)
                    if not b & g.board or b & occ:
                        raise ValueError("pieces overlap or leave the board")
                    occ |= b

    @property
    def geo(self) -> _Geometry:
        mask = 0
        for r, c in self.blocked:
            mask |= 1 << (r * (self.cols + 1) + c)
        return geometry(self.rows, self.cols, mask)

    @property
    def goal_cell(self) -> tuple[int, int]:
        """The cell the ball's top-left reaches when the puzzle is solved."""
        return self.target if self.target is not None else (self.rows - 2, self.exit_col)

    @property
    def goal_bit(self) -> int:
        return 1 << self.geo.bit(*self.goal_cell)

    # --- rules -----------------------------------------------------------------------------
    def initial(self) -> State:
        return self.start

    def moves(self, s: State) -> list[Move]:
        g = self.geo
        out = [(*g.cell(a), d) for _k, a, d, _t in g.successors(s)]
        return sorted(out, key=lambda m: (m[0], m[1], DIRECTIONS.index(m[2])))

    def kind_at(self, s: State, r: int, c: int) -> int | None:
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            return None
        b = 1 << self.geo.bit(r, c)
        return next((k for k, anchors in enumerate(self.geo.split(s)) if anchors & b), None)

    def apply(self, s: State, m: Move) -> State:
        try:
            r, c, d = m
        except (TypeError, ValueError):
            raise IllegalMove(f"a move is (row, column, direction), got {m!r}") from None
        if not (isinstance(r, int) and isinstance(c, int)) or d not in _DELTA:
            raise IllegalMove(f"bad move {m!r}")
        k = self.kind_at(s, r, c)
        if k is None:
            raise IllegalMove(f"no piece has its top-left cell at {cell_name(r, c)}")
        g = self.geo
        a = g.bit(r, c)
        for kk, aa, dd, t in g.successors(s):
            if kk == k and aa == a and dd == d:
                return t
        raise IllegalMove(f"{KIND_WORDS[KINDS[k][0]]} at {cell_name(r, c)} cannot move {d}")

    def is_solved(self, s: State) -> bool:
        return s & self.geo.FULL == self.goal_bit

    def distances(self) -> dict[State, int]:
        """Distance to the goal of every state in the start's component (computed once)."""
        if not self._dist:
            self._dist.update(_bounded_distances(self.geo, self.start, self.goal_bit))
        return self._dist

    def solve(self, s: State, budget: int | None = None) -> list[Move] | None:
        """A shortest plan read off the distance table of the start's component (computed
        once, at most SOLVE_LIMIT positions). A state outside that component gets a table of
        its own; ``budget`` then bounds it and SearchLimit is raised past it."""
        dist = self.distances()
        if s not in dist:
            if budget is not None and budget < SOLVE_LIMIT:
                own = component_distances(self.geo, s, self.goal_bit, budget)
                if own is None:
                    raise SearchLimit(f"no shortest plan within {budget} positions")
                dist = own
            else:
                dist = _bounded_distances(self.geo, s, self.goal_bit)
        if dist.get(s, -1) < 0:
            return None
        g = self.geo
        plan: list[Move] = []
        cur = s
        while dist[cur] > 0:
            want = dist[cur] - 1
            best = min(
                ((*g.cell(a), d), t) for _k, a, d, t in g.successors(cur) if dist.get(t) == want
            )
            plan.append(best[0])  # type: ignore[arg-type]
            cur = best[1]
        return plan

    # --- words -----------------------------------------------------------------------------
    def piece_words(self, s: State, r: int, c: int) -> str:
        k = self.kind_at(s, r, c)
        name = KIND_WORDS[KINDS[k][0]] if k is not None else "the piece"
        return name if k == 0 else f"{name} at {cell_name(r, c)}"

    def describe_move(self, m: Move, s: State | None = None) -> str:
        r, c, d = m
        if s is None:
            return f"move the piece at {cell_name(r, c)} {d}"
        return f"move {self.piece_words(s, r, c)} {d}"

    def nudge(self, s: State, tier: int) -> str:
        plan = self.solve(s, HINT_BUDGET)  # raises SearchLimit past it
        if plan is None:
            return "The ball cannot get out from here."
        if not plan:
            return (
                "The ball is at the exit." if self.target is None else "The ball is on its target."
            )
        r, c, d = plan[0]
        if tier <= 1:
            cur, ball_step = s, None
            for i, mv in enumerate(plan):
                if self.kind_at(cur, mv[0], mv[1]) == 0:
                    ball_step = (i, mv[2])
                    break
                cur = self.apply(cur, mv)
            assert ball_step is not None  # the ball must move to reach the exit
            if ball_step[0] == 0:
                return f"The ball can move right now; {len(plan)} moves are enough."
            return (
                f"The ball's next step is {ball_step[1]}: clear the way for it first; "
                f"{len(plan)} moves are enough."
            )
        return f"Move {self.piece_words(s, r, c)} next."

    def facts(self, s: State) -> frozenset[Hashable]:
        """What a milestone may name: where each block lies (``("block", kind, r, c)``, its
        top-left cell; blocks of a kind are alike). The ball settles only at the goal."""
        g = self.geo
        return frozenset(
            ("block", k, *g.cell(a))
            for k, anchors in enumerate(g.split(s))
            if k
            for a in _bits(anchors)
        )

    def milestone_words(
        self, new: frozenset[Hashable], s: State, plan: Sequence[Move], at: int
    ) -> str:
        """ "park the wide block at row 3, column 1" (a block that then stays put while the
        ball makes its way), joined by "and"."""
        return " and ".join(
            f"park {KIND_WORDS[KINDS[k][0]]} with its top left at {cell_name(r, c)}"
            for _tag, k, r, c in sorted(cast(tuple[str, int, int, int], f) for f in new)
        )

    def picture(self, s: State) -> list[str]:
        """The board as text: ``O`` ball, ``a``, ``b``, ... blocks, ``.`` empty, ``#`` wall
        (and blocked cells), ``+`` the target cells not covered."""
        grid = [["."] * self.cols for _ in range(self.rows)]
        for r, c in self.blocked:
            grid[r][c] = "#"
        if self.target is not None:
            for dr in (0, 1):
                for dc in (0, 1):
                    grid[self.target[0] + dr][self.target[1] + dc] = "+"
        label = iter("abcdefghijklmnopqrstuvwxyz" * 3)
        g = self.geo
        for k, anchors in enumerate(g.split(s)):
            for a in _bits(anchors):
                ch = "O" if k == 0 else next(label)
                for o in g.shapes[k]:
                    rr, cc = g.cell(a + o)
                    grid[rr][cc] = ch
        wall = "#" * (self.cols + 2)
        bottom = (
            "#"
            + "".join(
                " " if self.target is None and self.exit_col <= c <= self.exit_col + 1 else "#"
                for c in range(self.cols)
            )
            + "#"
        )
        return [wall] + ["#" + "".join(row) + "#" for row in grid] + [bottom]

    def render_text(self, s: State) -> str:
        """The board in state ``s`` (see :meth:`picture`) and a legend, as plain text."""
        lines = self.picture(s)
        if self.target is None:
            lines.append(
                "O the ball, letters blocks, # wall; get the ball to the gap in the bottom"
            )
        else:
            lines.append("O the ball, letters blocks, # wall; get the ball onto the + cells")
        return "\n".join(lines)

    # --- JSON ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        config: dict[str, Any] = {"rows": self.rows, "cols": self.cols}
        if self.target is None:
            config["exit_col"] = self.exit_col
        else:
            config["target"] = list(self.target)
        if self.blocked:
            config["blocked"] = [list(b) for b in self.blocked]
        return envelope(self, config)

    @classmethod
    def from_json(cls, d: Any) -> Ball:
        difficulty, par, config, state = open_envelope(d, cls.type_name)
        rows, cols = config.get("rows"), config.get("cols")
        if not all(is_int(v) for v in (rows, cols)):
            raise PuzzleFormatError("rows and cols must be integers")
        if not (2 <= rows <= MAX_SIDE and 2 <= cols <= MAX_SIDE):  # type: ignore[operator]
            raise PuzzleFormatError(f"ball boards are 2..{MAX_SIDE} cells on a side")
        target: tuple[int, int] | None = None
        ex: Any
        if "target" in config:
            if "exit_col" in config:
                raise PuzzleFormatError("a board has an exit_col or a target, not both")
            target = _cell(config["target"], rows, cols)  # type: ignore[arg-type]
            ex = -1
        else:
            ex = config.get("exit_col")
            if not is_int(ex):
                raise PuzzleFormatError("exit_col must be an integer")
        raw = config.get("blocked", [])
        if not isinstance(raw, list) or len(raw) > rows * cols:  # type: ignore[operator]
            raise PuzzleFormatError("blocked must be a list of [row, column]")
        cells = [_cell(b, rows, cols) for b in raw]  # type: ignore[arg-type]
        if len(set(cells)) != len(cells):
            raise PuzzleFormatError("a blocked cell is listed twice")
        blocked = tuple(sorted(cells))
        mask = 0
        for r, c in blocked:
            mask |= 1 << (r * (cols + 1) + c)  # type: ignore[operator]
        start = _parse_state(state, geometry(rows, cols, mask))  # type: ignore[arg-type]
        try:
            out = cls(
                rows,  # type: ignore[arg-type]
                cols,  # type: ignore[arg-type]
                ex,  # type: ignore[arg-type]
                start,
                difficulty,
                par,
                target=target,
                blocked=blocked,
            )
        except ValueError as e:
            raise PuzzleFormatError(str(e)) from None
        return out

    def state_to_json(self, s: State) -> dict[str, list[list[int]]]:
        g = self.geo
        masks = g.split(s)
        return {KINDS[k][0]: [list(g.cell(a)) for a in _bits(masks[k])] for k in range(len(KINDS))}

    def state_from_json(self, d: Any) -> State:
        s = _parse_state(d, self.geo)
        try:
            self._check_state(s)
        except ValueError as e:
            raise PuzzleFormatError(str(e)) from None
        return s

    def move_to_json(self, m: Move) -> list[Any]:
        return [m[0], m[1], m[2]]

    def move_from_json(self, d: Any) -> Move:
        if not (isinstance(d, list) and len(d) == 3 and is_int(d[0]) and is_int(d[1])):
            raise PuzzleFormatError("a move is [row, column, direction]")
        if not isinstance(d[2], str) or d[2] not in _DELTA:
            raise PuzzleFormatError(f"unknown direction {d[2]!r}"[:100])
        return (d[0], d[1], d[2])


def _cell(v: Any, rows: int, cols: int) -> tuple[int, int]:
    """A ``[row, column]`` on a ``rows × cols`` board; raises PuzzleFormatError."""
    if not (isinstance(v, list) and len(v) == 2 and all(is_int(x) for x in v)):
        raise PuzzleFormatError(f"a cell is [row, column], got {v!r}")
    if not (0 <= v[0] < rows and 0 <= v[1] < cols):
        raise PuzzleFormatError(f"cell {v!r} is off the board")
    return (v[0], v[1])


def _parse_state(d: Any, g: _Geometry) -> State:
    if not isinstance(d, dict):
        raise PuzzleFormatError("a ball state is an object of piece lists")
    unknown = sorted(str(k) for k in d if k not in {name for name, _h, _w in KINDS})
    if unknown:
        raise PuzzleFormatError(f"unknown piece kind {unknown[0][:20]!r}")
    masks = []
    for name, _h, _w in KINDS:
        cells = d.get(name, [])
        if not isinstance(cells, list) or len(cells) > g.rows * g.cols:
            raise PuzzleFormatError(f"{name} must be a list of [row, column]")
        m = 0
        for cell in cells:
            r, c = _cell(cell, g.rows, g.cols)
            b = 1 << g.bit(r, c)
            if m & b:
                raise PuzzleFormatError(f"two {name} pieces at {cell_name(r, c)}")
            m |= b
        masks.append(m)
    return g.pack(masks)


#: The most cells a side of a board may have.
MAX_SIDE = 8
#: The most positions a solve explores. Generated boards stay far below it (see BOARD); a
#: hand-written board beyond it is refused rather than left to eat the machine's memory.
SOLVE_LIMIT = 100_000


def _bounded_distances(g: _Geometry, start: State, goal_bit: int) -> dict[State, int]:
    dist = component_distances(g, start, goal_bit, SOLVE_LIMIT)
    if dist is None:
        raise SearchLimit(f"this board has more than {SOLVE_LIMIT} positions: too large to solve")
    return dist


def component_distances(
    g: _Geometry, start: State, goal_bit: int, limit: int | None
) -> dict[State, int] | None:
    """Distance to the nearest goal state for every state of ``start``'s component.

    Two breadth-first passes: one collects the component (and its goal states), one spreads
    distances from all goal states at once. Unreachable-goal components map every state to -1.
    None when the component has more than ``limit`` states.
    """
    adj: dict[State, list[State]] = {}
    frontier = deque([start])
    adj[start] = []
    goals: list[State] = []
    full = g.FULL
    while frontier:
        s = frontier.popleft()
        if s & full == goal_bit:
            goals.append(s)
        nbrs = g.neighbours(s)
        adj[s] = nbrs
        for t in nbrs:
            if t not in adj:
                adj[t] = []
                if limit is not None and len(adj) > limit:
                    return None
                frontier.append(t)
    dist = dict.fromkeys(adj, -1)
    for s in goals:
        dist[s] = 0
    frontier = deque(goals)
    while frontier:
        s = frontier.popleft()
        d = dist[s] + 1
        for t in adj[s]:
            if dist[t] < 0:
                dist[t] = d
                frontier.append(t)
    return dist


def fill(
    g: _Geometry,
    goal: tuple[int, int],
    free: int,
    fill_weights: tuple[int, ...],
    rng: np.random.Generator,
) -> State | None:
    """The ball at ``goal`` and random blocks filling all but ``free`` of the board's open
    cells (its blocked cells left alone); None when 400 tries leave more free. The level
    boards and the custom ones draw alike."""
    masks = [0] * len(KINDS)
    masks[0] = 1 << g.bit(*goal)
    occ = g.occupied(g.pack(masks)) | (g.FULL & ~g.board)
    empty = g.board.bit_count() - 4
    # integer weights, so no float rounding can tip a choice on another machine
    bounds = list(itertools.accumulate(fill_weights))
    cells = [(r, c) for r in range(g.rows) for c in range(g.cols)]
    tries = 0
    while empty > free and tries < 400:
        tries += 1
        r, c = cells[int(rng.integers(0, len(cells)))]
        k = 1 + bisect.bisect_right(bounds, int(rng.integers(0, bounds[-1])))
        _n, h, w = KINDS[k]
        if r + h > g.rows or c + w > g.cols or h * w > empty - free:
            continue
        a = g.bit(r, c)
        shape = 0
        for o in g.shapes[k]:
            shape |= 1 << (a + o)
        if shape & occ:
            continue
        occ |= shape
        masks[k] |= 1 << a
        empty -= h * w
    return g.pack(masks) if empty == free else None


def generate(difficulty: str, seed: int) -> Ball:
    """A ball puzzle whose true optimal move count lies in ``PAR[difficulty]``.

    Backward from a solved board: random blocks around the ball at the exit, the whole
    component measured by BFS (skipped when larger than MAX_STATES), then a start drawn among
    the component's states at a distance inside the range.
    """
    check_difficulty(difficulty)
    rng = rng_for("ball", difficulty, seed)
    rows, cols, free, fill_weights, mixes, max_states = BOARD[difficulty]
    lo_hi = PAR[difficulty]
    g = geometry(rows, cols)
    for _ in range(ATTEMPTS):
        exit_col = int(rng.integers(0, cols - 1))
        solved = fill(g, (rows - 2, exit_col), free, fill_weights, rng)
        if solved is None:
            continue
        masks = g.split(solved)
        if mixes is not None and (masks[1].bit_count(), masks[4].bit_count()) not in mixes:
            continue
        dist = component_distances(g, solved, solved & g.FULL, max_states)
        if dist is None:
            continue
        cands = sorted(s for s, d in dist.items() if in_range(d, lo_hi))
        if not cands:
            continue
        start = cands[int(rng.integers(0, len(cands)))]
        p = Ball(rows, cols, exit_col, start, difficulty, dist[start])
        p._dist.update(dist)
        return p
    raise GenerationError(f"no ball puzzle of difficulty {difficulty} in {ATTEMPTS} attempts")


# --- the record every layer reads ------------------------------------------------------------
def greedy(p: Ball, s: State) -> float:
    """The difficulty score's naive measure: ten times the ball's steps from the exit, plus
    the cells of other blocks inside the rectangle between the ball and the exit (clear the
    way, then move the ball)."""
    g = p.geo
    masks = g.split(s)
    br, bc = g.cell(masks[0].bit_length() - 1)
    gr, gc = p.goal_cell
    others = g.occupied(s & ~masks[0])
    blocking = sum(
        1
        for r in range(min(br, gr), max(br, gr) + 2)
        for c in range(min(bc, gc), max(bc, gc) + 2)
        if others >> g.bit(r, c) & 1
    )
    return 10.0 * (abs(br - gr) + abs(bc - gc)) + blocking


TYPE: PuzzleType[Ball, State, Move] = PuzzleType(
    name=Ball.type_name,
    generate=generate,
    from_json=Ball.from_json,
    par=PAR,
    rules=RULES,
    hint_budget=HINT_BUDGET,
    calibration=Calibration(greedy=greedy, attempts=4),
)
