"""Keys and doors: a corridor planning puzzle, generated with its optimal plan in clingo.

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
door must be carried forward and put down to take the other key (``ferry``). :func:`measures`
says how much an instance asks: whether forbidding ``drop`` lengthens the optimum, whether a
greedy player (:func:`greedy_plan`: the nearest usable key, never a drop) misses par, and how
many optimal plans there are. Over seeds 0..99 (``roguelike bench --only puzzle``), drop
matters / greedy misses par in: easy 0% / 0%, medium 0% / 0%, hard 71% / 71%, very-hard
100% / 100% (the greedy player never drops, so it misses par wherever drop matters); the
median number of optimal plans is 1 at every level. Generating a very-hard one took a median
of about 240 ms (p99 about 0.8 s) on a shared two-core machine, most of it clingo's proof that
no plan is shorter, which grows steeply with par (hence very-hard's par is capped at 24).

Generation: ``asp/keydoor.lp`` chooses the instance (doors, keys) under its rules (no door in
the first room, no key behind its own door, a key in the branch that opens a door on the main
corridor, at hard and very-hard a key to ferry, ...; horizon 0: no plan yet); a breadth-first
search in Python gives its optimum and plan, very-hard keeps only instances where drop
matters, and the same encoding, with the instance fixed, checks that plan under its own rules
and proves that no plan is shorter, which makes the par optimal twice over. The plan is
stored with the instance. Hints from any state use the breadth-first search (the state space
is small: ``MAX_ROOMS`` and ``MAX_KEYS`` bound it for hand-written instances); the tests check
both agree, action by action.

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

from asp import solve as asp_solve
from roguelike import seeds
from roguelike.puzzles.base import (
    HINT_BUDGET,
    Calibration,
    GenerationError,
    IllegalMove,
    PuzzleFormatError,
    PuzzleType,
    Unsolvable,
    bfs_plan,
    check_difficulty,
    envelope,
    in_range,
    int_list,
    is_int,
    open_envelope,
    rng_for,
)

State = tuple[int, int, tuple[int, ...], int]
Move = str

#: The actions, in the order the rules try them (the encoding names them the same way).
ACTIONS: tuple[str, ...] = ("left", "right", "enter", "leave", "take", "drop", "open")

#: Optimal action counts per difficulty.
PAR: dict[str, tuple[int, int]] = {
    "easy": (7, 12),
    "medium": (11, 16),
    "hard": (15, 22),
    "very-hard": (19, 24),
}


class Shape(NamedTuple):
    """How a difficulty's instances are drawn (the encoding's constants, and a filter)."""

    main: tuple[int, int]  # main corridor rooms, lo..hi
    branch: tuple[int, int]  # branch rooms, lo..hi
    keys: int
    chain: int  # 1: key K+1 lies behind door K (the keys are won one after another)
    ferry: int  # 1: some key lies 3+ steps before the key of a door that stands before its own
    drop: bool  # keep only instances where drop matters (Measures.drop_matters)


SHAPE: dict[str, Shape] = {
    "easy": Shape((4, 5), (1, 2), 1, 0, 0, False),
    "medium": Shape((5, 6), (2, 2), 2, 1, 0, False),
    "hard": Shape((6, 7), (2, 2), 3, 0, 1, False),
    "very-hard": Shape((8, 8), (2, 3), 3, 0, 1, True),
}
#: The largest hand-written instance ``from_json`` accepts: rooms (main and branch together)
#: and keys. A state is (room, each key lying in a room, held or used), so the search sees at
#: most MAX_ROOMS * (MAX_ROOMS + 2) ** MAX_KEYS = 93,312 states.
MAX_ROOMS = 16
MAX_KEYS = 3
#: Conflicts clingo may spend on one call before it is re-seeded.
CONFLICT_LIMIT = 20000
ATTEMPTS = 60
RESEEDS = 4

#: The rules in a few lines, for players (the puzzle screen's ``?``).
RULES = """\
A corridor of rooms leads from the start to the goal, with one side branch. Locked doors stand
at the entrances of some rooms; key K opens door K and is used up.

