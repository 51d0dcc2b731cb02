"""The golden seed catalog: a digest of every floor of 25 seed codes.

Generation changed on purpose? Bump GENERATOR_VERSION in roguelike/version.py, then rewrite
the catalog with ``ROGUELIKE_WRITE_GOLDEN=1 uv run pytest tests/test_golden.py``. Changed by
accident? This test is what caught it: seed codes players share would now mean other dungeons.
"""

import hashlib
import json
import os
from pathlib import Path

import pytest

from roguelike import formats, seeds
from roguelike.floor import generate_floor
from roguelike.version import GENERATOR_VERSION

CATALOG = Path(__file__).with_name("golden_floors.json")
CODES = [seeds.encode(seeds.text_seed(f"golden-{i}")) for i in range(25)]
FLOORS = (1, 2, 3)


def digest(code: str, number: int) -> str:
    fl = generate_floor(seeds.decode(code), number)
    text = formats.dumps(formats.floor_json(fl))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def current() -> dict[str, dict[str, str]]:
    return {code: {str(n): digest(code, n) for n in FLOORS} for code in CODES}


def test_golden_catalog():
    if os.environ.get("ROGUELIKE_WRITE_GOLDEN"):
        doc = {"generator_version": GENERATOR_VERSION, "floors": current()}
        CATALOG.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
        pytest.skip("catalog rewritten")
    doc = json.loads(CATALOG.read_text())
    assert doc["generator_version"] == GENERATOR_VERSION, (
        "GENERATOR_VERSION was bumped: rewrite the catalog (see this module's docstring)"
    )
    now = current()
    changed = [
        f"{c} floor {n}"
        for c in CODES
        for n in map(str, FLOORS)
        if doc["floors"][c][n] != now[c][n]
    ]
    assert not changed, (
        f"generation changed for {len(changed)} floors ({changed[:3]}…) without a "
        "GENERATOR_VERSION bump: seed codes players share would now give other dungeons"
    )
