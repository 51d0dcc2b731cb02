"""A run as its world and its inputs: recordings, their replay, and the checks that catch a
replay going out of sync.

The game is a pure function of its seed, so a run is exactly (how it started, the generator
version, the actions the player sent). A :class:`Recording` keeps those, and after every action
a small *check* of the state it led to (:func:`check`: the turn, the floor, the player's place
and health, the monsters' places and health, the random stream's position). :func:`replay`
plays the actions again from a fresh game and compares the check after each one: the first
action after which the state differs is reported as a :class:`Divergence` naming the turn and
the input — never silently. At the end, :func:`digest` (every field of the state that play can
change) and :class:`Outcome` say how the run ended.

An action is written as a short text (``h``/``j``/``k``/``l``/``y``/``u``/``b``/``n``: a
step in the eight directions as the vi keys name them; ``.``: wait; ``R``: rest; ``g``: pick
up; ``>``: descend; ``x``: explore; ``X``: explore onward, through pick-ups; ``o``/``c`` and a
direction letter: open, close; ``t X,Y``: travel; ``U name``: use an item; ``T X,Y,name``: throw
an item at a cell; ``D name``: drop an item; ``w name``: wear or wield an item; ``r slot``: take
off what a slot holds; ``P`` and a digit: choose the perk of that index of the offer) or, for
a puzzle played at a pedestal, an object
``{"solve": moves, "hints": n, "coins": n, "resets": n}``.

This module is the core of recordings and has no file format of its own: the save layer
(:mod:`saves.record`) writes recordings inside saves, run records and challenge files, with its
bounds and checksums. Nothing here is trusted from a file without :func:`Recording.from_json`.
"""

from __future__ import annotations

import hashlib
import json
import re
import struct
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from roguelike import seeds
from roguelike.engine import (
    Action,
    ChoosePerk,
    Close,
    Descend,
    Drop,
    Event,
    Explore,
    GameState,
    Move,
    Open,
    PickUp,
    Rest,
    Search,
    SolvePuzzle,
    TakeOff,
    Throw,
    Travel,
    Use,
    Wait,
    Wear,
    new_game,
    step,
)
from roguelike.engine.balance import DEFAULT_DIFFICULTY, DIFFICULTIES, PERK_OFFERED
from roguelike.engine.creatures import ITEMS
from roguelike.engine.gear import SLOTS
from roguelike.engine.state import FOV_RADIUS
from roguelike.presets import PRESETS
from roguelike.version import GENERATOR_VERSION

#: The format of a recording's JSON (:meth:`Recording.to_json`).
RECORDING_VERSION = 1
# A replay's cost is bounded by what a recording may hold, so that a small hostile file cannot
# keep a replay busy for long: the inputs, the turns they may take, the puzzle moves replayed,
# and how many inputs in a row may change nothing (each still costs a pathfinding or a
# puzzle replay, and a file can repeat one cheaply). Real runs stay far below all four: a bot
# run of the normal preset is about 800 inputs, 5,000 turns and a few hundred puzzle moves.
# A recording that reaches a limit while played stops growing (:attr:`Recording.full`): its
# replay then ends early, and a record's claims about the run would not verify.
#: The most inputs a recording holds.
MAX_ACTIONS = 200_000
#: The most turns a replay plays.
MAX_TURNS = 250_000
#: The most moves in one puzzle play (as a save keeps for one pedestal), and in all of them.
MAX_PLAY_MOVES = 100_000
MAX_PUZZLE_MOVES = 500_000
#: The most characters of a puzzle play's moves, as JSON, in one action.
MAX_SOLVE_CHARS = 2_000_000
#: The most inputs in a row that change nothing (refused keys: a person stops long before).
MAX_IDLE_INPUTS = 1_000
# What a run may spend for each floor it reaches, so that a replay's cost follows the world's
# size (a small world's recording cannot hold a large one's work): at every input, the inputs
# so far and the turn stay within these times the floor the player is on. A person's run
# stays far below (a bot's run of the normal preset: about 160 inputs and 1,000 turns a
# floor); the recorder stops at the same bound (:attr:`Recording.full`), so the game never
# writes a recording its replay refuses. Before a replay, :meth:`Recording.cost_problem`
# bounds the inputs by the floors the recording can reach at all (one more than its descents,
# at most the world's floors), so a small file of cheap inputs is refused without playing any.
#: The most inputs a run may send for each floor it reaches.
INPUTS_PER_FLOOR = 10_000
#: The most turns a run may take for each floor it reaches.
TURNS_PER_FLOOR = 20_000
#: How many inputs a replay plays between two calls of its ``progress``.
PROGRESS_EVERY = 500
#: What a version text may hold (it is shown in messages: nothing a terminal could act on).
VERSION_TEXT = re.compile(r"[0-9A-Za-z.+-]{1,40}", re.ASCII)
#: The most floors a run has.
MAX_FLOORS = 99
MAX_COORD = 10_000
MAX_HINTS = 10_000

