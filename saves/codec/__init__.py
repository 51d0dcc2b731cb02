"""A saved game to bytes and back: :func:`encode` and :func:`decode`.

The payload (see :mod:`saves.header` for the envelope) is one JSON object::

    {"world":   {"name", "seed" (code), "preset", "generator", "permadeath", "created"},
     "state":   {every field of GameState; "floor": the current floor in full; "rng": the
                 gameplay stream's PCG64 state; "log": its last LOG_KEPT messages},
     "visited": [{"number", "tiles", "explored"}, …],   # earlier floors, as left
     "recording": {the run's start and every action: roguelike.recording} or null}

A recording is read with its own checks (:meth:`Recording.from_json`) and must end where the
state stands (its last check is the state's): one that does not is dropped, with a warning in
:attr:`Loaded.recording_problem`, and the world still loads (its run is then not replayable).

Each record has its writer (``<record>_doc``) beside its reader (``<record>_from``):
:mod:`saves.codec.game` holds the game as played (world, state, statistics, random stream,
monsters, puzzle rooms, earlier floors), :mod:`saves.codec.floor` the current floor as
generated (floor, parameters, topology, layout, templates), so loading never runs the
generator. Maps are arrays (:mod:`saves.fields`). Nothing is pickled or evaluated: every value
is read back through a check of its type and range, and anything wrong raises one
:class:`~saves.errors.SaveError`. Every field of the current format is required. Which saves
load is one rule, written in :mod:`saves.codec.migrations`: another generator is refused,
an older format of this generator is migrated there first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from roguelike import seeds
from roguelike.engine.state import GameState
from roguelike.recording import MAX_ACTIONS, Recording, RecordingError, check
from roguelike.version import GAME_VERSION, GENERATOR_VERSION
from saves import fields as f
from saves import header as h
from saves.codec.common import MAX_LINE, MAX_MONSTERS, MAX_MOVES, MAX_PACK
from saves.codec.game import (
    LOG_KEPT,
    state_doc,
    state_from,
    visited_doc,
    visited_from,
    world_doc,
    world_from,
)
from saves.codec.migrations import MIGRATIONS, migrate
from saves.errors import SaveError, SaveVersionError
from saves.world import VisitedFloor, World, now_iso

__all__ = [
    "LOG_KEPT",
    "MIGRATIONS",
    "Loaded",
    "check_belongs",
    "check_writable",
    "decode",
    "encode",
    "migrate",
    "summary_of",
    "to_document",
]


@dataclass
class Loaded:
    """A decoded save."""

    world: World
    state: GameState
    visited: list[VisitedFloor]
    header: h.Header
    #: the run's recording (None: a world saved without one, or one dropped)
    recording: Recording | None = None
    #: why a recording in the file was dropped, or None
    recording_problem: str | None = None


def summary_of(world: World, state: GameState) -> h.Summary:
    return h.Summary(
        preset=state.preset,
        difficulty=state.difficulty,
        floor=state.number,
        floors=state.total_floors,
        turn=state.turn,
        permadeath=world.permadeath,
        dead=state.dead,
        won=state.won,
    )


def check_belongs(world: World, state: GameState) -> None:
    """ValueError unless ``state`` is a game of ``world`` (a programming error, not a file's)."""
    if state.seed != world.seed:
        raise ValueError(
            f"the game is of world {seeds.encode(state.seed, world.generator)}, not {world.code} "
            f"({world.name})"
        )
    if state.preset != world.preset:
        raise ValueError(f"the game is a {state.preset} run, the world {world.preset}")
    if state.difficulty != world.difficulty:
        raise ValueError(f"the game is played {state.difficulty}, the world {world.difficulty}")


def encode(
    world: World,
    state: GameState,
    visited: Sequence[VisitedFloor] = (),
    *,
    saved: str | None = None,
    recording: Recording | None = None,
) -> bytes:
    """The bytes of a save of ``state`` in ``world`` (with the earlier floors ``visited``, and
    the run's ``recording`` if it has one)."""
    check_belongs(world, state)
    check_writable(state, visited, recording)
    data = h.pack(
        to_document(world, state, visited, recording),
        format=h.FORMAT_VERSION,
        game=GAME_VERSION,
        generator=GENERATOR_VERSION,
        seed=seeds.stored(world.seed),
        world=world.name,
        created=world.created,
        saved=saved or now_iso(),
        summary=summary_of(world, state),
    )
    # the reader is the one judge of every bound (a count, a value, a length): a save it
    # would refuse is never written, or the next load falls back to the backup and the play
    # since is lost. Read back here, it costs a few milliseconds of a save.
    try:
        decode(data)
    except SaveError as err:
        raise SaveError(f"the game cannot be saved: its reader would refuse it ({err})") from None
    return data


def check_writable(
    state: GameState, visited: Sequence[VisitedFloor] = (), recording: Recording | None = None
) -> None:
    """SaveError if a bound the readers enforce would refuse this game once written: the game
    never writes a file it would refuse. The counts and sizes checked here are those that grow
    with play (the rest are fixed by the generator); :func:`saves.header.pack` then checks the
    whole document's size, depth and element count."""
    shape = state.tiles.shape
    if shape[0] > f.MAX_SIDE or shape[1] > f.MAX_SIDE or shape[0] * shape[1] > f.MAX_CELLS:
        raise SaveError(f"the game is too large to save: a map of {shape[0]}x{shape[1]}")
    if len(visited) > h.MAX_FLOORS:
        raise SaveError(f"the game is too large to save: more than {h.MAX_FLOORS} floors visited")
    if state.turn > h.MAX_TURN:
        raise SaveError(f"the game is too long to save: more than {h.MAX_TURN} turns")
    if len(state.monsters) > MAX_MONSTERS:
        raise SaveError(f"the game is too large to save: more than {MAX_MONSTERS} monsters")
    if len(state.allies) > h.MAX_ALLIES:
        raise SaveError(f"the game is too large to save: more than {h.MAX_ALLIES} allies")
    for line in state.log[-LOG_KEPT:]:
        if len(line) > MAX_LINE:
            raise SaveError(f"a message of the log is longer than {MAX_LINE} characters")
    for room in state.puzzles.values():
        if len(room.moves) > MAX_MOVES:
            raise SaveError(f"a puzzle holds more than {MAX_MOVES} moves: too many to save")
    for kind, count in state.inventory.items():
        if not 1 <= count <= MAX_PACK:
            raise SaveError(f"the pack holds {count} of {kind}: a save keeps 1 to {MAX_PACK}")
    if not 0 <= state.hint_coins <= MAX_PACK:
        raise SaveError(f"{state.hint_coins} hint coins: a save keeps 0 to {MAX_PACK}")
    if recording is not None and len(recording.actions) > MAX_ACTIONS:
        raise SaveError(f"the run's recording holds more than {MAX_ACTIONS} inputs")


def to_document(
    world: World,
    state: GameState,
    visited: Sequence[VisitedFloor] = (),
    recording: Recording | None = None,
) -> dict[str, Any]:
    """The payload of the current format, as a JSON-able object."""
    return {
        "world": world_doc(world),
        "state": state_doc(state),
        "visited": visited_doc(visited),
        "recording": None if recording is None else recording.to_json(),
    }


def recording_from(value: Any, state: GameState) -> tuple[Recording | None, str | None]:
    """The recording of a payload and None, or None and why it was dropped."""
    if value is None:
        return None, None
    try:
        rec = Recording.from_json(value)
    except RecordingError as err:
        return None, f"its recording is damaged ({err})"
    if (
        rec.start.seed != state.seed
        or rec.start.preset != state.preset
        or rec.start.difficulty != state.difficulty
    ):
        return None, "its recording is of another world"
    if rec.checks and rec.checks[-1] != check(state):
        return None, "its recording does not end where the game stands"
    if not rec.checks and (state.turn != 0 or state.number != 1):  # no input, yet played
        return None, "its recording does not end where the game stands"
    return rec, None


def decode(data: bytes) -> Loaded:
    """The saved game in ``data``; SaveError with a one-line reason for anything wrong."""
    try:
        return _decode(data)
    except SaveError:
        raise
    # every check above is explicit; this only turns a check we did not think of into the
    # same one-line refusal instead of a traceback
    except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError) as err:
        raise SaveError(f"the save is malformed: {type(err).__name__}: {err}") from None


