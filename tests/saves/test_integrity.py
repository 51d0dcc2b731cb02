"""Whole-file integrity: a save's header is sealed, so one changed bit anywhere reads as damage;
a damaged main file falls back to its backup with a message that says so (the load, the world
list, its JSON), and the next save repairs it. Old unsealed formats are refused. Run files
seal their header the same way."""

from __future__ import annotations

import json
import zlib

import pytest

from saves import codec
from saves import header as h
from saves.errors import SaveError, SaveVersionError
from saves.record import MAGIC as RUN_MAGIC
from saves.record import RunFileError, header_line, pack, unpack
from saves.store import BackupWarning, Store
from tests.cli.support import run
from tests.saves.run_support import won_record
from tests.saves.support import SEED, fresh_game, pack_as, world_of


def _header(data: bytes) -> tuple[dict, int]:
    """The header of a save as a dict, and where its line ends."""
    end = data.index(b"\n")
    return json.loads(data[len(h.MAGIC) : end]), end


def _replace_field(data: bytes, key: str, value: object) -> bytes:
    """``data`` with one header field changed and the seal left as it was (a damaged disk)."""
    head, end = _header(data)
    head[key] = value
    return h.MAGIC + json.dumps(head, sort_keys=True).encode("ascii") + data[end:]


@pytest.fixture(scope="module")
def saved() -> bytes:
    state = fresh_game(SEED)
    return codec.encode(world_of(state), state, saved="2025-01-02T00:00:00.000+00:00")


def test_a_save_carries_a_seal_over_every_other_header_field(saved):
    head, _ = _header(saved)
    assert head["format"] == h.FORMAT_VERSION > h.LAST_UNSEALED
    seal = head.pop("seal")
    assert seal == h.seal_of(head)
    assert codec.decode(saved).header.sealed


def test_every_bit_of_the_header_flipped_reads_as_damage_never_as_a_newer_version(saved):
    _, end = _header(saved)
    for i in range(end + 1):  # the magic, the header line and its newline
        for bit in range(8):
            flipped = bytearray(saved)
            flipped[i] ^= 1 << bit
            with pytest.raises(SaveError) as info:
                h.read(bytes(flipped))
            assert not isinstance(info.value, SaveVersionError), (i, bit, info.value)
            assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "key, value",
    [
        ("format", h.FORMAT_VERSION + 1),
        ("world", "Someone Else"),
        ("created", "2031-01-01T00:00:00.000+00:00"),
        ("generator", "999"),
        ("saved", "2999-01-01T00:00:00.000+00:00"),
    ],
)
def test_a_changed_header_field_is_damage(saved, key, value):
    with pytest.raises(SaveError, match="does not match its seal") as info:
        codec.decode(_replace_field(saved, key, value))
    assert not isinstance(info.value, SaveVersionError)


def test_a_sealed_header_of_a_newer_format_is_still_a_newer_version(saved):
    state = fresh_game(SEED)
    world = world_of(state)
    newer = pack_as(world, state, format=h.FORMAT_VERSION + 1, game="9.9")
    with pytest.raises(SaveVersionError, match="newer version"):
        codec.decode(newer)


def _unsealed(data: bytes, **change: object) -> bytes:
    """``data`` rewritten as format 5 wrote it: no seal (and ``change`` made to the header)."""
    head, end = _header(data)
    del head["seal"]
    head.update({"format": h.LAST_UNSEALED, **change})
    return h.MAGIC + json.dumps(head, sort_keys=True).encode("ascii") + data[end:]


def test_an_unsealed_format_5_save_of_this_generator_is_refused_as_too_old(saved):
    """Format 6 came before this generator: an unsealed save naming it is refused in one line
    (a real one is of an older generator, and refused by that first)."""
    with pytest.raises(SaveError, match="format 5 is older than any this game reads"):
        codec.decode(_unsealed(saved))
    assert h.read(_unsealed(saved))[0].sealed is False  # still listed, with its problem


def test_an_unsealed_header_claiming_a_sealed_format_is_damage(saved):
    with pytest.raises(SaveError, match="no seal") as info:
        codec.decode(_unsealed(saved, format=h.FORMAT_VERSION + 3))
    assert not isinstance(info.value, SaveVersionError)


def test_an_unsealed_header_whose_generator_its_payload_denies_is_damage(saved):
    with pytest.raises(SaveError, match="does not match its payload") as info:
        codec.decode(_unsealed(saved, generator="999"))
    assert not isinstance(info.value, SaveVersionError)


def _two_saves(tmp_path) -> tuple[Store, object, object]:
    store = Store(
        tmp_path, clock=iter([f"2025-01-0{d}T00:00:00.000+00:00" for d in range(1, 9)]).__next__
    )
    state = fresh_game(SEED)
    world = world_of(state)
    for turn in (1, 2):
        state.turn = turn
        store.save(state, world)
    return store, world, state


