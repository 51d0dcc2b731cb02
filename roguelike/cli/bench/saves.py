"""``roguelike bench --only saves``: saving and loading a 5-floor game against their budgets
(save ≤ 50 ms, load ≤ 100 ms, both at p99), the size of its file, and what refusing hostile
files costs (the largest memory and the slowest, :mod:`roguelike.cli.bench.hostile`).

The game is played by the autoplayer on a normal world (5 floors) until it stands on floor 5,
keeping the floors it leaves, so the save holds a full current floor and four visited ones.
Each measured save goes through :meth:`Store.save` (encode, atomic write with fsync, backup),
each load through :meth:`Store.load` (read, checksum, decompress, check every field).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import zlib
from collections.abc import Callable, Iterator
from itertools import count
from pathlib import Path

from roguelike.autoplay import choose
from roguelike.cli.bench import Budget, measure
from roguelike.cli.bench.hostile import MEMORY_LIMIT, hostile_saves
from roguelike.engine import Descend, Explore, GameState, Travel, Wait, new_game
from saves import codec
from saves.session import step_remembering
from saves.store import Store
from saves.world import VisitedFloor, World

SAVE_BUDGET = Budget(None, 50)
LOAD_BUDGET = Budget(None, 100)
FLOORS = 5
ACTION_LIMIT = 20_000


def play_to_floor(
    state: GameState, floor: int, visited: list[VisitedFloor], *, limit: int = ACTION_LIMIT
) -> bool:
    """Let the autoplayer (:func:`roguelike.autoplay.play`'s policy) play ``state`` until it
    reaches ``floor``, keeping the floors it leaves in ``visited``; whether it got there
    alive."""
    idle = 0
    for _ in range(limit):
        if state.over or state.number >= floor:
            break
        turn, number = state.turn, state.number
        action = choose(state)
        step_remembering(state, action, visited)
        if isinstance(action, Explore) and state.turn == turn:
            if not _leave_floor(state, visited):
                idle += 1
        elif state.turn == turn and state.number == number:
            idle += 1
            if idle > 3:
                step_remembering(state, Wait(), visited)
        else:
            idle = 0
    return state.number >= floor and not state.over


def _leave_floor(state: GameState, visited: list[VisitedFloor]) -> bool:
    """Travel to the stairs if they were seen, and take them; whether a turn passed."""
    fin = state.floor.finish
    if fin is None or not state.explored[fin[1], fin[0]]:
        return False
    turn = state.turn
    if state.player != fin:
        step_remembering(state, Travel(*fin), visited)
    if state.player == fin:
        step_remembering(state, Descend(), visited)
    return state.turn != turn


def five_floor_game(first_seed: int = 1) -> tuple[World, GameState, list[VisitedFloor]]:
    """A normal world played to floor 5 (the first seed from ``first_seed`` on whose game the
    autoplayer survives that far)."""
    for seed in count(first_seed):
        world = World(f"bench {seed}", seed, "normal")
        state = new_game(seed, preset=world.preset, world_name=world.name, puzzles=False)
        visited: list[VisitedFloor] = []
        if play_to_floor(state, FLOORS, visited):
            return world, state, visited
    raise AssertionError("unreachable")  # pragma: no cover


def save_bench_lines(seeds: int = 200) -> Iterator[str]:
    """The bench's lines for saves: save and load percentiles, then the file's size."""
    n = max(20, min(seeds, 100))
    world, state, visited = five_floor_game()
    with tempfile.TemporaryDirectory(prefix="roguelike-bench-") as tmp:
        store = Store(tmp)

        def save(_: int) -> object:
            return store.save(state, world, visited)

        def load(_: int) -> object:
            return store.load(world.name)

        yield measure(f"save a {FLOORS}-floor game (atomic, fsync)", n, save, SAVE_BUDGET).line()
        yield measure(f"load a {FLOORS}-floor game (all checks)", n, load, LOAD_BUDGET).line()
        data = store.file(world.name).read_bytes()
    doc = codec.to_document(world, state, visited)
    raw = len(zlib.decompress(data[data.index(b"\n") + 1 :]))
    yield (
        f"save file of a {FLOORS}-floor game ({state.width}x{state.height} map, "
        f"{len(visited)} floors visited, turn {state.turn}): {len(data) / 1024:.1f} KiB "
        f"({raw / 1024:.1f} KiB of JSON before zlib; {len(doc['state']['monsters'])} monsters)"
    )


def hostile_bench_lines() -> Iterator[str]:
    """What refusing the hostile files of :mod:`roguelike.cli.bench.hostile` costs: each is
    imported, listed, loaded and exported in one child process under the 2 GiB limit; the
    largest memory and the slowest file."""
    world, state, visited = five_floor_game()
    template = codec.encode(world, state, visited)
    files = hostile_saves(template, codec.to_document(world, state, visited))
    with tempfile.TemporaryDirectory(prefix="roguelike-bench-") as tmp:
        folder = Path(tmp)
        for name, data in files.items():
            (folder / (name.replace(" ", "-") + ".rgl")).write_bytes(data)
        done = subprocess.run(
            [sys.executable, "-m", "roguelike.cli.bench.hostile", str(folder)],
            capture_output=True,
            text=True,
            check=False,
        )
    results = [json.loads(line) for line in done.stdout.splitlines()]
    refused = sum(
        all(r[k].startswith("SaveError") for k in ("import", "load", "export")) for r in results
    )
    slowest = max(results, key=lambda r: r["seconds"], default=None)
    peak = max((r["peak_kib"] for r in results), default=0)
    yield (
        f"hostile saves (import, list, load, export each, under {MEMORY_LIMIT >> 30} GiB): "
        f"{refused}/{len(files)} refused in one line, peak memory {peak / 1024:.0f} MiB, "
        + (f"slowest {slowest['file']} {slowest['seconds']:.2f} s" if slowest else "none ran")
        + ("" if done.returncode == 0 else f" (the child failed: {done.returncode})")
    )


def _all_lines(seeds: int = 200) -> Iterator[str]:
    yield from save_bench_lines(seeds)
    yield from hostile_bench_lines()


PARTS: dict[str, Callable[[int], Iterator[str]]] = {"saves": _all_lines}
