"""``roguelike generate``: one floor in each format and at each stage, the same in every process."""

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
    assert doc["seed"] == seeds.stored(seeds.parse("dragon"))  # beside generator_version
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
