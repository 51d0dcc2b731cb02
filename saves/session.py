"""A game session without a screen: the world being played, its game state, the earlier floors
visited and the world's lock, from the moment a game starts until the player leaves it.

:class:`Games` opens sessions on one save directory::

    games = Games(Store(path))                 # make_game=…: how a fresh game is made
    session = games.new(World.new(name, seed))  # locked and saved at once
    session = games.load(name)                  # or games.resume(): the latest unfinished one
    session = games.watch(seed, preset)         # the bot plays: nothing locked or written
    with session:                               # the lock is held for the session's life
        events = session.step(action)           # the engine's step, recorded; autosaves on a
                                                # new floor
                                                # (and keeps a solved pedestal's best score)
        session.save()
    # or, at the end of a run: session.end_run() saves the run (or deletes a permadeath world
    # whose player died) and releases the world; session.save_and_quit() saves and releases.

Every session records its run (:attr:`Session.recording`, see :mod:`roguelike.recording`):
each action is added as it is played, whoever plays it (the player, the bot in watch mode,
a puzzle screen reporting its moves), and the recording is saved with the game, so a run
saved and continued across sessions is one recording. A world saved before recordings has
none (None): it plays on, but its run cannot be replayed.

A watched session is not on disk until :meth:`Session.take_over`: then it becomes a world like
a new game's (named after its seed, or the next free name), locked and saved, and from then on
it is like any other. The new-game screen asks :meth:`Games.name_problem` and
:meth:`Games.free_name` about the name the player typed.

``Games(store, pregenerate="process")`` makes sessions that generate the next floor in the
background while the player plays (:mod:`roguelike.engine.pregen`): each session starts its own
worker, asks it for the floor below whenever the player arrives on a floor, and ends it when
the session is released. The stairs then take that floor (the same one they would have
generated), and :meth:`Session.next_floor_ready` tells a screen whether they would wait. A floor
made ahead and not yet entered is derived data: it is never saved. Off by default: the bot,
replays and tests gain nothing from it; the app turns it on.

Every failure is one of :data:`SESSION_ERRORS`, with a one-line message a player can read.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import replace

from roguelike import seeds
from roguelike.engine import Action, Descend, Event, GameState, PuzzleSolved, new_game, step
from roguelike.engine.balance import DEFAULT_DIFFICULTY
from roguelike.engine.pregen import FloorCache, WorkerKind, start_worker
from roguelike.presets import DEFAULT_PRESET
from roguelike.recording import Progress, Recording, RecordingError, frames
from saves.errors import (
    HallNotWritten,
    NotSaved,
    SaveError,
    StoreError,
    WorldNotFound,
    failure_reason,
)
from saves.hall import Hall
from saves.live import LiveWriter
from saves.locks import WorldLock
from saves.record import RunFileError, RunRecord, record_of
from saves.scores import keep_room_score
from saves.store import BackupWarning, Store
from saves.text import printable
from saves.verify import verify
from saves.world import (
    MAX_NAME,
    VisitedFloor,
    World,
    WorldInfo,
    check_name,
    now_iso,
    practice_name,
    resumable,
    world_name_for,
)

#: What opening, saving or deleting a world can raise (SaveError and BadWorldName are
#: ValueErrors, and so is a World refusing its seed or preset).
SESSION_ERRORS: tuple[type[Exception], ...] = (StoreError, ValueError, OSError)

#: A fresh game of a world (tests make games without monsters with their own).
MakeGame = Callable[[World], GameState]


def fresh_game(world: World) -> GameState:
    """A new game of ``world``, as the engine makes it."""
    return new_game(
        world.seed, preset=world.preset, world_name=world.name, difficulty=world.difficulty
    )


def remember(visited: list[VisitedFloor], floor: VisitedFloor) -> None:
    """Put ``floor`` into ``visited`` (replacing an older record of the same number), sorted."""
    visited[:] = sorted(
        [v for v in visited if v.number != floor.number] + [floor], key=lambda v: v.number
    )


def step_remembering(state: GameState, action: Action, visited: list[VisitedFloor]) -> list[Event]:
    """:func:`roguelike.engine.step`, keeping the floor the player leaves in ``visited``.

    Only a Descend changes floors, so only a Descend copies the map first."""
    before = VisitedFloor.of(state) if isinstance(action, Descend) else None
    events = step(state, action)
    if before is not None and state.number != before.number:
        remember(visited, before)
    return events


class Session:
    """One game being played: its world, state, earlier floors and lock (see the module)."""

    def __init__(
        self,
        games: Games,
        world: World,
        state: GameState,
        visited: list[VisitedFloor] | None = None,
        lock: WorldLock | None = None,
        recording: Recording | None = None,
        pregenerate: WorkerKind | None = None,
    ) -> None:
        """``pregenerate``: start a worker of that kind making the next floor ahead (None:
        the stairs generate it)."""
        self.games = games
        self.world = world
        self.state = state
        #: the run's inputs so far (None: a world saved before recordings)
        self.recording = recording
        #: where each input is also written as it is played, for watchers (a served game's
        #: input stream, :mod:`saves.live`; None: nowhere)
        self.live: LiveWriter | None = None
        self.visited: list[VisitedFloor] = [] if visited is None else visited
        self.lock = lock
        #: the bot plays and nothing is on disk (until :meth:`take_over`)
        self.watching = lock is None
        #: why the last step's autosave failed (None if it had none or it worked)
        self.save_error: str | None = None
        #: set when the world was loaded from its backup: what to tell the player
        self.warning: str | None = None
        #: the challenge (an imported run's id) this game answers, else None (the world's,
        #: so it is saved with it and a continued game still answers it)
        self.challenge: str | None = world.challenge
        #: the run's record in the hall, once kept (:meth:`keep_run`)
        self.kept: RunRecord | None = None
        #: a new floor was entered and not yet saved (:meth:`step` with ``autosave_now=False``)
        self.save_due = False
        #: the state is its recording's replay by construction: a fresh game made here and
        #: played only through :meth:`step` (a loaded save's state is a file's claim, which
        #: :meth:`keep_run` checks by replaying its recording before the hall keeps it)
        self.proven = False
        #: why the hall refused the run (:meth:`refutation`), once asked
        self.refused: str | None = None
        #: what :attr:`refused` was found for (:meth:`check_run`): the run as it was then
        #: (abandoned?, turn, inputs recorded); None: not asked yet
        self._checked: tuple[bool, int, int] | None = None
        if pregenerate is not None and state.floors is None:
            state.floors = FloorCache(start_worker(pregenerate))
            self.prepare_next_floor()

    def __repr__(self) -> str:
        how = "watching" if self.watching else "open" if self.open else "closed"
        return f"Session({self.world.name!r}, {how})"

    @property
    def store(self) -> Store:
        return self.games.store

    @property
    def open(self) -> bool:
        """The session holds its world's lock (between a start or take-over and its end)."""
        return self.lock is not None and self.lock.held

    @property
    def ended(self) -> bool:
        """The run is over (died or escaped)."""
        return self.state.dead or self.state.won

    @property
    def perishes(self) -> bool:
        """A permadeath world whose player died: :meth:`end_run` deletes it."""
        return self.world.permadeath and self.state.dead

    # -- playing

    def prepare_next_floor(self) -> None:
        """Have the floor below generated in the background (if the game has a cache and
        the run a floor below)."""
        cache, key = self.state.floors, self.state.next_floor()
        if cache is not None and key is not None and not self.ended:
            cache.prepare(*key)

    def next_floor_ready(self) -> bool:
        """False only when the player stands on the stairs and taking them now would wait for
        the floor below to be generated."""
        cache, key = self.state.floors, self.state.next_floor()
        return cache is None or key is None or not self.state.on_stairs() or cache.ready(*key)

    def wait_for_next_floor(
        self,
        *,
        stopped: Callable[[], bool] = lambda: False,
        making: Callable[[], None] | None = None,
    ) -> bool:
        """Block until the floor below can be taken without waiting (for a thread other than
        a screen's): the worker's within its deadline, else made in this process, ``making()``
        told first (:meth:`roguelike.engine.pregen.FloorCache.wait`). False if ``stopped()``
        or the session ended first."""
        cache, key = self.state.floors, self.state.next_floor()
        if cache is None or key is None:
            return True
        return cache.wait(*key, stopped=stopped, making=making)

    def step(self, action: Action, *, autosave_now: bool = True) -> list[Event]:
        """Play ``action``; the floor left behind is remembered, and a new floor autosaves
        (a failed autosave, or a best puzzle score that could not be kept, leaves its reason
        in :attr:`save_error`, which the screen shows after every step, and play goes on).
        ``autosave_now=False``: the autosave is left to the caller (:attr:`save_due`, then
        :meth:`save_if_due`), so that a screen can draw the new floor first."""
        self.save_error = None
        floor = self.state.number
        events = step_remembering(self.state, action, self.visited)
        if self.recording is not None:
            recorded = len(self.recording)
            self.recording.add(action, self.state)
            if self.live is not None and len(self.recording) > recorded:
                self.live.add(
                    self.recording.actions[-1], self.recording.checks[-1], self.state.turn
                )
        if self.state.number != floor:
            self.prepare_next_floor()
            if self.open:
                self.save_due = True
                if autosave_now:
                    self.save_if_due()
        for event in events:  # a pedestal solved: its score may be the puzzle's best
            if isinstance(event, PuzzleSolved) and self.open:
                room = self.state.puzzles.get((event.x, event.y))
                if room is not None:
                    try:
                        keep_room_score(self.store.path, room)
                    except OSError as err:  # the game plays on; the player is told
                        why = failure_reason(err)
                        self.save_error = f"the puzzle's best score was not kept: {why}"
        return events

    def save(self) -> WorldInfo | None:
        """Write the game now (nothing while watching, or once the session is closed)."""
        if not self.open:
            return None
        self.save_due = False
        return self.store.save(self.state, self.world, self.visited, self.recording)

    def save_if_due(self) -> bool:
        """The autosave a step left due, now (:meth:`autosave`); True if none failed."""
        if not self.save_due:
            return True
        return self.autosave()

    def autosave(self) -> bool:
        """:meth:`save`, keeping a failure's reason in :attr:`save_error` instead of raising."""
        try:
            self.save()
        except SESSION_ERRORS as err:
            self.save_error = failure_reason(err)
            return False
        return True

    def take_over(self) -> World:
        """The player takes the wheel of a watched game: it becomes a saved world (named as
        a new game of its seed would be, or the next free name), locked and saved at once.
        Raises (and stays a watched game, to be tried again) if that fails."""
        if not self.watching:
            return self.world
        world = replace(self.world, name=self.games.usable_name(self.world.name), created=now_iso())
        lock = self.store.lock(world.name)
        self.state.world_name = world.name
        try:
            self.store.save(self.state, world, self.visited, self.recording)
        except SESSION_ERRORS:
            lock.release()
            raise
        self.world, self.lock, self.watching = world, lock, False
        return world

    # -- the hall of runs

    def _to_keep(self, abandoned: bool) -> bool:
        """:meth:`keep_run` would make a record of the run and add it to the hall."""
        if self.watching or self.kept is not None or not (self.ended or abandoned):
            return False
        return self.ended or self.state.turn > 0  # given up before a single turn: no run

    def _record(self, abandoned: bool) -> RunRecord:
        return record_of(
            self.state,
            world=self.world.name,
            started=self.world.created,
            recording=self.recording,
            abandoned=abandoned,
            challenge=self.challenge,
            practice_from=self.world.practice_from,
        )

    def _check_key(self, abandoned: bool) -> tuple[bool, int, int]:
        return abandoned, self.state.turn, -1 if self.recording is None else len(self.recording)

    def check_due(self, *, abandoned: bool = False) -> bool:
        """:meth:`keep_run` would replay the run's recording first (a loaded save's run, not
        yet checked as it now is): seconds for a long run, which a screen runs in a worker
        thread through :meth:`check_run` so that it never holds the screen."""
        return (
            self._to_keep(abandoned)
            and not self.proven
            and self._checked != self._check_key(abandoned)
        )

    def check_run(self, *, abandoned: bool = False, progress: Progress | None = None) -> str | None:
        """Do now the replay :meth:`keep_run` would do (if :meth:`check_due`), and keep its
        verdict, so that keep_run does not replay again: why the hall would refuse the run
        (:attr:`refused`), or None. Safe to call from a worker thread while nothing else
        uses the session. ``progress``: told how far the replay is; what it raises (a
        screen's cancel) goes through, and nothing is kept then."""
        if not self.check_due(abandoned=abandoned):
            return self.refused
        key = self._check_key(abandoned)
        self.refused = self.refutation(self._record(abandoned), progress=progress)
        self._checked = key
        return self.refused

    def keep_run(self, *, abandoned: bool = False) -> RunRecord | None:
        """Add the run to the hall of runs (once; not a watched game's): over, or
        ``abandoned``. Raises :class:`~saves.errors.HallNotWritten` if the hall cannot be
        written (the world is not affected: the caller keeps it, and says so). A loaded
        save's run is replayed first, unless :meth:`check_run` did it already."""
        if not self._to_keep(abandoned):
            return self.kept
        self.check_run(abandoned=abandoned)
        record = self._record(abandoned)
        if self.refused is not None:  # replayed once: asked again, the answer is the same
            self.save_error = self.refused
            return None
        try:
            self.kept = Hall(self.store.path).add(record)
        except SESSION_ERRORS as err:
            raise HallNotWritten(
                f"the run of {self.world.name!r} could not be kept in the hall of runs: "
                f"{failure_reason(err)}"
            ) from err
        return self.kept

    def refutation(self, record: RunRecord, *, progress: Progress | None = None) -> str | None:
        """Why the hall does not keep ``record``, the run of this session, in one line: its
        recording, replayed, refutes a claim (a doctored save says it was won), or there is
        none to prove it. None if it holds (or the session played it from its start, so
        that its state is its recording's replay: :attr:`proven`). ``progress``: see
        :meth:`check_run`."""
        if self.proven:
            return None
        try:
            verify(record, progress=progress)
        except RunFileError as err:
            return f"the run is not kept in the hall: {err}"
        return None

    def run_record(self) -> RunRecord:
        """The finished run's record: the one kept in the hall (:meth:`keep_run`), or, for a
        watched game or one the hall failed to keep, one made now and not kept (the final
        screen shows its text either way; :meth:`end_run` tries the hall again and says why
        it failed)."""
        try:
            kept = self.keep_run()
        except HallNotWritten:
            kept = None
        if kept is not None:
            return kept
        return record_of(
            self.state,
            world=self.world.name,
            started=self.world.created,
            recording=self.recording,
            abandoned=not self.ended,
            challenge=self.challenge,
            practice_from=self.world.practice_from,
        )

    # -- leaving

    def quit(self) -> None:
        """Release the world and end the floor worker, if any (the session is over; saving
        is the caller's choice)."""
        if self.state.floors is not None:
            self.state.floors.close()
            self.state.floors = None
        if self.lock is not None:
            self.lock.release()
        self.lock = None

    def end_run(self) -> bool:
        """The run is over: keep it in the hall and save it (so the world list shows how it
        ended), or delete the world if :attr:`perishes`, but only once its run is safely in
        the hall; then release it. True: the world is gone. A failure is raised and the
        session stays open (the caller may try again, or :meth:`quit`):
        :class:`~saves.errors.HallNotWritten` if the hall could not be written (the world is
        then saved, never deleted: its run is not lost)."""
        hall_error: HallNotWritten | None = None
        if self.open:
            try:
                self.keep_run()
            except HallNotWritten as err:
                hall_error = err
        if self.perishes and self.open and hall_error is None:
            self.store.delete(self.world.name)
            self.quit()
            return True
        self.save()
        if hall_error is not None:
            raise HallNotWritten(f"{hall_error}; the world is kept")
        self.quit()
        return False

    def save_and_quit(self) -> bool:
        """Leave the game: a finished run ends as in :meth:`end_run`, any other is saved and
        then released. If saving fails the error is raised and the session stays open, its
        world still held (the player may free some space and try again, or :meth:`quit`
        without saving). True: the world is gone (permadeath)."""
        if self.ended:
            return self.end_run()
        self.save()
        self.quit()
        return False

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()


