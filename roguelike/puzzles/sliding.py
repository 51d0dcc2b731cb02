"""Sliding tiles: the 8-puzzle (3×3) and the 15-puzzle (4×4).

The state is a tuple of ``n*n`` numbers read row by row, ``0`` the gap. The goal is
``1, 2, ..., n*n-1`` with the gap last, unless the puzzle gives another (``target``, see the
JSON below). A move is the NUMBER of the tile that slides into the gap (only the tiles next to
the gap can move).

Solver (:mod:`roguelike.puzzles.sliding_solve`): IDA* with Manhattan distance plus linear
conflicts, counted the admissible way (per row and column: twice the number of its home tiles
that must leave the line so that the rest are in order, i.e. ``2 * (k - longest increasing
run)``). States on an optimal path that
was found before are remembered with their exact distance and next move; the search uses those
exact values as its heuristic (still admissible) and stops at them, so a hint on or near a known
path costs little. The generator uses this search alone (its node counts decide which puzzles
it keeps).

Hints (:meth:`Sliding.guide`, through :func:`roguelike.puzzles.advise`): on the 4×4 board the
search takes the larger of that heuristic and an additive pattern database
(:class:`PatternDB`, built lazily, 0.2 s), and stops after HINT_BUDGET nodes (a count, so every
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

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

import numpy as np

from roguelike import seeds
from roguelike.puzzles.base import (
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
    int_list,
    is_int,
    open_envelope,
    rng_for,
)
from roguelike.puzzles.sliding_solve import (
    Move,
    State,
    Tables,
    constructive,
    ida,
    ida_pdb,
    pattern_db,
    reachable,
    solvable,
    standard_goal,
    tables,
)

__all__ = [
    "CUSTOM_DEPTH",
    "GOALS",
    "PAR",
    "RULES",
    "Sliding",
    "constructive",
    "generate",
    "generate_custom",
    "named_goal",
    "pattern_db",
    "reachable",
    "solvable",
    "standard_goal",
    "tables",
]

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

#: The rules in a few lines, for players (the puzzle screen's ``?``).
RULES = """\
Numbered tiles lie in a frame with one gap. A tile next to the gap can slide into it.

Put the tiles in order, 1, 2, 3, ... row by row from the top left, with the gap in the
bottom right corner, in as few slides as you can. (A puzzle may show another goal: then
arrange the tiles as it shows.)"""


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

    def tables(self) -> Tables:
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
        """Solve ``start`` by IDA* (:mod:`roguelike.puzzles.sliding_solve`) and remember the
        optimal path found; ``strong`` on the 4×4 board adds the pattern database."""
        T = self.tables()
        limit = node_limit if node_limit is not None else -1
        if strong and self.size == 4:
            plan = ida_pdb(T, pattern_db(self.goal()), start, self._known, self._walk, limit)
        else:
            plan = ida(T, start, self._known, self._walk, limit)
        self._record(start, plan)

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
        if tier <= 1:  # something to act on: where, and the tiles that move there
            rows = sorted({s.index(t) // n for t in soon})
            cols = sorted({s.index(t) % n for t in soon})
            vert = "top" if max(rows) < n / 2 else "bottom" if min(rows) >= n / 2 else "middle"
            horiz = "left" if max(cols) < n / 2 else "right" if min(cols) >= n / 2 else "centre"
            among = _and(sorted(set(soon)))
            return (
                f"The next moves happen around the {vert} {horiz} of the board, among tiles "
                f"{among}; {enough}."
            )
        tiles = sorted(set(plan[:3]))
        return "Tiles " + ", ".join(map(str, tiles)) + " move next (in some order)."

    def facts(self, s: State) -> frozenset[Hashable]:
        """What a milestone may name: each tile in its place (``("tile", t)``)."""
        goal = self.goal()
        return frozenset(("tile", t) for i, t in enumerate(s) if t and goal[i] == t)

    def milestone_words(
        self, new: frozenset[Hashable], s: State, plan: Sequence[Move], at: int
    ) -> str:
        """ "put 1–3 in the top row" for a whole row (or column) of the goal, else "put tile 5
        in its place (row 2, column 2)"; joined by "and"."""
        n, goal = self.size, self.goal()
        left = {cast(tuple[str, int], f)[1] for f in new}
        parts = []
        for axis, name in (("row", _ROWS[n]), ("column", _COLUMNS[n])):
            for k in range(n):
                cells = (
                    [k * n + c for c in range(n)]
                    if axis == "row"
                    else [r * n + k for r in range(n)]
                )
                line = [goal[i] for i in cells if goal[i]]
                if len(line) > 1 and set(line) <= left:
                    span = f"{line[0]}–{line[-1]}" if _runs(line) else _and(line)
                    parts.append(f"put {span} in the {name[k]} {axis}")
                    left -= set(line)
        if len(left) == 1:
            (t,) = left
            r, c = divmod(goal.index(t), n)
            parts.append(f"put tile {t} in its place ({cell_name(r, c)})")
        elif left:
            parts.append(f"put tiles {_and(sorted(left))} in their places")
        return " and ".join(parts)

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


