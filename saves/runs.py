"""Finished runs: run records, the hall of runs, challenge files, and checking a record's claims
by replaying its recording.

A *run record* (:class:`RunRecord`) is what is kept of a run once it is over (won, died, or
abandoned): the world (name, seed code, preset, whether it was the daily world), when it began
and ended, its outcome and statistics, its score (:func:`score`), and the recording of every
input (:mod:`roguelike.recording`), so it can be watched again and checked.

Files (a run record, or a challenge: the same record sent to someone else)::

    RGLKRUN1{"blake2b": "…", "format": 2, "game": "…", "generator": "…", "length": N,
             "seal": "…"}\\n<zlib JSON>

The file is in the envelope a save is in (:mod:`saves.envelope`: magic, sealed header line,
checksummed compressed payload, every bound checked before anything is built); its header
holds the run format, the game and the generator besides the payload's length and checksum.
:func:`pack` refuses a record its reader would refuse. A run file of another generator is
refused in one line (its floors would differ), as a save is. Nothing is pickled or evaluated.

The hall lives in the save folder: ``runs/<id>.run`` for the player's own runs and
``challenges/<id>.run`` for those imported from others. An imported record is never trusted:
:func:`verify` replays its recording and compares every claim (outcome and cause, floors,
turns, kills, puzzles, hints, score, the final state's digest); a file whose claims do not
match is refused, saying which claim is false. That check, :func:`verification`, is the one
every entry point runs (``replay --verify``, ``runs import``, the title's challenge import, the
hall): the world the record claims (seed, size, floors and rules, difficulty) against its
recording's start, then every claim about the run against the replay.

The hall lists a run only from what its recording proves: a session loaded from a save is
replayed before its run is kept (``saves.session``), and each folder keeps a list of the run
files known to hold up (:data:`CHECKED_FILE`: checksums of those the game wrote after checking
them, and of those a listing replayed); a file not in it, dropped into the folder by hand, is
replayed once before it is listed, and one that does not hold up is not listed, with the
reason in :attr:`Hall.problems`.

Score (also in the README), term by term in :func:`score_parts`::

    score = 100 × deepest floor + Σ solved puzzles' scores (0..100 each)
            + (won: 1000 + max(0, 1000 − turns ÷ 10))

Winning counts most, then depth, then puzzles played well; a won run gains up to 1000 more
for speed (none after 10,000 turns). Kills earn nothing of their own: fighting is a cost, not
a goal (it pays through the depth it opens).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
import secrets
import stat
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from roguelike import seeds
from roguelike.engine.balance import DEFAULT_DIFFICULTY
from roguelike.engine.final import LAST_MESSAGES, LINE_MOST, MAP_HEIGHT, FinalView, final_view
from roguelike.engine.state import GameState
from roguelike.presets import PRESETS
from roguelike.recording import (
    Divergence,
    Outcome,
    Progress,
    Recording,
    RecordingError,
    Start,
    digest,
    replay,
)
from roguelike.version import GAME_VERSION, GENERATOR_VERSION
from saves import envelope as e
from saves.errors import SaveError
from saves.files import NotRegularFile, check_replaceable, read_file, write_atomic
from saves.locks import shared_lock
from saves.text import printable
from saves.world import RUN_ID, daily_seed, now_iso, parse_date

MAGIC = b"RGLKRUN1"
#: The run format this game writes. Run format 3 added ``equipment`` (what was worn and wielded
#: at the end, item and enchantment) and ``final`` (the gear, pack, last messages and map of the
#: run's end: :class:`~roguelike.engine.final.FinalView`); a record of run format 2 reads with
#: neither known (``None``). Run format 1 went out before the current generator: its files
#: would be refused by their generator anyway.
RUN_FORMAT = 3
#: The oldest run format this game reads.
OLDEST_RUN_FORMAT = 2
MAX_HEADER = 1024
#: Largest payload once decompressed (a save's bound: a run's recording fits in both).
MAX_DOCUMENT = e.MAX_DOCUMENT
RUNS_DIR = "runs"
CHALLENGES_DIR = "challenges"
SUFFIX = ".run"
#: The most run records a folder lists (the oldest beyond are not read).
MAX_LISTED = 5000
OUTCOMES = ("won", "died", "abandoned")
#: A date as the game writes one (``now_iso``): nothing else passes, so no stray character in
#: a date from a file can reach the screen.
DATE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(\+00:00|Z)", re.ASCII)
#: Tests play tiny worlds (one floor, no monsters) to stay fast; a run file is checked only
#: when its recording starts as the game starts a world of its preset (see :func:`world_claims`).
CUSTOM_WORLDS = False
MAX_TEXT = 200
MAX_COUNT = 10**9


class RunFileError(SaveError):
    """A run or challenge file that cannot be read, or whose claims are false: one line."""


#: A run file in the envelope.
KIND = e.Kind(
    MAGIC, "run file", MAX_HEADER, header_elements=100, error=RunFileError, last_unsealed=1
)
#: The largest run file.
MAX_FILE = KIND.max_file


@dataclass(frozen=True)
class ScorePart:
    """One term of a run's score: its name, its points, and how they are made."""

    name: str
    points: int
    how: str


