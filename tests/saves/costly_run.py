"""A legal but costly challenge: a run of a standard world whose recording holds as many
inputs as a recording may, nearly all of them keys that change nothing (a step into a wall),
a wait after every :data:`~roguelike.recording.MAX_IDLE_INPUTS` of them so that none is left
out as idle. Every claim of its record is true and its file is a few kilobytes, yet replaying
it plays every input: what the cost bound refuses before any replay.

Built by stepping the engine directly (the game's own recorder would stop at the bound), with
the check of the state after each input, as a hacked client could. Also a script that writes
such a file, to time ``roguelike runs import`` on it::

    uv run python -m tests.saves.costly_run OUT.run [--inputs 199000]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from roguelike import seeds
from roguelike.engine import GameState, PickUp, Wait, step
from roguelike.recording import (
    MAX_IDLE_INPUTS,
    Recording,
    Start,
    check,
    encode_action,
)
from saves.record import RunRecord, pack, record_of

#: A standard world (normal preset) of a fixed seed.
SEED = seeds.text_seed("costly challenge")
STARTED = "2026-01-02T03:04:05.000+00:00"
ENDED = "2026-01-02T04:00:00.000+00:00"


def costly_recording(inputs: int, seed: int = SEED) -> tuple[GameState, Recording]:
    """A recording of ``inputs`` inputs in the standard normal world of ``seed`` (see the
    module), and the state it ends in."""
    start = Start.standard(seed, "normal")
    state = start.game()
    rec = Recording(start)
    if state.player in state.items_lying:
        raise ValueError("an item lies where the player starts: choose another seed")
    for i in range(inputs):
        action = Wait() if i % MAX_IDLE_INPUTS == MAX_IDLE_INPUTS - 1 else PickUp()
        step(state, action)
        rec.actions.append(encode_action(action))
        rec.checks.append(check(state))
        if state.over:
            raise ValueError(f"the run ended at input {i + 1}: choose another seed")
    return state, rec


def costly_record(inputs: int, seed: int = SEED) -> RunRecord:
    """The abandoned run of :func:`costly_recording`, every claim true."""
    state, rec = costly_recording(inputs, seed)
    return record_of(
        state, world="Costly", started=STARTED, ended=ENDED, recording=rec, abandoned=True
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="write a legal but costly challenge file")
    parser.add_argument("out", type=Path)
    parser.add_argument("--inputs", type=int, default=199_000)
    args = parser.parse_args()
    data = pack(costly_record(args.inputs))
    args.out.write_bytes(data)
    print(f"{args.out}: {len(data)} bytes, {args.inputs} inputs")


if __name__ == "__main__":
    main()
