"""Options and argument types more than one command shares: seeds, ranges, the save folder, the
generator's topology parameters, the presets' help text.

Light on purpose: the main parser is built from it before any command's module loads.
"""

from __future__ import annotations

import argparse
from typing import Any

from roguelike import seeds
from roguelike.presets import PRESETS


def parse_range(text: str) -> tuple[int, int]:
    """``"15:20"`` → (15, 20); ``"7"`` → (7, 7)."""
    parts = text.split(":")
    try:
        if len(parts) == 1:
            return int(parts[0]), int(parts[0])
        if len(parts) == 2:
            return int(parts[0]), int(parts[1])
    except ValueError:
        pass
    raise argparse.ArgumentTypeError(f"{text!r} is not a number or a range like 15:20")


def parse_seed(text: str) -> int:
    """A seed code, or any other text (hashed to a seed)."""
    try:
        return seeds.parse(text)
    except seeds.SeedCodeError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def preset_sizes() -> str:
    """The presets and their floors for a help text: ``small 3 floors, normal 5, large 8``."""
    (first, floors), *rest = PRESETS.items()
    return ", ".join([f"{first} {floors} floors", *(f"{name} {n}" for name, n in rest)])


def add_save_dir_option(p: argparse.ArgumentParser, default: Any = argparse.SUPPRESS) -> None:
    """``--save-dir``: on the main parser (default None) and again on each ``world`` command
    (SUPPRESS, so that one given before the command is not overwritten)."""
    p.add_argument(
        "--save-dir",
        metavar="DIR",
        default=default,
        help="where worlds are saved (default: $ROGUELIKE_SAVE_DIR, else the user data folder)",
    )


def add_generator_options(p: argparse.ArgumentParser) -> None:
    """The topology parameters of ``generate``; unnamed ranges scale with ``--rooms``."""
    g = p.add_argument_group("topology parameters (unnamed ranges scale with --rooms)")
    g.add_argument("--rooms", type=parse_range, metavar="LO:HI", help="room count (15:20)")
    g.add_argument("--keys", type=int, help="keys, each with one lock (3)")
    g.add_argument("--leaves", type=parse_range, metavar="LO:HI", help="dead-end rooms (5:9)")
    g.add_argument(
        "--finish-distance",
        type=parse_range,
        metavar="LO:HI",
        help="corridors from start to finish (4:8)",
    )
    g.add_argument("--start-degree", type=int, default=3, help="corridors leaving the start (3)")
    g.add_argument("--max-depth", type=int, metavar="N", help="deepest room (10)")
    g.add_argument("--cycles", type=int, default=0, help="extra corridors that make loops (0)")