def score_parts(won: bool, floors: int, turns: int, puzzle_scores: list[int]) -> list[ScorePart]:
    """The terms of the run's score (see the module), in order; the score is their sum."""
    speed = max(0, 1000 - turns // 10) if won else 0
    solved = len(puzzle_scores)
    return [
        ScorePart("depth", 100 * floors, f"100 × floor {floors}"),
        ScorePart(
            "puzzles",
            sum(puzzle_scores),
            f"{solved} solved, 0..100 each" if solved else "none solved",
        ),
        ScorePart("winning", 1000 if won else 0, "escaped" if won else "won runs only"),
        ScorePart(
            "speed",
            speed,
            f"1000 − turns ÷ 10, {turns} turns" if won else "won runs only",
        ),
    ]


def score(won: bool, floors: int, turns: int, puzzle_scores: list[int]) -> int:
    """The run's score (see the module): the sum of :func:`score_parts`."""
    return sum(p.points for p in score_parts(won, floors, turns, puzzle_scores))


def score_parts_of(state: GameState) -> list[ScorePart]:
    """The terms of the score of the run ``state`` stands at."""
    s = state.stats
    return score_parts(state.won, s.floors_reached, state.turn, [p[3] for p in s.puzzle_scores])


def score_of(state: GameState) -> int:
    """The score of the run ``state`` stands at (what its record says, what the summary shows)."""
    s = state.stats
    return score(state.won, s.floors_reached, state.turn, [p[3] for p in s.puzzle_scores])


def outcome_of(state: GameState) -> str:
    """``won``, ``died``, or ``abandoned`` (a run not over, given up)."""
    return "won" if state.won else "died" if state.dead else "abandoned"


def cause_of(state: GameState) -> str | None:
    """What ended the run: its cause, or ``abandoned`` for a run not over."""
    return state.stats.cause if state.over else "abandoned"


@dataclass(frozen=True)
class PuzzleScore:
    floor: int
    type: str
    difficulty: str
    score: int


@dataclass(frozen=True)
class RunRecord:
    """One finished run (see the module)."""

    id: str
    world: str
    seed: str  # the seed code
    preset: str
    started: str  # ISO 8601, UTC: when the world was created
    ended: str
    outcome: str  # won, died or abandoned
    floors: int  # deepest floor reached
    total_floors: int
    turns: int
    kills: int
    keys: int
    puzzles: tuple[PuzzleScore, ...]
    hints_used: int
    cause: str | None
    score: int
    digest: str | None  # of the final state (None without a recording)
    #: the day (YYYY-MM-DD) whose daily world this was, else None
    daily: str | None = None
    #: whether it counts for that day (the first daily run finished that day does)
    scored: bool = True
    recording: Recording | None = None
    #: the challenge (id of an imported record) this run answered, else None
    challenge: str | None = None
    generator: str = GENERATOR_VERSION
    extra: dict[str, Any] = field(default_factory=dict)
    #: the world's difficulty (written only when it is not normal: a record without one is
    #: a normal run, as every record made before difficulties existed)
    difficulty: str = DEFAULT_DIFFICULTY
    #: what was worn and wielded at the end (``GameState.equipment``: item, enchantment), or
    #: None in a record of run format 2, which did not keep it
    equipment: tuple[tuple[str, int], ...] | None = ()
    #: the run's end as the player saw it (gear, pack, last messages, map), or None in a record
    #: of run format 2 or 3, which did not keep it
    final: FinalView | None = None

    @property
    def puzzles_solved(self) -> int:
        return len(self.puzzles)

    @property
    def puzzle_points(self) -> int:
        return sum(p.score for p in self.puzzles)

    # -- to and from JSON

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "world": self.world,
            "seed": self.seed,
            "preset": self.preset,
            "started": self.started,
            "ended": self.ended,
            "outcome": self.outcome,
            "floors": self.floors,
            "total_floors": self.total_floors,
            "turns": self.turns,
            "kills": self.kills,
            "keys": self.keys,
            "puzzles": [
                {"floor": p.floor, "type": p.type, "difficulty": p.difficulty, "score": p.score}
                for p in self.puzzles
            ],
            "hints_used": self.hints_used,
            "cause": self.cause,
            "score": self.score,
            "digest": self.digest,
            "daily": self.daily,
            "scored": self.scored,
            "challenge": self.challenge,
            "generator": self.generator,
            "recording": None if self.recording is None else self.recording.to_json(),
            "equipment": None
            if self.equipment is None
            else [{"item": i, "enchant": n} for i, n in self.equipment],
            "final": None if self.final is None else final_doc(self.final),
        } | ({} if self.difficulty == DEFAULT_DIFFICULTY else {"difficulty": self.difficulty})

    @classmethod
    def from_json(cls, value: Any) -> RunRecord:
        """A record from a file's JSON, every field checked (RunFileError otherwise)."""
        from saves import fields as f
        from saves.codec.game import equipment_from, puzzle_scores_from
        from saves.world import check_name

        o = f.obj(value, "run")

        def get(key: str) -> Any:
            return f.get(o, key, "run")

        def count(key: str, lo: int = 0, hi: int = MAX_COUNT) -> int:
            return f.integer(get(key), f"run.{key}", lo, hi)

        def date(key: str) -> str:
            text = f.text(get(key), f"run.{key}", 40)
            if not DATE.fullmatch(text):
                raise RunFileError(f"run.{key}: {f.show(text)} is not an ISO 8601 date")
            try:
                parse_date(text)
            except ValueError:
                raise RunFileError(f"run.{key}: {f.show(text)} is not an ISO 8601 date") from None
            return text

        run_id = f.text(get("id"), "run.id", 40)
        if not RUN_ID.fullmatch(run_id):
            raise RunFileError("run.id: letters, digits and dashes only")
        seed = f.text(get("seed"), "run.seed", 20)
        try:
            canonical = seeds.stored(seeds.read_stored(seed))
        except seeds.SeedCodeError:
            raise RunFileError(f"run.seed: {f.show(seed)} is not a seed code") from None
        if seed != canonical:  # spaces, lower case, control characters around it
            raise RunFileError(f"run.seed: {f.show(seed)} is not written as the game writes it")
        try:
            world = check_name(f.text(get("world"), "run.world", MAX_TEXT))
        except ValueError as err:
            raise RunFileError(f"run.world: {err}") from None
        total = count("total_floors", 1, 99)
        puzzles = [
            PuzzleScore(*p) for p in puzzle_scores_from(get("puzzles"), "run.puzzles", total)
        ]
        daily = f.optional_text(get("daily"), "run.daily", 10)
        if daily is not None:
            try:
                dt.date.fromisoformat(daily)
            except ValueError:
                raise RunFileError(f"run.daily: {f.show(daily)} is not a day") from None
        final = f.optional_text(get("digest"), "run.digest", 32)
        rec_doc = get("recording")
        try:
            recording = None if rec_doc is None else Recording.from_json(rec_doc, "run.recording")
        except RecordingError as err:
            raise RunFileError(str(err)) from None
        challenge = f.optional_text(get("challenge"), "run.challenge", 40)
        return cls(
            id=run_id,
            world=world,
            seed=seed,
            preset=f.text(get("preset"), "run.preset", 20, choices=tuple(PRESETS)),
            started=date("started"),
            ended=date("ended"),
            outcome=f.text(get("outcome"), "run.outcome", 20, choices=OUTCOMES),
            floors=count("floors", 1, total),
            total_floors=total,
            turns=count("turns"),
            kills=count("kills"),
            keys=count("keys"),
            puzzles=tuple(puzzles),
            hints_used=count("hints_used"),
            cause=f.optional_text(get("cause"), "run.cause", MAX_TEXT),
            score=count("score"),
            digest=final,
            daily=daily,
            scored=f.boolean(get("scored"), "run.scored"),
            recording=recording,
            challenge=challenge,
            generator=f.text(get("generator"), "run.generator", 40),
            difficulty=f.difficulty(o, "run"),
            equipment=None
            if o.get("equipment") is None
            else tuple(equipment_from(o["equipment"], "run.equipment").items()),
            final=None if o.get("final") is None else final_from(o["final"], total),
        )


