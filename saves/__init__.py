"""Worlds and saved games: format, versions, place on disk, atomic writes, import and export.

* :mod:`saves.world` — :class:`World`, :class:`WorldInfo`, :class:`VisitedFloor`, the daily
  world, world names and their file names;
* :mod:`saves.header` — the file's envelope: magic, JSON header line, checksummed payload;
* :mod:`saves.codec` — the payload: a game to JSON and back, with every field checked, and
  the migrations from older formats;
* :mod:`saves.store` — :class:`Store`, the save directory (its docstring is the screens' API).

Importing this package does not load the engine; decoding and saving do.
"""

from saves.errors import (
    BadWorldName,
    SaveError,
    SaveVersionError,
    StoreError,
    WorldExists,
    WorldLocked,
    WorldNotFound,
)
from saves.store import BackupWarning, Store, WorldLock, default_dir
from saves.world import (
    VisitedFloor,
    World,
    WorldInfo,
    daily_code,
    daily_name,
    daily_seed,
    step_remembering,
)

__all__ = [
    "BackupWarning",
    "BadWorldName",
    "SaveError",
    "SaveVersionError",
    "Store",
    "StoreError",
    "VisitedFloor",
    "World",
    "WorldExists",
    "WorldInfo",
    "WorldLock",
    "WorldLocked",
    "WorldNotFound",
    "daily_code",
    "daily_name",
    "daily_seed",
    "default_dir",
    "step_remembering",
]
