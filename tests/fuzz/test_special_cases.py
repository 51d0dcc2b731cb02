"""Hostile files the corpus cannot hold, run through the fuzz runner's child: special files in
place of a save (a FIFO as the file to import, or lying in the save folder: refused at once,
never waited on), a header whose one flipped bit would have defeated the backup (it falls back
to it), and an imported world's date (the import's, not the file's)."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

from saves import Store
from saves import header as h
from tests.fuzz.support import home_save, pack_save, raw_controls, real_save, run_children

fifo_only = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")


def _run_one(tmp_path: Path, argv: list[str], saves: Path) -> dict:
    """``roguelike ARGV`` in the fuzz runner's child, with a 5 s alarm (a hang is the bug)."""
    job = {"id": "one", "argv": argv, "save_dir": str(saves), "watch": [str(saves)], "timeout": 5}
    return run_children([job], tmp_path)[0]


@fifo_only
def test_a_fifo_given_to_import_is_refused_at_once(tmp_path):
    fifo = tmp_path / "world.rgl"
    os.mkfifo(fifo)
    saves = tmp_path / "saves"
    r = _run_one(tmp_path, ["world", "import", str(fifo)], saves)
    assert r["status"] == 2, r["status"]
    assert len(r["stderr"].splitlines()) == 1 and raw_controls(r["stderr"]) == []


@fifo_only
def test_a_fifo_in_the_save_folder_does_not_hang_the_list(tmp_path):
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "home.rgl").write_bytes(home_save())
    os.mkfifo(saves / "trap.rgl")
    r = _run_one(tmp_path, ["world", "list", "--format", "json"], saves)
    assert r["status"] == 0, (r["status"], r["stderr"])
    assert '"Home"' in r["stdout"]


def test_an_imported_world_is_dated_by_the_import_not_by_its_file(tmp_path):
    source = tmp_path / "future.rgl"
    source.write_bytes(pack_save(saved="9999-12-31T23:59:59.999+00:00"))
    info = Store(tmp_path / "saves").import_file(source)
    saved = dt.datetime.fromisoformat(info.saved)
    assert saved <= dt.datetime.now(dt.UTC) + dt.timedelta(minutes=5), info.saved


def test_one_bit_in_the_header_falls_back_to_the_backup(tmp_path):
    saves = tmp_path / "saves"
    saves.mkdir()
    good = real_save()
    (saves / "tiny.rgl.bak").write_bytes(good)
    key = b'"format": '
    start = good.index(key) + len(key)
    end = good.index(b",", start)
    digits = good[start:end]
    assert digits.isdigit() and int(digits) == h.FORMAT_VERSION

    def bent(at: int, bit: int) -> bytes:
        return digits[:at] + bytes([digits[at] ^ (1 << bit)]) + digits[at + 1 :]

    # one bit in one digit of the format makes it a format not read (a number JSON still reads)
    number = next(
        bent(at, bit)
        for at in range(len(digits))
        for bit in range(4)
        if bent(at, bit).isdigit()
        and (len(digits) == 1 or bent(at, bit)[:1] != b"0")
        and not h.OLDEST_FORMAT <= int(bent(at, bit)) <= h.FORMAT_VERSION
    )
    (saves / "tiny.rgl").write_bytes(good[:start] + number + good[end:])
    loaded = Store(saves).open("Tiny", warn=False)
    assert loaded.world.name == "Tiny"
