"""``roguelike bench --only bot``: the autoplayer on normal worlds (the texts ``bot-1`` …): its
win rate (target ≥ 95%), how fast it plays, how close it came to dying, and every loss."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import numpy as np

from roguelike import seeds
from roguelike.autoplay import bot_seeds, play_many

#: Worlds the autoplayer plays (fewer if ``--seeds`` is lower), and their size.
BENCH_WORLDS = 100
BENCH_PRESET = "normal"


def bench_lines(worlds: int, preset: str = BENCH_PRESET) -> Iterator[str]:
    """The autoplayer's lines: the win rate on ``worlds`` worlds, and how fast the autoplayer
    plays (turns per second of a whole run: floors generated, puzzles solved, monsters
    moved)."""
    start = time.perf_counter()
    results = play_many(bot_seeds(worlds), preset)
    wall = time.perf_counter() - start
    won = sum(r.won for r in results)
    rate = np.array([r.turns / r.seconds for r in results if r.seconds > 0] or [float("nan")])
    secs = np.array([r.seconds for r in results])
    turns = np.array([r.turns for r in results])
    share = 100 * won / len(results)
    mark = "ok" if share >= 95 else "UNDER"
    yield (
        f"autoplayer, {len(results)} {preset} worlds: won {won} ({share:.0f}%; target ≥ 95% "
        f"{mark}) · {wall:.0f} s wall"
    )
    p10, p50 = np.percentile(rate, [10, 50])
    s50, s99 = np.percentile(secs, [50, 99])
    yield (
        f"autoplayer speed: {p50:,.0f} turns/s p50 (slowest tenth under {p10:,.0f}) · "
        f"{np.median(turns):,.0f} turns a world p50 · {s50:.1f} s a world p50, {s99:.1f} s p99"
    )
    low = np.array([r.lowest_hp for r in results])
    deaths = sum(not r.won and not r.cause.startswith("stuck") for r in results)
    yield (
        f"autoplayer close calls: lowest HP {100 * np.median(low):.0f}% of max p50, "
        f"{100 * low.min():.0f}% at worst · {deaths} deaths"
    )
    for r in results:
        if not r.won:
            yield f"  lost {seeds.encode(r.seed)}: {r.cause}"


def bot_lines(count: int) -> Iterator[str]:
    """The bench's autoplayer lines for ``--seeds`` ``count``: at most BENCH_WORLDS worlds."""
    return bench_lines(min(count, BENCH_WORLDS), BENCH_PRESET)


PARTS: dict[str, Callable[[int], Iterator[str]]] = {"bot": bot_lines}
