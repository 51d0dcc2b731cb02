"""Watch mode: the bot at the wheel of a game screen.

:class:`Watch` plays the autoplayer's choice (:meth:`roguelike.autoplay.Autopilot.decide`, one
turn a tick) through the same :meth:`GameScreen.act <screens.game.screen.GameScreen.act>` a key
uses, and says why on the prompt line; on a pedestal the puzzle screen opens as for a player
and the bot plays its moves there one per tick, then leaves it, and the engine checks them.
Space pauses, ``+``/``-`` set the speed, ``f`` plays one tick while paused, ``A`` gives or takes
the wheel; any key that plays takes the wheel back (the screen's ``takes_over``), never a key
that only looks (look, travel's cursor, Tab, the overview: the bot waits while a cursor is up),
nor Esc, nor the puzzle's rules (Esc on the bot's puzzle leaves it and pauses the bot).

The ticks come from a :class:`Clock`: Textual's timers on the screen (:func:`default_clock`),
or in tests a clock they advance by hand, so that a watch is stepped, never waited for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from textual.screen import Screen

from roguelike.autoplay import Autopilot, decide
from roguelike.engine import Descend, SolvePuzzle
from screens.puzzle import PuzzleScreen
from screens.side_panel import OLD

if TYPE_CHECKING:
    from screens.game.screen import GameScreen

#: The bot's speeds in watch mode, in actions per second (``+``/``-`` choose one).
SPEEDS: tuple[float, ...] = (2, 4, 7, 12, 25, 50)
#: The speed a watch starts at (1 is the slowest): readable, a fight still followed blow by blow.
DEFAULT_SPEED = 3
#: Ticks the bot lingers over a puzzle before its first move and once it is solved, so that a
#: watcher sees the puzzle, then the solved board.
PUZZLE_LINGER = 3


class Ticks(Protocol):
    """Ticks being delivered (a Textual timer): stopped once."""

    def stop(self) -> None: ...


class Clock(Protocol):
    """What calls the bot: ``tick`` every ``seconds`` until the returned ticks are stopped."""

    def every(self, seconds: float, tick: Callable[[], None]) -> Ticks: ...


@dataclass(frozen=True)
class ScreenClock:
    """Textual's timers on ``screen`` (they stop with it)."""

    screen: Screen[Any]

    def every(self, seconds: float, tick: Callable[[], None]) -> Ticks:
        return self.screen.set_interval(seconds, tick)


def default_clock(screen: Screen[Any]) -> Clock:
    """The clock of a game screen made without one (tests put a hand-driven one here)."""
    return ScreenClock(screen)


