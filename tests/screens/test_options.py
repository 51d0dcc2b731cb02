"""The options screen and key rebinding, through Textual's Pilot: a key rebound on the options
screen is saved, drives input, the footer and the help from the one table; a key bound twice is
refused naming both actions; a damaged options file is one line and the defaults.

Every test has a config folder of its own (``ROGUELIKE_CONFIG_DIR``, set in tests/conftest.py).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.widgets import OptionList, Static

from saves import options as saved
from saves.world import World
from screens import themes
from screens.app import RoguelikeApp
from screens.bindings import (
    GAME_BINDINGS,
    RESERVED_KEYS,
    KeyBinding,
    conflict,
    rebound,
    usable_overrides,
)
from screens.character import CharacterScreen
from screens.game import GameScreen
from screens.help import HelpScreen
from screens.history import HistoryScreen
from screens.options import KeyCaptureScreen, OptionsScreen
from screens.overview import OverviewScreen
from screens.themes import DEFAULT_PALETTE
from screens.title import TitleScreen
from tests.screens.support import quiet_game, screen_text

SEED = 12345


@pytest.fixture(autouse=True)
def _default_theme_after():
    """A theme chosen here is the map's (module state): leave the default behind."""
    yield
    themes.use(DEFAULT_PALETTE)


async def open_options(app: RoguelikeApp, pilot) -> OptionsScreen:
    await pilot.pause()
    await pilot.press("O")
    await pilot.pause()
    assert isinstance(app.screen, OptionsScreen)
    return app.screen


async def rebind(pilot, screen: OptionsScreen, row_id: str, key: str) -> str:
    """Highlight the row ``row_id`` with the arrows, press Enter then ``key``; the status."""
    listing = screen.query_one(OptionList)
    target = listing.get_option_index(row_id)
    listing.highlighted = 0
    await pilot.press(*["down"] * target)
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(screen.app.screen, KeyCaptureScreen)
    await pilot.press(key)
    await pilot.pause()
    return str(screen.query_one("#options-status", Static).render())


def footer_line(app: RoguelikeApp) -> str:
    return screen_text(app).splitlines()[-1]


async def test_a_key_rebound_drives_input_the_footer_and_the_help():
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_options(app, pilot)
        status = await rebind(pilot, screen, "game.explore", "E")
        assert "Explore" in status
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        # saved in the config folder
        doc = json.loads(saved.options_path().read_text())
        assert doc["keys"] == {"game.explore": "E"}

        app.start_game(World("Rebound", SEED, "small"))
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        footer = footer_line(app)
        assert "E explore" in footer and "e explore" not in footer

        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        help_text = screen_text(app)
        row = next(line for line in help_text.splitlines() if "Explore until" in line)
        assert " E " in f" {row} " and " e " not in f" {row} "
        await pilot.press("escape")
        await pilot.pause()

        turn = game.state.turn
        await pilot.press("e")  # the old key no longer explores
        await pilot.pause()
        assert game.state.turn == turn
        await pilot.press("E")  # the new one does
        await pilot.pause()
        assert game.state.turn > turn


async def test_a_key_another_action_has_is_refused_naming_both():
    app = RoguelikeApp()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_options(app, pilot)
        status = await rebind(pilot, screen, "game.explore", "x")
        assert "Look around" in status and "Explore" in status
        assert screen.options.keys == {}
        status = await rebind(pilot, screen, "game.explore", "escape")
        assert "kept for Cancel" in status or "Unchanged" in status
        assert screen.options.keys == {}
        # the key is written as the footer and the help write it: @, not Textual's "at"
        status = await rebind(pilot, screen, "game.explore", "at")
        assert status.startswith("@ is already 'Character sheet")


async def test_default_keys_come_back_one_by_one_or_all_at_once():
    app = RoguelikeApp()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_options(app, pilot)
        await rebind(pilot, screen, "game.explore", "E")
        await rebind(pilot, screen, "game.look", "v")
        assert screen.options.keys == {"game.explore": "E", "game.look": "v"}
        await pilot.press("backspace")  # the highlighted row: look
        await pilot.pause()
        assert screen.options.keys == {"game.explore": "E"}
        await pilot.press("D")
        await pilot.pause()
        assert screen.options.keys == {}


async def test_two_actions_may_swap_their_keys_through_the_file():
    saved.save(saved.Options(keys={"game.explore": "x", "game.look": "e"}))
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.key_overrides == {"game.explore": "x", "game.look": "e"}
        app.start_game(World("Swapped", SEED, "small"))
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        await pilot.press("e")
        await pilot.pause()
        assert game.mode.name == "look"


async def test_a_damaged_or_clashing_options_file_is_one_line_and_the_defaults():
    path = saved.options_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b'{"format": 1, "keys": {"game.explore": "x"}, "theme": "neon"}')
    app = RoguelikeApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert any("x is already" in m and "\n" not in m for m in said)
        assert any("No theme 'neon'" in m for m in said)
        assert app.key_overrides == {}
    path.write_bytes(b"\x00\xff not json")
    app = RoguelikeApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert any("Options file ignored: it is not JSON" in m for m in said)
        assert isinstance(app.screen, TitleScreen)


async def test_the_title_lists_the_daily_world_the_hall_and_the_options():
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        title = app.screen
        for button_id in ("daily", "hall", "options"):
            assert title.query_one(f"#{button_id}").display
        text = screen_text(app)
        assert "Daily world" in text and "Hall of runs" in text


