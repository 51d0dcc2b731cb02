"""Decoding has hard bounds checked before anything is allocated (:data:`saves.header.LIMITS`),
and the writer enforces the same ones: the game never writes a file it would refuse. Hostile
files aimed at each bound are refused in one line by import, load and export under a 2 GiB
address-space limit (the time they take is measured by ``roguelike bench --only saves``)."""

from __future__ import annotations

import json
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roguelike.cli.bench.hostile import MEMORY_LIMIT, hostile_saves, run_limited
from saves import codec
from saves import envelope as e
from saves import header as h
from saves.codec.common import MAX_LINE
from saves.errors import SaveError
from tests.saves.support import SEED, fresh_game, pack_as, world_of

# --- the pre-scan ----------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=30,
)


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


def _elements(value: object) -> int:
    """What the pre-scan counts: each container's opening, its commas, each object's colons."""
    if isinstance(value, list):
        return 1 + max(len(value) - 1, 0) + sum(_elements(v) for v in value)
    if isinstance(value, dict):
        return 1 + max(len(value) - 1, 0) + len(value) + sum(_elements(v) for v in value.values())
    return 0


@given(JSON, st.integers(0, 6), st.integers(0, 60), st.booleans())
def test_the_pre_scan_bounds_exactly_depth_and_elements(value, depth, elements, ascii_only):
    raw = json.dumps(value, ensure_ascii=ascii_only).encode("utf-8")
    fits = _depth(value) <= depth and _elements(value) <= elements
    if fits:
        h.check_json(raw, "test", depth=depth, elements=elements)
    else:
        with pytest.raises(SaveError, match="nests deeper|JSON elements"):
            h.check_json(raw, "test", depth=depth, elements=elements)


@given(st.binary(max_size=200))
def test_the_pre_scan_of_any_bytes_passes_or_refuses_in_one_line(raw):
    try:
        h.check_json(raw, "test", depth=3, elements=20)
    except SaveError as err:
        assert "\n" not in str(err)


# --- the writer enforces the reader's bounds ---------------------------------------------------


@pytest.fixture(scope="module")
def game():
    state = fresh_game(SEED)
    return world_of(state), state


@settings(max_examples=12, deadline=None)
@given(st.integers(MAX_LINE - 2, MAX_LINE + 2))
def test_a_log_line_at_the_limit_round_trips_and_one_over_is_refused_by_the_writer(game, length):
    world, state = game
    kept = state.log
    state.log = [*state.log[:-1], "m" * length]
    try:
        if length <= MAX_LINE:
            assert codec.decode(codec.encode(world, state)).state.log == state.log
        else:
            with pytest.raises(SaveError, match=f"longer than {MAX_LINE}"):
                codec.encode(world, state)
    finally:  # the game is the module's: a line over the limit left in it broke later tests
        state.log = kept


def _pack(document: dict, game) -> bytes:
    world, state = game
    return pack_as(world, state, document, game="1", generator="1")


@pytest.fixture
def small_limits(monkeypatch):
    """The document bounds made small, so that a document at them is quick to build: the
    writer and the reader read the same constants, whatever their values."""
    monkeypatch.setattr(e, "MAX_DEPTH", 6)
    monkeypatch.setattr(h, "MAX_DEPTH", 6)
    monkeypatch.setattr(e, "MAX_ELEMENTS", 500)
    monkeypatch.setattr(h, "MAX_ELEMENTS", 500)


@pytest.mark.parametrize("real", [False, True])
def test_the_writer_refuses_exactly_the_depth_the_reader_refuses(game, request, real):
    if not real:
        request.getfixturevalue("small_limits")
    deepest: object = 0
    for _ in range(h.MAX_DEPTH - 1):  # the payload object is the first level
        deepest = [deepest]
    data = _pack({"x": deepest}, game)
    assert h.document(h.read(data)[1]) == {"x": deepest}
    with pytest.raises(SaveError, match=f"nests deeper than {h.MAX_DEPTH}"):
        _pack({"x": [deepest]}, game)
    with pytest.raises(SaveError, match=f"nests deeper than {h.MAX_DEPTH}"):
        h.check_json(json.dumps({"x": [deepest]}).encode(), "payload")


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])  # the same limits for all
@given(st.integers(0, 40))
def test_the_writer_refuses_exactly_the_element_count_the_reader_refuses(small_limits, extra):
    state = fresh_game(SEED)
    game = (world_of(state), state)
    n = h.MAX_ELEMENTS - 2 - 20 + extra  # "{", ":", "[" and n - 1 commas: n + 2 in all
    document = {"x": [0] * n}
    if n + 2 <= h.MAX_ELEMENTS:
        assert h.document(h.read(_pack(document, game))[1]) == document
    else:
        with pytest.raises(SaveError, match=f"more than {h.MAX_ELEMENTS} JSON elements"):
            _pack(document, game)
        with pytest.raises(SaveError, match=f"more than {h.MAX_ELEMENTS} JSON elements"):
            h.check_json(json.dumps(document).encode(), "payload")


