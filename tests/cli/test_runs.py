"""``roguelike runs …`` and ``world delete`` keeping a run, as a user or a script meets them:
the hall listed and filtered, one run shown, a challenge exported and imported (a false one
refused, naming the claim), and every mistake one line with exit status 2."""

from __future__ import annotations

import json

import pytest

from roguelike import seeds
from roguelike.engine import Wait, step
from roguelike.recording import Recording
from saves import Store, World
from saves.hall import Hall
from saves.record import pack
from tests.cli.support import refused, run
from tests.saves.run_support import TINY_SEED, WON_ID, plain_record, tiny_game, won_record


@pytest.fixture
def hall(tmp_path) -> Hall:
    """A hall of four runs: a won one with its recording, two deaths and an abandoned daily."""
    h = Hall(tmp_path)
    h.add(won_record())
    h.add(plain_record(1, score=300))
    h.add(plain_record(2, score=100, seed=won_record().seed))
    h.add(plain_record(3, outcome="abandoned", cause="abandoned", daily="2026-01-02", score=50))
    return h


def test_an_empty_hall_says_so(capsys, tmp_path):
    code, out, _ = run(capsys, "runs", "--save-dir", str(tmp_path))
    assert code == 0 and out == f"no runs in {tmp_path}\n"
    code, out, _ = run(capsys, "runs", "--format", "json", "--save-dir", str(tmp_path))
    assert json.loads(out)["runs"] == []


def test_the_hall_is_listed_best_first(capsys, hall):
    code, out, _ = run(capsys, "runs", "--save-dir", str(hall.path))
    head, *rows = out.splitlines()
    assert code == 0 and head.split() == [
        "ID", "ENDED", "WORLD", "SEED", "PRESET", "OUTCOME", "FLOOR", "TURNS", "SCORE",
    ]  # fmt: skip
    assert [r.split()[0] for r in rows] == [r.id for r in hall.runs()]
    assert rows[0].startswith(WON_ID) and rows[0].split()[-1] == str(won_record().score)
    scores = [int(r.split()[-1]) for r in rows]
    assert scores == sorted(scores, reverse=True)


def test_the_hall_is_filtered_by_seed_outcome_and_daily(capsys, hall):
    d = str(hall.path)

    def ids(*args: str) -> list[str]:
        code, out, _ = run(capsys, "runs", "--format", "json", "--save-dir", d, *args)
        assert code == 0
        return [r["id"] for r in json.loads(out)["runs"]]

    seed = won_record().seed
    assert ids("--seed", seed) == [WON_ID, plain_record(2).id]
    assert ids("--seed", seed.lower().replace("-", "")) == [WON_ID, plain_record(2).id]
    shown = seeds.shown(seed, won_record().generator)  # the code as the hall shows it
    assert ids("--seed", shown) == [WON_ID, plain_record(2).id]
    other = seeds.encode(seeds.read_stored(seed), "4")  # the same seed of another generator
    assert ids("--seed", other) == []
    assert ids("--outcome", "died") == [plain_record(1).id, plain_record(2).id]
    assert ids("--daily") == [plain_record(3).id]
    assert ids("--outcome", "won", "--daily") == []
    code, out, _ = run(capsys, "runs", "--daily", "--save-dir", d)
    assert "daily streak: 0 days" in out


def test_runs_json_lists_every_field_of_a_run(capsys, hall):
    code, out, _ = run(capsys, "runs", "--format", "json", "--save-dir", str(hall.path))
    doc = json.loads(out)
    (won,) = [r for r in doc["runs"] if r["id"] == WON_ID]
    record = won_record()
    assert won["outcome"] == "won" and won["turns"] == record.turns
    assert won["inputs"] == len(record.recording) and won["score"] == record.score
    assert doc["dir"] == str(hall.path) and doc["skipped"] == []


def test_show_prints_the_morgue_text(capsys, hall):
    code, out, _ = run(capsys, "runs", "show", WON_ID[:12], "--save-dir", str(hall.path))
    record = won_record()
    assert code == 0
    assert f"Run          {WON_ID}" in out and "Outcome      won" in out
    assert f"Score        {record.score}" in out and "1000 − turns ÷ 10" in out
    assert f"Recording    {len(record.recording)} inputs" in out
    assert f"roguelike replay {WON_ID}" in out
    code, out, _ = run(capsys, "runs", "show", plain_record(3).id, "--save-dir", str(hall.path))
    assert "Daily world  2026-01-02" in out and "Streak" in out


def test_text_from_a_file_never_reaches_the_terminal_raw(capsys, tmp_path):
    Hall(tmp_path).add(plain_record(1, cause="\x1b]0;owned\x07slain\x9b2J", world="Plain"))
    code, out, _ = run(capsys, "runs", "show", plain_record(1).id, "--save-dir", str(tmp_path))
    assert code == 0 and "\x1b" not in out and "\x07" not in out and "\x9b" not in out
    assert "\\x1b]0;owned\\x07slain\\x9b2J" in out


