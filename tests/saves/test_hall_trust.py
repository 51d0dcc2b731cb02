"""The hall lists a run only from what its own recording proves: a stranger's doctored save
(its state says "won", its recording says otherwise) never becomes a run, whether its world is
deleted, given up or played to its end; the player and the command line are told why in one
line. An honest save continued in a later session is replayed and kept.

Reproduced before the change: a save whose state was set to won (floors, kills) with its
recording's last check recomputed, imported and deleted with ``world delete --yes``, showed
"won, score 2500" at the top of ``roguelike runs``.
"""

from __future__ import annotations

import pytest

import saves.hall
import saves.session
from roguelike.engine import Wait
from saves import Store, World
from saves.hall import CHECKED_FILE, RUNS_DIR, Hall
from saves.locks import shared_lock
from saves.record import RunFileError, RunRecord, pack
from saves.session import Games
from tests.cli.support import run
from tests.saves.run_support import (
    TINY_SEED,
    WON_ID,
    forged_world,
    tiny_world_game,
    won_record,
)


def test_a_doctored_save_deleted_puts_no_run_in_the_hall_and_says_why(capsys, tmp_path):
    store = Store(tmp_path)
    forged_world(store)
    code, out, err = run(capsys, "world", "delete", "Fake", "--yes", "--save-dir", str(tmp_path))
    assert code == 0 and "deleted world 'Fake'" in out and not store.exists("Fake")
    (line,) = err.strip().splitlines()
    assert line == (
        "roguelike: warning: the run is not kept in the hall: the record's claim of outcome is "
        "false: it says 'won', its recording gives 'abandoned'"
    )
    assert Hall(tmp_path).runs() == []


def test_a_doctored_save_played_to_its_end_is_refused_once(tmp_path):
    store = Store(tmp_path)
    forged_world(store)
    games = Games(store, make_game=tiny_world_game)
    session = games.load("Fake")
    assert not session.proven and session.ended
    assert session.end_run() is False
    assert session.refused is not None and "claim of outcome is false" in session.refused
    assert session.kept is None and Hall(tmp_path).runs() == []


def test_an_honest_save_continued_later_is_replayed_and_kept(tmp_path):
    store = Store(tmp_path)
    games = Games(store, make_game=tiny_world_game)
    first = games.new(World("Honest", TINY_SEED, "small"))
    assert first.proven
    for _ in range(3):
        first.step(Wait())
    first.save()
    first.quit()
    later = games.load("Honest")
    later.step(Wait())
    kept = later.keep_run(abandoned=True)
    later.quit()
    assert kept is not None and kept.turns == 4 and later.refused is None
    assert [r.id for r in Hall(tmp_path).runs()] == [kept.id]


def test_a_run_played_from_its_start_is_kept_without_a_replay(tmp_path, monkeypatch):
    def replayed(record: RunRecord) -> None:
        raise AssertionError("a run played here from its start was replayed")

    monkeypatch.setattr(saves.session, "verify", replayed)
    session = Games(Store(tmp_path), make_game=tiny_world_game).new(
        World("Fresh", TINY_SEED, "small")
    )
    session.step(Wait())
    assert session.keep_run(abandoned=True) is not None
    session.quit()


def test_a_listing_vouches_for_what_it_replayed_under_the_halls_lock(tmp_path, monkeypatch):
    """The list of checked runs is read, merged and written under the hall's lock by a
    listing too (as by add): outside it, a listing racing a game that ends a run wrote back
    the old list and dropped the new run's checksum."""
    folder = tmp_path / RUNS_DIR
    folder.mkdir()
    (folder / f"{WON_ID}.run").write_bytes(pack(won_record()))  # dropped by hand: replayed
    held = []
    real = saves.hall.write_atomic

    def write(path, data):
        if path.name == CHECKED_FILE:
            try:
                with shared_lock(folder, wait=0):
                    held.append(False)
            except OSError:
                held.append(True)  # another open of the lock: the hall holds it
        real(path, data)

    monkeypatch.setattr(saves.hall, "write_atomic", write)
    assert [r.id for r in Hall(tmp_path).runs()] == [WON_ID]
    assert held == [True]


def test_a_record_its_reader_would_refuse_is_never_written(tmp_path):
    """pack reads back what it writes: a field past its reader's bound is refused before the
    hall keeps a file its listing would then refuse (kept, but never listed)."""
    record = won_record(cause="x" * 500)
    with pytest.raises(RunFileError, match=r"run\.cause"):
        pack(record)
    with pytest.raises(RunFileError):
        Hall(tmp_path).add(record)
    assert not list((tmp_path / RUNS_DIR).glob("*.run"))


def test_get_gives_only_what_the_listing_would_list(tmp_path):
    """A file dropped into the hall by hand that its recording refutes is not listed: get
    (``runs show``, an export, a replay) gave it all the same, as if it held up."""
    folder = tmp_path / RUNS_DIR
    folder.mkdir()
    (folder / "20260102-f0f0f0.run").write_bytes(pack(won_record(id="20260102-f0f0f0", kills=40)))
    (folder / f"{WON_ID}.run").write_bytes(pack(won_record()))
    hall = Hall(tmp_path)
    with pytest.raises(RunFileError) as err:
        hall.get("20260102-f0f0f0")
    assert str(err.value).startswith("run 20260102-f0f0f0 is not listed: the record's claim")
    assert "claim of kills is false" in str(err.value)
    record, imported = hall.get(WON_ID)  # replayed, holds: given, and vouched for
    assert record.id == WON_ID and not imported
    assert [r.id for r in hall.runs()] == [WON_ID]
