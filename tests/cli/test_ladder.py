"""``roguelike runs ladder``: three bot runs of one seed ranked by score, each verified by
replay; a forged one refused naming its false claim, one of another seed refused; ``-o``
written, read back and merged; and the ladder file's reader, whose every byte is hostile."""

from __future__ import annotations

import dataclasses
import functools
import json
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roguelike import seeds
from roguelike.autoplay import play
from roguelike.engine import new_game
from roguelike.recording import Recording
from roguelike.version import GAME_VERSION, GENERATOR_VERSION
from saves import envelope
from saves.errors import SaveError
from saves.ladder import (
    KIND,
    Entry,
    Ladder,
    LadderFileError,
    WorldKey,
    rank_key,
    unpack_ladder,
)
from saves.ladder import pack as pack_ladder
from saves.record import RunRecord, pack, record_of
from tests.cli.support import refused, run

SEED = seeds.read_stored("N65Q-QBJ0-23PV")
OTHER_SEED = seeds.text_seed("another world")
STARTED = "2026-01-02T03:04:05.000+00:00"


@functools.cache
def _bot_record(seed: int, limit: int, n: int) -> RunRecord:
    """The bot's run of a two-floor small world without monsters or puzzles, stopped after
    ``limit`` inputs (a shorter run is left on a shallower floor), kept as abandoned."""
    state = new_game(
        seed, preset="small", total_floors=2, monsters=False, puzzles=False, world_name="Bot"
    )
    recording = Recording.begin(state)
    play(state, recording=recording, limit=limit)
    ended = f"2026-01-02T0{5 + n}:00:00.000+00:00"
    record = record_of(
        state,
        world=f"Bot {n}",
        started=STARTED,
        ended=ended,
        recording=recording,
        abandoned=True,
    )
    return dataclasses.replace(record, id=f"20260102-00000{n}")


def bot_runs() -> list[RunRecord]:
    """Three bot runs of one seed: stopped on floor 1, on floor 2, and won."""
    return [_bot_record(SEED, 5, 1), _bot_record(SEED, 30, 2), _bot_record(SEED, 10_000, 3)]


def write(path: Path, record: RunRecord) -> str:
    path.write_bytes(pack(record))
    return str(path)


def ladder(capsys, *args: str) -> dict:
    code, out, err = run(capsys, "runs", "ladder", "--jobs", "1", "--format", "json", *args)
    assert code == 0, err
    return json.loads(out)


def test_three_bot_runs_are_ranked_by_score_and_a_forgery_is_refused(capsys, tmp_path):
    runs = bot_runs()
    assert len({r.score for r in runs}) == 3, [r.score for r in runs]
    files = [write(tmp_path / f"run{i}.run", r) for i, r in enumerate(runs)]
    forged = write(tmp_path / "forged.run", dataclasses.replace(runs[0], kills=41, id="x-1"))
    other = write(tmp_path / "other.run", _bot_record(OTHER_SEED, 5, 4))
    doc = ladder(capsys, forged, *files, other)
    assert [r["id"] for r in doc["runs"]] == [r.id for r in sorted(runs, key=lambda r: -r.score)]
    assert [r["rank"] for r in doc["runs"]] == [1, 2, 3]
    assert doc["world"]["seed"] == seeds.encode(SEED)
    reasons = {Path(r["file"]).name: r["reason"] for r in doc["refused"]}
    assert set(reasons) == {"forged.run", "other.run"}
    assert "claim of kills is false: it says 41" in reasons["forged.run"]
    assert f"seed {seeds.encode(OTHER_SEED)}" in reasons["other.run"]
    # the text: a table, then one line for each refused file
    code, out, _ = run(capsys, "runs", "ladder", "--jobs", "1", *files, forged)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith(f"Ladder of seed {seeds.encode(SEED)}")
    assert lines[-2] == "Refused:" and lines[-1].startswith(f"  {forged}: the record's claim")


def test_ties_are_broken_by_what_the_replay_proves_never_by_dates_or_ids():
    """A run's dates, id and world name are the sender's word: changing them moves nothing."""
    won = bot_runs()[2]
    forged = dataclasses.replace(
        won, id="00000000-000000", world="First", ended="2000-01-01T00:00:00.000+00:00"
    )
    assert rank_key(forged) == rank_key(won)
    runs = bot_runs()
    assert sorted(runs, key=rank_key) == sorted(runs, key=lambda r: (-r.score, r.turns))


def test_the_same_run_with_another_start_id_and_world_counts_once(capsys, tmp_path):
    """Re-packed with another start, id, world name and an early end, a run was ranked twice
    (its copy first): the start is not proved by the replay, so it is the same run."""
    a = bot_runs()[2]
    b = dataclasses.replace(
        a,
        id="20260102-b1b1b1",
        world="Copy",
        started="1999-12-31T00:00:00.000+00:00",
        ended="2000-01-01T00:00:00.000+00:00",
    )
    files = [write(tmp_path / "a.run", a), write(tmp_path / "b.run", b)]
    doc = ladder(capsys, *files)
    assert [r["id"] for r in doc["runs"]] == [a.id]
    assert doc["refused"] == [
        {"file": files[1], "reason": f"the same run as {files[0]}: counted once"}
    ]


