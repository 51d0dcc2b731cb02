"""Stomp (lights-out): stomping a cell flips it and its four neighbours; match the target.

Generated boards are ``n × n`` (n = 3..5); a hand-written one (the source's custom puzzles) may
be any rectangle of :data:`MIN_SIDE` to :data:`MAX_SIDE` cells a side. A state is an int bitmask
of the lit cells (bit ``r * cols + c``); a move is the cell ``(r, c)`` stomped.

Solver: linear algebra over GF(2). Stomping twice is stomping never and the order never
matters, so a solution is a SET of cells ``x`` with ``A x = state XOR target``. Gaussian
elimination gives one solution and a basis of the null space of ``A`` (dimension 0 for 3×3,
4 for 4×4, 2 for 5×5, at most the shorter side on any rectangle and at most 6 on any board
within the limits, so at most 64 combinations); every solution is the particular one plus a
combination of the basis, so enumerating the combinations gives the MINIMUM-weight set: the
optimal number of stomps.
Ties are broken by the smallest bitmask, so the answer is deterministic.

JSON config: ``{"size": 4, "target": ["#..#", ...]}`` for a square board, or ``{"rows": 3,
"cols": 5, "target": [...]}`` for a rectangle (written so only when it is not square); state: rows
of ``#`` (lit) and ``.``; move: ``[r, c]``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, cast

from roguelike import seeds
from roguelike.puzzles.base import (
    HINT_BUDGET,
    Calibration,
    GenerationError,
    IllegalMove,
    PuzzleFormatError,
    PuzzleType,
    cell_name,
    check_difficulty,
    envelope,
    in_range,
    int_list,
    is_int,
    open_envelope,
    region_name,
    rng_for,
    side_by_side,
)

State = int
Move = tuple[int, int]

#: Optimal stomp counts per difficulty. Set so that the difficulty score (see
#: :mod:`roguelike.puzzles.difficulty`) mostly lands in the level's band: it varies widely at one
#: par (how often the fewest-lit-tiles stomp is wrong), and generation draws again when it misses.
PAR: dict[str, tuple[int, int]] = {
    "easy": (2, 3),
    "medium": (6, 8),  # on 5×5 (a 4×4 board has no unique minimum set of 6 or more stomps)
    "hard": (9, 12),
    "very-hard": (12, 16),
}
SIZE: dict[str, int] = {"easy": 3, "medium": 5, "hard": 5, "very-hard": 5}
#: Whether the target is a random pattern (otherwise every cell dark).
PATTERNED: dict[str, bool] = {"easy": False, "medium": False, "hard": True, "very-hard": True}
ATTEMPTS = 2000
#: The sides a board may have (a hand-written one may be any rectangle within them).
MIN_SIDE = 2
MAX_SIDE = 8

#: The rules in a few lines, for players (the puzzle screen's ``?``).
RULES = """\
A floor of tiles, some lit and some dark. Stomping on a tile flips it and the (up to) four
tiles next to it: lit ones go dark, dark ones light up.

