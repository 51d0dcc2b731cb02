"""``roguelike bench``: how fast the generator, the puzzles, the saves, the UI and the
autoplayer are, each against its budget, and what recording a run costs.

A benchmark, not a test: it prints percentiles and how each compares with its budget, and
never fails a build. Figures are wall-clock times on whatever machine runs it; quote medians.

Each part of the bench (``--only``) is measured by a module of this package: topology and
floor by :mod:`.generation`, range (the generator's expressive range) by :mod:`.variety`,
puzzle by :mod:`.puzzle`, saves by :mod:`.saves`, ui by :mod:`.ui`, bot by :mod:`.bot`,
recording by :mod:`.recording`, serve (games served to websocket clients on loopback) by
:mod:`.serve`. A part's module is imported
only when the part runs, so that ``--only topology`` does not load Textual; each module names
its parts' line makers in ``PARTS``.
"""

from __future__ import annotations

import argparse
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

import numpy as np

from roguelike.cli import Fail
from roguelike.gen.layout import LayoutError
from roguelike.gen.topology import ParamsError, TopologyError
from saves.errors import SaveError, StoreError

#: The bot part's policies, by the name ``--policies`` takes (the keys of the bot module's
#: ``POLICIES``, kept here so that the help does not load the autoplayer to name them).
POLICY_NAMES = (
    "full",
    "no-items",
    "skip-treasure",
    "no-sneak",
    "ignore-fire",
    "first-perk",
    "naive-monsters",
    "no-unknown",
    "invulnerable",
)

#: A bench that cannot build a floor or write a save says so in one line, as every command does.
USER_ERRORS: tuple[type[Exception], ...] = (
    ParamsError,
    TopologyError,
    LayoutError,
    SaveError,
    StoreError,
)

#: The parts of the bench in the order they run, and the module that measures each.
PARTS: dict[str, str] = {
    "topology": "roguelike.cli.bench.generation",
    "floor": "roguelike.cli.bench.generation",
    "range": "roguelike.cli.bench.variety",
    "puzzle": "roguelike.cli.bench.puzzle",
    "saves": "roguelike.cli.bench.saves",
    "ui": "roguelike.cli.bench.ui",
    "bot": "roguelike.cli.bench.bot",
    "recording": "roguelike.cli.bench.recording",
    "serve": "roguelike.cli.bench.serve",
}


@dataclass(frozen=True)
class Budget:
    p50_ms: float | None = None
    p99_ms: float | None = None
    p95_ms: float | None = None  # the UI's budget: a key press → screen updated


@dataclass
class Result:
    name: str
    times_ms: list[float]
    failures: int
    budget: Budget

    def line(self) -> str:
        t = np.array(self.times_ms) if self.times_ms else np.array([float("nan")])
        p50, p95, p99 = np.percentile(t, [50, 95, 99])
        total = len(self.times_ms) + self.failures
        ok = 100.0 * len(self.times_ms) / total if total else 0.0
        verdicts = []
        for label, value, limit in (
            ("p50", p50, self.budget.p50_ms),
            ("p95", p95, self.budget.p95_ms),
            ("p99", p99, self.budget.p99_ms),
        ):
            if limit is not None:
                mark = "ok" if value <= limit else "OVER"
                verdicts.append(f"{label} {value / limit:.2f}× of {limit:g} ms {mark}")
        return (
            f"{self.name:<34} n={total:<4} ok={ok:5.1f}%  p50={p50:8.1f}  p95={p95:8.1f}  "
            f"p99={p99:8.1f}  max={t.max():8.1f} ms   " + "; ".join(verdicts)
        )


def measure(name: str, seeds: int, fn: Callable[[int], object], budget: Budget) -> Result:
    """``fn`` timed on the seeds 0 … ``seeds`` - 1 (a seed that raises counts as a failure)."""
    times: list[float] = []
    failures = 0
    with contextlib.suppress(Exception):  # a failing seed shows below, among the measured
        fn(10**9)  # warm caches (encodings read, imports done) outside the measurement
    for seed in range(seeds):
        start = time.perf_counter()
        try:
            fn(seed)
        except Exception:  # a failure is counted and shown, the bench goes on
            failures += 1
            continue
        times.append((time.perf_counter() - start) * 1000)
    return Result(name, times, failures, budget)


def add_arguments(bench: argparse.ArgumentParser) -> None:
    bench.add_argument("--seeds", type=int, default=200, help="seeds per measured set (200)")
    bench.add_argument("--only", choices=list(PARTS), help="run one part of the bench")
    bench.add_argument(
        "--difficulties",
        metavar="LIST",
        help="the bot part: the difficulties its curve compares, by comma "
        "(easy,normal,hard: normal and the levels around it)",
    )
    bench.add_argument(
        "--policies",
        metavar="LIST",
        help=f"the bot part: the policies played at normal, by comma ({','.join(POLICY_NAMES)})",
    )

    bench.add_argument(
        "--games",
        type=int,
        default=32,
        metavar="N",
        help="the serve part: the most games served at once (32)",
    )


def run(args: argparse.Namespace) -> None:
    """Print the bench's lines, each as soon as its set is measured."""
    if args.seeds < 1:
        raise Fail("--seeds must be at least 1")
    if args.games < 1:
        raise Fail("--games must be at least 1")
    options: dict[str, dict[str, Any]] = {"bot": {}, "serve": {"games": args.games}}
    if args.difficulties is not None or args.policies is not None:
        from roguelike.cli.bench.bot import bot_options  # the bot's part checks its own options

        options["bot"] = bot_options(args.difficulties, args.policies)
    print(f"roguelike bench · {args.seeds} seeds per set · times in ms", flush=True)
    for part, module in PARTS.items():
        if args.only in (None, part):
            for line in import_module(module).PARTS[part](args.seeds, **options.get(part, {})):
                print(line, flush=True)
