"""The message history draws at once: only the rows on the screen are drawn, however long
the log (it rendered every line before the first frame: about half a second for 1,000)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App

from screens.history import HistoryScreen, WrappedLines
from tests.screens.support import screen_text

LINES = [f"Message {n}: the goblin archer shoots at you, " + "far " * (n % 12) for n in range(1000)]


async def test_a_long_history_draws_only_the_rows_on_the_screen(monkeypatch):
    rendered: list[str] = []
    render = Text.__rich_console__

    def counting(self: Text, *args: Any) -> Any:
        rendered.append(self.plain)
        return render(self, *args)

    monkeypatch.setattr(Text, "__rich_console__", counting)
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(HistoryScreen(LINES))
        await pilot.pause()
        text = screen_text(app)
        assert "Message 999:" in text and "Message 0:" not in text  # opens at the newest
        assert not [line for line in rendered if line.startswith("Message ")]
        view = app.screen.query_one(WrappedLines)
        width = view.scrollable_content_region.width
        assert all(len(row) <= width for row in view.rows)  # wrapped, never cropped
        assert " ".join(" ".join(view.rows).split()) == " ".join(" ".join(LINES).split())
        await pilot.press("home")
        await pilot.pause()
        assert "Message 0:" in screen_text(app)
