"""Races on a world's lock, shared by the lock tests and runnable on its own for many rounds:

    uv run python -m tests.saves.lock_race --rounds 300

prints how many rounds had exactly one holder. A round: a game takes the world's lock and is
killed (``kill -9``: its lock file stays behind, as after a crash), then six games started at
the same moment all try to take it; exactly one may. :func:`churn` is the other race: games
taking and releasing the lock over and over (the releaser removes the file while others are
opening it), each checking that it is alone while it holds it.

Games are forked from this process, which has the store already imported, so that a round
costs a few forks, not six start-ups of Python (spawn where there is no fork).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import Any

from saves.errors import WorldLocked
from saves.store import Store

NAME = "Race Keep"
GAMES = 6
#: The longest any one step of a round may take before the round is called hung (seconds).
PATIENCE = 60.0


def context() -> BaseContext:
    """Fork where there is fork (a game is a copy of this process, store already imported,
    a few milliseconds each; a fork server or spawn would import the parent's main module in
    every game, all of pytest under the tests); else spawn."""
    if "fork" in mp.get_all_start_methods():
        return mp.get_context("fork")
    return mp.get_context("spawn")


def hold_world(folder: str, name: str, ready: Any) -> None:
    """A game holding world ``name`` until it is killed (``ready`` is set once it holds)."""
    Store(folder).lock(name)
    ready.set()
    time.sleep(PATIENCE * 10)


def _contend(folder: str, start: Any, results: Any, done: Any) -> None:
    """One game started at the same moment as the others: try the lock, say what happened,
    and hold it (if won) until every game has tried."""
    start.wait(PATIENCE)
    try:
        lock = Store(folder).lock(NAME)
    except WorldLocked as err:
        results.put(("refused", str(err)))
        done.wait(PATIENCE)
        return
    except Exception as err:  # noqa: BLE001 - reported to the parent as a failed round
        results.put(("error", f"{type(err).__name__}: {err}"))
        return
    results.put(("held", os.getpid()))
    done.wait(PATIENCE)
    lock.release()


@dataclass
class Round:
    """What one round saw: how many games held the lock, and every refusal or error."""

    holders: int
    messages: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    stale_file_left: bool = False


def one_round(ctx: BaseContext, folder: Path) -> Round:
    """A holder killed with its lock, then :data:`GAMES` games at once (see the module)."""
    ready = ctx.Event()
    holder = ctx.Process(target=hold_world, args=(str(folder), NAME, ready))  # type: ignore[attr-defined]
    holder.start()
    try:
        if not ready.wait(PATIENCE):
            raise RuntimeError("the first holder never took the lock")
    finally:
        assert holder.pid is not None
        os.kill(holder.pid, signal.SIGKILL if hasattr(signal, "SIGKILL") else signal.SIGTERM)
        holder.join(PATIENCE)
    stale = (folder / "race-keep.lock").exists()
    start, done, results = ctx.Barrier(GAMES), ctx.Event(), ctx.Queue()  # type: ignore[attr-defined]
    games = [
        ctx.Process(target=_contend, args=(str(folder), start, results, done))  # type: ignore[attr-defined]
        for _ in range(GAMES)
    ]
    for game in games:
        game.start()
    outcome = Round(0, stale_file_left=stale)
    try:
        for _ in range(GAMES):
            kind, what = results.get(timeout=PATIENCE)
            if kind == "held":
                outcome.holders += 1
            elif kind == "refused":
                outcome.messages.append(what)
            else:
                outcome.errors.append(what)
    finally:
        done.set()
        for game in games:
            game.join(PATIENCE)
            if game.is_alive():
                game.kill()
    return outcome


def _churn(folder: str, turns: int, inside: Any, start: Any, results: Any) -> None:
    """Take and release the lock ``turns`` times, checking each time that no other game is
    inside; put (times held, times another was found inside)."""
    start.wait(PATIENCE)
    held = overlaps = 0
    store = Store(folder)
    for _ in range(turns):
        try:
            lock = store.lock(NAME)
        except WorldLocked:
            continue
        with inside.get_lock():
            inside.value += 1
            alone = inside.value == 1
        time.sleep(0.001)  # stay a moment, as a game would: a second holder would show
        with inside.get_lock():
            alone = alone and inside.value == 1
            inside.value -= 1
        overlaps += not alone
        held += 1
        lock.release()
    results.put((held, overlaps))


def churn(ctx: BaseContext, folder: Path, turns: int = 200) -> tuple[int, int]:
    """:data:`GAMES` games taking and releasing the lock ``turns`` times each: (times held in
    all, times a game found another inside)."""
    inside = ctx.Value("i", 0)  # type: ignore[attr-defined]
    start, results = ctx.Barrier(GAMES), ctx.Queue()  # type: ignore[attr-defined]
    games = [
        ctx.Process(target=_churn, args=(str(folder), turns, inside, start, results))  # type: ignore[attr-defined]
        for _ in range(GAMES)
    ]
    for game in games:
        game.start()
    held = overlaps = 0
    try:
        for _ in range(GAMES):
            h, o = results.get(timeout=PATIENCE)
            held, overlaps = held + h, overlaps + o
    finally:
        for game in games:
            game.join(PATIENCE)
            if game.is_alive():
                game.kill()
    return held, overlaps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args(argv)
    ctx = context()
    exact = 0
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.rounds):
            seen = one_round(ctx, Path(tmp))
            exact += seen.holders == 1 and not seen.errors
            if seen.holders != 1 or seen.errors:
                print(f"round {n}: {seen.holders} holders, errors {seen.errors}")
        held, overlaps = churn(ctx, Path(tmp), 500)
    took = time.perf_counter() - began
    print(
        f"{exact}/{args.rounds} rounds had exactly one holder of {GAMES} games started at once "
        f"after a holder was killed; churn: held {held} times, {overlaps} overlaps ({took:.1f} s)"
    )
    return 0 if exact == args.rounds and overlaps == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
