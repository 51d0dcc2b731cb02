"""Issue 28: Continue, Load and the daily's continue left the title (or the list) on the
screen while a saved world was read and its floor made; they say so in a box now, as a new
world does (:class:`~screens.busy.BusyScreen`)."""

from __future__ import annotations

from typing import Any

import pytest

from saves import Store, World
from saves.world import daily_name, daily_seed
from screens.app import RoguelikeApp
from screens.busy import BusyScreen
from screens.game import GameScreen
from screens.load import LoadScreen


def watch_loads(app: RoguelikeApp, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """For each saved world opened: the words of the busy box whose work opened it, drawn on
    the screen as the work started ("" if no box was drawn)."""
    seen: list[str] = []
    boxes: list[str] = []
    run, load = BusyScreen.run, app.games.load

    def running(box: BusyScreen) -> None:
        drawn = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        boxes.append(box.words if box.words in drawn else "")
        try:
            run(box)
        finally:
            boxes.pop()

    def loading(name: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(boxes[-1] if boxes else "")
        return load(name, *args, **kwargs)

    monkeypatch.setattr(BusyScreen, "run", running)
    monkeypatch.setattr(app.games, "load", loading)
    return seen


@pytest.mark.parametrize("key", ["c", "l", "d"])
async def test_opening_a_saved_world_shows_the_busy_box(key, monkeypatch):
    name = daily_name() if key == "d" else "Old Keep"
    Store().create(World.new(name, daily_seed() if key == "d" else 7, preset="small"))
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        seen = watch_loads(app, monkeypatch)
        await pilot.press(key)
        await pilot.pause()
        if key == "l":
            assert isinstance(app.screen, LoadScreen)
            await pilot.press("enter")
        for _ in range(20):
            if isinstance(app.screen, GameScreen):
                break
            await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert seen == [f"Opening {name}…"]
