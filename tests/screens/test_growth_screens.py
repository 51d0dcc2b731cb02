"""Growing on the game screen: a level up opens the perk offer (a number takes one, Esc puts
it off and ``P`` shows it again); ``w`` wears or wields from the pack, ``W`` takes off, the
pack shows what is worn."""

from __future__ import annotations

from roguelike.engine.items import receive
from screens.game import GameScreen
from screens.inventory import InventoryScreen
from screens.perks import PerkScreen
from tests.engine.support import add, arena, off
from tests.screens.support import GameApp, press_to, screen_text


def _about_to_level():
    """An arena with a 1-HP rat east of the player, whose kill levels the player up."""
    state, c = arena(3)
    add(state, "rat", off(c, 1, 0), hp=1)
    state.xp = state.xp_to_next - 1
    state.accuracy = 100  # the blow lands
    state.update_view()
    return state


async def test_a_level_up_opens_the_offer_and_a_number_takes_a_perk():
    state = _about_to_level()
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("l")
        await pilot.pause()
        assert state.level == 2
        assert isinstance(app.screen, PerkScreen)
        offer = state.perk_offer
        text = screen_text(app)
        assert "Level 2: choose a perk" in text and all(name in text for name in offer)
        turn = state.turn
        await pilot.press("2")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert state.perks == [offer[1]] and state.perk_offer == ()
        assert state.turn == turn  # the choice spends no turn


async def test_a_perks_description_wraps_under_its_own_indent_at_80x24():
    """'You know what a potion or a scroll is as you pick it' wrapped to 'up, and what your
    pack holds' at the box's edge, under the perk's number (played at 80x24)."""
    state = _about_to_level()
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(PerkScreen(("identify by touch", "toughness"), 2, []))
        await pilot.pause()
        lines = screen_text(app).splitlines()
        first = next(line for line in lines if "You know what a potion" in line)
        second = lines[lines.index(first) + 1]
        assert "pack holds" in second  # the description took two rows
        indent = first.index("You know")
        assert second[:indent].strip(" │") == "" and second[indent] != " "


async def test_escape_puts_the_offer_off_and_p_shows_it_again():
    state = _about_to_level()
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("l")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and state.perks == []
        await pilot.press("s")  # the game goes on meanwhile
        await pilot.pause()
        assert state.perk_offer
        await pilot.press("P")
        await pilot.pause()
        assert isinstance(app.screen, PerkScreen)
        await pilot.press("1")
        await pilot.pause()
        assert len(state.perks) == 1


async def test_w_wears_from_the_pack_and_big_w_takes_off():
    state, _ = arena(3)
    receive(state, "tower plate")  # a cost: it waits in the pack
    assert state.equipment == {}
    app = GameApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press_to(pilot, InventoryScreen, "w")
        assert "tower plate" in screen_text(app)
        await pilot.press("1")
        await pilot.pause()
        assert state.equipment == {"tower plate": 0} and state.speed == 80
        assert state.turn == 1
        await pilot.press("i")
        await pilot.pause()
        assert "worn: [ tower plate" in screen_text(app)
        assert "W on the map takes off" in screen_text(app)  # where the pack's reader looks
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("W")
        await pilot.pause()
        assert state.equipment == {} and state.speed == 100
        assert state.inventory == {"tower plate": 1} and state.turn == 2
        await pilot.press("i")
        await pilot.pause()
        assert "takes off" not in screen_text(app)  # nothing worn, nothing to say
