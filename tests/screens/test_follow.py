"""Watching a game from its input stream (:mod:`screens.follow`): the replay viewer follows
what the game plays, a daily's watcher stays turns behind, the watcher's keys reach nothing
of the watched game, and the stream's text reaches the screen only as printable text."""

from __future__ import annotations

import pytest

from roguelike import seeds
from roguelike.engine import Wait, new_game, step
from roguelike.recording import Recording
from saves import Store
from saves.live import BEHIND_TURNS, LiveReader, LiveWriter
from saves.session import Games
from saves.world import World
from screens.follow import FollowScreen
from screens.served import ServedApp

SIZE = (110, 36)


async def until(pilot, done, what: str) -> None:
    """Wait (bounded, in steps of the app's own clock) until ``done()``."""
    for _ in range(400):
        if done():
            return
        await pilot.pause(0.05)
    pytest.fail(f"never: {what}")


def watcher(tmp_path, path) -> ServedApp:
    return ServedApp(save_dir=tmp_path / "watcher", follow=str(path))


async def test_a_watcher_follows_the_game_as_it_is_played_and_touches_nothing(tmp_path):
    path = tmp_path / "live" / "g.live"
    app = watcher(tmp_path, path)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, FollowScreen), "the follow screen")
        screen = app.screen
        assert isinstance(screen, FollowScreen)
        assert "Waiting" in (screen.status_line(100) or "")
        games = Games(Store(tmp_path / "player"))
        with games.new(World("Played", seeds.parse("follow"), preset="small")) as session:
            session.step(Wait())
            writer = LiveWriter(path)
            writer.begin(session.world.name, False, session.recording, session.state.turn)
            session.live = writer
            await until(pilot, lambda: screen.state.turn == 1, "the game's first turn")
            assert screen.world_name == "Played"
            for _ in range(4):
                session.step(Wait())
            await until(pilot, lambda: screen.state.turn == 5, "the turns played since")
            assert "live" in (screen.status_line(200) or "")
            stream = path.read_bytes()
            for key in ("h", "s", "space", "p", "x", "space"):  # read-only: nothing reaches it
                await pilot.press(key)
            await pilot.pause(0.3)
            assert path.read_bytes() == stream and session.state.turn == 5
            session.step(Wait())
            await until(pilot, lambda: screen.state.turn == 6, "a turn after the keys")
        path.unlink()  # the game ended: the server removed its stream
        await until(pilot, lambda: "over" in (screen.status_line(200) or ""), "the game over")
        assert screen.state.turn == 6


async def test_a_dailys_watcher_never_reaches_the_present(tmp_path):
    path = tmp_path / "d.live"
    state = new_game(seeds.parse("daily"), preset="small")
    recording = Recording.begin(state)
    writer = LiveWriter(path)
    writer.begin("Daily", True, recording, 0)
    for _ in range(BEHIND_TURNS + 12):
        step(state, Wait())
        recording.add(Wait(), state)
        writer.add(recording.actions[-1], recording.checks[-1], state.turn)
    app = watcher(tmp_path, path)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, FollowScreen), "the follow screen")
        screen = app.screen
        await until(pilot, lambda: screen.state.turn == 12, "the daily, turns behind")
        await pilot.pause(0.6)  # the player stops: the watcher stays where it is
        assert screen.state.turn == 12
        assert f"{BEHIND_TURNS} turns behind" in (screen.status_line(200) or "")
        await pilot.press("right", "f", "]")  # no key brings the present nearer
        await pilot.pause(0.3)
        assert screen.state.turn == 12


async def test_the_streams_text_is_shown_printable_and_a_broken_stream_in_one_line(tmp_path):
    path = tmp_path / "g.live"
    recording = Recording.begin(new_game(seeds.parse("x"), preset="small"))
    LiveWriter(path).begin("Evil\x1b[2J\x07", False, recording, 0)
    app = watcher(tmp_path, path)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, FollowScreen), "the follow screen")
        screen = app.screen
        await until(pilot, lambda: screen.record.recording is not None, "the game's head")
        assert "\x1b" not in screen.world_name and "\x07" not in screen.world_name
        with path.open("ab") as f:
            f.write(b"\x1b]52;c;AAAA\x07\n")
        await until(pilot, lambda: screen.broken is not None, "the stream refused")
        line = screen.status_line(200) or ""
        assert line.startswith("Not followed:") and "\x1b" not in line


async def test_a_served_game_writes_its_input_stream_from_its_start(tmp_path):
    path = tmp_path / "live" / "g.live"
    app = ServedApp(seed=seeds.parse("abc"), save_dir=tmp_path / "saves", live_stream=str(path))
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(600):
            if app._game is not None and app.screen is app._game:
                break
            await pilot.pause(0.05)
        for _ in range(3):
            await pilot.press("s")
        await pilot.pause()
        played = app.session.recording.actions[:]
        name = app.session.world.name
    reader = LiveReader(path)
    assert reader.look() and reader.world == name and not reader.daily
    assert reader.recording.actions == played and reader.turns[-1] == 3


async def test_a_served_player_is_told_when_watchers_can_no_longer_follow(tmp_path):
    """A write of the stream that fails ends the stream, never the game, and the player is
    told once why (nothing fails silently)."""
    path = tmp_path / "live" / "g.live"
    app = ServedApp(seed=seeds.parse("abc"), save_dir=tmp_path / "saves", live_stream=str(path))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        for _ in range(600):
            if app._game is not None and app.screen is app._game:
                break
            await pilot.pause(0.05)
        path.unlink()
        path.mkdir()  # the stream's file is now a folder: the next append fails
        for _ in range(3):
            await pilot.press("s")
        await pilot.pause()
        told = [n.message for n in app._notifications]
        assert app.session.state.turn == 3  # play went on
    stopped = [m for m in told if m.startswith("Watchers can no longer follow this game:")]
    assert len(stopped) == 1 and "[Errno" not in stopped[0]
