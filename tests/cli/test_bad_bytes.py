"""Arguments that are not UTF-8 text (bytes from a shell: ``--seed $'\\xff\\xfe'``) are refused
in one line with exit status 2, whatever the command and whichever argument: seeds, names,
paths and codes. Before, ``world create x --seed $'\\xff\\xfe'`` and ``runs --seed`` ended in a
UnicodeEncodeError traceback (the seed hashed as UTF-8).

Python keeps such bytes of ``sys.argv`` as surrogate escapes (``'\\udcff'``); in-process the
tests pass those strings to ``main``, and through a real process the bytes themselves.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.cli.support import run

BAD = os.fsdecode(b"\xff\xfe")  # what Python makes of those bytes in sys.argv
LATIN = os.fsdecode(b"caf\xe9")  # a name typed in a Latin-1 terminal

COMMANDS = [
    ["world", "create", "x", "--seed", BAD],
    ["world", "create", LATIN],
    ["world", "import", f"/tmp/{BAD}.rgl"],
    ["world", "delete", BAD, "--yes"],
    ["runs", "--seed", BAD],
    ["runs", "import", BAD],
    ["replay", BAD, "--verify"],
    ["puzzle", "play", "--code", f"jugs:easy#{BAD}"],
    ["generate", "--seed", BAD],
    ["--seed", BAD],
    ["runs", "--save-dir", f"/tmp/{BAD}"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: ascii(" ".join(a[:2])))
def test_bad_bytes_are_one_line_and_status_2(capsys, argv, fake_app):
    code, out, err = run(capsys, *argv, make_app=fake_app)
    (line,) = err.strip().splitlines()
    assert code == 2 and out == "" and "ran" not in fake_app.made
    at = argv.index(next(a for a in argv if "\udcff" in a or "\udce9" in a)) + 1
    assert line.startswith(f"roguelike: error: argument {at} (")
    assert "is not UTF-8 text" in line and ("\\xff\\xfe" in line or "\\xe9" in line)


def test_escape_bytes_in_a_bad_argument_are_shown_not_sent(capsys):
    code, _, err = run(capsys, "world", "create", "x", "--seed", "\x1b[2J" + BAD)
    assert code == 2 and "\x1b" not in err and "\\x1b[2J\\xff\\xfe" in err


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [
        [b"world", b"create", b"x", b"--seed", b"\xff\xfe"],
        [b"runs", b"--seed", b"\xff\xfe"],
        [b"world", b"create", b"caf\xe9"],
    ],
)
def test_through_a_real_process(argv, tmp_path):
    """Bytes as a shell passes them, in a real process (the C locale's decoding included)."""
    env = {**os.environ, "ROGUELIKE_SAVE_DIR": str(tmp_path), "LC_ALL": "C.UTF-8"}
    done = subprocess.run(
        [os.fsencode(sys.executable), b"-m", b"roguelike.cli", *argv],
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
    assert done.returncode == 2 and done.stdout == b""
    assert len(lines) == 1 and "is not UTF-8 text" in lines[0] and "Traceback" not in lines[0]
