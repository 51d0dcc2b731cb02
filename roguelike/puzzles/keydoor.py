"""Keys and doors: a corridor planning puzzle, generated with its optimal plan in clingo.

A main corridor of rooms 1..r (start 1, goal r) and one side branch of h rooms (numbered
r+1..r+h) leaving main room ``junction``. Door K stands at the entrance of a room; key K opens
it and is used up. The player carries one key at most; a room holds one key at most.

Actions (a move is its name): ``left``/``right`` walk along the corridor the player is in
(``right`` leads away from the start, in the branch too), ``enter`` goes from the junction into
the first branch room and ``leave`` back, ``take`` picks up the key lying here, ``drop`` lays
the held key here, ``open`` uses the held key on its door when that door is one step ahead.

Generation: ``asp/keydoor.lp`` chooses the instance (doors, keys) under its rules (no door in
the first room, no key behind its own door, a key in the branch that opens a door on the main
corridor, ...; horizon 0: no plan yet); a breadth-first search in Python gives its optimum, and
the same encoding, with the instance fixed, finds a plan of that length and proves that none is
shorter, which makes the plan optimal twice over. The plan is stored with the instance. Hints
from any state use the breadth-first search (the state space is small); the tests check both
agree.

State: ``(room, held key or 0, where each key lies (0: held or used), opened doors bitmask)``.
JSON config: ``{"rooms": 6, "branch": 3, "junction": 2, "doors": [room of door 1, ...],
"keys": [room of key 1, ...], "plan": ["right", "enter", ...]}``; state: ``{"room": 1,
"held": 0, "keys": [...], "opened": [door numbers]}``; move: the action's name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from asp import solve as asp_solve
from roguelike import seeds
from roguelike.puzzles.base import (
    GenerationError,
    IllegalMove,
    PuzzleFormatError,
    bfs_plan,
    check_difficulty,
    envelope,
    in_range,
    int_list,
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
    "hard": (17, 24),
    "very-hard": (23, 34),
}
#: Per difficulty: (main rooms lo, hi), (branch rooms lo, hi), keys, chain (key K+1 behind
#: door K, which makes the keys be won one after another).
SHAPE: dict[str, tuple[tuple[int, int], tuple[int, int], int, int]] = {
    "easy": ((4, 5), (1, 2), 1, 0),
    "medium": ((5, 6), (2, 2), 2, 1),
    "hard": ((6, 7), (3, 3), 3, 1),
    "very-hard": ((8, 8), (4, 4), 4, 1),
}
#: Conflicts clingo may spend on one call before it is re-seeded.
CONFLICT_LIMIT = 20000
ATTEMPTS = 60
RESEEDS = 4

#: The rules in a few lines, for players (the puzzle screen's ``?``).
RULES = """\
A corridor of rooms leads from the start to the goal, with one side branch. Locked doors stand
at the entrances of some rooms; key K opens door K and is used up.

