"""A run's score, term by term: what a run record keeps (:mod:`saves.record`), the verification
recomputes (:mod:`saves.verify`) and the summary and morgue show.

Score (also in the README), term by term in :func:`score_parts`::

    score = 100 × deepest floor + Σ solved puzzles' scores (0..100 each)
            + (won: 1000 + max(0, 1000 − turns ÷ 10))

Winning counts most, then depth, then puzzles played well; a won run gains up to 1000 more
for speed (none after 10,000 turns). Kills earn nothing of their own: fighting is a cost, not
a goal (it pays through the depth it opens).
"""

from __future__ import annotations

from dataclasses import dataclass

from roguelike.engine.state import GameState


@dataclass(frozen=True)
class ScorePart:
    """One term of a run's score: its name, its points, and how they are made."""

    name: str
    points: int
    how: str


def score_parts(won: bool, floors: int, turns: int, puzzle_scores: list[int]) -> list[ScorePart]:
    """The terms of the run's score (see the module), in order; the score is their sum."""
    speed = max(0, 1000 - turns // 10) if won else 0
    solved = len(puzzle_scores)
    return [
        ScorePart("depth", 100 * floors, f"100 × floor {floors}"),
        ScorePart(
            "puzzles",
            sum(puzzle_scores),
            f"{solved} solved, 0..100 each" if solved else "none solved",
        ),
        ScorePart("winning", 1000 if won else 0, "escaped" if won else "won runs only"),
        ScorePart(
            "speed",
            speed,
            f"1000 − turns ÷ 10, {turns} turns" if won else "won runs only",
        ),
    ]


def score(won: bool, floors: int, turns: int, puzzle_scores: list[int]) -> int:
    """The run's score (see the module): the sum of :func:`score_parts`."""
    return sum(p.points for p in score_parts(won, floors, turns, puzzle_scores))


def score_parts_of(state: GameState) -> list[ScorePart]:
    """The terms of the score of the run ``state`` stands at."""
    s = state.stats
    return score_parts(state.won, s.floors_reached, state.turn, [p[3] for p in s.puzzle_scores])


def score_of(state: GameState) -> int:
    """The score of the run ``state`` stands at (what its record says, what the summary shows)."""
    s = state.stats
    return score(state.won, s.floors_reached, state.turn, [p[3] for p in s.puzzle_scores])
