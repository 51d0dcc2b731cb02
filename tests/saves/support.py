"""Shared helpers of the saves tests (no tests here): games to save, and a deep comparison
that walks every field of a game, so that a field the save forgets shows up by name."""

from __future__ import annotations

import copy
import dataclasses
import functools
from typing import Any

import numpy as np

from roguelike import seeds
from roguelike.autoplay import choose
from roguelike.engine import GameState, new_game
from roguelike.version import GAME_VERSION, GENERATOR_VERSION
from saves import VisitedFloor, World, codec
from saves import header as h
from saves.session import step_remembering

SEED = seeds.parse("save-b")  # floor 1 of its small world holds a puzzle pedestal
OTHER_SEED = seeds.parse("save-a")
NAME = "Round Trip"


@functools.cache
def _fresh(seed: int, puzzles: bool) -> GameState:
    return new_game(seed, preset="small", world_name=NAME, puzzles=puzzles)


def fresh_game(seed: int = SEED, *, puzzles: bool = True) -> GameState:
    """A new small game of ``seed`` (generated once per test run, copied for each use)."""
    return copy.deepcopy(_fresh(seed, puzzles))


def world_of(state: GameState, name: str = NAME, **kw: Any) -> World:
    return World(name, state.seed, state.preset, created="2025-01-01T00:00:00.000+00:00", **kw)


def autoplay(state: GameState, actions: int, visited: list[VisitedFloor]) -> None:
    for _ in range(actions):
        if state.over:
            return
        step_remembering(state, choose(state), visited)


@functools.cache
def _played() -> tuple[GameState, tuple[VisitedFloor, ...]]:
    """A game with some history: fights, items, a puzzle met, then floor 2 (floor 1 kept
    as visited)."""
    state = fresh_game(SEED)
    # the history must not end in a death, whatever the bestiary's numbers: blows leave the
    # player at 1 HP while it is made (a measuring switch, never saved, turned off after)
    state.invulnerable = True
    visited: list[VisitedFloor] = []
    autoplay(state, 120, visited)
    visited.append(VisitedFloor.of(state))
    state.enter_floor(2)
    autoplay(state, 30, visited)
    # on until a puzzle of floor 2 has been met, whatever the floor holds on the way to it
    for _ in range(40):
        if any(p.instance is not None for p in state.puzzles.values()) or state.over:
            break
        autoplay(state, 10, visited)
    if state.puzzles and all(p.instance is None for p in state.puzzles.values()):
        # the fights of floor 2 kept the player from its pedestals: meet the first by hand
        state.puzzles[min(state.puzzles)].puzzle()
    state.invulnerable, state.spared = False, 0
    return state, tuple(visited)


def played_game() -> tuple[World, GameState, list[VisitedFloor]]:
    state, visited = copy.deepcopy(_played())
    return world_of(state), state, list(visited)


def assert_same(a: Any, b: Any, path: str = "state", skip: frozenset[str] = frozenset()) -> None:
    """``a`` and ``b`` equal in every field, recursively; the failure names the path."""
    if isinstance(a, np.random.Generator):
        assert isinstance(b, np.random.Generator), path
        assert a.bit_generator.state == b.bit_generator.state, path
        return
    if isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray), path
        assert a.dtype == b.dtype and a.shape == b.shape, f"{path}: {a.dtype}{a.shape}"
        assert np.array_equal(a, b), f"{path}: arrays differ"
        return
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        assert type(a) is type(b), f"{path}: {type(a)} vs {type(b)}"
        for fld in dataclasses.fields(a):
            if f"{path}.{fld.name}" in skip:
                continue
            assert_same(getattr(a, fld.name), getattr(b, fld.name), f"{path}.{fld.name}", skip)
        return
    if isinstance(a, dict):
        assert isinstance(b, dict), path
        assert list(a) == list(b), f"{path}: keys {list(a)[:5]} vs {list(b)[:5]}"
        for k in a:
            assert_same(a[k], b[k], f"{path}[{k!r}]", skip)
        return
    if isinstance(a, list | tuple):
        assert type(a) is type(b) and len(a) == len(b), f"{path}: {a!r:.80} vs {b!r:.80}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{path}[{i}]", skip)
        return
    assert type(a) is type(b) and a == b, f"{path}: {a!r:.80} != {b!r:.80}"


def assert_same_game(original: GameState, loaded: GameState, logged: int = 0) -> None:
    """Every field equal; the log as its kept tail (``logged``: lines both games logged
    since ``loaded`` was loaded)."""
    from saves.codec import LOG_KEPT

    # a pedestal's instance is not loaded but made again from its seed when used (a shared
    # file could carry a puzzle built to hang the solver): equal once made again
    made = {f"state.puzzles[{pos!r}].instance" for pos in original.puzzles}
    assert_same(original, loaded, skip=frozenset({"state.log", *made}))
    for pos, room in original.puzzles.items():
        if room.instance is not None:
            assert loaded.puzzles[pos].puzzle().to_json() == room.instance
            assert loaded.puzzles[pos].moves == room.moves
    # the kept tail, then the lines both logged since the load
    kept = min(len(original.log) - logged, LOG_KEPT)
    assert loaded.log == original.log[len(original.log) - logged - kept :]


def pack_as(world: World, state: GameState, document: Any = None, **header: Any) -> bytes:
    """A save of ``state`` (or of ``document``) packed by the game's own packer with the header
    it would write, any field replaced by ``header`` (another format, game or generator): a
    file this game did not write, but one whose checksums and seal hold."""
    fields: dict[str, Any] = {
        "format": h.FORMAT_VERSION,
        "game": GAME_VERSION,
        "generator": GENERATOR_VERSION,
        "seed": seeds.stored(world.seed),
        "world": world.name,
        "created": world.created,
        "saved": world.created,
        "summary": codec.summary_of(world, state),
        **header,
    }
    doc = codec.to_document(world, state) if document is None else document
    return h.pack(doc, **fields)
