"""A write that fails is never silent and never loses what is saved: leaving a game whose save
fails keeps it open and held; a world is deleted only once its run is in the hall; shared
files (best scores, the hall, the options) are written under a lock with a re-read and merge;
and the game never writes a save its reader would refuse."""

from __future__ import annotations

import errno
import multiprocessing
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roguelike.engine import PickUp, step
from roguelike.engine.balance import MAX_CARRIED
from roguelike.puzzles import codes
from saves import Store
from saves import options as saved_options
from saves import store as store_module
from saves.codec import decode, encode
from saves.codec.common import MAX_BIG, MAX_PACK
from saves.errors import HallNotWritten, SaveError
from saves.hall import Hall
from saves.scores import BestScores
from saves.session import SESSION_ERRORS, Games, failure_reason
from saves.world import World
from tests.saves.support import fresh_game, world_of


def full_disk(*args: object, **kwargs: object) -> None:
    raise OSError(errno.ENOSPC, "No space left on device", "world.rgl")


def small(name: str, **kw: object) -> World:
    return World.new(name, "write-fail", preset="small", **kw)  # type: ignore[arg-type]


def play(session, turns: int = 3) -> None:
    from roguelike.engine import Search

    for _ in range(turns):
        session.step(Search())


# --- case 1: leaving with a save that fails ------------------------------------------------


def test_a_failed_save_on_leaving_keeps_the_game_open_and_held(tmp_path, monkeypatch):
    games = Games(Store(tmp_path))
    session = games.new(small("Full Disk"))
    play(session)
    turn = session.state.turn
    write = store_module.write_atomic
    monkeypatch.setattr(store_module, "write_atomic", full_disk)
    with pytest.raises(OSError, match="No space left"):
        session.save_and_quit()
    assert session.open  # still held: another game cannot take it, the player can retry
    assert Store(tmp_path).info("Full Disk").turn == 0  # the disk holds the earlier save
    monkeypatch.setattr(store_module, "write_atomic", write)  # space freed: the retry saves
    assert session.save_and_quit() is False
    assert not session.open
    assert Store(tmp_path).info("Full Disk").turn == turn


def test_a_failure_is_told_in_the_players_words_not_pythons():
    """What the leave question and the notes say: the reason (and file), not ``[Errno 28]``."""
    assert failure_reason(OSError(errno.ENOSPC, "No space left on device")) == (
        "No space left on device"
    )
    assert failure_reason(OSError(errno.EROFS, "Read-only file system", "a.rgl")) == (
        "Read-only file system (a.rgl)"
    )
    assert failure_reason(SaveError("state.hp: 5 is outside 0..4")) == "state.hp: 5 is outside 0..4"


# --- case 2: a world deleted only once its run is in the hall ------------------------------


def block_the_hall(folder: Path) -> None:
    """A regular file named ``runs`` where the hall's folder should be."""
    (folder / "runs").write_text("not a folder")


def test_a_permadeath_world_is_kept_when_its_run_cannot_reach_the_hall(tmp_path):
    games = Games(Store(tmp_path))
    session = games.new(small("Hardcore", permadeath=True))
    play(session)
    block_the_hall(tmp_path)
    session.state.dead = True
    assert session.perishes
    with pytest.raises(HallNotWritten, match="hall of runs.*the world is kept"):
        session.end_run()
    assert Store(tmp_path).exists("Hardcore")  # its run is not lost
    assert Store(tmp_path).info("Hardcore").dead  # saved as it ended
    (tmp_path / "runs").unlink()  # the hall is writable again: the end goes through
    assert session.end_run() is True
    assert not Store(tmp_path).exists("Hardcore")
    assert [r.world for r in Hall(tmp_path).runs()] == ["Hardcore"]


def test_abandoning_a_world_whose_run_cannot_be_kept_raises(tmp_path):
    games = Games(Store(tmp_path))
    session = games.new(small("Given Up"))
    play(session)
    session.save_and_quit()
    block_the_hall(tmp_path)
    with pytest.raises(HallNotWritten):
        games.abandon("Given Up")


