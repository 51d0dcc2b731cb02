"""The run record: what is kept of a run once it is over, and its file.

A *run record* (:class:`RunRecord`) is what is kept of a run once it is over (won, died, or
abandoned): the world (name, seed code, preset, whether it was the daily world), when it began
and ended, its outcome and statistics, its score (:func:`saves.runs.score`), what was worn at
the end and the end as the player saw it (:class:`~roguelike.engine.final.FinalView`), and the
recording of every input (:mod:`roguelike.recording`), so it can be watched again and checked
(:mod:`saves.verify`). :func:`record_of` makes one from the state a run ends in.

Files (a run record, or a challenge: the same record sent to someone else)::

    RGLKRUN1{"blake2b": "…", "format": 2, "game": "…", "generator": "…", "length": N,
             "seal": "…"}\\n<zlib JSON>

The file is in the envelope a save is in (:mod:`saves.envelope`: magic, sealed header line,
checksummed compressed payload, every bound checked before anything is built); its header
holds the run format, the game and the generator besides the payload's length and checksum.
:func:`pack` refuses a record its reader would refuse; :func:`unpack` reads one with every
field checked. A run file of another generator is refused in one line (its floors would
differ), as a save is. Nothing is pickled or evaluated.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import secrets
from dataclasses import dataclass, field
from typing import Any

from roguelike import seeds
from roguelike.engine.balance import DEFAULT_DIFFICULTY
from roguelike.engine.final import LAST_MESSAGES, LINE_MOST, MAP_HEIGHT, FinalView, final_view
from roguelike.engine.state import GameState
from roguelike.presets import PRESETS
from roguelike.recording import Recording, RecordingError, digest
from roguelike.version import GAME_VERSION, GENERATOR_VERSION
from saves import envelope as e
from saves.errors import SaveError
from saves.runs import score_of
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
OUTCOMES = ("won", "died", "abandoned")
#: A date as the game writes one (``now_iso``): nothing else passes, so no stray character in
#: a date from a file can reach the screen.
DATE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(\+00:00|Z)", re.ASCII)
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
    #: a practice run (``saves.session.Games.practice``): the input its own play began at, the
    #: inputs before it replayed from another run (None: a whole run, played from its first
    #: input). A practice run is never scored, never the daily run, never ranked on a ladder.
    practice_from: int | None = None

    @property
    def practice(self) -> bool:
        return self.practice_from is not None

    @property
    def puzzles_solved(self) -> int:
        return len(self.puzzles)

    @property
    def puzzle_points(self) -> int:
        return sum(p.score for p in self.puzzles)

    # -- to and from JSON

    def to_json(self) -> dict[str, Any]:
        doc = {
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
        if self.practice_from is not None:  # written only for a practice run
            doc["practice_from"] = self.practice_from
        return doc

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
        practice_from = None
        if o.get("practice_from") is not None:  # written only for a practice run
            if recording is None:
                raise RunFileError("run.practice_from: a practice run without its recording")
            practice_from = f.integer(o["practice_from"], "run.practice_from", 0, len(recording))
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
            practice_from=practice_from,
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
    practice_from: int | None = None,
) -> RunRecord:
    """The record of the run ``state`` ends (``abandoned``: left unfinished for good;
    ``practice_from``: a practice run, its own play begun at that input: kept unscored)."""
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
        scored=practice_from is None,
        practice_from=practice_from,
    )


# --- files -----------------------------------------------------------------------------------


def pack(record: RunRecord) -> bytes:
    """The bytes of a run file holding ``record``; RunFileError if its reader would refuse
    them (a bound of the envelope or of a field broken: it reads them back first, so the
    hall never keeps a file its listing would refuse)."""
    payload = e.deflate(record.to_json(), KIND, "the run is too large to keep")
    head = {"format": RUN_FORMAT, "game": GAME_VERSION, "generator": record.generator}
    data = e.wrap(head, payload, KIND)
    unpack(data)  # the game never writes a run file it would refuse
    return data


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
    version = e.header_format(head, KIND)
    if version > RUN_FORMAT:
        raise RunFileError(
            f"made by a newer version: run format {version}, this game reads up to {RUN_FORMAT}"
        )
    generator = e.header_generator(head, KIND)
    if generator != GENERATOR_VERSION:
        shown = json.dumps(generator[:20])[1:-1]  # control characters escaped
        raise RunFileError(
            f"recorded with generator {shown}, this game has {GENERATOR_VERSION}: "
            "its floors would differ"
        )
    if version < OLDEST_RUN_FORMAT:
        raise RunFileError(f"run format {version} is not one this game reads")
    e.check_header_payload(head, payload, KIND)
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
