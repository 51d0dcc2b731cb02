"""The golden seed catalog: a digest of every floor of 25 seed codes, each in the preset it
is played in (small, normal and large worlds: 3, 5 and 8 floors, the last with the exit).

A floor's digest covers what a player of that code meets there: the generated floor (its
JSON), the monsters and items placed on it, and which keys are puzzle pedestals. Generation
changed on purpose? Bump GENERATOR_VERSION in roguelike/version.py, then rewrite the catalog
with ``ROGUELIKE_WRITE_GOLDEN=1 uv run pytest tests/gen/test_golden.py``. Changed by accident?
This test is what caught it: seed codes players share would now mean other dungeons.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from roguelike.version import GENERATOR_VERSION
from tests.gen.golden import CATALOG, WORLDS, current


def test_golden_catalog():
    if os.environ.get("ROGUELIKE_WRITE_GOLDEN"):
        doc = {
            "generator_version": GENERATOR_VERSION,
            "presets": dict(WORLDS),
            "floors": current(),
        }
        CATALOG.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
        pytest.skip("catalog rewritten")
    doc = json.loads(CATALOG.read_text())
    assert doc["generator_version"] == GENERATOR_VERSION, (
        "GENERATOR_VERSION was bumped: rewrite the catalog (see this module's docstring)"
    )
    assert doc["presets"] == dict(WORLDS)
    now = current()
    changed = [
        f"{code} floor {n}"
        for code, floors in doc["floors"].items()
        for n in floors
        if now[code][n] != floors[n]
    ]
    assert not changed, (
        f"generation changed for {len(changed)} floors ({changed[:3]}…) without a "
        "GENERATOR_VERSION bump: seed codes players share would now give other dungeons"
    )


@pytest.mark.parametrize("hash_seed", ["1", "4242"])
def test_another_process_with_another_hash_seed_agrees(hash_seed):
    """String hashing is randomised per process (PYTHONHASHSEED); nothing in generation may
    depend on it. Another process recomputes three worlds' digests and must match."""
    picked = [WORLDS[0], WORLDS[12], WORLDS[24]]
    code = (
        f"import json, sys; import tests.gen.golden as g; print(json.dumps(g.current({picked!r})))"
    )
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        cwd=Path(__file__).parents[2],
        check=True,
    )
    doc = json.loads(CATALOG.read_text())
    theirs = json.loads(out.stdout)
    assert theirs == {c: doc["floors"][c] for c, _ in picked}