#: The most lines a final view's gear or pack keeps (more than any run carries).
MAX_FINAL_LINES = 64


def final_doc(view: FinalView) -> dict[str, Any]:
    """A final view as JSON (every field written, read back by :func:`final_from`)."""
    return {
        "floor": view.floor,
        "gear": list(view.gear),
        "pack": list(view.pack),
        "messages": list(view.messages),
        "map": list(view.map),
    }


def final_from(value: Any, total: int) -> FinalView:
    """A final view from a run file's JSON: every field required, each list and line bounded
    (the text is shown through :func:`~saves.text.printable`, never as markup)."""
    from saves import fields as f  # the checked readers, as RunRecord.from_json loads them

    o = f.obj(value, "run.final")

    def lines(key: str, most: int) -> tuple[str, ...]:
        where = f"run.final.{key}"
        raw = f.array_list(f.get(o, key, "run.final"), where, most)
        return tuple(f.text(line, f"{where}[{i}]", LINE_MOST) for i, line in enumerate(raw))

    return FinalView(
        floor=f.integer(f.get(o, "floor", "run.final"), "run.final.floor", 1, total),
        gear=lines("gear", MAX_FINAL_LINES),
        pack=lines("pack", MAX_FINAL_LINES),
        messages=lines("messages", LAST_MESSAGES),
        map=lines("map", MAP_HEIGHT),
    )