def test_keep_run_never_stores_its_failure_where_nothing_reads_it(tmp_path):
    session = Games(Store(tmp_path)).new(small("Quiet"))
    play(session)
    block_the_hall(tmp_path)
    with pytest.raises(HallNotWritten):
        session.keep_run(abandoned=True)
    assert session.save_error is None and session.kept is None
    session.quit()


# --- case 7: shared files under a lock ------------------------------------------------------


def _writer(folder: str, first: int, count: int, barrier) -> None:
    best = BestScores(folder)
    barrier.wait()
    for n in range(first, first + count):
        best.record(codes.encode("jugs", "easy", n), 1 + n % 100)


@pytest.mark.slow
def test_two_processes_keeping_scores_at_once_lose_none(tmp_path):
    per = 60
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(2)
    procs = [
        ctx.Process(target=_writer, args=(str(tmp_path), n * per, per, barrier)) for n in (0, 1)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0]
    kept = BestScores(tmp_path).read()
    assert len(kept) == 2 * per  # before the lock about half were lost


def test_options_saved_by_two_games_keep_both_changes(tmp_path):
    path = tmp_path / "options.json"
    base = saved_options.Options()
    saved_options.save(saved_options.Options(theme="mono"), path, base=base)  # game A
    # game B read the defaults before A saved, and rebinds a key
    saved_options.save(saved_options.Options(keys={"game.explore": "E"}), path, base=base)
    assert saved_options.load(path) == (
        saved_options.Options(theme="mono", keys={"game.explore": "E"}),
        None,
    )


# --- case 10: every number the game writes, it reads back ----------------------------------


def test_the_pack_is_capped_when_an_item_is_taken():
    state = fresh_game()
    kind = "healing potion"
    state.inventory[kind] = MAX_CARRIED
    state.items_lying[state.player] = kind
    turn = state.turn
    events = step(state, PickUp())
    assert any("cannot carry more" in str(getattr(e, "text", "")) for e in events), events
    assert state.inventory[kind] == MAX_CARRIED and state.items_lying[state.player] == kind
    assert state.turn == turn  # nothing taken: no turn spent
    assert MAX_PACK == MAX_CARRIED  # the reader's bound is the engine's cap


def test_a_save_its_reader_would_refuse_is_never_written(tmp_path):
    store = Store(tmp_path)
    state = fresh_game()
    world = world_of(state)
    store.save(state, world)
    before = store.file(world.name).read_bytes()
    state.inventory["healing potion"] = MAX_PACK + 1
    with pytest.raises(SaveError, match="healing potion"):
        store.save(state, world)
    assert store.file(world.name).read_bytes() == before  # the last good save stands
    assert isinstance(SaveError("x"), SESSION_ERRORS)  # a session reports it like any failure


#: Every bounded number of the state that play changes: (attribute, reader's low, high).
BOUNDED = (
    ("hint_coins", 0, MAX_PACK),
    ("max_hp", 1, MAX_BIG),
    ("hp", None, MAX_BIG),
    ("defence", 0, MAX_BIG),
    ("level", 1, MAX_BIG),
    ("xp", 0, MAX_BIG),
    ("turn", 0, 10**9),
    ("regen_clock", 0, MAX_BIG),
)
_STATE = fresh_game()
_WORLD = world_of(_STATE)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    field=st.sampled_from([b[0] for b in BOUNDED] + ["pack"]),
    value=st.integers(-3, 3)
    | st.integers(MAX_PACK - 2, MAX_PACK + 2)
    | st.integers(MAX_BIG - 2, MAX_BIG + 2)
    | st.integers(-(2**64), 2**64),
)
def test_any_state_the_writer_accepts_the_reader_reads_back(field, value):
    state = fresh_game()
    if field == "pack":
        state.inventory["healing potion"] = value
    else:
        setattr(state, field, value)
    try:
        data = encode(_WORLD, state)
    except SaveError:
        return  # refused before writing: fine
    loaded = decode(data)  # never a save it would refuse
    if field == "pack":
        assert loaded.state.inventory["healing potion"] == value
    else:
        assert getattr(loaded.state, field) == value
