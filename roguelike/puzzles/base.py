"""The protocol every puzzle type implements, and the helpers they share.

A puzzle *instance* is an immutable configuration (a frozen dataclass) plus a hashable,
immutable *state*; a *move* is a small immutable value (int, tuple). The game keeps the current
state and asks the instance what it may do with it:

- ``initial()``                 the state the player starts from;
- ``moves(s)``                  the legal moves in a fixed, deterministic order;
- ``apply(s, m)``               the next state; raises :class:`IllegalMove` for an illegal move;
- ``is_solved(s)``              the goal test;
- ``solve(s, budget=None)``     an OPTIMAL move list from ``s`` (None when ``s`` cannot be solved);
                                with a ``budget`` (a count of search nodes or states, never
                                seconds, so every machine agrees) it raises :class:`SearchLimit`
                                when the optimum is not proven within it;
- ``describe_move(m, s=None)``  words for a hint ("pour jug A into jug C");
- ``render_text(s)``            the board in state ``s`` as plain text, with the goal (the CLI's
                                ``--format text`` and the puzzle screen's fallback);
- ``nudge(s, tier)``            a weaker hint in words, computed from ``s``: tier 1 names
                                something to act on (a jug, tiles, a row, a piece, a key), tier 2
                                says more; then comes the milestone (tier 3) and the move itself
                                (tier 4, see :func:`roguelike.puzzles.hint_text`);
- ``facts(s)``                  what holds in ``s`` that a milestone may name (hashable tokens:
                                "jug B holds 2 L", "tile 3 is in its place", "door 2 is open");
- ``milestone_words(new, s, plan, at)``  words for reaching the facts ``new`` (none true in
                                ``s``) by step ``at`` of ``plan`` from ``s``: "get 2 L into jug
                                B" (see :func:`roguelike.puzzles.milestone`);
- ``dead_ends``                 True when some move can leave the goal out of reach (then
                                ``solve`` returns None), False when every move can be undone;
- ``to_json()`` / ``from_json``  the instance (see below); ``state_to_json`` /
  ``state_from_json`` and ``move_to_json`` / ``move_from_json`` for saved progress.

A generator's ``par`` is the TRUE optimal move count from the initial state, which it computes
with the exact solver and checks against the type's ``PAR`` table; how hard a level is, is
measured by :mod:`roguelike.puzzles.difficulty`.

JSON of an instance (stable; every value is a plain int, str, bool, list or dict)::

    {"format": 1, "type": "jugs", "difficulty": "easy", "par": 5,
     "config": {...type specific...}, "state": <state_to_json(initial())>}
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeGuard, TypeVar, runtime_checkable

import numpy as np

from roguelike import seeds

FORMAT = 1
DIFFICULTIES: tuple[str, ...] = ("easy", "medium", "hard", "very-hard")

S = TypeVar("S", bound=Hashable)
M = TypeVar("M")
P = TypeVar("P")


class IllegalMove(ValueError):
    """A move that the rules do not allow in the given state."""


class Unsolvable(ValueError):
    """The state can no longer reach the goal (only possible in jugs and keydoor)."""


class PuzzleFormatError(ValueError):
    """A JSON document that does not describe a puzzle of this format."""


class SearchLimit(RuntimeError):
    """A solver's node budget ran out before it proved an optimal plan (see ``solve``)."""


#: The node budget of a whole solve of a document a person hands in (``puzzle solve``, the par
#: check of ``puzzle play --file``): past it the document is refused as too large to solve, so a
#: hand-written 15-puzzle far from its goal answers in seconds rather than never.
SOLVE_BUDGET = 200_000

#: The node budget of a hint (:func:`roguelike.puzzles.advise`): nodes or states a type's
#: search may visit before the hint falls back to a known, not proven shortest, route.
HINT_BUDGET = 6000


@dataclass(frozen=True)
class Advice:
    """A hint from one state (see :func:`roguelike.puzzles.advise`).

    ``move``: the move to make (None at the goal, or when the advice is to undo);
    ``exact``: ``move`` starts a PROVEN shortest plan and ``moves_left`` is its length;
    otherwise ``moves_left`` is None and the advice is a known route, not proven shortest:
    ``route_len`` moves from here on a route whose first move is ``move``, and/or ``undo``
    moves to take back to rejoin a state ``undo_left`` moves from the goal (a proven figure).
    ``text``: the advice in words.
    """

    move: Any
    exact: bool
    text: str
    moves_left: int | None = None
    route_len: int | None = None
    undo: int = 0
    undo_left: int | None = None
    #: the moves ahead on the plan or route that ``move`` starts (empty when there is none)
    plan: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Milestone:
    """The next intermediate goal on a plan (see :func:`roguelike.puzzles.milestone`).

    ``facts``: what holds from step ``steps`` of ``plan`` to its end (tokens of the type's
    ``facts``; not all of them hold now); ``text``: the goal in words ("First get 2 L into jug
    B ..."); ``steps``: the moves along ``plan`` that reach it (fewer than the plan's length);
    ``exact``: ``plan`` is a proven shortest one (else a known route)."""

    facts: frozenset[Hashable]
    text: str
    steps: int
    plan: tuple[Any, ...]
    exact: bool


