"""Every screen at 80×24, the size most terminals open at: nothing is cut off at the border.

Each test opens one screen (title, new world, game, watch mode, a puzzle of each type, help,
overview, sheet, pack, message history, hall, replay, options with a refused key, challenge,
summary) at 80×24 through the Pilot and reads what is drawn with :func:`cut_off`:

- a line whose text runs into the right edge of the terminal (its last two cells both text:
  a footer or a line cropped by the screen, "… A bot  ^q");
- a text widget (``Static``, ``Label``) whose words need more rows or columns than it has and
  that cannot scroll (a message cut at its bottom, a label cropped by its parent);
- a widget drawn past the right edge (a footer's key that does not fit).

The side panel cuts its own lines to its width, so its names are checked apart: a name that
does not fit is abbreviated (a shortened word ends in ``.``), never cropped, and the numbers
after it are whole.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from textual.app import App
from textual.widget import Widget
from textual.widgets import Label, Static

from roguelike import puzzles, seeds
from roguelike.engine import MONSTERS, Monster, new_game
from roguelike.recording import decode_action
from saves.hall import Hall
from saves.record import pack
from screens.app import RoguelikeApp
from screens.challenge import ChallengeScreen, claims
from screens.character import CharacterScreen
from screens.game import GameScreen
from screens.hall import HallScreen
from screens.help import HelpScreen
from screens.history import HistoryScreen
from screens.inventory import InventoryScreen
from screens.map_view import MapView
from screens.new_game import NewGameScreen
from screens.options import OptionsScreen
from screens.overview import OverviewScreen
from screens.puzzle import PuzzleScreen
from screens.replay import ReplayScreen
from screens.side_panel import abbreviate, monster_line, side_panel_lines
from screens.summary import SummaryScreen
from screens.title import TitleScreen
from tests.screens.support import (
    GameApp,
    Host,
    panel_text,
    quiet_game,
    save_dir,
    screen_text,
    with_foes,
)

SIZE = (80, 24)
#: What the side panel's lines get at 80 columns (a panel of 24, its padding and border).
PANEL_WIDTH = 21


def _is_text(char: str) -> bool:
    """A cell that shows text: not blank, not a line or block of a border or a scrollbar."""
    return not char.isspace() and not 0x2500 <= ord(char) <= 0x259F


def _maps(app: App[Any]) -> list[Widget]:
    """The widgets that draw a map or a board, whose glyphs may fill a row to its edge."""
    return [w for w in app.screen.walk_children() if isinstance(w, MapView) or w.id == "overview"]


def cut_off(app: App[Any]) -> list[str]:
    """What is cut off on the app's screen (see the module), one line each; empty if nothing."""
    width, _height = app.size
    found: list[str] = []
    rows = screen_text(app).splitlines()
    maps = _maps(app)
    for y, row in enumerate(rows):
        row = row.ljust(width)
        in_map = any(m.region.contains(width - 1, y) for m in maps)
        if _is_text(row[width - 1]) and _is_text(row[width - 2]) and not in_map:
            found.append(f"row {y} runs into the right edge: {row.strip()!r}")
    for widget in app.screen.walk_children():
        if not widget.display or widget.region.area == 0:
            continue
        if not widget.children and widget.region.right > width:  # a footer's key, say
            found.append(f"{type(widget).__name__} past the right edge: {widget.region}")
        if not isinstance(widget, Static | Label):
            continue
        if widget.region.area == 0 or widget.allow_vertical_scroll:
            continue
        box = widget.content_region
        wanted_rows = widget.get_content_height(box.size, app.size, box.width)
        if wanted_rows > box.height and box.height > 0:
            text = str(widget.render())
            found.append(f"{wanted_rows} rows in {box.height}: {text[:60]!r}")
        visible = widget.region.intersection(app.screen.region)
        if widget.region.width > visible.width:
            found.append(f"cropped by the screen: {str(widget.render())[:60]!r}")
    return found


