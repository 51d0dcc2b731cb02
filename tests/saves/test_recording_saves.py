"""A run's recording as the save layer keeps it: across saves and sessions, in old saves, in saves
whose recording does not fit, and into the hall when the run ends or is given up."""

from __future__ import annotations

import dataclasses

from roguelike.autoplay import Memory, choose, decide
from roguelike.engine import step
from roguelike.recording import Recording, digest, replay
from saves import Store, World
from saves.hall import Hall
from saves.session import Games, Session
from saves.verify import verify
from tests.saves.run_support import TINY_SEED, tiny_game, tiny_world_game, won_run

NAME = "Kept Run"


#: The bot's memory over one test, across its sessions (a memoryless bot would search for
#: ever beside a trap it found, as :func:`roguelike.autoplay.play`'s pilot does not).
_MEMORY: list[Memory] = [Memory()]


def games(tmp_path) -> Games:
    _MEMORY[0] = Memory()  # every test starts here: a fresh bot
    return Games(Store(tmp_path), make_game=tiny_world_game)


def world() -> World:
    return World(NAME, TINY_SEED, "small", created="2026-01-02T03:04:05.000+00:00")


def play(session: Session, actions: int) -> None:
    """The bot's choice, ``actions`` times, through the session (as watch mode plays)."""
    for _ in range(actions):
        if session.state.over:
            return
        session.step(decide(session.state, memory=_MEMORY[0]).action)


def test_a_game_saved_and_continued_twice_keeps_one_recording_that_replays_to_it(tmp_path):
    # Each session plays a third of what the bot needs to win the tiny world (its won run, as
    # long as the content makes it), so the game is still going when the last session saves.
    _, won = won_run()
    each = (len(won) - 1) // 3
    assert each >= 2, "the tiny world should take the bot more than a few actions"
    g = games(tmp_path)
    session = g.new(world())
    play(session, each)
    session.save_and_quit()
    for _ in range(2):
        session = g.load(NAME)
        play(session, each)
        session.save_and_quit()
    loaded = Store(tmp_path).open(NAME)
    rec = loaded.recording
    assert rec is not None and len(rec) == 3 * each and not loaded.state.over
    assert rec.actions == won.actions[: 3 * each]  # the sessions played on where the last stopped
    state, outcome = replay(rec)
    assert outcome.digest == digest(loaded.state)
    assert state.turn == loaded.state.turn > 3 * each


def test_a_run_played_to_its_end_is_kept_once_and_verifies(tmp_path):
    g = games(tmp_path)
    session = g.new(world())
    play(session, 200)
    assert session.state.won
    assert session.end_run() is False
    hall = Hall(tmp_path)
    (record,) = hall.runs()
    assert record.outcome == "won" and record.world == NAME and session.kept == record
    verify(record)  # every claim holds: the session's recording is the whole run
    again = g.load(NAME)  # the ended world, opened and ended again
    again.end_run()
    session.end_run()  # and the first session, twice
    assert [r.id for r in hall.runs()] == [record.id]


def test_an_unfinished_world_given_up_is_kept_as_abandoned(tmp_path):
    g = games(tmp_path)
    session = g.new(world())
    play(session, 3)
    session.save_and_quit()
    record = g.abandon(NAME)
    assert record is not None and record.outcome == "abandoned" and record.cause == "abandoned"
    assert [r.id for r in Hall(tmp_path).runs()] == [record.id]
    verify(record)
    assert g.abandon(NAME) is not None and len(Hall(tmp_path).runs()) == 1  # once


def test_a_world_whose_run_is_over_is_not_abandoned(tmp_path):
    g = games(tmp_path)
    session = g.new(world())
    play(session, 200)
    session.end_run()
    kept = g.abandon(NAME)
    assert kept is not None and kept.outcome == "won"
    assert [r.outcome for r in Hall(tmp_path).runs()] == ["won"]


def test_a_run_over_but_never_kept_reaches_the_hall_when_its_world_is_given_up(tmp_path):
    g = games(tmp_path)
    session = g.new(world())
    play(session, 200)
    assert session.ended
    session.save()  # the game stopped here: end_run never ran
    session.quit()
    assert Hall(tmp_path).runs() == []
    kept = g.abandon(NAME)
    assert kept is not None and kept.outcome == "won"
    assert [r.id for r in Hall(tmp_path).runs()] == [kept.id]


def test_a_watched_game_keeps_nothing_until_taken_over(tmp_path):
    g = games(tmp_path)
    session = g.watch(TINY_SEED, "small")
    play(session, 3)
    assert session.keep_run(abandoned=True) is None and Hall(tmp_path).runs() == []
    session.take_over()
    play(session, 200)
    session.end_run()
    (record,) = Hall(tmp_path).runs()
    assert record.recording is not None and len(record.recording) > 3
    verify(record)  # the bot's inputs before the take-over are part of the run


def test_a_save_whose_recording_does_not_end_at_its_state_loads_without_it(tmp_path):
    store = Store(tmp_path)
    state = tiny_game(name=NAME)
    stale = Recording.begin(state)  # no input recorded …
    for _ in range(3):
        step(state, choose(state))  # … though the game went on
    store.save(state, world(), [], stale)
    session = games(tmp_path).load(NAME)
    assert session.recording is None
    assert session.warning is not None and "cannot be replayed" in session.warning
    play(session, 3)  # it plays on
    session.save_and_quit()
    assert Store(tmp_path).open(NAME).recording is None


def test_a_challenge_world_still_answers_it_after_save_and_continue(tmp_path):
    g = games(tmp_path)
    session = g.new(dataclasses.replace(world(), challenge="20260101-abcdef"))
    play(session, 3)
    session.save_and_quit()
    again = g.load(NAME)
    assert again.challenge == "20260101-abcdef" and again.world.challenge == again.challenge
    play(again, 200)
    again.end_run()
    (record,) = Hall(tmp_path).runs()
    assert record.challenge == "20260101-abcdef"
