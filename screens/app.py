"""The Textual application and its flow.

::

    title ──n/s──► new game ──Enter──► game ──run ends──► summary ──⏎──► title
      │ │ │ └──? help                   ▲ │ ▲                 │
      │ │ └──c (continue) ──────────────┘ │ └───a (again)─────┘
      │ └──l──► load ──Enter────────────┘ └──S (save & quit)──► title
      └──w──► watch (the game, the bot at the wheel) ──a game key──► the game, saved
    (and from the title: i ──► the puzzle index ──free play──► a puzzle ──done──► the index)
    title ──r──► hall of runs ──w──► replay viewer      ──p (a challenge)──► its world, played
      │ │                   └──x──► a challenge file
      │ └──o──► import a challenge (checked by replay) ──w──► replay · ──p──► its world, played
      └──d──► today's daily world (one scored run a day; later ones are practice)
    title or game ──O──► options (theme, keys) ──Esc──► saved, applied, back where it was

The game itself lives in a :class:`saves.session.Session` (the world, its state, the earlier
floors and the lock); the app only decides which screen shows and tells the player what failed.
The session saves a game when it starts and on every new floor (just after the new floor is
drawn, so that the stairs show it at once); the app has it saved when the
player leaves (``S``, or Ctrl+Q, which saves before quitting; the app closing any other way
saves too) and ended when the run ends (a permadeath world whose player died is deleted, but
only once its run is in the hall). Leaving and ending a run are :mod:`screens.ending`'s (a base
of the app): a save that fails on the way out never closes the game (:mod:`screens.leave`); a
hall that cannot be written keeps the world, and says so.

``RoguelikeApp(seed=…, preset=…)`` skips the title's menus and starts that world at once (the
title still lies underneath, so the summary leads back to it); with ``watch=True`` it starts
watching it instead (a random world without ``seed``). ``save_dir`` is the save folder (None:
the default, see :func:`saves.default_dir`); ``make_game`` how a fresh game of a world is made
(tests pass games without monsters). Screens never start games themselves: the new-game screen
dismisses with the :class:`saves.World` to create, the load screen with an open session, the
game screen with its final state, the summary with ``"title"`` or ``"again"``, and the app's
callbacks move on.

Watching (:meth:`RoguelikeApp.start_watch`): the autoplayer plays a world on the game screen,
and nothing is saved until the first key the player plays with takes the wheel: the session
then becomes a saved world like a new game's ("Saved as …"), and everything is as in any game.

Runs: every run that ends (or is abandoned: a world deleted from the load screen, or started
again over an unfinished run) is kept in the hall of runs by the session. A session loaded from
a save has its run replayed against its recording first (a doctored save's claims never reach
the hall): in a worker thread, a box saying how far it is (:mod:`screens.ending`), so the screen
never freezes for it; nothing is deleted until that verdict is in. A challenge's world
is played as a new world of the sender's seed and size, named "<their world> challenge", whose
session carries the challenge's id; its summary shows both runs side by side.
``RoguelikeApp(replay=record)`` opens the replay viewer on ``record`` at once (``roguelike
replay``), over the title.

Options (:mod:`saves.options`: the theme and the rebound keys, in the user's config folder) are
read when the app is made and applied when it mounts: the theme through
:func:`screens.themes.apply_theme`, the keys as the app's Textual keymap (the game screen's
bindings carry ids, so input and the footer follow) and :attr:`RoguelikeApp.key_overrides`
(what the help screen draws). A damaged file, an unknown theme or a clashing key is said in one
line and left out; nothing stops the game.

Whatever screen is current, a terminal under 80×24 gets a full-screen message on top of it
(:class:`TooSmallScreen`) until it is large enough again; the screen underneath is untouched.
"""

from __future__ import annotations

import datetime as dt
import importlib
import os
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from textual import events
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import Screen

