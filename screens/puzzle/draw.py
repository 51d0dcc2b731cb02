"""Drawing helpers of the puzzle views: the colours, a character :class:`Canvas`, the geometry
of a board of cells (:class:`Grid`), rulers and word wrapping."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import cache

from rich.console import Console
from rich.style import Style
from rich.text import Span, Text

from screens import themes

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


def shapes() -> bool:
    """True when the theme in use cannot rely on colour (monochrome): a view then draws with
    a shape what it otherwise says with a colour alone."""
    return themes.current().mono


@cache
def _colourless(style: Style) -> Style:
    """``style`` without its colours: what a monochrome terminal keeps (bold, reverse …)."""
    return style + Style(color="default", bgcolor="default")


def monochrome(lines: list[Text]) -> list[Text]:
    """``lines`` without a colour, as the monochrome theme draws a board: every view must
    still be readable so (its shapes and letters carry the meaning)."""
    out = []
    for line in lines:
        plain = Text(line.plain, no_wrap=line.no_wrap, end=line.end)
        base = Style.parse(line.style) if isinstance(line.style, str) else line.style
        plain.style = _colourless(base)
        plain.spans = [
            Span(
                sp.start,
                sp.end,
                _colourless(Style.parse(sp.style) if isinstance(sp.style, str) else sp.style),
            )
            for sp in line.spans
        ]
        out.append(plain)
    return out


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


@cache
def _console() -> Console:
    """A console to measure text with (its own width never matters here)."""
    return Console(width=200, legacy_windows=False)


def wrap_text(line: Text, width: int) -> list[Text]:
    """A styled line broken into lines of at most ``width`` cells."""
    return list(line.wrap(_console(), width))