class Games:
    """The games of one save directory: where sessions start (see the module)."""

    def __init__(
        self,
        store: Store,
        *,
        make_game: MakeGame = fresh_game,
        pregenerate: WorkerKind | None = None,
    ) -> None:
        """``make_game``: how a fresh game is made; ``pregenerate``: the kind of worker each
        session generates the next floor in (None: none, the stairs generate it)."""
        self.store = store
        self.make_game = make_game
        self.pregenerate = pregenerate

    # -- the world list

    def resumable(self) -> WorldInfo | None:
        """The most recently saved world still being played (what Continue resumes)."""
        return resumable(self.store.readable_list())

    # -- names

    def name_problem(self, name: str) -> str | None:
        """Why a new world cannot be called ``name`` (with a free name to try), or None."""
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
        except (StoreError, SaveError, OSError):
            other = name
        taken = (
            f"a world named {other!r} already exists"
            if other.casefold() == name.casefold()
            else f"the world {other!r} already uses that file name"
        )
        return f"{taken}: try {self.free_name(name)!r}"

    def free_name(self, name: str) -> str:
        """``name 2``, ``name 3`` …: the first that no saved world uses."""
        base = name.strip()[: MAX_NAME - 5].rstrip() or "World"
        for n in range(2, 10_000):
            candidate = f"{base} {n}"
            try:
                if not self.store.exists(candidate):
                    return candidate
            except OSError:
                return candidate
        return base

    def usable_name(self, name: str) -> str:
        """``name`` if a new world may take it, else the next free one."""
        return name if self.name_problem(name) is None else self.free_name(name)

    def world_for(
        self, seed: int, preset: str | None = None, name: str = "", difficulty: str | None = None
    ) -> World:
        """A new world of ``seed`` (not yet saved): called ``name``, or after its seed; the
        next free name if that one is taken. ``difficulty``: None for normal."""
        return World(
            self.usable_name(name or world_name_for(seed)),
            seed,
            preset or DEFAULT_PRESET,
            difficulty=difficulty or DEFAULT_DIFFICULTY,
        )

    # -- sessions

    def new(self, world: World) -> Session:
        """Start ``world`` from its beginning: lock it, make its game and save it at once.
        Playing an existing world again from the start overwrites its save."""
        lock = self.store.lock(world.name)
        try:
            state = self.make_game(world)
            recording = Recording.begin(state)
            try:
                self.store.save(state, world, [], recording)
            except SESSION_ERRORS as err:
                raise NotSaved(f"The world could not be saved: {err}") from err
        except BaseException:
            lock.release()
            raise
        session = Session(self, world, state, [], lock, recording, self.pregenerate)
        session.proven = True  # a fresh game, played here from its start
        return session

    def practice(
        self, record: RunRecord, played: int, *, progress: Progress | None = None
    ) -> Session:
        """A practice game from input ``played`` of ``record``'s run (anyone's): a new world,
        "<world> (practice from turn N)", whose recording is the run's first ``played`` inputs
        played again here (so the practice run's recording replays from the world's start,
        and verifies as any run does) and whose run is kept as practice: never scored, never
        the daily, never ranked (:attr:`World.practice_from`). Nothing of ``record``
        changes. RunFileError in one line if the run cannot be replayed to there, or is over
        there; the errors of :meth:`new` if the world cannot be saved. ``progress``: told
        how far the replay to there is (it may raise to stop it: nothing is then kept)."""
        source = record.recording
        if source is None:
            raise RunFileError("the run has no recording: there is nothing to practise from")
        state = source.start.game()
        recording = Recording.begin(state)
        visited: list[VisitedFloor] = []
        if played > 0:
            try:
                for frame in frames(
                    source, state=state, stepper=lambda s, a: step_remembering(s, a, visited)
                ):
                    if progress is not None and frame.index % 500 == 0:
                        progress(frame.index, played)
                    recording.add(frame.action, state)
                    if frame.index + 1 >= played:
                        break
            except RecordingError as err:
                raise RunFileError(f"the run does not replay to there: {err}") from None
        if state.over:
            raise RunFileError("the run is over there: practise from an earlier turn")
        base = printable(record.world)[: MAX_NAME - 30].strip() or "World"
        world = World(
            self.usable_name(practice_name(base, state.turn)),
            state.seed,
            state.preset,
            difficulty=state.difficulty,
            practice_from=len(recording),
        )
        state.world_name = world.name
        lock = self.store.lock(world.name)
        try:
            try:
                self.store.save(state, world, visited, recording)
            except SESSION_ERRORS as err:
                raise NotSaved(f"The practice world could not be saved: {err}") from err
        except BaseException:
            lock.release()
            raise
        session = Session(self, world, state, visited, lock, recording, self.pregenerate)
        session.proven = True  # its state is its recording's replay, played here
        return session

    def load(self, name: str) -> Session:
        """Lock and load the saved world ``name`` (nothing changes if that fails). A world
        loaded from its backup says so in :attr:`Session.warning`."""
        return self._load(name, self.pregenerate)

    def _load(self, name: str, pregenerate: WorkerKind | None) -> Session:
        lock = self.store.lock(name)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", BackupWarning)
                loaded = self.store.open(name)
        except BaseException:
            lock.release()
            raise
        session = Session(
            self, loaded.world, loaded.state, loaded.visited, lock, loaded.recording, pregenerate
        )
        session.warning = self.store.last_warning
        return session

    def give_up(
        self, name: str, *, progress: Progress | None = None
    ) -> tuple[RunRecord | None, str | None]:
        """The unfinished run of the saved world ``name`` is given up (the world is about to be
        deleted or started again): keep it in the hall as abandoned, if its own recording
        proves it. A run that is over is kept as it ended, in case its end never reached the
        hall (a crash before it did; the hall keeps a run once). Returns the record kept and
        why the run was refused (its recording refutes the save), in one line, or None. The
        record is None too if the world cannot be read (a damaged save holds no run to
        keep). Raises :class:`~saves.errors.HallNotWritten` if the hall cannot be written,
        and what locking the world raises (held by another game, a full disk): the caller
        must then keep the world, or its run is lost. ``progress``: told how far the replay
        of a run's recording is (seconds for a long run: a screen gives up a world in a worker
        thread); what it raises goes through, and nothing is kept then."""
        try:
            session = self._load(name, None)  # read and released: no floor to make ahead
        except (SaveError, WorldNotFound):
            return None, None
        with session:
            session.check_run(abandoned=not session.ended, progress=progress)
            kept = session.keep_run(abandoned=not session.ended)
            return kept, session.refused if kept is None else None

    def abandon(self, name: str) -> RunRecord | None:
        """:meth:`give_up`, the record kept alone."""
        return self.give_up(name)[0]

    def resume(self) -> Session | None:
        """Load the most recently saved world still being played; None if there is none."""
        info = self.resumable()
        return None if info is None else self.load(info.name)

    def watch(
        self, seed: int | None = None, preset: str | None = None, difficulty: str | None = None
    ) -> Session:
        """The bot plays ``seed`` (a random world if None) of size ``preset`` and
        ``difficulty`` (None: the engine's defaults). Nothing is locked or written until
        :meth:`Session.take_over`."""
        if seed is None:
            seed = seeds.random_seed()
        world = World(
            world_name_for(seed),
            seed,
            preset or DEFAULT_PRESET,
            difficulty=difficulty or DEFAULT_DIFFICULTY,
        )
        state = self.make_game(world)
        session = Session(
            self, world, state, recording=Recording.begin(state), pregenerate=self.pregenerate
        )
        session.proven = True  # a fresh game, played here from its start
        return session