#: Vi keys for the eight steps, and back.
STEP_LETTERS: dict[tuple[int, int], str] = {
    (-1, 0): "h",
    (0, 1): "j",
    (0, -1): "k",
    (1, 0): "l",
    (-1, -1): "y",
    (1, -1): "u",
    (-1, 1): "b",
    (1, 1): "n",
}
LETTER_STEPS = {letter: d for d, letter in STEP_LETTERS.items()}
SIMPLE: dict[type, str] = {
    Wait: ".",
    Search: "s",
    Rest: "R",
    PickUp: "g",
    Descend: ">",
    Explore: "x",
}
SIMPLE_ACTIONS: dict[str, Action] = {
    ".": Wait(),
    "s": Search(),
    "R": Rest(),
    "g": PickUp(),
    ">": Descend(),
    "x": Explore(),
    "X": Explore(onward=True),
}


class RecordingError(ValueError):
    """A recording that cannot be read or replayed, in one line."""


class Divergence(RecordingError):
    """A replay went out of sync: after input ``index`` (0-based), at turn ``turn``, the state
    is not the one recorded."""

    def __init__(self, index: int, turn: int, what: str = "the state differs from the record"):
        self.index, self.turn = index, turn
        super().__init__(f"out of sync at turn {turn} (input {index + 1}): {what}")


# --- actions ---------------------------------------------------------------------------------

Code = str | dict[str, Any]


def encode_action(action: Action) -> Code:
    """The recorded form of ``action`` (see the module)."""
    if isinstance(action, Move):
        return STEP_LETTERS[(action.dx, action.dy)]
    if isinstance(action, Explore) and action.onward:
        return "X"
    simple = SIMPLE.get(type(action))
    if simple is not None:
        return simple
    if isinstance(action, Open | Close):
        return ("o" if isinstance(action, Open) else "c") + STEP_LETTERS[(action.dx, action.dy)]
    if isinstance(action, Travel):
        return f"t{action.x},{action.y}"
    if isinstance(action, Use):
        return f"U{action.item}" + (f"|{action.choice}" if action.choice else "")
    if isinstance(action, Throw):
        return f"T{action.x},{action.y},{action.item}"
    if isinstance(action, Drop):
        return f"D{action.item}"
    if isinstance(action, Wear):
        return f"w{action.item}"
    if isinstance(action, TakeOff):
        return f"r{action.slot}"
    if isinstance(action, ChoosePerk):
        return f"P{action.index}"
    if isinstance(action, SolvePuzzle):
        return {
            "solve": list(action.moves),
            "hints": action.hints_used,
            "coins": action.coins_spent,
            "resets": action.resets,
        }
    raise TypeError(f"not an action: {action!r}")


def _count(o: dict[str, Any], key: str, where: str) -> int:
    value = o.get(key, 0)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_HINTS:
        raise RecordingError(f"{where}.{key}: expected a whole number 0..{MAX_HINTS}")
    return value