def assert_whole(app: App[Any]) -> None:
    found = cut_off(app)
    assert not found, f"{type(app.screen).__name__} at 80×24:\n" + "\n".join(found)


# -- the side panel ----------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(MONSTERS))
@pytest.mark.parametrize("hp", [(8, 8), (120, 120)])
def test_a_monster_line_keeps_its_numbers_and_abbreviates_its_name(kind, hp):
    info = MONSTERS[kind]
    m = Monster(1, kind, 0, 0, hp[0], home=(0, 0), awake=True)
    m.max_hp = hp[1]
    line = monster_line(m, PANEL_WIDTH).plain
    assert len(line) <= PANEL_WIDTH
    assert line.endswith(f"{hp[0]}/{hp[1]}")
    shown = line[2:].rsplit(" ", 1)[0].strip()
    if shown != info.name:  # abbreviated: each shortened word says so with a dot
        words, full = shown.split(" "), info.name.split(" ")
        assert len(words) == len(full)
        for word, whole in zip(words, full, strict=True):
            assert word == whole or (word.endswith(".") and whole.startswith(word[:-1]))


def test_abbreviate_shortens_the_last_words_first_and_marks_them():
    assert abbreviate("gnoll sentinel", 14) == "gnoll sentinel"
    assert abbreviate("gnoll sentinel", 13) == "gnoll sent."
    assert abbreviate("centaur archer", 11) == "centaur ar."
    assert abbreviate("centaur archer", 8) == "cent. a."
    assert abbreviate("Sleeping Crypt challenge", 21) == "Sleeping Crypt chal."
    assert len(abbreviate("Supercalifragilistic", 8)) <= 8


def test_a_long_world_name_is_abbreviated_not_cropped():
    state = new_game(seeds.parse("e"), preset="small", monsters=False)
    lines = side_panel_lines(state, "Sleeping Crypt challenge", PANEL_WIDTH)
    assert lines[0].plain == "Sleeping Crypt chal."


@pytest.mark.parametrize(
    ("world", "shown"),
    [
        ("Sleeping Crypt challenge (practice from turn 1315)", "Sleeping Crypt chal."),
        ("Sleeping Crypt (practice from turn 1315) 2", "Sleeping Crypt 2"),
        ("{code} (practice from turn 1315)", None),  # the seed line under it says the code
    ],
)
async def test_a_practice_worlds_long_name_keeps_its_practice_mark_at_80x24(world, shown):
    """A practice world's name was cut to "8-8YPS-E5GP-NGFA (pr…", its mark lost: the mark
    has a line of its own, under the name as far as it fits."""
    state = new_game(seeds.parse("e"), preset="small", monsters=False)
    code = seeds.encode(state.seed)
    app = GameApp(state, world_name=world.format(code=code))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert_whole(app)
        lines = [line.strip() for line in panel_text(app.screen).splitlines()]
    want = [w for w in (shown, "Practice from t. 1315", f"Seed {code}") if w is not None]
    assert lines[: len(want)] == want


# -- the screens -------------------------------------------------------------------------------


async def test_title_new_world_and_options_at_80x24():
    app = RoguelikeApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        assert_whole(app)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert_whole(app)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("O")
        await pilot.pause()
        assert isinstance(app.screen, OptionsScreen)
        assert_whole(app)
        await pilot.press("down", "down", "down", "down", "down", "down")  # Wait a turn, then
        await pilot.press("down", "down", "down", "down", "down", "enter")  # explore
        await pilot.pause()
        await pilot.press("x")  # look's key: refused, naming both
        await pilot.pause()
        assert isinstance(app.screen, OptionsScreen)
        assert "already" in screen_text(app)
        assert_whole(app)


