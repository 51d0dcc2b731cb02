"""``roguelike bot --seed S --record FILE``: the bot's run, recorded, replays to exactly the result
the bot reported (the issue's "done when"), and ``--record`` is refused where it cannot go."""

from __future__ import annotations

import json

import pytest

from roguelike import seeds
from roguelike.cli import main
from saves.record import unpack

#: A small world the bot wins (tests/cli/test_bot.py plays it too).
STORED = "N65Q-QBJ0-23PV"  # as run files keep it
SEED = seeds.encode(seeds.read_stored(STORED))  # as the game shows it


def test_a_recorded_bot_run_replays_to_the_bots_result(capsys, tmp_path):
    path = tmp_path / "bot.run"
    code = main(
        ["bot", "--seed", SEED, "--preset", "small", "--format", "json", "--record", str(path)]
    )
    assert code == 0
    played = json.loads(capsys.readouterr().out)
    assert played["record"] == str(path)
    record = unpack(path.read_bytes())
    assert record.world == SEED and record.seed == STORED and record.preset == "small"
    assert record.recording is not None and len(record.recording) > 0
    assert main(["replay", str(path), "--verify", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["matched"] is True
    o = doc["outcome"]
    result = {"won": o["result"] == "won", "floors": o["floors"], "turns": o["turns"]}
    assert result == {k: played[k] for k in ("won", "floors", "turns")}
    assert o["cause"] == played["cause"] and o["score"] == record.score


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["bot", "--seeds", "2", "--record", "x.run"], "--record records one world"),
        (["bot", "--seed", "x", "--record", "."], "is a folder"),
        (["bot", "--seed", "x", "--record", "no/such/folder/x.run"], "no such folder"),
    ],
)
def test_record_is_refused_where_it_cannot_go_before_any_play(argv, words, capsys):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and words in captured.err
