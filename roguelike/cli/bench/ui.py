"""``roguelike bench --only ui``: the app's speed against its budgets.

Two sets, printed like the generator's lines (:class:`roguelike.cli.bench.Result`):

* **start-up to the title**: wall time from launching a fresh Python process
  (``python -c``, the interpreter used by this one, no ``uv`` in between) running
  ``roguelike.cli.main([])`` (what ``roguelike`` runs) until the title screen is mounted and
  its first frame rendered, the app running headless at 80×24. Import time is included,
  with the bytecode cached as after a first start (the first launch is shown apart).
  Budget: p50 ≤ 1 s.
* **key press → screen updated** on a 200×60 terminal: the Pilot presses direction keys on a
  real :class:`~screens.game.GameScreen` (a walk that really moves: it keeps going while it
  can and turns where it must, never into a wall). A sample runs from the moment the app
  receives the key event to the moment the next frame has been rendered *and* encoded into
  the terminal's escape sequences, as the real driver would write them (only the write to a
  tty is missing). Textual's frame pacing (a frame at most every 1/60 s) is part of it.
  When the run ends the same world starts again. The walk is on the deepest floor of a large
  world (the largest floors are the deepest). Budget: p95 ≤ 16 ms.
* **key press → screen updated while a floor is generated**: the same walk, with the
  generator making floors without pause in a thread, then in a worker process — what playing
  feels like while the session makes the next floor ahead (:mod:`roguelike.engine.pregen`). A
  thread shares the interpreter's lock with the screen; a process does not (it only shares the
  machine's cores). Same budget. These two lines chose the process the app uses.
* **stairs → next floor drawn** on a 200×60 terminal: a game of a large world starts on the
  floor above the deepest; the player is put on its stairs and presses ``>``; a sample runs from
  the key event to the first frame of the deepest floor rendered and encoded (the app saves a
  new floor just after its first frame, so the autosave is not in the sample). Once with the
  floor below made ahead by the session's worker process (the bench waits until it is, as a
  player exploring the floor would), once generated when the stairs are taken, as without
  pre-generation; the ratio of their medians is printed. One world per sample. Budget: p99 ≤
  50 ms.

Every world is played in a temporary save folder, never the player's.

The Pilot itself waits for the app to go idle after every key (≥ 40 ms of sleeping), which is
why the samples are taken inside the app rather than around ``pilot.press``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator

import numpy as np

from roguelike import seeds
from roguelike.cli.bench import Budget, Result
from roguelike.engine import GameState, can_step, new_game
from roguelike.engine.pregen import WorkerKind, make_floor, start_worker
from roguelike.presets import PRESETS
from saves.world import World
from screens.game import GameScreen
from screens.timing import KeyTimedApp

START_UP_BUDGET = Budget(p50_ms=1000)
KEY_BUDGET = Budget(p95_ms=16)
STAIRS_BUDGET = Budget(p99_ms=50)
KEY_SIZE = (200, 60)
MOVES = 500
#: moves of each walk with the generator busy (two more walks: kept shorter)
LOADED_MOVES = 250
WARM_UP_MOVES = 20
BENCH_SEED = "ui bench"

# Runs the real command, ``roguelike`` with no arguments, with an app that is headless at 80×24
# and notes the time and leaves once the title is up.
_PROBE = """
import roguelike.cli
from screens.timing import StartUpProbe

roguelike.cli.main([], make_app=StartUpProbe)
print(repr(StartUpProbe.shown[0]))
"""


def _launch(env: dict[str, str]) -> float | None:
    """Milliseconds from launching the probe to the title's first frame (None: it failed)."""
    start = time.time()  # both processes read the same wall clock
    done = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=120, env=env
    )
    try:
        return (float(done.stdout.strip().splitlines()[-1]) - start) * 1000
    except (ValueError, IndexError):
        return None


def start_up_times(runs: int) -> tuple[list[float], int, float | None]:
    """(milliseconds to the title's first frame, failures, the first launch's milliseconds).

    The launches keep their compiled bytecode in a private cache, as an installed game does
    after its first start (this environment may forbid writing it, which would make every
    start compile all of Textual again); the first launch fills that cache and is reported
    on its own."""
    times: list[float] = []
    failures = 0
    with tempfile.TemporaryDirectory(prefix="roguelike-bench-pyc-") as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache
        first = _launch(env)
        for _ in range(runs):
            ms = _launch(env)
            if ms is None:
                failures += 1
            else:
                times.append(ms)
    return times, failures, first


_ARROWS = {(0, -1): "up", (0, 1): "down", (-1, 0): "left", (1, 0): "right"}


def _next_key(
    state: object, last: tuple[int, int], rng: np.random.Generator
) -> tuple[str, tuple[int, int]]:
    """An arrow that really moves the player: straight on while possible, else a turn (not
    back the way it came unless that is the only way)."""
    x, y = state.player  # type: ignore[attr-defined]
    open_ = [d for d in _ARROWS if can_step(state, x, y, *d)]  # type: ignore[arg-type]
    if last in open_ and rng.random() < 0.8:
        return _ARROWS[last], last
    back = (-last[0], -last[1])
    turns = [d for d in open_ if d != back] or open_
    if not turns:
        return "period", last  # boxed in: wait a turn
    d = turns[int(rng.integers(len(turns)))]
    return _ARROWS[d], d


def deepest_game(world: World) -> GameState:
    """A game of ``world`` started on its deepest floor (the key-press walks)."""
    total = PRESETS[world.preset]
    return new_game(world.seed, preset=world.preset, world_name=world.name, floor=total)


