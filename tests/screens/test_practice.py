"""Practice from any turn: ``p`` in the replay viewer starts a game from exactly the state the
replay shows, in a world of its own; its run is kept as practice (unscored, never the daily,
never ranked), its recording still verifies, and the original run is untouched."""

from __future__ import annotations

import dataclasses
import datetime as dt
import threading

from roguelike.recording import digest
from saves import Store
from saves.hall import Hall
from saves.ladder import hall_ladder
from saves.record import pack
from saves.session import Games
from saves.verify import verify
from screens.app import RoguelikeApp
from screens.busy import CheckScreen
from screens.game import GameScreen
from screens.replay import ReplayScreen
from tests.screens.support import prefix_digest, save_dir


async def test_practise_from_a_turn_of_a_replay(short_run):
    hall = Hall(save_dir())
    hall.add(short_run)
    original = pack(hall.get(short_run.id)[0])
    app = RoguelikeApp(replay=short_run)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        await pilot.press("space")  # paused
        viewer.seek_turn(20)
        while viewer.seeking:
            await pilot.pause()
        played = viewer.played
        want, turn = prefix_digest(short_run, played)
        await pilot.press("p")
        await app.workers.wait_for_complete()  # the run replayed to there in a thread
        for _ in range(10):
            await pilot.pause()
            if isinstance(app.screen, GameScreen):
                break
        game = app.screen
        assert isinstance(game, GameScreen)
        session = app.session
        assert session is not None
        assert digest(session.state) == want  # exactly the replay's state at that input
        name = session.world.name
        assert name == f"{short_run.world} (practice from turn {turn})"
        assert session.world.practice_from == played
        await pilot.press("full_stop")  # a move of one's own: a turn waited
        assert session.state.turn > turn
        await pilot.press("S")  # saved and left: back in the viewer
        await pilot.pause()
        assert app.screen is viewer
    # the practice world given up: its run goes to the hall as practice, checked by replay
    kept, problem = Games(Store(save_dir())).give_up(name)
    assert problem is None and kept is not None
    assert kept.practice_from == played and not kept.scored
    assert kept.recording is not None and len(kept.recording) == played + 1
    verify(kept)  # its recording replays from the world's start: the original's inputs first
    runs = {r.id: r for r in Hall(save_dir()).runs()}
    assert set(runs) == {short_run.id, kept.id} and runs[kept.id].practice
    assert pack(hall.get(short_run.id)[0]) == original  # nothing of the original changed
    # a ladder of that world ranks the original only
    ladder = hall_ladder(short_run, list(runs.values()))
    assert [x.record.id for x in ladder.runs] == [short_run.id]
    assert "a practice run" in ladder.refused[0].reason


async def test_the_practice_replay_runs_off_the_ui_thread_and_esc_stops_it(short_run, monkeypatch):
    """Practice replays the run up to the chosen input (up to 200,000 of them): in a worker
    thread, the screen saying how far, Esc stopping it with nothing kept (it ran in the UI
    thread, under a box that could not answer)."""
    threads: list[threading.Thread] = []
    told: list[tuple[int, int]] = []
    real = Games.practice

    def held_practice(self, record, played, *, progress=None):
        threads.append(threading.current_thread())
        if progress is None:  # as it was: no way to stop it
            return real(self, record, played)
        for i in range(STEPS):  # a long replay, until stopped
            progress(i, STEPS)
            told.append((i, STEPS))
            threading.Event().wait(0.001)
        raise AssertionError("the replay was never stopped")

    monkeypatch.setattr(Games, "practice", held_practice)
    app = RoguelikeApp(replay=short_run)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        await pilot.press("space")  # paused
        await pilot.press("p")
        await pilot.pause()
        assert threads and threads[0] is not threading.main_thread()
        assert isinstance(app.screen, CheckScreen)
        await pilot.press("escape")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen is viewer and app.session is None
    assert told and len(told) < STEPS
    assert Store(save_dir()).list() == []  # nothing kept


#: Progress reports of the stand-in replay, far more than the test waits for.
STEPS = 100_000


def test_a_practice_run_never_counts_for_the_daily_or_the_streak(short_run):

    day = dt.date.fromisoformat(short_run.ended[:10])
    practice = dataclasses.replace(short_run, daily=day.isoformat(), practice_from=3, scored=False)
    hall = Hall(save_dir())
    hall.add(practice)
    assert not hall.daily_used(day) and hall.streak(day) == 0
