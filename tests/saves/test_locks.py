"""A world's lock: an OS lock on a lock file held open for the game's life. Exactly one game
holds it under races, a killed game's lock is free by construction, what a lock file says is
never trusted (only shown), and every refusal is one line naming the lock and its holder."""

from __future__ import annotations

import errno
import fcntl
import os
import re
import socket
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from saves import Store, World, WorldLocked
from saves.files import NotRegularFile
from tests.cli.support import refused, run
from tests.saves import lock_race

NAME = "Test Keep"
LOCK = "test-keep.lock"
#: What no message shown to a player may hold: a control character (an escape sequence).
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


@pytest.fixture(scope="module")
def ctx():
    return lock_race.context()


def hold_from_outside(path: Path, text: bytes = b"") -> int:
    """Lock ``path`` through an open file of its own (as another game would), with ``text``
    in it; the caller closes the returned descriptor to let go."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    os.write(fd, text)
    return fd


def one_line(message: str) -> None:
    assert "\n" not in message and not CONTROL.search(message), repr(message)


# --- races -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rounds", [5, pytest.param(30, marks=pytest.mark.slow, id="30-rounds")], ids=str
)
def test_six_games_started_at_once_after_a_killed_holder_exactly_one_holds(ctx, tmp_path, rounds):
    """Round after round, a game holding the lock is killed with kill -9 (its lock file stays
    behind), then six games start at the same moment: exactly one holds the world, and each of
    the five others is refused in one line naming the lock. A few rounds in the fast tier, the
    long race in the slow one."""
    for n in range(rounds):
        seen = lock_race.one_round(ctx, tmp_path)
        assert seen.errors == [], (n, seen.errors)
        assert seen.stale_file_left  # the killed game's file was there: it did not matter
        assert seen.holders == 1, (n, seen)
        assert len(seen.messages) == lock_race.GAMES - 1
        for message in seen.messages:
            one_line(message)
            assert str(tmp_path / "race-keep.lock") in message
    assert not (tmp_path / "race-keep.lock").exists()  # the last winner released it


def test_games_taking_and_releasing_the_lock_are_never_two_inside(ctx, tmp_path):
    """A release removes the lock file while other games may be opening it: a game that locks
    the removed file must see it is gone and try again, never hold it beside the new one."""
    held, overlaps = lock_race.churn(ctx, tmp_path, turns=150)
    assert overlaps == 0
    assert held > 0


# --- one process -----------------------------------------------------------------------------


def test_another_store_of_this_process_is_refused_like_another_game(tmp_path):
    first, second = Store(tmp_path), Store(tmp_path)
    with first.lock(NAME) as lk:
        assert lk.held
        with pytest.raises(WorldLocked) as refusal:
            second.lock(NAME)
        assert str(refusal.value) == (
            f"world {NAME!r} is already open in this game; its lock is {tmp_path / LOCK}"
        )
        with pytest.raises(WorldLocked):
            first.lock(NAME)  # even the same store does not take it twice
    assert not (tmp_path / LOCK).exists()
    second.lock(NAME).release()  # free again


def test_the_held_lock_file_names_its_holder(tmp_path):
    with Store(tmp_path).lock(NAME):
        pid, host, since = (tmp_path / LOCK).read_text().splitlines()
    assert int(pid) == os.getpid() and host == socket.gethostname()
    assert since.endswith("+00:00")


def test_a_refusal_names_the_holder_and_where_the_lock_is(tmp_path):
    text = b"4242\nother-host\n2025-03-04T10:42:00.000+00:00\n"
    fd = hold_from_outside(tmp_path / LOCK, text)
    try:
        with pytest.raises(WorldLocked) as refusal:
            Store(tmp_path).lock(NAME)
    finally:
        os.close(fd)
    assert str(refusal.value) == (
        f"world {NAME!r} is open in another game (process 4242 on other-host, "
        f"since 2025-03-04 10:42 UTC); its lock is {tmp_path / LOCK}"
    )
    Store(tmp_path).lock(NAME).release()  # its holder closed it: free, whatever the file says


def test_a_holder_that_has_not_written_yet_is_being_opened(tmp_path):
    fd = hold_from_outside(tmp_path / LOCK)
    try:
        with pytest.raises(WorldLocked, match="being opened by another game; its lock is"):
            Store(tmp_path).lock(NAME)
    finally:
        os.close(fd)


@settings(max_examples=60)
@given(text=st.binary(max_size=600))
def test_whatever_a_held_lock_file_says_the_refusal_is_one_clean_line(tmp_path_factory, text):
    folder = tmp_path_factory.mktemp("locks")
    fd = hold_from_outside(folder / LOCK, text)
    try:
        with pytest.raises(WorldLocked) as refusal:
            Store(folder).lock(NAME)
    finally:
        os.close(fd)
    one_line(str(refusal.value))
    assert str(refusal.value).endswith(f"its lock is {folder / LOCK}")


@pytest.mark.parametrize(
    "left",
    [
        b"",
        b"\xff\x00garbage\x1b]52;c;aGk=\x07",
        str(10**30).encode() + b"\nhost\n",  # an absurd pid
        b"-5\n",
        f"{os.getppid()}\n{socket.gethostname()}\n".encode(),  # an unrelated live process
        f"{os.getpid()}\n{socket.gethostname()}\n".encode(),  # even this very process
    ],
    # named, not shown: the pids differ between pytest-xdist's workers, which must agree on ids
    ids=["empty", "garbage", "absurd-pid", "negative-pid", "parent-process", "this-process"],
)
def test_a_lock_file_nobody_holds_is_free_whatever_it_says(tmp_path, left):
    (tmp_path / LOCK).write_bytes(left)
    store = Store(tmp_path)
    with store.lock(NAME):
        assert (tmp_path / LOCK).read_text().startswith(f"{os.getpid()}\n")
    assert not (tmp_path / LOCK).exists()


# --- failures --------------------------------------------------------------------------------


def no_space(fd: int, data: bytes) -> int:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_lock_that_cannot_be_written_on_a_full_disk_leaves_nothing_behind(tmp_path, monkeypatch):
    store = Store(tmp_path)
    monkeypatch.setattr(os, "write", no_space)
    with pytest.raises(OSError) as failure:
        store.lock(NAME)
    monkeypatch.undo()
    assert failure.value.errno == errno.ENOSPC
    assert failure.value.filename == str(tmp_path / LOCK)
    assert "cannot write the lock" in str(failure.value.strerror)
    assert not (tmp_path / LOCK).exists()
    assert store._locks == {}
    Store(tmp_path).lock(NAME).release()  # nobody is kept out


def test_a_full_disk_on_the_command_line_is_one_line_and_keeps_nobody_out(
    capsys, tmp_path, monkeypatch
):
    monkeypatch.setattr(os, "write", no_space)
    line = refused(
        capsys, "world", "create", NAME, "--save-dir", str(tmp_path), words="No space left"
    )
    monkeypatch.undo()
    assert str(tmp_path / LOCK) in line
    assert not (tmp_path / LOCK).exists()
    code, out, _ = run(capsys, "world", "create", NAME, "--save-dir", str(tmp_path))
    assert code == 0 and out.startswith("created world")


def test_a_folder_where_no_lock_can_be_made_is_one_line(capsys, tmp_path, monkeypatch):
    """A read-only folder (simulated: the tests may run as root, who may write anywhere)."""
    real_open = os.open

    def read_only(path, flags, *args):
        if str(path).endswith(".lock") and flags & os.O_CREAT:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", read_only)
    line = refused(capsys, "world", "create", NAME, "--save-dir", str(tmp_path), words="Read-only")
    assert str(tmp_path / LOCK) in line
    assert not Store(tmp_path).exists(NAME)


@pytest.mark.parametrize("kind", ["symlink", "fifo", "folder"])
def test_a_lock_path_that_is_not_a_file_is_refused_and_left_alone(tmp_path, kind):
    path, target = tmp_path / LOCK, tmp_path / "elsewhere"
    target.write_bytes(b"keep me")
    if kind == "symlink":
        path.symlink_to(target)
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
    with pytest.raises(NotRegularFile) as refusal:
        Store(tmp_path).lock(NAME)
    assert refusal.value.filename == str(path)
    assert "not a regular file" in str(refusal.value.strerror)
    assert target.read_bytes() == b"keep me"
    assert os.path.lexists(path)


def test_a_killed_game_leaves_its_world_to_the_next_one_on_the_command_line(ctx, capsys, tmp_path):
    """The whole way a player meets it: a game killed while playing, then ``world delete``."""
    Store(tmp_path).create(World(NAME, 1234))
    ready = ctx.Event()
    holder = ctx.Process(target=lock_race.hold_world, args=(str(tmp_path), NAME, ready))
    holder.start()
    try:
        assert ready.wait(lock_race.PATIENCE)
        line = refused(
            capsys, "world", "delete", NAME, "--yes", "--save-dir", str(tmp_path),
            words=f"is open in another game (process {holder.pid} on ",
        )  # fmt: skip
        assert line.endswith(f"its lock is {tmp_path / LOCK}")
    finally:
        holder.kill()
        holder.join()
    code, out, _ = run(capsys, "world", "delete", NAME, "--yes", "--save-dir", str(tmp_path))
    assert code == 0 and out.startswith(f"deleted world {NAME!r}")
    assert not (tmp_path / LOCK).exists()
