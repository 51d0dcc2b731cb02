"""Which saves load, and the steps that bring an older format of the same generator to the
current one.

The rule (the one rule of save compatibility):

* **A generator bump is a compatibility reset.** The floors of a seed depend on
  ``GENERATOR_VERSION`` (:mod:`roguelike.version`), so a save or a recording of another
  generator is refused in one line (``made by generator 3, this game has 4: its floors would
  differ``), whatever its format. With each generator bump, :data:`~saves.header.OLDEST_FORMAT`
  is raised to the format then current and every step below it is deleted: no save that
  could need it can load anyway.
* **Within one generator, a format change is bumped and migrated.** Any change to what the
  codec writes (a key added to or removed from a record, or a value's meaning changed) bumps
  ``FORMAT_VERSION`` (:mod:`saves.header`) and adds the step from the previous format here, so
  a player's saves of this generator still load. ``tests/saves/test_schema.py`` holds the
  keys each record writes, per format, and fails while the codec writes other keys than its
  format's: it says to bump and migrate.
* A reader never defaults a missing field "as in older saves": every field of the current
  format is required; a step here gives older documents their value.

:data:`MIGRATIONS` maps a format ``n`` to a function from a document of format ``n`` to one of
format ``n + 1``; :func:`migrate` applies them in a chain, before any record is read. A step
may fail the load with one line when an older document does not hold what it needs.

The formats this generator reads:

* format 10: the generator's first format (a sealed header, see :mod:`saves.envelope`; what is
  worn and wielded, the perks, the potions and scrolls known, fire, gas and stealth; the floor's
  changes, ``changes``: the optional pedestals whose puzzle changes the map; and whether the
  world is a practice world, ``practice_from``: the input of another run it began at). No step
  yet: generator 6 began here (generators 7 and 8 write it too; another generator's save is
  refused before any step).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from saves import header as h
from saves.errors import SaveError, SaveVersionError

Migration = Callable[[dict[str, Any]], dict[str, Any]]


#: Format n → format n + 1, applied in a chain from a save's format up to FORMAT_VERSION.
MIGRATIONS: dict[int, Migration] = {}


def migrate(doc: dict[str, Any], version: int) -> dict[str, Any]:
    """``doc`` of format ``version`` brought to :data:`~saves.header.FORMAT_VERSION`."""
    if version > h.FORMAT_VERSION:
        raise SaveVersionError(h.newer_format_message(version))
    if version < h.OLDEST_FORMAT:
        raise SaveError(
            f"format {version} is older than any this game reads "
            f"({h.OLDEST_FORMAT} to {h.FORMAT_VERSION})"
        )
    while version < h.FORMAT_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise SaveError(f"format {version} cannot be read by this game (no migration)")
        doc = step(doc)
        version += 1
    return doc