def test_the_same_run_twice_counts_once(capsys, tmp_path):
    run_file = write(tmp_path / "a.run", bot_runs()[1])
    doc = ladder(capsys, run_file, run_file)
    assert len(doc["runs"]) == 1
    assert doc["refused"] == [
        {"file": run_file, "reason": f"the same run as {run_file}: counted once"}
    ]


def test_a_ladder_file_round_trips_and_merges(capsys, tmp_path):
    runs = bot_runs()
    a = tmp_path / "a.ladder"
    b = tmp_path / "b.ladder"
    first = [write(tmp_path / f"r{i}.run", r) for i, r in enumerate(runs[:2])]
    ladder(capsys, *first, "-o", str(a))
    ladder(capsys, write(tmp_path / "r2.run", runs[2]), first[0], "-o", str(b))
    assert [r.id for r in unpack_ladder(a.read_bytes())] == [runs[1].id, runs[0].id]
    doc = ladder(capsys, str(a), str(b))
    # three runs in all, each verified again; the one in both ladders counts once
    assert [r["id"] for r in doc["runs"]] == [runs[2].id, runs[1].id, runs[0].id]
    assert [r["reason"] for r in doc["refused"]] == [f"the same run as {a} #2: counted once"]


def test_a_ladder_of_nothing_verified_is_not_written(capsys, tmp_path):
    bad = tmp_path / "bad.run"
    bad.write_bytes(b"RGLKRUN1 nonsense")
    refused(capsys, "runs", "ladder", str(bad), "-o", str(tmp_path / "x"), words="nothing to write")
    assert not (tmp_path / "x").exists()


@functools.cache
def _ladder_bytes() -> bytes:
    record = bot_runs()[0]
    return pack_ladder(Ladder(WorldKey.of(record), None, (Entry("a", record),), ()))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_damaged_ladder_file_is_refused_in_one_line(data):
    good = _ladder_bytes()
    cut = data.draw(st.integers(0, len(good)))
    flips = data.draw(st.lists(st.tuples(st.integers(0, len(good) - 1), st.integers(1, 255))))
    bad = bytearray(good[:cut] + data.draw(st.binary(max_size=64)))
    for at, bits in flips:
        if at < len(bad):
            bad[at] ^= bits
    try:
        runs = unpack_ladder(bytes(bad))
    except LadderFileError as err:
        assert "\n" not in str(err) and str(err)
    else:
        assert runs and all(isinstance(r, RunRecord) for r in runs)


@settings(max_examples=100, deadline=None)
@given(
    st.recursive(
        st.none() | st.integers() | st.text(max_size=8),
        lambda c: st.lists(c) | st.dictionaries(st.text(max_size=8), c),
        max_leaves=30,
    )
)
def test_a_sealed_ladder_of_any_json_is_refused_in_one_line(doc):
    """The seal and checksum right, the payload anything: the reader still refuses it."""
    payload = zlib.compress(json.dumps(doc).encode())
    head = {"format": 1, "game": GAME_VERSION, "generator": GENERATOR_VERSION}
    try:
        unpack_ladder(envelope.wrap(head, payload, KIND))
    except SaveError as err:
        assert isinstance(err, LadderFileError) and "\n" not in str(err)
    else:
        raise AssertionError("a ladder without runs was read")


@pytest.mark.slow
def test_runs_are_verified_in_parallel_processes_alike(capsys, tmp_path):
    runs = bot_runs()
    files = [write(tmp_path / f"r{i}.run", r) for i, r in enumerate(runs)]
    forged = write(tmp_path / "f.run", dataclasses.replace(runs[2], score=9999, id="x-2"))
    code, out, err = run(
        capsys, "runs", "ladder", "--jobs", "2", "--format", "json", *files, forged
    )
    doc = json.loads(out)
    assert code == 0 and [r["id"] for r in doc["runs"]] == [runs[2].id, runs[1].id, runs[0].id]
    assert "claim of score is false: it says 9999" in doc["refused"][0]["reason"]


def test_a_run_not_checked_before_the_deadline_is_refused_as_such(capsys, tmp_path):
    run_file = write(tmp_path / "a.run", bot_runs()[1])
    doc = ladder(capsys, "--deadline", "0.000001", run_file)
    assert doc["runs"] == []
    assert doc["refused"] == [{"file": run_file, "reason": "not checked before the deadline"}]


def test_the_world_is_chosen_among_runs_whose_world_claims_hold(capsys, tmp_path):
    """Four files claiming another world than their recordings start, beside three genuine
    runs: the junk outvoted the runs (a ladder of its world, every genuine run refused as
    "another world"); only claims that hold choose the world."""
    runs = bot_runs()
    other = seeds.stored(OTHER_SEED)
    junk = [
        write(tmp_path / f"junk{i}.run", dataclasses.replace(runs[0], seed=other, id=f"x-{i}"))
        for i in range(4)
    ]
    files = [write(tmp_path / f"r{i}.run", r) for i, r in enumerate(runs)]
    doc = ladder(capsys, *junk, *files)
    assert doc["world"]["seed"] == seeds.encode(SEED)
    assert sorted(r["id"] for r in doc["runs"]) == sorted(r.id for r in runs)
    assert sorted(Path(r["file"]).name for r in doc["refused"]) == [
        f"junk{i}.run" for i in range(4)
    ]
