"""The title screen, driven through Textual's Pilot."""

from textual.widgets import Static

from screens.app import RoguelikeApp, TitleScreen


async def test_title_screen_shows_versions_and_previews_a_floor():
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        version = app.screen.query_one("#title-version", Static)
        assert "generator" in str(version.render())
        await pilot.press("p")
        await pilot.pause()
        text = str(app.screen.query_one("#preview-text", Static).render())
        assert text.startswith("floor 1 · seed ") and "start 0" in text and "finish 1" in text
        assert "[A]─" in text and "[C]─" in text  # lock labels survive (not read as markup)


async def test_ctrl_q_quits():
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_value is None and not app.is_running
