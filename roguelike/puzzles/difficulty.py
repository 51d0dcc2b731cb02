"""A difficulty score for every puzzle type, computed through the puzzle protocol.

Par alone (the optimal move count) says how long a puzzle is, not how hard: a long walk whose
every step is the obvious one asks for less thought than a short line of moves that look wrong.
The score measures an optimal line of a puzzle from its start and what a player sees beside it
at every step.

The parts (all from ``initial``/``moves``/``apply``/``is_solved``/``solve``):

- ``length``       the optimal move count (par);
- ``branching``    the mean number of legal moves at the states of the optimal line;
- ``traps``        the mean number, per step, of WRONG moves (moves that do not keep the optimum:
                   they lengthen it or leave the goal out of reach) that look at least as good,
                   by the type's naive greedy measure below, as the best-looking right move;
- ``dead_ends``    the share of those tempting wrong moves that leave the goal out of reach;
- ``non_greedy``   the number of steps whose right moves are all passed over by the greedy rule
                   (no right move is among the moves that look best);
- ``states``       the states this measurement evaluated (its cost, see the budget below).

The greedy rule of a type is "take the move whose next state looks best by a naive measure",
lower being better (its record's ``calibration.greedy``, ``greedy`` in the type's module):

- jugs: how far the contents are from the goal (vector goal: the sum of each jug's distance to
  its amount; "any jug" goal: the closest jug's distance to the amount);
- sliding: the Manhattan distance (every tile's steps from its home);
- stomp: the number of tiles that differ from the target;
- ball: ten times the ball's steps from the exit, plus the cells of other blocks inside the
  rectangle between the ball and the exit (clear the way, then move the ball);
- hatgram: the pieces still in the box, and nothing else: every placement looks as good as any
  other (taking a piece off looks worse). Why no finer rule is below ("Bands");
- keydoor: the rooms still between the player and the goal, less three per opened door and one
  for a key in hand (walk on, pick up keys, open doors as they come).

The score adds, for every step of the optimal line, what the step costs a person::

    step = 1 + log2(1 + traps_i + dead_traps_i) + [non-greedy_i] * log2(branching_i)

The 1 is the move itself. Each tempting wrong move must be told apart from the right one:
``log2(1 + k)`` bits for ``k`` look-alikes, and a tempting move that is a dead end counts
twice (it costs a restart). When the greedy rule points away from every right move, the
player has to drop the naive measure and weigh all ``b`` legal moves: ``log2(b)`` more bits.
So a long but obvious line scores about its length, and a short line of hidden moves among
many scores far above its length. The score is on one scale for every type ("steps of
effort"), which is what makes one table of bands (:data:`BANDS`) possible.

Cost: for a type whose moves can leave the goal out of reach (``dead_ends``: jugs, keydoor; their
solvers search afresh from every state), when the states reachable from the start are at most
:data:`EXPLORE_LIMIT`, they are all visited, every distance to the goal comes from one backward
breadth-first search, and the optimal line is read from those distances (at each state the
first listed move that brings the goal a step nearer; a type that lists each move with its
state, ``move_states(state)``, keydoor, is asked that in one call per state). Otherwise (and
for the types whose every move can be undone, whose solvers answer from any state: a distance
table, linear algebra, the enumerated solutions, IDA*) the line is the one ``solve`` gives, and
each move off it is settled
by ``solve`` from its state (with a ``budget`` of :data:`NODE_LIMIT` for the types whose
calibration is ``limited``, sliding: a move whose optimum is not proven within it counts as wrong,
never as a dead end;
a type with a ``distances()`` table of every state it can reach, ball, is read from it; a type
that counts its optimum from any state without a plan, ``distance(state)`` (hatgram: a
comparison with its enumerated solutions; keydoor: A* under a lower bound), is asked that,
outside the budget), at most
:data:`SOLVE_BUDGET` solves in all (past it, unsettled moves count as wrong). Only the
moves that look at least as good as the plan's move by the greedy rule are settled at all: no
other move can be a tempting one or change which right move looks best. Budgets are counts of
states, nodes and solves, never seconds, so every machine gives the same score. The measurement
works on a copy of the instance, so it leaves the instance's solver caches as they were.

Bands (:data:`BANDS`) were chosen from the scores of 100 seeds per type and level with the old
tables (p50 at easy / medium / hard / very-hard: jugs 7 / 17 / 30 / 62, sliding 10 / 21 / 34 /
50, stomp 7 / 6 / 21 / 30, ball 11 / 23 / 46 / 73, hatgram 4 / 7 / 11 / 12, keydoor 10 / 17 /
26 / 35): the bounds sit between the levels of the types that take thought by length (jugs,
sliding), and stomp's and ball's par tables moved to meet them. Measured after, 100 seeds per
type and level through ``puzzles.generate``: every drawn type (jugs, sliding, stomp, ball) lies
in its band at every level, very-hard p50 jugs 62, sliding 51, stomp 49, ball 57.

Hatgram: the measure was wrong, not the generator. Its first greedy rule ("a hundred per piece
in the box plus the border of the free cells": snug placements first) put the plan's placement
among the best-looking ones at almost every step, so boards of 8 or 9 pieces scored 8..47 (p50
12 at very-hard, below the band) although a player who always places the best-looking piece
by that rule (the first listed among equals) filled none of the very-hard boards of seeds
0..19: the snug placements tie, look alike, and the wrong ones show only pieces
later. A person fitting pieces searches: nothing on a half-filled board tells a right placement
from a wrong one until the last pieces, so every legal placement of every piece in the box is a
look-alike, and a step costs ``log2`` of the placements to tell apart. That rule grows with the
board (the placements) and the piece count (the steps) as the levels do, with the generator
unchanged (more or smaller pieces made generation slower than a second at hard). Measured
through ``puzzles.generate`` over seeds 0..19 (easy / medium / hard / very-hard): p50 11 / 18 /
33 / 49, every one in its band (before: 4 / 7 / 17 / 12, in band 100% / 10% / 15% / 5%). One
measurement of a very-hard takes about 9 ms (``Hatgram.distance`` answers each move), its
attempts are cheap, so hatgram is drawn like the others (undrawn, a quarter of medium's
first instances score below 16; very-hard's all lie in the band: no second attempt).

Keydoor: the generator was short of very-hard, not the measure. Its line is a corridor walk
with three or four steps of thought (the ferried key, the drop, the way back for it); the
measure gives a walking step one unit and such a step a few bits more, which is what a walk
is, so a board's score follows its par and its shape (about 1.7 per action at very-hard on a
one-key hand; a crossing's or a ferry's steps ask more than a bag's). No other greedy rule
tried put very-hard in its band and kept hard in its own (seeds 0..19, share in band at hard
/ very-hard): without the key in hand's credit 100% / 45%, crediting only a key whose door can
be reached 100% / 0%, no rule at all 5% / 100%, and a hidden step costing ``log2(b)`` per move
it must look ahead to pay off 33% / 75% (seeds 0..11). So very-hard boards have a longer par
(25..34; nested doors 23..34 with a one-key hand and a branch of three rooms), and every
level is drawn into its band by the generator itself (its calibration's ``banded``): it
measures each candidate that fits its shape's par range, which costs milliseconds, and keeps
the first in the band, so the board keeps the shape its seed draws; a shape whose boards
cannot lie in a level's band is not drawn there (easy draws two branches in place of nested
doors, whose three keys score 17..21). Over seeds 0..39 through ``puzzles.generate`` every
board lies in its band, p50 (lowest..highest) easy 10.5 (8..15.2), medium 21.6 (16.6..26.2),
hard 31.9 (27..41.7), very-hard 47.4 (42.3..60).
"""

