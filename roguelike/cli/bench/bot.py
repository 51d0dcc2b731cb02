"""``roguelike bench --only bot``: the autoplayer on normal worlds (the texts ``bot-1`` …): its
win rate, how fast it plays, how close it came to dying, and every loss; then the difficulty
curve: the same worlds played by the full autoplayer, without consumables, without treasure
rooms and invulnerable, against the curve's targets (:data:`FULL_WIN` and the rest)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from roguelike import seeds
from roguelike.autoplay import Policy, bot_seeds, play_many, summary
from roguelike.cli.bot import summary_text

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


#: The difficulty curve the measuring switches are held to (``bot --seeds N`` reports the same
#: figures for one policy at a time).
FULL_WIN = (0.50, 0.80)
FLOOR_SHARE_MAX = 0.40
WON_ITEMS_MIN = 2


def curve_lines(worlds: int, preset: str = BENCH_PRESET) -> Iterator[str]:
    """The difficulty curve on ``worlds`` worlds: the full autoplayer, its two ablations
    (no consumables, no treasure rooms) and the invulnerable one (can every world be finished),
    each with its deaths by floor and consumables, against the targets above."""
    found: dict[str, dict[str, Any]] = {}
    for name, policy in (
        ("full", Policy()),
        ("no items", Policy(no_items=True)),
        ("skip treasure", Policy(skip_treasure=True)),
        ("invulnerable", Policy(invulnerable=True)),
    ):
        start = time.perf_counter()
        stats = summary(play_many(bot_seeds(worlds), preset, policy=policy))
        found[name] = stats
        text = summary_text(stats, preset, policy).rstrip("\n").splitlines()
        yield f"curve, {name}: {text[0]} · {time.perf_counter() - start:.0f} s wall"
        yield from (f"  {line.strip()}" for line in text[1:])
    rate = {k: float(v["win_rate"]) for k, v in found.items()}

    def mark(ok: bool) -> str:
        return "ok" if ok else "MISSED"

    lo, hi = FULL_WIN
    share = found["full"]["largest_floor_share"]
    won_items = found["full"]["items_used_won_p50"]
    yield (
        f"curve targets: full wins {100 * rate['full']:.0f}% (50-80%: "
        f"{mark(lo <= rate['full'] <= hi)}) · worst floor "
        + ("no deaths" if share is None else f"{100 * float(share):.0f}%")
        + f" of deaths (≤ 40%: {mark(share is not None and float(share) <= FLOOR_SHARE_MAX)})"
    )
    yield (
        f"curve targets: no items {100 * rate['no items']:.0f}% (≤ half the full: "
        f"{mark(rate['no items'] <= rate['full'] / 2)}) · skip treasure "
        f"{100 * rate['skip treasure']:.0f}% (under the full, over 0: "
        f"{mark(0 < rate['skip treasure'] < rate['full'])}) · consumables in a won run "
        f"{won_items} p50 (≥ {WON_ITEMS_MIN}: "
        f"{mark(won_items is not None and float(won_items) >= WON_ITEMS_MIN)})"
        f" · invulnerable {100 * rate['invulnerable']:.0f}% (100%: "
        f"{mark(rate['invulnerable'] == 1)})"
    )


def bot_lines(count: int) -> Iterator[str]:
    """The bench's autoplayer lines for ``--seeds`` ``count``: at most BENCH_WORLDS worlds."""
    worlds = min(count, BENCH_WORLDS)
    yield from bench_lines(worlds, BENCH_PRESET)
    yield from curve_lines(worlds, BENCH_PRESET)


PARTS: dict[str, Callable[[int], Iterator[str]]] = {"bot": bot_lines}
