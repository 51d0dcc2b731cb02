"""The overview map (``M``): the whole floor at a glance, as far as the player knows it.

A floor can be larger than the terminal (156×80 on a large world, the map view at 80×24 shows
about 56×18 of it), so the overview shrinks the part the player knows (the rectangle round every
cell seen) to fit, full size while it fits: each character stands for a block of
``sx × sy`` cells, the smallest block that fits, and shows the most important thing in its block
(:data:`MARK_RANK`, :func:`tile_ranks`): the player, then the stairs or exit, keys, pedestals,
locked doors, monsters, items, doors, then floor over wall, so a key or the stairs are never
lost in a block of wall. Unseen cells stay blank. A legend under the map says what the marks
are and how much the map is shrunk. Esc (or ``M``) closes it.

It draws from the same tables as the map view (:mod:`screens.map_view`), so a cell looks the
same on both.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from roguelike import tiles
from roguelike.engine import GameState
from screens.bindings import ClosedByItsKey, keys_of
from screens.help import key_names
from screens.map_view import (
    PLAYER_GLYPH,
    cell_table,
    colour_of,
    key_glyph,
    key_underlined,
    kinds_of,
    marks_of,
)

#: How much a mark outranks others in its block (tiles rank below 50, see tile_ranks).
MARK_RANK = {"player": 100, "key": 85, "monster": 60, "item": 50}


def tile_ranks() -> np.ndarray:
    """Each tile's rank in a block, by tile id: what the player most needs to see first."""
    rank = np.zeros(len(tiles.TILES), dtype=np.int32)
    for t in tiles.TILES:
        if t.id in (tiles.STAIRS, tiles.EXIT):
            rank[t.id] = 90
        elif t.id == tiles.PEDESTAL:
            rank[t.id] = 80
        elif tiles.lock_of(t.id) is not None or t.id == tiles.VAULT_SEAL:
            rank[t.id] = 75  # a locked door, a vault's seal
        elif t.id in (tiles.DOOR, tiles.DOOR_OPEN, tiles.BROKEN_DOOR):
            rank[t.id] = 40
        elif t.walkable:
            rank[t.id] = 20
        elif t.transparent:
            rank[t.id] = 15  # a chasm, a statue
        elif t.id == tiles.WALL:
            rank[t.id] = 10
        else:
            rank[t.id] = 5
    return rank


_TILE_RANKS = tile_ranks()


