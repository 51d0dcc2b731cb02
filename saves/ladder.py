"""Ladders without a server: many players' runs of one world, each re-verified, ranked.

A *ladder* merges run and challenge files (:mod:`saves.record`) and ladder files (below) of one
world (seed, size and difficulty: one seed, or one daily world) into a ranked table. Nothing in
a file is trusted: every run is checked by the one verification of the game
(:func:`saves.verify.verification`, bounded in cost by :func:`saves.verify.check_cost`), in
parallel processes when there are several (:func:`verify_many`), under a deadline. What does
not hold up is *refused*, one line each, naming the claim that failed: a file that does not
read, a run of another world (another seed, another daily, another generator), a false claim,
a recording out of sync, a practice run (:attr:`RunRecord.practice_from`), a run not checked
before the deadline. The same run given twice (the same file, or a run already in a ladder
file, or re-sent with another date, id or world name) counts once (:func:`identity`). Ranks:
score, then fewer turns, then the run's identity (:func:`rank_key`: only what the replay
proves), so a ladder ranks the same whatever order its files are given in.

A ladder file holds the verified runs of one ladder, so it can be passed on and merged again;
its runs are verified again whenever it is read (a file proves nothing by itself)::

    RGLKLADR{"blake2b": "…", "format": 1, "game": "…", "generator": "…", "length": N,
             "seal": "…"}\\n<zlib JSON: {"world": {"seed", "preset", "difficulty"},
                                          "runs": [run record, …]}>

It is in the envelope every file is in (:mod:`saves.envelope`: bounded, sealed, checksummed),
holds at most :data:`MAX_RUNS` runs, each read as a run file's record is
(:meth:`RunRecord.from_json`), all of the world it names and of this generator; :func:`pack`
reads its bytes back before returning them, so the game never writes a ladder it would refuse.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from roguelike import seeds
from roguelike.version import GAME_VERSION, GENERATOR_VERSION
from saves import envelope as e
from saves import fields as f
from saves import verify as checks
from saves.errors import SaveError
from saves.files import NotRegularFile, read_file
from saves.record import MAGIC as RUN_MAGIC
from saves.record import MAX_FILE as MAX_RUN_FILE
from saves.record import RunFileError, RunRecord, unpack
from saves.record import pack as pack_run
from saves.text import printable

MAGIC = b"RGLKLADR"
#: The ladder format this game writes and reads.
LADDER_FORMAT = 1
#: The most runs a ladder file holds (and a ladder ranks).
MAX_RUNS = 100
#: How long a ladder's verification may take in all, by default, in seconds.
DEADLINE = 300.0


class LadderFileError(RunFileError):
    """A ladder file that cannot be read: one line."""


KIND = e.Kind(MAGIC, "ladder file", 1024, header_elements=100, error=LadderFileError)
#: The largest ladder file.
MAX_FILE = KIND.max_file


@dataclass(frozen=True, order=True)
class WorldKey:
    """The world a ladder ranks: seed code, size and difficulty."""

    seed: str
    preset: str
    difficulty: str

    @classmethod
    def of(cls, record: RunRecord) -> WorldKey:
        return cls(record.seed, record.preset, record.difficulty)

    def words(self) -> str:
        """The world as players see it: its code as shown (a ladder ranks only this generator's
        runs), size and difficulty."""
        return (
            f"seed {seeds.shown(self.seed, GENERATOR_VERSION)} ({self.preset}, {self.difficulty})"
        )


@dataclass(frozen=True)
class Entry:
    """A run as given: where it came from (a file, or a file and its place in a ladder)."""

    source: str
    record: RunRecord


@dataclass(frozen=True)
class Refusal:
    """Something given that the ladder does not rank, and why (one line)."""

    source: str
    reason: str

    def line(self) -> str:
        return f"{printable(self.source)}: {printable(self.reason)}"


@dataclass(frozen=True)
class Ladder:
    """Ranked runs of one world (best first), the day if it is a daily world, and what was
    refused."""

    world: WorldKey | None
    daily: str | None
    runs: tuple[Entry, ...]
    refused: tuple[Refusal, ...]


def rank_key(record: RunRecord) -> tuple[int, int, str]:
    """Higher score first, then fewer turns, then the run's :func:`identity`: only what its
    replay proves (its dates, id and world name are the sender's word, so a forged early end
    or a chosen id never wins a tie)."""
    return (-record.score, record.turns, identity(record))


def identity(record: RunRecord) -> str:
    """What makes two runs the same run: the world and every input with its check (a run
    exported twice, kept in two ladders, or re-sent with another start date, id or world
    name has the same identity: none of those is proved by its replay)."""
    rec = record.recording
    doc = [
        record.seed,
        record.preset,
        record.difficulty,
        None if rec is None else rec.to_json(),
    ]
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def _whole(record: RunRecord) -> str:
    """A checksum of everything ``record`` holds (its claims too)."""
    text = json.dumps(record.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


# --- reading what is given -------------------------------------------------------------------


def read_entries(path: str | os.PathLike[str]) -> list[Entry]:
    """The runs in a run, challenge or ladder file (told apart by their magic); RunFileError
    in one line if the file cannot be read or is refused."""
    where = Path(path).expanduser()
    shown = str(path)
    if not where.is_file():
        raise RunFileError("not a regular file")
    try:
        data = read_file(where, max(MAX_FILE, MAX_RUN_FILE))
    except NotRegularFile as err:
        raise RunFileError(err.strerror or "not a regular file") from None
    if data.startswith(MAGIC):
        return [Entry(f"{shown} #{i + 1}", r) for i, r in enumerate(unpack_ladder(data))]
    if data.startswith(RUN_MAGIC):
        return [Entry(shown, unpack(data))]
    raise RunFileError(
        f"not a run, challenge or ladder file (it starts with neither "
        f"{RUN_MAGIC.decode()} nor {MAGIC.decode()})"
    )


def gather(paths: Sequence[str]) -> tuple[list[Entry], list[Refusal]]:
    """Every run in ``paths``, in order, and the files refused (each in one line)."""
    entries: list[Entry] = []
    refused: list[Refusal] = []
    for path in paths:
        try:
            entries += read_entries(path)
        except (SaveError, OSError) as err:
            reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
            refused.append(Refusal(path, reason))
    return entries, refused


# --- verification, in parallel ---------------------------------------------------------------


class _Late(Exception):
    """The deadline passed during a replay."""


def _check(data: bytes, deadline: float) -> str | None:
    """Why the run in the run file bytes ``data`` does not hold up, or None (in a worker)."""

    def progress(done: int, total: int) -> None:
        if time.time() > deadline:
            raise _Late

    try:
        found = checks.verification(unpack(data), progress=progress)
    except _Late:
        return "not checked before the deadline"
    except RunFileError as err:
        return str(err)
    return found.problem


def _worker_start(custom: bool) -> None:
    """A verifying process's first step: the parent's rule for custom worlds (the tests')."""
    checks.CUSTOM_WORLDS = custom


def verify_many(
    records: Sequence[RunRecord], *, jobs: int = 1, deadline: float = DEADLINE
) -> list[str | None]:
    """Why each of ``records`` does not hold up (None: every claim holds, by replay), checked
    in ``jobs`` processes (1: in this one) within ``deadline`` seconds in all; a run not
    checked by then is refused as such."""
    until = time.time() + deadline
    blobs = [_packed(r) for r in records]
    if jobs <= 1 or len(records) <= 1:
        return [b if isinstance(b, str) else _check(b, until) for b in blobs]
    found: list[str | None] = ["not checked before the deadline"] * len(records)
    context = multiprocessing.get_context("spawn")  # no fork of a process with threads
    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=context,
        initializer=_worker_start,
        initargs=(checks.CUSTOM_WORLDS,),
    )
    try:
        futures = {}
        for i, blob in enumerate(blobs):
            if isinstance(blob, str):
                found[i] = blob
            else:
                futures[pool.submit(_check, blob, until)] = i
        # each replay stops itself at the deadline; the grace covers a process's start
        done, _ = wait(futures, timeout=deadline + 30)
        for future in done:
            err = future.exception()
            found[futures[future]] = (
                future.result() if err is None else f"not checked: {type(err).__name__}"
            )
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    return found


