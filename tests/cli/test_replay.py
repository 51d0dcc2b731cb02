"""``roguelike replay FILE|RUN [--verify]`` as a user or a script meets it: a true run verifies
(exit 0), a run that does not hold up is named in one line (exit 1), and a file that is not a
run is refused in one line (exit 2)."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from roguelike.cli import play as play_command
from roguelike.version import GENERATOR_VERSION
from saves.hall import Hall
from saves.record import pack
from tests.cli.support import run
from tests.saves.run_support import pack_unread, won_record


def held_all(out: str) -> bool:
    """The verifier says every claim of the record held (and there are claims to hold)."""
    said = re.search(r"all (\d+) hold", out)
    return said is not None and int(said.group(1)) >= 13


def one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and re.match(r"roguelike( \w+)*: error: ", lines[0]), err
    return lines[0]


@pytest.fixture(scope="module")
def true_bytes() -> bytes:
    return pack(won_record())


@pytest.fixture
def true_file(tmp_path, true_bytes):
    path = tmp_path / "true.run"
    path.write_bytes(true_bytes)
    return path


def test_a_true_run_verifies_with_its_outcome_and_every_claim(capsys, true_file):
    record = won_record()
    code, out, err = run(capsys, "replay", str(true_file), "--verify")
    assert code == 0 and err == "", err
    assert f"replayed run {record.id}" in out and f"{len(record.recording)} inputs" in out
    assert f"won, floor 1 of 1, {record.turns} turns" in out
    assert f"score {record.score}" in out and record.digest in out
    assert held_all(out)


def test_verify_as_json_gives_the_outcome_and_each_claim(capsys, true_file):
    record = won_record()
    code, out, _ = run(capsys, "replay", str(true_file), "--verify", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert doc["matched"] is True and doc["id"] == record.id
    assert all(c["matched"] for c in doc["claims"].values())
    assert {"outcome", "floors", "turns", "score", "final_state", "world"} <= set(doc["claims"])
    o = doc["outcome"]
    assert (o["result"], o["floors"], o["turns"], o["score"], o["digest"]) == (
        "won",
        1,
        record.turns,
        record.score,
        record.digest,
    )
    assert o["cause"] == "escaped"


@pytest.mark.parametrize(
    ("change", "claim"),
    [({"outcome": "died"}, "outcome"), ({"score": 5}, "score"), ({"floors": 1}, None)],
)
def test_a_changed_claim_is_named_with_exit_1(capsys, tmp_path, change, claim):
    path = tmp_path / "claimed.run"
    path.write_bytes(pack(won_record(**change)))
    code, out, err = run(capsys, "replay", str(path), "--verify")
    if claim is None:  # the true value, "changed" to itself: still true
        assert code == 0 and held_all(out)
        return
    assert code == 1
    line = one_line_error(err)
    assert f"claim of {claim} is false" in line
    assert f"FALSE {claim}" in out
    code, out, err = run(capsys, "replay", str(path), "--verify", "--format", "json")
    doc = json.loads(out)
    assert code == 1 and doc["matched"] is False and doc["claims"][claim]["matched"] is False
    assert sum(not c["matched"] for c in doc["claims"].values()) == 1


def test_a_recording_edited_by_one_input_is_out_of_sync_at_its_turn(capsys, tmp_path):
    record = won_record()
    rec = record.recording
    assert rec is not None
    i = len(rec.actions) // 2
    rec.actions[i] = "." if rec.actions[i] != "." else "R"
    path = tmp_path / "edited.run"
    path.write_bytes(pack(record))
    code, out, err = run(capsys, "replay", str(path), "--verify")
    assert code == 1 and out == ""
    assert re.search(rf"out of sync at turn \d+ \(input {i + 1}\)", one_line_error(err))
    code, out, _ = run(capsys, "replay", str(path), "--verify", "--format", "json")
    doc = json.loads(out)
    assert code == 1 and doc["matched"] is False and doc["out_of_sync"]["input"] == i + 1


def _damaged(true_bytes: bytes) -> dict[str, tuple[bytes, str]]:
    other = won_record()
    assert other.recording is not None
    other = dataclasses.replace(
        other, generator="1", recording=dataclasses.replace(other.recording, generator="1")
    )
    return {
        "magic": (b"NOTARUN!" + true_bytes[8:], "does not start with RGLKRUN1"),
        "truncated": (true_bytes[:-7], "truncated"),
        "checksum": (true_bytes[:-1] + bytes([true_bytes[-1] ^ 0x40]), "checksum"),
        "empty": (b"", "does not start with RGLKRUN1"),
        "generator": (pack_unread(other), f"generator 1, this game has {GENERATOR_VERSION}"),
    }


@pytest.mark.parametrize("kind", ["magic", "truncated", "checksum", "empty", "generator"])
def test_a_file_that_is_not_a_good_run_is_refused_with_exit_2(capsys, tmp_path, true_bytes, kind):
    data, words = _damaged(true_bytes)[kind]
    path = tmp_path / "bad.run"
    path.write_bytes(data)
    code, out, err = run(capsys, "replay", str(path), "--verify")
    assert code == 2 and out == ""
    assert words in one_line_error(err)


def test_a_missing_file_or_run_is_refused_with_exit_2(capsys, tmp_path):
    for target, words in [
        (str(tmp_path / "nothing.run"), "no such file"),
        ("no-such-run", "no run 'no-such-run'"),
        (str(tmp_path), "not a run file"),
    ]:
        code, out, err = run(capsys, "replay", target, "--verify", "--save-dir", str(tmp_path))
        assert code == 2 and out == "", target
        assert words in one_line_error(err)


def test_a_run_of_the_hall_is_found_by_its_id(capsys, tmp_path):
    record = Hall(tmp_path).add(won_record())
    code, out, _ = run(capsys, "replay", record.id[:10], "--verify", "--save-dir", str(tmp_path))
    assert code == 0 and f"replayed run {record.id}" in out


def test_a_run_without_a_recording_has_nothing_to_verify(capsys, tmp_path):
    path = tmp_path / "old.run"
    path.write_bytes(pack(dataclasses.replace(won_record(), recording=None, digest=None)))
    code, _, err = run(capsys, "replay", str(path), "--verify")
    assert code == 2 and "no recording" in one_line_error(err)


def test_a_cause_with_escape_sequences_is_refused_and_shown_harmless(capsys, tmp_path):
    path = tmp_path / "escape.run"
    path.write_bytes(pack(won_record(cause="\x1b[2J\x07slain")))
    code, out, err = run(capsys, "replay", str(path), "--verify")
    assert code == 1 and "\x1b" not in out + err and "\x07" not in out + err
    assert "claim of cause is false" in one_line_error(err)
    assert "\\x1b[2J\\x07slain" in err


def test_replay_without_verify_opens_the_viewer(capsys, monkeypatch, true_file):
    seen = []
    monkeypatch.setattr(play_command, "watch_replay", lambda args, record: seen.append(record))
    code, out, err = run(capsys, "replay", str(true_file))
    assert code == 0 and [r.id for r in seen] == [won_record().id]
    code, out, err = run(capsys, "replay", str(true_file), "--format", "json")
    assert code == 2 and "--format goes with --verify" in one_line_error(err)
