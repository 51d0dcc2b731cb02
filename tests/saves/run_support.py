"""Shared helpers of the run-record tests (no tests here): a tiny recorded run, played once per
test session by the bot (a one-floor world without monsters: about a second), records made
from it, and a hall to put them in.

A tiny world keeps the tests fast while still going through the real engine, recorder and
replay; the full-size worlds are the bench's and the golden recordings' business.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
from typing import Any

from roguelike import seeds
from roguelike.autoplay import play
from roguelike.engine import GameState, Wait, new_game
from roguelike.recording import Recording, check
from saves import Store
from saves.record import RunRecord, record_of
from saves.session import Games
from saves.world import World

#: The seed of the tiny world (its one floor is won by the bot without a fight).
TINY_SEED = seeds.read_stored("N65Q-QBJ0-23PV")
STARTED = "2026-01-02T03:04:05.000+00:00"
ENDED = "2026-01-02T04:00:00.000+00:00"
#: The id of :func:`won_record` (a new record's id is random; tests need to name it).
WON_ID = "20260102-a0b0c0"


def tiny_game(seed: int = TINY_SEED, name: str = "Tiny") -> GameState:
    """A fresh one-floor small world without monsters."""
    return new_game(seed, preset="small", total_floors=1, monsters=False, world_name=name)


def tiny_world_game(world: World) -> GameState:
    """``Games(make_game=…)``: a world's game made tiny."""
    return tiny_game(world.seed, world.name)


@functools.cache
def _won() -> tuple[GameState, Recording]:
    state = tiny_game()
    recording = Recording.begin(state)
    play(state, recording=recording)
    assert state.won, "the tiny world is one the bot wins"
    return state, recording


def won_run() -> tuple[GameState, Recording]:
    """The bot's won run of the tiny world: its final state and recording (copies)."""
    return copy.deepcopy(_won())


def won_record(**changes: Any) -> RunRecord:
    """The record of :func:`won_run`, with ``changes`` (a false claim, another id …)."""
    state, recording = won_run()
    record = record_of(state, world="Tiny", started=STARTED, ended=ENDED, recording=recording)
    return dataclasses.replace(record, **{"id": WON_ID, **changes})


def pack_unread(record: RunRecord) -> bytes:
    """The run file bytes of ``record`` as :func:`saves.record.pack` makes them, without its
    read-back (which refuses what this game would not read): another game's file, such as
    one of another generator."""
    from roguelike.version import GAME_VERSION
    from saves import envelope
    from saves.record import KIND, RUN_FORMAT

    payload = envelope.deflate(record.to_json(), KIND, "too large")
    head = {"format": RUN_FORMAT, "game": GAME_VERSION, "generator": record.generator}
    return envelope.wrap(head, payload, KIND)


def plain_record(n: int, **changes: Any) -> RunRecord:
    """A record without a recording (as a world from before recordings leaves), numbered
    ``n`` so that ids and worlds differ."""
    record = RunRecord(
        id=f"2026010{n % 10}-0000{n:02d}",
        world=f"World {n}",
        seed=seeds.stored(seeds.text_seed(f"w{n}")),
        preset="small",
        started=STARTED,
        ended=f"2026-01-0{1 + n % 9}T10:00:00.000+00:00",
        outcome="died",
        floors=1,
        total_floors=3,
        turns=100 + n,
        kills=n,
        keys=0,
        puzzles=(),
        hints_used=0,
        cause="slain by a rat",
        score=100,
        digest=None,
    )
    return dataclasses.replace(record, **changes)


def forged_world(store: Store, name: str = "Fake") -> None:
    """A world played five turns, then doctored to say it was won (its recording's last check
    made to match, so the save reads as whole)."""
    session = Games(store, make_game=tiny_world_game).new(World(name, TINY_SEED, "small"))
    for _ in range(5):
        session.step(Wait())
    state = session.state
    state.won = True
    state.stats.kills = 40
    assert session.recording is not None
    session.recording.checks[-1] = check(state)
    session.save()
    session.quit()