from __future__ import annotations

import copy
import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from roguelike import seeds
from roguelike.puzzles.base import Calibration, PuzzleType, SearchLimit, Unsolvable
from roguelike.puzzles.registry import kind_of

#: Reachable states visited at most before the measure falls back to one solve per move.
EXPLORE_LIMIT = 5000
#: Solves of off-line states at most (fallback mode).
SOLVE_BUDGET = 1500
#: IDA*-style solvers, whose search from a far state can grow without end: nodes per off-line
#: solve (past it the move counts as not proven right).
NODE_LIMIT = 100

#: Score bands per difficulty, common to every type: lowest score (included), highest (not).
BANDS: dict[str, tuple[float, float]] = {
    "easy": (0.0, 16.0),
    "medium": (16.0, 27.0),
    "hard": (27.0, 42.0),
    "very-hard": (42.0, 100.0),
}


@dataclass(frozen=True)
class Score:
    """A puzzle's difficulty score and the parts it is made of."""

    score: float
    length: int
    branching: float
    traps: float
    dead_ends: float
    non_greedy: int
    states: int

    def parts(self) -> dict[str, Any]:
        return {
            "length": self.length,
            "branching": round(self.branching, 2),
            "traps": round(self.traps, 2),
            "dead_ends": round(self.dead_ends, 3),
            "non_greedy": self.non_greedy,
            "states": self.states,
        }

    def to_json(self) -> dict[str, Any]:
        return {"score": round(self.score, 1), "parts": self.parts()}


