"""Run records, run files and the hall (:mod:`saves.record`, :mod:`saves.verify`,
:mod:`saves.hall`), and recordings as the save layer reads
them: round trips, hostile bytes, claims checked by replay, the daily rules."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
import os
import re
import stat
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

import saves.verify
from roguelike import recording as recording_module
from roguelike import seeds
from roguelike.engine import (
    Close,
    Descend,
    Explore,
    Open,
    PickUp,
    Rest,
    SolvePuzzle,
    Travel,
    Use,
    Wait,
    new_game,
    step,
)
from roguelike.engine.actions import Move
from roguelike.engine.creatures import ITEMS
from roguelike.recording import (
    LETTER_STEPS,
    MAX_COORD,
    Recording,
    RecordingError,
    Start,
    decode_action,
    encode_action,
    replay,
)
from roguelike.version import GENERATOR_VERSION
from saves.hall import Hall
from saves.morgue import morgue
from saves.record import (
    MAGIC,
    PuzzleScore,
    RunFileError,
    RunRecord,
    daily_day,
    header_line,
    pack,
    record_of,
    unpack,
)
from saves.runs import score
from saves.verify import verify
from saves.world import daily_seed
from tests.saves.run_support import (
    ENDED,
    STARTED,
    TINY_SEED,
    WON_ID,
    plain_record,
    tiny_game,
    won_record,
    won_run,
)

STEPS = sorted(LETTER_STEPS.values())

# --- actions and recordings ------------------------------------------------------------------

moves = st.lists(st.one_of(st.integers(-5, 50), st.text(max_size=4)), max_size=8)
actions = st.one_of(
    st.sampled_from(STEPS).map(lambda d: Move(*d)),
    st.sampled_from([Wait(), Rest(), PickUp(), Descend(), Explore()]),
    st.sampled_from(STEPS).map(lambda d: Open(*d)),
    st.sampled_from(STEPS).map(lambda d: Close(*d)),
    st.builds(Travel, st.integers(0, MAX_COORD - 1), st.integers(0, MAX_COORD - 1)),
    st.sampled_from(sorted(ITEMS)).map(Use),
    st.builds(
        lambda m, h, c, r: SolvePuzzle(tuple(m), hints_used=h, coins_spent=c, resets=r),
        moves,
        st.integers(0, 50),
        st.integers(0, 50),
        st.integers(0, 50),
    ),
)


@given(actions)
def test_every_action_survives_its_recorded_form_and_json(action):
    code = encode_action(action)
    assert decode_action(json.loads(json.dumps(code))) == action


def _valid_recording_doc() -> dict:
    rec = Recording(Start(seeds.text_seed("r"), "small", 1, monsters=False))
    rec.actions, rec.checks = (
        ["x", "h", {"solve": [1], "hints": 0, "coins": 0, "resets": 0}],
        [
            1,
            2,
            3,
        ],
    )
    return rec.to_json()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(st.sampled_from(["version", "generator", "start", "actions", "checks"]), json_values)
def test_a_recording_with_any_field_replaced_is_read_or_refused_with_recording_error(key, value):
    doc = _valid_recording_doc()
    doc[key] = value
    try:
        rec = Recording.from_json(doc)
    except RecordingError as err:
        assert "\n" not in str(err)
        return
    assert rec.to_json()[key] == value  # only a value as good as the one replaced is kept


@given(json_values)
def test_a_recording_from_any_json_is_read_or_refused_with_recording_error(value):
    with pytest.raises(RecordingError):  # no random value is a recording
        Recording.from_json(value)


@given(st.integers(0, 2), json_values)
def test_a_recording_with_any_action_replaced_is_read_or_refused(index, value):
    doc = _valid_recording_doc()
    doc["actions"][index] = value
    try:
        Recording.from_json(doc)
    except RecordingError as err:
        assert f"actions[{index}]" in str(err)


# --- run files -------------------------------------------------------------------------------

names = st.from_regex(r"[A-Za-z][A-Za-z0-9 ]{0,20}[A-Za-z0-9]", fullmatch=True)
records = st.builds(
    lambda n, world, outcome, turns, puzzles, daily, scored, with_rec: plain_record(
        n,
        world=world,
        outcome=outcome,
        turns=turns,
        puzzles=tuple(PuzzleScore(1, t, d, s) for t, d, s in puzzles),
        score=score(outcome == "won", 1, turns, [s for _, _, s in puzzles], kills=n),
        daily=daily,
        scored=scored,
        cause=None if outcome == "won" else "slain",
        recording=won_run()[1] if with_rec else None,
    ),
    st.integers(0, 99),
    names,
    st.sampled_from(["won", "died", "abandoned"]),
    st.integers(0, 10**6),
    st.lists(
        st.tuples(
            st.sampled_from(["jugs", "ball"]),
            st.sampled_from(["easy", "hard"]),
            st.integers(0, 100),
        ),
        max_size=5,
    ),
    st.one_of(st.none(), st.dates(dt.date(2020, 1, 1), dt.date(2030, 1, 1)).map(str)),
    st.booleans(),
    st.booleans(),
)


@given(records)
def test_a_record_survives_its_run_file(record):
    assert unpack(pack(record)).to_json() == record.to_json()


@given(st.binary(max_size=300))
def test_random_bytes_are_refused_as_run_files_in_one_line(data):
    with pytest.raises(RunFileError) as err:
        unpack(data)
    assert "\n" not in str(err.value)


@given(st.binary(max_size=300))
def test_random_bytes_after_the_magic_are_refused_in_one_line(data):
    with pytest.raises(RunFileError):
        unpack(MAGIC + data)


@pytest.fixture(scope="module")
def packed() -> bytes:
    return pack(won_record())


@given(st.data())
def test_a_run_file_with_a_bit_flipped_is_refused_or_reads_the_same(packed, data):
    i = data.draw(st.integers(0, len(packed) - 1))
    bit = data.draw(st.integers(0, 7))
    flipped = bytearray(packed)
    flipped[i] ^= 1 << bit
    try:
        record = unpack(bytes(flipped))
    except RunFileError as err:
        assert "\n" not in str(err)
        return
    # a flip the header's JSON forgives (a space, the case of a key it does not read)
    assert record.to_json() == unpack(packed).to_json()


def test_each_kind_of_damage_is_named(packed):
    end = packed.index(b"\n")
    with pytest.raises(RunFileError, match="does not start with RGLKRUN1"):
        unpack(b"RGLKSAVE" + packed[8:])
    with pytest.raises(RunFileError, match="truncated"):
        unpack(packed[:-10])
    with pytest.raises(RunFileError, match="checksum"):
        unpack(packed[:-1] + bytes([packed[-1] ^ 1]))
    with pytest.raises(RunFileError, match="truncated: it ends inside its header"):
        unpack(packed[: end - 3])
    head = {k: v for k, v in json.loads(packed[8:end]).items() if k != "seal"}
    no_generator = {k: v for k, v in head.items() if k != "generator"}
    with pytest.raises(RunFileError, match="no generator version"):  # resealed: still refused
        unpack(header_line(no_generator) + packed[end + 1 :])
    bomb = zlib.compress(b"[" * 100_000 + b"]" * 100_000)
    head.update(length=len(bomb), blake2b=hashlib.blake2b(bomb, digest_size=32).hexdigest())
    with pytest.raises(RunFileError, match="nests deeper"):
        unpack(header_line(head) + bomb)


def test_a_run_of_another_generator_is_refused_naming_both_versions():
    record = won_record()
    assert record.recording is not None
    for theirs in ("1", str(int(GENERATOR_VERSION) + 1)):  # an older one and a newer one
        assert theirs != GENERATOR_VERSION
        other = dataclasses.replace(
            record,
            generator=theirs,
            recording=dataclasses.replace(record.recording, generator=theirs),
        )
        ours = re.escape(GENERATOR_VERSION)
        with pytest.raises(RunFileError, match=rf"generator {theirs}, this game has {ours}\b"):
            unpack(pack(other))


# --- claims ----------------------------------------------------------------------------------


def test_a_true_record_verifies_and_replays_to_its_digest():
    record = won_record()
    state, outcome = verify(record)
    assert state.won and outcome.digest == record.digest and record.outcome == "won"


@pytest.mark.parametrize(
    ("change", "claim"),
    [
        ({"outcome": "died"}, "outcome"),
        ({"cause": "slain by a dragon"}, "cause"),
        ({"score": 99_999}, "score"),
        ({"turns": 1}, "turns"),
        ({"kills": 3}, "kills"),
        ({"digest": "0" * 32}, "final state"),
        ({"puzzles": (PuzzleScore(1, "jugs", "easy", 100),)}, "puzzles"),
    ],
)
def test_a_false_claim_is_named(change, claim):
    with pytest.raises(RunFileError, match=f"claim of {claim} is false"):
        verify(won_record(**change))


def test_a_recording_edited_by_one_input_goes_out_of_sync_at_that_input():
    record = won_record()
    rec = record.recording
    assert rec is not None and rec.actions[0] != "."
    rec.actions[0] = "."  # a wait instead of the first input
    with pytest.raises(RunFileError, match=r"out of sync at turn \d+ \(input 1\)"):
        verify(record)


def test_a_run_without_a_recording_cannot_be_verified():
    with pytest.raises(RunFileError, match="no recording"):
        verify(plain_record(1))


# --- the hall --------------------------------------------------------------------------------


def test_the_hall_keeps_runs_best_first_finds_them_by_prefix_and_once_each(tmp_path):
    hall = Hall(tmp_path)
    assert hall.runs() == []
    low, high = plain_record(1, score=10), plain_record(2, score=500)
    for r in (low, high, low):
        hall.add(r)
    assert [r.id for r in hall.runs()] == [high.id, low.id]
    assert hall.get(high.id[:-1])[0].id == high.id
    with pytest.raises(RunFileError, match="names 2 runs"):
        hall.get("2026010")
    with pytest.raises(RunFileError, match="no run"):
        hall.get("nothing")


def test_a_damaged_file_in_the_hall_is_skipped_and_said(tmp_path):
    hall = Hall(tmp_path)
    hall.add(plain_record(1))
    (tmp_path / "runs" / "20260109-bad.run").write_bytes(b"RGLKRUN1 nonsense")
    assert len(hall.runs()) == 1
    assert len(hall.problems) == 1 and "20260109-bad.run" in hall.problems[0]


def test_a_daily_worlds_second_run_that_day_is_kept_unscored(tmp_path):
    hall = Hall(tmp_path)
    first = hall.add(plain_record(1, daily="2026-01-02"))
    second = hall.add(plain_record(2, daily="2026-01-02"))
    other_day = hall.add(plain_record(3, daily="2026-01-03"))
    assert first.scored and not second.scored and other_day.scored
    assert {r.id: r.scored for r in hall.runs()} == {
        first.id: True,
        second.id: False,
        other_day.id: True,
    }


def test_a_run_of_the_days_daily_world_is_marked_daily():
    day = dt.date(2026, 3, 4)
    started = "2026-03-04T08:00:00.000+00:00"
    assert daily_day(daily_seed(day), started) == "2026-03-04"
    assert daily_day(daily_seed(day), "2026-03-05T08:00:00.000+00:00") is None
    state = tiny_game(daily_seed(day))
    record = record_of(state, world="Daily", started=started, recording=None, abandoned=True)
    assert record.daily == "2026-03-04" and record.outcome == "abandoned"


def test_the_streak_counts_consecutive_days_ending_today_or_yesterday(tmp_path):
    hall = Hall(tmp_path)
    for n, day in enumerate(["2026-01-01", "2026-01-03", "2026-01-04", "2026-01-05"]):
        hall.add(plain_record(n, daily=day))
    assert hall.streak(dt.date(2026, 1, 5)) == 3
    assert hall.streak(dt.date(2026, 1, 6)) == 3  # today not played yet: still counting
    assert hall.streak(dt.date(2026, 1, 7)) == 0
    assert hall.streak(dt.date(2026, 1, 1)) == 1
    assert hall.streak(dt.date(2026, 1, 2)) == 1


def test_export_and_import_carry_a_run_and_a_false_one_is_refused(tmp_path):
    mine, theirs = Hall(tmp_path / "a"), Hall(tmp_path / "b")
    record = mine.add(won_record())
    dest = mine.export(record.id[:8], tmp_path / "challenge.run")
    got = theirs.import_file(dest)
    assert got.to_json() == record.to_json()
    found, imported = theirs.get(record.id)
    assert imported and found.to_json() == record.to_json()
    liar = tmp_path / "liar.run"
    liar.write_bytes(pack(won_record(id="20260101-aaaaaa", score=record.score + 1)))
    with pytest.raises(RunFileError, match="claim of score is false"):
        theirs.import_file(liar)
    assert [r.id for r in theirs.challenges()] == [record.id]  # nothing kept of the liar


def test_a_run_without_a_recording_is_not_exported(tmp_path):
    hall = Hall(tmp_path)
    hall.add(plain_record(1))
    with pytest.raises(RunFileError, match="no recording"):
        hall.export(plain_record(1).id, tmp_path / "x.run")


def test_records_keep_their_dates_and_the_formula_score():
    record = won_record()
    assert (record.started, record.ended) == (STARTED, ENDED)
    scores = [p.score for p in record.puzzles]
    assert record.score == score(True, record.floors, record.turns, scores, kills=record.kills)


# --- what a hostile run file may not do ------------------------------------------------------


def test_a_run_played_in_a_custom_world_is_refused_naming_what_differs(monkeypatch):
    """The tiny world of these tests has one floor and no monsters: a file claiming a win in
    it must not pass as a win of the world the game makes of that seed and preset."""
    monkeypatch.setattr(saves.verify, "CUSTOM_WORLDS", False)
    with pytest.raises(RunFileError, match=r"custom world \(no monsters, 1 floors of 3\)"):
        verify(won_record())


def test_a_true_run_of_a_standard_world_verifies_with_custom_worlds_refused(monkeypatch):
    monkeypatch.setattr(saves.verify, "CUSTOM_WORLDS", False)
    state = new_game(TINY_SEED, preset="small")
    recording = Recording.begin(state)
    for _ in range(3):
        step(state, Wait())
        recording.add(Wait(), state)
    record = record_of(state, world="Tiny", started=STARTED, recording=recording, abandoned=True)
    assert verify(record)[0].turn == 3


def test_a_daily_claim_for_a_world_that_is_not_that_days_is_false():
    with pytest.raises(RunFileError, match="claim of daily world is false"):
        verify(won_record(daily="2026-01-02"))


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("started", "2026-01-02\x1b03:04:05+00:00"),
        ("ended", "20260102\x1b030405+0000"),
        ("started", "2026-01-02T03:04:05.000+00:00\n"),
        ("seed", "\x0b\rN65Q-QBJ0-23PV\x1f"),
        ("seed", "n65q-qbj0-23pv"),
    ],
)
def test_dates_and_seeds_must_be_written_as_the_game_writes_them(key, value):
    doc = won_record().to_json()
    doc[key] = value
    with pytest.raises(RunFileError, match=f"run.{key}"):
        RunRecord.from_json(doc)


def test_an_imported_run_never_replaces_another_and_answers_no_challenge(tmp_path):
    hall = Hall(tmp_path / "mine")
    first = tmp_path / "alice.run"
    first.write_bytes(pack(won_record(world="Alice's run")))
    second = tmp_path / "mallory.run"
    second.write_bytes(pack(won_record(world="Mallory", challenge="20250101-abcdef")))
    a = hall.import_file(first)
    b = hall.import_file(second)
    assert a.id == WON_ID and b.id != WON_ID and b.challenge is None
    assert sorted(r.world for r in hall.challenges()) == ["Alice's run", "Mallory"]
    mine = hall.add(won_record(world="Mine", id="20260102-bbbbbb"))
    exported = hall.export(mine.id, tmp_path / "mine.run")
    again = hall.import_file(exported)  # my own run sent back to me: both stay reachable
    assert again.id != mine.id
    assert hall.get(mine.id) == (mine, False) and hall.get(again.id)[1]


def test_inputs_that_change_nothing_are_bounded_when_read_and_when_recorded(monkeypatch):
    monkeypatch.setattr(recording_module, "MAX_IDLE_INPUTS", 5)
    state = tiny_game()
    rec = Recording.begin(state)
    refused = PickUp()  # nothing lies at the start: refused, no turn
    step(state, Wait())
    rec.add(Wait(), state)
    for _ in range(20):  # a key held down
        step(state, refused)
        rec.add(refused, state)
    assert len(rec) == 1 + 5  # the wait, then five that changed nothing; the rest left out
    replay(rec)  # what was kept replays
    forged = Recording(rec.start, actions=[*rec.actions, rec.actions[-1]], checks=[*rec.checks])
    forged.checks.append(rec.checks[-1])
    with pytest.raises(RecordingError, match="inputs in a row change nothing"):
        replay(forged)


def test_a_puzzle_play_over_the_move_limits_is_refused(monkeypatch):
    monkeypatch.setattr(recording_module, "MAX_PLAY_MOVES", 3)
    doc = Recording(
        Start.standard(TINY_SEED, "small"),
        actions=[{"solve": [1, 2, 3, 4], "hints": 0, "coins": 0, "resets": 0}],
        checks=[0],
    ).to_json()
    with pytest.raises(RecordingError, match="puzzle play over the limit"):
        Recording.from_json(doc)
    monkeypatch.setattr(recording_module, "MAX_PLAY_MOVES", 10)
    monkeypatch.setattr(recording_module, "MAX_PUZZLE_MOVES", 6)
    doc["actions"] *= 2
    doc["checks"] *= 2
    with pytest.raises(RecordingError, match="more than 6 puzzle moves in all"):
        Recording.from_json(doc)


def test_a_recording_whose_generator_is_not_a_version_text_is_refused():
    """A generator text is shown in messages (another generator's recording is refused naming
    it): only a version's letters may pass, never an escape sequence."""
    doc = won_record().to_json()
    doc["recording"]["generator"] = "\x1b]2;PWNED\x07"
    with pytest.raises(RunFileError, match="generator: expected a version text"):
        RunRecord.from_json(doc)
    other = won_record()
    assert other.recording is not None
    other.recording.generator = "1"  # a version, but not the record's
    with pytest.raises(RunFileError, match="does not match its payload"):
        unpack(pack(other))


