"""The sliding blocks' view: the box with its wall and exit, each piece labelled (the ball ●,
the blocks 1, 2, ...); ``0`` picks the ball, ``1``-``9`` a block (Tab cycles), the arrows slide
it one cell. The labels follow the pieces as they move (and back on undo).

Readable without colour: the wall is ``▓``, a blocked cell ``╳``, the cells the ball must reach
``░`` (the gap in the wall, under the board's columns of the exit, is blank with ``▼ exit ▼``
below it), an empty cell ``·``; every cell of a piece shows its label (when the cells are wide
enough), so their shapes read without colour."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import partial

from rich.text import Text

from roguelike.puzzles.ball import KIND_WORDS, KINDS, Ball, Move, State
from roguelike.puzzles.base import IllegalMove
from screens.puzzle.draw import (
    BOARD_BG,
    BRIGHT,
    DIM,
    HINT_BG,
    LABEL,
    SELECT_BG,
    Canvas,
    bg,
    fit_grid,
    piece_colour,
    ruler_width,
    with_rulers,
)
from screens.puzzle.view import (
    ARROW_GLYPH,
    DELTA_OF,
    DIRECTION_OF,
    Answer,
    Play,
    Say,
    View,
    arrow_keys,
    number_keys,
    view_key,
)


@dataclass(frozen=True)
class _Selection:
    """The view's selection at one move, for undo: each piece's [kind, r, c], the one picked."""

    pieces: tuple[tuple[int, ...], ...]
    sel: int


class BallView(View[State, Move]):
    p: Ball

    def __init__(self, p: Ball) -> None:
        super().__init__(p)
        self.pieces: list[list[int]] = []  # [kind, r, c] per piece, the ball first
        self.sel = 0
        self.goal = (
            "Bring the ball ● down to the gap in the bottom wall, onto the squares above it"
            " (░ where no block stands)."
            if p.target is None
            else "Bring the ball ● onto the marked squares (░ where no block stands)."
        )

    def reset_ui(self, s: State) -> None:
        doc = self.p.state_to_json(s)
        pieces = [[0, *doc["ball"][0]]]
        blocks = sorted(
            (r, c, k) for k, (name, _h, _w) in enumerate(KINDS) if k for r, c in doc[name]
        )
        pieces += [[k, r, c] for r, c, k in blocks]
        self.pieces = pieces
        self.sel = 0

    def snapshot(self) -> _Selection:
        return _Selection(tuple(tuple(pc) for pc in self.pieces), self.sel)

    def restore(self, snap: object, s: State) -> None:
        assert isinstance(snap, _Selection)
        self.pieces = [list(pc) for pc in snap.pieces]
        self.sel = snap.sel

    def moved(self, s: State, m: Move, t: State) -> None:
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
        if i == 0:
            return "the ball"
        return f"{KIND_WORDS[KINDS[self.pieces[i][0]][0]]} {self.label(i)}"

    def index_at(self, r: int, c: int) -> int | None:
        return next((i for i, pc in enumerate(self.pieces) if pc[1:] == [r, c]), None)

    def arrow(self, s: State, dr: int, dc: int) -> Answer:
        _k, r, c = self.pieces[self.sel]
        m = (r, c, DIRECTION_OF[(dr, dc)])
        try:
            self.p.apply(s, m)
        except IllegalMove:
            return Say(f"{self.name(self.sel).capitalize()} cannot move {m[2]}.")
        return Play(m)

    def number(self, s: State, n: int) -> Answer:
        if n >= len(self.pieces):
            return Say(f"There is no block {n}.")
        self.sel = n
        return None

    def cycle(self, s: State, step: int) -> Answer:
        self.sel = (self.sel + step) % len(self.pieces)
        return None

    def keys_for(self, s: State, m: Move) -> str:
        i = self.index_at(m[0], m[1])
        glyph = ARROW_GLYPH[DELTA_OF[m[2]]]
        if i is None:
            return glyph
        return f"{i if i <= 9 else 'Tab'} then {glyph}"

    def status(self, s: State, width: int, marks: list[Move]) -> list[Text]:
        return [Text.assemble(("Selected: ", LABEL), (self.name(self.sel), "bold"))]

    def board(self, s: State, width: int, height: int, marks: list[Move]) -> list[Text]:
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
        # model cells: the exit's two cells of the bottom wall (row ``rows``) under the board's
        # columns exit_col and exit_col + 1, and the four the ball must cover
        exit_cells = {(p.rows, p.exit_col), (p.rows, p.exit_col + 1)} if p.target is None else set()
        gr, gc = p.goal_cell
        goal_cells = {(gr + dr, gc + dc) for dr in (0, 1) for dc in (0, 1)}
        blocked = set(p.blocked)
        hint = marks[0] if marks else None
        hinted = self.index_at(hint[0], hint[1]) if hint else None

        def key(r: int, c: int) -> Hashable | None:
            if (r - 1, c - 1) in owner:
                return owner[(r - 1, c - 1)]
            if r in (0, rows - 1) or c in (0, cols - 1):
                return None if (r - 1, c - 1) in exit_cells else "#"
            if (r - 1, c - 1) in blocked:
                return "x"
            return None

        def style(k: Hashable | None) -> str:
            if k == "#":
                return bg("#4a4a58")
            if k == "x":
                return bg("#3a3a44")
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
        # the wall and the blocked cells (with the separators between them) get their glyphs
        glyphs = {style("#"): ("▓", "#6a6a78 on #4a4a58"), style("x"): ("╳", "#8a8a98 on #3a3a44")}
        for line in cv.cells:
            for i, (_ch, st) in enumerate(line):
                if st in glyphs:
                    line[i] = glyphs[st]
        for r in range(rows):
            for col in range(cols):
                if key(r, col) is None and 0 < r < rows - 1 and (r - 1, col - 1) not in goal_cells:
                    cx, cy = g.centre([(r, col)])
                    cv.restyle(cx, cy, "·", DIM)
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
            fg = "bold #000000" if i == self.sel and i != hinted else f"bold {BRIGHT}"
            if len(cells) > 1 and g.cw >= 3:  # every cell marked, so shapes read without colour
                for cell in cells:
                    cx, cy = g.centre([cell])
                    cv.restyle(cx, cy, self.label(i), fg)
            x, y = g.centre(cells, len(label))
            cv.restyle(x, y, label, fg)
        if p.target is None:
            ex, _ey = g.xy(rows - 1, p.exit_col + 1)
            span = 2 * g.pitch_x - g.sep
            text = "▼ exit ▼"
            cv.put(ex + max(0, (span - len(text)) // 2), g.height, text, "bold #c83c3c")
        inner_rows, inner_cols = range(1, p.rows + 1), range(1, p.cols + 1)
        return with_rulers(cv, g, 0, 0, inner_rows, inner_cols).lines()

    KEYS = (
        *arrow_keys("push", "slide the selected piece", arrow),
        *number_keys("block", "select a block", number),
        view_key("0", "select the ball", "ball", "0", partial(number, n=0)),
        view_key("tab", "select the next piece", "", "tab", partial(cycle, step=1)),
        view_key("shift+tab", "select the previous piece", "", "⇧tab", partial(cycle, step=-1)),
    )