def _successor(p: Any, s: Any, m: Any, cal: Calibration[Any, Any, Any]) -> Any:
    """``p.apply(s, m)`` for a move ``p.moves(s)`` listed, or the type's unchecked
    ``calibration.successor`` (hatgram, jugs: a listed move is legal, which makes their
    measurement several times cheaper)."""
    if cal.successor is not None:
        return cal.successor(p, s, m)
    return p.apply(s, m)


# --- distances to the goal --------------------------------------------------------------------
def _explore(p: Any, start: Any, cal: Calibration[Any, Any, Any]) -> dict[Any, int | None] | None:
    """Distance to the goal (None: unreachable) of every state reachable from ``start``, or
    None when more than EXPLORE_LIMIT states are reachable."""
    succ: dict[Any, list[Any]] = {}
    frontier: deque[Any] = deque([start])
    succ[start] = []
    # a type that lists each move with its state (keydoor: ``move_states``) answers in one call
    listed: Callable[[Any], list[tuple[Any, Any]]] | None = getattr(p, "move_states", None)
    while frontier:
        s = frontier.popleft()
        if listed is not None:
            nxt = [t for _, t in listed(s)]
        else:
            nxt = [_successor(p, s, m, cal) for m in p.moves(s)]
        succ[s] = nxt
        for t in nxt:
            if t not in succ:
                if len(succ) >= EXPLORE_LIMIT:
                    return None
                succ[t] = []
                frontier.append(t)
    pred: dict[Any, list[Any]] = {s: [] for s in succ}
    for s, nxt in succ.items():
        for t in nxt:
            pred[t].append(s)
    dist: dict[Any, int | None] = {s: None for s in succ}
    queue: deque[Any] = deque(s for s in succ if p.is_solved(s))
    for s in queue:
        dist[s] = 0
    while queue:
        t = queue.popleft()
        d = dist[t]
        assert d is not None
        for s in pred[t]:
            if dist[s] is None:
                dist[s] = d + 1
                queue.append(s)
    return dist


def _graph_plan(
    p: Any, s: Any, graph: dict[Any, int | None], cal: Calibration[Any, Any, Any]
) -> list[Any] | None:
    """An optimal line read from the distances: at each state, the first listed move that
    brings the goal one step nearer (None when the goal is out of reach)."""
    if graph[s] is None:
        return None
    plan = []
    d = graph[s]
    while d:
        m = next(m for m in p.moves(s) if graph[_successor(p, s, m, cal)] == d - 1)
        plan.append(m)
        s = _successor(p, s, m, cal)
        d = graph[s]
    return plan


class _Solver:
    """Distances by ``solve`` (each state solved once), within SOLVE_BUDGET solves."""

    def __init__(self, p: Any, limited: bool) -> None:
        self.p = p
        self.known: dict[Any, int | None] = {}
        self.calls = 0
        self.counted = 0  # states whose optimum ``count`` gave (outside the budget)
        self.limited = limited
        # a type that counts its optimum from a state without a plan (hatgram) is asked that
        self.count: Callable[[Any], int | None] | None = getattr(p, "distance", None)
        # a type that keeps the distance of every state it can reach (ball) is read, not solved
        self.table: dict[Any, int] | None = (
            p.distances() if callable(getattr(p, "distances", None)) else None
        )

    def exhausted(self) -> bool:
        return self.calls >= SOLVE_BUDGET

    def distance(self, s: Any) -> int | None | bool:
        """The distance from ``s``; None when unreachable; False when not proven."""
        if s in self.known:
            return self.known[s]
        if self.count is not None:  # as cheap as a table: outside the budget
            self.counted += 1
            self.known[s] = self.count(s)
            return self.known[s]
        self.calls += 1
        if self.table is not None and s in self.table:
            return self.table[s]
        p = self.p
        try:
            plan = p.solve(s, budget=NODE_LIMIT) if self.limited else p.solve(s)
        except SearchLimit:
            return False  # the node limit: not proven
        d = None if plan is None else len(plan)
        self.known[s] = d
        return d


