"""What the command-line tests share: running ``roguelike`` in-process (with the pytest capture,
or with a given standard input) and checking a refusal."""

from __future__ import annotations

import contextlib
import io
import re
import sys

from roguelike import cli


def run(capsys, *args: str, make_app=None) -> tuple[int, str, str]:
    """``roguelike ARGS``: its exit status, standard output and standard error."""
    try:
        code = cli.main(list(args), make_app=make_app)
    except SystemExit as exit_:  # argparse's own errors
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *args: str, words: str) -> str:
    """``roguelike ARGS`` fails with exit status 2 and one error line holding ``words``."""
    code, out, err = run(capsys, *args)
    lines = err.strip().splitlines()
    assert code == 2 and out == "", (code, out, err)
    assert len(lines) == 1 and re.match(r"roguelike( \w+)*: error: ", lines[0]), err
    assert words in lines[0], lines[0]
    return lines[0]


def call(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    """main(args) in this process with ``stdin`` as its input: (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = cli.main(args)
            except SystemExit as e:  # argparse's own errors
                status = int(e.code or 0)
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


def assert_one_line_error(status: int, out: str, err: str) -> None:
    assert status == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("roguelike"), err
    assert "error: " in lines[0] and "Traceback" not in err
