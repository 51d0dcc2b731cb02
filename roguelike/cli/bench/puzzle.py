"""``roguelike bench --only puzzle``: each puzzle type at very-hard, generated (budget
p99 ≤ 200 ms) and asked for one hint from a random reachable state (budget p99 ≤ 50 ms), then for
one hint of each tier a visit sells (two nudges, the milestone, the move: ``puzzle_tier_lines``,
budget p99 ≤ 50 ms); then every type at every difficulty asked for a hint
(:func:`roguelike.puzzles.advise`) from FAR states: up to 60 random moves off the generated
line, or back at the start after a reset (budget p99 ≤ 50 ms); per difficulty, how much the
keydoor's one-slot hand matters (``keydoor_lines``); then each type at every level, the
difficulty scores of its generated puzzles against the level's band."""

from __future__ import annotations

import contextlib
import statistics
from collections.abc import Callable, Iterator
from itertools import chain
from typing import Any

from roguelike import puzzles, seeds
from roguelike.cli.bench import Budget, measure
from roguelike.puzzles import difficulty as scoring
from roguelike.puzzles import keydoor_gen, keydoor_measures
from roguelike.puzzles.visit import MILESTONE_TIER, MOVE_TIER, Visit

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
    :func:`roguelike.puzzles.keydoor_measures.greedy_plan`), and the median number of optimal plans
    (targets at very-hard: at least 60% and 80%)."""
    n = min(count, 100)
    for difficulty in keydoor_gen.PAR:
        ms = [
            keydoor_measures.measures(keydoor_gen.generate(difficulty, seed)) for seed in range(n)
        ]
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
    for kind in puzzles.REGISTRY:
        type_name = kind.name
        for level in puzzles.DIFFICULTIES:
            scores = sorted(
                scoring.measure(puzzles.generate(type_name, level, seed)).score for seed in range(n)
            )
            lo, hi = scoring.BANDS[level]
            inside = sum(lo <= x < hi for x in scores) / n
            note = "" if scoring.drawn(kind, level) else " (not drawn into bands)"
            yield (
                f"puzzle {type_name} {level}: score n={n} p50={scores[n // 2]:.1f} "
                f"observed {scores[0]:.1f}..{scores[-1]:.1f}  band {lo:g}..{hi:g}  "
                f"in band {inside:.0%}{note}"
            )


#: Random moves off the generated line, at most, for the far-state hints.
FAR_WALK = 60


def far_hint_case(type_name: str, difficulty: str, seed: int) -> tuple[Any, Any, list[Any]]:
    """(puzzle, state, trail) as a player who strayed meets it: the instance as the game holds
    it (generated: a pedestal's puzzle is generated on first use and after a save is loaded,
    and kept while the game runs, see ``PuzzleRoom.puzzle``), a prefix of the optimal plan, then
    up to FAR_WALK random moves (the trail keeps the states passed). On odd seeds the player
    then asks for a hint there and starts again: the case is the start after that reset."""
    scout = puzzles.generate(type_name, difficulty, seed)
    p = puzzles.generate(type_name, difficulty, seed)
    rng = seeds.stream(seed, 0, f"bench:puzzle-far:{type_name}:{difficulty}")
    plan = scout.solve(scout.initial()) or []
    s, trail = p.initial(), []
    for m in plan[: int(rng.integers(0, len(plan) + 1))]:
        trail.append(s)
        s = p.apply(s, m)
    for _ in range(int(rng.integers(0, FAR_WALK + 1))):
        moves = p.moves(s)
        if not moves:
            break
        trail.append(s)
        s = p.apply(s, moves[int(rng.integers(0, len(moves)))])
    if seed % 2:
        with contextlib.suppress(puzzles.Unsolvable):
            puzzles.advise(p, s, trail=trail)
        s, trail = p.initial(), []
    return p, s, trail


def far_hint(p: Any, s: Any, trail: list[Any]) -> object:
    try:
        return puzzles.advise(p, s, trail=trail)
    except puzzles.Unsolvable:  # a dead end with nothing to undo: the answer is "reset"
        return None


def puzzle_far_lines(count: int) -> Iterator[str]:
    """Per type and difficulty: a hint from a far state (on at most 30 seeds)."""
    n = min(count, 30)
    for type_name in puzzles.TYPES:
        for difficulty in puzzles.DIFFICULTIES:
            cases = {seed: far_hint_case(type_name, difficulty, seed) for seed in range(n)}

            def hint(
                seed: int, t: str = type_name, d: str = difficulty, cases: dict = cases
            ) -> object:
                return far_hint(*(cases[seed] if seed in cases else far_hint_case(t, d, seed)))

            yield measure(
                f"puzzle {type_name} {difficulty}: hint far", n, hint, PUZZLE_HINT_BUDGET
            ).line()


#: The hint tiers a visit sells, by number, as the tier lines name them.
TIERS: dict[int, str] = {1: "nudge 1", 2: "nudge 2", MILESTONE_TIER: "milestone", MOVE_TIER: "move"}


def tier_visit(p: Any, s: Any, tier: int) -> Visit:
    """A visit to a fresh copy of ``p`` (no solver caches, as after a save is loaded) at ``s``,
    with the hints below ``tier`` bought, as a player pressing ``h`` again has them."""
    visit = Visit(puzzles.from_json(p.to_json()), s, coins=MOVE_TIER + 1)
    for _ in range(tier - 1):
        visit.hint(False)
    return visit


def puzzle_tier_lines(count: int) -> Iterator[str]:
    """Per type at very-hard and per hint tier (on at most 30 seeds): the hint of that tier
    bought from a random reachable state (``puzzle_hint_case``), in a visit to a fresh copy of
    the puzzle where the tiers below it were bought (so tier 1 pays for the cold solve, and the
    milestone is what the third ``h`` waits for); budget p99 ≤ 50 ms."""
    n = min(count, 30)
    for type_name in puzzles.TYPES:
        cases = {seed: puzzle_hint_case(type_name, seed) for seed in range(n)}
        for tier, label in TIERS.items():
            visits = {seed: tier_visit(p, s, tier) for seed, (p, s) in cases.items()}

            def hint(
                seed: int, t: str = type_name, tier: int = tier, visits: dict = visits
            ) -> object:
                visit = (
                    visits[seed] if seed in visits else tier_visit(*puzzle_hint_case(t, seed), tier)
                )
                return visit.hint(False)

            yield measure(
                f"puzzle {type_name} {PUZZLE_DIFFICULTY}: hint tier {tier} ({label})",
                n,
                hint,
                PUZZLE_HINT_BUDGET,
            ).line()


def all_puzzle_lines(count: int) -> Iterator[str]:
    return chain(
        puzzle_lines(count),
        puzzle_tier_lines(count),
        puzzle_far_lines(count),
        puzzle_score_lines(count),
    )


PARTS: dict[str, Callable[[int], Iterator[str]]] = {"puzzle": all_puzzle_lines}