def decode_action(code: Any, where: str = "action") -> Action:
    """The action a recorded ``code`` stands for; RecordingError naming ``where`` if it is not
    one (anything a file holds goes through here)."""
    if isinstance(code, str):
        if code in LETTER_STEPS:
            return Move(*LETTER_STEPS[code])
        if code in SIMPLE_ACTIONS:
            return SIMPLE_ACTIONS[code]
        if len(code) == 2 and code[0] in "oc" and code[1] in LETTER_STEPS:
            return (Open if code[0] == "o" else Close)(*LETTER_STEPS[code[1]])
        if code.startswith("t") and 3 <= len(code) <= 12:
            x, sep, y = code[1:].partition(",")
            digits = sep and all(v.isascii() and v.isdigit() and str(int(v)) == v for v in (x, y))
            if digits and int(x) < MAX_COORD and int(y) < MAX_COORD:
                return Travel(int(x), int(y))
        if code.startswith("U"):
            item, bar, choice = code[1:].partition("|")
            if item in ITEMS and (not bar or choice in ITEMS):
                return Use(item, choice)
        if code.startswith("D") and code[1:] in ITEMS:
            return Drop(code[1:])
        if code.startswith("w") and code[1:] in ITEMS:
            return Wear(code[1:])
        if code.startswith("r") and code[1:] in SLOTS:
            return TakeOff(code[1:])
        if len(code) == 2 and code[0] == "P" and code[1] in "0123456789"[:PERK_OFFERED]:
            return ChoosePerk(int(code[1]))
        if code.startswith("T") and len(code) <= 64:
            x, _, rest = code[1:].partition(",")
            y, _, item = rest.partition(",")
            digits = all(v.isascii() and v.isdigit() and str(int(v)) == v for v in (x, y))
            if digits and int(x) < MAX_COORD and int(y) < MAX_COORD and item in ITEMS:
                return Throw(item, int(x), int(y))
        shown = json.dumps(code[:20]) + ("…" if len(code) > 20 else "")
        raise RecordingError(f"{where}: {shown} is not an action")
    if isinstance(code, dict):
        if set(code) - {"solve", "hints", "coins", "resets"} or "solve" not in code:
            raise RecordingError(f"{where}: a puzzle play has solve, hints, coins and resets")
        moves = code["solve"]
        if not isinstance(moves, list):
            raise RecordingError(f"{where}.solve: expected a list of moves")
        return SolvePuzzle(
            tuple(moves),
            hints_used=_count(code, "hints", where),
            coins_spent=_count(code, "coins", where),
            resets=_count(code, "resets", where),
        )
    raise RecordingError(f"{where}: expected an action's text or a puzzle play")


# --- checks ----------------------------------------------------------------------------------

_HEAD = struct.Struct("<14q")


def check(state: GameState) -> int:
    """A 32-bit check of what an action changes: turn, floor, the player's place and health,
    experience, the pack's size, hint coins, hints taken, keys held, puzzles solved, the
    progress kept at this floor's pedestals (moves and resets), the monsters' places and
    health, the random stream's position. Cheap (a few microseconds): a recording keeps one
    after every action, so an edited input is caught at the turn it changes any of these."""
    x, y = state.player
    rng = state.rng.bit_generator.state["state"]["state"]
    head = _HEAD.pack(
        state.turn,
        state.number,
        x,
        y,
        state.hp,
        state.xp,
        sum(state.inventory.values()),
        len(state.monsters),
        rng & 0x7FFF_FFFF_FFFF_FFFF,
        state.hint_coins,
        state.stats.hints_used,
        len(state.keys_held),
        state.stats.puzzles_solved,
        sum(len(p.moves) + p.resets for p in state.puzzles.values()),
    )
    crc = zlib.crc32(head)
    if state.monsters:
        places = [v for m in state.monsters for v in (m.x, m.y, m.hp)]
        crc = zlib.crc32(struct.pack(f"<{len(places)}q", *places), crc)
    if state.perks or state.equipment:  # what is worn and the perks taken
        grown = json.dumps([state.perks, sorted(state.equipment.items())]).encode("utf-8")
        crc = zlib.crc32(grown, crc)
    if state.allies:  # a run that never met a captive keeps the checks it always had
        shackles = [v for m in state.allies for v in (m.x, m.y, m.hp, m.extra.get("shackled", -1))]
        crc = zlib.crc32(struct.pack(f"<{len(shackles)}q", *shackles), crc)
    return crc


