"""Every command that takes a seed refuses a mistyped code in one line naming the mistake."""

import pytest

from tests.cli.support import refused

MISSING = "N65Q-QBJ0-23P"  # N65Q-QBJ0-23PV with its last symbol left out


@pytest.mark.parametrize(
    "args",
    [
        ["--seed", MISSING],
        ["generate", "--seed", MISSING],
        ["puzzle", "generate", "--type", "jugs", "--difficulty", "easy", "--seed", MISSING],
    ],
)
def test_a_code_missing_a_symbol_is_refused(capsys, args):
    line = refused(capsys, *args, words="one symbol is missing in the third group")
    assert MISSING in line and "'!'" in line


def test_world_create_refuses_it_too(capsys, tmp_path):
    refused(
        capsys,
        "world",
        "create",
        "Mistyped",
        "--seed",
        "N65Q-QBJ0-23PVX",
        "--save-dir",
        str(tmp_path),
        words="one symbol too many",
    )
    assert not any(tmp_path.iterdir())  # nothing was created