# --- making a record -------------------------------------------------------------------------


def new_id(ended: str) -> str:
    """A run's id: the day it ended and six random hex digits (``20261124-3fa9c2``)."""
    return f"{ended[:10].replace('-', '')}-{secrets.token_hex(3)}"


def daily_day(seed: int, started: str) -> str | None:
    """The day whose daily world ``seed`` is, if it is the daily world of the day the world
    was created (UTC), else None."""
    try:
        day = parse_date(started).astimezone(dt.UTC).date()
    except ValueError:
        return None
    return day.isoformat() if seed == daily_seed(day) else None


def record_of(
    state: GameState,
    *,
    world: str,
    started: str,
    recording: Recording | None,
    abandoned: bool = False,
    ended: str | None = None,
    challenge: str | None = None,
) -> RunRecord:
    """The record of the run ``state`` ends (``abandoned``: left unfinished for good)."""
    ended = ended or now_iso()
    s = state.stats
    outcome = outcome_of(state)
    if not abandoned and outcome == "abandoned":
        raise ValueError("the run is not over: record it as abandoned, or not yet")
    puzzles = tuple(PuzzleScore(*p) for p in s.puzzle_scores)
    return RunRecord(
        id=new_id(ended),
        world=world,
        seed=seeds.stored(state.seed),
        preset=state.preset,
        difficulty=state.difficulty,
        started=started,
        ended=ended,
        outcome=outcome,
        floors=s.floors_reached,
        total_floors=state.total_floors,
        turns=state.turn,
        kills=s.kills,
        keys=s.keys,
        puzzles=puzzles,
        hints_used=s.hints_used,
        cause=cause_of(state),
        score=score_of(state),
        digest=None if recording is None else digest(state),
        daily=daily_day(state.seed, started),
        equipment=tuple(state.equipment.items()),
        final=final_view(state),
        recording=recording,
        challenge=challenge,
    )


# --- checking claims -------------------------------------------------------------------------


def claims(record: RunRecord, state: GameState, outcome: Outcome) -> list[Claim]:
    """Every claim ``record`` makes, beside what the replay of its recording gave (``state``
    and ``outcome``: the end of that replay), in the order :func:`verify` checks them."""
    s = state.stats
    claimed_puzzles = [[p.floor, p.type, p.difficulty, p.score] for p in record.puzzles]
    return [
        Claim("daily world", record.daily, daily_day(state.seed, record.started)),
        Claim("outcome", record.outcome, outcome_of(state)),
        Claim("cause", record.cause, cause_of(state)),
        Claim("floors", record.floors, s.floors_reached),
        Claim("total floors", record.total_floors, state.total_floors),
        Claim("turns", record.turns, state.turn),
        Claim("kills", record.kills, s.kills),
        Claim("keys", record.keys, s.keys),
        Claim("puzzles", claimed_puzzles, [list(p) for p in s.puzzle_scores]),
        Claim("hints used", record.hints_used, s.hints_used),
        Claim("score", record.score, score_of(state)),
        *(
            []
            if record.equipment is None
            else [Claim("equipment", dict(record.equipment), state.equipment)]
        ),
        Claim("final state", record.digest, outcome.digest),
    ]