class GenerationError(RuntimeError):
    """The generator found no instance in its (deterministic) budget of attempts."""


@runtime_checkable
class Puzzle(Protocol[S, M]):
    """What every puzzle type offers (see the module docstring)."""

    type_name: ClassVar[str]
    dead_ends: ClassVar[bool]

    @property
    def difficulty(self) -> str: ...
    @property
    def par(self) -> int: ...

    def initial(self) -> S: ...
    def moves(self, s: S) -> list[M]: ...
    def apply(self, s: S, m: M) -> S: ...
    def is_solved(self, s: S) -> bool: ...
    def solve(self, s: S, budget: int | None = None) -> list[M] | None: ...
    def describe_move(self, m: M, s: S | None = None) -> str: ...
    def nudge(self, s: S, tier: int) -> str: ...
    def facts(self, s: S) -> frozenset[Hashable]: ...
    def milestone_words(
        self, new: frozenset[Hashable], s: S, plan: Sequence[M], at: int
    ) -> str: ...
    def render_text(self, s: S) -> str: ...
    def to_json(self) -> dict[str, Any]: ...
    def state_to_json(self, s: S) -> Any: ...
    def state_from_json(self, d: Any) -> S: ...
    def move_to_json(self, m: M) -> Any: ...
    def move_from_json(self, d: Any) -> M: ...


@dataclass(frozen=True, kw_only=True)
class Calibration(Generic[P, S, M]):
    """How :mod:`roguelike.puzzles.difficulty` scores a type, and how generation draws its
    instances into the score bands.

    ``greedy``: the naive measure of a state a player's greedy rule follows (lower looks
    better); ``attempts``: the instances generation draws at most (the seed, then derived
    seeds) to land in the level's band, many where an instance is cheap, few where one costs
    most of the time budget (1: never measured); ``unbanded``: levels generated as the
    generator gives them, not drawn into the bands; ``limited``: the type's solver is an IDA*
    search that can grow without end from a far state, so each off-line solve of the measure
    gets a node limit; ``successor``: ``apply`` without its checks, for a move ``moves``
    listed (a cheaper measurement; None: ``apply``); ``banded``: the generator itself keeps
    only instances whose score lies in the level's band (keydoor: it measures each candidate
    before clingo's costlier proof), so generation takes its first instance unmeasured."""

    greedy: Callable[[P, S], float]
    attempts: int
    unbanded: frozenset[str] = frozenset()
    limited: bool = False
    successor: Callable[[P, S, M], S] | None = None
    banded: bool = False

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError("a type draws at least one instance")
        if not self.unbanded <= set(DIFFICULTIES):
            raise ValueError(f"unknown levels in unbanded: {sorted(self.unbanded)}")


@dataclass(frozen=True, kw_only=True)
class PuzzleType(Generic[P, S, M]):
    """Everything the other layers know of one puzzle type, declared once in its module
    (``TYPE``) and listed once in :data:`roguelike.puzzles.registry.REGISTRY`.

    ``name``: the type's name (its class's ``type_name``, the ``type`` of its JSON, the
    ``type:`` of a puzzle code); ``generate(difficulty, seed)``: one instance, the true par
    in ``par[difficulty]`` (:func:`roguelike.puzzles.generate` draws it into the level's score
    band); ``from_json``: the instance a ``to_json()`` document describes; ``par``: per level,
    the lowest and highest optimal move count of a generated instance; ``rules``: the rules in a
    few lines, for players (the puzzle screen's ``?``); ``hint_budget``: the node budget of a
    hint (:func:`roguelike.puzzles.advise`); ``calibration``: its difficulty score's measure and
    draws (:class:`Calibration`)."""

    name: str
    generate: Callable[[str, int], P]
    from_json: Callable[[Any], P]
    par: Mapping[str, tuple[int, int]]
    rules: str
    hint_budget: int
    calibration: Calibration[P, S, M]

    def __post_init__(self) -> None:
        if set(self.par) != set(DIFFICULTIES):
            raise ValueError(f"{self.name}: par needs one range per level {DIFFICULTIES}")
        if any(not 0 <= lo <= hi for lo, hi in self.par.values()):
            raise ValueError(f"{self.name}: a par range runs from its lowest to its highest")
        if not self.rules.strip():
            raise ValueError(f"{self.name}: the rules are empty")
        if self.hint_budget < 1:
            raise ValueError(f"{self.name}: a hint needs a node budget")


