"""Challenges through the real application: ``o`` on the title imports a challenge file, which
is checked by replay before anything is offered; a good one offers to watch the sender's run
and to play the same world, a tampered one is refused naming the false claim (and nothing is
kept). Playing a challenge's world to its end shows both runs side by side on the summary.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
from pathlib import Path

from textual.worker import WorkerFailed

from roguelike.recording import decode_action
from saves.hall import Hall
from saves.record import pack
from screens.app import RoguelikeApp
from screens.challenge import ChallengeScreen
from screens.game import GameScreen
from screens.replay import ReplayScreen
from screens.summary import SummaryScreen
from screens.title import TitleScreen
from tests.screens.support import quiet_game, save_dir, screen_text, start_import


async def import_file(pilot, path: Path) -> ChallengeScreen:
    screen = await start_import(pilot, path)
    assert screen.checking or screen.record is not None or "Refused" in screen_text(pilot.app)
    with contextlib.suppress(WorkerFailed):  # a refused file fails its worker, whichever
        await pilot.app.workers.wait_for_complete()  # way the race goes: the screen says why
    await pilot.pause()
    assert not screen.checking
    return screen


async def test_a_good_file_offers_watch_and_play(short_run, tmp_path):
    path = tmp_path / "sent.run"
    path.write_bytes(pack(dataclasses.replace(short_run, world="Their [b]world")))
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await import_file(pilot, path)
        assert screen.record is not None and screen.record.id == short_run.id
        text = screen_text(app)
        assert "Their [b]world" in text and "w watches their run" in text
        assert [r.id for r in Hall(save_dir()).challenges()] == [short_run.id]
        await pilot.press("w")
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("escape")
        assert app.screen is screen
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.session is not None and app.session.challenge == short_run.id
        assert app.session.world.name == "Their [b]world challenge"
        assert app.session.world.seed == short_run.recording.start.seed


async def test_a_tampered_file_is_refused_naming_the_claim(short_run, tmp_path):
    path = tmp_path / "lies.run"
    path.write_bytes(pack(dataclasses.replace(short_run, turns=short_run.turns + 1)))
    app = RoguelikeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await import_file(pilot, path)
        assert screen.record is None
        text = screen_text(app)
        assert "Refused: the record's claim of turns is false" in text
        await pilot.press("p")  # nothing to play
        assert app.screen is screen
    assert Hall(save_dir()).challenges() == []


async def test_a_file_that_is_not_a_run_is_refused(tmp_path):
    path = tmp_path / "noise.run"
    path.write_bytes(b"\x1b[2J not a run")
    app = RoguelikeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await import_file(pilot, path)
        assert screen.record is None
        assert "Refused: not a roguelike run file" in screen_text(app)


async def test_playing_a_challenge_to_its_end_compares_both_runs(won_run):
    Hall(save_dir()).add(won_run, imported=True)
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.play_challenge(won_run)
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        # the same world, played with the sender's very inputs
        for code in won_run.recording.actions:
            game.act(decode_action(code))
        assert game.state.won
        await pilot.press("enter")
        await pilot.pause()
        summary = app.screen
        assert isinstance(summary, SummaryScreen)
        assert summary.versus is not None and summary.versus.id == won_run.id
        text = screen_text(app)
        assert "The challenge" in text and "Quiet winner" in text
        score_row = next(line for line in text.splitlines() if "Score" in line)
        assert score_row.split().count(str(won_run.score)) == 2  # the same moves, the same score
    mine = [r for r in Hall(save_dir()).runs() if r.challenge == won_run.id]
    assert len(mine) == 1 and mine[0].digest == won_run.digest


async def test_leaving_while_a_file_is_checked_keeps_nothing(short_run, tmp_path, monkeypatch):
    """Esc during "Checking…": the check may finish in the background, but what the player
    walked away from is not kept among the challenges."""
    path = tmp_path / "sent.run"
    path.write_bytes(pack(short_run))
    release = threading.Event()
    check_file = Hall.check_file

    def slow_check(self, source, **kw):
        release.wait(10)
        return check_file(self, source, **kw)

    monkeypatch.setattr(Hall, "check_file", slow_check)
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_import(pilot, path)
        assert screen.checking
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert Hall(save_dir()).challenges() == []
