"""The options file (saves/options.py): where it lives, what it holds, and that a hostile one is
never a crash, only the defaults and one line saying why."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from platformdirs import user_config_dir

from saves import options
from saves.options import MAX_BYTES, Options, OptionsDamaged, load, parse, save


def test_the_folder_comes_from_the_environment_else_platformdirs(tmp_path, monkeypatch):
    monkeypatch.setenv("ROGUELIKE_CONFIG_DIR", str(tmp_path / "elsewhere"))
    assert options.options_path() == tmp_path / "elsewhere" / "options.json"
    monkeypatch.delenv("ROGUELIKE_CONFIG_DIR")
    assert options.config_dir() == Path(user_config_dir("roguelike", appauthor=False))


def test_tests_never_touch_the_players_own_options():
    # tests/conftest.py points every test at a folder of its own
    real = Path(user_config_dir("roguelike", appauthor=False))
    assert os.environ["ROGUELIKE_CONFIG_DIR"]
    assert options.config_dir() != real


def test_no_file_is_the_defaults_without_a_warning():
    assert load() == (Options(), None)


def test_saved_options_load_back_and_the_write_leaves_no_temporary_file():
    chosen = Options("mono", {"game.explore": "E", "game.move-north": "up,w"})
    path = save(chosen)
    assert load() == (chosen, None)
    # no temporary file; the lock of the shared file stays (saves.locks.shared_lock)
    assert sorted(p.name for p in path.parent.iterdir()) == [".options.json.lock", "options.json"]
    assert json.loads(path.read_text())["format"] == 1


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"\xff\xfe", "not JSON"),
        (b"[1, 2]", "format"),
        (b'{"format": 2}', "format"),
        (b'{"format": 1, "theme": 3}', "theme"),
        (b'{"format": 1, "theme": "\\u001b[31m"}', "theme"),
        (b'{"format": 1, "keys": []}', "keys are not a table"),
        (b'{"format": 1, "keys": {"game.explore": "e\\u001b"}}', "not a list of keys"),
        (b'{"format": 1, "keys": {"game.explore": "a,b,c,d,e"}}', "not a list of keys"),
        (b'{"format": 1, "keys": {"game.explore": "a,a"}}', "not a list of keys"),
        (b'{"format": 1, "keys": {"GAME": "a"}}', "not an action"),
        (b'{"format": 1, "colour": "red"}', "does not know"),
        (b"[" * 10_000, "not JSON"),  # deep nesting: a RecursionError inside json
        (b" " * 20_000, "larger"),
    ],
)
def test_a_damaged_file_is_refused_saying_why(data, why):
    with pytest.raises(OptionsDamaged, match=why):
        parse(data)


def test_a_damaged_file_gives_the_defaults_and_one_line(tmp_path):
    path = tmp_path / "options.json"
    path.write_bytes(b'{"format": 1, "theme": 7}')
    loaded, warning = load(path)
    assert loaded == Options()
    assert warning is not None and "\n" not in warning and "theme" in warning


def test_a_huge_file_is_not_read_whole(tmp_path):
    path = tmp_path / "options.json"
    path.write_bytes(b" " * (MAX_BYTES * 4))
    loaded, warning = load(path)
    assert loaded == Options() and warning is not None and "larger" in warning


def test_a_folder_in_place_of_the_file_is_a_warning(tmp_path):
    (tmp_path / "options.json").mkdir()
    loaded, warning = load(tmp_path / "options.json")
    assert loaded == Options() and warning is not None


def test_an_unwritable_folder_raises_oserror_for_the_app_to_say(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("ROGUELIKE_CONFIG_DIR", str(blocker / "sub"))
    with pytest.raises(OSError):
        save(Options())


@given(st.binary(max_size=300))
def test_any_bytes_are_options_or_a_one_line_refusal(data):
    try:
        got = parse(data)
    except OptionsDamaged as err:
        assert "\n" not in str(err)
    else:
        assert isinstance(got, Options)


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@given(
    st.fixed_dictionaries(
        {"format": st.just(1)},
        optional={"theme": _json, "keys": st.dictionaries(st.text(max_size=12), _json)},
    )
)
def test_any_json_document_is_checked_field_by_field(doc):
    try:
        got = parse(json.dumps(doc).encode())
    except OptionsDamaged:
        return
    # what is accepted is exactly the shape the screens expect: printable names and keys
    assert got.theme.isascii() and got.theme.isprintable()
    for action, keys in got.keys.items():
        assert action.isascii() and action.isprintable()
        assert all(k and k.isascii() and k.isprintable() for k in keys.split(","))


@given(st.dictionaries(st.from_regex(r"[a-z][a-z.-]{0,10}", fullmatch=True), st.just("E")))
def test_what_is_saved_is_what_loads(keys):
    chosen = Options("colour-blind", keys)
    assert parse(chosen.to_json()) == chosen
