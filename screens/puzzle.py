"""The puzzle screen: one Layton-style puzzle, played with the keyboard.

``PuzzleScreen(puzzle, state=None, *, coins=0, hints_used=0, resets=0, moves=None)`` plays one
instance of any type in :mod:`roguelike.puzzles` and dismisses with a :class:`PuzzleOutcome`:
solved (Enter once the puzzle is solved) or not (Esc: the progress is kept in the outcome, and
``PuzzleScreen(puzzle, state=outcome.state_json, moves=outcome.moves, ...)`` continues it).

The screen never decides a rule: every key becomes one of the puzzle's own moves (``apply``
checks it), and the moves made are recorded as ``move_to_json`` documents, so whoever opened
the screen can verify a solution by replaying them from ``start_json``.

Keys come from one table, :data:`PUZZLE_KEYS`: the footer, the rules screen (``?``) and the
input all read it, and each row names the puzzle types it works in. Per type:

- jugs: ``1``-``9`` (or the cursor ``↑ ↓`` and Enter) picks the jug to pour from, then the jug
  to pour into;
- sliding: the arrows slide the tile next to the gap in that direction;
- stomp: the arrows move the cursor, Space or Enter stomps;
- ball: ``0`` picks the ball, ``1``-``9`` a block (Tab cycles), the arrows slide it one cell;
- hatgram: ``1``-``9`` (or Tab) picks a piece, ``t`` turns and ``f`` flips it, the arrows move
  its ghost over the board, Enter puts it down (on a placed piece: lifts it off, as Backspace
  and Delete do); ``r`` resets in every type, so turning is ``t``;
- keydoor: ``1``-``9`` takes an action from the numbered list of legal ones; the arrows walk
  (``↓`` from the junction enters the side branch), ``t`` takes, ``d`` drops, ``o`` opens.

Everywhere: ``h`` hint (tiers 1 and 2: the puzzle's nudges in words; tier 3: the next optimal
move, highlighted on the board, with the moves left; one coin each), ``H`` super hint (the next
three optimal moves, two coins), ``u`` undo, ``r`` reset (press twice; it counts for the score),
``?`` rules, Esc leave. Hints are computed from the current state; their tiers start again
after every move.

Score (shown while playing, and in the outcome)::

    score = max(0, 100 - 10 * hints_used - 5 * resets - 2 * max(0, move_count - par))

``hints_used`` counts hint coins' worth (a super hint counts 2) and includes the hints of
earlier visits; ``move_count`` is the number of moves from the start after undos (an undone
move costs nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import zip_longest
from typing import Any, ClassVar

from rich.console import Console
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.geometry import Region, Size
from textual.screen import ModalScreen, Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Footer, Static

from roguelike import puzzles
from roguelike.puzzles.base import IllegalMove, Unsolvable, ordinal_letter

# ---------------------------------------------------------------------------- score

#: Points lost per hint coin's worth, per reset, per move over par.
HINT_PENALTY = 10
RESET_PENALTY = 5
OVER_PAR_PENALTY = 2
SUPER_HINT_COST = 2
SUPER_HINT_MOVES = 3
SUPER_TIER = 4  # the hint tier a super hint stands for (above the move itself, tier 3)
STUCK = "The goal can no longer be reached from here: u undoes, r starts again."


def score(hints_used: int, resets: int, move_count: int, par: int) -> int:
    """The puzzle's score: 100, less the hints, the resets and the moves over par."""
    lost = (
        HINT_PENALTY * hints_used
        + RESET_PENALTY * resets
        + OVER_PAR_PENALTY * max(0, move_count - par)
    )
    return max(0, 100 - lost)


@dataclass(frozen=True)
class PuzzleOutcome:
    """What a visit to a puzzle ended with.

    ``moves`` replay from ``start_json`` (``state_from_json``, then ``apply`` each
    ``move_from_json``) to ``state_json``; ``start_json`` is the puzzle's initial state unless
    the screen was opened with a ``state`` but without the ``moves`` that led there (and was
    not reset since). ``coins_spent`` is this visit's; ``hints_used`` and ``resets`` are totals
    (the counts the screen was opened with, plus this visit's).
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


# ---------------------------------------------------------------------------- colours

BRIGHT = "#f0f0f0"
DIM = "#8a8a9a"
LABEL = "#9a9aaa"
GOOD = "bold #60d060"
BAD = "bold #e05050"
HINT = "#e040e0"
HINT_BG = "#7a2a8a"
SELECT_BG = "#e0b030"
BOARD_BG = "#14141c"
EMPTY_BG = "#22222e"
FRAME = "#5a5a6a"
RULER = "#6a6a7a"
PIECE_COLOURS = (
    "#3f6fc0",
    "#3f9a6a",
    "#b0703a",
    "#8a5ac0",
    "#c05a7a",
    "#3a9aa8",
    "#9a9a3a",
    "#6a7a9a",
    "#a85a3a",
    "#5a8a3a",
    "#7a4aa8",
    "#3a6a8a",
)


def piece_colour(i: int) -> str:
    return PIECE_COLOURS[i % len(PIECE_COLOURS)]


# ---------------------------------------------------------------------------- drawing


class Canvas:
    """A grid of (character, style) cells, turned into lines of Rich text."""

    def __init__(self, width: int, height: int, style: str = "") -> None:
        self.width, self.height = max(0, width), max(0, height)
        self.cells = [[(" ", style) for _ in range(self.width)] for _ in range(self.height)]

    def put(self, x: int, y: int, text: str, style: str = "") -> None:
        if not 0 <= y < self.height:
            return
        row = self.cells[y]
        for i, ch in enumerate(text):
            if 0 <= x + i < self.width:
                row[x + i] = (ch, style)

    def restyle(self, x: int, y: int, text: str, fg: str) -> None:
        """Write ``text`` in colour ``fg`` keeping each cell's background."""
        if not 0 <= y < self.height:
            return
        row = self.cells[y]
        for i, ch in enumerate(text):
            if 0 <= x + i < self.width:
                bg = _background(row[x + i][1])
                row[x + i] = (ch, f"{fg} on {bg}" if bg else fg)

    def fill(self, x: int, y: int, w: int, h: int, char: str = " ", style: str = "") -> None:
        for yy in range(y, y + h):
            self.put(x, yy, char * w, style)

    def paste(self, x: int, y: int, other: Canvas) -> None:
        for dy, row in enumerate(other.cells):
            for dx, cell in enumerate(row):
                if 0 <= x + dx < self.width and 0 <= y + dy < self.height:
                    self.cells[y + dy][x + dx] = cell

    def frame(self, x: int, y: int, w: int, h: int, style: str = FRAME) -> None:
        """A rounded box whose outer size is ``w`` × ``h``."""
        self.put(x, y, "╭" + "─" * (w - 2) + "╮", style)
        for yy in range(y + 1, y + h - 1):
            self.put(x, yy, "│", style)
            self.put(x + w - 1, yy, "│", style)
        self.put(x, y + h - 1, "╰" + "─" * (w - 2) + "╯", style)

    def lines(self) -> list[Text]:
        out = []
        for row in self.cells:
            text = Text(no_wrap=True, overflow="crop")
            run: list[str] = []
            style = None
            for ch, st in row:
                if st != style and run:
                    text.append("".join(run), style or "")
                    run = []
                style = st
                run.append(ch)
            if run:
                text.append("".join(run), style or "")
            out.append(text)
        return out


def same_text(a: Text, b: Text) -> bool:
    """Do ``a`` and ``b`` draw the same? (Rich's ``==`` ignores the base style.)"""
    return a == b and a.style == b.style


def _background(style: str) -> str:
    return style.split(" on ", 1)[1] if " on " in style else ""