def rng_for(type_name: str, difficulty: str, seed: int) -> np.random.Generator:
    """The generator's random stream: ``stream(seed, 0, "puzzle:<type>:<difficulty>")``."""
    return seeds.stream(seed, 0, f"puzzle:{type_name}:{difficulty}")


def check_difficulty(difficulty: str) -> None:
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}: one of {', '.join(DIFFICULTIES)}")


def envelope(p: Any, config: dict[str, Any]) -> dict[str, Any]:
    """The common JSON frame of an instance."""
    return {
        "format": FORMAT,
        "type": p.type_name,
        "difficulty": p.difficulty,
        "par": p.par,
        "config": config,
        "state": p.state_to_json(p.initial()),
    }


def open_envelope(d: Any, type_name: str) -> tuple[str, int, dict[str, Any], Any]:
    """(difficulty, par, config, state) of a JSON frame; raises PuzzleFormatError."""
    if not isinstance(d, dict):
        raise PuzzleFormatError("a puzzle is a JSON object")
    if d.get("format") != FORMAT:
        raise PuzzleFormatError(f"unknown puzzle format {d.get('format')!r}, expected {FORMAT}")
    if d.get("type") != type_name:
        raise PuzzleFormatError(f"not a {type_name} puzzle: type {d.get('type')!r}")
    difficulty = d.get("difficulty")
    if difficulty not in DIFFICULTIES:
        raise PuzzleFormatError(f"unknown difficulty {difficulty!r}")
    par = d.get("par")
    if not is_int(par) or par < 0:
        raise PuzzleFormatError(f"par must be a non-negative integer, got {par!r}")
    config = d.get("config")
    if not isinstance(config, dict):
        raise PuzzleFormatError("config must be an object")
    return difficulty, par, config, d.get("state")


def check_par(p: Any) -> None:
    """Refuse (PuzzleFormatError) an instance whose ``par`` is not the solver's optimum from its
    start, or whose start cannot reach the goal: a par in a document is checked, never trusted,
    before the document is played (``puzzle play --file``). ``from_json`` does not check it, as
    ``puzzle solve`` reads documents whose state is not the start."""
    try:
        plan = p.solve(p.initial(), SOLVE_BUDGET)
    except SearchLimit:
        raise PuzzleFormatError(
            f"its par cannot be checked: no plan within {SOLVE_BUDGET} search nodes"
        ) from None
    except Unsolvable as e:
        raise PuzzleFormatError(str(e)) from None
    if plan is None:
        raise PuzzleFormatError("this puzzle cannot be solved from its start")
    if len(plan) != p.par:
        raise PuzzleFormatError(f"par {p.par} is wrong: the optimum from the start is {len(plan)}")


def bfs_plan(
    start: S,
    moves: Callable[[S], Iterable[M]],
    apply: Callable[[S, M], S],
    is_solved: Callable[[S], bool],
    max_states: int | None = None,
    budget: int | None = None,
) -> list[M] | None:
    """A shortest move list from ``start`` to a solved state by breadth-first search.

    Moves are tried in the order ``moves`` gives, so the plan is deterministic. Returns None
    when no solved state is reachable (or ``max_states`` states were seen without one); raises
    :class:`SearchLimit` once more than ``budget`` states were seen without an answer.
    """
    if is_solved(start):
        return []
    parent: dict[S, tuple[S, M] | None] = {start: None}
    frontier: deque[S] = deque([start])
    while frontier:
        s = frontier.popleft()
        for m in moves(s):
            t = apply(s, m)
            if t in parent:
                continue
            parent[t] = (s, m)
            if is_solved(t):
                return _plan_to(parent, t)
            if max_states is not None and len(parent) >= max_states:
                return None
            if budget is not None and len(parent) > budget:
                raise SearchLimit(f"no shortest plan within {budget} states")
            frontier.append(t)
    return None


def _plan_to(parent: dict[S, tuple[S, M] | None], end: S) -> list[M]:
    """The moves from the search's start to ``end``, by following ``parent`` back."""
    plan: list[M] = []
    cur = end
    while (link := parent[cur]) is not None:
        cur, mv = link
        plan.append(mv)
    return plan[::-1]