def _packed(record: RunRecord) -> bytes | str:
    """The run file bytes a worker checks, or why there are none."""
    try:
        return pack_run(record)
    except RunFileError as err:
        return str(err)


# --- the ladder ------------------------------------------------------------------------------


def hall_ladder(record: RunRecord, records: Sequence[RunRecord]) -> Ladder:
    """The ladder of ``record``'s world among ``records`` (a hall's runs and challenges, each
    verified by replay when the hall listed it)."""
    entries = [Entry(f"{r.world} ({r.id})", r) for r in records]
    world = WorldKey.of(record)
    same = [x for x in entries if WorldKey.of(x.record) == world]
    return build(same, world=world, replayed=True)


def world_of(entries: Sequence[Entry]) -> WorldKey | None:
    """The world most of ``entries`` claim (the first given, among equals), counting only
    those whose claims of their world hold (:func:`saves.verify.world_claims`, checked
    without a replay): files claiming a world their recordings do not start never outvote
    genuine runs of another. When none holds, the world most of them claim (all refused)."""
    if not entries:
        return None
    sound = [x for x in entries if _world_holds(x.record)] or list(entries)
    counts = Counter(WorldKey.of(x.record) for x in sound)
    order = {k: i for i, k in reversed(list(enumerate(WorldKey.of(x.record) for x in sound)))}
    return min(counts, key=lambda k: (-counts[k], order[k]))


