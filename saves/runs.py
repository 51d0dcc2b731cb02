"""A run's score, term by term: what a run record keeps (:mod:`saves.record`), the verification
recomputes (:mod:`saves.verify`) and the summary and morgue show.

Score (also in the README), term by term in :func:`score_parts`::

    score = 200 × deepest floor + 5 × monsters killed (at most 200 of them)
            + Σ solved puzzles' scores (0..100 each)
            + (won: 1000 + max(0, 1000 − turns ÷ 10))

The dungeon counts first: winning, then depth (a floor is worth two perfect puzzles), speed
(a won run gains up to 1000, none after 10,000 turns) and the monsters fought and survived;
the puzzles played well add to it (at most two a floor), so a run chasing score plays the
dungeon with puzzles in it, not a puzzle game with a dungeon in between. The kills that count
are bounded, so fighting a summoner's calls for ever earns nothing more.
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


#: The score's weights (see the module): a floor reached, a monster killed, and the most kills
#: that count (summoners call up more: fighting them for ever earns nothing past this).
FLOOR_POINTS = 200
KILL_POINTS = 5
KILLS_COUNTED = 200


def score_parts(
    won: bool, floors: int, turns: int, puzzle_scores: list[int], *, kills: int
) -> list[ScorePart]:
    """The terms of the run's score (see the module), in order; the score is their sum."""
    speed = max(0, 1000 - turns // 10) if won else 0
    solved = len(puzzle_scores)
    return [
        ScorePart("depth", FLOOR_POINTS * floors, f"{FLOOR_POINTS} × floor {floors}"),
        ScorePart(
            "kills",
            KILL_POINTS * min(kills, KILLS_COUNTED),
            f"{KILL_POINTS} × {kills} monsters killed"
            + (f", {KILLS_COUNTED} at most" if kills > KILLS_COUNTED else ""),
        ),
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


def score(won: bool, floors: int, turns: int, puzzle_scores: list[int], *, kills: int) -> int:
    """The run's score (see the module): the sum of :func:`score_parts`."""
    return sum(p.points for p in score_parts(won, floors, turns, puzzle_scores, kills=kills))


def score_parts_of(state: GameState) -> list[ScorePart]:
    """The terms of the score of the run ``state`` stands at."""
    s = state.stats
    puzzle_scores = [p[3] for p in s.puzzle_scores]
    return score_parts(state.won, s.floors_reached, state.turn, puzzle_scores, kills=s.kills)


def score_of(state: GameState) -> int:
    """The score of the run ``state`` stands at (what its record says, what the summary shows)."""
    return sum(p.points for p in score_parts_of(state))
