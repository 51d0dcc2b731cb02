"""The game screen's modes: what the direction keys, Enter, Tab, ``>`` and a click do.

One object per mode, held in :attr:`GameScreen.mode <screens.game.screen.GameScreen.mode>`;
the screen hands every such key to it (the one dispatch point) and never checks which mode it
is in. :class:`Play` moves or attacks; :class:`Look` and :class:`Travel` move a cursor (Tab
jumps between the places worth going to); :class:`DoorDirection` asks the direction of a door
to open or close; :class:`Throw` aims a cursor with the line of fire drawn (Tab cycles the
monsters in view); :class:`Ended` is the run over (Enter leaves with the final state).

A mode never decides a rule: it turns a key into an engine action for :meth:`GameScreen.act`,
or asks the engine what lies under its cursor (``describe``, ``places``, ``flight``,
``throw_forecast``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from roguelike.engine import actions, describe
from roguelike.engine.describe import a, upper_first
from roguelike.engine.items import flight, throw_forecast
from roguelike.engine.places import Place, finish_known, places
from screens.help import key_label
from screens.map_view import key_glyph

if TYPE_CHECKING:
    from screens.game.screen import GameScreen

Pos = tuple[int, int]


class Mode:
    """Play: the direction keys move (or attack), every other key does what it is bound to."""

    #: A short name, for the tests and the log of a bug report.
    name: ClassVar[str] = "play"
    #: Where the cursor is (None: no cursor in this mode).
    cursor: Pos | None = None

    def interrupts(self, game: GameScreen) -> bool:
        """A key that is not a direction came: True when it must do nothing (the run is over,
        or this mode is left by it, and that is all the key does)."""
        return False

    def direction(self, game: GameScreen, dx: int, dy: int) -> None:
        game.act(actions.Move(dx, dy))

    def confirm(self, game: GameScreen) -> None:
        """Enter."""

    def jump(self, game: GameScreen, direction: int) -> None:
        """Tab (``direction`` 1) or Shift+Tab (-1): from play, travel mode on the nearest
        place worth going to."""
        if not self.interrupts(game):
            travel = Travel(game.state.player)
            game.mode = travel
            travel.jump(game, direction)

    def stairs(self, game: GameScreen) -> bool:
        """``>``: True when this mode has used the key (else the screen takes the stairs,
        unless :meth:`interrupts`)."""
        return False

    def click(self, game: GameScreen, x: int, y: int) -> None:
        """A click on the map at (x, y): travel there if the player knows the cell (which takes
        the wheel from the bot); else say so."""
        if game.state.explored[y, x]:
            game.leave_mode()
            game.take_over()
            game.act(actions.Travel(x, y))
        else:
            game.say("You do not know that place: travel goes only where you have been or seen.")


class Play(Mode):
    """Play: the direction keys move or attack (the base's behaviour)."""


class Ended(Mode):
    """The run is over: Enter leaves the screen with the final state; nothing else plays."""

    name = "ended"

    def interrupts(self, game: GameScreen) -> bool:
        return True

    def direction(self, game: GameScreen, dx: int, dy: int) -> None:
        pass

    def confirm(self, game: GameScreen) -> None:
        game.dismiss(game.state)

    def click(self, game: GameScreen, x: int, y: int) -> None:
        pass


class Left(Mode):
    """A mode that any key but a direction leaves (and does no more)."""

    def interrupts(self, game: GameScreen) -> bool:
        game.leave_mode()
        return True

    def confirm(self, game: GameScreen) -> None:
        game.leave_mode()

    def click(self, game: GameScreen, x: int, y: int) -> None:
        pass


class DoorDirection(Left):
    """Several doors around: the next direction key opens (or closes) the door there."""

    name = "direction"

    def __init__(self, opening: bool) -> None:
        self.opening = opening

    def direction(self, game: GameScreen, dx: int, dy: int) -> None:
        game.leave_mode()
        game.act(actions.Open(dx, dy) if self.opening else actions.Close(dx, dy))


class Cursor(Left):
    """A cursor the direction keys move, saying what lies under it."""

    def __init__(self, cursor: Pos) -> None:
        self.cursor: Pos = cursor

    def direction(self, game: GameScreen, dx: int, dy: int) -> None:
        x, y = self.cursor
        state = game.state
        self.point(
            game, (min(state.width - 1, max(0, x + dx)), min(state.height - 1, max(0, y + dy)))
        )

    def point(
        self, game: GameScreen, cursor: Pos, *, place: Place | None = None, of: Pos | None = None
    ) -> None:
        """Put the cursor on ``cursor`` and say what lies there; ``place``: the place the
        cursor jumped to, ``of``: its number and how many there are (said first)."""
        self.cursor = cursor
        game.map_view.set_cursor(cursor)
        what = describe(game.state, *cursor, key_glyph=key_glyph)
        if place is not None and of is not None:
            far = (
                "no known way"
                if place.steps is None
                else f"{place.steps} step{'' if place.steps == 1 else 's'}"
            )
            if place.kind == "unexplored":
                what = f"{upper_first(place.what)}. {what}"
            what = f"[{of[0]}/{of[1]}, {far}] {what}"
        # the jump key as the player has it (it may be rebound)
        game.say(self.prompt(game, what, key_label(game.app, "game.next_place-1")))

    def prompt(self, game: GameScreen, what: str, jump: str) -> str:
        """The prompt line for the cursor on a cell described by ``what``."""
        return f"{what} ({jump} next, Esc ends)"


class Look(Cursor):
    """Look: the cursor says what lies under it; Tab jumps between places; ``>`` to the stairs."""

    name = "look"

    def __init__(self, cursor: Pos) -> None:
        super().__init__(cursor)
        #: The places the cursor jumps between (Tab), worked out at its first jump (no turn
        #: passes in this mode), and the one it is on.
        self._places: list[Place] | None = None
        self._at = -1

    def jump(self, game: GameScreen, direction: int) -> None:
        """The cursor to the next (previous) place worth going to, nearest first, cycling."""
        if self._places is None:
            self._places = places(game.state)
        if not self._places:
            game.map_view.set_cursor(self.cursor)
            game.say("Nowhere worth a jump: move the cursor by hand. (Esc cancels)")
            return
        n = len(self._places)
        self._at = (0 if direction > 0 else n - 1) if self._at < 0 else (self._at + direction) % n
        place = self._places[self._at]
        self.point(game, place.pos, place=place, of=(self._at + 1, n))

    def stairs(self, game: GameScreen) -> bool:
        finish = finish_known(game.state)
        if finish is None:
            game.say("You have not seen the way down yet. (Esc ends)")
        else:
            self.point(game, finish)
        return True

    def click(self, game: GameScreen, x: int, y: int) -> None:
        self.point(game, (x, y))


class Travel(Look):
    """Travel: a look whose Enter (or a click on a known cell) walks to the cursor."""

    name = "travel"

    def prompt(self, game: GameScreen, what: str, jump: str) -> str:
        return f"Travel: {what} (Enter goes, {jump} next, Esc cancels)"

    def confirm(self, game: GameScreen) -> None:
        x, y = self.cursor
        game.leave_mode()
        if self.cursor == game.state.player:
            game.say("You are there already: move the cursor (or Tab) to choose a place.")
            return
        game.take_over()  # the cursor only looked; going there plays
        game.act(actions.Travel(x, y))

    def click(self, game: GameScreen, x: int, y: int) -> None:
        Mode.click(self, game, x, y)


class Throw(Cursor):
    """Throw ``item``: the cursor starts on the nearest monster in view, Tab cycles them, the
    line of fire is drawn, Enter throws."""

    name = "throw"

    def __init__(self, item: str, cursor: Pos, targets: list[Pos]) -> None:
        super().__init__(cursor)
        self.item = item
        #: the monsters in view the cursor cycles through
        self.targets = targets

    def jump(self, game: GameScreen, direction: int) -> None:
        if not self.targets:
            game.say("No monster in view: move the cursor by hand. (Esc cancels)")
            return
        n = len(self.targets)
        at = self.targets.index(self.cursor) if self.cursor in self.targets else -1
        at = (0 if direction > 0 else n - 1) if at < 0 else (at + direction) % n
        self.point(game, self.targets[at])

    def prompt(self, game: GameScreen, what: str, jump: str) -> str:
        state, cursor = game.state, self.cursor
        game.map_view.set_path(flight(state, *cursor) if cursor != state.player else [])
        # what the throw would do comes first: at 80×24 the prompt's last words are cut
        lands = throw_forecast(state, *cursor)
        return (
            f"Throw {a(self.item)}: {lands} (Enter throws, {jump} next monster, Esc cancels) {what}"
        )

    def confirm(self, game: GameScreen) -> None:
        x, y = self.cursor
        game.leave_mode()
        game.act(actions.Throw(self.item, x, y))
