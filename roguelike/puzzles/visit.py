"""A visit to one puzzle: its state, the moves made, undo, reset, hints bought with coins, the
score and what the visit ended with. No user interface: the puzzle screen shows a visit and
turns keys into its moves; anything else (a test, a bot) can play one the same way.

The visit never decides a rule: every move is the puzzle's own (``apply`` checks it), and the
moves made are kept as ``move_to_json`` documents, so whoever reads the outcome can verify a
solution by replaying them from ``start_json``.

Hints are computed from the current state and cost coins: tiers 1 and 2 are the puzzle's nudges
in words, tier 3 the next optimal move with the moves left (one coin each); a super hint shows
the next three optimal moves for two coins. The tiers start again after every move.

Score::

    score = max(0, 100 - 10 * hints_used - 5 * resets - 2 * max(0, move_count - par))

``hints_used`` counts hint coins' worth (a super hint counts 2) and includes the hints of
earlier visits; ``move_count`` is the number of moves from the start after undos (an undone
move costs nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from roguelike.puzzles import hint as optimal_hint
from roguelike.puzzles.base import IllegalMove, Unsolvable

#: Points lost per hint coin's worth, per reset, per move over par.
HINT_PENALTY = 10
RESET_PENALTY = 5
OVER_PAR_PENALTY = 2
SUPER_HINT_COST = 2
SUPER_HINT_MOVES = 3
MOVE_TIER = 3  # the hint tier that shows the next move itself
SUPER_TIER = 4  # the hint tier a super hint stands for (above the move itself)
STUCK = "The goal can no longer be reached from here: u undoes, r starts again."

Tone = Literal["plain", "dim", "bad", "warn", "solved"]


def score(hints_used: int, resets: int, move_count: int, par: int) -> int:
    """The puzzle's score: 100, less the hints, the resets and the moves over par."""
    lost = (
        HINT_PENALTY * hints_used
        + RESET_PENALTY * resets
        + OVER_PAR_PENALTY * max(0, move_count - par)
    )
    return max(0, 100 - lost)


@dataclass(frozen=True)
class Note:
    """What a visit says after an action, and in which tone (the screen picks the colour)."""

    text: str
    tone: Tone = "plain"


@dataclass(frozen=True)
class PuzzleOutcome:
    """What a visit to a puzzle ended with.

    ``moves`` replay from ``start_json`` (``state_from_json``, then ``apply`` each
    ``move_from_json``) to ``state_json``; ``start_json`` is the puzzle's initial state unless
    the visit was opened with a ``state`` but without the ``moves`` that led there (and was
    not reset since). ``coins_spent`` is this visit's; ``hints_used`` and ``resets`` are totals
    (the counts the visit was opened with, plus this visit's).
    """

    solved: bool
    state_json: Any
    moves: list[Any]
    coins_spent: int
    hints_used: int
    move_count: int
    resets: int = 0
    score: int = 100
    start_json: Any = None


def _is_json_state(state: Any) -> bool:
    return isinstance(state, list | dict)


