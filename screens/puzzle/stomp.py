"""The stomp tiles' view: the floor with a cursor, the target beside it; the arrows move the
cursor, Space or Enter stomps. Readable without colour: a lit tile shows ``●`` and a dark one
``·`` (a hinted tile ``◈`` lit, ``◇`` dark), the target ``█`` lit and ``░`` dark."""

from __future__ import annotations

from collections.abc import Hashable

from rich.text import Text

from roguelike.puzzles.stomp import Move, State, Stomp
from screens.puzzle.draw import DIM, HINT, LABEL, Canvas, bg, fit_grid, ruler_width, with_rulers
from screens.puzzle.view import Answer, Play, View, arrow_keys, view_key


class StompView(View[State, Move]):
    p: Stomp

    def __init__(self, p: Stomp) -> None:
        super().__init__(p)
        self.cursor = (p.n_rows // 2, p.n_cols // 2)
        self.goal = "Make the floor match the target."

    def _lit(self, s: int, r: int, c: int) -> bool:
        return bool(s >> (r * self.p.n_cols + c) & 1)

    def arrow(self, s: State, dr: int, dc: int) -> Answer:
        h, w = self.p.n_rows, self.p.n_cols
        r, c = self.cursor
        self.cursor = (min(h - 1, max(0, r + dr)), min(w - 1, max(0, c + dc)))
        return None

    def confirm(self, s: State) -> Answer:
        return Play(self.cursor)

    def status(self, s: State, width: int, marks: list[Move]) -> list[Text]:
        wrong = (s ^ self.p.target).bit_count()
        return [
            Text(
                "Matches the target!" if not wrong else f"{wrong} tiles differ from the target.",
                style=DIM,
            )
        ]

    def board(self, s: State, width: int, height: int, marks: list[Move]) -> list[Text]:
        n, w = self.p.n_rows, self.p.n_cols
        target_w = 2 * w + 2
        g = fit_grid(
            n,
            w,
            width,
            height,
            [(9, 3, True), (7, 3, True), (5, 2, True), (4, 2, True), (3, 1, True), (2, 1, False)],
            extra_w=4 + 2 + target_w + ruler_width(n),
            extra_h=2 + 1,
        )
        bw, bh = g.width + 4, g.height + 2
        # the target twice as big when there is room for it
        big = width - ruler_width(n) - bw - 2 >= 4 * w + 2 and height >= 2 * n + 3
        tcw, tch = (4, 2) if big else (2, 1)
        c = Canvas(bw + 2 + max(target_w, tcw * w + 2), max(bh, tch * n + 3))
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
            for col in range(w):
                x, y = g.xy(r, col)
                lit = self._lit(s, r, col)
                cx, cy = g.centre([(r, col)])
                if g.cw < 3:  # the cursor's mark takes the cell's first character
                    cx = x + 1
                if (r, col) in hinted:
                    board.restyle(cx, cy, "◈" if lit else "◇", f"bold {HINT}")
                else:
                    board.restyle(cx, cy, "●" if lit else "·", "#000000" if lit else DIM)
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
            for col in range(w):
                lit = bool(self.p.target >> (r * w + col) & 1)
                for dy in range(tch):
                    c.put(
                        tx + tcw * col,
                        2 + tch * r + dy,
                        ("█" if lit else "░") * tcw,
                        "#e8c547" if lit else "#3a3a4a",
                    )
        return with_rulers(c, g, 2, 1, range(n), range(w)).lines()

    KEYS = (
        *arrow_keys("cursor", "move the cursor", arrow),
        view_key("space,enter", "stomp under the cursor", "stomp", "␣", confirm),
    )