def digest(state: GameState) -> str:
    """BLAKE2b-128 (hex) of every field of ``state`` that play changes: the map and what is
    explored, the player, pack, keys, coins, monsters, items, pedestals, statistics, the
    random stream, the turn, the end, what is worn, the perks and their offer, stealth. Not the
    world's name, nor the log's wording."""
    h = hashlib.blake2b(digest_size=16)
    h.update(state.tiles.tobytes())
    h.update(state.explored.tobytes())
    rng = state.rng.bit_generator.state
    doc = [
        state.seed,
        state.number,
        state.total_floors,
        list(state.player),
        state.hp,
        state.max_hp,
        list(state.attack),
        state.defence,
        state.accuracy,
        state.speed,
        state.stealth,
        state.berserk,
        state.weary,
        sorted(state.identified),
        [state.hasted, state.detecting, state.darkness, state.hallucinating, state.confused],
        state.level,
        state.xp,
        state.turn,
        state.regen_clock,
        state.hint_coins,
        state.won,
        state.dead,
        sorted(state.keys_held),
        sorted([x, y, k] for (x, y), k in state.keys_lying.items()),
        sorted([x, y, i] for (x, y), i in state.items_lying.items()),
        sorted([x, y, g] for (x, y), g in state.choices.items()),
        sorted([i, n] for i, n in state.inventory.items()),
        [
            [m.id, m.kind, m.x, m.y, m.hp, m.awake, m.energy, m.unseen, sorted(m.extra.items())]
            for m in state.monsters
        ],
        [
            [p.x, p.y, p.solved, p.hints_used, p.resets, len(p.moves)]
            for p in state.puzzles.values()
        ],
        [
            state.stats.floors_reached,
            state.stats.kills,
            state.stats.keys,
            state.stats.puzzles_solved,
            state.stats.hints_used,
            state.stats.cause,
        ],
        [str(rng["state"]["state"]), str(rng["state"]["inc"]), rng["has_uint32"], rng["uinteger"]],
        [sorted([x, y] for x, y in state.traps_known), state.netted, sorted(state.sprung)],
        [sorted([x, y, n] for (x, y), n in state.fire.items()), sorted(map(list, state.gas))],
        [sorted([i, n] for i, n in state.equipment.items()), state.perks, list(state.perk_offer)],
    ]
    if state.allies:  # a game that never met a captive keeps the digest it always had
        doc.append(
            [
                [m.id, m.kind, m.x, m.y, m.hp, m.awake, m.energy, sorted(m.extra.items())]
                for m in state.allies
            ]
        )
    h.update(json.dumps(doc, separators=(",", ":")).encode("utf-8"))
    return h.hexdigest()


