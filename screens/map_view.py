"""The map: a Line-API widget that draws a :class:`~roguelike.engine.GameState`'s floor.

One terminal cell per map tile. Each map row is rendered once into a :class:`Strip` (runs of
cells that look alike merged into one segment) and kept in ``_rows``, and the screen line cut
from it in ``_lines``; after every turn :meth:`MapView.show` compares the new state with the
snapshot of the last draw (every cell's kind, which is its tile as seen, visible or remembered,
and what stands on the cells) with numpy, drops only the rows that changed and refreshes only
those lines of the screen. Scrolling never re-renders a row: it crops the cached strips.

Visible tiles are drawn in full colour, remembered ones (explored, not visible) darker, unseen
ones blank, all in the palette of the theme in use (:mod:`screens.themes`; the monochrome one
also draws a remembered floor with another glyph, and every theme but the default a key by
its door's letter). Monsters are drawn where the player sees them; keys and items also where
the player remembers them (dim). A look/travel cursor is drawn in reverse over whatever is under it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from roguelike import tiles
from roguelike.engine import ITEMS, GameState
from roguelike.engine.allies import freed
from roguelike.engine.describe import item_colour, monster_shown
from roguelike.engine.legend import FIRE_GLYPH, GAS_GLYPH, TRAP_GLYPH
from roguelike.engine.state import FOV_RADIUS
from screens.themes import Palette, current

#: What a key lying on the floor looks like (drawn bold, in the key's colour; in the themes
#: that draw keys by letter, its door's letter in lower case). Its door shows the key's capital
#: letter.
KEY_GLYPH = "k"
PLAYER_GLYPH = "@"

Pos = tuple[int, int]
#: What is drawn over one cell: (glyph, style).
Mark = tuple[str, Style]

#: The palette the map draws with (:func:`use_palette` changes it: the theme's).
_palette: Palette = current()


@lru_cache(maxsize=1024)
def _dim(hex_colour: str, mix: float, grey: tuple[int, int, int]) -> str:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    mixed = (round(c * (1 - mix) + d * mix) for c, d in zip((r, g, b), grey, strict=True))
    return "#" + "".join(f"{c:02x}" for c in mixed)


def dim(hex_colour: str) -> str:
    """A remembered tile's colour: darker and greyer than ``hex_colour``, as the palette in
    use darkens (clearly apart from the same tile in view, in every theme)."""
    return _dim(hex_colour, _palette.remembered_mix, _palette.remembered_grey)


def colour_of(colour: str) -> str:
    """A hex colour from a hex colour, a colour role ("wall") or a key role ("key3"), in the
    palette in use."""
    return _palette.role(colour)


def key_glyph(key: int) -> str:
    """How key ``key`` lying on the floor is drawn: ``k``, or its door's letter in lower case
    where the theme tells keys by letter."""
    return tiles.key_letter(key).lower() if _palette.key_letters else KEY_GLYPH


def _tile_styles() -> tuple[list[Style], list[str]]:
    """Styles and glyphs indexed by ``tile id * 2 + remembered``: a remembered tile is darker,
    and where the palette says so (monochrome) drawn with another glyph."""
    styles: list[Style] = []
    glyphs: list[str] = []
    for t in tiles.TILES:
        hexc = colour_of(t.colour)
        bold = t.colour.startswith("key") or t.colour == "stairs"
        styles.append(Style(color=hexc, bold=bold))
        styles.append(Style(color=dim(hexc), bold=False))
        glyphs.append(t.glyph)
        glyphs.append(_palette.remembered_glyphs.get(t.glyph, t.glyph))
    return styles, glyphs


def _looks_blank(glyph: str, style: Style) -> bool:
    """True when ``glyph`` drawn in ``style`` cannot be told from a blank cell: a space whose
    style only sets what a space does not show (its colour, boldness)."""
    return glyph == " " and not (
        style.bgcolor or style.reverse or style.underline or style.strike or style.overline
    )


def _cell_tables() -> tuple[np.ndarray, np.ndarray, list[Style]]:
    """Lookup tables indexed by a cell's *kind*: 0 unseen, ``1 + tile id * 2 + remembered``
    otherwise. They give the kind's glyph and its style's number in the style list; kinds that
    look alike share a number (every blank-looking one shares the blank style's), so a row's
    runs of one number can be drawn as one segment."""
    tile_styles, tile_glyphs = _tile_styles()
    glyphs = [" "]
    numbers = [0]
    distinct: list[Style] = [_BLANK_STYLE]
    for code, style in enumerate(tile_styles):
        glyph = tile_glyphs[code]
        glyphs.append(glyph)
        if _looks_blank(glyph, style):
            numbers.append(0)
        elif style in distinct:
            numbers.append(distinct.index(style))
        else:
            numbers.append(len(distinct))
            distinct.append(style)
    return np.array(glyphs), np.array(numbers, dtype=np.intp), distinct


_BLANK_STYLE = Style()
_CURSOR_STYLE = Style(reverse=True)
#: A throw's line of fire: underlined, so the glyphs under it stay readable in every theme.
_PATH_STYLE = Style(underline=True, bold=True)
_KIND_GLYPHS, _KIND_STYLE_NUMBERS, _KIND_STYLES = _cell_tables()


def use_palette(palette: Palette) -> None:
    """Draw every map from now on with ``palette`` (a map already shown is redrawn by its
    :meth:`MapView.restyle`)."""
    global _palette, _KIND_GLYPHS, _KIND_STYLE_NUMBERS, _KIND_STYLES
    _palette = palette
    _KIND_GLYPHS, _KIND_STYLE_NUMBERS, _KIND_STYLES = _cell_tables()


def cell_table() -> tuple[np.ndarray, np.ndarray, list[Style]]:
    """The map's tables by cell kind (see :func:`kinds_of`): its glyph, its style's number, and
    the styles; for other views that draw cells as the map does (the overview)."""
    return _KIND_GLYPHS, _KIND_STYLE_NUMBERS, _KIND_STYLES


@lru_cache(maxsize=256)
def _mark_style(colour: str, bold: bool, underline: bool = False, reverse: bool = False) -> Style:
    return Style(color=colour, bold=bold, underline=underline or None, reverse=reverse or None)


def key_underlined() -> bool:
    """Whether keys lying on the floor are underlined: where they are drawn by letter, since
    a key's letter may be a monster's (``a`` the red key and the goblin archer, ``b``, ``g``,
    ``j``), and in the monochrome theme no colour tells them apart."""
    return _palette.key_letters


@dataclass
class _Snapshot:
    """What the last draw showed: enough to find the rows that changed, and to draw them."""

    floor: object
    #: Each cell's kind (see :func:`kinds_of`): all a row's tiles draw from.
    kinds: np.ndarray
    #: What :func:`marks_of` drew, by row: (x, mark) in the order it gives them.
    marks_by_row: dict[int, list[tuple[int, Mark]]]


def kinds_of(state: GameState) -> np.ndarray:
    """Every cell's kind, all that decides how its tile is drawn: 0 unseen,
    ``1 + tile id * 2`` visible, ``2 + tile id * 2`` remembered (explored, not visible)."""
    doubled = state.tiles.astype(np.int16) * 2
    return np.where(state.visible, doubled + 1, np.where(state.explored, doubled + 2, 0))


def marks_of(state: GameState) -> dict[Pos, Mark]:
    """What is drawn over the tiles: marsh gas, keys and items where the player has seen them
    (dim when only remembered), fire, monsters and allies where the player sees them (a
    captive also where it is remembered), and the player."""
    visible, explored = state.visible, state.explored
    marks: dict[Pos, Mark] = {}

    def seen(x: int, y: int) -> int:
        """2 visible, 1 remembered, 0 unseen."""
        return 2 if visible[y, x] else 1 if explored[y, x] else 0

    for x, y in state.gas:  # under everything else: what lies in the gas shows
        s = seen(x, y)
        if s:
            hexc = colour_of("gas")
            marks[(x, y)] = (GAS_GLYPH, _mark_style(hexc if s == 2 else dim(hexc), False))
    for (x, y), kind in state.items_lying.items():
        s = seen(x, y)
        if s:
            item = ITEMS.get(kind)
            # a potion or scroll in its world's look: its colour never gives its kind away
            hexc = colour_of(item_colour(state, kind)) if item else "#c0c0c0"
            glyph = item.glyph if item else "?"
            marks[(x, y)] = (glyph, _mark_style(hexc if s == 2 else dim(hexc), s == 2))
    for x, y in state.traps_known:
        s = seen(x, y)
        if s:
            hexc = colour_of("trap")
            marks[(x, y)] = (TRAP_GLYPH, _mark_style(hexc if s == 2 else dim(hexc), s == 2))
    for (x, y), key in state.keys_lying.items():
        s = seen(x, y)
        if s:
            hexc = colour_of(f"key{key}")
            style = _mark_style(hexc if s == 2 else dim(hexc), True, key_underlined())
            marks[(x, y)] = (key_glyph(key), style)
    for x, y in state.fire:  # only while in view: a fire out of sight may be out
        if visible[y, x]:
            marks[(x, y)] = (FIRE_GLYPH, _mark_style(colour_of("fire"), True))
    for m in state.monsters:
        # the engine decides what is seen (a lurker); a potion of detection shows every
        # monster of the floor; hallucination, other kinds
        if m.hp > 0 and (state.shows(m) or state.detecting):
            info = monster_shown(state, m)
            marks[(m.x, m.y)] = (info.glyph, _mark_style(colour_of(info.colour), True))
    for m in state.allies:  # the player's side: the kind's letter in the ally colour
        s = seen(m.x, m.y)
        if s == 2 or (s and not freed(m)):  # a captive stays put: remembered where it sat
            hexc = colour_of("ally")
            style = _mark_style(hexc if s == 2 else dim(hexc), True, reverse=_palette.mono)
            marks[(m.x, m.y)] = (m.info.glyph, style)
    marks[state.player] = (PLAYER_GLYPH, _mark_style(_palette.player, True))
    return marks


class MapView(ScrollView, can_focus=False):
    """The floor of a game, one cell per tile, scrolled to keep the player (or the cursor) in
    view. Call :meth:`show` after every change of the state."""

    DEFAULT_CSS = """
    MapView {
        background: #000000;
        scrollbar-size: 0 0;
        overflow: auto auto;
    }
    """

    class TileClicked(Message):
        """The player clicked the map cell (``x``, ``y``)."""

        def __init__(self, x: int, y: int) -> None:
            super().__init__()
            self.x = x
            self.y = y

    def __init__(self, *, name: str | None = None, id: str | None = None) -> None:
        super().__init__(name=name, id=id)
        self.state: GameState | None = None
        self.cursor: Pos | None = None
        #: Cells marked under the cursor (a throw's line of fire), by row: drawn over the
        #: cached rows like the cursor.
        self.path: dict[int, list[int]] = {}
        #: Each map row's strip (the whole row, no cursor), rendered when first drawn.
        self._rows: dict[int, Strip] = {}
        #: Each map row's screen line as last drawn (no cursor), and the (scroll x, left pad,
        #: width) it was cropped for.
        self._lines: dict[int, tuple[tuple[int, int, int], Strip]] = {}
        self._snap: _Snapshot | None = None
        #: Rows rendered since the widget was created (for tests and benchmarks).
        self.rows_rendered = 0

    # ------------------------------------------------------------------ geometry

    @property
    def map_size(self) -> Size:
        if self.state is None:
            return Size(0, 0)
        h, w = self.state.tiles.shape
        return Size(int(w), int(h))

    @property
    def pad(self) -> tuple[int, int]:
        """Blank cells left of and above the map when it is smaller than the widget."""
        mw, mh = self.map_size
        w, h = self.size
        return max(0, (w - mw) // 2), max(0, (h - mh) // 2)

    def screen_to_map(self, sx: int, sy: int) -> Pos | None:
        """The map cell under widget cell (``sx``, ``sy``), or None off the map."""
        px, py = self.pad
        ox, oy = self.scroll_offset
        x, y = sx - px + ox, sy - py + oy
        mw, mh = self.map_size
        return (x, y) if 0 <= x < mw and 0 <= y < mh else None

    def map_to_screen(self, x: int, y: int) -> Pos:
        """The widget cell where map cell (``x``, ``y``) is drawn (maybe outside the widget)."""
        px, py = self.pad
        ox, oy = self.scroll_offset
        return x + px - ox, y + py - oy

    # ------------------------------------------------------------------ updates

    def show(self, state: GameState) -> None:
        """Draw ``state``: re-render only the rows that changed since the last draw."""
        snap = self._snap
        new_floor = (
            self.state is not state
            or snap is None
            or snap.floor is not state.floor
            or snap.kinds.shape != state.tiles.shape
        )
        self.state = state
        kinds = kinds_of(state)
        by_row: dict[int, list[tuple[int, Mark]]] = {}
        for (x, y), mark in marks_of(state).items():
            by_row.setdefault(y, []).append((x, mark))
        if new_floor or snap is None:
            self._rows.clear()
            self._lines.clear()
            self.virtual_size = self.map_size
            self.refresh()
        else:
            rows = set(np.flatnonzero((snap.kinds != kinds).any(axis=1)).tolist())
            old = snap.marks_by_row
            rows.update(y for y in old.keys() ^ by_row.keys())
            rows.update(y for y in old.keys() & by_row.keys() if old[y] != by_row[y])
            self._invalidate(rows)
        self._snap = _Snapshot(state.floor, kinds, by_row)
        self.follow(centre=new_floor)

    def set_cursor(self, cursor: Pos | None) -> None:
        """Show the look/travel cursor at ``cursor`` (None hides it)."""
        if cursor == self.cursor:
            return
        rows = {p[1] for p in (self.cursor, cursor) if p is not None}
        self.cursor = cursor
        self._refresh_rows(rows)  # the cursor is drawn over the cached rows: no re-render
        self.follow()

    def set_path(self, cells: list[Pos]) -> None:
        """Mark ``cells`` (a throw's line of fire; empty: none)."""
        path: dict[int, list[int]] = {}
        for x, y in cells:
            path.setdefault(y, []).append(x)
        if path == self.path:
            return
        rows = set(self.path) | set(path)
        self.path = path
        self._refresh_rows(rows)

    def restyle(self) -> None:
        """Draw again with the palette now in use (the theme changed): every cached row and
        mark is dropped and taken again from the state."""
        self._rows.clear()
        self._lines.clear()
        if self.state is not None:
            self._snap = None
            self.show(self.state)
        self.refresh()

    def _invalidate(self, rows: set[int]) -> None:
        for y in rows:
            self._rows.pop(y, None)
            self._lines.pop(y, None)
        self._refresh_rows(rows)

    def _refresh_rows(self, rows: set[int]) -> None:
        """Refresh the screen lines of map ``rows``, grouping neighbours into one region."""
        if not rows:
            return
        _, py = self.pad
        oy = int(self.scroll_offset.y)
        width = self.size.width
        start = prev = -2
        regions: list[Region] = []
        for y in sorted(rows):
            if y != prev + 1:
                if start >= 0:
                    regions.append(Region(0, start + py - oy, width, prev - start + 1))
                start = y
            prev = y
        regions.append(Region(0, start + py - oy, width, prev - start + 1))
        visible = [r for r in regions if r.bottom > 0 and r.y < self.size.height]
        if visible:
            self.refresh(*visible)

    def follow(self, *, centre: bool = False) -> None:
        """Scroll so that the cursor (or else the player) stays at least a margin from the
        edges, by the least amount (:func:`follow_axis`): a step scrolls the view a cell at
        most, never by a jump. ``centre``: centre on it instead (a new floor)."""
        if self.state is None:
            return
        x, y = self.cursor if self.cursor is not None else self.state.player
        mw, mh = self.map_size
        w, h = self.size
        ox, oy = int(self.scroll_offset.x), int(self.scroll_offset.y)
        if centre:
            nx, ny = centred(x, w, mw), centred(y, h, mh)
        elif self.cursor is not None:
            nx, ny = follow_axis(x, ox, w, mw), follow_axis(y, oy, h, mh)
        else:  # the player: the camera moves in steps, and keeps the monsters in view on it
            foes = [(m.x, m.y) for m in self.state.visible_monsters() if m.hp > 0]
            nx = camera_axis(x, ox, w, mw, [fx for fx, _ in foes])
            ny = camera_axis(y, oy, h, mh, [fy for _, fy in foes])
        if (nx, ny) != (ox, oy):
            self.scroll_to(nx, ny, animate=False, force=True)

    def on_resize(self, event: events.Resize) -> None:
        self.follow()
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        cell = self.screen_to_map(offset.x, offset.y)
        if cell is not None:
            self.post_message(self.TileClicked(*cell))

    # ------------------------------------------------------------------ rendering

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if self.state is None:
            return Strip.blank(width)
        px, py = self.pad
        ox, oy = int(self.scroll_offset.x), int(self.scroll_offset.y)
        my = y + oy - py
        mw, mh = self.map_size
        if not 0 <= my < mh:
            return Strip.blank(width)
        marked = self.path.get(my, ())
        cursor = (self.cursor is not None and self.cursor[1] == my) or bool(marked)
        where = (ox, px, width)
        if not cursor:
            line = self._lines.get(my)
            if line is not None and line[0] == where:
                return line[1]
        strip = self._rows.get(my)
        if strip is None:
            strip = self._rows[my] = self._render_row(my)
        for cx in marked:
            left, mid, right = strip.divide([cx, cx + 1, mw])
            strip = Strip.join([left, mid.apply_style(_PATH_STYLE), right])
        if self.cursor is not None and self.cursor[1] == my:
            cx = self.cursor[0]
            left, mid, right = strip.divide([cx, cx + 1, mw])
            strip = Strip.join([left, mid.apply_style(_CURSOR_STYLE), right])
        strip = strip.crop(ox, ox + width - px)
        if px:
            strip = Strip.join([Strip.blank(px), strip])
        strip = strip.extend_cell_length(width)
        if not cursor:
            self._lines[my] = (where, strip)
        return strip

    def _render_row(self, y: int) -> Strip:
        """Map row ``y`` as a strip, tiles with their marks on top. Runs of cells that look
        alike (one style; blanks and blank-looking tiles together) are one segment."""
        self.rows_rendered += 1
        snap = self._snap
        assert snap is not None  # show() took one before any row is rendered
        kinds = snap.kinds[y]
        numbers = _KIND_STYLE_NUMBERS[kinds]
        glyphs = _KIND_GLYPHS[kinds].tolist()
        marks = snap.marks_by_row.get(y, ())
        styles = _KIND_STYLES
        if marks:
            # each marked cell gets a style number of its own, so it is a run of its own
            styles = [*styles, *(style for _, (_, style) in marks)]
            for n, (x, (glyph, _)) in enumerate(marks, len(_KIND_STYLES)):
                numbers[x] = n
                glyphs[x] = glyph
        text = "".join(glyphs)
        cuts = (np.flatnonzero(numbers[1:] != numbers[:-1]) + 1).tolist()
        starts = [0, *cuts]
        ends = [*cuts, len(text)]
        numbers_at = numbers[starts].tolist()
        segments = [
            Segment(text[a:b], styles[n]) for a, b, n in zip(starts, ends, numbers_at, strict=True)
        ]
        return Strip(segments, len(kinds))


#: At most this many cells between the followed cell and the view's edge before it scrolls:
#: the player's sight, so that whatever the player sees is on the screen.
SCROLL_MARGIN = FOV_RADIUS


def margin_of(view: int) -> int:
    """The margin kept in a view of ``view`` cells: :data:`SCROLL_MARGIN` where the view can
    hold it on both sides, else the most it can (the cell in the middle). A quarter of the
    view, as it once was, left a monster in plain sight off the top of an 80×24 screen."""
    return max(0, min(SCROLL_MARGIN, (view - 1) // 2))


def centred(p: int, view: int, size: int) -> int:
    """The scroll offset along one axis that puts ``p`` in the middle of the view, kept
    within the map."""
    if size <= view or view <= 0:
        return 0
    return max(0, min(size - view, p - view // 2))


def edge_of(view: int) -> int:
    """How near the view's edge the player may come before the camera moves: a fifth of the
    view (3 rows of the 19 an 80×24 screen gives the map), at most :data:`SCROLL_MARGIN`."""
    return min(SCROLL_MARGIN, view // 5)


def camera_axis(p: int, offset: int, view: int, size: int, keep: Sequence[int] = ()) -> int:
    """The player's camera along one axis: the offset stays put while the player ``p`` is
    more than :func:`edge_of` cells from the view's edges (or at the map's own edge) and every
    cell of ``keep`` (the monsters in view) is on the view; else it moves in one step, centring
    the player, then shifted the least that brings every ``keep`` cell onto the view (as many
    as it can hold with the player), kept within the map."""
    if size <= view or view <= 0:
        return 0
    edge = edge_of(view)
    last = size - view

    def holds(o: int) -> bool:
        near_start = p - o < edge and o > 0
        near_end = o + view - 1 - p < edge and o < last
        return not near_start and not near_end and all(o <= k < o + view for k in keep)

    if 0 <= offset <= last and holds(offset):
        return offset
    o = centred(p, view, size)
    for k in sorted(keep, key=lambda k: abs(k - p)):  # the nearest first, while they fit
        if k < o and p - k < view:
            o = k
        elif k >= o + view and k - p < view:
            o = k - view + 1
    return max(0, min(last, o))


def follow_axis(p: int, offset: int, view: int, size: int) -> int:
    """The scroll offset along one axis, nearest ``offset``, that keeps ``p`` at least
    :func:`margin_of` ``view`` cells from both edges (or as far as the map's own edge allows).
    It moves by the least amount: never more than ``p`` moved past the margin, so a walk
    scrolls the view a cell per step instead of recentring it by big jumps."""
    if size <= view or view <= 0:
        return 0
    margin = margin_of(view)
    lo = p - view + 1 + margin  # the least offset that keeps p a margin from the right
    hi = p - margin  # the greatest that keeps it a margin from the left
    return max(0, min(size - view, max(lo, min(hi, offset))))
