"""Long replays never hold the screen or the game (issue 24, case 6): the title's challenge
import shows how far its check is and stops at Esc (its thread ends at once, so quitting never
waits for it); the replay viewer seeks in slices, drawing and taking keys between them (Esc
stops a seek where it got); ``verify`` refuses a recording past its cost bound before any
replay."""

from __future__ import annotations

import threading

import pytest

from roguelike import recording as rec_module
from saves import verify as verify_module
from saves.hall import Hall
from saves.record import RunFileError, pack
from saves.verify import verify
from screens import replay as replay_module
from screens.app import RoguelikeApp
from screens.replay import ReplayScreen
from screens.title import TitleScreen
from tests.saves.costly_run import costly_record
from tests.screens.support import quiet_game, save_dir, screen_text, start_import

#: how many pauses a test waits at most for a thread (a bound against a hang, not a timing)
PATIENCE = 3000


def test_verify_refuses_a_costly_record_before_replaying_it(monkeypatch):
    monkeypatch.setattr(rec_module, "INPUTS_PER_FLOOR", 40)
    record = costly_record(41)

    def never(*args, **kwargs):
        raise AssertionError("replayed although past its bound")

    monkeypatch.setattr(verify_module, "replay", never)
    with pytest.raises(RunFileError, match=r"too long to replay: it holds 41 inputs.*40 a floor"):
        verify(record)


async def test_esc_during_a_challenge_check_stops_its_replay(short_run, tmp_path, monkeypatch):
    path = tmp_path / "sent.run"
    path.write_bytes(pack(short_run))
    reached: list[int] = []
    ended = threading.Event()
    total = 10**6

    def endless_check(self, source, *, progress=None):
        """A check whose replay would take a long time: it only reports progress."""
        try:
            for done in range(total):
                assert progress is not None, "the screen gives its check no way to stop"
                progress(done, total)
                reached.append(done)
                threading.Event().wait(0.001)
        finally:
            ended.set()

    monkeypatch.setattr(Hall, "check_file", endless_check)
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_import(pilot, path)
        for _ in range(PATIENCE):
            if "replayed · Esc stops" in screen_text(app):
                break
            await pilot.pause(0.01)
        assert f"of {total:,} replayed · Esc stops" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        for _ in range(PATIENCE):
            if ended.is_set():
                break
            await pilot.pause(0.01)
        assert ended.is_set() and len(reached) < total  # stopped, not run to its end
    assert Hall(save_dir()).challenges() == []


async def test_a_seek_draws_between_slices_and_esc_stops_it(won_run, monkeypatch):
    """Between two slices the screen draws where the seek got; Esc then stops the seek where
    it got (the viewer stays), and a seek let run reaches its end."""
    monkeypatch.setattr(replay_module, "SEEK_SLICE", 0.0)  # one input a slice
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        viewer = ReplayScreen(won_run, paused=True)
        await app.push_screen(viewer)
        await pilot.pause()
        drawn: list[tuple[str | None, int]] = []
        draw = viewer._draw_messages
        stopped: list[bool] = []

        def drawing() -> None:
            drawn.append((viewer.prompt, viewer.played))
            draw()
            if viewer.played == 5 and viewer.seeking and not stopped:
                stopped.append(True)
                viewer.action_leave()  # Esc, between two slices: stops the seek

        monkeypatch.setattr(viewer, "_draw_messages", drawing)
        viewer.seek_turn(10**6)  # past the end: a seek through the whole run
        for _ in range(PATIENCE):
            if not viewer.seeking:
                break
            await pilot.pause()
        await pilot.pause()
        assert not viewer.seeking and app.screen is viewer
        assert viewer.played == 5 and not viewer.finished
        got = viewer.played
        await pilot.pause()
        assert viewer.played == got  # nothing more replayed after the stop
        viewer.seek_turn(10**6)
        for _ in range(PATIENCE):
            if not viewer.seeking:
                break
            await pilot.pause()
        assert viewer.finished and viewer.played == len(won_run.recording)
    seeking = [played for prompt, played in drawn if (prompt or "").startswith("Seeking… turn")]
    assert len(seeking) > 1 and seeking == sorted(seeking)  # drawn as it went
