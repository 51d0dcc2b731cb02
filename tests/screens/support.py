"""Helpers the screen tests share (a module, not a test file: pytest collects nothing here)."""

from __future__ import annotations

from typing import Any

from roguelike import autoplay, seeds
from roguelike.engine import new_game
from roguelike.recording import Recording, digest, replay
from saves.runs import RunRecord, record_of
from saves.world import now_iso

#: vi keys for each direction
VI = {
    (0, -1): "k",
    (0, 1): "j",
    (-1, 0): "h",
    (1, 0): "l",
    (-1, -1): "y",
    (1, -1): "u",
    (-1, 1): "b",
    (1, 1): "n",
}


def screen_text(app: Any) -> str:
    """The current screen as plain text, one line per terminal row."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


# -- recorded runs (the hall, the replay viewer, challenges) ----------------------------------

#: A small world the bot wins in about 70 actions when it has no monsters or puzzles.
QUIET_SEED = "e"


def bot_record(actions: int | None = None, *, world: str = "Quiet run") -> RunRecord:
    """A run record of the bot playing the quiet small world :data:`QUIET_SEED`: ``actions``
    of them (the run then counts as abandoned; about 45 reach floor 2: the bot stops for a
    treasure's choice on floor 1), or to its end (won)."""

    state = new_game(
        seeds.parse(QUIET_SEED), preset="small", world_name=world, monsters=False, puzzles=False
    )
    recording = Recording.begin(state)
    if actions is None:
        autoplay.play(state, recording=recording)
    else:
        autoplay.play(state, recording=recording, limit=actions)
    return record_of(
        state,
        world=world,
        started=now_iso(),
        recording=recording,
        abandoned=actions is not None,
    )


def prefix_digest(record: RunRecord, inputs: int) -> tuple[str, int]:
    """(digest, turn) of the state after the first ``inputs`` of ``record``'s recording,
    replayed headless: what the viewer must show there."""

    rec = record.recording
    assert rec is not None
    part = Recording(rec.start, rec.generator, rec.actions[:inputs], rec.checks[:inputs])
    state, _ = replay(part)
    return digest(state), state.turn
