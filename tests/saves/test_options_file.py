"""The options file as hostile input: whatever lies at its path, loading it never waits and
never crashes; the defaults and one line say why."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from saves import options as saved


def load_within(path, seconds: float = 5.0):
    """``saved.load(path)`` in a thread; fails if it does not return in ``seconds``."""
    out: list[tuple[saved.Options, str | None]] = []
    thread = threading.Thread(target=lambda: out.append(saved.load(path)), daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():  # unblock the reader so the daemon thread can end
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        pytest.fail(f"loading the options at {path} waited")
    return out[0]


@pytest.mark.skipif(sys.platform == "win32", reason="no FIFOs")
def test_a_fifo_in_place_of_the_options_file_is_refused_without_waiting(tmp_path):
    path = tmp_path / saved.FILE_NAME
    os.mkfifo(path)
    options, warning = load_within(path)
    assert options == saved.Options()
    assert warning is not None and "\n" not in warning and "not a regular file" in warning


def test_a_folder_in_place_of_the_options_file_is_the_defaults(tmp_path):
    path = tmp_path / saved.FILE_NAME
    path.mkdir()
    options, warning = load_within(path)
    assert options == saved.Options() and warning is not None


def test_a_link_in_place_of_the_options_file_is_refused_in_one_line(tmp_path):
    """The options file follows the rule of every file the game reads and replaces: a regular
    file only (saving could not replace a link either, so reading through one would keep
    options the game can never save)."""
    real = tmp_path / "dotfiles.json"
    saved.save(saved.Options(theme="mono"), real)
    path = tmp_path / saved.FILE_NAME
    path.symlink_to(real)
    options, warning = load_within(path)
    assert options == saved.Options()
    assert warning == "Options not read (a symbolic link, not a regular file): using the defaults"
