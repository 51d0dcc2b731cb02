"""``roguelike world …``, ``--save-dir``, ``--daily`` and ``--daily-code`` as a user or a script
meets them: every mistake is one line on stderr and exit status 2, and changes nothing."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

from roguelike import seeds
from saves import Store, codec, daily_code, daily_seed
from saves import header as h
from tests.cli.support import refused, run
from tests.saves.support import SEED, fresh_game, world_of

ROOT = Path(__file__).resolve().parents[2]


def snapshot(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.iterdir())} if path.exists() else {}


def test_create_list_export_import_delete(capsys, tmp_path):
    d = str(tmp_path / "worlds")
    code, out, _ = run(
        capsys, "world", "create", "Deep Dive", "--seed", "dragon", "--preset", "small",
        "--save-dir", d,
    )  # fmt: skip
    assert code == 0 and seeds.normalise("dragon") in out and "deep-dive.rgl" in out
    code, out, _ = run(capsys, "--save-dir", d, "world", "list")  # before the command, too
    assert code == 0
    header, row = out.splitlines()
    assert header.split()[:7] == ["NAME", "SEED", "PRESET", "DIFFICULTY", "FLOOR", "TURN", "SAVED"]
    assert "normal" in row.split()
    assert row.startswith("Deep Dive") and seeds.normalise("dragon") in row and "1/3" in row
    code, out, _ = run(capsys, "world", "list", "--format", "json", "--save-dir", d)
    doc = json.loads(out)
    assert doc["dir"] == d
    (w,) = doc["worlds"]
    assert (w["name"], w["seed"], w["preset"], w["floor"], w["turn"]) == (
        "Deep Dive",
        seeds.normalise("dragon"),
        "small",
        1,
        0,
    )
    assert w["date"] and w["problem"] is None
    shared = tmp_path / "deep.rgl"
    code, out, _ = run(capsys, "world", "export", "Deep Dive", "-o", str(shared), "--save-dir", d)
    assert code == 0 and shared.exists() and codec.decode(shared.read_bytes()).world.name
    code, out, _ = run(capsys, "world", "import", str(shared), "--name", "Copy", "--save-dir", d)
    assert code == 0 and "'Copy'" in out
    names = [w["name"] for w in json.loads(run(capsys, "world", "list", "--format", "json",
                                               "--save-dir", d)[1])["worlds"]]  # fmt: skip
    assert sorted(names) == ["Copy", "Deep Dive"]
    before = snapshot(Path(d))
    refused(capsys, "world", "delete", "Copy", "--save-dir", d, words="add --yes")
    assert snapshot(Path(d)) == before
    code, out, _ = run(capsys, "world", "delete", "Copy", "--yes", "--save-dir", d)
    assert code == 0 and "deleted" in out
    assert not (Path(d) / "copy.rgl").exists() and (Path(d) / "deep-dive.rgl").exists()


def test_the_environment_names_the_directory(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("ROGUELIKE_SAVE_DIR", str(tmp_path))
    code, out, _ = run(capsys, "world", "list")
    assert code == 0 and out == f"no worlds in {tmp_path}\n"


def test_mistakes_are_one_line_and_change_nothing(capsys, tmp_path):
    d = tmp_path / "worlds"
    store = Store(d)
    state = fresh_game(SEED)
    world = world_of(state, "Kept")
    store.save(state, world)
    before = snapshot(d)
    args = ("--save-dir", str(d))
    refused(capsys, "world", "create", "Kept", "--seed", "x", *args, words="already exists")
    refused(capsys, "world", "create", "kept", "--seed", "x", *args, words="already exists")
    refused(capsys, "world", "create", "   ", *args, words="cannot be empty")
    refused(capsys, "world", "create", "New", "--seed", "N65Q-QBJ0-23PW", *args, words="check")
    refused(capsys, "world", "delete", "Nobody", "--yes", *args, words="no world named")
    refused(capsys, "world", "export", "Nobody", "-o", str(tmp_path / "x"), *args, words="no world")
    refused(capsys, "world", "import", str(tmp_path / "missing.rgl"), *args, words="missing.rgl")
    nowhere = str(tmp_path / "no-such-dir" / "out.rgl")
    refused(capsys, "world", "export", "Kept", "-o", nowhere, *args, words=nowhere)
    garbage = tmp_path / "garbage.rgl"
    garbage.write_bytes(b"\x00" * 100)
    refused(capsys, "world", "import", str(garbage), *args, words="not a roguelike save")
    truncated = tmp_path / "truncated.rgl"
    truncated.write_bytes(store.file("Kept").read_bytes()[:-7])
    refused(capsys, "world", "import", str(truncated), "--name", "T", *args, words="truncated")
    newer = tmp_path / "newer.rgl"
    newer.write_bytes(
        h.pack(
            codec.to_document(world, state),
            format=h.FORMAT_VERSION + 1,
            game="9.0",
            generator="1",
            seed=seeds.stored(world.seed),
            world="From The Future",
            created=world.created,
            saved=world.created,
            summary=codec.summary_of(world, state),
        )
    )
    line = refused(capsys, "world", "import", str(newer), *args, words="newer version")
    assert f"format {h.FORMAT_VERSION + 1}" in line and f"up to {h.FORMAT_VERSION}" in line
    shared = tmp_path / "kept.rgl"
    run(capsys, "world", "export", "Kept", "-o", str(shared), *args)
    refused(capsys, "world", "import", str(shared), *args, words="--name")
    assert snapshot(d) == before
    refused(capsys, "--daily", "--seed", "dragon", words="--daily")
    refused(capsys, "--daily-code", "world", "list", words="do not go with world")
    refused(capsys, "world", words="required")


def test_a_subprocess_error_is_one_line(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "roguelike.cli", "world", "import", "/nonexistent/x.rgl"],
        capture_output=True,
        text=True,
        env=dict(os.environ) | {"ROGUELIKE_SAVE_DIR": str(tmp_path)},
        cwd=ROOT,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("roguelike: error: /nonexistent/x.rgl")


def test_the_daily_code_is_the_same_in_two_processes_and_changes_daily():
    codes = [
        subprocess.run(
            [sys.executable, "-m", "roguelike.cli", "--daily-code"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=dict(os.environ) | {"PYTHONHASHSEED": str(n)},
        ).stdout.strip()
        for n in (1, 2)
    ]
    today = dt.datetime.now(dt.UTC).date()
    assert codes[0] == codes[1]
    assert codes[0] in (daily_code(today), daily_code(today - dt.timedelta(days=1)))  # midnight
    assert daily_code(today) != daily_code(today - dt.timedelta(days=1))
    assert daily_seed(dt.date(2025, 1, 1)) == seeds.text_seed("daily-2025-01-01")


def test_daily_starts_todays_world_through_the_play_path(capsys, fake_app):
    assert run(capsys, "--daily", "--preset", "small", make_app=fake_app)[0] == 0
    made = fake_app.made
    assert made["seed"] == daily_seed() and made["preset"] == "small" and made["ran"]


def test_save_dir_reaches_the_game(capsys, fake_app, tmp_path):
    assert run(capsys, "--save-dir", str(tmp_path), "--seed", "x", make_app=fake_app)[0] == 0
    assert fake_app.made["save_dir"] == str(tmp_path) and fake_app.made["ran"]


def test_a_phrase_of_words_is_a_text_seed_on_the_command_line(capsys, tmp_path):
    """``the dark tower`` was refused as a mistyped code; it is text now, for ``world create``
    and ``runs --seed`` alike, while a code with a symbol missing is still refused."""
    d = str(tmp_path / "worlds")
    code, out, _ = run(
        capsys, "world", "create", "Tower", "--seed", "the dark tower", "--preset", "small",
        "--save-dir", d,
    )  # fmt: skip
    assert code == 0 and seeds.encode(seeds.text_seed("the dark tower")) in out
    code, out, _ = run(capsys, "--save-dir", d, "runs", "--seed", "the dark tower")
    assert code == 0
    refused(capsys, "--save-dir", d, "runs", "--seed", "N65Q-QBJ0-23P", words="missing")
    refused(capsys, "world", "create", "New", "--seed", "N65Q QBJ0 23P", "--save-dir", d,
            words="one symbol is missing in the third group")  # fmt: skip
