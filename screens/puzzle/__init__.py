"""The puzzle screen and its parts.

- :mod:`screens.puzzle.screen`: :class:`PuzzleScreen`, which shows a visit to one puzzle
  (:mod:`roguelike.puzzles.visit`) and turns keys into its moves, the rules screen and the
  one-puzzle app of ``roguelike puzzle play``;
- :mod:`screens.puzzle.views`: the one table of views, one per puzzle type
  (:mod:`screens.puzzle.jugs`, ``sliding``, ``stomp``, ``ball``, ``hatgram``, ``keydoor``), each
  declaring its keys and drawing its board (:mod:`screens.puzzle.view` says what a view is);
- :mod:`screens.puzzle.draw`: the colours, the character canvas and the board geometry.

A new puzzle type needs its rules module in :mod:`roguelike.puzzles` (with its record,
``TYPE``), a view module here, and one line in each package's registry
(``roguelike.puzzles.registry.REGISTRY`` and ``views.VIEWS``).
"""

from roguelike.puzzles.visit import PuzzleOutcome, score
from screens.puzzle.screen import PuzzleApp, PuzzleScreen, RulesScreen, ScreenKey
from screens.puzzle.view import Key, ViewKey
from screens.puzzle.views import VIEWS

__all__ = [
    "VIEWS",
    "Key",
    "PuzzleApp",
    "PuzzleOutcome",
    "PuzzleScreen",
    "RulesScreen",
    "ScreenKey",
    "ViewKey",
    "score",
]
