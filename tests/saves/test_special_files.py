"""Only regular files are read or replaced: a FIFO, a device, a folder or a symbolic link
given as an import, lying in the save folder or named as an export's target is refused in
one line before it is read (so nothing waits on a FIFO), and never replaced. Also: imports are
dated by the import, a future date cannot put a world first, and an export of a damaged world
says that the backup went out."""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from saves import Store, codec
from saves.files import NotRegularFile, read_file
from saves.hall import Hall
from saves.record import RunFileError, pack
from tests.cli.support import refused, run
from tests.saves.run_support import won_record
from tests.saves.support import SEED, fresh_game, world_of

NAME = "Round Trip"  # the name world_of gives
#: How long a call may take before the test calls it hung (never a measure of speed).
HANG = 30.0
NOW = "2026-05-01T12:00:00.000+00:00"
FUTURE = "2999-12-31T23:59:59.000+00:00"


def promptly(call: Callable[..., Any], *args: Any) -> Any:
    """``call(*args)``, in a thread that must finish: a call blocked on a FIFO fails the test
    instead of hanging it."""
    out: dict[str, Any] = {}

    def go() -> None:
        try:
            out["value"] = call(*args)
        except BaseException as err:  # noqa: BLE001 - handed back to the test
            out["error"] = err

    thread = threading.Thread(target=go, daemon=True)
    thread.start()
    thread.join(HANG)
    assert not thread.is_alive(), f"{getattr(call, '__name__', call)} hung"
    if "error" in out:
        raise out["error"]
    return out["value"]


def snapshot(path: Path) -> dict[str, bytes | str]:
    """Every entry of ``path``: a file's bytes, or what else it is."""
    out: dict[str, bytes | str] = {}
    for p in sorted(path.iterdir()):
        mode = p.lstat().st_mode
        out[p.name] = p.read_bytes() if stat.S_ISREG(mode) else stat.filemode(mode)
    return out


@pytest.fixture
def saved(tmp_path) -> Path:
    """A valid save file outside any save folder."""
    state = fresh_game(SEED)
    path = tmp_path / "given.rgl"
    path.write_bytes(codec.encode(world_of(state), state, saved=NOW))
    return path


def special(tmp_path: Path, kind: str, saved: Path) -> Path:
    """A path of ``kind`` (fifo, folder, symlink to a valid save, or a system device)."""
    if kind == "/dev/null" or kind == "/dev/zero":
        return Path(kind)
    path = tmp_path / f"special-{kind}.rgl"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        path.symlink_to(saved)
    return path


KINDS = {
    "fifo": "a FIFO",
    "folder": "a folder",
    "symlink": "a symbolic link",
    "/dev/null": "a device",
    "/dev/zero": "a device",
}


# --- reading ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(KINDS))
def test_read_file_refuses_anything_but_a_regular_file_before_reading(tmp_path, saved, kind):
    path = special(tmp_path, kind, saved)
    with pytest.raises(NotRegularFile) as refusal:
        promptly(read_file, path)
    assert refusal.value.strerror == f"{KINDS[kind]}, not a regular file"
    assert refusal.value.filename == str(path)
    assert read_file(saved) == saved.read_bytes()  # a plain file reads as ever


@pytest.mark.parametrize("kind", list(KINDS))
def test_an_import_from_a_special_file_is_refused_and_changes_nothing(
    capsys, tmp_path, saved, kind
):
    path = special(tmp_path, kind, saved)
    store = Store(tmp_path / "worlds")
    Store(store.path).save(fresh_game(SEED), world_of(fresh_game(SEED), "Already Here"))
    before = snapshot(store.path)
    with pytest.raises(NotRegularFile):
        promptly(store.import_file, path)
    line = refused(
        capsys, "world", "import", str(path), "--save-dir", str(store.path),
        words=f"{path}: {KINDS[kind]}, not a regular file",
    )  # fmt: skip
    assert "\x1b" not in line
    assert snapshot(store.path) == before


