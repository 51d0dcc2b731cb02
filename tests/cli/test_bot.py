"""``roguelike bot``: the autoplayer plays whole worlds headless."""

import json

import pytest

from roguelike.cli import main


def test_bot_plays_a_whole_world_and_reports_it_as_json(capsys):
    code = main(["bot", "--seed", "N65Q-QBJ0-23PV", "--preset", "small", "--format", "json"])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) == {
        "seed", "won", "floors", "turns", "cause", "seconds",
        "died_on", "lowest_hp", "items_used", "items_left", "spared",
    }  # fmt: skip
    assert doc["died_on"] is None and doc["spared"] == 0 and 0 < doc["lowest_hp"] <= 1
    assert doc["seed"] == "N65Q-QBJ0-23PV"
    # the autoplayer wins this one: all three floors, out by the exit
    assert doc["won"] is True and doc["floors"] == 3 and doc["cause"] == "escaped"
    assert doc["turns"] > 100


@pytest.mark.parametrize(
    "argv",
    [
        ["bot"],
        ["bot", "--seed", "x", "--seeds", "2"],
        ["bot", "--seeds", "0"],
        ["bot", "--seed", "x", "--preset", "huge"],
    ],
)
def test_bot_refuses_bad_arguments_in_one_line(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as exit_info:  # argparse's own refusals
        code = exit_info.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err