@dataclass(frozen=True)
class Claim:
    """One claim of a record: its name, what the record says, what the replay gave."""

    name: str
    claimed: Any
    true: Any
    #: the line that refuses a record for this claim, when the plain one would say less
    refusal: str | None = None

    @property
    def holds(self) -> bool:
        return bool(self.claimed == self.true)

    def falsehood(self) -> str:
        """The one line that refuses a record for this claim."""
        if self.refusal is not None:
            return self.refusal
        return (
            f"the record's claim of {self.name} is false: it says {_shown(self.claimed)}, "
            f"its recording gives {_shown(self.true)}"
        )


#: What a record claims of its world when it was played as the game makes the world of its
#: seed, preset and difficulty (the claim :func:`world_claims` names "world rules").
STANDARD_WORLD = "the world the game makes of its seed and preset"


def world_claims(record: RunRecord) -> list[Claim]:
    """The claims a record makes about its world, beside what its recording's start says:
    the world (seed and size), its difficulty, and that it is the world the game makes of
    them (floors, monsters, puzzles, view: a test's tiny world is not, unless
    :data:`CUSTOM_WORLDS`). Checked before anything is replayed. ``record`` has a recording."""
    rec = record.recording
    assert rec is not None
    start = rec.start
    standard = Start.standard(start.seed, start.preset, start.difficulty)
    custom = start != standard and not CUSTOM_WORLDS
    return [
        Claim("world", [record.seed, record.preset], [seeds.stored(start.seed), start.preset]),
        Claim("difficulty", record.difficulty, start.difficulty),
        Claim(
            "world rules",
            STANDARD_WORLD,
            f"a custom world ({start.differences(standard)})" if custom else STANDARD_WORLD,
            refusal=(
                f"the run was played in a custom world ({start.differences(standard)}), "
                f"not {STANDARD_WORLD}"
            ),
        ),
    ]


@dataclass(frozen=True)
class Verification:
    """What checking a record gave (:func:`verification`): every claim checked, in order
    (the world's first), the replay's end (None if it was not replayed to its end), and
    the divergence if the recording went out of sync."""

    record: RunRecord
    claims: tuple[Claim, ...]
    state: GameState | None = None
    outcome: Outcome | None = None
    divergence: Divergence | None = None

    @property
    def false(self) -> list[Claim]:
        return [c for c in self.claims if not c.holds]

    @property
    def problem(self) -> str | None:
        """The one line that refuses the record (its first false claim, or where its
        recording went out of sync), or None if every claim holds."""
        false = self.false
        if false:
            return false[0].falsehood()
        if self.divergence is not None:
            return f"the recording does not replay: {self.divergence}"
        return None


def check_cost(record: RunRecord) -> None:
    """Refuse, before any replay, a record whose recording would cost more to replay than a
    run of its world may (:meth:`~roguelike.recording.Recording.cost_problem`): RunFileError
    in one line naming the bound."""
    rec = record.recording
    problem = None if rec is None else rec.cost_problem()
    if problem is not None:
        raise RunFileError(f"the recording is too long to replay: {problem}")


def verification(
    record: RunRecord, *, claims_too: bool = True, progress: Progress | None = None
) -> Verification:
    """The one check of a run record, which ``replay --verify``, ``runs import``, the title's
    challenge import and the hall all run: the world it claims (seed, size, floors and rules,
    difficulty) against its recording's start, then what the replay would cost
    (:func:`check_cost`), then its recording replayed and every claim about the run
    (:func:`claims`) against that replay (``claims_too=False``: the world only, then the
    replay). Stops at the first false claim about the world (the run's claims cannot stand
    on another world) and at a divergence. RunFileError when there is nothing to check: no
    recording, another generator's, or one too costly to replay. ``progress``: told how far
    the replay is (it may raise to stop it)."""
    rec = record.recording
    if rec is None:
        raise RunFileError("the run has no recording: its claims cannot be checked")
    problem = rec.generator_problem()
    if problem:
        raise RunFileError(problem)
    world = world_claims(record)
    if not all(c.holds for c in world):
        return Verification(record, tuple(world))
    check_cost(record)
    try:
        state, outcome = replay(rec, progress=progress)
    except Divergence as err:
        return Verification(record, tuple(world), divergence=err)
    except RecordingError as err:
        raise RunFileError(f"the recording does not replay: {err}") from None
    run = claims(record, state, outcome) if claims_too else []
    return Verification(record, (*world, *run), state, outcome)


def verify(record: RunRecord, *, progress: Progress | None = None) -> tuple[GameState, Outcome]:
    """Replay ``record``'s recording and check every claim it makes (:func:`verification`);
    RunFileError naming the first false claim (or why it cannot be replayed, or that it
    costs more than its world allows). Returns the replayed state and outcome.
    ``progress``: told how far the replay is (it may raise to stop it)."""
    found = verification(record, progress=progress)
    if found.problem is not None:
        raise RunFileError(found.problem)
    assert found.state is not None and found.outcome is not None
    return found.state, found.outcome


