"""The command line as a user or a script meets it."""

import json
import os
import subprocess
import sys

import pytest

from roguelike import seeds
from roguelike.cli import main


def run_cli(*args, env_extra=None):
    env = dict(os.environ) | (env_extra or {})
    return subprocess.run(
        [sys.executable, "-m", "roguelike.cli", *args], capture_output=True, text=True, env=env
    )


def test_topology_json_is_byte_identical_across_processes_and_hash_seeds():
    args = (
        "generate",
        "--seed",
        "dragon",
        "--floor",
        "2",
        "--stage",
        "topology",
        "--format",
        "json",
    )
    a = run_cli(*args, env_extra={"PYTHONHASHSEED": "1"})
    b = run_cli(*args, env_extra={"PYTHONHASHSEED": "987"})
    assert a.returncode == b.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    doc = json.loads(a.stdout)
    assert doc["seed"] == seeds.encode(seeds.parse("dragon"))
    assert doc["floor"] == 2 and doc["generator_version"]
    topo = doc["topology"]
    assert topo["start"] == 0 and topo["finish"] == 1
    rooms = {r["id"]: r for r in topo["rooms"]}
    assert rooms[0]["role"] == "start" and rooms[1]["role"] == "finish"
    locks = sorted(e["lock"] for e in topo["edges"] if e["lock"] is not None)
    keys = sorted(r["key"] for r in topo["rooms"] if r["key"] is not None)
    assert locks == keys == [1, 2, 3]
    assert set(topo["rooms"][0]) == {"id", "depth", "role", "key"}


def test_code_and_its_text_give_the_same_floor(capsys):
    code = seeds.normalise("dragon")
    assert main(["generate", "--seed", "dragon", "--format", "json"]) == 0
    by_text = capsys.readouterr().out
    assert main(["generate", "--seed", code.lower().replace("-", ""), "--format", "json"]) == 0
    assert capsys.readouterr().out == by_text


@pytest.mark.parametrize(
    "args, words",
    [
        (
            ["generate", "--seed", "x", "--rooms", "3", "--keys", "5"],
            "5 keys need at least 7 rooms",
        ),
        (["generate", "--seed", "x", "--leaves", "4", "--start-degree", "5"], "start degree 5"),
        (["generate", "--seed", "x", "--rooms", "twenty"], "not a number or a range"),
        (["generate", "--seed", "x", "--floor", "0"], "floor must be 1 or more"),
        (["generate", "--seed", "N65Q-QBJ0-23PW"], "wrong check symbol"),
        (["generate", "--seed", "x", "--format", "png"], "invalid choice"),
        (["bench", "--seeds", "0"], "--seeds must be at least 1"),
        (["generate", "--seed", "x", "--rooms=-5"], "rooms must be at least 1"),
        (["generate", "--seed", "x", "--keys", "11", "--rooms", "40:60"], "at most 10 keys"),
        (["generate", "--seed", "x", "--max-depth", "0"], "max depth must be at least 1"),
        (["generate", "--seed", "x", "--rooms", "400"], "at most 200 rooms"),
    ],
)
def test_bad_input_gives_one_line_and_exit_2(args, words):
    result = run_cli(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in result.stderr


def test_version_names_both_versions():
    result = run_cli("--version")
    assert result.returncode == 0 and "generator" in result.stdout


def test_dot_and_ascii_show_locks_and_keys(capsys):
    assert main(["generate", "--seed", "dragon", "--format", "dot"]) == 0
    dot = capsys.readouterr().out
    assert dot.startswith("graph floor {") and dot.count('label="A"') == 1 and "key A" in dot
    args = ["generate", "--seed", "dragon", "--format", "ascii", "--cycles", "1"]
    assert main([*args, "--stage", "topology"]) == 0
    text = capsys.readouterr().out
    assert "[A]─" in text and "key A (red)" in text and "loop: room" in text
    assert "\x1b[" not in text  # no colour when not writing to a terminal


def test_floor_ascii_has_a_header_a_map_and_a_legend(capsys):
    assert main(["generate", "--seed", "dragon", "--floor", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("floor 2 · seed ") and "rooms" in lines[0]
    assert lines[-1].startswith("legend: ") and "'#' wall" in lines[-1]
    body = "\n".join(lines[1:-1])
    assert body.count("@") == 1 and ">" in body and "A" in body and "a" in body


@pytest.mark.parametrize("stage", ["layout", "stamp", "terrain", "population"])
def test_each_stage_prints(capsys, stage):
    assert main(["generate", "--seed", "dragon", "--stage", stage, "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "rooms" in doc and doc["proven"] is False if "proven" in doc else "tiles" not in doc


def test_last_floor_has_an_exit(capsys):
    assert main(["generate", "--seed", "dragon", "--last", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    x, y = doc["finish"]
    assert doc["tiles"][y][x] == "<" and doc["legend"]["<"] == "exit"


def test_bot_plays_a_whole_world_and_reports_it_as_json(capsys):
    code = main(["bot", "--seed", "N65Q-QBJ0-23PV", "--preset", "small", "--format", "json"])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) == {"seed", "won", "floors", "turns", "cause", "seconds"}
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


def test_a_command_loads_only_its_own_module():
    """Start-up time: the main parser loads no command module, and a command loads its own
    (the game's options need neither Textual nor the generator)."""
    code = (
        "import sys; from roguelike.cli import build_parser; "
        "build_parser().parse_args(['--seed', 'x', '--preset', 'small']); "
        "heavy = {'textual', 'clingo', 'scipy', 'saves'} & {m.split('.')[0] for m in sys.modules}; "
        "assert not heavy, heavy; "
        "build_parser().parse_args(['bot', '--seed', 'x']); "
        "loaded = sorted(m for m in sys.modules if m.startswith('roguelike.cli.')); "
        "assert loaded == ['roguelike.cli.args', 'roguelike.cli.bot', 'roguelike.cli.play'], loaded"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_a_command_line_parsed_twice_keeps_its_options():
    from roguelike.cli import build_parser

    parser = build_parser()
    for _ in range(2):
        args = parser.parse_args(["generate", "--seed", "x", "--stage", "layout"])
        assert args.command == "generate" and args.stage == "layout"
