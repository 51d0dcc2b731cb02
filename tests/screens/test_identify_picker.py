"""The pick of a scroll of identification: the pack box lists the unknown kinds, a number
names one (the engine takes it as the action's choice), and the pack shows looks, not kinds."""

from __future__ import annotations

from roguelike.engine.identify import appearances, is_known
from roguelike.engine.state import new_game
from screens.game import GameScreen
from screens.inventory import InventoryScreen
from tests.screens.support import GameApp, press_to, screen_text

SEED = 12345


async def test_a_known_identify_scroll_asks_which_kind_to_name():
    state = new_game(SEED, total_floors=3, monsters=False)
    state.identified.add("identify scroll")
    state.inventory.update({"identify scroll": 1, "blink scroll": 1, "speed potion": 1})
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("i")
        await pilot.pause()
        pack = app.screen
        assert isinstance(pack, InventoryScreen)
        shown = " ".join(screen_text(app).split())
        looks = appearances(SEED)
        assert f"{looks['speed potion'][0]} (unknown)" in shown and "speed potion" not in shown
        await pilot.press(str(pack.kinds.index("identify scroll") + 1))
        await pilot.pause()
        pick = app.screen
        assert isinstance(pick, InventoryScreen) and pick.heading == "Identify which?"
        assert set(pick.kinds) == {"blink scroll", "speed potion"}
        await pilot.press(str(pick.kinds.index("speed potion") + 1))
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert is_known(state, "speed potion") and not is_known(state, "blink scroll")
        assert "identify scroll" not in state.inventory and state.inventory["speed potion"] == 1


async def test_an_items_description_wraps_under_its_name_in_the_pack():
    """At 80×24 an unknown scroll's description wraps; its second line started at the box's
    left edge, under the item numbers ("harm), or identify it …"). It keeps its indent."""
    state = new_game(SEED, total_floors=3, monsters=False)
    state.inventory.clear()
    state.inventory.update({"blink scroll": 1, "speed potion": 1})
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press_to(pilot, InventoryScreen, "i")
        lines = screen_text(app).splitlines()
        (first,) = [y for y, line in enumerate(lines) if "read it to learn" in line][:1]
        box_left = lines[first].index("│") + 1
        heading = lines[first - 1][box_left:]
        described = lines[first][box_left:]
        wrapped = lines[first + 1][box_left:]
        number = len(heading) - len(heading.lstrip())
        assert described.startswith(" " * (number + 4))
        assert wrapped.strip() and wrapped.startswith(" " * (number + 4)), wrapped
