"""The one table of puzzle views, keyed by the puzzle type's name (``roguelike.puzzles.TYPES``):
a new type's view is one line here."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Never, cast

from roguelike.puzzles.base import Puzzle
from screens.puzzle.ball import BallView
from screens.puzzle.hatgram import HatgramView
from screens.puzzle.jugs import JugsView
from screens.puzzle.keydoor import KeyDoorView
from screens.puzzle.sliding import SlidingView
from screens.puzzle.stomp import StompView
from screens.puzzle.view import View

#: type name -> the view that plays and draws that type (each takes its own type's puzzles)
VIEWS: dict[str, Callable[[Never], object]] = {
    "jugs": JugsView,
    "sliding": SlidingView,
    "stomp": StompView,
    "ball": BallView,
    "hatgram": HatgramView,
    "keydoor": KeyDoorView,
}

#: A view as the screen holds it: of one type, fed only that type's states and moves.
PuzzleView = View[Hashable, Hashable]


def view_for(p: Puzzle[Hashable, Hashable]) -> PuzzleView:
    """The view of ``p``'s type, made for ``p``. The table is keyed by the type's name, so the
    view is the one whose states and moves are ``p``'s (which the cast tells the checker: it
    cannot follow a name to a class)."""
    make = cast(Callable[[Puzzle[Hashable, Hashable]], PuzzleView], VIEWS[p.type_name])
    return make(p)
