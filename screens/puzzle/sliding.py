"""The sliding tiles' view: the board in a frame; the arrows slide the tile next to the gap in
that direction.

A tile at home is green and one out of place brown; the hinted tile magenta. A goal other than
the standard order (the source's custom puzzles) is drawn beside the board, small, under
"goal". Where colour
cannot say it (the monochrome theme), a tile out of place is filled with ``░``, the hinted one
with ``▒``, a tile at home left blank, and where a cell is no wider than its number, a home
tile's number is underlined."""

from __future__ import annotations

from collections.abc import Hashable

from rich.text import Text

from roguelike.puzzles.sliding import Move, Sliding, State
from screens.puzzle.draw import (
    BOARD_BG,
    BRIGHT,
    DIM,
    HINT_BG,
    LABEL,
    Canvas,
    bg,
    fit_grid,
    shapes,
)
from screens.puzzle.view import ARROW_GLYPH, DIRECTION_OF, Answer, Play, Say, View, arrow_keys


class SlidingView(View[State, Move]):
    p: Sliding

    def __init__(self, p: Sliding) -> None:
        super().__init__(p)
        n = p.size
        if p.target is None:
            self.goal = f"Put the tiles in order, 1 to {n * n - 1}, the gap last."
        else:
            rows = [p.target[r * n : r * n + n] for r in range(n)]
            shown = " / ".join(" ".join(str(v) if v else "." for v in row) for row in rows)
            self.goal = f"Arrange the tiles as the goal shows: {shown}."

    def _pos(self, s: State, t: int) -> tuple[int, int]:
        return divmod(s.index(t), self.p.size)

    def arrow(self, s: State, dr: int, dc: int) -> Answer:
        n = self.p.size
        br, bc = self._pos(s, 0)
        r, c = br - dr, bc - dc
        if not (0 <= r < n and 0 <= c < n):
            return Say(f"No tile can slide {DIRECTION_OF[(dr, dc)]}.")
        return Play(s[r * n + c])

    def keys_for(self, s: State, m: Move) -> str:
        tr, tc = self._pos(s, m)
        br, bc = self._pos(s, 0)
        return ARROW_GLYPH.get((br - tr, bc - tc), "?")

    def status(self, s: State, width: int, marks: list[Move]) -> list[Text]:
        goal = self.p.goal()
        home = sum(1 for i, t in enumerate(s) if t and t == goal[i])
        return [Text(f"{home} of {len(s) - 1} tiles are home.", style=DIM)]

    def _home(self, s: State, t: int) -> bool:
        """Is tile ``t`` where the goal has it?"""
        return self.p.goal()[s.index(t)] == t

    def board(self, s: State, width: int, height: int, marks: list[Move]) -> list[Text]:
        n = self.p.size
        goal = self.p.target
        # a custom goal beside the board: "goal" over its rows, each tile in 3 columns
        goal_w = 0 if goal is None else 2 + 3 * n
        g = fit_grid(
            n,
            n,
            width,
            height,
            [(11, 5, True), (9, 3, True), (7, 3, True), (5, 3, True), (4, 1, True), (2, 1, False)],
            extra_w=4 + goal_w,
            extra_h=2,
        )
        c = Canvas(g.width + 4 + goal_w, max(g.height + 2, n + 2))
        c.frame(0, 0, g.width + 4, g.height + 2)
        if goal is not None:
            gx = g.width + 6
            c.put(gx, 0, "goal", f"bold {LABEL}")
            for r in range(n):
                row = "".join((str(t) if t else "·").rjust(3) for t in goal[r * n : r * n + n])
                c.put(gx - 1, 1 + r, row, BRIGHT)
        hint = marks[0] if marks else None

        def key(r: int, col: int) -> Hashable | None:
            return s[r * n + col] or None

        def style(t: Hashable | None) -> str:
            if t is None:
                return bg(BOARD_BG)
            if t == hint:
                return bg(HINT_BG)
            assert isinstance(t, int)
            return bg("#2f6a3c" if self._home(s, t) else "#6a5230")

        board = Canvas(g.width, g.height)
        g.paint(board, key, style)
        marked = shapes()
        for t in s:
            if t:
                r, col = divmod(s.index(t), n)
                label = str(t)
                home = self._home(s, t)
                if marked and (t == hint or not home):
                    x, y = g.xy(r, col)
                    board.fill(x, y, g.cw, g.ch, "▒" if t == hint else "░", style(t))
                x, y = g.centre([(r, col)], len(label))
                under = " underline" if marked and home and len(label) >= g.cw else ""
                board.restyle(x, y, label, f"bold{under} {BRIGHT}")
        c.paste(2, 1, board)
        return c.lines()

    KEYS = (*arrow_keys("slide", "slide a tile into the gap", arrow),)
