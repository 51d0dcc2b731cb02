"""Floors made before the player needs them, so that taking the stairs never waits on the
generator.

A floor is a pure function of (seed, number, last) — every stage draws from its own stream
``seeds.stream(seed, number, stage)`` and nothing the player does reaches them (play draws from
``"play"``) — and so are its inhabitants (:func:`~roguelike.engine.creatures.populate`, from the
floor and the stream ``"inhabit"``). The next floor can therefore be made at any moment,
anywhere, with its monsters and items (an :class:`Arrival`), and it is what the stairs would
have made; what depends on the run (the keys held, the view) is left to the cheap moment of
arrival.

:class:`FloorCache` holds the floors asked for ahead (:meth:`FloorCache.prepare`), each a future
of an :class:`~concurrent.futures.Executor`; :meth:`FloorCache.floor` hands one over (waiting for
it if it is not done yet: a floor is never generated twice) or generates it on the spot when
none was asked for. A :class:`~roguelike.engine.state.GameState` whose ``floors`` is a cache
takes its next floor from it; without one (the bot, replays, headless tools) it generates the
floor as it always did. The cache holds derived data only and is never saved.

:func:`start_worker` makes the executor: a process by default (``"process"``), because the
generator is mostly Python and a thread would share the interpreter's lock with the screen
(``roguelike bench --only ui`` measures both). A worker process is started fresh (``spawn``):
it gets the three numbers of a floor and sends back the :class:`~roguelike.gen.floor.Floor` it
generated, pickled by :mod:`concurrent.futures` between our own two processes; nothing read from
a file ever crosses that pipe.

The cache never reads a clock and never changes what it is given: which executor runs the
work changes when a floor is ready, never what it is.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import resource_tracker
from typing import Literal

from roguelike.engine.creatures import Monster, populate
from roguelike.gen.floor import Floor
from roguelike.gen.pipeline import generate_floor

__all__ = ["Arrival", "FloorCache", "FloorKey", "WorkerKind", "make_floor", "start_worker"]

#: One floor of one world: (seed, number, last: it has the exit).
FloorKey = tuple[int, int, bool]
WorkerKind = Literal["process", "thread"]


@dataclass(frozen=True)
class Arrival:
    """A floor as the player enters it: generated whole, and its inhabitants placed (fresh
    objects, handed to one game only: the game changes them as it is played)."""

    floor: Floor
    monsters: list[Monster]
    items: dict[tuple[int, int], str]
    #: the treasure's choice groups: item cell → group (see ``creatures.populate``)
    choices: dict[tuple[int, int], int] = field(default_factory=dict)


def make_floor(seed: int, number: int, last: bool) -> Arrival:
    """Floor ``number`` of world ``seed`` and its inhabitants (what the stairs lead to); a
    module function so that a worker process can be sent it by name."""
    fl = generate_floor(seed, number, last=last)
    monsters, items, choices = populate(fl)
    return Arrival(fl, monsters, items, choices)


def start_worker(kind: WorkerKind = "process") -> Executor:
    """An executor of one worker for :class:`FloorCache`: a fresh process (``spawn``: nothing
    of this process, such as a screen's threads, is copied into it), or a thread."""
    if kind == "thread":
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="next floor")
    if kind == "process":
        _start_resource_tracker()
        return ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_quiet_and_humble,
        )
    raise ValueError(f"unknown worker kind {kind!r}: process or thread")


def _quiet_and_humble() -> None:
    """Set up a worker process: it writes nothing to the terminal the game is drawn on (a
    failure comes back with its future, and the floor is then made in the game's process,
    where it is reported) and it yields the processor to the game (a lower priority, where
    the system has them)."""
    null = open(os.devnull, "w")  # noqa: SIM115 - the worker's streams for its whole life
    for fd in (1, 2):  # what a library writes below Python too
        with contextlib.suppress(OSError):
            os.dup2(null.fileno(), fd)
    sys.stdout = sys.stderr = null
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(10)


