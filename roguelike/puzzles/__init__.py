"""Layton-style puzzles: six types behind one protocol.

Every type (see :mod:`roguelike.puzzles.base` for the protocol) has legal moves, an exact
optimal solver, a seeded generator whose difficulty is the TRUE optimal move count ``par``
(checked against the type's ``PAR`` table), hints computed from the current state and a
stable JSON form. This package has no user interface.

>>> p = generate("jugs", "easy", 42)
>>> s = p.initial()
>>> move, left = hint(p, s)          # next move on an optimal path, and moves still needed
>>> s = p.apply(s, move)
>>> p2 = from_json(p.to_json())      # == p

Types and their difficulty tables (``<module>.PAR``): jugs, sliding, stomp, ball, hatgram,
keydoor. A type is a module with a ``generate(difficulty, seed)`` function, ``PAR`` and
``RULES`` tables and a class (named by its ``type_name``), listed once in ``_TYPES``. All
randomness comes from ``roguelike.seeds.stream(seed, 0, f"puzzle:{type}:{difficulty}")``, so
the same (type, difficulty, seed) gives the same puzzle on every machine.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from roguelike.puzzles import ball, hatgram, jugs, keydoor, sliding, stomp
from roguelike.puzzles.base import (
    DIFFICULTIES,
    GenerationError,
    IllegalMove,
    Puzzle,
    PuzzleFormatError,
    Unsolvable,
)

__all__ = [
    "DIFFICULTIES",
    "PAR",
    "RULES",
    "TYPES",
    "GenerationError",
    "IllegalMove",
    "Puzzle",
    "PuzzleFormatError",
    "Unsolvable",
    "from_json",
    "generate",
    "hint",
    "hint_text",
]

#: type name -> (its module, its class): the one list of puzzle types.
_TYPES: dict[str, tuple[ModuleType, Any]] = {
    cls.type_name: (module, cls)
    for module, cls in (
        (jugs, jugs.Jugs),
        (sliding, sliding.Sliding),
        (stomp, stomp.Stomp),
        (ball, ball.Ball),
        (hatgram, hatgram.Hatgram),
        (keydoor, keydoor.KeyDoor),
    )
}
_MODULES = {t: module for t, (module, _cls) in _TYPES.items()}
_CLASSES = {t: cls for t, (_module, cls) in _TYPES.items()}
TYPES: tuple[str, ...] = tuple(_MODULES)
#: type → difficulty → (lowest, highest) optimal move count of generated instances.
PAR: dict[str, dict[str, tuple[int, int]]] = {t: m.PAR for t, m in _MODULES.items()}
#: type → the rules in a few lines, for players (``<module>.RULES``).
RULES: dict[str, str] = {t: m.RULES for t, m in _MODULES.items()}


def generate(type_name: str, difficulty: str, seed: int) -> Any:
    """A new puzzle of ``type_name`` at ``difficulty``: a pure function of the three."""
    if type_name not in _MODULES:
        raise ValueError(f"unknown puzzle type {type_name!r}: one of {', '.join(TYPES)}")
    gen: Callable[[str, int], Any] = _MODULES[type_name].generate
    return gen(difficulty, seed)


def from_json(d: Any) -> Any:
    """The puzzle a ``to_json()`` document describes; raises PuzzleFormatError."""
    kind = d.get("type") if isinstance(d, dict) else None
    if not isinstance(kind, str) or kind not in _CLASSES:
        raise PuzzleFormatError(f"unknown puzzle type {kind!r}"[:200])
    return _CLASSES[d["type"]].from_json(d)


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


def hint_text(p: Any, s: Any, tier: int) -> str:
    """A hint in words: tiers 1 and 2 are the type's nudges, tier 3 and up the move itself."""
    if tier < 3:
        return p.nudge(s, tier)
    try:
        move, left = hint(p, s)
    except Unsolvable as e:
        return str(e).capitalize() + "."
    if move is None:
        return "The puzzle is solved."
    steps = "1 step" if left == 1 else f"{left} steps"
    return f"The next step you should take: {p.describe_move(move, s)}. {steps} left."
