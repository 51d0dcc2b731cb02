"""What the command-line tests share: running ``roguelike`` in-process and checking a refusal."""

from __future__ import annotations

import re

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