Make the floor look like the target pattern, with as few stomps as you can. Stomping a tile
twice undoes it, and the order of the stomps does not matter."""


@cache
def toggles(n: int, cols: int | None = None) -> tuple[int, ...]:
    """The bitmask each stomp flips on an ``n × cols`` board (``cols`` None: square)."""
    m_cols = n if cols is None else cols
    out = []
    for r in range(n):
        for c in range(m_cols):
            m = 1 << (r * m_cols + c)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < n and 0 <= cc < m_cols:
                    m |= 1 << (rr * m_cols + cc)
            out.append(m)
    return tuple(out)


@cache
def _elimination(
    n: int, cols: int | None = None
) -> tuple[tuple[tuple[int, int, int], ...], tuple[int, ...], tuple[int, ...]]:
    """Row-reduce A once per board shape (``n × cols``; ``cols`` None: square).

    Returns (pivot rows, zero-row combos, null basis): each pivot row is (pivot variable,
    the row's variable mask after reduction, the combination of original equations giving it);
    zero-row combos are equation combinations that must sum to 0 for a solution to exist; the
    null basis holds the variable masks that flip nothing.
    """
    size = n * (n if cols is None else cols)
    T = toggles(n, cols)
    # equation j: sum over i of A[j][i] x_i = b_j, A symmetric, so its variable mask is T[j]
    rows = [[T[j], 1 << j] for j in range(size)]
    pivots: list[int] = []
    r = 0
    for col in range(size):
        sel = next((k for k in range(r, size) if rows[k][0] >> col & 1), None)
        if sel is None:
            continue
        rows[r], rows[sel] = rows[sel], rows[r]
        for k in range(size):
            if k != r and rows[k][0] >> col & 1:
                rows[k][0] ^= rows[r][0]
                rows[k][1] ^= rows[r][1]
        pivots.append(col)
        r += 1
    pivot_rows = tuple((pivots[i], rows[i][0], rows[i][1]) for i in range(r))
    zero_combos = tuple(rows[i][1] for i in range(r, size))
    pivot_set = set(pivots)
    basis = []
    for f in range(size):
        if f in pivot_set:
            continue
        x = 1 << f
        for pcol, mask, _combo in pivot_rows:
            if mask >> f & 1:
                x |= 1 << pcol
        basis.append(x)
    return pivot_rows, zero_combos, tuple(basis)


def _parity(x: int) -> int:
    return x.bit_count() & 1


def solutions(n: int, diff: int, cols: int | None = None) -> list[int]:
    """Every stomp set that flips exactly the cells ``diff`` (empty if none does) on an
    ``n × cols`` board (``cols`` None: square)."""
    pivot_rows, zero_combos, basis = _elimination(n, cols)
    if any(_parity(combo & diff) for combo in zero_combos):
        return []
    x = 0
    for pcol, _mask, combo in pivot_rows:
        if _parity(combo & diff):
            x |= 1 << pcol
    out = []
    for k in range(1 << len(basis)):
        y = x
        for i, b in enumerate(basis):
            if k >> i & 1:
                y ^= b
        out.append(y)
    return out


def best_solutions(n: int, diff: int, cols: int | None = None) -> list[int]:
    """The minimum-weight stomp sets for ``diff``, smallest bitmask first."""
    sols = solutions(n, diff, cols)
    if not sols:
        return []
    w = min(s.bit_count() for s in sols)
    return sorted(s for s in sols if s.bit_count() == w)


@dataclass(frozen=True)
class Stomp:
    size: int
    start: State
    target: State
    difficulty: str = "easy"
    par: int = 0
    #: columns, for a rectangular board (None: square, ``size`` columns); ``size`` is the rows
    width: int | None = None

    type_name: ClassVar[str] = "stomp"
    #: Can a move leave the goal out of reach? (every move can be undone)
    dead_ends: ClassVar[bool] = False

    def __post_init__(self) -> None:
        if not (MIN_SIDE <= self.size <= MAX_SIDE and MIN_SIDE <= self.n_cols <= MAX_SIDE):
            raise ValueError(f"stomp boards are {MIN_SIDE} to {MAX_SIDE} tiles on a side")
        if self.width == self.size:
            object.__setattr__(self, "width", None)  # a square board has one form
        full = (1 << self.size * self.n_cols) - 1
        if not (0 <= self.start <= full and 0 <= self.target <= full):
            raise ValueError("a pattern does not fit the board")

    @property
    def n_rows(self) -> int:
        return self.size

    @property
    def n_cols(self) -> int:
        return self.size if self.width is None else self.width

    @property
    def _shape(self) -> int | None:
        """The ``cols`` argument of the solver's functions (None: square)."""
        return None if self.n_cols == self.size else self.n_cols

    # --- rules -----------------------------------------------------------------------------
    def initial(self) -> State:
        return self.start

    def moves(self, s: State) -> list[Move]:
        return [(r, c) for r in range(self.n_rows) for c in range(self.n_cols)]

    def apply(self, s: State, m: Move) -> State:
        try:
            r, c = m
        except (TypeError, ValueError):
            raise IllegalMove(f"a stomp is a cell (row, column), got {m!r}") from None
        if not (
            isinstance(r, int)
            and isinstance(c, int)
            and 0 <= r < self.n_rows
            and 0 <= c < self.n_cols
        ):
            raise IllegalMove(f"cell {m!r} is off the board")
        return s ^ toggles(self.size, self._shape)[r * self.n_cols + c]

    def is_solved(self, s: State) -> bool:
        return s == self.target

    def solve(self, s: State, budget: int | None = None) -> list[Move] | None:
        """The smallest stomp set, by linear algebra over GF(2): no search, so no ``budget``
        can run out."""
        best = best_solutions(self.size, s ^ self.target, self._shape)
        if not best:
            return None
        x = best[0]
        w = self.n_cols
        return [divmod(i, w) for i in range(self.size * w) if x >> i & 1]  # type: ignore[misc]

    def unique(self) -> bool:
        """Exactly one minimum set of stomps solves the initial board."""
        return len(best_solutions(self.size, self.start ^ self.target, self._shape)) == 1

    # --- words -----------------------------------------------------------------------------
    def describe_move(self, m: Move, s: State | None = None) -> str:
        return f"stomp the cell at {cell_name(*m)}"

    def nudge(self, s: State, tier: int) -> str:
        plan = self.solve(s, HINT_BUDGET)  # raises SearchLimit past it
        if plan is None:
            return "This pattern cannot be reached from here."
        if not plan:
            return "The board already matches the target."
        r, c = plan[0]
        rows, cols = self.n_rows, self.n_cols
        first = (
            f"{len(plan)} stomp{'s are' if len(plan) != 1 else ' is'} enough, in any order; "
            f"one of them is in row {r + 1}, in the {region_name(r, c, rows, cols)} of the board."
        )
        if tier <= 1:
            return first
        # tier 2 repeats tier 1 and adds to it: where a second stomp is, or the one cell itself
        if len(plan) == 1:
            return f"{first} It is the cell at {cell_name(r, c)}."
        r2, c2 = plan[-1]
        return f"{first} Another is in row {r2 + 1}, in the {region_name(r2, c2, rows, cols)}."

    def facts(self, s: State) -> frozenset[Hashable]:
        """What a milestone may name: each cell that matches the target (``("cell", r, c)``)."""
        w, diff = self.n_cols, s ^ self.target
        return frozenset(
            ("cell", r, c)
            for r in range(self.n_rows)
            for c in range(w)
            if not diff >> (r * w + c) & 1
        )

    def milestone_words(
        self, new: frozenset[Hashable], s: State, plan: Sequence[Move], at: int
    ) -> str:
        """ "make rows 1 and 2 match the target" when whole rows settle (no later stomp
        touches them), else "make the cell at row 3, column 2 match the target"."""
        cur = s
        for m in plan[:at]:
            cur = self.apply(cur, m)
        later = 0
        for m in plan[at:]:
            later |= toggles(self.size, self._shape)[m[0] * self.n_cols + m[1]]
        now = self.facts(cur)
        w = self.n_cols
        cells = {cast(tuple[str, int, int], f)[1:] for f in new}
        done = [
            r
            for r in range(self.n_rows)
            if any(rr == r for rr, _c in cells)
            and all(("cell", r, c) in now and not later >> (r * w + c) & 1 for c in range(w))
        ]
        parts = []
        if done:
            nums = [str(r + 1) for r in done]
            which = nums[0] if len(nums) == 1 else ", ".join(nums[:-1]) + " and " + nums[-1]
            parts.append(f"make row{'s' if len(done) > 1 else ''} {which} match the target")
        rest = sorted((r, c) for r, c in cells if r not in done)
        if len(rest) == 1:
            parts.append(f"make the cell at {cell_name(*rest[0])} match the target")
        elif rest:
            parts.append(
                f"make {len(rest)} cells match the target, the first at {cell_name(*rest[0])}"
            )
        return " and ".join(parts)

    # --- JSON ------------------------------------------------------------------------------
    def rows(self, s: State) -> list[str]:
        w = self.n_cols
        return [
            "".join("#" if s >> (r * w + c) & 1 else "." for c in range(w))
            for r in range(self.n_rows)
        ]

    def render_text(self, s: State) -> str:
        """The board in state ``s`` beside the target, as plain text."""
        lines = side_by_side([["now", *self.rows(s)], ["target", *self.rows(self.target)]])
        lines.append("# lit, . dark; stomping a cell flips it and its four neighbours")
        return "\n".join(lines)

    def parse_rows(self, d: Any) -> State:
        h, w = self.n_rows, self.n_cols
        if not (
            isinstance(d, list)
            and len(d) == h
            and all(isinstance(x, str) and len(x) == w for x in d)
        ):
            raise PuzzleFormatError(f"a pattern is {h} strings of {w} characters")
        s = 0
        for r, line in enumerate(d):
            for c, ch in enumerate(line):
                if ch == "#":
                    s |= 1 << (r * w + c)
                elif ch != ".":
                    raise PuzzleFormatError(f"pattern character {ch!r}: use # or .")
        return s

    def to_json(self) -> dict[str, Any]:
        shape: dict[str, Any] = (
            {"size": self.size}
            if self._shape is None
            else {"rows": self.n_rows, "cols": self.n_cols}
        )
        return envelope(self, {**shape, "target": self.rows(self.target)})

    @classmethod
    def from_json(cls, d: Any) -> Stomp:
        difficulty, par, config, state = open_envelope(d, cls.type_name)
        if "size" in config:
            rows = cols = config["size"]
            if "rows" in config or "cols" in config:
                raise PuzzleFormatError("give a stomp board's size, or its rows and cols")
        else:
            rows, cols = config.get("rows"), config.get("cols")
        for v in (rows, cols):
            if not (is_int(v) and MIN_SIDE <= v <= MAX_SIDE):
                raise PuzzleFormatError(
                    f"bad stomp board side {v!r}: {MIN_SIDE} to {MAX_SIDE} tiles"
                )
        width = None if cols == rows else cols
        shell = cls(rows, 0, 0, width=width)
        start, target = shell.parse_rows(state), shell.parse_rows(config.get("target"))
        out = cls(rows, start, target, difficulty, par, width)
        return out

    def state_to_json(self, s: State) -> list[str]:
        return self.rows(s)

    def state_from_json(self, d: Any) -> State:
        return self.parse_rows(d)

    def move_to_json(self, m: Move) -> list[int]:
        return [m[0], m[1]]

    def move_from_json(self, d: Any) -> Move:
        v = int_list(d, "a stomp")
        if len(v) != 2:
            raise PuzzleFormatError("a stomp is [row, column]")
        return (v[0], v[1])


def generate(difficulty: str, seed: int) -> Stomp:
    """A stomp puzzle whose unique minimum stomp set has a size in ``PAR[difficulty]``.

    A random set of cells of the wanted size is drawn and stomped on the target; the instance
    is kept when that set is the only minimum-weight solution.
    """
    check_difficulty(difficulty)
    rng = rng_for("stomp", difficulty, seed)
    n = SIZE[difficulty]
    lo, hi = PAR[difficulty]
    T = toggles(n)
    for _ in range(ATTEMPTS):
        k = int(rng.integers(lo, hi + 1))
        cells = sorted(int(i) for i in rng.choice(n * n, size=k, replace=False))
        target = int(rng.integers(0, 1 << (n * n))) if PATTERNED[difficulty] else 0
        start = target
        x = 0
        for i in cells:
            start ^= T[i]
            x |= 1 << i
        best = best_solutions(n, start ^ target)
        if best == [x] and in_range(k, (lo, hi)):
            return Stomp(n, start, target, difficulty, k)
    raise GenerationError(f"no stomp puzzle of difficulty {difficulty} in {ATTEMPTS} attempts")


# --- the source's custom puzzles: a chosen board and depth ----------------------------------
#: The sides a custom board may have (any rectangle within them, as in the source's 3×4).
CUSTOM_SIDES = (2, 7)
#: The most stomps a custom board may ask for, on the shapes where some stomp sets are not the
#: only minimum (the others: every cell). Measured: a random set of that many cells is the only
#: minimum in at least one draw in ten, so CUSTOM_ATTEMPTS draws never all miss.
_MOST_STOMPS: dict[tuple[int, int], int] = {
    (2, 3): 1,
    (2, 5): 5,
    (2, 7): 5,
    (3, 5): 5,
    (4, 4): 4,
    (5, 5): 11,
    (5, 7): 13,
}
CUSTOM_ATTEMPTS = 2000


def custom_depths(rows: int, cols: int) -> tuple[int, int]:
    """The stomp counts (the depth: steps from the goal) a ``rows × cols`` board may ask for."""
    return 1, _MOST_STOMPS.get((min(rows, cols), max(rows, cols)), rows * cols)


def generate_custom(
    difficulty: str,
    seed: int,
    *,
    rows: int | None = None,
    cols: int | None = None,
    depth: int | None = None,
) -> Stomp:
    """A stomp puzzle of a player's choosing: a ``rows × cols`` board (the level's square when
    None) whose unique minimum stomp set has ``depth`` cells (when None, drawn from the level's
    par range within :func:`custom_depths`); the target patterned as the level's. Its own
    random stream (``puzzle:stomp:<level>:custom``): the level's boards are not touched.
    ValueError for a side outside :data:`CUSTOM_SIDES` or a depth outside the board's."""
    check_difficulty(difficulty)
    h = SIZE[difficulty] if rows is None else rows
    w = h if cols is None else cols
    lo_side, hi_side = CUSTOM_SIDES
    if not (lo_side <= h <= hi_side and lo_side <= w <= hi_side):
        raise ValueError(f"a stomp board is {lo_side} to {hi_side} tiles a side")
    lo, hi = custom_depths(h, w)
    rng = seeds.stream(seed, 0, f"puzzle:stomp:{difficulty}:custom")
    if depth is None:
        p_lo, p_hi = PAR[difficulty]
        depth = int(rng.integers(max(lo, min(p_lo, hi)), min(hi, p_hi) + 1))
    if not lo <= depth <= hi:
        raise ValueError(f"a {h}x{w} stomp board's depth is {lo} to {hi} stomps")
    shape = None if h == w else w
    T = toggles(h, shape)
    for _ in range(CUSTOM_ATTEMPTS):
        cells = sorted(int(i) for i in rng.choice(h * w, size=depth, replace=False))
        target = int(rng.integers(0, 1 << (h * w))) if PATTERNED[difficulty] else 0
        start, x = target, 0
        for i in cells:
            start ^= T[i]
            x |= 1 << i
        if best_solutions(h, start ^ target, shape) == [x]:
            return Stomp(h, start, target, difficulty, depth, shape)
    raise GenerationError(f"no {h}x{w} stomp puzzle {depth} stomps deep in {CUSTOM_ATTEMPTS} tries")


# --- the record every layer reads ------------------------------------------------------------
def greedy(p: Stomp, s: State) -> float:
    """The difficulty score's naive measure: the number of tiles that differ from the target."""
    return float((s ^ p.target).bit_count())


TYPE: PuzzleType[Stomp, State, Move] = PuzzleType(
    name=Stomp.type_name,
    generate=generate,
    from_json=Stomp.from_json,
    par=PAR,
    rules=RULES,
    hint_budget=HINT_BUDGET,
    calibration=Calibration(greedy=greedy, attempts=40),
)
