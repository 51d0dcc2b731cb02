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

* format 6: the generator's first format (a sealed header, see :mod:`saves.envelope`);
* format 7: ``state.equipment``, the lasting upgrades the player took, kept when taken. A
  format 6 save did not keep them: the step works them out once from the player's numbers
  (what levels give taken off, the war axes read from the accuracy lost, the tower plates
  from the speed lost), as the character sheet used to on every drawing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from roguelike.engine.balance import (
    DIFFICULTIES,
    LEVEL_HP,
    PLAYER_ACCURACY,
    PLAYER_ATTACK,
    PLAYER_SPEED,
)
from roguelike.engine.creatures import ITEMS
from saves import fields as f
from saves import header as h
from saves.errors import SaveError, SaveVersionError

Migration = Callable[[dict[str, Any]], dict[str, Any]]


def equipment_of_numbers(state: dict[str, Any], where: str = "payload.state") -> dict[str, int]:
    """The lasting upgrades a format 6 state's numbers show were taken (never negative): what
    levels gave is taken off, the rest came from treasure. SaveError if the state lacks a
    number this needs."""

    def number(key: str, lo: int = 0) -> int:
        return f.integer(f.get(state, key, where), f"{where}.{key}", lo, 10**9)

    level, max_hp = number("level", 1), number("max_hp", 1)
    defence, accuracy, speed = number("defence"), number("accuracy"), number("speed")
    top = f.pair(f.get(state, "attack", where), f"{where}.attack", 0, 10**9)[1]
    difficulty = f.difficulty(state, where)
    blade, plate, elixir = (ITEMS[n] for n in ("sharp blade", "iron plate", "heart elixir"))
    axe, tower = ITEMS["war axe"], ITEMS["tower plate"]
    axes = max(0, (PLAYER_ACCURACY - accuracy) // axe.clumsy)
    towers = max(0, (PLAYER_SPEED - speed) // tower.slow)
    extra_hp = max_hp - DIFFICULTIES[difficulty].player_hp - LEVEL_HP * (level - 1)
    extra_hit = top - (PLAYER_ATTACK[1] + level - 1) - axes * axe.amount
    counts = {
        "sharp blade": max(0, extra_hit // blade.amount),
        "war axe": axes,
        "iron plate": max(0, (defence - towers * tower.amount) // plate.amount),
        "tower plate": towers,
        "heart elixir": max(0, extra_hp // elixir.amount),
    }
    return {name: n for name, n in counts.items() if n > 0}


def _v6_to_v7(doc: dict[str, Any]) -> dict[str, Any]:
    """Format 7 keeps the lasting upgrades taken (``state.equipment``)."""
    state = dict(f.obj(f.get(doc, "state", "payload"), "payload.state"))
    if "equipment" in state:
        raise SaveError("payload.state.equipment: a format 6 save has no equipment")
    taken = equipment_of_numbers(state)
    state["equipment"] = [{"item": name, "count": n} for name, n in taken.items()]
    return {**doc, "state": state}


#: Format n → format n + 1, applied in a chain from a save's format up to FORMAT_VERSION.
MIGRATIONS: dict[int, Migration] = {
    6: _v6_to_v7,
}


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
