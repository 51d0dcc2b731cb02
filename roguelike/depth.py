"""The depth curve: every number that changes with depth, in one place and nowhere else.

"Harder deeper" is a family of tables read by both the generator (``roguelike.gen``) and the
engine (``roguelike.engine``): how big a floor's topology grows, which theme dresses it, the
odds of each special room, how many monsters and traps a floor holds and how strong they are,
how many keys are puzzles and how hard those puzzles are, which captives wait there. Each is a
by-floor table (or, for what grows with a room's depth inside a floor, a by-depth one), in
the spirit of python-tcod's tutorial (``max_items_by_floor``): change a curve here and every
layer reads the change. The other numbers of the balance (a monster's HP, an item's strength,
the difficulty levels) stay in ``roguelike/engine/balance.py``; the special rooms that these
odds place are the records of ``roguelike/gen/special.py``.

A table is one of two shapes:

* :class:`Steps`: rows of (first floor, value), ascending; a floor takes the value of the last
  row it has reached;
* :class:`Ramp`: a first value and a step added each floor (or each ``every`` floors) below,
  up to a cap on the value (``most``) or on the floor it stops growing at (``until``).

Like every number of the balance, a change here changes what a seed code gives: it goes with a
``GENERATOR_VERSION`` bump and new golden catalogs (see ARCHITECTURE.md). The arithmetic of
each ramp is the one the callers used before it lived here, so floats come out bit for bit.

Nothing is imported here but the standard library, so every layer may import this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")
N = TypeVar("N", int, float)


@dataclass(frozen=True)
class Steps(Generic[T]):
    """A by-floor table: ``rows`` of (first floor, value), ascending by floor. A floor takes the
    value of the last row it reaches; a floor shallower than the first row takes ``before``
    (or, when that is None, the first row's value)."""

    rows: tuple[tuple[int, T], ...]
    before: T | None = None

    def __post_init__(self) -> None:
        floors = [first for first, _ in self.rows]
        if not floors or floors != sorted(set(floors)):
            raise ValueError(f"a table's floors must be ascending and distinct, got {floors}")

    @property
    def first(self) -> int:
        """The first floor of the first row."""
        return self.rows[0][0]

    def at(self, floor: int) -> T:
        reached = [value for first, value in self.rows if floor >= first]
        if reached:
            return reached[-1]
        return self.rows[0][1] if self.before is None else self.before

    def values(self) -> tuple[T, ...]:
        """Every row's value, shallowest first."""
        return tuple(value for _, value in self.rows)


@dataclass(frozen=True)
class Ramp(Generic[N]):
    """``first`` at ``origin`` (floor 1, or room depth 0), ``step`` more for every ``every``
    floors (or levels of depth) below it, growing no further than at ``until`` and never past
    ``most``."""

    first: N
    step: N
    most: N | None = None
    until: int | None = None
    origin: int = 1
    every: int = 1

    def at(self, n: int) -> N:
        if self.until is not None:
            n = min(n, self.until)
        value = self.first + self.step * ((n - self.origin) // self.every)
        return value if self.most is None else min(self.most, value)


# --- stage 1: the topology ------------------------------------------------------------------------

#: A floor's topology by floor: (the range of its room count, its keys). The first floors keep
#: ``DungeonParams``' defaults; from floor 3 each floor adds 2-3 rooms and every other floor a
#: key, until floor 10 (31-44 rooms, 6 keys); the other ranges follow the rooms
#: (``DungeonParams.scaled``).
TOPOLOGY: Steps[tuple[tuple[int, int], int]] = Steps(
    (
        (1, ((15, 20), 3)),
        (3, ((17, 23), 4)),
        (4, ((19, 26), 4)),
        (5, ((21, 29), 5)),
        (6, ((23, 32), 5)),
        (7, ((25, 35), 6)),
        (8, ((27, 38), 6)),
        (9, ((29, 41), 6)),
        (10, ((31, 44), 6)),
    )
)

# --- stage 2: the special rooms' odds (the rooms themselves: roguelike/gen/special.py) --------


@dataclass(frozen=True)
class Odds:
    """A special room's chance, in percent, of standing in a room it suits: none on a floor
    above ``by_floor``'s first row or in a room shallower than ``least_depth``; else
    ``by_floor``'s value at the floor plus ``by_depth``'s at the room's depth."""

    by_floor: Steps[int]
    by_depth: Ramp[int] | None = None
    least_depth: int = 0

    @property
    def first_floor(self) -> int:
        return self.by_floor.first

    def at(self, floor: int, room_depth: int = 0) -> int:
        if floor < self.first_floor or room_depth < self.least_depth:
            return 0
        return self.by_floor.at(floor) + (
            0 if self.by_depth is None else self.by_depth.at(room_depth)
        )


#: A dead end holding no key is a treasure room: 35%, 5% more per level of depth up to depth 6.
TREASURE_ODDS = Odds(Steps(((1, 0),)), by_depth=Ramp(35, 5, until=6, origin=0))
#: A treasure room is a snare instead (from floor 2).
SNARE_ODDS = Odds(Steps(((2, 30),)))
#: A plain dead end at room depth 2 or more is an ambush (from floor 2).
AMBUSH_ODDS = Odds(Steps(((2, 25),)), least_depth=2)
#: A floor floods one of its passages (from floor 3).
FLOODED_ODDS = Odds(Steps(((3, 45),)))
#: A dead end left plain is the floor's sealed vault (from floor 2).
VAULT_ODDS = Odds(Steps(((2, 30),)))
#: A plain dead end left holds a captive (from floor 2).
CAPTIVE_ODDS = Odds(Steps(((2, 35),)))

#: A floor holds an optional pedestal whose puzzle changes the map (``roguelike/gen/changes.py``).
CHANGE_ODDS = Steps(((1, 45),))

# --- stage 5: the terrain ----------------------------------------------------------------------

#: The theme that dresses a floor (``roguelike/gen/terrain.py``'s THEMES, by name): no chasm
#: before floor 5, no statue before floor 7.
THEME: Steps[str] = Steps(
    ((1, "mossy halls"), (3, "flooded caves"), (5, "broken depths"), (7, "the abyss"))
)

# --- stage 6: the generator's slots and traps ---------------------------------------------------

#: The Poisson mean of a room's monster slots, by the room's depth (growing to depth 6).
MONSTER_SLOTS: Ramp[float] = Ramp(0.5, 0.3, until=6, origin=0)
#: What a slot's level adds to its room's depth, by floor (one per floor below the first).
SLOT_LEVEL: Ramp[int] = Ramp(0, 1)
#: The Poisson mean of a floor's hidden traps (beside a snare's rings), by floor.
TRAPS: Ramp[float] = Ramp(1.0, 0.6)

# --- the engine: who lives on a floor -----------------------------------------------------------

#: The share of monster slots filled (before the difficulty's multiplier), by floor.
FILL: Ramp[float] = Ramp(0.6, 0.08, most=0.9)
#: The strongest a slot's monster level gets, by floor, however deep its room: on the first
#: floor a deep room reached the kinds of level 4 and 5 (gnoll sentinels, goblin archers,
#: bugbears), met by a player of level 1-3, and the first floor held more of the deaths than
#: any other; its deepest rooms now stop at hounds and goblins. No cap below.
MONSTER_LEVEL_MOST: Steps[int | None] = Steps(((1, 3), (2, None)))
#: Chance (percent) that a monster slot in a key room holds a sentinel kind when one is deep
#: enough for it, by floor: none on the first floor (no slot there reaches a sentinel's level,
#: ``MONSTER_LEVEL_MOST``), so the second floor teaches them.
SENTINEL_SHARE: Steps[int] = Steps(((2, 60),), before=0)
#: What a slot's monster level adds to half its room's depth (rounded up), by floor: two per
#: floor below the first. A kind lives at slots of its own level and above.
MONSTER_LEVEL: Ramp[int] = Ramp(0, 2)
#: The most companions a pack has, by floor (one on floor 1, two on floor 2 ...): packs grow
#: with depth, so the first floor teaches them.
PACK_MOST: Ramp[int] = Ramp(1, 1)
#: How many pockets of marsh gas hang over a floor's shallow water (engine/gas.py), by floor:
#: most where the caves are flooded, none in the abyss.
GAS_POCKETS: Steps[int] = Steps(((1, 1), (3, 3), (5, 1), (7, 0)))
#: What a dart trap adds to its damage, by floor (one per floor below the first).
DART_BONUS: Ramp[int] = Ramp(0, 1)
#: The kinds a captive may be, by the first floor each tier holds them: a captive room draws one
#: kind of the deepest tier its floor reaches (deeper floors give stronger allies).
CAPTIVE_KINDS: Steps[tuple[str, ...]] = Steps(
    (
        (2, ("goblin", "hound")),
        (4, ("orc", "skeleton")),
        (6, ("ogre", "wraith")),
        (8, ("troll", "stone golem")),
    )
)

# --- the puzzle rooms ---------------------------------------------------------------------------

#: The share of a floor's keys that are puzzle pedestals: a third on the first floor, a tenth
#: more each floor below, at most 80%.
PUZZLE_SHARE: Ramp[float] = Ramp(1 / 3, 0.1, most=0.8)
#: The most puzzle pedestals a floor holds besides its vaults' seals, whatever the share draws:
#: puzzles are a room of the dungeon, not the game between two staircases.
PUZZLE_MOST: Steps[int] = Steps(((1, 2),))
#: A puzzle's difficulty level (an index into ``roguelike.puzzles.DIFFICULTIES``, capped at the
#: hardest): one level every other floor, plus one for every four levels of the room's depth.
PUZZLE_LEVEL_BY_FLOOR: Ramp[int] = Ramp(0, 1, every=2)
PUZZLE_LEVEL_BY_DEPTH: Ramp[int] = Ramp(0, 1, every=4, origin=0)