You carry one key at most, and a room holds one key at most: take a key, drop yours, or open a
door next to you (the door of your room or of a room one step further on). A locked door bars
the way both ways. Reach the goal in as few actions as you can. Some actions cannot be taken
back: you may have to start again."""


@dataclass(frozen=True)
class KeyDoor:
    rooms: int
    branch: int
    junction: int
    doors: tuple[int, ...]  # doors[K-1]: the room door K guards
    keys: tuple[int, ...]  # keys[K-1]: the room key K starts in
    plan: tuple[str, ...] = ()  # an optimal plan, checked by clingo (empty for a hand-made one)
    difficulty: str = "easy"
    par: int = 0
    _cache: dict[State, list[Move] | None] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    # per room: the walks out (action, room reached, number of the door crossed or 0), and the
    # numbers of the doors that border it (tables for ``moves``, filled by __post_init__)
    _exits: dict[int, tuple[tuple[str, int, int], ...]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    _borders: dict[int, frozenset[int]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    type_name: ClassVar[str] = "keydoor"
    #: Can a move leave the goal out of reach? (opening a door uses its key up for good)
    dead_ends: ClassVar[bool] = True

    def __post_init__(self) -> None:
        total = self.rooms + self.branch
        if self.rooms < 2 or self.branch < 0:
            raise ValueError("a corridor needs two rooms at least")
        if self.branch and not 1 <= self.junction < self.rooms:
            raise ValueError("the branch must leave a main room before the last")
        if len(self.doors) != len(self.keys):
            raise ValueError("every key has exactly one door")
        if any(not 1 <= x <= total for x in self.doors + self.keys):
            raise ValueError("a door or key is outside the rooms")
        if len(set(self.doors)) != len(self.doors) or len(set(self.keys)) != len(self.keys):
            raise ValueError("one door and one key per room at most")
        if any(a not in ACTIONS for a in self.plan):
            raise ValueError("unknown action in the plan")
        for r in range(1, total + 1):
            out = []
            for a in ("left", "right", "enter", "leave"):
                if (d := self.dest(a, r)) is not None:
                    out.append((a, d, self.door_at(self.gate(r, d))))
            self._exits[r] = tuple(out)
            self._borders[r] = frozenset(self.door_at(g) for g in self.beside(r)) - {0}

    # --- the corridor ----------------------------------------------------------------------
    def is_side(self, room: int) -> bool:
        return room > self.rooms

    def dest(self, action: str, room: int) -> int | None:
        r, h = self.rooms, self.branch
        if action == "right":
            if room < r or r < room < r + h:
                return room + 1
        elif action == "left":
            if 1 < room <= r or r + 1 < room:
                return room - 1
        elif action == "enter":
            if h and room == self.junction:
                return r + 1
        elif action == "leave" and h and room == r + 1:
            return self.junction
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

    def room_name(self, room: int) -> str:
        if self.is_side(room):
            return f"side room {room - self.rooms}"
        return f"room {room}"

    # --- rules -----------------------------------------------------------------------------
    def initial(self) -> State:
        return (1, 0, self.keys, 0)

    def _closed(self, s: State, room: int) -> bool:
        k = self.door_at(room)
        return bool(k) and not s[3] >> (k - 1) & 1

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
            if held:
                return "your hand is full: drop the key you hold first"
            if room not in where:
                return "no key lies here"
            return None
        if a == "drop":
            if not held:
                return "you hold no key"
            if room in where:
                return "a key already lies here"
            return None
        if a == "open":
            if not held:
                return "you hold no key"
            if not any(self.door_at(d) == held and self._closed(s, d) for d in self.beside(room)):
                return f"key {held} opens no door next to you"
            return None
        return f"unknown action {a!r}"

    def moves(self, s: State) -> list[Move]:
        """The legal actions, in ACTIONS order (the same as ``_why_not`` allows, from tables)."""
        room, held, where, opened = s
        out = [a for a, _, k in self._exits[room] if not k or opened >> (k - 1) & 1]
        if held:
            if room not in where:
                out.append("drop")
            if held in self._borders[room] and not opened >> (held - 1) & 1:
                out.append("open")
        elif room in where:
            out.append("take")
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
            return (room, k, where[: k - 1] + (0,) + where[k:], opened)
        if m == "drop":
            return (room, 0, where[: held - 1] + (room,) + where[held:], opened)
        if m == "open":
            return (room, 0, where, opened | 1 << (held - 1))
        d = self.dest(m, room)
        assert d is not None
        return (d, held, where, opened)

    def is_solved(self, s: State) -> bool:
        return s[0] == self.rooms

    def solve(self, s: State, budget: int | None = None) -> list[Move] | None:
        """A shortest plan (breadth-first); raises SearchLimit past ``budget`` states."""
        if s not in self._cache:
            self._cache[s] = bfs_plan(s, self.moves, self._step, self.is_solved, budget=budget)
        plan = self._cache[s]
        return None if plan is None else list(plan)

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
            if m in ("drop", "open") and held:
                return f"drop key {held}" if m == "drop" else f"open door {held} with key {held}"
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
                door = self.room_name(self.doors[held - 1])
                if tier <= 1:
                    return f"The key you carry, key {held}, is the one that matters now."
                return f"Take key {held} to the door of {door} and open it."
            if m == "drop":
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
        for r in range(1, self.rooms + self.branch + 1):
            notes = []
            if r == 1:
                notes.append("start")
            if r == self.rooms:
                notes.append("goal")
            if self.branch and r == self.junction:
                notes.append("the side branch leaves here")
            if k := self.door_at(r):
                notes.append(f"door {k} " + ("(open)" if opened >> (k - 1) & 1 else "(locked)"))
            notes += [f"key {k + 1}" for k, at in enumerate(where) if at == r]
            if r == room:
                notes.append("YOU")
            lines.append((f"{self.room_name(r):<14} " + ", ".join(notes)).rstrip())
        lines.append(f"holding: key {held}" if held else "holding: nothing")
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
            if rooms + branch > MAX_ROOMS or len(keys) > MAX_KEYS:
                raise ValueError(
                    f"{rooms + branch} rooms and {len(keys)} keys: at most {MAX_ROOMS} rooms"
                    f" and {MAX_KEYS} keys"
                )
            if 1 in doors:
                raise ValueError("the start has no entrance for a door")
            p = cls(
                rooms, branch, junction, tuple(doors), tuple(keys), tuple(plan), difficulty, par
            )
        except (KeyError, TypeError, ValueError) as e:
            raise PuzzleFormatError(f"bad keydoor config: {e}") from None
        if plan and (len(plan) != par or not _plays(p, plan)):
            raise PuzzleFormatError(
                f"bad keydoor config: the plan does not reach the goal in par ({par}) actions"
            )
        return p

    def state_to_json(self, s: State) -> dict[str, Any]:
        room, held, where, opened = s
        doors = [k + 1 for k in range(len(self.doors)) if opened >> k & 1]
        return {"room": room, "held": held, "keys": list(where), "opened": doors}

    def state_from_json(self, d: Any) -> State:
        """The state of a JSON object; refuses (PuzzleFormatError) one that does not fit the
        corridor or is inconsistent: a key both held and lying, a held or lying key whose door
        is open (it was used up), two keys in one room, an unknown door."""
        if not isinstance(d, dict):
            raise PuzzleFormatError("a keydoor state is an object")
        try:
            room, held = _integer(d["room"], "room"), _integer(d["held"], "held")
            where = tuple(int_list(d["keys"], "keys"))
            opened_list = int_list(d["opened"], "opened")
        except KeyError as e:
            raise PuzzleFormatError(f"bad keydoor state: {e} is missing") from None
        except ValueError as e:
            raise PuzzleFormatError(f"bad keydoor state: {e}") from None
        n, total = len(self.keys), self.rooms + self.branch

        def bad(why: str) -> PuzzleFormatError:
            return PuzzleFormatError(f"bad keydoor state: {why}")

        if not 1 <= room <= total:
            raise bad(f"room {room} is not one of rooms 1..{total}")
        if not 0 <= held <= n:
            raise bad(f"held must be 0 (nothing) or a key 1..{n}, got {held}")
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
        if held and where[held - 1]:
            raise bad(f"key {held} is both held and lying in room {where[held - 1]}")
        if held and held in opened_list:
            raise bad(f"key {held} is held but its door is open (the key was used up)")
        for k in opened_list:
            if where[k - 1]:
                raise bad(f"key {k} lies in room {where[k - 1]} but its door is open (used up)")
        return (room, held, where, opened)

    def move_to_json(self, m: Move) -> str:
        return m

    def move_from_json(self, d: Any) -> Move:
        if d not in ACTIONS:
            raise PuzzleFormatError(f"unknown action {d!r}")
        return d


# --- measures --------------------------------------------------------------------------------
#: Optimal plans are counted up to this many (``Measures.optimal_plans``).
PLAN_COUNT_CAP = 1000


@dataclass(frozen=True)
class Measures:
    """How much thought an instance asks for (see :func:`measures`)."""

    par: int  # the optimum
    no_drop: int | None  # the optimum when ``drop`` is forbidden (None: then impossible)
    greedy: int | None  # the greedy player's action count (None: it gets stuck)
    optimal_plans: int  # distinct optimal plans, up to PLAN_COUNT_CAP

    @property
    def drop_matters(self) -> bool:
        """Forbidding ``drop`` makes the optimum longer, or the goal unreachable."""
        return self.no_drop is None or self.no_drop > self.par

    @property
    def greedy_misses(self) -> bool:
        """The greedy player gets stuck or takes more than par actions."""
        return self.greedy is None or self.greedy > self.par


def _walks(p: KeyDoor, s: State) -> dict[int, list[Move]]:
    """The shortest walk (its moves) from the player's room to every room reachable through
    the doors open in ``s``, in breadth-first order."""
    room, held, where, opened = s
    paths: dict[int, list[Move]] = {room: []}
    frontier = [room]
    for r in frontier:
        for a in ("left", "right", "enter", "leave"):
            if p._why_not((r, held, where, opened), a) is None:
                d = p.dest(a, r)
                assert d is not None
                if d not in paths:
                    paths[d] = paths[r] + [a]
                    frontier.append(d)
    return paths


def _spots(p: KeyDoor, s: State, paths: dict[int, list[Move]], k: int) -> list[int]:
    """The rooms of ``paths`` next to the door of key ``k`` if it is locked, nearest first."""
    if not p._closed(s, p.doors[k - 1]):
        return []
    near = [r for r in paths if p.doors[k - 1] in p.beside(r)]
    return sorted(near, key=lambda r: (len(paths[r]), r))


def greedy_plan(p: KeyDoor, start: State | None = None) -> list[Move] | None:
    """The plan of a player who never thinks ahead, from ``start`` (default: the start).

    Policy, applied until the goal is reached: when the goal can be walked to, walk there by
    the shortest way. Otherwise, with a key in hand whose door borders a reachable room, walk
    to the nearest such room and open it. Otherwise, with an empty hand, take the nearest key
    (fewest steps, then the lowest number) whose door is still locked and borders a reachable
    room, then go and open that door. The player never drops a key. None when it is stuck (a
    held key whose door cannot be reached, or no usable key; from a solvable start with an
    empty hand it never is: opening a door never shuts a way, and some key is always usable).
    """
    s = p.initial() if start is None else start
    plan: list[Move] = []

    def walk(moves: list[Move]) -> None:
        nonlocal s
        for m in moves:
            s = p.apply(s, m)
            plan.append(m)

    while not p.is_solved(s):
        paths = _walks(p, s)
        if p.rooms in paths:
            walk(paths[p.rooms])
            break
        held, where = s[1], s[2]

        if not held:
            options = [
                (len(paths[r]), k + 1)
                for k, r in enumerate(where)
                if r in paths and _spots(p, s, paths, k + 1)
            ]
            if not options:
                return None
            _, k = min(options)
            walk(paths[where[k - 1]] + ["take"])
            continue
        spots = _spots(p, s, paths, held)
        if not spots:
            return None
        walk(paths[spots[0]] + ["open"])
    return plan


def count_optimal_plans(p: KeyDoor, s: State | None = None, cap: int = PLAN_COUNT_CAP) -> int:
    """How many distinct shortest plans lead from ``s`` (default: the start) to the goal, up to
    ``cap``: paths counted layer by layer over the breadth-first search's shortest-path DAG
    (0 when the goal cannot be reached)."""
    s = p.initial() if s is None else s
    if p.is_solved(s):
        return 1
    count = {s: 1}
    seen = {s}
    while count:
        nxt: dict[State, int] = {}
        for u, c in count.items():
            for m in p.moves(u):
                t = p._step(u, m)
                if t not in seen:
                    nxt[t] = min(cap, nxt.get(t, 0) + c)
        goals = [n for t, n in nxt.items() if p.is_solved(t)]
        if goals:
            return min(cap, sum(goals))
        seen.update(nxt)
        count = nxt
    return 0


def no_drop_plan(p: KeyDoor, s: State | None = None) -> list[Move] | None:
    """A shortest plan from ``s`` (default: the start) that never drops a key (None: none)."""
    s = p.initial() if s is None else s
    return bfs_plan(s, lambda t: [m for m in p.moves(t) if m != "drop"], p.apply, p.is_solved)


def measures(p: KeyDoor) -> Measures:
    """The optimum, the optimum without ``drop``, the greedy player's count (:func:`greedy_plan`)
    and the number of optimal plans, all from the start. Raises Unsolvable when the start cannot
    reach the goal."""
    best = p.solve(p.initial())
    if best is None:
        raise Unsolvable("the goal cannot be reached from the start")
    no_drop, greedy = no_drop_plan(p), greedy_plan(p)
    return Measures(
        len(best),
        None if no_drop is None else len(no_drop),
        None if greedy is None else len(greedy),
        count_optimal_plans(p),
    )


# --- generator -------------------------------------------------------------------------------
def _call(
    constants: dict[str, int], facts: list[str], stage: str, seed: int, first_attempt: int
) -> tuple[asp_solve.Outcome, int]:
    """Ground once and solve with up to RESEEDS solver seeds (named by the stage and a running
    attempt number), moving to the next seed on "unknown"; returns the outcome and the next
    attempt number."""
    solver_seeds = [
        seeds.solver_seed(seed, 0, stage, attempt)
        for attempt in range(first_attempt, first_attempt + RESEEDS)
    ]
    out = asp_solve.solve(["keydoor"], constants, solver_seeds, CONFLICT_LIMIT, facts=facts)
    used = out.attempt + 1 if out.status != "unknown" else RESEEDS
    return out, first_attempt + used


def _parse(atoms: tuple[asp_solve.Atom, ...], k: int) -> tuple[list[int], list[int], list[str]]:
    """The encoding's answer: the room of each door and key (by number), and the plan's actions
    in step order."""
    doors, keys = [0] * k, [0] * k
    steps: dict[int, str] = {}
    for name, args in atoms:
        if name == "door":
            key, room = asp_solve.numbers(args)
            doors[key - 1] = room
        elif name == "keyat":
            key, room = asp_solve.numbers(args)
            keys[key - 1] = room
        elif name == "plan":
            step, action = args
            assert isinstance(step, int) and isinstance(action, str)
            steps[step] = action
    return doors, keys, [steps[t] for t in sorted(steps)]


def generate(difficulty: str, seed: int) -> KeyDoor:
    """A keydoor puzzle whose optimal plan (checked and proven by clingo) fits ``PAR``.

    The stream draws the corridor's size and junction; clingo (seeded from the stream's name
    and a running attempt number, with a conflict budget, re-seeded on "unknown") chooses doors
    and keys under the encoding's rules (``SHAPE``: the chain and ferry rules), without a plan
    (horizon 0), which is cheap. The Python search gives the instance's exact optimum and a
    plan, which skips unsolvable instances and those out of range at once; where ``SHAPE`` asks
    for it (very-hard), an instance where the optimum without ``drop`` is no longer is skipped
    too. Then clingo, with the instance fixed, checks the plan under its own rules and proves
    that none is shorter (unsat one action below), so its par is proven twice. An instance
    where clingo spends its budget is skipped; one where clingo and the search disagree is a
    bug and raises RuntimeError.
    """
    check_difficulty(difficulty)
    rng = rng_for("keydoor", difficulty, seed)
    stage = f"puzzle:keydoor:{difficulty}"
    shape = SHAPE[difficulty]
    (r_lo, r_hi), (h_lo, h_hi), k = shape.main, shape.branch, shape.keys
    lo_par, hi_par = PAR[difficulty]
    calls = 0
    for _ in range(ATTEMPTS):
        r = int(rng.integers(r_lo, r_hi + 1))
        h = int(rng.integers(h_lo, h_hi + 1))
        j = int(rng.integers(1, r))
        base = {"rooms": r, "branch": h, "junction": j, "keys": k}
        base |= {"chain": shape.chain, "ferry": shape.ferry}
        out, calls = _call(base | {"horizon": 0}, [], stage, seed, calls)
        if out.status != "sat":
            continue
        doors, keys, _ = _parse(out.atoms, k)
        p = KeyDoor(r, h, j, tuple(doors), tuple(keys), (), difficulty)
        predicted = p.solve(p.initial())
        if predicted is None or not in_range(len(predicted), (lo_par, hi_par)):
            continue
        par = len(predicted)
        if shape.drop and (blind := no_drop_plan(p)) is not None and len(blind) <= par:
            continue
        facts = [f"given_door({i + 1},{d})." for i, d in enumerate(doors)]
        facts += [f"given_key({i + 1},{x})." for i, x in enumerate(keys)]
        steps = [f"given_do({t},{a})." for t, a in enumerate(predicted)]
        found, calls = _call(base | {"horizon": par}, facts + steps, stage, seed, calls)
        if found.status == "unknown":
            continue
        plan = _parse(found.atoms, k)[2]
        if found.status != "sat" or len(plan) != par or not _plays(p, plan):
            raise _disagree(p, f"a plan of {par} actions")
        shorter, calls = _call(base | {"horizon": par - 1}, facts, stage, seed, calls)
        if shorter.status == "unknown":
            continue
        if shorter.status != "unsat":
            raise _disagree(p, f"no plan shorter than {par} actions")
        made = KeyDoor(r, h, j, tuple(doors), tuple(keys), tuple(plan), difficulty, par)
        made._cache.update(p._cache)  # the searches already made (a first hint costs nothing)
        return made
    raise GenerationError(f"no keydoor puzzle of difficulty {difficulty} in {ATTEMPTS} attempts")


def _integer(v: Any, what: str) -> int:
    """``v`` if it is an int (not a bool), else ValueError naming the field."""
    if not is_int(v):
        raise ValueError(f"{what} must be an integer, got {v!r}")
    return v


def _plays(p: KeyDoor, plan: list[str]) -> bool:
    """Does ``plan`` follow the rules and end at the goal?"""
    s = p.initial()
    for a in plan:
        if p._why_not(s, a) is not None:
            return False
        s = p.apply(s, a)
    return p.is_solved(s)


def _disagree(p: KeyDoor, what: str) -> RuntimeError:
    """clingo and the breadth-first search read the rules differently (a bug, never a retry)."""
    return RuntimeError(f"asp/keydoor.lp and the Python rules disagree on {p!r}: {what}")


# --- the record every layer reads ------------------------------------------------------------
def greedy(p: KeyDoor, s: State) -> float:
    """The difficulty score's naive measure: the rooms still between the player and the goal,
    less three per opened door and one for a key in hand (walk on, pick up keys, open doors as
    they come)."""
    room, held, _where, opened = s
    away = p.rooms - room if room <= p.rooms else room - p.rooms + p.rooms - p.junction
    return float(away - 3 * int(opened).bit_count() - (1 if held else 0))


TYPE: PuzzleType[KeyDoor, State, Move] = PuzzleType(
    name=KeyDoor.type_name,
    generate=generate,
    from_json=KeyDoor.from_json,
    par=PAR,
    rules=RULES,
    hint_budget=HINT_BUDGET,
    # very-hard is generated as the generator gives it: its scores all lie below its band and
    # every draw costs a clingo proof (:mod:`roguelike.puzzles.difficulty`, "Bands")
    calibration=Calibration(greedy=greedy, attempts=3, unbanded=frozenset({"very-hard"})),
)
