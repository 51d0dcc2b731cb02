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

No wait is for ever. :meth:`FloorCache.wait` (for a thread other than a screen's: the game
screen runs it in a worker thread, showing "…") waits for the worker at most
:data:`WAIT_LIMIT` seconds, then makes the floor in the game's own process: the same floor,
since it is a pure function of its key. A worker that missed its deadline (stopped, say, by
SIGSTOP) or failed is not trusted again: it is killed and a thread of the game makes the
floors ahead from then on. A worker process is ended with the game whatever its state:
:meth:`FloorCache.close` kills it (SIGKILL, which ends a stopped process too on every
system), and if the game itself is killed, on Linux the kernel kills
the worker with it (``PR_SET_PDEATHSIG``); elsewhere a thread of the worker ends it once its
parent is gone (a stopped worker then ends only when continued).

The cache reads a clock only to bound a wait, and never changes what it is given: which
executor runs the work changes when a floor is ready, never what it is.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import (
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from dataclasses import dataclass, field
from multiprocessing import resource_tracker
from typing import Literal

from roguelike.engine.creatures import Monster, populate
from roguelike.gen.floor import Floor
from roguelike.gen.pipeline import generate_floor
from roguelike.lifeline import quiet_and_humble

__all__ = [
    "WAIT_LIMIT",
    "Arrival",
    "FloorCache",
    "FloorKey",
    "WorkerKind",
    "make_floor",
    "start_worker",
]

#: One floor of one world: (seed, number, last: it has the exit).
FloorKey = tuple[int, int, bool]
WorkerKind = Literal["process", "thread"]

#: The longest the stairs wait for the worker's floor, in seconds, before making it here (a
#: floor takes well under a second; a worker this late is stuck, or the machine is).
WAIT_LIMIT = 5.0
#: How often a wait looks whether it was stopped, in seconds.
WAIT_SLICE = 0.05


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
            initializer=quiet_and_humble,
            initargs=(os.getpid(),),
        )
    raise ValueError(f"unknown worker kind {kind!r}: process or thread")


def _kill(executor: Executor) -> None:
    """Shut ``executor`` down without waiting; a process pool's processes are killed (the
    pool forgets them when shut down: they are noted first, as the standard library offers
    no other way to end a busy worker before Python 3.14). SIGKILL, not SIGTERM: it ends a
    process in any state on every system (some hold a stopped process's SIGTERM until it is
    continued), and a worker has nothing to tidy."""
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(OSError, ValueError):  # already gone, or already closed
            process.kill()