def test_export_then_import_carries_a_challenge_to_another_player(capsys, hall, tmp_path):
    dest = tmp_path / "send.run"
    code, out, _ = run(
        capsys, "runs", "export", WON_ID[:10], "-o", str(dest), "--save-dir", str(hall.path)
    )
    assert code == 0 and f"exported run {WON_ID}" in out and dest.is_file()
    friend = tmp_path / "friend"
    code, out, _ = run(capsys, "runs", "import", str(dest), "--save-dir", str(friend))
    assert code == 0 and f"imported challenge {WON_ID}" in out
    shown = seeds.shown(won_record().seed, won_record().generator)
    assert f"roguelike replay {WON_ID}" in out and f"--seed {shown}" in out
    code, out, _ = run(capsys, "runs", "--challenges", "--save-dir", str(friend))
    assert WON_ID in out
    code, out, _ = run(capsys, "runs", "--save-dir", str(friend))
    assert out.startswith("no runs")  # a challenge is not the friend's own run
    code, out, _ = run(capsys, "runs", "show", WON_ID, "--save-dir", str(friend))
    assert "Imported     a challenge" in out


def test_a_challenge_with_a_false_claim_is_refused_naming_it(capsys, tmp_path):
    liar = tmp_path / "liar.run"
    liar.write_bytes(pack(won_record(outcome="died", cause="escaped")))
    refused(
        capsys, "runs", "import", str(liar), "--save-dir", str(tmp_path),
        words="claim of outcome is false",
    )  # fmt: skip
    assert Hall(tmp_path).challenges() == []


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"RGLKSAVE{}\n", "does not start with RGLKRUN1"),
        (b"", "does not start with RGLKRUN1"),
        (b"RGLKRUN1{", "truncated"),
    ],
)
def test_a_bad_challenge_file_is_refused_in_one_line(capsys, tmp_path, data, words):
    path = tmp_path / "bad.run"
    path.write_bytes(data)
    refused(capsys, "runs", "import", str(path), "--save-dir", str(tmp_path), words=words)


def test_runs_refuses_mistakes_in_one_line(capsys, hall, tmp_path):
    d = str(hall.path)
    refused(capsys, "runs", "show", "nope", "--save-dir", d, words="no run 'nope'")
    refused(capsys, "runs", "show", "2026010", "--save-dir", d, words="names")
    refused(
        capsys, "runs", "export", plain_record(1).id, "-o", str(tmp_path / "x.run"),
        "--save-dir", d, words="no recording",
    )  # fmt: skip
    refused(
        capsys, "runs", "export", WON_ID, "-o", str(tmp_path), "--save-dir", d,
        words="is a folder",
    )  # fmt: skip
    refused(
        capsys, "runs", "import", str(tmp_path / "missing.run"), "--save-dir", d,
        words="not a regular file",
    )  # fmt: skip
    refused(capsys, "runs", "--seed", "K7QX-M2PA-9RTE", "--save-dir", d, words="check symbol")
    code, out, _ = run(capsys, "runs", "--seed", "any text", "--save-dir", d)
    assert code == 0 and out.startswith("no runs that match in")
    code, _, err = run(capsys, "runs", "--outcome", "lost", "--save-dir", d)
    assert code == 2 and err.count("\n") == 1


def test_a_damaged_run_file_is_skipped_with_a_note(capsys, hall):
    (hall.path / "runs" / "20260101-zzzzzz.run").write_bytes(b"garbage\x1b[2J")
    code, out, err = run(capsys, "runs", "--save-dir", str(hall.path))
    assert code == 0 and len(out.splitlines()) == 5
    assert "skipped 20260101-zzzzzz.run" in err and "\x1b" not in err


def test_world_delete_keeps_an_unfinished_run_as_abandoned(capsys, tmp_path):
    store = Store(tmp_path)
    world = World("Left Behind", TINY_SEED, "small")
    state = tiny_game(name=world.name)
    recording = Recording.begin(state)
    step(state, Wait())  # a turn played: a run to give up
    recording.add(Wait(), state)
    store.save(state, world, recording=recording)
    code, out, _ = run(
        capsys, "world", "delete", "Left Behind", "--yes", "--save-dir", str(tmp_path)
    )
    assert code == 0 and "kept in the hall" in out and not store.exists("Left Behind")
    (record,) = Hall(tmp_path).runs()
    assert record.outcome == "abandoned" and record.world == "Left Behind"
    assert record.id in out


def test_world_delete_of_a_world_never_played_keeps_no_run(capsys, tmp_path):
    store = Store(tmp_path)
    world = World("Untouched", TINY_SEED, "small")
    store.save(tiny_game(name=world.name), world)
    code, out, _ = run(capsys, "world", "delete", "Untouched", "--yes", "--save-dir", str(tmp_path))
    assert code == 0 and "kept in the hall" not in out and not store.exists("Untouched")
    assert Hall(tmp_path).runs() == []


def test_world_delete_refuses_when_its_run_cannot_reach_the_hall(capsys, tmp_path):
    """Issue 24, case 2: a file named ``runs`` where the hall's folder should be. The delete
    is refused in one line with a non-zero exit, and the world (its run) is kept."""
    store = Store(tmp_path)
    world = World("Blocked Hall", TINY_SEED, "small")
    state = tiny_game(name=world.name)
    recording = Recording.begin(state)
    step(state, Wait())
    recording.add(Wait(), state)
    store.save(state, world, recording=recording)
    (tmp_path / "runs").write_text("a file where the hall's folder goes")
    code, out, err = run(
        capsys, "world", "delete", "Blocked Hall", "--yes", "--save-dir", str(tmp_path)
    )
    assert code != 0 and "deleted" not in out
    assert len(err.splitlines()) == 1 and "Traceback" not in err and "hall" in err, err
    assert store.exists("Blocked Hall")  # its run is not lost