def test_special_files_in_the_save_folder_are_listed_with_their_problem(capsys, tmp_path, saved):
    store = Store(tmp_path / "worlds")
    state = fresh_game(SEED)
    store.save(state, world_of(state, "Good Keep"))
    os.mkfifo(store.path / "a-pipe.rgl")
    (store.path / "a-folder.rgl").mkdir()
    (store.path / "a-link.rgl").symlink_to(saved)
    os.mkfifo(store.path / "b-pipe.rgl.bak")
    infos = promptly(store.list)
    problems = {i.name: i.problem for i in infos}
    assert problems == {
        "Good Keep": None,
        "a-pipe": "a FIFO, not a regular file",
        "a-folder": "a folder, not a regular file",
        "a-link": "a symbolic link, not a regular file",
        "b-pipe": "a FIFO, not a regular file",
    }
    assert promptly(store.latest).name == "Good Keep"
    code, out, _ = promptly(run, capsys, "world", "list", "--save-dir", str(store.path))
    assert code == 0 and "a FIFO, not a regular file" in out
    with pytest.raises(Exception, match="a FIFO, not a regular file") as refusal:
        promptly(store.load, "a-pipe")
    assert "\n" not in str(refusal.value)
    assert stat.S_ISFIFO((store.path / "a-pipe.rgl").lstat().st_mode)  # left as it was


def test_a_hall_with_a_fifo_among_its_runs_does_not_wait_on_it(tmp_path, saved):
    hall = Hall(tmp_path)
    hall.add(won_record())
    os.mkfifo(tmp_path / "runs" / "20260101-ffffff.run")
    assert [r.id for r in promptly(hall.runs)] == [won_record().id]
    link = tmp_path / "link.run"
    (tmp_path / "real.run").write_bytes(pack(won_record()))
    link.symlink_to(tmp_path / "real.run")
    with pytest.raises(RunFileError, match="a symbolic link, not a regular file"):
        promptly(hall.check_file, link)


# --- writing ---------------------------------------------------------------------------------


def device_node(tmp_path: Path) -> Path:
    """A character device of our own (a copy of /dev/null's numbers), never a system one."""
    path = tmp_path / "device"
    try:
        os.mknod(path, 0o600 | stat.S_IFCHR, os.stat("/dev/null").st_rdev)
    except (PermissionError, AttributeError):
        pytest.skip("making a device needs root")
    return path


@pytest.mark.parametrize("kind", ["fifo", "symlink", "device"])
def test_export_never_replaces_a_device_a_fifo_or_a_link(capsys, tmp_path, saved, kind):
    store = Store(tmp_path / "worlds")
    state = fresh_game(SEED)
    store.save(state, world_of(state))
    target = device_node(tmp_path) if kind == "device" else special(tmp_path, kind, saved)
    mode = target.lstat().st_mode
    kept = saved.read_bytes()
    with pytest.raises(NotRegularFile):
        store.export(NAME, target)
    refused(
        capsys, "world", "export", NAME, "-o", str(target), "--save-dir", str(store.path),
        words="not a regular file",
    )  # fmt: skip
    assert target.lstat().st_mode == mode and saved.read_bytes() == kept
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_runs_export_shares_the_rule_for_devices(tmp_path):
    hall = Hall(tmp_path / "hall")
    record = hall.add(won_record())
    target = device_node(tmp_path)
    with pytest.raises(RunFileError, match="is a device, not a regular file"):
        hall.export(record.id, target)
    assert stat.S_ISCHR(target.lstat().st_mode)


def test_the_temp_file_sweep_removes_links_without_following_them(tmp_path):
    store = Store(tmp_path / "worlds")
    state = fresh_game(SEED)
    store.save(state, world_of(state))
    outside = tmp_path / "precious"
    outside.write_bytes(b"keep")
    link = store.path / ".round-trip.rgl.123.abcd0123.tmp"
    link.symlink_to(outside)
    folder = store.path / ".round-trip.rgl.456.abcd0123.tmp"
    folder.mkdir()
    (folder / "inside").write_bytes(b"keep too")
    left = store.path / ".round-trip.rgl.789.abcd0123.tmp"
    left.write_bytes(b"half a save")
    with store.lock(NAME):
        pass
    assert not os.path.lexists(link) and not left.exists()
    assert outside.read_bytes() == b"keep" and (folder / "inside").read_bytes() == b"keep too"


