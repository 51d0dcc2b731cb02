"""``roguelike bench --only puzzle``: each puzzle type at very-hard, generated (budget
p99 ≤ 200 ms) and asked for one hint from a random reachable state (budget p99 ≤ 50 ms); per
difficulty, how much the keydoor's one-slot hand matters (``keydoor_lines``); then each type at
every level, the difficulty scores of its generated puzzles against the level's band."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterator
from itertools import chain

from roguelike import puzzles, seeds
from roguelike.cli.bench import Budget, measure
from roguelike.puzzles import difficulty as scoring
from roguelike.puzzles import keydoor

PUZZLE_DIFFICULTY = "very-hard"
PUZZLE_GENERATION_BUDGET = Budget(None, 200)
PUZZLE_HINT_BUDGET = Budget(None, 50)


def puzzle_hint_case(type_name: str, seed: int) -> tuple[object, object]:
    """A freshly generated puzzle (no solver caches yet, as the game gets it) and a random state
    reachable from its start: a prefix of the optimal plan, then up to 8 random moves (kept only
    while the state can still be solved, so the hint has a move to give)."""
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


def puzzle_lines(count: int) -> Iterator[str]:
    """Per type at very-hard: generation, and one hint from a random reachable state (on at
    most 50 seeds); then, when keydoor is among the types, its measures (``keydoor_lines``)."""
    n = min(count, 50)
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

    if "keydoor" in puzzles.TYPES:
        yield from keydoor_lines(count)


def keydoor_lines(count: int) -> Iterator[str]:
    """Per difficulty, over at most 100 seeds: the share of keydoor instances where forbidding
    ``drop`` lengthens the optimum, the share where the greedy player misses par (see
    :func:`roguelike.puzzles.keydoor.greedy_plan`), and the median number of optimal plans
    (targets at very-hard: at least 60% and 80%)."""
    n = min(count, 100)
    for difficulty in keydoor.PAR:
        ms = [keydoor.measures(keydoor.generate(difficulty, seed)) for seed in range(n)]
        drop = sum(m.drop_matters for m in ms) / n
        greedy = sum(m.greedy_misses for m in ms) / n
        plans = statistics.median(m.optimal_plans for m in ms)
        yield (
            f"puzzle keydoor {difficulty}: drop matters {drop:.0%}, greedy misses par"
            f" {greedy:.0%}, optimal plans median {plans:g} ({n} seeds)"
        )


def puzzle_score_lines(count: int) -> Iterator[str]:
    """Per type and level (on at most 30 seeds): the difficulty score's median, the scores
    observed (lowest..highest), the level's band and the share of puzzles inside it."""
    n = min(count, 30)
    for type_name in puzzles.TYPES:
        for level in puzzles.DIFFICULTIES:
            scores = sorted(
                scoring.measure(puzzles.generate(type_name, level, seed)).score for seed in range(n)
            )
            lo, hi = scoring.BANDS[level]
            inside = sum(lo <= x < hi for x in scores) / n
            note = " (not drawn into bands)" if (type_name, level) in scoring.UNBANDED else ""
            yield (
                f"puzzle {type_name} {level}: score n={n} p50={scores[n // 2]:.1f} "
                f"observed {scores[0]:.1f}..{scores[-1]:.1f}  band {lo:g}..{hi:g}  "
                f"in band {inside:.0%}{note}"
            )


PARTS: dict[str, Callable[[int], Iterator[str]]] = {
    "puzzle": lambda count: chain(puzzle_lines(count), puzzle_score_lines(count))
}