def test_a_hall_whose_folder_is_a_file_is_empty_and_says_why(tmp_path):
    (tmp_path / "runs").write_text("not a folder")
    hall = Hall(tmp_path)
    assert hall.runs() == [] and hall.problems and "runs" in hall.problems[0]
    assert hall.streak() == 0


def test_export_never_replaces_a_special_file(tmp_path):
    hall = Hall(tmp_path / "hall")
    record = hall.add(won_record())
    fifo = tmp_path / "pipe.run"
    os.mkfifo(fifo)
    with pytest.raises(RunFileError, match="not a regular file"):
        hall.export(record.id, fifo)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    link = tmp_path / "link.run"
    link.symlink_to(tmp_path / "elsewhere.run")
    with pytest.raises(RunFileError, match="not a regular file"):
        hall.export(record.id, link)
    assert link.is_symlink() and not (tmp_path / "elsewhere.run").exists()


# --- claims a morgue or a ladder shows but a digest does not cover ---------------------------


def test_a_forged_final_view_is_never_shown_the_replays_is(tmp_path):
    """The morgue shows a record's final view: gear, pack and messages the recording never
    gave must not reach it (a re-packed file passed before: the seal is unkeyed). The view is
    replaced by the replay's, not compared, so a later release's wording refuses no file."""
    record = won_record()
    assert record.final is not None
    forged = dataclasses.replace(
        record.final, gear=("a +9 vorpal blade",), messages=("You win with 10000 kills!",)
    )
    path = tmp_path / "forged.run"
    path.write_bytes(pack(won_record(final=forged)))
    hall = Hall(tmp_path / "hall")
    kept = hall.import_file(path)
    assert kept.final == record.final
    assert "vorpal" not in morgue(hall.get(kept.id)[0])
    # a file dropped in the hall by hand is shown as its replay proves too
    dropped = tmp_path / "hall" / "runs" / "dropped.run"
    dropped.parent.mkdir(parents=True, exist_ok=True)
    dropped.write_bytes(pack(won_record(final=forged, id="20260102-d0d0d0")))
    listed = {r.id: r for r in hall.runs()}
    assert listed["20260102-d0d0d0"].final == record.final


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"started": "2026-01-03T00:00:00.000+00:00"}, r"it began \(.*\) after it ended"),
        ({"ended": "2999-01-01T00:00:00.000+00:00"}, "it ended in the future"),
    ],
)
def test_dates_no_clock_could_write_are_refused(change, why):
    with pytest.raises(RunFileError, match=f"the record's dates are false: it says {why}"):
        verify(won_record(**change))
