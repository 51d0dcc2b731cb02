"""The puzzle screen: one Layton-style puzzle, played with the keyboard.

``PuzzleScreen(puzzle, state=None, *, coins=0, hints_used=0, resets=0, moves=None)`` shows a
:class:`~roguelike.puzzles.visit.Visit` of one instance of any type in :mod:`roguelike.puzzles`
and dismisses with its :class:`~roguelike.puzzles.visit.PuzzleOutcome`: solved (Enter once the
puzzle is solved) or not (Esc: the progress is kept in the outcome, and
``PuzzleScreen(puzzle, state=outcome.state_json, moves=outcome.moves, ...)`` continues it).

The screen never decides a rule: the type's view (:data:`~screens.puzzle.views.VIEWS`) turns
keys into the puzzle's moves, and the visit makes them, undoes them, sells hints and keeps the
score. The keys are the view's ``KEYS`` followed by :data:`SCREEN_KEYS`, the same in every
type: ``h`` hint (tiers 1 and 2: the puzzle's nudges in words; tier 3: the milestone, the next
goal on the way that then stays reached, when there is one; tier 4: the next move,
highlighted on the board, with the moves left; then "another hint": each further ``h`` shows
the step after the last one shown; one coin each), ``H`` super hint (the next three steps, two
coins). With no coins, asking twice pays with score (see :mod:`roguelike.puzzles.visit`).
``u`` undo, ``r`` reset (press twice; it counts for the score, across visits), ``?`` rules,
Esc leave (press twice, unless solved: the first says so, any other key stays; so keys
meant for the puzzle, typed on after a stray Esc, never walk or travel on the map behind it).
The footer, the rules screen and the input all read that one list.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from itertools import zip_longest

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingsMap
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from roguelike import puzzles
from roguelike.puzzles.base import Puzzle
from roguelike.puzzles.visit import (
    HINT_PENALTY,
    RESET_PENALTY,
    SCORE_HINT_UNITS,
    SUPER_HINT_COST,
    SUPER_HINT_MOVES,
    Note,
    PuzzleOutcome,
    Visit,
)
from screens.box import BoxScreen
from screens.lines import TextLines, same_text
from screens.puzzle.draw import (
    BAD,
    BRIGHT,
    DIM,
    GOOD,
    HINT,
    LABEL,
    monochrome,
    shapes,
    wrap,
    wrap_text,
)
from screens.puzzle.view import Answer, Key, Play, Say, ViewKey
from screens.puzzle.views import PuzzleView, view_for

#: The message line's colour per tone of a visit's note.
TONES = {"plain": BRIGHT, "dim": DIM, "bad": BAD, "warn": "bold #ffd060", "solved": GOOD}


@dataclass(frozen=True, kw_only=True)
class ScreenKey(Key):
    """A key that works in every puzzle type: ``press(screen)`` does its work; ``plays``:
    it plays the puzzle (False: the rules and leaving, which never take the puzzle from the
    bot in watch mode)."""

    press: Callable[[PuzzleScreen], None] = field(repr=False)
    plays: bool = True


def textual_bindings(keys: Sequence[Key]) -> list[Binding]:
    """``keys`` as Textual bindings: row ``i`` runs the screen's ``key(i)`` action."""
    return [
        Binding(
            row.keys,
            f"key({i})",
            row.footer or row.description,
            show=bool(row.footer),
            key_display=row.key_display,
            group=Binding.Group(row.group, compact=True) if row.group else None,
        )
        for i, row in enumerate(keys)
    ]


def key_rows(keys: Sequence[Key]) -> list[tuple[str, str]]:
    """(keys, description) of ``keys``, one row per description, for the rules screen."""
    out: dict[str, list[str]] = {}
    for row in keys:
        shown = row.key_display or row.keys.split(",")[0]
        names = out.setdefault(row.description, [])
        if shown not in names:
            names.append(shown)
    return [(" ".join(names), description) for description, names in out.items()]


# ---------------------------------------------------------------------------- rules screen


