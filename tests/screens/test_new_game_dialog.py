"""The new-world dialog: a code typed at once is kept, a mistake is shown whole, and the size
choice stops at its ends."""

import pytest
from textual.widgets import Input, Static

from roguelike import seeds
from screens.app import RoguelikeApp
from screens.new_game import NewGameScreen
from screens.title import TitleScreen
from tests.screens.support import screen_text

#: the code of the text "hello", as the game shows it, and as a player types it
HELLO = seeds.encode(seeds.read_stored("N65Q-QBJ0-23PV"))
TYPED = HELLO.replace("-", "").lower()
MISSING = "N65Q-QBJ0-23P"  # N65Q-QBJ0-23PV with its last symbol left out


async def open_dialog(pilot, key: str) -> NewGameScreen:
    await pilot.press(key)
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, NewGameScreen)
    return screen


@pytest.mark.parametrize("key", ["n", "s"])
async def test_n_and_s_focus_the_seed_field_so_a_typed_code_is_kept(key):
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(key, *TYPED)  # typed at once, without waiting
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        assert app.focused is screen.query_one("#seed", Input)
        assert screen.query_one("#seed", Input).value == TYPED
        assert str(screen.query_one("#seed-status", Static).render()) == f"✓ seed {HELLO}"


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_a_mistyped_code_s_whole_message_is_on_screen(size):
    app = RoguelikeApp()
    async with app.run_test(size=size) as pilot:
        screen = await open_dialog(pilot, "n")
        await pilot.press(*MISSING)
        await pilot.pause()
        status = screen.query_one("#seed-status", Static)
        message = str(status.render())
        assert status.has_class("-error")
        assert message.startswith(f"seed code {MISSING}: one symbol is missing in the third group")
        shown = " ".join(screen_text(app).split())  # the message, wrapped over several rows
        assert " ".join(message.split()) in shown
        assert "to use it as text, add a '!'" in shown
        assert "Start ⏎" in shown  # the dialog still fits, buttons and all
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen  # nothing starts
        await pilot.press("!")  # the way out the message gives: now it is text
        await pilot.pause()
        assert not status.has_class("-error")
        assert str(status.render()).startswith(f"✓ text '{MISSING}!' → seed ")


async def test_a_phrase_of_words_is_shown_as_a_valid_text_seed():
    """``dark moon cave`` was refused as a mistyped code: the line under the field said so and
    Enter did nothing. Now it is a text seed, shown with the code it gives."""
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_dialog(pilot, "n")
        await pilot.press(*"dark moon cave")
        await pilot.pause()
        status = screen.query_one("#seed-status", Static)
        assert not status.has_class("-error")
        cave = seeds.encode(seeds.read_stored("NKZ7-5TWE-8A2K"))
        assert str(status.render()) == f"✓ text 'dark moon cave' → seed {cave}"
        assert screen.query_one("#seed", Input).is_valid


async def test_the_size_choice_does_not_wrap_around():
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_dialog(pilot, "n")
        preset = screen.query_one("#preset")
        preset.focus()
        await pilot.pause()
        assert screen.chosen_preset() == "normal"
        await pilot.press("left", "left", "left")  # ← stops at the first size
        await pilot.pause()
        assert screen.chosen_preset() == "small" and app.focused is preset
        await pilot.press("up")  # ↑ at the first size moves up to the name field
        await pilot.pause()
        assert screen.chosen_preset() == "small"
        assert app.focused is screen.query_one("#name", Input)
        preset.focus()
        await pilot.press("right", "right", "right", "right")  # → stops at the last size
        await pilot.pause()
        assert screen.chosen_preset() == "large" and app.focused is preset
        await pilot.press("down")  # ↓ at the last size moves down to the difficulty
        await pilot.pause()
        assert screen.chosen_preset() == "large"
        assert app.focused is screen.query_one("#difficulty")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)


@pytest.mark.parametrize(
    "typed", ["N65Q-QBJ0-23PVV", "N65Q-QBJ0-23PUV", "N65Q-QBJ0-23PX", "N65Q-QBJ0-23PV"]
)
async def test_the_longest_messages_fit_at_80_by_24(typed):
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_dialog(pilot, "n")
        await pilot.press(*typed)
        await pilot.pause()
        message = str(screen.query_one("#seed-status", Static).render())
        shown = " ".join(screen_text(app).split())
        assert typed in message and " ".join(message.split()) in shown
        assert "Start ⏎" in shown and "Permadeath" in shown


async def test_the_example_code_the_seed_field_shows_is_one_it_takes():
    """The field's example was ``K7QX-M2PA-9RTD``, a code of the old form, which the field
    refuses ("wrong check symbol"): a new player copying it met an error."""
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_dialog(pilot, "n")
        field = screen.query_one("#seed", Input)
        example = field.placeholder.split("a code like ", 1)[1].split(" ", 1)[0]
        assert example in screen_text(app)  # shown whole at 80 columns
        await pilot.press(*example)
        await pilot.pause()
        status = screen.query_one("#seed-status", Static)
        assert not status.has_class("-error")
        assert str(status.render()) == f"✓ seed {example}"
