"""The morgue's fuller text replays the run in a worker thread: closing the morgue cancels
that replay at its next progress report, so neither closing it nor quitting the game waits
for a long run's replay (a thread worker runs in the executor the interpreter joins at exit)."""

from __future__ import annotations

import threading

import screens.morgue
from screens.app import RoguelikeApp
from screens.morgue import MorgueScreen, run_text

#: Reports of the stand-in replay: far longer than the test, were it never stopped.
STEPS = 20_000
#: How long the test waits for the worker thread to say how it ended (a deadline, not a
#: measure: it ends at once when cancelled).
PATIENCE = 60.0


async def test_closing_the_morgue_stops_its_replay(short_run, monkeypatch):
    started, ended = threading.Event(), threading.Event()
    how: list[str] = []

    def slow_floors(record, progress=None):
        started.set()
        try:
            for i in range(STEPS):
                if progress is not None:
                    progress(i, STEPS)
                threading.Event().wait(0.001)  # a replay's work between reports
            how.append("finished")
        except BaseException as err:
            how.append(type(err).__name__)
            raise
        finally:
            ended.set()
        return ()

    monkeypatch.setattr(screens.morgue, "run_floors", slow_floors)
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(run_text(short_run))
        await pilot.pause()
        assert isinstance(app.screen, MorgueScreen)
        assert started.wait(PATIENCE)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, MorgueScreen)
        assert ended.wait(PATIENCE)
    assert how == ["Cancelled"]
