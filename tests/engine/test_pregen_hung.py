"""A floor worker that never answers (issue 24, case 3): the stairs wait for it at most the
cache's deadline, then the same floor is made in the game's own process and the worker is
given up; a stopped worker process is ended with the cache, and with the game when the game
itself is killed.

The fast tests use an executor whose futures never complete; the slow ones a real worker
process stopped with SIGSTOP (reproducing the hang: before, the stairs waited for ever, and
closing sent a SIGTERM the stopped worker never acted on)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pytest

from roguelike import seeds
from roguelike.engine.pregen import FloorCache, make_floor, start_worker
from roguelike.gen.pipeline import generate_floor
from tests.engine.pregen_support import ends_within, pid_gone
from tests.saves.support import assert_same

SEED = seeds.text_seed("hung worker")
ROOT = Path(__file__).resolve().parents[2]


class Hung(Executor):
    """An executor that takes every floor and never makes one."""

    def __init__(self) -> None:
        self.submitted = 0
        self.shut = False

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.submitted += 1
        return Future()  # never set: a worker stopped for ever

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.shut = True


class Counting:
    """``make_floor`` counting the floors made, and in which thread."""

    def __init__(self) -> None:
        self.threads: list[str] = []

    def __call__(self, seed: int, number: int, last: bool):
        self.threads.append(threading.current_thread().name)
        return make_floor(seed, number, last)


def test_a_worker_that_never_answers_costs_the_deadline_then_the_same_floor_made_here():
    hung, make = Hung(), Counting()
    cache = FloorCache(hung, make=make, deadline=0.1)
    cache.prepare(SEED, 2, False)
    assert not cache.ready(SEED, 2, False)
    told: list[bool] = []
    assert cache.wait(SEED, 2, False, making=lambda: told.append(True))
    assert told == [True] and cache.made_here == 1 and cache.gave_up is not None
    assert hung.shut  # the worker given up is ended
    assert cache.ready(SEED, 2, False)  # the screen takes the stairs at once now
    made = cache.floor(SEED, 2, False)
    assert make.threads == [threading.current_thread().name]  # made once, here
    assert_same(generate_floor(SEED, 2), made.floor)
    cache.prepare(SEED, 3, True)  # later floors: a thread of the game makes them ahead
    assert cache.wait(SEED, 3, True) and hung.submitted == 1
    assert make.threads[-1].startswith("next floor")
    cache.close()


def test_taking_a_floor_never_waits_for_ever_either():
    make = Counting()
    cache = FloorCache(Hung(), make=make, deadline=0.1)
    cache.prepare(SEED, 2, False)
    made = cache.floor(SEED, 2, False)  # the engine's own take, without a wait first
    assert cache.made_here == 1 and cache.gave_up is not None
    assert_same(generate_floor(SEED, 2), made.floor)
    cache.close()


def test_a_wait_stops_when_told_or_when_the_cache_closes():
    cache = FloorCache(Hung(), make=Counting(), deadline=60)
    cache.prepare(SEED, 2, False)
    assert not cache.wait(SEED, 2, False, stopped=lambda: True)
    closer = threading.Timer(0.1, cache.close)
    closer.start()
    assert not cache.wait(SEED, 2, False)  # returns once closed, long before the deadline
    closer.join()
    assert cache.made_here == 0


def _stopped_worker(cache: FloorCache):
    cache.prepare(SEED, 2, False)
    processes = list(cache._executor._processes.values())  # type: ignore[attr-defined]  # noqa: SLF001
    assert len(processes) == 1
    os.kill(processes[0].pid, signal.SIGSTOP)  # before it has even loaded the generator
    return processes[0]


pytestmark_posix = pytest.mark.skipif(os.name != "posix", reason="SIGSTOP is POSIX")


@pytest.mark.slow
@pytestmark_posix
def test_a_stopped_worker_process_costs_the_deadline_and_is_killed():
    cache = FloorCache(start_worker("process"), deadline=1.0)
    process = _stopped_worker(cache)
    try:
        assert cache.wait(SEED, 2, False)
        assert cache.made_here == 1 and cache.gave_up is not None
        assert ends_within(process, 30.0), "the stopped worker was left behind"
        assert_same(generate_floor(SEED, 2), cache.floor(SEED, 2, False).floor)
    finally:
        cache.close()


@pytest.mark.slow
@pytestmark_posix
def test_closing_ends_a_stopped_worker_process():
    cache = FloorCache(start_worker("process"))
    process = _stopped_worker(cache)
    cache.close()
    assert ends_within(process, 30.0), "a stopped worker outlived its cache"


GAME = textwrap.dedent(
    """
    import sys, time
    from roguelike.engine.pregen import FloorCache, start_worker
    cache = FloorCache(start_worker("process"))
    cache.prepare(1, 2, False)
    print(list(cache._executor._processes)[0], flush=True)
    time.sleep(600)
    """
)


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_killed_game_takes_its_stopped_worker_with_it():
    game = subprocess.Popen(
        [sys.executable, "-c", GAME], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert game.stdout is not None
        worker = int(game.stdout.readline())
        assert _tied(worker), "the worker never started"
        os.kill(worker, signal.SIGSTOP)
        game.kill()
        game.wait(30)
        assert _gone_within(worker, 30.0), f"worker {worker} outlived the killed game"
    finally:
        if game.poll() is None:
            game.kill()


def _tied(pid: int, seconds: float = 60.0) -> bool:
    """True once the worker has run its pool's initializer, which ties it to the game first
    and then lowers its priority: its nice value tells (``/proc``'s stat, field 19)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()
        except FileNotFoundError:
            return False
        if int(fields[16]) > os.getpriority(os.PRIO_PROCESS, 0):
            return True
        time.sleep(0.05)
    return False


def _gone_within(pid: int, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if pid_gone(pid):
            return True
        time.sleep(0.05)
    return False
