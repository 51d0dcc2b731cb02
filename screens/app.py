"""The Textual application and its flow.

::

    title ──n/s──► new game ──Enter──► game ──run ends──► summary ──⏎──► title
      │                                 ▲                    │
      └──? help                         └────────a (again)───┘

``RoguelikeApp(seed=…, preset=…)`` skips the title's menus and starts that world at once (the
title still lies underneath, so the summary leads back to it). Screens never start games
themselves: the new-game screen dismisses with a :class:`WorldChoice`, the game screen with
its final state, the summary with ``"title"`` or ``"again"``, and the app's callbacks move on.

Whatever screen is current, a terminal under 80×24 gets a full-screen message on top of it
(:class:`TooSmallScreen`) until it is large enough again; the screen underneath is untouched.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from textual import events
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

from screens.help import HelpScreen
from screens.title import TitleScreen
from screens.too_small import MIN_HEIGHT, MIN_WIDTH, TooSmallScreen

if TYPE_CHECKING:
    from roguelike.engine import GameState
    from screens.new_game import Focus, WorldChoice
    from screens.summary import SummaryChoice

__all__ = ["RoguelikeApp", "TitleScreen", "make_game"]

R = TypeVar("R")

#: What a game needs and the title does not. The title shows without them (the engine pulls
#: in scipy, half a second of start-up) and a thread imports them while the title is read.
GAME_MODULES = ("roguelike.engine", "screens.new_game", "screens.game", "screens.summary")


def _warm_up() -> None:
    import importlib

    for name in GAME_MODULES:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - only a head start: the real import reports errors
            return


def make_game(choice: WorldChoice) -> GameState:
    """A fresh game of the chosen world."""
    from roguelike.engine import new_game

    return new_game(choice.seed, preset=choice.preset, world_name=choice.world_name)


class RoguelikeApp(App[None]):
    TITLE = "Roguelike"
    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute: subclasses live anywhere
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]
    #: The palette's commands are not the game's, and its footer entry costs a tenth of the
    #: footer at 80 columns.
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self, *, seed: int | None = None, preset: str | None = None, world_name: str = ""
    ) -> None:
        """``seed``: start this world at once instead of waiting on the title screen.
        ``preset``: its size (``small``, ``normal`` or ``large``; None for the engine's
        default), also what the new-game screen offers first."""
        super().__init__()
        self.preset = preset
        self._first = (seed, world_name)
        #: the world started from the command line, once the app is mounted
        self.first_world: WorldChoice | None = None

    def on_mount(self) -> None:
        self.push_screen(TitleScreen())
        seed, world_name = self._first
        if seed is not None:
            from roguelike.engine.state import DEFAULT_PRESET
            from screens.new_game import WorldChoice, world_name_for

            name = world_name or world_name_for(seed)
            self.first_world = WorldChoice(seed, self.preset or DEFAULT_PRESET, name)
            self.start_game(self.first_world)
        self.check_size(self.size.width, self.size.height)

    def on_ready(self) -> None:
        # a moment after the first frame, so the imports never slow the title's appearance
        self.set_timer(0.25, self._start_warm_up)

    def _start_warm_up(self) -> None:
        threading.Thread(target=_warm_up, name="warm-up imports", daemon=True).start()

    # -- the terminal's size ---------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        # the first size arrives before on_mount (only Textual's default screen is up then):
        # on_mount checks it once the title is there
        if len(self.screen_stack) > 1:
            self.check_size(event.size.width, event.size.height)

    def check_size(self, width: int, height: int) -> None:
        """Cover the current screen while the terminal is under 80×24; uncover it after."""
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        top = self.screen_stack[-1] if self.screen_stack else None
        if isinstance(top, TooSmallScreen):
            if small:
                top.show_size(width, height)
            else:
                self.pop_screen()
        elif small:
            self.push_screen(TooSmallScreen(width, height))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # nothing may open over the message (it has to stay on top to be taken away)
        return not (action == "command_palette" and self.too_small)

    @property
    def too_small(self) -> bool:
        return bool(self.screen_stack) and isinstance(self.screen_stack[-1], TooSmallScreen)

    def _push(self, screen: Screen[R], callback: Callable[[R | None], None] | None = None) -> None:
        """Push a screen beneath the too-small overlay if it is up (a game started from the
        command line in a small terminal), else on top."""
        covered = self.too_small
        if covered:
            self.pop_screen()
        self.push_screen(screen, callback)
        if covered:
            self.push_screen(TooSmallScreen(self.size.width, self.size.height))

    # -- the flow --------------------------------------------------------------------------

    def action_new_game(self, focus: Focus = "preset") -> None:
        from screens.new_game import NewGameScreen

        self._push(NewGameScreen(preset=self.preset, focus=focus), self._world_chosen)

    def action_enter_seed(self) -> None:
        self.action_new_game(focus="seed")

    def action_help(self) -> None:
        self._push(HelpScreen())

    def _world_chosen(self, choice: WorldChoice | None) -> None:
        if choice is not None:
            self.preset = choice.preset  # the next new game offers the same size
            self.start_game(choice)

    def start_game(self, choice: WorldChoice) -> None:
        """Build the world and play it; its summary follows when the run ends."""
        from screens.game import GameScreen  # the game screen's imports wait for a game

        state = make_game(choice)
        self._push(
            GameScreen(state, world_name=choice.world_name), partial(self._run_ended, choice)
        )

    def _run_ended(self, choice: WorldChoice, state: GameState | None) -> None:
        if state is None:  # left without finishing: straight back to the title
            return
        from screens.summary import SummaryScreen

        self._push(
            SummaryScreen(state, world_name=choice.world_name),
            partial(self._summary_closed, choice),
        )

    def _summary_closed(self, choice: WorldChoice, result: SummaryChoice | None) -> None:
        if result == "again":
            self.start_game(choice)
