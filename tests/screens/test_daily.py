"""The daily world from the title: ``d`` starts today's world (the same seed for everyone,
UTC), continues it if it is unfinished, and the title's line gives the daily streak and
whether today's scored run is used (then a daily run is practice). The hall filters to daily
runs and shows the streak there.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from textual.widgets import Static

from saves.hall import Hall
from saves.world import daily_name, daily_seed
from screens.app import RoguelikeApp
from screens.busy import BusyScreen
from screens.game import GameScreen
from screens.hall import HallScreen
from screens.title import TitleScreen
from tests.screens.support import quiet_game, save_dir, screen_text


def today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


def add_daily_runs(run, days_ago: list[int]) -> None:
    hall = Hall(save_dir())
    for n in days_ago:
        day = (today() - dt.timedelta(days=n)).isoformat()
        hall.add(dataclasses.replace(run, id=f"d-{n}", world=f"Daily {day}", daily=day))


async def until_game(pilot) -> None:
    """Let the app run until the game screen is up (a box says the world is being made)."""
    for _ in range(50):
        await pilot.pause()
        if isinstance(pilot.app.screen, GameScreen):
            return


async def daily_line(pilot) -> str:
    await pilot.pause()
    await pilot.pause()
    assert isinstance(pilot.app.screen, TitleScreen)
    await pilot.app.screen.workers.wait_for_complete()  # the line is read off the UI thread
    await pilot.pause()
    return str(pilot.app.screen.query_one("#title-daily", Static).render())


async def test_the_title_shows_the_streak(short_run):
    add_daily_runs(short_run, [1, 2, 3, 5])  # yesterday and two days before: 3 in a row
    app = RoguelikeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        line = await daily_line(pilot)
        assert "streak 3 days" in line
        assert "today's run is scored" in line


async def test_once_today_is_played_the_title_says_practice(short_run):
    add_daily_runs(short_run, [0, 1])
    app = RoguelikeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        line = await daily_line(pilot)
        assert "streak 2 days" in line
        assert "practice" in line


async def test_d_starts_todays_world_and_continues_it():
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(100, 30)) as pilot:
        await daily_line(pilot)
        await pilot.press("d")
        await until_game(pilot)
        game = app.screen
        assert isinstance(game, GameScreen)
        assert app.session is not None
        assert app.session.world.seed == daily_seed()
        assert app.session.world.name == daily_name()
        await pilot.press("l", "l", "S")  # a step or two, then save and leave
        await pilot.pause()
        turn = game.state.turn
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.session.world.name == daily_name()  # the same world, not a second one
        assert app.screen.state.turn == turn


async def test_the_hall_filters_daily_runs_with_the_streak(short_run):
    add_daily_runs(short_run, [0, 1])
    Hall(save_dir()).add(dataclasses.replace(short_run, id="plain", world="Plain"))
    app = RoguelikeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await daily_line(pilot)
        await pilot.press("r")
        await pilot.pause()
        hall = app.screen
        assert isinstance(hall, HallScreen)
        assert len(hall.rows) == 3
        await pilot.press("d")
        assert sorted(r.id for r in hall.rows) == ["d-0", "d-1"]
        assert "streak 2" in screen_text(app)


async def test_d_says_the_world_is_being_made_while_it_is(monkeypatch):
    """Issue 28: ``d`` left the title on the screen for seconds before the map appeared. Now a
    box says what is being made, drawn before the first floor is generated."""
    seen: list[str] = []
    run = BusyScreen.run

    def spy(screen: BusyScreen) -> None:
        seen.append(screen_text(app))  # what is on the screen as the work starts
        run(screen)

    monkeypatch.setattr(BusyScreen, "run", spy)
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(80, 24)) as pilot:
        await daily_line(pilot)
        await pilot.press("d")
        await until_game(pilot)
        assert len(seen) == 1 and "Making today's world…" in seen[0]
        assert [type(s) for s in app.screen_stack][1:] == [TitleScreen, GameScreen]