def _world_holds(record: RunRecord) -> bool:
    """Whether ``record`` has a recording of this generator that starts the world it claims."""
    rec = record.recording
    if rec is None or rec.generator_problem():
        return False
    return all(c.holds for c in checks.world_claims(record))


def _another_world(record: RunRecord, world: WorldKey, daily: str | None) -> str:
    if record.daily and daily:
        return f"a run of the daily world of {record.daily}, the ladder's is of {daily}"
    return f"a run of {WorldKey.of(record).words()}, the ladder's is of {world.words()}"


def build(
    entries: Sequence[Entry],
    refused: Sequence[Refusal] = (),
    *,
    world: WorldKey | None = None,
    jobs: int = 1,
    deadline: float = DEADLINE,
    replayed: bool = False,
) -> Ladder:
    """The ladder of ``entries`` (see the module): ``world`` (None: the one most entries
    claim), every run of it verified by replay, the rest refused in one line each.
    ``replayed``: the runs were verified already (the hall's, which lists only runs that
    held up by replay), so only the world, practice and sameness are checked."""
    out = list(refused)
    world = world or world_of(entries)
    days = [x.record.daily for x in entries if world and WorldKey.of(x.record) == world]
    daily = next((d for d in days if d), None)
    candidates: list[Entry] = []
    given: dict[str, str] = {}  # the same record given twice is verified once
    for x in entries:
        r = x.record
        whole = _whole(r)
        if world is None or WorldKey.of(r) != world:
            out.append(Refusal(x.source, _another_world(r, world or WorldKey.of(r), daily)))
        elif r.practice_from is not None:
            out.append(
                Refusal(
                    x.source,
                    f"a practice run (its own play from input {r.practice_from}): "
                    "a ladder ranks whole runs only",
                )
            )
        elif whole in given:
            out.append(Refusal(x.source, f"the same run as {given[whole]}: counted once"))
        elif len(candidates) >= MAX_RUNS:
            out.append(Refusal(x.source, f"a ladder ranks at most {MAX_RUNS} runs"))
        else:
            given[whole] = x.source
            candidates.append(x)
    problems = (
        [None] * len(candidates)
        if replayed
        else verify_many([x.record for x in candidates], jobs=jobs, deadline=deadline)
    )
    ranked = []
    seen: dict[str, str] = {}  # the same run under another id (a challenge kept and resent)
    for x, problem in zip(candidates, problems, strict=True):
        if problem is not None:
            out.append(Refusal(x.source, problem))
        elif identity(x.record) in seen:
            out.append(
                Refusal(x.source, f"the same run as {seen[identity(x.record)]}: counted once")
            )
        else:
            seen[identity(x.record)] = x.source
            ranked.append(x)
    ranked.sort(key=lambda x: rank_key(x.record))
    return Ladder(world if ranked or entries else None, daily, tuple(ranked), tuple(out))


# --- ladder files ----------------------------------------------------------------------------


def pack(ladder: Ladder) -> bytes:
    """The bytes of a ladder file holding ``ladder``'s ranked runs; LadderFileError if there
    are none or its reader would refuse them (it reads them back first)."""
    if ladder.world is None or not ladder.runs:
        raise LadderFileError("the ladder has no verified run: there is nothing to write")
    w = ladder.world
    doc = {
        "world": {"seed": w.seed, "preset": w.preset, "difficulty": w.difficulty},
        "runs": [x.record.to_json() for x in ladder.runs[:MAX_RUNS]],
    }
    payload = e.deflate(doc, KIND, "the ladder is too large to keep")
    head = {"format": LADDER_FORMAT, "game": GAME_VERSION, "generator": GENERATOR_VERSION}
    data = e.wrap(head, payload, KIND)
    unpack_ladder(data)  # the game never writes a ladder it would refuse
    return data


