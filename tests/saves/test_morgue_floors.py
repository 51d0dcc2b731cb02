"""The morgue a player would post, made from a real recorded run (the golden run with puzzles
solved with hints): the score and its terms, the seed code and how to play it, each floor's
turns, kills and keys, and each puzzle's type, level, score and hints, found by replaying
the recording; a practice run says so."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from roguelike import seeds
from roguelike.recording import Recording, replay
from saves.morgue import morgue, run_floors
from saves.record import record_of

DATA = Path(__file__).parent.parent / "recordings" / "data" / "hinted.json"
STARTED = "2026-01-02T03:04:05.000+00:00"
ENDED = "2026-01-02T04:00:00.000+00:00"


def hinted_record():
    recording = Recording.from_json(json.loads(DATA.read_text())["recording"])
    state, _ = replay(recording)
    record = record_of(
        state, world="Hinted", started=STARTED, ended=ENDED, recording=recording, abandoned=True
    )
    return record, state


def test_the_floors_and_puzzles_of_a_recorded_run():
    record, state = hinted_record()
    floors = run_floors(record)
    assert [f.floor for f in floors] == list(range(1, record.floors + 1))
    assert sum(f.turns for f in floors) == record.turns
    assert sum(f.kills for f in floors) == record.kills
    assert sum(f.keys for f in floors) == record.keys
    puzzles = [(f.floor, q.type, q.level, q.score) for f in floors for q in f.puzzles]
    assert puzzles == [(p.floor, p.type, p.difficulty, p.score) for p in record.puzzles]
    hints = [q.hints for f in floors for q in f.puzzles]
    assert sum(hints) == record.hints_used > 0
    text = morgue(record, floors=floors)
    code = seeds.shown(record.seed, record.generator)  # as players see it
    assert f"Seed code    {code}" in text
    assert f"Play it      roguelike --seed {code} --preset {record.preset}" in text
    assert f"Score        {record.score}" in text and "  depth " in text
    section = text.split("\nFloors:\n")[1].split("\n\n")[0].splitlines()
    assert len(section) == len(floors)
    for line, f in zip(section, floors, strict=True):
        words = line.split()
        numbers = [words[1], words[2], words[4], words[6], words[8]]
        assert numbers == [str(n) for n in (f.floor, f.turns, f.kills, f.keys, len(f.puzzles))]
    p = record.puzzles[0]
    assert f"{p.score:>3} points, {hints[0]} hint" in text
    # without its floors (a screen still replaying) the text says so; a practice run says so
    assert "being found by replaying the run" in morgue(record)
    practice = dataclasses.replace(record, practice_from=5, scored=False)
    assert "Practice     from input 5 of another run" in morgue(practice, floors=floors)


def test_a_record_without_a_replayable_recording_has_no_floors():
    record, _ = hinted_record()
    assert run_floors(dataclasses.replace(record, recording=None)) == ()
    assert "not known (no recording that replays)" in morgue(record, floors=())