# --- recordings ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Start:
    """How a recorded run began: the world's seed and size, and the engine's game options
    (tests play worlds without monsters or puzzles)."""

    seed: int
    preset: str
    total_floors: int
    monsters: bool = True
    puzzles: bool = True
    fov_radius: int | None = FOV_RADIUS
    #: the world's difficulty: a replay at another one would diverge at the first blow
    difficulty: str = DEFAULT_DIFFICULTY

    @classmethod
    def standard(cls, seed: int, preset: str, difficulty: str = DEFAULT_DIFFICULTY) -> Start:
        """How the game starts a world of ``seed``, ``preset`` and ``difficulty`` (every
        option as a player gets it)."""
        return cls(seed, preset, PRESETS[preset], True, True, FOV_RADIUS, difficulty)

    def differences(self, other: Start) -> str:
        """What differs from ``other``, in words (``no monsters, 1 floor of 3``)."""
        out = []
        if self.monsters != other.monsters:
            out.append("monsters" if self.monsters else "no monsters")
        if self.puzzles != other.puzzles:
            out.append("puzzles" if self.puzzles else "no puzzles")
        if self.total_floors != other.total_floors:
            out.append(f"{self.total_floors} floors of {other.total_floors}")
        if self.fov_radius != other.fov_radius:
            out.append(f"view radius {self.fov_radius}, not {other.fov_radius}")
        if self.difficulty != other.difficulty:
            out.append(f"{self.difficulty}, not {other.difficulty}")
        return ", ".join(out) or "the same"

    @classmethod
    def of(cls, state: GameState) -> Start:
        """The start of the run ``state`` is a fresh game of (before its first action)."""
        return cls(
            state.seed,
            state.preset,
            state.total_floors,
            state.with_monsters,
            state.with_puzzles,
            state.fov_radius,
            state.difficulty,
        )

    def game(self, world_name: str = "") -> GameState:
        """A fresh game as the run began."""
        return new_game(
            self.seed,
            total_floors=self.total_floors,
            preset=self.preset,
            world_name=world_name,
            fov_radius=self.fov_radius,
            monsters=self.monsters,
            puzzles=self.puzzles,
            difficulty=self.difficulty,
        )

    def to_json(self) -> dict[str, Any]:
        # the difficulty is written when it is not the default, so a normal run's file reads
        # as it did before difficulties existed (a missing one is read as normal)
        extra = {} if self.difficulty == DEFAULT_DIFFICULTY else {"difficulty": self.difficulty}
        return {
            "seed": seeds.stored(self.seed),  # the old form, as files keep it
            "preset": self.preset,
            "floors": self.total_floors,
            "monsters": self.monsters,
            "puzzles": self.puzzles,
            "fov": self.fov_radius,
            **extra,
        }

    @classmethod
    def from_json(cls, value: Any, where: str = "start") -> Start:
        if not isinstance(value, dict):
            raise RecordingError(f"{where}: expected an object")
        try:
            seed = seeds.read_stored(value.get("seed"))  # type: ignore[arg-type]
        except (seeds.SeedCodeError, TypeError, AttributeError):
            raise RecordingError(f"{where}.seed: not a seed code") from None
        preset = value.get("preset")
        if preset not in PRESETS:
            raise RecordingError(f"{where}.preset: not one of {', '.join(PRESETS)}")
        floors = value.get("floors")
        if not isinstance(floors, int) or isinstance(floors, bool) or not 1 <= floors <= MAX_FLOORS:
            raise RecordingError(f"{where}.floors: expected a whole number 1..{MAX_FLOORS}")
        flags = {}
        for key in ("monsters", "puzzles"):
            flag = value.get(key, True)
            if not isinstance(flag, bool):
                raise RecordingError(f"{where}.{key}: expected true or false")
            flags[key] = flag
        fov = value.get("fov", FOV_RADIUS)
        if fov is not None and (
            not isinstance(fov, int) or isinstance(fov, bool) or not 1 <= fov <= 1000
        ):
            raise RecordingError(f"{where}.fov: expected a radius 1..1000 or null")
        difficulty = value.get("difficulty", DEFAULT_DIFFICULTY)  # none: recorded before them
        if not isinstance(difficulty, str) or difficulty not in DIFFICULTIES:
            raise RecordingError(f"{where}.difficulty: not one of {', '.join(DIFFICULTIES)}")
        return cls(seed, preset, floors, flags["monsters"], flags["puzzles"], fov, difficulty)


