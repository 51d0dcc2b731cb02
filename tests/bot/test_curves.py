"""The difficulty instrument's arithmetic on made-up results: the summary, the power curves,
the targets and the comparison across difficulties, and the bench's and bot's options."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike import seeds
from roguelike.autoplay import Result, power_curves, summary
from roguelike.cli import Fail
from roguelike.cli.bench.bot import bot_options, difficulty_lines, stuck_lines, target_lines


def result(
    won: bool,
    died_on: int | None = None,
    *,
    used: int = 0,
    low: float = 0.5,
    arrivals: tuple[tuple[int, int, float, int], ...] = (),
    monsters: tuple[tuple[int, int, float, float], ...] = (),
) -> Result:
    cause = "escaped" if won else (f"killed on floor {died_on}" if died_on else "stuck on floor 2")
    return Result(
        1, won, 5 if won else (died_on or 2), 100, cause, 1.0, low, died_on, used, 0, 0,
        arrivals, monsters,
    )  # fmt: skip


def test_summary_counts_wins_deaths_by_floor_and_consumables_of_won_runs():
    results = [
        result(True, used=3, low=0.4),
        result(True, used=5, low=0.2),
        result(False, 2, used=1, low=0.0),
        result(False, 2, used=0, low=0.0),
        result(False, 4, used=2, low=0.0),
        result(False, None),  # stuck: not a death
    ]
    s = summary(results)
    assert (s["worlds"], s["won"], s["deaths"], s["stuck"]) == (6, 2, 3, 1)
    assert s["win_rate"] == round(2 / 6, 3)
    assert s["deaths_by_floor"] == {"2": 2, "4": 1}
    assert s["largest_floor_share"] == round(2 / 3, 3)
    assert s["items_used_won_p50"] == 4.0 and s["lowest_hp_min"] == 0.0
    # the bench names the world stuck, so it can be played again (a stuck world is a bot bug)
    assert list(stuck_lines(results)) == [f"  stuck on floor 2: {seeds.encode(1)}"]


def test_power_curves_average_each_floor_over_the_runs_that_reached_it():
    a = result(
        True,
        arrivals=((1, 30, 3.5, 0), (2, 40, 5.5, 2)),
        monsters=((1, 10, 6.0, 2.0), (2, 12, 9.0, 3.0)),
    )
    b = result(False, 1, arrivals=((1, 30, 3.5, 0),), monsters=((1, 20, 8.0, 4.0),))
    rows = power_curves([a, b])
    assert [r["floor"] for r in rows] == [1, 2]
    one, two = rows
    assert one["runs"] == 2 and one["hp_p50"] == 30 and one["monster_hp_mean"] == 7.0
    assert one["monster_dpt_mean"] == 3.0 and one["monsters_mean"] == 15.0
    assert two["runs"] == 1 and two["attack_mean"] == 5.5 and two["defence_mean"] == 2


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(1, 5)), min_size=1, max_size=30))
def test_the_summary_adds_up_for_any_results(runs):
    results = [result(w, None if w else f) for w, f in runs]
    s = summary(results)
    assert s["won"] + s["deaths"] + s["stuck"] == s["worlds"] == len(runs)
    assert sum(s["deaths_by_floor"].values()) == s["deaths"]
    if s["deaths"]:
        assert 1 / 5 - 1e-9 <= s["largest_floor_share"] <= 1


def stats(
    rate: float,
    share: float | None = 0.3,
    won_items: float | None = 5,
    middle: float | None = 0.3,
) -> dict:
    return {
        "win_rate": rate,
        "largest_floor_share": share,
        "floors_2_3_share": middle,
        "items_used_won_p50": won_items,
    }


ABLATIONS = ("no-unknown", "ignore-fire", "no-sneak", "first-perk", "naive-monsters")


def test_targets_are_met_and_missed_by_the_rules_of_the_issue():
    met = {
        "full": stats(0.6),
        "no-items": stats(0.3),
        "skip-treasure": stats(0.5),
        "invulnerable": stats(1.0),
        **{name: stats(0.5) for name in ABLATIONS},
    }
    text = "\n".join(target_lines(met))
    # full's four (win rate, worst floor, floors 2-3, consumables), no items, skip treasure,
    # each ablation under the full, invulnerable
    assert "MISSED" not in text and text.count("ok") == 7 + len(ABLATIONS)
    missed = {
        "full": stats(0.75, share=0.6, won_items=3, middle=0.1),
        "no-items": stats(0.6),
        "skip-treasure": stats(0.0),
        "invulnerable": stats(0.99),
        **{name: stats(0.75) for name in ABLATIONS},
    }
    assert "\n".join(target_lines(missed)).count("MISSED") == 7 + len(ABLATIONS)


def test_a_target_whose_policy_was_not_played_is_left_out():
    text = "\n".join(target_lines({"full": stats(0.7)}))
    assert "no items" not in text and "invulnerable" not in text and "full wins 70%" in text


def test_the_difficulty_line_says_by_how_much_and_whether_the_order_holds():
    (line,) = difficulty_lines({"easy": 0.9, "normal": 0.65, "hard": 0.4})
    assert "easy 90% (+25)" in line and "hard 40% (-25)" in line and line.endswith("ok")
    (line,) = difficulty_lines({"easy": 0.5, "normal": 0.65, "hard": 0.4})
    assert line.endswith("MISSED")
    assert list(difficulty_lines({"normal": 0.6})) == []


def test_bench_options_are_checked_by_name():
    assert bot_options("hard, easy", "full,no-items") == {
        "difficulties": ("hard", "easy"),
        "policies": ("full", "no-items"),
    }
    assert bot_options(None, None) == {}
    with pytest.raises(Fail, match="--difficulties: nightmare"):
        bot_options("easy,nightmare", None)
    with pytest.raises(Fail, match="--policies: nothing"):
        bot_options(None, " , ")


def test_bot_refuses_an_unknown_difficulty_in_one_line():
    run = subprocess.run(
        [sys.executable, "-m", "roguelike.cli", "bot", "--seed", "x", "--difficulty", "deadly"],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2
    (line,) = run.stderr.strip().splitlines()
    assert "--difficulty" in line and "deadly" in line
