"""Water jugs: pour between jugs until the target amounts are measured.

Jugs A, B, C, ... have capacities; by default the first starts full and the others empty, but
any start is allowed (the source's custom puzzles: some jugs already holding water). A move
``(a, b)`` pours jug ``a`` into jug ``b`` until ``a`` is empty or ``b`` is full; no water is
added or spilled, so every state holds the start's total. The target is either a whole vector of
contents (``kind "vector"``, holding that same total) or "some jug holds T litres" (``kind
"any"``).

Solver: breadth-first search. The total is fixed, so the largest jug's content follows from the
others' and there are at most ``prod(capacity + 1)`` states over all jugs but the largest, each
trying ``n (n - 1)`` pours; an instance whose bound on pours (states times pours per state)
exceeds :data:`MAX_POURS` (or with more than :data:`MAX_JUGS` jugs, or a capacity above
:data:`MAX_CAPACITY`) is refused before anything is searched. Generated instances stay below
100,000 (four jugs of at most 21 litres: 7,980 states of 12 pours).

JSON config: ``{"capacities": [8, 5, 3], "target": {"kind": "vector", "amounts": [4, 4, 0]}}``
or ``{"target": {"kind": "any", "amount": 4}}``, and optionally ``"start": [3, 5, 0]`` (absent:
the first jug full, the others empty; it is written only when it differs from that); state: the
list of contents; move: ``[a, b]``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

from roguelike.puzzles.base import (
    HINT_BUDGET,
    Calibration,
    GenerationError,
    IllegalMove,
    PuzzleFormatError,
    PuzzleType,
    bfs_plan,
    check_difficulty,
    envelope,
    in_range,
    int_list,
    open_envelope,
    ordinal_letter,
    rng_for,
)

State = tuple[int, ...]
Move = tuple[int, int]

#: Optimal pour counts per difficulty.
PAR: dict[str, tuple[int, int]] = {
    "easy": (3, 5),
    "medium": (6, 8),
    "hard": (9, 12),
    "very-hard": (13, 18),
}
#: (number of jugs, smallest and largest capacity of the first jug) per difficulty.
SHAPE: dict[str, tuple[int, int, int]] = {
    "easy": (3, 6, 10),
    "medium": (3, 8, 13),
    "hard": (3, 11, 19),
    "very-hard": (4, 12, 21),
}
ATTEMPTS = 400
#: Limits of a hand-written instance (generated ones stay far inside them): jugs, litres per
#: jug, and the bound on pours a search tries (the product of capacity + 1 over all jugs but the
#: largest, times n (n - 1) pours per state).
MAX_JUGS = 8
MAX_CAPACITY = 1000
MAX_POURS = 500_000

#: The rules in a few lines, for players (the puzzle screen's ``?``).
RULES = """\
You have jugs of different sizes and no measuring marks. The first jug starts full, the others
empty (unless the puzzle starts them otherwise).

A pour empties one jug into another until the first is empty or the second is full; no water
is ever added or spilled.

