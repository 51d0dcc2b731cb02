"""A stranger's world on the screens: names made of markup (``[/]``, ``[bold]x``, a click
action) and texts carrying escape sequences are listed, loaded, played, saved and summarised
without a crash, shown literally, and never reach the terminal as control characters.

Every test has a save folder of its own (``ROGUELIKE_SAVE_DIR``, set in tests/conftest.py)."""

from __future__ import annotations

import dataclasses

import pytest
from textual.widgets import Static

from saves import Store
from saves.codec import decode
from saves.text import printable
from screens.app import RoguelikeApp
from screens.game import GameScreen
from screens.summary import SummaryScreen
from screens.title import TitleScreen
from tests.fuzz.support import HOSTILE, OSC52, hostile_save, pack_save, raw_controls, save_document
from tests.screens.support import open_load, screen_text

MARKUP_NAMES = ("[/]", "[bold]x", "[@click=app.quit]x[/]", "[bold red]Keep")


def import_world(tmp_path, data: bytes, name: str) -> None:
    source = tmp_path / f"{len(list(tmp_path.iterdir()))}.rgl"
    source.write_bytes(data)
    Store().import_file(source, name)


def named(name: str) -> bytes:
    doc = save_document()
    doc["world"]["name"] = doc["state"]["world_name"] = name
    return pack_save(doc, world=name)


def clean(app) -> str:
    """The screen's text, checked to hold no character a terminal would act on."""
    text = screen_text(app)
    assert raw_controls(text) == [], repr(text)
    return text


@pytest.mark.parametrize("name", MARKUP_NAMES)
async def test_a_world_named_in_markup_is_listed_loaded_saved_and_shown_literally(tmp_path, name):
    import_world(tmp_path, named(name), name)
    app = RoguelikeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        note = str(app.screen.query_one("#title-note", Static).render())
        assert name in note  # Continue names it, as it is
        load = await open_load(pilot)
        assert [i.name for i in load.infos] == [name]
        assert name in clean(app)
        await pilot.press("enter")
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        assert name[:20] in clean(app)
        await pilot.press("l")
        await pilot.press("S")  # save and quit
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, TitleScreen)
        assert name in str(app.screen.query_one("#title-note", Static).render())
        clean(app)
    assert Store().info(name).name == name


async def test_a_strangers_log_and_cause_show_as_visible_escapes(tmp_path):
    import_world(tmp_path, hostile_save(), "Hostile")
    app = RoguelikeApp()
    async with app.run_test(size=(140, 30)) as pilot:
        await open_load(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        text = clean(app)
        assert "\\x1b]52;c;SGVsbG8=\\x07" in text  # the placeholder, not the sequence
        assert "[/] [bold red]x" in text  # markup as text
        await pilot.press("m")  # the message history, where the whole log shows
        await pilot.pause()
        clean(app)


async def test_the_summary_shows_a_markup_name_and_a_hostile_cause_literally():
    loaded = decode(hostile_save())
    state = loaded.state
    state.dead = True
    state.stats = dataclasses.replace(state.stats, cause="slain by " + HOSTILE)
    app = RoguelikeApp()
    async with app.run_test(size=(140, 30)) as pilot:
        await pilot.pause()
        app.push_screen(SummaryScreen(state, world_name="[@click=app.quit]x[/]"))
        await pilot.pause()
        text = clean(app)
        assert "[@click=app.quit]x[/]" in text
        assert "slain by log" in text
        assert printable(OSC52) in text  # the placeholder, on the cause's next row
        assert app.is_running


async def test_a_toast_quoting_a_file_is_shown_literally():
    app = RoguelikeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.notify("[/] world: " + HOSTILE, title="[b]" + OSC52, markup=True)  # never markup
        await pilot.pause()
        assert app.is_running
        (toast,) = list(app._notifications)
        assert toast.message == printable("[/] world: " + HOSTILE) and not toast.markup
        assert toast.title == printable("[b]" + OSC52)
        clean(app)