async def test_options_open_from_the_game_and_the_theme_applies_at_once():
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.start_game(World("Themed", SEED, "small"))
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        screen = await open_options(app, pilot)
        listing = screen.query_one(OptionList)
        listing.highlighted = 0
        await pilot.press("enter")  # default → colour-blind
        await pilot.press("enter")  # → mono
        await pilot.pause()
        assert screen.options.theme == "mono"
        assert app.theme == "roguelike-mono"
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game
        assert json.loads(saved.options_path().read_text())["theme"] == "mono"
        # the map drew again in the new palette: no colour but greys
        colours = {
            seg.style.color.triplet.hex
            for y in range(game.map_view.size.height)
            for seg in game.map_view.render_line(y)
            if seg.style and seg.style.color and seg.style.color.triplet
        }
        assert colours and all(c[1:3] == c[3:5] == c[5:7] for c in colours)


async def test_a_screen_a_rebound_key_opens_closes_with_that_key_and_says_so():
    """The overview, the character sheet, the log and the help close with the key that
    opened them (a toggle, as M, @, m and ? are), and say the key the player has."""
    rebinding = {
        "game.overview": "v",
        "game.character": "K",
        "game.history": "F",
        "game.help": "f2",
    }
    saved.save(saved.Options(keys=rebinding))
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.start_game(World("Rebound", SEED, "small"))
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        for key, kind, says in (
            ("v", OverviewScreen, "Esc or v closes"),
            ("K", CharacterScreen, "K or Esc closes"),
            ("F", HistoryScreen, None),
            ("f2", HelpScreen, None),
        ):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, kind), key
            if says is not None:
                assert says in " ".join(screen_text(app).split())
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is game, key


async def test_the_travel_prompt_names_the_jump_key_the_player_has():
    saved.save(saved.Options(keys={"game.next_place-1": "v"}))
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.start_game(World("Jumps", SEED, "small"))
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        await pilot.press("v")
        await pilot.pause()
        assert game.mode.name == "travel"
        assert "(Enter goes, v next, Esc cancels)" in game.prompt
        assert "Tab" not in game.prompt


_ids = st.sampled_from([b.id for b in GAME_BINDINGS] + ["game.nothing", "game.old-action"])
_keys = st.lists(
    st.sampled_from(["e", "E", "x", "v", "k", "up", "escape", "enter", "space", "f1", "q"]),
    min_size=1,
    max_size=3,
    unique=True,
).map(",".join)


@given(st.dictionaries(_ids, _keys, max_size=8))
def test_whatever_the_file_asks_no_key_is_ever_bound_twice(overrides):
    kept, dropped = usable_overrides(overrides)
    table = rebound(kept)
    keys = [k for b in table for k in b.keys.split(",")]
    assert len(keys) == len(set(keys))
    assert not set(keys) & set(RESERVED_KEYS)
    # every override is either kept as asked or dropped with one line saying why
    assert len(kept) + len(dropped) == len(overrides)
    assert all(kept[i] == overrides[i] for i in kept)
    assert all("\n" not in why for why in dropped)


def test_every_game_row_has_an_id_of_its_own_that_an_options_file_can_hold():
    ids = [b.id for b in GAME_BINDINGS]
    assert len(ids) == len(set(ids))
    for row_id in ids:
        assert saved.parse(saved.Options(keys={row_id: "f9"}).to_json()).keys == {row_id: "f9"}
    # an action with arguments still makes an id the file accepts
    row = KeyBinding("f8", "travel_to('stairs')", "Travel to the stairs", "Act")
    assert row.id == "game.travel_to-stairs"
    assert saved.parse(saved.Options(keys={row.id: "f8"}).to_json()).keys == {row.id: "f8"}


# --- keys a terminal cannot send as themselves ------------------------------------------------


@pytest.mark.parametrize(
    ("key", "twin"),
    [
        ("ctrl+i", "Tab"),
        ("ctrl+m", "Enter"),
        ("ctrl+j", "Enter"),
        ("ctrl+h", "Backspace"),
        ("ctrl+left_square_bracket", "Escape"),
        ("ctrl+space", "ctrl+@"),
        ("ctrl+shift+e", "ctrl+e"),
    ],
)
def test_a_key_a_terminal_sends_as_another_is_refused_naming_it(key, twin):
    why = saved.terminal_twin(key)
    assert why is not None and why.startswith(f"{key} is the same key as {twin}")
    refusal = conflict({}, "game.explore", key)
    assert refusal is not None and refusal.startswith(why) and "Explore" in refusal
    kept, dropped = usable_overrides({"game.explore": f"E,{key}"})
    assert kept == {} and dropped == [refusal]


@pytest.mark.parametrize("key", ["ctrl+e", "E", "f5", "tab", "shift+tab", "ctrl+right"])
def test_a_key_that_arrives_as_itself_is_no_twin(key):
    assert saved.terminal_twin(key) is None


async def test_the_options_screen_refuses_ctrl_i_saying_it_is_tab():
    app = RoguelikeApp()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_options(app, pilot)
        status = await rebind(pilot, screen, "game.explore", "ctrl+i")
        # the key written as the footer writes it
        assert status.startswith("^i is the same key as Tab in a terminal")
        assert screen.options.keys == {}


async def test_an_options_file_binding_ctrl_m_is_dropped_saying_why():
    saved.save(saved.Options(keys={"game.explore": "ctrl+m", "game.look": "v"}))
    app = RoguelikeApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert any("ctrl+m is the same key as Enter in a terminal" in m for m in said), said
        assert app.key_overrides == {"game.look": "v"}
