"""``roguelike bench``: speed of the generator against DESIGN.md's budgets.

A benchmark, not a test: it prints percentiles and how each compares with its budget, and
never fails a build. Figures are wall-clock times on whatever machine runs it; quote medians.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from roguelike.gen.topology import DungeonParams, generate_topology


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


TOPOLOGY_SETS: tuple[tuple[str, DungeonParams, Budget], ...] = (
    ("topology defaults (15-20 rooms, 3 keys)", DungeonParams(), Budget(20, 100)),
    ("topology 40 rooms / 6 keys", DungeonParams.scaled((40, 40), 6), Budget(None, 300)),
    ("topology 100 rooms / 10 keys", DungeonParams.scaled((100, 100), 10), Budget(None, 2000)),
    ("topology defaults + 2 loops", DungeonParams(cycles=2), Budget()),
)


FLOOR_SETS: tuple[tuple[str, DungeonParams, Budget], ...] = (
    ("floor defaults (stages 1-7)", DungeonParams(), Budget(150, 400)),
    ("floor 40 rooms / 6 keys", DungeonParams.scaled((40, 40), 6), Budget()),
    ("floor defaults + 2 loops", DungeonParams(cycles=2), Budget()),
)


def stage_medians(seeds: int) -> str:
    """Median time of each stage of a default floor (each stage timed on its own)."""
    from roguelike.gen.pipeline import STAGES, generate_floor

    cumulative = []
    for stage in STAGES:
        times = []
        for seed in range(seeds):
            start = time.perf_counter()
            generate_floor(seed, 1, DungeonParams(), stop_after=stage)
            times.append((time.perf_counter() - start) * 1000)
        cumulative.append(float(np.median(times)))
    parts = [f"{STAGES[0]} {cumulative[0]:.1f}"] + [
        f"{STAGES[i]} {cumulative[i] - cumulative[i - 1]:+.1f}" for i in range(1, len(STAGES))
    ]
    return "floor stages, medians (ms, each the extra cost of running one stage further): " + (
        ", ".join(parts)
    )


PUZZLE_DIFFICULTY = "very-hard"
PUZZLE_GENERATION_BUDGET = Budget(None, 200)
PUZZLE_HINT_BUDGET = Budget(None, 50)


def puzzle_hint_case(type_name: str, seed: int) -> tuple[object, object]:
    """A freshly generated puzzle (no solver caches yet, as the game gets it) and a random state
    reachable from its start: a prefix of the optimal plan, then up to 8 random moves (kept only
    while the state can still be solved, so the hint has a move to give)."""
    from roguelike import puzzles, seeds

    scout = puzzles.generate(type_name, PUZZLE_DIFFICULTY, seed)
    rng = seeds.stream(seed, 0, f"bench:puzzle-hint:{type_name}")
    plan = scout.solve(scout.initial()) or []
    s = scout.initial()
    for m in plan[: int(rng.integers(0, len(plan) + 1))]:
        s = scout.apply(s, m)
    for _ in range(int(rng.integers(0, 9))):
        moves = scout.moves(s)
        if not moves:
            break
        t = scout.apply(s, moves[int(rng.integers(0, len(moves)))])
        if scout.solve(t) is None:
            break
        s = t
    fresh = puzzles.generate(type_name, PUZZLE_DIFFICULTY, seed)
    return fresh, s


def puzzle_lines(seeds: int) -> Iterator[str]:
    """Per type at very-hard: generation, and one hint from a random reachable state."""
    from roguelike import puzzles

    n = min(seeds, 50)
    for type_name in puzzles.TYPES:

        def gen(seed: int, t: str = type_name) -> object:
            return puzzles.generate(t, PUZZLE_DIFFICULTY, seed)

        yield measure(
            f"puzzle {type_name} {PUZZLE_DIFFICULTY}: generate", n, gen, PUZZLE_GENERATION_BUDGET
        ).line()

        cases = {seed: puzzle_hint_case(type_name, seed) for seed in range(n)}

        def hint(seed: int, t: str = type_name, cases: dict = cases) -> object:
            p, s = cases[seed] if seed in cases else puzzle_hint_case(t, seed)
            return puzzles.hint(p, s)

        yield measure(
            f"puzzle {type_name} {PUZZLE_DIFFICULTY}: hint", n, hint, PUZZLE_HINT_BUDGET
        ).line()


def run(seeds: int = 200, only: str | None = None) -> Iterator[str]:
    """The bench's lines, each as soon as its set is measured."""
    yield f"roguelike bench · {seeds} seeds per set · times in ms"
    if only in (None, "topology"):
        for name, params, budget in TOPOLOGY_SETS:

            def topology(seed: int, p: DungeonParams = params) -> object:
                return generate_topology(seed, 1, p)

            yield measure(name, seeds, topology, budget).line()
    if only in (None, "floor"):
        from roguelike.gen.pipeline import generate_floor

        for name, params, budget in FLOOR_SETS:

            def floor(seed: int, p: DungeonParams = params) -> object:
                return generate_floor(seed, 1, p)

            yield measure(name, seeds, floor, budget).line()
        yield stage_medians(min(seeds, 50))
    if only in (None, "puzzle"):
        yield from puzzle_lines(seeds)