def _shown(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


# --- files -----------------------------------------------------------------------------------


def pack(record: RunRecord) -> bytes:
    """The bytes of a run file holding ``record``; RunFileError if its reader would refuse
    them (a bound of the envelope broken)."""
    payload = e.deflate(record.to_json(), KIND, "the run is too large to keep")
    head = {"format": RUN_FORMAT, "game": GAME_VERSION, "generator": record.generator}
    return e.wrap(head, payload, KIND)


def header_line(head: dict[str, Any]) -> bytes:
    """The magic and the header line of ``head`` with its seal (the line ends with ``\\n``)."""
    return e.header_line(head, KIND)


def unpack(data: bytes) -> RunRecord:
    """The record in the bytes of a run file; RunFileError with one line for anything wrong."""
    try:
        return _unpack(data)
    except RunFileError:
        raise
    except SaveError as err:  # a field's check
        raise RunFileError(str(err)) from None
    except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError) as err:
        raise RunFileError(f"the run file is malformed: {type(err).__name__}") from None


def _unpack(data: bytes) -> RunRecord:
    head, payload, _ = e.unwrap(data, KIND)
    version = head.get("format")
    if not isinstance(version, int) or isinstance(version, bool):
        raise RunFileError("the run file's header has no format")
    if version > RUN_FORMAT:
        raise RunFileError(
            f"made by a newer version: run format {version}, this game reads up to {RUN_FORMAT}"
        )
    generator = head.get("generator")
    if not isinstance(generator, str) or not generator:
        raise RunFileError("the run file's header has no generator version")
    if generator != GENERATOR_VERSION:
        shown = json.dumps(generator[:20])[1:-1]  # control characters escaped
        raise RunFileError(
            f"recorded with generator {shown}, this game has {GENERATOR_VERSION}: "
            "its floors would differ"
        )
    if version < OLDEST_RUN_FORMAT:
        raise RunFileError(f"run format {version} is not one this game reads")
    length, digest = head.get("length"), head.get("blake2b")
    if type(length) is not int or not isinstance(digest, str):
        raise RunFileError("the run file's header has no length or checksum")
    e.check_payload(payload, length, digest, KIND)
    doc = e.inflate(payload, KIND)
    for key, since in (("equipment", 3), ("final", 3)):
        if isinstance(doc, dict) and (key in doc) != (version >= since):
            held = "holds" if version < since else "lacks"
            raise RunFileError(f"run.{key}: a record of run format {version} {held} it")
    record = RunRecord.from_json(doc)
    if record.generator != generator or (
        record.recording is not None and record.recording.generator != generator
    ):
        raise RunFileError("the run file's header does not match its payload (generator)")
    return record


# --- the hall --------------------------------------------------------------------------------


#: Run files read, by path: (mtime, size, inode) and the record, or why it is not listed (a
#: file whose recording refutes it). Listing the hall again (the title shows the daily streak
#: each time it appears) reads only what changed, and replays nothing twice in a process.
_READ: dict[Path, tuple[tuple[int, int, int], RunRecord | str]] = {}

#: The file in each hall folder that lists the run files known to hold up, by a checksum of
#: their bytes (one hex digest a line): those the game wrote itself after checking them, and
#: those a listing replayed. A run file not in it (dropped into the folder by hand) is
#: verified by replay before it is listed, once: then its checksum joins the list.
CHECKED_FILE = "checked"
#: The most checksums the list keeps (the newest), and its largest size.
MAX_CHECKED = 2 * MAX_LISTED
_CHECKSUM = re.compile(r"[0-9a-f]{32}", re.ASCII)