from saves import options as saved_options
from saves.text import printable
from screens.bindings import usable_overrides
from screens.busy import BusyScreen, CheckResult, CheckScreen, Progress
from screens.ending import Ending
from screens.help import HelpScreen
from screens.themes import PALETTES, apply_theme
from screens.title import TitleScreen
from screens.too_small import MIN_HEIGHT, MIN_WIDTH, TooSmallScreen

if TYPE_CHECKING:
    from roguelike.engine import GameState
    from roguelike.engine.pregen import WorkerKind
    from saves import Store, World, WorldInfo
    from saves.hall import Hall
    from saves.record import RunRecord
    from saves.session import Games, MakeGame, Session
    from screens.game import GameScreen
    from screens.new_game import Focus
    from screens.summary import SummaryChoice

__all__ = ["RoguelikeApp", "TitleScreen"]

R = TypeVar("R")

#: What a game needs and the title does not. The title shows without them (the engine pulls
#: in scipy, half a second of start-up) and a thread imports them while the title is read;
#: the app's own imports of them wait inside the methods that start a game.
GAME_MODULES = (
    "roguelike.engine",
    "saves.session",
    "screens.new_game",
    "screens.game",
    "screens.summary",
)


def _warm_up() -> None:
    for name in GAME_MODULES:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - only a head start: the real import reports errors
            return


