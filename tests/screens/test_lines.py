"""TextLines without wrapping (the puzzle screen's board and panel): one row per line, cropped,
sized to its text, and only the lines that changed are rendered again. (Wrapped, as the game
screen's side panel uses it: see test_game_screen.py.)"""

from __future__ import annotations

from rich.text import Text
from textual.app import App

from screens.lines import TextLines


class TwoLines(App[None]):
    CSS = "#auto { width: auto; height: auto; } #fixed { width: 8; height: 3; }"

    def compose(self):
        yield TextLines(wrap=False, id="auto")
        yield TextLines(wrap=False, id="fixed")


async def test_unwrapped_lines_are_one_row_each_and_sized_to_their_text():
    app = TwoLines()
    async with app.run_test(size=(40, 12)) as pilot:
        auto = app.query_one("#auto", TextLines)
        fixed = app.query_one("#fixed", TextLines)
        lines = [Text("a long line of text", style="bold"), Text("two")]
        auto.show(lines)
        fixed.show(lines)
        await pilot.pause()
        assert (auto.size.width, auto.size.height) == (19, 2)
        assert fixed.text.splitlines() == ["a long l", "two"]  # cropped, never wrapped
        before = auto.lines_rendered
        auto.show([lines[0], Text("TWO")])  # same size: only the changed line is rendered
        await pilot.pause()
        assert auto.lines_rendered - before == 1 and auto.text.splitlines()[1] == "TWO"
        auto.show([*lines, Text("a third, longer line of text")])  # a new size: laid out again
        await pilot.pause()
        assert (auto.size.width, auto.size.height) == (28, 3)
        before = auto.lines_rendered
        auto.show([*lines[:1], Text("two", style="red"), Text("a third, longer line of text")])
        await pilot.pause()  # a line whose only change is its colour is drawn again
        assert auto.lines_rendered - before == 1