@dataclass(frozen=True)
class Grid:
    """Geometry of a board of cells ``cw`` × ``ch`` characters, with or without a one-character
    separator between neighbouring cells (drawn in the cells' colour when both belong to the
    same piece, so pieces read as joined shapes)."""

    rows: int
    cols: int
    cw: int
    ch: int
    sep: bool

    @property
    def pitch_x(self) -> int:
        return self.cw + self.sep

    @property
    def pitch_y(self) -> int:
        return self.ch + self.sep

    @property
    def width(self) -> int:
        return self.cols * self.pitch_x - self.sep

    @property
    def height(self) -> int:
        return self.rows * self.pitch_y - self.sep

    def xy(self, r: int, c: int) -> tuple[int, int]:
        """The canvas position of cell (r, c)'s top-left character."""
        return c * self.pitch_x, r * self.pitch_y

    def centre(self, cells: Sequence[tuple[int, int]], width: int = 1) -> tuple[int, int]:
        """Where to write ``width`` characters so they sit in the middle of ``cells``."""
        r0 = min(r for r, _ in cells)
        r1 = max(r for r, _ in cells)
        c0 = min(c for _, c in cells)
        c1 = max(c for _, c in cells)
        x0, y0 = self.xy(r0, c0)
        x1, y1 = self.xy(r1, c1)
        x1 += self.cw
        y1 += self.ch
        return x0 + (x1 - x0 - width) // 2, y0 + (y1 - y0 - 1) // 2

    def paint(
        self,
        canvas: Canvas,
        key: Callable[[int, int], Hashable | None],
        style: Callable[[Hashable | None], str],
        ox: int = 0,
        oy: int = 0,
    ) -> None:
        """Fill every cell with the background of ``style(key(r, c))``; separators between
        two cells of the same non-None key take that style too."""
        for r in range(self.rows):
            for c in range(self.cols):
                k = key(r, c)
                x, y = self.xy(r, c)
                st = style(k)
                canvas.fill(ox + x, oy + y, self.cw, self.ch, " ", st)
                if not self.sep or k is None:
                    continue
                right = c + 1 < self.cols and key(r, c + 1) == k
                down = r + 1 < self.rows and key(r + 1, c) == k
                if right:
                    canvas.fill(ox + x + self.cw, oy + y, 1, self.ch, " ", st)
                if down:
                    canvas.fill(ox + x, oy + y + self.ch, self.cw, 1, " ", st)
                if right and down and key(r + 1, c + 1) == k:
                    canvas.put(ox + x + self.cw, oy + y + self.ch, " ", st)


def fit_grid(
    rows: int,
    cols: int,
    width: int,
    height: int,
    options: Sequence[tuple[int, int, bool]],
    extra_w: int = 0,
    extra_h: int = 0,
) -> Grid:
    """The first of ``options`` (cw, ch, sep) whose board, plus ``extra_w`` × ``extra_h`` of
    decoration, fits ``width`` × ``height``; the last option when none does."""
    for cw, ch, sep in options:
        g = Grid(rows, cols, cw, ch, sep)
        if g.width + extra_w <= width and g.height + extra_h <= height:
            return g
    cw, ch, sep = options[-1]
    return Grid(rows, cols, cw, ch, sep)


def with_rulers(
    c: Canvas, g: Grid, bx: int, by: int, rows: Sequence[int], cols: Sequence[int]
) -> Canvas:
    """``c`` with the numbers of the board's ``cols`` above it and of its ``rows`` to its left,
    counted from 1 as the hints count them (``g`` draws the board at (bx, by) in ``c``)."""
    rw = ruler_width(len(rows))
    out = Canvas(c.width + rw, c.height + 1)
    out.paste(rw, 1, c)
    for k, col in enumerate(cols, 1):
        x, _ = g.centre([(0, col)], len(str(k)))
        out.put(rw + bx + x, 0, str(k), RULER)
    for k, row in enumerate(rows, 1):
        _, y = g.centre([(row, 0)])
        out.put(0, 1 + by + y, str(k).rjust(rw - 1), RULER)
    return out


def ruler_width(rows: int) -> int:
    """The columns the row numbers of :func:`with_rulers` take (with a space after them)."""
    return len(str(rows)) + 1


def bg(colour: str, fg: str = BRIGHT) -> str:
    return f"{fg} on {colour}"


def wrap(text: str, width: int, style: str = "", indent: str = "") -> list[Text]:
    """``text`` broken into lines of at most ``width`` characters (words kept whole)."""
    out: list[Text] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if len(candidate) <= width or not line:
            line = candidate
        else:
            out.append(Text(line, style=style))
            line = indent + word
    if line:
        out.append(Text(line, style=style))
    return out


class Lines(Widget):
    """Lines of Rich text drawn with the Line API, never wrapped: :meth:`show` repaints only
    the lines that changed. Its natural size is its text's (for ``height: auto``)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[Text] = []
        self._strips: dict[int, Strip] = {}

    def show(self, lines: list[Text]) -> None:
        old = self.lines
        changed = [
            y
            for y in range(max(len(old), len(lines)))
            if y >= len(old) or y >= len(lines) or not same_text(old[y], lines[y])
        ]
        if not changed:
            return
        self.lines = list(lines)
        width = max(1, self.size.width)
        for y in changed:
            self._strips.pop(y, None)
        if len(old) != len(lines) or max((ln.cell_len for ln in lines), default=0) != max(
            (ln.cell_len for ln in old), default=0
        ):
            self.refresh(layout=True)
        elif changed:
            self.refresh(*(Region(0, y, width, 1) for y in changed))

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return max((line.cell_len for line in self.lines), default=0)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if y >= len(self.lines):
            return Strip.blank(width, self.rich_style)
        strip = self._strips.get(y)
        if strip is None:
            line = self.lines[y]
            strip = Strip(list(line.render(self.app.console)), line.cell_len)
            self._strips[y] = strip
        # the widget's colours under the text's own (a cell without a background of its own
        # shows the widget's, not the terminal's)
        return strip.apply_style(self.rich_style).crop_extend(0, width, self.rich_style)


# ---------------------------------------------------------------------------- controllers


@dataclass(frozen=True)
class Play:
    """A controller's answer: play this move."""

    move: Any


@dataclass(frozen=True)
class Say:
    """A controller's answer: nothing to play, tell the player this."""

    text: str


Answer = Play | Say | None
ARROW_GLYPH = {(-1, 0): "↑", (1, 0): "↓", (0, -1): "←", (0, 1): "→"}
DIRECTION_OF = {(-1, 0): "up", (1, 0): "down", (0, -1): "left", (0, 1): "right"}
DELTA_OF = {v: k for k, v in DIRECTION_OF.items()}


class Controller:
    """The keyboard and the drawing of one puzzle type; the screen keeps the state.

    Action methods return a :class:`Play`, a :class:`Say` or None (only the controller's own
    selection changed). ``snapshot``/``restore`` keep the selection across undo.
    """

    type_name: ClassVar[str] = ""
    goal: str = ""

    def __init__(self, p: Any) -> None:
        self.p = p

    # -- life cycle
    def reset_ui(self, s: Any) -> None:
        """The state was set from outside (start, reset): start the selection afresh."""

    def snapshot(self) -> Any:
        return None

    def restore(self, snap: Any, s: Any) -> None:
        self.reset_ui(s)

    def moved(self, s: Any, m: Any, t: Any) -> None:
        """Move ``m`` took ``s`` to ``t``."""

    # -- actions
    def arrow(self, s: Any, dr: int, dc: int) -> Answer:
        return None

    def number(self, s: Any, n: int) -> Answer:
        return None

    def cycle(self, s: Any, step: int) -> Answer:
        return None

    def confirm(self, s: Any) -> Answer:
        return None

    def turn(self, s: Any) -> Answer:
        return None

    def flip(self, s: Any) -> Answer:
        return None

    def remove(self, s: Any) -> Answer:
        return None

    def act(self, s: Any, name: str) -> Answer:
        return None

    # -- words and drawing
    def keys_for(self, s: Any, m: Any) -> str:
        """The keys that play ``m`` from ``s``, as the player reads them (for tier-3 hints)."""
        return ""

    def status(self, s: Any, width: int, marks: list[Any]) -> list[Text]:
        return []

    def board(self, s: Any, width: int, height: int, marks: list[Any]) -> list[Text]:
        return [Text(line) for line in self.p.render_text(s).splitlines()]


# ---- jugs


