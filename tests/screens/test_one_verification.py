"""One verification of a run record, everywhere: ``replay --verify``, ``runs import``, the
title's challenge import and the hall's listing refuse the same forged files with the same
line, naming the same claim. Before, ``replay --verify`` certified a run played in a custom
world (one floor of three, no monsters) and a false difficulty, which ``runs import`` refused.
"""

from __future__ import annotations

import contextlib
import dataclasses
from pathlib import Path

import pytest
from textual.worker import WorkerFailed

import saves.hall
import saves.record
import saves.verify
from saves.hall import CHECKED_FILE, Hall
from saves.record import pack
from screens.app import RoguelikeApp
from tests.cli.support import run
from tests.saves.run_support import won_record
from tests.screens.support import save_dir, screen_text, start_import

#: Each forged file: the change to a true record, whether custom worlds count (a test's tiny
#: world is one: off, the file is a run of a world the game never makes), and the words
#: of the one line that refuses it.
FORGED = {
    "custom world": (
        {},
        False,
        "the run was played in a custom world (no monsters, 1 floors of 3)",
    ),
    "false difficulty": (
        {"difficulty": "hard"},
        True,
        "the record's claim of difficulty is false: it says 'hard', its recording gives 'normal'",
    ),
    "false outcome": (
        {"outcome": "died", "cause": "slain by a rat"},
        True,
        "the record's claim of outcome is false: it says 'died', its recording gives 'won'",
    ),
}


@pytest.fixture(params=sorted(FORGED))
def forged(request, monkeypatch, tmp_path) -> tuple[Path, str]:
    """A forged run file and the words that must refuse it."""
    changes, custom, words = FORGED[request.param]
    monkeypatch.setattr(saves.verify, "CUSTOM_WORLDS", custom)
    path = tmp_path / "forged.run"
    path.write_bytes(pack(won_record(**changes)))
    return path, words


def error_line(err: str) -> str:
    (line,) = err.strip().splitlines()
    return line.removeprefix("roguelike: error: ")


def test_replay_verify_refuses_it_naming_the_claim(capsys, forged):
    path, words = forged
    code, _, err = run(capsys, "replay", str(path), "--verify")
    assert code == 1 and words in error_line(err)


def test_runs_import_refuses_it_with_the_same_line(capsys, forged, tmp_path):
    path, words = forged
    code, _, err = run(capsys, "replay", str(path), "--verify")
    verifier = error_line(err)
    code, out, err = run(capsys, "runs", "import", str(path), "--save-dir", str(tmp_path))
    assert code == 2 and out == "" and words in error_line(err)
    assert error_line(err).endswith(verifier)
    assert Hall(tmp_path).challenges() == []


def test_the_hall_does_not_list_it_dropped_in_by_hand_and_says_why(forged, tmp_path):
    path, words = forged
    hall = Hall(tmp_path / "saves")
    for folder in ("runs", "challenges"):
        (hall.path / folder).mkdir(parents=True)
        (hall.path / folder / "dropped.run").write_bytes(path.read_bytes())
    assert hall.runs() == []
    (problem,) = hall.problems
    assert problem.startswith("dropped.run: not listed: ") and words in problem
    assert hall.challenges() == []
    assert words in hall.problems[0]
    for folder in ("runs", "challenges"):  # nothing of it counted as checked
        assert not (hall.path / folder / CHECKED_FILE).exists()


async def test_the_titles_challenge_import_refuses_it_with_the_same_line(forged):
    path, words = forged
    app = RoguelikeApp()
    async with app.run_test(size=(160, 30)) as pilot:
        screen = await start_import(pilot, path)
        with contextlib.suppress(WorkerFailed):
            await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.record is None
        shown = " ".join(screen_text(app).split())
        assert "Refused: " + words[:40] in shown
    assert Hall(save_dir()).challenges() == []


def test_every_entry_point_gives_the_one_line_verification_gives(capsys, forged, tmp_path):
    """The line is :func:`saves.verify.verification`'s, word for word, at each entry point."""
    path, _ = forged
    record = saves.record.unpack(path.read_bytes())
    line = saves.verify.verification(record).problem
    assert line is not None
    _, _, err = run(capsys, "replay", str(path), "--verify")
    assert error_line(err) == line
    _, _, err = run(capsys, "runs", "import", str(path), "--save-dir", str(tmp_path))
    assert error_line(err).endswith(line)
    hall = Hall(tmp_path / "h")
    (hall.path / "runs").mkdir(parents=True)
    (hall.path / "runs" / "x.run").write_bytes(path.read_bytes())
    hall.runs()
    assert hall.problems == [f"x.run: not listed: {line}"]


def test_a_true_file_dropped_in_by_hand_is_replayed_once_then_listed(tmp_path, monkeypatch):
    record = won_record()
    hall = Hall(tmp_path)
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "mine.run").write_bytes(pack(record))
    replays = []
    real = saves.verify.verify
    monkeypatch.setattr(saves.hall, "verify", lambda r: replays.append(r.id) or real(r))
    assert [r.id for r in hall.runs()] == [record.id] and hall.problems == []
    assert replays == [record.id]
    saves.hall._READ.clear()  # a new process: the list of checked files answers, no replay
    assert [r.id for r in Hall(tmp_path).runs()] == [record.id]
    assert replays == [record.id]
    assert (tmp_path / "runs" / CHECKED_FILE).read_text().count("\n") == 1


def test_a_run_the_game_keeps_needs_no_replay_to_be_listed(tmp_path, monkeypatch):
    kept = Hall(tmp_path).add(dataclasses.replace(won_record(), world="Kept"))
    saves.hall._READ.clear()
    monkeypatch.setattr(saves.hall, "verify", lambda r: pytest.fail("replayed"))
    assert [r.id for r in Hall(tmp_path).runs()] == [kept.id]