def _good(future: Future[Arrival]) -> bool:
    """The future holds its floor (done, neither cancelled nor failed)."""
    return future.done() and not future.cancelled() and future.exception() is None


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
        deadline: float = WAIT_LIMIT,
    ) -> None:
        """``owns``: :meth:`close` shuts ``executor`` down too. ``make``: how a floor is made,
        here and in the worker (a module function for a process). ``deadline``: the longest
        :meth:`wait` waits for the worker, in seconds."""
        self.deadline = deadline
        self._executor = executor
        self._owns = owns
        self._make = make
        self._pending: dict[FloorKey, Future[Arrival]] = {}
        self._lock = threading.Lock()
        self.closed = False
        #: floors generated on the spot, in the caller's thread (none asked for, or a worker
        #: that failed or missed its deadline): what a descent had to wait a generation for
        self.made_here = 0
        #: why the worker was given up (a thread of the game makes the floors since), or None
        self.gave_up: str | None = None

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
            except RuntimeError:  # the worker broke (its process killed): a thread makes it
                self._give_up("the worker stopped taking work")
                self._pending[key] = self._executor.submit(self._make, *key)

    def ready(self, seed: int, number: int, last: bool) -> bool:
        """True when taking that floor now would not wait: it is done (and did not fail), or
        was never asked for (then it is generated on the spot, as without a cache)."""
        with self._lock:
            future = self._pending.get((seed, number, last))
        return future is None or _good(future)

    def wait(
        self,
        seed: int,
        number: int,
        last: bool,
        *,
        deadline: float | None = None,
        stopped: Callable[[], bool] = lambda: False,
        making: Callable[[], None] | None = None,
    ) -> bool:
        """Block until that floor can be taken without waiting: the worker's, if it comes
        within ``deadline`` seconds (None: the cache's), else made here, in the caller's thread
        (a screen calls this from a worker thread, never its own), ``making()`` being told
        first; the worker is then given up (see the module). False, at once, if the cache was
        closed or ``stopped()`` became true (looked at every :data:`WAIT_SLICE` seconds)."""
        key = (seed, number, last)
        deadline = self.deadline if deadline is None else deadline
        end = time.monotonic() + deadline
        while True:
            with self._lock:
                if self.closed:
                    return False
                future = self._pending.get(key)
            if future is None:
                return True  # never asked for (or taken): the stairs make it, as without a cache
            if _good(future):
                return True
            # a thread of the game (the worker given up) is never stuck: no deadline for it
            trusted = self.gave_up is None
            while not future.done() and (not trusted or end - time.monotonic() > 0):
                if stopped() or self.closed:
                    return False
                left = end - time.monotonic() if trusted else WAIT_SLICE
                with contextlib.suppress(Exception):  # late, cancelled or failed: seen below
                    future.result(timeout=max(0.0, min(WAIT_SLICE, left)))
            if stopped():
                return False
            with self._lock:
                if self.closed:
                    return False
                if self._pending.get(key) is not future:
                    continue  # replaced meanwhile (the worker given up): wait for the new one
                if _good(future):
                    return True
                why = "it failed" if future.done() else f"it took over {deadline:g} s"
                # made here, below, not by the new thread; not ready until then
                made: Future[Arrival] = Future()
                self._pending[key] = made
                self._give_up(f"the worker's floor {number}: {why}", skip=key)
            break
        if making is not None:
            making()
        made.set_result(self._make(*key))
        with self._lock:
            self.made_here += 1
        return not self.closed

    def _give_up(self, why: str, skip: FloorKey | None = None) -> None:
        """Stop trusting the worker (the lock held): kill it, and have a thread of the game
        make the floors from now on, the ones asked for and not yet done first (but
        ``skip``, made by the caller)."""
        if self.gave_up is not None or self.closed:
            return
        self.gave_up = why
        old, owned = self._executor, self._owns
        self._executor, self._owns = ThreadPoolExecutor(1, thread_name_prefix="next floor"), True
        if owned:
            _kill(old)
        for key, future in list(self._pending.items()):
            if key != skip and not _good(future):
                self._pending[key] = self._executor.submit(self._make, *key)

    def pending(self) -> list[FloorKey]:
        """The floors asked for and not yet taken, in order."""
        with self._lock:
            return sorted(self._pending)

    def floor(
        self, seed: int, number: int, last: bool, *, deadline: float | None = None
    ) -> Arrival:
        """That floor and its inhabitants: the ones prepared (waiting for them at most
        ``deadline`` seconds if they are still being made), else made here. A worker that
        failed (its process killed) or missed the deadline (and is given up) costs a
        generation here, never a different floor. A screen calls :meth:`wait` first, in a
        thread of its own, so that this never waits."""
        with self._lock:
            future = self._pending.pop((seed, number, last), None)
        if future is not None and not future.cancelled():
            try:
                # never for ever: then made here
                return future.result(timeout=self.deadline if deadline is None else deadline)
            except Exception:  # noqa: BLE001 - the worker's trouble: the floor is made here
                if not future.done():
                    with self._lock:
                        self._give_up(f"the worker's floor {number}: it took too long")
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
        killed (a floor half made is of no use), so that leaving a game or the program never
        waits for the generator, whatever state the worker is in (stopped, too)."""
        with self._lock:
            self.closed = True
            futures = list(self._pending.values())
            self._pending.clear()
        for future in futures:
            future.cancel()
        if self._owns:
            _kill(self._executor)

    def __enter__(self) -> FloorCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
