"""Text from a file never reaches the terminal as a command: the printable rule
(``saves.text.printable``), the one rule for world names (``saves.world.check_name``), and what
loading a stranger's world does with the texts it carries (its log, cause and name)."""

from __future__ import annotations

import string
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from saves import Store
from saves import header as h
from saves.codec import decode, encode
from saves.codec.common import MAX_LINE
from saves.errors import BadWorldName, SaveError
from saves.text import hidden, printable
from saves.world import MAX_NAME, NAME_RULE, check_name
from tests.cli.support import refused, run
from tests.fuzz.support import (
    C1_CSI,
    HOSTILE,
    OSC0,
    OSC52,
    hostile_save,
    pack_save,
    raw_controls,
    save_document,
    tiny,
    tree_digest,
)

#: Text with far more of the awkward characters than uniform draws would give.
AWKWARD = st.text(
    st.one_of(
        st.characters(),
        st.sampled_from(["\x1b", "\x9b", "\x7f", "\x00", "\u202e", "\u2066", "\u2028", "[", "/"]),
        st.sampled_from(string.printable),
    ),
    max_size=120,
)


@given(AWKWARD)
def test_printable_leaves_nothing_a_terminal_would_act_on(text):
    shown = printable(text)
    assert not any(hidden(ch) for ch in shown)
    assert raw_controls(shown) == []
    assert printable(shown) == shown  # twice is once
    if text.isprintable():
        assert shown == text  # a plain text is shown as it is


def test_printable_shows_each_control_as_a_visible_escape():
    assert printable(OSC52) == "\\x1b]52;c;SGVsbG8=\\x07"
    assert printable(C1_CSI) == "\\x9b31m"
    assert printable("a\x7fb\x00") == "a\\x7fb\\x00"
    assert printable("\u202eevil\u2066") == "\\u202eevil\\u2066"
    assert printable("line\u2028break") == "line\\u2028break"
    assert printable("[bold]x[/] ünïcødé 名前") == "[bold]x[/] ünïcødé 名前"


@given(AWKWARD)
def test_a_name_either_keeps_the_rule_and_round_trips_or_is_refused_in_one_line(text):
    world, state = tiny()
    try:
        name = check_name(text)
    except BadWorldName as err:
        message = str(err)
        assert "\n" not in message and printable(message) == message
        return
    assert name == text.strip() and name.isprintable() and 0 < len(name) <= MAX_NAME
    state.world_name = name
    loaded = decode(encode(replace(world, name=name), state))
    assert loaded.world.name == loaded.header.world == loaded.state.world_name == name


def test_the_rule_refuses_controls_format_characters_and_length():
    for bad in ("x" + OSC0, "\u202eevil", "two\nlines", "nul\x00", "del\x7f", "c1\x9b", "  "):
        try:
            check_name(bad)
        except BadWorldName as err:
            assert raw_controls(str(err)) == [], str(err)
        else:
            raise AssertionError(f"{bad!r} was accepted")
    assert check_name("  [bold red]x[/]  ") == "[bold red]x[/]"  # markup is just text
    assert check_name("w" * MAX_NAME) == "w" * MAX_NAME


def test_a_strangers_log_and_cause_are_loaded_printable_and_saved_loadable():
    loaded = decode(hostile_save())
    for text in [*loaded.state.log, loaded.state.cause or ""]:
        assert raw_controls(text) == [] and not any(hidden(ch) for ch in text)
    assert printable(HOSTILE) in loaded.state.log
    assert loaded.state.cause == printable(HOSTILE)
    assert loaded.world.name == "[bold]Hostile[/] world"
    # what the game writes of it, it reads back unchanged
    again = decode(encode(loaded.world, loaded.state))
    assert again.state.log == loaded.state.log and again.state.cause == loaded.state.cause


def test_a_log_line_at_its_bound_stays_within_it_once_printable():
    doc = save_document()
    doc["state"]["log"] = ["\x1b" * MAX_LINE]
    loaded = decode(pack_save(doc))
    assert all(len(line) <= MAX_LINE for line in loaded.state.log)
    assert decode(encode(loaded.world, loaded.state)).state.log == loaded.state.log


def test_an_import_whose_name_breaks_the_rule_is_refused_naming_it(capsys, tmp_path):
    saves = tmp_path / "saves"
    Store(saves).import_file(_file(tmp_path, "home.rgl", pack_save()))
    before = tree_digest(saves)
    args = ("--save-dir", str(saves))
    for n, name in enumerate(("x" + OSC0, "\u202eevil", "tab\there")):
        doc = _named_document(name)
        source = _file(tmp_path, f"bad{n}.rgl", pack_save(doc, world=name))
        line = refused(capsys, "world", "import", str(source), *args, words="printable")
        assert raw_controls(line) == []
    good = _file(tmp_path, "good.rgl", hostile_save())
    for name in ("x" + OSC0, "\u202eevil", " "):
        line = refused(capsys, "world", "import", str(good), "--name", name, *args, words="name")
        assert raw_controls(line) == []
    refused(capsys, "world", "create", "x" + OSC0, *args, words=NAME_RULE)
    assert tree_digest(saves) == before


def test_world_list_shows_a_strangers_world_literally(capsys, tmp_path):
    saves = tmp_path / "saves"
    Store(saves).import_file(_file(tmp_path, "hostile.rgl", hostile_save()))
    code, out, err = run(capsys, "world", "list", "--save-dir", str(saves))
    assert code == 0 and err == ""
    assert "[bold]Hostile[/] world" in out and raw_controls(out) == []


def test_a_header_world_name_with_an_escape_is_refused_by_the_header_reader():
    data = pack_save(world="x" + OSC0)
    try:
        h.read(data)
    except SaveError as err:
        assert "printable" in str(err) and raw_controls(str(err)) == []
    else:
        raise AssertionError("the header's name was accepted")


def _named_document(name: str) -> dict:
    doc = save_document()
    doc["world"]["name"] = doc["state"]["world_name"] = name
    return doc


def _file(folder, name: str, data: bytes):
    path = folder / name
    path.write_bytes(data)
    return path