def scale_for(map_w: int, map_h: int, cols: int, rows: int) -> tuple[int, int]:
    """The smallest block (``sx``, ``sy``) that fits a ``map_w × map_h`` floor in ``cols ×
    rows`` characters."""
    return max(1, -(-map_w // max(1, cols))), max(1, -(-map_h // max(1, rows)))


@dataclass(frozen=True)
class Overview:
    """A floor shrunk by (``sx``, ``sy``): each character's glyph and style, row by row; the
    first character's block starts at the floor's cell (``x0``, ``y0``), the corner of the
    part the player knows."""

    sx: int
    sy: int
    cells: list[list[tuple[str, Style]]]
    x0: int = 0
    y0: int = 0

    def text(self) -> str:
        """The glyphs alone, one line per row (for tests and a plain look)."""
        return "\n".join("".join(glyph for glyph, _ in row) for row in self.cells)


def _known_part(
    code: np.ndarray, rank: np.ndarray
) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """The rectangle of the floor the player knows (every cell with a rank, and a margin of
    one), cut from ``code`` and ``rank``: the overview shrinks what is known, not the whole
    floor, so early on a floor it shows full size and fills the screen as the floor is
    explored."""
    ys, xs = np.nonzero(rank >= 0)
    if not len(ys):
        return code, rank, (0, 0)
    h, w = rank.shape
    top, bottom = max(0, int(ys.min()) - 1), min(h, int(ys.max()) + 2)
    left, right = max(0, int(xs.min()) - 1), min(w, int(xs.max()) + 2)
    return code[top:bottom, left:right], rank[top:bottom, left:right], (left, top)


def overview(state: GameState, cols: int, rows: int) -> Overview:
    """``state``'s floor shrunk to fit ``cols × rows`` characters, the most important cell of
    each block winning (ties: the first in the block, top to bottom, left to right)."""
    glyphs, numbers, styles = cell_table()
    kinds = kinds_of(state)
    table: list[tuple[str, Style]] = [
        (str(glyphs[k]), styles[int(numbers[k])]) for k in range(len(glyphs))
    ]
    code = kinds.astype(np.int32)
    rank = np.where(state.explored, _TILE_RANKS[state.tiles], -1).astype(np.int32)
    solved = [pos for pos, room in state.puzzles.items() if room.solved]
    for x, y in solved:  # a solved pedestal is no longer worth a mark
        rank[y, x] = min(int(rank[y, x]), 20)
    monsters = {(m.x, m.y) for m in state.visible_monsters()}
    for (x, y), mark in marks_of(state).items():
        if (x, y) == state.player:
            what = "player"
        elif (x, y) in monsters and state.visible[y, x]:
            what = "monster"
        elif (x, y) in state.keys_lying:
            what = "key"
        else:
            what = "item"
        code[y, x] = len(table)
        table.append(mark)
        rank[y, x] = MARK_RANK[what]
    code, rank, (x0, y0) = _known_part(code, rank)
    h, w = code.shape
    sx, sy = scale_for(w, h, cols, rows)
    out_h, out_w = -(-h // sy), -(-w // sx)
    padded_rank = np.full((out_h * sy, out_w * sx), -1, dtype=np.int32)
    padded_code = np.zeros((out_h * sy, out_w * sx), dtype=np.int32)
    padded_rank[:h, :w] = rank
    padded_code[:h, :w] = code
    blocks_rank = padded_rank.reshape(out_h, sy, out_w, sx).transpose(0, 2, 1, 3)
    blocks_code = padded_code.reshape(out_h, sy, out_w, sx).transpose(0, 2, 1, 3)
    flat_rank = blocks_rank.reshape(out_h, out_w, sy * sx)
    best = flat_rank.argmax(axis=2)
    chosen = np.take_along_axis(blocks_code.reshape(out_h, out_w, sy * sx), best[..., None], 2)
    chosen = np.where(np.take_along_axis(flat_rank, best[..., None], 2) < 0, 0, chosen)
    cells = [[table[int(c)] for c in row] for row in chosen[..., 0].tolist()]
    return Overview(sx, sy, cells, x0, y0)


def _key_glyphs() -> str:
    """How the keys are drawn: ``k``, or ``a-j`` where the theme tells them by letter."""
    first, last = key_glyph(1), key_glyph(len(tiles.KEY_COLOURS))
    return first if first == last else f"{first}-{last}"


def legend(over: Overview, closes: str = "M") -> Text:
    """What the marks are, in their own colours, and how much the map is shrunk;
    ``closes``: the overview's key, as the footer writes it (the player may rebind it)."""
    entries = [
        (PLAYER_GLYPH, "#ffffff", "you"),
        (">", colour_of("stairs"), "stairs"),
        ("<", colour_of("stairs"), "exit"),
        # as the map draws them in the theme in use (keys by letter in some)
        (_key_glyphs(), colour_of("key1"), "key"),
        ("A-J", colour_of("key2"), "locked door"),
        ("_", colour_of("pedestal"), "pedestal"),
        ("+", colour_of("door"), "door"),
    ]
    text = Text()
    for glyph, colour, name in entries:
        underline = name == "key" and key_underlined()
        text.append(glyph, Style(color=colour, bold=True, underline=underline or None))
        text.append(f" {name}  ")
    if (over.sx, over.sy) == (1, 1):
        text.append("Full size.", "#9a9aaa")
    else:
        text.append(f"Each mark: {over.sx}×{over.sy} cells, the most important.", "#9a9aaa")
    text.append(f"  Esc or {closes} closes.", "bold")
    return text


class OverviewMap(Widget):
    """The shrunk floor, centred in the widget; worked out again when the widget's size
    changes."""

    DEFAULT_CSS = """
    OverviewMap {
        width: 1fr;
        height: 1fr;
        background: #000000;
    }
    """

    class Shrunk(Message):
        """The floor was shrunk again (the widget's size changed): the legend says by how
        much."""

        def __init__(self, over: Overview) -> None:
            super().__init__()
            self.over = over

    def __init__(self, state: GameState, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.state = state
        self.over: Overview | None = None
        self._strips: list[Strip] = []

    def on_resize(self, event: events.Resize) -> None:
        self.layout_for(event.size.width, event.size.height)

    def layout_for(self, cols: int, rows: int) -> None:
        """Shrink the floor to ``cols × rows`` and keep each row as a strip."""
        over = overview(self.state, max(1, cols), max(1, rows))
        self.over = over
        width = len(over.cells[0]) if over.cells else 0
        left = max(0, (cols - width) // 2)
        top = max(0, (rows - len(over.cells)) // 2)
        strips = [Strip.blank(cols)] * top
        for row in over.cells:
            segments = [Segment(" " * left)] + [Segment(g, s) for g, s in row]
            strips.append(Strip(segments).simplify().extend_cell_length(cols))
        self._strips = strips
        self.refresh()
        self.post_message(self.Shrunk(over))

    def render_line(self, y: int) -> Strip:
        if 0 <= y < len(self._strips):
            return self._strips[y]
        return Strip.blank(self.size.width)


class OverviewScreen(ClosedByItsKey, Screen[None]):
    """The whole floor of ``state`` shrunk to fit, and a legend (see the module)."""

    DEFAULT_CSS = """
    OverviewScreen {
        background: #000000;
    }
    OverviewScreen #overview-title {
        height: 1;
        width: 1fr;
        text-style: bold;
    }
    OverviewScreen #overview-legend {
        height: auto;
        width: 1fr;
    }
    """

    BINDINGS = [Binding("escape,M,q", "close", "Close", show=False)]
    opened_by = "game.overview"

    def __init__(self, state: GameState) -> None:
        super().__init__()
        self.state = state

    def compose(self) -> ComposeResult:
        state = self.state
        where = f"Floor {state.number} of {state.total_floors}"
        yield Static(Text(f"{where} — what you know of it"), id="overview-title")
        yield OverviewMap(state, id="overview-map")
        yield Static(Text(""), id="overview-legend")

    def on_overview_map_shrunk(self, message: OverviewMap.Shrunk) -> None:
        self.query_one("#overview-legend", Static).update(
            legend(message.over, key_names(self.app, ",".join(keys_of(self.app, self.opened_by))))
        )

    def action_close(self) -> None:
        self.dismiss(None)