# --- generator -------------------------------------------------------------------------------
_ROWS = {3: ("top", "middle", "bottom"), 4: ("top", "second", "third", "bottom")}
_COLUMNS = {3: ("left", "middle", "right"), 4: ("left", "second", "third", "right")}


def _and(xs: Sequence[int]) -> str:
    """ "3", "3 and 7", "3, 7 and 8"."""
    words = [str(x) for x in xs]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _runs(xs: Sequence[int]) -> bool:
    """Do ``xs`` count up by one (1, 2, 3, 4)?"""
    return all(b == a + 1 for a, b in zip(xs, xs[1:], strict=False))


def _scramble(
    n: int, length: int, rng: np.random.Generator, bias: int = 0, goal: State | None = None
) -> State:
    """A random walk of the gap from the goal (``goal``, None: the standard one), never straight
    back; with ``bias`` percent chance per step it picks among the tiles that would move away
    from home."""
    T = tables(n, goal)
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


# --- the source's custom puzzles: a chosen board, depth and goal ----------------------------
#: The optimal move counts (the scramble's depth: steps from the goal) a player may ask of a
#: custom board, per side. Within them every goal gives a board in a few attempts (checked over
#: every depth and named goal by the tests); deeper 15-puzzles would need the generator's
#: robustness probes and take seconds.
CUSTOM_DEPTH: dict[int, tuple[int, int]] = {3: (1, 24), 4: (1, 30)}
#: The sides a custom board may have.
CUSTOM_SIDES = (3, 4)
CUSTOM_ATTEMPTS = 600
#: The goals a player may name (besides one written out tile by tile).
GOALS = ("standard", "spiral", "snake", "reverse")


def named_goal(name: str, n: int) -> State:
    """The goal called ``name`` on an ``n × n`` board: ``standard`` (1.. in reading order, the
    gap last), ``spiral`` (1.. clockwise round the frame inwards, the gap where it ends),
    ``snake`` (rows read left to right, then right to left, in turn) or ``reverse`` (the tiles
    counting down, the gap last). ValueError for another name."""
    cells: list[int]
    if name == "standard":
        return standard_goal(n)
    if name == "reverse":
        return tuple(range(n * n - 1, 0, -1)) + (0,)
    if name == "snake":
        cells = [r * n + (c if r % 2 == 0 else n - 1 - c) for r in range(n) for c in range(n)]
    elif name == "spiral":
        cells = []
        top, left, bottom, right = 0, 0, n - 1, n - 1
        while top <= bottom and left <= right:
            cells += [top * n + c for c in range(left, right + 1)]
            cells += [r * n + right for r in range(top + 1, bottom + 1)]
            if top < bottom:
                cells += [bottom * n + c for c in range(right - 1, left - 1, -1)]
            if left < right:
                cells += [r * n + left for r in range(bottom - 1, top, -1)]
            top, left, bottom, right = top + 1, left + 1, bottom - 1, right - 1
    else:
        raise ValueError(f"unknown goal {name!r}: one of {', '.join(GOALS)}")
    board = [0] * (n * n)
    for t, cell in enumerate(cells[:-1], 1):
        board[cell] = t
    return tuple(board)