def _toasts_cover(app: App[Any], ids: list[str]) -> list[str]:
    """The widgets of ``ids`` (on the current screen) that a toast covers, by id."""
    toasts = list(app.screen.query("Toast"))
    assert toasts, "no toast shown"
    covered = []
    for wid in ids:
        widget = app.screen.query_one(f"#{wid}")
        if widget.display and any(t.region.overlaps(widget.region) for t in toasts):
            covered.append(wid)
    return covered


async def test_toasts_never_cover_the_title_lines_or_the_log_at_80x24():
    """A toast ("Saved Weeping Abbey") stood over the title's last lines (the world to
    continue, the daily) at 80×24; on the game screen it must not hide the newest message."""
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        app.notify("Saved Weeping Abbey, a world with a long name to keep", timeout=30)
        await pilot.pause()
        await pilot.pause()
        assert _toasts_cover(app, ["title-note", "title-daily", "menu"]) == []
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        app.notify("Saved Weeping Abbey, a world with a long name to keep", timeout=30)
        await pilot.pause()
        await pilot.pause()
        assert _toasts_cover(app, ["messages"]) == []


async def test_the_game_and_its_screens_at_80x24():
    app = RoguelikeApp(make_game=lambda world: with_foes(quiet_game(world)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        assert game.state.visible_monsters()
        assert_whole(app)
        view = game.query_one(MapView)
        for m in game.state.visible_monsters():  # what the side panel lists is on the map
            sx, sy = view.map_to_screen(m.x, m.y)
            assert 0 <= sx < view.size.width and 0 <= sy < view.size.height
        for key, kind in [
            ("question_mark", HelpScreen),
            ("M", OverviewScreen),
            ("at", CharacterScreen),
            ("i", InventoryScreen),
            ("m", HistoryScreen),
        ]:
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, kind), key
            assert_whole(app)
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is game


async def test_watch_mode_at_80x24(hand_clock):
    app = RoguelikeApp(make_game=quiet_game, seed=seeds.parse("e"), preset="small", watch=True)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(100):
            if isinstance(app.screen, GameScreen):
                break
            await pilot.pause(0.05)
        assert isinstance(app.screen, GameScreen) and app.screen.bot.autopilot
        hand_clock.tick()
        await pilot.pause()
        assert_whole(app)


@pytest.mark.parametrize("type_name", puzzles.TYPES)
async def test_a_puzzle_of_each_type_at_80x24(type_name):
    app = Host(PuzzleScreen(puzzles.generate(type_name, "medium", 11), coins=3))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert_whole(app)


async def test_hall_replay_and_summary_at_80x24(short_run, won_run):
    hall = Hall(save_dir())
    hall.add(dataclasses.replace(short_run, world="Sleeping Crypt challenge"))
    hall.add(won_run, imported=True)
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, HallScreen)
        assert_whole(app)
        await pilot.press("tab")  # the challenges
        await pilot.pause()
        assert_whole(app)
        await pilot.press("tab")
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        assert_whole(app)
        await pilot.press("escape")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        assert app.play_challenge(won_run)
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        assert won_run.recording is not None
        for code in won_run.recording.actions:
            game.act(decode_action(code))
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        assert_whole(app)


async def test_a_challenge_at_80x24(short_run, tmp_path):
    path = tmp_path / "sent.run"
    path.write_bytes(pack(dataclasses.replace(short_run, world="Sleeping Crypt challenge")))
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ChallengeScreen)
        assert_whole(app)
        screen.query_one("Input").value = str(path)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.record is not None
        assert_whole(app)


# -- text bugs found playing at 80×24 ----------------------------------------------------------


def test_a_challenge_says_its_floor_once_and_names_size_and_difficulty(short_run):
    record = dataclasses.replace(
        short_run, outcome="died", cause="killed by a goblin on floor 4", floors=4
    )
    text = claims(record)
    assert "on floor 4 on floor 4" not in text
    assert "killed by a goblin on floor 4 of" in text
    assert "small size, normal difficulty" in text