# --- the score --------------------------------------------------------------------------------
def measure(
    puzzle: Any, start: Any = None, *, calibration: Calibration[Any, Any, Any] | None = None
) -> Score:
    """The difficulty score of ``puzzle`` from ``start`` (its initial state by default), by its
    type's calibration (``calibration``: another, for a puzzle of no registered type).

    Raises Unsolvable when the goal cannot be reached from ``start``.
    """
    cal = kind_of(puzzle).calibration if calibration is None else calibration
    p = copy.deepcopy(puzzle)
    s = p.initial() if start is None else start
    graph = _explore(p, s, cal) if p.dead_ends else None
    plan = p.solve(s) if graph is None else _graph_plan(p, s, graph, cal)
    if plan is None:
        raise Unsolvable("this puzzle cannot be solved from this state")
    greedy = cal.greedy
    solver = _Solver(p, cal.limited)
    states = len(graph) if graph is not None else 0
    total = 0.0
    branch_sum = trap_sum = dead_sum = non_greedy = 0
    left = len(plan)
    for step in plan:
        moves = p.moves(s)
        branch_sum += len(moves)
        valued = [(greedy(p, _successor(p, s, m, cal)), m) for m in moves]
        best = min(v for v, _ in valued)
        best_right = next(v for v, m in valued if m == step)
        # only a move that looks at least as good as the plan's move can be the best-looking
        # right move or a tempting wrong one: those alone are solved
        wrong: list[tuple[float, bool]] = []  # (greedy value, dead end?)
        for value, m in sorted(valued, key=lambda vm: vm[0]):
            if value > best_right:
                break
            if m == step:
                continue
            t = _successor(p, s, m, cal)
            if graph is not None:
                d: int | None | bool = graph[t]
            elif solver.exhausted():
                d = False
            else:
                d = solver.distance(t)
            if d is not False and d is not None and d == left - 1:
                best_right = min(best_right, value)
            else:
                wrong.append((value, d is None))
        tempting = [dead for value, dead in wrong if value <= best_right]
        forced = best_right > best
        trap_sum += len(tempting)
        dead_sum += sum(tempting)
        non_greedy += forced
        bits = math.log2(1 + len(tempting) + sum(tempting))
        total += 1 + bits + (math.log2(len(moves)) if forced else 0.0)
        s = p.apply(s, step)
        left -= 1
    n = len(plan)
    return Score(
        score=total,
        length=n,
        branching=branch_sum / n if n else 0.0,
        traps=trap_sum / n if n else 0.0,
        dead_ends=dead_sum / trap_sum if trap_sum else 0.0,
        non_greedy=non_greedy,
        states=states + solver.calls + solver.counted,
    )


def in_band(score: Score, difficulty: str) -> bool:
    lo, hi = BANDS[difficulty]
    return lo <= score.score < hi


def _miss(score: Score, difficulty: str) -> float:
    """How far the score lies outside the band (0 inside)."""
    lo, hi = BANDS[difficulty]
    return 0.0 if in_band(score, difficulty) else max(lo - score.score, score.score - hi, 1e-9)


def attempt_seed(type_name: str, difficulty: str, seed: int, attempt: int) -> int:
    """The seed of generation attempt ``attempt``: the seed itself first, then seeds derived
    from (seed, attempt) by :func:`roguelike.seeds.stream_key`."""
    if attempt == 0:
        return seed
    key = seeds.stream_key(seed, 0, f"puzzle:{type_name}:{difficulty}#band{attempt}")
    return key & ((1 << seeds.SEED_BITS) - 1)


def drawn(kind: PuzzleType[Any, Any, Any], difficulty: str) -> bool:
    """Is a level of this type drawn into its band (several attempts, each measured), rather
    than generated as its generator gives it (one attempt, never measured)?"""
    cal = kind.calibration
    return (cal.attempts > 1 or cal.banded) and difficulty not in cal.unbanded


def draw(kind: PuzzleType[Any, Any, Any], difficulty: str, seed: int) -> Any:
    """The first of up to ``kind.calibration.attempts`` instances (seed, then derived seeds)
    whose score lies in the band of ``difficulty``; when none does, the one closest to it (the
    first such). A level not :func:`drawn`, or drawn by its generator (``banded``), is not
    measured here at all."""
    if not drawn(kind, difficulty) or kind.calibration.banded:
        return kind.generate(difficulty, seed)
    best: tuple[float, Any] | None = None
    for attempt in range(kind.calibration.attempts):
        p = kind.generate(difficulty, attempt_seed(kind.name, difficulty, seed, attempt))
        miss = _miss(measure(p, calibration=kind.calibration), difficulty)
        if miss == 0:
            return p
        if best is None or miss < best[0]:
            best = (miss, p)
    assert best is not None
    return best[1]


__all__ = ["BANDS", "Score", "draw", "drawn", "in_band", "measure"]