def generate_custom(
    difficulty: str,
    seed: int,
    *,
    size: int | None = None,
    depth: int | None = None,
    goal: State | None = None,
) -> Sliding:
    """A sliding puzzle of a player's choosing: an ``size × size`` board (the level's when
    None) whose goal is ``goal`` (None: the standard order) and whose TRUE optimal move count
    is ``depth`` (when None, drawn from the level's par range within the bounds).

    Random walks from the goal (biased away from it on the 15-puzzle), each measured by IDA*
    within a node limit, until one lies exactly ``depth`` moves away. Its own random stream
    (``puzzle:sliding:<level>:custom``): the level's boards are not touched. ValueError for
    options outside :data:`CUSTOM_SIDES`, :data:`CUSTOM_DEPTH` or a goal that is not a
    permutation of the board's tiles."""
    check_difficulty(difficulty)
    n = SIZE[difficulty] if size is None else size
    if n not in CUSTOM_SIDES:
        raise ValueError(f"a sliding board is {' or '.join(f'{k}x{k}' for k in CUSTOM_SIDES)}")
    if goal is not None and sorted(goal) != list(range(n * n)):
        raise ValueError(f"the goal must hold each number 0..{n * n - 1} once")
    target = None if goal is None or goal == standard_goal(n) else tuple(goal)
    lo, hi = CUSTOM_DEPTH[n]
    rng = seeds.stream(seed, 0, f"puzzle:sliding:{difficulty}:custom")
    if depth is None:
        p_lo, p_hi = PAR[difficulty]
        d_lo, d_hi = max(lo, min(p_lo, hi)), min(hi, p_hi)
        depth = int(rng.integers(d_lo, d_hi + 1))
    if not lo <= depth <= hi:
        raise ValueError(f"a {n}x{n} sliding board's depth is {lo} to {hi} moves")
    bias = AWAY_BIAS["very-hard"] if n == 4 else 0
    for _ in range(CUSTOM_ATTEMPTS):
        extra = 2 * int(rng.integers(0, 1 + depth // 3))
        start = _scramble(n, depth + extra, rng, bias, target)
        p = Sliding(n, start, difficulty, target=target)
        if p.heuristic(start) > depth:
            continue
        try:
            plan = p.solve(start, budget=GEN_NODE_LIMIT)
        except SearchLimit:
            continue
        if plan is None or len(plan) != depth:
            continue
        out = Sliding(n, start, difficulty, depth, target)
        out._known.update(p._known)
        return out
    raise GenerationError(
        f"no {n}x{n} sliding puzzle {depth} moves deep in {CUSTOM_ATTEMPTS} tries"
    )


# --- the record every layer reads ------------------------------------------------------------
def greedy(p: Sliding, s: State) -> float:
    """The difficulty score's naive measure: the Manhattan distance (every tile's steps from
    its home, in the standard order or the puzzle's own goal)."""
    if p.target is not None:
        md = p.tables().md
        return float(sum(md[v][i] for i, v in enumerate(s) if v))
    n = p.size
    total = 0
    for i, v in enumerate(s):
        if v:
            total += abs(i // n - (v - 1) // n) + abs(i % n - (v - 1) % n)
    return float(total)


TYPE: PuzzleType[Sliding, State, Move] = PuzzleType(
    name=Sliding.type_name,
    generate=generate,
    from_json=Sliding.from_json,
    par=PAR,
    rules=RULES,
    hint_budget=HINT_BUDGET,
    calibration=Calibration(greedy=greedy, attempts=4, limited=True),
)