@dataclass
class Recording:
    """A run's start, its generator version and every action sent, each with the
    :func:`check` of the state it led to. ``resumed``: how many of the actions were recorded
    before the last load (nothing but a note for the viewer)."""

    start: Start
    generator: str = GENERATOR_VERSION
    actions: list[Code] = field(default_factory=list)
    checks: list[int] = field(default_factory=list)
    #: the recording reached one of its limits and stopped growing (see the module's bounds)
    full: bool = False
    #: puzzle moves held in all its puzzle plays
    puzzle_moves: int = 0
    #: inputs in a row, at the end, that changed nothing (see :meth:`add`)
    idle: int = 0

    @classmethod
    def begin(cls, state: GameState) -> Recording:
        """An empty recording of the fresh game ``state``."""
        return cls(Start.of(state))

    def __len__(self) -> int:
        return len(self.actions)

    def add(self, action: Action, state: GameState) -> None:
        """Record ``action``, just played, and the state it led to; nothing once the recording
        is :attr:`full` (it reached a limit no real run does, see the module)."""
        moves = len(action.moves) if isinstance(action, SolvePuzzle) else 0
        if (
            self.full
            or len(self.actions) >= min(MAX_ACTIONS, INPUTS_PER_FLOOR * state.number)
            or state.turn > min(MAX_TURNS, TURNS_PER_FLOOR * state.number)
            or moves > MAX_PLAY_MOVES
            or self.puzzle_moves + moves > MAX_PUZZLE_MOVES
        ):
            self.full = True
            return
        now = check(state)
        self.idle = self.idle + 1 if self.checks and now == self.checks[-1] else 0
        if self.idle > MAX_IDLE_INPUTS:
            # a refused key pressed yet again (a key held against a wall): it changed
            # nothing, so leaving it out changes no replay, and keeps the limit replays keep
            return
        self.puzzle_moves += moves
        self.actions.append(encode_action(action))
        self.checks.append(now)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": RECORDING_VERSION,
            "generator": self.generator,
            "start": self.start.to_json(),
            "actions": self.actions,
            "checks": self.checks,
        }

    @classmethod
    def from_json(cls, value: Any, where: str = "recording") -> Recording:
        """A recording read from a file's JSON: every field checked, every action decoded
        once (so a replay cannot meet an unreadable one half-way)."""
        if not isinstance(value, dict):
            raise RecordingError(f"{where}: expected an object")
        version = value.get("version")
        if version != RECORDING_VERSION:
            raise RecordingError(
                f"{where}.version: {json.dumps(version)[:20]}, this game reads {RECORDING_VERSION}"
            )
        generator = value.get("generator")
        if not isinstance(generator, str) or not VERSION_TEXT.fullmatch(generator):
            raise RecordingError(f"{where}.generator: expected a version text")
        start = Start.from_json(value.get("start"), f"{where}.start")
        actions, checks = value.get("actions"), value.get("checks")
        if not isinstance(actions, list) or not isinstance(checks, list):
            raise RecordingError(f"{where}: actions and checks are lists")
        if len(actions) > MAX_ACTIONS:
            raise RecordingError(f"{where}.actions: more than {MAX_ACTIONS}")
        if len(checks) != len(actions):
            raise RecordingError(
                f"{where}: {len(actions)} actions but {len(checks)} checks (one after each)"
            )
        for i, c in enumerate(checks):
            if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < 2**32:
                raise RecordingError(f"{where}.checks[{i}]: expected a 32-bit check")
        total = 0
        for i, a in enumerate(actions):
            decode_action(a, f"{where}.actions[{i}]")
            if isinstance(a, dict):
                moves = len(a["solve"])
                total += moves
                if moves > MAX_PLAY_MOVES or len(json.dumps(a["solve"])) > MAX_SOLVE_CHARS:
                    raise RecordingError(f"{where}.actions[{i}]: a puzzle play over the limit")
                if total > MAX_PUZZLE_MOVES:
                    raise RecordingError(
                        f"{where}.actions[{i}]: more than {MAX_PUZZLE_MOVES} puzzle moves in all"
                    )
        return cls(start, generator, list(actions), list(checks), puzzle_moves=total)

    def reachable_floors(self) -> int:
        """The most floors this recording can reach: one more than the descents it holds (only
        the stairs lead down), never more than the world's."""
        descents = self.actions.count(SIMPLE[Descend])
        return min(self.start.total_floors, 1 + descents)

    def cost_problem(self) -> str | None:
        """Why replaying this recording would cost more than a run of its world may (see
        :data:`INPUTS_PER_FLOOR`), in one line naming the bound; None if it is within it.
        Reads the inputs' list only: nothing is played."""
        floors = self.reachable_floors()
        most = min(MAX_ACTIONS, INPUTS_PER_FLOOR * floors)
        if len(self.actions) <= most:
            return None
        return (
            f"it holds {len(self.actions):,} inputs; a run that can reach {floors} "
            f"floor{'s' if floors > 1 else ''} of {self.start.total_floors} sends at most "
            f"{most:,} ({INPUTS_PER_FLOOR:,} a floor)"
        )

    def generator_problem(self) -> str | None:
        """Why this game cannot replay the recording (another generator), or None."""
        if self.generator != GENERATOR_VERSION:
            return (
                f"recorded with generator {self.generator}, this game has {GENERATOR_VERSION}: "
                "its floors would differ"
            )
        return None


# --- replay ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """How a run ended (or stands): what a run record claims, recomputed by a replay."""

    won: bool
    dead: bool
    floors: int  # the deepest floor reached
    turns: int
    cause: str | None
    kills: int
    keys: int
    puzzles_solved: int
    hints_used: int
    actions: int
    digest: str

    @classmethod
    def of(cls, state: GameState, actions: int) -> Outcome:
        s = state.stats
        return cls(
            state.won,
            state.dead,
            s.floors_reached,
            state.turn,
            s.cause,
            s.kills,
            s.keys,
            s.puzzles_solved,
            s.hints_used,
            actions,
            digest(state),
        )

    @property
    def result(self) -> str:
        """``won``, ``died`` or ``unfinished``."""
        return "won" if self.won else "died" if self.dead else "unfinished"

    def to_json(self) -> dict[str, Any]:
        return {
            "result": self.result,
            "floors": self.floors,
            "turns": self.turns,
            "cause": self.cause,
            "kills": self.kills,
            "keys": self.keys,
            "puzzles_solved": self.puzzles_solved,
            "hints_used": self.hints_used,
            "actions": self.actions,
            "digest": self.digest,
        }


