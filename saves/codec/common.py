"""What every record of the payload shares: limits on counts and values, and the tile check."""

from __future__ import annotations

import numpy as np

from roguelike import tiles
from roguelike.engine.balance import MAX_CARRIED
from saves.errors import SaveError

MAX_MONSTERS = 10_000
MAX_ITEMS = 100_000
MAX_BIG = 10**9  # counters: turns, HP, experience, energy …
MAX_PACK = MAX_CARRIED  # one kind carried, hint coins: the engine's own cap
MAX_MOVES = 100_000  # moves kept for one puzzle
MAX_LINE = 2000  # longest log message kept
U128 = (1 << 128) - 1
U64 = (1 << 64) - 1


def check_tile_ids(grid: np.ndarray, where: str) -> None:
    """SaveError unless every cell of ``grid`` is a tile id."""
    top = int(grid.max())
    if top >= len(tiles.TILES):
        raise SaveError(f"{where}: tile id {top} is not a tile (there are {len(tiles.TILES)})")