class JugsUI(Controller):
    type_name = "jugs"

    def __init__(self, p: Any) -> None:
        super().__init__(p)
        self.cursor = 0
        self.source: int | None = None
        self.goal = p.goal_text()[0].upper() + p.goal_text()[1:] + "."

    def reset_ui(self, s: Any) -> None:
        self.source = None

    def moved(self, s: Any, m: Any, t: Any) -> None:
        self.source = None

    def arrow(self, s: Any, dr: int, dc: int) -> Answer:
        n = len(self.p.capacities)
        self.cursor = (self.cursor + (dr or dc)) % n
        return None

    def number(self, s: Any, n: int) -> Answer:
        if not 1 <= n <= len(self.p.capacities):
            return Say(f"There is no jug {n}.")
        return self._pick(s, n - 1)

    def confirm(self, s: Any) -> Answer:
        return self._pick(s, self.cursor)

    def _pick(self, s: Any, i: int) -> Answer:
        self.cursor = i
        name = ordinal_letter(i)
        if self.source is None:
            if s[i] == 0:
                return Say(f"Jug {name} is empty: pick a jug with water in it to pour from.")
            self.source = i
            return None
        if self.source == i:
            self.source = None
            return Say("Pour cancelled.")
        a, self.source = self.source, None
        if s[i] == self.p.capacities[i]:
            return Say(f"Jug {name} is already full.")
        return Play((a, i))

    def keys_for(self, s: Any, m: Any) -> str:
        a, b = m[0] + 1, m[1] + 1
        if self.source is None:
            return f"{a} then {b}"
        if self.source == m[0]:
            return str(b)
        return f"{self.source + 1} (to cancel), {a} then {b}"

    def status(self, s: Any, width: int, marks: list[Any]) -> list[Text]:
        if self.source is None:
            return [Text("Pick a jug to pour from.", style=DIM)]
        return [
            Text.assemble(
                ("Pouring from ", LABEL),
                (f"jug {ordinal_letter(self.source)}", "bold"),
                ("; now pick the jug to pour into.", LABEL),
            )
        ]

    def board(self, s: Any, width: int, height: int, marks: list[Any]) -> list[Text]:
        caps = self.p.capacities
        kind, vals = self.p.target
        unit = max(1, min(3, (width - 8) // max(caps)))
        first = marks[0] if marks else None
        out: list[Text] = []
        for i, (cap, now) in enumerate(zip(caps, s, strict=True)):
            name = ordinal_letter(i)
            head = Text(no_wrap=True)
            head.append("▶ " if i == self.cursor else "  ", style="bold #ffd060")
            head.append(f"{i + 1} ", style="bold")
            sel = i == self.source
            head.append(f" jug {name} ", style=bg(SELECT_BG, "#000000") if sel else "bold")
            head.append(f"  {now:>2} / {cap} L", style=BRIGHT if now else DIM)
            if sel:
                head.append("  ◀ from", style="bold #ffd060")
            if first is not None and i == first[0]:
                head.append("  ◆ pour from", style=f"bold {HINT}")
            if first is not None and i == first[1]:
                head.append("  ◆ pour into", style=f"bold {HINT}")
            out.append(head)
            bar = Text("    ▕", style=FRAME, no_wrap=True)
            bar.append("█" * (now * unit), style="#3a8fd8")
            bar.append("░" * ((cap - now) * unit), style="#34344a")
            bar.append("▏", style=FRAME)
            out.append(bar)
            mark = Text(no_wrap=True)
            want = vals[i] if kind == "vector" else vals[0] if vals[0] <= cap else None
            if want is not None:
                met = now == want
                style = GOOD if met else "#d0a040"
                at = 5 + max(0, want * unit - 1)
                if kind == "any":
                    label = f"{want} L would do" if not met else f"{want} L: measured!"
                else:
                    label = f"goal {want} L" + (" ✓" if met else "")
                mark.append(" " * at)
                mark.append("▲ " + label, style=style)
            out.append(mark)
        return out


# ---- sliding


class SlidingUI(Controller):
    type_name = "sliding"

    def __init__(self, p: Any) -> None:
        super().__init__(p)
        n = p.size
        self.goal = f"Put the tiles in order, 1 to {n * n - 1}, the gap last."

    def _pos(self, s: Any, t: int) -> tuple[int, int]:
        return divmod(s.index(t), self.p.size)

    def arrow(self, s: Any, dr: int, dc: int) -> Answer:
        n = self.p.size
        br, bc = self._pos(s, 0)
        r, c = br - dr, bc - dc
        if not (0 <= r < n and 0 <= c < n):
            return Say(f"No tile can slide {DIRECTION_OF[(dr, dc)]}.")
        return Play(s[r * n + c])

    def keys_for(self, s: Any, m: Any) -> str:
        tr, tc = self._pos(s, m)
        br, bc = self._pos(s, 0)
        return ARROW_GLYPH.get((br - tr, bc - tc), "?")

    def status(self, s: Any, width: int, marks: list[Any]) -> list[Text]:
        home = sum(1 for i, t in enumerate(s) if t and t == i + 1)
        return [Text(f"{home} of {len(s) - 1} tiles are home.", style=DIM)]

    def board(self, s: Any, width: int, height: int, marks: list[Any]) -> list[Text]:
        n = self.p.size
        g = fit_grid(
            n,
            n,
            width,
            height,
            [(11, 5, True), (9, 3, True), (7, 3, True), (5, 3, True), (4, 1, True), (2, 1, False)],
            extra_w=4,
            extra_h=2,
        )
        c = Canvas(g.width + 4, g.height + 2)
        c.frame(0, 0, g.width + 4, g.height + 2)
        hint = marks[0] if marks else None

        def key(r: int, col: int) -> Hashable | None:
            return s[r * n + col] or None

        def style(t: Hashable | None) -> str:
            if t is None:
                return bg(BOARD_BG)
            if t == hint:
                return bg(HINT_BG)
            assert isinstance(t, int)
            home = s.index(t) == t - 1
            return bg("#2f6a3c" if home else "#6a5230")

        board = Canvas(g.width, g.height)
        g.paint(board, key, style)
        for t in s:
            if t:
                r, col = divmod(s.index(t), n)
                label = str(t)
                x, y = g.centre([(r, col)], len(label))
                board.restyle(x, y, label, f"bold {BRIGHT}")
        c.paste(2, 1, board)
        return c.lines()


# ---- stomp


class StompUI(Controller):
    type_name = "stomp"

    def __init__(self, p: Any) -> None:
        super().__init__(p)
        self.cursor = (p.size // 2, p.size // 2)
        self.goal = "Make the floor match the target."

    def _lit(self, s: int, r: int, c: int) -> bool:
        return bool(s >> (r * self.p.size + c) & 1)

    def arrow(self, s: Any, dr: int, dc: int) -> Answer:
        n = self.p.size
        r, c = self.cursor
        self.cursor = (min(n - 1, max(0, r + dr)), min(n - 1, max(0, c + dc)))
        return None

    def confirm(self, s: Any) -> Answer:
        return Play(self.cursor)

    def status(self, s: Any, width: int, marks: list[Any]) -> list[Text]:
        wrong = (s ^ self.p.target).bit_count()
        return [
            Text(
                "Matches the target!" if not wrong else f"{wrong} tiles differ from the target.",
                style=DIM,
            )
        ]

    def board(self, s: Any, width: int, height: int, marks: list[Any]) -> list[Text]:
        n = self.p.size
        target_w = 2 * n + 2
        g = fit_grid(
            n,
            n,
            width,
            height,
            [(9, 3, True), (7, 3, True), (5, 2, True), (4, 2, True), (3, 1, True), (2, 1, False)],
            extra_w=4 + 2 + target_w + ruler_width(n),
            extra_h=2 + 1,
        )
        bw, bh = g.width + 4, g.height + 2
        # the target twice as big when there is room for it
        big = width - ruler_width(n) - bw - 2 >= 4 * n + 2 and height >= 2 * n + 3
        tcw, tch = (4, 2) if big else (2, 1)
        c = Canvas(bw + 2 + max(target_w, tcw * n + 2), max(bh, tch * n + 3))
        c.frame(0, 0, bw, bh)
        board = Canvas(g.width, g.height)
        hinted = set(marks)

        def key(r: int, col: int) -> Hashable | None:
            return (r, col)

        def style(k: Hashable | None) -> str:
            assert isinstance(k, tuple)
            return bg("#e8c547" if self._lit(s, *k) else "#2a2a3a")

        g.paint(board, key, style)
        for r in range(n):
            for col in range(n):
                x, y = g.xy(r, col)
                if (r, col) in hinted:
                    cx, cy = g.centre([(r, col)])
                    board.restyle(cx, cy, "◆", f"bold {HINT}")
                if (r, col) == self.cursor:
                    fg = "bold #000000" if self._lit(s, r, col) else "bold #ffffff"
                    for yy in range(y, y + g.ch):
                        board.restyle(x, yy, "▌" if g.cw < 3 else "[", fg)
                        if g.cw >= 3:
                            board.restyle(x + g.cw - 1, yy, "]", fg)
        c.paste(2, 1, board)
        tx = bw + 2
        c.put(tx, 0, "target", f"bold {LABEL}")
        for r in range(n):
            for col in range(n):
                lit = bool(self.p.target >> (r * n + col) & 1)
                for dy in range(tch):
                    c.put(
                        tx + tcw * col,
                        2 + tch * r + dy,
                        ("█" if lit else "░") * tcw,
                        "#e8c547" if lit else "#3a3a4a",
                    )
        return with_rulers(c, g, 2, 1, range(n), range(n)).lines()


# ---- ball


class BallUI(Controller):
    type_name = "ball"

    def __init__(self, p: Any) -> None:
        super().__init__(p)
        self.pieces: list[list[int]] = []  # [kind, r, c] per piece, the ball first
        self.sel = 0
        self.goal = "Bring the ball ● to the gap in the bottom wall."

    def reset_ui(self, s: Any) -> None:
        from roguelike.puzzles.ball import KINDS

        doc = self.p.state_to_json(s)
        pieces = [[0, *doc["ball"][0]]]
        blocks = sorted(
            (r, c, k) for k, (name, _h, _w) in enumerate(KINDS) if k for r, c in doc[name]
        )
        pieces += [[k, r, c] for r, c, k in blocks]
        self.pieces = pieces
        self.sel = 0

    def snapshot(self) -> Any:
        return ([list(pc) for pc in self.pieces], self.sel)

    def restore(self, snap: Any, s: Any) -> None:
        pieces, self.sel = snap
        self.pieces = [list(pc) for pc in pieces]

    def moved(self, s: Any, m: Any, t: Any) -> None:
        r, c, d = m
        dr, dc = DELTA_OF[d]
        for pc in self.pieces:
            if pc[1:] == [r, c]:
                pc[1], pc[2] = r + dr, c + dc
                return
        self.reset_ui(t)  # pragma: no cover - the move came from a piece we know

    def label(self, i: int) -> str:
        if i == 0:
            return "●"
        return str(i) if i <= 9 else chr(ord("a") + i - 10)

    def name(self, i: int) -> str:
        from roguelike.puzzles.ball import KIND_WORDS, KINDS

        if i == 0:
            return "the ball"
        return f"{KIND_WORDS[KINDS[self.pieces[i][0]][0]]} {self.label(i)}"

    def index_at(self, r: int, c: int) -> int | None:
        return next((i for i, pc in enumerate(self.pieces) if pc[1:] == [r, c]), None)

    def arrow(self, s: Any, dr: int, dc: int) -> Answer:
        _k, r, c = self.pieces[self.sel]
        m = (r, c, DIRECTION_OF[(dr, dc)])
        try:
            self.p.apply(s, m)
        except IllegalMove:
            return Say(f"{self.name(self.sel).capitalize()} cannot move {m[2]}.")
        return Play(m)

    def number(self, s: Any, n: int) -> Answer:
        if n >= len(self.pieces):
            return Say(f"There is no block {n}.")
        self.sel = n
        return None

    def cycle(self, s: Any, step: int) -> Answer:
        self.sel = (self.sel + step) % len(self.pieces)
        return None

    def keys_for(self, s: Any, m: Any) -> str:
        i = self.index_at(m[0], m[1])
        glyph = ARROW_GLYPH[DELTA_OF[m[2]]]
        if i is None:
            return glyph
        return f"{i if i <= 9 else 'Tab'} then {glyph}"

    def status(self, s: Any, width: int, marks: list[Any]) -> list[Text]:
        return [Text.assemble(("Selected: ", LABEL), (self.name(self.sel), "bold"))]

    def board(self, s: Any, width: int, height: int, marks: list[Any]) -> list[Text]:
        from roguelike.puzzles.ball import KINDS

        p = self.p
        rows, cols = p.rows + 2, p.cols + 2  # with the wall
        g = fit_grid(
            rows,
            cols,
            width,
            height,
            [(7, 3, True), (5, 2, True), (4, 2, True), (3, 1, True), (2, 1, False)],
            extra_w=ruler_width(p.rows),
            extra_h=1 + 1,
        )
        owner: dict[tuple[int, int], int] = {}
        for i, (k, r, c) in enumerate(self.pieces):
            _name, h, w = KINDS[k]
            for dr in range(h):
                for dc in range(w):
                    owner[(r + dr, c + dc)] = i
        exit_cells = {(p.rows, p.exit_col + 1), (p.rows, p.exit_col + 2)}
        goal_cells = {(p.rows - 2 + dr, p.exit_col + dc) for dr in (0, 1) for dc in (0, 1)}
        hint = marks[0] if marks else None
        hinted = self.index_at(hint[0], hint[1]) if hint else None

        def key(r: int, c: int) -> Hashable | None:
            if (r - 1, c - 1) in owner:
                return owner[(r - 1, c - 1)]
            if r in (0, rows - 1) or c in (0, cols - 1):
                return None if (r - 1, c - 1) in exit_cells else "#"
            return None

        def style(k: Hashable | None) -> str:
            if k == "#":
                return bg("#4a4a58")
            if k is None:
                return bg(BOARD_BG)
            assert isinstance(k, int)
            if k == hinted:
                return bg(HINT_BG)
            if k == self.sel:
                return bg(SELECT_BG, "#000000")
            if k == 0:
                return bg("#c83c3c")
            return bg(piece_colour(self.pieces[k][0] * 3 + k))

        cv = Canvas(g.width, g.height + 1)
        g.paint(cv, key, style)
        for r, col in goal_cells:
            if (r, col) not in owner:
                x, y = g.xy(r + 1, col + 1)
                cv.fill(x, y, g.cw, g.ch, "░", "#6a2a2a on " + BOARD_BG)
        for i, (k, r, col) in enumerate(self.pieces):
            _name, h, w = KINDS[k]
            cells = [(r + 1 + dr, col + 1 + dc) for dr in range(h) for dc in range(w)]
            label = self.label(i)
            if i == hinted and hint:
                label += ARROW_GLYPH[DELTA_OF[hint[2]]]
            x, y = g.centre(cells, len(label))
            fg = "bold #000000" if i == self.sel and i != hinted else f"bold {BRIGHT}"
            cv.restyle(x, y, label, fg)
        ex, _ey = g.xy(rows - 1, p.exit_col + 1)
        span = 2 * g.pitch_x - g.sep
        text = "▼ exit ▼"
        cv.put(ex + max(0, (span - len(text)) // 2), g.height, text, "bold #c83c3c")
        inner_rows, inner_cols = range(1, p.rows + 1), range(1, p.cols + 1)
        return with_rulers(cv, g, 0, 0, inner_rows, inner_cols).lines()


# ---- hatgram


class HatgramUI(Controller):
    type_name = "hatgram"

    def __init__(self, p: Any) -> None:
        super().__init__(p)
        self.sel = 0
        self.ghost: dict[int, tuple[int, int, int]] = {}
        self.goal = "Cover every free square with all the pieces."

    def reset_ui(self, s: Any) -> None:
        self.ghost = {i: (0, 0, 0) for i in range(len(self.p.pieces))}
        for i, pl in enumerate(s):
            if pl is not None:
                self.ghost[i] = tuple(pl)
        self.sel = next((i for i, pl in enumerate(s) if pl is None), 0)

    def snapshot(self) -> Any:
        return (self.sel, dict(self.ghost))

    def restore(self, snap: Any, s: Any) -> None:
        self.sel, ghost = snap
        self.ghost = dict(ghost)

    def moved(self, s: Any, m: Any, t: Any) -> None:
        if m[0] == "place":
            i = m[1]
            self.ghost[i] = (m[2], m[3], m[4])
            n = len(t)
            self.sel = next((k % n for k in range(i + 1, i + 1 + n) if t[k % n] is None), i)
        else:
            i = m[1]
            self.ghost[i] = tuple(s[i])
            self.sel = i

    def shape(self, i: int, j: int) -> tuple[tuple[int, int], ...]:
        from roguelike.puzzles.hatgram import orientations

        return orientations(self.p.pieces[i])[j]

    def _clamped(self, i: int, j: int, r: int, c: int) -> tuple[int, int, int]:
        cells = self.shape(i, j)
        h = max(dr for dr, _ in cells) + 1
        w = max(dc for _, dc in cells) + 1
        r = max(0, min(self.p.rows - h, r))
        c = max(0, min(self.p.cols - w, c))
        return j, r, c

    def _placed(self, s: Any) -> Say | None:
        if s[self.sel] is None:
            return None
        name = ordinal_letter(self.sel)
        return Say(f"Piece {name} is on the board: Enter lifts it, or pick another piece.")

    def arrow(self, s: Any, dr: int, dc: int) -> Answer:
        if said := self._placed(s):
            return said
        j, r, c = self.ghost[self.sel]
        self.ghost[self.sel] = self._clamped(self.sel, j, r + dr, c + dc)
        return None

    def turn(self, s: Any) -> Answer:
        from roguelike.puzzles.hatgram import turned

        return self._reorient(s, turned)

    def flip(self, s: Any) -> Answer:
        from roguelike.puzzles.hatgram import flipped

        return self._reorient(s, flipped)

    def _reorient(self, s: Any, how: Callable[[Any, int], int]) -> Answer:
        if said := self._placed(s):
            return said
        j, r, c = self.ghost[self.sel]
        self.ghost[self.sel] = self._clamped(self.sel, how(self.p.pieces[self.sel], j), r, c)
        return None

    def confirm(self, s: Any) -> Answer:
        if s[self.sel] is not None:
            return self.remove(s)
        j, r, c = self.ghost[self.sel]
        move = ("place", self.sel, j, r, c)
        try:
            self.p.apply(s, move)
        except IllegalMove:
            return Say(f"Piece {ordinal_letter(self.sel)} does not fit there.")
        return Play(move)

    def remove(self, s: Any) -> Answer:
        if s[self.sel] is None:
            return Say(f"Piece {ordinal_letter(self.sel)} is not on the board.")
        return Play(("remove", self.sel))

    def number(self, s: Any, n: int) -> Answer:
        if not 1 <= n <= len(self.p.pieces):
            return Say(f"There is no piece {n}.")
        self.sel = n - 1
        return None

    def cycle(self, s: Any, step: int) -> Answer:
        self.sel = (self.sel + step) % len(self.p.pieces)
        return None

    def keys_for(self, s: Any, m: Any) -> str:
        i = m[1]
        pick = str(i + 1) if i < 9 else "Tab"
        if m[0] == "remove":
            return f"{pick} then Enter"
        return f"{pick}, t / f to turn it, the arrows, then Enter"

    def status(self, s: Any, width: int, marks: list[Any]) -> list[Text]:
        from roguelike.puzzles.hatgram import orientations

        i = self.sel
        n = len(orientations(self.p.pieces[i]))
        j = self.ghost[i][0]
        where = "on the board" if s[i] is not None else f"turned {j + 1} of {n}"
        return [
            Text.assemble(
                ("Selected: ", LABEL), (f"piece {ordinal_letter(i)}", "bold"), f" ({where})"
            )
        ]

    def board(self, s: Any, width: int, height: int, marks: list[Any]) -> list[Text]:
        p = self.p
        blocked = set(p.blocked)
        owner: dict[tuple[int, int], int] = {}
        for i, pl in enumerate(s):
            if pl is not None:
                for cell in p.cells_of(i, pl):
                    owner[cell] = i
        hint_cells: set[tuple[int, int]] = set()
        hint_piece = None
        if marks:
            m = marks[0]
            if m[0] == "place":
                hint_cells = set(p.cells_of(m[1], tuple(m[2:])))
            else:
                hint_piece = m[1]
        ghost: set[tuple[int, int]] = set()
        if s[self.sel] is None:
            ghost = set(p.cells_of(self.sel, self.ghost[self.sel]))
        options = [(5, 2, True), (3, 1, True), (2, 1, False)]
        layout = None
        for cw, ch, sep in options:
            g = Grid(p.rows, p.cols, cw, ch, sep)
            for unit in (2, 1):
                tray = self._tray(s, unit, width - ruler_width(p.rows) - g.width - 4 - 2)
                if tray is not None and max(g.height + 3, tray.height + 1) <= height:
                    layout = (g, tray)
                    break
            if layout:
                break
        if layout is None:
            g = Grid(p.rows, p.cols, *options[-1])
            tray_w = max(8, width - ruler_width(p.rows) - g.width - 6)
            layout = (g, self._tray(s, 1, tray_w) or Canvas(0, 0))
        g, tray = layout

        def key(r: int, c: int) -> Hashable | None:
            if (r, c) in blocked:
                return "#"
            return owner.get((r, c))

        def style(k: Hashable | None) -> str:
            if k == "#":
                return bg("#0a0a0e")
            if k is None:
                return bg(EMPTY_BG)
            assert isinstance(k, int)
            if k == hint_piece:
                return bg(HINT_BG)
            return bg(piece_colour(k))

        board = Canvas(g.width, g.height)
        g.paint(board, key, style)
        for r, c in blocked:
            x, y = g.xy(r, c)
            board.fill(x, y, g.cw, g.ch, "░", "#34343e on #0a0a0e")
        for i in sorted(set(owner.values())):
            cells = [cell for cell, k in owner.items() if k == i]
            x, y = g.centre([min(cells)])
            board.restyle(x, y, ordinal_letter(i), f"bold {BRIGHT}")
        for r, c in ghost:
            x, y = g.xy(r, c)
            free = (r, c) not in blocked and (r, c) not in owner
            if free:
                board.fill(x, y, g.cw, g.ch, "▒", f"{piece_colour(self.sel)} on {EMPTY_BG}")
            else:
                for yy in range(y, y + g.ch):
                    board.restyle(x, yy, "✕" * g.cw, "bold #ff5050")
        for r, c in hint_cells:
            cx, cy = g.centre([(r, c)])
            board.restyle(cx, cy, "◆", f"bold {HINT}")
        out = Canvas(g.width + 4 + 2 + tray.width, max(g.height + 2, tray.height))
        out.frame(0, 0, g.width + 4, g.height + 2)
        out.paste(2, 1, board)
        out.paste(g.width + 6, 0, tray)
        return with_rulers(out, g, 2, 1, range(p.rows), range(p.cols)).lines()

    def _tray(self, s: Any, unit: int, width: int) -> Canvas | None:
        """The pieces, each under its number, flowed in rows ``width`` wide (None: too
        narrow)."""
        blocks: list[Canvas] = []
        for i in range(len(self.p.pieces)):
            j = self.ghost[i][0]
            cells = self.shape(i, j)
            h = max(r for r, _ in cells) + 1
            w = max(c for _, c in cells) + 1
            label = f"{i + 1} {ordinal_letter(i)}" if i < 9 else f"  {ordinal_letter(i)}"
            placed = s[i] is not None
            bw = max(w * unit, len(label) + (2 if placed else 0))
            block = Canvas(bw, h + 1)
            lab = (
                bg(SELECT_BG, "#000000")
                if i == self.sel
                else ("bold " + (DIM if placed else BRIGHT))
            )
            block.put(0, 0, label, lab)
            if placed:
                block.put(len(label), 0, " ✓", GOOD)
            colour = "#3a3a48" if placed else piece_colour(i)
            for r, c in cells:
                block.put(c * unit, 1 + r, "█" * unit, colour)
            blocks.append(block)
        if width < max(b.width for b in blocks):
            return None
        rows: list[list[Canvas]] = [[]]
        used = 0
        for b in blocks:
            if rows[-1] and used + 2 + b.width > width:
                rows.append([])
                used = 0
            used += (2 if rows[-1] else 0) + b.width
            rows[-1].append(b)
        height = sum(max(b.height for b in row) + 1 for row in rows) - 1
        tray = Canvas(width, height)
        y = 0
        for row in rows:
            x = 0
            for b in row:
                tray.paste(x, y, b)
                x += b.width + 2
            y += max(b.height for b in row) + 1
        return tray


# ---- keydoor


class KeyDoorUI(Controller):
    type_name = "keydoor"

    def __init__(self, p: Any) -> None:
        super().__init__(p)
        self.goal = f"Reach room {p.rooms}, the goal (G)."

    def arrow(self, s: Any, dr: int, dc: int) -> Answer:
        p = self.p
        room = s[0]
        if not p.is_side(room):
            action = {(0, -1): "left", (0, 1): "right", (1, 0): "enter"}.get((dr, dc))
            if action == "enter" and room != p.junction:
                return Say("The side branch leaves from another room.")
        else:
            back = "left" if room > p.rooms + 1 else "leave"
            action = {(1, 0): "right", (-1, 0): back}.get((dr, dc))
        if action is None:
            return Say(f"You cannot go {DIRECTION_OF[(dr, dc)]} from here.")
        return Play(action)

    def number(self, s: Any, n: int) -> Answer:
        legal = self.p.moves(s)
        if not 1 <= n <= len(legal):
            return Say(f"There is no action {n}.")
        return Play(legal[n - 1])

    def act(self, s: Any, name: str) -> Answer:
        return Play(name)

    def keys_for(self, s: Any, m: Any) -> str:
        legal = self.p.moves(s)
        return str(legal.index(m) + 1) if m in legal else ""

    def status(self, s: Any, width: int, marks: list[Any]) -> list[Text]:
        held = s[1]
        out = [
            Text.assemble(
                ("Holding: ", LABEL), (f"key {held}", "bold #ffd060") if held else ("nothing", DIM)
            ),
            Text(""),
            Text("Actions (press the number):", style=LABEL),
        ]
        first = marks[0] if marks else None
        for n, m in enumerate(self.p.moves(s), 1):
            words = self.p.describe_move(m, s)
            hinted = m == first
            for k, line in enumerate(wrap(words, width - 3, f"bold {HINT}" if hinted else "")):
                prefix = Text(f"{n}  " if k == 0 else "   ", style="bold")
                if hinted and k == 0:
                    prefix = Text(f"{n}◆ ", style=f"bold {HINT}")
                out.append(prefix + line)
        return out

    def board(self, s: Any, width: int, height: int, marks: list[Any]) -> list[Text]:
        p = self.p
        room, _held, where, opened = s
        n = p.rooms
        rw, conn = next(
            (
                (rw, cn)
                for rw, cn in ((5, 4), (5, 3), (3, 3), (3, 1))
                if n * rw + (n - 1) * cn <= width
            ),
            (3, 1),
        )
        tall = height >= 2 * p.branch + 12  # room for a blank row between the rooms
        pitch, vstep = rw + conn, 3 if tall else 2
        main_w = n * rw + (n - 1) * conn
        legend_y = 2 + vstep * p.branch + 1
        c = Canvas(max(main_w, 38), legend_y + 3)
        mid = rw // 2

        def room_xy(r: int) -> tuple[int, int]:
            if p.is_side(r):
                return (p.junction - 1) * pitch, 1 + vstep * (r - p.rooms)
            return (r - 1) * pitch, 1

        locked = "bold #ffffff on #a03030"
        for r in range(1, n + p.branch + 1):
            x, y = room_xy(r)
            if r == room:
                rs = bg("#4a6a9a")
            elif r == 1:
                rs = bg("#2a5a3a")
            elif r == n:
                rs = bg("#7a6a20")
            else:
                rs = bg("#2a2a3c")
            c.put(x, y, " " * rw, rs)
            if r == room:
                c.restyle(x + mid - 1, y, "@", "bold #ffffff")
            if r in where:
                c.restyle(x + mid, y, f"k{where.index(r) + 1}", "bold #ffd060")
            k = p.door_at(r)
            is_open = bool(k) and bool(opened >> (k - 1) & 1)
            if not p.is_side(r):
                tag = "S" if r == 1 else "G" if r == n else str(r)
                st = "bold #60c060" if r == 1 else "bold #ffd060" if r == n else DIM
                c.put(x + mid, 0, tag, st)
                if r > 1:
                    cx = x - conn
                    c.put(cx, y, "─" * conn, FRAME)
                    if k:
                        door = f"▐{k}▌" if conn >= 3 else str(k)
                        dx = cx + (conn - len(door)) // 2
                        c.put(
                            dx,
                            y,
                            door if not is_open else f"╌{k}╌"[: len(door)],
                            locked if not is_open else "#60c060",
                        )
            else:
                for yy in range(y - vstep + 1, y):
                    c.put(x + mid, yy, "│", FRAME)
                if k:
                    door = f"▐{k}▌"
                    c.put(
                        x + mid - 1,
                        y - 1,
                        door if not is_open else f" {k} ",
                        locked if not is_open else "#60c060",
                    )
                c.put(x + rw + 1, y, f"s{r - p.rooms}", DIM)
        c.put(0, legend_y, "@ you   k1 key 1   ", DIM)
        c.put(19, legend_y, "▐1▌", locked)
        c.put(22, legend_y, " door 1 (locked)", DIM)
        c.put(0, legend_y + 1, "S start  G goal  s1 side room 1", DIM)
        return c.lines()


CONTROLLERS: dict[str, type[Controller]] = {
    cls.type_name: cls for cls in (JugsUI, SlidingUI, StompUI, BallUI, HatgramUI, KeyDoorUI)
}


# ---------------------------------------------------------------------------- the key table


@dataclass(frozen=True)
class PuzzleKey:
    """One row of the key table: Textual keys, what they do, where they work."""

    keys: str  # Textual key names, comma-separated
    method: str  # the screen's ``do_<method>``
    args: tuple[Any, ...]
    description: str  # for the rules screen
    footer: str = ""  # the footer's short label; empty: not shown there
    key_display: str | None = None
    types: tuple[str, ...] = ()  # the puzzle types it works in; empty: every type
    group: str = ""  # rows of one group show in the footer as one entry
    when_solved: bool = False  # works (only) once the puzzle is solved
    always: bool = False  # works solved or not


ARROW_KEYS = (("up", -1, 0, "↑"), ("down", 1, 0, "↓"), ("left", 0, -1, "←"), ("right", 0, 1, "→"))
#: (footer label, rules description, types) of the arrows per type
ARROW_ROLES = (
    ("jug", "move the cursor", ("jugs",)),
    ("slide", "slide a tile into the gap", ("sliding",)),
    ("cursor", "move the cursor", ("stomp",)),
    ("push", "slide the selected piece", ("ball",)),
    ("move", "move the piece", ("hatgram",)),
    ("walk", "walk (the branch runs down)", ("keydoor",)),
)
#: (footer label, rules description, types) of the number keys per type
NUMBER_ROLES = (
    ("jug", "pick a jug: from, then into", ("jugs",)),
    ("block", "select a block", ("ball",)),
    ("pick", "select a piece", ("hatgram",)),
    ("do", "do the listed action", ("keydoor",)),
)


#: (keys, method, args, description, footer label, key display, types) of the type-specific keys
#: other than the arrows and the numbers
TYPE_KEYS: tuple[tuple[str, str, tuple[Any, ...], str, str, str, tuple[str, ...]], ...] = (
    ("0", "number", (0,), "select the ball", "ball", "0", ("ball",)),
    ("tab", "cycle", (1,), "select the next piece", "", "tab", ("ball", "hatgram")),
    ("shift+tab", "cycle", (-1,), "select the previous piece", "", "⇧tab", ("ball", "hatgram")),
    ("enter,space", "confirm", (), "pick the jug at the cursor", "pick", "⏎", ("jugs",)),
    ("space,enter", "confirm", (), "stomp under the cursor", "stomp", "␣", ("stomp",)),
    ("enter", "confirm", (), "put down / lift the piece", "put", "⏎", ("hatgram",)),
    ("t", "turn", (), "turn the piece", "turn", "t", ("hatgram",)),
    ("f", "flip", (), "flip the piece over", "flip", "f", ("hatgram",)),
    ("backspace,delete", "remove", (), "lift the piece off", "", "⌫", ("hatgram",)),
    ("t", "act", ("take",), "take the key lying here", "take", "t", ("keydoor",)),
    ("d", "act", ("drop",), "drop the key you hold", "drop", "d", ("keydoor",)),
    ("o", "act", ("open",), "open the door ahead", "open", "o", ("keydoor",)),
)


def _table() -> tuple[PuzzleKey, ...]:
    rows: list[PuzzleKey] = []
    for label, words, types in ARROW_ROLES:
        for key, dr, dc, glyph in ARROW_KEYS:
            rows.append(PuzzleKey(key, "arrow", (dr, dc), words, label, glyph, types, label))
    for label, words, types in NUMBER_ROLES:
        for n in range(1, 10):
            shown = label if n == 1 else ""
            rows.append(PuzzleKey(str(n), "number", (n,), words, shown, "1-9", types))
    rows += [PuzzleKey(*row) for row in TYPE_KEYS]
    rows += [
        PuzzleKey("h", "hint", (False,), HINT_WORDS, "hint", "h", group="hint"),
        PuzzleKey("H", "hint", (True,), SUPER_WORDS, "hint", "H", group="hint"),
        PuzzleKey("u", "undo", (), "undo the last move", "undo", "u"),
        PuzzleKey("r", "reset", (), "start again (press twice)", "reset", "r"),
        PuzzleKey("enter", "done", (), "finish, once solved", "done", "⏎", when_solved=True),
        PuzzleKey("question_mark", "rules", (), "these rules", "rules", "?", always=True),
        PuzzleKey("escape", "leave", (), "leave (progress is kept)", "leave", "esc", always=True),
    ]
    return tuple(rows)


HINT_WORDS = "hint, 1 coin per step"
SUPER_WORDS = f"the next {SUPER_HINT_MOVES} moves ({SUPER_HINT_COST} coins)"


#: The one table of the puzzle screen's keys (input, footer and rules screen read it).
PUZZLE_KEYS: tuple[PuzzleKey, ...] = _table()


def textual_bindings(table: tuple[PuzzleKey, ...] = PUZZLE_KEYS) -> list[Binding]:
    """The table as Textual bindings: row ``i`` runs the screen's ``key(i)`` action."""
    return [
        Binding(
            row.keys,
            f"key({i})",
            row.footer or row.description,
            show=bool(row.footer),
            key_display=row.key_display,
            group=Binding.Group(row.group, compact=True) if row.group else None,
        )
        for i, row in enumerate(table)
    ]


def key_rows(type_name: str) -> list[tuple[str, str]]:
    """(keys, description) of every key that works in ``type_name``, for the rules screen."""
    out: dict[str, list[str]] = {}
    for row in PUZZLE_KEYS:
        if row.types and type_name not in row.types:
            continue
        shown = row.key_display or row.keys.split(",")[0]
        keys = out.setdefault(row.description, [])
        if shown not in keys:
            keys.append(shown)
    return [(" ".join(keys), description) for description, keys in out.items()]


# ---------------------------------------------------------------------------- rules screen


class RulesScreen(ModalScreen[None]):
    """The rules of a puzzle type and its keys. Esc, ? or Enter closes it."""

    DEFAULT_CSS = """
    RulesScreen {
        align: center middle;
    }
    RulesScreen #rules-box {
        width: 76;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: round $accent;
        background: $surface;
        padding: 0 1;
    }
    """
    BINDINGS = [Binding("escape,question_mark,enter,q", "close", "Close", key_display="esc")]

    def __init__(self, type_name: str) -> None:
        super().__init__()
        self.type_name = type_name

    def compose(self) -> ComposeResult:
        text = Text(f"{self.type_name.capitalize()}: the rules\n\n", style="bold")
        paragraphs = puzzles.RULES[self.type_name].split("\n\n")
        text.append("\n\n".join(" ".join(par.split()) for par in paragraphs))
        text.append("\n\nKeys", style="bold")
        rows = key_rows(self.type_name)
        half = (len(rows) + 1) // 2
        table = Table(show_header=False, box=None, padding=(0, 1), expand=True)
        for _ in range(2):
            table.add_column(style="bold #ffd060", justify="right", no_wrap=True)
            table.add_column(ratio=1)
        for left, right in zip_longest(rows[:half], rows[half:], fillvalue=("", "")):
            table.add_row(*left, *right)
        with VerticalScroll(id="rules-box"):
            yield Static(text, id="rules-text")
            yield Static(table, id="rules-keys")

    def action_close(self) -> None:
        self.dismiss(None)


# ---------------------------------------------------------------------------- the screen


def _is_json_state(state: Any) -> bool:
    return isinstance(state, list | dict)


class PuzzleScreen(Screen[PuzzleOutcome]):
    """One puzzle instance, played with the keyboard (see the module docstring).

    ``state``: where to continue (a ``state_to_json`` document, or the puzzle's own state);
    ``moves``: the ``move_to_json`` moves that led from the initial state to it (when given,
    ``state`` may be left out, and the outcome's moves keep replaying from the initial state).
    ``coins``: hint coins the player may spend here; ``hints_used`` and ``resets``: counts from
    earlier visits (they lower the score). ``on_player_key``: called before any key the player
    presses here does its work (watch mode: a key takes the puzzle over from the bot, which
    plays through :meth:`play_json`).
    """

    CSS_PATH = "puzzle.tcss"
    AUTO_FOCUS = ""
    BINDINGS = [*textual_bindings()]

    def __init__(
        self,
        puzzle: Any,
        state: Any = None,
        *,
        coins: int = 0,
        hints_used: int = 0,
        resets: int = 0,
        moves: Sequence[Any] | None = None,
        on_player_key: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        self.on_player_key = on_player_key
        p = self.p = puzzle
        self.ctrl = CONTROLLERS[p.type_name](p)
        self.coins = coins
        self.coins_spent = 0
        self.hints_used = hints_used
        self.resets = resets
        if state is not None and _is_json_state(state):
            state = p.state_from_json(state)
        self.start = p.initial() if moves is not None or state is None else state
        self.s = self.start
        #: (state before, controller snapshot) per move made, for undo
        self.trail: list[tuple[Any, Any]] = []
        self.moves: list[Any] = []
        self.ctrl.reset_ui(self.s)
        for d in moves or ():
            self._apply(p.move_from_json(d))
        if state is not None and moves is not None and state != self.s:
            raise ValueError("the moves given do not lead to the state given")
        self.solved = p.is_solved(self.s)
        self.hint_tier = 0
        self.hint_lines: list[tuple[str, str]] = []  # (label, words) shown in the hint box
        #: the moves the current hint shows on the board (tier 3: one, super: up to three)
        self.hint_moves: list[Any] = []
        self.message: Text = Text("")
        self._reset_armed = False
        self._shown: dict[str, Text] = {}
        self._panel_w = 0
        if self.solved:
            self._say_solved()
        else:
            self.say("? shows the rules. h buys a hint.", DIM)

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Static("", id="puzzle-title")
        with Horizontal(id="puzzle-main"):
            yield Lines(id="puzzle-board")
            # never focused: the arrows belong to the puzzle (the mouse wheel still scrolls)
            with VerticalScroll(id="puzzle-side", can_focus=False):
                yield Lines(id="puzzle-panel")
        yield Static("", id="puzzle-message")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.redraw()

    def on_resize(self, event: events.Resize) -> None:
        self.redraw()

    # ------------------------------------------------------------------ figures

    @property
    def move_count(self) -> int:
        return len(self.moves)

    @property
    def score(self) -> int:
        return score(self.hints_used, self.resets, self.move_count, self.p.par)

    def score_words(self) -> str:
        """How the score came about, in words."""
        parts = []
        if self.hints_used:
            parts.append(f"{HINT_PENALTY * self.hints_used} for hints")
        if self.resets:
            parts.append(f"{RESET_PENALTY * self.resets} for resets")
        over = self.move_count - self.p.par
        if over > 0:
            parts.append(f"{OVER_PAR_PENALTY * over} for {over} moves over par")
        if not parts:
            return f"Score {self.score}: no hints, no resets, par or better."
        return f"Score {self.score}: 100 less " + ", ".join(parts) + "."

    def outcome(self) -> PuzzleOutcome:
        return PuzzleOutcome(
            solved=self.solved,
            state_json=self.p.state_to_json(self.s),
            moves=list(self.moves),
            coins_spent=self.coins_spent,
            hints_used=self.hints_used,
            move_count=self.move_count,
            resets=self.resets,
            score=self.score,
            start_json=self.p.state_to_json(self.start),
        )

    # ------------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action != "key":
            return True
        i = parameters[0]
        assert isinstance(i, int)
        row = PUZZLE_KEYS[i]
        if row.types and self.p.type_name not in row.types:
            return False
        if row.always:
            return True
        return row.when_solved == self.solved

    def action_key(self, i: int) -> None:
        if self.on_player_key is not None:
            self.on_player_key()
        row = PUZZLE_KEYS[i]
        if row.method != "reset":
            self._reset_armed = False
        getattr(self, f"do_{row.method}")(*row.args)

    def _answer(self, answer: Answer) -> None:
        if isinstance(answer, Say):
            self.say(answer.text)
        elif isinstance(answer, Play):
            self.play(answer.move)
            return
        self.redraw()

    def do_arrow(self, dr: int, dc: int) -> None:
        self._answer(self.ctrl.arrow(self.s, dr, dc))

    def do_number(self, n: int) -> None:
        self._answer(self.ctrl.number(self.s, n))

    def do_cycle(self, step: int) -> None:
        self._answer(self.ctrl.cycle(self.s, step))

    def do_confirm(self) -> None:
        self._answer(self.ctrl.confirm(self.s))

    def do_turn(self) -> None:
        self._answer(self.ctrl.turn(self.s))

    def do_flip(self) -> None:
        self._answer(self.ctrl.flip(self.s))

    def do_remove(self) -> None:
        self._answer(self.ctrl.remove(self.s))

    def do_act(self, name: str) -> None:
        self._answer(self.ctrl.act(self.s, name))

    def do_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.p.type_name))

    def do_leave(self) -> None:
        self.dismiss(self.outcome())

    def do_done(self) -> None:
        self.dismiss(self.outcome())

    # ------------------------------------------------------------------ moves

    def _apply(self, m: Any) -> Any:
        """Play ``m`` (raises IllegalMove): record it and let the controller follow."""
        t = self.p.apply(self.s, m)
        self.trail.append((self.s, self.ctrl.snapshot()))
        self.moves.append(self.p.move_to_json(m))
        self.ctrl.moved(self.s, m, t)
        self.s = t
        return t

    def play(self, m: Any) -> None:
        """The player's move ``m``."""
        if self.solved:
            return
        try:
            self._apply(m)
        except IllegalMove as err:
            text = str(err)
            self.say(text[:1].upper() + text[1:] + ".", BAD)
            self.redraw()
            return
        self._forget_hint()
        if self.p.is_solved(self.s):
            self.solved = True
            self._say_solved()
            self.refresh_bindings()
        else:
            self.say("")
            self._warn_if_stuck()
        self.redraw()

    def play_json(self, move: Any, note: str = "") -> None:
        """Play ``move``, a ``move_to_json`` document, as if the player had made it (the puzzle
        checks it), and draw it: how watch mode's bot solves a pedestal on screen, one move at a
        time. ``note``: what the message line says after a legal move that did not solve it."""
        made = len(self.moves)
        self.play(self.p.move_from_json(move))
        if note and not self.solved and len(self.moves) > made:
            self.say(note, DIM)
            self.redraw()

    def _warn_if_stuck(self) -> None:
        """In jugs and keydoor a move can leave the goal out of reach: say so at once."""
        if self.p.type_name in ("jugs", "keydoor") and self.p.solve(self.s) is None:
            self.say(STUCK, BAD)

    def _say_solved(self) -> None:
        over = self.move_count - self.p.par
        n = self.move_count
        words = f"Solved in {n} move{'' if n == 1 else 's'} (par {self.p.par})"
        if over <= 0:
            words += " — perfect!"
        self.message = Text.assemble(
            (words, GOOD), (f"  Score {self.score}.", "bold"), ("  Enter to finish.", DIM)
        )

    def do_undo(self) -> None:
        if not self.trail:
            self.say("Nothing to undo.", DIM)
            self.redraw()
            return
        s, snap = self.trail.pop()
        self.moves.pop()
        self.s = s
        self.ctrl.restore(snap, s)
        self._forget_hint()
        self.say("Move taken back.", DIM)
        self._warn_if_stuck()
        self.redraw()

    def do_reset(self) -> None:
        at_start = self.s == self.p.initial() and not self.moves
        if at_start:
            self.say("You are at the start already.", DIM)
        elif not self._reset_armed:
            self._reset_armed = True
            self.say(
                f"Press r again to start over (it costs {RESET_PENALTY} points).", "bold #ffd060"
            )
        else:
            self._reset_armed = False
            self.resets += 1
            self.s = self.start = self.p.initial()
            self.trail.clear()
            self.moves.clear()
            self.ctrl.reset_ui(self.s)
            self._forget_hint()
            self.say("Back to the start.", DIM)
        self.redraw()

    # ------------------------------------------------------------------ hints

    def _forget_hint(self) -> None:
        self.hint_tier = 0
        self.hint_lines = []
        self.hint_moves = []

    def do_hint(self, super_hint: bool) -> None:
        self._hint(super_hint)
        self.redraw()

    def _hint(self, super_hint: bool) -> None:
        p, s = self.p, self.s
        if self.hint_tier >= (SUPER_TIER if super_hint else 3):
            self.say("That hint is on the board already.", DIM)
            return
        cost = SUPER_HINT_COST if super_hint else 1
        if self.coins < cost:
            if self.coins == 0:
                self.say("You have no hint coins.", BAD)
            else:
                self.say(f"A super hint costs {cost} coins; you have {self.coins}.", BAD)
            return
        try:
            move, left = puzzles.hint(p, s)
        except Unsolvable:
            self.say(STUCK, BAD)
            return
        if super_hint:
            plan = p.solve(s) or []
            shown = plan[:SUPER_HINT_MOVES]
            cur = s
            self.hint_lines = [(f"Next {len(shown)} moves", f"({left} moves left):")]
            for n, m in enumerate(shown, 1):
                self.hint_lines.append((f"{n}.", p.describe_move(m, cur)))
                cur = p.apply(cur, m)
            self.hint_moves = shown
            self.hint_tier = SUPER_TIER
        else:
            self.hint_tier += 1
            if self.hint_tier < 3:
                self.hint_lines.append((f"Hint {self.hint_tier}", p.nudge(s, self.hint_tier)))
            else:
                keys = self.ctrl.keys_for(s, move)
                words = p.describe_move(move, s)
                steps = "1 move left" if left == 1 else f"{left} moves left"
                self.hint_lines.append(
                    ("Next:", f"{words} ({steps})." + (f" Keys: {keys}." if keys else ""))
                )
                self.hint_moves = [move]
        self.coins -= cost
        self.coins_spent += cost
        self.hints_used += cost
        self.say(f"Hint bought: {self.coins} coin{'s' if self.coins != 1 else ''} left.", DIM)

    # ------------------------------------------------------------------ drawing

    def say(self, text: str, style: str = BRIGHT) -> None:
        self.message = Text(text, style=style)

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
        p = self.p
        panel_w = self._panel_width()
        if panel_w != self._panel_w:
            self._panel_w = panel_w
            self.query_one("#puzzle-side").styles.width = panel_w + 4  # padding, border, bar
        title = Text(no_wrap=True, overflow="ellipsis")
        title.append(f" {p.type_name.capitalize()} ", style="bold #000000 on #d0a040")
        title.append(f" {p.difficulty}   ", style=LABEL)
        over = self.move_count > p.par
        title.append("Moves ", style=LABEL)
        title.append(f"{self.move_count}", style=BAD if over else "bold")
        title.append(f" / par {p.par}   ", style=LABEL)
        title.append("Score ", style=LABEL)
        title.append(f"{self.score}   ", style="bold")
        title.append("Coins ", style=LABEL)
        title.append(f"{self.coins}", style="bold #ffd060")
        if self.solved:
            title.append("   SOLVED", style=GOOD)
        self._update("#puzzle-title", title)
        self.query_one("#puzzle-board", Lines).show(
            self.ctrl.board(self.s, *self.board_size(), self.hint_moves)
        )
        self.query_one("#puzzle-panel", Lines).show(self._panel(panel_w))
        self._update("#puzzle-message", self.message)

    def _update(self, selector: str, text: Text) -> None:
        """Show ``text`` in a Static, if it is not shown there already."""
        widget = self.query_one(selector, Static)
        shown = self._shown.get(selector)
        if shown is None or not same_text(shown, text):
            self._shown[selector] = text
            widget.update(text)

    def _panel(self, width: int) -> list[Text]:
        out: list[Text] = []
        if self.hint_lines:
            for k, (label, words) in enumerate(self.hint_lines):
                line = Text.assemble((label + " ", f"bold {HINT}"), words)
                out += _wrap_text(line, width)
                following = self.hint_lines[k + 1][0] if k + 1 < len(self.hint_lines) else ""
                if not following[:1].isdigit():  # a blank line after each hint
                    out.append(Text(""))
        out += wrap("Goal: " + self.ctrl.goal, width, "bold")
        if self.solved:
            out.append(Text(""))
            out.append(Text("Solved!", style=GOOD))
            out += wrap(self.score_words(), width)
        else:
            for line in self.ctrl.status(self.s, width, self.hint_moves):
                out += _wrap_text(line, width)
        return out


@cache
def _console() -> Console:
    """A console to measure text with (its own width never matters here)."""
    return Console(width=200, legacy_windows=False)


def _wrap_text(line: Text, width: int) -> list[Text]:
    """A styled line broken into lines of at most ``width`` cells."""
    return list(line.wrap(_console(), width))


# ---------------------------------------------------------------------------- a tiny app


class PuzzleApp(App[PuzzleOutcome | None]):
    """An app that plays one puzzle and exits with its outcome (``roguelike puzzle play``)."""

    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False, priority=True)]

    def __init__(self, puzzle: Any, *, coins: int = 0) -> None:
        super().__init__()
        self.puzzle = puzzle
        self.coins = coins

    def on_mount(self) -> None:
        self.push_screen(PuzzleScreen(self.puzzle, coins=self.coins), self.exit)


__all__ = [
    "PUZZLE_KEYS",
    "PuzzleApp",
    "PuzzleKey",
    "PuzzleOutcome",
    "PuzzleScreen",
    "RulesScreen",
    "score",
]
