"""A game's input stream (:mod:`saves.live`): what a session plays is written as it is played,
a reader follows it to the same recording, a daily's reader stays turns behind, and a stream
that breaks its bounds or its format is refused in one line."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike import seeds
from roguelike.engine import Move, Wait, new_game, step
from roguelike.recording import Recording, replay
from saves import Store
from saves.live import BEHIND_TURNS, MAX_STREAM, LiveError, LiveReader, LiveWriter
from saves.session import Games
from saves.world import World


def small_session(tmp_path):
    games = Games(Store(tmp_path / "saves"))
    return games.new(World("Watched", seeds.parse("live"), preset="small"))


def test_what_a_session_plays_is_what_its_reader_follows(tmp_path):
    path = tmp_path / "live" / "g.live"
    with small_session(tmp_path) as session:
        for _ in range(3):
            session.step(Wait())
        writer = LiveWriter(path)  # opened mid-game: the inputs so far come first
        writer.begin(session.world.name, False, session.recording, session.state.turn)
        session.live = writer
        reader = LiveReader(path)
        assert reader.look() is True and reader.world == "Watched" and not reader.daily
        assert reader.shown() == 3
        for direction in ((1, 0), (-1, 0), (0, 1)):
            session.step(Move(*direction))
        session.step(Wait())
        assert reader.look() is False
        assert reader.recording.actions == session.recording.actions
        assert reader.recording.checks == session.recording.checks
        state, _ = replay(reader.recording)  # it replays to the very state being played
        assert state.turn == session.state.turn


def test_a_new_game_in_the_tab_starts_the_reader_again(tmp_path):
    path = tmp_path / "g.live"
    state = new_game(seeds.parse("one"), preset="small")
    first = Recording.begin(state)
    LiveWriter(path).begin("One", False, first, 0)
    reader = LiveReader(path)
    assert reader.look() and reader.world == "One"
    other = Recording.begin(new_game(seeds.parse("two"), preset="small"))
    LiveWriter(path).begin("Two", False, other, 0)
    assert reader.look() and reader.world == "Two" and len(reader.recording) == 0
    path.unlink()
    assert reader.look() is False and reader.gone


def stream_of_turns(path, turns, *, daily=True):
    """A daily's stream whose inputs lead to ``turns`` (waits: one turn each, checks true)."""
    state = new_game(seeds.parse("daily"), preset="small")
    recording = Recording.begin(state)
    writer = LiveWriter(path)
    writer.begin("Daily", daily, recording, 0)
    for _ in range(turns):
        step(state, Wait())
        recording.add(Wait(), state)
        writer.add(recording.actions[-1], recording.checks[-1], state.turn)
    return writer, state, recording


def test_a_dailys_watcher_stays_turns_behind_however_long_the_player_stops(tmp_path):
    path = tmp_path / "d.live"
    writer, state, recording = stream_of_turns(path, BEHIND_TURNS - 1)
    reader = LiveReader(path)
    reader.look()
    assert reader.daily and reader.shown() == 0  # nothing before the first BEHIND_TURNS
    for _ in range(30):
        step(state, Wait())
        recording.add(Wait(), state)
        writer.add(recording.actions[-1], recording.checks[-1], state.turn)
    reader.look()
    assert reader.shown() == state.turn - BEHIND_TURNS
    for _ in range(5):  # the player stops: looking again shows nothing more
        reader.look()
        assert reader.shown() == state.turn - BEHIND_TURNS
    # another game is shown as played
    plain = tmp_path / "p.live"
    stream_of_turns(plain, 10, daily=False)
    other = LiveReader(plain)
    other.look()
    assert other.shown() == 10


@given(turns=st.lists(st.integers(0, 40), max_size=30).map(sorted))
@settings(max_examples=60)
def test_a_dailys_shown_inputs_are_always_turns_behind_the_latest(turns):
    reader = LiveReader.__new__(LiveReader)
    reader.daily, reader.turns = True, turns
    shown = reader.shown()
    latest = turns[-1] if turns else 0
    assert all(t <= latest - BEHIND_TURNS for t in turns[:shown])
    assert all(t > latest - BEHIND_TURNS for t in turns[shown:])