# --- dates and the backup --------------------------------------------------------------------


def test_an_imported_world_is_dated_by_the_import(tmp_path):
    state = fresh_game(SEED)
    source = tmp_path / "from-the-future.rgl"
    source.write_bytes(codec.encode(world_of(state, "Far Keep"), state, saved=FUTURE))
    store = Store(tmp_path / "worlds", clock=lambda: NOW)
    info = store.import_file(source)
    assert info.saved == NOW
    assert store.load("Far Keep")[0].created == world_of(state).created  # its own birth kept


def test_a_world_dated_in_the_future_is_not_the_one_continue_opens(tmp_path):
    """A file copied into the folder by hand keeps its date: it is listed as the oldest."""
    store = Store(tmp_path / "worlds")
    state = fresh_game(SEED)
    store.save(state, world_of(state, "Mine"))
    (store.path / "far-keep.rgl").write_bytes(
        codec.encode(world_of(state, "Far Keep"), state, saved=FUTURE)
    )
    old = Store(store.path, clock=lambda: "2001-01-01T00:00:00.000+00:00")
    old.save(state, world_of(state, "Old Keep"))
    assert [i.name for i in store.list()] == ["Mine", "Old Keep", "Far Keep"]
    assert store.latest().name == "Mine"
    assert store.info("Far Keep").saved == FUTURE  # listed as it says, ordered as the oldest


def damaged_main(tmp_path: Path) -> tuple[Store, bytes]:
    """A world saved twice whose main file was then damaged: the store and its backup's bytes."""
    store = Store(tmp_path / "worlds", clock=lambda: NOW)
    state = fresh_game(SEED)
    for turn in (1, 2):
        state.turn = turn
        store.save(state, world_of(state))
    main = store.file(NAME)
    backup = main.with_name(main.name + ".bak")
    data = bytearray(main.read_bytes())
    data[-5] ^= 0xFF
    main.write_bytes(bytes(data))
    return store, backup.read_bytes()


def test_exporting_a_damaged_world_says_that_the_backup_went_out(capsys, tmp_path):
    store, backup = damaged_main(tmp_path)
    dest = store.export(NAME, tmp_path / "out.rgl")
    assert dest.read_bytes() == backup
    warning = store.last_warning or ""
    assert warning.startswith(f"the save of {NAME!r} is damaged (") and "checksum" in warning
    assert warning.endswith(f"; exported the one before it (saved {NOW})")
    code, out, err = run(
        capsys, "world", "export", NAME, "-o", str(tmp_path / "again.rgl"),
        "--save-dir", str(store.path),
    )  # fmt: skip
    assert code == 0 and out.startswith(f"exported {NAME!r} to ")
    assert err == f"roguelike: warning: {store.last_warning}\n"


def test_exporting_a_whole_world_warns_of_nothing(capsys, tmp_path):
    store = Store(tmp_path / "worlds")
    state = fresh_game(SEED)
    store.save(state, world_of(state))
    store.last_warning = "stale"
    store.export(NAME, tmp_path / "out.rgl")
    assert store.last_warning is None
    code, _, err = run(
        capsys, "world", "export", NAME, "-o", str(tmp_path / "again.rgl"),
        "--save-dir", str(store.path),
    )  # fmt: skip
    assert code == 0 and err == ""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_as_the_options_file_is_passed_over_not_waited_on(tmp_path):
    from saves import options

    fifo = tmp_path / "options.json"
    os.mkfifo(fifo)
    opts, warning = promptly(options.load, fifo)
    assert opts == options.Options()
    assert warning is not None and "not a regular file" in warning


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_as_the_puzzle_scores_file_is_passed_over_and_kept(tmp_path):
    from roguelike.puzzles import codes
    from saves.scores import FILE_NAME, BestScores

    os.mkfifo(tmp_path / FILE_NAME)
    before = snapshot(tmp_path)
    scores = BestScores(tmp_path)
    assert promptly(scores.read) == {}
    assert scores.notice is not None and "not a regular file" in scores.notice
    with pytest.raises(OSError, match="not a regular file"):  # told, never a silent False
        promptly(scores.record, codes.encode("jugs", "easy", 42), 70)
    assert snapshot(tmp_path) == before