def bfs_pairs(
    start: S,
    successors: Callable[[S], Iterable[tuple[M, S]]],
    is_solved: Callable[[S], bool],
    budget: int | None = None,
    within: tuple[int, Callable[[S], int]] | None = None,
) -> list[M] | None:
    """:func:`bfs_plan` for a type that lists each move with the state it leads to (one call
    per state, not one per move): the same search, the same plan.

    ``within``: (the optimum's length, known; ``h``, a lower bound on the moves left that is 0
    when solved): a state whose depth plus ``h`` passes that length is left out, which gives
    the same plan from fewer states. Every predecessor of a state on a shortest plan, one
    layer before it, lies on a shortest plan too, so no state of one is left out, each is
    found from the same parent in the same order, and so is the first solved state."""
    if is_solved(start):
        return []
    parent: dict[S, tuple[S, M] | None] = {start: None}
    frontier: deque[tuple[S, int]] = deque([(start, 0)])
    while frontier:
        s, depth = frontier.popleft()
        for m, t in successors(s):
            if t in parent:
                continue
            if within is not None and depth + 1 + within[1](t) > within[0]:
                continue
            parent[t] = (s, m)
            if is_solved(t):
                return _plan_to(parent, t)
            if budget is not None and len(parent) > budget:
                raise SearchLimit(f"no shortest plan within {budget} states")
            frontier.append((t, depth + 1))
    return None


def astar_distance(
    start: S,
    successors: Callable[[S], Iterable[tuple[Any, S]]],
    is_solved: Callable[[S], bool],
    h: Callable[[S], int],
    bound: int | None = None,
) -> int | None:
    """The exact number of moves from ``start`` to a solved state (None: none is reachable, or
    none within ``bound`` moves), by A* with ``h``, a consistent lower bound (at most 1 + ``h``
    of any successor, 0 when solved): the breadth-first search's answer, from fewer states.
    States are compared to break ties."""
    best: dict[S, int] = {start: 0}
    heap: list[tuple[int, int, S]] = [(h(start), 0, start)]
    while heap:
        f, neg, s = heapq.heappop(heap)
        if bound is not None and f > bound:
            return None  # every plan left is longer than the bound
        g = -neg
        if g > best[s]:
            continue  # reached again by a shorter way since this entry was pushed
        if is_solved(s):
            return g
        for _, t in successors(s):
            if g + 1 < best.get(t, g + 2):
                best[t] = g + 1
                heapq.heappush(heap, (g + 1 + h(t), -g - 1, t))
    return None


def distances(
    sources: Iterable[S], neighbours: Callable[[S], Iterable[S]], limit: int | None = None
) -> dict[S, int] | None:
    """Breadth-first distances from ``sources``; None if more than ``limit`` states are seen."""
    dist: dict[S, int] = {}
    frontier: deque[S] = deque()
    for s in sources:
        if s not in dist:
            dist[s] = 0
            frontier.append(s)
    while frontier:
        s = frontier.popleft()
        d = dist[s] + 1
        for t in neighbours(s):
            if t not in dist:
                dist[t] = d
                if limit is not None and len(dist) > limit:
                    return None
                frontier.append(t)
    return dist


def in_range(par: int, bounds: tuple[int, int]) -> bool:
    return bounds[0] <= par <= bounds[1]


def ordinal_letter(i: int) -> str:
    """Jug / piece names: A, B, C, ..."""
    return chr(ord("A") + i)


def is_int(v: Any) -> TypeGuard[int]:
    """Is ``v`` a JSON integer (an int, and not a bool, which Python counts as one)?"""
    return isinstance(v, int) and not isinstance(v, bool)


def int_list(v: Any, what: str) -> list[int]:
    if not isinstance(v, list) or not all(is_int(x) for x in v):
        raise PuzzleFormatError(f"{what} must be a list of integers")
    return list(v)


def region_name(r: int, c: int, rows: int, cols: int) -> str:
    """Words for where cell (r, c) lies on a rows × cols board: "top left", "centre", ..."""

    def third(x: int, n: int, words: tuple[str, str, str]) -> str:
        if n <= 2:
            return words[0] if x == 0 else words[2]
        k = 3 * x // n
        return words[min(k, 2)]

    v = third(r, rows, ("top", "middle", "bottom"))
    h = third(c, cols, ("left", "centre", "right"))
    if v == "middle" and h == "centre":
        return "centre"
    if v == "middle":
        return f"middle of the {h} side"
    if h == "centre":
        return f"{v} middle"
    return f"{v} {h} corner"


def side_by_side(blocks: list[list[str]], gap: str = "   ") -> list[str]:
    """Text blocks next to one another, each padded to its widest line (for ``render_text``)."""
    height = max(len(b) for b in blocks)
    widths = [max((len(line) for line in b), default=0) for b in blocks]
    return [
        gap.join(
            (b[i] if i < len(b) else "").ljust(w) for b, w in zip(blocks, widths, strict=True)
        ).rstrip()
        for i in range(height)
    ]


def cell_name(r: int, c: int) -> str:
    """Cell (r, c) in words, counted from 1 as players do: "row 2, column 3"."""
    return f"row {r + 1}, column {c + 1}"
