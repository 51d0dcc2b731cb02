"""The Textual application and its flow.

::

    title ──n/s──► new game ──Enter──► game ──run ends──► summary ──⏎──► title
      │ │ │ └──? help                   ▲ │ ▲                 │
      │ │ └──c (continue) ──────────────┘ │ └───a (again)─────┘
      │ └──l──► load ──Enter────────────┘ └──S (save & quit)──► title
      └──w──► watch (the game, the bot at the wheel) ──a game key──► the game, saved

Saves: the app keeps one :class:`saves.Store` (made when first needed: the title shows
without importing the saves package) and, while a game runs, its :class:`saves.World`, the
earlier floors visited and the world's lock. A game is saved when it starts, on every floor
change, when the player leaves it (``S``, or Ctrl+Q, which saves before quitting) and when the
run ends — except a permadeath world whose player died: its save is deleted once the summary
is up.

``RoguelikeApp(seed=…, preset=…)`` skips the title's menus and starts that world at once (the
title still lies underneath, so the summary leads back to it); with ``watch=True`` it starts
watching it instead (a random world without ``seed``). Screens never start games
themselves: the new-game screen dismisses with a :class:`WorldChoice`, the game screen with
its final state, the summary with ``"title"`` or ``"again"``, and the app's callbacks move on.

Watching (:meth:`RoguelikeApp.start_watch`): the autoplayer plays a world on the game screen, and
nothing is saved: no world, no lock, no autosave, nothing on Ctrl+Q or at the run's end, and its
summary's "again" watches it again. The first key the player plays with takes the wheel: the
game becomes a world like a new game's (its name the seed's, or the next free one), locked and
saved at once ("Saved as …"), and from then on everything is as in any game.

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
    from saves import Store, VisitedFloor, World, WorldInfo, WorldLock
    from screens.game import GameScreen
    from screens.load import Opened
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
    BINDINGS = [Binding("ctrl+q", "save_and_quit", "Quit", priority=True)]
    #: The palette's commands are not the game's, and its footer entry costs a tenth of the
    #: footer at 80 columns.
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        *,
        seed: int | None = None,
        preset: str | None = None,
        world_name: str = "",
        watch: bool = False,
    ) -> None:
        """``seed``: start this world at once instead of waiting on the title screen.
        ``preset``: its size (``small``, ``normal`` or ``large``; None for the engine's
        default), also what the new-game screen offers first. ``watch``: watch the bot play
        ``seed`` (or a random world) at once."""
        super().__init__()
        self.preset = preset
        self._first = (seed, world_name)
        self._watch_first = watch
        #: the world being watched while no player took the wheel (no world is saved then)
        self.watching: WorldChoice | None = None
        #: the world started from the command line, once the app is mounted
        self.first_world: WorldChoice | None = None
        self._store: Store | None = None
        #: the world being played, its earlier floors and its lock (None between games)
        self.world: World | None = None
        self.visited: list[VisitedFloor] = []
        self._lock: WorldLock | None = None
        self._game: GameScreen | None = None

    def on_mount(self) -> None:
        self.push_screen(TitleScreen())
        seed, world_name = self._first
        if self._watch_first:
            self.start_watch(seed, self.preset)
        elif seed is not None:
            from roguelike.engine.state import DEFAULT_PRESET
            from screens.new_game import WorldChoice, world_name_for

            name = world_name or world_name_for(seed)
            if self.name_problem(name) is not None:  # taken already: the next free name
                name = self.free_name(name)
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

    # -- saves ---------------------------------------------------------------------------

    @property
    def store(self) -> Store:
        """The save directory (opened when first needed)."""
        if self._store is None:
            from saves import Store

            self._store = Store()
        return self._store

    def saved_worlds(self) -> list[WorldInfo]:
        """Every saved world, the most recently saved first ([] if the folder is unreadable)."""
        try:
            return self.store.list()
        except OSError:
            return []

    def name_problem(self, name: str) -> str | None:
        """Why a new world cannot be called ``name`` (with a free name to try), or None."""
        from saves import StoreError
        from saves.world import check_name

        try:
            name = check_name(name)
            if not self.store.exists(name):
                return None
        except StoreError as err:  # a name that cannot be used
            return str(err)
        except OSError as err:
            return f"cannot read the save folder: {err.strerror or err}"
        try:
            other = self.store.info(name).name
        except (StoreError, OSError):
            other = name
        taken = (
            f"a world named {other!r} already exists"
            if other.casefold() == name.casefold()
            else f"the world {other!r} already uses that file name"
        )
        return f"{taken}: try {self.free_name(name)!r}"

    def free_name(self, name: str) -> str:
        """``name 2``, ``name 3`` …: the first that no saved world uses."""
        from saves.world import MAX_NAME

        base = name.strip()[: MAX_NAME - 5].rstrip() or "World"
        for n in range(2, 10_000):
            candidate = f"{base} {n}"
            try:
                if not self.store.exists(candidate):
                    return candidate
            except OSError:
                return candidate
        return base

    def open_world(self, name: str) -> Opened | None:
        """Lock and load the saved world ``name``; None (and a notification saying why, with
        nothing changed) if it is open in another game, damaged or gone."""
        import warnings

        from saves import BackupWarning, SaveError, StoreError
        from screens.load import Opened

        try:
            lock = self.store.lock(name)
        except (StoreError, OSError) as err:
            self.notify(str(err), severity="error", timeout=6)
            return None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", BackupWarning)
                world, state, visited = self.store.load(name)
        except (SaveError, StoreError, OSError) as err:
            lock.release()
            self.notify(str(err), severity="error", timeout=6)
            return None
        if self.store.last_warning:
            self.notify(self.store.last_warning, severity="warning", timeout=6)
        return Opened(world, state, visited, lock)

    def save_game(self, state: GameState, visited: list[VisitedFloor]) -> bool:
        """Save the running game; False (and a notification) if that failed."""
        from saves import SaveError, StoreError

        if self.world is None:
            return False
        try:
            self.store.save(state, self.world, visited)
        except (SaveError, StoreError, OSError) as err:
            self.notify(f"Not saved: {err}", severity="error", timeout=6)
            return False
        return True

    def _autosave(self, state: GameState, visited: list[VisitedFloor]) -> None:
        self.save_game(state, visited)

    def _release(self) -> None:
        if self._lock is not None:
            self._lock.release()
        self._lock = None
        self._game = None
        self.watching = None

    def _end_of_run(self, state: GameState) -> bool:
        """Save the finished run (so the world list shows it ended), or delete it if it was a
        permadeath world and the player died; release the world. True: the world is gone."""
        gone = False
        if self.world is not None and self.world.permadeath and state.dead:
            from saves import StoreError

            try:
                self.store.delete(self.world.name)
                gone = True
            except (StoreError, OSError) as err:
                self.notify(f"The world could not be deleted: {err}", severity="error")
        else:
            self.save_game(state, self.visited)
        self._release()
        return gone

    def action_save_and_quit(self) -> None:
        """Ctrl+Q: save the running game (if any), then quit."""
        game = self._game
        if game is not None and self._lock is not None:
            from screens.puzzle import PuzzleScreen

            top = self.screen_stack[-1] if self.screen_stack else None
            if isinstance(top, PuzzleScreen):  # the visit's moves and coins reach the engine
                game.report_puzzle(top.outcome())
            if game.state.dead or game.state.won:
                self._end_of_run(game.state)
            else:
                self.save_game(game.state, game.visited)
                self._release()
        self.exit()

    def on_unmount(self) -> None:
        self._release()  # however the app ends, the world is not left locked

    # -- the flow --------------------------------------------------------------------------

    def action_new_game(self, focus: Focus = "preset") -> None:
        from screens.new_game import NewGameScreen

        self._push(
            NewGameScreen(preset=self.preset, focus=focus, name_problem=self.name_problem),
            self._world_chosen,
        )

    def action_enter_seed(self) -> None:
        self.action_new_game(focus="seed")

    def action_help(self) -> None:
        self._push(HelpScreen())

    def action_watch(self) -> None:
        """The title's ``w``: watch the bot play a random world of the app's size."""
        self.start_watch(None, self.preset)

    def action_continue_game(self) -> None:
        """Resume the most recently saved world that is still being played."""
        info = next((i for i in self.saved_worlds() if i.playable and not (i.dead or i.won)), None)
        if info is None:
            self.notify("Continue: no unfinished world to resume", timeout=3)
            return
        opened = self.open_world(info.name)
        if opened is not None:
            self.play_opened(opened)

    def action_load_game(self) -> None:
        from screens.load import LoadScreen

        self._push(LoadScreen(self.store, self.open_world), self._world_loaded)

    def _world_loaded(self, opened: Opened | None) -> None:
        if opened is not None:
            self.play_opened(opened)

    def play_opened(self, opened: Opened) -> None:
        """Play a world loaded by :meth:`open_world` from where it was saved."""
        from screens.new_game import WorldChoice

        world = opened.world
        choice = WorldChoice(world.seed, world.preset, world.name, world.permadeath)
        self._play(choice, world, opened.state, opened.visited, opened.lock)

    def _world_chosen(self, choice: WorldChoice | None) -> None:
        if choice is not None:
            self.preset = choice.preset  # the next new game offers the same size
            self.start_game(choice)

    def start_game(self, choice: WorldChoice, world: World | None = None) -> bool:
        """Create the world (or play ``world`` again from the start), save it at once and play
        it; its summary follows when the run ends. False (and a notification) if the world
        could not be created or locked."""
        from saves import SaveError, StoreError, World

        try:
            if world is None:
                world = World.new(
                    choice.world_name,
                    choice.seed,
                    preset=choice.preset,
                    permadeath=choice.permadeath,
                )
            lock = self.store.lock(world.name)
        except (StoreError, ValueError, OSError) as err:
            self.notify(str(err), severity="error", timeout=6)
            return False
        state = make_game(choice)
        try:
            self.store.save(state, world, [])
        except (SaveError, StoreError, OSError) as err:
            lock.release()
            self.notify(f"The world could not be saved: {err}", severity="error", timeout=6)
            return False
        self._play(choice, world, state, [], lock)
        return True

    def _play(
        self,
        choice: WorldChoice,
        world: World,
        state: GameState,
        visited: list[VisitedFloor],
        lock: WorldLock,
    ) -> None:
        from screens.game import GameScreen  # the game screen's imports wait for a game

        self._release()
        self.world, self.visited, self._lock = world, visited, lock
        self._game = GameScreen(
            state, world_name=world.name, visited=visited, on_autosave=self._autosave
        )
        self._push(self._game, partial(self._run_ended, choice))

    def _run_ended(self, choice: WorldChoice, state: GameState | None) -> None:
        if state is None:  # left without finishing (S): saved, back to the title
            game = self._game
            if game is not None and self.save_game(game.state, game.visited):
                self.notify(f"Saved {self.world.name if self.world else 'the world'}", timeout=3)
            self._release()
            return
        from screens.summary import SummaryScreen

        world = self.world
        permadeath = world is not None and world.permadeath and state.dead
        self._push(
            SummaryScreen(state, world_name=choice.world_name, gone=permadeath),
            partial(self._summary_closed, choice, world),
        )
        self._end_of_run(state)  # after the summary is up

    def start_watch(self, seed: int | None = None, preset: str | None = None) -> None:
        """Watch the bot play the world ``seed`` (a random one if None) of size ``preset``
        (None: the engine's default). Nothing is saved until the player takes the wheel."""
        from roguelike import seeds
        from roguelike.engine.state import DEFAULT_PRESET
        from screens.game import GameScreen
        from screens.new_game import WorldChoice, world_name_for

        if seed is None:
            seed = seeds.random_seed()
        choice = WorldChoice(seed, preset or DEFAULT_PRESET, world_name_for(seed))
        state = make_game(choice)
        self._release()
        self.world, self.visited, self._lock = None, [], None
        self.watching = choice
        self._game = GameScreen(
            state,
            world_name=choice.world_name,
            visited=self.visited,
            on_autosave=self._autosave,
            autopilot=True,
            on_take_over=self._taken_over,
        )
        self._push(self._game, partial(self._watch_ended, choice))

    def _taken_over(self) -> bool:
        """The player took the wheel of a watched game: make it a saved world (named as a new
        game of its seed would be, or the next free name), lock it and save it. False (and a
        notification) if that failed: the next key the player plays tries again."""
        from saves import SaveError, StoreError, World

        game, choice = self._game, self.watching
        if game is None or choice is None or self.world is not None:
            return True
        name = choice.world_name
        if self.name_problem(name) is not None:
            name = self.free_name(name)
        try:
            world = World.new(name, choice.seed, preset=choice.preset)
            lock = self.store.lock(world.name)
        except (StoreError, ValueError, OSError) as err:
            self.notify(f"Not saved: {err}", severity="error", timeout=6)
            return False
        game.state.world_name = game.world_name = world.name
        try:
            self.store.save(game.state, world, game.visited)
        except (SaveError, StoreError, OSError) as err:
            lock.release()
            self.notify(f"Not saved: {err}", severity="error", timeout=6)
            return False
        self.world, self._lock, self.visited = world, lock, game.visited
        self.watching = None
        self.notify(f"Saved as {world.name}", timeout=4)
        return True

    def _watch_ended(self, choice: WorldChoice, state: GameState | None) -> None:
        """The end of a watched game: as any game's if the player took it over; else the
        summary (nothing saved), whose "again" watches the same world again."""
        world = self.world
        if world is not None:  # taken over: a saved world like any other
            from screens.new_game import WorldChoice

            self._run_ended(WorldChoice(world.seed, world.preset, world.name), state)
            return
        self._release()
        if state is None:  # S: back to the title
            self.notify("Stopped watching (a watched game is not saved)", timeout=3)
            return
        from screens.summary import SummaryScreen

        def closed(result: SummaryChoice | None) -> None:
            if result == "again":
                self.start_watch(choice.seed, choice.preset)

        self._push(SummaryScreen(state, world_name=choice.world_name, watched=True), closed)

    def _summary_closed(
        self, choice: WorldChoice, world: World | None, result: SummaryChoice | None
    ) -> None:
        if result == "again":
            self.start_game(choice, world)