def test_an_options_or_scores_file_too_large_is_refused_before_it_is_read(tmp_path):
    from saves import options
    from saves.scores import FILE_NAME, MAX_BYTES, BestScores

    big = tmp_path / "options.json"
    big.write_bytes(b" " * (options.MAX_BYTES + 1))
    assert options.load(big)[1] == (
        f"Options file ignored: it is larger than {options.MAX_BYTES} bytes; using the defaults"
    )
    (tmp_path / FILE_NAME).write_bytes(b" " * (MAX_BYTES + 1))
    scores = BestScores(tmp_path)
    assert scores.read() == {}
    assert scores.notice is not None and f"larger than {MAX_BYTES} bytes" in scores.notice


@pytest.mark.parametrize("kind", ["folder", "fifo", "symlink"])
def test_a_special_file_where_the_backup_goes_never_stops_a_save(tmp_path, saved, kind):
    """A folder, FIFO or link named like the backup is left alone, and the save still goes
    through: a thing in the folder must not make every later save of the world fail."""
    if kind == "fifo" and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    store = Store(tmp_path / "worlds", clock=lambda: NOW)
    state = fresh_game(SEED)
    store.save(state, world_of(state))
    backup = store.file(NAME).with_name(store.file(NAME).name + ".bak")
    if kind == "folder":
        backup.mkdir()
    elif kind == "fifo":
        os.mkfifo(backup)
    else:
        backup.symlink_to(saved)
    mode = backup.lstat().st_mode
    for turn in (1, 2):
        state.turn = turn
        promptly(store.save, state, world_of(state))
    assert store.load(NAME)[1].turn == 2
    assert backup.lstat().st_mode == mode  # not replaced
    assert saved.read_bytes()[:8] == b"RGLKSAVE"  # a link's target untouched


def test_a_save_copied_in_under_another_file_name_is_listed_as_that_file_with_a_problem(
    capsys, tmp_path
):
    """A world's file name comes from its name: a save renamed or dropped in under another
    name cannot be opened by its name, so it must not be listed (nor continued) as if it could;
    it is listed under its file's name, saying to import it, and can be deleted by that."""
    store = Store(tmp_path / "worlds", clock=lambda: NOW)
    state = fresh_game(SEED)
    store.save(state, world_of(state, "Mine"))
    later = Store(store.path, clock=lambda: "2030-01-01T00:00:00.000+00:00")
    later.save(state, world_of(state, "Dropped In"))
    store.file("Dropped In").rename(store.path / "renamed.rgl")
    infos = {i.name: i for i in store.list()}
    assert set(infos) == {"Mine", "renamed"}
    assert infos["renamed"].problem is not None and "import" in infos["renamed"].problem
    assert not infos["renamed"].playable
    assert store.latest().name == "Mine"  # Continue opens a world it can open
    code, out, _ = run(capsys, "world", "list", "--save-dir", str(store.path))
    assert code == 0 and "renamed" in out
    code, _, _ = run(capsys, "world", "delete", "renamed", "--yes", "--save-dir", str(store.path))
    assert code == 0 and not (store.path / "renamed.rgl").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_puzzle_file_that_is_a_fifo_is_refused_not_waited_on(tmp_path):
    from roguelike.cli import Fail
    from roguelike.cli.puzzle import read_file as read_puzzle

    fifo = tmp_path / "puzzle.json"
    os.mkfifo(fifo)
    with pytest.raises(Fail, match="not a regular file"):
        promptly(read_puzzle, str(fifo))
