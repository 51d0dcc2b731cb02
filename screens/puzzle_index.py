"""The puzzle index: the puzzles met in saved worlds, free play, and the best score of each.

Reached from the title (``i``). The table lists the puzzle rooms the player has stepped on in
every saved world (:func:`saves.scores.puzzles_met`: world, floor, type, difficulty, solved or
not, that visit's score; the solved ones of floors the player has left keep their world and
floor too; read in a thread, so the screen answers at once) and the puzzles
played in free play, each with its best score from :class:`saves.scores.BestScores`; the
highlighted row's puzzle code (:mod:`roguelike.puzzles.codes`) shows under the table.

Free play opens any puzzle on the puzzle screen, as ``roguelike puzzle play`` does: a new one
of the type and difficulty chosen (a random seed), the one a typed puzzle code names, or the
highlighted row's puzzle again (Enter). The source's custom puzzles are chosen on the row under
it (sliding, stomp, ball): the board, the depth (the optimal move count) and the goal (a sliding
goal; blocked cells and a target cell on a ball board), each a list of only the values within
the bounds of :mod:`roguelike.puzzles.custom` (the level's when left so); the code then
carries them after a ``/``. A puzzle solved here updates the best scores and never
touches a world's save (the worlds are only read). A bad code is refused in one line under the
code field.

World names come from save files and are shown as plain text, never as markup.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from functools import cache

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Input, Select, Static

from roguelike import puzzles, seeds
from roguelike.puzzles import ball_custom, codes, custom, sliding, stomp
from roguelike.puzzles.visit import PuzzleOutcome, score
from saves import Store
from saves.scores import BestScores, MetPuzzle, puzzles_met
from saves.text import printable
from screens.puzzle import PuzzleScreen

#: Hint coins a free-play puzzle starts with (as ``roguelike puzzle play``).
FREE_PLAY_COINS = 5
#: (heading, width): the table fits 80 columns; the highlighted row's code shows under it
COLUMNS = (
    ("World", 18),
    ("Floor", 5),
    ("Type", 8),
    ("Difficulty", 10),
    ("Solved", 6),
    ("Score", 5),
    ("Best", 4),
)
FREE_PLAY = "free play"
#: A custom list's entry for the level's own value.
LEVELS = "level's"


def custom_boards(type_name: str) -> list[str]:
    """The boards a custom ``type_name`` puzzle may have, as ``RxC`` (none: no options)."""
    if type_name == "sliding":
        return [f"{n}x{n}" for n in sliding.CUSTOM_SIDES]
    if type_name not in custom.CUSTOM_TYPES:
        return []
    lo, hi = stomp.CUSTOM_SIDES if type_name == "stomp" else ball_custom.CUSTOM_SIDES
    return [f"{r}x{c}" for r in range(lo, hi + 1) for c in range(lo, hi + 1)]


def custom_goals(type_name: str) -> list[tuple[str, str]]:
    """(label, value) of the third custom list: a sliding puzzle's named goals, a ball
    board's blocked cells and target (value ``N`` or ``N,t``)."""
    if type_name == "sliding":
        return [(LEVELS, LEVELS)] + [(f"goal {g}", g) for g in sliding.GOALS[1:]]
    if type_name == "ball":
        out = [(LEVELS, LEVELS), ("target cell", "0,t")]
        for n in range(1, ball_custom.CUSTOM_BLOCKED + 1):
            out += [(f"{n} blocked", str(n)), (f"{n} blocked+target", f"{n},t")]
        return out
    return [(LEVELS, LEVELS)]


def _blocked(value: str) -> int:
    return 0 if value == LEVELS else int(value.partition(",")[0])


def _set(box: Select[str], options: list[tuple[str, str]]) -> None:
    """Give a list new entries, keeping its value when it is still among them."""
    keep = box.value
    box.set_options(options)
    values = [v for _label, v in options]
    box.value = keep if keep in values else values[0]


NONE = "–"


@cache
def par_of(code: str) -> int:
    """The par of the puzzle ``code`` (generated once per code: a pure function of it)."""
    c, options = codes.parse_with_options(code)
    return int(custom.generate(c.type, c.difficulty, c.seed, options).par)


def world_score(m: MetPuzzle) -> int | None:
    """The score of a world's puzzle room, once solved."""
    if not m.solved:
        return None
    if m.score is not None:  # a floor left behind: the score its run kept
        return m.score
    try:
        return score(m.hints_used, m.resets, m.moves, par_of(m.code))
    except (ValueError, puzzles.GenerationError):
        return None


