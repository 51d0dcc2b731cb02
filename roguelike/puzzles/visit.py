"""A visit to one puzzle: its state, the moves made, undo, reset, hints bought with coins, the
score and what the visit ended with. No user interface: the puzzle screen shows a visit and
turns keys into its moves; anything else (a test, a bot) can play one the same way.

The visit never decides a rule: every move is the puzzle's own (``apply`` checks it), and the
moves made are kept as ``move_to_json`` documents, so whoever reads the outcome can verify a
solution by replaying them from ``start_json``.

Hints are computed from the current state (:func:`roguelike.puzzles.advise`, within the type's
node budget, so a hint never stalls) and cost coins: tiers 1 and 2 are the puzzle's nudges in
words (the first names something to act on: a jug, tiles, a row, a piece, a key), tier 3 the
milestone, the next intermediate goal on the plan that stays reached to its end
(:func:`roguelike.puzzles.milestone`; skipped when the plan has none, so no coin buys nothing),
tier 4 the next move with the moves left (one coin each); every further hint ("another
hint") reveals the step after the last one shown, one coin each, until the whole way is on the
board; a super hint shows the next three steps at once for two coins (and another hint then goes
on from the fourth). The tiers start again after every move. When the solver cannot prove the
shortest plan within its budget, the move hint says so: its steps lie on a known route (not
proven shortest), and when undoing a few moves would rejoin a proven shortest way, it says how
many.

No coins, no dead end: with no coin left, asking for a hint twice in a row buys it with the
puzzle's score instead: it counts as :data:`SCORE_HINT_UNITS` coins' worth of hints (20 points,
twice a coin hint). A player who has spent every coin can thus always get past a puzzle door,
step by step, at a price in score that stays higher than a coin's, so coins keep their worth
and the score says how much help was needed. The score never falls below 0, so past that the
help is free: being stuck is never the end of a run. (Asking twice keeps a stray key from
costing points.)

Score::

    score = max(0, 100 - 10 * hints_used - 5 * resets - 2 * max(0, move_count - par))

``hints_used`` counts hint coins' worth (a super hint counts 2, a hint paid with score
SCORE_HINT_UNITS) and includes the hints of earlier visits; ``resets`` includes the resets of
earlier visits too (the pedestal keeps both, so leaving and coming back does not wipe them);
``move_count`` is the number of moves from the start after undos (an undone move costs nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from roguelike.puzzles import advise, hint_budget, milestone
from roguelike.puzzles.base import Advice, IllegalMove, Milestone, SearchLimit, Unsolvable

#: Points lost per hint coin's worth, per reset, per move over par.
HINT_PENALTY = 10
RESET_PENALTY = 5
OVER_PAR_PENALTY = 2
SUPER_HINT_COST = 2
SUPER_HINT_MOVES = 3
MILESTONE_TIER = 3  # the hint tier that names the next milestone on the plan
MOVE_TIER = 4  # the hint tier that shows the next move itself
SUPER_TIER = 5  # the hint tier a super hint stands for (above the move itself)
#: Coins' worth of hints a hint paid with score counts for (with no coins left).
SCORE_HINT_UNITS = 2
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
        #: the moves the current hint shows (tier 3: one, then one more per further hint)
        self.hint_moves: list[Any] = []
        #: the advice for the current state, once a hint asked for it
        self._advice: Advice | None = None
        #: the milestone for the current state, once a hint asked for it (False: not yet)
        self._milestone: Milestone | None | Literal[False] = False
        #: a hint with no coins was asked for once: asking again pays with score
        self._credit_offered: bool | None = None

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
        """Can the goal no longer be reached? (Only asked of types with dead ends, within the
        hint's node budget: a search that runs out proves nothing, so it is not called stuck.)"""
        p = self.puzzle
        if not p.dead_ends:
            return False
        try:
            return p.solve(self.state, hint_budget(p)) is None
        except SearchLimit:
            return False

    def _stuck_or(self, note: Note) -> Note:
        return Note(STUCK, "bad") if self.stuck() else note

    # ------------------------------------------------------------------ hints

    def _forget_hint(self) -> None:
        self.hint_tier = 0
        self.hint_lines = []
        self.hint_moves = []
        self._advice = None
        self._milestone = False
        self._credit_offered = None

    def advice(self) -> Advice:
        """The advice from the current state (computed once per state; raises Unsolvable)."""
        if self._advice is None:
            self._advice = advise(self.puzzle, self.state, trail=[st for st, _m in self.trail])
        return self._advice

    def milestone(self) -> Milestone | None:
        """The next milestone on the advice's plan (computed once per state; None: none)."""
        if self._milestone is False:
            self._milestone = milestone(self.puzzle, self.state, self.advice())
        return self._milestone

    def _pay(self, cost: int, super_hint: bool) -> Note | None:
        """Pay for a hint of ``cost`` coins; None when paid, else why not. With no coins, the
        second ask in a row pays with score (SCORE_HINT_UNITS coins' worth per coin)."""
        if self.coins >= cost:
            self.coins -= cost
            self.coins_spent += cost
            self.hints_used += cost
            return None
        if self.coins > 0:
            return Note(f"A super hint costs {cost} coins; you have {self.coins}.", "bad")
        points = HINT_PENALTY * SCORE_HINT_UNITS * cost
        if self._credit_offered is not super_hint:
            self._credit_offered = super_hint
            return Note(
                f"You have no hint coins. Ask again to pay {points} points of this puzzle's "
                "score instead.",
                "warn",
            )
        self._credit_offered = None
        self.hints_used += SCORE_HINT_UNITS * cost
        return None

    def _bought(self, paid_with_coins: bool) -> Note:
        if not paid_with_coins:
            return Note(f"Hint bought with score: {self.score_words()}", "dim")
        return Note(f"Hint bought: {self.coins} coin{'s' if self.coins != 1 else ''} left.", "dim")

    def hint(self, super_hint: bool, keys_for: Callable[[Any, Any], str] | None = None) -> Note:
        """Buy the next hint for the current state: the next tier, or once the move is shown,
        the step after the last one shown ("another hint"); with ``super_hint`` the next three
        steps at once. Paid with coins, or with no coins with score (see the module docstring).
        ``keys_for(state, move)``: the keys that make a move, named in the move's hint."""
        p, s = self.puzzle, self.state
        try:
            a = self.advice()
        except Unsolvable:
            return Note(STUCK, "bad")
        if a.move is None and a.undo:  # a dead end: undo (free: it is the rules' doing)
            return Note(a.text + " (u undoes.)", "bad")
        if a.move is None:  # no plan within the budget: nothing to sell, nothing charged
            return Note(a.text, "warn")
        steps = list(a.plan)
        if super_hint:
            if len(self.hint_moves) >= min(SUPER_HINT_MOVES, len(steps)):
                return Note("That hint is on the board already.", "dim")
        elif self.hint_tier >= MOVE_TIER and len(self.hint_moves) >= len(steps):
            return Note("The whole way is on the board already.", "dim")
        cost = SUPER_HINT_COST if super_hint else 1
        coins_before = self.coins
        refused = self._pay(cost, super_hint)
        if refused is not None:
            return refused
        if super_hint:
            shown = steps[:SUPER_HINT_MOVES]
            head = (
                f"({a.moves_left} moves left):"
                if a.exact
                else f"(of a known way of {a.route_len}, not proven shortest):"
            )
            self.hint_lines = [(f"Next {len(shown)} moves", head)]
            cur = s
            for n, m in enumerate(shown, 1):
                self.hint_lines.append((f"{n}.", p.describe_move(m, cur)))
                cur = p.apply(cur, m)
            self.hint_moves = shown
            self.hint_tier = SUPER_TIER
        elif self.hint_tier + 1 < MILESTONE_TIER:
            self.hint_tier += 1
            try:
                words = p.nudge(s, self.hint_tier)
            except SearchLimit:
                words = "No hint in words within the hint's budget: the next one shows a move."
            self.hint_lines.append((f"Hint {self.hint_tier}", words))
        elif self.hint_tier + 1 == MILESTONE_TIER and (goal := self.milestone()) is not None:
            self.hint_tier = MILESTONE_TIER
            self.hint_lines.append(("Milestone", goal.text))
        elif self.hint_tier + 1 <= MOVE_TIER:
            self.hint_tier = MOVE_TIER
            keys = keys_for(s, a.move) if keys_for is not None else ""
            words = p.describe_move(a.move, s)
            if a.exact:
                left = "1 move left" if a.moves_left == 1 else f"{a.moves_left} moves left"
            else:
                left = f"on a known way of {a.route_len} moves, not proven shortest"
            self.hint_lines.append(
                ("Next:", f"{words} ({left})." + (f" Keys: {keys}." if keys else ""))
            )
            if a.undo:
                self.hint_lines.append(
                    ("Or:", f"undo {a.undo} moves to rejoin a shortest way ({a.undo_left} left).")
                )
            self.hint_moves = [a.move]
        else:  # another hint: the step after the last one shown
            cur = s
            for m in self.hint_moves:
                cur = p.apply(cur, m)
            m = steps[len(self.hint_moves)]
            self.hint_moves.append(m)
            self.hint_lines.append((f"{len(self.hint_moves)}.", p.describe_move(m, cur)))
        return self._bought(self.coins < coins_before)


__all__ = ["Note", "PuzzleOutcome", "Visit", "score"]