def above_deepest_game(world: World) -> GameState:
    """A game of ``world`` started on the floor above its deepest (the stairs line)."""
    total = PRESETS[world.preset]
    return new_game(world.seed, preset=world.preset, world_name=world.name, floor=total - 1)


@contextlib.contextmanager
def generator_busy(kind: WorkerKind | None) -> Iterator[None]:
    """Floors generated without pause, in a ``kind`` worker, while the block runs (None:
    nothing): the worst a floor made ahead can do to the screen."""
    if kind is None:
        yield
        return
    stop = threading.Event()
    seed = seeds.text_seed(BENCH_SEED)
    executor = start_worker(kind)
    counter = iter(range(10**9))

    def again(_: object = None) -> None:
        if not stop.is_set():
            number = 1 + next(counter) % PRESETS["large"]
            executor.submit(make_floor, seed, number, False).add_done_callback(again)

    again()
    try:
        yield
    finally:
        stop.set()
        executor.shutdown(wait=True, cancel_futures=True)


async def _key_times(moves: int, save_dir: str) -> tuple[list[float], int, int]:
    """(samples in ms, keys without a new frame, runs restarted)."""
    seed = seeds.text_seed(BENCH_SEED)
    app = KeyTimedApp(seed, make_game=deepest_game, save_dir=save_dir)
    rng = np.random.default_rng(7)
    last = (1, 0)
    restarts = 0
    pressed = 0
    async with app.run_test(size=KEY_SIZE) as pilot:
        await pilot.pause()
        for i in range(WARM_UP_MOVES + moves):
            screen = app.screen
            state = getattr(screen, "state", None)
            if not isinstance(screen, GameScreen) or state is None or state.won or state.dead:
                while len(app.screen_stack) > 2:  # back to the title, then the world again
                    await app.pop_screen()
                app.start_game(app.first_world)  # type: ignore[arg-type]
                await pilot.pause()
                restarts += 1
                continue
            key, last = _next_key(state, last, rng)
            app.recording = i >= WARM_UP_MOVES
            pressed += app.recording
            await pilot.press(key)
    return app.samples, pressed - len(app.samples), restarts


async def _stairs_time(seed: int, pregenerate: WorkerKind | None, save_dir: str) -> float | None:
    """Milliseconds from ``>`` on the stairs of the floor above the deepest of a large world
    of ``seed`` to the deepest floor drawn (None: the descent did not happen)."""
    app = KeyTimedApp(
        seed, make_game=above_deepest_game, pregenerate=pregenerate, save_dir=save_dir
    )
    async with app.run_test(size=KEY_SIZE) as pilot:
        await pilot.pause()
        session, screen = app.session, app.screen
        if session is None or not isinstance(screen, GameScreen):
            return None
        state = session.state
        cache, below = state.floors, state.next_floor()
        # a player explores the floor before the stairs: by then the floor below is made
        while cache is not None and below is not None and not cache.ready(*below):
            await asyncio.sleep(0.02)
        state.player = state.floor.finish
        state.update_view()
        screen.redraw()
        await pilot.pause()
        app.samples.clear()
        app.recording = True
        await pilot.press("greater_than_sign")
        app.recording = False
        if state.number != state.total_floors or not app.samples:
            return None
        return app.samples[0]


def stairs_times(runs: int, pregenerate: WorkerKind | None) -> tuple[list[float], int]:
    """(milliseconds of each descent, failures), one large world per run."""
    times: list[float] = []
    failures = 0
    with tempfile.TemporaryDirectory(prefix="roguelike-bench-saves-") as save_dir:
        for run in range(runs):
            ms = asyncio.run(
                _stairs_time(seeds.text_seed(f"{BENCH_SEED} {run}"), pregenerate, save_dir)
            )
            if ms is None:
                failures += 1
            else:
                times.append(ms)
    return times, failures


def _key_line(name: str, moves: int, load: WorkerKind | None) -> str:
    with (
        tempfile.TemporaryDirectory(prefix="roguelike-bench-saves-") as save_dir,
        generator_busy(load),
    ):
        samples, missing, restarts = asyncio.run(_key_times(moves, save_dir))
    line = Result(name, samples, 0, KEY_BUDGET).line()
    notes = [f"{restarts} restarts"] if restarts else []
    if missing:
        notes.append(f"{missing} keys drew nothing")
    return line + (f"   ({', '.join(notes)})" if notes else "")


def ui_lines(seeds_per_set: int = 200) -> Iterator[str]:
    """The UI bench's lines, each as soon as it is measured."""
    runs = max(3, min(seeds_per_set, 10))
    times, failures, first = start_up_times(runs)
    line = Result("ui start-up to title (process)", times, failures, START_UP_BUDGET).line()
    yield line + (f"   (first launch, compiling: {first:.0f} ms)" if first is not None else "")
    size = f"{KEY_SIZE[0]}×{KEY_SIZE[1]}"
    yield _key_line(f"ui key → screen {size}", MOVES, None)
    yield _key_line(f"ui key {size}, floors in a thread", LOADED_MOVES, "thread")
    yield _key_line(f"ui key {size}, floors in a process", LOADED_MOVES, "process")
    medians: list[float] = []
    for name, pregenerate in (("made ahead", "process"), ("on demand", None)):
        times, failures = stairs_times(runs, pregenerate)  # type: ignore[arg-type]
        medians.append(float(np.median(times)) if times else float("nan"))
        yield Result(f"ui stairs {size}, {name}", times, failures, STAIRS_BUDGET).line()
    yield f"{'ui stairs: on demand ÷ made ahead':<34} {medians[1] / medians[0]:.1f}× (medians)"


PARTS: dict[str, Callable[[int], Iterator[str]]] = {"ui": ui_lines}
