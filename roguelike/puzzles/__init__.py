"""Layton-style puzzles: six types behind one protocol.

Every type (see :mod:`roguelike.puzzles.base` for the protocol) has legal moves, an exact
optimal solver, a seeded generator whose par is the TRUE optimal move count (checked against the
par table of its record), hints computed from the current state and a stable JSON form. A level
is more than a par: :func:`generate` draws the type's generator (the seed, then seeds derived from
it) until the puzzle's difficulty score lies in the level's band, one table for every type
(:mod:`roguelike.puzzles.difficulty`). This package has no user interface.

>>> p = generate("jugs", "easy", 42)
>>> s = p.initial()
>>> move, left = hint(p, s)          # next move on an optimal path, and moves still needed
>>> a = advise(p, s)                 # the same within a node budget, from any state
>>> (a.move, a.moves_left, a.exact) == (move, left, True)
True
>>> s = p.apply(s, move)
>>> p2 = from_json(p.to_json())      # == p

Types: jugs, sliding, stomp, ball, hatgram, keydoor. A type is a module with its rules (a class
named by its ``type_name``), a ``generate(difficulty, seed)`` function and its record, ``TYPE``
(:class:`~roguelike.puzzles.base.PuzzleType`: generator, par table, rules text, hint budget,
difficulty calibration), listed once in :data:`roguelike.puzzles.registry.REGISTRY`; ``kind``
gives a type's record by name. All randomness comes from ``roguelike.seeds.stream(seed, 0,
f"puzzle:{type}:{difficulty}")`` (a derived seed's stream for a later draw), so the same (type,
difficulty, seed) gives the same puzzle on every machine.

Hints that never stall: :func:`advise` asks the type's solver for a proven optimal plan within a
node budget (the record's ``hint_budget``, a count, so every machine gives the same
advice). Past it the advice says it is not proven and gives a move on a KNOWN
route (the sliding puzzle's constructive solver, ``guide``), and, given the trail of earlier
states, how many moves to undo to rejoin a state whose exact distance is known (for a dead end,
the last state from which the goal can still be reached). Following the advice move after move
always reaches the goal: a proven plan shortens by one per move, and a route is remembered so
that its later states continue it.

Hints that teach: between the nudges and the move, :func:`milestone` names the next
intermediate goal on the advice's plan that, once reached, stays reached to the plan's end
("first get 2 L into jug B", "first put 1–3 in the top row", "first take key 2 in the hall,
then open door 2 with key 2"), read off the plan's states through the type's ``facts`` and
worded by its ``milestone_words``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from roguelike.puzzles import difficulty as scoring
from roguelike.puzzles.base import (
    DIFFICULTIES,
    HINT_BUDGET,
    Advice,
    Calibration,
    GenerationError,
    IllegalMove,
    Milestone,
    Puzzle,
    PuzzleFormatError,
    PuzzleType,
    SearchLimit,
    Unsolvable,
)
from roguelike.puzzles.registry import REGISTRY, TYPES, kind, kind_of

__all__ = [
    "DIFFICULTIES",
    "HINT_BUDGET",
    "REGISTRY",
    "TYPES",
    "Advice",
    "Calibration",
    "PuzzleType",
    "SearchLimit",
    "GenerationError",
    "IllegalMove",
    "Milestone",
    "Puzzle",
    "PuzzleFormatError",
    "Unsolvable",
    "advise",
    "from_json",
    "generate",
    "hint",
    "hint_budget",
    "hint_text",
    "kind",
    "kind_of",
    "milestone",
]


def generate(type_name: str, difficulty: str, seed: int) -> Any:
    """A new puzzle of ``type_name`` at ``difficulty``: a pure function of the three.

    The type's generator is asked with the seed, then with seeds derived from it, until the
    puzzle's difficulty score lies in the level's band (:mod:`roguelike.puzzles.difficulty`).
    """
    return scoring.draw(kind(type_name), difficulty, seed)


def from_json(d: Any) -> Any:
    """The puzzle a ``to_json()`` document describes; raises PuzzleFormatError."""
    name = d.get("type") if isinstance(d, dict) else None
    if not isinstance(name, str) or name not in TYPES:
        raise PuzzleFormatError(f"unknown puzzle type {name!r}"[:200])
    return kind(name).from_json(d)


def hint(p: Any, s: Any) -> tuple[Any, int]:
    """(next move on an optimal path from ``s``, optimal number of moves left from ``s``).

    At a solved state: ``(None, 0)``. Raises Unsolvable when ``s`` cannot reach the goal
    (possible in jugs and keydoor, where some moves cannot be undone).
    """
    plan = p.solve(s)
    if plan is None:
        raise Unsolvable("this puzzle can no longer be solved from here: start it again")
    if not plan:
        return None, 0
    return plan[0], len(plan)


def hint_budget(p: Any) -> int:
    """The node budget of a hint for ``p``'s type (its record's ``hint_budget``)."""
    return kind_of(p).hint_budget


def _guide(p: Any, s: Any, budget: int) -> tuple[list[Any] | None, bool]:
    """(plan, proven shortest?) from ``s``: the type's own ``guide`` when it has one (a known
    route past the budget), else its solver, with no plan past the budget."""
    if hasattr(p, "guide"):
        plan, exact = p.guide(s, budget)
        return plan, exact
    try:
        return p.solve(s, budget), True
    except SearchLimit:
        return None, False


def _steps(n: int) -> str:
    return "1 move" if n == 1 else f"{n} moves"


def advise(p: Any, s: Any, *, trail: Sequence[Any] | None = None) -> Advice:
    """A hint from ``s`` within the type's node budget (see the module docstring).

    ``trail``: the states the player came through, oldest first (``s`` not included); it lets
    the advice say how many moves to undo. Raises Unsolvable when ``s`` cannot reach the goal
    and no state of the trail can either.
    """
    if p.is_solved(s):
        return Advice(None, True, "The puzzle is solved.", moves_left=0, plan=())
    budget = hint_budget(p)
    plan, exact = _guide(p, s, budget)
    if plan is None and not exact:
        what = f"No plan was found from here within the hint's budget of {budget} search nodes."
        start = p.initial()
        try:
            again = p.solve(start, budget) if start != s else None
        except SearchLimit:
            again = None
        if again is not None:
            what += f" From the start a shortest way of {_steps(len(again))} is known: start again."
        return Advice(None, False, what)
    if plan is None:  # a dead end: rejoin the last state the goal can be reached from
        for k, st in enumerate(reversed(trail or ()), 1):
            try:
                back = p.solve(st, budget)
            except SearchLimit:
                continue
            if back is not None:
                text = f"The goal cannot be reached from here: undo {_steps(k)}"
                text += f"; from there it is {_steps(len(back))} away."
                return Advice(None, False, text, undo=k, undo_left=len(back))
        raise Unsolvable("this puzzle can no longer be solved from here: start it again")
    words = p.describe_move(plan[0], s)
    if exact:
        steps = "1 step" if len(plan) == 1 else f"{len(plan)} steps"
        text = f"The next step you should take: {words}. {steps} left (the fewest possible)."
        return Advice(plan[0], True, text, moves_left=len(plan), plan=tuple(plan))
    text = (
        f"{words[:1].upper()}{words[1:]}: a way of {_steps(len(plan))} from here is known, "
        "not proven the shortest."
    )
    undo, undo_left = 0, None
    known = getattr(p, "known_distance", None)
    if known is not None:
        for k, st in enumerate(reversed(trail or ()), 1):
            d = known(st)
            if d is not None:
                if k + d < len(plan):
                    undo, undo_left = k, d
                    text += f" Or undo {_steps(k)} to rejoin a shortest way, {_steps(d)} long."
                break
    return Advice(
        plan[0], False, text, route_len=len(plan), undo=undo, undo_left=undo_left, plan=tuple(plan)
    )


#: A milestone lies at least this many moves ahead on the plan when the plan is longer (one move
#: ahead, it would only repeat the move hint).
MILESTONE_AHEAD = 2


def milestone(p: Any, s: Any, advice: Advice | None = None) -> Milestone | None:
    """The next milestone from ``s``: on the plan of ``advice`` (:func:`advise` from ``s`` when
    not given), the first step ``i``, at least :data:`MILESTONE_AHEAD` moves ahead when the plan
    is longer and before its last move, from which some of the type's ``facts`` that do not all
    hold now hold at every state to the plan's end; the milestone is every fact so settled by
    step ``i`` and not settled from ``s`` on. None when there is no plan or no such step (the
    plan is one move, or nothing settles before the goal). Raises Unsolvable as ``advise``."""
    a = advise(p, s) if advice is None else advice
    plan = list(a.plan)
    n = len(plan)
    if n < 2:
        return None
    states = [s]
    for m in plan:
        states.append(p.apply(states[-1], m))
    holds = [p.facts(t) for t in states]
    settled = [holds[n]] * (n + 1)  # settled[i]: the facts of every state from i to the end
    for i in range(n - 1, -1, -1):
        settled[i] = settled[i + 1] & holds[i]
    for i in range(min(MILESTONE_AHEAD, n - 1), n):
        facts = settled[i] - settled[0]
        new = facts - holds[0]
        if new:
            words = p.milestone_words(new, s, plan, i)
            way = "" if a.exact else " on a known way, not proven shortest"
            text = f"First {words} ({_steps(i)}{way}); it then stays so to the end."
            return Milestone(frozenset(facts), text, i, tuple(plan), a.exact)
    return None


def hint_text(p: Any, s: Any, tier: int) -> str:
    """A hint in words: tiers 1 and 2 are the type's nudges, tier 3 the milestone (or, with
    none on the way, the move), tier 4 and up the move itself (:func:`advise`)."""
    if tier < 3:
        return p.nudge(s, tier)
    try:
        a = advise(p, s)
        if tier == 3 and (m := milestone(p, s, a)) is not None:
            return m.text
        return a.text
    except Unsolvable as e:
        return str(e).capitalize() + "."
