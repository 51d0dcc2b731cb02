"""The special rooms: each declared once, as a record that every stage reads.

In the spirit of Brogue's blueprint catalog, a special room is one :class:`SpecialRoom`: its
role's name, its odds by floor (from the depth curve, ``roguelike/depth.py``), where it may
stand (a predicate on the candidate room), how the roles stage places it, and the hooks of the
stages that realise it. The roles stage (``roles.py``) loops over :data:`CATALOG` in its
order, which is part of what a seed means: it fixes the order of the draws. The later stages
look a room's role up in :data:`SPECIAL` and do what its record says:

* layout (stage 3): ``template``, the tag of the templates it draws from;
* stamp (stage 4): ``sealed``, its door is a seal and a puzzle pedestal stands in the room it
  hangs from (a ``VaultSpot``); the proof (stage 7) proves it shut, then open, from those;
* terrain (stage 5): ``terrain``, what it does to its room's tiles after the theme;
* populate (stage 6): ``populate``, its monster slots (and any slot of its own, such as a
  captive's); ``treasure``, a treasure slot on each ``$`` spot; ``ringed``, each treasure ringed
  by hidden traps with one safe gap;
* the engine: ``springs``, its sleepers all wake when the player steps in
  (``engine/traps.py``); ``hoard``, how its treasure is laid out (``engine/creatures.py``).

A new special room is a record here (and its odds in ``roguelike/depth.py``); a stage needs new
code only for a kind of hook no record has had before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from roguelike import depth
from roguelike.gen.floor import Slot, Stamped
from roguelike.tiles import BRIDGE, DEEP_WATER, WALKABLE

#: How the roles stage places a special room (see :func:`roguelike.gen.roles.room_roles`):
#: ``each``: every room draws for it (one draw of a batch every room makes, a draw for each
#: ``each`` and ``instead`` record, in catalog order), the first record whose draw falls
#: under its odds wins the room; ``instead``: a room another record (``instead_of``) just won
#: is this one instead, on its own draw of that batch; ``pick``: after the batches, one draw a
#: floor picks one of the rooms it suits (the draw modulo their count); ``first``: after
#: those, a batch of its own, one draw a room, and the first room it suits whose draw falls
#: under its odds is its one room.
Placing = Literal["each", "instead", "pick", "first"]

#: Extra monster slots in an ambush room, beyond its ``m`` spots.
AMBUSH_EXTRA = 2
#: The sleeping guards of a captive room, least and most (the engine always fills their slots).
CAPTIVE_GUARDS = (1, 2)


@dataclass(frozen=True)
class Candidate:
    """A room as the roles stage sees it: its id, depth, role so far, whether it is a dead
    end (no child, one corridor) and how many corridors it has."""

    id: int
    depth: int
    role: str
    dead_end: bool
    corridors: int


@dataclass
class RoomFill:
    """What the populate stage hands a room's ``populate`` hook: the room, its slots' level,
    the monster slots drawn for it as for any room, its template's ``m`` spots, its free cells
    (rows of (y, x)), the cells already taken and the slots so far (both grow as slots are
    placed), and the floor's population stream."""

    room: int
    level: int
    drawn: int
    preferred: list[tuple[int, int]]
    cells: np.ndarray
    taken: set[tuple[int, int]]
    slots: list[Slot]
    rng: np.random.Generator


@dataclass(frozen=True)
class SpecialRoom:
    """One kind of special room; see the module docstring for what each stage reads."""

    role: str
    odds: depth.Odds
    #: where it may stand (besides being a plain room): a predicate on the candidate room
    where: Callable[[Candidate], bool]
    placing: Placing = "each"
    #: for ``instead``: the role it replaces
    instead_of: str | None = None
    #: the most a floor holds (None: no limit)
    at_most: int | None = None
    #: stage 3: the tag of the templates it draws from
    template: str = "any"
    #: stage 4 (and 7): its door is a seal, broken by a puzzle pedestal in the room before it
    sealed: bool = False
    #: stage 5: dresses its room's tiles (the dressed tiles, the floor, the room), in place
    terrain: Callable[[np.ndarray, Stamped, int], None] | None = None
    #: stage 6: how many monster slots it holds, and any slot of its own
    populate: Callable[[RoomFill], int] | None = None
    #: stage 6: a treasure slot on each of its template's ``$`` spots
    treasure: bool = False
    #: stage 6: each treasure ringed by hidden traps, one cell of each ring left safe
    ringed: bool = False
    #: the engine: its sleepers all wake together when the player first steps in
    springs: bool = False
    #: the engine: its treasure is a choice of one upgrade (``choice``) or every upgrade and
    #: some consumables besides (``all``)
    hoard: Literal["choice", "all"] = "choice"

    @property
    def first_floor(self) -> int:
        """The first floor it may appear on."""
        return self.odds.first_floor

    def chance(self, floor: int, room_depth: int = 0) -> int:
        """Its chance, in percent, on floor ``floor`` in a room at ``room_depth``."""
        return self.odds.at(floor, room_depth)


