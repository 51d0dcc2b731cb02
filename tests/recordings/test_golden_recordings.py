"""The golden recordings: four runs kept as their recordings (``data/*.json``), replayed
bit-exact on every test run. They are the determinism tripwire of play, as the golden floor
and puzzle catalogs are of generation: a recording a player made must replay the same on
every machine and every later build of the same generator version.

Each file holds a recording (its start, its generator version, every input and the 32-bit
check of the state after each) and the outcome it led to (result, floors, turns, cause, kills,
keys, puzzles, hints, and the digest of the whole final state). The test replays it through
the engine from a fresh game: the check after every input must match (a difference is
reported at the first turn it happens, as the replay viewer would), then the outcome and the
final digest.

- ``won``: the autoplayer escapes a two-floor small world;
- ``died``: a reckless player (the autoplayer never resting, drinking or retreating) dies in a
  fight in a three-floor world (a fire drake's breath on floor 3);
- ``hinted``: puzzles solved at pedestals with hints bought (coins, then score) and a reset;
- ``continued``: a run saved and quit twice and loaded again (through ``saves.session``); the
  recording is the one the final save holds.

How the runs are made is in :mod:`tests.recordings.support`. Regenerate the files with
``ROGUELIKE_WRITE_GOLDEN=1 uv run pytest tests/recordings`` only after bumping
GENERATOR_VERSION (``roguelike/version.py``) or after an intended change to play (a rule, a
monster's behaviour, the random draws of a turn), and say so in the commit. A failure at any
other time means determinism broke: a recording players share would replay into another game.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from roguelike.engine import SolvePuzzle
from roguelike.recording import Outcome, Recording, RecordingError, decode_action, frames
from roguelike.version import GENERATOR_VERSION
from saves.record import RunFileError, pack, record_of, unpack
from saves.verify import verify
from tests.recordings import support

DATA = Path(__file__).with_name("data")

#: The worlds of the golden runs (seed texts), as the players of ``support`` play them.
WON, DIED, HINTED, CONTINUED = "gold-5", "gold-death-4", "gold-puzzles-7", "gold-continued"
#: Actions of the first two sessions of the continued run.
LEGS = (60, 60)


def _won() -> dict[str, Any]:
    return {"recording": support.bot_run(WON, floors=2, puzzles=False)}


def _died() -> dict[str, Any]:
    return {"recording": support.reckless_run(DIED, floors=3)}


def _hinted() -> dict[str, Any]:
    return {"recording": support.hinted_run(HINTED, floors=2)}


def _continued() -> dict[str, Any]:
    rec, legs = support.continued_run(CONTINUED, floors=2, legs=LEGS)
    return {"recording": rec, "sessions": legs}


MAKERS: dict[str, tuple[str, Callable[[], dict[str, Any]]]] = {
    "won": (f"the autoplayer escapes {WON} (small, 2 floors, no puzzles)", _won),
    "died": (f"a reckless player is killed in a fight in {DIED} (small, 3 floors)", _died),
    "hinted": (f"puzzles solved with hints and a reset in {HINTED} (small, 2 floors)", _hinted),
    "continued": (
        f"the autoplayer in {CONTINUED} (small, 2 floors), saved and continued twice",
        _continued,
    ),
}


def path_of(name: str) -> Path:
    return DATA / f"{name}.json"


def write(name: str) -> None:
    """Play the golden run ``name`` again and write its file."""
    about, make = MAKERS[name]
    made = make()
    rec: Recording = made.pop("recording")
    state = rec.start.game()
    for _ in frames(rec, state=state):
        pass
    doc = {
        "about": about,
        "generator_version": GENERATOR_VERSION,
        **made,
        "outcome": Outcome.of(state, len(rec)).to_json(),
        "recording": rec.to_json(),
    }
    DATA.mkdir(exist_ok=True)
    path_of(name).write_text(json.dumps(doc, separators=(",", ":"), sort_keys=True) + "\n")


def load(name: str) -> tuple[dict[str, Any], Recording]:
    doc = json.loads(path_of(name).read_text())
    assert doc["generator_version"] == GENERATOR_VERSION, (
        "GENERATOR_VERSION was bumped: rewrite the golden recordings (see this module's docstring)"
    )
    return doc, Recording.from_json(doc["recording"])


def replayed(rec: Recording, name: str) -> Outcome:
    """Replay ``rec`` input by input; the outcome, or a failure naming the first turn out of
    sync."""
    state = rec.start.game()
    try:
        for _ in frames(rec, state=state):
            pass
    except RecordingError as err:
        pytest.fail(f"golden recording {name!r}: {err}: determinism broke (see the docstring)")
    return Outcome.of(state, len(rec))


@pytest.mark.parametrize("name", list(MAKERS))
def test_golden_recording_replays_bit_exact(name):
    if os.environ.get("ROGUELIKE_WRITE_GOLDEN"):
        write(name)
        pytest.skip(f"golden recording {name} rewritten")
    doc, rec = load(name)
    outcome = replayed(rec, name)
    assert outcome.to_json() == doc["outcome"], (
        f"golden recording {name!r} replays every check but ends elsewhere: determinism broke"
    )


def test_the_golden_runs_are_what_their_names_say():
    """Each file still shows the situation it is kept for (a regenerated file that no longer
    did would guard nothing)."""
    if os.environ.get("ROGUELIKE_WRITE_GOLDEN"):
        pytest.skip("golden recordings being rewritten")
    won, _ = load("won")
    assert won["outcome"]["result"] == "won" and won["outcome"]["floors"] == 2

    died, _ = load("died")
    assert died["outcome"]["result"] == "died"
    assert died["outcome"]["cause"].startswith(("killed by", "burnt by"))

    hinted, rec = load("hinted")
    plays = [a for a in map(decode_action, rec.actions) if isinstance(a, SolvePuzzle)]
    assert hinted["outcome"]["puzzles_solved"] >= 1 and hinted["outcome"]["hints_used"] > 0
    assert any(p.coins_spent > 0 for p in plays), "no hint was bought with a coin"
    assert any(p.resets > 0 for p in plays), "no puzzle was started again"

    continued, rec = load("continued")
    legs = continued["sessions"]
    assert len(legs) == 3 and legs[:2] == list(LEGS) and legs[2] > 0
    assert sum(legs) == len(rec), "the final save's recording is not the three sessions'"
    assert continued["outcome"]["result"] == "won"


def test_a_golden_run_kept_as_a_run_file_verifies_and_a_false_claim_is_named():
    """The death kept as a run record (as the hall keeps it): its file reads back and its
    claims replay true; the same file claiming a win, or with its first input edited, is
    refused in one line naming the false claim or the turn out of sync."""
    if os.environ.get("ROGUELIKE_WRITE_GOLDEN"):
        pytest.skip("golden recordings being rewritten")
    doc, rec = load("died")
    state = rec.start.game("Golden Death")
    for _ in frames(rec, state=state):
        pass
    record = record_of(
        state, world="Golden Death", started="2026-01-01T00:00:00.000+00:00", recording=rec
    )
    back = unpack(pack(record))
    assert back == record and back.outcome == "died" and back.digest == doc["outcome"]["digest"]
    _, outcome = verify(back)
    assert outcome.to_json() == doc["outcome"]
    with pytest.raises(RunFileError) as caught:
        verify(replace(back, outcome="won"))
    message = str(caught.value)
    assert "claim of outcome is false" in message and "'died'" in message and "\n" not in message

    edited = copy.deepcopy(rec)
    edited.actions[0] = "." if edited.actions[0] != "." else "R"  # the first input, another
    with pytest.raises(RunFileError) as caught:
        verify(replace(back, recording=edited))
    message = str(caught.value)
    assert message.startswith("the recording does not replay: out of sync at turn 1 (input 1)")
    assert "\n" not in message


def test_hints_taken_and_coins_spent_are_checked_at_the_input_that_takes_them():
    """Editing what a puzzle play cost (its hints and coins) is caught at that very input, not
    only by the claims at the end: the check after every input covers coins and hints."""
    _, rec = load("hinted")
    i = next(
        n for n, code in enumerate(rec.actions) if isinstance(code, dict) and code["coins"] > 0
    )
    edited = copy.deepcopy(rec)
    edited.actions[i] = {**edited.actions[i], "coins": 0, "hints": 0}
    with pytest.raises(RecordingError, match=rf"\(input {i + 1}\)"):
        for _ in frames(edited):
            pass
