"""The game session without any screen: new, step, save, load, continue, watch and take over,
permadeath at the end of a run, and the lock held for the session's life."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest

from roguelike import seeds
from roguelike.engine import Descend, GameState, Move, new_game
from saves import NotSaved, Store, World, WorldLocked, world_name_for
from saves.session import Games, Session

SEED = seeds.read_stored("N65Q-QBJ0-23PV")


def quiet_game(world: World) -> GameState:
    return new_game(
        world.seed, preset=world.preset, world_name=world.name, monsters=False, puzzles=False
    )


@pytest.fixture
def games(tmp_path) -> Games:
    return Games(Store(tmp_path / "worlds"), make_game=quiet_game)


def small(name: str = "Test Keep", *, permadeath: bool = False) -> World:
    return World(name, SEED, "small", permadeath)


def walk(session: Session, steps: int = 4) -> None:
    """A few moves in whatever directions are open."""
    for _ in range(steps):
        for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            turn = session.state.turn
            session.step(Move(dx, dy))
            if session.state.turn > turn:
                break


def descend(session: Session) -> None:
    fl = session.state.floor
    session.state.player = fl.finish
    session.step(Descend())
    assert session.state.number == 2


def test_sessions_do_not_import_textual():
    code = (
        "import sys, saves.session; "
        "sys.exit(any(m.split('.')[0] == 'textual' for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_a_new_game_is_saved_at_once_and_locked(games):
    session = games.new(small())
    assert session.open and not session.watching
    assert games.store.info("Test Keep").turn == 0
    with pytest.raises(WorldLocked):
        Store(games.store.path).lock("Test Keep")  # another game is refused
    session.quit()
    assert not session.open
    Store(games.store.path).lock("Test Keep").release()  # free again


def test_the_session_is_a_context_that_releases_its_world(games):
    with games.new(small()) as session:
        assert session.open
    assert not session.open
    assert not list(games.store.path.glob("*.lock"))


def test_step_save_quit_then_load_resumes_exactly(games):
    session = games.new(small())
    walk(session)
    state = session.state
    assert state.turn > 0
    where, turn, rng = state.player, state.turn, state.rng.bit_generator.state
    session.save_and_quit()
    assert not session.open and games.store.info("Test Keep").turn == turn

    with games.load("Test Keep") as loaded:
        assert loaded.open
        got = loaded.state
        assert (got.player, got.turn, got.rng.bit_generator.state) == (where, turn, rng)
        assert loaded.world == session.world


def test_a_new_floor_is_remembered_and_autosaved(games):
    with games.new(small()) as session:
        descend(session)
        assert [v.number for v in session.visited] == [1]
        assert session.save_error is None
        info = games.store.info("Test Keep")
        assert info.floor == 2
        _, _, visited = games.store.load("Test Keep")
        assert [v.number for v in visited] == [1]


def test_a_failed_autosave_is_reported_and_play_goes_on(games):
    with games.new(small()) as session:
        session.world = replace(session.world, seed=SEED + 1)  # the save refuses the mismatch
        descend(session)
        assert session.save_error is not None and "world" in session.save_error
        assert games.store.info("Test Keep").floor == 1
        walk(session, 1)  # reported once, for the step whose autosave failed
        assert session.save_error is None


def test_continue_resumes_the_latest_unfinished_world(games):
    assert games.resume() is None
    for name in ("Older Keep", "Newer Keep"):
        games.new(small(name)).save_and_quit()
    with games.resume() as session:  # type: ignore[union-attr]
        assert session.world.name == "Newer Keep"
        session.state.dead = True
        session.state.hp = 0
        assert not session.end_run()
    with games.resume() as session:  # type: ignore[union-attr]
        assert session.world.name == "Older Keep"  # a finished run is not resumed


def test_names_taken_are_refused_with_a_free_one(games):
    assert games.name_problem("Fresh Keep") is None
    games.new(small("Taken Keep")).quit()
    problem = games.name_problem("taken keep")
    assert problem is not None and "already exists" in problem and "'taken keep 2'" in problem
    assert games.free_name("Taken Keep") == "Taken Keep 2"
    assert "empty" in (games.name_problem("   ") or "")
    assert games.world_for(SEED, "small").name == world_name_for(SEED)
    assert games.world_for(SEED, "small", "Taken Keep").name == "Taken Keep 2"


def test_a_game_that_cannot_be_saved_is_not_started_and_not_locked(tmp_path):
    games = Games(Store(tmp_path), make_game=lambda w: quiet_game(replace(w, seed=SEED + 1)))
    with pytest.raises(NotSaved, match="could not be saved"):
        games.new(small())
    assert not list(tmp_path.glob("*.lock")) and not games.store.exists("Test Keep")


def test_a_watched_game_is_written_only_when_taken_over(games):
    session = games.watch(SEED, "small")
    assert session.watching and not session.open
    assert session.world.name == world_name_for(SEED)
    walk(session)
    descend(session)  # no autosave while watching
    assert [v.number for v in session.visited] == [1]
    assert games.store.list() == []
    assert session.save() is None

    # its own name is taken: the next free one, as a new game's would be
    games.new(World(world_name_for(SEED), 1, "small")).quit()
    world = session.take_over()
    assert world.name == f"{world_name_for(SEED)} 2" and session.state.world_name == world.name
    assert session.open and not session.watching
    info = games.store.info(world.name)
    assert (info.turn, info.floor) == (session.state.turn, 2)
    assert session.take_over() is world  # once only
    session.quit()


def test_a_watched_game_that_ends_leaves_nothing(games):
    session = games.watch(SEED, "small")
    session.state.dead = True
    assert not session.end_run()
    assert games.store.list() == []


@pytest.mark.parametrize("permadeath", [True, False])
def test_death_deletes_a_permadeath_world_and_saves_any_other(games, permadeath):
    session = games.new(small(permadeath=permadeath))
    session.state.hp = 0
    session.state.dead = True
    assert session.ended and session.perishes == permadeath
    assert session.end_run() == permadeath
    assert not session.open
    assert games.store.exists("Test Keep") != permadeath
    if not permadeath:
        assert games.store.info("Test Keep").dead


def test_save_and_quit_at_the_end_of_a_run_ends_it(games):
    session = games.new(small(permadeath=True))
    session.state.dead = True
    session.save_and_quit()
    assert not games.store.exists("Test Keep") and not session.open