class Visit:
    """One visit to ``puzzle``.

    ``state``: where to continue (a ``state_to_json`` document, or the puzzle's own state);
    ``moves``: the ``move_to_json`` moves that led from the initial state to it (when given,
    ``state`` may be left out, and the outcome's moves keep replaying from the initial state;
    raises ValueError when they do not lead to ``state``). ``coins``: hint coins that may be
    spent here; ``hints_used`` and ``resets``: counts from earlier visits (they lower the
    score).
    """

    def __init__(
        self,
        puzzle: Any,
        state: Any = None,
        *,
        coins: int = 0,
        hints_used: int = 0,
        resets: int = 0,
        moves: Sequence[Any] | None = None,
    ) -> None:
        p = self.puzzle = puzzle
        self.coins = coins
        self.coins_spent = 0
        self.hints_used = hints_used
        self.resets = resets
        if state is not None and _is_json_state(state):
            state = p.state_from_json(state)
        self.start = p.initial() if moves is not None or state is None else state
        self.state = self.start
        #: (state before, move) per move made, oldest first
        self.trail: list[tuple[Any, Any]] = []
        #: the moves made, as ``move_to_json`` documents
        self.moves: list[Any] = []
        for d in moves or ():
            self._apply(p.move_from_json(d))
        if state is not None and moves is not None and state != self.state:
            raise ValueError("the moves given do not lead to the state given")
        self.solved = p.is_solved(self.state)
        self.hint_tier = 0
        #: (label, words) of the hints bought since the last move
        self.hint_lines: list[tuple[str, str]] = []
        #: the moves the current hint shows (tier 3: one, super: up to three)
        self.hint_moves: list[Any] = []

    # ------------------------------------------------------------------ figures

    @property
    def move_count(self) -> int:
        return len(self.moves)

    @property
    def score(self) -> int:
        return score(self.hints_used, self.resets, self.move_count, self.puzzle.par)

    @property
    def at_start(self) -> bool:
        """At the initial state with no move made (a reset would change nothing)."""
        return self.state == self.puzzle.initial() and not self.moves

    def score_words(self) -> str:
        """How the score came about, in words."""
        parts = []
        if self.hints_used:
            parts.append(f"{HINT_PENALTY * self.hints_used} for hints")
        if self.resets:
            parts.append(f"{RESET_PENALTY * self.resets} for resets")
        over = self.move_count - self.puzzle.par
        if over > 0:
            parts.append(f"{OVER_PAR_PENALTY * over} for {over} moves over par")
        if not parts:
            return f"Score {self.score}: no hints, no resets, par or better."
        return f"Score {self.score}: 100 less " + ", ".join(parts) + "."

    def solved_words(self) -> str:
        """``Solved in 5 moves (par 5) — perfect!``"""
        n, par = self.move_count, self.puzzle.par
        words = f"Solved in {n} move{'' if n == 1 else 's'} (par {par})"
        return words + (" — perfect!" if n <= par else "")

    def outcome(self) -> PuzzleOutcome:
        p = self.puzzle
        return PuzzleOutcome(
            solved=self.solved,
            state_json=p.state_to_json(self.state),
            moves=list(self.moves),
            coins_spent=self.coins_spent,
            hints_used=self.hints_used,
            move_count=self.move_count,
            resets=self.resets,
            score=self.score,
            start_json=p.state_to_json(self.start),
        )

    # ------------------------------------------------------------------ moves

    def _apply(self, m: Any) -> None:
        """Make move ``m`` (raises IllegalMove) and record it."""
        t = self.puzzle.apply(self.state, m)
        self.trail.append((self.state, m))
        self.moves.append(self.puzzle.move_to_json(m))
        self.state = t

    def play(self, m: Any) -> Note | None:
        """Make the move ``m``. None when the puzzle is solved already (nothing happens); an
        illegal move says why; a move that solves it says so in the ``solved`` tone."""
        if self.solved:
            return None
        try:
            self._apply(m)
        except IllegalMove as err:
            text = str(err)
            return Note(text[:1].upper() + text[1:] + ".", "bad")
        self._forget_hint()
        if self.puzzle.is_solved(self.state):
            self.solved = True
            return Note(self.solved_words(), "solved")
        return self._stuck_or(Note(""))

    def undo(self) -> Note:
        """Take the last move back (it no longer counts)."""
        if not self.trail:
            return Note("Nothing to undo.", "dim")
        self.state, _m = self.trail.pop()
        self.moves.pop()
        self._forget_hint()
        return self._stuck_or(Note("Move taken back.", "dim"))

    def reset(self) -> Note:
        """Start again from the initial state (it counts for the score), unless there already."""
        if self.at_start:
            return Note("You are at the start already.", "dim")
        self.resets += 1
        self.state = self.start = self.puzzle.initial()
        self.trail.clear()
        self.moves.clear()
        self._forget_hint()
        return Note("Back to the start.", "dim")

    def stuck(self) -> bool:
        """Can the goal no longer be reached? (Only asked of types with dead ends.)"""
        return self.puzzle.dead_ends and self.puzzle.solve(self.state) is None

    def _stuck_or(self, note: Note) -> Note:
        return Note(STUCK, "bad") if self.stuck() else note

    # ------------------------------------------------------------------ hints

    def _forget_hint(self) -> None:
        self.hint_tier = 0
        self.hint_lines = []
        self.hint_moves = []

    def hint(self, super_hint: bool, keys_for: Callable[[Any, Any], str] | None = None) -> Note:
        """Buy the next hint tier (or a super hint) for the current state, if the coins allow.
        ``keys_for(state, move)``: the keys that make a move, named in the move's hint."""
        p, s = self.puzzle, self.state
        if self.hint_tier >= (SUPER_TIER if super_hint else MOVE_TIER):
            return Note("That hint is on the board already.", "dim")
        cost = SUPER_HINT_COST if super_hint else 1
        if self.coins < cost:
            if self.coins == 0:
                return Note("You have no hint coins.", "bad")
            return Note(f"A super hint costs {cost} coins; you have {self.coins}.", "bad")
        try:
            move, left = optimal_hint(p, s)
        except Unsolvable:
            return Note(STUCK, "bad")
        if super_hint:
            shown = (p.solve(s) or [])[:SUPER_HINT_MOVES]
            cur = s
            self.hint_lines = [(f"Next {len(shown)} moves", f"({left} moves left):")]
            for n, m in enumerate(shown, 1):
                self.hint_lines.append((f"{n}.", p.describe_move(m, cur)))
                cur = p.apply(cur, m)
            self.hint_moves = shown
            self.hint_tier = SUPER_TIER
        else:
            self.hint_tier += 1
            if self.hint_tier < MOVE_TIER:
                self.hint_lines.append((f"Hint {self.hint_tier}", p.nudge(s, self.hint_tier)))
            else:
                keys = keys_for(s, move) if keys_for is not None else ""
                words = p.describe_move(move, s)
                steps = "1 move left" if left == 1 else f"{left} moves left"
                self.hint_lines.append(
                    ("Next:", f"{words} ({steps})." + (f" Keys: {keys}." if keys else ""))
                )
                self.hint_moves = [move]
        self.coins -= cost
        self.coins_spent += cost
        self.hints_used += cost
        return Note(f"Hint bought: {self.coins} coin{'s' if self.coins != 1 else ''} left.", "dim")


__all__ = ["Note", "PuzzleOutcome", "Visit", "score"]
