"""``roguelike bot``: the autoplayer plays whole worlds headless."""

import json

import pytest

from roguelike import seeds
from roguelike.autoplay import play_seed
from roguelike.cli import main
from roguelike.cli.bot import result_json

#: The keys of ``bot --seed … --format json``.
KEYS = {
    "seed", "won", "floors", "turns", "cause", "seconds",
    "died_on", "lowest_hp", "items_used", "items_left", "spared",
}  # fmt: skip


def test_bot_plays_a_whole_world_and_reports_it_as_json(capsys):
    # invulnerable: the point is a whole world played and reported; whether the bot survives
    # this world's monsters is the difficulty curve's question, which tuning moves
    shown = seeds.encode(seeds.read_stored("YGT8-NXA8-ENMR"))
    argv = ["bot", "--seed", shown, "--preset", "small", "--invulnerable"]
    code = main([*argv, "--format", "json"])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) == KEYS
    assert doc["seed"] == shown
    # the autoplayer finishes this one: all three floors, out by the exit
    assert doc["won"] is True and doc["floors"] == 3 and doc["cause"] == "escaped"
    assert doc["turns"] > 100
    # an invulnerable player never dies: a blow that would kill leaves it at 1 HP
    assert doc["died_on"] is None and 0 < doc["lowest_hp"] <= 1


@pytest.mark.slow  # a whole world played twice (the command, then the autoplayer itself)
def test_bot_reports_the_run_it_played_whatever_its_end(capsys):
    """Without ``--invulnerable`` the run may be won, lost to a monster or stuck: the report
    says the same as the autoplayer's own result, and its fields agree with one another."""
    code = seeds.encode(seeds.read_stored("N65Q-QBJ0-23PV"))
    assert main(["bot", "--seed", code, "--preset", "small", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) == KEYS
    played = result_json(play_seed(seeds.parse(code), "small"))
    assert {**doc, "seconds": 0} == {**played, "seconds": 0}  # the same world, the same run
    assert doc["spared"] == 0  # only an invulnerable run is spared a blow
    assert doc["won"] == (doc["cause"] == "escaped")
    if doc["died_on"] is not None:
        assert not doc["won"] and doc["died_on"] == doc["floors"]
        assert doc["cause"].startswith("killed") and doc["lowest_hp"] == 0
    else:
        assert 0 < doc["lowest_hp"] <= 1


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