class Watch:
    """The bot's wheel of one game screen: whether it has it, paused or not, at which speed,
    why it did what it did last, and the puzzle it is solving."""

    def __init__(self, game: GameScreen, *, autopilot: bool, speed: int, clock: Clock) -> None:
        self.game = game
        #: The bot has the wheel (paused or not).
        self.autopilot = autopilot
        self.paused = False
        self.speed = min(len(SPEEDS), max(1, speed))
        #: Why the bot did what it did last ("exploring", "fighting a goblin" …).
        self.why = ""
        #: The bot's turn-by-turn loop: its memory, refused tries, and whether it is stuck.
        self.pilot = Autopilot(game.state, stepwise=True)
        self._clock = clock
        self._ticks: Ticks | None = None
        self._ticking = False
        #: The bot's moves for the puzzle screen that is up, and the ticks left to linger.
        self._plan: list[Any] | None = None
        self._linger = 0
        #: The moves of the decision that opened the puzzle screen (solved once, not twice).
        self._opened_with: list[Any] | None = None

    @property
    def interval(self) -> float:
        """Seconds between two of the bot's actions at its current speed."""
        return 1 / SPEEDS[self.speed - 1]

    @property
    def running(self) -> bool:
        """The clock is ticking (the bot has the wheel and is not paused)."""
        return self._ticks is not None

    def status(self, width: int = 78) -> str | None:
        """The prompt line while the bot has the wheel (None when it has not): what it does and
        the keys, the least needed dropped until the line fits in ``width``."""
        if not self.autopilot or self.game.ended:
            return None
        # (importance, words) in the order shown: the least important (largest number) goes first
        why = self.why or "thinking…"
        speed = f"speed {self.speed}/{len(SPEEDS)} +/-"
        if self.paused:
            parts = [
                (0, f"Paused: {why}"),
                (4, speed),
                (1, "space resumes"),
                (3, "f steps"),
                (2, "a game key takes over"),
            ]
        else:
            parts = [
                (0, f"Watching: {why}"),
                (3, speed),
                (2, "space pause"),
                (1, "a game key takes over"),
            ]
        while len(parts) > 1 and len(" · ".join(w for _, w in parts)) > width:
            parts.remove(max(parts))
        return " · ".join(w for _, w in parts)

    # -- the wheel, the pause and the speed

    def start(self) -> None:
        """Give the bot the wheel, afresh (its memory starts over)."""
        self.autopilot, self.paused = True, False
        self.pilot = Autopilot(self.game.state, stepwise=True)
        self.changed()

    def stop(self, why: str | None = None) -> None:
        """Take the wheel from the bot (``why``: said on the prompt line)."""
        if not self.autopilot:
            return
        self.autopilot = False
        if why is not None:
            self.game.prompt = why
        self.changed()

    def toggle_pause(self) -> None:
        if self.autopilot:
            self.paused = not self.paused
            self.changed()

    def pause(self) -> None:
        """Pause the bot (if it has the wheel and runs)."""
        if self.autopilot and not self.paused:
            self.toggle_pause()

    def set_speed(self, speed: int) -> None:
        speed = min(len(SPEEDS), max(1, speed))
        if self.autopilot and speed != self.speed:
            self.speed = speed
            self.changed()

    def step_once(self) -> None:
        """``f``: one tick while paused."""
        if self.autopilot and self.paused:
            self.tick()

    def changed(self) -> None:
        """The wheel, pause or speed changed: the clock, the prompt line, the footer."""
        self.restart()
        self.game.watch_changed()

    def restart(self) -> None:
        """The clock ticks at the current speed while the bot has the wheel and no pause."""
        if self._ticks is not None:
            self._ticks.stop()
            self._ticks = None
        if self.autopilot and not self.paused:
            self._ticks = self._clock.every(self.interval, self.tick)

    # -- a tick

    def puzzle_opened(self) -> None:
        """A puzzle screen came up: the bot has no plan for it yet."""
        self._plan, self._linger, self._opened_with = None, 0, None

    def tick(self) -> None:
        """One action of the bot. Nothing while another screen is on top (help, history, the
        pack, the too-small message) but the puzzle screen the game screen opened, where it
        plays one move, nor while the watcher looks (a cursor is up); never two at once."""
        game = self.game
        if not self.autopilot or self._ticking or game.puzzle_closing or game.waiting_stairs:
            return
        if game.ended:
            self.stop()
            return
        top = game.app.screen
        self._ticking = True
        try:
            if top is game:
                if not game.looking:
                    self._act()
            elif game.puzzle_screen is not None and top is game.puzzle_screen:
                self._solve(game.puzzle_screen)
        finally:
            self._ticking = False
        if game.ended:
            self.stop()
        elif self.autopilot:
            game.draw_status()

    def _act(self) -> None:
        game, pilot = self.game, self.pilot
        state = game.state
        decision = pilot.decide(state)
        self.why = decision.why
        if isinstance(decision.action, SolvePuzzle) and state.puzzles.get(state.player):
            pilot.acted(False)  # until its report spends a turn (a refused one never does)
            game.open_puzzle()  # the bot plays the moves there, one per tick
            self._opened_with = list(decision.action.moves)
            return
        if isinstance(decision.action, Descend) and game.descend_when_ready():
            return  # the floor below is still being made: the screen takes the stairs when it is
        before = (state.turn, state.number)
        game.act(decision.action)
        pilot.acted((state.turn, state.number) != before)
        if pilot.stuck(state):
            self.stop("The bot is stuck here: A lets it try again, or play on.")

    def _solve(self, screen: PuzzleScreen) -> None:
        """One step of the bot at the pedestal: undo a move that is not in its plan, play the
        next, or leave (solved, or when it has something else to do first: a fight).
        Whether the moves solve the puzzle is for the engine to say once the screen closes."""
        if self._linger > 0:
            self._linger -= 1
            return
        if self._plan is None and not screen.solved:
            moves, self._opened_with = self._opened_with, None
            if moves is None:  # the screen was opened otherwise: work the moves out
                decision = decide(self.game.state, stepwise=True, memory=self.pilot.memory)
                self.why = decision.why
                if isinstance(decision.action, SolvePuzzle):
                    moves = list(decision.action.moves)
            if moves is not None:
                self._plan = moves
                self._linger = PUZZLE_LINGER
                n = len(self._plan)
                screen.say(f"The bot studies it: {n} moves to go · a puzzle key takes over", OLD)
                screen.redraw()
                return
        plan = self._plan
        if screen.solved or plan is None:
            self.game.close_puzzle(screen)
            return
        made = screen.moves
        same = 0
        while same < min(len(made), len(plan)) and made[same] == plan[same]:
            same += 1
        if same < len(made):
            screen.undo()
        elif same < len(plan):
            note = f"The bot solves it: move {same + 1} of {len(plan)} · a puzzle key takes over"
            screen.play_json(plan[same], note)
            if screen.solved:
                self._linger = PUZZLE_LINGER
        else:  # its plan is played out and did not solve it: the engine says why
            self.game.close_puzzle(screen)
