"""Keys and doors: a corridor planning puzzle, drawn by clingo, with its optimal plan.

A main corridor of rooms 1..r (start 1, goal r) and one side branch of h rooms (numbered
r+1..r+h) leaving main room ``junction``. Door K stands at the entrance of a room, between it
and the room before it (a corridor: walking either way between the two needs it open); key K
opens it and is used up. The player carries one key at most; a room holds one key at most.

Actions (a move is its name): ``left``/``right`` walk along the corridor the player is in
(``right`` leads away from the start, in the branch too), ``enter`` goes from the junction into
the first branch room and ``leave`` back (their words follow the board as drawn, where the
branch hangs down from the junction: in the branch ``right`` reads "go down"), ``take`` picks
up the key lying here, ``drop`` lays the held key here, ``open`` uses the held key on its door
when that door borders the player's room (at its entrance, or one step ahead).

What makes it a puzzle is the one-slot hand: a key won early whose door lies behind another
door must be carried forward and put down to take the other key (``ferry``). How much an
instance asks is measured in :mod:`roguelike.puzzles.keydoor_measures`; the instances are drawn
by clingo in :mod:`roguelike.puzzles.keydoor_gen`, which also holds the par tables, the shape a
seed draws and the type's record (``TYPE``): this module is the board, its rules and shapes and
its solver, and imports neither.

Hints from any state use the breadth-first search (the state space is small: ``MAX_ROOMS``
and ``MAX_KEYS`` bound it for hand-written instances); the tests check both agree, action by
action.

State: ``(room, held key or 0, where each key lies (0: held or used), opened doors bitmask)``.
JSON config: ``{"rooms": 6, "branch": 3, "junction": 2, "doors": [room of door 1, ...],
"keys": [room of key 1, ...], "plan": ["right", "enter", ...]}``; state: ``{"room": 1,
"held": 0, "keys": [...], "opened": [door numbers]}``; move: the action's name. A given
``plan`` must play from the start to the goal in ``par`` actions (checked, never trusted); a
state must hold together (no key both held and lying, none held or lying whose door is open,
one key per room, doors that exist), and a config stays within ``MAX_ROOMS`` rooms and
``MAX_KEYS`` keys: anything else is refused with PuzzleFormatError.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from roguelike.puzzles.base import (
    HINT_BUDGET,
    IllegalMove,
    PuzzleFormatError,
    astar_distance,
    bfs_pairs,
    envelope,
    int_list,
    is_int,
    open_envelope,
)

State = tuple[int, int, tuple[int, ...], int]
Move = str

#: The actions, in the order the rules try them (the encoding names them the same way).
ACTIONS: tuple[str, ...] = ("left", "right", "enter", "leave", "take", "drop", "open")


@dataclass(frozen=True)
class Shape:
    """A kind of board: its layout, its rules, and what the encoding must put in it.

    ``branches``: side branches (1 or 2); ``hand``: keys the player carries at most (1: a
    one-key hand, with drop; 2: a two-key hand that never puts a key down); ``keys``: keys at
    least; ``eats``: doors use up their keys (else each keeps its key, which stays in
    the hand, spent); ``across``, ``nested``, ``crossing``: the encoding's rules of that name
    (a key ferried across the branch; a door behind another in a branch; a key of one branch
    that opens a door in the other). The level's own rules (``keydoor_gen.SIZE``: the chain and
    ferry rules, the drop filter) apply to the first shape only, the thesis's board; the
    others take the level's sizes, with ``keys`` keys at least and two rooms in a branch at
    least."""

    name: str
    title: str
    branches: int = 1
    hand: int = 1
    keys: int = 2
    eats: bool = True
    across: int = 0
    nested: int = 0
    crossing: int = 0


#: The shapes a keydoor board is drawn from, in the order a run meets them
#: (``keydoor_gen.run_seed``).
SHAPES: tuple[Shape, ...] = (
    Shape("branch", "one side branch, as in the source thesis"),
    Shape("two-branches", "two side branches", branches=2),
    Shape("ferry", "a key to ferry across the branch", eats=False, across=1),
    Shape("nested", "nested doors", hand=2, keys=3, nested=1),
    Shape("crossing", "a key that crosses between branches", branches=2, eats=False, crossing=1),
)
SHAPE_NAMES: tuple[str, ...] = tuple(s.name for s in SHAPES)
SHAPE_TITLES: dict[str, str] = {s.name: s.title for s in SHAPES}


#: The largest hand-written instance ``from_json`` accepts: rooms (main and branch together)
#: and keys. A state is (room, each key lying in a room, held or used), so the search sees at
#: most MAX_ROOMS * (MAX_ROOMS + 2) ** MAX_KEYS = 93,312 states.
MAX_ROOMS = 16
MAX_KEYS = 3

#: The rules in a few lines, for players (the puzzle screen's ``?``; :meth:`KeyDoor.board_rules`
#: adds the rules of the board at hand).
RULES = """\
A corridor of rooms leads from the start to the goal, with one or two side branches. Locked
doors stand at the entrances of some rooms; key K opens door K only.