def _start_resource_tracker() -> None:
    """Start the helper process that every spawned process reports to, with the real error
    stream: a full-screen app (Textual) replaces ``sys.stderr`` with an object whose file
    number is not a real one, and the helper, started on the first spawn, would be refused it
    ("bad value(s) in fds_to_keep"). Once it runs, later spawns never ask for the stream."""
    real = sys.__stderr__
    if real is None:  # no error stream at all (a windowed interpreter): hand it the null device
        with open(os.devnull, "w") as null, contextlib.redirect_stderr(null):
            resource_tracker.ensure_running()
        return
    with contextlib.redirect_stderr(real):
        resource_tracker.ensure_running()


class FloorCache:
    """Floors generated ahead by ``executor`` (see the module). Safe to use from several
    threads; :meth:`close` ends the work (and the executor, if the cache owns it)."""

    def __init__(
        self,
        executor: Executor,
        *,
        owns: bool = True,
        make: Callable[[int, int, bool], Arrival] = make_floor,
    ) -> None:
        """``owns``: :meth:`close` shuts ``executor`` down too. ``make``: how a floor is made,
        here and in the worker (a module function for a process)."""
        self._executor = executor
        self._owns = owns
        self._make = make
        self._pending: dict[FloorKey, Future[Arrival]] = {}
        self._lock = threading.Lock()
        self.closed = False
        #: floors generated on the spot, in the caller's thread (none asked for, or a worker
        #: that failed): what a descent had to wait a whole generation for
        self.made_here = 0

    def __repr__(self) -> str:
        return f"FloorCache({sorted(self._pending)}, closed={self.closed})"

    def __deepcopy__(self, memo: dict[int, object]) -> FloorCache:
        # a copied game state (the replay viewer keeps snapshots) shares the cache: what it
        # holds is a pure function of its keys, so sharing can never change a floor
        return self

    def prepare(self, seed: int, number: int, last: bool) -> None:
        """Start generating that floor in the background (nothing if it is under way, done
        and not yet taken, or the cache is closed)."""
        key = (seed, number, last)
        with self._lock:
            if self.closed or key in self._pending:
                return
            try:
                self._pending[key] = self._executor.submit(self._make, *key)
            except RuntimeError:  # the executor was shut down or broke: floors come on demand
                return

    def ready(self, seed: int, number: int, last: bool) -> bool:
        """True when taking that floor now would not wait: it is done, or was never asked for
        (then it is generated on the spot, as without a cache)."""
        with self._lock:
            future = self._pending.get((seed, number, last))
        return future is None or future.done()

    def pending(self) -> list[FloorKey]:
        """The floors asked for and not yet taken, in order."""
        with self._lock:
            return sorted(self._pending)

    def floor(self, seed: int, number: int, last: bool) -> Arrival:
        """That floor and its inhabitants: the ones prepared (waiting for them if they are
        still being made), else made here. A worker that failed (its process killed) costs a
        generation here, never a different floor."""
        with self._lock:
            future = self._pending.pop((seed, number, last), None)
        if future is not None and not future.cancelled():
            try:
                return future.result()
            except Exception:  # noqa: BLE001 - the worker's trouble: the floor is made here
                pass
        self.made_here += 1
        return self._make(seed, number, last)

    def discard(self, keep: Callable[[FloorKey], bool]) -> None:
        """Forget the floors for which ``keep`` is false (cancelling them if not started)."""
        with self._lock:
            gone = [k for k in self._pending if not keep(k)]
            futures = [self._pending.pop(k) for k in gone]
        for future in futures:
            future.cancel()

    def close(self) -> None:
        """Stop: cancel what has not started, forget every floor and, if the cache owns its
        executor, shut it down without waiting: a worker process still making a floor is
        ended (a floor half made is of no use), so that leaving a game or the program never
        waits for the generator."""
        with self._lock:
            self.closed = True
            futures = list(self._pending.values())
            self._pending.clear()
        for future in futures:
            future.cancel()
        if self._owns:
            # the pool forgets its processes when shut down: note them first (the standard
            # library offers no other way to end a busy worker before Python 3.14)
            processes = list((getattr(self._executor, "_processes", None) or {}).values())
            self._executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()

    def __enter__(self) -> FloorCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
