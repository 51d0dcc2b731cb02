"""The golden seed catalog's worlds and a floor's digest (see ``test_golden.py``): shared with
the tests that play the same worlds, and importable by another process to recompute them."""

import hashlib
from dataclasses import asdict
from pathlib import Path

from roguelike import seeds
from roguelike.engine.creatures import inhabit
from roguelike.engine.puzzle_rooms import place_puzzles
from roguelike.gen import formats
from roguelike.gen.pipeline import generate_floor
from roguelike.presets import PRESETS

CATALOG = Path(__file__).with_name("golden_floors.json")
#: (code, preset): ten small worlds, ten normal, five large
SIZES = ["small"] * 10 + ["normal"] * 10 + ["large"] * 5
WORLDS = [(seeds.stored(seeds.text_seed(f"golden-{i}")), p) for i, p in enumerate(SIZES)]


def digest(code: str, number: int, total: int) -> str:
    fl = generate_floor(seeds.read_stored(code), number, last=number == total)
    monsters, items = inhabit(fl)
    doc = {
        "floor": formats.floor_json(fl),
        "monsters": [asdict(m) for m in monsters],
        "items": sorted([list(pos), kind] for pos, kind in items.items()),
        "puzzles": [asdict(p) for p in place_puzzles(fl)],
    }
    return hashlib.blake2b(formats.dumps(doc).encode(), digest_size=16).hexdigest()


def current(worlds=WORLDS) -> dict[str, dict[str, str]]:
    return {
        code: {str(n): digest(code, n, PRESETS[preset]) for n in range(1, PRESETS[preset] + 1)}
        for code, preset in worlds
    }