Measure the amount the goal asks for, in as few pours as you can."""


def _pour(caps: tuple[int, ...], s: State, a: int, b: int) -> State:
    amount = min(s[a], caps[b] - s[b])
    out = list(s)
    out[a] -= amount
    out[b] += amount
    return tuple(out)


def _targets_met(target: tuple[str, tuple[int, ...]], s: State) -> bool:
    kind, vals = target
    if kind == "vector":
        return s == vals
    return vals[0] in s


@dataclass(frozen=True)
class Jugs:
    capacities: tuple[int, ...]
    target: tuple[str, tuple[int, ...]]  # ("vector", amounts) or ("any", (T,))
    difficulty: str = "easy"
    par: int = 0
    _cache: dict[State, list[Move] | None] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    #: the contents at the start (None: the first jug full, the others empty)
    start: State | None = None

    type_name: ClassVar[str] = "jugs"
    #: Can a move leave the goal out of reach? (a pour cannot always be undone)
    dead_ends: ClassVar[bool] = True

    def __post_init__(self) -> None:
        caps = self.capacities
        if not 2 <= len(caps) <= MAX_JUGS:
            raise ValueError(f"jugs puzzles have 2 to {MAX_JUGS} jugs")
        if any(not 1 <= c <= MAX_CAPACITY for c in caps):
            raise ValueError(f"a jug holds 1 to {MAX_CAPACITY} litres")
        bound = len(caps) * (len(caps) - 1)
        for c in sorted(caps)[:-1]:
            bound *= c + 1
        if bound > MAX_POURS:
            raise ValueError(
                f"a search of these jugs may try {bound} pours (states times pours per state):"
                f" more than {MAX_POURS}"
            )
        if self.start is not None and (
            len(self.start) != len(caps)
            or any(not 0 <= v <= c for v, c in zip(self.start, caps, strict=True))
        ):
            raise ValueError("the start contents do not fit the jugs")
        if self.start == (caps[0],) + (0,) * (len(caps) - 1):
            object.__setattr__(self, "start", None)  # the standard start has one form
        kind, vals = self.target
        if kind == "vector":
            if len(vals) != len(caps) or any(
                not 0 <= v <= c for v, c in zip(vals, caps, strict=True)
            ):
                raise ValueError("the target vector does not fit the jugs")
            if sum(vals) != self.water:
                raise ValueError("the target vector must hold exactly the water of the start")
        elif kind == "any":
            if len(vals) != 1 or not 0 < vals[0] <= max(caps):
                raise ValueError("an 'any' target is one amount that fits some jug")
        else:
            raise ValueError(f"unknown target kind {kind!r}")

    # --- rules -----------------------------------------------------------------------------
    def initial(self) -> State:
        if self.start is not None:
            return self.start
        return (self.capacities[0],) + (0,) * (len(self.capacities) - 1)

    @property
    def water(self) -> int:
        """The litres in the jugs, the same in every state."""
        return sum(self.initial())

    def moves(self, s: State) -> list[Move]:
        n = len(self.capacities)
        return [
            (a, b)
            for a in range(n)
            for b in range(n)
            if a != b and s[a] > 0 and s[b] < self.capacities[b]
        ]

    def apply(self, s: State, m: Move) -> State:
        n = len(self.capacities)
        try:
            a, b = m
        except (TypeError, ValueError):
            raise IllegalMove(f"a pour is a pair of jugs, got {m!r}") from None
        if not (isinstance(a, int) and isinstance(b, int) and 0 <= a < n and 0 <= b < n):
            raise IllegalMove(f"there is no jug pair {m!r}")
        if a == b:
            raise IllegalMove("a jug cannot be poured into itself")
        if s[a] == 0:
            raise IllegalMove(f"jug {ordinal_letter(a)} is empty")
        if s[b] == self.capacities[b]:
            raise IllegalMove(f"jug {ordinal_letter(b)} is already full")
        return _pour(self.capacities, s, a, b)

    def is_solved(self, s: State) -> bool:
        return _targets_met(self.target, s)

    def solve(self, s: State, budget: int | None = None) -> list[Move] | None:
        """A shortest pour list (breadth-first); raises SearchLimit past ``budget`` states."""
        if s not in self._cache:
            caps = self.capacities
            # the moves are legal by construction, so the search pours without checking them
            plan = bfs_plan(
                s, self.moves, lambda t, m: _pour(caps, t, *m), self.is_solved, budget=budget
            )
            self._cache[s] = plan
        plan = self._cache[s]
        return None if plan is None else list(plan)

    # --- words -----------------------------------------------------------------------------
    def jug_name(self, i: int) -> str:
        return f"jug {ordinal_letter(i)} ({self.capacities[i]} L)"

    def goal_text(self) -> str:
        kind, vals = self.target
        if kind == "any":
            return f"get exactly {vals[0]} L into any one jug"
        parts = ", ".join(f"{ordinal_letter(i)} = {v} L" for i, v in enumerate(vals))
        return f"make the jugs hold {parts}"

    def describe_move(self, m: Move, s: State | None = None) -> str:
        a, b = m
        text = f"pour jug {ordinal_letter(a)} into jug {ordinal_letter(b)}"
        if s is not None:
            amount = min(s[a], self.capacities[b] - s[b])
            text += f" ({amount} L)"
        return text

    def nudge(self, s: State, tier: int) -> str:
        plan = self.solve(s, HINT_BUDGET)  # raises SearchLimit past it
        if plan is None:
            return "From here the target can no longer be measured: start the puzzle again."
        if not plan:
            return "The jugs already hold the target amounts."
        a, _b = plan[0]
        pours = f"{len(plan)} pour{'s are' if len(plan) != 1 else ' is'} enough"
        if tier <= 1:  # something to act on: the jug the next pour starts from
            return f"Your next pour starts from {self.jug_name(a)}; {pours}."
        # tier 2 adds which jug matters: the one that ends up holding the measured amount
        kind, vals = self.target
        final = s
        for m in plan:
            final = _pour(self.capacities, final, *m)
        if kind == "any":
            j = final.index(vals[0])
            return (
                f"Your next pour starts from {self.jug_name(a)}; "
                f"aim to finish with {vals[0]} L in {self.jug_name(j)}."
            )
        changed = [i for i in range(len(s)) if s[i] != final[i]]
        names = " and ".join(ordinal_letter(i) for i in changed)
        jugs = "Jug" if len(changed) == 1 else "Jugs"
        return (
            f"Your next pour starts from {self.jug_name(a)}. "
            f"{jugs} {names} still hold the wrong amounts."
        )

    def facts(self, s: State) -> frozenset[Hashable]:
        """What a milestone may name: each jug's contents (``("jug", i, litres)``)."""
        return frozenset(("jug", i, v) for i, v in enumerate(s))

    def milestone_words(
        self, new: frozenset[Hashable], s: State, plan: Sequence[Move], at: int
    ) -> str:
        """ "get 2 L into jug B", "empty jug A", "fill jug C (5 L)", joined by "and"."""
        parts = []
        for _tag, i, v in sorted(cast(tuple[str, int, int], f) for f in new):
            name = f"jug {ordinal_letter(i)}"
            if v == 0:
                parts.append(f"empty {name}")
            elif v == self.capacities[i]:
                parts.append(f"fill {name} ({v} L)")
            else:
                parts.append(f"get {v} L into {name}")
        return " and ".join(parts)

    def render_text(self, s: State) -> str:
        """The jugs in state ``s`` and the goal, as plain text."""
        lines = [
            f"jug {ordinal_letter(i)}  {cap:>3} L  holds {now} L"
            for i, (cap, now) in enumerate(zip(self.capacities, s, strict=True))
        ]
        lines.append(f"goal: {self.goal_text()}")
        return "\n".join(lines)

    # --- JSON ------------------------------------------------------------------------------
    def config_json(self) -> dict[str, Any]:
        kind, vals = self.target
        target: dict[str, Any] = (
            {"kind": "vector", "amounts": list(vals)}
            if kind == "vector"
            else {"kind": "any", "amount": vals[0]}
        )
        out: dict[str, Any] = {"capacities": list(self.capacities), "target": target}
        if self.start is not None:  # None: the standard start
            out["start"] = list(self.start)
        return out

    def to_json(self) -> dict[str, Any]:
        return envelope(self, self.config_json())

    @classmethod
    def from_json(cls, d: Any) -> Jugs:
        difficulty, par, config, _state = open_envelope(d, cls.type_name)
        caps = tuple(int_list(config.get("capacities"), "capacities"))
        t = config.get("target")
        if not isinstance(t, dict):
            raise PuzzleFormatError("target must be an object")
        if t.get("kind") == "vector":
            target: tuple[str, tuple[int, ...]] = (
                "vector",
                tuple(int_list(t.get("amounts"), "amounts")),
            )
        elif (
            t.get("kind") == "any"
            and isinstance(t.get("amount"), int)
            and not isinstance(t.get("amount"), bool)
        ):
            target = ("any", (t["amount"],))
        else:
            raise PuzzleFormatError(
                "bad target: {'kind': 'vector', 'amounts': [...]} or {'kind': 'any', 'amount': N}"
            )
        start = config.get("start")
        start_state = None if start is None else tuple(int_list(start, "start"))
        if start_state is not None and len(start_state) != len(caps):
            raise PuzzleFormatError("start must give the contents of every jug")
        try:
            out = cls(caps, target, difficulty, par, start=start_state)
        except ValueError as e:
            raise PuzzleFormatError(str(e)) from None
        return out

    def state_to_json(self, s: State) -> list[int]:
        return list(s)

    def state_from_json(self, d: Any) -> State:
        s = tuple(int_list(d, "jug contents"))
        if (
            len(s) != len(self.capacities)
            or sum(s) != self.water
            or any(not 0 <= v <= c for v, c in zip(s, self.capacities, strict=True))
        ):
            raise PuzzleFormatError(f"{list(s)} is not a state of these jugs")
        return s

    def move_to_json(self, m: Move) -> list[int]:
        return [m[0], m[1]]

    def move_from_json(self, d: Any) -> Move:
        v = int_list(d, "a pour")
        if len(v) != 2:
            raise PuzzleFormatError("a pour is [from, to]")
        return (v[0], v[1])


