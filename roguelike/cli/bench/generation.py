"""``roguelike bench --only topology`` and ``--only floor``: the generator's speed.

Budgets: a topology with the default parameters (15-20 rooms, 3 keys) p50 ≤ 20 ms and
p99 ≤ 100 ms; 40 rooms / 6 keys p99 ≤ 300 ms; 100 rooms / 10 keys p99 ≤ 2 s. A whole default
floor (every stage, proof included) p50 ≤ 150 ms and p99 ≤ 400 ms. Then the median cost of
each stage of a default floor.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import numpy as np

from roguelike.cli.bench import Budget, measure
from roguelike.gen import STAGES
from roguelike.gen.pipeline import generate_floor
from roguelike.gen.topology import DungeonParams, generate_topology

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


def topology_lines(seeds: int) -> Iterator[str]:
    for name, params, budget in TOPOLOGY_SETS:

        def topology(seed: int, p: DungeonParams = params) -> object:
            return generate_topology(seed, 1, p)

        yield measure(name, seeds, topology, budget).line()


def floor_lines(seeds: int) -> Iterator[str]:
    for name, params, budget in FLOOR_SETS:

        def floor(seed: int, p: DungeonParams = params) -> object:
            return generate_floor(seed, 1, p)

        yield measure(name, seeds, floor, budget).line()
    yield stage_medians(min(seeds, 50))


def stage_medians(seeds: int) -> str:
    """Median time of each stage of a default floor (each stage timed on its own)."""
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


PARTS: dict[str, Callable[[int], Iterator[str]]] = {
    "topology": topology_lines,
    "floor": floor_lines,
}
