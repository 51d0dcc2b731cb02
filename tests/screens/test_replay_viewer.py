"""The replay viewer through the real application: it plays a run record's recording on the
game screen's map, panel and log; pauses, steps one input, seeks to a floor and to a turn
(forward headless, back from the last snapshot before the turn), and what it shows is exactly
a headless replay's state at that input. A recording that goes out of sync, or cannot be
replayed, stops with a one-line error naming the turn — never a crash. ``watch_replay``
opens the app straight into it.

Replays run on Textual timers in real time: the tests pause the viewer first and then step
by keys, so nothing depends on how fast anything ran.
"""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from roguelike.recording import Recording, digest, frames
from screens.app import RoguelikeApp
from screens.ask import AskScreen
from screens.replay import SPEEDS, ReplayScreen
from screens.title import TitleScreen
from tests.screens.support import bot_record, prefix_digest, screen_text


@pytest.fixture(scope="module")
def floor_two_run():
    """A run record of the bot in the quiet world, abandoned ten actions after it first stood
    on floor 2 (what seeking a floor needs). The count is found by replaying the bot's whole
    run, not written here: how many actions floor 1 takes changes with the dungeon's content
    (the session's ``short_run`` of 45 actions no longer leaves floor 1)."""
    full = bot_record()
    assert full.recording is not None
    arrived = next((f.index for f in frames(full.recording) if f.state.number >= 2), None)
    assert arrived is not None, "the bot never reaches floor 2 of the quiet world"
    record = bot_record(arrived + 1 + 10)
    assert record.recording is not None and len(record.recording) == arrived + 11
    return record


async def paused_viewer(pilot, record) -> ReplayScreen:
    """The viewer of ``record``, opened paused over the title (the timer plays nothing)."""
    await pilot.pause()
    viewer = ReplayScreen(record, paused=True)
    await pilot.app.push_screen(viewer)
    await pilot.pause()
    assert pilot.app.screen is viewer and viewer.played == 0
    return viewer


def assert_shows_replay_at(viewer: ReplayScreen, app) -> None:
    """The viewer's state is the headless replay's after as many inputs, and says its turn."""
    want_digest, want_turn = prefix_digest(viewer.record, viewer.played)
    assert digest(viewer.state) == want_digest
    assert viewer.state.turn == want_turn
    assert f"turn {want_turn} · floor {viewer.state.number}" in screen_text(app)


async def test_pause_step_and_speed(short_run):
    app = RoguelikeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        viewer = await paused_viewer(pilot, short_run)
        before = viewer.played
        await pilot.pause(0.3)
        assert viewer.played == before  # paused: the timer plays nothing
        for _ in range(3):
            await pilot.press("full_stop")
        await pilot.press("right")
        assert viewer.played == before + 4
        assert_shows_replay_at(viewer, app)
        speed = viewer.speed
        await pilot.press("plus")
        assert viewer.speed == min(len(SPEEDS), speed + 1)
        assert f"speed {viewer.speed}/{len(SPEEDS)}" in screen_text(app)
        await pilot.press("minus", "minus")
        assert viewer.speed == max(1, speed - 1)


async def test_resumed_replay_plays_on_by_itself(short_run):
    app = RoguelikeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        viewer = await paused_viewer(pilot, short_run)
        before = viewer.played
        await pilot.press("space")
        for _ in range(100):
            if viewer.played > before:
                break
            await pilot.pause(0.05)
        assert viewer.played > before
        await pilot.press("space")
        assert_shows_replay_at(viewer, app)


async def test_the_replay_plays_by_itself_to_its_end(short_run):
    app = RoguelikeApp(replay=short_run)  # as `roguelike replay` opens it: playing
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen) and not viewer.paused
        await pilot.press(*["plus"] * len(SPEEDS))
        for _ in range(400):
            if viewer.finished:
                break
            await pilot.pause(0.05)
        assert viewer.finished and viewer.error is None
        assert viewer.played == len(short_run.recording)
        assert digest(viewer.state) == short_run.digest
        await pilot.press("q")
        assert isinstance(app.screen, TitleScreen)


async def test_seek_floor_turns_and_back(floor_two_run):
    app = RoguelikeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        viewer = await paused_viewer(pilot, floor_two_run)
        await pilot.press("home")
        assert viewer.played == 0 and viewer.state.number == 1
        await pilot.press("f")
        assert viewer.state.number == 2
        _, turn_before = prefix_digest(floor_two_run, viewer.played - 1)
        assert_shows_replay_at(viewer, app)
        floor2_turn = viewer.state.turn
        assert turn_before < floor2_turn
        await pilot.press("left_square_bracket")  # back 100 turns: replayed from the start
        assert viewer.state.turn < floor2_turn
        assert viewer.state.turn >= max(0, floor2_turn - 100)
        assert_shows_replay_at(viewer, app)
        await pilot.press("right_square_bracket")
        assert viewer.state.turn >= floor2_turn
        assert_shows_replay_at(viewer, app)
        # g asks for a turn
        await pilot.press("g")
        assert isinstance(app.screen, AskScreen)
        await pilot.press(*"300", "enter")
        assert app.screen is viewer
        assert viewer.state.turn >= 300
        assert prefix_digest(floor_two_run, viewer.played - 1)[1] < 300  # the first to reach it
        assert_shows_replay_at(viewer, app)