A room holds one key at most: take a key, drop it (with a one-key hand), or open a door next to
you (the door of your room or of a room one step further on). A locked door bars the way both
ways. Boards differ in two rules: a one-key hand (you carry one key at a time) or a bag (you
carry every key you take, and never put one down); a door that eats its key (used up) or one
that keeps it (the spent key stays in your hand). Reach the goal in as few actions as you can.
Some actions cannot be taken back: you may have to start again."""


class Corridor(NamedTuple):
    """A corridor's tables, whatever its doors (``KeyDoor._corridor``; the boards of one
    corridor share them): per room its walks out (action, room reached, the room whose entrance
    door the walk crosses), the rooms whose entrance doors border it, its way to the goal
    (steps, the rooms whose entrance doors it crosses) and ``via``: the steps of a walk from it
    to each room (by number, 0 unused) and on to the goal."""

    walks: dict[int, tuple[tuple[str, int, int], ...]]
    beside: dict[int, tuple[int, ...]]
    ways: dict[int, tuple[int, tuple[int, ...]]]
    via: dict[int, tuple[int, ...]]


#: The tables of the corridors met so far, by (rooms, branch, junction, branch2, junction2).
_CORRIDORS: dict[tuple[int, int, int, int, int], Corridor] = {}


def keys_of(held: int) -> list[int]:
    """The numbers of the keys in a held bitmask, lowest first."""
    return [k + 1 for k in range(held.bit_length()) if held >> k & 1]


@dataclass(frozen=True)
class KeyDoor:
    rooms: int
    branch: int
    junction: int
    doors: tuple[int, ...]  # doors[K-1]: the room door K guards
    keys: tuple[int, ...]  # keys[K-1]: the room key K starts in
    plan: tuple[str, ...] = ()  # an optimal plan, the search's (empty for a hand-made one)
    difficulty: str = "easy"
    par: int = 0
    branch2: int = 0  # rooms of a second side branch (numbered after the first's), 0: none
    junction2: int = 0  # the main room the second branch leaves from (not ``junction``)
    hand: int = 1  # keys carried at most: 1 (a one-key hand, with drop), or more (no drop)
    keeps: tuple[int, ...] = ()  # the doors that keep their key (the others eat it)
    shape: str = "branch"  # the name of the shape it was drawn from (:data:`SHAPES`)
    _cache: dict[State, list[Move] | None] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    # per room: the walks out (action, room reached, bit of the door crossed or 0), the doors
    # that border it (a bitmask: bit K-1 for door K, as in a state's held and opened keys), its
    # way to the goal (steps, the doors on it as a bitmask), and the steps of a walk from it to
    # each room then to the goal; the doors that keep their key (tables for ``moves``, the
    # searches and ``distance``, filled by __post_init__)
    _exits: dict[int, tuple[tuple[str, int, int], ...]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    _borders: dict[int, int] = field(default_factory=dict, compare=False, hash=False, repr=False)
    _ways: dict[int, tuple[int, int]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    _via: dict[int, tuple[int, ...]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    _kept: int = field(default=0, init=False, compare=False, hash=False, repr=False)

    type_name: ClassVar[str] = "keydoor"
    #: Can a move leave the goal out of reach? (opening a door uses its key up for good)
    dead_ends: ClassVar[bool] = True

    def __post_init__(self) -> None:
        total = self.total
        if self.rooms < 2 or self.branch < 0 or self.branch2 < 0:
            raise ValueError("a corridor needs two rooms at least")
        if self.branch and not 1 <= self.junction < self.rooms:
            raise ValueError("the branch must leave a main room before the last")
        j2 = self.junction2
        if self.branch2 and (not self.branch or not 1 <= j2 < self.rooms or j2 == self.junction):
            raise ValueError("a second branch leaves another main room before the last")
        if not 1 <= self.hand <= MAX_KEYS:
            raise ValueError(f"a hand holds 1..{MAX_KEYS} keys")
        if any(not 1 <= k <= len(self.keys) for k in self.keeps) or len(set(self.keeps)) != len(
            self.keeps
        ):
            raise ValueError("keeps names doors that exist, once each")
        if self.shape not in SHAPE_NAMES:
            raise ValueError(f"unknown shape {self.shape!r}")
        if len(self.doors) != len(self.keys):
            raise ValueError("every key has exactly one door")
        if any(not 1 <= x <= total for x in self.doors + self.keys):
            raise ValueError("a door or key is outside the rooms")
        if len(set(self.doors)) != len(self.doors) or len(set(self.keys)) != len(self.keys):
            raise ValueError("one door and one key per room at most")
        if any(a not in ACTIONS for a in self.plan):
            raise ValueError("unknown action in the plan")
        key = (self.rooms, self.branch, self.junction, self.branch2, self.junction2)
        if (corridor := _CORRIDORS.get(key)) is None:
            if len(_CORRIDORS) >= 4096:
                _CORRIDORS.clear()
            corridor = _CORRIDORS[key] = self._corridor()
        walks, beside, ways, via = corridor
        bit = [0] * (total + 1)  # per room, the bit of the door at its entrance (0: none)
        for k, room in enumerate(self.doors):
            bit[room] = 1 << k
        for r in range(1, total + 1):
            self._exits[r] = tuple((a, d, bit[g]) for a, d, g in walks[r])
            self._borders[r] = sum(bit[g] for g in beside[r])
            steps, gates = ways[r]
            self._ways[r] = (steps, sum(bit[g] for g in gates))
        self._via.update(via)
        object.__setattr__(self, "_kept", sum(1 << k >> 1 for k in self.keeps))

    def _corridor(self) -> Corridor:
        """The tables of this board's corridor, whatever its doors (:class:`Corridor`)."""
        total = self.total
        walks = {
            r: tuple(
                (a, d, self.gate(r, d))
                for a in ("left", "right", "enter", "leave")
                if (d := self.dest(a, r)) is not None
            )
            for r in range(1, total + 1)
        }
        beside = {r: tuple(self.beside(r)) for r in range(1, total + 1)}
        apart: dict[int, dict[int, int]] = {}
        for r in range(1, total + 1):  # breadth-first from each room: the rooms form a tree
            apart[r], near = {r: 0}, [r]
            for x in near:
                for _, d, _ in walks[x]:
                    if d not in apart[r]:
                        apart[r][d] = apart[r][x] + 1
                        near.append(d)
        goal = self.rooms
        ways: dict[int, tuple[int, tuple[int, ...]]] = {goal: (0, ())}
        for r in sorted(apart[goal], key=apart[goal].__getitem__):
            for _, d, g in walks[r]:
                if d not in ways:
                    ways[d] = (ways[r][0] + 1, (*ways[r][1], g))
        via = {r: (0, *(apart[r][x] + apart[x][goal] for x in range(1, total + 1))) for r in apart}
        return Corridor(walks, beside, ways, via)

    # --- the corridor ----------------------------------------------------------------------
    @property
    def total(self) -> int:
        """Rooms in all: the main corridor's and the branches'."""
        return self.rooms + self.branch + self.branch2

    def is_side(self, room: int) -> bool:
        return room > self.rooms

    def branch_of(self, room: int) -> tuple[int, int, int]:
        """A side room's branch: (its junction, its first room, its last room)."""
        first2 = self.rooms + self.branch + 1
        if self.branch2 and room >= first2:
            return self.junction2, first2, self.total
        return self.junction, self.rooms + 1, self.rooms + self.branch

    def dest(self, action: str, room: int) -> int | None:
        r = self.rooms
        if room <= r:
            if action == "right" and room < r:
                return room + 1
            if action == "left" and room > 1:
                return room - 1
            if action == "enter":
                if self.branch and room == self.junction:
                    return r + 1
                if self.branch2 and room == self.junction2:
                    return r + self.branch + 1
            return None
        junction, first, last = self.branch_of(room)
        if action == "right" and room < last:
            return room + 1
        if action == "left" and room > first:
            return room - 1
        if action == "leave" and room == first:
            return junction
        return None

    def ahead(self, room: int) -> list[int]:
        """The rooms one step further from the start than ``room``."""
        return [d for a in ("right", "enter") if (d := self.dest(a, room)) is not None]

    def beside(self, room: int) -> list[int]:
        """The rooms whose entrance doors border ``room``: its own, and those one step ahead."""
        return [room, *self.ahead(room)]

    def gate(self, a: int, b: int) -> int:
        """The room whose entrance door stands between neighbouring rooms ``a`` and ``b`` (the
        one further from the start): a step between them crosses that door, either way."""
        return b if b in self.ahead(a) else a

    def door_at(self, room: int) -> int:
        """The number of the door at the entrance of ``room`` (0: none)."""
        return self.doors.index(room) + 1 if room in self.doors else 0

    def constants(self) -> dict[str, int]:
        """The encoding's constants for this board's corridor and rules (``keys`` included;
        the caller adds ``horizon`` and the generation rules)."""
        return {
            "rooms": self.rooms,
            "branch": self.branch,
            "junction": self.junction,
            "branch2": self.branch2,
            "junction2": self.junction2,
            "keys": len(self.keys),
            "hand": self.hand,
            "eats": 1,
        }

    def encoding_facts(self) -> list[str]:
        """The encoding's facts that fix this instance: its doors, keys, and doors that keep
        their key."""
        facts = [f"given_door({i + 1},{d})." for i, d in enumerate(self.doors)]
        facts += [f"given_key({i + 1},{x})." for i, x in enumerate(self.keys)]
        return facts + [f"given_keeps({k})." for k in self.keeps]

    def room_name(self, room: int) -> str:
        if self.is_side(room):
            return f"side room {room - self.rooms}"
        return f"room {room}"

    def eats(self, k: int) -> bool:
        """Does door ``k`` use up its key?"""
        return k not in self.keeps

    def board_rules(self) -> str:
        """This board's own rules in one paragraph (the rules screen adds it)."""
        hand = (
            "You carry one key at a time (a one-key hand): drop one to take another."
            if self.hand == 1
            else "You carry every key you take (a bag): a key is never put down."
        )
        if not self.keeps:
            doors = "Every door eats its key: the key is used up."
        elif len(self.keeps) == len(self.doors):
            doors = "Every door keeps its key: the spent key stays in your hand."
        else:
            doors = (
                "Doors " + ", ".join(map(str, sorted(self.keeps))) + " keep their key (it stays"
                " in your hand, spent); the others eat theirs."
            )
        branches = (
            "two side branches"
            if self.branch2
            else "one side branch"
            if self.branch
            else ("no side branch")
        )
        return f"This board ({SHAPE_TITLES[self.shape]}): {branches}. {hand} {doors}"

    # --- rules -----------------------------------------------------------------------------
    def initial(self) -> State:
        return (1, 0, self.keys, 0)

    def _closed(self, s: State, room: int) -> bool:
        k = self.door_at(room)
        return bool(k) and not s[3] >> (k - 1) & 1

    def _opening(self, s: State) -> int:
        """The key ``open`` uses in ``s``: the lowest-numbered held key whose locked door
        borders the player's room (0: none)."""
        usable = s[1] & self._borders[s[0]] & ~s[3]
        return (usable & -usable).bit_length()

    def _why_not(self, s: State, a: str) -> str | None:
        """None if action ``a`` is legal in ``s``, else the reason in words."""
        room, held, where, _opened = s
        if a in ("left", "right", "enter", "leave"):
            d = self.dest(a, room)
            if d is None:
                return f"you cannot go {a} from {self.room_name(room)}"
            gate = self.gate(room, d)
            if self._closed(s, gate):
                return f"door {self.door_at(gate)} to {self.room_name(gate)} is locked"
            return None
        if a == "take":
            if held.bit_count() >= self.hand:
                return "your hand is full: drop the key you hold first"
            if room not in where:
                return "no key lies here"
            return None
        if a == "drop":
            if self.hand > 1:
                return "a key in the bag is never put down"
            if not held:
                return "you hold no key"
            if room in where:
                return "a key already lies here"
            return None
        if a == "open":
            if not held:
                return "you hold no key"
            if not self._opening(s):
                names = " or ".join(f"key {k}" for k in keys_of(held))
                return f"{names} opens no door next to you"
            return None
        return f"unknown action {a!r}"

    def moves(self, s: State) -> list[Move]:
        """The legal actions, in ACTIONS order (the same as ``_why_not`` allows, from tables)."""
        room, held, where, opened = s
        out = [a for a, _, b in self._exits[room] if opened & b == b]
        if held.bit_count() < self.hand and room in where:
            out.append("take")
        if held:
            if self.hand == 1 and room not in where:
                out.append("drop")
            if held & self._borders[room] & ~opened:
                out.append("open")
        return out

    def move_states(self, s: State) -> list[tuple[Move, State]]:
        """Each legal action with the state it leads to, in ``moves`` order (``_step`` of each,
        from tables: the searches' inner loop)."""
        room, held, where, opened = s
        out = [(a, (d, held, where, opened)) for a, d, b in self._exits[room] if opened & b == b]
        if room in where:
            if held.bit_count() < self.hand:
                k = where.index(room)
                taken = (*where[:k], 0, *where[k + 1 :])
                out.append(("take", (room, held | 1 << k, taken, opened)))
        elif held and self.hand == 1:
            k = held.bit_length() - 1
            out.append(("drop", (room, 0, (*where[:k], room, *where[k + 1 :]), opened)))
        if usable := held & self._borders[room] & ~opened:
            b = usable & -usable
            out.append(("open", (room, held if b & self._kept else held & ~b, where, opened | b)))
        return out

    def apply(self, s: State, m: Move) -> State:
        why = self._why_not(s, m) if isinstance(m, str) else f"not an action: {m!r}"
        if why is not None:
            raise IllegalMove(why)
        return self._step(s, m)

    def _step(self, s: State, m: Move) -> State:
        """The state after legal action ``m`` (unchecked: for the searches, which only try
        ``moves``)."""
        room, held, where, opened = s
        if m == "take":
            k = where.index(room) + 1
            return (room, held | 1 << (k - 1), where[: k - 1] + (0,) + where[k:], opened)
        if m == "drop":
            k = held.bit_length()  # the one key of a one-key hand
            return (room, 0, where[: k - 1] + (room,) + where[k:], opened)
        if m == "open":
            k = self._opening(s)
            kept = held if k in self.keeps else held & ~(1 << (k - 1))
            return (room, kept, where, opened | 1 << (k - 1))
        d = next(d for a, d, _ in self._exits[room] if a == m)
        return (d, held, where, opened)

    def is_solved(self, s: State) -> bool:
        return s[0] == self.rooms

    def solve(self, s: State, budget: int | None = None) -> list[Move] | None:
        """A shortest plan, the breadth-first search's; raises SearchLimit past ``budget``
        states. Without a budget, A* gives the plan's length first and the search keeps only
        the states that can lie on a plan that long (the same plan, from fewer states)."""
        if s not in self._cache:
            if budget is not None:
                plan = bfs_pairs(s, self.move_states, self.is_solved, budget=budget)
            elif (d := self.distance(s)) is None:
                plan = None
            else:
                plan = bfs_pairs(s, self.move_states, self.is_solved, within=(d, self.lower_bound))
            self._cache[s] = plan
        plan = self._cache[s]
        return None if plan is None else list(plan)

    def distance(self, s: State, bound: int | None = None) -> int | None:
        """The optimum's length from ``s`` (None: the goal is out of reach, or only in more than
        ``bound`` actions), without a plan: A* under :meth:`lower_bound`, which visits a
        fraction of the breadth-first search's states. The difficulty score asks it for the
        moves off the optimal line, the generator for a candidate's par."""
        return astar_distance(s, self.move_states, self.is_solved, self.lower_bound, bound)

    def lower_bound(self, s: State) -> int:
        """A consistent lower bound on the actions from ``s`` to the goal: the steps of the way
        there (by the room of each key still to take for a locked door on it, if that is
        longer), one ``open`` for each of those doors, and one ``take`` for each whose key is
        not in hand. An action changes it by one at most (a key is taken or put down where the
        player stands, which adds no steps), so A* under it never reopens a state."""
        room, held, where, opened = s
        steps, doors = self._ways[room]
        locked = doors & ~opened
        if need := locked & ~held:
            via = self._via[room]
            steps = max(steps, *(via[x] for k, x in enumerate(where) if need >> k & 1))
        return steps + locked.bit_count() + need.bit_count()

    # --- words -----------------------------------------------------------------------------
    def describe_move(self, m: Move, s: State | None = None) -> str:
        words = {
            "left": "go left (towards the start), or up in the branch",
            "right": "go right (away from the start), or down in the branch",
            "enter": "go down into the side branch",
            "leave": "go up out of the side branch",
            "take": "take the key",
            "drop": "drop the key you hold",
            "open": "open the door next to you",
        }
        if s is not None:
            room, held, where, _ = s
            if m == "take" and room in where:
                return f"take key {where.index(room) + 1}"
            if m == "drop" and held:
                return f"drop key {held.bit_length()}"
            if m == "open" and (k := self._opening(s)):
                return f"open door {k} with key {k}"
            d = self.dest(m, room)
            if d is not None:
                return f"{self._way(m, room)} to {self.room_name(d)}"
        return words[m]

    def _way(self, m: Move, room: int) -> str:
        """A walk in the words of the board as drawn: the main corridor runs left to right, the
        side branch hangs down from its junction, so in the branch ``right`` goes down."""
        if m in ("left", "right") and self.is_side(room):
            return "go down the branch" if m == "right" else "go up the branch"
        return {
            "left": "go left (towards the start)",
            "right": "go right (away from the start)",
            "enter": "go down into the side branch",
            "leave": "go up out of the side branch",
        }[m]

    def _hint_key(self, s: State, m: Move) -> int:
        """The key a ``drop`` or ``open`` in ``s`` handles (0: none)."""
        return s[1].bit_length() if m == "drop" else self._opening(s) if m == "open" else 0

    def nudge(self, s: State, tier: int) -> str:
        plan = self.solve(s, HINT_BUDGET)  # raises SearchLimit past it
        if plan is None:
            return "The goal cannot be reached any more: start the puzzle again."
        if not plan:
            return "You are at the goal."
        cur = s
        for m in plan:
            room, held, where, _ = cur
            if m == "take":
                k = where.index(room) + 1
                door = self.room_name(self.doors[k - 1])
                if tier <= 1:
                    return f"You need key {k} next (it opens the door to {door})."
                return f"Key {k} lies in {self.room_name(room)}: go there and take it."
            if m == "open":
                held = self._hint_key(cur, m)
                door = self.room_name(self.doors[held - 1])
                if tier <= 1:
                    return f"The key you carry, key {held}, is the one that matters now."
                return f"Take key {held} to the door of {door} and open it."
            if m == "drop":
                held = self._hint_key(cur, m)
                if tier <= 1:
                    return f"Your hand has to be free soon: key {held} cannot stay in it."
                return f"Drop key {held} in {self.room_name(room)}."
            cur = self.apply(cur, m)
        return f"Walk to {self.room_name(self.rooms)}: the way is open."

    def facts(self, s: State) -> frozenset[Hashable]:
        """What a milestone may name: each open door (``("open", door)``, read from the state's
        JSON so that it holds for every shape the solver plans)."""
        return frozenset(("open", k) for k in self.state_to_json(s)["opened"])

    def milestone_words(
        self, new: frozenset[Hashable], s: State, plan: Sequence[Move], at: int
    ) -> str:
        """The plan's own steps up to the milestone: each ``take``, ``drop`` and ``open`` on the
        way, in words ("take key 2 in room 2, then open door 2 with key 2")."""
        words, cur = [], s
        for m in plan[:at]:
            if m in ("take", "drop"):
                room = self.room_name(self.state_to_json(cur)["room"])
                words.append(f"{self.describe_move(m, cur)} in {room}")
            elif m == "open":
                words.append(self.describe_move(m, cur))
            cur = self.apply(cur, m)
        return ", then ".join(words)

    def render_text(self, s: State) -> str:
        """One line per room (what lies there, the doors, where you are), as plain text."""
        room, held, where, opened = s
        lines = []
        for r in range(1, self.total + 1):
            notes = []
            if r == 1:
                notes.append("start")
            if r == self.rooms:
                notes.append("goal")
            if (self.branch and r == self.junction) or (self.branch2 and r == self.junction2):
                notes.append("a side branch leaves here")
            if k := self.door_at(r):
                eats = "" if self.eats(k) else ", keeps its key"
                notes.append(
                    f"door {k} " + ("(open" if opened >> (k - 1) & 1 else "(locked") + eats + ")"
                )
            notes += [f"key {k + 1}" for k, at in enumerate(where) if at == r]
            if r == room:
                notes.append("YOU")
            lines.append((f"{self.room_name(r):<14} " + ", ".join(notes)).rstrip())
        keys = ", ".join(f"key {k}" for k in keys_of(held)) or "nothing"
        lines.append(f"holding: {keys}")
        lines.append(self.board_rules())
        return "\n".join(lines)

    # --- JSON ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return envelope(
            self,
            {
                "rooms": self.rooms,
                "branch": self.branch,
                "junction": self.junction,
                "doors": list(self.doors),
                "keys": list(self.keys),
                "plan": list(self.plan),
                "branch2": self.branch2,
                "junction2": self.junction2,
                "hand": self.hand,
                "keeps": list(self.keeps),
                "shape": self.shape,
            },
        )

    @classmethod
    def from_json(cls, d: Any) -> KeyDoor:
        """The instance of a JSON document; refuses (PuzzleFormatError) a malformed one, one
        larger than MAX_ROOMS rooms or MAX_KEYS keys, and a plan that does not play from the
        start to the goal in ``par`` actions (a given plan is checked, never trusted)."""
        difficulty, par, c, _state = open_envelope(d, cls.type_name)
        try:
            plan = c.get("plan", [])
            if not isinstance(plan, list) or not all(isinstance(a, str) for a in plan):
                raise ValueError("plan must be a list of action names")
            rooms, branch, junction = (_integer(c[k], k) for k in ("rooms", "branch", "junction"))
            doors, keys = int_list(c["doors"], "doors"), int_list(c["keys"], "keys")
            # the shape's fields: a document without them has the first rules (one branch, a
            # one-key hand, doors that eat their keys)
            branch2 = _integer(c.get("branch2", 0), "branch2")
            junction2 = _integer(c.get("junction2", 0), "junction2")
            hand = _integer(c.get("hand", 1), "hand")
            keeps = int_list(c.get("keeps", []), "keeps")
            shape = c.get("shape", "branch")
            if not isinstance(shape, str) or shape not in SHAPE_NAMES:
                raise ValueError(f"shape must be one of {', '.join(SHAPE_NAMES)}")
            if rooms + branch + branch2 > MAX_ROOMS or len(keys) > MAX_KEYS:
                raise ValueError(
                    f"{rooms + branch + branch2} rooms and {len(keys)} keys: at most {MAX_ROOMS}"
                    f" rooms and {MAX_KEYS} keys"
                )
            if 1 in doors:
                raise ValueError("the start has no entrance for a door")
            p = cls(
                rooms,
                branch,
                junction,
                tuple(doors),
                tuple(keys),
                tuple(plan),
                difficulty,
                par,
                branch2,
                junction2,
                hand,
                tuple(sorted(keeps)),
                shape,
            )
        except (KeyError, TypeError, ValueError) as e:
            raise PuzzleFormatError(f"bad keydoor config: {e}") from None
        if plan and (len(plan) != par or not plays(p, plan)):
            raise PuzzleFormatError(
                f"bad keydoor config: the plan does not reach the goal in par ({par}) actions"
            )
        return p

    def state_to_json(self, s: State) -> dict[str, Any]:
        room, held, where, opened = s
        doors = [k + 1 for k in range(len(self.doors)) if opened >> k & 1]
        carried: int | list[int] = keys_of(held) if held.bit_count() > 1 else held.bit_length()
        return {"room": room, "held": carried, "keys": list(where), "opened": doors}

    def state_from_json(self, d: Any) -> State:
        """The state of a JSON object; refuses (PuzzleFormatError) one that does not fit the
        corridor or is inconsistent: a key both held and lying, a held or lying key whose door
        is open and ate it (it was used up), a spent key of a door that keeps it that is
        nowhere, more keys held than the hand holds, two keys in one room, an unknown door.
        ``held`` is a key number (0: nothing), or a list of key numbers."""
        if not isinstance(d, dict):
            raise PuzzleFormatError("a keydoor state is an object")
        try:
            room = _integer(d["room"], "room")
            raw = d["held"]
            carried = int_list(raw, "held") if isinstance(raw, list) else [_integer(raw, "held")]
            where = tuple(int_list(d["keys"], "keys"))
            opened_list = int_list(d["opened"], "opened")
        except KeyError as e:
            raise PuzzleFormatError(f"bad keydoor state: {e} is missing") from None
        except ValueError as e:
            raise PuzzleFormatError(f"bad keydoor state: {e}") from None
        n, total = len(self.keys), self.total

        def bad(why: str) -> PuzzleFormatError:
            return PuzzleFormatError(f"bad keydoor state: {why}")

        if not 1 <= room <= total:
            raise bad(f"room {room} is not one of rooms 1..{total}")
        carried = [k for k in carried if k] if len(carried) == 1 else carried
        for k in carried:
            if not 1 <= k <= n:
                raise bad(f"held must be 0 (nothing) or keys 1..{n}, got {k}")
        if len(set(carried)) != len(carried):
            raise bad("a key is held twice")
        if len(carried) > self.hand:
            raise bad(f"{len(carried)} keys held: the hand holds {self.hand}")
        held = sum(1 << (k - 1) for k in carried)
        if len(where) != n:
            raise bad(f"keys must give the room of each of the {n} keys (0: held or used)")
        for k, at in enumerate(where, 1):
            if not 0 <= at <= total:
                raise bad(f"key {k} lies in room {at}, which does not exist")
        lying = [at for at in where if at]
        if len(set(lying)) != len(lying):
            raise bad("two keys lie in one room")
        for door in opened_list:
            if not 1 <= door <= n:
                raise bad(f"door {door} does not exist (doors 1..{n})")
        if len(set(opened_list)) != len(opened_list):
            raise bad("a door is listed twice in opened")
        opened = sum(1 << (k - 1) for k in opened_list)
        for k in carried:
            if where[k - 1]:
                raise bad(f"key {k} is both held and lying in room {where[k - 1]}")
            if k in opened_list and self.eats(k):
                raise bad(f"key {k} is held but its door is open (the key was used up)")
        for k in opened_list:
            if where[k - 1] and self.eats(k):
                raise bad(f"key {k} lies in room {where[k - 1]} but its door is open (used up)")
            if not self.eats(k) and not where[k - 1] and k not in carried:
                raise bad(f"key {k} is nowhere, but its door keeps it")
        return (room, held, where, opened)

    def move_to_json(self, m: Move) -> str:
        return m

    def move_from_json(self, d: Any) -> Move:
        if d not in ACTIONS:
            raise PuzzleFormatError(f"unknown action {d!r}")
        return d


def _integer(v: Any, what: str) -> int:
    """``v`` if it is an int (not a bool), else ValueError naming the field."""
    if not is_int(v):
        raise ValueError(f"{what} must be an integer, got {v!r}")
    return v


def plays(p: KeyDoor, plan: list[str]) -> bool:
    """Does ``plan`` follow the rules and end at the goal?"""
    s = p.initial()
    for a in plan:
        if p._why_not(s, a) is not None:
            return False
        s = p.apply(s, a)
    return p.is_solved(s)
