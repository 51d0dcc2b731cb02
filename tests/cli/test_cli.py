"""The command line as a user or a script meets it: one-line errors, the version, and each
command loading only what it needs."""

import os
import subprocess
import sys

import pytest


def run_cli(*args, env_extra=None):
    env = dict(os.environ) | (env_extra or {})
    return subprocess.run(
        [sys.executable, "-m", "roguelike.cli", *args], capture_output=True, text=True, env=env
    )


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


def test_version_and_world_list_load_neither_numpy_nor_the_engine(tmp_path):
    """Start-up time: ``--version`` loads no numpy (the seeds' streams import it when drawn),
    and ``world list`` (the saves' headers) neither the engine nor the generator."""
    code = (
        "import sys\n"
        "from roguelike.cli import main\n"
        "try:\n"
        "    main(['--version'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "assert 'numpy' not in sys.modules\n"
        f"assert main(['world', 'list', '--save-dir', {str(tmp_path)!r}]) == 0\n"
        "heavy = {'roguelike.engine', 'scipy', 'clingo', 'textual'} & set(sys.modules)\n"
        "assert not heavy, heavy\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_a_command_line_parsed_twice_keeps_its_options():
    from roguelike.cli import build_parser

    parser = build_parser()
    for _ in range(2):
        args = parser.parse_args(["generate", "--seed", "x", "--stage", "layout"])
        assert args.command == "generate" and args.stage == "layout"
