"""Worlds and saved games: format, versions, place on disk, atomic writes, import and export.

* :mod:`saves.world` — :class:`World`, :class:`WorldInfo`, :class:`VisitedFloor`, the daily
  world, world names and their file names;
* :mod:`saves.envelope` — the sealed envelope of every file (saves and run files): magic,
  sealed JSON header line, checksummed compressed payload, and its bounds;
* :mod:`saves.header` — a save's header fields and format versions;
* :mod:`saves.codec` — the payload: a game to JSON and back, with every field checked, and
  the migrations between formats of one generator;
* :mod:`saves.files` — regular files only, atomic writes with a backup;
* :mod:`saves.locks` — :class:`WorldLock`, a world held while a game has it open;
* :mod:`saves.store` — :class:`Store`, the save directory: listing, loading, saving,
  import and export;
* :mod:`saves.session` — :class:`~saves.session.Session`, a game being played (the world, its
  state, the floors visited, the lock), and :class:`~saves.session.Games`, which starts them:
  new, load, continue, watch; what the screens, the command line and tests drive.
* :mod:`saves.scores` — the best puzzle scores (by puzzle code, a small file in the save
  folder) and the puzzles met in saved worlds, for the puzzle index.

Importing this package does not load the engine; decoding, saving and sessions do.
"""

from saves.errors import (
    BadWorldName,
    NotSaved,
    SaveError,
    SaveVersionError,
    StoreError,
    WorldExists,
    WorldLocked,
    WorldNotFound,
)
from saves.locks import WorldLock
from saves.store import BackupWarning, Store, default_dir
from saves.world import (
    VisitedFloor,
    World,
    WorldInfo,
    daily_code,
    daily_name,
    daily_seed,
    world_name_for,
)

__all__ = [
    "BackupWarning",
    "BadWorldName",
    "NotSaved",
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
    "world_name_for",
]
