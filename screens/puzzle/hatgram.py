"""The hatgram's view: the board in a frame and the tray of pieces beside it; ``1``-``9`` (or
Tab) picks a piece, ``t`` turns and ``f`` flips it, the arrows move its ghost over the board,
Enter puts it down (on a placed piece: lifts it off, as Backspace and Delete do).

Readable without colour: every cell of a placed piece carries the piece's letter, an empty
square ``·``, a blocked one ``░``, the ghost ``▒`` (``✕`` where it does not fit), a hinted cell
``◆``; in the tray a placed piece is ticked ``✓``."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import partial

from rich.text import Text

from roguelike.puzzles.base import IllegalMove, ordinal_letter
from roguelike.puzzles.hatgram import (
    Hatgram,
    Move,
    Placement,
    Shape,
    State,
    flipped,
    orientations,
    pose,
    turned,
)
from screens.puzzle.draw import (
    BRIGHT,
    DIM,
    EMPTY_BG,
    GOOD,
    HINT,
    HINT_BG,
    LABEL,
    SELECT_BG,
    Canvas,
    Grid,
    bg,
    piece_colour,
    ruler_width,
    with_rulers,
)
from screens.puzzle.view import Answer, Play, Say, View, arrow_keys, number_keys, view_key


@dataclass(frozen=True)
class _Selection:
    """The view's selection at one move, for undo: the piece picked, each piece's ghost."""

    sel: int
    ghost: dict[int, Placement]


class HatgramView(View[State, Move]):
    p: Hatgram

    def __init__(self, p: Hatgram) -> None:
        super().__init__(p)
        self.sel = 0
        self.ghost: dict[int, Placement] = {}
        #: each piece's centre, doubled (whole numbers), where the arrows and the board left it:
        #: a turn or flip keeps the piece round it (:meth:`_reorient`), so turning never walks
        #: the piece towards the top left (nor does the board's edge, which only moves what is
        #: shown, never the centre)
        self.centre: dict[int, tuple[int, int]] = {}
        self.goal = "Cover every free square with all the pieces."

    def reset_ui(self, s: State) -> None:
        self.ghost = {i: (0, 0, 0) for i in range(len(self.p.pieces))}
        for i, pl in enumerate(s):
            if pl is not None:
                self.ghost[i] = pl
        self.sel = next((i for i, pl in enumerate(s) if pl is None), 0)
        self.centre = {i: self._centre_of(i) for i in self.ghost}

    def _centre_of(self, i: int) -> tuple[int, int]:
        """The doubled centre of piece ``i``'s ghost as it stands."""
        j, r, c = self.ghost[i]
        cells = self.shape(i, j)
        h = max(dr for dr, _ in cells) + 1
        w = max(dc for _, dc in cells) + 1
        return (2 * r + h - 1, 2 * c + w - 1)

    def snapshot(self) -> _Selection:
        return _Selection(self.sel, dict(self.ghost))

    def restore(self, snap: object, s: State) -> None:
        assert isinstance(snap, _Selection)
        self.sel = snap.sel
        self.ghost = dict(snap.ghost)
        self.centre = {i: self._centre_of(i) for i in self.ghost}

    def moved(self, s: State, m: Move, t: State) -> None:
        if m[0] == "place":
            i = m[1]
            self.ghost[i] = (m[2], m[3], m[4])
            n = len(t)
            self.sel = next((k % n for k in range(i + 1, i + 1 + n) if t[k % n] is None), i)
        else:
            i = m[1]
            placed = s[i]
            assert placed is not None  # the piece taken off stood on the board
            self.ghost[i] = placed
            self.sel = i
        self.centre[i] = self._centre_of(i)

    def shape(self, i: int, j: int) -> tuple[tuple[int, int], ...]:
        return orientations(self.p.pieces[i])[j]

    def _clamped(self, i: int, j: int, r: int, c: int) -> tuple[int, int, int]:
        cells = self.shape(i, j)
        h = max(dr for dr, _ in cells) + 1
        w = max(dc for _, dc in cells) + 1
        r = max(0, min(self.p.rows - h, r))
        c = max(0, min(self.p.cols - w, c))
        return j, r, c

    def _placed(self, s: State) -> Say | None:
        if s[self.sel] is None:
            return None
        name = ordinal_letter(self.sel)
        return Say(f"Piece {name} is on the board: Enter lifts it, or pick another piece.")

    def arrow(self, s: State, dr: int, dc: int) -> Answer:
        if said := self._placed(s):
            return said
        j, r, c = self.ghost[self.sel]
        self.ghost[self.sel] = self._clamped(self.sel, j, r + dr, c + dc)
        self.centre[self.sel] = self._centre_of(self.sel)
        return None

    def turn(self, s: State) -> Answer:
        return self._reorient(s, turned)

    def flip(self, s: State) -> Answer:
        return self._reorient(s, flipped)

    def _reorient(self, s: State, how: Callable[[Shape, int], int]) -> Answer:
        if said := self._placed(s):
            return said
        i = self.sel
        j = how(self.p.pieces[i], self.ghost[i][0])
        cells = self.shape(i, j)
        h = max(dr for dr, _ in cells) + 1
        w = max(dc for _, dc in cells) + 1
        cr, cc = self.centre.get(i, self._centre_of(i))
        # turned round its centre (a half cell rounded up and left, the same way each time)
        self.ghost[i] = self._clamped(i, j, (cr - h + 1) // 2, (cc - w + 1) // 2)
        return None

    def confirm(self, s: State) -> Answer:
        if s[self.sel] is not None:
            return self.remove(s)
        j, r, c = self.ghost[self.sel]
        move = ("place", self.sel, j, r, c)
        try:
            self.p.apply(s, move)
        except IllegalMove:
            return Say(f"Piece {ordinal_letter(self.sel)} does not fit there.")
        return Play(move)

    def remove(self, s: State) -> Answer:
        if s[self.sel] is None:
            return Say(f"Piece {ordinal_letter(self.sel)} is not on the board.")
        return Play(("remove", self.sel))

    def number(self, s: State, n: int) -> Answer:
        if not 1 <= n <= len(self.p.pieces):
            return Say(f"There is no piece {n}.")
        self.sel = n - 1
        return None

    def cycle(self, s: State, step: int) -> Answer:
        self.sel = (self.sel + step) % len(self.p.pieces)
        return None

    def keys_for(self, s: State, m: Move) -> str:
        i = m[1]
        pick = str(i + 1) if i < 9 else "Tab"
        if m[0] == "remove":
            return f"{pick} then Enter"
        return f"{pick}, t / f to turn it, the arrows, then Enter"

    def status(self, s: State, width: int, marks: list[Move]) -> list[Text]:
        i = self.sel
        n = len(orientations(self.p.pieces[i]))
        j = self.ghost[i][0]
        if s[i] is not None:
            where = "on the board"
        else:
            where = "the same every way" if n == 1 else pose(self.p.pieces[i], j)
        return [
            Text.assemble(
                ("Selected: ", LABEL), (f"piece {ordinal_letter(i)}", "bold"), f" ({where})"
            )
        ]

    def board(self, s: State, width: int, height: int, marks: list[Move]) -> list[Text]:
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
        for r in range(p.rows):
            for c in range(p.cols):
                if (r, c) in blocked:
                    continue
                x, y = g.centre([(r, c)])
                if (r, c) in owner:
                    board.restyle(x, y, ordinal_letter(owner[(r, c)]), f"bold {BRIGHT}")
                else:
                    board.restyle(x, y, "·", DIM)
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

    def _tray(self, s: State, unit: int, width: int) -> Canvas | None:
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

    KEYS = (
        *arrow_keys("move", "move the piece", arrow),
        *number_keys("pick", "select a piece", number),
        view_key("tab", "select the next piece", "", "tab", partial(cycle, step=1)),
        view_key("shift+tab", "select the previous piece", "", "⇧tab", partial(cycle, step=-1)),
        view_key("enter", "put down / lift the piece", "put", "⏎", confirm),
        view_key("t", "turn the piece", "turn", "t", turn),
        view_key("f", "flip the piece over", "flip", "f", flip),
        view_key("backspace,delete", "lift the piece off", "", "⌫", remove),
    )