class RoguelikeApp(Ending):
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
        difficulty: str | None = None,
        watch: bool = False,
        save_dir: str | os.PathLike[str] | None = None,
        make_game: MakeGame | None = None,
        replay: RunRecord | None = None,
        pregenerate: WorkerKind | None = None,
    ) -> None:
        """``seed``: start this world (named after its seed, or the next free name) at once
        instead of waiting on the title screen. ``preset``: its size (``small``, ``normal``
        or ``large``; None for the engine's default), also what the new-game screen offers
        first. ``difficulty``: its difficulty (None: normal), also what the new-game screen
        offers first. ``watch``: watch the bot play ``seed`` (or a random world) at once.
        ``save_dir``: the save folder (None: the default). ``make_game``: a fresh game of a
        world (None: the engine's). ``replay``: open the replay viewer on this run at once.
        ``pregenerate``: each game makes its next floor ahead in a worker of that kind, so
        the stairs never wait (None: the stairs generate it; ``roguelike`` asks for a
        process)."""
        super().__init__()
        self._replay_first = replay
        self.preset = preset
        self.difficulty = difficulty
        self._first_seed = seed
        self._watch_first = watch
        self.save_dir = save_dir
        self.make_game = make_game
        self.pregenerate: WorkerKind | None = pregenerate
        #: the world started from the command line, once the app is mounted
        self.first_world: World | None = None
        self._store: Store | None = None
        self._games: Games | None = None
        #: the game being played or watched, and its screen (None between games)
        self.session: Session | None = None
        self._game: GameScreen | None = None
        self.options, warning = saved_options.load()
        self._option_warnings = [warning] if warning else []
        #: the game keys the player rebound (binding id → keys), as applied
        self.key_overrides: dict[str, str] = {}
        #: why the game open when the app closed could not be saved (None: it was, or none
        #: was open): the command line prints it and exits non-zero
        self.unsaved: str | None = None
        #: Ctrl+Q came during a check (:class:`~screens.busy.CheckScreen`): quit once it stops
        self._quitting = False

    def on_mount(self) -> None:
        self.apply_options(self.options)
        for warning in self._option_warnings:
            self.notify(warning, severity="warning", timeout=6, markup=False)
        self.push_screen(TitleScreen(self.saved_worlds, self.daily_status))
        seed = self._first_seed
        if self._replay_first is not None:
            self.watch_run(self._replay_first)
        elif self._watch_first:
            self.start_watch(seed, self.preset)
        elif seed is not None:
            self.first_world = self.games.world_for(seed, self.preset, difficulty=self.difficulty)
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
        """The save folder (opened when first needed)."""
        if self._store is None:
            from saves import Store  # the title shows before the saves are read

            self._store = Store(self.save_dir)
        return self._store

    @property
    def games(self) -> Games:
        """Where sessions start (made when the first game needs it)."""
        if self._games is None:
            from saves.session import Games, fresh_game  # loads the engine: not for the title

            self._games = Games(
                self.store, make_game=self.make_game or fresh_game, pregenerate=self.pregenerate
            )
        return self._games

    @property
    def hall(self) -> Hall:
        """The hall of runs of the save folder."""
        from saves.hall import Hall  # loads the engine (replays): not for the title

        return Hall(self.store.path)

    def saved_worlds(self) -> list[WorldInfo]:
        """Every saved world, the most recently saved first ([] if the folder is unreadable)."""
        return self.store.readable_list()

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every toast of every screen passes here, and many quote a file (a world's name, why
        it cannot be loaded): the text is made printable and never read as markup, whatever
        the caller asked, so a name like ``[/]`` shows as it is and cannot crash the toast."""
        del markup  # never markup: no toast of the game styles its text
        super().notify(
            printable(message),
            title=printable(title),
            severity=severity,
            timeout=timeout,
            markup=False,
        )

    def _try(self, action: Callable[[], R], failure: str = "{}") -> R | None:
        """``action()``; None, and a notification (``failure`` with the reason), if it failed
        as opening, saving or deleting a world can fail."""
        from saves.session import SESSION_ERRORS, failure_reason  # loads the engine

        try:
            return action()
        except SESSION_ERRORS as err:
            why = failure.format(failure_reason(err))
            self.notify(why, severity="error", timeout=6, markup=False)
            return None

    def open_world(self, name: str) -> Session | None:
        """Lock and load the saved world ``name``; None (and a notification saying why, with
        nothing changed) if it is open in another game, damaged or gone."""
        session = self._try(partial(self.games.load, name))
        if session is not None and session.warning:
            self.notify(session.warning, severity="warning", timeout=6, markup=False)
        return session

    def _close(self) -> None:
        if self.session is not None:
            self.session.quit()
        self.session = None
        self._game = None

    def action_save_and_quit(self) -> None:
        """Ctrl+Q: save the running game (if any), then quit; if saving fails, the player
        chooses (:meth:`leave_game`) and the app stays until they do."""
        check = next((s for s in self.screen_stack if isinstance(s, CheckScreen)), None)
        if check is not None:  # stopped at its next input; its caller keeps all, then quits
            self._quitting = True
            check.stop()
            return
        game, session = self._game, self.session
        if game is not None and session is not None and session.open:
            from screens.leave import SaveFailedScreen
            from screens.puzzle import PuzzleScreen  # open only if a puzzle screen is

            top = self.screen_stack[-1] if self.screen_stack else None
            if isinstance(top, SaveFailedScreen):
                return  # already asking
            if isinstance(top, PuzzleScreen):  # the visit's moves and coins reach the engine
                game.report_puzzle(top.outcome())
                top.dismiss(None)  # reported once: the game, not the puzzle, is left
            self.leave_game(session, self.exit)
            return
        self.exit()

    def on_unmount(self) -> None:
        # however the app ends, the game is saved if it can be (else why is kept for the
        # command line to print: the player is told) and the world is not left locked
        session = self.session
        if session is not None and session.open and not session.ended:
            from saves.session import SESSION_ERRORS, failure_reason  # loaded: a game is open

            try:
                session.save()
            except SESSION_ERRORS as err:
                why = failure_reason(err)
                self.unsaved = f"{session.world.name} was not saved on closing: {why}"
        self._close()

    # -- options ---------------------------------------------------------------------------

    def apply_options(self, options: saved_options.Options) -> None:
        """Use ``options``' theme and keys; what cannot be used (a theme or action of another
        version, a key bound twice) is left out and said in one line."""
        if options.theme not in PALETTES:
            self._option_warnings.append(f"No theme {options.theme!r}: using the default")
        apply_theme(self, options.theme)
        kept, dropped = usable_overrides(options.keys)
        self._option_warnings.extend(f"Key not rebound: {why}" for why in dropped)
        self.key_overrides = kept
        self.set_keymap(kept)
        if self._game is not None and self._game.is_mounted:
            self._game.map_view.restyle()

    def action_options(self) -> None:
        """``O`` on the title or in a game: the options screen; what it returns is saved and
        applied."""
        from screens.options import OptionsScreen  # loaded on first use: the title comes first

        self._push(OptionsScreen(self.options), self._options_chosen)

    def _options_chosen(self, options: saved_options.Options | None) -> None:
        if options is None:
            return
        self._option_warnings = []
        self.apply_options(options)
        for warning in self._option_warnings:
            self.notify(warning, severity="warning", timeout=6, markup=False)
        if options == self.options:
            return
        base, self.options = self.options, options
        try:  # only what changed here is written over another game's changes since
            saved_options.save(options, base=base)
        except OSError as err:
            self.notify(f"Options not saved: {err.strerror or err}", severity="error", markup=False)

    # -- the flow --------------------------------------------------------------------------

    def action_new_game(self, focus: Focus = "seed") -> None:
        """The new-world dialog, its seed field focused: a code typed at once is never lost."""
        from screens.new_game import NewGameScreen  # loaded on first use: the title comes first

        self._push(
            NewGameScreen(
                preset=self.preset,
                difficulty=self.difficulty,
                focus=focus,
                name_problem=self.games.name_problem,
            ),
            self._world_chosen,
        )

    def action_enter_seed(self) -> None:
        self.action_new_game(focus="seed")

    def action_help(self) -> None:
        self._push(HelpScreen())

    def action_watch(self) -> None:
        """The title's ``w``: watch the bot play a random world of the app's size."""
        self.busy("Making a world for the bot…", lambda: self.start_watch(None, self.preset))

    def action_continue_game(self) -> None:
        """Resume the most recently saved world that is still being played."""
        info = self.games.resumable()
        if info is None:
            self.notify("Continue: no unfinished world to resume", timeout=3)
            return
        self.busy(f"Opening {info.name}…", partial(self._open_and_play, info.name))

    def _open_and_play(self, name: str) -> None:
        """Open the saved world ``name`` and play it (nothing but a notification if it
        cannot be opened): under a busy box, which stays while the world is read and its
        floor made."""
        session = self.open_world(name)
        if session is not None:
            self.play(session)

    def action_puzzle_index(self) -> None:
        """The title's ``i``: the puzzles met in saved worlds, and free play."""
        from screens.puzzle_index import PuzzleIndexScreen  # loads the puzzles: not for the title

        self._push(PuzzleIndexScreen(self.store))

    def action_load_game(self) -> None:
        from screens.load import LoadScreen  # loaded on first use: the title comes first

        self._push(LoadScreen(self.store, self.open_world, self.abandon), self._world_loaded)

    # -- runs, challenges, the daily world

    def action_hall(self) -> None:
        """The title's ``r``: the hall of runs."""
        from screens.hall import HallScreen  # loads the engine (replays): not for the title

        self._push(HallScreen(self.hall), self._challenge_chosen)

    def action_import_challenge(self) -> None:
        """The title's ``o``: import a challenge file, then watch or play it."""
        from screens.challenge import ChallengeScreen  # loads the engine: not for the title

        self._push(ChallengeScreen(self.hall), self._challenge_chosen)

    def watch_run(self, record: RunRecord) -> None:
        """Open the replay viewer on ``record`` (Esc goes back to the screen underneath)."""
        from screens.replay import ReplayScreen  # loads the engine: not for the title

        self._push(ReplayScreen(record))

    def practise(self, record: RunRecord, played: int) -> None:
        """The replay viewer's ``p``: a practice game from input ``played`` of ``record``'s
        run, in a new world of its own (its run kept as practice: never scored, never the
        daily, never ranked); the viewer is there again when the game is left. The run is
        replayed to there in a worker thread (up to its every input: seconds for a long run),
        the screen saying how far and answering meanwhile; Esc stops it, keeping nothing."""
        games = self.games

        def work(progress: Progress) -> object:
            return games.practice(record, played, progress=progress)

        self._push(CheckScreen("Making the practice world…", work, stoppable=True), self._practised)

    def _practised(self, result: CheckResult | None) -> None:
        from saves.session import SESSION_ERRORS, Session  # loaded: practice ran

        if result is None or result.stopped:  # nothing was kept: back in the viewer
            if self._quitting:
                self.exit()
            return
        err = result.error
        if err is not None:
            failure = str(err) if isinstance(err, SESSION_ERRORS) else type(err).__name__
            self.notify(f"No practice world: {failure}", severity="error", timeout=6, markup=False)
            return
        assert isinstance(result.value, Session)
        self.play(result.value)

    def _challenge_chosen(self, choice: tuple[str, RunRecord] | None) -> None:
        if choice is not None and choice[0] == "play":
            self.play_challenge(choice[1])

    def play_challenge(self, record: RunRecord) -> bool:
        """Play the world of the challenge ``record`` yourself: a new world of its seed and
        size, named after the sender's, answering it (its summary compares the two runs)."""
        from roguelike import seeds
        from saves.world import MAX_NAME, World

        name = printable(record.world)[: MAX_NAME - 10].strip() + " challenge"
        world = World(
            self.games.usable_name(name),
            seeds.read_stored(record.seed),
            record.preset,
            challenge=record.id,
            difficulty=record.difficulty,
        )
        session = self._try(partial(self.games.new, world))
        if session is None:
            return False
        self.play(session)
        return True

    def action_daily(self) -> None:
        """The title's ``d``: today's world (UTC), the same for every player; an unfinished
        daily world of today is continued, else it starts afresh."""
        from roguelike.presets import DEFAULT_PRESET
        from saves.world import World, daily_name, daily_seed

        name = daily_name()
        info = next((w for w in self.saved_worlds() if w.name == name), None)
        if info is not None and info.problem is None and not (info.won or info.dead):
            self.busy(f"Opening {name}…", partial(self._open_and_play, name))
            return
        world = World(self.games.usable_name(name), daily_seed(), DEFAULT_PRESET)
        self.busy("Making today's world…", lambda: self.start_game(world))

    def daily_status(self) -> str:
        """The title's line about the daily world: the streak, and whether today's scored
        run is used (later runs that day are practice)."""
        hall = self.hall
        today = dt.datetime.now(dt.UTC).date()
        try:
            runs = hall.runs()
        except OSError:
            return ""
        used = hall.daily_used(today, runs)
        streak = hall.streak(today, runs)
        plural = "s" if streak != 1 else ""
        today_note = "today's scored run is used: practice" if used else "today's run is scored"
        return f"Daily: {today_note} · streak {streak} day{plural}"

    def busy(self, words: str, work: Callable[[], object]) -> None:
        """Say ``words`` in a box, then do ``work`` (which holds the screen for a while: a
        world's first floor made) once the box is drawn (:class:`~screens.busy.BusyScreen`)."""
        box = BusyScreen(words, work)
        self.push_screen(box)
        # scheduled from here, not from the box: a screen the work pushes reports its result
        # to the message pump that pushed it, and the box is gone by then
        self.call_after_refresh(box.run)

    def _world_loaded(self, session: Session | None) -> None:
        if session is not None:
            self.play(session)

    def _world_chosen(self, world: World | None) -> None:
        if world is not None:
            self.preset = world.preset  # the next new game offers the same size
            self.difficulty = world.difficulty  # and the same difficulty
            self.busy(f"Making {world.name}…", lambda: self.start_game(world))

    def start_game(self, world: World) -> bool:
        """Start ``world`` from its beginning (saved at once) and play it; its summary
        follows when the run ends. False (and a notification) if the world could not be
        created, locked or saved. An unfinished run of a world of that name is kept in the
        hall as abandoned first (:meth:`abandon`, in a worker thread: the world starts once
        that is done, and True is returned at once)."""
        if self.store.exists(world.name):
            # if its run cannot be kept, the old world stays: it would be lost
            self.abandon(world.name, partial(self._new_game_if, world))
            return True
        return self._new_game(world)

    def _new_game_if(self, world: World, old_run_kept: bool) -> None:
        if old_run_kept:
            self._new_game(world)

    def _new_game(self, world: World) -> bool:
        session = self._try(partial(self.games.new, world))
        if session is not None:
            self.play(session)
        return session is not None

    def play(self, session: Session) -> None:
        """Show the game screen of ``session`` (played by the player unless it is watched)."""
        from screens.game import GameScreen  # the game screen's imports wait for a game

        self._close()
        self.session = session
        self._game = GameScreen(
            session.state,
            world_name=session.world.name,
            permadeath=session.world.permadeath,
            session=session,
            autopilot=session.watching,
            leave=partial(self.leave_game, session),
        )
        self._push(self._game, partial(self._game_left, session))

    def _game_left(self, session: Session, state: GameState | None) -> None:
        """The game screen is gone: with None the player left (``S``), else the run ended."""
        if state is None:
            if session.watching:
                self._close()
                self.notify("Stopped watching (a watched game is not saved)", timeout=3)
            elif not session.open:  # saved (or left unsaved, by choice) by leave_game
                self._close()
            elif self._leave(session):
                self.notify(f"Saved {session.world.name}", timeout=3, markup=False)
            return
        # a loaded save's run is replayed before the hall keeps it: off the UI thread, first
        self.when_checked(session, partial(self._run_over, session, state))

    def _run_over(self, session: Session, state: GameState) -> None:
        """The finished run of ``session`` (checked) goes to the hall, then the summary."""
        from screens.summary import SummaryScreen  # loaded on first use: the title comes first

        watched = session.watching
        record = session.run_record()
        # the world goes (permadeath) only once its run is in the hall: the summary says
        # whether it went, and a failure is told
        gone = self._end_run(session)
        self._push(
            SummaryScreen(
                state,
                world_name=session.world.name,
                gone=gone,
                watched=watched,
                versus=self._challenge_of(session),
                record=record,
            ),
            partial(self._summary_closed, session),
        )

    def _challenge_of(self, session: Session) -> RunRecord | None:
        """The imported record the session's run answered (None if none, or it is gone).
        Looked up among the challenges only: a player may import a run of their own, whose id
        is then in both folders."""
        if session.challenge is None:
            return None
        try:
            return next((r for r in self.hall.challenges() if r.id == session.challenge), None)
        except OSError:
            return None

    def _summary_closed(self, session: Session, result: SummaryChoice | None) -> None:
        """ "again": the same world from its start (watched again, if it was watched)."""
        if result != "again":
            return
        if session.world.practice_from is not None:  # its start is another run's inputs
            self.notify("Practise again from the replay viewer (p)", timeout=4)
            return
        if session.watching:
            self.start_watch(session.world.seed, session.world.preset, session.world.difficulty)
        else:
            self.start_game(session.world)

    def start_watch(
        self, seed: int | None = None, preset: str | None = None, difficulty: str | None = None
    ) -> None:
        """Watch the bot play the world ``seed`` (a random one if None) of size ``preset``
        (None: the engine's default). Nothing is saved until the player takes the wheel."""
        self.play(self.games.watch(seed, preset, difficulty or self.difficulty))