You carry one key at most, and a room holds one key at most: take a key, drop yours, or open
the door one step ahead. Reach the goal in as few actions as you can. Some actions cannot be
taken back: you may have to start again."""


@dataclass(frozen=True)
class KeyDoor:
    rooms: int
    branch: int
    junction: int
    doors: tuple[int, ...]  # doors[K-1]: the room door K guards
    keys: tuple[int, ...]  # keys[K-1]: the room key K starts in
    plan: tuple[str, ...] = ()  # the optimal plan clingo found (empty for a hand-made one)
    difficulty: str = "easy"
    par: int = 0
    _cache: dict[State, list[Move] | None] = field(
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
            if self._closed(s, d):
                return f"door {self.door_at(d)} to {self.room_name(d)} is locked"
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
            if not any(self.door_at(d) == held and self._closed(s, d) for d in self.ahead(room)):
                return f"key {held} opens no door next to you"
            return None
        return f"unknown action {a!r}"

    def moves(self, s: State) -> list[Move]:
        return [a for a in ACTIONS if self._why_not(s, a) is None]

    def apply(self, s: State, m: Move) -> State:
        why = self._why_not(s, m) if isinstance(m, str) else f"not an action: {m!r}"
        if why is not None:
            raise IllegalMove(why)
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
            self._cache[s] = bfs_plan(s, self.moves, self.apply, self.is_solved, budget=budget)
        plan = self._cache[s]
        return None if plan is None else list(plan)

    # --- words -----------------------------------------------------------------------------
    def describe_move(self, m: Move, s: State | None = None) -> str:
        words = {
            "left": "go left (towards the start)",
            "right": "go right (away from the start)",
            "enter": "enter the side branch",
            "leave": "leave the side branch",
            "take": "take the key",
            "drop": "drop the key you hold",
            "open": "open the door ahead",
        }
        if s is not None:
            room, held, where, _ = s
            if m == "take" and room in where:
                return f"take key {where.index(room) + 1}"
            if m in ("drop", "open") and held:
                return f"drop key {held}" if m == "drop" else f"open door {held} with key {held}"
            d = self.dest(m, room)
            if d is not None:
                return f"{words[m]} to {self.room_name(d)}"
        return words[m]

    def nudge(self, s: State, tier: int) -> str:
        plan = self.solve(s)
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
                    return "Your hand has to be free soon."
                return f"Drop key {held} in {self.room_name(room)}."
            cur = self.apply(cur, m)
        return f"Walk to {self.room_name(self.rooms)}: the way is open."

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
        difficulty, par, c, _state = open_envelope(d, cls.type_name)
        try:
            plan = c.get("plan", [])
            if not isinstance(plan, list) or not all(isinstance(a, str) for a in plan):
                raise ValueError("plan must be a list of action names")
            return cls(
                int(c["rooms"]),
                int(c["branch"]),
                int(c["junction"]),
                tuple(int_list(c["doors"], "doors")),
                tuple(int_list(c["keys"], "keys")),
                tuple(plan),
                difficulty,
                par,
            )
        except (KeyError, TypeError, ValueError) as e:
            raise PuzzleFormatError(f"bad keydoor config: {e}") from None

    def state_to_json(self, s: State) -> dict[str, Any]:
        room, held, where, opened = s
        doors = [k + 1 for k in range(len(self.doors)) if opened >> k & 1]
        return {"room": room, "held": held, "keys": list(where), "opened": doors}

    def state_from_json(self, d: Any) -> State:
        if not isinstance(d, dict):
            raise PuzzleFormatError("a keydoor state is an object")
        try:
            room, held = int(d["room"]), int(d["held"])
            where = tuple(int_list(d["keys"], "keys"))
            opened = sum(1 << (k - 1) for k in int_list(d["opened"], "opened"))
        except (KeyError, TypeError, ValueError) as e:
            raise PuzzleFormatError(f"bad keydoor state: {e}") from None
        n = len(self.keys)
        if not 1 <= room <= self.rooms + self.branch or not 0 <= held <= n or len(where) != n:
            raise PuzzleFormatError("the state does not fit this corridor")
        return (room, held, where, opened)

    def move_to_json(self, m: Move) -> str:
        return m

    def move_from_json(self, d: Any) -> Move:
        if d not in ACTIONS:
            raise PuzzleFormatError(f"unknown action {d!r}")
        return d


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
    """A keydoor puzzle whose optimal plan (found and proven by clingo) fits ``PAR``.

    The stream draws the corridor's size and junction; clingo (seeded from the stream's name
    and a running attempt number, with a conflict budget, re-seeded on "unknown") chooses doors
    and keys under the encoding's rules, without a plan (horizon 0), which is cheap. The
    Python search gives the instance's exact optimum, which skips unsolvable instances and
    those out of range at once. Then clingo, with the instance fixed, finds a plan within that
    many actions and proves that none is shorter (unsat one action below), so its par is
    proven twice. An instance where clingo spends its budget is skipped; one where clingo and
    the search disagree is a bug and raises RuntimeError.
    """
    check_difficulty(difficulty)
    rng = rng_for("keydoor", difficulty, seed)
    stage = f"puzzle:keydoor:{difficulty}"
    (r_lo, r_hi), (h_lo, h_hi), k, chain = SHAPE[difficulty]
    lo_par, hi_par = PAR[difficulty]
    calls = 0
    for _ in range(ATTEMPTS):
        r = int(rng.integers(r_lo, r_hi + 1))
        h = int(rng.integers(h_lo, h_hi + 1))
        j = int(rng.integers(1, r))
        base = {"rooms": r, "branch": h, "junction": j, "keys": k, "chain": chain}
        out, calls = _call(base | {"horizon": 0}, [], stage, seed, calls)
        if out.status != "sat":
            continue
        doors, keys, _ = _parse(out.atoms, k)
        p = KeyDoor(r, h, j, tuple(doors), tuple(keys), (), difficulty)
        predicted = p.solve(p.initial())
        if predicted is None or not in_range(len(predicted), (lo_par, hi_par)):
            continue
        par = len(predicted)
        facts = [f"given_door({i + 1},{d})." for i, d in enumerate(doors)]
        facts += [f"given_key({i + 1},{x})." for i, x in enumerate(keys)]
        found, calls = _call(base | {"horizon": par}, facts, stage, seed, calls)
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
        return KeyDoor(r, h, j, tuple(doors), tuple(keys), tuple(plan), difficulty, par)
    raise GenerationError(f"no keydoor puzzle of difficulty {difficulty} in {ATTEMPTS} attempts")


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
