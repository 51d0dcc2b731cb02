"""The floor cache (:mod:`roguelike.engine.pregen`): a floor made ahead, in a thread or a
process, is the floor the stairs would have generated; the stairs take it without generating
again, wait for it when it is not done, and closing the cache never waits on the worker."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from roguelike import seeds
from roguelike.engine import new_game
from roguelike.engine.creatures import inhabit
from roguelike.engine.pregen import FloorCache, make_floor, start_worker
from roguelike.gen.pipeline import generate_floor
from tests.engine.pregen_support import ends_within
from tests.saves.support import assert_same

SEEDS = [seeds.text_seed(text) for text in ("pregen a", "pregen b", "pregen c")]


class Spy:
    """``make_floor`` counting its calls (by floor), optionally held until ``go`` is set."""

    def __init__(self, *, held: bool = False) -> None:
        self.calls: list[tuple[int, int, bool]] = []
        self.go = threading.Event()
        if not held:
            self.go.set()

    def __call__(self, seed: int, number: int, last: bool):
        self.calls.append((seed, number, last))
        assert self.go.wait(timeout=60), "the test never let the worker go"
        return make_floor(seed, number, last)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_floor_made_in_a_thread_is_the_floor_made_on_demand(seed):
    with FloorCache(start_worker("thread")) as cache:
        for number, last in ((2, False), (3, True)):
            cache.prepare(seed, number, last)
        for number, last in ((2, False), (3, True)):
            expected = generate_floor(seed, number, last=last)
            made = cache.floor(seed, number, last)
            assert_same(expected, made.floor)
            assert_same(inhabit(expected), (made.monsters, made.items))
        assert cache.made_here == 0 and cache.pending() == []


def test_a_floor_made_in_a_worker_process_is_the_floor_made_on_demand():
    seed = SEEDS[0]
    with FloorCache(start_worker("process")) as cache:
        cache.prepare(seed, 2, False)
        made = cache.floor(seed, 2, False, deadline=120)  # a cold start on a busy machine
        assert cache.made_here == 0  # it came back from the worker
    expected = generate_floor(seed, 2)
    assert_same(expected, made.floor)
    assert_same(inhabit(expected), (made.monsters, made.items))


def test_the_stairs_take_the_prepared_floor_without_generating_it_again(monkeypatch):
    on_demand: list[int] = []
    monkeypatch.setattr(
        "roguelike.engine.state.generate_floor",
        lambda seed, n, **kw: on_demand.append(n) or generate_floor(seed, n, **kw),
    )
    state = new_game(SEEDS[1], preset="small")
    on_demand.clear()  # the first floor is the game's own
    spy = Spy()
    state.floors = FloorCache(ThreadPoolExecutor(1), make=spy)
    key = state.next_floor()
    assert key == (SEEDS[1], 2, False)
    state.floors.prepare(*key)
    state.floors.prepare(*key)  # asked twice, made once
    state.enter_floor(2)
    assert state.number == 2
    assert spy.calls == [key] and on_demand == [] and state.floors.made_here == 0
    plain = new_game(SEEDS[1], preset="small")  # the same game, its floor made on demand
    plain.enter_floor(2)
    assert_same(plain, state, skip=frozenset({"state.floors"}))
    state.floors.close()


def test_a_descent_before_the_floor_is_done_waits_for_it_and_gets_the_same_floor():
    seed = SEEDS[2]
    spy = Spy(held=True)
    state = new_game(seed, preset="small")
    state.floors = FloorCache(ThreadPoolExecutor(1), make=spy)
    state.floors.prepare(seed, 2, False)
    assert not state.floors.ready(seed, 2, False)
    threading.Timer(0.05, spy.go.set).start()  # the worker finishes while the stairs wait
    state.enter_floor(2)
    assert spy.calls == [(seed, 2, False)] and state.floors.made_here == 0
    assert_same(generate_floor(seed, 2), state.floor)
    assert state.floors.ready(seed, 2, False)  # taken: nothing left to wait for
    state.floors.close()


def test_a_floor_never_asked_for_is_made_on_the_spot():
    spy = Spy()
    with FloorCache(ThreadPoolExecutor(1), make=spy) as cache:
        assert cache.ready(SEEDS[0], 2, False)
        cache.floor(SEEDS[0], 2, False)
        assert cache.made_here == 1 and spy.calls == [(SEEDS[0], 2, False)]


def test_a_failing_worker_costs_a_generation_here_never_a_different_floor():
    calls: list[str] = []

    def broken(seed: int, number: int, last: bool):
        calls.append(threading.current_thread().name)
        if len(calls) == 1:
            raise RuntimeError("the worker died")
        return make_floor(seed, number, last)

    with FloorCache(ThreadPoolExecutor(1), make=broken) as cache:
        cache.prepare(SEEDS[0], 2, False)
        made = cache.floor(SEEDS[0], 2, False)
        assert cache.made_here == 1 and len(calls) == 2
    assert_same(generate_floor(SEEDS[0], 2), made.floor)


def test_closing_cancels_what_waits_and_does_not_wait_for_a_busy_worker():
    spy = Spy(held=True)
    executor = ThreadPoolExecutor(1)
    cache = FloorCache(executor, make=spy)
    cache.prepare(SEEDS[0], 2, False)
    cache.prepare(SEEDS[0], 3, True)
    cache.close()  # returns although the worker is held: nothing waits for it
    assert cache.closed and cache.pending() == []
    cache.prepare(SEEDS[0], 4, False)  # a closed cache takes no more work
    assert cache.pending() == []
    spy.go.set()
    executor.shutdown(wait=True)
    assert (SEEDS[0], 3, True) not in spy.calls  # cancelled before it started


def test_closing_ends_a_busy_worker_process():
    cache = FloorCache(start_worker("process"))
    cache.prepare(SEEDS[0], 3, True)
    processes = list(cache._executor._processes.values())  # type: ignore[attr-defined]
    assert processes
    cache.close()
    for process in processes:
        assert ends_within(process, 30.0), f"worker {process.pid} still runs"


def test_a_copied_game_shares_its_cache():
    import copy

    state = new_game(SEEDS[0], preset="small")
    with FloorCache(ThreadPoolExecutor(1)) as cache:
        state.floors = cache
        assert copy.deepcopy(state).floors is cache


def test_the_next_floor_is_named_until_the_last():
    state = new_game(SEEDS[0], preset="small")
    assert state.next_floor() == (SEEDS[0], 2, False)
    state.enter_floor(2)
    assert state.next_floor() == (SEEDS[0], 3, True)
    state.enter_floor(3)
    assert state.next_floor() is None


def test_an_unknown_worker_kind_is_refused():
    with pytest.raises(ValueError, match="unknown worker kind"):
        start_worker("fibre")  # type: ignore[arg-type]
