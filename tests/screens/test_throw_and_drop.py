"""Throwing, dropping, quaffing and reading on the game screen: ``T`` aims a bomb with a cursor
that starts on the nearest monster (Tab cycles them, the direction keys move it, the line of
fire is drawn, Enter throws, Esc cancels); ``d`` drops an item; ``q`` and ``r`` list only the
potions or only the scrolls; the character sheet shows what a trade-off item costs."""

from __future__ import annotations

from textual.app import App

from roguelike.engine import GameState, Wear, step
from roguelike.engine.items import receive
from screens.game import GameScreen
from screens.inventory import InventoryScreen
from tests.engine.support import add, arena, off
from tests.screens.support import GameApp, SheetApp, screen_text, sheet_of


def two_ogres() -> tuple[GameState, tuple[int, int], list[tuple[int, int]]]:
    """An arena, two fire bombs, and two sleeping ogres in view, the nearer first."""
    state, c = arena(3)
    state.inventory["fire bomb"] = 2
    near, far = off(c, 2, 0), off(c, -3, -3)
    add(state, "ogre", near, awake=False)
    add(state, "ogre", far, awake=False)
    state.update_view()
    return state, c, [near, far]


def prompt(app: App[None]) -> str:
    return " ".join(screen_text(app).split())


async def test_throw_mode_starts_on_the_nearest_monster_and_tab_cycles():
    state, c, (near, far) = two_ogres()
    app = GameApp(state)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("T")
        await pilot.pause()
        assert screen.mode.name == "throw" and screen.cursor == near
        # what the throw would do comes first, before the target's description
        assert "Throw a fire bomb: It would burst on the ogre" in prompt(app)
        path = [(x, y) for y, xs in screen.map_view.path.items() for x in xs]
        assert near in path and c not in path  # the line of fire is drawn
        await pilot.press("tab")
        await pilot.pause()
        assert screen.cursor == far
        await pilot.press("tab")
        await pilot.pause()
        assert screen.cursor == near
        await pilot.press("escape")
        await pilot.pause()
        assert screen.mode.name == "play" and screen.cursor is None and not screen.map_view.path
        assert state.turn == 0 and state.inventory["fire bomb"] == 2


async def test_the_cursor_moves_and_enter_throws_there():
    state, c, (near, _far) = two_ogres()
    app = GameApp(state)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("T", "l")  # one cell east of the ogre
        await pilot.pause()
        assert screen.cursor == off(near, 1, 0)
        await pilot.press("h", "enter")
        await pilot.pause()
        assert screen.mode.name == "play"
        assert state.turn == 1 and state.inventory["fire bomb"] == 1
        ogre = state.monster_at(*near)
        assert ogre is None or ogre.hp < ogre.info.max_hp
        assert "bursts on the ogre" in " ".join(state.log[-4:])


async def test_throw_without_a_bomb_says_so():
    state, _c = arena(3)
    app = GameApp(state)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("T")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.screen.mode.name == "play"
        assert "nothing to throw" in prompt(app)


async def test_drop_puts_the_item_underfoot():
    state, c = arena(3)
    state.inventory = {"blink scroll": 1, "healing potion": 2}
    app = GameApp(state)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, InventoryScreen) and "1–9 drop" in prompt(app)
        await pilot.press("2")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert state.items_lying[c] == "healing potion" and state.inventory["healing potion"] == 1
        assert state.turn == 1


async def test_quaff_and_read_list_only_their_class():
    state, _c = arena(3)
    state.inventory = {"blink scroll": 1, "healing potion": 1, "fire bomb": 1}
    state.hp = 5
    app = GameApp(state)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        pack = app.screen
        assert isinstance(pack, InventoryScreen) and pack.kinds == ["blink scroll"]
        await pilot.press("escape", "q")
        await pilot.pause()
        pack = app.screen
        assert isinstance(pack, InventoryScreen) and pack.kinds == ["healing potion"]
        await pilot.press("1")
        await pilot.pause()
        assert "healing potion" not in state.inventory and state.hp > 5
        state.inventory = {"fire bomb": 1}
        await pilot.press("q")
        await pilot.pause()
        assert "no potion" in prompt(app)


async def test_the_sheet_shows_what_a_trade_off_costs():
    state, _c = arena(3)
    for item in ("war axe", "tower plate"):
        receive(state, item)  # into the pack: a cost is worn only by choice
        step(state, Wear(item))
    state.berserk = 4
    app = SheetApp(state)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("at")
        await pilot.pause()
        sheet = sheet_of(app)
    assert "war axe" in sheet and "-15% to hit" in sheet and "70% to hit" in sheet
    assert "tower plate" in sheet and "-20 speed" in sheet and "Speed      80" in sheet
    assert "berserk 4 turns" in sheet