def test_a_line_being_written_waits_for_the_next_look(tmp_path):
    path = tmp_path / "g.live"
    _, _, recording = stream_of_turns(path, 2, daily=False)
    data = path.read_bytes()
    path.write_bytes(data[:-3])  # the last input half written
    reader = LiveReader(path)
    reader.look()
    assert len(reader.recording) == 1
    with path.open("ab") as f:
        f.write(data[-3:])
    reader.look()
    assert reader.recording.actions == recording.actions


@pytest.mark.parametrize(
    ("tail", "why"),
    [
        (b'["h",1]\n', "damaged input"),
        (b'["fly",1,1]\n', "is not an action"),
        (b'["h",-1,1]\n', "32-bit check"),
        (b'["h",1,NaN]\n', "damaged line"),
        (b'["h",1,"1"]\n', "turn goes back"),
        (b"\x1b[2J\n", "damaged line"),
        (b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n" * 3, "damaged"),
    ],
)
def test_a_damaged_stream_is_refused_in_one_line(tmp_path, tail, why):
    path = tmp_path / "g.live"
    stream_of_turns(path, 1, daily=False)
    with path.open("ab") as f:
        f.write(tail)
    with pytest.raises(LiveError) as refused:
        LiveReader(path).look()
    assert why in str(refused.value) and "\n" not in str(refused.value)
    assert "\x1b" not in str(refused.value)


def test_a_stream_that_goes_back_in_turns_or_has_a_bad_head_is_refused(tmp_path):
    path = tmp_path / "g.live"
    stream_of_turns(path, 3, daily=False)
    with path.open("ab") as f:
        f.write(b'["h",1,0]\n')
    with pytest.raises(LiveError, match="goes back"):
        LiveReader(path).look()
    path.write_bytes(json.dumps({"live": 1, "id": "x", "world": "w", "daily": 1}).encode() + b"\n")
    with pytest.raises(LiveError, match="damaged head"):
        LiveReader(path).look()
    path.write_bytes(b'{"live": 9}\n')
    with pytest.raises(LiveError, match="version"):
        LiveReader(path).look()


def test_a_stream_larger_than_a_recording_can_be_is_refused_unread(tmp_path):
    path = tmp_path / "g.live"
    stream_of_turns(path, 1, daily=False)
    with path.open("r+b") as f:
        f.truncate(MAX_STREAM + 1)  # sparse: nothing is written
    with pytest.raises(LiveError, match="larger than a recording"):
        LiveReader(path).look()


def test_the_writer_stops_at_the_bound_and_play_goes_on(tmp_path, monkeypatch):
    path = tmp_path / "g.live"
    writer, state, recording = stream_of_turns(path, 1, daily=False)
    monkeypatch.setattr("saves.live.MAX_STREAM", writer.size + 20)
    for _ in range(5):
        step(state, Wait())
        recording.add(Wait(), state)
        writer.add(recording.actions[-1], recording.checks[-1], state.turn)
    assert writer.stopped and path.stat().st_size <= writer.size
    assert writer.problem == "the game is longer than a stream holds"
    monkeypatch.undo()  # the usual bound again: the next writer fails on its folder
    told: list[str] = []
    missing = LiveWriter(tmp_path / "file" / "under" / "a-file", told=told.append)
    (tmp_path / "file").write_text("")
    missing.begin("W", False, recording, state.turn)  # cannot be written: no error, stopped
    assert missing.stopped
    missing.add(recording.actions[-1], recording.checks[-1], state.turn)
    # the player is told once, in words, never Python's "[Errno …]" form
    assert len(told) == 1 and "Not a directory" in told[0] and "[Errno" not in told[0]


def test_a_link_is_not_followed(tmp_path):
    target = tmp_path / "secret"
    target.write_text("not yours")
    link = tmp_path / "g.live"
    link.symlink_to(target)
    with pytest.raises(LiveError, match="cannot be read"):
        LiveReader(link).look()
