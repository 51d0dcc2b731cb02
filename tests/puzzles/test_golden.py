"""The golden puzzle catalog: a digest of the JSON of two puzzles of every type at every level.

A puzzle is a pure function of (type, difficulty, seed): players of one seed code meet the same
pedestals, and a puzzle code shared between players must mean the same board. A change to a
generator, a solver the generator consults, or a clingo encoding that changes any puzzle shows
up here. Changed on purpose? Bump GENERATOR_VERSION in roguelike/version.py, then rewrite the
catalog with ``ROGUELIKE_WRITE_GOLDEN=1 uv run pytest tests/puzzles/test_golden.py``.
"""

import hashlib
import json
import os
from pathlib import Path

from roguelike import puzzles, seeds
from roguelike.gen import formats
from roguelike.version import GENERATOR_VERSION

CATALOG = Path(__file__).with_name("golden_puzzles.json")
SEEDS = [seeds.stored(seeds.text_seed(f"golden-puzzle-{i}")) for i in range(2)]


def digest(type_name: str, difficulty: str, code: str) -> str:
    p = puzzles.generate(type_name, difficulty, seeds.read_stored(code))
    text = formats.dumps(p.to_json())
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def current() -> dict[str, str]:
    return {
        f"{t} {d} {code}": digest(t, d, code)
        for t in puzzles.TYPES
        for d in puzzles.DIFFICULTIES
        for code in SEEDS
    }


def test_golden_puzzle_catalog():
    if os.environ.get("ROGUELIKE_WRITE_GOLDEN"):
        doc = {"generator_version": GENERATOR_VERSION, "puzzles": current()}
        CATALOG.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    doc = json.loads(CATALOG.read_text())
    assert doc["generator_version"] == GENERATOR_VERSION, (
        "the generator version changed: rewrite the catalog (see this module's docstring)"
    )
    now = current()
    changed = sorted(k for k in doc["puzzles"] if now.get(k) != doc["puzzles"][k])
    assert not changed, f"{len(changed)} puzzles changed, e.g. {changed[:3]}"
    assert sorted(now) == sorted(doc["puzzles"]), "the catalog misses a type or a level"
