"""Lines of Rich text drawn with the Line API, kept line by line: showing new lines renders and
repaints only the lines that changed. The game screen's side panel and the puzzle screen's board
and side panel use it."""

from __future__ import annotations

from rich.cells import get_character_cell_size
from rich.segment import Segment
from rich.text import Text
from textual.geometry import Region, Size
from textual.selection import Selection
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget


def same_text(a: Text, b: Text) -> bool:
    """Do ``a`` and ``b`` draw the same? (Rich's ``==`` ignores the base style.)"""
    return a == b and a.style == b.style


class TextLines(Widget):
    """Lines of text, kept line by line: :meth:`show` renders and repaints only the lines that
    changed. Two ways to draw them:

    - ``wrap=True`` (the default): exactly as a :class:`~textual.widgets.Static` draws the lines
      joined by newlines (each wrapped at the widget's width; the same segments, styles and
      content offsets, so text selection works as in a Static); when a line's number of rows
      changes, the rows under it move and are repainted too. The widget's size never depends on
      its text (give it one in CSS), so showing new lines never lays the screen out again.
    - ``wrap=False``: each line is one row, drawn as Rich draws it (the widget's colours under
      the text's own) and cropped at the widget's width. The widget's natural size is its
      text's (for ``height: auto``), and the screen is laid out again when that size changes.
    """

    #: Rendered single-row lines by shape (see :meth:`_render_rows`), at most this many.
    SHAPES = 256

    def __init__(self, *, wrap: bool = True, id: str | None = None) -> None:
        super().__init__(id=id)
        self.wrap = wrap
        self.lines: list[Text] = []
        #: Each line's rows, rendered at ``_width`` (None: not rendered yet).
        self._strips: list[list[Strip] | None] = []
        self._width = 0
        #: All rows, top to bottom (None: to be gathered from ``_strips``).
        self._all: list[Strip] | None = None
        self._shapes: dict[tuple[object, ...], Strip] = {}
        #: The style the strips were rendered in (a new one after any change of CSS or theme).
        self._style: object = None
        #: Lines rendered since the widget was created (for tests and benchmarks).
        self.lines_rendered = 0

    def show(self, lines: list[Text]) -> None:
        """Show ``lines`` instead of the lines shown now."""
        old, old_strips = self.lines, self._strips
        if len(lines) == len(old) and all(map(same_text, lines, old)):
            return
        self.lines = list(lines)
        self._all = None
        width = self.size.width
        if not self.wrap and (len(lines) != len(old) or _widest(lines) != _widest(old)):
            self._strips = [None] * len(lines)
            self.refresh(layout=True)
            return
        if width != self._width or not width or self.visual_style is not self._style:
            self._strips = [None] * len(lines)
            self.refresh()
            return
        strips: list[list[Strip] | None] = []
        refresh: list[Region] = []
        y = 0  # the row where line i starts
        moved = False  # the rows from the first line of another height on
        for i, line in enumerate(lines):
            before = old_strips[i] if i < len(old_strips) else None
            if before is not None and same_text(old[i], line):
                rows = before
            else:
                rows = self._render_rows(i, line, width)
                if not moved:  # (once rows moved, all below are repainted already)
                    if before is not None and len(before) == len(rows):
                        refresh.append(Region(0, y, width, len(rows)))
                    else:  # the rows under this line move: repaint them all
                        moved = True
                        refresh.append(Region(0, y, width, max(1, self.size.height - y)))
            strips.append(rows)
            y += len(rows)
        if not moved and len(lines) < len(old):
            refresh.append(Region(0, y, width, max(1, self.size.height - y)))
        self._strips = strips
        if refresh:
            self.refresh(*refresh)

    def _render_rows(self, i: int, line: Text, width: int) -> list[Strip]:
        """Line ``i``'s rows.

        Wrapped, as a Static showing all the lines draws them. A line of one row keeps its strip
        by *shape*: its length, where its spans are and with what styles, and where which spaces
        are. A later line of the same shape (the turn counter's next number, say) is drawn with
        the same segments and styles, only the characters differ: wrapping depends on nothing
        else when every character is one cell wide."""
        self.lines_rendered += 1
        if not self.wrap:
            style = self.rich_style
            row = Strip(list(line.render(self.app.console)), line.cell_len)
            return [row.apply_style(style).crop_extend(0, width, style)]
        plain = line.plain
        shape: tuple[object, ...] | None = None
        one_cell_each = (plain.isascii() and plain.isprintable()) or all(
            get_character_cell_size(c) == 1 for c in plain
        )
        if one_cell_each and self.text_selection is None:
            spaces = tuple((n, c) for n, c in enumerate(plain) if c.isspace())
            shape = (i, width, len(plain), spaces, line.style, tuple(line.spans))
            strip = self._shapes.get(shape)
            if strip is not None:
                return [_with_text(strip, plain)]
        # The Static's text is the lines joined by newlines: line i is drawn as the i-th line
        # of a text, so it gets the same content offsets (the y in them is i).
        text = Text("\n" * i)
        text.append_text(line)
        rows = Visual.to_strips(self, visualize(self, text), width, None, self.visual_style)[i:]
        if shape is not None and len(rows) == 1 and rows[0].text == plain:
            if len(self._shapes) >= self.SHAPES:
                self._shapes.clear()
            self._shapes[shape] = rows[0]
        return rows

    def _rows(self) -> list[Strip]:
        """All rows, top to bottom, rendered at the widget's width."""
        width = self.size.width
        style = self.visual_style
        if width != self._width or style is not self._style:
            self._width, self._style = width, style
            self._strips = [None] * len(self.lines)
            self._all = None
            self._shapes.clear()
        if self._all is None:
            self._all = []
            for i, rows in enumerate(self._strips):
                if rows is None:
                    rows = self._strips[i] = self._render_rows(i, self.lines[i], width)
                self._all.extend(rows)
        return self._all

    def render_line(self, y: int) -> Strip:
        rows = self._rows()
        if y < len(rows):
            return rows[y]
        style = self.visual_style.rich_style if self.wrap else self.rich_style
        return Strip.blank(self.size.width, style)

    def render(self) -> Text:
        """The whole text (what a text selection is taken from; lines are drawn by
        :meth:`render_line`)."""
        return Text("\n").join(self.lines)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        if self.wrap:
            return super().get_content_width(container, viewport)
        return _widest(self.lines)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self.wrap:
            return super().get_content_height(container, viewport, width)
        return len(self.lines)

    def selection_updated(self, selection: Selection | None) -> None:
        self._strips = [None] * len(self.lines)
        self._all = None
        self.refresh()

    @property
    def text(self) -> str:
        """The rows drawn, as plain text."""
        return "\n".join(strip.text.rstrip() for strip in self._rows())


def _widest(lines: list[Text]) -> int:
    return max((line.cell_len for line in lines), default=0)


def _with_text(strip: Strip, text: str) -> Strip:
    """``strip`` with its characters replaced by ``text``'s (as many, one cell each)."""
    segments = []
    start = 0
    for segment in strip:
        end = start + len(segment.text)
        segments.append(Segment(text[start:end], segment.style, segment.control))
        start = end
    return Strip(segments, strip.cell_length)