@dataclass
class Frame:
    """One input of a replay, played: its number (0-based), the action, the events it gave
    and the state after it (the same object every frame: copy what you keep)."""

    index: int
    action: Action
    events: list[Event]
    state: GameState


#: What a replay steps with (a session's step, which keeps earlier floors, or the engine's).
Stepper = Callable[[GameState, Action], list[Event]]


def frames(
    rec: Recording, *, state: GameState | None = None, stepper: Stepper = step, start: int = 0
) -> Iterator[Frame]:
    """Play ``rec`` input by input from a fresh game (or from ``state``, which must be that
    fresh game), yielding a :class:`Frame` after each; raises :class:`Divergence` at the first
    input whose check differs, and RecordingError for another generator's recording.
    ``start``: play from that input on, ``state`` being the state the inputs before it led to
    (a snapshot the caller kept, as the replay viewer does to seek back quickly)."""
    problem = rec.generator_problem()
    if problem:
        raise RecordingError(problem)
    cost = rec.cost_problem()  # before a single input is played
    if cost:
        raise RecordingError(f"too long to replay: {cost}")
    if start and state is None:
        raise ValueError("a replay from a later input starts from the state it had there")
    state = rec.start.game() if state is None else state
    idle, last = 0, None  # counted as Recording.add counts them
    todo = zip(rec.actions[start:], rec.checks[start:], strict=True)
    for i, (code, expected) in enumerate(todo, start):
        if state.over:
            raise Divergence(i, state.turn, "the run is over but inputs follow")
        action = decode_action(code, f"input {i + 1}")
        events = stepper(state, action)
        now = check(state)
        if now != expected:
            raise Divergence(i, state.turn)
        idle = idle + 1 if now == last else 0
        last = now
        if idle > MAX_IDLE_INPUTS:
            raise RecordingError(
                f"input {i + 1}: more than {MAX_IDLE_INPUTS} inputs in a row change nothing"
            )
        if state.turn > MAX_TURNS:
            raise RecordingError(f"input {i + 1}: the run goes past turn {MAX_TURNS}")
        spent = _spent_problem(i + 1, state)
        if spent:
            raise RecordingError(f"input {i + 1}: {spent}")
        yield Frame(i, action, events, state)


def _spent_problem(inputs: int, state: GameState) -> str | None:
    """Why ``inputs`` inputs and ``state``'s turn are more than a run may spend to reach the
    floor it is on (see :data:`INPUTS_PER_FLOOR`), or None."""
    floor = state.number
    if inputs > INPUTS_PER_FLOOR * floor:
        return f"more than {INPUTS_PER_FLOOR:,} inputs for each floor reached ({floor})"
    if state.turn > TURNS_PER_FLOOR * floor:
        return f"more than {TURNS_PER_FLOOR:,} turns for each floor reached ({floor})"
    return None


#: What a long replay reports to: (inputs played, inputs in all). It may raise to stop the
#: replay (a screen's cancel); the exception goes through to the replay's caller.
Progress = Callable[[int, int], None]


def replay(
    rec: Recording, *, stepper: Stepper = step, progress: Progress | None = None
) -> tuple[GameState, Outcome]:
    """Play ``rec`` headless to its end: the final state and its :class:`Outcome` (raises as
    :func:`frames` does). ``progress`` is told every :data:`PROGRESS_EVERY` inputs, and at the
    start and the end."""
    state = rec.start.game()
    total = len(rec)
    if progress is not None:
        progress(0, total)
    for frame in frames(rec, state=state, stepper=stepper):
        if progress is not None and (frame.index + 1) % PROGRESS_EVERY == 0:
            progress(frame.index + 1, total)
    if progress is not None:
        progress(total, total)
    return state, Outcome.of(state, len(rec))