class RulesScreen(BoxScreen[None]):
    """The rules of a puzzle type and its keys. Esc, ? or Enter closes it."""

    DEFAULT_CSS = """
    RulesScreen #rules-box {
        width: 76;
    }
    """
    BINDINGS = [Binding("escape,question_mark,enter,q", "close", "Close", key_display="esc")]

    def __init__(self, type_name: str, keys: Sequence[Key], board: str = "") -> None:
        super().__init__()
        self.type_name = type_name
        self.keys = keys
        self.board = board  # the rules of the board at hand, when its type varies them

    def compose(self) -> ComposeResult:
        text = Text(f"{self.type_name.capitalize()}: the rules\n\n", style="bold")
        paragraphs = puzzles.kind(self.type_name).rules.split("\n\n")
        text.append("\n\n".join(" ".join(par.split()) for par in paragraphs))
        if self.board:
            text.append(f"\n\n{self.board}", style="bold")
        text.append("\n\nKeys", style="bold")
        rows = key_rows(self.keys)
        half = (len(rows) + 1) // 2
        table = Table(show_header=False, box=None, padding=(0, 1), expand=True)
        for _ in range(2):
            table.add_column(style="bold #ffd060", justify="right", no_wrap=True)
            table.add_column(ratio=1)
        for left, right in zip_longest(rows[:half], rows[half:], fillvalue=("", "")):
            table.add_row(*left, *right)
        with VerticalScroll(id="rules-box", classes="box"):
            yield Static(text, id="rules-text")
            yield Static(table, id="rules-keys")
            hints = Text("\nHints", style="bold")
            hints.append(f"\n{HINT_RULES}", style="")
            yield Static(hints, id="rules-hints")

    def action_close(self) -> None:
        self.dismiss(None)


# ---------------------------------------------------------------------------- the screen