def test_the_writer_refuses_a_document_over_the_size_the_reader_refuses(game):
    with pytest.raises(SaveError, match="too large to save"):
        _pack({"x": "y" * h.MAX_DOCUMENT}, game)
    raw = json.dumps({"x": "y" * h.MAX_DOCUMENT}).encode()
    world, state = game
    payload = zlib.compress(raw, 1)
    from roguelike.cli.bench.hostile import forge

    with pytest.raises(SaveError, match="decompresses to more than"):
        h.document(h.read(forge(payload, codec.encode(world, state)))[1])


# --- hostile files under the memory limit -----------------------------------------------------


@pytest.fixture(scope="module")
def hostile(tmp_path_factory, game) -> Path:
    world, state = game
    folder = tmp_path_factory.mktemp("hostile")
    files = hostile_saves(codec.encode(world, state), codec.to_document(world, state), 64)
    for name, data in files.items():
        (folder / (name.replace(" ", "-") + ".rgl")).write_bytes(data)
    return folder


def test_every_hostile_file_is_refused_in_one_line_by_import_load_and_export(hostile):
    """One child process, limited to 2 GiB of address space, imports each file into an empty
    folder, and lists, loads and exports it from a folder holding it as a world's save."""
    done = subprocess.run(
        [sys.executable, "-m", "roguelike.cli.bench.hostile", str(hostile)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr[-2000:]
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert {r["file"] for r in results} == {p.stem for p in hostile.glob("*.rgl")}
    for r in results:
        for action in ("import", "load", "export"):
            assert r[action].startswith("SaveError: "), (r["file"], action, r[action])
            assert "\n" not in r[action]
        assert r["list"] == "accepted"  # its header is intact: the list shows it, once
        assert r["imported files"] == 0
        assert r["peak_kib"] * 1024 < MEMORY_LIMIT
    assert not list(hostile.glob("out-*"))  # no export was written


def test_the_command_line_refuses_a_zlib_bomb_in_one_line_under_the_limit(hostile, tmp_path):
    done = run_limited(
        ["world", "import", str(hostile / "zlib-bomb.rgl"), "--save-dir", str(tmp_path / "w")]
    )
    lines = done.stderr.strip().splitlines()
    assert done.status == 2 and done.stdout == ""
    assert len(lines) == 1 and "decompresses to more than" in lines[0], done.stderr
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr
    assert not (tmp_path / "w").exists() or not any((tmp_path / "w").iterdir())


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le"])
def test_a_payload_in_another_encoding_is_refused_not_read_past_the_pre_scan(
    small_limits, encoding
):
    """json.loads guesses UTF-16 and UTF-32 from bytes; the pre-scan reads bytes as ASCII. In
    UTF-16 a character can hold a quote's byte (U+2200 is 00 22), which flips the pre-scan's
    idea of what is inside a string: every element after it went uncounted."""
    hidden = "[" + ",".join(["[]"] * (h.MAX_ELEMENTS * 2)) + "]"
    text = '{"s": "\u2200", "x": ' + hidden + ', "t": "\u2200"}'
    raw = text.encode(encoding)
    with pytest.raises(SaveError):
        h.document(zlib.compress(raw))
    with pytest.raises(SaveError):
        h.document(zlib.compress('{"a": 1}'.encode(encoding)))


def test_a_run_file_payload_in_another_encoding_is_not_read(small_limits):
    import hashlib

    from roguelike.version import GENERATOR_VERSION
    from saves import record as run_file

    hidden = "[" + ",".join(["[]"] * (h.MAX_ELEMENTS * 2)) + "]"
    text = '{"s": "\u2200", "x": ' + hidden + ', "t": "\u2200"}'
    payload = zlib.compress(text.encode("utf-16-le"))
    head = {
        "format": run_file.RUN_FORMAT,
        "generator": GENERATOR_VERSION,
        "length": len(payload),
        "blake2b": hashlib.blake2b(payload, digest_size=32).hexdigest(),
    }
    with pytest.raises(run_file.RunFileError, match="payload is not JSON"):
        run_file.unpack(run_file.header_line(head) + payload)