@dataclass(frozen=True)
class Row:
    """One line of the table: a world's puzzle (``met``, with that visit's score ``own`` once
    solved) or one played in free play."""

    code: str
    met: MetPuzzle | None = None
    own: int | None = None

    def cells(self, best: int | None) -> tuple[Text | str, ...]:
        c, _options = codes.parse_with_options(self.code)
        m = self.met
        if m is None:
            where, floor, solved = Text(FREE_PLAY, style="italic"), "", "yes"
        else:
            # a save's text, so plain (never markup), cut to its column
            where = Text(printable(m.world), overflow="ellipsis", no_wrap=True)
            floor, solved = str(m.floor), "yes" if m.solved else "no"
        got = NONE if self.own is None else str(self.own)
        shown_best = NONE if best is None else str(best)
        return (where, floor, c.type, c.difficulty, solved, got, shown_best)


class PuzzleIndexScreen(Screen[None]):
    """The puzzle index (see the module docstring). Esc goes back to the title."""

    DEFAULT_CSS = """
    #index-box {
        padding: 0 1;
    }
    #index-title {
        text-style: bold;
        color: $accent;
    }
    .index-row {
        height: 1;
        margin-top: 1;
    }
    .index-label {
        width: 11;
        color: $text-muted;
    }
    #free-type {
        width: 16;
        margin-right: 1;
    }
    #free-difficulty {
        width: 16;
        margin-right: 1;
    }
    .custom-choice {
        width: 20;
        margin-right: 1;
    }
    #code-input {
        width: 1fr;
        margin-right: 1;
    }
    #index-message {
        height: auto;
        min-height: 1;
        max-height: 3;
        color: $text-muted;
    }
    #index-message.error {
        color: $error;
    }
    #met-title {
        margin-top: 1;
        text-style: bold;
    }
    #met {
        height: 1fr;
    }
    #index-detail {
        height: 1;
        color: $text-muted;
    }
    """
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+n", "play_new", "New puzzle"),
        Binding("ctrl+o", "focus_code", "Type a code"),
    ]

    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store
        self.best_scores = BestScores(store.path)
        #: the table's rows: the puzzles met in the worlds (once read), then free play's
        self.rows: list[Row] = []
        self.met_rows: list[Row] = []
        #: the code of the puzzle being played in free play
        self.playing: str | None = None
        #: the descriptive code whose board is being built (in a thread), if one is
        self.building: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="index-box"):
            yield Static("Puzzle index", id="index-title")
            with Horizontal(classes="index-row"):
                yield Static("Free play", classes="index-label")
                yield Select(
                    [(t, t) for t in puzzles.TYPES],
                    value=puzzles.TYPES[0],
                    allow_blank=False,
                    compact=True,
                    id="free-type",
                )
                yield Select(
                    [(d, d) for d in puzzles.DIFFICULTIES],
                    value=puzzles.DIFFICULTIES[0],
                    allow_blank=False,
                    compact=True,
                    id="free-difficulty",
                )
                yield Button("Play new", id="play-new", compact=True)
            with Horizontal(classes="index-row"):
                yield Static("Custom", classes="index-label")
                for name in ("free-size", "free-depth", "free-goal"):
                    yield Select(
                        [(LEVELS, LEVELS)],
                        value=LEVELS,
                        allow_blank=False,
                        compact=True,
                        id=name,
                        classes="custom-choice",
                    )
            with Horizontal(classes="index-row"):
                yield Static("Code", classes="index-label")
                yield Input(
                    placeholder="type:difficulty#SEED or type:difficulty:board, then Enter",
                    max_length=codes.MAX_DESCRIPTION_CHARS,
                    compact=True,
                    id="code-input",
                )
                yield Button("Play code", id="play-code", compact=True)
            yield Static("", id="index-message", markup=False)
            yield Static(
                "Puzzles met in your worlds and in free play (Enter plays one again)",
                id="met-title",
                markup=False,
            )
            yield DataTable(id="met", cursor_type="row", zebra_stripes=True)
            yield Static("", id="index-detail", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_choices()
        table = self.query_one("#met", DataTable)
        for heading, width in COLUMNS:
            table.add_column(heading, width=width)
        self.fill()
        self.query_one("#play-new", Button).focus()
        self.say("Reading your saved worlds…")
        # in a thread: every world is decoded (about 20 ms each) and a solved puzzle's par
        # generated, and the screen answers keys meanwhile
        self.run_worker(self._read_worlds, thread=True, exclusive=True, group="worlds")

    # ------------------------------------------------------------------ the table

    def _read_worlds(self) -> None:
        """(In a thread.) The puzzles met in the saved worlds, each with its score."""
        problems: list[str] = []
        scored = BestScores(self.store.path).read()  # finds the puzzles of floors left behind
        met = puzzles_met(
            self.store, on_problem=lambda name, why: problems.append(name), scored=scored
        )
        rows = [Row(m.code, m, world_score(m)) for m in met]
        with contextlib.suppress(RuntimeError):  # the app may have ended meanwhile
            self.app.call_from_thread(self._worlds_read, rows, len(problems))

    def _worlds_read(self, rows: list[Row], problems: int) -> None:
        if not self.is_mounted:  # left before the worlds were read
            return
        self.met_rows = rows
        self.fill()
        if problems:
            self.say(f"{problems} saved world(s) could not be read and are not listed")
        elif not self.rows:
            self.say("No puzzles met yet: play one here, or step on a pedestal in a world.")
        else:
            self.say("")

    def fill(self) -> dict[str, int]:
        """Show the puzzles met (as read) and the best scores (read again); returns those."""
        best = self.best_scores.read()
        listed = {r.code for r in self.met_rows}
        # free play: the newest first
        rows = self.met_rows + [Row(code) for code in reversed(best) if code not in listed]
        self.rows = rows
        table = self.query_one("#met", DataTable)
        at = table.cursor_row
        table.clear()
        for n, row in enumerate(rows):
            table.add_row(*row.cells(best.get(row.code)), key=str(n))
        if rows:
            table.move_cursor(row=min(max(0, at), len(rows) - 1))
        self.show_detail()
        if self.best_scores.notice is not None:
            self.notify(self.best_scores.notice, severity="warning", timeout=8, markup=False)
            self.best_scores.notice = None
        return best

    @property
    def current(self) -> Row | None:
        at = self.query_one("#met", DataTable).cursor_row
        return self.rows[at] if 0 <= at < len(self.rows) else None

    def show_detail(self) -> None:
        """The highlighted puzzle's code, under the table."""
        row = self.current
        text = "" if row is None else f"Code {row.code} · Enter plays it again"
        self.query_one("#index-detail", Static).update(text)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_detail()

    # ------------------------------------------------------------------ messages

    def say(self, text: str, *, error: bool = False) -> None:
        message = self.query_one("#index-message", Static)
        message.update(text)
        message.set_class(error, "error")

    # ------------------------------------------------------------------ free play

    def action_play_new(self) -> None:
        """A new puzzle of the chosen type, difficulty and custom options, from a fresh random
        seed."""
        type_name = self.query_one("#free-type", Select).value
        difficulty = self.query_one("#free-difficulty", Select).value
        assert isinstance(type_name, str) and isinstance(difficulty, str)
        code = codes.parse(codes.encode(type_name, difficulty, seeds.random_seed()))
        try:
            options = custom.check(type_name, difficulty, self.chosen_options())
        except custom.OptionsError as err:  # the lists offer only values within the bounds
            self.say(str(err), error=True)
            return
        self.play(codes.with_options(code, options))

    # ------------------------------------------------------------------ custom options

    def _choice(self, name: str) -> str:
        value = self.query_one(f"#{name}", Select).value
        return value if isinstance(value, str) else LEVELS

    def chosen_options(self) -> custom.Options:
        """The custom options the three lists hold (the level's where they say so)."""
        size, depth, goal = (self._choice(n) for n in ("free-size", "free-depth", "free-goal"))
        rows = cols = None
        if size != LEVELS:
            rows, cols = (int(x) for x in size.split("x"))
        o = custom.Options(rows, cols, None if depth == LEVELS else int(depth))
        if goal == LEVELS:
            return o
        if self._choice("free-type") == "sliding":
            return custom.Options(o.rows, o.cols, o.depth, goal=goal)
        blocked, _comma, target = goal.partition(",")
        return custom.Options(o.rows, o.cols, o.depth, blocked=int(blocked), target=target == "t")

    def refresh_choices(self, changed: str | None = None) -> None:
        """Fill the custom lists with the values the chosen type, level and board allow (a
        type without options offers only the level's)."""
        type_name, level = self._choice("free-type"), self._choice("free-difficulty")
        size_box = self.query_one("#free-size", Select)
        depth_box = self.query_one("#free-depth", Select)
        goal_box = self.query_one("#free-goal", Select)
        if changed in (None, "free-type"):
            _set(size_box, [(LEVELS, LEVELS)] + [(b, b) for b in custom_boards(type_name)])
            _set(goal_box, [(label, value) for label, value in custom_goals(type_name)])
        size = self._choice("free-size")
        if type_name in custom.CUSTOM_TYPES:
            rows, cols = (
                custom.board_of(type_name, level, custom.NONE)
                if size == LEVELS
                else (int(x) for x in size.split("x"))
            )
            lo, hi = custom.depths(type_name, rows, cols)
            depths = [(f"depth {d}", str(d)) for d in range(lo, hi + 1)]
            if type_name == "ball" and changed != "free-goal":
                most = ball_custom.custom_blocked(rows, cols)
                _set(goal_box, [g for g in custom_goals(type_name) if _blocked(g[1]) <= most])
        else:
            depths = []
        _set(depth_box, [(LEVELS, LEVELS), *depths])

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id in ("free-type", "free-difficulty", "free-size"):
            self.refresh_choices(event.select.id)

    def action_focus_code(self) -> None:
        """``Ctrl+O``: the code field, emptied (a code typed now is a new one, never added to
        the last)."""
        field = self.query_one("#code-input", Input)
        field.clear()
        field.focus()

    def play_code(self, text: str) -> None:
        """Play the puzzle the code ``text`` names (a seed code, or a descriptive code: the board
        itself, played as it is, built in a thread: solving a hand-made board to its par may
        take a second, and the screen answers meanwhile); a bad code is refused in one line."""
        if codes.is_descriptive(text):
            if self.building is not None:
                self.say(f"Still building {self.building}…")
                return
            self.building = text
            self.say(f"Building {text}…")
            self.run_worker(lambda: self._build(text), thread=True, exclusive=True, group="build")
            return
        try:
            code = codes.with_options(*codes.parse_with_options(text))
        except codes.PuzzleCodeError as err:
            self.say(str(err), error=True)
            return
        self.play(code)

    def _build(self, text: str) -> None:
        """(In a thread.) The board of the descriptive code ``text``, or why there is none."""
        try:
            got: codes.Described | str = codes.build(text)
        except codes.PuzzleCodeError as err:
            got = str(err)
        with contextlib.suppress(RuntimeError):  # the app may have ended meanwhile
            self.app.call_from_thread(self._built, got)

    def _built(self, got: codes.Described | str) -> None:
        self.building = None
        if not self.is_mounted:  # left before the board was built
            return
        if isinstance(got, str):
            self.say(got, error=True)
            return
        if self.app.screen is not self:  # another screen opened meanwhile: not over it
            self.say("")
            return
        # a board has no seed code: played, but its score is not kept among the best
        self.playing = got.code
        self.say(f"Playing {got.code}")
        self.app.push_screen(PuzzleScreen(got.puzzle, coins=FREE_PLAY_COINS), self.finished)

    def play(self, code: str) -> None:
        """Open the puzzle ``code`` (with its custom options, if any) on the puzzle screen."""
        c, options = codes.parse_with_options(code)
        try:
            p = custom.generate(c.type, c.difficulty, c.seed, options)
        except (puzzles.GenerationError, ValueError) as err:
            self.say(f"{code}: {err}", error=True)
            return
        self.playing = code
        self.say(f"Playing {code}")
        self.app.push_screen(PuzzleScreen(p, coins=FREE_PLAY_COINS), self.finished)

    def finished(self, outcome: PuzzleOutcome | None) -> None:
        """Back from free play: a solved puzzle's score may be a new best."""
        code, self.playing = self.playing, None
        if code is None or outcome is None or not outcome.solved:
            self.fill()
            if code is not None:
                self.say(f"{code}: left unsolved")
            return
        if codes.is_descriptive(code):
            self.fill()
            self.say(f"{code}: solved, score {outcome.score} (a board's score is not kept)")
            return
        try:
            better = self.best_scores.record(code, outcome.score)
        except OSError as err:
            self.fill()
            self.say(f"Score not kept: {err.strerror or err}", error=True)
            return
        best = self.fill().get(code)
        news = "a new best" if better else "not kept" if best is None else f"best {best}"
        self.say(f"{code}: solved, score {outcome.score} ({news})")
        self.select(code)

    def select(self, code: str) -> None:
        """Highlight the row of ``code``, if listed."""
        for n, row in enumerate(self.rows):
            if row.code == code:
                self.query_one("#met", DataTable).move_cursor(row=n)
                self.show_detail()
                return

    # ------------------------------------------------------------------ events

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "play-new":
            self.action_play_new()
        elif event.button.id == "play-code":
            self.play_code(self.query_one("#code-input", Input).value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.play_code(event.value)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        at = event.cursor_row
        if 0 <= at < len(self.rows):
            self.play(self.rows[at].code)

    def action_back(self) -> None:
        self.dismiss(None)