class PuzzleScreen(Screen[PuzzleOutcome]):
    """One puzzle instance, played with the keyboard (see the module docstring).

    ``state``, ``moves``, ``coins``, ``hints_used`` and ``resets`` open the visit (see
    :class:`~roguelike.puzzles.visit.Visit`; ValueError when the moves do not lead to the
    state). ``on_player_key``: called before any key that plays does its work
    (watch mode: a key takes the puzzle over from the bot, which plays through
    :meth:`play_json`; the rules and Esc do not).
    """

    CSS_PATH = "puzzle.tcss"
    AUTO_FOCUS = ""

    def __init__(
        self,
        puzzle: Puzzle[Hashable, Hashable],
        state: object = None,
        *,
        coins: int = 0,
        hints_used: int = 0,
        resets: int = 0,
        moves: Sequence[object] | None = None,
        on_player_key: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        self.on_player_key = on_player_key
        self.visit = Visit(
            puzzle, state, coins=coins, hints_used=hints_used, resets=resets, moves=moves
        )
        self.view: PuzzleView = view_for(puzzle)
        #: the view's snapshot before each move made (for undo)
        self._snaps: list[object] = []
        self.view.reset_ui(self.visit.start)
        trail = self.visit.trail
        for k, (before, m) in enumerate(trail):
            after = trail[k + 1][0] if k + 1 < len(trail) else self.visit.state
            self._snaps.append(self.view.snapshot())
            self.view.moved(before, m, after)
        #: the keys that work here: the view's, then the screen's own
        self.keys: tuple[Key, ...] = (*self.view.KEYS, *SCREEN_KEYS)
        # The keys depend on the puzzle type, so they are bound per screen, over the bindings
        # every Screen has (as a subclass's BINDINGS would be).
        merged = self._bindings.key_to_bindings.copy()
        merged.update(BindingsMap(textual_bindings(self.keys)).key_to_bindings)
        self._bindings = BindingsMap.from_keys(merged)
        self.message: Text = Text("")
        self._reset_armed = False
        self._leave_armed = False
        self._shown: dict[str, Text] = {}
        self._panel_w = 0
        if self.visit.solved:
            self._say_solved()
        else:
            self.say("? shows the rules. h buys a hint.", DIM)

    @property
    def solved(self) -> bool:
        return self.visit.solved

    @property
    def moves(self) -> list[object]:
        """The moves made, as ``move_to_json`` documents."""
        return self.visit.moves

    def outcome(self) -> PuzzleOutcome:
        return self.visit.outcome()

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Static("", id="puzzle-title")
        with Horizontal(id="puzzle-main"):
            yield TextLines(wrap=False, id="puzzle-board")
            # never focused: the arrows belong to the puzzle (the mouse wheel still scrolls)
            with VerticalScroll(id="puzzle-side", can_focus=False):
                yield TextLines(wrap=False, id="puzzle-panel")
        yield Static("", id="puzzle-message")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.redraw()

    def on_resize(self, event: events.Resize) -> None:
        self.redraw()

    # ------------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action != "key":
            return True
        i = parameters[0]
        assert isinstance(i, int)
        row = self.keys[i]
        if row.always:
            return True
        return row.when_solved == self.visit.solved

    def action_key(self, i: int) -> None:
        row = self.keys[i]
        if self.on_player_key is not None and not (isinstance(row, ScreenKey) and not row.plays):
            self.on_player_key()
        if row is not RESET_KEY:
            self._reset_armed = False
        if row is not LEAVE_KEY:
            self._leave_armed = False
        if isinstance(row, ViewKey):
            self._answer(row.press(self.view, self.visit.state))
        else:
            assert isinstance(row, ScreenKey)
            row.press(self)

    def _answer(self, answer: Answer) -> None:
        if isinstance(answer, Say):
            self.say(answer.text)
        elif isinstance(answer, Play):
            self.play(answer.move)
            return
        self.redraw()

    def hint(self, super_hint: bool) -> None:
        self.say_note(self.visit.hint(super_hint, self.view.keys_for))
        self.redraw()

    def rules(self) -> None:
        p = self.visit.puzzle
        board = p.board_rules() if callable(getattr(p, "board_rules", None)) else ""
        self.app.push_screen(RulesScreen(p.type_name, self.keys, board))

    def leave(self) -> None:
        self.dismiss(self.outcome())

    def ask_leave(self) -> None:
        """Esc: leave a solved puzzle at once, an unsolved one on the second Esc in a row (the
        first says so; any other key in between stays). Asking rather than leaving keeps the
        keys typed on after a stray Esc, meant for the puzzle, from acting on the map."""
        if self.visit.solved or self._leave_armed:
            self._leave_armed = False
            self.leave()
            return
        self._leave_armed = True
        self.say("Press Esc again to leave (your moves are kept).", TONES["warn"])
        self.redraw()

    # ------------------------------------------------------------------ moves

    def play(self, m: Hashable) -> None:
        """The player's move ``m``."""
        visit = self.visit
        before, made, snap = visit.state, len(visit.moves), self.view.snapshot()
        note = visit.play(m)
        if note is None:
            return
        if len(visit.moves) > made:
            self._snaps.append(snap)
            self.view.moved(before, m, visit.state)
        if note.tone == "solved":
            self._say_solved()
            self.refresh_bindings()
        else:
            self.say_note(note)
        self.redraw()

    def play_json(self, move: object, note: str = "") -> None:
        """Play ``move``, a ``move_to_json`` document, as if the player had made it (the puzzle
        checks it), and draw it: how watch mode's bot solves a pedestal on screen, one move at a
        time. ``note``: what the message line says after a legal move that did not solve it."""
        made = len(self.visit.moves)
        self.play(self.visit.puzzle.move_from_json(move))
        if note and not self.visit.solved and len(self.visit.moves) > made:
            self.say(note, DIM)
            self.redraw()

    def undo(self) -> None:
        """Take the last move back."""
        undone = bool(self.visit.trail)
        note = self.visit.undo()
        if undone:
            self.view.restore(self._snaps.pop(), self.visit.state)
        self.say_note(note)
        self.redraw()

    def reset(self) -> None:
        """Start again, on the second press in a row (the first says what it costs)."""
        visit = self.visit
        if visit.at_start:
            self.say_note(visit.reset())
        elif not self._reset_armed:
            self._reset_armed = True
            self.say(
                f"Press r again to start over (it costs {RESET_PENALTY} points).", TONES["warn"]
            )
        else:
            self._reset_armed = False
            self.say_note(visit.reset())
            self._snaps.clear()
            self.view.reset_ui(visit.state)
        self.redraw()

    def _say_solved(self) -> None:
        self.message = Text.assemble(
            (self.visit.solved_words(), GOOD),
            (f"  Score {self.visit.score}.", "bold"),
            ("  Enter to finish.", DIM),
        )

    # ------------------------------------------------------------------ drawing

    def say(self, text: str, style: str = BRIGHT) -> None:
        self.message = Text(text, style=style)

    def say_note(self, note: Note) -> None:
        self.say(note.text, TONES[note.tone])

    def _panel_width(self) -> int:
        return 40 if self.size.width >= 110 else 30

    def board_size(self) -> tuple[int, int]:
        """The characters the board may use: the screen less the side panel (its text, padding,
        border and scroll bar), the title, the message lines, the footer and the board's own
        padding (see puzzle.tcss)."""
        width, height = self.size
        return max(10, width - self._panel_width() - 4 - 2), max(5, height - 5)

    def redraw(self) -> None:
        if not self.is_mounted:
            return
        visit, p = self.visit, self.visit.puzzle
        panel_w = self._panel_width()
        if panel_w != self._panel_w:
            self._panel_w = panel_w
            self.query_one("#puzzle-side").styles.width = panel_w + 4  # padding, border, bar
        title = Text(no_wrap=True, overflow="ellipsis")
        title.append(f" {p.type_name.capitalize()} ", style="bold #000000 on #d0a040")
        title.append(f" {p.difficulty}   ", style=LABEL)
        over = visit.move_count > p.par
        title.append("Moves ", style=LABEL)
        title.append(f"{visit.move_count}", style=BAD if over else "bold")
        title.append(f" / par {p.par}   ", style=LABEL)
        title.append("Score ", style=LABEL)
        title.append(f"{visit.score}   ", style="bold")
        title.append("Coins ", style=LABEL)
        title.append(f"{visit.coins}", style="bold #ffd060")
        if visit.solved:
            title.append("   SOLVED", style=GOOD)
        self._update("#puzzle-title", title)
        board = self.view.board(visit.state, *self.board_size(), visit.hint_moves)
        panel = self._panel(panel_w)
        if shapes():  # the monochrome theme: the views' shapes and letters say it all
            board, panel = monochrome(board), monochrome(panel)
        self.query_one("#puzzle-board", TextLines).show(board)
        self.query_one("#puzzle-panel", TextLines).show(panel)
        self._update("#puzzle-message", self.message)

    def _update(self, selector: str, text: Text) -> None:
        """Show ``text`` in a Static, if it is not shown there already."""
        widget = self.query_one(selector, Static)
        shown = self._shown.get(selector)
        if shown is None or not same_text(shown, text):
            self._shown[selector] = text
            widget.update(text)

    def _panel(self, width: int) -> list[Text]:
        visit = self.visit
        out: list[Text] = []
        if visit.hint_lines:
            for k, (label, words) in enumerate(visit.hint_lines):
                line = Text.assemble((label + " ", f"bold {HINT}"), words)
                out += wrap_text(line, width)
                following = visit.hint_lines[k + 1][0] if k + 1 < len(visit.hint_lines) else ""
                if not following[:1].isdigit():  # a blank line after each hint
                    out.append(Text(""))
        out += wrap("Goal: " + self.view.goal, width, "bold")
        if visit.solved:
            out.append(Text(""))
            out.append(Text("Solved!", style=GOOD))
            out += wrap(visit.score_words(), width)
        else:
            for line in self.view.status(visit.state, width, visit.hint_moves):
                out += wrap_text(line, width)
        return out


HINT_WORDS = "hint, then another: 1 coin per step"
#: The hint rules in the rules screen (see :mod:`roguelike.puzzles.visit`).
HINT_RULES = (
    "h twice gives two clues in words, the third h a milestone (a goal on the way that then "
    "stays reached), the fourth the next move, and every h after that "
    f"the step after it: a coin each. A hint costs the score {HINT_PENALTY} points a coin. "
    "With no coins "
    f"left, ask twice and the hint is paid with score instead ({HINT_PENALTY * SCORE_HINT_UNITS} "
    "points), so you can always get past. Each reset costs "
    f"{RESET_PENALTY} points, kept when you leave and come back."
)
SUPER_WORDS = f"the next {SUPER_HINT_MOVES} moves ({SUPER_HINT_COST} coins)"
RESET_KEY = ScreenKey(
    keys="r",
    description="start again (press twice)",
    footer="reset",
    key_display="r",
    press=PuzzleScreen.reset,
)
LEAVE_KEY = ScreenKey(
    keys="escape",
    description="leave (press twice; progress is kept)",
    footer="leave",
    key_display="esc",
    always=True,
    press=PuzzleScreen.ask_leave,
    plays=False,
)
#: The keys of every puzzle type, after the view's own.
SCREEN_KEYS: tuple[ScreenKey, ...] = (
    ScreenKey(
        keys="h",
        description=HINT_WORDS,
        footer="hint",
        key_display="h",
        group="hint",
        press=lambda screen: screen.hint(False),
    ),
    ScreenKey(
        keys="H",
        description=SUPER_WORDS,
        footer="hint",
        key_display="H",
        group="hint",
        press=lambda screen: screen.hint(True),
    ),
    ScreenKey(
        keys="u",
        description="undo the last move",
        footer="undo",
        key_display="u",
        press=PuzzleScreen.undo,
    ),
    RESET_KEY,
    ScreenKey(
        keys="enter",
        description="finish, once solved",
        footer="done",
        key_display="⏎",
        when_solved=True,
        press=PuzzleScreen.leave,
    ),
    ScreenKey(
        keys="question_mark",
        description="these rules",
        footer="rules",
        key_display="?",
        always=True,
        press=PuzzleScreen.rules,
        plays=False,
    ),
    LEAVE_KEY,
)


# ---------------------------------------------------------------------------- a tiny app


class PuzzleApp(App[PuzzleOutcome | None]):
    """An app that plays one puzzle and exits with its outcome (``roguelike puzzle play``)."""

    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False, priority=True)]

    def __init__(self, puzzle: Puzzle[Hashable, Hashable], *, coins: int = 0) -> None:
        super().__init__()
        self.puzzle = puzzle
        self.coins = coins

    def on_mount(self) -> None:
        self.push_screen(PuzzleScreen(self.puzzle, coins=self.coins), self.exit)