# --- generator -------------------------------------------------------------------------------
def _explore(caps: tuple[int, ...]) -> tuple[dict[State, int], dict[State, int]]:
    """Distances from the start to every reachable state, and the number of shortest paths."""
    start = (caps[0],) + (0,) * (len(caps) - 1)
    dist = {start: 0}
    ways = {start: 1}
    frontier = deque([start])
    n = len(caps)
    while frontier:
        s = frontier.popleft()
        d = dist[s] + 1
        for a in range(n):
            if s[a] == 0:
                continue
            for b in range(n):
                if a == b or s[b] == caps[b]:
                    continue
                t = _pour(caps, s, a, b)
                if t not in dist:
                    dist[t] = d
                    ways[t] = ways[s]
                    frontier.append(t)
                elif dist[t] == d:
                    ways[t] += ways[s]
    return dist, ways


def generate(difficulty: str, seed: int) -> Jugs:
    """A jugs puzzle whose optimal pour count lies in ``PAR[difficulty]``.

    Capacities are drawn from the stream; among the targets whose true distance fits the
    range, those reached by exactly one shortest pour sequence are preferred.
    """
    check_difficulty(difficulty)
    rng = rng_for("jugs", difficulty, seed)
    lo_hi = PAR[difficulty]
    n, cmin, cmax = SHAPE[difficulty]
    for _ in range(ATTEMPTS):
        first = int(rng.integers(cmin, cmax + 1))
        others = sorted({int(x) for x in rng.integers(2, first, size=n - 1)}, reverse=True)
        if len(others) != n - 1:
            continue
        caps = (first, *others)
        dist, ways = _explore(caps)
        # candidate targets: (par, unique?, target)
        cands: list[tuple[bool, tuple[str, tuple[int, ...]]]] = []
        for amount in range(1, first):
            hits = [(d, s) for s, d in dist.items() if amount in s]
            if not hits or amount in caps[1:] or amount == first:
                continue
            best = min(d for d, _ in hits)
            if best == 0 or not in_range(best, lo_hi):
                continue
            count = sum(ways[s] for d, s in hits if d == best)
            cands.append((count == 1, ("any", (amount,))))
        for s, d in sorted(dist.items()):
            if in_range(d, lo_hi) and any(0 < v < c for v, c in zip(s, caps, strict=True)):
                cands.append((ways[s] == 1, ("vector", s)))
        if not cands:
            continue
        unique = [c for c in cands if c[0]]
        pool = unique or cands
        use_any = bool(rng.integers(0, 2))
        kinded = [c for c in pool if (c[1][0] == "any") == use_any] or pool
        target = kinded[int(rng.integers(0, len(kinded)))][1]
        p = Jugs(caps, target, difficulty)
        plan = p.solve(p.initial())
        if plan is None or not in_range(len(plan), lo_hi):  # pragma: no cover - checked above
            continue
        return Jugs(caps, target, difficulty, len(plan))
    raise GenerationError(f"no jugs puzzle of difficulty {difficulty} in {ATTEMPTS} attempts")


# --- the record every layer reads ------------------------------------------------------------
def greedy(p: Jugs, s: State) -> float:
    """The difficulty score's naive measure: how far the contents are from the goal (vector
    goal: the sum of each jug's distance to its amount; "any jug" goal: the closest jug's
    distance to the amount)."""
    kind, vals = p.target
    if kind == "vector":
        return float(sum(abs(a - b) for a, b in zip(s, vals, strict=True)))
    return float(min(abs(a - vals[0]) for a in s))


def successor(p: Jugs, s: State, m: Move) -> State:
    """The pour ``m`` from ``s``, unchecked (a listed move is legal): the measure's ``apply``."""
    return _pour(p.capacities, s, *m)


TYPE: PuzzleType[Jugs, State, Move] = PuzzleType(
    name=Jugs.type_name,
    generate=generate,
    from_json=Jugs.from_json,
    par=PAR,
    rules=RULES,
    hint_budget=HINT_BUDGET,
    calibration=Calibration(greedy=greedy, attempts=8, successor=successor),
)