async def test_the_end_of_the_recording(short_run):
    app = RoguelikeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        viewer = await paused_viewer(pilot, short_run)
        await pilot.press("g", *"99999", "enter")
        assert viewer.finished and viewer.error is None
        assert viewer.played == len(short_run.recording)
        assert digest(viewer.state) == short_run.digest
        assert "the end (left unfinished)" in screen_text(app)


async def test_out_of_sync_shows_the_turn_and_stops(short_run):
    rec = short_run.recording
    checks = list(rec.checks)
    checks[5] ^= 1
    bad = dataclasses.replace(
        short_run, recording=Recording(rec.start, rec.generator, rec.actions, checks)
    )
    _, turn = prefix_digest(short_run, 6)
    app = RoguelikeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        viewer = await paused_viewer(pilot, bad)
        for _ in range(8):
            await pilot.press("full_stop")
        assert viewer.finished and viewer.played == 5
        text = screen_text(app)
        assert f"out of sync at turn {turn} (input 6)" in text
        assert isinstance(app.screen, ReplayScreen)  # still up, no crash
        await pilot.press("q")
        assert isinstance(app.screen, TitleScreen)


async def test_another_generator_or_no_recording_is_one_line(short_run):
    other = dataclasses.replace(short_run.recording, generator="0.0-old")
    for record, words in (
        (dataclasses.replace(short_run, recording=other), "recorded with generator 0.0-old"),
        (dataclasses.replace(short_run, recording=None), "has no recording"),
    ):
        app = RoguelikeApp(replay=record)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            viewer = app.screen
            assert isinstance(viewer, ReplayScreen)
            await pilot.press("full_stop")
            assert viewer.finished and viewer.played == 0
            assert words in screen_text(app)


async def test_world_names_are_not_markup(short_run):
    record = dataclasses.replace(short_run, world="[b]x[/] \x1b[31mred")
    app = RoguelikeApp(replay=record)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "[b]x[/] \\x1b[31mr" in screen_text(app)


def test_watch_replay_starts_the_app_on_the_record(fake_app, short_run, tmp_path):
    from roguelike.cli.play import watch_replay

    watch_replay(argparse.Namespace(save_dir=str(tmp_path)), short_run, fake_app)
    assert fake_app.made == {"save_dir": str(tmp_path), "replay": short_run, "ran": True}


async def test_seeking_back_starts_from_the_last_snapshot_before_the_turn(
    floor_two_run, monkeypatch
):
    """Seeking back does not replay from the start: it goes back to the last snapshot kept
    before the turn (one where each floor begins, one every SNAPSHOT_EVERY inputs), and shows
    exactly what a replay from the start shows there."""
    monkeypatch.setattr("screens.replay.SNAPSHOT_EVERY", 10)
    app = RoguelikeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        viewer = await paused_viewer(pilot, floor_two_run)
        await pilot.press("f")
        await pilot.pause()
        await pilot.press("f")  # on: snapshots kept on the way
        await pilot.pause()
        assert viewer.state.number >= 2
        kept = [s.played for s in viewer._snapshots]
        assert kept == sorted(kept) and len(kept) >= 3
        floors = {s.state.number: s.played for s in reversed(viewer._snapshots)}
        # one where each floor begins, at its first input
        assert set(floors) == set(range(1, viewer.state.number + 1))
        for floor, played in floors.items():
            if floor > 1:
                before, at = (
                    prefix_digest(floor_two_run, played - 1),
                    prefix_digest(floor_two_run, played),
                )
                assert before[1] < at[1]
        started: list[int] = []
        original = ReplayScreen._play_from

        def play_from(self, played, visited):
            started.append(played)
            return original(self, played, visited)

        monkeypatch.setattr(ReplayScreen, "_play_from", play_from)
        target = viewer.state.turn - 5
        viewer.seek_turn(target)
        await pilot.pause()
        (start,) = started
        assert start > 0 and start in kept  # not from the start
        assert prefix_digest(floor_two_run, start)[1] < target
        assert viewer.state.turn >= target
        assert prefix_digest(floor_two_run, viewer.played - 1)[1] < target  # the first to reach it
        assert_shows_replay_at(viewer, app)
