"""What a puzzle type's view is: its keys, its selection (a cursor, a picked piece), and the
drawing of its board and status. The screen keeps the visit (state, moves, hints); a view only
turns keys into the puzzle's moves and draws.

Each view declares its keys in ``KEYS``, a tuple of :class:`ViewKey` rows in the order the
footer and the rules screen show them; a row's ``press(view, state)`` answers with a
:class:`Play`, a :class:`Say` or None (only the view's own selection changed).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import partial
from typing import ClassVar, Generic, TypeVar

from rich.text import Text

from roguelike.puzzles.base import Puzzle

S = TypeVar("S", bound=Hashable)
M = TypeVar("M")


@dataclass(frozen=True)
class Play:
    """A view's answer to a key: play this move."""

    move: Hashable


@dataclass(frozen=True)
class Say:
    """A view's answer to a key: nothing to play, tell the player this."""

    text: str


Answer = Play | Say | None
ARROW_GLYPH = {(-1, 0): "↑", (1, 0): "↓", (0, -1): "←", (0, 1): "→"}
DIRECTION_OF = {(-1, 0): "up", (1, 0): "down", (0, -1): "left", (0, 1): "right"}
DELTA_OF = {v: k for k, v in DIRECTION_OF.items()}


@dataclass(frozen=True, kw_only=True)
class Key:
    """One row of a key table: Textual keys, how the footer and the rules screen show them, and
    when they work."""

    keys: str  # Textual key names, comma-separated
    description: str  # for the rules screen
    footer: str = ""  # the footer's short label; empty: not shown there
    key_display: str | None = None
    group: str = ""  # rows of one group show in the footer as one entry
    when_solved: bool = False  # works (only) once the puzzle is solved
    always: bool = False  # works solved or not


@dataclass(frozen=True, kw_only=True)
class ViewKey(Key):
    """A key of one puzzle type: ``press(view, state)`` is the view's answer."""

    press: Callable[..., Answer] = field(repr=False)


def view_key(
    keys: str,
    description: str,
    footer: str,
    key_display: str,
    press: Callable[..., Answer],
) -> ViewKey:
    return ViewKey(
        keys=keys, description=description, footer=footer, key_display=key_display, press=press
    )


ARROW_KEYS = (("up", -1, 0, "↑"), ("down", 1, 0, "↓"), ("left", 0, -1, "←"), ("right", 0, 1, "→"))


def arrow_keys(footer: str, description: str, arrow: Callable[..., Answer]) -> list[ViewKey]:
    """The four arrows, one footer entry: each calls ``arrow(view, state, dr=.., dc=..)``."""
    return [
        ViewKey(
            keys=key,
            description=description,
            footer=footer,
            key_display=glyph,
            group=footer,
            press=partial(arrow, dr=dr, dc=dc),
        )
        for key, dr, dc, glyph in ARROW_KEYS
    ]


def number_keys(footer: str, description: str, number: Callable[..., Answer]) -> list[ViewKey]:
    """``1``-``9``, one footer entry: each calls ``number(view, state, n=..)``."""
    return [
        ViewKey(
            keys=str(n),
            description=description,
            footer=footer if n == 1 else "",
            key_display="1-9",
            press=partial(number, n=n),
        )
        for n in range(1, 10)
    ]


class View(Generic[S, M]):
    """The keyboard and the drawing of one puzzle type (subclasses set ``KEYS`` and ``goal``),
    typed by the type's states ``S`` and moves ``M`` (a subclass narrows ``p`` to its class).

    ``reset_ui`` starts the selection afresh when the state was set from outside (the start, a
    reset); ``moved`` follows a move; ``snapshot``/``restore`` keep the selection across undo.
    """

    KEYS: ClassVar[tuple[ViewKey, ...]] = ()
    goal: str = ""

    def __init__(self, p: Puzzle[S, M]) -> None:
        self.p = p

    # -- life cycle
    def reset_ui(self, s: S) -> None:
        """The state was set from outside (start, reset): start the selection afresh."""

    def snapshot(self) -> object:
        """The view's own selection, to give back to :meth:`restore` on undo."""
        return None

    def restore(self, snap: object, s: S) -> None:
        self.reset_ui(s)

    def moved(self, s: S, m: M, t: S) -> None:
        """Move ``m`` took ``s`` to ``t``."""

    # -- words and drawing
    def keys_for(self, s: S, m: M) -> str:
        """The keys that play ``m`` from ``s``, as the player reads them (for the move's hint)."""
        return ""

    def status(self, s: S, width: int, marks: list[M]) -> list[Text]:
        """The side panel's lines under the goal (``marks``: the moves a hint shows)."""
        return []

    def board(self, s: S, width: int, height: int, marks: list[M]) -> list[Text]:
        """The board in at most ``width`` × ``height`` characters (``marks``: the moves a hint
        shows); by default the puzzle's own plain-text drawing."""
        return [Text(line) for line in self.p.render_text(s).splitlines()]
