"""A recording's cost is bounded by the floors it can reach (issue 24, case 6): a small file of
cheap inputs is refused before a single input is replayed, in one line naming the bound; the
recorder stops at the same bound, so the game never writes what a replay refuses; a replay
reports its progress and stops when its progress callback raises.

The bounds are lowered here (monkeypatched) so that a recording past them is quick to make;
``tests/saves/costly_run.py`` builds the full-size one (199,000 inputs) for the timings."""

from __future__ import annotations

import pytest

from roguelike import recording as rec_module
from roguelike.engine import PickUp, Wait, step
from roguelike.recording import Recording, RecordingError, Start, frames, replay
from tests.saves.costly_run import SEED, costly_recording


@pytest.fixture
def small_bounds(monkeypatch):
    monkeypatch.setattr(rec_module, "INPUTS_PER_FLOOR", 40)
    monkeypatch.setattr(rec_module, "TURNS_PER_FLOOR", 30)


def test_a_recording_past_its_floors_bound_is_refused_before_any_input(small_bounds):
    _, rec = costly_recording(41)
    problem = rec.cost_problem()
    assert problem == (
        "it holds 41 inputs; a run that can reach 1 floor of 5 sends at most 40 (40 a floor)"
    )
    played: list[object] = []

    def counting(state, action):
        played.append(action)
        return step(state, action)

    with pytest.raises(RecordingError, match="too long to replay"):
        replay(rec, stepper=counting)
    assert played == []  # refused before the first input
    _, within = costly_recording(40)
    assert within.cost_problem() is None
    replay(within)


def test_descents_raise_the_bound_up_to_the_worlds_floors(small_bounds):
    _, rec = costly_recording(41)
    rec.actions[0] = ">"  # one descent (refused off the stairs, but it might not be)
    assert rec.reachable_floors() == 2 and rec.cost_problem() is None
    rec.actions[:5] = [">"] * 5
    assert rec.reachable_floors() == 5  # never more than the world has


def test_turns_past_the_floors_bound_stop_the_replay_at_that_input(small_bounds):
    start = Start.standard(SEED, "normal")
    state = start.game()
    rec = Recording(start)
    for _ in range(35):  # 35 waits: 35 turns, more than 30 for floor 1 (as a hacked client)
        step(state, Wait())
        rec.actions.append(".")
        rec.checks.append(rec_module.check(state))
    with pytest.raises(RecordingError, match=r"input 31: more than 30 turns for each floor"):
        replay(rec)


def test_the_recorder_stops_at_the_bound_the_replay_keeps(small_bounds):
    game = Start.standard(SEED, "normal").game()
    rec = Recording.begin(game)  # the game's own recorder
    for i in range(60):
        action = Wait() if i % 3 == 0 else PickUp()
        step(game, action)
        rec.add(action, game)
    assert rec.full and len(rec) <= 40
    assert rec.cost_problem() is None
    assert len(list(frames(rec))) == len(rec)  # what it wrote replays


def test_a_replay_reports_progress_and_stops_when_told(small_bounds, monkeypatch):
    monkeypatch.setattr(rec_module, "PROGRESS_EVERY", 10)
    _, rec = costly_recording(40)
    seen: list[tuple[int, int]] = []
    replay(rec, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(0, 40), (10, 40), (20, 40), (30, 40), (40, 40), (40, 40)]

    class Stop(Exception):
        pass

    def stop_at_twenty(done: int, total: int) -> None:
        if done >= 20:
            raise Stop

    with pytest.raises(Stop):
        replay(rec, progress=stop_at_twenty)