@pytest.mark.parametrize(
    "key, value",
    [
        ("format", h.FORMAT_VERSION + 1),  # was: "made by a newer version", no fallback
        ("world", "Someone Else"),  # was: listed under a name nothing opens
        ("created", "2031-01-01T00:00:00.000+00:00"),  # was: every later save refused
    ],
)
def test_a_damaged_header_falls_back_to_the_backup_and_the_next_save_repairs_it(
    tmp_path, capsys, key, value
):
    store, world, state = _two_saves(tmp_path)
    main = store.file(world.name)
    main.write_bytes(_replace_field(main.read_bytes(), key, value))

    with pytest.warns(BackupWarning):
        loaded = store.open(world.name)
    assert loaded.state.turn == 1
    warning = store.last_warning or ""
    assert "damaged" in warning and "seal" in warning and "next save repairs it" in warning

    [info] = store.list()
    assert info.name == world.name and info.from_backup and info.playable
    assert info.note is not None and "seal" in info.note
    code, out, _ = run(capsys, "world", "list", "--format", "json", "--save-dir", str(tmp_path))
    [listed] = json.loads(out)["worlds"]
    assert code == 0 and listed["from_backup"] is True and "damaged" in listed["note"]
    code, out, _ = run(capsys, "world", "list", "--save-dir", str(tmp_path))
    assert code == 0 and "from backup" in out

    state.turn = 3
    store.save(state, world)  # the damaged main file blocks nothing
    again = store.open(world.name)
    assert again.state.turn == 3 and store.last_warning is None
    [info] = store.list()
    assert not info.from_backup and info.note is None
    assert codec.decode(main.with_name(main.name + ".bak").read_bytes()).state.turn == 1


def test_an_unsealed_old_header_naming_another_world_does_not_block_the_save(tmp_path):
    store, world, state = _two_saves(tmp_path)
    main = store.file(world.name)
    main.write_bytes(_unsealed(main.read_bytes(), world="Someone Else"))
    state.turn = 5
    store.save(state, world)
    assert store.open(world.name).state.turn == 5


def test_a_list_entry_from_the_backup_says_so_and_one_from_the_main_file_does_not(tmp_path):
    store, world, _ = _two_saves(tmp_path)
    info = store.info(world.name)
    assert not info.from_backup and info.note is None
    assert info.to_json()["from_backup"] is False and info.to_json()["note"] is None


# --- run files -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def run_file() -> bytes:
    return pack(won_record())


def test_every_bit_of_a_run_files_header_flipped_is_refused(run_file):
    end = run_file.index(b"\n")
    for i in range(end + 1):
        for bit in range(8):
            flipped = bytearray(run_file)
            flipped[i] ^= 1 << bit
            with pytest.raises(RunFileError) as info:
                unpack(bytes(flipped))
            assert "\n" not in str(info.value)
            assert "newer version" not in str(info.value), (i, bit)


def test_a_run_file_of_format_1_without_a_seal_is_refused_in_one_line(run_file):
    end = run_file.index(b"\n")
    head = json.loads(run_file[len(RUN_MAGIC) : end])
    del head["seal"]
    head["format"] = 1
    old = RUN_MAGIC + json.dumps(head, sort_keys=True).encode("ascii") + run_file[end:]
    with pytest.raises(RunFileError, match="run format 1 is not one this game reads"):
        unpack(old)
    head["format"] = 2
    with pytest.raises(RunFileError, match="no seal"):
        unpack(RUN_MAGIC + json.dumps(head, sort_keys=True).encode("ascii") + run_file[end:])


def test_a_resealed_run_header_still_has_each_field_checked(run_file):
    end = run_file.index(b"\n")
    head = {k: v for k, v in json.loads(run_file[len(RUN_MAGIC) : end]).items() if k != "seal"}
    head["length"] += 1
    with pytest.raises(RunFileError, match="truncated"):
        unpack(header_line(head) + run_file[end + 1 :])
    payload = zlib.compress(b"[" * 40 + b"]" * 40)
    head["length"] = len(payload)
    with pytest.raises(RunFileError):
        unpack(header_line(head) + payload)


def _resealed_with_raw(data: bytes, key: str, raw: str) -> bytes:
    """``data`` with the header field ``key`` written as the JSON text ``raw`` (which
    ``json.dumps`` cannot write, like ``1e999``) and a valid-looking seal."""
    head, end = _header(data)
    head[key] = "@@RAW@@"
    line = json.dumps(head, sort_keys=True).replace('"@@RAW@@"', raw)
    return h.MAGIC + line.encode("ascii") + data[end:]


@pytest.mark.parametrize("raw", ["1e999", "-1e999"])
def test_a_header_number_too_large_for_a_float_is_damage_for_the_list(saved, tmp_path, capsys, raw):
    # json.loads reads 1e999 as infinity; the seal's check must refuse it as damage, not
    # fail to write it back (a traceback in the world list and on the title screen)
    bad = _resealed_with_raw(saved, "format", raw)
    with pytest.raises(SaveError):
        h.read(bad)
    (tmp_path / "bad.rgl").write_bytes(bad)
    (info,) = Store(tmp_path).list()
    assert info.problem
    code, out, err = run(capsys, "world", "list", "--save-dir", str(tmp_path))
    assert code == 0 and err == "", err
    assert "not a number a save holds" in out


@pytest.mark.parametrize("key", ["saved", "created"])
def test_a_header_date_past_what_a_clock_can_hold_is_damage(saved, key):
    # 9999-12-31 at -14:00 is a valid ISO date, but after year 9999 in UTC: the load screen's
    # conversion to local time failed with OverflowError (a traceback)
    head, end = _header(saved)
    head.pop("seal")
    head[key] = "9999-12-31T23:59:59.000-14:00"
    head["seal"] = h.seal_of(head)
    bad = h.MAGIC + json.dumps(head, sort_keys=True).encode("ascii") + saved[end:]
    with pytest.raises(SaveError, match="not an ISO 8601 date"):
        h.read(bad)


def test_the_load_screen_shows_a_date_it_cannot_convert_as_it_is(monkeypatch):
    import time

    from screens.load import saved_at

    monkeypatch.setenv("TZ", "Pacific/Kiritimati")  # UTC+14: the last day of 9999 overflows
    time.tzset()
    try:
        text = "9999-12-31T23:59:59.999+00:00"
        assert saved_at(text) == text
    finally:
        monkeypatch.undo()
        time.tzset()
