"""``roguelike bench --only recording``: what recording a run costs, how fast a recording
replays, and how large it is, on the autoplayer's runs of a few normal worlds (the texts
``bot-1`` …, as ``--only bot`` plays them; at most BENCH_WORLDS, fewer with a lower
``--seeds``).

- *overhead*: every action of a run is timed twice, the engine's step and then
  :meth:`Recording.add` (encode the action, take the state's check); the line gives the add's
  p50/p99 per action and its total as a share of the steps' total, per world (target: under
  2% of a turn's cost, as the issue that asked for recordings set it). The autoplayer's own
  thinking is not a turn's cost and is left out. An action may be many turns (a travel, an
  explore): the share is also given for the actions of one turn alone, which is what a
  player pressing a key at a time pays.
- *replay*: each recording played again headless (:func:`roguelike.recording.replay`, every
  check compared), in turns per second of the game; a replay that does not end in the played
  state's digest is counted as out of sync.
- *size*: the recording's JSON compressed as a save compresses it (``saves.header``: compact
  JSON, zlib at ZLIB_LEVEL), in bytes per 1,000 turns.

Times are wall-clock on whatever machine runs it; quote medians.
"""

from __future__ import annotations

import json
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from roguelike.autoplay import TURN_LIMIT, Autopilot, bot_seeds
from roguelike.engine import GameState, new_game, step
from roguelike.recording import Recording, digest, replay
from saves.envelope import ZLIB_LEVEL

#: Worlds played (fewer if ``--seeds`` is lower), their size, and the overhead's target.
BENCH_WORLDS = 4
BENCH_PRESET = "normal"
OVERHEAD_TARGET_PCT = 2.0


@dataclass(frozen=True)
class WorldFigures:
    """One world's run: its turns and actions, the time of every step and of every add (s)
    and the turns each action took, the headless replay's time (s) and whether it ended in
    the played state, and the size of its recording compressed (bytes)."""

    turns: int
    actions: int
    step_s: list[float]
    add_s: list[float]
    turns_each: list[int]
    replay_s: float
    in_sync: bool
    size: int

    @property
    def overhead_pct(self) -> float:
        """The adds' total as a share of the steps' total."""
        return 100 * sum(self.add_s) / max(sum(self.step_s), 1e-12)

    @property
    def single_turn_pct(self) -> float:
        """The adds' total as a share of the steps' total, over the actions of one turn."""
        each = zip(self.add_s, self.step_s, self.turns_each, strict=True)
        one = [(a, s) for a, s, n in each if n == 1]
        return 100 * sum(a for a, _ in one) / max(sum(s for _, s in one), 1e-12)


def compressed_size(rec: Recording) -> int:
    """Bytes of ``rec`` as a save holds it: compact ASCII JSON, zlib at the save's level."""
    text = json.dumps(rec.to_json(), separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return len(zlib.compress(text.encode("ascii"), ZLIB_LEVEL))


def record_run(state: GameState, limit: int = TURN_LIMIT) -> tuple[Recording, WorldFigures]:
    """The autoplayer plays ``state`` to its end as :func:`roguelike.autoplay.play` does,
    recording it, with the step and the add of every action timed apart; then the recording
    is replayed and sized."""
    rec = Recording.begin(state)
    pilot = Autopilot(state)
    steps: list[float] = []
    adds: list[float] = []
    turns: list[int] = []
    clock = time.perf_counter
    for _ in range(limit):
        if state.over or pilot.stuck(state):
            break
        before = (state.turn, state.number)
        action = pilot.decide(state).action
        t0 = clock()
        step(state, action)
        t1 = clock()
        rec.add(action, state)
        t2 = clock()
        steps.append(t1 - t0)
        adds.append(t2 - t1)
        turns.append(state.turn - before[0])
        pilot.acted((state.turn, state.number) != before)
    t0 = clock()
    replayed, _outcome = replay(rec)
    replay_s = clock() - t0
    figures = WorldFigures(
        turns=state.turn,
        actions=len(rec),
        step_s=steps,
        add_s=adds,
        turns_each=turns,
        replay_s=replay_s,
        in_sync=digest(replayed) == digest(state),
        size=compressed_size(rec),
    )
    return rec, figures


def lines_of(figures: list[WorldFigures], what: str) -> Iterator[str]:
    """The bench's three lines for the runs ``figures`` (``what``: the worlds, in words)."""
    adds_us = np.array([a for f in figures for a in f.add_s] or [float("nan")]) * 1e6
    a50, a99 = np.percentile(adds_us, [50, 99])
    share = np.array([f.overhead_pct for f in figures])
    turns = sum(f.turns for f in figures) or 1
    add_turn = 1e6 * sum(sum(f.add_s) for f in figures) / turns
    step_turn = 1e6 * sum(sum(f.step_s) for f in figures) / turns
    single = np.median([f.single_turn_pct for f in figures])
    p50 = float(np.median(share))
    mark = "ok" if p50 < OVERHEAD_TARGET_PCT else "OVER"
    yield (
        f"recording overhead, {what}: add p50={a50:.1f} µs p99={a99:.1f} µs an action · "
        f"{add_turn:.2f} µs a turn of {step_turn:.0f} µs · {p50:.2f}% of a turn's cost p50, "
        f"{share.max():.2f}% at worst (target < {OVERHEAD_TARGET_PCT:g}% {mark}) · "
        f"{single:.2f}% of a one-turn action's p50"
    )
    rate = np.array([f.turns / f.replay_s for f in figures if f.replay_s > 0] or [float("nan")])
    secs = np.array([f.replay_s for f in figures])
    synced = sum(f.in_sync for f in figures)
    yield (
        f"replay headless: {np.median(rate):,.0f} turns/s p50 (slowest {rate.min():,.0f}) · "
        f"{np.median(secs):.1f} s a world p50 · in sync {synced}/{len(figures)}"
    )
    per_k = np.array([1000 * f.size / max(f.turns, 1) for f in figures])
    per_k_actions = np.array([1000 * f.size / max(f.actions, 1) for f in figures])
    yield (
        f"recording size: {np.median(per_k):,.0f} bytes per 1,000 turns p50 "
        f"({per_k.max():,.0f} at most; {np.median(per_k_actions):,.0f} per 1,000 actions) · "
        f"{np.median([f.size for f in figures]) / 1024:.1f} KiB a world p50, "
        f"{np.median([f.turns for f in figures]):,.0f} turns, "
        f"{np.median([f.actions for f in figures]):,.0f} actions (zlib {ZLIB_LEVEL}, as saved)"
    )


def bench_lines(
    worlds: int, preset: str = BENCH_PRESET, floors: int | None = None
) -> Iterator[str]:
    """The recording lines over ``worlds`` worlds of ``preset`` (``floors``: fewer floors than
    the preset's, for a quick look)."""
    figures = []
    for seed in bot_seeds(worlds):
        state = new_game(seed, preset=preset, total_floors=floors)
        figures.append(record_run(state)[1])
    size = f"{preset} worlds" if floors is None else f"{preset} worlds of {floors} floors"
    yield from lines_of(figures, f"{len(figures)} {size}")


def recording_lines(count: int) -> Iterator[str]:
    """The bench's recording lines for ``--seeds`` ``count``: at most BENCH_WORLDS worlds."""
    return bench_lines(min(count, BENCH_WORLDS), BENCH_PRESET)


PARTS: dict[str, Callable[[int], Iterator[str]]] = {"recording": recording_lines}
