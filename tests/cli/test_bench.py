"""``roguelike bench``: each part prints its lines, with percentiles and budgets."""

import subprocess
import sys

import pytest

from roguelike import puzzles, seeds
from roguelike.autoplay import FULL, Result, bot_seeds
from roguelike.cli import bench, main
from roguelike.cli.bench import bot as bot_bench
from roguelike.cli.bench import recording as recording_bench
from roguelike.cli.bench import saves as saves_bench
from roguelike.cli.bench.puzzle import keydoor_lines, puzzle_lines, puzzle_score_lines
from roguelike.puzzles.difficulty import BANDS
from tests.saves.support import SEED, fresh_game, world_of


def test_bench_prints_percentiles_and_budgets(capsys):
    assert main(["bench", "--seeds", "3", "--only", "topology"]) == 0
    out = capsys.readouterr().out
    assert "p50=" in out and "p99=" in out and "of 20 ms" in out and "ok=100.0%" in out


def test_only_one_part_runs_and_loads_its_module_alone():
    code = (
        "import sys; from roguelike.cli import main; "
        "assert main(['bench', '--seeds', '2', '--only', 'topology']) == 0; "
        "assert 'textual' not in sys.modules and 'roguelike.cli.bench.ui' not in sys.modules"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "roguelike bench · 2 seeds per set · times in ms"
    assert len(lines) == 1 + 4 and all(line.startswith("topology ") for line in lines[1:])


def test_every_part_is_measured_by_the_module_the_table_names():
    from importlib import import_module

    for part, module in bench.PARTS.items():
        assert part in import_module(module).PARTS


def test_the_help_names_every_policy_the_bot_part_takes(capsys):
    # the help once listed all but no-unknown (the ablation issue 25 measures), so a bench
    # was run with no-items in its place
    assert tuple(bot_bench.POLICIES) == bench.POLICY_NAMES
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    listed = help_text.split("played at normal, by comma (", 1)[1].split(")", 1)[0]
    assert listed.replace(" ", "").split(",") == list(bot_bench.POLICIES)


def test_a_failing_seed_is_counted_and_a_budget_overrun_shown():
    def slow_or_failing(seed: int) -> None:
        if seed == 1:
            raise ValueError("a generator bug")

    line = bench.measure("x", 4, slow_or_failing, bench.Budget(p50_ms=1e-6)).line()
    assert "n=4" in line and "ok= 75.0%" in line and "OVER" in line


def test_the_puzzle_lines(monkeypatch):
    monkeypatch.setattr("roguelike.puzzles.TYPES", ("jugs",))
    lines = list(puzzle_lines(2))
    assert len(lines) == 2
    assert lines[0].startswith("puzzle jugs very-hard: generate") and "of 200 ms" in lines[0]
    assert lines[1].startswith("puzzle jugs very-hard: hint") and "of 50 ms" in lines[1]


def test_the_keydoor_lines():
    lines = list(keydoor_lines(2))
    assert [line.split(":")[0] for line in lines] == [
        f"puzzle keydoor {d}" for d in ("easy", "medium", "hard", "very-hard")
    ]
    # the generator keeps only very-hard instances where drop matters
    assert "drop matters 100%, greedy misses par 100%" in lines[-1] and "(2 seeds)" in lines[-1]


def test_the_puzzle_score_lines(monkeypatch):
    monkeypatch.setattr("roguelike.puzzles.REGISTRY", (puzzles.kind("stomp"),))
    lines = list(puzzle_score_lines(3))
    assert [line.split(":")[0] for line in lines] == [
        f"puzzle stomp {level}" for level in ("easy", "medium", "hard", "very-hard")
    ]
    lo, hi = BANDS["hard"]
    assert "score n=3 p50=" in lines[2] and f"band {lo:g}..{hi:g}" in lines[2]
    assert lines[2].endswith("in band 100%")  # stomp is drawn into the bands


def test_the_save_lines(monkeypatch):
    state = fresh_game(SEED)
    monkeypatch.setattr(saves_bench, "five_floor_game", lambda: (world_of(state), state, []))
    lines = list(saves_bench.save_bench_lines(20))
    assert "save a 5-floor game" in lines[0] and "of 50 ms" in lines[0] and "p99=" in lines[0]
    assert "load a 5-floor game" in lines[1] and "of 100 ms" in lines[1]
    assert "KiB" in lines[2]


def test_the_bot_lines_give_the_win_rate_and_every_loss(monkeypatch):
    asked = []
    extra = {"easy": -1, "normal": 0, "hard": 2}

    def play_many(worlds, preset, jobs=0, policy=FULL, difficulty="normal"):
        """The full bot loses the first world at normal (none at easy, three at hard); without
        items it loses two more; without treasure one more; invulnerable it wins them all (the
        curve's shape, in small)."""
        asked.append((len(worlds), preset, policy, difficulty))
        lose = (
            0 if policy.invulnerable else 3 if policy.no_items else 2 if policy.skip_treasure else 1
        ) + (0 if policy.invulnerable else extra[difficulty])
        return [
            Result(
                seed, i >= lose, 5, 1000, "escaped" if i >= lose else "killed by a troll",
                2.0, 0.5, died_on=None if i >= lose else 1 + i, items_used=3,
                arrivals=((1, 30, 3.5, 0), (2, 40, 5.0, 1)),
                monsters=((1, 10, 6.0, 2.0), (2, 12, 8.0, 3.0)),
            )
            for i, seed in enumerate(worlds)
        ]  # fmt: skip

    monkeypatch.setattr(bot_bench, "play_many", play_many)
    lines = list(bot_bench.PARTS["bot"](500))
    n = bot_bench.BENCH_WORLDS  # --seeds above 100: 100 worlds
    assert all((k, p) == (n, "normal") for k, p, *_ in asked)
    ablations = [
        f"--{name}"
        for name, policy in bot_bench.POLICIES.items()
        if name not in ("full", "invulnerable")
    ]
    expected = []
    for level in ("easy", "normal", "hard"):  # no set of worlds played twice
        expected += [("", level)] + [(flag, level) for flag in ablations]
        if level == "normal":  # the map is the same at every level: proved once
            expected.append(("--invulnerable", "normal"))
    assert [(p.describe(), d) for *_, p, d in asked] == expected
    # the speed and the losses come from the full autoplayer's set at normal
    at = next(i for i, x in enumerate(lines) if x.startswith("autoplayer speed"))
    assert lines[at].startswith("autoplayer speed, 100 normal worlds: 500 turns/s p50")
    assert "1,000 turns a world p50" in lines[at]
    assert lines[at - 1].startswith("  ") and "curve, normal, full" in "\n".join(lines[:at])
    assert "lowest HP 50% of max p50" in lines[at + 1] and "1 deaths" in lines[at + 1]
    first = seeds.encode(bot_seeds(1)[0])
    assert lines[at + 2] == f"  lost {first}: killed by a troll"
    assert sum(x.startswith("autoplayer speed") for x in lines) == 1
    text = "\n".join(lines)
    assert "curve, normal, full: 99/100 normal normal worlds won (99%)" in text
    assert "curve, hard, no-items: 95/100 normal hard worlds won (95%) (--no-items)" in text
    assert "deaths 3 by floor (1: 1, 2: 1, 3: 1; the worst floor holds 33%)" in text
    assert (
        "normal: curve targets: full wins 99% (40-70%: MISSED) · worst floor 100% of deaths "
        "(≤ 35%: MISSED) · floors 2-3 0% of deaths (≥ 20%: MISSED) · consumables in a won "
        "run 3.0 p50 (≥ 4: MISSED)"
    ) in lines
    (normal,) = [x for x in lines if x.startswith("normal: curve targets: no items")]
    assert "no items 97% (≤ half the full: MISSED)" in normal
    assert "skip treasure 98% (under the full, over 0: ok)" in normal
    assert normal.endswith("invulnerable 100% (100%: ok)")
    (moves,) = [x for x in lines if x.startswith("difficulty:")]
    assert "easy 100% (+1) · normal 99% · hard 97% (-2)" in moves and moves.endswith("ok")
    power = [x for x in lines if x.startswith("power, ")]
    assert [x.split(":")[0] for x in power] == ["power, easy", "power, normal", "power, hard"]
    assert (
        "  floor 2 (100 runs): player 40 HP, attack 5, defence 1 · monsters 12 of 8 HP "
        "hitting 3 a turn"
    ) in lines


def test_the_recording_lines_measure_a_real_run():
    """One small world of one floor, played, recorded, replayed and sized for real."""
    lines = list(recording_bench.bench_lines(1, "small", 1))
    assert len(lines) == 3
    assert lines[0].startswith("recording overhead, 1 small worlds of 1 floors: add p50=")
    assert "of a turn's cost p50" in lines[0] and "target < 2%" in lines[0]
    assert lines[1].startswith("replay headless: ") and lines[1].endswith("in sync 1/1")
    assert lines[2].startswith("recording size: ") and "bytes per 1,000 turns p50" in lines[2]


def test_the_recording_lines_give_medians_and_the_target(monkeypatch):
    def world(turns: int, step_ms: float, add_ms: float, size: int) -> object:
        return recording_bench.WorldFigures(
            turns=turns,
            actions=turns // 10,
            step_s=[step_ms / 1000] * (turns // 10),
            add_s=[add_ms / 1000] * (turns // 10),
            turns_each=[10] * (turns // 10 - 1) + [1],
            replay_s=turns / 1000,
            in_sync=True,
            size=size,
        )

    # shares 1% and 5%: p50 3%, over the target
    figures = [world(1000, 1.0, 0.01, 500), world(1000, 1.0, 0.05, 2500)]
    lines = list(recording_bench.lines_of(figures, "2 test worlds"))
    assert "3.00% of a turn's cost p50, 5.00% at worst (target < 2% OVER)" in lines[0]
    assert lines[0].endswith("· 3.00% of a one-turn action's p50")
    assert "add p50=30.0 µs" in lines[0] and "3.00 µs a turn of 100 µs" in lines[0]
    assert "1,000 turns/s p50 (slowest 1,000)" in lines[1] and "in sync 2/2" in lines[1]
    assert "1,500 bytes per 1,000 turns p50 (2,500 at most" in lines[2]
    figures = [world(1000, 1.0, 0.01, 500)]
    assert "(target < 2% ok)" in next(recording_bench.lines_of(figures, "1 test world"))


def test_the_bot_bench_counts_the_puzzles_met_and_splits_the_score():
    """Pedestals per floor and per run, the types met, a floor holding one type twice, and a
    won run's score split into the dungeon's terms and the puzzles'."""
    won = Result(
        1,
        True,
        2,
        5000,
        "escaped",
        1.0,
        pedestals=((1, "jugs", False), (1, "ball", False), (2, "stomp", False), (2, "jugs", True)),
        puzzle_scores=(100, 80, 60),
        kills=40,
    )
    lost = Result(
        2, False, 2, 900, "killed by a troll", 1.0,
        pedestals=((1, "ball", False), (1, "ball", False)), kills=3,
    )  # fmt: skip
    lines = list(bot_bench.puzzle_lines([won, lost]))
    assert lines[0].startswith("puzzles met, 2 worlds: 2 a floor p50")
    assert "at most 2 besides seals, 2 in all" in lines[0]
    assert "1 floors with one type twice" in lines[0]
    assert "won runs (1): 4 a run p50 (4-4), 3 types met p50 (3-3)" in lines[0]
    # dungeon: 200 × 2 + 5 × 40 + 1000 + (1000 − 500); puzzles: 240
    assert "dungeon (depth, kills, winning, speed) 2,100 p50 against puzzles 240 p50" in lines[1]
    assert "puzzles 10% of the score p50" in lines[1] and "dungeon ≥ puzzles in 1 of 1" in lines[1]


async def test_the_serve_benchs_wait_for_a_quiet_screen_has_a_deadline():
    """A game that keeps drawing (an animation, the bot) fails the bench in one line; it
    does not hang it."""
    import asyncio

    import pytest

    from roguelike.cli import Fail
    from roguelike.cli.bench.serve import Client

    client = Client(1, session=None)  # type: ignore[arg-type]
    client.arrivals = asyncio.Queue()

    async def drawing() -> None:
        while True:
            client.arrivals.put_nowait(0.0)
            await asyncio.sleep(0.01)

    drawer = asyncio.create_task(drawing())
    try:
        with pytest.raises(Fail, match="kept drawing"):
            await asyncio.wait_for(client.settle(0.05, patience=0.3), 20)  # a guard
    finally:
        drawer.cancel()
    client.arrivals = asyncio.Queue()
    await asyncio.wait_for(client.settle(0.05, patience=5), 20)  # a quiet screen settles