def _check_unsealed_generator(head: h.Header, payload: bytes) -> None:
    """SaveError unless the generator in an unsealed header (format 5 or older, all of older
    generators) is its payload's: one changed bit there must read as damage, which the store
    answers with the backup, not as "another generator", which it would not."""
    world = h.document(payload).get("world")
    if not isinstance(world, dict) or world.get("generator") != head.generator:
        raise SaveError("the save's header does not match its payload (generator)")


def _decode(data: bytes) -> Loaded:
    head, payload = h.read(data)
    problem = h.generator_problem(head, GENERATOR_VERSION)
    if problem:
        if not head.sealed:
            _check_unsealed_generator(head, payload)
        raise SaveVersionError(problem)
    doc = migrate(h.document(payload), head.format)
    world = world_from(f.get(doc, "world", "payload"), "world")
    if (
        world.name != head.world
        or seeds.stored(world.seed) != head.seed
        or world.created != head.created
    ):
        raise SaveError("the save's header does not match its payload (world, seed or date)")
    if world.generator != head.generator:
        raise SaveError("the save's header does not match its payload (generator)")
    state = state_from(f.get(doc, "state", "payload"), "state")
    if state.seed != world.seed or state.preset != world.preset:
        raise SaveError("state: its seed or preset is not the world's")
    if state.difficulty != world.difficulty:
        raise SaveError("state: its difficulty is not the world's")
    visited = visited_from(f.get(doc, "visited", "payload"), "visited", state)
    if summary_of(world, state) != head.summary:
        raise SaveError("the save's header does not match its payload (summary)")
    recording, problem = recording_from(f.get(doc, "recording", "payload"), state)
    return Loaded(world, state, visited, head, recording, problem)