def checksum(data: bytes) -> str:
    """The checksum the hall's list of checked files keeps of a run file's bytes."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


class Hall:
    """The run records of one save folder (see the module)."""

    def __init__(self, folder: str | os.PathLike[str], clock: Callable[[], str] = now_iso):
        self.path = Path(folder)
        self.clock = clock
        #: why some files were skipped by the last listing (one line each)
        self.problems: list[str] = []

    def _dir(self, imported: bool) -> Path:
        return self.path / (CHALLENGES_DIR if imported else RUNS_DIR)

    def file(self, run_id: str, imported: bool = False) -> Path:
        return self._dir(imported) / f"{run_id}{SUFFIX}"

    def add(self, record: RunRecord, imported: bool = False) -> RunRecord:
        """Keep ``record`` (a daily run not the first finished that day is kept unscored).
        The same run kept twice (same world, start, outcome and turns) is kept once. The
        caller has checked it (:func:`verify`, or a session that played it from its start):
        its file joins the folder's list of checked files first, so a failure to write
        either keeps nothing listed that was not checked."""
        folder = self._dir(imported)
        self.path.mkdir(parents=True, exist_ok=True)
        # two games ending runs at once: the check for the same run and for the day's scored
        # daily run, and the write, are one step under the hall's lock
        with shared_lock(folder):
            same = (record.world, record.started, record.outcome, record.turns, record.seed)
            for old in self.challenges() if imported else self.runs():
                if (old.world, old.started, old.outcome, old.turns, old.seed) == same:
                    return old
            daily = record.daily and not imported
            if daily and self.daily_used(dt.date.fromisoformat(record.daily or "")):
                record = replace(record, scored=False)
            folder.mkdir(parents=True, exist_ok=True)
            data = pack(record)
            self._vouch(folder, [checksum(data)])
            write_atomic(self.file(record.id, imported), data)
        return record

    def _checked(self, folder: Path) -> list[str]:
        """The checksums of the run files in ``folder`` known to hold up (see
        :data:`CHECKED_FILE`); a list that cannot be read or is damaged is empty (each file
        is then verified again, once)."""
        try:
            text = read_file(folder / CHECKED_FILE, MAX_CHECKED * 33 + 1).decode("ascii")
        except (OSError, SaveError, UnicodeDecodeError):
            return []
        return [line for line in text.split("\n") if _CHECKSUM.fullmatch(line)]

    def _vouch(self, folder: Path, sums: list[str]) -> None:
        """Add ``sums`` to ``folder``'s list of checked files (atomically; raises OSError)."""
        known = self._checked(folder)
        kept = [*known, *(c for c in sums if c not in known)][-MAX_CHECKED:]
        write_atomic(folder / CHECKED_FILE, "".join(f"{c}\n" for c in kept).encode("ascii"))

    def _read_all(self, imported: bool) -> list[RunRecord]:
        """The records of a folder that hold up: a file the game did not check before (one
        dropped there by hand) is verified by replay first (:func:`verification`), and one
        whose recording refutes it is not listed (:attr:`problems` says why, in a line)."""
        folder = self._dir(imported)
        out: list[RunRecord] = []
        try:
            names = sorted(p for p in folder.iterdir() if p.name.endswith(SUFFIX))
        except FileNotFoundError:
            return out
        except OSError as err:  # not a folder, not readable: an empty hall that says why
            self.problems.append(f"{folder.name}: {err.strerror or err}")
            return out
        checked: set[str] | None = None  # read once, when a file is not cached
        newly: list[str] = []
        for p in names[-MAX_LISTED:]:
            try:
                st = p.stat()
                if not stat.S_ISREG(st.st_mode):
                    continue
                key = (st.st_mtime_ns, st.st_size, st.st_ino)
                cached = _READ.get(p)
                if cached is None or cached[0] != key:
                    if checked is None:
                        checked = set(self._checked(folder))
                    data = read_file(p, MAX_FILE)
                    record = unpack(data)
                    found: RunRecord | str = record
                    if checksum(data) not in checked:
                        try:
                            verify(record)
                            newly.append(checksum(data))
                        except RunFileError as err:
                            found = f"not listed: {err}"
                    cached = (key, found)
                    _READ[p] = cached
                if isinstance(cached[1], str):
                    self.problems.append(f"{p.name}: {printable(cached[1])}")
                else:
                    out.append(cached[1])
            except (SaveError, OSError) as err:  # a run file's or the store's refusal
                self.problems.append(f"{p.name}: {printable(str(err))}")
        if newly:
            try:
                self._vouch(folder, newly)
            except OSError as err:  # listed all the same: they are verified again next time
                self.problems.append(
                    f"{CHECKED_FILE}: the list of checked runs was not written "
                    f"({err.strerror or err}): they are replayed again next time"
                )
        return out

    def runs(self) -> list[RunRecord]:
        """The player's runs, best score first (then newest)."""
        self.problems = []
        runs = self._read_all(False)
        runs.sort(key=lambda r: r.ended, reverse=True)
        runs.sort(key=lambda r: r.score, reverse=True)
        return runs

    def challenges(self) -> list[RunRecord]:
        """The records imported from others, newest first."""
        self.problems = []
        return sorted(self._read_all(True), key=lambda r: r.ended, reverse=True)

    def get(self, run_id: str) -> tuple[RunRecord, bool]:
        """The record ``run_id`` (an own run or a challenge; a unique prefix will do) and
        whether it was imported. RunFileError if none or several match."""
        found = []
        for imported in (False, True):
            folder = self._dir(imported)
            try:
                names = [p for p in folder.iterdir() if p.name.endswith(SUFFIX)]
            except FileNotFoundError:
                continue
            found += [(p, imported) for p in names if p.name[: -len(SUFFIX)].startswith(run_id)]
        if not run_id or not found:
            raise RunFileError(f"no run {run_id!r} in {self.path}")
        exact = [(p, i) for p, i in found if p.name == f"{run_id}{SUFFIX}"]
        if len(exact) == 1:
            found = exact
        if len(found) > 1:
            raise RunFileError(f"{run_id!r} names {len(found)} runs: give more of the id")
        path, imported = found[0]
        return unpack(read_file(path, MAX_FILE)), imported

    def export(self, run_id: str, dest: str | os.PathLike[str]) -> Path:
        """Write the record ``run_id`` as a challenge file at ``dest`` (atomically)."""
        record, _ = self.get(run_id)
        if record.recording is None:
            raise RunFileError(f"run {record.id} has no recording: there is nothing to send")
        path = Path(dest).expanduser()
        try:
            check_replaceable(path)  # the one rule of the store: never a device, FIFO or link
        except NotRegularFile as err:
            raise RunFileError(f"{path} is {err.strerror}: choose another path") from None
        write_atomic(path, pack(record))
        return path

    def import_file(self, source: str | os.PathLike[str]) -> RunRecord:
        """Check the challenge file ``source`` in full (read with bounds, then replayed: every
        claim recomputed) and keep it among the challenges. RunFileError, with nothing kept,
        if anything is wrong."""
        return self.keep_challenge(self.check_file(source))

    def check_file(
        self, source: str | os.PathLike[str], *, progress: Progress | None = None
    ) -> RunRecord:
        """The record in the challenge file ``source``, read with bounds and replayed, every
        claim recomputed (RunFileError if anything is wrong); nothing is kept yet (a screen
        checks in the background and keeps it with :meth:`keep_challenge` only if the player
        is still waiting for it; ``progress``: told how far its replay is, see :func:`verify`)."""
        path = Path(source).expanduser()
        if not path.is_file():
            raise RunFileError(f"{path}: not a regular file")
        if path.stat().st_size > MAX_FILE:
            raise RunFileError(f"{path}: larger than a run file can be ({MAX_FILE >> 20} MiB)")
        try:
            data = read_file(
                path, MAX_FILE
            )  # refuses a link, or a file swapped for a FIFO meanwhile
        except NotRegularFile as err:
            raise RunFileError(f"{path}: {err.strerror}") from None
        record = unpack(data)
        verify(record, progress=progress)
        return record

    def keep_challenge(self, record: RunRecord) -> RunRecord:
        """Keep the checked ``record`` among the challenges, as kept (see :meth:`check_file`)."""
        # what the sender's game did with the run is not the receiver's: it answers no
        # challenge here, and a run id already used in this folder gets a new one
        record = replace(record, challenge=None)
        if self._taken(record.id):
            record = replace(record, id=self._fresh_id(record.ended))
        return self.add(record, imported=True)

    def _taken(self, run_id: str) -> bool:
        return self.file(run_id).exists() or self.file(run_id, imported=True).exists()

    def _fresh_id(self, ended: str) -> str:
        while True:
            run_id = new_id(ended)
            if not self._taken(run_id):
                return run_id

    def daily_used(self, day: dt.date, runs: list[RunRecord] | None = None) -> bool:
        """Whether the scored run of ``day``'s daily world is used (a later one is practice:
        :meth:`add` keeps it unscored). ``runs``: the hall's runs, if already read."""
        runs = self.runs() if runs is None else runs
        return any(r.daily == day.isoformat() and r.scored for r in runs)

    def streak(self, today: dt.date | None = None, runs: list[RunRecord] | None = None) -> int:
        """Days in a row, ending today or yesterday (UTC), with a daily run finished.
        ``runs``: the hall's runs, if already read."""
        days = {r.daily for r in (self.runs() if runs is None else runs) if r.daily}
        day = today or dt.datetime.now(dt.UTC).date()
        if day.isoformat() not in days:
            day -= dt.timedelta(days=1)
        n = 0
        while day.isoformat() in days:
            n += 1
            day -= dt.timedelta(days=1)
        return n
