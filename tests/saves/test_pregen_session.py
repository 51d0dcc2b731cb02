"""A session that makes the next floor ahead (``Games(pregenerate=…)``): it asks for the floor
below on every floor it arrives on, the stairs take that floor without generating it again,
the floor made ahead is never saved, and releasing the session ends its worker."""

from __future__ import annotations

import threading

import pytest

import roguelike.engine.pregen
import roguelike.engine.state
from roguelike import seeds
from roguelike.engine import Descend, GameState, Move, new_game
from roguelike.gen.pipeline import generate_floor
from saves import Store, World
from saves.session import Games, Session
from tests.saves.support import assert_same

SEED = seeds.text_seed("pregen session")


def quiet_game(world: World) -> GameState:
    return new_game(
        world.seed, preset=world.preset, world_name=world.name, monsters=False, puzzles=False
    )


class Counted:
    """Counts the floors generated, in the worker (``ahead``) and at the stairs (``here``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.ahead: list[int] = []
        self.here: list[int] = []

        def ahead(seed, number, **kw):
            self.ahead.append(number)
            return generate_floor(seed, number, **kw)

        def here(seed, number, **kw):
            self.here.append(number)
            return generate_floor(seed, number, **kw)

        monkeypatch.setattr(roguelike.engine.pregen, "generate_floor", ahead)
        monkeypatch.setattr(roguelike.engine.state, "generate_floor", here)


@pytest.fixture
def games(tmp_path) -> Games:
    return Games(Store(tmp_path / "worlds"), make_game=quiet_game, pregenerate="thread")


def small(name: str = "Ahead") -> World:
    return World(name, SEED, "small")


def take_stairs(session: Session) -> None:
    number = session.state.number
    session.state.player = session.state.floor.finish
    assert session.state.on_stairs()
    session.step(Descend())
    assert session.state.number == number + 1


def test_a_session_descends_into_the_floor_made_ahead(games, monkeypatch):
    counted = Counted(monkeypatch)
    with games.new(small()) as session:
        cache = session.state.floors
        assert cache is not None and cache.pending() == [(SEED, 2, False)]
        take_stairs(session)
        assert_same(generate_floor(SEED, 2), session.state.floor)
        assert cache.pending() == [(SEED, 3, True)]  # and the one below is on its way
        take_stairs(session)
        assert session.state.floor.last and cache.pending() == []  # no floor below the last
        # floor 1 is the new game's own; every floor below came from the worker, once
        assert counted.ahead == [2, 3] and counted.here == [1] and cache.made_here == 0
        assert session.next_floor_ready()


def test_the_floor_made_ahead_is_not_saved(games, tmp_path):
    with games.new(small()) as session:
        session.step(Move(1, 0))
        session.save()
        assert session.state.floors is not None
    loaded = Games(Store(tmp_path / "worlds")).load("Ahead")
    with loaded:
        assert loaded.state.floors is None  # a session without a worker loads none
        assert_same(session.state, loaded.state, skip=frozenset({"state.log", "state.floors"}))


def test_a_loaded_game_makes_its_next_floor_ahead(games):
    with games.new(small()) as session:
        take_stairs(session)
        session.save()
    with games.load("Ahead") as loaded:
        assert loaded.state.number == 2
        assert loaded.state.floors is not None
        assert loaded.state.floors.pending() == [(SEED, 3, True)]


def test_releasing_the_session_ends_its_worker(games):
    session = games.new(small())
    cache = session.state.floors
    assert cache is not None
    session.quit()
    assert cache.closed and session.state.floors is None


def test_a_watched_game_makes_its_floors_ahead_too(games):
    session = games.watch(SEED, "small")
    try:
        assert session.state.floors is not None
        assert session.state.floors.pending() == [(SEED, 2, False)]
    finally:
        session.quit()


def test_the_stairs_are_ready_except_on_them_before_the_floor_is_made(games, monkeypatch):
    gate = threading.Event()
    real = roguelike.engine.pregen.generate_floor

    def held(seed, number, **kw):
        gate.wait(timeout=60)
        return real(seed, number, **kw)

    monkeypatch.setattr(roguelike.engine.pregen, "generate_floor", held)
    with games.new(small()) as session:
        assert session.next_floor_ready()  # not on the stairs: nothing would wait
        session.state.player = session.state.floor.finish
        assert not session.next_floor_ready()
        gate.set()
        take_stairs(session)  # waits for the worker, then takes its floor
        assert session.state.floors is not None and session.state.floors.made_here == 0


def test_abandoning_a_world_starts_no_worker(games, monkeypatch):
    started: list[str] = []
    monkeypatch.setattr("saves.session.start_worker", lambda kind: started.append(kind))
    Games(games.store, make_game=quiet_game).new(small("Given Up")).quit()
    games.abandon("Given Up")
    assert started == []


def test_without_pregeneration_nothing_is_made_ahead(tmp_path):
    with Games(Store(tmp_path / "w"), make_game=quiet_game).new(small()) as session:
        assert session.state.floors is None and session.next_floor_ready()
        take_stairs(session)
