"""The one table of puzzle views, keyed by the puzzle type's name (``roguelike.puzzles.TYPES``)."""

from __future__ import annotations

from roguelike.puzzles.ball import Ball
from roguelike.puzzles.hatgram import Hatgram
from roguelike.puzzles.jugs import Jugs
from roguelike.puzzles.keydoor import KeyDoor
from roguelike.puzzles.sliding import Sliding
from roguelike.puzzles.stomp import Stomp
from screens.puzzle.ball import BallView
from screens.puzzle.hatgram import HatgramView
from screens.puzzle.jugs import JugsView
from screens.puzzle.keydoor import KeyDoorView
from screens.puzzle.sliding import SlidingView
from screens.puzzle.stomp import StompView
from screens.puzzle.view import View

#: type name -> the view that plays and draws that type
VIEWS: dict[str, type[View]] = {
    Jugs.type_name: JugsView,
    Sliding.type_name: SlidingView,
    Stomp.type_name: StompView,
    Ball.type_name: BallView,
    Hatgram.type_name: HatgramView,
    KeyDoor.type_name: KeyDoorView,
}