def _dead_end(c: Candidate) -> bool:
    return c.dead_end


def _passage(c: Candidate) -> bool:
    return c.corridors >= 2


def _anywhere(c: Candidate) -> bool:
    return True


def _ambush_monsters(f: RoomFill) -> int:
    """An ambush fills every ``m`` spot and a few more besides."""
    return max(f.drawn, len(f.preferred)) + AMBUSH_EXTRA


def _no_monsters(f: RoomFill) -> int:
    """Nothing lives shut in a sealed vault."""
    return 0


def _seat_captive(f: RoomFill) -> int:
    """A captive room's guards (drawn), and its captive on a free cell of the room."""
    lo, hi = CAPTIVE_GUARDS
    guards = int(f.rng.integers(lo, hi + 1))
    free = [c for c in f.cells if (int(c[1]), int(c[0])) not in f.taken]
    if free:
        y, x = free[int(f.rng.integers(len(free)))]
        f.taken.add((int(x), int(y)))
        f.slots.append(Slot("captive", int(x), int(y), f.room, f.level))
    return guards


def _flood(out: np.ndarray, fl: Stamped, room: int) -> None:
    """Put the room's free ground under deep water. Only walkable, unprotected cells change
    and they stay walkable, so no path is cut; keys, stairs, doors and the skeleton joining
    them are protected and stay dry."""
    wet = (fl.room_map == room) & WALKABLE[out] & ~fl.protected & (out != BRIDGE)
    out[wet] = DEEP_WATER


#: Every special room, in the order the roles stage tries them (its draws follow this order).
CATALOG: tuple[SpecialRoom, ...] = (
    # a dead end holding treasure, more of them the deeper they lie
    SpecialRoom("treasure", depth.TREASURE_ODDS, _dead_end, template="treasure", treasure=True),
    # a treasure room whose treasure is ringed by hidden traps, with one safe gap
    SpecialRoom(
        "snare",
        depth.SNARE_ODDS,
        _anywhere,
        placing="instead",
        instead_of="treasure",
        template="treasure",
        treasure=True,
        ringed=True,
    ),
    # a quiet dead end whose sleepers all wake together when the player steps in
    SpecialRoom("ambush", depth.AMBUSH_ODDS, _dead_end, populate=_ambush_monsters, springs=True),
    # a passage under deep water, a turn more for every step in it
    SpecialRoom("flooded", depth.FLOODED_ODDS, _passage, placing="pick", at_most=1, terrain=_flood),
    # a treasure dead end sealed shut, opened by the puzzle on a pedestal in the room before it
    SpecialRoom(
        "vault",
        depth.VAULT_ODDS,
        _dead_end,
        at_most=1,
        template="treasure",
        sealed=True,
        populate=_no_monsters,
        treasure=True,
        hoard="all",
    ),
    # a dead end where a shackled captive sits among sleeping guards; freed, it is an ally
    SpecialRoom(
        "captive", depth.CAPTIVE_ODDS, _dead_end, placing="first", at_most=1, populate=_seat_captive
    ),
)

#: Each special room by its role.
SPECIAL: dict[str, SpecialRoom] = {s.role: s for s in CATALOG}
#: The roles whose rooms hold treasure.
TREASURE_ROLES = frozenset(s.role for s in CATALOG if s.treasure)
#: The special rooms the bench counts per floor (the plain treasure room, the commonest, aside).
SPECIAL_ROLES = tuple(s.role for s in CATALOG if s.role != "treasure")


def special(role: str | None) -> SpecialRoom | None:
    """The record of ``role``, or None for a room that is no special room (or a role read
    from a save that this version does not know)."""
    return None if role is None else SPECIAL.get(role)
