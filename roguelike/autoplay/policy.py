"""What the autoplayer is and remembers: its :class:`Policy`, its :class:`Memory`, the
:class:`Decision` it gives, and the numbers more than one of its jobs reads.

A :class:`Policy` makes it a measuring instrument: ``invulnerable`` (blows cannot kill it: does
every world let a player find the keys, solve the puzzles and take every stair?), and
ablations that show what a part of the game is worth to survival: ``no_items`` (it never uses
a consumable), ``skip_treasure`` (it never sets foot in a treasure room; it walks step by
step around them, so it reads the floor's room roles, which a person would learn by looking),
``ignore_fire`` (it pays fire no mind: its walks go through burning cells as over floor, it
never steps out of fire nor off a breather's lines, fights on moss beside a fire-starter, and
never aims a bomb at moss or gas for the fire; it never walks into fire on purpose either),
``first_perk`` (it takes the first perk offered, not the one it prefers) and ``no_sneak`` (it
takes sleepers for awake monsters: it goes for each as for a threat, and next to one that has
not noticed it waits until it does, so it never lands a sneak attack nor keeps clear of a
sleeping group).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

import numpy as np

from roguelike.engine import Action
from roguelike.engine.creatures import Monster
from roguelike.engine.state import GameState
from roguelike.gen.roles import TREASURE_ROLES

#: A monster with at least this many HP is worth a bomb on its own (or a berserk potion).
BIG_HP = 14
#: Turns the autoplayer keeps looking for a monster it went for after it goes out of sight.
HUNT_TURNS = 20


#: Turns it waits in all for one monster to come (or stands its ground against it, or steps
#: off its breath's lines) before it gives up on that one until it comes next to it: a
#: monster that cannot reach the player (across a chasm, say), or a breather that keeps
#: finding a new line as the player keeps leaving it, must not hold it for ever.
PATIENCE = 12


@dataclass(frozen=True)
class Policy:
    """How the autoplayer plays: the measuring switches (see the module's docstring)."""

    invulnerable: bool = False
    no_items: bool = False
    skip_treasure: bool = False
    no_sneak: bool = False
    #: it pays fire no mind: it walks through the flames as over floor, never steps out of
    #: them nor off a breath's line, and never aims a bomb at moss or gas
    ignore_fire: bool = False
    #: it ignores the ways of the monsters whose answer is not a corridor: it stands in a
    #: breather's line and keeps its fire for the usual targets, not the ghosts
    naive_monsters: bool = False
    #: it takes the first perk offered at each level up, whatever it is
    first_perk: bool = False
    #: never drink or read an unknown potion or scroll (the gamble of identification, off)
    no_unknown: bool = False

    def describe(self) -> str:
        """The switches as the command line writes them, in the order they are declared ("" for
        the full autoplayer)."""
        on = (f.name for f in fields(self) if getattr(self, f.name))
        return " ".join("--" + name.replace("_", "-") for name in on)


FULL = Policy()


@dataclass
class Memory:
    """What the autoplayer remembers from one turn to the next, as a person would: where it
    last saw the monster it went for (on which floor, until which turn it keeps looking)."""

    hunt: tuple[int, int, int] | None = None  # (floor, x, y)
    until: int = 0
    kind: str = ""
    #: the monster's id (a person knows the one they saw die)
    target: int = -1
    #: the cells it has had in view on this floor (a mapping scroll shows the map, not what
    #: stands and lies there: going to look is still getting somewhere)
    seen: np.ndarray | None = None
    floor: int = 0
    #: how it plays
    policy: Policy = FULL
    #: the cells it keeps out of on this floor (treasure rooms, for ``skip_treasure``)
    avoid: np.ndarray | None = None
    #: where it has searched for traps on this floor (traps come in rings round treasure)
    searched: set[tuple[int, int]] = field(default_factory=set)
    #: turns it has waited for each monster (by id) to come; past ``PATIENCE``, it goes about
    #: its business until that monster stands next to it
    waited: dict[int, int] = field(default_factory=dict)
    #: steps it has taken off each breather's lines (by id); past ``PATIENCE`` it stops
    #: dodging that one and goes straight for it (a breather ignored breathes on a resting
    #: player for ever)
    dodged: dict[int, int] = field(default_factory=dict)
    #: turns it has waited on these stairs for its allies to come beside it
    stair_wait: int = 0
    #: the sleepers it has seen on this floor and not seen awake since (id → a copy of the
    #: monster as last seen): they do not move, so it keeps clear of them out of view too
    dozing: dict[int, Monster] = field(default_factory=dict)

    @property
    def heed_fire(self) -> bool:
        """Whether its walks step round the fire in view (all but ``ignore_fire``)."""
        return not self.policy.ignore_fire

    def observe(self, state: GameState) -> None:
        if (
            self.seen is None
            or self.floor != state.number
            or self.seen.shape != state.visible.shape
        ):
            self.seen, self.floor = state.visible.copy(), state.number
            self.searched = set()
            self.waited = {}
            self.dozing = {}
            self.avoid = treasure_cells(state) if self.policy.skip_treasure else None
        else:
            self.seen |= state.visible
        for m in state.visible_monsters():
            if m.awake:
                self.dozing.pop(m.id, None)
            else:
                self.dozing[m.id] = replace(m, extra=dict(m.extra))
        for mid, m in list(self.dozing.items()):  # seen gone (killed, or moved off)
            if state.visible[m.y, m.x] and state.monster_at(m.x, m.y) is None:
                del self.dozing[mid]


def treasure_cells(state: GameState) -> np.ndarray:
    """The cells of the floor's treasure rooms (dead ends that hold no key: keeping out of
    them never shuts the way to a key or the stairs)."""
    fl = state.floor
    rooms = [r for r, role in fl.roles.items() if role in TREASURE_ROLES]
    return np.isin(fl.room_map, rooms)


@dataclass(frozen=True)
class Decision:
    """An action and, in a few words, why (watch mode shows it)."""

    action: Action
    why: str
