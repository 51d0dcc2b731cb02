"""``roguelike bench --only bot``: the autoplayer on normal worlds (the texts ``bot-1`` …): its
win rate, how fast it plays, how close it came to dying, and every loss; then the difficulty
curve: the same worlds played by the full autoplayer, without consumables, without treasure
rooms and invulnerable, against the curve's targets (:data:`FULL_WIN` and the rest), at
normal and at the difficulties around it (how much easier and harder move the win rate), and
the power curves: the player on arriving at each floor beside the monsters placed there.
``--difficulties`` and ``--policies`` choose what is played, ``--seeds`` how many worlds."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from roguelike import seeds
from roguelike.autoplay import Policy, Result, bot_seeds, play_many, power_curves, summary
from roguelike.cli import Fail
from roguelike.cli.bot import summary_text
from roguelike.engine.balance import DEFAULT_DIFFICULTY, DIFFICULTIES
from saves.runs import score_parts
from saves.text import printable

#: Worlds the autoplayer plays (fewer if ``--seeds`` is lower), and their size.
BENCH_WORLDS = 100
BENCH_PRESET = "normal"


def speed_lines(results: list[Result], preset: str = BENCH_PRESET) -> Iterator[str]:
    """How fast the autoplayer plays (turns per second of a whole run: floors generated,
    puzzles solved, monsters moved), how close its runs came to death, and every loss, from
    the results of one set of worlds (the full autoplayer at normal: the bench plays no set
    twice)."""
    rate = np.array([r.turns / r.seconds for r in results if r.seconds > 0] or [float("nan")])
    secs = np.array([r.seconds for r in results])
    turns = np.array([r.turns for r in results])
    p10, p50 = np.percentile(rate, [10, 50])
    s50, s99 = np.percentile(secs, [50, 99])
    yield (
        f"autoplayer speed, {len(results)} {preset} worlds: {p50:,.0f} turns/s p50 (slowest "
        f"tenth under {p10:,.0f}) · {np.median(turns):,.0f} turns a world p50 · {s50:.1f} s a "
        f"world p50, {s99:.1f} s p99"
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


def stuck_lines(results: list[Result]) -> Iterator[str]:
    """Each world of ``results`` the autoplayer gave up on, by its code: a stuck world is a
    bot bug to chase (the invulnerable bot's one stuck world in 100 was named nowhere)."""
    for r in results:
        if r.cause.startswith("stuck"):
            yield f"  {r.cause}: {seeds.encode(r.seed)}"


def puzzle_lines(results: list[Result]) -> Iterator[str]:
    """The puzzle rooms met and what they weigh in the score, from the full autoplayer's
    results: pedestals per floor (vaults' seals and all) and per run, the types met in a run,
    the most on one floor and any floor holding one type twice; then the score of the won runs
    split into the dungeon's terms (depth, kills, winning, speed) and the puzzles'."""
    per_floor: dict[tuple[int, int], list[tuple[str, bool]]] = {}
    for r in results:
        for number, kind, seal in r.pedestals:
            per_floor.setdefault((r.seed, number), []).append((kind, seal))
        for number in range(1, r.floors + 1):
            per_floor.setdefault((r.seed, number), [])
    counts = [len(v) for v in per_floor.values()]
    keys_only = [sum(not seal for _, seal in v) for v in per_floor.values()]
    twice = sum(len({k for k, _ in v}) < len(v) for v in per_floor.values())
    won = [r for r in results if r.won]
    runs = [len(r.pedestals) for r in won]
    met = [len({kind for _, kind, _ in r.pedestals}) for r in won]
    if not counts:
        return
    yield (
        f"puzzles met, {len(results)} worlds: {np.median(counts):g} a floor p50 "
        f"({np.median(keys_only):g} besides seals; at most {max(keys_only)} besides seals, "
        f"{max(counts)} in all) · {twice} floors with one type twice"
        + (
            f" · won runs ({len(won)}): {np.median(runs):g} a run p50 "
            f"({min(runs)}-{max(runs)}), {np.median(met):g} types met p50 ({min(met)}-{max(met)})"
            if won
            else ""
        )
    )
    if not won:
        return
    dungeon, puzzle = [], []
    for r in won:
        parts = {
            p.name: p.points
            for p in score_parts(True, r.floors, r.turns, list(r.puzzle_scores), kills=r.kills)
        }
        puzzle.append(parts.pop("puzzles"))
        dungeon.append(sum(parts.values()))
    shares = [p / (p + d) for d, p in zip(dungeon, puzzle, strict=True)]
    ahead = sum(d >= p for d, p in zip(dungeon, puzzle, strict=True))
    kills = [r.kills for r in won]
    yield (
        f"score split, {len(won)} won runs: dungeon (depth, kills, winning, speed) "
        f"{np.median(dungeon):,.0f} p50 against puzzles {np.median(puzzle):,.0f} p50 · puzzles "
        f"{100 * np.median(shares):.0f}% of the score p50, {100 * max(shares):.0f}% at most · "
        f"dungeon ≥ puzzles in {ahead} of {len(won)} · kills {np.median(kills):g} p50"
    )


#: The difficulty curve the measuring switches are held to (``bot --seeds N`` reports the same
#: figures for one policy at a time).
FULL_WIN = (0.40, 0.70)
FLOOR_SHARE_MAX = 0.35
#: Floors 2 and 3 together hold at least this share of the deaths (danger does not wait for
#: the last floors).
MIDDLE_SHARE_MIN = 0.20
WON_ITEMS_MIN = 4
#: The ablations of the systems of play, each of which must win less than the full
#: autoplayer: (name in POLICIES, what it leaves out).
UNDER_FULL = (
    ("no-unknown", "never an unknown item"),
    ("ignore-fire", "ignoring fire"),
    ("no-sneak", "never sneaking"),
    ("first-perk", "the first perk offered"),
    ("naive-monsters", "naive of breathers and ghosts"),
)

#: The policies the curve plays at normal, by the name ``--policies`` takes.
POLICIES: dict[str, Policy] = {
    "full": Policy(),
    "no-items": Policy(no_items=True),
    "skip-treasure": Policy(skip_treasure=True),
    "no-sneak": Policy(no_sneak=True),
    "ignore-fire": Policy(ignore_fire=True),
    "first-perk": Policy(first_perk=True),
    "naive-monsters": Policy(naive_monsters=True),
    "no-unknown": Policy(no_unknown=True),
    "invulnerable": Policy(invulnerable=True),
}
#: The difficulties the curve compares by default: normal and the levels around it.
BENCH_DIFFICULTIES = ("easy", "normal", "hard")


def bot_options(difficulties: str | None, policies: str | None) -> dict[str, Any]:
    """The bench's ``--difficulties`` and ``--policies`` (comma lists) as keyword arguments
    of :func:`bot_lines`; Fail names a word that is neither."""
    out: dict[str, Any] = {}
    for key, text, known in (
        ("difficulties", difficulties, tuple(DIFFICULTIES)),
        ("policies", policies, tuple(POLICIES)),
    ):
        if text is None:
            continue
        words = tuple(w.strip() for w in text.split(",") if w.strip())
        bad = [w for w in words if w not in known]
        if bad or not words:
            shown = printable(", ".join(bad)) if bad else "nothing"
            raise Fail(f"--{key}: {shown} is not one of {', '.join(known)}")
        out[key] = tuple(dict.fromkeys(words))
    return out


def mark(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def target_lines(found: dict[str, dict[str, Any]]) -> Iterator[str]:
    """The curve's targets, for the summaries of the policies played (by their names in
    :data:`POLICIES`); a target whose policies were not played is left out."""
    rate = {k: float(v["win_rate"]) for k, v in found.items()}
    full = found.get("full")
    if full is not None:
        lo, hi = FULL_WIN
        share = full["largest_floor_share"]
        won_items = full["items_used_won_p50"]
        middle = full.get("floors_2_3_share")
        yield (
            f"curve targets: full wins {100 * rate['full']:.0f}% "
            f"({100 * lo:.0f}-{100 * hi:.0f}%: {mark(lo <= rate['full'] <= hi)}) · worst floor "
            + ("holds no deaths" if share is None else f"{100 * float(share):.0f}% of deaths")
            + f" (≤ {100 * FLOOR_SHARE_MAX:.0f}%: "
            + f"{mark(share is not None and float(share) <= FLOOR_SHARE_MAX)})"
            + " · floors 2-3 "
            + ("hold no deaths" if middle is None else f"{100 * float(middle):.0f}% of deaths")
            + f" (≥ {100 * MIDDLE_SHARE_MIN:.0f}%: "
            + f"{mark(middle is not None and float(middle) >= MIDDLE_SHARE_MIN)})"
            + f" · consumables in a won run {won_items} p50 (≥ {WON_ITEMS_MIN}: "
            f"{mark(won_items is not None and float(won_items) >= WON_ITEMS_MIN)})"
        )
    parts = []
    if full is not None and "no-items" in rate:
        parts.append(
            f"no items {100 * rate['no-items']:.0f}% (≤ half the full: "
            f"{mark(rate['no-items'] <= rate['full'] / 2)})"
        )
    if full is not None and "skip-treasure" in rate:
        parts.append(
            f"skip treasure {100 * rate['skip-treasure']:.0f}% (under the full, over 0: "
            f"{mark(0 < rate['skip-treasure'] < rate['full'])})"
        )
    for name, what in UNDER_FULL:
        if full is not None and name in rate:
            parts.append(
                f"{what} {100 * rate[name]:.0f}% (under the full: "
                f"{mark(rate[name] < rate['full'])})"
            )
    if "invulnerable" in rate:
        parts.append(
            f"invulnerable {100 * rate['invulnerable']:.0f}% (100%: "
            f"{mark(rate['invulnerable'] == 1)})"
        )
    if parts:
        yield "curve targets: " + " · ".join(parts)


def difficulty_lines(rates: dict[str, float]) -> Iterator[str]:
    """How the full autoplayer's win rate moves with the difficulty (``rates``: by level, in
    the order of :data:`DIFFICULTIES`): each level against normal, and whether easier wins
    more and harder less."""
    order = [d for d in DIFFICULTIES if d in rates]
    if len(order) < 2:
        return
    base = rates.get(DEFAULT_DIFFICULTY)
    shown = " · ".join(
        f"{d} {100 * rates[d]:.0f}%"
        + ("" if base is None or d == DEFAULT_DIFFICULTY else f" ({100 * (rates[d] - base):+.0f})")
        for d in order
    )
    falling = all(rates[a] >= rates[b] for a, b in zip(order, order[1:], strict=False))
    yield (
        f"difficulty: full bot wins {shown} (points against normal) · "
        f"easier wins more, harder less: {mark(falling)}"
    )


def power_lines(name: str, results: list[Result]) -> Iterator[str]:
    """The power curves of ``results``: the player on arriving at each floor beside the
    monsters placed there."""
    yield (
        f"power, {name}: floor · player HP p50, attack mean, defence mean · "
        "monsters placed, their HP mean, damage a turn mean"
    )
    for row in power_curves(results):
        yield (
            f"  floor {row['floor']} ({row['runs']} runs): player {row['hp_p50']:g} HP, "
            f"attack {row['attack_mean']:g}, defence {row['defence_mean']:g} · "
            f"monsters {row['monsters_mean']:g} of {row['monster_hp_mean']:g} HP "
            f"hitting {row['monster_dpt_mean']:g} a turn"
        )


def curve_lines(
    worlds: int,
    preset: str = BENCH_PRESET,
    *,
    difficulties: tuple[str, ...] = BENCH_DIFFICULTIES,
    policies: tuple[str, ...] = tuple(POLICIES),
) -> Iterator[str]:
    """The difficulty curve on ``worlds`` worlds: at normal, each of ``policies`` (the full
    autoplayer, its two ablations and the invulnerable one), against the targets above; then
    the full autoplayer at each other of ``difficulties`` with its ablations, and how much
    easier and harder move the win rate; last the power curves of the full autoplayer at each
    difficulty."""
    rates: dict[str, float] = {}
    powers: dict[str, list[Result]] = {}
    levels = [d for d in DIFFICULTIES if d in difficulties or d == DEFAULT_DIFFICULTY]
    for level in levels:
        found: dict[str, dict[str, Any]] = {}
        # the ablations are measured at every level; the invulnerable proof at normal only
        # (the difficulty never changes a floor, so it proves every level at once)
        names = [p for p in policies if p != "invulnerable" or level == DEFAULT_DIFFICULTY]
        if level != DEFAULT_DIFFICULTY and "full" not in names:
            names.insert(0, "full")
        for name in names:
            policy = POLICIES[name]
            start = time.perf_counter()
            results = play_many(bot_seeds(worlds), preset, policy=policy, difficulty=level)
            stats = summary(results)
            found[name] = stats
            if name == "full":
                rates[level] = float(stats["win_rate"])
                powers[level] = results
            text = summary_text(stats, preset, policy, level).rstrip("\n").splitlines()
            yield f"curve, {level}, {name}: {text[0]} · {time.perf_counter() - start:.0f} s wall"
            yield from (f"  {line.strip()}" for line in text[1:])
            if name == "full" and level == DEFAULT_DIFFICULTY:
                yield from speed_lines(results, preset)  # every loss, the stuck ones too
                yield from puzzle_lines(results)
            else:
                yield from stuck_lines(results)
        yield from (f"{level}: {line}" for line in target_lines(found))
    yield from difficulty_lines(rates)
    for level, results in powers.items():
        yield from power_lines(level, results)


def bot_lines(
    count: int,
    *,
    difficulties: tuple[str, ...] = BENCH_DIFFICULTIES,
    policies: tuple[str, ...] = tuple(POLICIES),
) -> Iterator[str]:
    """The bench's autoplayer lines for ``--seeds`` ``count``: at most BENCH_WORLDS worlds,
    the curve at each of ``difficulties`` for each of ``policies``."""
    worlds = min(count, BENCH_WORLDS)
    yield from curve_lines(worlds, BENCH_PRESET, difficulties=difficulties, policies=policies)


PARTS: dict[str, Callable[..., Iterator[str]]] = {"bot": bot_lines}