def unpack_ladder(data: bytes) -> list[RunRecord]:
    """The runs of a ladder file; LadderFileError in one line for anything wrong (the runs
    are read, not yet verified: :func:`build` does that)."""
    try:
        return _unpack(data)
    except LadderFileError:
        raise
    except SaveError as err:  # a field's check, a run's refusal
        raise LadderFileError(str(err)) from None
    except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError) as err:
        raise LadderFileError(f"the ladder file is malformed: {type(err).__name__}") from None


def _unpack(data: bytes) -> list[RunRecord]:
    head, payload, _ = e.unwrap(data, KIND)
    version = e.header_format(head, KIND)
    if version != LADDER_FORMAT:
        raise LadderFileError(
            f"ladder format {version} is not one this game reads (it reads {LADDER_FORMAT})"
        )
    generator = e.header_generator(head, KIND)
    if generator != GENERATOR_VERSION:
        shown = json.dumps(generator[:20])[1:-1]  # control characters escaped
        raise LadderFileError(
            f"a ladder of generator {shown}, this game has {GENERATOR_VERSION}: "
            "its floors would differ"
        )
    e.check_header_payload(head, payload, KIND)
    doc = f.obj(e.inflate(payload, KIND), "ladder")
    w = f.obj(f.get(doc, "world", "ladder"), "ladder.world")
    world = WorldKey(
        f.text(f.get(w, "seed", "ladder.world"), "ladder.world.seed", 20),
        f.text(f.get(w, "preset", "ladder.world"), "ladder.world.preset", 20),
        f.text(f.get(w, "difficulty", "ladder.world"), "ladder.world.difficulty", 20),
    )
    raw = f.array_list(f.get(doc, "runs", "ladder"), "ladder.runs", MAX_RUNS)
    if not raw:
        raise LadderFileError("ladder.runs: a ladder file holds at least one run")
    runs = []
    for i, item in enumerate(raw):
        try:
            record = RunRecord.from_json(item)
        except SaveError as err:
            raise LadderFileError(f"ladder.runs[{i}]: {err}") from None
        if record.generator != generator or (
            record.recording is not None and record.recording.generator != generator
        ):
            raise LadderFileError(f"ladder.runs[{i}]: of another generator than its ladder")
        if WorldKey.of(record) != world:
            raise LadderFileError(
                f"ladder.runs[{i}]: a run of {WorldKey.of(record).words()}, "
                f"the ladder's is of {world.words()}"
            )
        runs.append(record)
    return runs


# --- as text ---------------------------------------------------------------------------------


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def ladder_table(ladder: Ladder) -> str:
    """``runs ladder``'s text: the world, the ranked runs, then the refused, a line each."""
    w = ladder.world
    title = "no run to rank" if w is None else f"Ladder of {w.words()}"
    if ladder.daily:
        title += f", the daily world of {ladder.daily}"
    lines = [f"{title}: {len(ladder.runs)} verified by replay, {len(ladder.refused)} refused"]
    rows = [("RANK", "SCORE", "TURNS", "ENDED", "OUTCOME", "FLOOR", "WORLD", "ID", "FILE")]
    for n, x in enumerate(ladder.runs, 1):
        r = x.record
        rows.append(
            (
                str(n),
                str(r.score),
                str(r.turns),
                r.ended[:16].replace("T", " "),
                r.outcome,
                f"{r.floors}/{r.total_floors}",
                _cut(printable(r.world), 24),
                r.id,
                printable(x.source),
            )
        )
    if ladder.runs:
        widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
        right = {0, 1, 2}
        lines += [
            "  ".join(
                cell.rjust(wd) if c in right else cell.ljust(wd)
                for c, (cell, wd) in enumerate(zip(row, widths, strict=True))
            ).rstrip()
            for row in rows
        ]
    if ladder.refused:
        lines.append("Refused:")
        lines += [f"  {r.line()}" for r in ladder.refused]
    return "\n".join(lines) + "\n"
